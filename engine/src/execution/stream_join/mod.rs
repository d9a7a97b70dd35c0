//! `StreamingSymmetricHashJoinExec`: a stream-stream join keeps both sides' rows in state,
//! so a row arriving later can still meet its partner.
//!
//! Per batch: late rows are dropped per side; a row failing the conjuncts that read only its
//! own side (the pre-join filter) is never stored — on the outer side it is null-padded at
//! once; each new left row probes the right buffer; each new right row probes the left
//! buffer, which already holds this batch's left rows, so every new pair is produced once.
//! Matched rows are flagged; a right row the state watermark would evict in this very batch
//! is not stored unless it must wait for its null-padded output. Then each side's state
//! watermark evicts old rows, and an outer side's unmatched rows leave null-padded.
//!
//! Cost: within a key, a probe visits only the buffered rows whose time lies in the range the
//! condition's range conjuncts allow the probing row (`StreamJoinSpec::left_probe` /
//! `right_probe`; every row of the key without a range condition), in bucket order; eviction
//! pops only the rows the state watermark lets go ([`join_index`]). So a batch costs
//! what it brings, the partners it can have and what expires, not the buffer's size.
//!
//! A left semi join (as Spark 4.3 runs it, recorded in `engine/tests/cases/`) takes the new
//! right rows first: every buffered left row one of them matches is emitted and leaves the
//! state (it can never be emitted again); then each new left row that matches a buffered right
//! row is emitted and not stored, and the others are stored.

pub mod join_index;

use super::compare::compare;
use super::eval::eval_predicate;
use join_index::{IndexPlan, SideIndex};
use super::OperatorMetrics;
use crate::analysis::{BoundExpr, JoinSpec, ProbeRange, StateWatermark, StreamJoinSpec};
use crate::plan::JoinType;
use crate::state::{StateStore, StoreDelta};
use crate::types::{EventTime, Row, Value, WatermarkMs};

/// One buffered row and whether it has met a partner.
#[derive(Debug, Clone, PartialEq)]
pub struct Buffered {
    /// The side's input row as it arrived.
    pub row: Row,
    /// True once it joined with a row of the other side (an outer side's unmatched rows are
    /// null-padded when evicted).
    pub matched: bool,
}

/// Both sides' buffers: join key → rows, in arrival order. Change them through
/// [`run_stream_join`] or [`StreamJoinState::apply_delta_owned`], which keep the indexes
/// beside them ([`join_index`]) in step.
#[derive(Debug, Clone, Default)]
pub struct StreamJoinState {
    /// The left side's buffer: join key (the equi-join key values) → rows in arrival order.
    pub left: StateStore<Vec<Buffered>>,
    /// The right side's buffer: join key → rows in arrival order.
    pub right: StateStore<Vec<Buffered>>,
    /// Both sides' time and eviction indexes, built by the first batch that needs them.
    index: Option<Box<(SideIndex, SideIndex)>>,
}

impl StreamJoinState {
    /// Rows buffered on both sides (`numRowsTotal`), counted over every bucket.
    pub fn row_count(&self) -> u64 {
        let n = |s: &StateStore<Vec<Buffered>>| s.iter().map(|(_, v)| v.len() as u64).sum::<u64>();
        n(&self.left) + n(&self.right)
    }

    /// Replays a checkpoint delta of both sides ([`StateStore::apply_delta_owned`]); the
    /// indexes are rebuilt by the next batch.
    pub fn apply_delta_owned(&mut self, left: StoreDelta<Vec<Buffered>>, right: StoreDelta<Vec<Buffered>>) {
        self.left.apply_delta_owned(left);
        self.right.apply_delta_owned(right);
        self.index = None;
    }

    /// Takes both sides' indexes out, rebuilt if missing or built for another plan.
    fn take_index(&mut self, spec: &StreamJoinSpec) -> (SideIndex, SideIndex) {
        let plans = (
            IndexPlan { state: spec.left_state, time: spec.left_time, probe_column: spec.left_probe.as_ref().map(|p| p.column) },
            IndexPlan { state: spec.right_state, time: spec.right_time, probe_column: spec.right_probe.as_ref().map(|p| p.column) },
        );
        match self.index.take().map(|b| *b) {
            Some((l, r)) if l.plan() == plans.0 && r.plan() == plans.1 => (l, r),
            _ => (SideIndex::build(plans.0, &self.left), SideIndex::build(plans.1, &self.right)),
        }
    }
}

