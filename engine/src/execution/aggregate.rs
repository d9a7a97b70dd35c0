//! `StateStoreSaveExec` (with `StateStoreRestoreExec`): a streaming aggregation's state and
//! what it emits in each output mode (`statefulOperators.scala`).

use std::collections::BTreeSet;

use rustc_hash::FxHashMap as HashMap;

use super::eval::eval;
use super::OperatorMetrics;
use crate::analysis::{BoundAgg, BoundExpr};
use crate::plan::AggFunc;
use crate::state::StateStore;
use crate::plan::OutputMode;
use crate::types::{Row, Value, WatermarkMs};

/// One aggregation buffer.
#[derive(Debug, Clone, PartialEq)]
pub enum AggBuffer {
    /// `count` and `count_if`: the rows counted so far (non-null values; every row for
    /// `count(*)`; rows whose condition is TRUE for `count_if`).
    Count(i64),
    /// `sum`: the running sum of the non-null values, `None` until one was seen (an
    /// `Int` input sums as a `Long`; a `Double` anywhere makes it a `Double`).
    Sum(Option<Value>),
    /// `avg`: the sum (as `f64`) and count of the non-null values; NULL when the count is 0.
    Avg {
        /// Sum of the non-null values so far.
        sum: f64,
        /// Number of non-null values so far.
        count: i64,
    },
    /// `min`: the smallest non-null value so far (by [`Value`]'s order).
    Min(Option<Value>),
    /// `max`: the largest non-null value so far (by [`Value`]'s order).
    Max(Option<Value>),
    /// `first`: `None` until a row (a non-null one with `ignore_nulls`) was seen.
    First {
        /// The first value kept (`Some(Null)` when that row's value was NULL).
        value: Option<Value>,
        /// `first(col, ignorenulls=True)`: NULL values are skipped.
        ignore_nulls: bool,
    },
    /// `last`: the latest row's value (the latest non-null one with `ignore_nulls`).
    Last {
        /// The latest value kept (`Some(Null)` when that row's value was NULL).
        value: Option<Value>,
        /// `last(col, ignorenulls=True)`: NULL values are skipped.
        ignore_nulls: bool,
    },
    /// `max_by`/`min_by`: (ordering, value) of the extreme row so far; ties keep the earlier
    /// row (`MaxByAndMinBy.scala` replaces only on a strictly greater/smaller ordering).
    By {
        /// The (ordering, value) pair of the extreme row so far; rows with a NULL ordering
        /// are skipped.
        best: Option<(Value, Value)>,
        /// True for `max_by`, false for `min_by`.
        max: bool,
    },
    /// `collect_list`: non-null values in arrival order.
    List(Vec<Value>),
    /// `collect_set`: distinct non-null values.
    Set(BTreeSet<Value>),
    /// Central moments (Chan et al.'s parallel update): count, mean, sum of squared
    /// deviations; `sample` divides by n - 1, `sqrt` for the standard deviation.
    Moments {
        /// Number of non-null values.
        n: f64,
        /// Their running mean.
        mean: f64,
        /// Their sum of squared deviations from the mean.
        m2: f64,
        /// Sample statistic (`stddev_samp`, `var_samp`: divide by n - 1) rather than
        /// population (`stddev_pop`, `var_pop`: divide by n).
        sample: bool,
        /// Standard deviation (the square root of the variance) rather than the variance.
        sqrt: bool,
    },
    /// `approx_count_distinct`: the distinct non-null values; the result is HyperLogLog++'s
    /// estimate over them with `p` index bits (registers depend only on the set).
    Distinct(BTreeSet<Value>, u8),
}

