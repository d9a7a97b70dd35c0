//! The optimizer rules that change what a streaming query does, applied to the checked plan
//! before it runs (Catalyst's `Optimizer`, `SparkStrategies.StreamingGlobalLimitStrategy`).
//!
//! Spark optimizes every micro-batch's plan; rewrites that only make a batch faster are
//! invisible, but these move rows past stateful operators and the watermark, so they change
//! results, state metrics and the watermark itself:
//! - `PushDownPredicates` (`PushPredicateThroughNonJoin`, `PushPredicateThroughJoin`,
//!   `CombineFilters`): a deterministic conjunct moves below a projection, a `Union`, a sort,
//!   a time window, an aggregation (if it reads only grouping keys) and an
//!   `EventTimeWatermark` (if it does not read the event-time column), so rows it removes
//!   never reach the watermark's statistics or an operator's state; around a join, each
//!   conjunct goes to the side it reads as far as the join type allows, and an inner join
//!   takes the conjuncts that read both sides into its condition (where they can become a
//!   time-range condition).
//! - `EliminateOuterJoin`: a filter that rejects the null-padded rows of an outer join's
//!   nullable side turns it into an inner (or one-sided outer) join.
//! - `InferFiltersFromConstraints`: a join derives `IsNotNull` for the columns its
//!   condition reads null-intolerantly and, through equi-join keys, copies a side's
//!   predicates to the other side; the new filters are pushed down like any other.
//! - `ColumnPruning`, where it removes the event-time column from under a deduplication
//!   (SPARK-58979, a Spark 4.3.0 bug; `column_pruning.rs`).
//! - `StreamingGlobalLimitStrategy`: `limit(n)` keeps state (`StreamingGlobalLimitExec`) in
//!   append mode, or in complete mode over a plan without a streaming aggregation; otherwise
//!   it takes the first n rows of each batch's result (`TakeOrderedAndProjectExec` after a
//!   sort) and keeps no state.

use std::collections::BTreeSet;

use crate::analysis::join_helper::{and_all, conjuncts, equi_keys, map_columns, references, stream_join_spec};
use crate::analysis::plan::{BoundExpr, JoinSpec, Node, Plan};
use crate::analysis::resolve::number_stateful_operators;
use crate::plan::{BinOp, JoinType};
use crate::plan::OutputMode;
use crate::types::Value;

/// Rewrites a checked plan into the plan Spark executes for `mode`. Stateful operators are
/// renumbered root-first afterwards, as physical planning numbers them.
pub fn optimize(plan: Plan, mode: OutputMode) -> Plan {
    let plan = push(plan, Vec::new());
    let plan = infer_filters(plan);
    let plan = push(plan, Vec::new());
    let plan = super::column_pruning::prune_dedup_event_time(plan);
    let mut plan = plan_limits(plan, mode);
    number_stateful_operators(&mut plan, &mut 0);
    plan
}

/// Functions whose value changes from row to row or run to run: never moved.
const NONDETERMINISTIC: &[&str] = &["rand", "randn", "random", "uuid", "shuffle", "monotonically_increasing_id", "spark_partition_id", "input_file_name"];

/// True if `e` gives the same value for the same row every time (`Expression.deterministic`).
pub fn is_deterministic(e: &BoundExpr) -> bool {
    let mut ok = true;
    visit(e, &mut |x| {
        if let BoundExpr::Function(n, _) = x {
            ok &= !NONDETERMINISTIC.contains(&n.as_str());
        }
    });
    ok
}