/// The buffered rows a probing row can meet under `range` ([`ProbeRange`]), as an inclusive
/// range of times in the range's column: `Some((lo, hi))` (empty when `lo > hi`: a NULL
/// probing time meets no row, since the range conjunct is then NULL), `None`: no bound.
/// Each bound reads `probe + interval` as the condition does (saturating), so a row the
/// condition accepts is always inside.
fn probe_bounds(range: Option<&ProbeRange>, probe: &Row) -> Option<(i64, i64)> {
    let range = range?;
    let (mut lo, mut hi) = (i64::MIN, i64::MAX);
    let clamp = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
    for (b, lower) in range.lower.iter().map(|b| (b, true)).chain(range.upper.iter().map(|b| (b, false))) {
        let t = match probe.get(b.probe_col) {
            Some(Value::Timestamp(t)) => *t,
            Some(Value::Null) => return Some((1, 0)),
            _ => continue,
        };
        let g = b.probe_interval.add_to(t);
        // buffered + us >= g (lower) or <= g (upper), the sum saturating as evaluation does.
        if lower && g != i64::MIN {
            lo = lo.max(clamp(i128::from(g) - i128::from(b.buffered_us)));
        } else if !lower && g != i64::MAX {
            hi = hi.min(clamp(i128::from(g) - i128::from(b.buffered_us)));
        }
    }
    Some((lo, hi))
}

/// One side's buffer with its index, changed together.
struct Side<'s> {
    store: &'s mut StateStore<Vec<Buffered>>,
    ix: &'s mut SideIndex,
}

impl Side<'_> {
    /// Appends a row to the bucket of `key` (a copy of `key` is stored only for a new bucket).
    fn push(&mut self, key: &Row, b: Buffered) {
        self.ix.push(key, &b.row);
        match self.store.get_mut(key) {
            Some(bucket) => bucket.push(b),
            None => self.store.put(key.clone(), vec![b]),
        }
    }

    /// The positions in the bucket of `key` a probing row within `bounds` can meet, bucket
    /// order; `None`: every row.
    fn candidates(&self, key: &Row, bounds: Option<(i64, i64)>) -> Option<Vec<usize>> {
        let (lo, hi) = bounds?;
        self.ix.in_range(key, lo, hi)
    }

    /// Takes the rows at `positions` (ascending) out of the bucket of `key`, in bucket order;
    /// an emptied bucket leaves the store.
    fn take(&mut self, key: &Row, positions: &[usize]) -> Vec<Buffered> {
        if positions.is_empty() {
            return Vec::new();
        }
        let Some(bucket) = self.store.get_mut(key) else { return Vec::new() };
        self.ix.remove(key, bucket, positions);
        let out: Vec<Buffered> = if positions.iter().enumerate().all(|(i, p)| i == *p) {
            bucket.drain(..positions.len()).collect()
        } else {
            let mut next = positions.iter().peekable();
            let (mut out, mut keep) = (Vec::with_capacity(positions.len()), Vec::with_capacity(bucket.len() - positions.len()));
            for (i, b) in std::mem::take(bucket).into_iter().enumerate() {
                if next.next_if(|p| **p == i).is_some() {
                    out.push(b);
                } else {
                    keep.push(b);
                }
            }
            *bucket = keep;
            out
        };
        if bucket.is_empty() {
            self.store.remove(key);
        }
        out
    }

    /// Removes and returns the rows the state watermark lets go ([`evicts_at_us`] at or
    /// below `wm_for_eviction_ms`), by key then bucket order, walking only those rows.
    fn evict(&mut self, wm: StateWatermark, wm_for_eviction_ms: WatermarkMs) -> Vec<Buffered> {
        if wm == StateWatermark::None {
            return Vec::new();
        }
        let mut gone = Vec::new();
        for (key, positions) in self.ix.expired(|e| EventTime::from_micros(e).is_past(wm_for_eviction_ms)) {
            gone.extend(self.take(&key, &positions));
        }
        gone
    }
}

