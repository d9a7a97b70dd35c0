//! `StreamingDeduplicateExec` and `StreamingDeduplicateWithinWatermarkExec`
//! (`statefulOperators.scala`; `distinct()` on a stream runs the first).
//!
//! The state is an ordered [`StateStore`] (what the lab's state table and the checkpoint
//! read, in key order). Beside it the operator keeps a hash set of the stored keys and a heap
//! of their eviction times (`DedupIndex`), so a batch costs what it brings and what
//! expires: a row's key is looked up in the hash set, the batch's new keys are sorted once and
//! merged into the store in one pass when they are many, and eviction pops only the keys whose
//! time has come.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashSet;

use super::OperatorMetrics;
use crate::state::{StateStore, StoreDelta};
use crate::types::{DelayMs, EventTime, Row, Value, WatermarkMs};

/// Dedup state: key columns → expiry in µs (`dropDuplicatesWithinWatermark`) or `None`.
/// Change the store through [`run_dedup`] or [`DedupState::apply_delta_owned`], which keep
/// the index beside it in step.
#[derive(Debug, Clone, Default)]
pub struct DedupState {
    /// Seen key (the key columns' values) → the µs at which it expires under
    /// `dropDuplicatesWithinWatermark` (event time + delay), or `None`.
    pub store: StateStore<Option<i64>>,
    /// Duplicates dropped this batch (`customMetrics.numDroppedDuplicateRows`).
    pub dropped_duplicates: u64,
    /// Built by the first batch that needs it (and again after a checkpoint load).
    index: Option<DedupIndex>,
}

/// The stored keys as a hash set (`Value`'s hash agrees with the store's order: keys equal in
/// one are equal in the other), and each key that can expire under its eviction time
/// ([`DedupSpec::evicts_at_us`]), earliest first.
#[derive(Debug, Clone)]
struct DedupIndex {
    /// What the eviction times were read under: within watermark, and the event time's
    /// position in the key.
    plan: (bool, Option<usize>),
    keys: FxHashSet<HashedKey>,
    expiry: BinaryHeap<Reverse<(i64, Row)>>,
}

impl DedupState {
    /// Replays a checkpoint delta ([`StateStore::apply_delta_owned`]); the index is rebuilt by
    /// the next batch.
    pub fn apply_delta_owned(&mut self, delta: StoreDelta<Option<i64>>) {
        self.store.apply_delta_owned(delta);
        self.index = None;
    }

    /// Takes the index out, rebuilt if missing or read under another plan.
    fn take_index(&mut self, spec: &DedupSpec) -> DedupIndex {
        let plan = spec.index_plan();
        match self.index.take() {
            Some(ix) if ix.plan == plan => ix,
            _ => DedupIndex {
                plan,
                keys: self.store.iter().map(|(k, _)| HashedKey::new(k.clone())).collect(),
                expiry: self.store.iter().filter_map(|(k, v)| Some(Reverse((spec.evicts_at_us(k, *v)?, k.clone())))).collect(),
            },
        }
    }
}

/// A stored key with its hash worked out once: the set grows (and moves every key) without
/// reading the keys' strings again, and a probe compares hashes before values.
#[derive(Debug, Clone)]
struct HashedKey {
    hash: u64,
    key: Row,
}

impl HashedKey {
    fn new(key: Row) -> HashedKey {
        use std::hash::BuildHasher;
        HashedKey { hash: rustc_hash::FxBuildHasher.hash_one(&key), key }
    }
}

impl PartialEq for HashedKey {
    fn eq(&self, other: &HashedKey) -> bool {
        self.hash == other.hash && self.key == other.key
    }
}

impl Eq for HashedKey {}

