//! The snapshot types the page reads: [`LabView`] and the views of its panels, plain data
//! that components render and native tests compare.

use streamlab_engine::streaming::{OutputMode, SinkKind, StateOperatorProgress};

/// One unit the sink wrote, for the sink panel.
#[derive(Debug, Clone, PartialEq)]
pub struct SinkRowView {
    /// The micro-batch id whose `addBatch` call wrote this row.
    pub batch_id: u64,
    /// 0 for the first attempt at this batch id, 1 for its re-run, ...
    pub attempt: u32,
    /// The row's values as display cells, times on the scenario's day (`12:07`).
    pub cells: Vec<String>,
    /// False for a part file `_spark_metadata` does not list (readers ignore it).
    pub visible: bool,
    /// True if a reader sees this row a second time.
    pub duplicate: bool,
}

/// The checkpoint, the sink and the query handle, for the recovery panel.
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryView {
    /// The sink the query writes to: the query text's own when it names one, else the picker's.
    pub sink: SinkKind,
    /// True if the query text named the sink, so the picker's choice does not apply.
    pub sink_from_query: bool,
    /// The query's `id`: kept in the checkpoint's metadata, the same across restarts.
    pub query_id: String,
    /// The query's `runId`: new on every start.
    pub run_id: String,
    /// How many runs have started on this checkpoint (each with its own `runId`).
    pub runs: u64,
    /// (batch id, end offsets, batchWatermarkMs as text).
    pub offset_log: Vec<(u64, String, String)>,
    /// (batch id, nextBatchWatermarkMs as text).
    pub commit_log: Vec<(u64, String)>,
    /// Every row the sink received, oldest first. Shared: the page's panels each take a
    /// copy of the view, and a long session's sink holds thousands of rows.
    pub sink_rows: std::sync::Arc<[SinkRowView]>,
    /// How many of [`RecoveryView::sink_rows`] a reader sees a second time.
    pub duplicates: usize,
    /// Set while the query is stopped by a crash.
    pub crashed: Option<String>,
    /// The batch a crash stopped after its stateful operators had committed state version
    /// `batch + 1` (a crash in or after the sink's write: a task commits its state store
    /// before the sink's write finishes), so the state shown is that version, which the commit
    /// log does not cover; a restart loads version `batch` and runs the batch again. `None`
    /// otherwise (no crash, a crash before the batch ran, a stateless query).
    pub crashed_after_state: Option<u64>,
    /// `query.isActive`.
    pub active: bool,
    /// `query.status.message`.
    pub status: String,
    /// The trigger in PySpark's words.
    pub trigger: String,
    /// `len(query.recentProgress)`: this run's progress reports (a restart starts a new query
    /// object with none), at most 100.
    pub recent_progress: usize,
    /// The `StreamingQueryListener` events, oldest first.
    pub events: Vec<String>,
    /// What the console printed / what foreach and foreachBatch were called with.
    pub sink_log: Option<String>,
    /// `queryName` (the memory sink's table name).
    pub name: Option<String>,
    /// Whether the lab gives the query a checkpoint location.
    pub checkpoint_set: bool,
    /// The run's checkpoint is a temporary directory.
    pub temporary: bool,
    /// The query stopped because its `once` / `availableNow` trigger finished its run.
    pub trigger_finished: bool,
    /// The sink resumes from a used checkpoint in the query's output mode: false for the
    /// memory sink outside complete mode, whose restart on the same checkpoint Spark refuses
    /// (`DataStreamWriter`'s `recoverFromCheckpointLocation`).
    pub sink_recovers: bool,
    /// The batch the running query will run again at its next trigger: the offset log's last
    /// entry has no commit (a crash stopped it, a restart resumed), so Spark re-runs that batch
    /// with the offsets and watermark it logged (`MicroBatchExecution.populateStartOffsets`).
    /// `None` while stopped or when every logged batch is committed.
    pub rerun_due: Option<u64>,
}

/// An error shown in the page.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorView {
    /// The exception PySpark raises (`AnalysisException`, `StreamingQueryException` for
    /// `STREAM_FAILED`, `ParseException`, Python's `SyntaxError`, ...), `not modelled yet`, or
    /// `Streamlab` for the lab's own rules ([`streamlab_engine::ParseError::exception`]).
    pub kind: String,
    /// Spark's error condition, when there is one.
    pub error_class: Option<String>,
    /// Spark's text (or ours for parse errors).
    pub message: String,
    /// Streamlab's own words on how to fix it, when it has some (not Spark's text).
    pub hint: Option<String>,
    /// `define`, `start` or `run`.
    pub stage: Option<String>,
    /// 1-based line and column in the query text, and the byte span.
    pub position: Option<(usize, usize)>,
    /// The error's byte span `(start, end)` in the query text, when it points at one.
    pub span: Option<(usize, usize)>,
}

/// A streaming source as the event form needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceView {
    /// The source's name, as the query reads it and the scenario defines it.
    pub name: String,
    /// (column, Spark type name).
    pub columns: Vec<(String, String)>,
    /// The first timestamp column, for the watermark shortcut.
    pub time_column: Option<String>,
    /// The source's kind: `memory`, `file`, `socket`, `kafka` or `rate`.
    pub kind: String,
}

