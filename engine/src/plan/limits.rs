//! How big a query may get: bounds on the depth and size of its plan and expression trees.
//!
//! The analyzer, the checker and execution walk plans and expressions recursively, and a
//! learner can nest them without end (`clicks.filter(...)` 700 times, `c = c + 1` on 1 000
//! lines, `u = u.union(u)` doubling a shared sub-plan each time). In wasm a stack overflow is
//! not a panic: the page dies. So the frontend measures every value it builds here, without
//! recursion, and refuses a query past [`MAX_TREE_DEPTH`] or [`MAX_TREE_NODES`]; every later
//! phase may then recurse freely. Spark has no such limit (a deep enough plan ends in a JVM
//! `StackOverflowError`).

use super::{Expr, JoinOn, LogicalPlan};

/// The most plan operators plus expression levels on any path from the root of a query to a
/// leaf. Measured in the lab (wasm32 release build in Chromium, Rust's default 1 MiB stack,
/// limits lifted): a chain of 400 operators runs and one of about 500 overflows the stack
/// (about 2 KiB per operator through evaluation, analysis and execution); an expression
/// overflows at about 1 000 levels. 128 keeps a margin of 4 and is far above any query a
/// learner writes. The end-to-end test runs queries at this limit in the browser.
pub const MAX_TREE_DEPTH: usize = 128;

/// The most plan and expression nodes in a query, counting a shared sub-plan once per use
/// (the analyzer resolves it once per use).
pub const MAX_TREE_NODES: usize = 20_000;

/// The most expression nodes the uses of variables may copy into one query (`c = c + 1` on
/// 128 lines copies about 128² nodes before its depth is refused).
pub const MAX_COPIED_NODES: usize = 4 * MAX_TREE_NODES;

/// The depth and node count of a tree, nodes counted up to a budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TreeSize {
    /// Operators plus expression levels on the longest path (a leaf is 1).
    pub depth: usize,
    /// Nodes, saturating just above the budget the walk was given.
    pub nodes: usize,
}

impl TreeSize {
    /// True when this size is within [`MAX_TREE_DEPTH`] and [`MAX_TREE_NODES`].
    pub fn within_limits(&self) -> bool {
        self.depth <= MAX_TREE_DEPTH && self.nodes <= MAX_TREE_NODES
    }
}

/// One node to visit: an operator or an expression, at a depth.
enum Item<'a> {
    Plan(&'a LogicalPlan, usize),
    Expr(&'a Expr, usize),
}

/// The expressions an operator holds.
fn plan_exprs(p: &LogicalPlan) -> Vec<&Expr> {
    match p {
        LogicalPlan::Project { exprs, .. } => exprs.iter().collect(),
        LogicalPlan::WithColumn { expr, .. } => vec![expr],
        LogicalPlan::Filter { predicate, .. } => vec![predicate],
        LogicalPlan::Aggregate { grouping, aggregates, .. } => grouping.iter().chain(aggregates).collect(),
        LogicalPlan::Join { on: JoinOn::Condition(e), .. } => vec![e],
        LogicalPlan::Sort { order, .. } => order.iter().map(|(e, _)| e).collect(),
        _ => vec![],
    }
}

/// The sub-expressions of an expression.
fn expr_children(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Alias(x, _) | Expr::Not(x) | Expr::Negate(x) | Expr::IsNull(x, _) | Expr::Cast(x, _) | Expr::WindowTime(x) | Expr::Lambda { body: x, .. } => vec![x],
        Expr::Binary(_, l, r) => vec![l, r],
        Expr::Case { branches, otherwise } => {
            let mut v: Vec<&Expr> = branches.iter().flat_map(|(c, x)| [c, x]).collect();
            v.extend(otherwise.as_deref());
            v
        }
        Expr::Function(_, args) => args.iter().collect(),
        Expr::TimeWindow { time, .. } => vec![time],
        Expr::SessionWindow { time, gap } => vec![time, gap],
        Expr::Agg { arg, .. } => vec![arg],
        Expr::Over(w) => {
            let mut v = vec![&w.func];
            v.extend(w.partition.iter());
            v.extend(w.order.iter().map(|(o, _)| o));
            v
        }
        Expr::Column(_) | Expr::Star | Expr::Literal(_) | Expr::Interval(_) | Expr::LambdaVar(..) => vec![],
    }
}

fn walk(start: Item<'_>, budget: usize) -> TreeSize {
    let mut size = TreeSize::default();
    let mut stack = vec![start];
    while let Some(item) = stack.pop() {
        size.nodes += 1;
        if size.nodes > budget {
            break;
        }
        match item {
            Item::Plan(p, d) => {
                size.depth = size.depth.max(d);
                stack.extend(plan_exprs(p).into_iter().map(|e| Item::Expr(e, d + 1)));
                stack.extend(p.children().into_iter().map(|c| Item::Plan(c, d + 1)));
            }
            Item::Expr(e, d) => {
                size.depth = size.depth.max(d);
                stack.extend(expr_children(e).into_iter().map(|c| Item::Expr(c, d + 1)));
            }
        }
    }
    size
}

/// The size of a plan with the expressions it holds, without recursion, counting nodes up to
/// `budget` (the walk stops there, so it takes at most `budget` steps).
///
/// # Examples
/// ```
/// use std::rc::Rc;
/// use streamlab_engine::plan::{Expr, LogicalPlan, limits::measure_plan};
/// let src = Rc::new(LogicalPlan::StreamingRelation { source: "clicks".into(), schema: vec![] });
/// let f = LogicalPlan::Filter { input: src, predicate: Expr::col("a") };
/// // Filter (1) -> predicate `a` (2); Filter -> StreamingRelation (2).
/// assert_eq!(measure_plan(&f, 100).depth, 2);
/// assert_eq!(measure_plan(&f, 100).nodes, 3);
/// ```
pub fn measure_plan(p: &LogicalPlan, budget: usize) -> TreeSize {
    walk(Item::Plan(p, 1), budget)
}

/// The size of an expression, as [`measure_plan`].
pub fn measure_expr(e: &Expr, budget: usize) -> TreeSize {
    walk(Item::Expr(e, 1), budget)
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;

    #[test]
    fn shared_sub_plans_count_once_per_use() {
        // u = clicks; u = u.union(u) twenty times: 2^20 leaves as a tree, 21 distinct nodes.
        let mut u = Rc::new(LogicalPlan::StreamingRelation { source: "clicks".into(), schema: vec![] });
        for _ in 0..20 {
            u = Rc::new(LogicalPlan::Union { inputs: vec![u.clone(), u], by_name: false, allow_missing_columns: false });
        }
        let size = measure_plan(&u, MAX_TREE_NODES);
        assert_eq!(size.depth, 21);
        assert!(size.nodes > MAX_TREE_NODES && !size.within_limits());
    }

    #[test]
    fn deep_expressions_are_measured_without_recursion() {
        let mut e = Expr::col("a");
        for _ in 0..100_000 {
            e = Expr::Not(Box::new(e));
        }
        let size = measure_expr(&e, usize::MAX);
        assert_eq!((size.depth, size.nodes), (100_001, 100_001));
        // Dropping a tree this deep recurses: take it apart by hand.
        while let Expr::Not(inner) = e {
            e = *inner;
        }
    }
}