impl AggBuffer {
    /// An empty buffer for `func`.
    pub fn new(func: AggFunc) -> AggBuffer {
        match func {
            AggFunc::Count => AggBuffer::Count(0),
            AggFunc::Sum => AggBuffer::Sum(None),
            AggFunc::Avg => AggBuffer::Avg { sum: 0.0, count: 0 },
            AggFunc::Min => AggBuffer::Min(None),
            AggFunc::Max => AggBuffer::Max(None),
            AggFunc::First { ignore_nulls } => AggBuffer::First { value: None, ignore_nulls },
            AggFunc::Last { ignore_nulls } => AggBuffer::Last { value: None, ignore_nulls },
            AggFunc::MaxBy => AggBuffer::By { best: None, max: true },
            AggFunc::MinBy => AggBuffer::By { best: None, max: false },
            AggFunc::CollectList => AggBuffer::List(Vec::new()),
            AggFunc::CollectSet => AggBuffer::Set(BTreeSet::new()),
            AggFunc::Stddev { sample } => AggBuffer::Moments { n: 0.0, mean: 0.0, m2: 0.0, sample, sqrt: true },
            AggFunc::Variance { sample } => AggBuffer::Moments { n: 0.0, mean: 0.0, m2: 0.0, sample, sqrt: false },
            AggFunc::CountIf => AggBuffer::Count(0),
            AggFunc::ApproxCountDistinct { p } => AggBuffer::Distinct(BTreeSet::new(), p),
        }
    }

    /// Adds one row: its value of the argument (`None` for `count(*)`) and, for
    /// `max_by`/`min_by`, of the ordering.
    pub fn update_by(&mut self, v: Option<Value>, ord: Option<Value>, cx: &super::context::EvalContext) {
        match self {
            AggBuffer::First { value, ignore_nulls } => {
                let v = v.unwrap_or(Value::Null);
                if value.is_none() && !(*ignore_nulls && v.is_null()) {
                    *value = Some(v);
                }
                return;
            }
            AggBuffer::Last { value, ignore_nulls } => {
                let v = v.unwrap_or(Value::Null);
                if !(*ignore_nulls && v.is_null()) {
                    *value = Some(v);
                }
                return;
            }
            AggBuffer::By { best, max } => {
                let Some(o) = ord.filter(|o| !o.is_null()) else { return };
                let better = best.as_ref().is_none_or(|(b, _)| if *max { o > *b } else { o < *b });
                if better {
                    *best = Some((o, v.unwrap_or(Value::Null)));
                }
                return;
            }
            _ => {}
        }
        self.update(v, cx);
    }

    /// Adds one input value (`None` for `count(*)`).
    pub fn update(&mut self, v: Option<Value>, cx: &super::context::EvalContext) {
        let v = match v {
            None => {
                // count(*): every row counts.
                if let AggBuffer::Count(c) = self {
                    *c += 1;
                }
                return;
            }
            Some(v) if v.is_null() => return,
            Some(v) => v,
        };
        match self {
            AggBuffer::Count(c) => *c += 1,
            AggBuffer::Moments { n, mean, m2, .. } => {
                let x = v.as_f64().unwrap_or(0.0);
                *n += 1.0;
                let delta = x - *mean;
                *mean += delta / *n;
                *m2 += delta * (x - *mean);
            }
            AggBuffer::Sum(s) => *s = Some(add(s.take(), &v, cx)),
            AggBuffer::Avg { sum, count } => {
                *sum += v.as_f64().unwrap_or(0.0);
                *count += 1;
            }
            AggBuffer::Min(m) => {
                if m.as_ref().is_none_or(|cur| v < *cur) {
                    *m = Some(v);
                }
            }
            AggBuffer::Max(m) => {
                if m.as_ref().is_none_or(|cur| v > *cur) {
                    *m = Some(v);
                }
            }
            AggBuffer::Distinct(set, _) | AggBuffer::Set(set) => {
                set.insert(v);
            }
            AggBuffer::List(items) => items.push(v),
            AggBuffer::First { .. } | AggBuffer::Last { .. } | AggBuffer::By { .. } => self.update_by(Some(v), None, cx),
        }
    }

