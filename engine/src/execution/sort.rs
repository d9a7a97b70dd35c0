//! `SortExec` over a Complete-mode aggregation, and what its range exchange does to the
//! state operator's metrics.
//!
//! Spark plans `orderBy` / `sort` (without a `limit`) as a global `SortExec` over a
//! `ShuffleExchangeExec(RangePartitioning)`. Building the exchange's `RangePartitioner`
//! (`core/.../Partitioner.scala`: `RangePartitioner.sketch`, called from
//! `ShuffleExchangeExec.prepareShuffleDependency`) runs a sampling job over the exchange's
//! input whenever there is more than one output partition (`spark.sql.shuffle.partitions`;
//! `partitions <= 1` skips it). That input's stage begins after the aggregation's own hash
//! exchange, so it is the aggregation's final half: `StateStoreRestoreExec`, the final
//! `HashAggregateExec` and `StateStoreSaveExec`. The stage runs once for the sample and once
//! for the shuffle, and each run's tasks add their state metrics to the same `SQLMetric`s
//! (sums over tasks), so the batch's progress reports `numRowsTotal`, `numRowsUpdated`,
//! `numRowsRemoved` and `numRowsDroppedByWatermark` twice over (recorded in
//! `orderby-after-groupby-count-complete`: 2 keys are reported as 4). The state itself is
//! written twice to the same version, with the same rows: nothing else changes. The source's
//! `numInputRows` is counted once (the scan is in the earlier stage).
//!
//! No sampling job runs when the aggregation has no grouping key: its output is one
//! partition (`AllTuples`), which already satisfies the sort's `OrderedDistribution`, so no
//! exchange is planned. Not modelled: the sketch re-samples a partition holding more than
//! `ceil(3 · min(20 · partitions, 10^6) / partitions)` rows after weighting (a third run of
//! that partition), which needs more than 60 groups in one partition of 200 (about 12 000
//! groups in all) and cannot happen with 2 partitions.

use std::collections::BTreeMap;

use crate::analysis::{BoundExpr, Node, Plan};
use crate::types::Row;

use super::{eval, OperatorMetrics};

/// `rows` sorted by `order` ((expression, ascending) pairs, the first deciding first); the
/// sort is stable, so rows equal on every expression keep their order.
pub fn sort_rows(rows: &mut [Row], order: &[(BoundExpr, bool)], cx: &super::context::EvalContext) {
    rows.sort_by(|a, b| {
        for (e, asc) in order {
            let (x, y) = (eval::eval(e, a, cx), eval::eval(e, b, cx));
            let o = if *asc { x.cmp(&y) } else { y.cmp(&x) };
            if o != std::cmp::Ordering::Equal {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    });
}

/// The stateful operators whose metrics Spark counts twice because a global sort over
/// `input` samples `input`'s stage (see the module comment): the grouped aggregation that
/// `input` reads through projections and filters, if any. Empty with one shuffle partition.
pub fn sampled_operators(input: &Plan, shuffle_partitions: u64) -> Vec<usize> {
    if shuffle_partitions <= 1 {
        return Vec::new();
    }
    let mut p = input;
    loop {
        match &p.node {
            Node::Project { input, .. } | Node::Filter { input, .. } => p = input,
            Node::Aggregate { keys, session, op_id, .. } if !keys.is_empty() || session.is_some() => return vec![*op_id],
            _ => return Vec::new(),
        }
    }
}

/// Every stateful operator of `plan` whose metrics a global sort counts twice this batch
/// ([`sampled_operators`] under each `Sort` that is not a limit's `TakeOrderedAndProject`).
pub fn sampled_in(plan: &Plan, shuffle_partitions: u64) -> Vec<usize> {
    let mut out = Vec::new();
    match &plan.node {
        Node::Sort { input, .. } => out.extend(sampled_operators(input, shuffle_partitions)),
        // The limit's sort is not a range exchange: look below it.
        Node::CollectLimit { input, .. } if matches!(input.node, Node::Sort { .. }) => {
            return input.children().into_iter().flat_map(|c| sampled_in(c, shuffle_partitions)).collect();
        }
        // `Limit(Project(Sort))` is `TakeOrderedAndProjectExec` with the projection.
        Node::CollectLimit { input, .. } if matches!(&input.node, Node::Project { input: sorted, .. } if matches!(sorted.node, Node::Sort { .. })) => {
            return input.children().into_iter().flat_map(|s| s.children()).flat_map(|c| sampled_in(c, shuffle_partitions)).collect();
        }
        _ => {}
    }
    out.extend(plan.children().into_iter().flat_map(|c| sampled_in(c, shuffle_partitions)));
    out
}

/// Counts the metrics of `ops` a second time in `metrics` (the sampling run's share).
pub fn count_sampling_run(metrics: &mut BTreeMap<usize, OperatorMetrics>, ops: &[usize]) {
    for op in ops {
        if let Some(m) = metrics.get_mut(op) {
            m.num_rows_total *= 2;
            m.num_rows_updated *= 2;
            m.num_rows_removed *= 2;
            m.num_rows_dropped_by_watermark *= 2;
        }
    }
}
