//! Evaluates a PySpark program into a [`LogicalPlan`], the way PySpark builds a DataFrame:
//! names are DataFrames (sources, static tables) or what the program's imports and assignments
//! bound, `F` is `pyspark.sql.functions`, and each method call returns a new DataFrame,
//! `GroupedData`, `Column`, `DataStreamWriter` or `StreamingQuery`. Every call is bound to
//! PySpark 4.3's signature first ([`super::pyspark_api::bind`]): positional and keyword
//! arguments as PySpark takes them, Python's `TypeError` when they do not fit.
//!
//! # Layout
//! - this file: Python values (`Py`), the evaluator, statements, expressions, names.
//! - `attribute.rs`: `obj.name` (`DataFrame.__getattr__`, `Column.__getattr__`), column
//!   qualification (`df.col`).
//! - `operators.rs`: Python's operators on Columns and plain values (`Column.__add__`, ...).
//! - `calls.rs`: calls, arguments bound to PySpark's signatures, values as Columns.
//! - `str_methods.rs`: the `str` methods programs use (`'{} seconds'.format(10)`).
//! - `errors.rs`: Python's and PySpark's errors as the evaluator raises them.
//! - `size.rs`: a value's size against `plan::limits`.
//! - `modules`: imports and the namespaces PySpark programs name (`pyspark.sql.functions`,
//!   `pyspark.sql.types`, `GroupStateTimeout`, `SparkSession.builder`, ...), type objects.
//! - `dataframe`: `DataFrame` and `GroupedData` methods (`pyspark.sql.DataFrame`).
//! - `column`: `Column` methods, `F.*` functions, `Window` specifications.
//! - `stream`: `DataStreamWriter`, `DataStreamReader`, `StreamingQuery`, `spark.*`.
//! - `views`: temporary views and `spark.sql`.

mod attribute;
mod calls;
mod column;
mod dataframe;
mod errors;
mod modules;
mod operators;
mod size;
mod str_methods;
mod stream;
mod views;

use std::collections::BTreeMap;
use std::rc::Rc;

use super::pyspark_api::{self, ApiKind};
use super::python::{Program, PyNode, PyNodeKind, Statement};
use super::{Catalog, ParseError, Span};
use crate::error::{AnalysisError, Error};
use crate::plan::{limits, Expr, LogicalPlan};
use crate::streaming::OutputMode;
use crate::types::{DataType, Value};

use attribute::qualified;
use errors::{not_expected, perr, type_error, unknown_api};
use size::{copy_cost, within_limits};
use str_methods::str_method;

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
    /// `spark.sql("select * from counts")` over the memory sink's table of the query the
    /// program started (`queryName('counts')`): a batch DataFrame of what the query wrote,
    /// which the lab shows in its Sink panel instead of running the batch query.
    SinkTable(String),
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    NoneVal,
    /// `...`: what the programming guide writes for a DataFrame it does not show
    /// (`words = ...  # streaming DataFrame of schema { timestamp: Timestamp, word: String }`).
    Ellipsis,
    List(Vec<Py>),
    /// A tuple a PySpark value is made of (`df.dtypes`' `('post_id', 'bigint')`); a tuple the
    /// program writes is read as a list, which PySpark's calls take alike.
    Tuple(Vec<Py>),
    Dict(Vec<(Py, Py)>),
    /// `lambda x: ...`, for a higher-order function.
    Lambda(Rc<(Vec<String>, PyNode)>),
    /// A `pyspark.sql.types` instance: `LongType()`, `StructType([...])`.
    Type(DataType),
    /// `StructField(name, dataType, nullable)`.
    Field(String, DataType, bool),
    /// `Window.partitionBy(...).orderBy(...)`: a window specification for `Column.over`.
    WindowSpec(Box<crate::plan::WindowOver>),
    /// A name the program's Python code defines (a function, a module): passed around, never
    /// run.
    Python(String),
    /// A call of a class the Python code defines, as text (`CountProc()`): a stateful processor
    /// for `transformWithStateInPandas`, built when the plan is.
    PythonCall(String),
    /// What `type(x)` returns: a class by its qualified name
    /// (`pyspark.sql.classic.dataframe.DataFrame`), printed `<class '...'>`.
    Class(String),
}

