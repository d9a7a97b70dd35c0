//! `StreamingSymmetricHashJoinExec`: a stream-stream join keeps both sides' rows in state,
//! so a row arriving later can still meet its partner (spec §7.1).
//!
//! Per batch: late rows are dropped per side; a row failing the conjuncts that read only its
//! own side (the pre-join filter) is never stored — on the outer side it is null-padded at
//! once; each new left row probes the right buffer; each new right row probes the left
//! buffer, which already holds this batch's left rows, so every new pair is produced once.
//! Matched rows are flagged; a right row the state watermark would evict in this very batch
//! is not stored unless it must wait for its null-padded output. Then each side's state
//! watermark evicts old rows, and an outer side's unmatched rows leave null-padded.
//!
//! A left semi join (as Spark 4.3 runs it, recorded in `engine/tests/cases/`) takes the new
//! right rows first: every buffered left row one of them matches is emitted and leaves the
//! state (it can never be emitted again); then each new left row that matches a buffered right
//! row is emitted and not stored, and the others are stored.

use super::eval::{compare, eval_predicate};
use super::OperatorMetrics;
use crate::analysis::{BoundExpr, JoinSpec, StateWatermark, StreamJoinSpec};
use crate::plan::JoinType;
use crate::state::StateStore;
use crate::types::{EventTime, Row, Value, WatermarkMs};

/// One buffered row and whether it has met a partner.
#[derive(Debug, Clone, PartialEq)]
pub struct Buffered {
    pub row: Row,
    pub matched: bool,
}

/// Both sides' buffers: join key → rows.
#[derive(Debug, Clone, Default)]
pub struct StreamJoinState {
    pub left: StateStore<Vec<Buffered>>,
    pub right: StateStore<Vec<Buffered>>,
}

impl StreamJoinState {
    /// Rows buffered on both sides (`numRowsTotal`).
    pub fn row_count(&self) -> u64 {
        let n = |s: &StateStore<Vec<Buffered>>| s.iter().map(|(_, v)| v.len() as u64).sum::<u64>();
        n(&self.left) + n(&self.right)
    }
}

/// True if two join keys are equal: no NULL on either side (a NULL key never matches).
pub fn keys_equal(a: &Row, b: &Row) -> bool {
    a.iter().zip(b).all(|(x, y)| !x.is_null() && !y.is_null() && compare(x, y) == Some(std::cmp::Ordering::Equal))
}

/// The buffered keys of `store` a row with join key `key` can meet ([`keys_equal`]), in key
/// order. With [`StreamJoinSpec::exact_keys`] that is at most the one stored key equal to it
/// (one lookup; a key with a NULL meets nothing), else every buffered key is compared.
fn partner_keys(store: &StateStore<Vec<Buffered>>, key: &Row, exact: bool) -> Vec<Row> {
    if exact {
        if key.iter().any(Value::is_null) {
            return Vec::new();
        }
        return store.get_key_value(key).map(|(k, _)| vec![k.clone()]).unwrap_or_default();
    }
    store.iter().filter(|(k, _)| keys_equal(key, k)).map(|(k, _)| k.clone()).collect()
}

/// The left row's equi-join key.
pub fn left_key(join: &JoinSpec, l: &Row) -> Row {
    join.keys.iter().map(|(i, _)| l[*i].clone()).collect()
}

/// The right row's equi-join key.
pub fn right_key(join: &JoinSpec, r: &Row) -> Row {
    join.keys.iter().map(|(_, i)| r[*i].clone()).collect()
}

/// True if the join's extra condition holds for the pair (over `left ++ right`).
pub fn pair_passes(join: &JoinSpec, l: &Row, r: &Row) -> bool {
    PairCheck::new(join, l.len()).passes(l, r)
}

/// [`pair_passes`] for many pairs of one batch: one `left ++ right` row is kept and only the
/// columns the condition reads are copied into it per pair (the others stay NULL), so probing
/// a bucket neither allocates nor clones whole rows.
struct PairCheck<'a> {
    condition: Option<&'a BoundExpr>,
    row: Row,
    /// Columns the condition reads: of the left row, and of the right row (index in it).
    left_cols: Vec<usize>,
    right_cols: Vec<usize>,
    left_width: usize,
}

