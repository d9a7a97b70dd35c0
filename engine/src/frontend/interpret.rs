//! Evaluates the Python AST into a [`LogicalPlan`], the way PySpark builds a DataFrame:
//! names are DataFrames (sources, static tables), `F` is `pyspark.sql.functions`, and each
//! method call returns a new DataFrame, `GroupedData` or `Column`.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::args;
use super::pyspark_api::{self, ApiKind};
use super::python::{Arg, PyNode, PyNodeKind, PyBinOp, PyUnOp};
use super::functions::scalar_function;
use super::sql::{parse_select_item, parse_sql_expr};
use super::{Catalog, ParseError, Span};
use crate::error::{AnalysisError, Error, Stage};
use crate::plan::{limits, AggFunc, BinOp, Expr, JoinOn, JoinType, LogicalPlan};
use crate::streaming::OutputMode;
use crate::types::{CalendarInterval, Value};

/// A Python value during evaluation.
#[derive(Debug, Clone)]
enum Py {
    Df(Rc<LogicalPlan>),
    Grouped { input: Rc<LogicalPlan>, grouping: Vec<Expr> },
    Col(Expr),
    Module(&'static str),
    Method(Box<Py>, String),
    WriteStream { df: Rc<LogicalPlan> },
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    NoneVal,
    List(Vec<Py>),
    /// `Window.partitionBy(...).orderBy(...)`: a window specification for `Column.over`.
    WindowSpec(Box<crate::plan::WindowOver>),
    /// A name the scenario's Python prelude defines (a function, a module): passed around,
    /// never run.
    Python(String),
    /// A call of a class the prelude defines, as text (`CountProc()`): a stateful processor
    /// for `transformWithStateInPandas`, built when the plan is.
    PythonCall(String),
}

impl Py {
    fn type_name(&self) -> &'static str {
        match self {
            Py::Df(_) => "DataFrame",
            Py::Grouped { .. } => "GroupedData",
            Py::Col(_) => "Column",
            Py::Module(_) => "module",
            Py::Method(..) => "method",
            Py::WriteStream { .. } => "DataStreamWriter",
            Py::Str(_) => "str",
            Py::Int(_) => "int",
            Py::Float(_) => "float",
            Py::Bool(_) => "bool",
            Py::NoneVal => "None",
            Py::List(_) => "list",
            Py::WindowSpec(_) => "WindowSpec",
            Py::Python(_) => "Python object",
            Py::PythonCall(_) => "Python object",
        }
    }
}

/// What evaluating the query text produced.
#[derive(Debug, Clone)]
pub struct Evaluated {
    pub plan: Rc<LogicalPlan>,
    /// An output mode written in the text (`.writeStream.outputMode('update')`), if any.
    pub output_mode: Option<OutputMode>,
    /// Spans of the delay strings of every `withWatermark` call (the lab edits them).
    pub watermark_delay_spans: Vec<Span>,
    /// A trigger written in the text (`.writeStream.trigger(once=True)`), if any.
    pub trigger: Option<crate::streaming::Trigger>,
    /// A sink written in the text (`.format('kafka')`, `.foreachBatch(f)`), if any.
    pub sink: Option<crate::streaming::SinkKind>,
    /// `.option('checkpointLocation', path)`, if written.
    pub checkpoint_location: Option<String>,
    /// `.queryName(name)`, if written.
    pub query_name: Option<String>,
}

pub(super) struct Evaluator<'a> {
    catalog: &'a Catalog,
    vars: BTreeMap<String, Py>,
    /// What one use of each variable copies, in nodes ([`copy_cost`]).
    var_nodes: BTreeMap<String, usize>,
    /// Nodes copied into the query by variable uses so far (`plan::limits`).
    copied_nodes: std::cell::Cell<usize>,
    output_mode: Option<OutputMode>,
    delay_spans: Vec<Span>,
    trigger: Option<crate::streaming::Trigger>,
    sink: Option<crate::streaming::SinkKind>,
    checkpoint_location: Option<String>,
    query_name: Option<String>,
}

type R<T> = Result<T, Error>;

fn perr(msg: impl Into<String>, span: Span) -> Error {
    Error::Parse(ParseError::new(msg, span))
}

/// The size of a value: its plan and expressions (`plan::limits`); a string counts one node
/// per 64 bytes, so that doubling a string is bounded too.
fn py_size(v: &Py) -> limits::TreeSize {
    let budget = limits::MAX_TREE_NODES + 1;
    match v {
        Py::Df(p) | Py::WriteStream { df: p } => limits::measure_plan(p, budget),
        Py::Grouped { input, grouping } => {
            let mut size = limits::measure_plan(input, budget);
            for g in grouping {
                let e = limits::measure_expr(g, budget);
                size.depth = size.depth.max(e.depth + 1);
                size.nodes = size.nodes.saturating_add(e.nodes);
            }
            size
        }
        Py::Col(e) => limits::measure_expr(e, budget),
        Py::WindowSpec(w) => limits::measure_expr(&Expr::Over(w.clone()), budget),
        Py::Method(inner, _) => py_size(inner),
        Py::Str(s) => limits::TreeSize { depth: 1, nodes: 1 + s.len() / 64 },
        Py::List(items) => items.iter().map(py_size).fold(limits::TreeSize { depth: 1, nodes: 1 }, |acc, s| limits::TreeSize {
            depth: acc.depth.max(s.depth + 1),
            nodes: acc.nodes.saturating_add(s.nodes),
        }),
        Py::Module(_) | Py::Python(_) | Py::PythonCall(_) | Py::Int(_) | Py::Float(_) | Py::Bool(_) | Py::NoneVal => limits::TreeSize { depth: 1, nodes: 1 },
    }
}

/// The nodes a use of `v` copies: expressions and strings are cloned, plans are shared (`Rc`).
fn copy_cost(v: &Py) -> usize {
    let budget = limits::MAX_TREE_NODES + 1;
    match v {
        Py::Df(_) | Py::WriteStream { .. } => 1,
        Py::Grouped { grouping, .. } => grouping.iter().fold(1, |n, g| n.saturating_add(limits::measure_expr(g, budget).nodes)),
        Py::Method(inner, _) => copy_cost(inner),
        Py::List(items) => items.iter().fold(1, |n, i| n.saturating_add(copy_cost(i))),
        other => py_size(other).nodes,
    }
}

/// Refuses a value deeper or bigger than `plan::limits` allows, pointing at `span`.
fn within_limits(v: &Py, span: Span) -> R<limits::TreeSize> {
    let size = py_size(v);
    if size.depth > limits::MAX_TREE_DEPTH {
        return Err(perr(
            format!("this query nests operators and expressions more than {} levels deep; Streamlab reads queries up to that depth", limits::MAX_TREE_DEPTH),
            span,
        ));
    }
    if size.nodes > limits::MAX_TREE_NODES {
        return Err(perr(format!("this query has more than {} expression and plan nodes; Streamlab reads queries up to that size", limits::MAX_TREE_NODES), span));
    }
    Ok(size)
}

/// A method or function Streamlab does not handle: a PySpark API it does not model yet
/// (reported as such), or a name PySpark does not have either (Python's `AttributeError`).
fn unknown_api(kind: ApiKind, name: &str, message: String, span: Span) -> Error {
    if pyspark_api::exists(kind, name) {
        Error::Parse(ParseError::not_modelled(format!("{}.{name}()", kind.prefix()), message, span))
    } else {
        Error::Parse(ParseError::new(message, span))
    }
}

const DF_METHODS: &str = "withWatermark, select, selectExpr, filter, where, withColumn, withColumnRenamed, drop, groupBy, agg, dropDuplicates, dropDuplicatesWithinWatermark, distinct, join, union, unionByName, orderBy, sort, limit, writeStream";