impl Evaluated {
    /// The program gives its query a checkpoint location: `.option("checkpointLocation", ...)`
    /// on the writer, or `spark.conf.set("spark.sql.streaming.checkpointLocation", ...)`.
    pub fn sets_checkpoint_location(&self) -> bool {
        self.checkpoint_location.is_some() || self.confs.iter().any(|(k, _)| k.eq_ignore_ascii_case("spark.sql.streaming.checkpointLocation"))
    }
}

/// Python's place of index `i` in a sequence of `len` items (`-1` the last), if it has one.
fn py_index(len: usize, i: i64) -> Option<usize> {
    usize::try_from(if i < 0 { len as i64 + i } else { i }).ok().filter(|at| *at < len)
}

/// `items[i]` of a list or tuple (`kind`), else Python's IndexError.
fn item_at(mut items: Vec<Py>, i: i64, kind: &str, span: Span) -> R<Py> {
    match py_index(items.len(), i) {
        Some(at) => Ok(items.swap_remove(at)),
        None => Err(Error::Analysis(AnalysisError::python("IndexError", format!("{kind} index out of range"), span))),
    }
}

/// The places `lower:upper:step` picks from a sequence of `len` items, in order, as Python's
/// `slice.indices` and `range` do: a part left out is the start or end on the step's side,
/// a negative one counts from the end, and one past either end stops there.
fn py_slice(len: usize, lower: Option<i64>, upper: Option<i64>, step: Option<i64>) -> Option<Vec<usize>> {
    let len = i64::try_from(len).ok()?;
    let step = step.unwrap_or(1);
    if step == 0 {
        return None;
    }
    let adjust = |v: Option<i64>, default: i64| match v {
        None => default,
        Some(v) if v < 0 => (v.saturating_add(len)).max(if step < 0 { -1 } else { 0 }),
        Some(v) => v.min(if step < 0 { len - 1 } else { len }),
    };
    let (start, stop) = if step < 0 { (adjust(lower, len - 1), adjust(upper, -1)) } else { (adjust(lower, 0), adjust(upper, len)) };
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(usize::try_from(i).ok()?);
        i = i.checked_add(step)?;
    }
    Some(out)
}

impl Evaluator<'_> {
    /// `col[start:stop]`: PySpark's `Column.__getitem__` makes a slice `col.substr(start,
    /// stop)` (the stop is the length), refusing a step (`SLICE_WITH_STEP`) and, as `substr`
    /// does, bounds of two types (`NOT_SAME_TYPE`) or of another type than int or Column.
    fn column_slice(&mut self, e: Expr, start: Py, stop: Py, step: Py, span: Span) -> R<Py> {
        let pyspark = |class: &str, message: String, exception: &'static str| Error::Analysis(AnalysisError::pyspark(exception, class, message, span));
        let py_type = |v: &Py| if matches!(v, Py::NoneVal) { "NoneType" } else { v.type_name() };
        if !matches!(step, Py::NoneVal) {
            return Err(pyspark("SLICE_WITH_STEP", "Slice with step is not supported.".into(), "PySparkValueError"));
        }
        let (start, stop) = (self.as_col_if_column(start), self.as_col_if_column(stop));
        if std::mem::discriminant(&start) != std::mem::discriminant(&stop) {
            return Err(pyspark("NOT_SAME_TYPE", format!("Argument `startPos` and `length` should be the same type, got {} and {}.", py_type(&start), py_type(&stop)), "PySparkTypeError"));
        }
        let bound = |v: Py| match v {
            Py::Int(i) => Ok(Expr::Literal(Value::Int(i32::try_from(i).unwrap_or(i32::MAX)))),
            Py::Col(c) => Ok(c),
            other => Err(pyspark("NOT_EXPECTED_TYPE", format!("Argument `startPos` should be Column or int, got {}.", py_type(&other)), "PySparkTypeError")),
        };
        Ok(Py::Col(crate::frontend::functions::scalar_function("substr", vec![e, bound(start)?, bound(stop)?], span)?))
    }
}

