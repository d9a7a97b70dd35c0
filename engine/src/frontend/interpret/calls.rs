//! Calls: arguments evaluated (`*args`, `**kwargs`) and bound to PySpark 4.3's signature, dispatched by receiver, and values read as Columns or literals as PySpark's functions read them.

use super::{modules, perr, str_method, stream, type_error, unknown_api, Evaluator, Py, R};
use crate::frontend::pyspark_api::{self, ApiKind, Bound};
use crate::frontend::python::{Arg, ArgKind, PyNodeKind};
use crate::frontend::{ParseError, Span};
use crate::error::{AnalysisError, Error};
use crate::plan::Expr;
use crate::types::Value;

impl Evaluator<'_> {
    /// A value used where a Column is expected and a plain Python value means a literal
    /// (`F.col('a') == 'u1'`, `F.when(c, '5 minutes')`).
    pub(super) fn literal_or_col(&self, v: Py, span: Span) -> R<Expr> {
        Ok(match self.as_col_if_column(v) {
            Py::Col(e) => e,
            Py::Str(s) => Expr::Literal(Value::str(&s)),
            Py::Int(i) => Expr::Literal(if let Ok(v) = i32::try_from(i) { Value::Int(v) } else { Value::Long(i) }),
            Py::Float(f) => Expr::Literal(Value::Double(f)),
            Py::Bool(b) => Expr::Literal(Value::Bool(b)),
            Py::NoneVal => Expr::Literal(Value::Null),
            other => return Err(perr(format!("expected a Column or a literal, got a {}", other.type_name()), span)),
        })
    }

    /// A value used where a column is expected and a string names a column
    /// (`select('a')`, `groupBy('post_id')`, `F.window('event_time', ...)`).
    pub(super) fn col_ref(&self, v: Py, span: Span) -> R<Expr> {
        match self.as_col_if_column(v) {
            Py::Str(s) if s == "*" => Ok(Expr::Star),
            Py::Str(s) => Ok(Expr::Column(s)),
            Py::Col(e) => Ok(e),
            other => Err(perr(format!("expected a column name or a Column, got a {}", other.type_name()), span)),
        }
    }

    /// Column references from `*cols`, where a single list or tuple stands for its items
    /// (`select(['a', 'b'])`, as PySpark accepts).
    pub(super) fn col_refs(&self, args: Vec<(Py, Span)>) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        for (v, span) in args {
            match v {
                Py::List(items) => {
                    for i in items {
                        out.push(self.col_ref(i, span)?);
                    }
                }
                v => out.push(self.col_ref(v, span)?),
            }
        }
        Ok(out)
    }

    /// Evaluates a call's arguments: `*list` spreads into positional arguments, `**dict` into
    /// keyword arguments.
    fn eval_args(&mut self, args: &[Arg]) -> R<(Vec<(Py, Span)>, Vec<(String, Py, Span)>)> {
        let mut pos = Vec::new();
        let mut kw = Vec::new();
        for a in args {
            let span = a.value.span;
            let v = self.eval(&a.value)?;
            match (&a.kind, v) {
                (ArgKind::Positional, v) => pos.push((v, span)),
                (ArgKind::Keyword(n), v) => kw.push((n.clone(), v, span)),
                (ArgKind::Star, Py::List(items)) => pos.extend(items.into_iter().map(|i| (i, span))),
                (ArgKind::Star, other) => return Err(type_error(format!("argument after * must be an iterable, not {}", other.type_name()), span)),
                (ArgKind::DoubleStar, Py::Dict(entries)) => {
                    for (k, v) in entries {
                        match k {
                            Py::Str(k) => kw.push((k, v, span)),
                            other => return Err(type_error(format!("keywords must be strings, not {}", other.type_name()), span)),
                        }
                    }
                }
                (ArgKind::DoubleStar, other) => return Err(type_error(format!("argument after ** must be a mapping, not {}", other.type_name()), span)),
            }
        }
        Ok((pos, kw))
    }

    /// Binds arguments to PySpark's signature of `name` on `kind`.
    ///
    /// # Errors
    /// `AttributeError` or not modelled when PySpark has no such name; Python's `TypeError`
    /// when the arguments do not fit.
    pub(super) fn bind(&self, kind: ApiKind, name: &str, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Bound<Py>> {
        let Some(api) = pyspark_api::lookup(kind, name) else {
            return Err(unknown_api(kind, name, span));
        };
        let Some(params) = api.params else {
            return Err(type_error(format!("'{}' object is not callable ({}.{name} is an attribute: write it without ())", kind.prefix(), kind.prefix()), span));
        };
        let (qualname, is_method) = match kind {
            ApiKind::Functions => (api.name.to_string(), false),
            ApiKind::SparkSession => (format!("SparkSession.{}", api.name), true),
            ApiKind::Window => (format!("Window.{}", api.name), false),
            other => (format!("{}.{}", other.prefix(), api.name), true),
        };
        // A keyword Python refuses is pointed at with its name (`windowDuraton="10 minutes"`),
        // not only its value.
        let names: Vec<String> = kw.iter().map(|(n, _, _)| n.clone()).collect();
        pyspark_api::bind(&qualname, is_method, params, pos, kw, span).map_err(|(m, s)| {
            let named = names.iter().find(|n| m.ends_with(&format!("argument '{n}'")));
            type_error(m.clone(), named.map_or(s, |n| with_keyword(self.source, n, s)))
        })
    }

    pub(super) fn call(&mut self, callee: Py, args: &[Arg], span: Span) -> R<Py> {
        if let Py::Python(name) = &callee {
            return self.call_python(name.clone(), args, span);
        }
        if let Py::Module(m) = callee {
            let (pos, kw) = self.eval_args(args)?;
            return modules::call(self, m, pos, kw, span);
        }
        let Py::Method(recv, name) = callee else {
            return Err(type_error(format!("'{}' object is not callable", callee.type_name()), span));
        };
        // Spans of the string arguments, so `withWatermark` delays can be edited in place.
        if name == "withWatermark" && matches!(*recv, Py::Df(_)) {
            let delay = args.iter().filter(|a| a.kind == ArgKind::Positional).nth(1).or_else(|| args.iter().find(|a| a.name() == Some("delayThreshold")));
            if let Some(a) = delay.filter(|a| matches!(a.value.kind, PyNodeKind::Str(_))) {
                self.delay_spans.push(a.value.span);
                let column = args.iter().find(|a| a.kind == ArgKind::Positional).or_else(|| args.iter().find(|a| a.name() == Some("eventTime")));
                self.delay_columns.push(match column.map(|a| &a.value.kind) {
                    Some(PyNodeKind::Str(c)) => c.clone(),
                    _ => String::new(),
                });
            }
        }
        // `foreachBatch(fn)` / `foreach(writer)`: the Python function is not evaluated (the lab
        // shows what each batch hands it; its body is the learner's own).
        if let (Py::WriteStream { df }, "foreachBatch" | "foreach") = (recv.as_ref(), name.as_str()) {
            if let Some(a) = args.first() {
                let written = self.source.get(a.value.span.start..a.value.span.end).filter(|t| !t.is_empty());
                let function = written.map_or_else(|| format!("{:?}", a.value.kind), |t| t.split_whitespace().collect::<Vec<_>>().join(" "));
                self.not_run.push(super::NotRun { call: name.clone(), function, span: a.value.span });
            }
            self.writer.sink = Some(if name == "foreachBatch" { crate::streaming::SinkKind::ForeachBatchNaive } else { crate::streaming::SinkKind::Foreach });
            return Ok(Py::WriteStream { df: df.clone() });
        }
        let (pos, kw) = self.eval_args(args)?;
        match *recv {
            // The memory sink's table, read back: what an action would show is in the lab's
            // Sink panel, and the program's output says so.
            Py::SinkTable(table) => match name.as_str() {
                "show" | "collect" | "count" | "toPandas" | "head" | "take" | "first" | "printSchema" | "explain" => {
                    self.printed.push(format!("(the memory sink's table {table}: what the query wrote is in the lab's Sink panel, batch by batch)"));
                    Ok(Py::NoneVal)
                }
                other => Err(Error::Parse(crate::error::ParseError::not_modelled(
                    "a batch query over a memory sink's table",
                    format!("{table}.{other}(): {table} is the memory sink's table of the query this program started; the lab shows what the query wrote in the Sink panel and runs no batch query over it"),
                    span,
                ))),
            },
            Py::Df(plan) => {
                let b = self.bind(ApiKind::DataFrame, &name, pos, kw, span)?;
                self.df_method(plan, &name, b, span)
            }
            Py::Grouped { input, grouping } => {
                let b = self.bind(ApiKind::GroupedData, &name, pos, kw, span)?;
                self.grouped_method(input, grouping, &name, b, span)
            }
            Py::Col(e) => {
                let b = self.bind(ApiKind::Column, &name, pos, kw, span)?;
                self.column_method(e, &name, b, span)
            }
            Py::Module("F") => {
                let b = self.bind(ApiKind::Functions, &name, pos, kw, span)?;
                self.function(&name, b, span)
            }
            Py::Module("Window") => {
                let b = self.bind(ApiKind::Window, &name, pos, kw, span)?;
                self.window_spec(crate::plan::WindowOver { func: Expr::Star, partition: vec![], order: vec![], frame: None }, &name, b, span)
            }
            Py::WindowSpec(w) => {
                let b = self.bind(ApiKind::WindowSpec, &name, pos, kw, span)?;
                self.window_spec(*w, &name, b, span)
            }
            Py::WriteStream { df } => {
                let b = self.bind(ApiKind::DataStreamWriter, &name, pos, kw, span)?;
                self.write_stream(df, &name, b, span)
            }
            Py::Reader(spec) => {
                let b = self.bind(ApiKind::DataStreamReader, &name, pos, kw, span)?;
                self.read_stream(*spec, &name, b, span)
            }
            Py::Query => {
                let b = self.bind(ApiKind::StreamingQuery, &name, pos, kw, span)?;
                if name == "explain" {
                    self.printed.push(super::dataframe::EXPLAIN_NOTE.to_string());
                }
                stream::query_method(&name, b, &mut self.query_stopped, span)
            }
            Py::Module(m) => modules::call_method(self, m, &name, pos, kw, span),
            Py::Str(text) => str_method(&text, &name, pos, kw, span),
            Py::Type(dt) => modules::type_method(dt, &name, pos, kw, span),
            other => Err(Error::Analysis(AnalysisError::python("AttributeError", format!("'{}' object has no attribute '{name}'", other.type_name()), span))),
        }
    }

    /// A call of a name the Python code defines: a class builds a stateful processor (its
    /// arguments must be literals); a function is not run here.
    fn call_python(&mut self, name: String, args: &[Arg], span: Span) -> R<Py> {
        if prelude_defines_class(&self.catalog.prelude, &name) {
            let (pos, kw) = self.eval_args(args)?;
            let mut parts = Vec::new();
            for (v, s) in &pos {
                parts.push(python_literal(v).ok_or_else(|| perr(format!("{name}(...) takes literal arguments here (strings, numbers, True/False/None), not a {}", v.type_name()), *s))?);
            }
            for (k, v, s) in &kw {
                let text = python_literal(v).ok_or_else(|| perr(format!("{name}(...) takes literal arguments here (strings, numbers, True/False/None), not a {}", v.type_name()), *s))?;
                parts.push(format!("{k}={text}"));
            }
            return Ok(Py::PythonCall(format!("{name}({})", parts.join(", "))));
        }
        Err(Error::Parse(ParseError::not_modelled(
            format!("running the prelude's Python function {name}()"),
            format!("{name}() is a function defined in this text; the lab runs a def only as a state function (applyInPandasWithState, transformWithState), not when the program calls it: write its body's DataFrame code where it is called"),
            span,
        )))
    }
}

