//! Versioned operator state as Spark's `HDFSBackedStateStoreProvider` keeps it: one delta per
//! version (the keys the batch put or removed), a snapshot every
//! `spark.sql.streaming.stateStore.minDeltasForSnapshot` versions, and only the last
//! `spark.sql.streaming.minBatchesToRetain` versions loadable.
//!
//! Spark writes `N.delta` as each batch commits, a background maintenance task turns deltas
//! into `N.snapshot` files, and cleanup deletes every file older than the newest snapshot the
//! oldest retained version still needs. The engine has no background task, and copying the
//! whole state at commit would make every batch cost as much as the state it did not touch.
//! So it keeps exactly the files a cleaned-up Spark checkpoint keeps — the snapshot at or
//! before the oldest retained version, and the deltas after it — and moves the snapshot
//! forward `minDeltasForSnapshot` versions at a time by applying that many of the oldest
//! deltas to it. A commit costs the keys the batch changed (plus, once every
//! `minDeltasForSnapshot` versions, the keys those versions changed); loading version v
//! (a restart, a failed batch) is the snapshot plus the deltas up to v.

use std::collections::{BTreeMap, BTreeSet};

use crate::execution::aggregate::{AggBuffer, AggregateState};
use crate::execution::dedup::{DedupDelta, DedupState};
use crate::execution::group_state::{GroupStateStore, KeyState};
use crate::execution::limit::LimitState;
use crate::execution::transform_with_state::{TwsEntry, TwsStore};
use crate::execution::session_window::{SessionState, SessionWindow};
use crate::execution::stream_join::{Buffered, StreamJoinState};
use crate::execution::OperatorState;
use crate::state::StoreDelta;
use crate::types::Row;

/// `spark.sql.streaming.stateStore.minDeltasForSnapshot` (default 10).
pub const DEFAULT_MIN_DELTAS_FOR_SNAPSHOT: u64 = 10;
/// `spark.sql.streaming.minBatchesToRetain` (default 100).
pub const DEFAULT_MIN_BATCHES_TO_RETAIN: u64 = 100;

/// One version's changes to one stateful operator's store(s): the `N.delta` file.
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorDelta {
    /// A streaming aggregation: grouping key → its aggregate buffers.
    Aggregate(StoreDelta<Vec<AggBuffer>>),
    /// A deduplication: key → `dropDuplicatesWithinWatermark`'s expiry, µs (`None` for
    /// `dropDuplicates`), as the batch added and removed them, in order.
    Dedup(DedupDelta),
    /// A streaming limit: its one counter of rows emitted so far.
    Limit(StoreDelta<i64>),
    /// A session-window aggregation: grouping key → its sessions.
    Session(StoreDelta<Vec<SessionWindow>>),
    /// A stream-stream join's two sides.
    StreamJoin {
        /// Join key → the buffered left rows.
        left: StoreDelta<Vec<Buffered>>,
        /// Join key → the buffered right rows.
        right: StoreDelta<Vec<Buffered>>,
    },
    /// `applyInPandasWithState`: grouping key → its state tuple and timeout (`GroupState`).
    GroupState(StoreDelta<KeyState>),
    /// `transformWithState`: the processor's state variables and timers.
    Tws(StoreDelta<TwsEntry>),
}

impl OperatorDelta {
    /// Takes the keys `state` changed since its last delta.
    pub fn take(state: &mut OperatorState) -> OperatorDelta {
        match state {
            OperatorState::Aggregate(a) => OperatorDelta::Aggregate(a.store.take_delta()),
            OperatorState::Dedup(d) => OperatorDelta::Dedup(d.store.take_delta()),
            OperatorState::Limit(l) => OperatorDelta::Limit(l.store.take_delta()),
            OperatorState::Session(s) => OperatorDelta::Session(s.store.take_delta()),
            OperatorState::StreamJoin(j) => OperatorDelta::StreamJoin { left: j.left.take_delta(), right: j.right.take_delta() },
            OperatorState::GroupState(g) => OperatorDelta::GroupState(g.store.take_delta()),
            OperatorState::Tws(t) => OperatorDelta::Tws(t.store.take_delta()),
        }
    }

    /// The store keys the version wrote (not removed); for a join, (left, right).
    pub fn written_keys(&self) -> (BTreeSet<Row>, BTreeSet<Row>) {
        fn written<V>(d: &StoreDelta<V>) -> BTreeSet<Row> {
            d.iter().filter(|(_, v)| v.is_some()).map(|(k, _)| k.clone()).collect()
        }
        match self {
            OperatorDelta::Aggregate(d) => (written(d), BTreeSet::new()),
            OperatorDelta::Dedup(d) => {
                // In order: a key added, then removed by the same batch, was not written.
                let last: BTreeMap<&[crate::types::Value], bool> = d.iter().map(|(k, v)| (&**k, v.is_some())).collect();
                (last.into_iter().filter(|(_, w)| *w).map(|(k, _)| k.to_vec()).collect(), BTreeSet::new())
            }
            OperatorDelta::Limit(d) => (written(d), BTreeSet::new()),
            OperatorDelta::Session(d) => (written(d), BTreeSet::new()),
            OperatorDelta::StreamJoin { left, right } => (written(left), written(right)),
            OperatorDelta::GroupState(d) => (written(d), BTreeSet::new()),
            OperatorDelta::Tws(d) => (written(d), BTreeSet::new()),
        }
    }

