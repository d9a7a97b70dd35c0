//! Why each row of a micro-batch ended where it did: the engine explaining itself, for the
//! lab's time picture and its narration. The explanation is computed by the engine from the
//! same plan, predicates, window assignment and late/eviction rules that [`super::execute`]
//! runs (no rule lives twice), before the batch changes any state.
//!
//! Shapes and units: event times are µs since the epoch (as [`crate::types::Value`] holds
//! timestamps), watermarks are ms (as Spark's `WatermarkTracker` holds them), batch ids are
//! Spark's (0-based). One input row can have several fates: a row feeding two sliding windows
//! has one fate per window, an exploded row one per element.
//!
//! Which watermark decides what (`IncrementalExecution`'s state rule): a row is late
//! for a stateful operator when its event time (for a window: the window's end) is at or below
//! the operator's `eventTimeWatermarkForLateEvents` — batch N-1's watermark; state is evicted
//! against `eventTimeWatermarkForEviction` — batch N's watermark.
//!
//! # Layout
//! The types ([`BatchExplanation`] → [`RowExplanation`] → [`RowFate`], [`BatchReason`],
//! [`OperatorSummary`]) and [`trace`], which `StreamingQuery` runs when
//! [`crate::streaming::StreamingQuery::set_explaining`] is on. The trace follows each row
//! (by its index among the batch's input rows) through the same node functions and rules as
//! `execute`: [`super::aggregate::key_is_past`], [`super::session_window::row_session`] /
//! [`super::session_window::session_is_past`] / [`super::session_window::merge_sessions`],
//! [`super::dedup::DedupSpec`]'s `is_late` / `evicts_at_us`, [`super::stream_join::row_is_late`]
//! / [`super::stream_join::evicts_at_us`], [`super::limit::room`],
//! [`super::join::run_static_join_with`].
//!
//! # Examples
//! ```
//! use streamlab_engine::execution::explain::RowFate;
//! use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
//! use streamlab_engine::types::Value;
//! use streamlab_engine::workloads::catalog;
//!
//! let mut q = StreamingQuery::start("clicks.filter(F.col('post_id') < 50)", &catalog(), OutputMode::Append, StreamingConf::default()).unwrap();
//! q.set_explaining(true);
//! let row = |post: i64| vec![Value::str("e"), Value::str("u"), Value::Long(post), Value::Timestamp(0)];
//! q.add_data("clicks", &[row(60), row(7)]).unwrap();
//! let e = q.run_next_batch().unwrap().explanation.unwrap();
//! assert_eq!(e.rows[0].fates, vec![RowFate::Filtered { predicate: "(post_id < 50)".into() }]);
//! assert_eq!(e.rows[1].fates, vec![RowFate::Emitted { index: 0 }]);
//! ```

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use super::dedup::DedupSpec;
use super::eval::{eval, eval_predicate};
use super::stream_join::{self, Buffered};
use super::{aggregate, limit, session_window, window, BatchContext, OperatorState};
use crate::analysis::plan::show_expr;
use crate::analysis::{Attr, Node, Plan, WindowKind};
use crate::plan::JoinType;
use crate::state::StateStore;
use crate::types::{Row, Value};

/// A join input's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JoinSide {
    /// The side the join was called on (`left.join(right, ...)`).
    Left,
    /// The joined side.
    Right,
}

