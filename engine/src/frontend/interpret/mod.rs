//! Evaluates a PySpark program into a [`LogicalPlan`], the way PySpark builds a DataFrame:
//! names are DataFrames (sources, static tables) or what the program's imports and assignments
//! bound, `F` is `pyspark.sql.functions`, and each method call returns a new DataFrame,
//! `GroupedData`, `Column`, `DataStreamWriter` or `StreamingQuery`. Every call is bound to
//! PySpark 4.3's signature first ([`super::pyspark_api::bind`]): positional and keyword
//! arguments as PySpark takes them, Python's `TypeError` when they do not fit.
//!
//! # Layout
//! - this file: Python values ([`Py`]), the evaluator, statements, names, operators, calls.
//! - [`modules`]: imports and the namespaces PySpark programs name (`pyspark.sql.functions`,
//!   `pyspark.sql.types`, `GroupStateTimeout`, `SparkSession.builder`, ...), type objects.
//! - [`dataframe`]: `DataFrame` and `GroupedData` methods (`pyspark.sql.DataFrame`).
//! - [`column`]: `Column` methods, `F.*` functions, `Window` specifications.
//! - [`stream`]: `DataStreamWriter`, `DataStreamReader`, `StreamingQuery`, `spark.*`.
//! - [`views`]: temporary views and `spark.sql`.

mod column;
mod dataframe;
mod modules;
mod stream;
mod views;

use std::collections::BTreeMap;
use std::rc::Rc;

use super::pyspark_api::{self, ApiKind, Bound};
use super::python::{ArgKind, Arg, Program, PyBinOp, PyNode, PyNodeKind, PyUnOp, Statement};
use super::{Catalog, ParseError, Span};
use crate::error::{AnalysisError, Error};
use crate::plan::{limits, BinOp, Expr, LogicalPlan};
use crate::streaming::OutputMode;
use crate::types::{DataType, Value};

pub(super) use modules::python_module_names;

