//! `StreamingGlobalLimitExec`: `limit(n)` on a stream keeps one counter in state and passes
//! the first n rows ever seen.

use super::OperatorMetrics;
use crate::state::StateStore;
use crate::types::{Row, Value};

/// The limit's state: a single row holding the number of rows emitted so far.
#[derive(Debug, Clone, Default)]
pub struct LimitState {
    /// One entry, under the key `[NULL]`: the number of rows emitted in all batches so far.
    pub store: StateStore<i64>,
}

impl LimitState {
    /// Rows emitted so far.
    pub fn emitted(&self) -> i64 {
        self.store.get(&vec![Value::Null]).copied().unwrap_or(0)
    }
}

/// How many more rows a `limit(n)` passes, given its state: `n` minus the rows emitted in
/// earlier batches (`StreamingGlobalLimitExec`); the rows past it are dropped.
pub fn room(state: &LimitState, n: usize) -> usize {
    (n as i64 - state.emitted()).max(0) as usize
}

/// Passes rows until `n` have been emitted in all batches together.
pub fn run_limit(state: &mut LimitState, input: Vec<Row>, n: usize) -> (Vec<Row>, OperatorMetrics) {
    let before = state.emitted();
    let room = room(state, n);
    let out: Vec<Row> = input.into_iter().take(room).collect();
    if !out.is_empty() {
        state.store.put(vec![Value::Null], before + out.len() as i64);
    }
    let m = state.store.commit();
    (
        out,
        OperatorMetrics { num_rows_total: m.num_rows_total, num_rows_updated: m.num_rows_updated, num_rows_removed: 0, num_rows_dropped_by_watermark: 0 },
    )
}
