//! [`StreamingConf`]: the session confs the engine reads (`spark.sql.streaming.*`,
//! `spark.sql.shuffle.partitions`, ...), parsed and checked as Spark's `SQLConf` does.

use std::collections::BTreeMap;

use super::watermark_tracker::MultipleWatermarkPolicy;
use crate::checkpoint::{DEFAULT_MIN_BATCHES_TO_RETAIN, DEFAULT_MIN_DELTAS_FOR_SNAPSHOT};

/// The session confs the engine reads (spark.sql.streaming.*).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamingConf {
    /// `spark.sql.streaming.noDataMicroBatches.enabled` (default true).
    pub no_data_micro_batches: bool,
    /// `spark.sql.streaming.multipleWatermarkPolicy` (default min).
    pub watermark_policy: MultipleWatermarkPolicy,
    /// `spark.sql.shuffle.partitions` (default 200), reported in state metrics.
    pub shuffle_partitions: u64,
    /// `spark.sql.streaming.stateStore.minDeltasForSnapshot` (default 10): a state snapshot
    /// every this many versions.
    pub min_deltas_for_snapshot: u64,
    /// `spark.sql.streaming.minBatchesToRetain` (default 100): state versions and log entries
    /// kept.
    pub min_batches_to_retain: u64,
    /// `spark.sql.streaming.stateStore.providerClass` names `RocksDBStateStoreProvider`
    /// (default: the HDFS-backed provider, which `transformWithState` refuses).
    pub rocksdb_state_store: bool,
    /// `spark.sql.session.timeZone` (default UTC here, as in the corpus harness): the zone
    /// Spark's date and time functions read a timestamp's fields in.
    pub session_time_zone: crate::types::timezone::SessionTimeZone,
}

impl Default for StreamingConf {
    fn default() -> Self {
        StreamingConf {
            no_data_micro_batches: true,
            watermark_policy: MultipleWatermarkPolicy::Min,
            shuffle_partitions: 200,
            min_deltas_for_snapshot: DEFAULT_MIN_DELTAS_FOR_SNAPSHOT,
            min_batches_to_retain: DEFAULT_MIN_BATCHES_TO_RETAIN,
            rocksdb_state_store: false,
            session_time_zone: crate::types::timezone::SessionTimeZone::utc(),
        }
    }
}

impl StreamingConf {
    /// Reads confs from a key → value map; unknown keys are kept by Spark and ignored here.
    ///
    /// # Errors
    /// A message naming a key whose value Spark would reject.
    pub fn from_map(conf: &BTreeMap<String, String>) -> Result<StreamingConf, String> {
        let mut c = StreamingConf::default();
        for (k, v) in conf {
            c.set(k, v)?;
        }
        Ok(c)
    }

    /// Sets one conf (`spark.conf.set(key, value)`); a key the engine does not read is
    /// accepted and ignored, as Spark keeps it.
    ///
    /// # Errors
    /// A message naming the key whose value Spark would reject.
    pub fn set(&mut self, k: &str, v: &str) -> Result<(), String> {
        match k {
            "spark.sql.streaming.noDataMicroBatches.enabled" => {
                self.no_data_micro_batches = match v.trim().to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("{k} should be a boolean, but was {v}")),
                }
            }
            "spark.sql.streaming.multipleWatermarkPolicy" => self.watermark_policy = MultipleWatermarkPolicy::parse(v)?,
            "spark.sql.shuffle.partitions" => self.shuffle_partitions = v.trim().parse().map_err(|_| format!("{k} should be an int, but was {v}"))?,
            // Both must be positive (`SQLConf`'s checkValue).
            "spark.sql.streaming.stateStore.minDeltasForSnapshot" => self.min_deltas_for_snapshot = positive(k, v)?,
            "spark.sql.streaming.minBatchesToRetain" => self.min_batches_to_retain = positive(k, v)?,
            "spark.sql.streaming.stateStore.providerClass" => self.rocksdb_state_store = v.trim().ends_with(".RocksDBStateStoreProvider"),
            "spark.sql.session.timeZone" => self.session_time_zone = crate::types::timezone::SessionTimeZone::parse(v)?,
            _ => {}
        }
        Ok(())
    }
}

/// A conf value that must be a positive int.
fn positive(k: &str, v: &str) -> Result<u64, String> {
    match v.trim().parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        Ok(_) => Err(format!("{k} must be positive, but was {v}")),
        Err(_) => Err(format!("{k} should be an int, but was {v}")),
    }
}
