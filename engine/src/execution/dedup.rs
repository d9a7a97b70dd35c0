//! `StreamingDeduplicateExec` and `StreamingDeduplicateWithinWatermarkExec` (spec §6,
//! `statefulOperators.scala`).

use super::OperatorMetrics;
use crate::state::StateStore;
use crate::types::{Row, Value};

/// Dedup state: key columns → expiry in µs (`dropDuplicatesWithinWatermark`) or `None`.
#[derive(Debug, Clone, Default)]
pub struct DedupState {
    pub store: StateStore<Option<i64>>,
    /// Duplicates dropped this batch (`customMetrics.numDroppedDuplicateRows`).
    pub dropped_duplicates: u64,
}

/// The parameters of one dedup operator.
pub struct DedupSpec<'a> {
    pub keys: &'a [usize],
    /// The input's event-time column, when it has a watermark.
    pub event_time_col: Option<usize>,
    pub event_time_in_key: bool,
    /// `Some(delay_ms)` for `dropDuplicatesWithinWatermark`.
    pub within_watermark_delay_ms: Option<i64>,
}

/// Runs one batch: keeps the first row of each new key, drops late rows and duplicates,
/// then evicts expired keys.
pub fn run_dedup(state: &mut DedupState, input: Vec<Row>, spec: &DedupSpec, wm_for_late_events_ms: i64, wm_for_eviction_ms: i64) -> (Vec<Row>, OperatorMetrics) {
    let mut out = Vec::new();
    let mut dropped_late = 0;
    state.dropped_duplicates = 0;
    let event_time = |row: &Row| spec.event_time_col.and_then(|c| row.get(c)).and_then(Value::event_time_us);
    for row in input {
        if spec.event_time_col.is_some() && event_time(&row).is_some_and(|t| t <= wm_for_late_events_ms.saturating_mul(1000)) {
            dropped_late += 1;
            continue;
        }
        let key: Row = spec.keys.iter().map(|i| row[*i].clone()).collect();
        if state.store.get(&key).is_some() {
            state.dropped_duplicates += 1;
            continue;
        }
        // A NULL event time reads as 0 (`row.getLong` on a NULL), so its key expires at
        // epoch + delay: at the first watermark move (recorded: json-epoch-seconds-dedup-within-watermark).
        let expiry = spec
            .within_watermark_delay_ms
            .map(|d| event_time(&row).unwrap_or(0).saturating_add(d.saturating_mul(1000)));
        state.store.put(key, expiry);
        out.push(row);
    }
    let evict_us = wm_for_eviction_ms.saturating_mul(1000);
    if spec.within_watermark_delay_ms.is_some() {
        state.store.remove_where(|_, expiry| expiry.is_some_and(|e| evict_us >= e));
    } else if spec.event_time_in_key {
        let time_pos = spec.keys.iter().position(|k| Some(*k) == spec.event_time_col);
        state.store.remove_where(|k, _| {
            time_pos.and_then(|p| k.get(p)).and_then(Value::event_time_us).is_some_and(|t| t <= evict_us)
        });
    }
    let m = state.store.commit();
    (
        out,
        OperatorMetrics {
            num_rows_total: m.num_rows_total,
            num_rows_updated: m.num_rows_updated,
            num_rows_removed: m.num_rows_removed,
            num_rows_dropped_by_watermark: dropped_late,
        },
    )
}
