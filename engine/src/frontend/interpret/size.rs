//! A value's size (plan and expression nodes) against `plan::limits`, so no program builds an unbounded query.

use super::{perr, Py, R};
use crate::frontend::Span;
use crate::plan::{limits, Expr};

/// The size of a value: its plan and expressions (`plan::limits`); a string counts one node
/// per 64 bytes, so that doubling a string is bounded too.
fn py_size(v: &Py) -> limits::TreeSize {
    let budget = limits::MAX_TREE_NODES + 1;
    let items = |items: &mut dyn Iterator<Item = &Py>| {
        items.map(py_size).fold(limits::TreeSize { depth: 1, nodes: 1 }, |acc, s| limits::TreeSize {
            depth: acc.depth.max(s.depth + 1),
            nodes: acc.nodes.saturating_add(s.nodes),
        })
    };
    match v {
        Py::Df(p) | Py::WriteStream { df: p } => limits::measure_plan(p, budget),
        Py::Grouped { input, grouping } => {
            let mut size = limits::measure_plan(input, budget);
            for g in grouping {
                let e = limits::measure_expr(g, budget);
                size.depth = size.depth.max(e.depth + 1);
                size.nodes = size.nodes.saturating_add(e.nodes);
            }
            size
        }
        Py::Col(e) => limits::measure_expr(e, budget),
        Py::WindowSpec(w) => limits::measure_expr(&Expr::Over(w.clone()), budget),
        Py::Method(inner, _) => py_size(inner),
        Py::Str(s) => limits::TreeSize { depth: 1, nodes: 1 + s.len() / 64 },
        Py::List(list) | Py::Tuple(list) => items(&mut list.iter()),
        Py::Dict(entries) => items(&mut entries.iter().flat_map(|(k, v)| [k, v])),
        _ => limits::TreeSize { depth: 1, nodes: 1 },
    }
}

/// The nodes a use of `v` copies: expressions and strings are cloned, plans are shared (`Rc`).
pub(super) fn copy_cost(v: &Py) -> usize {
    let budget = limits::MAX_TREE_NODES + 1;
    match v {
        Py::Df(_) | Py::WriteStream { .. } => 1,
        Py::Grouped { grouping, .. } => grouping.iter().fold(1, |n, g| n.saturating_add(limits::measure_expr(g, budget).nodes)),
        Py::Method(inner, _) => copy_cost(inner),
        Py::List(items) | Py::Tuple(items) => items.iter().fold(1, |n, i| n.saturating_add(copy_cost(i))),
        other => py_size(other).nodes,
    }
}

/// Refuses a value deeper or bigger than `plan::limits` allows, pointing at `span`.
pub(super) fn within_limits(v: &Py, span: Span) -> R<limits::TreeSize> {
    let size = py_size(v);
    if size.depth > limits::MAX_TREE_DEPTH {
        return Err(perr(
            format!("this query nests operators and expressions more than {} levels deep; Streamlab reads queries up to that depth", limits::MAX_TREE_DEPTH),
            span,
        ));
    }
    if size.nodes > limits::MAX_TREE_NODES {
        return Err(perr(format!("this query has more than {} expression and plan nodes; Streamlab reads queries up to that size", limits::MAX_TREE_NODES), span));
    }
    Ok(size)
}