/// `target[lower:upper:step]` of a list, tuple or string, as Python slices them.
fn slice_of(target: Py, lower: Option<i64>, upper: Option<i64>, step: Option<i64>, span: Span) -> R<Py> {
    let pick = |len: usize| py_slice(len, lower, upper, step).ok_or_else(|| Error::Analysis(AnalysisError::python("ValueError", "slice step cannot be zero", span)));
    Ok(match target {
        Py::List(items) => Py::List(pick(items.len())?.into_iter().map(|i| items[i].clone()).collect()),
        Py::Tuple(items) => Py::Tuple(pick(items.len())?.into_iter().map(|i| items[i].clone()).collect()),
        Py::Str(s) => {
            let chars: Vec<char> = s.chars().collect();
            Py::Str(pick(chars.len())?.into_iter().map(|i| chars[i]).collect())
        }
        // What PySpark 4.3 and Python raise (checked there).
        Py::Df(_) => return Err(Error::Analysis(AnalysisError::pyspark("PySparkTypeError", "NOT_EXPECTED_TYPE", "Argument `item` should be Column, float, integer, list or string, got slice.", span))),
        Py::Dict(_) => return Err(Error::Analysis(AnalysisError::python("TypeError", "unhashable type: 'slice'", span))),
        t @ (Py::NoneVal | Py::Int(_) | Py::Float(_) | Py::Bool(_)) => return Err(Error::Analysis(AnalysisError::python("TypeError", format!("'{}' object is not subscriptable", t.type_name()), span))),
        t => return Err(perr(format!("cannot slice a {} (Streamlab slices lists, tuples, strings and columns)", t.type_name()), span)),
    })
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
            Py::SinkTable(_) => "DataFrame",
            Py::Str(_) => "str",
            Py::Int(_) => "int",
            Py::Float(_) => "float",
            Py::Bool(_) => "bool",
            Py::NoneVal => "NoneType",
            Py::Ellipsis => "ellipsis",
            Py::List(_) => "list",
            Py::Tuple(_) => "tuple",
            Py::Dict(_) => "dict",
            Py::Lambda(_) => "function",
            Py::Type(_) => "DataType",
            Py::Field(..) => "StructField",
            Py::WindowSpec(_) => "WindowSpec",
            Py::Python(_) | Py::PythonCall(_) => "Python object",
            Py::Class(_) => "type",
        }
    }
}

/// What a program did while it ran, besides the query it defines; kept also when it failed
/// ([`crate::frontend::compile_traced`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Traced {
    /// The reader calls answered with one of the lab's streams, in order.
    pub reads: Vec<SourceRead>,
    /// What each `print(...)` call wrote, as Python's `str()` of its arguments joined by `sep`
    /// (a DataFrame as PySpark's `DataFrame[name: type, ...]`).
    pub printed: Vec<String>,
    /// The `foreachBatch(f)` / `foreach(writer)` calls, whose Python the lab does not run: it
    /// shows what each batch hands the function.
    pub not_run: Vec<NotRun>,
}

/// A `foreachBatch(f)` or `foreach(writer)` call: the lab's sink records what each micro-batch
/// hands the function or writer, but does not run its Python (its writes, `print`, `show`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRun {
    /// `foreachBatch` or `foreach`.
    pub call: String,
    /// The argument as written (`write_batch`, `lambda df, i: ...`, `RowPrinter()`).
    pub function: String,
    /// The call's argument in the query text.
    pub span: Span,
}

