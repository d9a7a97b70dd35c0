//! The checks Spark makes when a query starts (`DataStreamWriter.start()` →
//! `StreamingQueryManager.createQuery`, `ResolveWriteToStream`), in the order Spark makes
//! them: the trigger against the sink, `UnsupportedOperationChecker`, the sink's own rules
//! (a memory sink needs a query name, a file sink takes append only) and the checkpoint
//! location (`_LEGACY_ERROR_TEMP_1298`). The only place these are decided: the streaming loop
//! and the lab call [`check_start`].
//!
//! Sinks live in `streaming`, above this layer, so they describe themselves through
//! [`SinkCapabilities`].

use super::{Plan, UnsupportedOperationChecker};
use crate::error::{AnalysisError, Error, Stage};
use crate::plan::OutputMode;

/// What the start checks need to know about a sink (each sink type answers for itself).
/// The provided methods are what most sinks answer; a sink overrides only where it differs.
pub trait SinkCapabilities {
    /// The data source name Spark's messages print (`parquet` for the file sink, `memory`, ...).
    fn data_source_name(&self) -> &'static str;
    /// True if the sink needs `queryName(...)` (the memory sink: its rows become a view).
    fn requires_query_name(&self) -> bool {
        false
    }
    /// True if the sink takes rows in `mode` (`STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE`
    /// otherwise).
    fn accepts_output_mode(&self, _mode: OutputMode) -> bool {
        true
    }
    /// True if Spark runs the sink on a temporary checkpoint when no location is given
    /// (`useTempCheckpointLocation`).
    fn allows_temporary_checkpoint(&self) -> bool {
        true
    }
    /// Spark's message when the sink cannot run with a continuous trigger, if it cannot.
    fn continuous_unsupported(&self) -> Option<&'static str> {
        None
    }
}

/// One `start()`: the analyzed plan and how it is written.
pub struct StartRequest<'a> {
    /// The analyzed (not yet optimized) plan.
    pub plan: &'a Plan,
    /// The output mode the query is started in (`outputMode(...)`).
    pub mode: OutputMode,
    /// True for `trigger(continuous=...)`.
    pub continuous: bool,
    /// The sink, when known; `None` skips the sink's checks (the conformance harness writes
    /// with its own `foreachBatch`).
    pub sink: Option<&'a dyn SinkCapabilities>,
    /// `queryName(...)`, if given.
    pub query_name: Option<&'a str>,
    /// True if the query text chose the sink. A sink picked outside the text (the lab's
    /// picker) is set up by the lab, which names the memory sink's view itself, so the
    /// `queryName` rule applies only to a sink the text chose.
    pub sink_named_in_query: bool,
    /// Whether a checkpoint location is given (`option("checkpointLocation", ...)` or
    /// `spark.sql.streaming.checkpointLocation`); `None` skips the location rule.
    pub checkpoint_location: Option<bool>,
}

/// What a successful start decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StartOutcome {
    /// The query runs on a temporary checkpoint (deleted when it stops, never reused).
    pub temporary_checkpoint: bool,
}

/// Runs every start-time check on `req`.
///
/// # Errors
/// The first failing check, with Spark's condition and message: the sink's continuous-trigger
/// message, `UnsupportedOperationChecker`'s errors, `queryName must be specified for memory
/// sink.`, `STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE`, `_LEGACY_ERROR_TEMP_1298`.
pub fn check_start(req: &StartRequest<'_>) -> Result<StartOutcome, Error> {
    if req.continuous {
        if let Some(message) = req.sink.and_then(|s| s.continuous_unsupported()) {
            return Err(Error::Analysis(AnalysisError::new(Stage::Start, "", message)));
        }
        UnsupportedOperationChecker::check_for_continuous(req.plan, req.mode)?;
    } else {
        UnsupportedOperationChecker::check_for_streaming(req.plan, req.mode)?;
    }
    let Some(sink) = req.sink else {
        return Ok(StartOutcome::default());
    };
    if sink.requires_query_name() && req.sink_named_in_query && req.query_name.is_none() {
        return Err(Error::Analysis(
            AnalysisError::new(Stage::Start, "", "queryName must be specified for memory sink.")
                .with_hint("the memory sink's rows become a temporary view named after the query: add .queryName('my_view')"),
        ));
    }
    if !sink.accepts_output_mode(req.mode) {
        return Err(Error::Analysis(
            AnalysisError::new(
                Stage::Start,
                "STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE",
                format!(
                    "Invalid streaming output mode: {}. This output mode is not supported in Data Source {}.",
                    req.mode.as_str(),
                    sink.data_source_name()
                ),
            )
            .with_sqlstate("42KDE")
            .with_hint("files are written once and never changed, so a file sink takes append mode only"),
        ));
    }
    let temporary_checkpoint = match req.checkpoint_location {
        Some(given) => checkpoint_location(sink.allows_temporary_checkpoint(), given)?,
        None => false,
    };
    Ok(StartOutcome { temporary_checkpoint })
}

/// Where a query's checkpoint lives: a location given by
/// `option("checkpointLocation", ...)` or `spark.sql.streaming.checkpointLocation`, or a
/// temporary directory — allowed only for sinks that say so
/// (`useTempCheckpointLocation`: memory, console, foreach, foreachBatch), and never reused by
/// the next start. Returns true when the checkpoint is temporary.
///
/// # Errors
/// Spark's `_LEGACY_ERROR_TEMP_1298` for a sink that needs a location and has none.
pub fn checkpoint_location(sink_allows_temporary: bool, has_location: bool) -> Result<bool, Error> {
    if has_location {
        return Ok(false);
    }
    if sink_allows_temporary {
        return Ok(true);
    }
    Err(Error::Analysis(
        AnalysisError::new(
            Stage::Start,
            "_LEGACY_ERROR_TEMP_1298",
            "checkpointLocation must be specified either through option(\"checkpointLocation\", ...) or SparkSession.conf.set(\"spark.sql.streaming.checkpointLocation\", ...).",
        )
        .with_hint("file and Kafka sinks need a checkpoint that survives the query: without one there is no exactly-once and no restart. Add .option('checkpointLocation', '/chk/my-query') before start()"),
    ))
}

