//! `StreamingDeduplicateExec` and `StreamingDeduplicateWithinWatermarkExec` (spec §6,
//! `statefulOperators.scala`).

use super::OperatorMetrics;
use crate::state::StateStore;
use crate::types::{DelayMs, EventTime, Row, Value, WatermarkMs};

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
    /// `Some(delay)` for `dropDuplicatesWithinWatermark`.
    pub within_watermark_delay_ms: Option<DelayMs>,
}

impl<'a> DedupSpec<'a> {
    /// The spec of a `Dedup` plan node over `input`: its keys, the input's watermarked column,
    /// and for `dropDuplicatesWithinWatermark` that column's delay. `None` for another node.
    pub fn of(node: &'a crate::analysis::Node) -> Option<DedupSpec<'a>> {
        let crate::analysis::Node::Dedup { input, keys, event_time_col, event_time_in_key, within_watermark, .. } = node else { return None };
        let delay = event_time_col.and_then(|c| input.output[c].watermark_delay_ms);
        Some(DedupSpec {
            keys,
            event_time_col: *event_time_col,
            event_time_in_key: *event_time_in_key,
            within_watermark_delay_ms: if *within_watermark { delay } else { None },
        })
    }

    /// The row's event time in µs, if the input has a watermarked column and it is not NULL.
    pub fn event_time_us(&self, row: &Row) -> Option<i64> {
        self.event_time_col.and_then(|c| row.get(c)).and_then(Value::event_time_us)
    }

    /// The late rule (`StreamingDeduplicateExec`'s `watermarkPredicateForDataForLateEvents`):
    /// a row whose event time is at or below `wm_for_late_events_ms` is dropped before
    /// its key is looked up, and counted in `numRowsDroppedByWatermark`.
    pub fn is_late(&self, row: &Row, wm_for_late_events_ms: WatermarkMs) -> bool {
        self.event_time_col.is_some() && self.event_time_us(row).is_some_and(|t| EventTime::from_micros(t).is_past(wm_for_late_events_ms))
    }

    /// The row's key (the dedup columns).
    pub fn key(&self, row: &Row) -> Row {
        self.keys.iter().map(|i| row[*i].clone()).collect()
    }

    /// What the state stores for a first-of-key row: for `dropDuplicatesWithinWatermark` its
    /// expiry, event time + delay in µs (`None` otherwise). A NULL event time reads as 0
    /// (`row.getLong` on a NULL), so its key expires at epoch + delay: at the first watermark
    /// move (recorded: json-epoch-seconds-dedup-within-watermark).
    pub fn stored_expiry(&self, row: &Row) -> Option<i64> {
        self.within_watermark_delay_ms.map(|d| EventTime::from_micros(self.event_time_us(row).unwrap_or(0)).saturating_add_delay(d).micros())
    }

    /// The eviction rule: the eviction watermark (µs) at or above which the state row of `key`
    /// (holding `stored`) goes — its expiry for `dropDuplicatesWithinWatermark`, the key's
    /// event time when the event-time column is a dedup column; `None`: kept forever.
    pub fn evicts_at_us(&self, key: &Row, stored: Option<i64>) -> Option<i64> {
        if self.within_watermark_delay_ms.is_some() {
            stored
        } else if self.event_time_in_key {
            let pos = self.keys.iter().position(|k| Some(*k) == self.event_time_col)?;
            key.get(pos).and_then(Value::event_time_us)
        } else {
            None
        }
    }
}

/// Runs one batch: keeps the first row of each new key, drops late rows and duplicates,
/// then evicts expired keys.
pub fn run_dedup(state: &mut DedupState, input: Vec<Row>, spec: &DedupSpec, wm_for_late_events_ms: WatermarkMs, wm_for_eviction_ms: WatermarkMs) -> (Vec<Row>, OperatorMetrics) {
    let mut out = Vec::new();
    let mut dropped_late = 0;
    state.dropped_duplicates = 0;
    for row in input {
        if spec.is_late(&row, wm_for_late_events_ms) {
            dropped_late += 1;
            continue;
        }
        let key = spec.key(&row);
        if state.store.get(&key).is_some() {
            state.dropped_duplicates += 1;
            continue;
        }
        let expiry = spec.stored_expiry(&row);
        state.store.put(key, expiry);
        out.push(row);
    }
    if spec.within_watermark_delay_ms.is_some() || spec.event_time_in_key {
        state.store.remove_where(|k, stored| spec.evicts_at_us(k, *stored).is_some_and(|e| EventTime::from_micros(e).is_past(wm_for_eviction_ms)));
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