impl<'a> Evaluator<'a> {
    pub(super) fn new(catalog: &'a Catalog) -> Self {
        Evaluator { catalog, vars: BTreeMap::new(), var_nodes: BTreeMap::new(), copied_nodes: std::cell::Cell::new(0), output_mode: None, delay_spans: Vec::new(), trigger: None, sink: None, checkpoint_location: None, query_name: None }
    }

    pub(super) fn run(mut self, program: &super::python::Program) -> R<Evaluated> {
        for (name, node) in &program.assignments {
            let v = self.eval(node)?;
            within_limits(&v, node.span)?;
            self.var_nodes.insert(name.clone(), copy_cost(&v));
            self.vars.insert(name.clone(), v);
        }
        let v = self.eval(&program.query)?;
        within_limits(&v, program.query.span)?;
        let plan = match v {
            Py::Df(p) | Py::WriteStream { df: p } => p,
            other => {
                return Err(perr(
                    format!("the query must be a DataFrame, but this is a {}", other.type_name()),
                    program.query.span,
                ))
            }
        };
        Ok(Evaluated { plan, output_mode: self.output_mode, watermark_delay_spans: self.delay_spans, trigger: self.trigger, sink: self.sink, checkpoint_location: self.checkpoint_location, query_name: self.query_name })
    }

