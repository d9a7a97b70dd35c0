//! `StreamingDeduplicateExec` and `StreamingDeduplicateWithinWatermarkExec`
//! (`statefulOperators.scala`; `distinct()` on a stream runs the first).
//!
//! The state is a [`DedupStore`]: the seen keys in a hash table, so a batch costs what it
//! brings and what expires, whatever the state holds. A row's key is looked up once; a new
//! key is added without sorting anything; eviction pops only the keys whose time has come off
//! a heap of eviction times (`DedupIndex`); and the checkpoint's delta is the batch's writes
//! and removals in the order they happened. Readers that show the state (the lab's state
//! table, [`DedupStore::iter`]) get it in key order, sorted when they read.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hashbrown::HashTable;

use super::OperatorMetrics;
use crate::state::StoreMetrics;
use crate::types::{DelayMs, EventTime, Row, Value, WatermarkMs};

/// Dedup state: the store of seen keys and this batch's dropped duplicates.
/// Change the store through [`run_dedup`] or [`DedupState::apply_delta_owned`], which keep
/// the index beside it in step.
#[derive(Debug, Clone, Default)]
pub struct DedupState {
    /// Seen key (the key columns' values) → the µs at which it expires under
    /// `dropDuplicatesWithinWatermark` (event time + delay), or `None`.
    pub store: DedupStore,
    /// Duplicates dropped this batch (`customMetrics.numDroppedDuplicateRows`).
    pub dropped_duplicates: u64,
    /// Built by the first batch that needs it (and again after a checkpoint load).
    index: Option<DedupIndex>,
}

/// A stored key: the key columns' values, shared by the table, the delta and the eviction
/// heap (one allocation per new key).
pub type DedupKey = std::rc::Rc<[Value]>;

/// One version's changes to a [`DedupStore`], in the order they were made: each key added
/// (`Some(stored)`) or removed (`None`). Replayed in order ([`DedupStore::apply_delta_owned`]),
/// a later entry for a key wins. Spark's delta file holds the same puts and removes.
pub type DedupDelta = Vec<(DedupKey, Option<Option<i64>>)>;

/// A stored key with its hash, worked out once: the table grows (and moves every key)
/// without reading the keys' strings again, and a probe compares hashes before values.
#[derive(Debug, Clone)]
struct Seen {
    hash: u64,
    key: DedupKey,
    stored: Option<i64>,
}

/// The hash of a key given as its values (`Value`'s hash agrees with its order: keys equal
/// by [`Ord`], such as `Int(1)` and `Long(1)`, hash alike).
fn hash_of<'a>(values: impl ExactSizeIterator<Item = &'a Value>) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    h.write_usize(values.len());
    for v in values {
        v.hash(&mut h);
    }
    h.finish()
}

/// `StreamingDeduplicateExec`'s state store: key → stored value (the expiry, µs, under
/// `dropDuplicatesWithinWatermark`; `None` otherwise), with Spark's per-batch counters and
/// the delta of the current version ([`DedupStore::take_delta`]).
///
/// Unlike the ordered [`crate::state::StateStore`] the other operators use, nothing here is
/// kept sorted: a batch of n new keys costs n hash inserts, not a sort and a merge into the
/// ordered state. Every result stays deterministic: the table is only read by key, the delta
/// is in the order of the batch's rows, and [`DedupStore::iter`] sorts.
#[derive(Debug, Clone, Default)]
pub struct DedupStore {
    table: HashTable<Seen>,
    updated: u64,
    removed: u64,
    log: DedupDelta,
}

impl DedupStore {
    /// The value stored for `key` (found by [`Ord`] equality: `Int(1)` finds `Long(1)`).
    pub fn get(&self, key: &[Value]) -> Option<&Option<i64>> {
        let hash = hash_of(key.iter());
        self.table.find(hash, |s| s.hash == hash && *s.key == *key).map(|s| &s.stored)
    }

    /// Stores the key made of `row`'s columns `cols` unless it is there: the new key (one
    /// `put`, counted and logged), or `None` if the store already held it (nothing changes,
    /// nothing is allocated).
    pub fn insert_new(&mut self, row: &Row, cols: &[usize], stored: Option<i64>) -> Option<DedupKey> {
        let hash = hash_of(cols.iter().map(|c| &row[*c]));
        let same = |s: &Seen| s.hash == hash && s.key.len() == cols.len() && cols.iter().zip(s.key.iter()).all(|(c, v)| row[*c] == *v);
        match self.table.entry(hash, same, |s| s.hash) {
            hashbrown::hash_table::Entry::Occupied(_) => None,
            hashbrown::hash_table::Entry::Vacant(v) => {
                let key: DedupKey = cols.iter().map(|c| row[*c].clone()).collect();
                v.insert(Seen { hash, key: key.clone(), stored });
                self.updated += 1;
                self.log.push((key.clone(), Some(stored)));
                Some(key)
            }
        }
    }

    /// Removes `key` (counted and logged); its stored value, if it was there.
    pub fn remove(&mut self, key: &[Value]) -> Option<Option<i64>> {
        let hash = hash_of(key.iter());
        let (seen, _) = self.table.find_entry(hash, |s| s.hash == hash && *s.key == *key).ok()?.remove();
        self.removed += 1;
        self.log.push((seen.key, None));
        Some(seen.stored)
    }