    /// Merges another buffer of the same function into this one; `other` holds later rows.
    // One arm per buffer kind: a guard instead of the inner `if` would send a pair that
    // does not pass it to the catch-all arm, which reads worse.
    #[allow(clippy::collapsible_match)]
    pub fn merge(&mut self, other: &AggBuffer, cx: &super::context::EvalContext) {
        match (self, other) {
            (AggBuffer::Count(a), AggBuffer::Count(b)) => *a += b,
            (AggBuffer::Sum(a), AggBuffer::Sum(Some(b))) => *a = Some(add(a.take(), b, cx)),
            (AggBuffer::Avg { sum, count }, AggBuffer::Avg { sum: s2, count: c2 }) => {
                *sum += s2;
                *count += c2;
            }
            (AggBuffer::Min(a), AggBuffer::Min(Some(b))) => {
                if a.as_ref().is_none_or(|cur| b < cur) {
                    *a = Some(b.clone());
                }
            }
            (AggBuffer::Max(a), AggBuffer::Max(Some(b))) => {
                if a.as_ref().is_none_or(|cur| b > cur) {
                    *a = Some(b.clone());
                }
            }
            (AggBuffer::First { value: a, .. }, AggBuffer::First { value: b, .. }) => {
                if a.is_none() {
                    *a = b.clone();
                }
            }
            (AggBuffer::Last { value: a, .. }, AggBuffer::Last { value: Some(b), .. }) => *a = Some(b.clone()),
            (AggBuffer::By { best: a, max }, AggBuffer::By { best: Some((o, v)), .. }) => {
                if a.as_ref().is_none_or(|(b, _)| if *max { o > b } else { o < b }) {
                    *a = Some((o.clone(), v.clone()));
                }
            }
            (AggBuffer::List(a), AggBuffer::List(b)) => a.extend(b.iter().cloned()),
            (AggBuffer::Moments { n, mean, m2, .. }, AggBuffer::Moments { n: n2, mean: mean2, m2: m22, .. }) => {
                if *n2 > 0.0 {
                    let total = *n + n2;
                    let delta = mean2 - *mean;
                    *m2 += m22 + delta * delta * *n * n2 / total;
                    *mean += delta * n2 / total;
                    *n = total;
                }
            }
            (AggBuffer::Set(a), AggBuffer::Set(b)) | (AggBuffer::Distinct(a, _), AggBuffer::Distinct(b, _)) => a.extend(b.iter().cloned()),
            _ => {}
        }
    }

    /// The aggregate's value.
    pub fn result(&self) -> Value {
        match self {
            AggBuffer::Count(c) => Value::Long(*c),
            AggBuffer::Sum(s) => s.clone().unwrap_or(Value::Null),
            AggBuffer::Avg { count: 0, .. } => Value::Null,
            AggBuffer::Avg { sum, count } => Value::Double(sum / *count as f64),
            AggBuffer::Min(m) | AggBuffer::Max(m) => m.clone().unwrap_or(Value::Null),
            AggBuffer::First { value, .. } | AggBuffer::Last { value, .. } => value.clone().unwrap_or(Value::Null),
            AggBuffer::By { best, .. } => best.as_ref().map_or(Value::Null, |(_, v)| v.clone()),
            AggBuffer::List(items) => Value::Array(items.iter().cloned().collect()),
            AggBuffer::Moments { n, m2, sample, sqrt, .. } => {
                let d = if *sample { n - 1.0 } else { *n };
                if *n == 0.0 || d == 0.0 {
                    Value::Null
                } else {
                    let var = m2 / d;
                    Value::Double(if *sqrt { var.sqrt() } else { var })
                }
            }
            AggBuffer::Set(s) => Value::Array(s.iter().cloned().collect()),
            AggBuffer::Distinct(s, p) => Value::Long(super::hll::estimate(s.iter(), *p)),
        }
    }
}

/// Feeds one input row to `buf`, the buffer of `agg`.
pub fn feed(buf: &mut AggBuffer, agg: &BoundAgg, row: &Row, cx: &super::context::EvalContext) {
    feed_values(buf, agg, agg.arg.as_ref().map(|a| eval(a, row, cx)), agg.by.as_ref().map(|b| eval(b, row, cx)), cx);
}

