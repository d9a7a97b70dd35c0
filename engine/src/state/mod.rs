//! The versioned `StateStore` each stateful operator keeps its rows in.
//!
//! Mirrors the contract of Spark's `StateStore` (`sql/core/.../state/StateStore.scala`):
//! batch N reads version N, makes its updates (`put`, `remove`), and `commit` produces
//! version N+1. Keys are rows in an ordered map, so iteration order is deterministic
//! (the same inputs give the same state and output). The per-batch counters feed
//! `StateOperatorProgress`.
//!
//! The store also remembers which keys changed since the last [`StateStore::take_delta`]:
//! that set is the delta file the checkpoint keeps per version
//! (`HDFSBackedStateStoreProvider` writes the keys put and removed by each batch), so saving a
//! version costs what the batch changed, never the whole state
//! ([`crate::checkpoint::StateVersions`]).

use std::collections::BTreeMap;

use crate::types::Row;

/// Counters of one batch's updates, read by `StateOperatorProgress`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoreMetrics {
    /// Keys in the store after commit.
    pub num_rows_total: u64,
    /// `put`s this batch.
    pub num_rows_updated: u64,
    /// `remove`s this batch.
    pub num_rows_removed: u64,
}

/// The changes of one state version: each key put (`Some(value)`, its value after the
/// batch) or removed (`None`) — one delta file of Spark's HDFS-backed provider.
pub type StoreDelta<V> = BTreeMap<Row, Option<V>>;

/// A versioned key-value store of rows.
#[derive(Debug, Clone)]
pub struct StateStore<V> {
    map: BTreeMap<Row, V>,
    version: u64,
    updated: u64,
    removed: u64,
    /// Keys written or removed since the last [`StateStore::take_delta`]: a hash set, since
    /// every write asks it, and only `take_delta` needs its keys in order (it sorts them).
    dirty: KeySet,
    /// Keys a bulk [`StateStore::put_new_sorted`] added, ascending: already in order, so they
    /// skip the hash set and are merged with its sorted keys at `take_delta`.
    dirty_run: Vec<Row>,
}

/// Two ascending runs of keys as one, each key once.
fn merge_unique(a: Vec<Row>, b: Vec<Row>) -> Vec<Row> {
    if a.is_empty() || b.is_empty() {
        return if a.is_empty() { b } else { a };
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => out.extend(a.next()),
            std::cmp::Ordering::Greater => out.extend(b.next()),
            std::cmp::Ordering::Equal => {
                out.extend(a.next());
                b.next();
            }
        }
    }
    out.extend(a);
    out.extend(b);
    out
}

/// A set of keys found by hash (`Value`'s hash agrees with its [`Ord`] equality).
type KeySet = hashbrown::HashSet<Row, rustc_hash::FxBuildHasher>;

impl<V: Clone> Default for StateStore<V> {
    fn default() -> Self {
        StateStore { map: BTreeMap::new(), version: 0, updated: 0, removed: 0, dirty: KeySet::default(), dirty_run: Vec::new() }
    }
}

impl<V: Clone> StateStore<V> {
    /// The value stored for `key`.
    pub fn get(&self, key: &Row) -> Option<&V> {
        self.map.get(key)
    }

    /// The stored key equal to `key` (by [`Ord`]: `Int(1)` finds `Long(1)`) with its value.
    pub fn get_key_value(&self, key: &Row) -> Option<(&Row, &V)> {
        self.map.get_key_value(key)
    }

    /// A mutable value for `key`, for updating an aggregation buffer in place. Counts as a
    /// `put` only through [`StateStore::put`] or [`StateStore::mark_updated`]; the key goes
    /// into this version's delta.
    pub fn get_mut(&mut self, key: &Row) -> Option<&mut V> {
        let v = self.map.get_mut(key);
        if v.is_some() {
            self.dirty.get_or_insert_with(key, Row::clone);
        }
        v
    }

    /// Stores `value` under `key` and counts one update.
    pub fn put(&mut self, key: Row, value: V) {
        self.updated += 1;
        self.dirty.get_or_insert_with(&key, Row::clone);
        self.map.insert(key, value);
    }

    /// Stores every `(key, value)` of `entries` — keys in ascending order, none of them in
    /// the store yet — counting one update each, as [`StateStore::put`] one by one would.
    /// When they are many next to the store, the sorted run is merged in bulk (`append`:
    /// linear in both) instead of searched for one key at a time, so a first batch costs what
    /// it writes.
    pub fn put_new_sorted(&mut self, entries: Vec<(Row, V)>) {
        debug_assert!(entries.windows(2).all(|w| w[0].0 < w[1].0), "keys must ascend");
        if !Self::bulk_pays(entries.len(), self.map.len()) {
            for (k, v) in entries {
                self.put(k, v);
            }
            return;
        }
        self.updated += entries.len() as u64;
        let keys = entries.iter().map(|(k, _)| k.clone());
        if self.dirty_run.is_empty() {
            self.dirty_run.extend(keys);
        } else {
            self.dirty.extend(keys);
        }
        let mut fresh: BTreeMap<Row, V> = entries.into_iter().collect();
        self.map.append(&mut fresh);
    }

