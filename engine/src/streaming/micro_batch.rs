//! `MicroBatchExecution` and the `StreamingQuery` handle: the loop that turns new source
//! data into micro-batches (`MicroBatchExecution.scala`).
//!
//! Each trigger: take every source's latest offset; if any moved, or the previous batch's
//! plan asks for a no-data batch (`shouldRunAnotherBatch`), write the offset log entry,
//! run the plan with watermark wm(N) for eviction and wm(N-1) for late rows, hand the rows
//! to the sink, fold the event-time stats into the `WatermarkTracker`, then write the
//! commit log entry last, so a batch with no commit entry runs again on restart.

use std::collections::BTreeMap;

use super::sink::{CrashPoint, Sink, SinkKind};
use super::progress::{SinkProgress, SourceProgress, StateOperatorProgress, StreamingQueryProgress};
use super::source::{batch_to_rows, MemoryStream, Source, SourceKind};
use super::watermark_propagator;
use super::watermark_tracker::WatermarkTracker;
use super::trigger::Trigger;
use super::OutputMode;
use crate::analysis::{Node, Plan};
pub use crate::checkpoint::{Checkpoint, CommitLogEntry, OffsetLogEntry};
use crate::checkpoint as cp;
pub use super::conf::StreamingConf;
use crate::error::Error;
use crate::execution::explain::{self, BatchExplanation, BatchReason, OperatorSummary, RowExplanation};
use crate::execution::{self, BatchContext, BatchEffects, OperatorState};
use crate::plan::Catalog;
use crate::types::{format_progress_ms, BatchId, DataType, DelayMs, Row, WatermarkMs};

/// Event-time summary of one batch, ms (`eventTime` in progress).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EventTimeSummary {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub avg: Option<i64>,
    pub watermark: Option<i64>,
}

/// Everything one executed micro-batch produced.
#[derive(Debug, Clone)]
pub struct BatchResult {
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
    pub event_time: EventTimeSummary,
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
}

/// A running streaming query over in-memory sources.
#[derive(Debug, Clone)]
pub struct StreamingQuery {
    pub id: String,
    pub run_id: String,
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

/// The watermarked columns of the first stateful operator input that has more than one, as
/// Spark prints them (`event_time#3-T600000ms,order_time#7-T600000ms`): a join's side, a
/// deduplication's input or an aggregation's grouping columns.
fn multiple_event_time_columns(plan: &Plan) -> Option<String> {
    let show = |attrs: &[crate::analysis::Attr]| -> Option<String> {
        let tagged: Vec<String> = attrs
            .iter()
            .enumerate()
            .filter_map(|(i, a)| a.watermark_delay_ms.map(|d| format!("{}#{i}-T{}ms", a.name, d.ms())))
            .collect();
        (tagged.len() > 1).then(|| tagged.join(","))
    };
    let mut found = None;
    plan.walk(&mut |p| {
        if found.is_some() {
            return;
        }
        found = match &p.node {
            Node::StreamJoin { left, right, .. } => show(&left.output).or_else(|| show(&right.output)),
            Node::Dedup { input, .. } => show(&input.output),
            Node::Aggregate { keys, session, .. } => show(&p.output[..(keys.len() + usize::from(session.is_some())).min(p.output.len())]),
            _ => None,
        };
    });
    found
}

/// How the lab starts a query, besides its text (`StreamingQuery::start_with`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StartOptions {
    /// The sink when the query text names none (the lab's sink picker). The text's own
    /// `.writeStream.format(...)` / `foreachBatch` always wins. `None`: the memory sink, whose
    /// start checks are skipped (the conformance harness writes with its own foreachBatch).
    pub default_sink: Option<SinkKind>,
    /// Whether a checkpoint location is set outside the text (the lab's switch,
    /// `spark.sql.streaming.checkpointLocation`). `None`: the location rule is not checked.
    pub checkpoint_location: Option<bool>,
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

impl StreamingQuery {
    /// Turns per-batch explanations ([`BatchResult::explanation`]) on or off (off by default:
    /// they cost a pass over every input row).
    pub fn set_explaining(&mut self, on: bool) {
        self.explaining = on;
    }

    /// True if the query text chose the sink (`.writeStream.format('kafka')`,
    /// `foreachBatch(...)`): the lab's picker did not apply.
    pub fn sink_named_in_query(&self) -> bool {
        self.sink_named_in_query
    }

    /// True if the query runs on a temporary checkpoint (no location was given and the sink
    /// allows it): a restart starts over instead of resuming.
    pub fn temporary_checkpoint(&self) -> bool {
        self.temporary_checkpoint
    }

