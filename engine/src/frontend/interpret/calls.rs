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
                // `awaitTermination()` with no timeout returns when the query stops, which one
                // with the default or a processing-time trigger does not do by itself.
                let forever = !matches!(self.writer.trigger, Some(crate::streaming::Trigger::Once | crate::streaming::Trigger::AvailableNow));
                if name == "awaitTermination" && forever && !self.query_stopped && b.get("timeout").is_none_or(|(t, _)| matches!(t, Py::NoneVal)) {
                    self.printed.push(super::AWAIT_NOTE.to_string());
                    self.waiting = true;
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
        if let Some(def) = self.defs.get(&name).cloned().filter(|d| def_runs_here(d)) {
            let (pos, kw) = self.eval_args(args)?;
            return self.call_def(&def, pos, kw, span);
        }
        Err(def_not_run(&name, span))
    }
}

/// A call of a Python function the lab does not run: one it did not see defined (an import), or
/// a `def` whose body is more than [`def_runs_here`] reads.
fn def_not_run(name: &str, span: Span) -> Error {
    Error::Parse(ParseError::not_modelled(
        format!("running the prelude's Python function {name}()"),
        format!("{name}() is a Python function this text defines or imports that the lab does not run when the program calls it: it runs a def whose body assigns names and ends with return (no if, for, with or default values), and any def as a state function (applyInPandasWithState, transformWithState); write the DataFrame code where it is called"),
        span,
    ))
}

/// How deep `def` calls of different functions may nest (a browser's stack holds this many
/// with room to spare; a function that calls itself stops at once, see [`Evaluator::call_def`]).
const MAX_DEF_DEPTH: usize = 8;

/// The name a body's `return` value is assigned to when the body is read as query statements
/// (as long as `return`, so every byte offset stays the editor's).
const RETURN_NAME: &str = "__rv";

/// True if `def`'s body is DataFrame code the query side can run: assignments to names and
/// expressions (a docstring, `query.awaitTermination()`), with a `return` only as the last
/// statement (none returns `None`, as a script's `main()` does), and no generator,
/// decorator or parameter default.
fn def_runs_here(def: &crate::pyfunc::parse::FuncDef) -> bool {
    use crate::pyfunc::parse::{StmtKind, Target};
    let Some((last, before)) = def.body.split_last() else { return false };
    let simple = |s: &crate::pyfunc::Stmt| match &s.kind {
        StmtKind::Assign { targets, .. } => targets.iter().all(|t| matches!(t, Target::Name(_))),
        StmtKind::Expr(_) => true,
        _ => false,
    };
    // The body on lines of its own (not `def f(df): return df`), as the reader takes it.
    !def.generator
        && def.body.first().is_some_and(|s| s.line > def.line)
        && def.decorators.is_empty()
        && def.params.iter().all(|(_, default)| default.is_none())
        && (matches!(last.kind, StmtKind::Return(_)) || simple(last))
        && before.iter().all(simple)
}