    fn eval(&mut self, node: &PyNode) -> R<Py> {
        let span = node.span;
        Ok(match &node.kind {
            PyNodeKind::Name(n) => self.lookup(n, span)?,
            PyNodeKind::Str(s) => Py::Str(s.clone()),
            PyNodeKind::Int(i) => Py::Int(*i),
            PyNodeKind::Float(f) => Py::Float(*f),
            PyNodeKind::Bool(b) => Py::Bool(*b),
            PyNodeKind::NoneLit => Py::NoneVal,
            PyNodeKind::List(items) | PyNodeKind::Tuple(items) => {
                Py::List(items.iter().map(|i| self.eval(i)).collect::<R<Vec<_>>>()?)
            }
            PyNodeKind::Attr(obj, name) => {
                let target = self.eval(obj)?;
                self.attribute(target, name, span)?
            }
            PyNodeKind::Index(obj, idx) => {
                let target = self.eval(obj)?;
                let idx_v = self.eval(idx)?;
                match (target, idx_v) {
                    (df @ Py::Df(_), Py::Str(c)) => Py::Col(qualified(&df, c)),
                    (Py::Col(e), Py::Str(field)) => Py::Col(Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))])),
                    // `F.split(...)[0]`: an array element, 0-based (`GetArrayItem`).
                    (Py::Col(e), Py::Int(i)) => Py::Col(Expr::Function("get_item".into(), vec![e, Expr::Literal(Value::Int(i32::try_from(i).unwrap_or(i32::MAX)))])),
                    (t, i) => return Err(perr(format!("cannot index a {} with a {}", t.type_name(), i.type_name()), span)),
                }
            }
            PyNodeKind::Call(f, args) => {
                let callee = self.eval(f)?;
                self.call(callee, args, span)?
            }
            PyNodeKind::Unary(op, inner) => {
                let v = self.eval(inner)?;
                match (op, v) {
                    (PyUnOp::Invert, Py::Col(e)) => Py::Col(Expr::Not(Box::new(e))),
                    (PyUnOp::Neg, Py::Col(e)) => Py::Col(Expr::Negate(Box::new(e))),
                    (_, v) => return Err(perr(format!("this operator does not apply to a {}", v.type_name()), span)),
                }
            }
            PyNodeKind::Binary(op, l, r) => {
                let lv = self.eval(l)?;
                let rv = self.eval(r)?;
                self.binary(*op, lv, rv, span)?
            }
        })
    }

    fn lookup(&self, name: &str, span: Span) -> R<Py> {
        if let Some(v) = self.vars.get(name) {
            // Each use of a variable copies its expressions (plans are shared): charge the
            // copies against one budget, so that `c + c + ... + c` over a big `c` cannot
            // allocate without bound before the statement's size is checked.
            let nodes = self.var_nodes.get(name).copied().unwrap_or(1);
            self.copied_nodes.set(self.copied_nodes.get().saturating_add(nodes));
            if self.copied_nodes.get() > limits::MAX_COPIED_NODES {
                return Err(perr(
                    format!("the variables used so far copy more than {} expression nodes into the query; Streamlab reads queries up to that size", limits::MAX_COPIED_NODES),
                    span,
                ));
            }
            return Ok(v.clone());
        }
        if let Some(schema) = self.catalog.streams.get(name) {
            return Ok(Py::Df(Rc::new(LogicalPlan::StreamingRelation { source: name.to_string(), schema: schema.clone() })));
        }
        if let Some((schema, rows)) = self.catalog.statics.get(name) {
            return Ok(Py::Df(Rc::new(LogicalPlan::LocalRelation {
                name: name.to_string(),
                schema: schema.clone(),
                rows: rows.clone(),
            })));
        }
        if self.catalog.python_names.contains(name) {
            return Ok(Py::Python(name.to_string()));
        }
        match name {
            "F" | "functions" => Ok(Py::Module("F")),
            "Window" => Ok(Py::Module("Window")),
            "spark" => Ok(Py::Module("spark")),
            _ => {
                let mut known: Vec<&str> = self.catalog.streams.keys().map(String::as_str).collect();
                known.extend(self.catalog.statics.keys().map(String::as_str));
                known.extend(self.vars.keys().map(String::as_str));
                known.push("F");
                Err(perr(format!("name '{name}' is not defined; known names: {}", known.join(", ")), span))
            }
        }
    }

    fn attribute(&mut self, target: Py, name: &str, _span: Span) -> R<Py> {
        // `lines.timestamp.alias(...)`: `df.col` is a Column once something is asked of it.
        let target = match target {
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => Py::Col(qualified(&recv, n)),
            t => t,
        };
        Ok(match target {
            Py::Df(p) => match name {
                "writeStream" => Py::WriteStream { df: p },
                "isStreaming" => Py::Bool(p.is_streaming()),
                // `df.post_id`: a column, unless it names a method. Kept as a method value so
                // that a call reports "DataFrame.x() is not supported"; used as a value, it is
                // turned into a column by `col_ref` / `literal_or_col`.
                _ => Py::Method(Box::new(Py::Df(p)), name.to_string()),
            },
            // `F.col('window').start`: an attribute that is no Column method is a struct
            // field (`Column.__getattr__`).
            Py::Col(e) if !is_column_method(name) => Py::Col(Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(name))])),
            other => Py::Method(Box::new(other), name.to_string()),
        })
    }

    fn binary(&mut self, op: PyBinOp, l: Py, r: Py, span: Span) -> R<Py> {
        let bop = match op {
            PyBinOp::Eq => BinOp::Eq,
            PyBinOp::Ne => BinOp::NotEq,
            PyBinOp::Lt => BinOp::Lt,
            PyBinOp::Le => BinOp::LtEq,
            PyBinOp::Gt => BinOp::Gt,
            PyBinOp::Ge => BinOp::GtEq,
            PyBinOp::Or => BinOp::Or,
            PyBinOp::And => BinOp::And,
            PyBinOp::Add => BinOp::Add,
            PyBinOp::Sub => BinOp::Sub,
            PyBinOp::Mul => BinOp::Mul,
            PyBinOp::Div => BinOp::Div,
            PyBinOp::Mod => BinOp::Mod,
            PyBinOp::Xor => return Err(perr("the operator ^ is not supported on columns", span)),
        };
        let as_col = |v: Py| match v {
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => Py::Col(qualified(&recv, n)),
            v => v,
        };
        let (l, r) = (as_col(l), as_col(r));
        match (&l, &r) {
            (Py::Col(_), _) | (_, Py::Col(_)) => {
                let le = self.literal_or_col(l, span)?;
                let re = self.literal_or_col(r, span)?;
                Ok(Py::Col(Expr::Binary(bop, Box::new(le), Box::new(re))))
            }
            (Py::Int(a), Py::Int(b)) => match bop {
                BinOp::Add => Ok(Py::Int(a.saturating_add(*b))),
                BinOp::Sub => Ok(Py::Int(a.saturating_sub(*b))),
                BinOp::Mul => Ok(Py::Int(a.saturating_mul(*b))),
                _ => Err(perr("only + - * are supported between plain numbers", span)),
            },
            (Py::Str(a), Py::Str(b)) if bop == BinOp::Add => Ok(Py::Str(format!("{a}{b}"))),
            _ => Err(perr(
                format!("unsupported operand types: {} and {}", l.type_name(), r.type_name()),
                span,
            )),
        }
    }

    /// A value used where a Column is expected and a plain Python value means a literal
    /// (`F.col('a') == 'u1'`, `F.when(c, '5 minutes')`).
    fn literal_or_col(&self, v: Py, span: Span) -> R<Expr> {
        Ok(match v {
            Py::Col(e) => e,
            // `F.col('window').start`: a struct field.
            Py::Method(recv, n) if matches!(*recv, Py::Col(_)) && !is_column_method(&n) => struct_field_of(*recv, n),
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => qualified(&recv, n),
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
    fn col_ref(&self, v: Py, span: Span) -> R<Expr> {
        match v {
            Py::Str(s) if s == "*" => Ok(Expr::Star),
            Py::Str(s) => Ok(Expr::Column(s)),
            Py::Col(e) => Ok(e),
            Py::Method(recv, n) if matches!(*recv, Py::Col(_)) && !is_column_method(&n) => Ok(struct_field_of(*recv, n)),
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => Ok(qualified(&recv, n)),
            other => Err(perr(format!("expected a column name or a Column, got a {}", other.type_name()), span)),
        }
    }

    fn col_refs(&self, args: Vec<(Py, Span)>) -> R<Vec<Expr>> {
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

    fn eval_args(&mut self, args: &[Arg]) -> R<(Vec<(Py, Span)>, BTreeMap<String, (Py, Span)>)> {
        let mut pos = Vec::new();
        let mut kw = BTreeMap::new();
        for a in args {
            let v = self.eval(&a.value)?;
            match &a.name {
                Some(n) => {
                    kw.insert(n.clone(), (v, a.value.span));
                }
                None => pos.push((v, a.value.span)),
            }
        }
        Ok((pos, kw))
    }

    fn call(&mut self, callee: Py, args: &[Arg], span: Span) -> R<Py> {
        if let Py::Python(name) = &callee {
            // `MyProcessor(...)` with literal arguments: an instance of a prelude class, for
            // transformWithStateInPandas.
            if prelude_defines_class(&self.catalog.prelude, name) {
                let name = name.clone();
                let (pos, kw) = self.eval_args(args)?;
                let mut parts = Vec::new();
                for (v, s) in pos.iter().map(|(v, s)| (v, *s)).chain(kw.iter().map(|(_, (v, s))| (v, *s))) {
                    parts.push(python_literal(v).ok_or_else(|| perr(format!("{name}(...) takes literal arguments here (strings, numbers, True/False/None), not a {}", v.type_name()), s))?);
                }
                let kw_names: Vec<&String> = kw.keys().collect();
                let n_pos = pos.len();
                let text: Vec<String> = parts.into_iter().enumerate().map(|(i, p)| if i < n_pos { p } else { format!("{}={p}", kw_names[i - n_pos]) }).collect();
                return Ok(Py::PythonCall(format!("{name}({})", text.join(", "))));
            }
            return Err(Error::Parse(ParseError::not_modelled(
                format!("running the prelude's Python function {name}()"),
                format!("{name}() is Python code from the prelude; Streamlab runs Python only as an applyInPandasWithState state function, not as a UDF"),
                span,
            )));
        }
        let Py::Method(recv, name) = callee else {
            return Err(perr(format!("a {} cannot be called", callee.type_name()), span));
        };
        // Spans of the string arguments, so `withWatermark` delays can be edited in place.
        if name == "withWatermark" {
            if let Some(a) = args.get(1) {
                if matches!(a.value.kind, PyNodeKind::Str(_)) {
                    self.delay_spans.push(a.value.span);
                }
            }
        }
        // `foreachBatch(fn)` / `foreach(writer)`: the Python function is not evaluated.
        if let (Py::WriteStream { df }, "foreachBatch" | "foreach") = (recv.as_ref(), name.as_str()) {
            self.sink = Some(if name == "foreachBatch" { crate::streaming::SinkKind::ForeachBatchNaive } else { crate::streaming::SinkKind::Foreach });
            return Ok(Py::WriteStream { df: df.clone() });
        }
        let (pos, kw) = self.eval_args(args)?;
        match *recv {
            Py::Df(plan) => self.df_method(plan, &name, pos, kw, span),
            Py::Grouped { input, grouping } => self.grouped_method(input, grouping, &name, pos, span),
            Py::Col(e) => self.column_method(e, &name, pos, span),
            Py::Module("F") => self.function(&name, pos, kw, span),
            Py::Module("Window") => self.window_spec(crate::plan::WindowOver { func: Expr::Star, partition: vec![], order: vec![], frame: None }, &name, pos, span),
            Py::WindowSpec(w) => self.window_spec(*w, &name, pos, span),
            Py::Module(_) => Err(unknown_api(ApiKind::SparkSession, &name, format!("spark.{name} is not supported: the streaming sources are already bound to names"), span)),
            // `spark.readStream.format(...)`, `spark.read.json(...)`: reading data is the
            // scenario's job.
            Py::Method(inner, attr) if matches!(*inner, Py::Module("spark")) => {
                Err(unknown_api(ApiKind::SparkSession, &attr, format!("spark.{attr}.{name}() is not supported: the streaming sources are already bound to names"), span))
            }
            Py::WriteStream { df } => self.write_stream(df, &name, pos, kw, span),
            other => Err(perr(format!("{}.{name}() is not supported", other.type_name()), span)),
        }
    }

    /// `Window.partitionBy(...)`, `.orderBy(...)`, `.rowsBetween(a, b)`, `.rangeBetween(a, b)`
    /// (`pyspark.sql.Window` / `WindowSpec`).
    fn window_spec(&mut self, mut w: crate::plan::WindowOver, name: &str, pos: Vec<(Py, Span)>, span: Span) -> R<Py> {
        use crate::plan::{FrameBound, WindowFrame};
        match name {
            "partitionBy" => w.partition = self.col_refs(pos)?,
            "orderBy" => {
                w.order = self
                    .col_refs(pos)?
                    .into_iter()
                    .map(|e| match e {
                        Expr::Function(f, mut args) if f == "__desc" && args.len() == 1 => (args.remove(0), false),
                        Expr::Function(f, mut args) if f == "__asc" && args.len() == 1 => (args.remove(0), true),
                        e => (e, true),
                    })
                    .collect()
            }
            "rowsBetween" | "rangeBetween" => {
                let bound = |v: &Py, lower: bool| -> Option<FrameBound> {
                    Some(match v {
                        Py::Method(_, n) if n == "unboundedPreceding" => FrameBound::UnboundedPreceding,
                        Py::Method(_, n) if n == "unboundedFollowing" => FrameBound::UnboundedFollowing,
                        Py::Method(_, n) if n == "currentRow" => FrameBound::CurrentRow,
                        Py::Int(0) => FrameBound::CurrentRow,
                        Py::Int(n) if *n <= -(1i64 << 62) && lower => FrameBound::UnboundedPreceding,
                        Py::Int(n) if *n >= (1i64 << 62) && !lower => FrameBound::UnboundedFollowing,
                        Py::Int(n) => FrameBound::Offset(*n),
                        _ => return None,
                    })
                };
                let (Some((a, _)), Some((b, _))) = (pos.first(), pos.get(1)) else {
                    return Err(perr(format!("{name}() takes a start and an end"), span));
                };
                let (Some(lower), Some(upper)) = (bound(a, true), bound(b, false)) else {
                    return Err(perr(format!("{name}() takes whole numbers or Window.unboundedPreceding / currentRow / unboundedFollowing"), span));
                };
                w.frame = Some(WindowFrame { rows: name == "rowsBetween", lower, upper });
            }
            other => return Err(perr(format!("Window.{other}() is not supported; use partitionBy, orderBy, rowsBetween or rangeBetween"), span)),
        }
        Ok(Py::WindowSpec(Box::new(w)))
    }

    fn write_stream(&mut self, df: Rc<LogicalPlan>, name: &str, pos: Vec<(Py, Span)>, kw: BTreeMap<String, (Py, Span)>, span: Span) -> R<Py> {
        use crate::streaming::{SinkKind, Trigger, TriggerArg};
        match name {
            "trigger" => {
                let args: Vec<(String, TriggerArg)> = kw
                    .into_iter()
                    .map(|(k, (v, _))| {
                        let a = match v {
                            Py::Str(s) => TriggerArg::Str(s),
                            Py::Bool(b) => TriggerArg::Bool(b),
                            other => TriggerArg::Other(other.type_name().to_string()),
                        };
                        (k, a)
                    })
                    .collect();
                self.trigger = Some(Trigger::from_kwargs(&args).map_err(|e| Error::Analysis(e.with_span(span)))?);
                return Ok(Py::WriteStream { df });
            }
            "format" => {
                if let Some((Py::Str(f), fspan)) = pos.first() {
                    let Some(kind) = SinkKind::from_format(f) else {
                        let other = f.to_ascii_lowercase();
                        return Err(perr(format!("the sink format '{other}' is not modelled; use memory, console, kafka, parquet/json/csv or foreachBatch"), *fspan));
                    };
                    self.sink = Some(kind);
                }
                return Ok(Py::WriteStream { df });
            }
            "foreachBatch" => {
                self.sink = Some(SinkKind::ForeachBatchNaive);
                return Ok(Py::WriteStream { df });
            }
            "queryName" => {
                if let Some((Py::Str(n), _)) = pos.first() {
                    self.query_name = Some(n.clone());
                }
                return Ok(Py::WriteStream { df });
            }
            "option" => {
                if let (Some((Py::Str(k), _)), Some((Py::Str(v), _))) = (pos.first(), pos.get(1)) {
                    if k == "checkpointLocation" {
                        self.checkpoint_location = Some(v.clone());
                    }
                }
                return Ok(Py::WriteStream { df });
            }
            _ => {}
        }
        match name {
            "outputMode" => {
                let Some((Py::Str(m), mspan)) = pos.into_iter().next() else {
                    return Err(perr("outputMode() takes a string: 'append', 'update' or 'complete'", span));
                };
                let mode = OutputMode::parse(&m).map_err(|e| Error::Analysis(e.with_span(mspan)))?;
                self.output_mode = Some(mode);
            }
            "option" | "options" | "queryName" | "start" | "toTable" | "foreach" | "partitionBy" => {}
            other => return Err(unknown_api(ApiKind::DataStreamWriter, other, format!("DataStreamWriter.{other}() is not supported"), span)),
        }
        Ok(Py::WriteStream { df })
    }

    fn df_method(
        &mut self,
        plan: Rc<LogicalPlan>,
        name: &str,
        pos: Vec<(Py, Span)>,
        kw: BTreeMap<String, (Py, Span)>,
        span: Span,
    ) -> R<Py> {
        let str_arg = |v: Option<&(Py, Span)>, what: &str| -> R<String> {
            match v {
                Some((Py::Str(s), _)) => Ok(s.clone()),
                Some((other, s)) => Err(perr(format!("{name}(): {what} must be a string, got a {}", other.type_name()), *s)),
                None => Err(perr(format!("{name}() needs {what}"), span)),
            }
        };
        let df = |p: LogicalPlan| Ok(Py::Df(Rc::new(p)));
        match name {
            "withWatermark" => {
                // PySpark refuses an empty or non-str argument before the JVM sees it.
                let py_str = |v: Option<&(Py, Span)>, arg: &str, what: &str| -> R<(String, Span)> {
                    match v {
                        Some((Py::Str(s), sp)) if !s.is_empty() => Ok((s.clone(), *sp)),
                        Some((other, sp)) => Err(args::not_str(arg, other.type_name(), *sp)),
                        None => Err(perr(format!("{name}() needs {what}"), span)),
                    }
                };
                let (column, _) = py_str(pos.first().or(kw.get("eventTime")), "eventTime", "the event-time column name")?;
                let (delay_text, dspan) = py_str(pos.get(1).or(kw.get("delayThreshold")), "delayThreshold", "the delay, e.g. '10 minutes'")?;
                let delay_ms = args::watermark_delay_ms(&delay_text, dspan)?;
                df(LogicalPlan::EventTimeWatermark { input: plan, column, delay_ms })
            }
            "select" => {
                let exprs = self.col_refs(pos)?;
                if exprs.is_empty() {
                    return Err(perr("select() needs at least one column", span));
                }
                df(LogicalPlan::Project { input: plan, exprs })
            }
            "selectExpr" => {
                let mut exprs = Vec::new();
                for (v, s) in pos {
                    let items = match v {
                        Py::List(items) => items,
                        v => vec![v],
                    };
                    for i in items {
                        match i {
                            Py::Str(text) => exprs.push(parse_select_item(&text, s)?),
                            other => return Err(perr(format!("selectExpr() takes SQL strings, got a {}", other.type_name()), s)),
                        }
                    }
                }
                df(LogicalPlan::Project { input: plan, exprs })
            }
            "filter" | "where" => {
                let (cond, cspan) = pos.into_iter().next().or_else(|| kw.get("condition").cloned()).ok_or_else(|| perr(format!("{name}() needs a condition"), span))?;
                let predicate = match cond {
                    Py::Str(sql) => parse_sql_expr(&sql, cspan)?,
                    Py::Col(e) => e,
                    other => return Err(perr(format!("{name}() takes a Column or a SQL string, got a {}", other.type_name()), cspan)),
                };
                df(LogicalPlan::Filter { input: plan, predicate })
            }
            "withColumn" => {
                let col_name = str_arg(pos.first(), "the new column's name")?;
                let (v, s) = pos.get(1).cloned().ok_or_else(|| perr("withColumn() needs a Column", span))?;
                let expr = match v {
                    Py::Col(e) => e,
                    other => return Err(perr(format!("withColumn() takes a Column (e.g. F.lit(1)), got a {}", other.type_name()), s)),
                };
                df(LogicalPlan::WithColumn { input: plan, name: col_name, expr })
            }
            "withColumnRenamed" => {
                let old = str_arg(pos.first(), "the existing column's name")?;
                let new = str_arg(pos.get(1), "the new name")?;
                df(LogicalPlan::RenameColumn { input: plan, old, new })
            }
            "drop" => {
                let mut names = Vec::new();
                for e in self.col_refs(pos)? {
                    match e {
                        Expr::Column(n) => names.push(n),
                        other => return Err(perr(format!("drop() takes column names, got {other}"), span)),
                    }
                }
                df(LogicalPlan::DropColumns { input: plan, names })
            }
            "groupBy" | "groupby" | "groupBY" => {
                let grouping = self.col_refs(pos)?;
                Ok(Py::Grouped { input: plan, grouping })
            }
            "agg" => {
                let aggregates = self.col_refs(pos)?;
                df(LogicalPlan::Aggregate { input: plan, grouping: vec![], aggregates })
            }
            "dropDuplicates" | "drop_duplicates" | "dropDuplicatesWithinWatermark" => {
                let subset = pos.into_iter().next().or_else(|| kw.get("subset").cloned());
                let keys = match subset {
                    None | Some((Py::NoneVal, _)) => None,
                    Some((Py::List(items), s)) => Some(
                        items
                            .into_iter()
                            .map(|i| match i {
                                Py::Str(c) => Ok(c),
                                other => Err(perr(format!("{name}() takes a list of column names, got a {}", other.type_name()), s)),
                            })
                            .collect::<R<Vec<_>>>()?,
                    ),
                    Some((Py::Str(c), s)) => {
                        return Err(perr(format!("{name}() takes a list: write {name}(['{c}'])"), s));
                    }
                    Some((other, s)) => return Err(perr(format!("{name}() takes a list of column names, got a {}", other.type_name()), s)),
                };
                if name == "dropDuplicatesWithinWatermark" {
                    df(LogicalPlan::DeduplicateWithinWatermark { input: plan, keys })
                } else {
                    df(LogicalPlan::Deduplicate { input: plan, keys })
                }
            }
            "distinct" => df(LogicalPlan::Deduplicate { input: plan, keys: None }),
            "join" => {
                let (other, ospan) = pos.first().cloned().or_else(|| kw.get("other").cloned()).ok_or_else(|| perr("join() needs the other DataFrame", span))?;
                let Py::Df(right) = other else {
                    return Err(perr(format!("join() takes a DataFrame, got a {}", other.type_name()), ospan));
                };
                let on = match pos.get(1).cloned().or_else(|| kw.get("on").cloned()) {
                    None | Some((Py::NoneVal, _)) => JoinOn::None,
                    Some((Py::Str(c), _)) => JoinOn::Using(vec![c]),
                    Some((Py::List(items), s)) => {
                        let mut cols = Vec::new();
                        let mut conds = Vec::new();
                        for i in items {
                            match i {
                                Py::Str(c) => cols.push(c),
                                Py::Col(e) => conds.push(e),
                                other => return Err(perr(format!("join(on=...) takes column names or Columns, got a {}", other.type_name()), s)),
                            }
                        }
                        if conds.is_empty() {
                            JoinOn::Using(cols)
                        } else if cols.is_empty() {
                            let mut it = conds.into_iter();
                            let first = it.next().expect("non-empty");
                            JoinOn::Condition(it.fold(first, |a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b))))
                        } else {
                            return Err(perr("join(on=...) cannot mix names and Columns", s));
                        }
                    }
                    Some((Py::Col(e), _)) => JoinOn::Condition(e),
                    Some((other, s)) => return Err(perr(format!("join(on=...) takes a column name, a list or a Column, got a {}", other.type_name()), s)),
                };
                let how = match pos.get(2).cloned().or_else(|| kw.get("how").cloned()) {
                    None | Some((Py::NoneVal, _)) => JoinType::Inner,
                    Some((Py::Str(h), s)) => JoinType::parse(&h).ok_or_else(|| {
                        perr(
                            format!("unsupported join type '{h}': use inner, left_outer, right_outer, full_outer, left_semi, left_anti or cross"),
                            s,
                        )
                    })?,
                    Some((other, s)) => return Err(perr(format!("join(how=...) takes a string, got a {}", other.type_name()), s)),
                };
                df(LogicalPlan::Join { left: plan, right, join_type: how, on })
            }
            "union" | "unionAll" | "unionByName" => {
                let (other, ospan) = pos.into_iter().next().ok_or_else(|| perr(format!("{name}() needs another DataFrame"), span))?;
                let Py::Df(right) = other else {
                    return Err(perr(format!("{name}() takes a DataFrame, got a {}", other.type_name()), ospan));
                };
                df(LogicalPlan::Union { inputs: vec![plan, right], by_name: name == "unionByName" })
            }
            "orderBy" | "sort" => {
                let exprs = self.col_refs(pos)?;
                let ascending = match kw.get("ascending") {
                    None => true,
                    Some((Py::Bool(b), _)) => *b,
                    Some((Py::Int(i), _)) => *i != 0,
                    Some((other, s)) => return Err(perr(format!("ascending= takes True or False, got a {}", other.type_name()), *s)),
                };
                let order = exprs
                    .into_iter()
                    .map(|e| match e {
                        Expr::Function(f, mut args) if f == "__desc" => (args.remove(0), false),
                        Expr::Function(f, mut args) if f == "__asc" => (args.remove(0), true),
                        e => (e, ascending),
                    })
                    .collect();
                df(LogicalPlan::Sort { input: plan, order })
            }
            "limit" => match pos.first() {
                Some((Py::Int(n), _)) if *n >= 0 => df(LogicalPlan::Limit { input: plan, n: *n as usize }),
                Some((_, s)) => Err(perr("limit() takes a non-negative whole number", *s)),
                None => Err(perr("limit() needs a number", span)),
            },
            "alias" | "as" => match pos.first() {
                Some((Py::Str(a), _)) => df(LogicalPlan::SubqueryAlias { input: plan, alias: a.clone() }),
                _ => Err(perr("alias() takes a name", span)),
            },
            "cache" | "persist" | "hint" | "repartition" | "coalesce" => Ok(Py::Df(plan)),
            _ if is_action(name) => {
                if plan.is_streaming() {
                    let source = first_source(&plan);
                    Err(Error::Analysis(
                        AnalysisError::new(
                            Stage::Define,
                            "_LEGACY_ERROR_TEMP_3102",
                            "Queries with streaming sources must be executed with writeStream.start(), or from a streaming table or flow definition within a Spark Declarative Pipeline.",
                        )
                        .with_plan(source)
                        .with_hint(format!(
                            "{name}() is a batch action: it runs a job at once, but a stream has no end. Drop .{name}() and start the query with writeStream (here: pick an output mode and trigger batches)"
                        ))
                        .with_span(span),
                    ))
                } else {
                    Err(perr(format!("{name}() runs a batch job; Streamlab only runs streaming queries"), span))
                }
            }
            other => Err(unknown_api(ApiKind::DataFrame, other, format!("DataFrame.{other}() is not supported in Streamlab; supported: {DF_METHODS}"), span)),
        }
    }

    fn grouped_method(&mut self, input: Rc<LogicalPlan>, grouping: Vec<Expr>, name: &str, pos: Vec<(Py, Span)>, span: Span) -> R<Py> {
        let aggregates = match name {
            "count" => vec![Expr::Alias(
                Box::new(Expr::Agg { func: AggFunc::Count, arg: Box::new(Expr::Star), by: None, distinct: false }),
                "count".into(),
            )],
            "agg" => {
                let aggs = self.col_refs(pos)?;
                if aggs.is_empty() {
                    return Err(perr("agg() needs at least one aggregate, e.g. F.count('*')", span));
                }
                aggs
            }
            "sum" | "avg" | "mean" | "min" | "max" => {
                let func = match name {
                    "sum" => AggFunc::Sum,
                    "avg" | "mean" => AggFunc::Avg,
                    "min" => AggFunc::Min,
                    _ => AggFunc::Max,
                };
                self.col_refs(pos)?
                    .into_iter()
                    .map(|c| Expr::Agg { func, arg: Box::new(c), by: None, distinct: false })
                    .collect()
            }
            "applyInPandasWithState" => return self.apply_in_pandas_with_state(input, grouping, pos, span),
            "transformWithStateInPandas" | "transformWithState" => return self.transform_with_state(input, grouping, name == "transformWithStateInPandas", pos, span),
            other => {
                return Err(unknown_api(
                    ApiKind::GroupedData,
                    other,
                    format!("GroupedData.{other}() is not supported; use count(), agg(...), sum, avg, min, max or applyInPandasWithState"),
                    span,
                ))
            }
        };
        Ok(Py::Df(Rc::new(LogicalPlan::Aggregate { input, grouping, aggregates })))
    }

    /// `applyInPandasWithState(func, outputStructType, stateStructType, outputMode,
    /// timeoutConf)` (PySpark's `GroupedData.applyInPandasWithState`): `func` names a function
    /// of the prelude, run by [`crate::pyfunc`].
    fn apply_in_pandas_with_state(&mut self, input: Rc<LogicalPlan>, grouping: Vec<Expr>, pos: Vec<(Py, Span)>, span: Span) -> R<Py> {
        const SIGNATURE: &str = "applyInPandasWithState(func, outputStructType, stateStructType, outputMode, timeoutConf)";
        if pos.len() != 5 {
            return Err(perr(format!("{SIGNATURE} takes 5 arguments, {} given", pos.len()), span));
        }
        let mut it = pos.into_iter();
        let (func, fspan) = it.next().expect("5 arguments");
        let Py::Python(name) = func else {
            return Err(perr(format!("the first argument of applyInPandasWithState is a Python function defined above the query (def f(key, pdfs, state): ...), not a {}", func.type_name()), fspan));
        };
        let mut strs = Vec::new();
        for (v, s) in it {
            match v {
                Py::Str(t) => strs.push((t, s)),
                other => return Err(perr(format!("{SIGNATURE}: expected a string here, not a {}", other.type_name()), s)),
            }
        }
        let udf = crate::pyfunc::PythonUdf::from_source(&self.catalog.prelude, &name).map_err(|e| {
            perr(if e.line > 0 { format!("in the Python code above the query, line {}: {}", e.line, e.message) } else { format!("in the Python code above the query: {}", e.message) }, fspan)
        })?;
        let ddl = |(t, s): &(String, Span)| crate::analysis::parse_ddl_schema(t).map_err(|m| perr(m, *s));
        let output = ddl(&strs[0])?;
        let state = ddl(&strs[1])?;
        let mode = match strs[2].0.to_ascii_lowercase().as_str() {
            "append" => OutputMode::Append,
            "update" => OutputMode::Update,
            other => return Err(perr(format!("outputMode of applyInPandasWithState must be 'append' or 'update', not '{other}'"), strs[2].1)),
        };
        let timeout = crate::pyfunc::GroupStateTimeout::parse(&strs[3].0)
            .ok_or_else(|| perr(format!("timeoutConf must be 'NoTimeout', 'ProcessingTimeTimeout' or 'EventTimeTimeout', not '{}'", strs[3].0), strs[3].1))?;
        Ok(Py::Df(Rc::new(LogicalPlan::FlatMapGroupsInPandasWithState { input, grouping, udf: Rc::new(udf), output, state, mode, timeout })))
    }

    /// `transformWithStateInPandas(statefulProcessor, outputStructType, outputMode, timeMode)`
    /// and the row-based `transformWithState` (PySpark's `GroupedData`, 4.0/4.1):
    /// `statefulProcessor` builds an instance of a `StatefulProcessor` class of the prelude
    /// (`CountProc()`), run by [`crate::pyfunc`]. `initialState` and `eventTimeColumnName` are
    /// not supported.
    fn transform_with_state(&mut self, input: Rc<LogicalPlan>, grouping: Vec<Expr>, use_pandas: bool, pos: Vec<(Py, Span)>, span: Span) -> R<Py> {
        let api = if use_pandas { "transformWithStateInPandas" } else { "transformWithState" };
        if pos.len() != 4 {
            return Err(perr(format!("{api}(statefulProcessor, outputStructType, outputMode, timeMode) takes 4 arguments here, {} given (initialState and eventTimeColumnName are not supported)", pos.len()), span));
        }
        let mut it = pos.into_iter();
        let (proc, pspan) = it.next().expect("4 arguments");
        // `MyProcessor()`, or a name the prelude bound to an instance.
        let (Py::PythonCall(ctor) | Py::Python(ctor)) = proc else {
            return Err(perr(format!("the first argument of {api} is an instance of a StatefulProcessor class defined above the query (MyProcessor()), not a {}", proc.type_name()), pspan));
        };
        let mut strs = Vec::new();
        for (v, s) in it {
            match v {
                Py::Str(t) => strs.push((t, s)),
                other => return Err(perr(format!("{api}: expected a string here, not a {}", other.type_name()), s)),
            }
        }
        let processor = crate::pyfunc::PythonProcessor::from_source(&self.catalog.prelude, &ctor, use_pandas).map_err(|e| {
            perr(if e.line > 0 { format!("in the Python code above the query, line {}: {}", e.line, e.message) } else { format!("in the Python code above the query: {}", e.message) }, pspan)
        })?;
        let output = crate::analysis::parse_ddl_schema(&strs[0].0).map_err(|m| perr(m, strs[0].1))?;
        let mode = match strs[1].0.to_ascii_lowercase().as_str() {
            "append" => OutputMode::Append,
            "update" => OutputMode::Update,
            "complete" => OutputMode::Complete,
            other => return Err(perr(format!("outputMode of {api} must be 'append' or 'update', not '{other}'"), strs[1].1)),
        };
        let time_mode = crate::pyfunc::TimeMode::parse(&strs[2].0).ok_or_else(|| {
            Error::Analysis(
                AnalysisError::new(
                    Stage::Define,
                    "STATEFUL_PROCESSOR_UNKNOWN_TIME_MODE",
                    format!("Unknown time mode {}. Accepted timeMode modes are 'none', 'processingTime', 'eventTime'", strs[2].0),
                )
                .with_hint("timeMode is 'None', 'ProcessingTime' or 'EventTime'")
                .with_span(strs[2].1),
            )
        })?;
        Ok(Py::Df(Rc::new(LogicalPlan::TransformWithState { input, grouping, processor: Rc::new(processor), output, mode, time_mode })))
    }

    fn column_method(&mut self, e: Expr, name: &str, pos: Vec<(Py, Span)>, span: Span) -> R<Py> {
        let first_str = |pos: &[(Py, Span)]| -> R<String> {
            match pos.first() {
                Some((Py::Str(s), _)) => Ok(s.clone()),
                _ => Err(perr(format!("{name}() takes a string"), span)),
            }
        };
        Ok(Py::Col(match name {
            "alias" | "name" | "as_" => Expr::Alias(Box::new(e), first_str(&pos)?),
            "cast" | "astype" => {
                let t = first_str(&pos)?;
                let dt = crate::types::parse_type_name(&t).map_err(|m| perr(m, span))?;
                Expr::Cast(Box::new(e), dt)
            }
            "getItem" if matches!(pos.first(), Some((Py::Int(_), _))) => {
                let Some((Py::Int(i), _)) = pos.first() else { unreachable!("matched above") };
                Expr::Function("get_item".into(), vec![e, Expr::Literal(Value::Int(i32::try_from(*i).unwrap_or(i32::MAX)))])
            }
            "getField" | "getItem" => {
                let field = first_str(&pos)?;
                Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))])
            }
            "isNull" => Expr::IsNull(Box::new(e), false),
            "isNotNull" => Expr::IsNull(Box::new(e), true),
            "eqNullSafe" => {
                let (v, s) = pos.into_iter().next().ok_or_else(|| perr("eqNullSafe() needs a value", span))?;
                Expr::Binary(BinOp::EqNullSafe, Box::new(e), Box::new(self.literal_or_col(v, s)?))
            }
            "isin" => {
                let mut values = Vec::new();
                for (v, s) in pos {
                    match v {
                        Py::List(items) => {
                            for i in items {
                                values.push(self.literal_or_col(i, s)?);
                            }
                        }
                        v => values.push(self.literal_or_col(v, s)?),
                    }
                }
                if values.is_empty() {
                    return Err(perr("isin() needs at least one value", span));
                }
                // `(x IN (1, 2))`, Spark's `In`: NULL when x is NULL, or when nothing matches
                // and the list holds a NULL.
                let mut args = vec![e];
                args.extend(values);
                Expr::Function("in".into(), args)
            }
            "between" => {
                let mut it = pos.into_iter();
                let (lo, ls) = it.next().ok_or_else(|| perr("between() needs two bounds", span))?;
                let (hi, hs) = it.next().ok_or_else(|| perr("between() needs two bounds", span))?;
                Expr::Binary(
                    BinOp::And,
                    Box::new(Expr::Binary(BinOp::GtEq, Box::new(e.clone()), Box::new(self.literal_or_col(lo, ls)?))),
                    Box::new(Expr::Binary(BinOp::LtEq, Box::new(e), Box::new(self.literal_or_col(hi, hs)?))),
                )
            }
            "over" => {
                let mut w = match pos.into_iter().next() {
                    Some((Py::WindowSpec(w), _)) => *w,
                    None => crate::plan::WindowOver { func: Expr::Star, partition: vec![], order: vec![], frame: None },
                    Some((other, s)) => return Err(perr(format!("over() takes a WindowSpec such as Window.partitionBy('user_id'), got a {}", other.type_name()), s)),
                };
                w.func = e;
                Expr::Over(Box::new(w))
            }
            "desc" | "desc_nulls_last" => Expr::Function("__desc".into(), vec![e]),
            "asc" | "asc_nulls_first" => Expr::Function("__asc".into(), vec![e]),
            "when" => match e {
                Expr::Case { mut branches, otherwise: None } => {
                    let mut it = pos.into_iter();
                    let (c, cs) = it.next().ok_or_else(|| perr("when() needs a condition and a value", span))?;
                    let (v, vs) = it.next().ok_or_else(|| perr("when() needs a condition and a value", span))?;
                    branches.push((self.literal_or_col(c, cs)?, self.literal_or_col(v, vs)?));
                    Expr::Case { branches, otherwise: None }
                }
                _ => return Err(perr("when() can only follow F.when(...)", span)),
            },
            "otherwise" => match e {
                Expr::Case { branches, otherwise: None } => {
                    let (v, vs) = pos.into_iter().next().ok_or_else(|| perr("otherwise() needs a value", span))?;
                    Expr::Case { branches, otherwise: Some(Box::new(self.literal_or_col(v, vs)?)) }
                }
                _ => return Err(perr("otherwise() can only follow F.when(...)", span)),
            },
            "substr" => {
                let mut args = vec![e];
                for (v, s) in pos {
                    args.push(self.literal_or_col(v, s)?);
                }
                scalar_function("substring", args, span)?
            }
            "rlike" => {
                let (v, s) = pos.into_iter().next().ok_or_else(|| perr("rlike() needs a pattern", span))?;
                Expr::Function("rlike".into(), vec![e, self.literal_or_col(v, s)?])
            }
            "contains" | "startswith" | "endswith" | "like" => {
                let (v, s) = pos.into_iter().next().ok_or_else(|| perr(format!("{name}() needs a value"), span))?;
                Expr::Function(name.to_ascii_lowercase(), vec![e, self.literal_or_col(v, s)?])
            }
            other => return Err(unknown_api(ApiKind::Column, other, format!("Column.{other}() is not supported"), span)),
        }))
    }

    fn function(&mut self, name: &str, pos: Vec<(Py, Span)>, kw: BTreeMap<String, (Py, Span)>, span: Span) -> R<Py> {
        let arg = |i: usize, k: &str| pos.get(i).cloned().or_else(|| kw.get(k).cloned());
        let need = |v: Option<(Py, Span)>, what: &str| v.ok_or_else(|| perr(format!("F.{name}() needs {what}"), span));
        // A `F.window` duration: PySpark treats a falsy slide or start time as absent and
        // refuses anything else that is not a non-empty str (`NOT_EXPECTED_TYPE`).
        let duration = |v: Option<(Py, Span)>, arg: &str| -> R<Option<i64>> {
            match v {
                None | Some((Py::NoneVal, _)) => Ok(None),
                Some((Py::Str(s), _)) if s.is_empty() && arg != "windowDuration" => Ok(None),
                Some((Py::Int(0) | Py::Bool(false), _)) if arg != "windowDuration" => Ok(None),
                Some((Py::Str(s), sp)) if !s.is_empty() => Ok(Some(args::window_arg_us(&s, sp)?)),
                Some((other, sp)) => Err(args::not_str(arg, other.type_name(), sp)),
            }
        };
        match name {
            "col" | "column" => {
                let (v, s) = need(arg(0, "col"), "a column name")?;
                match v {
                    Py::Str(c) => Ok(Py::Col(if c == "*" { Expr::Star } else { Expr::Column(c) })),
                    other => Err(perr(format!("F.col() takes a string, got a {}", other.type_name()), s)),
                }
            }
            "lit" => {
                let (v, s) = need(arg(0, "col"), "a value")?;
                Ok(Py::Col(self.literal_or_col(v, s)?))
            }
            // `F.expr('sum(d) AS total')`: an alias is allowed, as in selectExpr.
            "expr" => match need(arg(0, "str"), "a SQL string")? {
                (Py::Str(sql), s) => Ok(Py::Col(parse_select_item(&sql, s)?)),
                (other, s) => Err(perr(format!("F.expr() takes a SQL string, got a {}", other.type_name()), s)),
            },
            "window" => {
                let (t, ts) = need(arg(0, "timeColumn"), "a time column")?;
                let time = self.col_ref(t, ts)?;
                let duration_us = duration(arg(1, "windowDuration"), "windowDuration")?
                    .ok_or_else(|| perr("F.window() needs a window duration, e.g. '10 minutes'", span))?;
                let slide_us = duration(arg(2, "slideDuration"), "slideDuration")?.unwrap_or(duration_us);
                let start_us = duration(arg(3, "startTime"), "startTime")?.unwrap_or(0);
                Ok(Py::Col(Expr::TimeWindow { time: Box::new(time), duration_us, slide_us, start_us }))
            }
            "session_window" => {
                let (t, ts) = need(arg(0, "timeColumn"), "a time column")?;
                let time = self.col_ref(t, ts)?;
                let (g, gs) = need(arg(1, "gapDuration"), "a gap duration")?;
                let gap = match g {
                    // Spark casts the gap string per row when the batch runs: text that is not
                    // an interval gives NULL and the row is dropped (recorded:
                    // iv-session-gap-unparsable-string), it is not refused here.
                    Py::Str(s) => CalendarInterval::parse(&s).map_or_else(|_| Expr::Literal(Value::str(&s)), Expr::Interval),
                    Py::Col(e) => e,
                    other => return Err(perr(format!("F.session_window(): the gap must be a string or a Column, got a {}", other.type_name()), gs)),
                };
                Ok(Py::Col(Expr::SessionWindow { time: Box::new(time), gap: Box::new(gap) }))
            }
            "window_time" => {
                let (w, ws) = need(arg(0, "windowColumn"), "a window column")?;
                Ok(Py::Col(Expr::WindowTime(Box::new(self.col_ref(w, ws)?))))
            }
            "when" => {
                let (c, cs) = need(arg(0, "condition"), "a condition")?;
                let (v, vs) = need(arg(1, "value"), "a value")?;
                Ok(Py::Col(Expr::Case {
                    branches: vec![(self.literal_or_col(c, cs)?, self.literal_or_col(v, vs)?)],
                    otherwise: None,
                }))
            }
            _ if crate::plan::functions::AGGREGATES.iter().any(|a| a.0 == agg_name(name)) => {
                // Column arguments: the value (and max_by/min_by's ordering); flags and rsd are
                // literals, also as keywords.
                let lower = agg_name(name);
                let mut args = Vec::new();
                for (i, (v, s)) in pos.into_iter().enumerate() {
                    let is_col = i == 0 || matches!(lower.as_str(), "max_by" | "min_by");
                    args.push(match v {
                        Py::Str(c) if c == "*" && i == 0 => Expr::Star,
                        v if is_col => self.col_ref(v, s)?,
                        v => self.literal_or_col(v, s)?,
                    });
                }
                for key in ["ignorenulls", "rsd", "ord"] {
                    if let Some((v, s)) = kw.get(key) {
                        args.push(self.literal_or_col(v.clone(), *s)?);
                    }
                }
                if let Some((v, s)) = kw.get("col") {
                    args.insert(0, self.col_ref(v.clone(), *s)?);
                }
                if args.is_empty() {
                    return Err(perr(format!("F.{name}() needs a column"), span));
                }
                let distinct = matches!(name, "countDistinct" | "count_distinct" | "sum_distinct" | "sumDistinct");
                let spark = if matches!(name, "sum_distinct" | "sumDistinct") { "sum".to_string() } else { lower };
                match crate::plan::functions::build_aggregate(&spark, args, distinct).map_err(|m| perr(m, span))? {
                    Some(e) => Ok(Py::Col(e)),
                    None => Err(perr(format!("F.{name}() is not an aggregate"), span)),
                }
            }
            "desc" | "asc" => {
                let (v, s) = need(arg(0, "col"), "a column")?;
                Ok(Py::Col(Expr::Function(format!("__{name}"), vec![self.col_ref(v, s)?])))
            }
            // Window-only functions: a call to `.over(...)` must follow.
            "lag" | "lead" | "nth_value" => {
                let (v, s) = need(arg(0, "col"), "a column")?;
                let mut args = vec![self.col_ref(v, s)?];
                args.push(match arg(1, "offset") {
                    Some((Py::Int(n), _)) => Expr::Literal(Value::Int(i32::try_from(n).unwrap_or(i32::MAX))),
                    None => Expr::Literal(Value::Int(1)),
                    Some((other, s)) => return Err(perr(format!("F.{name}(): the offset must be a whole number, got a {}", other.type_name()), s)),
                });
                if name != "nth_value" {
                    args.push(match arg(2, "default") {
                        Some((v, s)) => self.literal_or_col(v, s)?,
                        None => Expr::Literal(Value::Null),
                    });
                }
                Ok(Py::Col(Expr::Function(name.to_string(), args)))
            }
            "row_number" | "rank" | "dense_rank" | "percent_rank" | "cume_dist" => Ok(Py::Col(Expr::Function(name.to_string(), vec![]))),
            "ntile" => match need(arg(0, "n"), "a number of buckets")? {
                (Py::Int(n), _) => Ok(Py::Col(Expr::Function("ntile".into(), vec![Expr::Literal(Value::Int(i32::try_from(n).unwrap_or(i32::MAX)))]))),
                (other, s) => Err(perr(format!("F.ntile() takes a whole number, got a {}", other.type_name()), s)),
            },
            _ => {
                // Scalar functions take column names as strings where the function table says
                // so (`F.upper('name')`), literals elsewhere (`F.substring('s', 1, 2)`).
                let cols = crate::plan::functions::lookup(name).map_or(crate::plan::functions::ColArgs::Only(&[0]), |d| d.col_args);
                let mut args = Vec::new();
                for (i, (v, s)) in pos.into_iter().enumerate() {
                    let e = match v {
                        Py::Str(c) if cols.is_col(i) => Expr::Column(c),
                        Py::List(items) if cols.is_col(i) => {
                            for item in items {
                                args.push(self.col_ref(item, s)?);
                            }
                            continue;
                        }
                        v => self.literal_or_col(v, s)?,
                    };
                    args.push(e);
                }
                Ok(Py::Col(scalar_function(name, args, span)?))
            }
        }
    }
}

