//! `MicroBatchExecution`'s loop: a trigger's decision to run a batch (new data or `shouldRunAnotherBatch`), the batch itself (offset log, execution, sink, watermark, commit log) and the triggers (`once`, `availableNow`, `processAllAvailable`).

use std::collections::BTreeMap;

use super::{BatchResult, CommitLogEntry, EventTimeSummary, OffsetLogEntry, StreamingQuery};
use crate::analysis::Node;
use crate::error::Error;
use crate::execution::explain::{self, BatchReason};
use crate::execution::{self, BatchContext, BatchEffects, OperatorState};
use crate::streaming::progress::StateOperatorProgress;
use crate::streaming::sink::CrashPoint;
use crate::streaming::trigger::Trigger;
use crate::streaming::watermark_propagator;
use crate::streaming::OutputMode;
use crate::types::WatermarkMs;

impl StreamingQuery {
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

    /// Each stateful operator's watermark for the global watermark `global_ms`
    /// ([`watermark_propagator::propagate`]).
    ///
    /// # Errors
    /// `STREAM_FAILED` caused by `_LEGACY_ERROR_TEMP_3076` for a redefined watermark.
    pub(super) fn propagated(&self, global_ms: WatermarkMs) -> Result<BTreeMap<usize, WatermarkMs>, Error> {
        watermark_propagator::propagate(&self.plan, global_ms).map_err(|cause| self.stream_failed("_LEGACY_ERROR_TEMP_3076", cause, "define withWatermark once per input, before the first stateful operator; later operators use the watermark that flows to them"))
    }

    /// `STREAM_FAILED` wrapping a cause, as `awaitTermination()` reports a query that died
    /// in a batch.
    pub(super) fn stream_failed(&self, cause_class: &str, cause: &str, hint: &str) -> Error {
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

        let crashed = |point: CrashPoint| Error::Execution(crate::error::ExecutionError::Crash { batch_id, point: point.id(), words: point.describe() });
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
            if condition == crate::types::tzdb::LOADING {
                // Not a failure Spark would have: the browser's zone database is on its way.
                let python = crate::error::AnalysisError::python("Streamlab", message, crate::Span::default());
                self.failure = Some(Error::Analysis(crate::error::AnalysisError { error_class: condition, stage: crate::error::Stage::Run, span: None, ..python }));
                return None;
            }
            let mut e = crate::error::AnalysisError::new(
                crate::error::Stage::Run,
                "STREAM_FAILED",
                // A legacy error prints without its condition, as Spark's message does.
                if condition.starts_with("_LEGACY_ERROR") {
                    format!("Query [id = {}, runId = {}] terminated with exception: {message}", self.id, self.run_id)
                } else {
                    format!("Query [id = {}, runId = {}] terminated with exception: [{condition}] {message}", self.id, self.run_id)
                },
            )
            .with_hint(if message.contains(crate::pyfunc::PYTHON_WORKER) {
                "the state function raised an error: fix it at the line named (Streamlab runs it in a sandboxed subset of Python and pandas); the batch is run again when the query changes"
            } else if is_ansi_condition(&condition) {
                "Spark 4 runs in ANSI mode: a bad cast, an overflow or a division by zero fails the micro-batch; use try_cast / try_divide, or fix the input"
            } else {
                "fix the value the error names; the batch is run again when the query changes"
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
}

/// True for a condition that ANSI mode raises where legacy Spark returned NULL (a cast, an
/// overflow, a division by zero, an index or a date field out of range): the ones `try_cast`,
/// `try_divide` and their kin avoid (`QueryExecutionErrors`).
fn is_ansi_condition(condition: &str) -> bool {
    ["CAST_", "ARITHMETIC_OVERFLOW", "INTERVAL_ARITHMETIC_OVERFLOW", "DIVIDE_BY_ZERO", "NUMERIC_VALUE_OUT_OF_RANGE", "INVALID_ARRAY_INDEX", "DATETIME_FIELD_OUT_OF_BOUNDS", "CONVERSION_INVALID_INPUT"]
        .iter()
        .any(|p| condition.starts_with(p))
}
