//! `DataStreamWriter` (`df.writeStream...start()`), `DataStreamReader` (`spark.readStream`),
//! `StreamingQuery` (what `start()` returns) and the `spark` session's methods
//! (`pyspark/sql/streaming/readwriter.py`, `query.py`, `session.py`).
//!
//! The lab feeds its streams by name, so `spark.readStream...load()` reads the lab's stream when
//! there is one, and `start()` marks the query the lab runs; what a `StreamingQuery` reports
//! (`lastProgress`, `awaitTermination()`) the lab shows beside the run.

use std::rc::Rc;

use super::{not_expected, perr, Evaluator, Py, R};
use crate::error::{Error, Span};
use crate::frontend::pyspark_api::{ApiKind, Bound};
use crate::frontend::ParseError;
use crate::plan::{Expr, LogicalPlan};
use crate::streaming::OutputMode;

type Args = Bound<Py>;

/// What `spark.readStream` (or `spark.read`, `batch`) was told so far (the format, for
/// messages).
#[derive(Debug, Clone, Default)]
pub(in crate::frontend) struct ReaderSpec {
    format: Option<String>,
    batch: bool,
    /// `.schema(...)` was called.
    schema: bool,
    /// `.option('path', ...)` or `.options(path=...)` was given (what `load()` reads).
    path: bool,
    /// The `.option(key, value)` / `.options(**kw)` calls, in order, values as text.
    options: Vec<(String, String)>,
}

impl ReaderSpec {
    /// `spark.read`: a static table.
    pub(super) fn batch() -> ReaderSpec {
        ReaderSpec { format: None, batch: true, schema: false, path: false, options: Vec::new() }
    }
}

/// A streaming file source of this format needs a schema (`DataSource.sourceSchema`): the
/// built-in file formats but `text`, whose schema is fixed (`value string`). (`avro` is left
/// out: without its module Spark 4.3 first says AVRO_DATA_SOURCE_NOT_ENABLED.)
fn needs_schema(format: &str) -> bool {
    matches!(format.to_ascii_lowercase().as_str(), "json" | "csv" | "parquet" | "orc" | "xml")
}

/// A file source of this format reads a path (`DataSource.sourceSchema` asks for it before the
/// schema): the formats of [`needs_schema`] and `text`.
fn is_file_format(format: &str) -> bool {
    needs_schema(format) || format.eq_ignore_ascii_case("text")
}

/// `spark.readStream.format('json').load()` with no path, as an argument or an option:
/// Spark's `dataPathNotSpecifiedError` (`_LEGACY_ERROR_TEMP_2047`, an
/// `IllegalArgumentException`), raised by the reader call before the schema is asked for
/// (recorded: reader-load-without-path-define-error).
fn path_not_specified(span: Span) -> Error {
    Error::Analysis(crate::error::AnalysisError {
        error_class: "_LEGACY_ERROR_TEMP_2047".into(),
        ..crate::error::AnalysisError::python("IllegalArgumentException", "'path' is not specified.", span)
            .with_hint("give load() the folder to read: .load('/data/in'), or .option('path', '/data/in') before it")
    })
}

/// `spark.readStream.json(path)` without `.schema(...)`: Spark's
/// `createStreamingSourceNotSpecifySchemaError` (`_LEGACY_ERROR_TEMP_2048`, an
/// `IllegalArgumentException`), raised by the reader call. Printed by PySpark 4.3.0 for
/// `json`, `csv`, `parquet`, `orc`, `xml` and `format("json").load(path)`; `text` needs none.
/// The hint names the lab's stream's own schema when there is one stream (`stream`: its name
/// and DDL), so the schema the learner adds is one the lab's rows fit.
fn schema_must_be_specified(span: Span, stream: Option<(&str, String)>) -> Error {
    let hint = match stream {
        Some((name, ddl)) => format!("give the reader a schema first, as a DDL string or a StructType: here the lab's stream {name} has .schema('{ddl}'). Or set spark.sql.streaming.schemaInference to true to let Spark infer it"),
        None => "give the reader a schema first, as a DDL string or a StructType: spark.readStream.schema('name STRING, age INT').json(path), or set spark.sql.streaming.schemaInference to true to let Spark infer it".to_string(),
    };
    Error::Analysis(crate::error::AnalysisError {
        error_class: "_LEGACY_ERROR_TEMP_2048".into(),
        ..crate::error::AnalysisError::python(
            "IllegalArgumentException",
            "Schema must be specified when creating a streaming source DataFrame. If some files already exist in the directory, then depending on the file format you may be able to create a static DataFrame on that directory with 'spark.read.load(directory)' and infer schema from it.",
            span,
        )
        .with_hint(hint)
    })
}