/// What evaluating the query text produced.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// The query's unresolved plan: what `start()` started, else the last expression's DataFrame.
    pub plan: Rc<LogicalPlan>,
    /// An output mode written in the text (`.writeStream.outputMode('update')`), if any; for a
    /// program that starts its query without one, Spark's default, append
    /// (`DataStreamWriter.outputMode` is `OutputMode.Append()` until set), with
    /// [`Evaluated::output_mode_default`].
    pub output_mode: Option<OutputMode>,
    /// The program calls `start()` with no output mode: [`Evaluated::output_mode`] is Spark's
    /// default, not one the text wrote.
    pub output_mode_default: bool,
    /// Spans of the delay strings of every `withWatermark` call (the lab edits them).
    pub watermark_delay_spans: Vec<Span>,
    /// The event-time column each of [`Evaluated::watermark_delay_spans`] is for, as written
    /// (`event_time`; empty when not a string).
    pub watermark_delay_columns: Vec<String>,
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
    /// The writer's options as the program sets them (`.option('truncate', 'false')`), values
    /// as text, in order: the sink reads those it has ([`crate::streaming::SinkKind::create_with`]).
    pub sink_options: Vec<(String, String)>,
}

/// A reader call (`spark.readStream.format("rate").load()`) that reads one of the lab's
/// streams: the lab feeds its streams by name, whatever format the text names
/// ([`crate::frontend::compile_traced`] gives them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRead {
    /// The lab's stream it reads.
    pub stream: String,
    /// The format the text names (`rate`, `kafka`, `json`, …; `parquet` for a bare `load()`,
    /// Spark's default `spark.sql.sources.default`).
    pub format: String,
    /// The reader call, in the query text.
    pub span: Span,
    /// The call gives a schema (`.schema(...)`), which the lab's stream does not take: it
    /// keeps its own columns.
    pub schema_given: bool,
    /// The reader's `.option(key, value)` / `.options(...)` settings, in order, values as text
    /// (`("rowsPerSecond", "10")`).
    pub options: Vec<(String, String)>,
}

/// The writer settings of the query being built (`writeStream...`).
#[derive(Debug, Clone, Default)]
struct WriterSettings {
    output_mode: Option<OutputMode>,
    trigger: Option<crate::streaming::Trigger>,
    sink: Option<crate::streaming::SinkKind>,
    checkpoint_location: Option<String>,
    query_name: Option<String>,
    /// The writer's `.option(key, value)` settings, values as text, in order.
    options: Vec<(String, String)>,
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
    delay_columns: Vec<String>,
    /// The query `start()` started, with the span of the call.
    started: Option<(Rc<LogicalPlan>, Span)>,
    /// The program called `query.stop()` (what it reads afterwards says so; the lab still runs
    /// the query, to show its batches).
    query_stopped: bool,
    confs: Vec<(String, String)>,
    reads: Vec<SourceRead>,
    /// What the program's `print(...)` calls wrote, one entry per call.
    printed: Vec<String>,
    not_run: Vec<NotRun>,
    /// The session's temporary views (`createOrReplaceTempView`), for `spark.sql`.
    views: super::sql_query::TempViews,
    /// The query text the spans point into (empty when not given): a `spark.sql` error is
    /// pointed at its token inside the string literal when the literal is the SQL as written.
    source: &'a str,
    /// The functions the program's Python code defines with `def`, by name: a call of one
    /// whose body is DataFrame code is run here ([`Evaluator::call_def`]).
    defs: BTreeMap<String, Rc<crate::pyfunc::parse::FuncDef>>,
    /// The `def`s running now, outermost first (bounded: nested calls must not overflow the
    /// stack, and a function that calls itself is Python's `RecursionError`).
    def_stack: Vec<String>,
    /// The program called `query.awaitTermination()` on a query its trigger never stops: Python
    /// waits there, so no statement after it runs ([`AWAIT_NOTE`]).
    waiting: bool,
}

