//! `StateStoreSaveExec` (with `StateStoreRestoreExec`): a streaming aggregation's state and
//! what it emits in each output mode (spec §5.2, `statefulOperators.scala`).

use std::collections::BTreeSet;

use rustc_hash::FxHashMap as HashMap;

use super::eval::eval;
use super::OperatorMetrics;
use crate::analysis::{BoundAgg, BoundExpr};
use crate::plan::AggFunc;
use crate::state::StateStore;
use crate::streaming::OutputMode;
use crate::types::{Row, Value};

/// One aggregation buffer.
#[derive(Debug, Clone, PartialEq)]
pub enum AggBuffer {
    Count(i64),
    Sum(Option<Value>),
    Avg { sum: f64, count: i64 },
    Min(Option<Value>),
    Max(Option<Value>),
    /// The distinct non-null values (`approx_count_distinct` is exact at these sizes).
    Distinct(BTreeSet<Value>),
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
            AggFunc::ApproxCountDistinct => AggBuffer::Distinct(BTreeSet::new()),
        }
    }

    /// Adds one input value (`None` for `count(*)`).
    pub fn update(&mut self, v: Option<Value>) {
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
            AggBuffer::Sum(s) => *s = Some(add(s.take(), &v)),
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
            AggBuffer::Distinct(set) => {
                set.insert(v);
            }
        }
    }

    /// Merges another buffer of the same function into this one.
    pub fn merge(&mut self, other: &AggBuffer) {
        match (self, other) {
            (AggBuffer::Count(a), AggBuffer::Count(b)) => *a += b,
            (AggBuffer::Sum(a), AggBuffer::Sum(Some(b))) => *a = Some(add(a.take(), b)),
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
            (AggBuffer::Distinct(a), AggBuffer::Distinct(b)) => a.extend(b.iter().cloned()),
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
            AggBuffer::Distinct(s) => Value::Long(s.len() as i64),
        }
    }
}

fn add(acc: Option<Value>, v: &Value) -> Value {
    match (acc, v) {
        (None, Value::Int(x)) => Value::Long(i64::from(*x)),
        (None, other) => other.clone(),
        (Some(Value::Double(a)), b) => Value::Double(a + b.as_f64().unwrap_or(0.0)),
        (Some(a), Value::Double(b)) => Value::Double(a.as_f64().unwrap_or(0.0) + b),
        (Some(a), b) => Value::Long(a.as_i64().unwrap_or(0).wrapping_add(b.as_i64().unwrap_or(0))),
    }
}

/// The state of one streaming aggregation: grouping key → buffers.
#[derive(Debug, Clone, Default)]
pub struct AggregateState {
    pub store: StateStore<Vec<AggBuffer>>,
}

/// What one batch of an aggregation did.
pub struct AggregateOutput {
    pub rows: Vec<Row>,
    pub metrics: OperatorMetrics,
}

/// Runs one batch of a streaming aggregation. `input` hands every input row to the given
/// function (so a window expansion below can feed rows without materializing them).
///
/// `event_time_key` is the grouping column carrying the watermark tag; lateness is judged
/// against `late_wm_ms` and eviction against `evict_wm_ms` (spec §2.4), on the window end for
/// window keys. Complete mode ignores the watermark (spec §5.2).
#[allow(clippy::too_many_arguments)]
pub fn run_aggregate(
    state: &mut AggregateState,
    input: &mut dyn FnMut(&mut dyn FnMut(&Row)),
    keys: &[BoundExpr],
    aggs: &[BoundAgg],
    event_time_key: Option<usize>,
    mode: OutputMode,
    late_wm_ms: i64,
    evict_wm_ms: i64,
) -> AggregateOutput {
    // Partial aggregation: one buffer set per key in this batch (Spark's partial agg + shuffle).
    // A hash map for speed; the keys are sorted below so the state sees them in order.
    let mut partial: HashMap<Row, Vec<AggBuffer>> = HashMap::default();
    // One key buffer reused for every row: a key is copied only when it is new.
    let mut key: Row = Vec::with_capacity(keys.len());
    input(&mut |row: &Row| {
        key.clear();
        key.extend(keys.iter().map(|k| eval(k, row)));
        let bufs = match partial.get_mut(&key) {
            Some(b) => b,
            None => partial.entry(key.clone()).or_insert_with(|| aggs.iter().map(|a| AggBuffer::new(a.func)).collect()),
        };
        for (buf, agg) in bufs.iter_mut().zip(aggs) {
            buf.update(agg.arg.as_ref().map(|a| eval(a, row)));
        }
    });
    let mut partial: Vec<(Row, Vec<AggBuffer>)> = partial.into_iter().collect();
    partial.sort_by(|a, b| a.0.cmp(&b.0));
    let watermarked = event_time_key.filter(|_| mode != OutputMode::Complete);
    let is_past = |key: &Row, wm_ms: i64| {
        watermarked
            .and_then(|i| key.get(i))
            .and_then(Value::event_time_us)
            .is_some_and(|t| t <= wm_ms.saturating_mul(1000))
    };
    let mut dropped = 0;
    let mut updated_keys = Vec::new();
    for (key, bufs) in partial {
        if is_past(&key, late_wm_ms) {
            dropped += 1;
            continue;
        }
        match state.store.get_mut(&key) {
            Some(existing) => {
                for (e, b) in existing.iter_mut().zip(&bufs) {
                    e.merge(b);
                }
                state.store.mark_updated(1);
            }
            None => state.store.put(key.clone(), bufs),
        }
        updated_keys.push(key);
    }
    let row_of = |key: &Row, bufs: &[AggBuffer]| -> Row {
        let mut r = key.clone();
        r.extend(bufs.iter().map(AggBuffer::result));
        r
    };
    let rows = match mode {
        OutputMode::Complete => state.store.iter().map(|(k, b)| row_of(k, b)).collect(),
        OutputMode::Update => {
            let rows = updated_keys
                .iter()
                .filter_map(|k| state.store.get(k).map(|b| row_of(k, b)))
                .collect();
            // Evicted silently after output.
            state.store.remove_where(|k, _| is_past(k, evict_wm_ms));
            rows
        }
        OutputMode::Append => state
            .store
            .remove_where(|k, _| is_past(k, evict_wm_ms))
            .iter()
            .map(|(k, b)| row_of(k, b))
            .collect(),
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