/// A reader call in the query text that the lab answered with one of its own streams, of
/// another kind than the format the call names, or with a schema the stream does not take.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadView {
    /// The call as written, on one line (or `spark.readStream.format("…")….load()` when long).
    pub call: String,
    /// The lab's stream it reads.
    pub stream: String,
    /// The format the call names (`rate`, `json`, …).
    pub format: String,
    /// The stream's kind in the lab (`memory`, `file`, `socket`, `kafka`, `rate`).
    pub stream_kind: String,
    /// The stream's columns as the scenario declares them.
    pub columns: Vec<String>,
    /// The lab's kind for the format ([`super::source_kind_of_format`]); `None`: the lab has
    /// no such source.
    pub kind: Option<&'static str>,
    /// The call gives a schema (`.schema(...)`): the stream keeps its own columns.
    pub schema_given: bool,
    /// Reader options the code sets that the lab's stream of that kind takes from its example
    /// instead: (key, the code's value, the lab's value), `("rowsPerSecond", "10", "2")`.
    pub options_not_applied: Vec<(String, String, String)>,
    /// An example whose stream is a source of the format's kind, as Spark's reader gives it
    /// ([`crate::lab::presets::example_with_source`]), when the lab's stream is of another kind
    /// or has other columns: the code may run there as written.
    pub example: Option<&'static str>,
}

/// A stateful operator's numbers in one batch.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricView {
    /// Spark's `operatorName` (`stateStoreSave`, `dedupe`, ...).
    pub operator: String,
    /// `numRowsTotal`: state rows after the batch.
    pub total: u64,
    /// `numRowsUpdated`: state rows the batch wrote.
    pub updated: u64,
    /// `numRowsRemoved`: state rows the batch removed (evicted, or for a session window
    /// merged away).
    pub removed: u64,
    /// `numRowsDroppedByWatermark`: rows dropped as later than the watermark (late groups for
    /// a window aggregation).
    pub dropped: u64,
}

impl MetricView {
    /// The numbers of one `stateOperators` entry, from a batch the lab ran or a progress
    /// report pasted from Spark.
    pub fn of(s: &StateOperatorProgress) -> MetricView {
        MetricView {
            operator: s.operator_name.clone(),
            total: s.num_rows_total,
            updated: s.num_rows_updated,
            removed: s.num_rows_removed,
            dropped: s.num_rows_dropped_by_watermark,
        }
    }
}

/// One executed micro-batch.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchView {
    /// The micro-batch id (`batchId`), from 0.
    pub id: u64,
    /// The scenario step that caused it, when run by "next step".
    pub step: Option<usize>,
    /// Rows the batch read from the streaming sources (`numInputRows`).
    pub input_rows: u64,
    /// The watermark the batch ran with as a display cell (`12:07`); `None` without a watermark.
    pub watermark: Option<String>,
    /// The watermark the batch ran with, ms since the epoch (`None` without a watermark).
    pub watermark_ms: Option<i64>,
    /// wm(N-1), the watermark late rows were judged against, as a display cell.
    pub late_watermark: String,
    /// wm(N-1), the watermark late rows were judged against, ms since the epoch.
    pub late_watermark_ms: i64,
    /// True for a no-data micro-batch: it ran only because the watermark moved, with no new input.
    pub no_data: bool,
    /// Emitted rows as display cells.
    pub rows: Vec<Vec<String>>,
    /// Emitted rows in the corpus JSON format (`data-json`).
    pub rows_json: Vec<String>,
    /// Each stateful operator's numbers in this batch (`stateOperators`).
    pub metrics: Vec<MetricView>,
    /// The operators whose numbers count this batch twice: a global sort over more than one
    /// shuffle partition samples its input first (`RangePartitioner`), which runs them once
    /// more, and Spark's metrics add both runs (`execution::sort::count_sampling_run`).
    pub sampled_operators: Vec<String>,
}

/// Whether a state row will be closed by the next batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowStatus {
    /// The watermark has not passed it.
    Open,
    /// Its end is at or before the current watermark: the next batch emits (append) or drops
    /// (update) it.
    Closing,
    /// Complete mode: kept forever.
    Kept,
    /// Removed by the last batch (shown once, greyed).
    Evicted,
    /// No event-time column: never evicted.
    NoWatermark,
    /// An `applyInPandasWithState` key without a timeout: kept until the function removes it.
    NoTimeout,
}

/// One stateful operator's state rows.
#[derive(Debug, Clone, PartialEq)]
pub struct StateTableView {
    /// Spark's operator name, with ` · left` / ` · right` for a stream-stream join's side.
    pub operator: String,
    /// The state rows' column names.
    pub columns: Vec<String>,
    /// Each state row: its display cells and how the watermark treats it.
    pub rows: Vec<(Vec<String>, RowStatus)>,
    /// What this operator keeps and when it lets go, when the engine says.
    pub note: Option<crate::text::Text>,
}

