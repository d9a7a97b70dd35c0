//! Execution: runs the analyzed plan over one micro-batch's input.
//!
//! One physical operator per file, named after Spark's `*Exec`: [`aggregate`]
//! (`StateStoreSaveExec`), [`dedup`] (`StreamingDeduplicateExec`), [`limit`]
//! (`StreamingGlobalLimitExec`), [`join`] (stream-static), [`watermark`]
//! (`EventTimeWatermarkExec`), [`window`] (window assignment). Stateless nodes are evaluated
//! inline in [`execute`].

pub mod aggregate;
pub mod column_pruning;
pub mod columnar;
pub mod compare;
pub mod context;
pub mod dedup;
pub mod eval;
pub mod explain;
pub mod functions;
pub mod group_state;
pub mod hll;
pub mod join;
pub mod like;
pub mod limit;
pub mod optimizer;
pub mod session_window;
pub mod sort;
pub mod state_rows;
pub mod stream_join;
pub mod transform_with_state;
pub mod watermark;
pub mod window;

use std::collections::BTreeMap;
use std::rc::Rc;

use arrow_array::RecordBatch;
use rustc_hash::FxHashMap as HashMap;

use crate::analysis::{BoundAgg, BoundExpr, Node, Plan};
use crate::plan::OutputMode;
use crate::types::{EventTime, Row, Value, WatermarkMs};
use aggregate::AggregateState;
use dedup::{DedupSpec, DedupState};
use limit::LimitState;
use watermark::EventTimeStats;

/// Per-batch counters of one stateful operator (the numbers in `StateOperatorProgress`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OperatorMetrics {
    /// Rows (keys) in the operator's state after the batch's commit (`numRowsTotal`).
    pub num_rows_total: u64,
    /// Rows written to the state in this batch (`numRowsUpdated`).
    pub num_rows_updated: u64,
    /// Rows removed from the state in this batch: evicted by the watermark, removed by a state
    /// function, or (session windows) merged into another session (`numRowsRemoved`).
    pub num_rows_removed: u64,
    /// Input rows (for an aggregation: groups) dropped as later than the watermark for late
    /// events (`numRowsDroppedByWatermark`).
    pub num_rows_dropped_by_watermark: u64,
}

/// The state of one stateful operator.
#[derive(Debug, Clone)]
pub enum OperatorState {
    /// A streaming aggregation's groups and buffers (`StateStoreSaveExec`).
    Aggregate(AggregateState),
    /// The keys a streaming deduplication has seen (`StreamingDeduplicateExec`).
    Dedup(DedupState),
    /// How many rows a streaming limit has emitted (`StreamingGlobalLimitExec`).
    Limit(LimitState),
    /// A session-window aggregation's open sessions (`SessionWindowStateStoreSaveExec`).
    Session(session_window::SessionState),
    /// Both sides' buffered rows of a stream-stream join (`StreamingSymmetricHashJoinExec`).
    StreamJoin(stream_join::StreamJoinState),
    /// `applyInPandasWithState`'s per-key `GroupState` (`FlatMapGroupsWithStateExec`).
    GroupState(group_state::GroupStateStore),
    /// `transformWithState`'s per-key state variables and timers (`TransformWithStateExec`).
    Tws(transform_with_state::TwsStore),
}

