//! Stream-static joins: each micro-batch joins its new stream rows with the whole static
//! table, so they keep no state (spec §7.4).

use super::eval::{compare, eval_predicate};
use crate::analysis::plan::JoinSpec;
use crate::plan::JoinType;
use crate::types::{Row, Value};

/// Joins `left` and `right` rows per `join` (nested loop; null keys never match).
pub fn run_static_join(left: &[Row], right: &[Row], left_width: usize, join: &JoinSpec) -> Vec<Row> {
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
                eval_predicate(c, &both)
            }
            None => true,
        }
    };
    let project = |both: Row| -> Row { join.output.iter().map(|i| both.get(*i).cloned().unwrap_or(Value::Null)).collect() };
    let mut out = Vec::new();
    let mut right_matched = vec![false; right.len()];
    for l in left {
        let mut any = false;
        for (ri, r) in right.iter().enumerate() {
            if matches(l, r) {
                any = true;
                right_matched[ri] = true;
                if matches!(join.join_type, JoinType::Inner | JoinType::LeftOuter | JoinType::RightOuter | JoinType::FullOuter | JoinType::Cross) {
                    let mut both = l.clone();
                    both.extend(r.iter().cloned());
                    out.push(project(both));
                }
            }
        }
        let pad_left = matches!(join.join_type, JoinType::LeftOuter | JoinType::FullOuter) && !any;
        if pad_left {
            let mut both = l.clone();
            both.extend(std::iter::repeat_n(Value::Null, join.right_width));
            out.push(project(both));
        }
        if (join.join_type == JoinType::LeftSemi && any) || (join.join_type == JoinType::LeftAnti && !any) {
            out.push(project(l.clone()));
        }
    }
    if matches!(join.join_type, JoinType::RightOuter | JoinType::FullOuter) {
        for (ri, r) in right.iter().enumerate() {
            if !right_matched[ri] {
                let mut both: Row = std::iter::repeat_n(Value::Null, left_width).collect();
                both.extend(r.iter().cloned());
                out.push(project(both));
            }
        }
    }
    out
}