impl std::hash::Hash for HashedKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// The parameters of one dedup operator.
pub struct DedupSpec<'a> {
    /// The input columns (by position) whose values make the deduplication key.
    pub keys: &'a [usize],
    /// The input's event-time column, when it has a watermark.
    pub event_time_col: Option<usize>,
    /// The watermarked event-time column is one of the keys: a key is evicted once its
    /// event time is past the eviction watermark (`dropDuplicates` with the event time).
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

    /// What [`DedupSpec::evicts_at_us`] depends on besides the key and the stored value.
    fn index_plan(&self) -> (bool, Option<usize>) {
        let time_in_key = if self.event_time_in_key { self.keys.iter().position(|k| Some(*k) == self.event_time_col) } else { None };
        (self.within_watermark_delay_ms.is_some(), time_in_key)
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
/// then evicts expired keys. A key is looked up in a hash set (constant time whatever the
/// state holds); the batch's new keys go into the store sorted, merged in one pass when they
/// are many; eviction takes only the expired keys off the heap.
pub fn run_dedup(state: &mut DedupState, input: Vec<Row>, spec: &DedupSpec, wm_for_late_events_ms: WatermarkMs, wm_for_eviction_ms: WatermarkMs) -> (Vec<Row>, OperatorMetrics) {
    let mut ix = state.take_index(spec);
    let mut out = Vec::new();
    let mut dropped_late = 0;
    state.dropped_duplicates = 0;
    let mut fresh: Vec<(Row, Option<i64>)> = Vec::with_capacity(input.len());
    for row in input {
        if spec.is_late(&row, wm_for_late_events_ms) {
            dropped_late += 1;
            continue;
        }
        let key = spec.key(&row);
        // One search of the set: a key it already holds is a duplicate.
        if !ix.keys.insert(HashedKey::new(key.clone())) {
            state.dropped_duplicates += 1;
            continue;
        }
        let expiry = spec.stored_expiry(&row);
        if let Some(e) = spec.evicts_at_us(&key, expiry) {
            ix.expiry.push(Reverse((e, key.clone())));
        }
        fresh.push((key, expiry));
        out.push(row);
    }
    fresh.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    state.store.put_new_sorted(fresh);
    if spec.within_watermark_delay_ms.is_some() || spec.event_time_in_key {
        while let Some(Reverse((e, _))) = ix.expiry.peek() {
            if !EventTime::from_micros(*e).is_past(wm_for_eviction_ms) {
                break;
            }
            let Some(Reverse((_, key))) = ix.expiry.pop() else { break };
            let key = HashedKey::new(key);
            state.store.remove(&key.key);
            ix.keys.remove(&key);
        }
    }
    state.index = Some(ix);
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The rule as the ordered store alone runs it (every key looked up in the store, every
    /// stored key checked for eviction): what [`run_dedup`] must match.
    fn reference(store: &mut StateStore<Option<i64>>, input: Vec<Row>, spec: &DedupSpec, wm: WatermarkMs) -> (Vec<Row>, u64, u64) {
        let (mut out, mut late, mut dups) = (Vec::new(), 0, 0);
        for row in input {
            if spec.is_late(&row, wm) {
                late += 1;
                continue;
            }
            let key = spec.key(&row);
            if store.get(&key).is_some() {
                dups += 1;
                continue;
            }
            store.put(key, spec.stored_expiry(&row));
            out.push(row);
        }
        if spec.within_watermark_delay_ms.is_some() || spec.event_time_in_key {
            store.remove_where(|k, v| spec.evicts_at_us(k, *v).is_some_and(|e| EventTime::from_micros(e).is_past(wm)));
        }
        (out, late, dups)
    }

    proptest! {
        /// Rows (id, event time in minutes, NULL sometimes) in batches while the watermark
        /// moves 2 minutes a batch: the hash set and the eviction heap give the rows, metrics,
        /// stored keys and checkpoint deltas of the ordered store alone, for
        /// `dropDuplicates(['id'])`, `(['id', 'time'])` and `dropDuplicatesWithinWatermark`.
        #[test]
        fn the_index_dedups_what_the_ordered_store_dedups(
            variant in 0..3usize,
            batches in proptest::collection::vec(proptest::collection::vec((0..6i64, proptest::option::of(0..12i64)), 0..8), 1..6),
        ) {
            let keys: &[usize] = if variant == 1 { &[0, 1] } else { &[0] };
            let spec = DedupSpec {
                keys,
                event_time_col: Some(1),
                event_time_in_key: variant == 1,
                within_watermark_delay_ms: (variant == 2).then(|| DelayMs::from_ms(180_000)),
            };
            let mut state = DedupState::default();
            let mut model: StateStore<Option<i64>> = StateStore::default();
            for (i, batch) in batches.into_iter().enumerate() {
                let rows: Vec<Row> = batch.into_iter().map(|(id, t)| vec![Value::Long(id), t.map_or(Value::Null, |m| Value::Timestamp(m * 60_000_000))]).collect();
                let wm = WatermarkMs::from_ms(i as i64 * 120_000);
                let (out, m) = run_dedup(&mut state, rows.clone(), &spec, wm, wm);
                let (want, late, dups) = reference(&mut model, rows, &spec, wm);
                let mm = model.commit();
                prop_assert_eq!(out, want);
                prop_assert_eq!((m.num_rows_total, m.num_rows_updated, m.num_rows_removed, m.num_rows_dropped_by_watermark), (mm.num_rows_total, mm.num_rows_updated, mm.num_rows_removed, late));
                prop_assert_eq!(state.dropped_duplicates, dups);
                prop_assert_eq!(state.store.take_delta(), model.take_delta());
                prop_assert_eq!(state.store.iter().collect::<Vec<_>>(), model.iter().collect::<Vec<_>>());
            }
        }
    }
}