/// Everything one batch needs besides the plan.
pub struct BatchContext {
    /// This batch's new data per source index ([`SourceInput`]): Arrow blocks, decoded into
    /// rows only when an operator reads them row by row.
    pub inputs: std::cell::RefCell<Vec<SourceInput>>,
    /// The query's output mode, which decides what stateful operators emit and evict.
    pub mode: OutputMode,
    /// The global watermark for dropping late rows: wm(N-1) (Spark's
    /// `eventTimeWatermarkForLateEvents`).
    pub wm_for_late_events_ms: WatermarkMs,
    /// The global watermark for evicting state: wm(N) (Spark's
    /// `eventTimeWatermarkForEviction`).
    pub wm_for_eviction_ms: WatermarkMs,
    /// Each stateful operator's own (late, eviction) watermarks, as
    /// `PropagateWatermarkSimulator` gives them from wm(N-1) and wm(N); an operator not
    /// listed gets 0 for both (its input has no watermark, or the global one is 0).
    pub op_watermarks: BTreeMap<usize, (WatermarkMs, WatermarkMs)>,
    /// The session's state store provider is RocksDB (`transformWithState` needs it).
    pub rocksdb_state_store: bool,
    /// What expressions read besides their row: the batch timestamp, the session time zone,
    /// the error slot.
    pub eval: context::EvalContext,
    /// `spark.sql.shuffle.partitions`: more than one makes a global sort sample its input
    /// ([`sort::sampled_operators`]).
    pub shuffle_partitions: u64,
}

/// One source's new data in a batch: its Arrow blocks in offset order, and its rows once a
/// row-wise reader asked for them (decoded once, only the `used` columns).
#[derive(Debug)]
pub struct SourceInput {
    /// Plan leaves that still read this source.
    pub readers: usize,
    /// The source's new Arrow record batches for this micro-batch, in offset order.
    pub blocks: Vec<RecordBatch>,
    /// The columns some operator reads (`None`: all).
    pub used: Option<Vec<bool>>,
    rows: Option<Vec<Row>>,
}

impl SourceInput {
    /// The number of rows, decoded or not.
    pub fn num_rows(&self) -> usize {
        self.blocks.iter().map(RecordBatch::num_rows).sum()
    }

    /// The rows, decoding the blocks on first use.
    pub fn rows(&mut self) -> &[Row] {
        self.decode();
        self.rows.as_deref().unwrap_or_default()
    }

    fn decode(&mut self) {
        if self.rows.is_none() {
            let used = self.used.as_deref();
            self.rows = Some(self.blocks.iter().flat_map(|b| crate::types::arrow::batch_to_rows_pruned(b, used)).collect());
        }
    }
}

/// What a batch produced besides output rows.
#[derive(Debug, Default)]
pub struct BatchEffects {
    /// Event-time stats per watermark operator index.
    pub stats: BTreeMap<usize, EventTimeStats>,
    /// Metrics per stateful operator id.
    pub metrics: BTreeMap<usize, OperatorMetrics>,
    /// The streaming aggregations (operator ids) whose partial phase read the source's Arrow
    /// blocks as columns ([`columnar`]) in this batch; the others ran row by row.
    pub columnar_aggregations: std::collections::BTreeSet<usize>,
}

impl BatchContext {
    /// A context for `plan` over `inputs`: per source index, its new Arrow blocks and which
    /// of its columns some operator reads (`None`: all; the others decode as NULL).
    pub fn new(plan: &Plan, inputs: Vec<(Vec<RecordBatch>, Option<Vec<bool>>)>, mode: OutputMode, wm_for_late_events_ms: WatermarkMs, wm_for_eviction_ms: WatermarkMs) -> BatchContext {
        let mut readers = vec![0usize; inputs.len()];
        plan.walk(&mut |p| {
            if let Node::Source { index, .. } = &p.node {
                if let Some(r) = readers.get_mut(*index) {
                    *r += 1;
                }
            }
        });
        let inputs = readers.into_iter().zip(inputs).map(|(readers, (blocks, used))| SourceInput { readers, blocks, used, rows: None }).collect();
        BatchContext {
            inputs: std::cell::RefCell::new(inputs),
            mode,
            wm_for_late_events_ms,
            wm_for_eviction_ms,
            op_watermarks: BTreeMap::new(),
            rocksdb_state_store: true,
            eval: context::EvalContext::default(),
            shuffle_partitions: 200,
        }
    }