/// Feeds one input row to `buf` given the row's value of `agg`'s argument (`None` for
/// `count(*)`) and of its ordering (`max_by`/`min_by`): what [`feed`] does after evaluating
/// them, for a caller that read them from columns.
pub fn feed_values(buf: &mut AggBuffer, agg: &BoundAgg, arg: Option<Value>, by: Option<Value>, cx: &super::context::EvalContext) {
    if agg.func == AggFunc::CountIf {
        // Only rows whose condition is TRUE count.
        let v = arg.filter(|v| matches!(v, Value::Bool(true)));
        buf.update(Some(v.unwrap_or(Value::Null)), cx);
        return;
    }
    buf.update_by(arg, by, cx);
}

fn add(acc: Option<Value>, v: &Value, cx: &super::context::EvalContext) -> Value {
    match (acc, v) {
        (None, Value::Int(x)) => Value::Long(i64::from(*x)),
        (None, other) => other.clone(),
        (Some(Value::Double(a)), b) => Value::Double(a + b.as_f64().unwrap_or(0.0)),
        (Some(a), Value::Double(b)) => Value::Double(a.as_f64().unwrap_or(0.0) + b),
        (Some(a), b) => {
            let (a, b) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            Value::Long(a.checked_add(b).unwrap_or_else(|| {
                // Spark 4's ANSI `sum` adds with `Math.addExact`: an overflow fails the batch
                // (recorded in Spark 4.3: `[ARITHMETIC_OVERFLOW] overflow. Use 'try_add' ...`).
                cx.raise(crate::types::TimeOverflow::CONDITION, crate::types::TimeOverflow("try_add").message());
                a.wrapping_add(b)
            }))
        }
    }
}

/// The grouping column the watermark applies to: `event_time_key`, except in Complete mode,
/// which ignores the watermark.
pub fn watermarked_key(event_time_key: Option<usize>, mode: OutputMode) -> Option<usize> {
    event_time_key.filter(|_| mode != OutputMode::Complete)
}

/// The late and eviction rule of a streaming aggregation (`StateStoreSaveExec`'s
/// `watermarkPredicateForKeys`): a group is past watermark `wm` when its event-time
/// column `watermarked` (from [`watermarked_key`]; for a window, the window's end) is at or
/// below it ([`crate::types::EventTime::is_past`]). Judged with `eventTimeWatermarkForLateEvents` a group is late (dropped,
/// counted once per group in `numRowsDroppedByWatermark`); with
/// `eventTimeWatermarkForEviction` a stored group is evicted.
pub fn key_is_past(key: &Row, watermarked: Option<usize>, wm: WatermarkMs) -> bool {
    watermarked.and_then(|i| key.get(i)).and_then(Value::event_time).is_some_and(|t| t.is_past(wm))
}

/// The state of one streaming aggregation: grouping key → buffers.
#[derive(Debug, Clone, Default)]
pub struct AggregateState {
    /// Grouping key (the key columns' values) → one buffer per aggregate, in the plan's order.
    pub store: StateStore<Vec<AggBuffer>>,
}

/// What one batch of an aggregation did.
pub struct AggregateOutput {
    /// The rows emitted in the output mode: key columns then one value per aggregate.
    pub rows: Vec<Row>,
    /// The batch's state counters, with the late groups dropped.
    pub metrics: OperatorMetrics,
}