    /// Number of keys the delta holds.
    pub fn len(&self) -> usize {
        match self {
            OperatorDelta::Aggregate(d) => d.len(),
            OperatorDelta::Dedup(d) => d.len(),
            OperatorDelta::Limit(d) => d.len(),
            OperatorDelta::Session(d) => d.len(),
            OperatorDelta::StreamJoin { left, right } => left.len() + right.len(),
            OperatorDelta::GroupState(d) => d.len(),
            OperatorDelta::Tws(d) => d.len(),
        }
    }

    /// True if the version changed nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An empty state of the operator kind this delta belongs to.
    fn empty_state(&self) -> OperatorState {
        match self {
            OperatorDelta::Aggregate(_) => OperatorState::Aggregate(AggregateState::default()),
            OperatorDelta::Dedup(_) => OperatorState::Dedup(DedupState::default()),
            OperatorDelta::Limit(_) => OperatorState::Limit(LimitState::default()),
            OperatorDelta::Session(_) => OperatorState::Session(SessionState::default()),
            OperatorDelta::StreamJoin { .. } => OperatorState::StreamJoin(StreamJoinState::default()),
            OperatorDelta::GroupState(_) => OperatorState::GroupState(GroupStateStore::default()),
            OperatorDelta::Tws(_) => OperatorState::Tws(TwsStore::default()),
        }
    }

    /// Replays the delta on `state`, moving its keys and values in (of the same operator kind;
    /// a state of another kind — impossible past the checkpoint's compatibility check — is
    /// replaced by an empty one).
    pub fn apply(self, state: &mut OperatorState) {
        match (self, &mut *state) {
            (OperatorDelta::Aggregate(d), OperatorState::Aggregate(a)) => a.store.apply_delta_owned(d),
            (OperatorDelta::Dedup(d), OperatorState::Dedup(s)) => s.apply_delta_owned(d),
            (OperatorDelta::Limit(d), OperatorState::Limit(s)) => s.store.apply_delta_owned(d),
            (OperatorDelta::Session(d), OperatorState::Session(s)) => s.store.apply_delta_owned(d),
            (OperatorDelta::GroupState(d), OperatorState::GroupState(g)) => g.store.apply_delta_owned(d),
            (OperatorDelta::Tws(d), OperatorState::Tws(t)) => t.store.apply_delta_owned(d),
            (OperatorDelta::StreamJoin { left, right }, OperatorState::StreamJoin(j)) => {
                j.apply_delta_owned(left, right);
            }
            (d, _) => {
                *state = d.empty_state();
                d.apply(state);
            }
        }
    }
}

/// Every operator's state at one version, by operator id.
pub type StateVersion = BTreeMap<usize, OperatorState>;

/// The `state/` folder of a checkpoint: loadable versions of every stateful operator's state.
/// Version N+1 is committed by batch N; version 0 is the empty state.
#[derive(Debug, Clone)]
pub struct StateVersions {
    min_deltas_for_snapshot: u64,
    min_batches_to_retain: u64,
    /// The snapshot the oldest retained version is built from, and its version.
    snapshot_version: u64,
    snapshot: StateVersion,
    /// `N.delta` for every version after the snapshot, by version.
    deltas: BTreeMap<u64, BTreeMap<usize, OperatorDelta>>,
}

impl Default for StateVersions {
    fn default() -> Self {
        StateVersions::new(DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, DEFAULT_MIN_BATCHES_TO_RETAIN)
    }
}

impl StateVersions {
    /// An empty `state/` folder with Spark's two retention confs (each at least 1, as Spark
    /// requires).
    pub fn new(min_deltas_for_snapshot: u64, min_batches_to_retain: u64) -> StateVersions {
        StateVersions {
            min_deltas_for_snapshot: min_deltas_for_snapshot.max(1),
            min_batches_to_retain: min_batches_to_retain.max(1),
            snapshot_version: 0,
            snapshot: StateVersion::new(),
            deltas: BTreeMap::new(),
        }
    }

    /// The newest committed version (0 before any commit).
    pub fn latest_version(&self) -> u64 {
        self.deltas.last_key_value().map_or(self.snapshot_version, |(v, _)| *v)
    }

    /// The oldest version [`StateVersions::load`] can build: the snapshot's. Cleanup keeps
    /// versions `latest - minBatchesToRetain ..= latest` (Spark's `earliestVersionToRetain`),
    /// and the snapshot they start from.
    pub fn oldest_version(&self) -> u64 {
        self.snapshot_version
    }

    /// The version the snapshot holds (a multiple of `minDeltasForSnapshot`).
    pub fn snapshot_version(&self) -> u64 {
        self.snapshot_version
    }