    /// Source `index`'s rows for one plan leaf that reads them row by row: the last reader
    /// takes them, earlier ones get a copy. Empty for an unknown index.
    pub fn take_rows(&self, index: usize) -> Vec<Row> {
        let mut inputs = self.inputs.borrow_mut();
        let Some(input) = inputs.get_mut(index) else { return Vec::new() };
        input.decode();
        let rows = input.rows.as_mut().expect("decoded above");
        if input.readers <= 1 {
            input.readers = 0;
            std::mem::take(rows)
        } else {
            input.readers -= 1;
            rows.clone()
        }
    }

    /// One plan leaf over source `index` read its blocks as columns (the columnar path): the
    /// source has one reader fewer, so the last row-wise reader takes its rows.
    pub fn release(&self, index: usize) {
        if let Some(input) = self.inputs.borrow_mut().get_mut(index) {
            input.readers = input.readers.saturating_sub(1);
        }
    }

    /// The (late, eviction) watermarks of stateful operator `op_id`.
    pub fn watermarks(&self, op_id: usize) -> (WatermarkMs, WatermarkMs) {
        self.op_watermarks.get(&op_id).copied().unwrap_or((WatermarkMs::ZERO, WatermarkMs::ZERO))
    }
}

/// A Python state operator's rows, its metrics recorded in `fx`; a failure of the Python code
/// fails the batch with its condition and message ([`context::EvalContext::raise`]).
fn python_operator_output(result: Result<(Vec<Row>, OperatorMetrics), group_state::CallError>, op_id: usize, ctx: &BatchContext, fx: &mut BatchEffects) -> Vec<Row> {
    match result {
        Ok((out, m)) => {
            fx.metrics.insert(op_id, m);
            out
        }
        Err((condition, message)) => {
            ctx.eval.raise(&condition, message);
            Vec::new()
        }
    }
}

/// The partial aggregation of `Aggregate { input, keys, aggs }` over rows: what the columnar
/// path ([`columnar::partial_aggregate`]) does not read. A window expansion right below is
/// fused in: each (row, window) pair is fed to the aggregation through one reused row instead
/// of a new row per window.
fn row_wise_partial(
    input: &Plan,
    keys: &[BoundExpr],
    aggs: &[BoundAgg],
    ctx: &BatchContext,
    states: &mut BTreeMap<usize, OperatorState>,
    fx: &mut BatchEffects,
) -> Vec<(Row, Vec<aggregate::AggBuffer>)> {
    let (rows, window) = match &input.node {
        Node::TimeWindow { input: inner, time, spec } => (execute(inner, ctx, states, fx), Some((time, spec))),
        _ => (execute(input, ctx, states, fx), None),
    };
    let mut feed = |f: &mut dyn FnMut(&Row)| match window {
        None => rows.iter().for_each(f),
        Some((time, spec)) => {
            let mut cache: HashMap<i64, Value> = HashMap::default();
            let mut scratch: Row = Vec::new();
            let mut windows = Vec::new();
            for r in &rows {
                let Value::Timestamp(ts) = eval::eval(time, r, &ctx.eval) else { continue };
                if let Err(e) = window::assign_windows_into(ts, spec, &mut windows) {
                    e.raise(&ctx.eval);
                    continue;
                }
                for &(start, end) in &windows {
                    let w = cache.entry(start).or_insert_with(|| Value::Struct(Rc::from(vec![Value::Timestamp(start), Value::Timestamp(end)]))).clone();
                    scratch.clear();
                    scratch.extend(r.iter().cloned());
                    scratch.push(w);
                    f(&scratch);
                }
            }
        }
    };
    aggregate::partial_aggregate(&mut feed, keys, aggs, &ctx.eval)
}