/// `F.countDistinct` → `countdistinct`, as listed in [`crate::plan::functions::AGGREGATES`].
fn agg_name(name: &str) -> String {
    match name {
        "approxCountDistinct" => "approx_count_distinct".into(),
        "sumDistinct" | "sum_distinct" => "sum".into(),
        "first" | "last" | "max_by" | "min_by" | "collect_list" | "collect_set" | "first_value" | "last_value" | "count_distinct" => name.into(),
        other => other.to_ascii_lowercase(),
    }
}

/// `df.col` / `df['col']`: a column that remembers its DataFrame when that DataFrame reads a
/// single relation (`clicks.post_id` → `clicks.post_id`), so a join condition can tell two
/// same-named columns apart.
fn qualified(df: &Py, name: String) -> Expr {
    let Py::Df(plan) = df else { return Expr::Column(name) };
    let mut leaves = Vec::new();
    relation_names(plan, &mut leaves);
    match leaves.as_slice() {
        [only] => Expr::Column(format!("{only}.{name}")),
        _ => Expr::Column(name),
    }
}

fn relation_names(plan: &LogicalPlan, out: &mut Vec<String>) {
    match plan {
        LogicalPlan::SubqueryAlias { alias, .. } => out.push(alias.clone()),
        LogicalPlan::StreamingRelation { source, .. } => out.push(source.clone()),
        LogicalPlan::LocalRelation { name, .. } => out.push(name.clone()),
        other => other.children().into_iter().for_each(|c| relation_names(c, out)),
    }
}