fn visit(e: &BoundExpr, f: &mut dyn FnMut(&BoundExpr)) {
    f(e);
    match e {
        BoundExpr::Col(_) | BoundExpr::Lit(_) | BoundExpr::Interval(_) | BoundExpr::LambdaVar(_) => {}
        BoundExpr::Lambda(_, x) | BoundExpr::ToJson(x, _) => visit(x, f),
        BoundExpr::Binary(_, a, b) => {
            visit(a, f);
            visit(b, f);
        }
        BoundExpr::Not(x) | BoundExpr::Negate(x) | BoundExpr::IsNull(x, _) | BoundExpr::Cast(x, _) | BoundExpr::WindowTime(x) | BoundExpr::Field(x, _) | BoundExpr::FromJson(x, _) => visit(x, f),
        BoundExpr::Case { branches, otherwise } => {
            for (c, v) in branches {
                visit(c, f);
                visit(v, f);
            }
            if let Some(o) = otherwise {
                visit(o, f);
            }
        }
        BoundExpr::Function(_, args) => args.iter().for_each(|a| visit(a, f)),
    }
}

fn filter(input: Plan, preds: Vec<BoundExpr>) -> Plan {
    let mut seen: Vec<BoundExpr> = Vec::new();
    for p in preds {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    match and_all(seen) {
        None => input,
        Some(predicate) => {
            let output = input.output.clone();
            let streaming = input.streaming;
            Plan { node: Node::Filter { input: Box::new(input), predicate }, output, streaming }
        }
    }
}

fn rebuild(node: Node, like: &Plan) -> Plan {
    Plan { node, output: like.output.clone(), streaming: like.streaming }
}

/// `PushDownPredicates`: pushes `preds` (conjuncts over `plan`'s output) as deep as they may
/// go, and does the same for every filter below.
fn push(plan: Plan, preds: Vec<BoundExpr>) -> Plan {
    let shell = Plan { node: Node::Union { inputs: vec![] }, output: plan.output.clone(), streaming: plan.streaming };
    match plan.node {
        Node::Filter { input, predicate } => {
            // CombineFilters: the lower condition first.
            let mut all: Vec<BoundExpr> = conjuncts(&predicate).into_iter().cloned().collect();
            all.extend(preds);
            push(*input, all)
        }
        Node::Project { input, exprs, aggregate_result } => {
            let substitutable = exprs.iter().all(is_deterministic);
            let (down, up): (Vec<BoundExpr>, Vec<BoundExpr>) = preds.into_iter().partition(|p| substitutable && is_deterministic(p));
            let down = down.iter().map(|p| map_columns(p, &|i| exprs.get(i).cloned().unwrap_or(BoundExpr::Lit(Value::Null)))).collect();
            let input = push(*input, down);
            filter(rebuild(Node::Project { input: Box::new(input), exprs, aggregate_result }, &shell), up)
        }
        Node::Watermark { input, column, delay_ms, watermark_index } => {
            // Only deterministic conjuncts that do not read the event-time column.
            let (down, up): (Vec<BoundExpr>, Vec<BoundExpr>) = preds.into_iter().partition(|p| is_deterministic(p) && !references(p).contains(&column));
            let input = push(*input, down);
            filter(rebuild(Node::Watermark { input: Box::new(input), column, delay_ms, watermark_index }, &shell), up)
        }
        Node::TimeWindow { input, time, spec } => {
            let window_col = input.output.len();
            let (down, up): (Vec<BoundExpr>, Vec<BoundExpr>) = preds.into_iter().partition(|p| is_deterministic(p) && !references(p).contains(&window_col));
            let input = push(*input, down);
            filter(rebuild(Node::TimeWindow { input: Box::new(input), time, spec }, &shell), up)
        }
        Node::Sort { input, order } => {
            let (down, up): (Vec<BoundExpr>, Vec<BoundExpr>) = preds.into_iter().partition(is_deterministic);
            let input = push(*input, down);
            filter(rebuild(Node::Sort { input: Box::new(input), order }, &shell), up)
        }
        Node::Union { inputs } => {
            let (down, up): (Vec<BoundExpr>, Vec<BoundExpr>) = preds.into_iter().partition(is_deterministic);
            let inputs = inputs.into_iter().map(|i| push(i, down.clone())).collect();
            filter(rebuild(Node::Union { inputs }, &shell), up)
        }
        Node::Aggregate { input, keys, aggs, event_time_key, mut session, op_id, distinct } => {
            // Output position of each grouping key (the session window, if any, is not a key).
            let key_at: Vec<Option<usize>> = (0..shell.output.len())
                .map(|pos| match &session {
                    Some(s) if pos == s.position => None,
                    Some(s) if pos > s.position => Some(pos - 1).filter(|k| *k < keys.len()),
                    _ => Some(pos).filter(|k| *k < keys.len()),
                })
                .collect();
            let session_pos = session.as_ref().map(|s| s.position);
            let grouping = |r: &usize| key_at.get(*r).copied().flatten().is_some() || Some(*r) == session_pos;
            let (down, up): (Vec<BoundExpr>, Vec<BoundExpr>) = preds.into_iter().partition(|p| {
                let refs = references(p);
                (!keys.is_empty() || session.is_some()) && is_deterministic(p) && !refs.is_empty() && refs.iter().all(grouping)
            });
            // A conjunct reading the session window is evaluated on each row's own session,
            // before sessions merge (over the input row plus that session).
            let (on_session, down): (Vec<BoundExpr>, Vec<BoundExpr>) = down.into_iter().partition(|p| session_pos.is_some_and(|s| references(p).contains(&s)));
            let width = input.output.len();
            let substitute = |p: &BoundExpr| {
                map_columns(p, &|i| match key_at.get(i).copied().flatten() {
                    Some(k) => keys[k].clone(),
                    None if Some(i) == session_pos => BoundExpr::Col(width),
                    None => BoundExpr::Lit(Value::Null),
                })
            };
            if let Some(s) = session.as_mut() {
                let mut parts: Vec<BoundExpr> = s.row_filter.take().into_iter().collect();
                parts.extend(on_session.iter().map(substitute));
                s.row_filter = and_all(parts);
            }
            let down = down.iter().map(substitute).collect();
            let input = push(*input, down);
            filter(rebuild(Node::Aggregate { input: Box::new(input), keys, aggs, event_time_key, session, op_id, distinct }, &shell), up)
        }
        Node::Dedup { input, keys, event_time_col, event_time_in_key, within_watermark, op_id } => {
            let input = push(*input, Vec::new());
            filter(rebuild(Node::Dedup { input: Box::new(input), keys, event_time_col, event_time_in_key, within_watermark, op_id }, &shell), preds)
        }
        Node::Limit { input, n, op_id } => filter(rebuild(Node::Limit { input: Box::new(push(*input, Vec::new())), n, op_id }, &shell), preds),
        Node::CollectLimit { input, n } => filter(rebuild(Node::CollectLimit { input: Box::new(push(*input, Vec::new())), n }, &shell), preds),
        Node::Window { input, functions } => filter(rebuild(Node::Window { input: Box::new(push(*input, Vec::new())), functions }, &shell), preds),
        // The processor's output is new columns: nothing above it moves below it.
        Node::TransformWithState { input, keys, processor, mode, time_mode, event_time_col, op_id } => filter(
            rebuild(
                Node::TransformWithState { input: Box::new(push(*input, Vec::new())), keys, processor, mode, time_mode, event_time_col, op_id },
                &shell,
            ),
            preds,
        ),
        // The function's output is new columns: nothing above it moves below it.
        Node::FlatMapGroupsWithState { input, keys, udf, state_schema, mode, timeout, event_time_col, op_id } => filter(
            rebuild(
                Node::FlatMapGroupsWithState { input: Box::new(push(*input, Vec::new())), keys, udf, state_schema, mode, timeout, event_time_col, op_id },
                &shell,
            ),
            preds,
        ),
        Node::Generate { input, generator, outer, position } => {
            // Conjuncts over the generator's input columns only go below it.
            let width = input.output.len();
            let (down, up): (Vec<BoundExpr>, Vec<BoundExpr>) = preds.into_iter().partition(|p| is_deterministic(p) && references(p).iter().all(|r| *r < width));
            let input = push(*input, down);
            filter(rebuild(Node::Generate { input: Box::new(input), generator, outer, position }, &shell), up)
        }
        Node::StaticJoin { left, right, join } => push_join(*left, *right, join, None, preds, &shell),
        Node::StreamJoin { left, right, join, op_id, .. } => push_join(*left, *right, join, Some(op_id), preds, &shell),
        other @ (Node::Source { .. } | Node::Static { .. }) => filter(rebuild(other, &shell), preds),
    }
}

/// `canFilterOutNull`: the predicate is false or null when every column it reads is null.
fn rejects_nulls(p: &BoundExpr, width: usize) -> bool {
    if !is_deterministic(p) {
        return false;
    }
    let nulls = vec![Value::Null; width];
    matches!(super::eval::eval(p, &nulls, &super::context::EvalContext::default()), Value::Null | Value::Bool(false))
}

/// `PushPredicateThroughJoin` and `EliminateOuterJoin` for a join with `preds` above it.
fn push_join(left: Plan, right: Plan, mut join: JoinSpec, op_id: Option<usize>, preds: Vec<BoundExpr>, shell: &Plan) -> Plan {
    let lw = left.output.len();
    // Join output position → index into `left ++ right`.
    let combined = |out_pos: usize| join.output.get(out_pos).copied();
    // Filter conjuncts over the join output, rewritten over `left ++ right`.
    let mut lifted: Vec<Option<BoundExpr>> = preds
        .iter()
        .map(|p| {
            let refs = references(p);
            refs.iter().all(|r| combined(*r).is_some()).then(|| map_columns(p, &|i| BoundExpr::Col(combined(i).unwrap_or(0))))
        })
        .collect();
    let only = |e: &BoundExpr, left_side: bool| {
        let refs = references(e);
        is_deterministic(e) && refs.iter().all(|i| (*i < lw) == left_side)
    };
    // EliminateOuterJoin.
    let width = lw + right.output.len();
    let rejects = |left_side: bool| lifted.iter().flatten().any(|p| !references(p).is_empty() && only(p, left_side) && rejects_nulls(p, width));
    let (left_rejects, right_rejects) = (rejects(true), rejects(false));
    join.join_type = match join.join_type {
        JoinType::RightOuter if left_rejects => JoinType::Inner,
        JoinType::LeftOuter if right_rejects => JoinType::Inner,
        JoinType::FullOuter if left_rejects && right_rejects => JoinType::Inner,
        JoinType::FullOuter if left_rejects => JoinType::LeftOuter,
        JoinType::FullOuter if right_rejects => JoinType::RightOuter,
        t => t,
    };
    let jt = join.join_type;
    let inner_like = matches!(jt, JoinType::Inner | JoinType::Cross);
    let (mut to_left, mut to_right, mut stay_up, mut into_condition) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // Conjuncts of a filter above the join.
    for (p, l) in preds.into_iter().zip(lifted.iter_mut()) {
        match l.take() {
            Some(c) if only(&c, true) && (inner_like || matches!(jt, JoinType::LeftOuter | JoinType::LeftSemi | JoinType::LeftAnti)) => to_left.push(c),
            Some(c) if only(&c, false) && (inner_like || jt == JoinType::RightOuter) => to_right.push(map_columns(&c, &|i| BoundExpr::Col(i - lw))),
            Some(c) if inner_like && is_deterministic(&c) => into_condition.push(c),
            _ => stay_up.push(p),
        }
    }
    // Conjuncts of the join condition that read one side only.
    let old_keys_from_condition = join.condition.as_ref().map(|c| equi_keys(c, lw)).unwrap_or_default();
    let mut condition: Vec<BoundExpr> = Vec::new();
    for c in join.condition.iter().flat_map(|c| conjuncts(c).into_iter().cloned().collect::<Vec<_>>()) {
        let push_left = matches!(jt, JoinType::Inner | JoinType::Cross | JoinType::LeftSemi | JoinType::RightOuter);
        let push_right = matches!(jt, JoinType::Inner | JoinType::Cross | JoinType::LeftSemi | JoinType::LeftOuter | JoinType::LeftAnti);
        if !references(&c).is_empty() && only(&c, true) && push_left {
            to_left.push(c);
        } else if !references(&c).is_empty() && only(&c, false) && push_right {
            to_right.push(map_columns(&c, &|i| BoundExpr::Col(i - lw)));
        } else {
            condition.push(c);
        }
    }
    condition.extend(into_condition);
    join.condition = and_all(condition);
    // Equi-join keys: USING keys stay; keys from the condition are found again.
    let mut keys: Vec<(usize, usize)> = join.keys.iter().copied().filter(|k| !old_keys_from_condition.contains(k)).collect();
    for k in join.condition.as_ref().map(|c| equi_keys(c, lw)).unwrap_or_default() {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    join.keys = keys;
    let left = push(left, to_left);
    let right = push(right, to_right);
    let node = match op_id {
        Some(op_id) => {
            let spec = stream_join_spec(&left.output, &right.output, &join.keys, join.condition.as_ref());
            Node::StreamJoin { left: Box::new(left), right: Box::new(right), join, spec, op_id }
        }
        None => Node::StaticJoin { left: Box::new(left), right: Box::new(right), join },
    };
    filter(rebuild(node, shell), stay_up)
}

// ------------------------------------------------------------------------------------------
// InferFiltersFromConstraints
// ------------------------------------------------------------------------------------------

/// True for Spark's `NullIntolerant` expressions: null in any input gives null.
fn null_intolerant(e: &BoundExpr) -> bool {
    match e {
        BoundExpr::Binary(op, ..) => !matches!(op, BinOp::And | BinOp::Or | BinOp::EqNullSafe),
        BoundExpr::Not(_) | BoundExpr::Negate(_) | BoundExpr::Cast(..) | BoundExpr::Field(..) | BoundExpr::WindowTime(_) => true,
        BoundExpr::Function(n, _) => matches!(n.as_str(), "upper" | "lower" | "abs" | "length" | "ceil" | "floor" | "contains" | "startswith" | "endswith" | "like"),
        _ => false,
    }
}

/// `scanNullIntolerantAttribute`: columns reached from the root through null-intolerant
/// expressions only.
fn null_intolerant_columns(e: &BoundExpr, out: &mut BTreeSet<usize>) {
    match e {
        BoundExpr::Col(i) => {
            out.insert(*i);
        }
        BoundExpr::Binary(_, a, b) if null_intolerant(e) => {
            null_intolerant_columns(a, out);
            null_intolerant_columns(b, out);
        }
        BoundExpr::Not(x) | BoundExpr::Negate(x) | BoundExpr::Cast(x, _) | BoundExpr::Field(x, _) | BoundExpr::WindowTime(x) => null_intolerant_columns(x, out),
        BoundExpr::Function(_, args) if null_intolerant(e) => args.iter().for_each(|a| null_intolerant_columns(a, out)),
        _ => {}
    }
}

fn is_not_null(i: usize) -> BoundExpr {
    BoundExpr::IsNull(Box::new(BoundExpr::Col(i)), true)
}

/// `constructIsNotNullConstraints`: `IsNotNull(c)` for every column a constraint reads
/// null-intolerantly.
fn not_null_constraints(constraints: &[BoundExpr]) -> Vec<BoundExpr> {
    let mut cols = BTreeSet::new();
    for c in constraints {
        match c {
            BoundExpr::IsNull(x, true) => null_intolerant_columns(x, &mut cols),
            other => null_intolerant_columns(other, &mut cols),
        }
    }
    cols.into_iter().map(is_not_null).collect()
}

/// `inferAdditionalConstraints`: through every `a = b` between two columns, each other
/// predicate on `a` also holds on `b` and the other way round.
fn transitive_constraints(constraints: &[BoundExpr]) -> Vec<BoundExpr> {
    let preds: Vec<&BoundExpr> = constraints.iter().filter(|c| !matches!(c, BoundExpr::IsNull(_, true))).collect();
    let mut out = Vec::new();
    for eq in &preds {
        let BoundExpr::Binary(BinOp::Eq, l, r) = eq else { continue };
        let (BoundExpr::Col(a), BoundExpr::Col(b)) = (l.as_ref(), r.as_ref()) else { continue };
        for p in preds.iter().filter(|p| *p != eq) {
            for (from, to) in [(*a, *b), (*b, *a)] {
                let q = map_columns(p, &|i| BoundExpr::Col(if i == from { to } else { i }));
                if q != **p && !constraints.contains(&q) && !out.contains(&q) {
                    out.push(q);
                }
            }
        }
    }
    out
}

fn add_all(set: &mut Vec<BoundExpr>, more: impl IntoIterator<Item = BoundExpr>) {
    for c in more {
        if !set.contains(&c) {
            set.push(c);
        }
    }
}

/// `QueryPlanConstraints.constraints`: predicates that hold on every row `plan` outputs.
fn constraints(plan: &Plan) -> Vec<BoundExpr> {
    let mut valid: Vec<BoundExpr> = match &plan.node {
        Node::Source { .. } | Node::Static { .. } | Node::Window { .. } | Node::FlatMapGroupsWithState { .. } | Node::TransformWithState { .. } => Vec::new(),
        // What holds on every input holds on the union (columns by position).
        Node::Union { inputs } => {
            let mut each = inputs.iter().map(constraints);
            let first = each.next().unwrap_or_default();
            let rest: Vec<Vec<BoundExpr>> = each.collect();
            first.into_iter().filter(|c| rest.iter().all(|r| r.contains(c))).collect()
        }
        Node::Filter { input, predicate } => {
            let mut c = constraints(input);
            add_all(&mut c, conjuncts(predicate).into_iter().filter(|p| is_deterministic(p)).cloned());
            c
        }
        Node::Project { input, exprs, .. } => {
            let at: Vec<Option<usize>> = (0..input.output.len()).map(|k| exprs.iter().position(|e| *e == BoundExpr::Col(k))).collect();
            remap(&constraints(input), &at)
        }
        Node::Watermark { input, .. }
        | Node::TimeWindow { input, .. }
        | Node::Dedup { input, .. }
        | Node::Sort { input, .. }
        | Node::Limit { input, .. }
        | Node::CollectLimit { input, .. }
        | Node::Generate { input, .. } => constraints(input),
        Node::Aggregate { input, keys, session, .. } => {
            let at: Vec<Option<usize>> = (0..input.output.len())
                .map(|k| {
                    keys.iter().position(|e| *e == BoundExpr::Col(k)).map(|pos| match session {
                        Some(s) if pos >= s.position => pos + 1,
                        _ => pos,
                    })
                })
                .collect();
            remap(&constraints(input), &at)
        }
        Node::StaticJoin { left, right, join } | Node::StreamJoin { left, right, join, .. } => {
            let lw = left.output.len();
            let combined = match join.join_type {
                JoinType::Inner | JoinType::Cross => join_constraints(left, right, join),
                JoinType::LeftOuter | JoinType::LeftSemi | JoinType::LeftAnti => constraints(left),
                JoinType::RightOuter => constraints(right).iter().map(|c| map_columns(c, &|i| BoundExpr::Col(i + lw))).collect(),
                JoinType::FullOuter => Vec::new(),
            };
            let at: Vec<Option<usize>> = (0..lw + right.output.len()).map(|k| join.output.iter().position(|o| *o == k)).collect();
            remap(&combined, &at)
        }
    };
    let extra = transitive_constraints(&valid);
    add_all(&mut valid, extra);
    let nn = not_null_constraints(&valid);
    add_all(&mut valid, nn);
    valid
}

/// Constraints over `child` columns rewritten through `at` (child column → output position);
/// those reading a column the output does not carry are dropped.
fn remap(cs: &[BoundExpr], at: &[Option<usize>]) -> Vec<BoundExpr> {
    cs.iter()
        .filter(|c| references(c).iter().all(|i| at.get(*i).copied().flatten().is_some()))
        .map(|c| map_columns(c, &|i| BoundExpr::Col(at.get(i).copied().flatten().unwrap_or(0))))
        .collect()
}

/// `getAllConstraints`: both inputs' constraints and the condition's conjuncts (USING keys
/// as equalities), over `left ++ right`, with what they imply.
fn join_constraints(left: &Plan, right: &Plan, join: &JoinSpec) -> Vec<BoundExpr> {
    let lw = left.output.len();
    let mut all = constraints(left);
    add_all(&mut all, constraints(right).iter().map(|c| map_columns(c, &|i| BoundExpr::Col(i + lw))));
    add_all(&mut all, join.keys.iter().map(|(l, r)| BoundExpr::Binary(BinOp::Eq, Box::new(BoundExpr::Col(*l)), Box::new(BoundExpr::Col(lw + r)))));
    if let Some(c) = &join.condition {
        add_all(&mut all, conjuncts(c).into_iter().filter(|p| is_deterministic(p)).cloned());
    }
    let extra = transitive_constraints(&all);
    add_all(&mut all, extra);
    all
}

/// `InferFiltersFromConstraints` on every join: a filter with what the join's constraints
/// imply about one side (and its `IsNotNull`s) goes on top of that side, for the sides the
/// join type allows (inner and semi: both; left outer: right; right outer: left).
fn infer_filters(plan: Plan) -> Plan {
    let Plan { node, output, streaming } = plan;
    let node = match node {
        Node::StaticJoin { left, right, join } => {
            let (left, right) = infer_join_sides(infer_filters(*left), infer_filters(*right), &join);
            Node::StaticJoin { left: Box::new(left), right: Box::new(right), join }
        }
        Node::StreamJoin { left, right, join, spec, op_id } => {
            let (left, right) = infer_join_sides(infer_filters(*left), infer_filters(*right), &join);
            Node::StreamJoin { left: Box::new(left), right: Box::new(right), join, spec, op_id }
        }
        other => map_children_with(other, &infer_filters),
    };
    Plan { node, output, streaming }
}

fn infer_join_sides(left: Plan, right: Plan, join: &JoinSpec) -> (Plan, Plan) {
    let (to_left, to_right) = match join.join_type {
        JoinType::Inner | JoinType::Cross | JoinType::LeftSemi => (true, true),
        JoinType::RightOuter => (true, false),
        JoinType::LeftOuter | JoinType::LeftAnti => (false, true),
        JoinType::FullOuter => (false, false),
    };
    if !(to_left || to_right) {
        return (left, right);
    }
    let lw = left.output.len();
    let mut all = join_constraints(&left, &right, join);
    let nn = not_null_constraints(&all);
    add_all(&mut all, nn);
    let side = |plan: Plan, on_left: bool| -> Plan {
        let have = constraints(&plan);
        let new: Vec<BoundExpr> = all
            .iter()
            .filter(|c| {
                let refs = references(c);
                !refs.is_empty() && refs.iter().all(|i| (*i < lw) == on_left) && is_deterministic(c)
            })
            .map(|c| if on_left { c.clone() } else { map_columns(c, &|i| BoundExpr::Col(i - lw)) })
            .filter(|c| !have.contains(c))
            .collect();
        filter(plan, new)
    };
    let left = if to_left { side(left, true) } else { left };
    let right = if to_right { side(right, false) } else { right };
    (left, right)
}

// ------------------------------------------------------------------------------------------
// StreamingGlobalLimitStrategy
// ------------------------------------------------------------------------------------------

/// A streaming `limit` stays a stateful global limit in append mode, or in complete mode
/// when no streaming aggregation is below it; otherwise it is planned as a per-batch limit.
fn plan_limits(plan: Plan, mode: OutputMode) -> Plan {
    let Plan { node, output, streaming } = plan;
    let node = match node {
        Node::Limit { input, n, op_id } => {
            let input = plan_limits(*input, mode);
            let mut has_agg = false;
            input.walk(&mut |p| has_agg |= matches!(p.node, Node::Aggregate { .. }) && p.streaming);
            let stateful = input.streaming && (mode == OutputMode::Append || (mode == OutputMode::Complete && !has_agg));
            if stateful {
                Node::Limit { input: Box::new(input), n, op_id }
            } else {
                Node::CollectLimit { input: Box::new(input), n }
            }
        }
        Node::StaticJoin { left, right, join } => Node::StaticJoin { left: Box::new(plan_limits(*left, mode)), right: Box::new(plan_limits(*right, mode)), join },
        Node::StreamJoin { left, right, join, spec, op_id } => {
            Node::StreamJoin { left: Box::new(plan_limits(*left, mode)), right: Box::new(plan_limits(*right, mode)), join, spec, op_id }
        }
        other => map_children_with(other, &|p| plan_limits(p, mode)),
    };
    Plan { node, output, streaming }
}

/// Applies `f` to every child of a node.
fn map_children_with(node: Node, f: &dyn Fn(Plan) -> Plan) -> Node {
    let b = |p: Box<Plan>| Box::new(f(*p));
    match node {
        Node::Source { .. } | Node::Static { .. } => node,
        Node::Project { input, exprs, aggregate_result } => Node::Project { input: b(input), exprs, aggregate_result },
        Node::Filter { input, predicate } => Node::Filter { input: b(input), predicate },
        Node::Watermark { input, column, delay_ms, watermark_index } => Node::Watermark { input: b(input), column, delay_ms, watermark_index },
        Node::TimeWindow { input, time, spec } => Node::TimeWindow { input: b(input), time, spec },
        Node::Aggregate { input, keys, aggs, event_time_key, session, op_id, distinct } => Node::Aggregate { input: b(input), keys, aggs, event_time_key, session, op_id, distinct },
        Node::Dedup { input, keys, event_time_col, event_time_in_key, within_watermark, op_id } => {
            Node::Dedup { input: b(input), keys, event_time_col, event_time_in_key, within_watermark, op_id }
        }
        Node::Limit { input, n, op_id } => Node::Limit { input: b(input), n, op_id },
        Node::CollectLimit { input, n } => Node::CollectLimit { input: b(input), n },
        Node::Window { input, functions } => Node::Window { input: b(input), functions },
        Node::FlatMapGroupsWithState { input, keys, udf, state_schema, mode, timeout, event_time_col, op_id } => {
            Node::FlatMapGroupsWithState { input: b(input), keys, udf, state_schema, mode, timeout, event_time_col, op_id }
        }
        Node::TransformWithState { input, keys, processor, mode, time_mode, event_time_col, op_id } => {
            Node::TransformWithState { input: b(input), keys, processor, mode, time_mode, event_time_col, op_id }
        }
        Node::Generate { input, generator, outer, position } => Node::Generate { input: b(input), generator, outer, position },
        Node::Sort { input, order } => Node::Sort { input: b(input), order },
        Node::Union { inputs } => Node::Union { inputs: inputs.into_iter().map(f).collect() },
        Node::StaticJoin { left, right, join } => Node::StaticJoin { left: b(left), right: b(right), join },
        Node::StreamJoin { left, right, join, spec, op_id } => Node::StreamJoin { left: b(left), right: b(right), join, spec, op_id },
    }
}
