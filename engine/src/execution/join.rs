//! Stream-static joins: each micro-batch joins its new stream rows with the whole static
//! table, so they keep no state.

use super::compare::compare;
use super::eval::eval_predicate;
use crate::analysis::plan::JoinSpec;
use crate::plan::JoinType;
use crate::types::{Row, Value};

/// Joins `left` and `right` rows per `join` (nested loop; null keys never match).
pub fn run_static_join(left: &[Row], right: &[Row], left_width: usize, join: &JoinSpec, cx: &super::context::EvalContext) -> Vec<Row> {
    let mut out = Vec::new();
    run_static_join_with(left, right, left_width, join, cx, &mut |_, _, row| out.push(row));
    out
}

/// [`run_static_join`], handing each output row to `emit` in output order with the index of
/// the left and of the right row it came from (`None` for the null-padded side), so a trace
/// can follow each input row through the join.
pub fn run_static_join_with(left: &[Row], right: &[Row], left_width: usize, join: &JoinSpec, cx: &super::context::EvalContext, emit: &mut dyn FnMut(Option<usize>, Option<usize>, Row)) {
    let matches = |l: &Row, r: &Row| -> bool {
        for (li, ri) in &join.keys {
            let (a, b) = (&l[*li], &r[*ri]);
            if a.is_null() || b.is_null() || compare(a, b) != Some(std::cmp::Ordering::Equal) {
                return false;
            }
        }
        match &join.condition {
            Some(c) => {
                let mut both = l.clone();
                both.extend(r.iter().cloned());
                eval_predicate(c, &both, cx)
            }
            None => true,
        }
    };
    let project = |both: Row| -> Row { join.output.iter().map(|i| both.get(*i).cloned().unwrap_or(Value::Null)).collect() };
    let mut right_matched = vec![false; right.len()];
    for (li, l) in left.iter().enumerate() {
        let mut any = false;
        for (ri, r) in right.iter().enumerate() {
            if matches(l, r) {
                any = true;
                right_matched[ri] = true;
                if matches!(join.join_type, JoinType::Inner | JoinType::LeftOuter | JoinType::RightOuter | JoinType::FullOuter | JoinType::Cross) {
                    let mut both = l.clone();
                    both.extend(r.iter().cloned());
                    emit(Some(li), Some(ri), project(both));
                }
            }
        }
        let pad_left = matches!(join.join_type, JoinType::LeftOuter | JoinType::FullOuter) && !any;
        if pad_left {
            let mut both = l.clone();
            both.extend(std::iter::repeat_n(Value::Null, join.right_width));
            emit(Some(li), None, project(both));
        }
        if (join.join_type == JoinType::LeftSemi && any) || (join.join_type == JoinType::LeftAnti && !any) {
            emit(Some(li), None, project(l.clone()));
        }
    }
    if matches!(join.join_type, JoinType::RightOuter | JoinType::FullOuter) {
        for (ri, r) in right.iter().enumerate() {
            if !right_matched[ri] {
                let mut both: Row = std::iter::repeat_n(Value::Null, left_width).collect();
                both.extend(r.iter().cloned());
                emit(None, Some(ri), project(both));
            }
        }
    }
}
