//! `StreamingSymmetricHashJoinExec`: a stream-stream join keeps both sides' rows in state,
//! so a row arriving later can still meet its partner (spec §7.1).
//!
//! Per batch: late rows are dropped per side; each new left row probes the right buffer;
//! each new right row probes the left buffer, which already holds this batch's left rows,
//! so every new pair is produced once. Matched rows are flagged. Then each side's state
//! watermark evicts old rows, and an outer side's unmatched rows leave as null-padded rows.

use super::eval::{compare, eval_predicate};
use super::OperatorMetrics;
use crate::analysis::{JoinSpec, StateWatermark, StreamJoinSpec};
use crate::plan::JoinType;
use crate::state::StateStore;
use crate::types::{Row, Value};

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

fn keys_equal(a: &Row, b: &Row) -> bool {
    a.iter().zip(b).all(|(x, y)| !x.is_null() && !y.is_null() && compare(x, y) == Some(std::cmp::Ordering::Equal))
}

/// Runs one batch of a stream-stream join. `evict_wm_ms` is W, `late_wm_ms` judges late rows.
#[allow(clippy::too_many_arguments)]
pub fn run_stream_join(
    state: &mut StreamJoinState,
    left_rows: Vec<Row>,
    right_rows: Vec<Row>,
    left_width: usize,
    join: &JoinSpec,
    spec: &StreamJoinSpec,
    late_wm_ms: i64,
    evict_wm_ms: i64,
) -> (Vec<Row>, OperatorMetrics) {
    let late_us = late_wm_ms.saturating_mul(1000);
    let mut dropped = 0u64;
    let mut not_late = |rows: Vec<Row>, time: Option<usize>| -> Vec<Row> {
        rows.into_iter()
            .filter(|r| {
                let late = time.and_then(|t| r.get(t)).and_then(Value::event_time_us).is_some_and(|t| t <= late_us);
                dropped += u64::from(late);
                !late
            })
            .collect()
    };
    let left_rows = not_late(left_rows, spec.left_time);
    let right_rows = not_late(right_rows, spec.right_time);
    let lkey = |r: &Row| -> Row { join.keys.iter().map(|(l, _)| r[*l].clone()).collect() };
    let rkey = |r: &Row| -> Row { join.keys.iter().map(|(_, rr)| r[*rr].clone()).collect() };
    let both = |l: &Row, r: &Row| -> Row {
        let mut b = l.clone();
        b.extend(r.iter().cloned());
        b
    };
    let passes = |l: &Row, r: &Row| join.condition.as_ref().is_none_or(|c| eval_predicate(c, &both(l, r)));
    let project = |b: Row| -> Row { join.output.iter().map(|i| b.get(*i).cloned().unwrap_or(Value::Null)).collect() };
    let semi = join.join_type == JoinType::LeftSemi;
    let mut out = Vec::new();
    let mut updated = 0u64;

    // 1. New left rows probe the right buffer.
    for l in left_rows {
        let k = lkey(&l);
        let mut any = false;
        let keys: Vec<Row> = state.right.iter().filter(|(rk, _)| keys_equal(&k, rk)).map(|(rk, _)| rk.clone()).collect();
        for rk in keys {
            if let Some(bucket) = state.right.get_mut(&rk) {
                for b in bucket.iter_mut() {
                    if passes(&l, &b.row) {
                        any = true;
                        b.matched = true;
                        if !semi {
                            out.push(project(both(&l, &b.row)));
                        }
                    }
                }
            }
        }
        if semi && any {
            out.push(project(l.clone()));
            continue;
        }
        push(&mut state.left, k, Buffered { row: l, matched: any });
        updated += 1;
    }
    // 2. New right rows probe the left buffer (which already holds this batch's left rows).
    for r in right_rows {
        let k = rkey(&r);
        let mut any = false;
        let keys: Vec<Row> = state.left.iter().filter(|(lk, _)| keys_equal(&k, lk)).map(|(lk, _)| lk.clone()).collect();
        for lk in keys {
            if let Some(bucket) = state.left.get_mut(&lk) {
                for b in bucket.iter_mut() {
                    if passes(&b.row, &r) {
                        any = true;
                        if semi {
                            if !b.matched {
                                out.push(project(b.row.clone()));
                            }
                        } else {
                            out.push(project(both(&b.row, &r)));
                        }
                        b.matched = true;
                    }
                }
            }
        }
        // Spark 4.3 does not store a row of a left semi join that matched on arrival, on
        // either side (recorded: engine/tests/cases/own-ss-join-left-semi.json).
        if semi && any {
            continue;
        }
        push(&mut state.right, k, Buffered { row: r, matched: any });
        updated += 1;
    }

    // 3. and 4. The state watermarks let old rows go; an outer side's unmatched rows are
    // emitted with nulls for the other side.
    let mut removed = 0u64;
    let left_outer = matches!(join.join_type, JoinType::LeftOuter | JoinType::FullOuter);
    let right_outer = matches!(join.join_type, JoinType::RightOuter | JoinType::FullOuter);
    let right_width = join.right_width;
    let evicted_left = evict(&mut state.left, spec.left_state, spec.left_time, evict_wm_ms);
    for b in evicted_left {
        removed += 1;
        if left_outer && !b.matched {
            let mut row = b.row;
            row.extend(std::iter::repeat_n(Value::Null, right_width));
            out.push(project(row));
        }
    }
    let evicted_right = evict(&mut state.right, spec.right_state, spec.right_time, evict_wm_ms);
    for b in evicted_right {
        removed += 1;
        if right_outer && !b.matched {
            let mut row: Row = std::iter::repeat_n(Value::Null, left_width).collect();
            row.extend(b.row);
            out.push(project(row));
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
fn evict(
    store: &mut StateStore<Vec<Buffered>>,
    wm: StateWatermark,
    time: Option<usize>,
    evict_wm_ms: i64,
) -> Vec<Buffered> {
    let expired = |key: &Row, b: &Buffered| -> bool {
        match wm {
            StateWatermark::None => false,
            StateWatermark::Key { key_index } => key
                .get(key_index)
                .and_then(Value::event_time_us)
                .is_some_and(|t| t <= evict_wm_ms.saturating_mul(1000)),
            StateWatermark::Value { offset_ms } => time
                .and_then(|t| b.row.get(t))
                .and_then(Value::event_time_us)
                .is_some_and(|t| t <= evict_wm_ms.saturating_add(offset_ms).saturating_mul(1000)),
        }
    };
    let mut gone = Vec::new();
    for (key, bucket) in store.iter_mut_all() {
        let (out, keep): (Vec<Buffered>, Vec<Buffered>) = std::mem::take(bucket).into_iter().partition(|b| expired(key, b));
        *bucket = keep;
        gone.extend(out);
    }
    store.retain_non_empty(|v: &Vec<Buffered>| !v.is_empty());
    gone
}