/// What happened to one input row (or one of its copies) at one operator.
#[derive(Debug, Clone, PartialEq)]
pub enum RowFate {
    /// A filter dropped it; `predicate` is the condition as Spark prints it
    /// ([`crate::analysis::plan::show_expr`]): a `Filter`'s condition, a filter Spark adds
    /// itself (`isnotnull(event_time)` below a time window, `(isnotnull(session_window) AND
    /// (session_window.end > session_window.start))` for a session with no time or no gap,
    /// `((size(tags, true) > 0) AND isnotnull(tags))` before `explode`), or a stream-stream
    /// join's conditions that read only the row's own side (on an outer side the row is then
    /// emitted at once with nulls for the other side).
    Filtered {
        /// The dropping condition as Spark prints it (or `LeftAnti` for a left anti join).
        predicate: String,
    },
    /// A stateful operator dropped it as late: its event time (`window`'s end for a window
    /// aggregation, the row's event time otherwise; µs) was at or below the operator's
    /// `eventTimeWatermarkForLateEvents` (`watermark_ms`). Counted in that operator's
    /// `numRowsDroppedByWatermark` (once per window: a row late for two sliding windows counts
    /// 2, as Spark counts partially aggregated rows).
    ///
    /// For a session window `event_time_us` is the end of the row's own session and `window`
    /// that session. `key` is the grouping key of an aggregation (without the window column):
    /// a window aggregation drops and counts late *groups* after partial aggregation, so two
    /// late rows of one key and window count 1 in `numRowsDroppedByWatermark`; `None` for
    /// the other operators, which count each late row.
    Late {
        /// The id of the stateful operator that dropped it.
        op_id: usize,
        /// That operator's name in progress (`stateStoreSave`, `dedupe`, ...).
        operator: String,
        /// The time judged against the watermark, µs since the epoch.
        event_time_us: i64,
        /// The operator's `eventTimeWatermarkForLateEvents`, ms since the epoch.
        watermark_ms: i64,
        /// The window or session `[start, end)` the row fell in, µs; `None` without one.
        window: Option<(i64, i64)>,
        /// The aggregation's grouping key without the window column; `None` for the other
        /// operators.
        key: Option<Row>,
    },
    /// An aggregation took it into the group `key` (the grouping values without the window
    /// column; for a window aggregation, `window` is the window's [start, end) in µs; for a
    /// session window, the session it joined or started, as merged with the stored sessions
    /// and this batch's rows).
    Aggregated {
        /// The id of the aggregation.
        op_id: usize,
        /// The grouping values, without the window column.
        key: Row,
        /// The window or session `[start, end)`, µs; `None` for a plain `groupBy`.
        window: Option<(i64, i64)>,
    },
    /// `dropDuplicates` dropped it: its key was already in the state store (`in_batch` false)
    /// or came earlier in the same batch (`in_batch` true). `expires_at_us` is when the key's
    /// state row goes (`None`: kept forever).
    Deduplicated {
        /// The id of the deduplication.
        op_id: usize,
        /// The row's deduplication key (the key columns' values).
        key: Row,
        /// The key's first row came earlier in this batch (not from the state store).
        in_batch: bool,
        /// When the key's state row is evicted, µs since the epoch; `None`: kept forever.
        expires_at_us: Option<i64>,
    },
    /// `dropDuplicates` kept it as the first of its key; the key is kept until
    /// `expires_at_us` (`None`: forever).
    FirstOfKey {
        /// The id of the deduplication.
        op_id: usize,
        /// The row's deduplication key (the key columns' values).
        key: Row,
        /// When the key's state row is evicted, µs since the epoch; `None`: kept forever.
        expires_at_us: Option<i64>,
    },
    /// A stream-stream join buffered it on `side`, matched it with `partners` rows of the
    /// other side (in state or in this batch), and keeps it until the state watermark reaches
    /// `evicts_at_us` (µs; `None`: kept forever — no state watermark on this side). For a left
    /// semi join `partners` counts the rows that match it (it is emitted once, if any).
    Joined {
        /// The id of the stream-stream join.
        op_id: usize,
        /// The join input the row came from.
        side: JoinSide,
        /// How many rows of the other side it matched.
        partners: usize,
        /// When its buffered copy is evicted, µs since the epoch; `None`: kept forever.
        evicts_at_us: Option<i64>,
    },
    /// A stream-static join found no static row for it (an inner, semi or one-sided outer
    /// join whose other side must match), so it goes no further. (A left anti join that
    /// finds a match gives [`RowFate::Filtered`] with the predicate `LeftAnti`.)
    NoStaticMatch,
    /// A streaming `limit` had already emitted its `n` rows.
    OverLimit {
        /// The id of the streaming limit.
        op_id: usize,
    },
    /// It reached the sink as output row `index` of the batch (stateless queries only: after
    /// an aggregation the output is the aggregation's, see `Aggregated`).
    Emitted {
        /// The row's position among the batch's output rows (0-based).
        index: usize,
    },
}

/// The coarse kind of a fate, for a mark's colour and shape on the time picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FateKind {
    /// Taken into state or emitted.
    Kept,
    /// Dropped as late by a stateful operator ([`RowFate::Late`]).
    Late,
    /// Dropped by a filter, a stream-static join miss or a streaming limit.
    Filtered,
    /// Dropped as a duplicate ([`RowFate::Deduplicated`]).
    Deduplicated,
    /// Joined with at least one partner row ([`RowFate::Joined`] with `partners > 0`).
    Joined,
}

impl RowFate {
    /// The fate's kind.
    pub fn kind(&self) -> FateKind {
        match self {
            RowFate::Filtered { .. } | RowFate::NoStaticMatch | RowFate::OverLimit { .. } => FateKind::Filtered,
            RowFate::Late { .. } => FateKind::Late,
            RowFate::Deduplicated { .. } => FateKind::Deduplicated,
            RowFate::Joined { partners, .. } if *partners > 0 => FateKind::Joined,
            RowFate::Aggregated { .. } | RowFate::FirstOfKey { .. } | RowFate::Joined { .. } | RowFate::Emitted { .. } => FateKind::Kept,
        }
    }
}

