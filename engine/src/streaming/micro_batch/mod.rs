//! `MicroBatchExecution` and the `StreamingQuery` handle: the loop that turns new source
//! data into micro-batches (`MicroBatchExecution.scala`).
//!
//! Each trigger: take every source's latest offset; if any moved, or the previous batch's
//! plan asks for a no-data batch (`shouldRunAnotherBatch`), write the offset log entry,
//! run the plan with watermark wm(N) for eviction and wm(N-1) for late rows, hand the rows
//! to the sink, fold the event-time stats into the `WatermarkTracker`, then write the
//! commit log entry last, so a batch with no commit entry runs again on restart.
//!
//! This file holds the query's state and what a batch returns; `query.rs` the handle's API
//! (build, feed, read), `batch_loop.rs` the trigger and batch loop, `recovery.rs` stop and
//! restart on a checkpoint, `report.rs` a batch's progress and explanation.

mod batch_loop;
mod query;
mod recovery;
mod report;

use std::collections::BTreeMap;

use super::sink::{Sink, SinkKind};
use super::progress::{StateOperatorProgress, StreamingQueryProgress};
use super::source::{batch_to_rows, Source};
use super::watermark_tracker::WatermarkTracker;
use super::trigger::Trigger;
use super::OutputMode;
use crate::analysis::Plan;
pub use crate::checkpoint::{Checkpoint, CommitLogEntry, OffsetLogEntry};
pub use super::conf::StreamingConf;
use crate::error::Error;
use crate::execution::OperatorState;
use crate::types::{BatchId, Row, WatermarkMs};

/// Event-time summary of one batch, ms (`eventTime` in progress).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EventTimeSummary {
    /// The earliest event time the first watermark operator saw in the batch; `None` without rows.
    pub min: Option<i64>,
    /// The latest event time it saw; `None` without rows.
    pub max: Option<i64>,
    /// The mean of its event times; `None` without rows.
    pub avg: Option<i64>,
    /// The watermark the batch ran with; `None` if the query has no watermark.
    pub watermark: Option<i64>,
}

/// Everything one executed micro-batch produced.
#[derive(Debug, Clone)]
pub struct BatchResult {
    /// The batch id (`batchId`, from 0), as in the offset and commit logs.
    pub batch_id: u64,
    /// Rows read from streaming sources.
    pub input_rows: u64,
    /// Rows read per source name.
    pub input_batches: BTreeMap<String, Vec<arrow_array::RecordBatch>>,
    /// The watermark the batch ran with (ms); `None` if the query has no watermark.
    pub watermark_ms: Option<i64>,
    /// The watermark late rows were judged against: wm(N-1), ms.
    pub late_watermark_ms: i64,
    /// The rows the sink received.
    pub rows: Vec<Row>,
    /// One entry per stateful operator, downstream first.
    pub state: Vec<StateOperatorProgress>,
    /// The batch's event-time stats (progress's `eventTime`).
    pub event_time: EventTimeSummary,
    /// The batch's progress report (`StreamingQuery.lastProgress` after it).
    pub progress: StreamingQueryProgress,
    /// True for a batch that ran only because the watermark moved.
    pub no_data: bool,
    /// Why the batch ran and what became of each input row; computed only while
    /// [`StreamingQuery::set_explaining`] is on (the lab turns it on, benchmarks leave it off).
    /// Shared (`Rc`), so the lab's views and picture hold it without copying every row's fates.
    pub explanation: Option<std::rc::Rc<crate::execution::explain::BatchExplanation>>,
    /// How many streaming aggregations ran their partial phase on the input's columns
    /// (`execution::columnar`) rather than row by row: what `tests/columnar.rs` checks.
    pub columnar_aggregations: usize,
}

impl BatchResult {
    /// The rows the batch read, per source name (decoded on demand from its Arrow batches).
    pub fn input_by_source(&self) -> BTreeMap<String, Vec<Row>> {
        self.input_batches.iter().map(|(k, v)| (k.clone(), v.iter().flat_map(batch_to_rows).collect())).collect()
    }

    /// The last row of [`BatchResult::input_by_source`] (the last row of the last source, by
    /// name, that read any), decoding that one row only.
    pub fn last_input_row(&self) -> Option<Row> {
        let batch = self.input_batches.values().rev().find_map(|v| v.iter().rev().find(|b| b.num_rows() > 0))?;
        let i = batch.num_rows() - 1;
        Some(batch.columns().iter().map(|c| crate::types::arrow::cell_value(c.as_ref(), i)).collect())
    }
}