    /// The newest version's delta (what the last batch changed), by operator id.
    pub fn latest_delta(&self) -> Option<&BTreeMap<usize, OperatorDelta>> {
        self.deltas.last_key_value().map(|(_, d)| d)
    }

    /// Number of delta files kept.
    pub fn delta_count(&self) -> usize {
        self.deltas.len()
    }

    /// Commits `version` (batch `version - 1`'s state): takes each operator's changed keys as
    /// the version's delta, then lets go of what no retained version needs. Costs what the
    /// batch changed, not the size of the state.
    ///
    /// A version at or below the latest one replaces it and drops the deltas after it (a batch
    /// run again after a restart commits its version again).
    pub fn commit(&mut self, version: u64, states: &mut StateVersion) {
        let delta: BTreeMap<usize, OperatorDelta> = states.iter_mut().map(|(op, s)| (*op, OperatorDelta::take(s))).collect();
        let _ = self.deltas.split_off(&version);
        self.deltas.insert(version, delta);
        self.maintain();
    }

    /// The maintenance task: moves the snapshot forward by `minDeltasForSnapshot` versions
    /// while the oldest retained version no longer needs the old one.
    fn maintain(&mut self) {
        let n = self.min_deltas_for_snapshot;
        let oldest = self.latest_version().saturating_sub(self.min_batches_to_retain);
        while self.snapshot_version + n <= oldest {
            let to = self.snapshot_version + n;
            let rest = self.deltas.split_off(&(to + 1));
            for delta in std::mem::replace(&mut self.deltas, rest).into_values() {
                apply_all(&mut self.snapshot, delta);
            }
            self.snapshot_version = to;
        }
    }

    /// Builds every operator's state at `version`: the snapshot plus the deltas up to it.
    /// `None` for a version not retained (older than the retained ones, or never committed).
    /// The stores come back with no pending changes.
    pub fn load(&self, version: u64) -> Option<StateVersion> {
        if version < self.snapshot_version || version > self.latest_version() {
            return None;
        }
        let mut state = self.snapshot.clone();
        for delta in self.deltas.range(self.snapshot_version + 1..).take_while(|(v, _)| **v <= version).map(|(_, d)| d) {
            apply_all(&mut state, delta.clone());
        }
        Some(state)
    }
}

/// Replays one version's deltas on `state`, moving their keys and values in.
fn apply_all(state: &mut StateVersion, delta: BTreeMap<usize, OperatorDelta>) {
    for (op, d) in delta {
        match state.get_mut(&op) {
            Some(s) => d.apply(s),
            None => {
                let mut s = d.empty_state();
                d.apply(&mut s);
                state.insert(op, s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Value;

    fn limit_state(n: i64) -> OperatorState {
        let mut l = LimitState::default();
        l.store.put(vec![Value::Null], n);
        OperatorState::Limit(l)
    }

    fn emitted(v: &StateVersion) -> i64 {
        match v.get(&0) {
            Some(OperatorState::Limit(l)) => l.emitted(),
            _ => -1,
        }
    }

    #[test]
    fn every_retained_version_loads_and_older_ones_are_gone() {
        // Snapshot every 3 versions, 5 retained; batch b commits version b + 1 with the
        // counter at 10·(b + 1).
        let mut sv = StateVersions::new(3, 5);
        let mut live: StateVersion = BTreeMap::from([(0, limit_state(0))]);
        for b in 0..12u64 {
            let OperatorState::Limit(l) = live.get_mut(&0).unwrap() else { unreachable!() };
            l.store.put(vec![Value::Null], 10 * (b as i64 + 1));
            sv.commit(b + 1, &mut live);
        }
        // Latest 12, retained 12 - 5 = 7 ..= 12; the snapshot is the newest multiple of 3 at
        // or below 7, i.e. 6, and the deltas 7..=12 follow it.
        assert_eq!(sv.latest_version(), 12);
        assert_eq!(sv.oldest_version(), 6);
        assert_eq!(sv.delta_count(), 6);
        for v in 6..=12 {
            assert_eq!(emitted(&sv.load(v).unwrap()), 10 * v as i64, "version {v}");
        }
        assert!(sv.load(5).is_none());
        assert!(sv.load(13).is_none());
    }

    #[test]
    fn recommitting_a_version_drops_later_ones() {
        let mut sv = StateVersions::default();
        let mut live: StateVersion = BTreeMap::from([(0, limit_state(1))]);
        sv.commit(1, &mut live);
        live = BTreeMap::from([(0, limit_state(2))]);
        sv.commit(2, &mut live);
        // Batch 1 runs again from version 1 and commits version 2 with another value.
        let mut again = sv.load(1).unwrap();
        let OperatorState::Limit(l) = again.get_mut(&0).unwrap() else { unreachable!() };
        l.store.put(vec![Value::Null], 5);
        sv.commit(2, &mut again);
        assert_eq!(emitted(&sv.load(2).unwrap()), 5);
        assert_eq!(emitted(&sv.load(1).unwrap()), 1);
    }
}