/// What the printed output says where a program waits in `awaitTermination()` for a query that
/// never stops (the default or a processing-time trigger): the statements after it do not run.
pub(super) const AWAIT_NOTE: &str = "(awaitTermination(): Spark waits here for as long as the query runs, and with this trigger it runs until it is stopped: the lines after this call do not run, on Spark or here)";

type R<T> = Result<T, Error>;

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
            delay_columns: Vec::new(),
            started: None,
            query_stopped: false,
            confs: Vec::new(),
            reads: Vec::new(),
            printed: Vec::new(),
            not_run: Vec::new(),
            views: Default::default(),
            source: "",
            defs: BTreeMap::new(),
            def_stack: Vec::new(),
            waiting: false,
        }
    }

    /// Binds what the program's Python code imports and defines (`import`, `from … import …`,
    /// `def`, `class`), read from its top-level statements.
    /// The text the program's spans point into.
    pub(super) fn with_source(mut self, source: &'a str) -> Self {
        self.source = source;
        self
    }

    pub(super) fn with_python(mut self, module: &[crate::pyfunc::Stmt]) -> Self {
        for stmt in module {
            if let crate::pyfunc::parse::StmtKind::Def(f) = &stmt.kind {
                self.defs.insert(f.name.clone(), f.clone());
            }
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
    /// Runs the program: the query it defines, and what it did on the way before it ended or
    /// failed — the reader calls answered with a lab stream (a failure is often what that
    /// stream lacks: `lines.value`) and what it printed.
    pub(super) fn run_traced(mut self, program: &Program) -> (R<Evaluated>, Traced) {
        let result = self.evaluate(program);
        (result, Traced { reads: std::mem::take(&mut self.reads), printed: std::mem::take(&mut self.printed), not_run: std::mem::take(&mut self.not_run) })
    }

    /// Runs one statement of the program or of a helper `def`'s body: an assignment binds its
    /// names (and counts what a use of them copies, [`copy_cost`]); the statement's value is
    /// returned either way.
    fn run_statement(&mut self, stmt: &Statement) -> R<Py> {
        let node = match stmt {
            Statement::Assign(_, n) | Statement::Expr(n) => n,
        };
        let v = self.eval(node)?;
        within_limits(&v, node.span)?;
        if let Statement::Assign(names, _) = stmt {
            for name in names {
                self.var_nodes.insert(name.clone(), copy_cost(&v));
                self.vars.insert(name.clone(), v.clone());
            }
        }
        Ok(v)
    }

    /// Runs `body` with `bound` as the values of their names, and `locals` (names the body may
    /// assign) as its own: each name's value from before is back afterwards, as a Python
    /// function's parameters and locals do not outlive its call.
    fn scoped<T>(&mut self, bound: Vec<(String, Py)>, locals: &[String], body: impl FnOnce(&mut Self) -> T) -> T {
        let names: Vec<&String> = bound.iter().map(|(n, _)| n).chain(locals).collect();
        let saved: Vec<(String, Option<Py>, Option<usize>)> = names.into_iter().map(|n| (n.clone(), self.vars.get(n).cloned(), self.var_nodes.get(n).copied())).collect();
        for (n, v) in bound {
            self.var_nodes.insert(n.clone(), copy_cost(&v));
            self.vars.insert(n, v);
        }
        let out = body(self);
        for (n, old, nodes) in saved {
            match old {
                Some(v) => self.vars.insert(n.clone(), v),
                None => self.vars.remove(&n),
            };
            match nodes {
                Some(c) => self.var_nodes.insert(n, c),
                None => self.var_nodes.remove(&n),
            };
        }
        out
    }

    fn evaluate(&mut self, program: &Program) -> R<Evaluated> {
        let mut last: Option<(Py, Span)> = None;
        let mut last_assigned: Option<String> = None;
        for stmt in &program.statements {
            if self.waiting {
                break;
            }
            let v = self.run_statement(stmt)?;
            match stmt {
                Statement::Assign(names, _) => {
                    if matches!(v, Py::Df(_) | Py::WriteStream { .. }) {
                        last_assigned = names.last().cloned();
                    }
                    last = None;
                }
                Statement::Expr(node) => last = Some((v, node.span)),
            }
        }
        let started = self.started.is_some();
        let plan = match (self.started.take(), last) {
            (Some((plan, _)), _) => plan,
            (None, Some((Py::Df(p) | Py::WriteStream { df: p }, _))) => p,
            (None, Some((other, span))) => {
                return Err(Error::Parse(ParseError::lab(format!("the query must be a DataFrame, but this is a {}", other.type_name()), span)));
            }
            (None, None) => {
                let end = program.statements.last().map_or(Span::new(0, 0), |s| match s {
                    Statement::Assign(_, n) | Statement::Expr(n) => n.span,
                });
                let fix = match last_assigned {
                    Some(name) => format!("add a last line with {name} (the DataFrame to run), or start it: {name}.writeStream.format('console').start()"),
                    None => "end it with the DataFrame to run, e.g. clicks.select('event_id')".to_string(),
                };
                return Err(Error::Parse(ParseError::lab(format!("the program defines no query to run: {fix}"), end)));
            }
        };
        let w = std::mem::take(&mut self.writer);
        let output_mode_default = started && w.output_mode.is_none();
        Ok(Evaluated {
            plan,
            output_mode: if output_mode_default { Some(OutputMode::Append) } else { w.output_mode },
            output_mode_default,
            watermark_delay_spans: std::mem::take(&mut self.delay_spans),
            watermark_delay_columns: std::mem::take(&mut self.delay_columns),
            trigger: w.trigger,
            sink: w.sink,
            checkpoint_location: w.checkpoint_location,
            query_name: w.query_name,
            sink_options: w.options,
            confs: std::mem::take(&mut self.confs),
        })
    }

    /// `words.groupBy(...)` where the program set `words = ...`: Python's AttributeError on
    /// `Ellipsis`, with a hint that the guide's `...` stands for a streaming DataFrame it does
    /// not show, and which of the lab's streams can take its place.
    fn placeholder_used(&self, obj: &PyNode, name: &str, span: Span) -> Error {
        let var = match &obj.kind {
            PyNodeKind::Name(n) => n.as_str(),
            _ => "df",
        };
        let streams: Vec<&str> = self.catalog.streams.keys().map(String::as_str).collect();
        // `query = ...` then `query.lastProgress`: the guide's placeholder for a started query.
        let of_query = stream::is_query_attribute(name) || matches!(name, "awaitTermination" | "stop" | "processAllAvailable" | "exception");
        let hint = match streams.first() {
            _ if of_query => format!("the programming guide writes ... for a StreamingQuery it does not show: start one, {var} = df.writeStream.format('console').start()"),
            Some(first) => format!("the programming guide writes ... for a streaming DataFrame it does not show: write {var} = {first} (this lab's streams: {})", streams.join(", ")),
            None => format!("the programming guide writes ... for a streaming DataFrame it does not show: write {var} = spark.readStream.format(...).load()"),
        };
        Error::Analysis(AnalysisError::python("AttributeError", format!("'ellipsis' object has no attribute '{name}'"), span).with_hint(hint))
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
            PyNodeKind::Ellipsis => Py::Ellipsis,
            PyNodeKind::List(items) | PyNodeKind::Tuple(items) => Py::List(items.iter().map(|i| self.eval(i)).collect::<R<Vec<_>>>()?),
            PyNodeKind::Dict(entries) => {
                let mut out = Vec::new();
                for (k, v) in entries {
                    out.push((self.eval(k)?, self.eval(v)?));
                }
                Py::Dict(out)
            }
            PyNodeKind::Lambda(params, body) => Py::Lambda(Rc::new((params.clone(), (**body).clone()))),
            // Read by the `Index` arm; a slice stands nowhere else in the grammar.
            PyNodeKind::Slice(..) => return Err(perr("a slice (a:b) is only allowed inside [...]", span)),
            PyNodeKind::Attr(obj, name) => {
                let target = self.eval(obj)?;
                if matches!(target, Py::Ellipsis) {
                    return Err(self.placeholder_used(obj, name, span));
                }
                self.attribute(target, name, span)?
            }
            PyNodeKind::Index(obj, idx) => {
                let target = self.eval(obj)?;
                if let PyNodeKind::Slice(lower, upper, step) = &idx.kind {
                    let mut part = |p: &Option<Box<PyNode>>| p.as_deref().map(|n| self.eval(n)).transpose();
                    let (lower, upper, step) = (part(lower)?.unwrap_or(Py::NoneVal), part(upper)?.unwrap_or(Py::NoneVal), part(step)?.unwrap_or(Py::NoneVal));
                    if let Py::Col(e) = target {
                        return self.column_slice(e, lower, upper, step, span);
                    }
                    let int = |v: Py| -> R<Option<i64>> {
                        match v {
                            Py::NoneVal => Ok(None),
                            Py::Int(i) => Ok(Some(i)),
                            Py::Bool(b) => Ok(Some(i64::from(b))),
                            other => Err(Error::Analysis(AnalysisError::python("TypeError", format!("slice indices must be integers or None or have an __index__ method, not {}", other.type_name()), idx.span))),
                        }
                    };
                    return slice_of(target, int(lower)?, int(upper)?, int(step)?, span);
                }
                let idx_v = self.eval(idx)?;
                match (target, idx_v) {
                    (df @ Py::Df(_), Py::Str(c)) => Py::Col(qualified(self.catalog, &df, c)),
                    (Py::Col(e), Py::Str(field)) => Py::Col(Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))])),
                    // `F.split(...)[0]`: an array element, 0-based (`GetArrayItem`).
                    (Py::Col(e), Py::Int(i)) => Py::Col(Expr::Function("get_item".into(), vec![e, Expr::Literal(Value::Int(i32::try_from(i).unwrap_or(i32::MAX)))])),
                    (Py::List(items), Py::Int(i)) => item_at(items, i, "list", span)?,
                    (Py::Tuple(items), Py::Int(i)) => item_at(items, i, "tuple", span)?,
                    // `df.schema['count']`, `df.schema[0]`: a field, else PySpark's own errors.
                    (Py::Type(DataType::Struct(fields)), key @ (Py::Str(_) | Py::Int(_))) => {
                        let found = match &key {
                            Py::Str(k) => fields.iter().find(|f| f.name() == k),
                            Py::Int(i) => py_index(fields.len(), *i).and_then(|i| fields.get(i)),
                            _ => None,
                        };
                        match (found, key) {
                            (Some(f), _) => Py::Field(f.name().clone(), f.data_type().clone(), f.is_nullable()),
                            (None, Py::Str(k)) => {
                                return Err(Error::Analysis(AnalysisError::pyspark("PySparkKeyError", "KEY_NOT_EXISTS", format!("Key `{k}` does not exist."), span)))
                            }
                            (None, other) => {
                                let shown = match other {
                                    Py::Int(i) => i.to_string(),
                                    _ => String::new(),
                                };
                                return Err(Error::Analysis(AnalysisError::pyspark("PySparkIndexError", "INDEX_OUT_OF_RANGE", format!("StructType index out of range, got '{shown}'."), span)));
                            }
                        }
                    }
                    // `query.status['message']`, `{'a': 1}['a']`: a key the dict holds, else
                    // Python's KeyError.
                    (Py::Dict(entries), key @ (Py::Str(_) | Py::Int(_) | Py::Bool(_))) => {
                        let same = |k: &Py| match (k, &key) {
                            (Py::Str(a), Py::Str(b)) => a == b,
                            (Py::Int(a), Py::Int(b)) => a == b,
                            (Py::Bool(a), Py::Bool(b)) => a == b,
                            _ => false,
                        };
                        match entries.into_iter().find(|(k, _)| same(k)) {
                            Some((_, v)) => v,
                            None => return Err(Error::Analysis(AnalysisError::python("KeyError", modules::py_repr(self.catalog, &key)?, span))),
                        }
                    }
                    // `query.lastProgress['numInputRows']` before the first batch: Python's
                    // TypeError, as for any value that takes no subscript.
                    (t @ (Py::NoneVal | Py::Int(_) | Py::Float(_) | Py::Bool(_)), _) => {
                        return Err(Error::Analysis(AnalysisError::python("TypeError", format!("'{}' object is not subscriptable", t.type_name()), span)));
                    }
                    (t, i) => return Err(perr(format!("cannot index a {} with a {}", t.type_name(), i.type_name()), span)),
                }
            }
            PyNodeKind::Call(f, args) => {
                let callee = self.eval(f)?;
                let call_span = match &f.kind {
                    // `df.groupBy(...)`: from the method's dot to the closing parenthesis.
                    PyNodeKind::Attr(obj, _) => Span::new(obj.span.end, span.end),
                    _ => span,
                };
                // The programming guide's `socketDF.isStreaming()` is Scala's method; in PySpark
                // it is a property, and calling its value is Python's TypeError.
                let property = matches!((&f.kind, &callee), (PyNodeKind::Attr(_, name), Py::Bool(_)) if name == "isStreaming");
                let called = self.call(callee, args, span).map_err(|e| errors::placed(e, self.source, args, call_span));
                match called {
                    Err(Error::Analysis(a)) if property => {
                        return Err(Error::Analysis(a.with_hint("isStreaming is a property in PySpark: write df.isStreaming, without (). The programming guide's isStreaming() is the Scala method")))
                    }
                    other => other?,
                }
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
        known.extend(["F", "spark"]);
        // A variable named as a stream (`lines = spark.readStream...`) is one name.
        let mut seen = std::collections::BTreeSet::new();
        known.retain(|n| seen.insert(*n));
        let error = AnalysisError::python("NameError", format!("name '{name}' is not defined (known names: {})", known.join(", ")), span);
        // What the docs' code assumes: a function imported by name (`window(...)` after
        // `from pyspark.sql.functions import window`), or a DataFrame variable (`df`) that the
        // lab's example names otherwise.
        let mut streams: Vec<&str> = self.catalog.streams.keys().map(String::as_str).collect();
        streams.sort_unstable();
        let hint = if pyspark_api::lookup(ApiKind::Functions, name).is_some_and(|a| a.name == name) {
            Some(format!("{name} is a function of pyspark.sql.functions: write F.{name}(...), or import it first: from pyspark.sql.functions import {name}"))
        } else if matches!(name, "display" | "displayHTML" | "dbutils" | "sc" | "spark_context") {
            // A Databricks notebook's own names, not PySpark's.
            Some(format!("{name} is a Databricks notebook name, not PySpark's. The lab shows the query's results itself: write the DataFrame (or .writeStream.format('console').start()) instead"))
        } else if self.source.get(span.end..).is_some_and(|rest| rest.trim_start().starts_with('(')) {
            // Called: a function the code expects, not a DataFrame the example names otherwise.
            let close = errors::similar(ApiKind::Functions, name);
            let what = format!("{name}(...) is called as a function, and neither Python nor pyspark.sql.functions has one by that name");
            Some(if close.is_empty() { what } else { format!("{what}; did you mean {}?", close.join(", ")) })
        } else {
            streams.first().map(|first| format!("the lab's streams are named by its example ({}): write that name where the code you copied has its own (df, lines, events), or assign it first: {name} = {first}", streams.join(", ")))
        };
        Err(Error::Analysis(match hint {
            Some(h) => error.with_hint(h),
            None => error,
        }))
    }
}