/// Runs `plan` over one batch, updating `states` (keyed by operator id).
pub fn execute(plan: &Plan, ctx: &BatchContext, states: &mut BTreeMap<usize, OperatorState>, fx: &mut BatchEffects) -> Vec<Row> {
    match &plan.node {
        Node::Source { index, .. } => ctx.take_rows(*index),
        Node::Static { rows, .. } => Rc::clone(rows).as_ref().clone(),
        Node::Project { input, exprs, .. } => execute(input, ctx, states, fx)
            .iter()
            .map(|r| exprs.iter().map(|e| eval::eval(e, r, &ctx.eval)).collect())
            .collect(),
        Node::Filter { input, predicate } => {
            execute(input, ctx, states, fx).into_iter().filter(|r| eval::eval_predicate(predicate, r, &ctx.eval)).collect()
        }
        Node::Generate { input, generator, outer, position } => {
            let width = generated_width(plan, input, *position);
            let mut out = Vec::new();
            for r in execute(input, ctx, states, fx) {
                out.extend(generate(&r, eval::eval(generator, &r, &ctx.eval), *outer, *position, width));
            }
            out
        }
        Node::Watermark { input, column, watermark_index, .. } => {
            let rows = execute(input, ctx, states, fx);
            let stats = fx.stats.entry(*watermark_index).or_default();
            for r in &rows {
                let t = r.get(*column).and_then(Value::event_time).unwrap_or(EventTime::EPOCH);
                stats.add(t.floor_millis());
            }
            rows
        }
        Node::TimeWindow { input, time, spec } => {
            let rows = execute(input, ctx, states, fx);
            let mut out = Vec::with_capacity(rows.len() * 2);
            // Rows close in time share windows: reuse each window value (one allocation per
            // distinct window, not per row).
            let mut cache: HashMap<i64, Value> = HashMap::default();
            for mut r in rows {
                let Value::Timestamp(ts) = eval::eval(time, &r, &ctx.eval) else { continue };
                let windows = match window::assign_windows(ts, spec) {
                    Ok(w) => w,
                    Err(e) => {
                        e.raise(&ctx.eval);
                        continue;
                    }
                };
                let n = windows.len();
                for (i, (start, end)) in windows.into_iter().enumerate() {
                    let w = cache
                        .entry(start)
                        .or_insert_with(|| Value::Struct(Rc::from(vec![Value::Timestamp(start), Value::Timestamp(end)])))
                        .clone();
                    if i + 1 == n {
                        // The last window takes the row itself instead of a copy.
                        r.push(w);
                        out.push(std::mem::take(&mut r));
                    } else {
                        let mut row = Vec::with_capacity(r.len() + 1);
                        row.extend(r.iter().cloned());
                        row.push(w);
                        out.push(row);
                    }
                }
            }
            out
        }
        Node::Aggregate { input, keys, aggs, event_time_key, session: Some(spec), op_id, .. } => {
            let rows = execute(input, ctx, states, fx);
            let OperatorState::Session(state) =
                states.entry(*op_id).or_insert_with(|| OperatorState::Session(session_window::SessionState::default()))
            else {
                unreachable!("operator {op_id} is a session-window aggregation")
            };
            let (late, evict) = ctx.watermarks(*op_id);
            let (out, m) = session_window::run_session_aggregate(state, &rows, keys, aggs, spec, event_time_key.is_some(), ctx.mode, late, evict, &ctx.eval);
            fx.metrics.insert(*op_id, m);
            out
        }
        Node::Aggregate { input, keys, aggs, event_time_key, session: None, op_id, .. } => {
            let mut partial = match columnar::partial_aggregate(input, keys, aggs, ctx, fx) {
                Some(partial) => {
                    fx.columnar_aggregations.insert(*op_id);
                    partial
                }
                None => row_wise_partial(input, keys, aggs, ctx, states, fx),
            };
            // A global aggregation (no grouping key) over an empty input still gives its one
            // row, the initial buffers (`AggregationIterator.outputForEmptyGroupingKeyWithoutInput`):
            // the state's row is merged with it and counted updated, and update mode emits it
            // again in every batch that runs, its rows all filtered out or none read.
            if keys.is_empty() && partial.is_empty() {
                partial.push((Vec::new(), aggs.iter().map(|a| aggregate::AggBuffer::new(a.func)).collect()));
            }
            let OperatorState::Aggregate(state) =
                states.entry(*op_id).or_insert_with(|| OperatorState::Aggregate(AggregateState::default()))
            else {
                unreachable!("operator {op_id} is an aggregation")
            };
            let (late, evict) = ctx.watermarks(*op_id);
            let out = aggregate::run_aggregate(state, partial, *event_time_key, ctx.mode, late, evict, &ctx.eval);
            fx.metrics.insert(*op_id, out.metrics);
            out.rows
        }
        Node::Dedup { input, op_id, .. } => {
            let rows = execute(input, ctx, states, fx);
            let spec = DedupSpec::of(&plan.node).expect("a Dedup node");
            let OperatorState::Dedup(state) = states.entry(*op_id).or_insert_with(|| OperatorState::Dedup(DedupState::default())) else {
                unreachable!("operator {op_id} is a dedup")
            };
            let (late, evict) = ctx.watermarks(*op_id);
            let (out, m) = dedup::run_dedup(state, rows, &spec, late, evict);
            fx.metrics.insert(*op_id, m);
            out
        }
        Node::Limit { input, n, op_id } => {
            let rows = execute(input, ctx, states, fx);
            let OperatorState::Limit(state) = states.entry(*op_id).or_insert_with(|| OperatorState::Limit(LimitState::default())) else {
                unreachable!("operator {op_id} is a limit")
            };
            let (out, m) = limit::run_limit(state, rows, *n);
            fx.metrics.insert(*op_id, m);
            out
        }
        Node::FlatMapGroupsWithState { input, keys, udf, state_schema, timeout, event_time_col, op_id, .. } => {
            let rows = execute(input, ctx, states, fx);
            let OperatorState::GroupState(state) =
                states.entry(*op_id).or_insert_with(|| OperatorState::GroupState(group_state::GroupStateStore::default()))
            else {
                unreachable!("operator {op_id} is applyInPandasWithState")
            };
            let (late, evict) = ctx.watermarks(*op_id);
            let input_schema: Vec<(String, crate::types::DataType)> = input.output.iter().map(|a| (a.name.clone(), a.data_type.clone())).collect();
            let output: Vec<(String, crate::types::DataType)> = plan.output.iter().map(|a| (a.name.clone(), a.data_type.clone())).collect();
            let spec = group_state::GroupStateSpec {
                keys,
                udf,
                input: &input_schema,
                output: &output,
                state_schema,
                timeout: *timeout,
                event_time_col: *event_time_col,
            };
            let result = group_state::run_group_state(state, rows, &spec, late, evict, event_time_col.is_some(), &ctx.eval);
            python_operator_output(result, *op_id, ctx, fx)
        }
        Node::TransformWithState { input, keys, processor, time_mode, event_time_col, op_id, .. } => {
            let rows = execute(input, ctx, states, fx);
            if !ctx.rocksdb_state_store {
                // `TransformWithStateExec.validateAndMaybeEvolveStateSchema` on the first batch.
                ctx.eval.raise(
                    "UNSUPPORTED_FEATURE.STORE_BACKEND_NOT_SUPPORTED_FOR_TWS",
                    "The feature is not supported: Store backend org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider is not supported by TransformWithState operator. Please use RocksDBStateStoreProvider.".into(),
                );
                return Vec::new();
            }
            let OperatorState::Tws(state) = states.entry(*op_id).or_insert_with(|| OperatorState::Tws(transform_with_state::TwsStore::default())) else {
                unreachable!("operator {op_id} is transformWithState")
            };
            let (late, evict) = ctx.watermarks(*op_id);
            let input_schema: Vec<(String, crate::types::DataType)> = input.output.iter().map(|a| (a.name.clone(), a.data_type.clone())).collect();
            let output: Vec<(String, crate::types::DataType)> = plan.output.iter().map(|a| (a.name.clone(), a.data_type.clone())).collect();
            let spec = transform_with_state::TwsSpec { keys, processor, input: &input_schema, output: &output, time_mode: *time_mode, event_time_col: *event_time_col };
            let result = transform_with_state::run_transform_with_state(state, rows, &spec, late, evict, event_time_col.is_some(), &ctx.eval);
            python_operator_output(result, *op_id, ctx, fx)
        }
        Node::Window { .. } => unreachable!("window functions are rejected on a stream by the checker and unsupported on a static table"),
        Node::CollectLimit { input, n } => {
            // A limit over a sort is one `TakeOrderedAndProjectExec`: no range exchange, so
            // nothing is sampled and every metric counts once.
            // `Limit(Project(Sort))` is `TakeOrderedAndProjectExec` too, with the projection.
            let sorted_unsampled = |sorted: &Plan, states: &mut BTreeMap<usize, OperatorState>, fx: &mut BatchEffects| match &sorted.node {
                Node::Sort { input, order } => {
                    let mut rows = execute(input, ctx, states, fx);
                    sort::sort_rows(&mut rows, order, &ctx.eval);
                    Some(rows)
                }
                _ => None,
            };
            let mut rows = match &input.node {
                Node::Sort { .. } => sorted_unsampled(input, states, fx).unwrap_or_default(),
                Node::Project { input: sorted, exprs, .. } if matches!(sorted.node, Node::Sort { .. }) => sorted_unsampled(sorted, states, fx)
                    .unwrap_or_default()
                    .iter()
                    .map(|r| exprs.iter().map(|e| eval::eval(e, r, &ctx.eval)).collect())
                    .collect(),
                _ => execute(input, ctx, states, fx),
            };
            rows.truncate(*n);
            rows
        }
        Node::StaticJoin { left, right, join } => {
            let l = execute(left, ctx, states, fx);
            let r = execute(right, ctx, states, fx);
            join::run_static_join(&l, &r, left.output.len(), join, &ctx.eval)
        }
        // Spark plans a stream-stream join only on an equality of the two sides
        // (`StreamingSymmetricHashJoinExec`): without one, the first batch fails while it is
        // planned (recorded: `sw3-min-ss-join-no-condition`, a cross join, a range only).
        Node::StreamJoin { left, join, .. } if join.keys.is_empty() && !crate::analysis::join_helper::has_equality(join.condition.as_ref(), left.output.len()) => {
            ctx.eval.raise("_LEGACY_ERROR_TEMP_1181", "Stream-stream join without equality predicate is not supported.".into());
            Vec::new()
        }
        Node::StreamJoin { left, right, join, spec, op_id } => {
            let l = execute(left, ctx, states, fx);
            let r = execute(right, ctx, states, fx);
            let OperatorState::StreamJoin(state) =
                states.entry(*op_id).or_insert_with(|| OperatorState::StreamJoin(stream_join::StreamJoinState::default()))
            else {
                unreachable!("operator {op_id} is a stream-stream join")
            };
            let (late, evict) = ctx.watermarks(*op_id);
            let (out, m) = stream_join::run_stream_join(state, l, r, left.output.len(), join, spec, late, evict, &ctx.eval);
            fx.metrics.insert(*op_id, m);
            out
        }
        Node::Union { inputs } => inputs.iter().flat_map(|i| execute(i, ctx, states, fx)).collect(),
        Node::Sort { input, order } => {
            let mut rows = execute(input, ctx, states, fx);
            sort::count_sampling_run(&mut fx.metrics, &sort::sampled_operators(input, ctx.shuffle_partitions));
            sort::sort_rows(&mut rows, order, &ctx.eval);
            rows
        }
    }
}