/// Everything the page shows, as plain data.
#[derive(Debug, Clone, PartialEq)]
pub struct LabView {
    /// The scenario's title.
    pub title: String,
    /// The query's PySpark text as the editor holds it (the latest run's, after a restart with a
    /// changed query).
    pub query_text: String,
    /// The output mode the query runs in (append, update or complete): the text's
    /// `.outputMode(...)` when it sets one, else the lab's switch.
    pub mode: OutputMode,
    /// The query text sets the output mode (`writeStream.outputMode("update")`): the lab's
    /// switch does not apply until the text changes.
    pub mode_set_in_query: bool,
    /// The text starts its query (`writeStream...start()`) with no `.outputMode(...)`: it runs
    /// in Spark's default, append, and the lab's switch does not apply either.
    pub mode_default_in_query: bool,
    /// The last error the query's define, start or run raised; `None` when it ran cleanly.
    pub error: Option<ErrorView>,
    /// The scenario's streaming sources, in its order.
    pub sources: Vec<SourceView>,
    /// (source, display cells) of rows added but not yet read by a batch.
    pub pending: Vec<(String, Vec<String>)>,
    /// The query's output schema, one `name: type` per column (Spark type names).
    pub output_columns: Vec<String>,
    /// Shared with the session's cache of batch views (cloning the view copies no rows).
    pub batches: Vec<std::sync::Arc<BatchView>>,
    /// Every stateful operator's state store rows after the last batch.
    pub state: Vec<StateTableView>,
    /// The global watermark the next batch will run with.
    pub watermark: Option<String>,
    /// The same, ms since the epoch (0, Spark's initial watermark, means none set yet).
    pub watermark_ms: Option<i64>,
    /// The day (`2026-01-01`, UTC) that short times like `12:07` are on.
    pub day: String,
    /// The query's `spark.sql.session.timeZone` when it is not UTC (`Asia/Seoul`): the lab
    /// still shows times in UTC, where real Spark's `show()` and console sink print them in it.
    pub session_time_zone: Option<String>,
    /// Each `withWatermark` delay as written in the query, without its quotes (`10 minutes`).
    pub delays: Vec<String>,
    /// The event-time column each of `delays` is for (`event_time`, `order_time`; empty when the
    /// text does not write it as a string): the sliders' names when there are several.
    pub delay_columns: Vec<String>,
    /// The text's reader calls (`spark.readStream.format("rate").load()`) that read one of the
    /// lab's streams of another kind, or give a schema: the lab feeds its streams by name, and
    /// says so (also when the program then fails on what the stream lacks).
    pub reads: Vec<ReadView>,
    /// When the program names its own sink (`.writeStream.format('parquet')`): whether it gives
    /// a checkpoint location (`.option('checkpointLocation', ...)`,
    /// `spark.sql.streaming.checkpointLocation`); the lab's switch then does not apply, as in
    /// Spark. `None`: the switch decides, for the sink the lab picked.
    pub checkpoint_from_text: Option<bool>,
    /// The sink the query writes to: the one the text names, else the lab's picker's (also
    /// when the query did not start).
    pub sink: SinkKind,
    /// The text names its sink, which wins over the picker.
    pub sink_from_text: bool,
    /// The text sets `.trigger(...)`, which wins over the lab's trigger menu.
    pub trigger_from_text: bool,
    /// What the program's `print(...)` calls wrote, in order (`print(df.isStreaming)` →
    /// `True`; a DataFrame as `DataFrame[event_id: string, ...]`), also when it then failed.
    pub printed: Vec<String>,
    /// `(call, function)` for each `foreachBatch(f)` / `foreach(writer)` in the text
    /// (`("foreachBatch", "write_batch")`): the sink shows what each batch hands the function;
    /// the function's own Python (its writes, `print`, `show`) is not run.
    pub not_run: Vec<(String, String)>,
    /// The exam-lens rule ids the query meets (`crate::study::lens::for_rules` gives their entries):
    /// decided by the engine on the analyzed plan, the output mode and the sink.
    pub lens: Vec<String>,
    /// True when the next trigger runs a no-data micro-batch: the watermark moved past what the
    /// last batch used and a stateful operator cares.
    pub no_data_batch_due: bool,
    /// How many of the scenario's steps "next step" has run.
    pub steps_done: usize,
    /// How many steps the scenario has.
    pub steps_total: usize,
    /// Static tables: (name, columns, rows).
    pub statics: Vec<(String, Vec<String>, Vec<Vec<String>>)>,
    /// The analyzed plan as a tree.
    pub plan: Option<String>,
    /// Checkpoint, sink and query handle.
    pub recovery: Option<RecoveryView>,
    /// The processing-time clock (ms) when the query's state function uses
    /// `ProcessingTimeTimeout`.
    pub processing_clock_ms: Option<i64>,
    /// The last batch's `StreamingQueryProgress` as JSON (the metrics panel's; every batch's:
    /// [`crate::lab::session::LabSession::progress_jsons`]).
    pub progress_json: Option<String>,
    /// The batch a run error stopped before it finished (logged in the offset log, never
    /// committed), when the query failed while running one: the batch list says so instead of
    /// "no batch has run".
    pub failed_batch: Option<u64>,
}