impl<'a> PairCheck<'a> {
    fn new(join: &'a JoinSpec, left_width: usize) -> PairCheck<'a> {
        let mut cols = std::collections::BTreeSet::new();
        if let Some(c) = &join.condition {
            c.columns(&mut cols);
        }
        let (left_cols, right): (Vec<usize>, Vec<usize>) = cols.into_iter().partition(|i| *i < left_width);
        PairCheck {
            condition: join.condition.as_ref(),
            row: vec![Value::Null; left_width + join.right_width],
            left_cols,
            right_cols: right.into_iter().map(|i| i - left_width).collect(),
            left_width,
        }
    }

    fn passes(&mut self, l: &Row, r: &Row) -> bool {
        let Some(c) = self.condition else { return true };
        let get = |row: &Row, i: usize| row.get(i).cloned().unwrap_or(Value::Null);
        for &i in &self.left_cols {
            if let Some(slot) = self.row.get_mut(i) {
                *slot = get(l, i);
            }
        }
        for &i in &self.right_cols {
            if let Some(slot) = self.row.get_mut(self.left_width + i) {
                *slot = get(r, i);
            }
        }
        eval_predicate(c, &self.row)
    }
}

/// True if a row passes its side's pre-join filter (the conjuncts reading only that side,
/// [`StreamJoinSpec::left_only`] / `right_only`).
pub fn side_passes(pre: Option<&BoundExpr>, row: &Row) -> bool {
    pre.is_none_or(|c| eval_predicate(c, row))
}

/// The late rule of one side (`StreamingSymmetricHashJoinExec`'s
/// `watermarkPredicateForDataForLateEvents`): a row whose event time (column `time` of its
/// side) is at or below `wm_for_late_events_ms` is dropped, counted per row.
pub fn row_is_late(time: Option<usize>, row: &Row, wm_for_late_events_ms: WatermarkMs) -> bool {
    time.and_then(|t| row.get(t)).and_then(Value::event_time).is_some_and(|t| t.is_past(wm_for_late_events_ms))
}

/// The eviction rule of one side (`getStateWatermarkPredicates`, spec §7.2): the state
/// watermark (µs) at or above which a buffered row (with its join key) goes: its key's event
/// time (a window's end) for [`StateWatermark::Key`], its event time minus the range offset
/// for [`StateWatermark::Value`]; `None`: kept until the query stops.
pub fn evicts_at_us(wm: StateWatermark, time: Option<usize>, key: &Row, row: &Row) -> Option<i64> {
    match wm {
        StateWatermark::None => None,
        StateWatermark::Key { key_index } => key.get(key_index).and_then(Value::event_time_us),
        StateWatermark::Value { offset_ms } => {
            time.and_then(|t| row.get(t)).and_then(Value::event_time).map(|t| t.saturating_sub_millis(offset_ms).micros())
        }
    }
}

/// True if a row (with its join key) falls under a side's state watermark for eviction
/// watermark `wm_for_eviction_ms` ([`evicts_at_us`]).
fn expired(wm: StateWatermark, time: Option<usize>, wm_for_eviction_ms: WatermarkMs, key: &Row, row: &Row) -> bool {
    evicts_at_us(wm, time, key, row).is_some_and(|e| EventTime::from_micros(e).is_past(wm_for_eviction_ms))
}

/// Runs one batch of a stream-stream join. `wm_for_eviction_ms` is W (the operator's eviction
/// watermark), `wm_for_late_events_ms` judges late rows.
#[allow(clippy::too_many_arguments)]
pub fn run_stream_join(
    state: &mut StreamJoinState,
    left_rows: Vec<Row>,
    right_rows: Vec<Row>,
    left_width: usize,
    join: &JoinSpec,
    spec: &StreamJoinSpec,
    wm_for_late_events_ms: WatermarkMs,
    wm_for_eviction_ms: WatermarkMs,
) -> (Vec<Row>, OperatorMetrics) {
    let mut dropped = 0u64;
    let mut not_late = |rows: Vec<Row>, time: Option<usize>| -> Vec<Row> {
        rows.into_iter()
            .filter(|r| {
                let late = row_is_late(time, r, wm_for_late_events_ms);
                dropped += u64::from(late);
                !late
            })
            .collect()
    };
    let left_rows = not_late(left_rows, spec.left_time);
    let right_rows = not_late(right_rows, spec.right_time);
    let lkey = |r: &Row| left_key(join, r);
    let rkey = |r: &Row| right_key(join, r);
    let both = |l: &Row, r: &Row| -> Row {
        let mut b = l.clone();
        b.extend(r.iter().cloned());
        b
    };
    let mut check = PairCheck::new(join, left_width);
    let mut passes = |l: &Row, r: &Row| check.passes(l, r);
    let exact = spec.exact_keys;
    let left_pre = |l: &Row| side_passes(spec.left_only.as_ref(), l);
    let right_pre = |r: &Row| side_passes(spec.right_only.as_ref(), r);
    let project = |b: Row| -> Row { join.output.iter().map(|i| b.get(*i).cloned().unwrap_or(Value::Null)).collect() };
    let left_outer = matches!(join.join_type, JoinType::LeftOuter | JoinType::FullOuter);
    let right_outer = matches!(join.join_type, JoinType::RightOuter | JoinType::FullOuter);
    let right_width = join.right_width;
    let null_right = |l: Row| -> Row {
        let mut row = l;
        row.extend(std::iter::repeat_n(Value::Null, right_width));
        row
    };
    let null_left = |r: Row| -> Row {
        let mut row: Row = std::iter::repeat_n(Value::Null, left_width).collect();
        row.extend(r);
        row
    };
    let mut out = Vec::new();
    let mut updated = 0u64;
    let mut removed = 0u64;

    if join.join_type == JoinType::LeftSemi {
        // 1. New right rows: buffered left rows they match are emitted and leave the state.
        for r in right_rows {
            if !right_pre(&r) {
                continue;
            }
            let k = rkey(&r);
            for lk in partner_keys(&state.left, &k, exact) {
                if let Some(bucket) = state.left.get_mut(&lk) {
                    let (hit, keep): (Vec<Buffered>, Vec<Buffered>) = std::mem::take(bucket).into_iter().partition(|b| passes(&b.row, &r));
                    *bucket = keep;
                    removed += hit.len() as u64;
                    out.extend(hit.into_iter().map(|b| project(b.row)));
                }
            }
            if !expired(spec.right_state, spec.right_time, wm_for_eviction_ms, &k, &r) {
                push(&mut state.right, k, Buffered { row: r, matched: false });
                updated += 1;
            }
        }
        // Emptied buckets go once, after every new right row probed (an empty bucket meets
        // nothing, so dropping it per row or here gives the same rows and state).
        state.left.retain_non_empty(|v: &Vec<Buffered>| !v.is_empty());
        // 2. New left rows: emitted once if a buffered right row matches, else stored.
        for l in left_rows {
            if !left_pre(&l) {
                continue;
            }
            let k = lkey(&l);
            let any = partner_keys(&state.right, &k, exact).iter().filter_map(|rk| state.right.get(rk)).any(|bucket| bucket.iter().any(|b| passes(&l, &b.row)));
            if any {
                out.push(project(l));
            } else {
                push(&mut state.left, k, Buffered { row: l, matched: false });
                updated += 1;
            }
        }
    } else {
        // 1. New left rows probe the right buffer.
        for l in left_rows {
            if !left_pre(&l) {
                if left_outer {
                    out.push(project(null_right(l)));
                }
                continue;
            }
            let k = lkey(&l);
            let mut any = false;
            for rk in partner_keys(&state.right, &k, exact) {
                if let Some(bucket) = state.right.get_mut(&rk) {
                    for b in bucket.iter_mut() {
                        if passes(&l, &b.row) {
                            any = true;
                            b.matched = true;
                            out.push(project(both(&l, &b.row)));
                        }
                    }
                }
            }
            // A left row is stored even if this batch's watermark evicts it: this batch's
            // right rows have not probed it yet.
            push(&mut state.left, k, Buffered { row: l, matched: any });
            updated += 1;
        }
        // 2. New right rows probe the left buffer (which already holds this batch's left rows).
        for r in right_rows {
            if !right_pre(&r) {
                if right_outer {
                    out.push(project(null_left(r)));
                }
                continue;
            }
            let k = rkey(&r);
            let mut any = false;
            for lk in partner_keys(&state.left, &k, exact) {
                if let Some(bucket) = state.left.get_mut(&lk) {
                    for b in bucket.iter_mut() {
                        if passes(&b.row, &r) {
                            any = true;
                            out.push(project(both(&b.row, &r)));
                            b.matched = true;
                        }
                    }
                }
            }
            // Not stored if the state watermark lets it go in this batch anyway, unless it is
            // an unmatched row of a right/full outer join, which leaves null-padded below.
            if !expired(spec.right_state, spec.right_time, wm_for_eviction_ms, &k, &r) || (right_outer && !any) {
                push(&mut state.right, k, Buffered { row: r, matched: any });
                updated += 1;
            }
        }
    }

    // 3. and 4. The state watermarks let old rows go; an outer side's unmatched rows are
    // emitted with nulls for the other side.
    for b in evict(&mut state.left, spec.left_state, spec.left_time, wm_for_eviction_ms) {
        removed += 1;
        if left_outer && !b.matched {
            out.push(project(null_right(b.row)));
        }
    }
    for b in evict(&mut state.right, spec.right_state, spec.right_time, wm_for_eviction_ms) {
        removed += 1;
        if right_outer && !b.matched {
            out.push(project(null_left(b.row)));
        }
    }
    state.left.commit();
    state.right.commit();
    (out, OperatorMetrics { num_rows_total: state.row_count(), num_rows_updated: updated, num_rows_removed: removed, num_rows_dropped_by_watermark: dropped })
}

fn push(store: &mut StateStore<Vec<Buffered>>, key: Row, b: Buffered) {
    match store.get_mut(&key) {
        Some(bucket) => bucket.push(b),
        None => store.put(key, vec![b]),
    }
}

/// Removes and returns the rows of one side that its state watermark lets go.
fn evict(store: &mut StateStore<Vec<Buffered>>, wm: StateWatermark, time: Option<usize>, wm_for_eviction_ms: WatermarkMs) -> Vec<Buffered> {
    if wm == StateWatermark::None {
        return Vec::new();
    }
    let mut gone = Vec::new();
    store.update_all(|key, bucket| {
        let (out, keep): (Vec<Buffered>, Vec<Buffered>) = std::mem::take(bucket).into_iter().partition(|b| expired(wm, time, wm_for_eviction_ms, key, &b.row));
        *bucket = keep;
        let changed = !out.is_empty();
        gone.extend(out);
        changed
    });
    store.retain_non_empty(|v: &Vec<Buffered>| !v.is_empty());
    gone
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::BinOp;
    use proptest::prelude::*;

    /// A side's row: (join key, event time µs). The key is an integer of either width or NULL,
    /// so one lookup must find `Long(1)` for `Int(1)` and skip NULL, as the scan does.
    fn row() -> impl Strategy<Value = Row> {
        let key = prop_oneof![Just(Value::Null), (0..4i32).prop_map(Value::Int), (0..4i64).prop_map(Value::Long)];
        (key, 0..20i64).prop_map(|(k, t)| vec![k, Value::Timestamp(t * 60_000_000)])
    }

    fn join_type() -> impl Strategy<Value = JoinType> {
        prop_oneof![Just(JoinType::Inner), Just(JoinType::LeftOuter), Just(JoinType::RightOuter), Just(JoinType::FullOuter), Just(JoinType::LeftSemi)]
    }

    proptest! {
        /// Finding partners by one key lookup (`exact_keys`) gives the rows, metrics and
        /// buffers that comparing every buffered key gives, batch by batch: `l.k = r.k AND
        /// r.t >= l.t`, the right side evicted 5 minutes under the watermark.
        #[test]
        fn a_key_lookup_joins_what_a_key_scan_joins(
            jt in join_type(),
            batches in proptest::collection::vec((proptest::collection::vec(row(), 0..6), proptest::collection::vec(row(), 0..6)), 1..5),
        ) {
            let col = |i| Box::new(BoundExpr::Col(i));
            let condition = BoundExpr::Binary(BinOp::And, Box::new(BoundExpr::Binary(BinOp::Eq, col(0), col(2))), Box::new(BoundExpr::Binary(BinOp::GtEq, col(3), col(1))));
            let output = if jt == JoinType::LeftSemi { vec![0, 1] } else { vec![0, 1, 2, 3] };
            let join = JoinSpec { join_type: jt, keys: vec![(0, 0)], condition: Some(condition), output, right_width: 2 };
            let spec = |exact_keys| StreamJoinSpec {
                left_time: Some(1),
                right_time: Some(1),
                left_state: StateWatermark::None,
                right_state: StateWatermark::Value { offset_ms: 300_000 },
                left_only: None,
                right_only: None,
                exact_keys,
            };
            let (mut scan, mut lookup) = (StreamJoinState::default(), StreamJoinState::default());
            for (i, (l, r)) in batches.into_iter().enumerate() {
                // The watermark moves 3 minutes a batch.
                let wm = WatermarkMs::from_ms(i as i64 * 180_000);
                let a = run_stream_join(&mut scan, l.clone(), r.clone(), 2, &join, &spec(false), wm, wm);
                let b = run_stream_join(&mut lookup, l, r, 2, &join, &spec(true), wm, wm);
                prop_assert_eq!(&a.0, &b.0);
                prop_assert_eq!(a.1, b.1);
                let rows = |s: &StateStore<Vec<Buffered>>| s.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
                prop_assert_eq!(rows(&scan.left), rows(&lookup.left));
                prop_assert_eq!(rows(&scan.right), rows(&lookup.right));
            }
        }
    }
}
