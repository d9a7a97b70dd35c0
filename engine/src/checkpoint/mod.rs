//! The checkpoint location of a streaming query: `metadata` (the query id), the
//! offset log (`offsets/`, written before a batch runs), the commit log (`commits/`, written
//! after the sink took it), the versioned state (`state/`) and each stateful operator's
//! metadata (`state/<op>/_metadata`), with the checks Spark makes when a query restarts on it
//! and the rules for where it lives.
//!
//! Mirrors `StreamExecution`'s `offsetLog` / `commitLog` (`OffsetSeqLog`, `CommitLog`, both
//! purged to `spark.sql.streaming.minBatchesToRetain` entries), `HDFSBackedStateStoreProvider`
//! ([`StateVersions`]) and `OperatorStateMetadata`. Everything is in memory; the lab keeps one
//! per session and reuses it across restarts of the same query.
//!
//! # Layout
//! - [`state_versions`]: deltas, snapshots and retention of operator state.
//! - [`rules`]: the compatibility checks on restart.

pub mod rules;
pub mod state_versions;

pub use rules::{check_compatible, check_recoverable, operator_metadata};
pub use state_versions::{OperatorDelta, StateVersion, StateVersions, DEFAULT_MIN_BATCHES_TO_RETAIN, DEFAULT_MIN_DELTAS_FOR_SNAPSHOT};

use crate::types::MultipleWatermarkPolicy;

/// Offset log entry N (`offsets/N`), written before batch N runs.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetLogEntry {
    /// The batch this entry is for (N, the file name).
    pub batch_id: u64,
    /// The watermark batch N runs with, ms (`OffsetSeqMetadata.batchWatermarkMs`).
    pub batch_watermark_ms: i64,
    /// The batch's clock, ms since the epoch (`batchTimestampMs`).
    pub batch_timestamp_ms: i64,
    /// End offset per source (index order); `None` = the source has no offset yet.
    pub offsets: Vec<Option<i64>>,
    /// The confs Spark persists and restores from the last entry on restart.
    pub watermark_policy: MultipleWatermarkPolicy,
    /// `spark.sql.shuffle.partitions`, persisted and restored like the watermark policy.
    pub shuffle_partitions: u64,
}

/// Commit log entry N (`commits/N`), written after the sink took batch N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommitLogEntry {
    /// The batch this entry is for (N, the file name).
    pub batch_id: u64,
    /// The watermark the next batch will use, ms (`CommitMetadata.nextBatchWatermarkMs`).
    pub next_batch_watermark_ms: i64,
}

/// `state/<op>/_metadata` and the state key schema of one stateful operator, written by the
/// first run (`OperatorStateMetadataV1`, `StateSchemaCompatibilityChecker`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorMetadata {
    /// The operator id (`StatefulOperatorStateInfo.operatorId`).
    pub id: usize,
    /// Spark's operator name (`stateStoreSave`, `dedupe`, `symmetricHashJoin`, ...).
    pub name: String,
    /// The key schema as `name:type` strings, in key order.
    pub key_schema: Vec<String>,
}

/// What a checkpoint location holds. Reused across restarts of the same query.
#[derive(Debug, Clone, Default)]
pub struct Checkpoint {
    /// `metadata`: the query id, created on the first start.
    pub query_id: Option<String>,
    /// Number of runs started on this checkpoint (each gets a new run id).
    pub runs: u64,
    /// `offsets/`: the retained entries, oldest first.
    pub offsets: Vec<OffsetLogEntry>,
    /// `commits/`: the retained entries, oldest first.
    pub commits: Vec<CommitLogEntry>,
    /// `state/`: version N+1 is committed by batch N.
    pub state: StateVersions,
    /// `state/<op>/_metadata` of each stateful operator.
    pub operators: Vec<OperatorMetadata>,
    /// Number of sources the offsets are for.
    pub source_count: usize,
    /// `spark.sql.streaming.minBatchesToRetain` for the two logs (0 = Spark's default 100).
    pub min_batches_to_retain: u64,
}

impl Checkpoint {
    /// An empty checkpoint with Spark's retention confs
    /// (`spark.sql.streaming.stateStore.minDeltasForSnapshot`, `…minBatchesToRetain`).
    pub fn new(min_deltas_for_snapshot: u64, min_batches_to_retain: u64) -> Checkpoint {
        Checkpoint { state: StateVersions::new(min_deltas_for_snapshot, min_batches_to_retain), min_batches_to_retain, ..Checkpoint::default() }
    }

    /// The latest offset log entry.
    pub fn latest_offset(&self) -> Option<&OffsetLogEntry> {
        self.offsets.last()
    }

    /// The latest commit log entry.
    pub fn latest_commit(&self) -> Option<&CommitLogEntry> {
        self.commits.last()
    }

    /// Offset log entry `batch_id`, if retained.
    pub fn offset(&self, batch_id: u64) -> Option<&OffsetLogEntry> {
        self.offsets.iter().rev().find(|o| o.batch_id == batch_id)
    }

    fn retain(&self) -> u64 {
        if self.min_batches_to_retain == 0 {
            DEFAULT_MIN_BATCHES_TO_RETAIN
        } else {
            self.min_batches_to_retain
        }
    }

    /// Writes offset log entry N (write-ahead: before any output of batch N) and purges the
    /// entries older than N − `minBatchesToRetain` (`offsetLog.purge`).
    pub fn log_offsets(&mut self, entry: OffsetLogEntry) {
        let keep_from = entry.batch_id.saturating_sub(self.retain());
        self.offsets.push(entry);
        purge(&mut self.offsets, |o| o.batch_id < keep_from);
    }

    /// Writes commit log entry N (after the sink took batch N) and purges the entries older
    /// than N − `minBatchesToRetain` (`commitLog.purge`).
    pub fn log_commit(&mut self, entry: CommitLogEntry) {
        let keep_from = entry.batch_id.saturating_sub(self.retain());
        self.commits.push(entry);
        purge(&mut self.commits, |c| c.batch_id < keep_from);
    }
}

/// Drops the leading entries `old` says are purged (the logs are in batch order).
fn purge<T>(log: &mut Vec<T>, old: impl Fn(&T) -> bool) {
    let n = log.iter().take_while(|e| old(e)).count();
    if n > 0 {
        log.drain(..n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_keep_the_last_min_batches_to_retain_entries() {
        // Retain 3: after batch 9 the logs hold batches 6..=9 (9 - 3 = 6 is the oldest kept,
        // as `purge(currentBatchId - minLogEntriesToMaintain)` keeps it).
        let mut cp = Checkpoint::new(10, 3);
        for b in 0..10 {
            cp.log_offsets(OffsetLogEntry {
                batch_id: b,
                batch_watermark_ms: 0,
                batch_timestamp_ms: 0,
                offsets: vec![],
                watermark_policy: MultipleWatermarkPolicy::Min,
                shuffle_partitions: 200,
            });
            cp.log_commit(CommitLogEntry { batch_id: b, next_batch_watermark_ms: 0 });
        }
        assert_eq!(cp.offsets.iter().map(|o| o.batch_id).collect::<Vec<_>>(), vec![6, 7, 8, 9]);
        assert_eq!(cp.commits.iter().map(|c| c.batch_id).collect::<Vec<_>>(), vec![6, 7, 8, 9]);
        assert!(cp.offset(5).is_none());
        assert_eq!(cp.offset(8).map(|o| o.batch_id), Some(8));
    }
}
