//! `StreamingQueryProgress`: what each micro-batch reports, serialized with Spark's field
//! names and order (`sql/api/.../streaming/progress.scala`, spec §11).
//!
//! The engine has no wall clock (invariant 2): `timestamp` comes from the query's clock and
//! every `durationMs` entry is 0, so the JSON is deterministic.

use std::collections::BTreeMap;

use serde::Serialize;

/// One stateful operator's numbers (`StateOperatorProgress`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateOperatorProgress {
    pub operator_name: String,
    pub num_rows_total: u64,
    pub num_rows_updated: u64,
    pub all_updates_time_ms: u64,
    pub num_rows_removed: u64,
    pub all_removals_time_ms: u64,
    pub commit_time_ms: u64,
    pub memory_used_bytes: u64,
    pub num_rows_dropped_by_watermark: u64,
    pub num_shuffle_partitions: u64,
    pub num_state_store_instances: u64,
    pub custom_metrics: BTreeMap<String, u64>,
}

/// One source's numbers (`SourceProgress`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceProgress {
    pub description: String,
    pub start_offset: Option<i64>,
    pub end_offset: Option<i64>,
    pub latest_offset: Option<i64>,
    pub num_input_rows: u64,
    pub input_rows_per_second: f64,
    pub processed_rows_per_second: f64,
}

/// The sink's numbers (`SinkProgress`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SinkProgress {
    pub description: String,
    pub num_output_rows: i64,
}

/// The progress of one micro-batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamingQueryProgress {
    pub id: String,
    pub run_id: String,
    pub name: Option<String>,
    /// Trigger start, `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
    pub timestamp: String,
    pub batch_id: u64,
    pub batch_duration: u64,
    pub num_input_rows: u64,
    pub input_rows_per_second: f64,
    pub processed_rows_per_second: f64,
    pub duration_ms: BTreeMap<String, u64>,
    /// `avg`, `max`, `min` (with new data) and `watermark`; omitted when empty.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub event_time: BTreeMap<String, String>,
    pub state_operators: Vec<StateOperatorProgress>,
    pub sources: Vec<SourceProgress>,
    pub sink: SinkProgress,
}

impl StreamingQueryProgress {
    /// Pretty JSON, as `query.lastProgress` prints in PySpark.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
