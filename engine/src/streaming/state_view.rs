//! The query's state, row by row, for the lab's state store panel: each stateful operator
//! describes and labels its own rows ([`crate::execution::state_rows`]); this adds what only
//! the running query knows (the output mode, each operator's eviction watermark, the keys the
//! last batch wrote).

use std::collections::BTreeSet;

use super::StreamingQuery;
use crate::analysis::{Node, Plan};
use crate::execution::state_rows::{LabelContext, StateTable};
use crate::types::Row;

fn find_op(plan: &Plan, op: usize) -> Option<&Plan> {
    match &plan.node {
        Node::Aggregate { op_id, .. }
        | Node::Dedup { op_id, .. }
        | Node::Limit { op_id, .. }
        | Node::StreamJoin { op_id, .. }
        | Node::FlatMapGroupsWithState { op_id, .. }
        | Node::TransformWithState { op_id, .. }
            if *op_id == op =>
        {
            Some(plan)
        }
        _ => plan.children().into_iter().find_map(|c| find_op(c, op)),
    }
}

impl StreamingQuery {
    /// (operator id, row id) of every state row
    /// ([`crate::execution::state_rows::StatefulOperator::row_ids`]); the difference between
    /// two calls around a batch is what the batch evicted.
    pub fn state_row_ids(&self) -> BTreeSet<(usize, Row)> {
        self.states().iter().flat_map(|(op, st)| st.as_stateful().row_ids().into_iter().map(move |id| (*op, id))).collect()
    }

    /// Every stateful operator's state table, downstream first, with each row labelled;
    /// `evicted` lists the (operator id, row id) pairs the last batch removed. An operator with
    /// no state yet gives an empty table.
    pub fn state_tables(&self, evicted: &[(usize, Row)]) -> Vec<StateTable> {
        let latest = self.checkpoint.state.latest_delta();
        let mut out = Vec::new();
        for (op, name) in self.plan().stateful_operators() {
            let Some(node) = find_op(self.plan(), op) else { continue };
            let Some(st) = self.states().get(&op) else {
                out.push(StateTable { op_id: op, operator: name.into(), columns: vec![], rows: vec![], note: None });
                continue;
            };
            let gone: Vec<Row> = evicted.iter().filter(|(o, _)| *o == op).map(|(_, k)| k.clone()).collect();
            let (updated, updated_right) = latest.and_then(|d| d.get(&op)).map(|d| d.written_keys()).unwrap_or_default();
            let ctx = LabelContext {
                mode: self.output_mode(),
                wm_for_eviction_ms: self.operator_eviction_watermark_ms(op),
                evicted: &gone,
                updated: &updated,
                updated_right: &updated_right,
            };
            out.extend(st.as_stateful().tables(op, name, node, &ctx));
        }
        out
    }
}