/// True if a stateful operator of `plan` asks for a no-data batch (`shouldRunAnotherBatch`):
/// [`operators_wanting_another_batch`] is not empty.
pub fn wants_another_batch(plan: &Plan, mode: OutputMode, prev: &BTreeMap<usize, WatermarkMs>, next: &BTreeMap<usize, WatermarkMs>) -> bool {
    !operators_wanting_another_batch(plan, mode, prev, next).is_empty()
}

/// The stateful operators of `plan` (ids, root-first) that ask for a no-data batch
/// (`shouldRunAnotherBatch`): those whose eviction watermark, propagated from the
/// new global watermark (`next`, by operator id, ms), is above the one they used in the last
/// batch (`prev`). Aggregations and session windows ask only in append and update mode,
/// deduplication always, a stream-stream join only if one of its sides has a state
/// watermark; a limit never asks.
pub fn operators_wanting_another_batch(plan: &Plan, mode: OutputMode, prev: &BTreeMap<usize, WatermarkMs>, next: &BTreeMap<usize, WatermarkMs>) -> Vec<usize> {
    let mut wanting = Vec::new();
    plan.walk(&mut |p| {
        let moved = |op: &usize| next.get(op).copied().unwrap_or(WatermarkMs::ZERO) > prev.get(op).copied().unwrap_or(WatermarkMs::ZERO);
        let (op_id, wants) = match &p.node {
            Node::Aggregate { op_id, .. } => (op_id, mode != OutputMode::Complete && moved(op_id)),
            Node::Dedup { op_id, .. } => (op_id, moved(op_id)),
            // `FlatMapGroupsWithStateExec.shouldRunAnotherBatch`: with EventTimeTimeout when the
            // watermark moved. (ProcessingTimeTimeout asks always in Spark, one batch per
            // trigger; the lab has no wall clock: `StreamingQuery` runs one when a key's
            // timeout is before its clock.)
            Node::FlatMapGroupsWithState { op_id, timeout: crate::pyfunc::GroupStateTimeout::EventTimeTimeout, .. } => (op_id, moved(op_id)),
            // `TransformWithStateExec.shouldRunAnotherBatch` with EventTime: the watermark moved.
            Node::TransformWithState { op_id, time_mode: crate::pyfunc::TimeMode::EventTime, .. } => (op_id, moved(op_id)),
            Node::StreamJoin { spec, op_id, .. } => {
                let cleans = spec.left_state != crate::analysis::StateWatermark::None || spec.right_state != crate::analysis::StateWatermark::None;
                (op_id, cleans && moved(op_id))
            }
            _ => return,
        };
        if wants {
            wanting.push(*op_id);
        }
    });
    wanting
}

