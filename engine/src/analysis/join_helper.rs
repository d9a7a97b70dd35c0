//! How a stream-stream join's condition bounds its state: `StreamingJoinHelper` (what
//! `UnsupportedOperationChecker` asks of outer and semi joins) and
//! `StreamingSymmetricHashJoinHelper` (the state watermarks and the condition split the
//! executor uses).
//!
//! The two differ on purpose, as in Spark: the checker only asks that a range conjunct bound
//! *some* time column of the nullable side by the *other* side's watermarked column, while the
//! executor gives a side a state predicate only if that side itself has an event-time column.
//! So a left outer join with a watermark on the right side alone passes `start()` and then
//! never evicts (and never null-pads) a left row.

use std::collections::{BTreeMap, BTreeSet};

use super::plan::{Attr, BoundExpr, ProbeBound, ProbeRange, StateWatermark, StreamJoinSpec};
use crate::plan::{BinOp, JoinType};
use crate::types::time::{floor_micros_to_millis, saturating_seconds_to_micros, MICROS_PER_DAY};
use crate::types::{CalendarInterval, DataType};

/// The conjuncts of an AND tree.
pub fn conjuncts(e: &BoundExpr) -> Vec<&BoundExpr> {
    match e {
        BoundExpr::Binary(BinOp::And, a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        other => vec![other],
    }
}

/// The conjunction of `parts`, `None` when empty.
pub fn and_all(parts: Vec<BoundExpr>) -> Option<BoundExpr> {
    parts.into_iter().reduce(|a, b| BoundExpr::Binary(BinOp::And, Box::new(a), Box::new(b)))
}

/// Columns an expression reads.
pub fn references(e: &BoundExpr) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    e.columns(&mut out);
    out
}

