//! The versioned `StateStore` each stateful operator keeps its rows in.
//!
//! Mirrors the contract of Spark's `StateStore` (`sql/core/.../state/StateStore.scala`):
//! batch N reads version N, makes its updates (`put`, `remove`), and `commit` produces
//! version N+1. Keys are rows in an ordered map, so iteration order is deterministic
//! (invariant 3). The per-batch counters feed `StateOperatorProgress`.

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

/// A versioned key-value store of rows.
#[derive(Debug, Clone)]
pub struct StateStore<V> {
    map: BTreeMap<Row, V>,
    version: u64,
    updated: u64,
    removed: u64,
}

impl<V: Clone> Default for StateStore<V> {
    fn default() -> Self {
        StateStore { map: BTreeMap::new(), version: 0, updated: 0, removed: 0 }
    }
}

impl<V: Clone> StateStore<V> {
    /// The value stored for `key`.
    pub fn get(&self, key: &Row) -> Option<&V> {
        self.map.get(key)
    }

    /// A mutable value for `key`, for updating an aggregation buffer in place. Counts as a
    /// `put` only through [`StateStore::put`] or [`StateStore::mark_updated`].
    pub fn get_mut(&mut self, key: &Row) -> Option<&mut V> {
        self.map.get_mut(key)
    }

    /// Stores `value` under `key` and counts one update.
    pub fn put(&mut self, key: Row, value: V) {
        self.updated += 1;
        self.map.insert(key, value);
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

    /// Mutable access to every value, in key order (for operators whose value is a list of
    /// rows, such as a join buffer or a key's sessions).
    pub fn iter_mut_all(&mut self) -> impl Iterator<Item = (&Row, &mut V)> {
        self.map.iter_mut()
    }

    /// Drops the keys whose value no longer holds anything (not counted as removals: the
    /// operator counts the rows it let go).
    pub fn retain_non_empty(&mut self, keep: impl Fn(&V) -> bool) {
        self.map.retain(|_, v| keep(v));
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
}