/// `StreamingQuery` attributes (not methods) a program may read.
pub(super) fn is_query_attribute(name: &str) -> bool {
    matches!(name, "lastProgress" | "recentProgress" | "status" | "id" | "runId" | "name" | "isActive")
}

/// A `StreamingQuery` method: the lab runs the query itself, so waiting does not wait.
/// `stop()` marks the program's handle stopped (what it reads after: `isActive` is False,
/// `status` says 'Stopped', `spark.streams.active` is empty); `awaitTermination(timeout)`
/// returns False, as PySpark 4.3 did for a query still running when the timeout passed
/// (`awaitTermination()` without one blocks until the query ends: for a query its trigger never
/// ends, the evaluator runs nothing after it, `AWAIT_NOTE`).
pub(super) fn query_method(name: &str, b: Args, stopped: &mut bool, span: Span) -> R<Py> {
    match name {
        "stop" => {
            *stopped = true;
            Ok(Py::NoneVal)
        }
        "awaitTermination" if b.get("timeout").is_some_and(|(t, _)| !matches!(t, Py::NoneVal)) => Ok(Py::Bool(*stopped)),
        "awaitTermination" | "processAllAvailable" | "explain" | "exception" => Ok(Py::NoneVal),
        other => Err(super::unknown_api(ApiKind::StreamingQuery, other, span)),
    }
}

/// A bound option value as text (`option('maxFilesPerTrigger', 1)`).
fn option_text(v: &Py) -> Option<String> {
    Some(match v {
        Py::Str(s) => s.clone(),
        Py::Int(i) => i.to_string(),
        Py::Float(f) => f.to_string(),
        Py::Bool(b) => b.to_string(),
        _ => return None,
    })
}