/// `left.col = right.col` conjuncts of a join condition over `left ++ right` (left width
/// `lw`), as (left index, right index): the equi-join keys (`ExtractEquiJoinKeys`).
pub fn equi_keys(cond: &BoundExpr, lw: usize) -> Vec<(usize, usize)> {
    conjuncts(cond)
        .into_iter()
        .filter_map(|c| match c {
            BoundExpr::Binary(BinOp::Eq, a, b) => match (a.as_ref(), b.as_ref()) {
                (BoundExpr::Col(x), BoundExpr::Col(y)) if *x < lw && *y >= lw => Some((*x, *y - lw)),
                (BoundExpr::Col(x), BoundExpr::Col(y)) if *y < lw && *x >= lw => Some((*y, *x - lw)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// A time expression as `Σ coef·column + constant µs`, if it is one (sums and
/// differences of time columns, day-time intervals and numbers of seconds).
fn linear(e: &BoundExpr, attrs: &[Attr]) -> Option<(BTreeMap<usize, i64>, i64)> {
    match e {
        BoundExpr::Col(i) if matches!(attrs.get(*i).map(|a| &a.data_type), Some(DataType::Timestamp(..))) => {
            Some((BTreeMap::from([(*i, 1)]), 0))
        }
        BoundExpr::Interval(iv) if iv.months == 0 => Some((BTreeMap::new(), i64::from(iv.days) * MICROS_PER_DAY + iv.micros)),
        BoundExpr::Lit(v) => v.as_i64().map(|n| (BTreeMap::new(), saturating_seconds_to_micros(n))),
        BoundExpr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (mut ca, ka) = linear(a, attrs)?;
            let (cb, kb) = linear(b, attrs)?;
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            for (col, c) in cb {
                *ca.entry(col).or_insert(0) += sign * c;
            }
            ca.retain(|_, c| *c != 0);
            Some((ca, ka + sign * kb))
        }
        _ => None,
    }
}

/// True if `condition` has a conjunct `a = b` (or `a <=> b`) with `a` over one side's columns
/// and `b` over the other's (`ExtractEquiJoinKeys`: `lower(adId) = lower(clickAdId)` is one);
/// the left side's columns are those below `left_width`.
pub fn has_equality(condition: Option<&BoundExpr>, left_width: usize) -> bool {
    let side = |e: &BoundExpr| {
        let cols = references(e);
        match (cols.first(), cols.last()) {
            (Some(_), Some(&hi)) if hi < left_width => Some(true),
            (Some(&lo), Some(_)) if lo >= left_width => Some(false),
            _ => None,
        }
    };
    condition.is_some_and(|c| {
        conjuncts(c).into_iter().any(|e| match e {
            BoundExpr::Binary(BinOp::Eq | BinOp::EqNullSafe, a, b) => matches!((side(a), side(b)), (Some(x), Some(y)) if x != y),
            _ => false,
        })
    })
}

/// `getStateValueWatermark`: over the conjuncts `A < B`, `A <= B`, `A > B`, `A >= B` that
/// bound one column of `this_side` (indices into `attrs`) from below by the watermarked
/// column `other` of the other side, the smallest offset (ms) to add to the watermark; a
/// non-strict bound takes 1 ms more off (`<=`: rows at the bound may still match).
pub fn state_value_watermark(cond: &BoundExpr, attrs: &[Attr], this_side: &BTreeSet<usize>, other: usize) -> Option<i64> {
    let mut best: Option<i64> = None;
    for c in conjuncts(cond) {
        let BoundExpr::Binary(op, a, b) = c else { continue };
        // Canonical form: E < 0 (strict) or E <= 0.
        let (pos, neg, strict) = match op {
            BinOp::Lt => (a, b, true),
            BinOp::LtEq => (a, b, false),
            BinOp::Gt => (b, a, true),
            BinOp::GtEq => (b, a, false),
            _ => continue,
        };
        let (Some((cp, kp)), Some((cn, kn))) = (linear(pos, attrs), linear(neg, attrs)) else { continue };
        let mut coef = cp;
        for (col, c) in cn {
            *coef.entry(col).or_insert(0) -= c;
        }
        coef.retain(|_, c| *c != 0);
        let constant_us = kp - kn;
        // E = other − this + c < 0  ⇔  this > other + c: a lower bound on this side's time.
        let this_col = coef.keys().find(|k| this_side.contains(k)).copied();
        if coef.len() == 2 && coef.get(&other) == Some(&1) && this_col.is_some_and(|t| coef.get(&t) == Some(&-1)) {
            let offset_ms = floor_micros_to_millis(constant_us) - i64::from(!strict);
            best = Some(best.map_or(offset_ms, |b: i64| b.min(offset_ms)));
        }
    }
    best
}

/// `StreamingJoinHelper.isWatermarkInJoinKeys`: an equi-join key is a watermarked column.
fn watermark_in_keys(left: &[Attr], right: &[Attr], keys: &[(usize, usize)]) -> Option<usize> {
    keys.iter().position(|(l, _)| left[*l].is_event_time()).or_else(|| keys.iter().position(|(_, r)| right[*r].is_event_time()))
}

/// Whether the other side's watermark bounds `this` side's state through the condition
/// (`getStateValueWatermark(this, other, condition, dummy).isDefined`).
fn range_bounds(cond: Option<&BoundExpr>, all: &[Attr], this_side: &BTreeSet<usize>, other_side: &BTreeSet<usize>) -> bool {
    let Some(cond) = cond else { return false };
    other_side.iter().filter(|o| all[**o].is_event_time()).any(|o| state_value_watermark(cond, all, this_side, *o).is_some())
}

/// The `UnsupportedOperationChecker` rule for stream-stream outer and semi joins:
/// a watermarked equi-join key, or a range condition through which the other
/// side's watermark bounds the side whose rows wait: LeftOuter and LeftSemi bound the left
/// side by the right's watermark, RightOuter the right by the left's, FullOuter either.
/// Inner joins always pass.
pub fn checker_accepts(join_type: JoinType, left: &[Attr], right: &[Attr], keys: &[(usize, usize)], condition: Option<&BoundExpr>) -> bool {
    if !matches!(join_type, JoinType::LeftOuter | JoinType::LeftSemi | JoinType::RightOuter | JoinType::FullOuter) {
        return true;
    }
    if watermark_in_keys(left, right, keys).is_some() {
        return true;
    }
    let mut all = left.to_vec();
    all.extend(right.iter().cloned());
    let lw = left.len();
    let l: BTreeSet<usize> = (0..lw).collect();
    let r: BTreeSet<usize> = (lw..all.len()).collect();
    match join_type {
        JoinType::LeftOuter | JoinType::LeftSemi => range_bounds(condition, &all, &l, &r),
        JoinType::RightOuter => range_bounds(condition, &all, &r, &l),
        _ => range_bounds(condition, &all, &l, &r) || range_bounds(condition, &all, &r, &l),
    }
}

/// What `StreamingSymmetricHashJoinExec` derives from the (optimized) join condition
/// (`getStateWatermarkPredicates`, `JoinConditionSplitPredicates`): each side's state
/// watermark — the watermarked equi-join key for both sides, else, for a side that has an
/// event-time column, the range bound by the other side's watermark — and the conjuncts that
/// read only one side (its pre-join filter).
pub fn stream_join_spec(left: &[Attr], right: &[Attr], keys: &[(usize, usize)], condition: Option<&BoundExpr>) -> StreamJoinSpec {
    let left_time = left.iter().position(Attr::is_event_time);
    let right_time = right.iter().position(Attr::is_event_time);
    let lw = left.len();
    let mut all = left.to_vec();
    all.extend(right.iter().cloned());
    let (mut left_only, mut right_only) = (Vec::new(), Vec::new());
    if let Some(c) = condition {
        for part in conjuncts(c) {
            let refs = references(part);
            if refs.iter().all(|i| *i < lw) {
                left_only.push(part.clone());
            }
            if refs.iter().all(|i| *i >= lw) {
                right_only.push(shift(part, lw));
            }
        }
    }
    // A watermarked equi-join key bounds both sides (it takes precedence over ranges).
    let (left_state, right_state) = if let Some(key_index) = watermark_in_keys(left, right, keys) {
        (StateWatermark::Key { key_index }, StateWatermark::Key { key_index })
    } else {
        let l: BTreeSet<usize> = (0..lw).collect();
        let r: BTreeSet<usize> = (lw..all.len()).collect();
        let side = |this_time: Option<usize>, this_side: &BTreeSet<usize>, other_side: &BTreeSet<usize>| match (this_time, condition) {
            (Some(_), Some(c)) => other_side
                .iter()
                .filter(|o| all[**o].is_event_time())
                .find_map(|o| state_value_watermark(c, &all, this_side, *o))
                .map_or(StateWatermark::None, |offset_ms| StateWatermark::Value { offset_ms }),
            _ => StateWatermark::None,
        };
        (side(left_time, &l, &r), side(right_time, &r, &l))
    };
    let exact_keys = keys.iter().all(|(l, r)| match (left.get(*l), right.get(*r)) {
        (Some(a), Some(b)) => exact_key_types(&a.data_type, &b.data_type),
        _ => false,
    });
    let is_key_equality = |part: &BoundExpr| match part {
        BoundExpr::Binary(BinOp::Eq, a, b) => match (a.as_ref(), b.as_ref()) {
            (BoundExpr::Col(x), BoundExpr::Col(y)) => keys.iter().any(|(l, r)| (*x, *y) == (*l, *r + lw) || (*y, *x) == (*l, *r + lw)),
            _ => false,
        },
        _ => false,
    };
    let pair_condition = condition.and_then(|c| if exact_keys { and_all(conjuncts(c).into_iter().filter(|p| !is_key_equality(p)).cloned().collect()) } else { Some(c.clone()) }).map(Box::new);
    let left_probe = condition.and_then(|c| probe_range(c, &all, 0..lw, lw..all.len(), left_time));
    let right_probe = condition.and_then(|c| probe_range(c, &all, lw..all.len(), 0..lw, right_time.map(|t| t + lw)));
    StreamJoinSpec {
        left_time,
        right_time,
        left_state,
        right_state,
        left_only: and_all(left_only),
        right_only: and_all(right_only),
        exact_keys,
        pair_condition,
        left_probe,
        right_probe,
    }
}

/// A timestamp column alone or plus/minus one interval literal, as the condition evaluates it
/// (`Timestamp ± interval` keeps the interval's parts): the column and the interval added.
fn time_term(e: &BoundExpr, all: &[Attr]) -> Option<(usize, CalendarInterval)> {
    let is_time = |i: &usize| matches!(all.get(*i).map(|a| &a.data_type), Some(DataType::Timestamp(..)));
    match e {
        BoundExpr::Col(i) if is_time(i) => Some((*i, CalendarInterval::default())),
        BoundExpr::Binary(BinOp::Add, c, iv) | BoundExpr::Binary(BinOp::Sub, c, iv) => {
            let (BoundExpr::Col(i), BoundExpr::Interval(iv)) = (c.as_ref(), iv.as_ref()) else { return None };
            if !is_time(i) {
                return None;
            }
            let neg = matches!(e, BoundExpr::Binary(BinOp::Sub, ..));
            let iv = if neg { CalendarInterval { months: iv.months.checked_neg()?, days: iv.days.checked_neg()?, micros: iv.micros.checked_neg()? } } else { *iv };
            Some((*i, iv))
        }
        _ => None,
    }
}

/// The range conjuncts (`A < B`, `A <= B`, `A > B`, `A >= B` over `left ++ right`, `all`) that
/// bound a timestamp column of the `buffered` side (indices into `all`) by a timestamp column
/// of the `probing` side of the same type, each side a column plus or minus an interval (the
/// buffered side's without months, so it is a fixed number of µs): [`ProbeRange`], on the
/// buffered side's event-time column `preferred` when it has bounds, else on the first column
/// that has. `None` when no conjunct bounds the buffered side.
fn probe_range(cond: &BoundExpr, all: &[Attr], buffered: std::ops::Range<usize>, probing: std::ops::Range<usize>, preferred: Option<usize>) -> Option<ProbeRange> {
    // Per buffered column (index in `all`): its (lower, upper) bounds.
    let mut found: BTreeMap<usize, (Vec<ProbeBound>, Vec<ProbeBound>)> = BTreeMap::new();
    for c in conjuncts(cond) {
        let BoundExpr::Binary(op, a, b) = c else { continue };
        // lhs <= rhs (a strict bound is kept as non-strict: a superset of the rows).
        let (lhs, rhs) = match op {
            BinOp::Lt | BinOp::LtEq => (a, b),
            BinOp::Gt | BinOp::GtEq => (b, a),
            _ => continue,
        };
        let (Some((lc, li)), Some((rc, ri))) = (time_term(lhs, all), time_term(rhs, all)) else { continue };
        if all[lc].data_type != all[rc].data_type {
            continue;
        }
        let fixed = |iv: CalendarInterval| -> Option<i64> {
            if iv.months != 0 {
                return None;
            }
            i64::try_from(i128::from(iv.days) * i128::from(MICROS_PER_DAY) + i128::from(iv.micros)).ok()
        };
        if buffered.contains(&lc) && probing.contains(&rc) {
            // buffered + li <= probe + ri: an upper bound.
            let Some(buffered_us) = fixed(li) else { continue };
            found.entry(lc).or_default().1.push(ProbeBound { probe_col: rc - probing.start, probe_interval: ri, buffered_us });
        } else if probing.contains(&lc) && buffered.contains(&rc) {
            // probe + li <= buffered + ri: a lower bound.
            let Some(buffered_us) = fixed(ri) else { continue };
            found.entry(rc).or_default().0.push(ProbeBound { probe_col: lc - probing.start, probe_interval: li, buffered_us });
        }
    }
    let column = preferred.filter(|p| found.contains_key(p)).or_else(|| found.keys().next().copied())?;
    let (lower, upper) = found.remove(&column)?;
    Some(ProbeRange { column: column - buffered.start, lower, upper })
}

/// True when a key column of type `a` on one side and `b` on the other are equal exactly when
/// the state store's key order says so ([`StreamJoinSpec::exact_keys`]): integers of any width
/// together, else one type that is not a floating-point number (recursively for structs).
fn exact_key_types(a: &DataType, b: &DataType) -> bool {
    use DataType::*;
    match (a, b) {
        (Int8 | Int16 | Int32 | Int64, Int8 | Int16 | Int32 | Int64) => true,
        (Utf8, Utf8) | (Boolean, Boolean) | (Date32, Date32) | (Binary, Binary) | (Timestamp(..), Timestamp(..)) => true,
        (Struct(x), Struct(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(f, g)| exact_key_types(f.data_type(), g.data_type())),
        _ => false,
    }
}

/// `e` with every column index lowered by `by` (a right-side conjunct over `left ++ right`
/// made to read the right row alone).
pub fn shift(e: &BoundExpr, by: usize) -> BoundExpr {
    map_columns(e, &|i| BoundExpr::Col(i.saturating_sub(by)))
}

/// `e` with every column reference replaced by `f(index)`.
pub fn map_columns(e: &BoundExpr, f: &dyn Fn(usize) -> BoundExpr) -> BoundExpr {
    let m = |x: &BoundExpr| Box::new(map_columns(x, f));
    match e {
        BoundExpr::Col(i) => f(*i),
        BoundExpr::Lit(_) | BoundExpr::Interval(_) | BoundExpr::LambdaVar(_) => e.clone(),
        BoundExpr::Lambda(p, x) => BoundExpr::Lambda(p.clone(), m(x)),
        BoundExpr::ToJson(x, t) => BoundExpr::ToJson(m(x), t.clone()),
        BoundExpr::Binary(op, a, b) => BoundExpr::Binary(*op, m(a), m(b)),
        BoundExpr::Not(x) => BoundExpr::Not(m(x)),
        BoundExpr::Negate(x) => BoundExpr::Negate(m(x)),
        BoundExpr::IsNull(x, n) => BoundExpr::IsNull(m(x), *n),
        BoundExpr::Case { branches, otherwise } => BoundExpr::Case {
            branches: branches.iter().map(|(c, v)| (map_columns(c, f), map_columns(v, f))).collect(),
            otherwise: otherwise.as_ref().map(|o| m(o)),
        },
        BoundExpr::Cast(x, t) => BoundExpr::Cast(m(x), t.clone()),
        BoundExpr::Function(n, args) => BoundExpr::Function(n.clone(), args.iter().map(|a| map_columns(a, f)).collect()),
        BoundExpr::WindowTime(x) => BoundExpr::WindowTime(m(x)),
        BoundExpr::Field(x, i) => BoundExpr::Field(m(x), *i),
        BoundExpr::FromJson(x, t) => BoundExpr::FromJson(m(x), t.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::timestamp_type;

    /// Which key types one lookup is exact for: doubles are not (`-0.0 = 0.0` in SQL, not in
    /// the store's order), nor a string against a number (SQL compares it as a number).
    #[test]
    fn exact_key_types_leave_out_doubles_and_mixed_types() {
        let exact = |a: DataType, b: DataType| stream_join_spec(&[Attr::new("k", a)], &[Attr::new("k", b)], &[(0, 0)], None).exact_keys;
        assert!(exact(DataType::Utf8, DataType::Utf8));
        assert!(exact(DataType::Int32, DataType::Int64));
        assert!(exact(timestamp_type(), timestamp_type()));
        assert!(!exact(DataType::Float64, DataType::Float64));
        assert!(!exact(DataType::Utf8, DataType::Int64));
        assert!(!exact(timestamp_type(), DataType::Utf8));
    }

    /// `l.k = r.k AND r.t >= l.t AND l.v = r.v` over `[k, t] ++ [k, t, v']` with the key
    /// `(0, 0)`: a pair found by an exact lookup of `k` still checks the range and the equality
    /// that is not a join key (`l.k` is column 0, `r.k` column 2; the lookup decided only that
    /// one); a lookup that is not exact (a string key against a long) checks all of it.
    #[test]
    fn a_pair_found_by_an_exact_key_lookup_skips_only_the_key_equality() {
        let col = |i| Box::new(BoundExpr::Col(i));
        let and = |a, b| BoundExpr::Binary(BinOp::And, Box::new(a), Box::new(b));
        let key_eq = BoundExpr::Binary(BinOp::Eq, col(2), col(0));
        let range = BoundExpr::Binary(BinOp::GtEq, col(3), col(1));
        let other_eq = BoundExpr::Binary(BinOp::Eq, col(1), col(4));
        let condition = and(and(key_eq, range.clone()), other_eq.clone());
        let side = |k: DataType| vec![Attr::new("k", k), Attr::new("t", timestamp_type()), Attr::new("v", timestamp_type())];
        let spec = |l: DataType, r: DataType| stream_join_spec(&side(l)[..2], &side(r), &[(0, 0)], Some(&condition));
        assert_eq!(spec(DataType::Utf8, DataType::Utf8).pair_condition, Some(Box::new(and(range, other_eq))));
        assert_eq!(spec(DataType::Utf8, DataType::Int64).pair_condition, Some(Box::new(condition.clone())));
    }
}