    /// A query over an already checked and optimized plan
    /// ([`crate::execution::optimizer::optimize`]).
    pub fn from_plan(plan: Plan, catalog: &Catalog, mode: OutputMode, conf: StreamingConf) -> StreamingQuery {
        let mut sources: Vec<(usize, Box<dyn Source>)> = Vec::new();
        let mut delays: BTreeMap<usize, DelayMs> = BTreeMap::new();
        plan.walk(&mut |p| match &p.node {
            Node::Source { name, index } if !sources.iter().any(|(i, _)| i == index) => {
                let schema: Vec<(String, DataType)> = catalog.streams.get(name).cloned().unwrap_or_default();
                sources.push((*index, Box::new(MemoryStream::new(name, &schema))));
            }
            Node::Watermark { delay_ms, watermark_index, .. } => {
                delays.insert(*watermark_index, *delay_ms);
            }
            _ => {}
        });
        sources.sort_by_key(|(i, _)| *i);
        let plan_source_columns = plan.source_columns();
        let mut first_watermark: Option<usize> = None;
        plan.walk(&mut |p| {
            if let (None, Node::Watermark { watermark_index, .. }) = (first_watermark, &p.node) {
                first_watermark = Some(*watermark_index);
            }
        });
        let sources: Vec<Box<dyn Source>> = sources.into_iter().map(|(_, s)| s).collect();
        let n = sources.len();
        let tracker = WatermarkTracker::new(conf.watermark_policy, delays.into_values().collect());
        let checkpoint = Checkpoint { query_id: Some(uuid_from_seed(1)), runs: 1, ..Checkpoint::new(conf.min_deltas_for_snapshot, conf.min_batches_to_retain) };
        StreamingQuery {
            id: uuid_from_seed(1),
            run_id: run_id_for(&uuid_from_seed(1), 1),
            name: None,
            plan,
            mode,
            conf,
            sources,
            committed: vec![None; n],
            next_batch_id: BatchId::FIRST,
            tracker,
            prev_batch_wm_ms: WatermarkMs::ZERO,
            last_executed: false,
            states: BTreeMap::new(),
            clock_ms: 0,
            checkpoint,
            rerun: None,
            source_columns: plan_source_columns,
            first_watermark,
            sink: SinkKind::Memory.create(),
            trigger: Trigger::Default,
            checkpoint_location: None,
            terminated: false,
            sink_named_in_query: false,
            temporary_checkpoint: false,
            deferred_failure: None,
            failure: None,
            explaining: false,
        }
        .with_planning_checks()
        .with_operator_metadata()
    }

    fn with_operator_metadata(mut self) -> Self {
        self.checkpoint.operators = cp::operator_metadata(&self.plan);
        self.checkpoint.source_count = self.sources.len();
        self
    }

    /// Checks Spark makes when it plans the first batch, not at `start()`: a session window
    /// as the only grouping key (`_LEGACY_ERROR_TEMP_3068`), and a stateful operator whose
    /// input carries two different event-time columns (`MULTIPLE_EVENT_TIME_COLUMNS`,
    /// `WatermarkSupport.findEventTimeColumn`); both surface as `STREAM_FAILED`.
    fn with_planning_checks(mut self) -> Self {
        let mut global_session = false;
        self.plan.walk(&mut |p| {
            global_session |= matches!(&p.node, Node::Aggregate { keys, session: Some(_), .. } if keys.is_empty());
        });
        if global_session {
            let cause = "Global aggregation with session window in streaming query is not supported.";
            self.deferred_failure = Some(self.stream_failed(
                "_LEGACY_ERROR_TEMP_3068",
                cause,
                "group by the session window and at least one key, e.g. groupBy(F.session_window(...), 'user_id')",
            ));
        } else if let Some(cols) = multiple_event_time_columns(&self.plan) {
            let cause = format!(
                "[MULTIPLE_EVENT_TIME_COLUMNS] More than one event time columns are available. Please ensure there is at most one event time column per stream. event time columns: ({cols}) SQLSTATE: 42K09"
            );
            self.deferred_failure = Some(self.stream_failed(
                "MULTIPLE_EVENT_TIME_COLUMNS",
                &cause,
                "each stateful operator needs a single event-time column in its input: drop or rename one (a join's output keeps both sides' watermarked columns)",
            ));
        }
        self
    }

    /// The error that terminated the query, if any (`StreamingQuery.exception`).
    pub fn exception(&self) -> Option<&Error> {
        self.failure.as_ref()
    }

    /// The analyzed plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The output mode.
    pub fn output_mode(&self) -> OutputMode {
        self.mode
    }

    /// The current global watermark in ms since the epoch: what the next batch will run with
    /// ([`Self::current_watermark`] as a number).
    pub fn current_watermark_ms(&self) -> i64 {
        self.tracker.current().ms()
    }

    /// The current global watermark: what the next batch will run with.
    pub fn current_watermark(&self) -> WatermarkMs {
        self.tracker.current()
    }

    /// The watermark stateful operator `op_id` evicts with in the next batch: the
    /// current global watermark propagated through the plan (a join lowers it for the
    /// operators after it); 0 when the operator's input has no watermark.
    pub fn operator_eviction_watermark_ms(&self, op_id: usize) -> WatermarkMs {
        self.propagated(self.tracker.current()).ok().and_then(|m| m.get(&op_id).copied()).unwrap_or(WatermarkMs::ZERO)
    }

