//! `ColumnPruning` where it changes a streaming result: the event-time column pruned from
//! under `dropDuplicates` (SPARK-58979, a bug of Spark 4.3.0).
//!
//! Catalyst's `ColumnPruning` (`catalyst/optimizer/Optimizer.scala`) narrows every child of an
//! operator to the columns something above reads; for an operator that passes its child's
//! columns on (`Project(_, child)`'s last case), the grandchildren are narrowed to
//! `child.references ++ project.references`. A `Deduplicate`'s references are its keys only,
//! so when nothing above the deduplication reads the event-time column and the column is not
//! a key — `dropDuplicates(['id'])` followed by `drop('event_time')`, a `select` without it,
//! or a `groupBy` that does not read it — the optimized plan is
//! `Deduplicate [id] ← Project [id, ...] ← EventTimeWatermark`: the deduplication has no
//! event-time column left, so `StreamingDeduplicateExec` drops no late row
//! (`numRowsDroppedByWatermark` stays 0 and a late row with a new key is emitted), while the
//! watermark still advances and no-data batches still run. This is a Spark bug, filed as
//! SPARK-58979 and present in 4.3.0; Streamlab reproduces 4.3.0 as it behaves
//! (`dedup-id-then-drop-event-time-late-rows-pass`). `dropDuplicatesWithinWatermark` is not
//! affected (its operator reads the event time), nor is a deduplication whose keys include
//! the event-time column.
//!
//! What counts as "read above" follows the operators between the sink and the deduplication:
//! the sink reads every column; a projection reads what its used expressions read; a filter,
//! a sort or a watermark add their own columns; an aggregation reads its keys and aggregate
//! arguments; joins, unions, limits and the Python state operators are taken to read every
//! column of their inputs (no pruning through them is modelled).

use std::collections::BTreeSet;

use crate::analysis::{Node, Plan};

/// Clears the event-time column of every `Dedup` (not within-watermark, time not a key)
/// whose event-time column nothing above reads, as Spark 4.3.0's optimized plan has it.
pub fn prune_dedup_event_time(mut plan: Plan) -> Plan {
    let all: BTreeSet<usize> = (0..plan.output.len()).collect();
    walk(&mut plan, &all);
    plan
}

fn all_of(p: &Plan) -> BTreeSet<usize> {
    (0..p.output.len()).collect()
}

/// Visits `p`, of whose output columns only `needed` are read above.
fn walk(p: &mut Plan, needed: &BTreeSet<usize>) {
    match &mut p.node {
        Node::Source { .. } | Node::Static { .. } => {}
        Node::Project { input, exprs, .. } => {
            let mut n = BTreeSet::new();
            for (i, e) in exprs.iter().enumerate() {
                if needed.contains(&i) {
                    e.columns(&mut n);
                }
            }
            walk(input, &n);
        }
        Node::Filter { input, predicate } => {
            let mut n = needed.clone();
            predicate.columns(&mut n);
            walk(input, &n);
        }
        Node::Sort { input, order } => {
            let mut n = needed.clone();
            order.iter().for_each(|(e, _)| e.columns(&mut n));
            walk(input, &n);
        }
        Node::Watermark { input, column, .. } => {
            let mut n = needed.clone();
            n.insert(*column);
            walk(input, &n);
        }
        Node::Aggregate { input, keys, aggs, session, .. } => {
            let n = crate::analysis::plan::aggregate_inputs(keys, aggs, session.as_ref());
            walk(input, &n);
        }
        Node::Dedup { input, keys, event_time_col, event_time_in_key, within_watermark, .. } => {
            if let Some(c) = *event_time_col {
                if !*within_watermark && !*event_time_in_key && !needed.contains(&c) {
                    *event_time_col = None;
                }
            }
            let mut n = needed.clone();
            n.extend(keys.iter().copied());
            n.extend(event_time_col.iter().copied());
            walk(input, &n);
        }
        Node::TimeWindow { input, .. } | Node::Generate { input, .. } => {
            // They append columns and read their own: the input is taken whole.
            let n = all_of(input);
            walk(input, &n);
        }
        Node::Limit { input, .. } | Node::CollectLimit { input, .. } | Node::Window { input, .. } | Node::FlatMapGroupsWithState { input, .. } | Node::TransformWithState { input, .. } => {
            let n = all_of(input);
            walk(input, &n);
        }
        Node::Union { inputs } => inputs.iter_mut().for_each(|i| {
            let n = all_of(i);
            walk(i, &n);
        }),
        Node::StaticJoin { left, right, .. } | Node::StreamJoin { left, right, .. } => {
            let (l, r) = (all_of(left), all_of(right));
            walk(left, &l);
            walk(right, &r);
        }
    }
}