    /// True when merging `n` sorted keys with `m` in one linear pass costs less than `n`
    /// searches of about log2(n + m) comparisons each.
    fn bulk_pays(n: usize, m: usize) -> bool {
        n > 0 && n * (usize::BITS - (n + m).leading_zeros()) as usize >= n + m
    }

    /// Counts `n` updates made through [`StateStore::get_mut`].
    pub fn mark_updated(&mut self, n: u64) {
        self.updated += n;
    }

    /// Removes `key`, counting one removal if it was there.
    pub fn remove(&mut self, key: &Row) -> Option<V> {
        let v = self.map.remove(key);
        if v.is_some() {
            self.removed += 1;
            self.dirty.get_or_insert_with(key, Row::clone);
        }
        v
    }

    /// Removes and returns every entry for which `expired` is true, in key order.
    pub fn remove_where(&mut self, mut expired: impl FnMut(&Row, &V) -> bool) -> Vec<(Row, V)> {
        let keys: Vec<Row> = self.map.iter().filter(|(k, v)| expired(k, v)).map(|(k, _)| k.clone()).collect();
        keys.into_iter()
            .filter_map(|k| {
                let v = self.remove(&k)?;
                Some((k, v))
            })
            .collect()
    }

    /// Calls `update` on every value, in key order (for operators whose value is a list of
    /// rows, such as a join buffer); `update` returns true when it changed the value, which
    /// puts the key in this version's delta. Not counted as updates.
    pub fn update_all(&mut self, mut update: impl FnMut(&Row, &mut V) -> bool) {
        for (k, v) in self.map.iter_mut() {
            if update(k, v) {
                self.dirty.get_or_insert_with(k, Row::clone);
            }
        }
    }

    /// Drops the keys whose value no longer holds anything (not counted as removals: the
    /// operator counts the rows it let go).
    pub fn retain_non_empty(&mut self, keep: impl Fn(&V) -> bool) {
        let dirty = &mut self.dirty;
        self.map.retain(|k, v| {
            let kept = keep(v);
            if !kept {
                dirty.get_or_insert_with(k, Row::clone);
            }
            kept
        });
    }

    /// The keys changed since the last call, with their values now (`None`: removed), and
    /// forgets them: the delta of the version being committed. Costs the changed keys only.
    pub fn take_delta(&mut self) -> StoreDelta<V> {
        let mut dirty: Vec<Row> = std::mem::take(&mut self.dirty).into_iter().collect();
        dirty.sort_unstable();
        let dirty = merge_unique(dirty, std::mem::take(&mut self.dirty_run));
        if !Self::bulk_pays(dirty.len(), self.map.len()) {
            return dirty
                .into_iter()
                .map(|k| {
                    let v = self.map.get(&k).cloned();
                    (k, v)
                })
                .collect();
        }
        // Many changed keys: one walk of both ordered sets instead of a search per key.
        let mut stored = self.map.iter().peekable();
        dirty
            .into_iter()
            .map(|k| {
                while stored.next_if(|(s, _)| **s < k).is_some() {}
                let v = stored.next_if(|(s, _)| **s == k).map(|(_, v)| v.clone());
                (k, v)
            })
            .collect()
    }

    /// Replays a delta taken by [`StateStore::take_delta`] (loading a version from the
    /// checkpoint): not counted as updates, not part of the next delta.
    pub fn apply_delta(&mut self, delta: &StoreDelta<V>) {
        self.apply_delta_owned(delta.clone());
    }

    /// [`StateStore::apply_delta`] for a delta no longer needed: its keys and values move into
    /// the store instead of being copied.
    pub fn apply_delta_owned(&mut self, delta: StoreDelta<V>) {
        for (k, v) in delta {
            match v {
                Some(v) => {
                    self.map.insert(k, v);
                }
                None => {
                    self.map.remove(&k);
                }
            }
        }
    }