/// True if two join keys are equal: no NULL on either side (a NULL key never matches).
pub fn keys_equal(a: &Row, b: &Row) -> bool {
    a.iter().zip(b).all(|(x, y)| !x.is_null() && !y.is_null() && compare(x, y) == Some(std::cmp::Ordering::Equal))
}

/// The buffered keys of `store` a row with join key `key` can meet ([`keys_equal`]), in key
/// order. With [`StreamJoinSpec::exact_keys`] that is at most the one stored key equal to it,
/// which `key` itself finds (the store is searched by the same order; nothing is copied; a key
/// with a NULL meets nothing), else every buffered key is compared.
fn partner_keys<'k>(store: &StateStore<Vec<Buffered>>, key: &'k Row, exact: bool) -> std::borrow::Cow<'k, [Row]> {
    if exact {
        let meets = !key.iter().any(Value::is_null) && store.get(key).is_some();
        return std::borrow::Cow::Borrowed(if meets { std::slice::from_ref(key) } else { &[] });
    }
    std::borrow::Cow::Owned(store.iter().filter(|(k, _)| keys_equal(key, k)).map(|(k, _)| k.clone()).collect())
}

/// The left row's equi-join key.
pub fn left_key(join: &JoinSpec, l: &Row) -> Row {
    let mut key = Vec::with_capacity(join.keys.len());
    key_into(&mut key, join, l, true);
    key
}

/// The right row's equi-join key.
pub fn right_key(join: &JoinSpec, r: &Row) -> Row {
    let mut key = Vec::with_capacity(join.keys.len());
    key_into(&mut key, join, r, false);
    key
}

/// Writes the equi-join key of a `left` (or right) side's row into `key`, replacing what it
/// held: a batch reuses one buffer for every probing row.
fn key_into(key: &mut Row, join: &JoinSpec, row: &Row, left: bool) {
    key.clear();
    key.extend(join.keys.iter().map(|(l, r)| row[if left { *l } else { *r }].clone()));
}

/// True if the join's extra condition holds for the pair (over `left ++ right`).
pub fn pair_passes(join: &JoinSpec, l: &Row, r: &Row, cx: &super::context::EvalContext) -> bool {
    PairCheck::new(join.condition.as_ref(), l.len(), join.right_width, cx).passes(l, r)
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
    cx: &'a super::context::EvalContext,
}

impl<'a> PairCheck<'a> {
    /// The check of `condition` (over `left ++ right`, the sides `left_width` and
    /// `right_width` columns wide).
    fn new(condition: Option<&'a BoundExpr>, left_width: usize, right_width: usize, cx: &'a super::context::EvalContext) -> PairCheck<'a> {
        let mut cols = std::collections::BTreeSet::new();
        if let Some(c) = condition {
            c.columns(&mut cols);
        }
        let (left_cols, right): (Vec<usize>, Vec<usize>) = cols.into_iter().partition(|i| *i < left_width);
        PairCheck {
            condition,
            row: vec![Value::Null; left_width + right_width],
            left_cols,
            right_cols: right.into_iter().map(|i| i - left_width).collect(),
            left_width,
            cx,
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
        eval_predicate(c, &self.row, self.cx)
    }
}

/// True if a row passes its side's pre-join filter (the conjuncts reading only that side,
/// [`StreamJoinSpec::left_only`] / `right_only`).
pub fn side_passes(pre: Option<&BoundExpr>, row: &Row, cx: &super::context::EvalContext) -> bool {
    pre.is_none_or(|c| eval_predicate(c, row, cx))
}

/// The late rule of one side (`StreamingSymmetricHashJoinExec`'s
/// `watermarkPredicateForDataForLateEvents`): a row whose event time (column `time` of its
/// side) is at or below `wm_for_late_events_ms` is dropped, counted per row.
pub fn row_is_late(time: Option<usize>, row: &Row, wm_for_late_events_ms: WatermarkMs) -> bool {
    time.and_then(|t| row.get(t)).and_then(Value::event_time).is_some_and(|t| t.is_past(wm_for_late_events_ms))
}