    /// Each watermark operator's own watermark, `None` until its input had data.
    pub fn operator_watermarks(&self) -> &[Option<WatermarkMs>] {
        self.tracker.operator_watermarks()
    }

    /// The state of every stateful operator, by operator id.
    pub fn states(&self) -> &BTreeMap<usize, OperatorState> {
        &self.states
    }

    /// Source `index`'s offset as Spark writes it in the offset log (see
    /// [`Source::offset_json`]): `{"orders":{"0":2,"1":1}}` for Kafka, the number for the
    /// others, `None` for no offset or no such source.
    pub fn offset_json(&self, index: usize, offset: Option<i64>) -> Option<serde_json::Value> {
        self.sources.get(index).and_then(|s| s.offset_json(offset))
    }

    /// Names of the streaming sources the query reads, in source-index order.
    pub fn source_names(&self) -> Vec<String> {
        self.sources.iter().map(|s| s.name().to_string()).collect()
    }

    /// Sets the clock the next trigger reads (`batchTimestampMs`), ms since the epoch.
    pub fn set_clock_ms(&mut self, ms: i64) {
        self.clock_ms = ms;
        for s in &mut self.sources {
            s.tick(ms);
        }
    }

    /// Adds rows to a source as one block (`MemoryStream.addData`). Rows of a source the
    /// query does not read are ignored, as Spark ignores data in an unused stream.
    ///
    /// # Errors
    /// A row whose values do not fit the source schema.
    pub fn add_data(&mut self, source: &str, rows: &[Row]) -> Result<(), Error> {
        if rows.is_empty() {
            return Ok(());
        }
        let Some(s) = self.sources.iter_mut().find(|s| s.name() == source) else {
            return Ok(());
        };
        s.add_rows(rows).map_err(|message| {
            Error::Execution(crate::error::ExecutionError::BadRow { source_name: source.to_string(), row: 0, message })
        })?;
        Ok(())
    }

    /// Sets what kind of source `name` stands for (file with `maxFilesPerTrigger`, socket, ...):
    /// a new source of that kind over the same schema ([`SourceKind::create`]), set before
    /// any data is added. A source already of `kind` is kept as it is.
    pub fn set_source_kind(&mut self, name: &str, kind: SourceKind) {
        if let Some(s) = self.sources.iter_mut().find(|s| s.name() == name) {
            if s.kind() != kind {
                *s = kind.create(name, &s.columns());
            }
        }
    }

    /// For a Kafka source: the schema of the events written into `value`.
    pub fn set_payload_schema(&mut self, name: &str, schema: Vec<(String, DataType)>) {
        if let Some(s) = self.sources.iter_mut().find(|s| s.name() == name) {
            s.set_payload_schema(schema);
        }
    }

    /// True if some source has data no batch has read yet.
    pub fn has_new_data(&self) -> bool {
        self.sources.iter().zip(&self.committed).any(|(s, c)| s.next_end(*c, false) != *c)
    }

    /// True if the next trigger would run a no-data batch (the watermark moved past what the
    /// last batch used and a stateful operator cares). A plan whose watermark cannot be
    /// propagated (a redefined watermark) answers `true`: the next trigger fails with it.
    pub fn wants_no_data_batch(&self) -> bool {
        self.no_data_batch_due().unwrap_or(true)
    }

    /// `lastExecutionRequiresAnotherBatch`: evaluated only when no-data batches are enabled
    /// and a batch ran in this run; it propagates the new global watermark through the plan.
    fn no_data_batch_due(&self) -> Result<bool, Error> {
        if !(self.conf.no_data_micro_batches && self.last_executed) {
            return Ok(false);
        }
        if self.processing_time_timeout_due() {
            return Ok(true);
        }
        let (prev_ms, next_ms) = (self.prev_batch_wm_ms, self.tracker.current());
        if next_ms <= prev_ms {
            return Ok(false);
        }
        let prev = self.propagated(prev_ms)?;
        let next = self.propagated(next_ms)?;
        Ok(execution::wants_another_batch(&self.plan, self.mode, &prev, &next))
    }

    /// True if an `applyInPandasWithState` with `ProcessingTimeTimeout` holds a key whose
    /// timeout is before the query's clock. Spark asks for a batch on every trigger with this
    /// timeout (`shouldRunAnotherBatch` is always true); the lab has no wall clock,
    /// so it runs one when a batch would time a key out.
    fn processing_time_timeout_due(&self) -> bool {
        self.processing_time_timeout_op().is_some()
    }