impl Evaluator<'_> {
    pub(super) fn write_stream(&mut self, df: Rc<LogicalPlan>, name: &str, mut b: Args, span: Span) -> R<Py> {
        use crate::streaming::{Trigger, TriggerArg};
        match name {
            "trigger" => {
                // Keyword-only; PySpark counts the ones that are not None.
                let args: Vec<(String, TriggerArg)> = ["processingTime", "once", "continuous", "availableNow", "realTime"]
                    .into_iter()
                    .filter_map(|k| b.take(k).map(|(v, _)| (k, v)))
                    .filter(|(_, v)| !matches!(v, Py::NoneVal))
                    .map(|(k, v)| {
                        let a = match v {
                            Py::Str(s) => TriggerArg::Str(s),
                            Py::Bool(b) => TriggerArg::Bool(b),
                            other => TriggerArg::Other(other.type_name().to_string()),
                        };
                        (k.to_string(), a)
                    })
                    .collect();
                self.writer.trigger = Some(Trigger::from_kwargs(&args).map_err(|e| Error::Analysis(e.with_span(span)))?);
            }
            "format" => {
                let (f, fspan) = self.str_arg(b.take("source"), "source")?;
                self.set_format(&f, fspan)?;
            }
            "queryName" => {
                let (n, _) = self.str_arg(b.take("queryName"), "queryName")?;
                self.writer.query_name = Some(n);
            }
            "option" => {
                let (k, _) = self.str_arg(b.take("key"), "key")?;
                let v = b.take("value").expect("bound: required");
                self.writer_option(&k, &v.0);
            }
            "options" => {
                for (k, v, _) in &b.var_kw {
                    self.writer_option(k, v);
                }
            }
            "outputMode" => {
                let (m, mspan) = self.str_arg(b.take("outputMode"), "outputMode")?;
                self.writer.output_mode = Some(OutputMode::parse(&m).map_err(|e| Error::Analysis(e.with_span(mspan)))?);
            }
            "partitionBy" | "clusterBy" => {}
            "start" | "toTable" => {
                for (k, v, _) in &b.var_kw {
                    self.writer_option(k, v);
                }
                if let Some((v, s)) = b.take("outputMode").filter(|(v, _)| !matches!(v, Py::NoneVal)) {
                    let Py::Str(m) = v else { return Err(not_expected("outputMode", "str", &v, s)) };
                    self.writer.output_mode = Some(OutputMode::parse(&m).map_err(|e| Error::Analysis(e.with_span(s)))?);
                }
                if let Some((v, s)) = b.take("format").filter(|(v, _)| !matches!(v, Py::NoneVal)) {
                    let Py::Str(f) = v else { return Err(not_expected("format", "str", &v, s)) };
                    self.set_format(&f, s)?;
                }
                if let Some((Py::Str(n), _)) = b.take("queryName") {
                    self.writer.query_name = Some(n);
                }
                if let Some((_, s)) = &self.started {
                    return Err(Error::Parse(ParseError::not_modelled(
                        "several streaming queries in one program",
                        format!("this program starts a second streaming query (the first starts at {}..{}); the lab runs one query: keep one start()", s.start, s.end),
                        span,
                    )));
                }
                self.started = Some((df, span));
                return Ok(Py::Query);
            }
            other => return Err(super::unknown_api(ApiKind::DataStreamWriter, other, span)),
        }
        Ok(Py::WriteStream { df })
    }

    fn set_format(&mut self, f: &str, span: Span) -> R<()> {
        let Some(kind) = crate::streaming::SinkKind::from_format(f) else {
            let other = f.to_ascii_lowercase();
            return Err(perr(format!("the sink format '{other}' is not modelled; use memory, console, kafka, parquet/json/csv or foreachBatch"), span));
        };
        self.writer.sink = Some(kind);
        Ok(())
    }

    fn writer_option(&mut self, key: &str, v: &Py) {
        if key == "checkpointLocation" {
            self.writer.checkpoint_location = option_text(v);
        }
        if let Some(text) = option_text(v) {
            self.writer.options.push((key.to_string(), text));
        }
    }

    /// `spark.sql.streaming.schemaInference` set to true by the program.
    fn schema_inference(&self) -> bool {
        self.confs.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case("spark.sql.streaming.schemaInference")).is_some_and(|(_, v)| v.eq_ignore_ascii_case("true"))
    }

    /// `spark.readStream....load()`: the lab's stream (the lab feeds its streams by name).
    pub(super) fn read_stream(&mut self, mut spec: ReaderSpec, name: &str, mut b: Args, span: Span) -> R<Py> {
        match name {
            "format" => {
                let (f, _) = self.str_arg(b.take("source"), "source")?;
                spec.format = Some(f);
                Ok(Py::Reader(Box::new(spec)))
            }
            "schema" => {
                spec.schema = true;
                Ok(Py::Reader(Box::new(spec)))
            }
            "option" => {
                if b.get("key").is_some_and(|(k, _)| matches!(k, Py::Str(k) if k.eq_ignore_ascii_case("path"))) {
                    spec.path = true;
                }
                if let (Some((Py::Str(k), _)), Some(v)) = (b.get("key"), b.get("value").and_then(|(v, _)| option_text(v))) {
                    spec.options.push((k.clone(), v));
                }
                Ok(Py::Reader(Box::new(spec)))
            }
            "options" => {
                if b.var_kw.iter().any(|(k, _, _)| k.eq_ignore_ascii_case("path")) {
                    spec.path = true;
                }
                spec.options.extend(b.var_kw.iter().filter_map(|(k, v, _)| Some((k.clone(), option_text(v)?))));
                Ok(Py::Reader(Box::new(spec)))
            }
            "name" => Ok(Py::Reader(Box::new(spec))),
            "table" => {
                // The lab's stream by name, else a temporary view the program made; a name that
                // is neither is Spark's TABLE_OR_VIEW_NOT_FOUND (not a Python NameError: the
                // name is a string).
                let (t, ts) = self.str_arg(b.take("tableName"), "tableName")?;
                match self.lookup(&t, ts) {
                    Ok(v @ Py::Df(_)) => Ok(v),
                    _ => {
                        let streams = self.catalog.streams.keys().cloned().collect::<Vec<_>>().join(", ");
                        crate::frontend::sql_query::table(&t, &self.views, ts).map(Py::Df).map_err(|e| match e {
                            Error::Analysis(a) if a.error_class == "TABLE_OR_VIEW_NOT_FOUND" => Error::Analysis(a.with_hint(format!(
                                "spark.readStream.table() reads one of the lab's streams by name ({streams}), or a view the program registered with createOrReplaceTempView"
                            ))),
                            other => other,
                        })
                    }
                }
            }
            "load" | "json" | "csv" | "parquet" | "text" | "orc" | "xml" | "jdbc" => {
                // `load(path, format, schema, **options)` and `json(path, schema=...)` take the
                // path, the format and the schema as arguments too (the API reference's examples
                // pass `schema=`).
                let given = |b: &Args, param: &str| b.get(param).is_some_and(|(v, _)| !matches!(v, Py::NoneVal));
                if given(&b, "schema") {
                    spec.schema = true;
                }
                let format_arg = match b.get("format") {
                    Some((Py::Str(f), _)) => Some(f.clone()),
                    _ => None,
                };
                let format = if name == "load" { format_arg.or_else(|| spec.format.clone()).unwrap_or_else(|| "parquet".into()) } else { name.to_string() };
                if !spec.batch && is_file_format(&format) && !given(&b, "path") && !spec.path {
                    return Err(path_not_specified(span));
                }
                if !spec.batch && !spec.schema && needs_schema(&format) && !self.schema_inference() {
                    let only = match self.catalog.streams.iter().collect::<Vec<_>>().as_slice() {
                        [(name, schema)] => Some((name.as_str(), crate::types::ddl_fields(schema.iter().map(|(c, t)| (c.as_str(), t))))),
                        _ => None,
                    };
                    return Err(schema_must_be_specified(span, only));
                }
                let (what, names): (&str, Vec<&String>) =
                    if spec.batch { ("static tables", self.catalog.statics.keys().collect()) } else { ("streams", self.catalog.streams.keys().collect()) };
                let reader = if spec.batch { "spark.read" } else { "spark.readStream" };
                match names.as_slice() {
                    [only] => {
                        let only = (*only).clone();
                        let mut read = self.lookup(&only, span)?;
                        // A socket source gives `value` alone unless `includeTimestamp` is set
                        // (`TextSocketReader.SCHEMA_REGULAR` / `SCHEMA_TIMESTAMP`): a socket stream
                        // of the lab's that carries each line's arrival time is read as Spark's
                        // reader would give it.
                        let include_timestamp = spec.options.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case("includeTimestamp")).is_some_and(|(_, v)| v.eq_ignore_ascii_case("true"));
                        if let Py::Df(plan) = &read {
                            let columns: Vec<&str> = self.catalog.streams.get(&only).map(|c| c.iter().map(|(n, _)| n.as_str()).collect()).unwrap_or_default();
                            if !spec.batch && format.eq_ignore_ascii_case("socket") && !include_timestamp && columns == ["value", "timestamp"] {
                                read = Py::Df(Rc::new(LogicalPlan::Project { input: plan.clone(), exprs: vec![Expr::Column("value".into())] }));
                            }
                        }
                        if !spec.batch {
                            self.reads.push(super::SourceRead { stream: only, format, span, schema_given: spec.schema, options: spec.options.clone() });
                        }
                        Ok(read)
                    }
                    [] => Err(Error::Parse(ParseError::not_modelled(
                        format!("{reader} in a lab without {what}"),
                        format!("this lab has no {what}: {reader}….{name}() reads one of the scenario's {what} by name, and this scenario has none (a stream-static join needs an example with one)"),
                        span,
                    ))),
                    _ => Err(Error::Parse(ParseError::not_modelled(
                        format!("{reader} with several {what} in the lab"),
                        format!(
                            "this lab feeds its {what} by name ({}): write one of them instead of {reader}….{name}() (a {format} source)",
                            names.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                        ),
                        span,
                    ))),
                }
            }
            other => Err(super::unknown_api(ApiKind::DataStreamReader, other, span)),
        }
    }

    /// A `SparkSession` method (`spark.sql(...)`, `spark.createDataFrame(...)`).
    pub(super) fn spark_method(&mut self, name: &str, b: Args, span: Span) -> R<Py> {
        match name {
            "stop" => Ok(Py::NoneVal),
            "sql" => self.spark_sql(b, span),
            "table" => self.spark_table(b, span),
            "range" => self.spark_range(b, span),
            other => Err(super::unknown_api(ApiKind::SparkSession, other, span)),
        }
    }
}