/// The eviction rule of one side (`getStateWatermarkPredicates`): the state
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
    cx: &super::context::EvalContext,
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
    // The probing row's join key, written into one buffer the whole batch reuses (a stored key
    // is a copy of it, made only when it starts a bucket).
    let mut key: Row = Vec::with_capacity(join.keys.len());
    // The output row of a matched pair: `join.output`'s columns of `left ++ right`, read from
    // the two rows (no `left ++ right` row is built, one allocation per pair).
    let pair_out = |l: &Row, r: &Row| -> Row {
        join.output.iter().map(|&i| if i < left_width { l.get(i) } else { r.get(i - left_width) }.cloned().unwrap_or(Value::Null)).collect()
    };
    let mut check = PairCheck::new(spec.pair_condition.as_deref(), left_width, join.right_width, cx);
    let mut passes = |l: &Row, r: &Row| check.passes(l, r);
    let exact = spec.exact_keys;
    let left_pre = |l: &Row| side_passes(spec.left_only.as_ref(), l, cx);
    let right_pre = |r: &Row| side_passes(spec.right_only.as_ref(), r, cx);
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
    let (mut lix, mut rix) = state.take_index(spec);
    let mut left = Side { store: &mut state.left, ix: &mut lix };
    let mut right = Side { store: &mut state.right, ix: &mut rix };
    // The rows at `positions` of a bucket (every row when `None`), in bucket order.
    fn visit(bucket: &mut [Buffered], positions: Option<&[usize]>, mut f: impl FnMut(usize, &mut Buffered)) {
        match positions {
            Some(ps) => ps.iter().for_each(|&p| {
                if let Some(b) = bucket.get_mut(p) {
                    f(p, b);
                }
            }),
            None => bucket.iter_mut().enumerate().for_each(|(p, b)| f(p, b)),
        }
    }

    if join.join_type == JoinType::LeftSemi {
        // 1. New right rows: buffered left rows they match are emitted and leave the state.
        for r in right_rows {
            if !right_pre(&r) {
                continue;
            }
            key_into(&mut key, join, &r, false);
            let k = &key;
            let bounds = probe_bounds(spec.left_probe.as_ref(), &r);
            for lk in partner_keys(left.store, k, exact).iter() {
                let cand = left.candidates(lk, bounds);
                if let Some(bucket) = left.store.get_mut(lk) {
                    let mut hits = Vec::new();
                    visit(bucket, cand.as_deref(), |p, b| {
                        if passes(&b.row, &r) {
                            hits.push(p);
                        }
                    });
                    let hit = left.take(lk, &hits);
                    removed += hit.len() as u64;
                    out.extend(hit.into_iter().map(|b| project(b.row)));
                }
            }
            if !expired(spec.right_state, spec.right_time, wm_for_eviction_ms, k, &r) {
                right.push(k, Buffered { row: r, matched: false });
                updated += 1;
            }
        }
        // 2. New left rows: emitted once if a buffered right row matches, else stored.
        for l in left_rows {
            if !left_pre(&l) {
                continue;
            }
            key_into(&mut key, join, &l, true);
            let k = &key;
            let bounds = probe_bounds(spec.right_probe.as_ref(), &l);
            let any = partner_keys(right.store, k, exact).iter().any(|rk| {
                let cand = right.candidates(rk, bounds);
                right.store.get(rk).is_some_and(|bucket| match &cand {
                    Some(ps) => ps.iter().filter_map(|p| bucket.get(*p)).any(|b| passes(&l, &b.row)),
                    None => bucket.iter().any(|b| passes(&l, &b.row)),
                })
            });
            if any {
                out.push(project(l));
            } else {
                left.push(k, Buffered { row: l, matched: false });
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
            key_into(&mut key, join, &l, true);
            let k = &key;
            let bounds = probe_bounds(spec.right_probe.as_ref(), &l);
            let mut any = false;
            for rk in partner_keys(right.store, k, exact).iter() {
                let cand = right.candidates(rk, bounds);
                if let Some(bucket) = right.store.get_mut(rk) {
                    visit(bucket, cand.as_deref(), |_, b| {
                        if passes(&l, &b.row) {
                            any = true;
                            b.matched = true;
                            out.push(pair_out(&l, &b.row));
                        }
                    });
                }
            }
            // A left row is stored even if this batch's watermark evicts it: this batch's
            // right rows have not probed it yet.
            left.push(k, Buffered { row: l, matched: any });
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
            key_into(&mut key, join, &r, false);
            let k = &key;
            let bounds = probe_bounds(spec.left_probe.as_ref(), &r);
            let mut any = false;
            for lk in partner_keys(left.store, k, exact).iter() {
                let cand = left.candidates(lk, bounds);
                if let Some(bucket) = left.store.get_mut(lk) {
                    visit(bucket, cand.as_deref(), |_, b| {
                        if passes(&b.row, &r) {
                            any = true;
                            out.push(pair_out(&b.row, &r));
                            b.matched = true;
                        }
                    });
                }
            }
            // Not stored if the state watermark lets it go in this batch anyway, unless it is
            // an unmatched row of a right/full outer join, which leaves null-padded below.
            if !expired(spec.right_state, spec.right_time, wm_for_eviction_ms, k, &r) || (right_outer && !any) {
                right.push(k, Buffered { row: r, matched: any });
                updated += 1;
            }
        }
    }

    // 3. and 4. The state watermarks let old rows go; an outer side's unmatched rows are
    // emitted with nulls for the other side.
    for b in left.evict(spec.left_state, wm_for_eviction_ms) {
        removed += 1;
        if left_outer && !b.matched {
            out.push(project(null_right(b.row)));
        }
    }
    for b in right.evict(spec.right_state, wm_for_eviction_ms) {
        removed += 1;
        if right_outer && !b.matched {
            out.push(project(null_left(b.row)));
        }
    }
    let num_rows_total = lix.rows() + rix.rows();
    state.index = Some(Box::new((lix, rix)));
    debug_assert_eq!(num_rows_total, state.row_count(), "the join's index counts its buffered rows");
    state.left.commit();
    state.right.commit();
    (out, OperatorMetrics { num_rows_total, num_rows_updated: updated, num_rows_removed: removed, num_rows_dropped_by_watermark: dropped })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::BinOp;
    use proptest::prelude::*;

    /// A side's row: (join key, event time µs). The key is an integer of either width, NULL or
    /// a timestamp, so one lookup must find `Long(1)` for `Int(1)` and skip NULL, as the scan
    /// does, and a watermark on the key can evict.
    fn row() -> impl Strategy<Value = Row> {
        let key = prop_oneof![Just(Value::Null), (0..4i32).prop_map(Value::Int), (0..4i64).prop_map(Value::Long), (0..4i64).prop_map(|m| Value::Timestamp(m * 300_000_000))];
        (key, 0..20i64).prop_map(|(k, t)| vec![k, Value::Timestamp(t * 60_000_000)])
    }

    fn join_type() -> impl Strategy<Value = JoinType> {
        prop_oneof![Just(JoinType::Inner), Just(JoinType::LeftOuter), Just(JoinType::RightOuter), Just(JoinType::FullOuter), Just(JoinType::LeftSemi)]
    }

    /// `l.k = r.k AND r.t >= l.t AND r.t <= l.t + 10 minutes` over `left ++ right` (two
    /// columns each): a right row meets the left rows of its key in the 10 minutes before it.
    fn range_join(jt: JoinType) -> JoinSpec {
        let output = if jt == JoinType::LeftSemi { vec![0, 1] } else { vec![0, 1, 2, 3] };
        JoinSpec { join_type: jt, keys: vec![(0, 0)], condition: Some(range_condition(true)), output, right_width: 2, unwatermarked: Default::default() }
    }

    /// [`range_join`]'s condition, with its key equality `l.k = r.k` or without it (what
    /// `stream_join_spec` leaves a pair to pass when the key lookup is exact).
    fn range_condition(with_key: bool) -> BoundExpr {
        let col = |i| Box::new(BoundExpr::Col(i));
        let ten_minutes = crate::types::CalendarInterval { months: 0, days: 0, micros: 600_000_000 };
        let and = |a, b| BoundExpr::Binary(BinOp::And, Box::new(a), Box::new(b));
        let range = and(
            BoundExpr::Binary(BinOp::GtEq, col(3), col(1)),
            BoundExpr::Binary(BinOp::LtEq, col(3), Box::new(BoundExpr::Binary(BinOp::Add, col(1), Box::new(BoundExpr::Interval(ten_minutes))))),
        );
        if with_key {
            and(BoundExpr::Binary(BinOp::Eq, col(0), col(2)), range)
        } else {
            range
        }
    }

    /// The spec of [`range_join`] with the time index on (`probe`: the bounds
    /// `stream_join_spec` derives, worked out by hand) or off; the left side evicted by
    /// the watermark on its key when `key_state`, the right 5 minutes under the watermark.
    fn range_spec(exact_keys: bool, probe: bool, key_state: bool) -> StreamJoinSpec {
        let zero = crate::types::CalendarInterval::default();
        let ten_minutes = crate::types::CalendarInterval { months: 0, days: 0, micros: 600_000_000 };
        let bound = |probe_interval, buffered_us| crate::analysis::ProbeBound { probe_col: 1, probe_interval, buffered_us };
        StreamJoinSpec {
            left_time: Some(1),
            right_time: Some(1),
            left_state: if key_state { StateWatermark::Key { key_index: 0 } } else { StateWatermark::None },
            right_state: StateWatermark::Value { offset_ms: 300_000 },
            left_only: None,
            right_only: None,
            exact_keys,
            pair_condition: Some(Box::new(range_condition(!exact_keys))),
            // A right row at t meets left rows in [t - 10 min, t]: l.t <= r.t and
            // l.t + 10 min >= r.t.
            left_probe: probe.then(|| ProbeRange { column: 1, lower: vec![bound(zero, 600_000_000)], upper: vec![bound(zero, 0)] }),
            // A left row at t meets right rows in [t, t + 10 min].
            right_probe: probe.then(|| ProbeRange { column: 1, lower: vec![bound(zero, 0)], upper: vec![bound(ten_minutes, 0)] }),
        }
    }

    /// Runs both states through the same batches and asserts the same rows, metrics and
    /// buffers, batch by batch (the watermark moves 3 minutes a batch).
    fn same_runs(jt: JoinType, a: &StreamJoinSpec, b: &StreamJoinSpec, batches: Vec<(Vec<Row>, Vec<Row>)>) -> Result<(), TestCaseError> {
        let join = range_join(jt);
        let (mut sa, mut sb) = (StreamJoinState::default(), StreamJoinState::default());
        for (i, (l, r)) in batches.into_iter().enumerate() {
            let wm = WatermarkMs::from_ms(i as i64 * 180_000);
            let x = run_stream_join(&mut sa, l.clone(), r.clone(), 2, &join, a, wm, wm, &Default::default());
            let y = run_stream_join(&mut sb, l, r, 2, &join, b, wm, wm, &Default::default());
            prop_assert_eq!(&x.0, &y.0);
            prop_assert_eq!(x.1, y.1);
            prop_assert_eq!(x.1.num_rows_total, sa.row_count());
            let rows = |s: &StateStore<Vec<Buffered>>| s.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
            prop_assert_eq!(rows(&sa.left), rows(&sb.left));
            prop_assert_eq!(rows(&sa.right), rows(&sb.right));
            prop_assert_eq!(sa.left.take_delta(), sb.left.take_delta());
            prop_assert_eq!(sa.right.take_delta(), sb.right.take_delta());
        }
        Ok(())
    }

    fn batches() -> impl Strategy<Value = Vec<(Vec<Row>, Vec<Row>)>> {
        proptest::collection::vec((proptest::collection::vec(row(), 0..6), proptest::collection::vec(row(), 0..6)), 1..5)
    }

    proptest! {
        /// Finding partners by one key lookup (`exact_keys`) gives the rows, metrics and
        /// buffers that comparing every buffered key gives.
        #[test]
        fn a_key_lookup_joins_what_a_key_scan_joins(jt in join_type(), batches in batches()) {
            same_runs(jt, &range_spec(false, false, false), &range_spec(true, false, false), batches)?;
        }

        /// Probing only the time range the condition allows (and evicting through the
        /// eviction index) gives the rows, metrics, buffers and checkpoint deltas that
        /// checking every buffered row of the key gives, with either state watermark.
        #[test]
        fn a_time_range_probe_joins_what_a_bucket_scan_joins(jt in join_type(), key_state in any::<bool>(), batches in batches()) {
            same_runs(jt, &range_spec(true, false, key_state), &range_spec(true, true, key_state), batches)?;
        }
    }
}