    /// The `ProcessingTimeTimeout` operator (id, progress name) with a key whose timeout is
    /// before the clock, if any.
    fn processing_time_timeout_op(&self) -> Option<(usize, String)> {
        let mut due = None;
        let names: BTreeMap<usize, &str> = self.plan.stateful_operators().into_iter().collect();
        self.plan.walk(&mut |p| {
            if let Node::FlatMapGroupsWithState { op_id, timeout: crate::pyfunc::GroupStateTimeout::ProcessingTimeTimeout, .. } = &p.node {
                if let Some(OperatorState::GroupState(g)) = self.states.get(op_id) {
                    if due.is_none() && g.has_timeout_before(self.clock_ms) {
                        due = Some((*op_id, names.get(op_id).map(|n| n.to_string()).unwrap_or_default()));
                    }
                }
            }
            // `transformWithState` with ProcessingTime: a timer at or before the clock.
            if let Node::TransformWithState { op_id, keys, time_mode: crate::pyfunc::TimeMode::ProcessingTime, .. } = &p.node {
                if let Some(OperatorState::Tws(t)) = self.states.get(op_id) {
                    if due.is_none() && t.timers(keys.len()).iter().any(|(_, ms)| *ms <= self.clock_ms) {
                        due = Some((*op_id, names.get(op_id).map(|n| n.to_string()).unwrap_or_default()));
                    }
                }
            }
        });
        due
    }

    /// True if the query holds an `applyInPandasWithState` with `ProcessingTimeTimeout` or a
    /// `transformWithState` with `timeMode='ProcessingTime'` (the lab shows its clock).
    pub fn uses_processing_time_timeout(&self) -> bool {
        let mut found = false;
        self.plan.walk(&mut |p| {
            found |= matches!(
                p.node,
                Node::FlatMapGroupsWithState { timeout: crate::pyfunc::GroupStateTimeout::ProcessingTimeTimeout, .. }
                    | Node::TransformWithState { time_mode: crate::pyfunc::TimeMode::ProcessingTime, .. }
            )
        });
        found
    }

    /// The query's clock (ms): what `current_timestamp()`, the next batch's timestamp and
    /// processing-time timeouts read.
    pub fn clock_ms(&self) -> i64 {
        self.clock_ms
    }

    /// Each stateful operator's watermark for the global watermark `global_ms`
    /// ([`watermark_propagator::propagate`]).
    ///
    /// # Errors
    /// `STREAM_FAILED` caused by `_LEGACY_ERROR_TEMP_3076` for a redefined watermark.
    fn propagated(&self, global_ms: WatermarkMs) -> Result<BTreeMap<usize, WatermarkMs>, Error> {
        watermark_propagator::propagate(&self.plan, global_ms).map_err(|cause| self.stream_failed("_LEGACY_ERROR_TEMP_3076", cause, "define withWatermark once per input, before the first stateful operator; later operators use the watermark that flows to them"))
    }

    /// `STREAM_FAILED` wrapping a cause, as `awaitTermination()` reports a query that died
    /// in a batch.
    fn stream_failed(&self, cause_class: &str, cause: &str, hint: &str) -> Error {
        let mut e = crate::error::AnalysisError::new(
            crate::error::Stage::Run,
            "STREAM_FAILED",
            format!("Query [id = {}, runId = {}] terminated with exception: {cause}", self.id, self.run_id),
        )
        .with_hint(hint);
        e.cause = Some((cause_class.into(), cause.into()));
        Error::Analysis(e)
    }

    /// One trigger: runs the next batch if there is new data or a no-data batch is due,
    /// else returns `None` (an idle trigger consumes no batch id).
    pub fn run_next_batch(&mut self) -> Option<BatchResult> {
        self.run_next_batch_crashing(None)
    }