/// A Python value during evaluation.
#[derive(Debug, Clone)]
pub(super) enum Py {
    Df(Rc<LogicalPlan>),
    Grouped { input: Rc<LogicalPlan>, grouping: Vec<Expr> },
    Col(Expr),
    /// A namespace: `F`, `Window`, `spark`, `pyspark.sql.types`, `GroupStateTimeout`, ...
    /// ([`modules`]).
    Module(&'static str),
    /// `obj.name`, not called yet.
    Method(Box<Py>, String),
    WriteStream { df: Rc<LogicalPlan> },
    /// `spark.readStream` with its settings so far.
    Reader(Box<stream::ReaderSpec>),
    /// What `DataStreamWriter.start()` returned.
    Query,
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    NoneVal,
    List(Vec<Py>),
    Dict(Vec<(Py, Py)>),
    /// `lambda x: ...`, for a higher-order function.
    Lambda(Rc<(Vec<String>, PyNode)>),
    /// A `pyspark.sql.types` instance: `LongType()`, `StructType([...])`.
    Type(DataType),
    /// `StructField(name, dataType)`.
    Field(String, DataType),
    /// `Window.partitionBy(...).orderBy(...)`: a window specification for `Column.over`.
    WindowSpec(Box<crate::plan::WindowOver>),
    /// A name the program's Python code defines (a function, a module): passed around, never
    /// run.
    Python(String),
    /// A call of a class the Python code defines, as text (`CountProc()`): a stateful processor
    /// for `transformWithStateInPandas`, built when the plan is.
    PythonCall(String),
}

impl Py {
    /// Python's name for the value's type, as its error messages print it.
    fn type_name(&self) -> &'static str {
        match self {
            Py::Df(_) => "DataFrame",
            Py::Grouped { .. } => "GroupedData",
            Py::Col(_) => "Column",
            Py::Module(_) => "module",
            Py::Method(..) => "method",
            Py::WriteStream { .. } => "DataStreamWriter",
            Py::Reader(_) => "DataStreamReader",
            Py::Query => "StreamingQuery",
            Py::Str(_) => "str",
            Py::Int(_) => "int",
            Py::Float(_) => "float",
            Py::Bool(_) => "bool",
            Py::NoneVal => "NoneType",
            Py::List(_) => "list",
            Py::Dict(_) => "dict",
            Py::Lambda(_) => "function",
            Py::Type(_) => "DataType",
            Py::Field(..) => "StructField",
            Py::WindowSpec(_) => "WindowSpec",
            Py::Python(_) | Py::PythonCall(_) => "Python object",
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
    /// Session confs the program sets (`spark.conf.set(key, value)`), in order.
    pub confs: Vec<(String, String)>,
}

/// The writer settings of the query being built (`writeStream...`).
#[derive(Debug, Clone, Default)]
struct WriterSettings {
    output_mode: Option<OutputMode>,
    trigger: Option<crate::streaming::Trigger>,
    sink: Option<crate::streaming::SinkKind>,
    checkpoint_location: Option<String>,
    query_name: Option<String>,
}

pub(super) struct Evaluator<'a> {
    catalog: &'a Catalog,
    vars: BTreeMap<String, Py>,
    /// What one use of each variable copies, in nodes ([`copy_cost`]).
    var_nodes: BTreeMap<String, usize>,
    /// Nodes copied into the query by variable uses so far (`plan::limits`).
    copied_nodes: std::cell::Cell<usize>,
    /// `from pyspark.sql.functions import *` was written: every function is a bare name.
    star_functions: bool,
    writer: WriterSettings,
    delay_spans: Vec<Span>,
    /// The query `start()` started, with the span of the call.
    started: Option<(Rc<LogicalPlan>, Span)>,
    confs: Vec<(String, String)>,
    /// The session's temporary views (`createOrReplaceTempView`), for `spark.sql`.
    views: super::sql_query::TempViews,
}

type R<T> = Result<T, Error>;

fn perr(msg: impl Into<String>, span: Span) -> Error {
    Error::Parse(ParseError::new(msg, span))
}

/// A Python `TypeError` (no Spark condition), as Python words it.
fn type_error(msg: impl Into<String>, span: Span) -> Error {
    Error::Analysis(AnalysisError::python("TypeError", msg, span))
}

/// PySpark's own argument check, raised as `PySparkTypeError` before Spark sees the call:
/// `[NOT_EXPECTED_TYPE] Argument `subset` should be a list or tuple, got str.`
/// (`pyspark/errors/error-conditions.json`).
fn not_expected(arg: &str, expected: &str, got: &Py, span: Span) -> Error {
    Error::Analysis(AnalysisError::new(crate::error::Stage::Define, "NOT_EXPECTED_TYPE", format!("Argument `{arg}` should be {expected}, got {}.", got.type_name())).with_span(span))
}

/// The size of a value: its plan and expressions (`plan::limits`); a string counts one node
/// per 64 bytes, so that doubling a string is bounded too.
fn py_size(v: &Py) -> limits::TreeSize {
    let budget = limits::MAX_TREE_NODES + 1;
    let items = |items: &mut dyn Iterator<Item = &Py>| {
        items.map(py_size).fold(limits::TreeSize { depth: 1, nodes: 1 }, |acc, s| limits::TreeSize {
            depth: acc.depth.max(s.depth + 1),
            nodes: acc.nodes.saturating_add(s.nodes),
        })
    };
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
        Py::List(list) => items(&mut list.iter()),
        Py::Dict(entries) => items(&mut entries.iter().flat_map(|(k, v)| [k, v])),
        _ => limits::TreeSize { depth: 1, nodes: 1 },
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
/// (reported as such), or a name PySpark does not have either (Python's `AttributeError`,
/// with the nearest names PySpark has).
fn unknown_api(kind: ApiKind, name: &str, span: Span) -> Error {
    let owner = match kind {
        ApiKind::Functions => "module 'pyspark.sql.functions'".to_string(),
        ApiKind::SparkSession => "'SparkSession' object".to_string(),
        ApiKind::Window => "type object 'Window'".to_string(),
        other => format!("'{}' object", other.prefix()),
    };
    if pyspark_api::exists(kind, name) {
        let feature = match kind {
            ApiKind::Functions => format!("the function {}()", name.to_ascii_lowercase()),
            other => format!("{}.{name}()", other.prefix()),
        };
        return Error::Parse(ParseError::not_modelled(feature.clone(), format!("{feature} is not modelled in Streamlab yet"), span));
    }
    let close = similar(kind, name);
    let hint = (!close.is_empty()).then(|| format!("did you mean {}?", close.join(", ")));
    // A DataFrame's unknown attribute is a column it does not have (`DataFrame.__getattr__`).
    let error = if kind == ApiKind::DataFrame {
        AnalysisError { python_exception: Some("PySparkAttributeError"), ..AnalysisError::new(crate::error::Stage::Define, "ATTRIBUTE_NOT_SUPPORTED", format!("Attribute `{name}` is not supported.")).with_sqlstate("0A000").with_span(span) }
    } else {
        AnalysisError::python("AttributeError", format!("{owner} has no attribute '{name}'"), span)
    };
    Error::Analysis(match hint {
        Some(h) => error.with_hint(h),
        None => error,
    })
}

/// Names of `kind` close to `name` (same letters in another case, or one edit away).
fn similar(kind: ApiKind, name: &str) -> Vec<&'static str> {
    let lower = name.to_ascii_lowercase();
    let mut out: Vec<&'static str> = kind.rows().iter().map(|a| a.name).filter(|n| n.to_ascii_lowercase() == lower || edit_distance_at_most_one(n, name)).collect();
    out.truncate(3);
    out
}

fn edit_distance_at_most_one(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 1 || a == b {
        return false;
    }
    let (mut i, mut j, mut edits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        edits += 1;
        if edits > 1 {
            return false;
        }
        match a.len().cmp(&b.len()) {
            std::cmp::Ordering::Greater => i += 1,
            std::cmp::Ordering::Less => j += 1,
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    edits + (a.len() - i) + (b.len() - j) <= 1
}

impl<'a> Evaluator<'a> {
    pub(super) fn new(catalog: &'a Catalog) -> Self {
        Evaluator {
            catalog,
            vars: BTreeMap::new(),
            var_nodes: BTreeMap::new(),
            copied_nodes: std::cell::Cell::new(0),
            star_functions: false,
            writer: WriterSettings::default(),
            delay_spans: Vec::new(),
            started: None,
            confs: Vec::new(),
            views: Default::default(),
        }
    }

    /// Binds what the program's Python code imports and defines (`import`, `from … import …`,
    /// `def`, `class`), read from its top-level statements.
    pub(super) fn with_python(mut self, module: &[crate::pyfunc::Stmt]) -> Self {
        for stmt in module {
            for (name, value) in modules::bindings(stmt) {
                if let modules::Binding::StarFunctions = value {
                    self.star_functions = true;
                    continue;
                }
                let v = match value {
                    modules::Binding::Value(v) => v,
                    _ => Py::Python(name.clone()),
                };
                self.vars.insert(name, v);
            }
        }
        self
    }

    /// Runs the program: its statements in order. The query is the one `start()` started, or
    /// else the DataFrame (or `DataStreamWriter`) of the last expression statement.
    ///
    /// # Errors
    /// The first statement's error; a program that defines no query says how to end it.
    pub(super) fn run(mut self, program: &Program) -> R<Evaluated> {
        let mut last: Option<(Py, Span)> = None;
        let mut last_assigned: Option<String> = None;
        for stmt in &program.statements {
            match stmt {
                Statement::Assign(names, node) => {
                    let v = self.eval(node)?;
                    within_limits(&v, node.span)?;
                    for name in names {
                        self.var_nodes.insert(name.clone(), copy_cost(&v));
                        self.vars.insert(name.clone(), v.clone());
                    }
                    if matches!(v, Py::Df(_) | Py::WriteStream { .. }) {
                        last_assigned = names.last().cloned();
                    }
                    last = None;
                }
                Statement::Expr(node) => {
                    let v = self.eval(node)?;
                    within_limits(&v, node.span)?;
                    last = Some((v, node.span));
                }
            }
        }
        let plan = match (self.started.take(), last) {
            (Some((plan, _)), _) => plan,
            (None, Some((Py::Df(p) | Py::WriteStream { df: p }, _))) => p,
            (None, Some((other, span))) => {
                return Err(perr(format!("the query must be a DataFrame, but this is a {}", other.type_name()), span));
            }
            (None, None) => {
                let end = program.statements.last().map_or(Span::new(0, 0), |s| match s {
                    Statement::Assign(_, n) | Statement::Expr(n) => n.span,
                });
                let fix = match last_assigned {
                    Some(name) => format!("add a last line with {name} (the DataFrame to run), or start it: {name}.writeStream.outputMode('append').start()"),
                    None => "end it with the DataFrame to run, e.g. clicks.select('event_id')".to_string(),
                };
                return Err(perr(format!("the program defines no query to run: {fix}"), end));
            }
        };
        let w = self.writer;
        Ok(Evaluated {
            plan,
            output_mode: w.output_mode,
            watermark_delay_spans: self.delay_spans,
            trigger: w.trigger,
            sink: w.sink,
            checkpoint_location: w.checkpoint_location,
            query_name: w.query_name,
            confs: self.confs,
        })
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
            PyNodeKind::List(items) | PyNodeKind::Tuple(items) => Py::List(items.iter().map(|i| self.eval(i)).collect::<R<Vec<_>>>()?),
            PyNodeKind::Dict(entries) => {
                let mut out = Vec::new();
                for (k, v) in entries {
                    out.push((self.eval(k)?, self.eval(v)?));
                }
                Py::Dict(out)
            }
            PyNodeKind::Lambda(params, body) => Py::Lambda(Rc::new((params.clone(), (**body).clone()))),
            PyNodeKind::Attr(obj, name) => {
                let target = self.eval(obj)?;
                self.attribute(target, name, span)?
            }
            PyNodeKind::Index(obj, idx) => {
                let target = self.eval(obj)?;
                let idx_v = self.eval(idx)?;
                match (target, idx_v) {
                    (df @ Py::Df(_), Py::Str(c)) => Py::Col(qualified(self.catalog, &df, c)),
                    (Py::Col(e), Py::Str(field)) => Py::Col(Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))])),
                    // `F.split(...)[0]`: an array element, 0-based (`GetArrayItem`).
                    (Py::Col(e), Py::Int(i)) => Py::Col(Expr::Function("get_item".into(), vec![e, Expr::Literal(Value::Int(i32::try_from(i).unwrap_or(i32::MAX)))])),
                    (Py::List(items), Py::Int(i)) => {
                        let at = if i < 0 { items.len() as i64 + i } else { i };
                        usize::try_from(at).ok().and_then(|at| items.get(at).cloned()).ok_or_else(|| Error::Analysis(AnalysisError::python("IndexError", "list index out of range", span)))?
                    }
                    (t, i) => return Err(perr(format!("cannot index a {} with a {}", t.type_name(), i.type_name()), span)),
                }
            }
            PyNodeKind::Call(f, args) => {
                let callee = self.eval(f)?;
                self.call(callee, args, span)?
            }
            PyNodeKind::Unary(op, inner) => {
                let v = self.eval(inner)?;
                self.unary(*op, v, span)?
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
            return Ok(Py::Df(Rc::new(LogicalPlan::LocalRelation { name: name.to_string(), schema: schema.clone(), rows: rows.clone() })));
        }
        if self.catalog.python_names.contains(name) {
            return Ok(Py::Python(name.to_string()));
        }
        if self.star_functions && pyspark_api::lookup(ApiKind::Functions, name).is_some_and(|a| a.name == name) {
            return Ok(Py::Method(Box::new(Py::Module("F")), name.to_string()));
        }
        if let Some(v) = modules::builtin(name) {
            return Ok(v);
        }
        let mut known: Vec<&str> = self.catalog.streams.keys().map(String::as_str).collect();
        known.extend(self.catalog.statics.keys().map(String::as_str));
        known.extend(self.vars.keys().map(String::as_str));
        known.push("F");
        Err(Error::Analysis(AnalysisError::python("NameError", format!("name '{name}' is not defined (known names: {})", known.join(", ")), span)))
    }

    fn attribute(&mut self, target: Py, name: &str, span: Span) -> R<Py> {
        // `lines.timestamp.alias(...)`: `df.col` is a Column once something is asked of it.
        let target = match target {
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => Py::Col(qualified(self.catalog, &recv, n)),
            t => t,
        };
        Ok(match target {
            Py::Df(p) => match name {
                "writeStream" => {
                    self.writer = WriterSettings::default();
                    Py::WriteStream { df: p }
                }
                "isStreaming" => Py::Bool(p.is_streaming()),
                // `df.post_id`: a column, unless it names a method; kept as a method value until
                // it is called or used as a column (`col_ref` / `literal_or_col`). A name that is
                // neither is refused at once, as `DataFrame.__getattr__` does.
                _ if is_df_method(name) => Py::Method(Box::new(Py::Df(p)), name.to_string()),
                _ => {
                    let has_column = crate::analysis::resolve(&p).map_or(true, |r| r.output.iter().any(|a| a.name.eq_ignore_ascii_case(name)));
                    if !has_column {
                        return Err(unknown_api(ApiKind::DataFrame, name, span));
                    }
                    Py::Method(Box::new(Py::Df(p)), name.to_string())
                }
            },
            // `F.col('window').start`: an attribute that is no Column method is a struct
            // field (`Column.__getattr__`).
            Py::Col(e) if !is_column_method(name) => Py::Col(Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(name))])),
            Py::Module(m) => modules::attribute(m, name).ok_or_else(|| modules::no_attribute(m, name, span))?,
            // `query.lastProgress`, `query.status`: what the lab shows beside the run.
            Py::Query if stream::is_query_attribute(name) => Py::NoneVal,
            other => Py::Method(Box::new(other), name.to_string()),
        })
    }

    fn unary(&mut self, op: PyUnOp, v: Py, span: Span) -> R<Py> {
        let v = self.as_col_if_column(v);
        Ok(match (op, v) {
            (PyUnOp::Invert, Py::Col(e)) => Py::Col(Expr::Not(Box::new(e))),
            (PyUnOp::Neg, Py::Col(e)) => Py::Col(Expr::Negate(Box::new(e))),
            (PyUnOp::Pos, v @ (Py::Col(_) | Py::Int(_) | Py::Float(_))) => v,
            (PyUnOp::Neg, Py::Int(i)) => Py::Int(i.wrapping_neg()),
            (PyUnOp::Neg, Py::Float(f)) => Py::Float(-f),
            (PyUnOp::Not, Py::Col(e)) => return Err(cannot_convert_column_into_bool(&e, self.catalog, span)),
            (PyUnOp::Not, v) => Py::Bool(!truthy(&v)),
            (_, v) => return Err(type_error(format!("bad operand type for unary {}: '{}'", unary_symbol(op), v.type_name()), span)),
        })
    }

    /// `df.name` used as a value where a Column is meant.
    fn as_col_if_column(&self, v: Py) -> Py {
        match v {
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => Py::Col(qualified(self.catalog, &recv, n)),
            Py::Method(recv, n) if matches!(*recv, Py::Col(_)) && !is_column_method(&n) => Py::Col(struct_field_of(*recv, n)),
            v => v,
        }
    }

    fn binary(&mut self, op: PyBinOp, l: Py, r: Py, span: Span) -> R<Py> {
        let (l, r) = (self.as_col_if_column(l), self.as_col_if_column(r));
        let has_col = matches!(l, Py::Col(_)) || matches!(r, Py::Col(_));
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
            // `col ** 2` is `pow(col, 2)` (`Column.__pow__`).
            PyBinOp::Pow if has_col => {
                let le = self.literal_or_col(l, span)?;
                let re = self.literal_or_col(r, span)?;
                return Ok(Py::Col(super::functions::scalar_function("pow", vec![le, re], span)?));
            }
            // Python's `and`/`or`/`not`/`in` ask a Column for its truth value, which PySpark
            // refuses: the classic slip for `&`, `|`, `~`. Python asks the left side first.
            PyBinOp::BoolAnd | PyBinOp::BoolOr if matches!(l, Py::Col(_)) => {
                let Py::Col(e) = &l else { unreachable!("matched") };
                return Err(cannot_convert_column_into_bool(e, self.catalog, span));
            }
            // `1 in col` asks the Column (`Column.__contains__`); `col in [1, 2]` compares
            // `col == 1` and asks that for its truth value.
            PyBinOp::In | PyBinOp::NotIn if matches!(r, Py::Col(_)) => return Err(cannot_apply_in_for_column(span)),
            PyBinOp::In | PyBinOp::NotIn if has_col => {
                let first = match &r {
                    Py::List(items) => items.first().cloned(),
                    _ => None,
                };
                let Some(first) = first else { return Ok(Py::Bool(op == PyBinOp::NotIn)) };
                let eq = Expr::Binary(BinOp::Eq, Box::new(self.literal_or_col(l, span)?), Box::new(self.literal_or_col(first, span)?));
                return Err(cannot_convert_column_into_bool(&eq, self.catalog, span));
            }
            PyBinOp::BoolAnd => return Ok(if truthy(&l) { r } else { l }),
            PyBinOp::BoolOr => return Ok(if truthy(&l) { l } else { r }),
            PyBinOp::Is | PyBinOp::IsNot => {
                let same = matches!((&l, &r), (Py::NoneVal, Py::NoneVal)) || matches!((&l, &r), (Py::Bool(a), Py::Bool(b)) if a == b);
                return Ok(Py::Bool(same == (op == PyBinOp::Is)));
            }
            _ => {
                return match (&l, &r, op) {
                    (Py::Int(a), Py::Int(b), PyBinOp::FloorDiv) if *b != 0 => Ok(Py::Int(a.div_euclid(*b))),
                    (Py::Int(a), Py::Int(b), PyBinOp::Pow) if *b >= 0 => Ok(Py::Int(a.saturating_pow(u32::try_from(*b).unwrap_or(u32::MAX)))),
                    _ => Err(type_error(format!("unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), l.type_name(), r.type_name()), span)),
                };
            }
        };
        if has_col {
            let le = self.literal_or_col(l, span)?;
            let re = self.literal_or_col(r, span)?;
            return Ok(Py::Col(Expr::Binary(bop, Box::new(le), Box::new(re))));
        }
        // Plain Python values: the arithmetic and comparisons programs do on constants
        // (`60 * 1000`, `'a' + 'b'`, `10 > 3`).
        match (&l, &r) {
            (Py::Int(a), Py::Int(b)) => Ok(match bop {
                BinOp::Add => Py::Int(a.saturating_add(*b)),
                BinOp::Sub => Py::Int(a.saturating_sub(*b)),
                BinOp::Mul => Py::Int(a.saturating_mul(*b)),
                BinOp::Div if *b != 0 => Py::Float(*a as f64 / *b as f64),
                BinOp::Mod if *b != 0 => Py::Int(a.rem_euclid(*b)),
                BinOp::Eq => Py::Bool(a == b),
                BinOp::NotEq => Py::Bool(a != b),
                BinOp::Lt => Py::Bool(a < b),
                BinOp::LtEq => Py::Bool(a <= b),
                BinOp::Gt => Py::Bool(a > b),
                BinOp::GtEq => Py::Bool(a >= b),
                BinOp::And => Py::Int(a & b),
                BinOp::Or => Py::Int(a | b),
                _ => return Err(Error::Analysis(AnalysisError::python("ZeroDivisionError", "division by zero", span))),
            }),
            (Py::Int(_) | Py::Float(_), Py::Int(_) | Py::Float(_)) => {
                let (a, b) = (as_f64(&l), as_f64(&r));
                Ok(match bop {
                    BinOp::Add => Py::Float(a + b),
                    BinOp::Sub => Py::Float(a - b),
                    BinOp::Mul => Py::Float(a * b),
                    BinOp::Div if b != 0.0 => Py::Float(a / b),
                    BinOp::Lt => Py::Bool(a < b),
                    BinOp::Gt => Py::Bool(a > b),
                    BinOp::Eq => Py::Bool(a == b),
                    _ => return Err(type_error(format!("unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), l.type_name(), r.type_name()), span)),
                })
            }
            (Py::Str(a), Py::Str(b)) if bop == BinOp::Add => Ok(Py::Str(format!("{a}{b}"))),
            (Py::Str(a), Py::Str(b)) if bop == BinOp::Eq => Ok(Py::Bool(a == b)),
            (Py::List(a), Py::List(b)) if bop == BinOp::Add => Ok(Py::List(a.iter().chain(b).cloned().collect())),
            _ => Err(type_error(format!("unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), l.type_name(), r.type_name()), span)),
        }
    }

    /// A value used where a Column is expected and a plain Python value means a literal
    /// (`F.col('a') == 'u1'`, `F.when(c, '5 minutes')`).
    fn literal_or_col(&self, v: Py, span: Span) -> R<Expr> {
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
    fn col_ref(&self, v: Py, span: Span) -> R<Expr> {
        match self.as_col_if_column(v) {
            Py::Str(s) if s == "*" => Ok(Expr::Star),
            Py::Str(s) => Ok(Expr::Column(s)),
            Py::Col(e) => Ok(e),
            other => Err(perr(format!("expected a column name or a Column, got a {}", other.type_name()), span)),
        }
    }

    /// Column references from `*cols`, where a single list or tuple stands for its items
    /// (`select(['a', 'b'])`, as PySpark accepts).
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
    fn bind(&self, kind: ApiKind, name: &str, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Bound<Py>> {
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
        pyspark_api::bind(&qualname, is_method, params, pos, kw, span).map_err(|(m, s)| type_error(m, s))
    }

    fn call(&mut self, callee: Py, args: &[Arg], span: Span) -> R<Py> {
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
            }
        }
        // `foreachBatch(fn)` / `foreach(writer)`: the Python function is not evaluated (the lab
        // shows what each batch hands it; its body is the learner's own).
        if let (Py::WriteStream { df }, "foreachBatch" | "foreach") = (recv.as_ref(), name.as_str()) {
            self.writer.sink = Some(if name == "foreachBatch" { crate::streaming::SinkKind::ForeachBatchNaive } else { crate::streaming::SinkKind::Foreach });
            return Ok(Py::WriteStream { df: df.clone() });
        }
        let (pos, kw) = self.eval_args(args)?;
        match *recv {
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
                stream::query_method(&name, b, span)
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
            format!("{name}() is Python code from the prelude; Streamlab runs Python only as an applyInPandasWithState state function, not as a UDF"),
            span,
        )))
    }
}

/// The `str` methods programs use to build names and durations: `'{} seconds'.format(10)`,
/// `','.join(cols)`, `.upper()`, `.lower()`, `.strip()`, `.replace(a, b)`.
fn str_method(text: &str, name: &str, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Py> {
    let plain = |v: &Py| -> Option<String> {
        Some(match v {
            Py::Str(s) => s.clone(),
            Py::Int(i) => i.to_string(),
            Py::Float(f) => format!("{f:?}"),
            Py::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Py::NoneVal => "None".to_string(),
            _ => return None,
        })
    };
    let strs = |args: &[(Py, Span)]| -> R<Vec<String>> {
        args.iter().map(|(v, s)| plain(v).ok_or_else(|| type_error(format!("str.{name}() takes plain values here, not a {}", v.type_name()), *s))).collect()
    };
    Ok(Py::Str(match name {
        "format" => {
            let args = strs(&pos)?;
            let named: Vec<(String, String)> = kw.iter().map(|(k, v, s)| plain(v).map(|t| (k.clone(), t)).ok_or_else(|| type_error(format!("str.format() takes plain values here, not a {}", v.type_name()), *s))).collect::<R<_>>()?;
            let mut out = String::new();
            let mut next = 0;
            let mut rest = text;
            while let Some(open) = rest.find(['{', '}']) {
                out.push_str(&rest[..open]);
                let tail = &rest[open..];
                if tail.starts_with("{{") || tail.starts_with("}}") {
                    out.push_str(&tail[..1]);
                    rest = &tail[2..];
                    continue;
                }
                let Some(close) = tail.find('}').filter(|_| tail.starts_with('{')) else {
                    return Err(Error::Analysis(AnalysisError::python("ValueError", "Single '}' encountered in format string", span)));
                };
                let field = &tail[1..close];
                let value = if field.is_empty() {
                    next += 1;
                    args.get(next - 1).cloned()
                } else if let Ok(i) = field.parse::<usize>() {
                    args.get(i).cloned()
                } else {
                    named.iter().find(|(k, _)| k == field).map(|(_, v)| v.clone())
                };
                out.push_str(&value.ok_or_else(|| Error::Analysis(AnalysisError::python("IndexError", format!("Replacement index {field} out of range for positional args tuple"), span)))?);
                rest = &tail[close + 1..];
            }
            out.push_str(rest);
            out
        }
        "join" => match pos.first() {
            Some((Py::List(items), s)) => strs(&items.iter().map(|i| (i.clone(), *s)).collect::<Vec<_>>())?.join(text),
            _ => return Err(type_error("str.join() takes a list of strings", span)),
        },
        "upper" => text.to_uppercase(),
        "lower" => text.to_lowercase(),
        "strip" => text.trim().to_string(),
        "replace" => match strs(&pos)?.as_slice() {
            [a, b] => text.replace(a.as_str(), b),
            _ => return Err(type_error("str.replace() takes 2 arguments", span)),
        },
        other => return Err(Error::Analysis(AnalysisError::python("AttributeError", format!("'str' object has no attribute '{other}'"), span))),
    }))
}

/// PySpark's refusal to use a Column as a Python truth value (`Column.__bool__`), naming the
/// column as Spark 4 prints it.
fn cannot_convert_column_into_bool(e: &Expr, catalog: &Catalog, span: Span) -> Error {
    Error::Analysis(AnalysisError {
        python_exception: Some("PySparkValueError"),
        ..AnalysisError::new(
            crate::error::Stage::Define,
            "CANNOT_CONVERT_COLUMN_INTO_BOOL",
            format!("Cannot convert column into bool (offending column: {}): please use '&' for 'and', '|' for 'or', '~' for 'not' when building DataFrame boolean expressions.", column_node_text(e, catalog)),
        )
        .with_span(span)
        .with_hint("Python's and/or/not/in ask a Column for True or False, which it cannot give: combine conditions with &, | and ~, each side in brackets: (F.col('a') > 1) & (F.col('b') < 2); use .isin(...) for 'in'")
    })
}

/// `x in col`: PySpark's `Column.__contains__`.
fn cannot_apply_in_for_column(span: Span) -> Error {
    Error::Analysis(AnalysisError {
        python_exception: Some("PySparkValueError"),
        ..AnalysisError::new(
            crate::error::Stage::Define,
            "CANNOT_APPLY_IN_FOR_COLUMN",
            "Cannot apply 'in' operator against a column: please use 'contains' in a string column or 'array_contains' function for an array column.",
        )
        .with_span(span)
    })
}

/// A Column as Spark 4 prints it in PySpark's messages (its `ColumnNode`): `>(a, 1)`,
/// `and(>(a, 1), <(b, 2))`, `!(a)`, `upper(a)`, `a AS b`, `CAST(a AS BIGINT)`, `'x'`. A column
/// taken from a DataFrame (`clicks.post_id`) prints as its name alone.
fn column_node_text(e: &Expr, catalog: &Catalog) -> String {
    let text = |x: &Expr| column_node_text(x, catalog);
    let list = |args: &[Expr]| args.iter().map(text).collect::<Vec<_>>().join(", ");
    match e {
        Expr::Column(n) => match crate::plan::unmarked(n).split_once('.') {
            Some((relation, name)) if catalog.streams.contains_key(relation) || catalog.statics.contains_key(relation) => name.to_string(),
            _ => n.clone(),
        },
        Expr::Star => "*".into(),
        Expr::Literal(Value::Str(s)) => format!("'{s}'"),
        Expr::Literal(Value::Null) => "NULL".into(),
        Expr::Literal(v) => v.to_string(),
        Expr::Binary(op, l, r) => {
            let (l, r) = (text(l), text(r));
            match op {
                BinOp::NotEq => format!("!(=({l}, {r}))"),
                BinOp::And => format!("and({l}, {r})"),
                BinOp::Or => format!("or({l}, {r})"),
                BinOp::EqNullSafe => format!("<=>({l}, {r})"),
                BinOp::Eq => format!("=({l}, {r})"),
                other => format!("{}({l}, {r})", other.symbol()),
            }
        }
        Expr::Not(x) => format!("!({})", text(x)),
        Expr::Negate(x) => format!("-({})", text(x)),
        Expr::IsNull(x, negated) => format!("{}({})", if *negated { "isNotNull" } else { "isNull" }, text(x)),
        Expr::Alias(x, n) => format!("{} AS {n}", text(x)),
        Expr::Cast(x, t) => format!("CAST({} AS {})", text(x), crate::types::spark_type_name(t).to_ascii_uppercase()),
        Expr::Function(f, args) => format!("{f}({})", list(args)),
        other => other.to_string(),
    }
}

fn unary_symbol(op: PyUnOp) -> &'static str {
    match op {
        PyUnOp::Neg => "-",
        PyUnOp::Pos => "+",
        PyUnOp::Invert => "~",
        PyUnOp::Not => "not",
    }
}

/// Python's truth value of a plain value.
fn truthy(v: &Py) -> bool {
    match v {
        Py::Bool(b) => *b,
        Py::Int(i) => *i != 0,
        Py::Float(f) => *f != 0.0,
        Py::Str(s) => !s.is_empty(),
        Py::NoneVal => false,
        Py::List(l) => !l.is_empty(),
        Py::Dict(d) => !d.is_empty(),
        _ => true,
    }
}

fn as_f64(v: &Py) -> f64 {
    match v {
        Py::Int(i) => *i as f64,
        Py::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// `df.col` / `df['col']`: a column that remembers its DataFrame when that DataFrame reads a
/// single relation (`clicks.post_id` → `clicks.post_id`), so a join condition can tell two
/// same-named columns apart.
///
/// Such a column is the DataFrame's own attribute, with the metadata it has there: taken from
/// a DataFrame below `withWatermark` (`words.timestamp` in
/// `words.withWatermark("timestamp", ...).groupBy(window(words.timestamp, ...))`, the guide's
/// own example), a stream's timestamp column carries no event-time tag, so the window over it
/// has no watermark (append mode is refused, update mode never evicts). It is marked
/// [`crate::plan::UNWATERMARKED`] and `bind` drops the tag; the mark is set only on a
/// timestamp column of a stream, where a tag can be.
fn qualified(catalog: &Catalog, df: &Py, name: String) -> Expr {
    let Py::Df(plan) = df else { return Expr::Column(name) };
    let mut leaves = Vec::new();
    relation_names(plan, &mut leaves);
    let is_stream_timestamp = |relation: &str| {
        catalog.streams.get(relation).is_some_and(|schema| schema.iter().any(|(c, t)| c.eq_ignore_ascii_case(&name) && matches!(t, crate::types::DataType::Timestamp(..))))
    };
    match leaves.as_slice() {
        [only] if is_stream_timestamp(only) && !watermarks_column(plan, &name) => Expr::Column(format!("{}{only}.{name}", crate::plan::UNWATERMARKED)),
        [only] => Expr::Column(format!("{only}.{name}")),
        // A joined DataFrame's own timestamp column (`joined.clickTime`).
        several if joins(plan) && several.iter().any(|l| is_stream_timestamp(l)) => Expr::Column(format!("{}{name}", crate::plan::JOINED_DATASET_COLUMN)),
        _ => Expr::Column(name),
    }
}

fn joins(plan: &LogicalPlan) -> bool {
    matches!(plan, LogicalPlan::Join { .. }) || plan.children().into_iter().any(|c| joins(c))
}

/// True if `plan` puts a watermark on `column` (an `EventTimeWatermark` on it, anywhere below).
fn watermarks_column(plan: &LogicalPlan, column: &str) -> bool {
    match plan {
        LogicalPlan::EventTimeWatermark { column: c, .. } if c.eq_ignore_ascii_case(column) => true,
        other => other.children().into_iter().any(|c| watermarks_column(c, column)),
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
    pyspark_api::lookup(ApiKind::Column, name).is_some_and(|a| a.name == name)
}

/// DataFrame methods and attributes PySpark defines (any other attribute is a column).
fn is_df_method(name: &str) -> bool {
    pyspark_api::lookup(ApiKind::DataFrame, name).is_some_and(|a| a.name == name)
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