/// One batch's partial aggregation (Spark's partial aggregate and shuffle): one buffer set per
/// grouping key in the batch, in no particular order. `input` hands every input row to the
/// given function (so a window expansion below can feed rows without materializing them).
pub fn partial_aggregate(input: &mut dyn FnMut(&mut dyn FnMut(&Row)), keys: &[BoundExpr], aggs: &[BoundAgg], cx: &super::context::EvalContext) -> Vec<(Row, Vec<AggBuffer>)> {
    let mut partial: HashMap<Row, Vec<AggBuffer>> = HashMap::default();
    // One key buffer reused for every row: a key is copied only when it is new.
    let mut key: Row = Vec::with_capacity(keys.len());
    input(&mut |row: &Row| {
        key.clear();
        key.extend(keys.iter().map(|k| eval(k, row, cx)));
        let bufs = match partial.get_mut(&key) {
            Some(b) => b,
            None => partial.entry(key.clone()).or_insert_with(|| aggs.iter().map(|a| AggBuffer::new(a.func)).collect()),
        };
        for (buf, agg) in bufs.iter_mut().zip(aggs) {
            feed(buf, agg, row, cx);
        }
    });
    partial.into_iter().collect()
}

/// Runs one batch of a streaming aggregation over its partial aggregation `partial` (from
/// [`partial_aggregate`] or the columnar path, [`super::columnar`]): the keys are merged into
/// the state in key order, then the output mode's rows are emitted.
///
/// `event_time_key` is the grouping column carrying the watermark tag; lateness is judged
/// against `wm_for_late_events_ms` and eviction against `wm_for_eviction_ms`, on the window end for
/// window keys. Complete mode ignores the watermark.
pub fn run_aggregate(
    state: &mut AggregateState,
    mut partial: Vec<(Row, Vec<AggBuffer>)>,
    event_time_key: Option<usize>,
    mode: OutputMode,
    wm_for_late_events_ms: WatermarkMs,
    wm_for_eviction_ms: WatermarkMs,
    cx: &super::context::EvalContext,
) -> AggregateOutput {
    // The state sees the keys in order (a hash map gathered them).
    partial.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let watermarked = watermarked_key(event_time_key, mode);
    let is_past = |key: &Row, wm: WatermarkMs| key_is_past(key, watermarked, wm);
    let mut dropped = 0;
    // Update mode emits the groups this batch touched, in key order.
    let mut updated_keys = Vec::new();
    let keep_keys = mode == OutputMode::Update;
    // Keys new to the store, still in order: stored together once the batch is read.
    let mut fresh = Vec::new();
    for (key, bufs) in partial {
        if is_past(&key, wm_for_late_events_ms) {
            dropped += 1;
            continue;
        }
        match state.store.get_mut(&key) {
            Some(existing) => {
                for (e, b) in existing.iter_mut().zip(&bufs) {
                    e.merge(b, cx);
                }
                state.store.mark_updated(1);
                if keep_keys {
                    updated_keys.push(key);
                }
            }
            None => {
                if keep_keys {
                    updated_keys.push(key.clone());
                }
                fresh.push((key, bufs));
            }
        }
    }
    state.store.put_new_sorted(fresh);
    let row_of = |key: &Row, bufs: &[AggBuffer]| -> Row {
        let mut r = key.clone();
        r.extend(bufs.iter().map(AggBuffer::result));
        r
    };
    // Eviction scans the whole store (as Spark's `removeKeysOlderThanWatermark` does), so it
    // runs only when a grouping key carries the watermark: without one nothing can be past
    // it, and a batch costs what it touches.
    let evict = |state: &mut AggregateState| {
        if watermarked.is_some() {
            state.store.remove_where(|k, _| is_past(k, wm_for_eviction_ms))
        } else {
            Vec::new()
        }
    };
    let rows = match mode {
        OutputMode::Complete => state.store.iter().map(|(k, b)| row_of(k, b)).collect(),
        OutputMode::Update => {
            let rows = updated_keys
                .iter()
                .filter_map(|k| state.store.get(k).map(|b| row_of(k, b)))
                .collect();
            // Evicted silently after output.
            evict(state);
            rows
        }
        OutputMode::Append => evict(state).iter().map(|(k, b)| row_of(k, b)).collect(),
    };
    let m = state.store.commit();
    AggregateOutput {
        rows,
        metrics: OperatorMetrics {
            num_rows_total: m.num_rows_total,
            num_rows_updated: m.num_rows_updated,
            num_rows_removed: m.num_rows_removed,
            num_rows_dropped_by_watermark: dropped,
        },
    }
}