/// `col.field`: `getField('field')` on a Column value.
fn struct_field_of(col: Py, field: String) -> Expr {
    match col {
        Py::Col(e) => Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))]),
        _ => Expr::Column(field),
    }
}

/// Column methods PySpark defines (an attribute of a Column with another name is a struct
/// field, `Column.__getattr__`).
fn is_column_method(name: &str) -> bool {
    matches!(
        name,
        "alias" | "name" | "as_" | "cast" | "astype" | "isNull" | "isNotNull" | "eqNullSafe" | "isin" | "between" | "desc" | "asc"
            | "desc_nulls_last" | "asc_nulls_first" | "when" | "otherwise" | "contains" | "startswith" | "endswith" | "like"
            | "getField" | "getItem" | "over" | "substr" | "rlike" | "ilike" | "bitwiseAND" | "dropFields" | "withField"
    )
}

fn is_df_method(name: &str) -> bool {
    DF_METHODS.split(", ").any(|m| m == name)
        || matches!(name, "groupby" | "drop_duplicates" | "unionAll" | "alias" | "cache" | "persist" | "hint" | "repartition" | "coalesce")
        || is_action(name)
}

fn is_action(name: &str) -> bool {
    matches!(
        name,
        "count" | "show" | "collect" | "take" | "head" | "first" | "toPandas" | "foreach" | "foreachPartition" | "toLocalIterator" | "tail" | "printSchema_" | "rdd"
    )
}

fn first_source(plan: &LogicalPlan) -> String {
    match plan {
        LogicalPlan::StreamingRelation { source, .. } => format!("StreamingRelation {source}"),
        other => other.children().first().map(|c| first_source(c)).unwrap_or_default(),
    }
}

/// True if the Python text `prelude` defines a class `name` at its top level.
fn prelude_defines_class(prelude: &str, name: &str) -> bool {
    crate::pyfunc::parse_module(prelude)
        .ok()
        .is_some_and(|m| m.iter().any(|s| matches!(&s.kind, crate::pyfunc::parse::StmtKind::Class { name: n, .. } if n == name)))
}

/// `v` as Python source text, for a literal argument of a processor's constructor.
fn python_literal(v: &Py) -> Option<String> {
    Some(match v {
        Py::Str(t) => format!("'{}'", t.replace('\\', "\\\\").replace('\'', "\\'").replace('\n', "\\n")),
        Py::Int(i) => i.to_string(),
        Py::Float(f) => format!("{f:?}"),
        Py::Bool(b) => if *b { "True" } else { "False" }.to_string(),
        Py::NoneVal => "None".to_string(),
        _ => return None,
    })
}