/// One input row of the batch and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct RowExplanation {
    /// The source it was read from (the `MemoryStream`'s name).
    pub source: String,
    /// Its offset in that source (0-based, over the whole stream).
    pub offset: usize,
    /// The row as the source holds it.
    pub row: Row,
    /// Its event time (the watermarked column), µs; `None` if the query has no watermark on
    /// this source or the value is null.
    pub event_time_us: Option<i64>,
    /// What happened to it, in plan order (upstream first); never empty.
    pub fates: Vec<RowFate>,
}

impl RowExplanation {
    /// The kind the picture shows: late beats filtered beats deduplicated beats joined beats
    /// kept (a row late for one sliding window and kept for the other is shown late).
    pub fn kind(&self) -> FateKind {
        let kinds: Vec<FateKind> = self.fates.iter().map(RowFate::kind).collect();
        [FateKind::Late, FateKind::Filtered, FateKind::Deduplicated, FateKind::Joined].into_iter().find(|k| kinds.contains(k)).unwrap_or(FateKind::Kept)
    }
}

/// Why a micro-batch ran (`MicroBatchExecution.constructNextBatch`).
#[derive(Debug, Clone, PartialEq)]
pub enum BatchReason {
    /// New rows arrived (`rows` in all).
    NewData {
        /// The number of new input rows over all sources.
        rows: u64,
    },
    /// No new rows, but `shouldRunAnotherBatch`: stateful operator `op_id`'s eviction
    /// watermark moved from `from_ms` to `to_ms`, past the deadline of some state row.
    WatermarkMoved {
        /// The first operator (root-first) whose eviction watermark moved.
        op_id: usize,
        /// That operator's name in progress.
        operator: String,
        /// Its eviction watermark in the previous batch, ms.
        from_ms: i64,
        /// Its eviction watermark in this batch, ms.
        to_ms: i64,
    },
    /// A batch logged before a restart, run again exactly as logged.
    Recovered,
    /// No new rows, but an `applyInPandasWithState` with `ProcessingTimeTimeout` (operator
    /// `op_id`) holds a key whose timeout is before the query's clock `clock_ms`.
    ProcessingTimeTimeout {
        /// The `applyInPandasWithState` operator's id.
        op_id: usize,
        /// Its name in progress.
        operator: String,
        /// The query's clock when the batch ran, ms since the epoch.
        clock_ms: i64,
    },
}

/// What a stateful operator did in the batch, for the narration; the numbers are the batch's
/// `StateOperatorProgress`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorSummary {
    /// The operator's id (root-first, as Spark's `IncrementalExecution` numbers them).
    pub op_id: usize,
    /// Its name in progress (`stateStoreSave`, `dedupe`, `symmetricHashJoin`, ...).
    pub operator: String,
    /// `eventTimeWatermarkForLateEvents` / `…ForEviction` of the operator, ms.
    pub wm_for_late_events_ms: i64,
    /// The operator's `eventTimeWatermarkForEviction` (batch N's watermark as propagated to
    /// it), ms.
    pub wm_for_eviction_ms: i64,
    /// `numRowsDroppedByWatermark`: late rows (late groups for a window aggregation).
    pub num_rows_dropped_by_watermark: u64,
    /// `numRowsUpdated`: state rows written.
    pub num_rows_updated: u64,
    /// `numRowsRemoved`: state rows evicted (or, for a session window, merged away).
    pub num_rows_removed: u64,
    /// `numRowsTotal`: state rows after the batch.
    pub num_rows_total: u64,
    /// How many times Spark ran the operator in this batch: 2 when a global sort's range
    /// exchange sampled it first (`orderBy` after a Complete-mode aggregation, see
    /// `execution::sort`), else 1. The four metrics above are sums over the runs.
    pub runs: u64,
}

/// Everything one micro-batch did, row by row.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchExplanation {
    /// The batch's id (0-based).
    pub batch_id: u64,
    /// Why it ran.
    pub reason: BatchReason,
    /// The global watermark the batch ran with (wm(N)), ms; `None` without a watermark.
    pub watermark_ms: Option<i64>,
    /// The global watermark after the batch (the next batch's), ms.
    pub next_watermark_ms: Option<i64>,
    /// Every input row, source by source, in offset order.
    pub rows: Vec<RowExplanation>,
    /// Rows the sink received (the sink's `numOutputRows` for a V2 sink).
    pub emitted_rows: u64,
    /// One per stateful operator, downstream first (as in progress).
    pub operators: Vec<OperatorSummary>,
}

/// A row on its way through the trace: the batch input row it came from (its index in
/// [`Trace::fates`]), or `None` for a row of a static table.
type Traced = (Option<usize>, Row);