/// A running streaming query over in-memory sources.
#[derive(Debug, Clone)]
pub struct StreamingQuery {
    /// The query id (`StreamingQuery.id`): kept in the checkpoint, the same after a restart.
    pub id: String,
    /// This run's id (`StreamingQuery.runId`): a new one at every start.
    pub run_id: String,
    /// The query name (`queryName(...)`), if set.
    pub name: Option<String>,
    plan: Plan,
    mode: OutputMode,
    conf: StreamingConf,
    /// Sources by index (order of first appearance in the plan).
    sources: Vec<Box<dyn Source>>,
    /// End offsets of the last executed batch.
    committed: Vec<Option<i64>>,
    next_batch_id: BatchId,
    tracker: WatermarkTracker,
    /// The watermark the previous executed batch used (0 before the first batch).
    prev_batch_wm_ms: WatermarkMs,
    last_executed: bool,
    states: BTreeMap<usize, OperatorState>,
    clock_ms: i64,
    /// Offset log, commit log and state versions.
    pub checkpoint: Checkpoint,
    /// Where the rows go (survives restarts, like the system it stands for).
    pub sink: Box<dyn Sink>,
    /// How batches are triggered.
    pub trigger: Trigger,
    /// `option("checkpointLocation", ...)` as written in the query, if any.
    pub checkpoint_location: Option<String>,
    /// Set when a `once` / `availableNow` run has finished: the query is no longer active.
    terminated: bool,
    /// The query text named the sink (it won over the lab's picker).
    sink_named_in_query: bool,
    /// The query text set `.outputMode(...)` (it won over the mode the query was started in).
    mode_set_in_query: bool,
    /// The query text set `.trigger(...)`.
    trigger_set_in_query: bool,
    /// The start found no checkpoint location and the sink allowed a temporary one.
    temporary_checkpoint: bool,
    /// A batch recovered from the checkpoint that must run again with its logged offsets,
    /// watermark and timestamp (it has an offset entry and no commit entry).
    rerun: Option<OffsetLogEntry>,
    /// Source columns some operator reads, by source index (fixed by the plan).
    source_columns: BTreeMap<usize, Vec<bool>>,
    /// The first watermark operator in the plan, whose stats progress reports (fixed by the plan).
    first_watermark: Option<usize>,
    /// An error the first batch will raise (a check Spark makes only when it plans a batch).
    deferred_failure: Option<Error>,
    /// The error that terminated the query (`StreamingQuery.exception`).
    failure: Option<Error>,
    /// Each batch explains itself ([`BatchResult::explanation`]).
    explaining: bool,
}

/// How the lab starts a query, besides its text (`StreamingQuery::start_with`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StartOptions {
    /// The sink when the query text names none (the lab's sink picker). The text's own
    /// `.writeStream.format(...)` / `foreachBatch` always wins. `None`: the memory sink, whose
    /// start checks are skipped (the conformance harness writes with its own foreachBatch).
    pub default_sink: Option<SinkKind>,
    /// Whether the lab's switch gives the picked sink a checkpoint location (it stands for the
    /// `.option("checkpointLocation", ...)` the learner would write). A sink the text names
    /// has what the text gives it: the switch does not count for it. `None`: the location rule
    /// is not checked.
    pub checkpoint_location: Option<bool>,
    /// `spark.sql.streaming.checkpointLocation` is set in the session's conf (the scenario's):
    /// a location for every sink, the text's own too.
    pub session_checkpoint_location: bool,
    /// The trigger when the text writes no `.trigger(...)` (the lab's trigger menu): checked
    /// at start as the text's would be (a continuous trigger over an aggregation is refused,
    /// `UnsupportedOperationChecker.checkForContinuous`). `None`: the default trigger.
    pub default_trigger: Option<crate::streaming::Trigger>,
}

/// The `id` and `runId` of a query started on a new checkpoint (its first run): what
/// `StreamingQuery::start` gives it, and what a program reads from `query.id` and
/// `query.runId` right after `start()`.
pub fn first_start_ids() -> (String, String) {
    let id = uuid_from_seed(1);
    let run_id = run_id_for(&id, 1);
    (id, run_id)
}

/// The `runId` of run number `runs` (1 for the first start) of query `query_id`: a new one at
/// every start, as `StreamingQueryManager.startQuery` draws `UUID.randomUUID` for each run,
/// while the query `id` stays with the checkpoint. Deterministic (FNV-1a of the id, plus the
/// run number), so two queries never share a run id.
pub fn run_id_for(query_id: &str, runs: u64) -> String {
    let seed = query_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    uuid_from_seed(seed.wrapping_add(runs))
}

/// A deterministic UUID-shaped id from a seed (the engine has no randomness).
pub fn uuid_from_seed(seed: u64) -> String {
    let mut x = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut next = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let (a, b) = (next(), next());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        (b >> 48) & 0x3fff | 0x8000,
        b & 0xffff_ffff_ffff
    )
}