    /// [`StreamingQuery::run_next_batch`], dying at `crash` if given: the batch stops there,
    /// the query terminates, and a restart on the checkpoint re-runs it.
    pub fn run_next_batch_crashing(&mut self, crash: Option<CrashPoint>) -> Option<BatchResult> {
        if self.failure.is_some() || self.terminated {
            return None;
        }
        let rerun_has_data = self.rerun.as_ref().is_some_and(|r| r.offsets != self.committed);
        let new_data = rerun_has_data || (self.rerun.is_none() && self.has_new_data());
        let rerun_pending = self.rerun.is_some();
        let wants_no_data = match self.no_data_batch_due() {
            Ok(w) => w,
            Err(e) => {
                // `shouldRunAnotherBatch` threw while the next batch was being constructed.
                self.failure = Some(e);
                return None;
            }
        };
        if !new_data && !rerun_pending && !wants_no_data {
            return None;
        }
        // Why the batch runs, told before anything changes (NewData gets its count below).
        let reason = self.explaining.then(|| if rerun_pending { BatchReason::Recovered } else if new_data { BatchReason::NewData { rows: 0 } } else { self.watermark_moved() });
        if let Some(e) = self.deferred_failure.take() {
            // The batch is planned (its offsets are logged) and fails; the query terminates.
            let end: Vec<Option<i64>> = self.sources.iter().map(|s| s.latest_offset()).collect();
            let entry = self.offset_entry(self.next_batch_id.get(), self.tracker.current(), end);
            self.checkpoint.log_offsets(entry);
            self.failure = Some(e);
            return None;
        }
        let batch_id = self.next_batch_id.get();
        let (wm, end) = match self.rerun.take() {
            // A recovered batch runs again exactly as logged; no new offset entry.
            Some(entry) => {
                self.clock_ms = entry.batch_timestamp_ms;
                (WatermarkMs::from_ms(entry.batch_watermark_ms), entry.offsets)
            }
            None => {
                let wm = self.tracker.current();
                let once = self.trigger == Trigger::Once;
                let end: Vec<Option<i64>> = self.sources.iter().zip(&self.committed).map(|(s, c)| s.next_end(*c, once)).collect();
                // Write-ahead: the offset log entry exists before any output of the batch.
                let entry = self.offset_entry(batch_id, wm, end.clone());
                self.checkpoint.log_offsets(entry);
                (wm, end)
            }
        };

        let crashed = |point: CrashPoint| Error::Execution(crate::error::ExecutionError::Crash { batch_id, point: point.id() });
        if crash == Some(CrashPoint::AfterOffsetLog) {
            self.failure = Some(crashed(CrashPoint::AfterOffsetLog));
            return None;
        }
        let mut inputs: Vec<(Vec<arrow_array::RecordBatch>, Option<Vec<bool>>)> = Vec::new();
        let mut input_by_source = BTreeMap::new();
        // Only the columns some operator reads are decoded, and only when an operator reads
        // rows (the columnar path reads the blocks); the lab still gets whole rows.
        for (i, s) in self.sources.iter().enumerate() {
            let batches = s.get_batch(self.committed[i], end[i]);
            input_by_source.insert(s.name().to_string(), batches.clone());
            inputs.push((batches, self.source_columns.get(&i).cloned()));
        }
        let per_source: Vec<u64> = inputs.iter().map(|(b, _)| b.iter().map(|b| b.num_rows() as u64).sum()).collect();
        let input_rows: u64 = per_source.iter().sum();
        let wm_for_late_events_ms = if batch_id == 0 { WatermarkMs::ZERO } else { self.prev_batch_wm_ms };
        // IncrementalExecution's state rule: propagate wm(N-1) for late rows and wm(N) for
        // eviction to every stateful operator.
        let op_watermarks = match (self.propagated(wm_for_late_events_ms), self.propagated(wm)) {
            (Ok(late), Ok(evict)) => {
                let ops: std::collections::BTreeSet<usize> = late.keys().chain(evict.keys()).copied().collect();
                ops.into_iter().map(|op| (op, (late.get(&op).copied().unwrap_or(WatermarkMs::ZERO), evict.get(&op).copied().unwrap_or(WatermarkMs::ZERO)))).collect()
            }
            (Err(e), _) | (_, Err(e)) => {
                self.failure = Some(e);
                return None;
            }
        };
        let mut ctx = BatchContext::new(&self.plan, inputs, self.mode, wm_for_late_events_ms, wm);
        ctx.rocksdb_state_store = self.conf.rocksdb_state_store;
        ctx.shuffle_partitions = self.conf.shuffle_partitions;
        ctx.op_watermarks = op_watermarks;
        // `current_timestamp()` is the batch's timestamp and date functions read the session
        // time zone; an expression that fails (ANSI mode) fails the batch: its state is not
        // committed and the query terminates.
        ctx.eval = execution::context::EvalContext::new(self.clock_ms, self.conf.session_time_zone.clone());
        let mut fx = BatchEffects::default();
        // Each input row's fate, traced over the state as the batch starts (read-only).
        let trace = self.explaining.then(|| explain::trace(&self.plan, &ctx, &self.states));
        let rows = execution::execute(&self.plan, &ctx, &mut self.states, &mut fx);
        if let Some((condition, message)) = ctx.eval.take_error() {
            // Roll back to the version the batch started from.
            self.states = self.checkpoint.state.load(batch_id).unwrap_or_default();
            if condition == crate::pyfunc::NOT_MODELLED {
                self.failure = Some(Error::Unsupported(message));
                return None;
            }
            let mut e = crate::error::AnalysisError::new(
                crate::error::Stage::Run,
                "STREAM_FAILED",
                format!("Query [id = {}, runId = {}] terminated with exception: [{condition}] {message}", self.id, self.run_id),
            )
            .with_hint(if message.contains(crate::pyfunc::PYTHON_WORKER) {
                "the state function raised an error: fix it at the line named (Streamlab runs it in a sandboxed subset of Python and pandas); the batch is run again when the query changes"
            } else {
                "Spark 4 runs in ANSI mode: a bad cast, an overflow or a division by zero fails the micro-batch; use try_cast / try_divide, or fix the input"
            });
            e.cause = Some((condition, message));
            self.failure = Some(Error::Analysis(e));
            return None;
        }

        // Event-time stats of the first watermark operator in the plan (pre-order).
        let first_wm = self.first_watermark;
        let has_watermark = first_wm.is_some();
        let stats = first_wm.and_then(|i| fx.stats.get(&i)).filter(|s| s.count > 0 && input_rows > 0);
        let event_time = EventTimeSummary {
            min: stats.map(|s| s.min),
            max: stats.map(|s| s.max),
            avg: stats.map(|s| s.avg_ms()),
            watermark: has_watermark.then_some(wm.ms()),
        };
        // The stateful operators committed state version batch_id + 1 while the sink's job ran.
        // Only the keys this batch changed are written (the version's delta).
        self.checkpoint.state.commit(batch_id + 1, &mut self.states);
        let complete = self.mode == OutputMode::Complete;
        if crash == Some(CrashPoint::MidSink) {
            self.sink.add_batch(batch_id, &rows, complete, Some(rows.len() / 2));
            self.failure = Some(crashed(CrashPoint::MidSink));
            return None;
        }
        self.sink.add_batch(batch_id, &rows, complete, None);
        if crash == Some(CrashPoint::BeforeCommit) {
            self.failure = Some(crashed(CrashPoint::BeforeCommit));
            return None;
        }
        self.tracker.update(&fx.stats);
        self.checkpoint.log_commit(CommitLogEntry { batch_id, next_batch_watermark_ms: self.tracker.current().ms() });

        let state: Vec<StateOperatorProgress> = self
            .plan
            .stateful_operators()
            .into_iter()
            .map(|(op_id, name)| {
                let m = fx.metrics.get(&op_id).copied().unwrap_or_default();
                StateOperatorProgress {
                    operator_name: name.to_string(),
                    num_rows_total: m.num_rows_total,
                    num_rows_updated: m.num_rows_updated,
                    all_updates_time_ms: 0,
                    num_rows_removed: m.num_rows_removed,
                    all_removals_time_ms: 0,
                    commit_time_ms: 0,
                    memory_used_bytes: m.num_rows_total * 64,
                    num_rows_dropped_by_watermark: m.num_rows_dropped_by_watermark,
                    num_shuffle_partitions: if name == "globalLimit" { 1 } else { self.conf.shuffle_partitions },
                    num_state_store_instances: if name == "globalLimit" { 1 } else { self.conf.shuffle_partitions },
                    custom_metrics: BTreeMap::new(),
                }
            })
            .collect();
        let explanation = match (reason, trace) {
            (Some(reason), Some(trace)) => Some(std::rc::Rc::new(self.explanation(batch_id, reason, trace, &input_by_source, has_watermark.then_some(wm.ms()), &ctx, &state, rows.len()))),
            _ => None,
        };
        let progress = self.progress(batch_id, &per_source, &end, &event_time, &state, rows.len());
        self.committed = end;
        self.prev_batch_wm_ms = wm;
        self.last_executed = true;
        // u64::MAX batches cannot run (one per µs would take 584,000 years): stay put there.
        self.next_batch_id = self.next_batch_id.next().unwrap_or(self.next_batch_id);
        Some(BatchResult {
            batch_id,
            input_rows,
            input_batches: input_by_source,
            watermark_ms: has_watermark.then_some(wm.ms()),
            late_watermark_ms: wm_for_late_events_ms.ms(),
            rows,
            state,
            event_time,
            progress,
            no_data: !new_data,
            explanation,
            columnar_aggregations: fx.columnar_aggregations.len(),
        })
    }