/// The fates of every input row of one batch, by input index (source by source, in the
/// order the sources were given; rows in offset order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// What became of each input row, upstream first.
    pub fates: Vec<Vec<RowFate>>,
    /// Each row's event time (µs) at the first watermark it passed.
    pub event_time_us: Vec<Option<i64>>,
}

/// Traces every input row of a batch through `plan`: the same predicates, window
/// assignment and late, dedup, join and limit rules that [`super::execute`] runs, read-only
/// over `states` (the state as the batch starts). Run it before `execute` takes the rows
/// from `ctx`. Lineage ends at an aggregation and at a stream-stream join (their output is
/// the operator's, not a row's); where it reaches the sink, each row gets
/// [`RowFate::Emitted`] with its index among the batch's output rows.
///
/// An expression that raises an ANSI error records it as `execute` would; the caller clears
/// it before running the batch (`execute` raises it again).
pub fn trace(plan: &Plan, ctx: &BatchContext, states: &BTreeMap<usize, OperatorState>) -> Trace {
    let inputs = ctx.inputs.borrow();
    let mut bases = Vec::with_capacity(inputs.len());
    let mut total = 0;
    for input in inputs.iter() {
        bases.push(total);
        total += input.num_rows();
    }
    drop(inputs);
    let names = plan.stateful_operators().into_iter().map(|(id, n)| (id, n.to_string())).collect();
    let cx = super::context::EvalContext::new(ctx.eval.batch_timestamp_ms, ctx.eval.time_zone.clone());
    let mut t = Tracer { ctx, cx: &cx, states, bases, names, out: Trace { fates: vec![Vec::new(); total], event_time_us: vec![None; total] } };
    let rows = t.run(plan);
    if lineage_reaches_sink(plan) {
        for (index, (origin, _)) in rows.iter().enumerate() {
            t.fate(*origin, RowFate::Emitted { index });
        }
    }
    t.out
}

/// The names of the values in each stateful operator's fate `key` ([`RowFate::Aggregated`],
/// [`RowFate::Late`], [`RowFate::Deduplicated`], [`RowFate::FirstOfKey`]), by operator id, so
/// a key can be shown as `user_id = u3`: an aggregation's grouping columns without its window
/// or session column, `applyInPandasWithState`'s and `transformWithState`'s grouping expressions, the `dropDuplicates`
/// columns. Operators whose fates carry no key are absent.
///
/// # Examples
/// ```
/// use streamlab_engine::execution::explain::key_columns;
/// use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
/// use streamlab_engine::workloads::catalog;
///
/// let text = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()";
/// let q = StreamingQuery::start(text, &catalog(), OutputMode::Append, StreamingConf::default()).unwrap();
/// assert_eq!(key_columns(q.plan()).get(&0), Some(&vec!["post_id".to_string()]));
/// ```
pub fn key_columns(plan: &Plan) -> BTreeMap<usize, Vec<String>> {
    let mut out = BTreeMap::new();
    plan.walk(&mut |p| match &p.node {
        Node::Aggregate { keys, session, op_id, .. } => {
            // The grouping columns lead the output; the session column stands among them at
            // its position (not one of `keys`), a time window is one of `keys`.
            let (n, skip) = match session {
                Some(spec) => (keys.len() + 1, Some(spec.position)),
                None => (keys.len(), window_column(&p.output[..keys.len().min(p.output.len())])),
            };
            let names = p.output.iter().take(n).enumerate().filter(|(i, _)| Some(*i) != skip).map(|(_, a)| a.name.clone()).collect();
            out.insert(*op_id, names);
        }
        Node::FlatMapGroupsWithState { input, keys, op_id, .. } | Node::TransformWithState { input, keys, op_id, .. } => {
            out.insert(*op_id, keys.iter().map(|k| show_expr(k, &input.output)).collect());
        }
        Node::Dedup { input, keys, op_id, .. } => {
            out.insert(*op_id, keys.iter().map(|i| input.output.get(*i).map_or_else(|| format!("#{i}"), |a| a.name.clone())).collect());
        }
        _ => {}
    });
    out
}

/// True if output rows can be followed back to input rows: no aggregation, no stream-stream
/// join and no state function in the plan.
fn lineage_reaches_sink(plan: &Plan) -> bool {
    let mut ok = true;
    plan.walk(&mut |p| ok &= !matches!(p.node, Node::Aggregate { .. } | Node::StreamJoin { .. } | Node::FlatMapGroupsWithState { .. } | Node::TransformWithState { .. }));
    ok
}