/// The columns a `Generate` adds besides `pos`: two for a map (`key`, `value`), one for an
/// array's elements (`col`).
pub(crate) fn generated_width(plan: &Plan, input: &Plan, position: bool) -> usize {
    plan.output.len().saturating_sub(input.output.len() + usize::from(position))
}

/// The rows `explode`/`posexplode` (`_outer`) make of input row `r` and its generator's value:
/// one per array element or map entry, in order (`pos` first when asked); none for an empty
/// or NULL value, unless `outer`, which gives one row of NULLs.
pub(crate) fn generate(r: &Row, value: Value, outer: bool, position: bool, width: usize) -> Vec<Row> {
    let items: Vec<Vec<Value>> = match value {
        Value::Array(items) => items.iter().map(|v| vec![v.clone()]).collect(),
        Value::Map(entries) => entries.iter().map(|(k, v)| vec![k.clone(), v.clone()]).collect(),
        _ => Vec::new(),
    };
    if items.is_empty() {
        if !outer {
            return Vec::new();
        }
        let mut row = r.clone();
        row.extend(std::iter::repeat_n(Value::Null, width + usize::from(position)));
        return vec![row];
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let mut row = r.clone();
            if position {
                row.push(Value::Int(i as i32));
            }
            row.extend(item);
            row
        })
        .collect()
}