    /// `WatermarkMoved` for a no-data batch: the first stateful operator (root-first) whose
    /// eviction watermark moves, as [`execution::operators_wanting_another_batch`] finds it.
    fn watermark_moved(&self) -> BatchReason {
        if let Some((op_id, operator)) = self.processing_time_timeout_op() {
            return BatchReason::ProcessingTimeTimeout { op_id, operator, clock_ms: self.clock_ms };
        }
        let (prev, next) = match (self.propagated(self.prev_batch_wm_ms), self.propagated(self.tracker.current())) {
            (Ok(p), Ok(n)) => (p, n),
            _ => (BTreeMap::new(), BTreeMap::new()),
        };
        let ops = execution::operators_wanting_another_batch(&self.plan, self.mode, &prev, &next);
        let names: BTreeMap<usize, &str> = self.plan.stateful_operators().into_iter().collect();
        let op_id = ops.first().copied().unwrap_or_default();
        BatchReason::WatermarkMoved {
            op_id,
            operator: names.get(&op_id).map(|n| n.to_string()).unwrap_or_default(),
            from_ms: prev.get(&op_id).copied().unwrap_or(WatermarkMs::ZERO).ms(),
            to_ms: next.get(&op_id).copied().unwrap_or(WatermarkMs::ZERO).ms(),
        }
    }