    /// Every (key, stored value), in key order (sorted on each call: for readers that show
    /// the state, not for a batch).
    pub fn iter(&self) -> impl Iterator<Item = (&[Value], &Option<i64>)> {
        let mut all: Vec<(&[Value], &Option<i64>)> = self.table.iter().map(|s| (&*s.key, &s.stored)).collect();
        all.sort_unstable_by(|a, b| a.0.cmp(b.0));
        all.into_iter()
    }

    /// Commits this batch's updates: the counters are returned and reset
    /// (`StateOperatorProgress`); the checkpoint numbers the versions.
    pub fn commit(&mut self) -> StoreMetrics {
        let m = StoreMetrics { num_rows_total: self.table.len() as u64, num_rows_updated: self.updated, num_rows_removed: self.removed };
        self.updated = 0;
        self.removed = 0;
        m
    }

    /// The changes since the last call, in the order they were made (the version's delta
    /// file); the store starts a new delta.
    pub fn take_delta(&mut self) -> DedupDelta {
        std::mem::take(&mut self.log)
    }

    /// Replays a delta taken by [`DedupStore::take_delta`] (loading a version from the
    /// checkpoint): not counted as updates, not part of the next delta.
    pub fn apply_delta_owned(&mut self, delta: DedupDelta) {
        for (key, v) in delta {
            let hash = hash_of(key.iter());
            let found = self.table.find_entry(hash, |s| s.hash == hash && s.key == key);
            match (found, v) {
                (Ok(mut e), Some(stored)) => e.get_mut().stored = stored,
                (Ok(e), None) => {
                    e.remove();
                }
                (Err(_), Some(stored)) => {
                    self.table.insert_unique(hash, Seen { hash, key, stored }, |s| s.hash);
                }
                (Err(_), None) => {}
            }
        }
    }
}

/// Each stored key that can expire under its eviction time ([`DedupSpec::evicts_at_us`]),
/// earliest first.
#[derive(Debug, Clone)]
struct DedupIndex {
    /// What the eviction times were read under: within watermark, and the event time's
    /// position in the key.
    plan: (bool, Option<usize>),
    expiry: BinaryHeap<Reverse<(i64, DedupKey)>>,
}

impl DedupState {
    /// Replays a checkpoint delta ([`DedupStore::apply_delta_owned`]); the index is rebuilt by
    /// the next batch.
    pub fn apply_delta_owned(&mut self, delta: DedupDelta) {
        self.store.apply_delta_owned(delta);
        self.index = None;
    }

    /// Takes the index out, rebuilt if missing or read under another plan.
    fn take_index(&mut self, spec: &DedupSpec) -> DedupIndex {
        let plan = spec.index_plan();
        match self.index.take() {
            Some(ix) if ix.plan == plan => ix,
            // The heap's order is (time, key): it does not depend on the table's.
            _ => DedupIndex { plan, expiry: self.store.table.iter().filter_map(|s| Some(Reverse((spec.evicts_at_us(&s.key, s.stored)?, s.key.clone())))).collect() },
        }
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
    pub fn evicts_at_us(&self, key: &[Value], stored: Option<i64>) -> Option<i64> {
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
/// then evicts expired keys. A key is looked up in a hash table (constant time whatever the
/// state holds); eviction takes only the expired keys off the heap.
pub fn run_dedup(state: &mut DedupState, input: Vec<Row>, spec: &DedupSpec, wm_for_late_events_ms: WatermarkMs, wm_for_eviction_ms: WatermarkMs) -> (Vec<Row>, OperatorMetrics) {
    let mut ix = state.take_index(spec);
    let mut out = Vec::new();
    let mut dropped_late = 0;
    state.dropped_duplicates = 0;
    let evicts = spec.within_watermark_delay_ms.is_some() || spec.event_time_in_key;
    for row in input {
        if spec.is_late(&row, wm_for_late_events_ms) {
            dropped_late += 1;
            continue;
        }
        let expiry = spec.stored_expiry(&row);
        // One search of the table: a key it already holds is a duplicate.
        let Some(key) = state.store.insert_new(&row, spec.keys, expiry) else {
            state.dropped_duplicates += 1;
            continue;
        };
        if evicts {
            if let Some(e) = spec.evicts_at_us(&key, expiry) {
                ix.expiry.push(Reverse((e, key)));
            }
        }
        out.push(row);
    }
    if evicts {
        while let Some(Reverse((e, _))) = ix.expiry.peek() {
            if !EventTime::from_micros(*e).is_past(wm_for_eviction_ms) {
                break;
            }
            let Some(Reverse((_, key))) = ix.expiry.pop() else { break };
            state.store.remove(&key);
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
    use crate::state::StateStore;
    use proptest::prelude::*;

    /// A delta as the ordered store writes it: each key once, with its value after the batch.
    fn folded(delta: DedupDelta) -> crate::state::StoreDelta<Option<i64>> {
        delta.into_iter().map(|(k, v)| (k.to_vec(), v)).collect()
    }

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
                prop_assert_eq!(folded(state.store.take_delta()), model.take_delta());
                prop_assert_eq!(state.store.iter().map(|(k, v)| (k.to_vec(), *v)).collect::<Vec<_>>(), model.iter().map(|(k, v)| (k.clone(), *v)).collect::<Vec<_>>());
            }
        }
    }
}