impl Evaluator<'_> {
    /// Runs a call of `def` (one [`def_runs_here`] accepts) as the query's own statements:
    /// its parameters bound to the arguments for the time of the call, its assignments made,
    /// and its `return` value the call's value. The body is read from the program's text at
    /// its own place, so an error in it points at its line in the editor.
    fn call_def(&mut self, def: &crate::pyfunc::parse::FuncDef, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Py> {
        let name = &def.name;
        if pos.len() > def.params.len() {
            return Err(type_error(format!("{name}() takes {} positional argument{} but {} were given", def.params.len(), if def.params.len() == 1 { "" } else { "s" }, pos.len()), span));
        }
        let mut bound: Vec<(String, Py)> = def.params.iter().map(|(p, _)| p.clone()).zip(pos.into_iter().map(|(v, _)| v)).collect();
        // A keyword's error points at the call (the value's span would point past the name).
        for (k, v, _) in kw {
            if !def.params.iter().any(|(p, _)| *p == k) {
                return Err(type_error(format!("{name}() got an unexpected keyword argument '{k}'"), span));
            }
            if bound.iter().any(|(p, _)| *p == k) {
                return Err(type_error(format!("{name}() got multiple values for argument '{k}'"), span));
            }
            bound.push((k, v));
        }
        // CPython's words: `missing 1 required positional argument: 'a'`, `missing 2 required
        // positional arguments: 'a' and 'b'`, `… 'a', 'b', and 'c'`.
        let missing: Vec<String> = def.params.iter().filter(|(p, _)| !bound.iter().any(|(b, _)| b == p)).map(|(p, _)| format!("'{p}'")).collect();
        if !missing.is_empty() {
            let names = match missing.as_slice() {
                [one] => one.clone(),
                [a, b] => format!("{a} and {b}"),
                [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
                [] => String::new(),
            };
            let n = missing.len();
            return Err(type_error(format!("{name}() missing {n} required positional argument{}: {names}", if n == 1 { "" } else { "s" }), span));
        }
        // A body the lab runs has no `if`, so a function that calls itself never stops: Python's
        // RecursionError (which Python raises after a thousand calls).
        if self.def_stack.iter().any(|d| d == name) {
            return Err(Error::Analysis(AnalysisError::python("RecursionError", "maximum recursion depth exceeded", span)));
        }
        if self.def_stack.len() >= MAX_DEF_DEPTH {
            return Err(perr(format!("{name}() is called {MAX_DEF_DEPTH} helper functions deep; Streamlab runs helpers nested up to {MAX_DEF_DEPTH} deep"), span));
        }
        let body = self.def_body_text(def);
        // A body of a bare `return` alone: None.
        if body.trim().is_empty() {
            return Ok(Py::NoneVal);
        }
        let program = crate::frontend::python::parse_program(&body).map_err(Error::from)?;
        // The body's own names (its assignments and the return's) live for the call only.
        let mut locals = vec![RETURN_NAME.to_string()];
        for stmt in &program.statements {
            if let crate::frontend::python::Statement::Assign(targets, _) = stmt {
                locals.extend(targets.iter().cloned());
            }
        }
        self.def_stack.push(name.clone());
        let (ran, value) = self.scoped(bound, &locals, |ev| {
            // After an `awaitTermination()` that never returns, nothing more runs.
            let ran = program.statements.iter().try_for_each(|stmt| if ev.waiting { Ok(()) } else { ev.run_statement(stmt).map(|_| ()) });
            (ran, ev.vars.get(RETURN_NAME).cloned())
        });
        self.def_stack.pop();
        ran?;
        // No `return` (or a bare one): Python's None.
        Ok(value.unwrap_or(Py::NoneVal))
    }

    /// Calls a Python function value with evaluated arguments, as `DataFrame.transform(func,
    /// *args, **kwargs)` does: a `def` the lab runs ([`def_runs_here`]) or a `lambda` (its
    /// parameters bound to the values for the time of its body).
    pub(super) fn call_function_value(&mut self, f: Py, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Py> {
        match f {
            Py::Python(name) => match self.defs.get(&name).cloned() {
                Some(def) if def_runs_here(&def) => self.call_def(&def, pos, kw, span),
                _ => Err(def_not_run(&name, span)),
            },
            Py::Lambda(l) => {
                let (params, body) = (&l.0, &l.1);
                if pos.len() != params.len() || !kw.is_empty() {
                    return Err(type_error(format!("<lambda>() takes {} positional argument{} but {} were given", params.len(), if params.len() == 1 { "" } else { "s" }, pos.len() + kw.len()), span));
                }
                let bound = params.iter().cloned().zip(pos.into_iter().map(|(v, _)| v)).collect();
                self.scoped(bound, &[], |ev| ev.eval(body))
            }
            other => Err(type_error(format!("'{}' object is not callable", other.type_name()), span)),
        }
    }

    /// The program's text with only `def`'s body left (every other character a space, every
    /// line where it was) and its `return` written as an assignment to [`RETURN_NAME`]: the
    /// query grammar reads it, and its spans are the editor's.
    fn def_body_text(&self, def: &crate::pyfunc::parse::FuncDef) -> String {
        // The Python text's lines are the program's (the query's lines are empty in it); its
        // left margin is removed, which the program's lines keep.
        let python: Vec<&str> = self.catalog.prelude.split('\n').collect();
        let first = def.body.first().map_or(def.line + 1, |s| s.line);
        let def_indent = python.get(def.line.saturating_sub(1)).map_or(0, |l| l.len() - l.trim_start().len());
        let mut out = String::with_capacity(self.source.len());
        let mut in_body = false;
        for (i, line) in self.source.split_inclusive('\n').enumerate() {
            let no = i + 1;
            let py = python.get(i).copied().unwrap_or("");
            let indent = py.len() - py.trim_start().len();
            if no >= first && (py.trim().is_empty() || indent > def_indent) {
                in_body = no >= first && (in_body || no == first);
            } else {
                in_body = false;
            }
            let width = line.trim_end_matches(['\n', '\r']).len();
            let newline = &line[width..];
            if in_body && width >= py.len() {
                let mut text = format!("{}{}", " ".repeat(width - py.len()), py);
                let body = text.trim_start();
                let at = text.len() - body.len();
                if body.starts_with("return ") || body.starts_with("return(") {
                    text.replace_range(at..at + "return".len(), &format!("{RETURN_NAME} ="));
                } else if body.trim_end() == "return" || body.starts_with("return #") {
                    // A bare `return`: the call's value is None.
                    text.replace_range(at..at + "return".len(), "      ");
                }
                out.push_str(&text);
            } else {
                out.push_str(&" ".repeat(width));
            }
            out.push_str(newline);
        }
        out
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