struct Tracer<'a> {
    ctx: &'a BatchContext,
    /// Its own evaluation context (same batch time and zone): the trace is read-only, and
    /// an error it meets is the batch's to raise, not the trace's.
    cx: &'a super::context::EvalContext,
    states: &'a BTreeMap<usize, OperatorState>,
    /// Index of each source's first row among all input rows.
    bases: Vec<usize>,
    /// Progress names of the stateful operators, by id.
    names: BTreeMap<usize, String>,
    out: Trace,
}

impl Tracer<'_> {
    fn fate(&mut self, origin: Option<usize>, fate: RowFate) {
        if let Some(f) = origin.and_then(|o| self.out.fates.get_mut(o)) {
            f.push(fate);
        }
    }

    fn name(&self, op_id: usize) -> String {
        self.names.get(&op_id).cloned().unwrap_or_default()
    }

    /// `execute` over traced rows, without touching state.
    fn run(&mut self, plan: &Plan) -> Vec<Traced> {
        match &plan.node {
            Node::Source { index, .. } => {
                let mut inputs = self.ctx.inputs.borrow_mut();
                let base = self.bases.get(*index).copied().unwrap_or(0);
                inputs.get_mut(*index).map(|input| input.rows().iter().enumerate().map(|(k, r)| (Some(base + k), r.clone())).collect()).unwrap_or_default()
            }
            Node::Static { rows, .. } => rows.iter().map(|r| (None, r.clone())).collect(),
            Node::Project { input, exprs, .. } => self.run(input).into_iter().map(|(o, r)| (o, exprs.iter().map(|e| eval(e, &r, self.cx)).collect())).collect(),
            Node::Filter { input, predicate } => {
                let rows = self.run(input);
                let text = show_expr(predicate, &input.output);
                let cx = self.cx;
                self.keep(rows, |r| eval_predicate(predicate, r, cx), &text)
            }
            Node::Generate { input, generator, outer, position } => {
                let rows = self.run(input);
                let g = show_expr(generator, &input.output);
                let mut out = Vec::new();
                let width = super::generated_width(plan, input, *position);
                for (o, r) in rows {
                    let made = super::generate(&r, eval(generator, &r, self.cx), *outer, *position, width);
                    if made.is_empty() {
                        self.fate(o, RowFate::Filtered { predicate: format!("((size({g}, true) > 0) AND isnotnull({g}))") });
                    }
                    out.extend(made.into_iter().map(|row| (o, row)));
                }
                out
            }
            Node::Watermark { input, column, .. } => {
                let rows = self.run(input);
                for (o, r) in &rows {
                    if let Some(slot) = o.and_then(|o| self.out.event_time_us.get_mut(o)) {
                        if slot.is_none() {
                            *slot = r.get(*column).and_then(Value::event_time_us);
                        }
                    }
                }
                rows
            }
            Node::TimeWindow { input, time, spec } => {
                let rows = self.run(input);
                let mut out = Vec::new();
                for (o, r) in rows {
                    let Value::Timestamp(ts) = eval(time, &r, self.cx) else {
                        self.fate(o, RowFate::Filtered { predicate: format!("isnotnull({})", show_expr(time, &input.output)) });
                        continue;
                    };
                    // A window bound that overflows fails the batch (execute raises it).
                    for (start, end) in window::assign_windows(ts, spec).unwrap_or_default() {
                        let mut row = r.clone();
                        row.push(window_value(start, end));
                        out.push((o, row));
                    }
                }
                out
            }
            Node::Aggregate { input, keys, event_time_key, session: None, op_id, .. } => {
                let rows = self.run(input);
                let (late_ms, _) = self.ctx.watermarks(*op_id);
                let watermarked = aggregate::watermarked_key(*event_time_key, self.ctx.mode);
                let window_at = window_column(&plan.output[..keys.len().min(plan.output.len())]);
                let operator = self.name(*op_id);
                for (o, r) in rows {
                    let key: Row = keys.iter().map(|k| eval(k, &r, self.cx)).collect();
                    let window = window_at.and_then(|i| key.get(i)).and_then(window_bounds);
                    let shown: Row = key.iter().enumerate().filter(|(i, _)| Some(*i) != window_at).map(|(_, v)| v.clone()).collect();
                    if aggregate::key_is_past(&key, watermarked, late_ms) {
                        let event_time_us = watermarked.and_then(|i| key.get(i)).and_then(Value::event_time_us).unwrap_or_default();
                        self.fate(o, RowFate::Late { op_id: *op_id, operator: operator.clone(), event_time_us, watermark_ms: late_ms.ms(), window, key: Some(shown) });
                    } else {
                        self.fate(o, RowFate::Aggregated { op_id: *op_id, key: shown, window });
                    }
                }
                Vec::new()
            }
            Node::Aggregate { input, keys, event_time_key, session: Some(spec), op_id, .. } => {
                let rows = self.run(input);
                self.session_aggregate(plan, input, keys, spec, event_time_key.is_some(), *op_id, rows);
                Vec::new()
            }
            // `applyInPandasWithState`: a row is late (only with EventTimeTimeout) or handed to
            // the function under its key; what the function makes of it is the function's.
            Node::FlatMapGroupsWithState { input, keys, event_time_col, op_id, .. } | Node::TransformWithState { input, keys, event_time_col, op_id, .. } => {
                let timeout = match &plan.node {
                    Node::TransformWithState { time_mode, .. } => super::transform_with_state::as_timeout(*time_mode),
                    Node::FlatMapGroupsWithState { timeout, .. } => *timeout,
                    _ => unreachable!("matched above"),
                };
                let timeout = &timeout;
                let rows = self.run(input);
                let (late_ms, _) = self.ctx.watermarks(*op_id);
                let operator = self.name(*op_id);
                for (o, r) in rows {
                    let key: Row = keys.iter().map(|k| eval(k, &r, self.cx)).collect();
                    let t = event_time_col.and_then(|c| r.get(c)).and_then(Value::event_time_us);
                    if super::group_state::row_is_late(*timeout, t, late_ms) {
                        let fate = RowFate::Late { op_id: *op_id, operator: operator.clone(), event_time_us: t.unwrap_or_default(), watermark_ms: late_ms.ms(), window: None, key: Some(key) };
                        self.fate(o, fate);
                    } else {
                        self.fate(o, RowFate::Aggregated { op_id: *op_id, key, window: None });
                    }
                }
                Vec::new()
            }
            Node::Dedup { input, op_id, .. } => {
                let rows = self.run(input);
                let spec = DedupSpec::of(&plan.node).expect("a Dedup node");
                self.dedup(&spec, *op_id, rows)
            }
            Node::Limit { input, n, op_id } => {
                let rows = self.run(input);
                let room = match self.states.get(op_id) {
                    Some(OperatorState::Limit(state)) => limit::room(state, *n),
                    _ => *n,
                };
                let mut out = Vec::new();
                for (i, (o, r)) in rows.into_iter().enumerate() {
                    if i < room {
                        out.push((o, r));
                    } else {
                        self.fate(o, RowFate::OverLimit { op_id: *op_id });
                    }
                }
                out
            }
            Node::CollectLimit { input, n } => {
                let mut rows = self.run(input);
                rows.truncate(*n);
                rows
            }
            Node::StaticJoin { left, right, join } => {
                let l = self.run(left);
                let r = self.run(right);
                self.static_join(left.output.len(), join, l, r)
            }
            Node::StreamJoin { left, right, join, spec, op_id } => {
                let l = self.run(left);
                let r = self.run(right);
                self.stream_join(left, right, join, spec, *op_id, l, r);
                Vec::new()
            }
            Node::Union { inputs } => {
                let mut out = Vec::new();
                for i in inputs {
                    out.extend(self.run(i));
                }
                out
            }
            // Only over a Complete-mode aggregation, where no row is traced any more.
            Node::Sort { input, .. } => self.run(input),
            Node::Window { .. } => Vec::new(),
        }
    }

    /// Keeps the rows `pass` accepts; the others are filtered by `predicate`.
    fn keep(&mut self, rows: Vec<Traced>, pass: impl Fn(&Row) -> bool, predicate: &str) -> Vec<Traced> {
        let mut out = Vec::with_capacity(rows.len());
        for (o, r) in rows {
            if pass(&r) {
                out.push((o, r));
            } else {
                self.fate(o, RowFate::Filtered { predicate: predicate.to_string() });
            }
        }
        out
    }

    /// A session-window aggregation: each row's own session, late or merged with the
    /// stored sessions of its key and this batch's other sessions
    /// ([`session_window::merge_sessions`]).
    #[allow(clippy::too_many_arguments)]
    fn session_aggregate(&mut self, plan: &Plan, input: &Plan, keys: &[crate::analysis::BoundExpr], spec: &crate::analysis::SessionSpec, watermarked: bool, op_id: usize, rows: Vec<Traced>) {
        let (late_ms, _) = self.ctx.watermarks(op_id);
        let operator = self.name(op_id);
        let session_col = plan.output.get(spec.position).map_or("session_window", |a| a.name.as_str());
        let mut cache = session_window::GapCache::new();
        // Per key: (start, end, rows) of each new session, in input order.
        let mut new: BTreeMap<Row, Vec<(i64, i64, Vec<usize>)>> = BTreeMap::new();
        for (o, r) in rows {
            match session_window::row_session(spec, &r, &mut cache, self.cx) {
                session_window::RowSession::Empty => self.fate(
                    o,
                    RowFate::Filtered { predicate: format!("(isnotnull({session_col}) AND ({session_col}.end > {session_col}.start))") },
                ),
                session_window::RowSession::FilteredOut => {
                    let mut attrs: Vec<Attr> = input.output.clone();
                    attrs.extend(plan.output.get(spec.position).cloned());
                    let predicate = spec.row_filter.as_ref().map(|f| show_expr(f, &attrs)).unwrap_or_default();
                    self.fate(o, RowFate::Filtered { predicate });
                }
                session_window::RowSession::Session { start, end } => {
                    let key: Row = keys.iter().map(|k| eval(k, &r, self.cx)).collect();
                    if watermarked && session_window::session_is_past(end, late_ms) {
                        self.fate(o, RowFate::Late { op_id, operator: operator.clone(), event_time_us: end, watermark_ms: late_ms.ms(), window: Some((start, end)), key: Some(key) });
                    } else if let Some(o) = o {
                        new.entry(key).or_default().push((start, end, vec![o]));
                    }
                }
            }
        }
        let stored = match self.states.get(&op_id) {
            Some(OperatorState::Session(s)) => Some(&s.store),
            _ => None,
        };
        for (key, sessions) in new {
            let old = stored.and_then(|s| s.get(&key)).map(|ss| ss.iter().map(|s| (s.start, s.end, Vec::new())).collect::<Vec<_>>()).unwrap_or_default();
            let mut all: Vec<(i64, i64, Vec<usize>)> = old.into_iter().chain(sessions).collect();
            all.sort_by_key(|s| s.0);
            let merged = session_window::merge_sessions(all, |s| (s.0, s.1), |s, end| s.1 = end, |cur, s| cur.2.extend(s.2.iter().copied()));
            for (start, end, origins) in merged {
                for o in origins {
                    self.fate(Some(o), RowFate::Aggregated { op_id, key: key.clone(), window: Some((start, end)) });
                }
            }
        }
    }

    /// `dropDuplicates`: late, duplicate of a stored key or of an earlier row of the batch,
    /// or the first of its key (passed on).
    fn dedup(&mut self, spec: &DedupSpec, op_id: usize, rows: Vec<Traced>) -> Vec<Traced> {
        let (late_ms, _) = self.ctx.watermarks(op_id);
        let operator = self.name(op_id);
        let store = match self.states.get(&op_id) {
            Some(OperatorState::Dedup(s)) => Some(&s.store),
            _ => None,
        };
        let mut seen: HashMap<Row, Option<i64>> = HashMap::default();
        let mut out = Vec::new();
        for (o, r) in rows {
            if spec.is_late(&r, late_ms) {
                let event_time_us = spec.event_time_us(&r).unwrap_or_default();
                self.fate(o, RowFate::Late { op_id, operator: operator.clone(), event_time_us, watermark_ms: late_ms.ms(), window: None, key: None });
                continue;
            }
            let key = spec.key(&r);
            if let Some(stored) = seen.get(&key) {
                let expires_at_us = spec.evicts_at_us(&key, *stored);
                self.fate(o, RowFate::Deduplicated { op_id, key, in_batch: true, expires_at_us });
            } else if let Some(stored) = store.and_then(|s| s.get(&key)) {
                let expires_at_us = spec.evicts_at_us(&key, *stored);
                self.fate(o, RowFate::Deduplicated { op_id, key, in_batch: false, expires_at_us });
            } else {
                let stored = spec.stored_expiry(&r);
                let expires_at_us = spec.evicts_at_us(&key, stored);
                self.fate(o, RowFate::FirstOfKey { op_id, key: key.clone(), expires_at_us });
                seen.insert(key, stored);
                out.push((o, r));
            }
        }
        out
    }

    /// A stream-static join ([`super::join::run_static_join_with`]): output rows keep the
    /// stream row's origin; a stream row with no output row did not match.
    fn static_join(&mut self, left_width: usize, join: &crate::analysis::JoinSpec, l: Vec<Traced>, r: Vec<Traced>) -> Vec<Traced> {
        let (lrows, rrows): (Vec<Row>, Vec<Row>) = (l.iter().map(|x| x.1.clone()).collect(), r.iter().map(|x| x.1.clone()).collect());
        let mut used_l = vec![false; l.len()];
        let mut used_r = vec![false; r.len()];
        let mut out = Vec::new();
        super::join::run_static_join_with(&lrows, &rrows, left_width, join, self.cx, &mut |li, ri, row| {
            if let Some(i) = li {
                used_l[i] = true;
            }
            if let Some(i) = ri {
                used_r[i] = true;
            }
            let origin = li.and_then(|i| l[i].0).or_else(|| ri.and_then(|i| r[i].0));
            out.push((origin, row));
        });
        let dropped = |join_type: JoinType| match join_type {
            JoinType::LeftAnti => RowFate::Filtered { predicate: "LeftAnti".into() },
            _ => RowFate::NoStaticMatch,
        };
        for ((o, _), used) in l.iter().zip(&used_l).chain(r.iter().zip(&used_r)) {
            if !used && o.is_some() {
                self.fate(*o, dropped(join.join_type));
            }
        }
        out
    }

    /// A stream-stream join: each new row is late, fails its side's pre-join filter, or is
    /// joined with the rows of the other side it matches (stored ones and this batch's).
    #[allow(clippy::too_many_arguments)]
    fn stream_join(&mut self, left: &Plan, right: &Plan, join: &crate::analysis::JoinSpec, spec: &crate::analysis::StreamJoinSpec, op_id: usize, l: Vec<Traced>, r: Vec<Traced>) {
        let (late_ms, _) = self.ctx.watermarks(op_id);
        let operator = self.name(op_id);
        let state = match self.states.get(&op_id) {
            Some(OperatorState::StreamJoin(s)) => Some(s),
            _ => None,
        };
        // Late rows and rows failing their side's own conditions never meet the other side.
        let mut sides: Vec<Vec<Traced>> = Vec::new();
        for (rows, time, pre, attrs) in [(l, spec.left_time, spec.left_only.as_ref(), &left.output), (r, spec.right_time, spec.right_only.as_ref(), &right.output)] {
            let mut kept = Vec::new();
            for (o, row) in rows {
                if stream_join::row_is_late(time, &row, late_ms) {
                    let event_time_us = time.and_then(|t| row.get(t)).and_then(Value::event_time_us).unwrap_or_default();
                    self.fate(o, RowFate::Late { op_id, operator: operator.clone(), event_time_us, watermark_ms: late_ms.ms(), window: None, key: None });
                } else if !stream_join::side_passes(pre, &row, self.cx) {
                    let predicate = pre.map(|p| show_expr(p, attrs)).unwrap_or_default();
                    self.fate(o, RowFate::Filtered { predicate });
                } else {
                    kept.push((o, row));
                }
            }
            sides.push(kept);
        }
        let (new_r, new_l) = (sides.pop().unwrap_or_default(), sides.pop().unwrap_or_default());
        let count_stored = |store: Option<&StateStore<Vec<Buffered>>>, key: &Row, pass: &dyn Fn(&Row) -> bool| -> usize {
            store.map_or(0, |s| s.iter().filter(|(k, _)| stream_join::keys_equal(key, k)).map(|(_, bucket)| bucket.iter().filter(|b| pass(&b.row)).count()).sum())
        };
        for (o, row) in &new_l {
            let key = stream_join::left_key(join, row);
            let stored = count_stored(state.map(|s| &s.right), &key, &|other| stream_join::pair_passes(join, row, other, self.cx));
            let fresh = new_r.iter().filter(|(_, other)| stream_join::keys_equal(&key, &stream_join::right_key(join, other)) && stream_join::pair_passes(join, row, other, self.cx)).count();
            let evicts_at_us = stream_join::evicts_at_us(spec.left_state, spec.left_time, &key, row);
            self.fate(*o, RowFate::Joined { op_id, side: JoinSide::Left, partners: stored + fresh, evicts_at_us });
        }
        for (o, row) in &new_r {
            let key = stream_join::right_key(join, row);
            let stored = count_stored(state.map(|s| &s.left), &key, &|other| stream_join::pair_passes(join, other, row, self.cx));
            let fresh = new_l.iter().filter(|(_, other)| stream_join::keys_equal(&key, &stream_join::left_key(join, other)) && stream_join::pair_passes(join, other, row, self.cx)).count();
            let evicts_at_us = stream_join::evicts_at_us(spec.right_state, spec.right_time, &key, row);
            self.fate(*o, RowFate::Joined { op_id, side: JoinSide::Right, partners: stored + fresh, evicts_at_us });
        }
    }
}

/// The position of the time-window column among an aggregation's grouping columns.
fn window_column(grouping: &[Attr]) -> Option<usize> {
    grouping.iter().position(|a| a.window == Some(WindowKind::Time))
}

/// `[start, end)` of a window struct value, µs.
fn window_bounds(v: &Value) -> Option<(i64, i64)> {
    match v {
        Value::Struct(f) if f.len() == 2 => match (&f[0], &f[1]) {
            (Value::Timestamp(a), Value::Timestamp(b)) => Some((*a, *b)),
            _ => None,
        },
        _ => None,
    }
}

/// A window struct value.
fn window_value(start: i64, end: i64) -> Value {
    Value::Struct(std::rc::Rc::from(vec![Value::Timestamp(start), Value::Timestamp(end)]))
}