    /// True if no key changed since the last [`StateStore::take_delta`].
    pub fn is_clean(&self) -> bool {
        self.dirty.is_empty() && self.dirty_run.is_empty()
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Row, &V)> {
        self.map.iter()
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The version this store will read next (= number of commits).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Commits this batch's updates: the version goes up by one and the counters are returned
    /// and reset.
    pub fn commit(&mut self) -> StoreMetrics {
        self.version += 1;
        let m = StoreMetrics { num_rows_total: self.map.len() as u64, num_rows_updated: self.updated, num_rows_removed: self.removed };
        self.updated = 0;
        self.removed = 0;
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Value;

    #[test]
    fn commit_counts_and_versions() {
        let mut s: StateStore<i64> = StateStore::default();
        s.put(vec![Value::Int(1)], 1);
        s.put(vec![Value::Int(2)], 1);
        s.put(vec![Value::Int(1)], 2);
        let m = s.commit();
        // Three puts, two distinct keys.
        assert_eq!(m, StoreMetrics { num_rows_total: 2, num_rows_updated: 3, num_rows_removed: 0 });
        assert_eq!(s.version(), 1);
        let gone = s.remove_where(|k, _| k[0] == Value::Int(1));
        assert_eq!(gone.len(), 1);
        assert_eq!(s.commit(), StoreMetrics { num_rows_total: 1, num_rows_updated: 0, num_rows_removed: 1 });
    }

    #[test]
    fn delta_holds_only_changed_keys() {
        let k = |i: i32| vec![Value::Int(i)];
        let mut s: StateStore<i64> = StateStore::default();
        for i in 0..5 {
            s.put(k(i), i64::from(i));
        }
        let first = s.take_delta();
        assert_eq!(first.len(), 5);
        // Next batch: key 1 updated in place, key 2 removed, key 9 added; keys 0, 3, 4 untouched.
        *s.get_mut(&k(1)).unwrap() = 10;
        s.remove(&k(2));
        s.put(k(9), 9);
        s.update_all(|_, _| false);
        let d = s.take_delta();
        assert_eq!(d, BTreeMap::from([(k(1), Some(10)), (k(2), None), (k(9), Some(9))]));
        assert!(s.is_clean());
        // Replaying both deltas on an empty store gives the same map.
        let mut r: StateStore<i64> = StateStore::default();
        r.apply_delta(&first);
        r.apply_delta(&d);
        assert_eq!(r.iter().collect::<Vec<_>>(), s.iter().collect::<Vec<_>>());
        assert!(r.is_clean());
    }

    #[test]
    fn sorted_puts_and_deltas_agree_in_bulk_and_one_by_one() {
        let k = |i: i32| vec![Value::Int(i)];
        // A first batch of 100 new keys into an empty store takes the bulk merge; 3 new keys
        // into 1,000 stored ones take one search each (3 * log2(1000) < 1003). Either way
        // every key is stored, counted once, and in the next delta.
        let mut s: StateStore<i64> = StateStore::default();
        s.put_new_sorted((0..100).map(|i| (k(i * 10), i64::from(i))).collect());
        assert_eq!(s.commit().num_rows_updated, 100);
        let d = s.take_delta();
        assert_eq!(d, (0..100).map(|i| (k(i * 10), Some(i64::from(i)))).collect::<StoreDelta<i64>>());
        s.put_new_sorted((100..1000).map(|i| (k(i * 10), i64::from(i))).collect());
        s.take_delta();
        s.commit();
        s.put_new_sorted(vec![(k(5), 5), (k(15), 15), (k(99_995), 7)]);
        s.remove(&k(20));
        *s.get_mut(&k(30)).unwrap() = -3;
        assert_eq!(s.commit(), StoreMetrics { num_rows_total: 1002, num_rows_updated: 3, num_rows_removed: 1 });
        // 5 changed keys next to 1,002 stored: looked up one by one.
        let d = s.take_delta();
        assert_eq!(d, BTreeMap::from([(k(5), Some(5)), (k(15), Some(15)), (k(20), None), (k(30), Some(-3)), (k(99_995), Some(7))]));
        assert_eq!(s.get(&k(15)), Some(&15));
        assert_eq!(s.len(), 1002);
        // Removing most keys makes the next delta large: read in one walk, removed keys None.
        let gone = s.remove_where(|key, _| key[0] != k(15)[0]);
        assert_eq!(gone.len(), 1001);
        let d = s.take_delta();
        assert_eq!(d.len(), 1001);
        assert!(d.values().all(Option::is_none));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![(&k(15), &15)]);
    }

    #[test]
    fn a_bulk_run_and_other_writes_in_one_version_give_each_key_once() {
        let k = |i: i32| vec![Value::Int(i)];
        // One version: 100 new keys in bulk (0, 10, ..., 990), then key 10 updated in place,
        // then 100 more new keys in bulk between them (5, 15, ..., 995) and key 20 removed.
        // The delta is the 199 keys left plus key 20 as removed: 200 keys, each once, in
        // order, key 10 with its new value.
        let mut s: StateStore<i64> = StateStore::default();
        s.put_new_sorted((0..100).map(|i| (k(i * 10), i64::from(i))).collect());
        *s.get_mut(&k(10)).unwrap() = -1;
        s.put_new_sorted((0..100).map(|i| (k(i * 10 + 5), 1000 + i64::from(i))).collect());
        s.remove(&k(20));
        assert!(!s.is_clean());
        let d = s.take_delta();
        assert_eq!(d.len(), 200);
        assert_eq!((d[&k(10)], d[&k(15)], d[&k(20)], d[&k(990)]), (Some(-1), Some(1001), None, Some(99)));
        assert!(s.is_clean());
        assert_eq!(s.commit().num_rows_updated, 200);
    }
}