/// True if the Python text `prelude` defines a class `name` at its top level.
fn prelude_defines_class(prelude: &str, name: &str) -> bool {
    crate::pyfunc::parse_module(prelude)
        .ok()
        .is_some_and(|m| m.iter().any(|s| matches!(&s.kind, crate::pyfunc::parse::StmtKind::Class { name: n, .. } if n == name)))
}

/// `v` as Python source text, for a literal argument of a processor's constructor or a
/// module global the Python code can read.
fn python_literal(v: &Py) -> Option<String> {
    Some(match v {
        Py::Str(t) => format!("'{}'", t.replace('\\', "\\\\").replace('\'', "\\'").replace('\n', "\\n")),
        Py::Int(i) => i.to_string(),
        Py::Float(f) => format!("{f:?}"),
        Py::Bool(b) => if *b { "True" } else { "False" }.to_string(),
        Py::NoneVal => "None".to_string(),
        Py::List(items) => {
            let parts: Option<Vec<String>> = items.iter().map(python_literal).collect();
            format!("({},)", parts?.join(", "))
        }
        _ => return None,
    })
}

/// The span of `name=value` in `source` for a keyword argument whose value is at `value`
/// (`value` itself when the text before it is not `name =`).
fn with_keyword(source: &str, name: &str, value: Span) -> Span {
    let before = source.get(..value.start).unwrap_or_default().trim_end();
    match before.strip_suffix('=').map(str::trim_end) {
        Some(head) if head.ends_with(name) && !head[..head.len() - name.len()].ends_with(|c: char| c.is_alphanumeric() || c == '_') => Span::new(head.len() - name.len(), value.end),
        _ => value,
    }
}