    /// The batch's [`BatchExplanation`]: the traced fates with each source row as the source
    /// holds it, and one [`OperatorSummary`] per stateful operator from its progress.
    #[allow(clippy::too_many_arguments)]
    fn explanation(
        &self,
        batch_id: u64,
        reason: BatchReason,
        trace: explain::Trace,
        input_by_source: &BTreeMap<String, Vec<arrow_array::RecordBatch>>,
        watermark_ms: Option<i64>,
        ctx: &BatchContext,
        state: &[StateOperatorProgress],
        emitted: usize,
    ) -> BatchExplanation {
        let mut fates = trace.fates.into_iter();
        let mut times = trace.event_time_us.into_iter();
        let mut rows = Vec::with_capacity(fates.len());
        for (i, s) in self.sources.iter().enumerate() {
            let first = s.first_row_index(self.committed[i]);
            let source_rows = input_by_source.get(s.name()).map(|b| b.iter().flat_map(batch_to_rows).collect::<Vec<Row>>()).unwrap_or_default();
            for (k, row) in source_rows.into_iter().enumerate() {
                rows.push(RowExplanation {
                    source: s.name().to_string(),
                    offset: first + k,
                    row,
                    event_time_us: times.next().flatten(),
                    fates: fates.next().unwrap_or_default(),
                });
            }
        }
        let reason = match reason {
            BatchReason::NewData { .. } => BatchReason::NewData { rows: rows.len() as u64 },
            other => other,
        };
        let sampled = crate::execution::sort::sampled_in(&self.plan, self.conf.shuffle_partitions);
        let operators = self
            .plan
            .stateful_operators()
            .into_iter()
            .zip(state)
            .map(|((op_id, name), p)| {
                let (late, evict) = ctx.watermarks(op_id);
                OperatorSummary {
                    op_id,
                    operator: name.to_string(),
                    wm_for_late_events_ms: late.ms(),
                    wm_for_eviction_ms: evict.ms(),
                    num_rows_dropped_by_watermark: p.num_rows_dropped_by_watermark,
                    num_rows_updated: p.num_rows_updated,
                    num_rows_removed: p.num_rows_removed,
                    num_rows_total: p.num_rows_total,
                    runs: if sampled.contains(&op_id) { 2 } else { 1 },
                }
            })
            .collect();
        BatchExplanation {
            batch_id,
            reason,
            watermark_ms,
            next_watermark_ms: watermark_ms.map(|_| self.tracker.current().ms()),
            rows,
            emitted_rows: emitted as u64,
            operators,
        }
    }

    fn offset_entry(&self, batch_id: u64, wm: WatermarkMs, offsets: Vec<Option<i64>>) -> OffsetLogEntry {
        OffsetLogEntry {
            batch_id,
            batch_watermark_ms: wm.ms(),
            batch_timestamp_ms: self.clock_ms,
            offsets,
            watermark_policy: self.conf.watermark_policy,
            shuffle_partitions: self.conf.shuffle_partitions,
        }
    }

    /// Stops the query; what survives is its checkpoint, its (replayable) sources and its
    /// sink.
    pub fn stop(self) -> (Checkpoint, Vec<Box<dyn Source>>, Box<dyn Sink>) {
        (self.checkpoint, self.sources, self.sink)
    }

    /// The confs Spark persists in the offset log and restores on restart (watermark
    /// policy, shuffle partitions), from `checkpoint`'s last entry.
    pub fn restored_conf(mut conf: StreamingConf, checkpoint: &Checkpoint) -> StreamingConf {
        if let Some(last) = checkpoint.latest_offset() {
            conf.watermark_policy = last.watermark_policy;
            conf.shuffle_partitions = last.shuffle_partitions;
        }
        conf
    }

    /// Continues this freshly started query on `checkpoint` with the sources and sink of the
    /// previous run ([`StreamingQuery::restart`]).
    ///
    /// # Errors
    /// The checkpoint checks ([`crate::checkpoint::check_recoverable`],
    /// [`crate::checkpoint::check_compatible`]).
    pub fn resume_on(&mut self, mode: OutputMode, checkpoint: Checkpoint, sources: Vec<Box<dyn Source>>, sink: Box<dyn Sink>) -> Result<(), Error> {
        cp::check_recoverable(&checkpoint, sink.recovers_from_checkpoint(mode))?;
        cp::check_compatible(&checkpoint, &self.plan, self.sources.len())?;
        for mut s in sources {
            s.on_restart();
            if let Some(slot) = self.sources.iter_mut().find(|x| x.name() == s.name()) {
                *slot = s;
            }
        }
        self.sink = sink;
        self.resume(checkpoint);
        Ok(())
    }

    /// Records what the start decided: whether the text named the sink, and whether the
    /// checkpoint is temporary.
    pub(crate) fn set_start_outcome(&mut self, sink_named_in_query: bool, temporary_checkpoint: bool) {
        self.sink_named_in_query = sink_named_in_query;
        self.temporary_checkpoint = temporary_checkpoint;
    }

    fn resume(&mut self, mut checkpoint: Checkpoint) {
        checkpoint.runs += 1;
        let id = checkpoint.query_id.get_or_insert_with(|| uuid_from_seed(1)).clone();
        self.run_id = run_id_for(&id, checkpoint.runs);
        self.id = id;
        let latest = checkpoint.latest_offset().cloned();
        let committed = checkpoint.latest_commit().copied();
        match latest {
            // A new query: a Kafka source with startingOffsets = latest starts at the end of
            // the topic, skipping what it already holds.
            None => {
                for (i, s) in self.sources.iter().enumerate() {
                    if let Some(start) = s.initial_offset() {
                        self.committed[i] = Some(start);
                    }
                }
            }
            Some(l) if committed.is_some_and(|c| c.batch_id == l.batch_id) => {
                // Batch L is complete: continue with L+1.
                let c = committed.expect("checked");
                let done = BatchId::new(l.batch_id);
                self.next_batch_id = done.next().unwrap_or(done);
                self.committed = l.offsets.clone();
                self.tracker.set_current(WatermarkMs::from_ms(l.batch_watermark_ms.max(c.next_batch_watermark_ms)));
                self.prev_batch_wm_ms = WatermarkMs::from_ms(l.batch_watermark_ms);
                self.states = checkpoint.state.load(l.batch_id + 1).unwrap_or_default();
            }
            Some(l) => {
                // Batch L was planned but not committed: run it again as logged.
                self.next_batch_id = BatchId::new(l.batch_id);
                let prev = l.batch_id.checked_sub(1).and_then(|p| checkpoint.offset(p)).cloned();
                self.committed = prev.as_ref().map_or_else(|| vec![None; self.sources.len()], |p| p.offsets.clone());
                self.prev_batch_wm_ms = prev.map_or(WatermarkMs::ZERO, |p| WatermarkMs::from_ms(p.batch_watermark_ms));
                self.tracker.set_current(WatermarkMs::from_ms(l.batch_watermark_ms));
                self.states = checkpoint.state.load(l.batch_id).unwrap_or_default();
                self.rerun = Some(l);
            }
        }
        self.checkpoint = checkpoint;
    }

    /// True while the query runs: not failed and not finished by a `once` / `availableNow`
    /// trigger (`StreamingQuery.isActive`).
    pub fn is_active(&self) -> bool {
        self.failure.is_none() && !self.terminated
    }

    /// One firing of the query's [`Trigger`]: the batches it runs.
    /// - default / `processingTime`: at most one batch;
    /// - `once`: one batch with everything available and no trailing no-data batch, then stop;
    /// - `availableNow`: every batch for what is available, including no-data batches, then stop;
    /// - `continuous`: one epoch over what is available (map-like queries only).
    pub fn fire(&mut self) -> Vec<BatchResult> {
        match self.trigger {
            Trigger::Default | Trigger::ProcessingTime { .. } => self.run_next_batch().into_iter().collect(),
            Trigger::Once => {
                let out: Vec<BatchResult> = self.run_next_batch().into_iter().collect();
                self.terminated = true;
                out
            }
            Trigger::AvailableNow => {
                let out = self.process_all_available();
                self.terminated = true;
                out
            }
            Trigger::Continuous { .. } => self.process_all_available(),
        }
    }

    /// Runs batches until a trigger finds nothing to do (`processAllAvailable`).
    pub fn process_all_available(&mut self) -> Vec<BatchResult> {
        let mut out = Vec::new();
        while let Some(b) = self.run_next_batch() {
            out.push(b);
        }
        out
    }

    fn progress(
        &self,
        batch_id: u64,
        inputs: &[u64],
        end: &[Option<i64>],
        et: &EventTimeSummary,
        state: &[StateOperatorProgress],
        output_rows: usize,
    ) -> StreamingQueryProgress {
        let mut event_time = BTreeMap::new();
        if let (Some(min), Some(max), Some(avg)) = (et.min, et.max, et.avg) {
            event_time.insert("avg".into(), format_progress_ms(avg));
            event_time.insert("max".into(), format_progress_ms(max));
            event_time.insert("min".into(), format_progress_ms(min));
        }
        if let Some(w) = et.watermark {
            event_time.insert("watermark".into(), format_progress_ms(w));
        }
        let duration_ms: BTreeMap<String, u64> =
            ["addBatch", "commitOffsets", "getBatch", "latestOffset", "queryPlanning", "triggerExecution", "walCommit"]
                .iter()
                .map(|k| (k.to_string(), 0))
                .collect();
        let sources: Vec<SourceProgress> = self
            .sources
            .iter()
            .enumerate()
            .map(|(i, s)| SourceProgress {
                description: s.description(),
                start_offset: s.offset_json(self.committed[i]),
                end_offset: s.offset_json(end[i]),
                latest_offset: s.offset_json(end[i]),
                num_input_rows: inputs[i],
                input_rows_per_second: 0.0,
                processed_rows_per_second: 0.0,
            })
            .collect();
        let num_input_rows = inputs.iter().sum();
        StreamingQueryProgress {
            id: self.id.clone(),
            run_id: self.run_id.clone(),
            name: self.name.clone(),
            timestamp: format_progress_ms(self.clock_ms),
            batch_id,
            batch_duration: 0,
            num_input_rows,
            input_rows_per_second: 0.0,
            processed_rows_per_second: 0.0,
            duration_ms,
            event_time,
            state_operators: state.to_vec(),
            sources,
            sink: SinkProgress {
                description: self.sink.progress_description().into(),
                // V1 sinks (file, foreachBatch) report -1.
                num_output_rows: if self.sink.reports_output_rows() { output_rows as i64 } else { -1 },
            },
        }
    }
}
