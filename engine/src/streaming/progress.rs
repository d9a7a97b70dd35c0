//! `StreamingQueryProgress`: what each micro-batch reports, serialized with Spark's field
//! names and order (`sql/api/.../streaming/progress.scala`).
//!
//! The engine reads no wall clock: `timestamp` comes from the query's clock and
//! every `durationMs` entry is 0, so the JSON is deterministic.
//!
//! The same types read what real Spark reports ([`parse_progress`]): a learner pastes
//! `print(query.lastProgress)`, `print(query.recentProgress)` or a listener's
//! `event.progress.json`, and the lab lays it out as it lays out its own batches.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// One stateful operator's numbers (`StateOperatorProgress`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StateOperatorProgress {
    /// The operator's short name (`stateStoreSave`, `dedupe`, `symmetricHashJoin`,
    /// `sessionWindowStateStoreSaveExec`, `globalLimit`, ...).
    pub operator_name: String,
    /// Rows in the operator's state after the batch.
    pub num_rows_total: u64,
    /// State rows written in the batch.
    pub num_rows_updated: u64,
    /// Time spent writing state, ms (always 0 in the engine: no wall clock).
    pub all_updates_time_ms: u64,
    /// State rows removed in the batch (evicted by the watermark, timed out, removed).
    pub num_rows_removed: u64,
    /// Time spent removing state, ms (always 0 in the engine).
    pub all_removals_time_ms: u64,
    /// Time spent committing the state store, ms (always 0 in the engine).
    pub commit_time_ms: u64,
    /// The state's memory in bytes; the engine estimates 64 bytes per state row.
    pub memory_used_bytes: u64,
    /// Input rows dropped as later than the operator's watermark for late events.
    pub num_rows_dropped_by_watermark: u64,
    /// The operator's partitions (`spark.sql.shuffle.partitions`; 1 for `globalLimit`).
    pub num_shuffle_partitions: u64,
    /// State store instances, one per partition (1 for `globalLimit`).
    pub num_state_store_instances: u64,
    /// Provider-specific numbers; Spark writes `-1` for "not yet" (`SnapshotLastUploaded...`).
    pub custom_metrics: BTreeMap<String, i64>,
}


/// One source's numbers (`SourceProgress`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SourceProgress {
    /// The source as Spark names it (`MemoryStream[...]`, `KafkaV2[Subscribe[orders]]`, ...).
    pub description: String,
    /// Offsets as the source writes them: a number for `MemoryStream` (`LongOffset`), an
    /// object for others (`{"logOffset": 1}` for files, `{"topic": {"0": 42}}` for Kafka).
    pub start_offset: Option<Json>,
    /// The offset the batch read up to; `None` before the source has data.
    pub end_offset: Option<Json>,
    /// The latest offset the source had when the batch was planned (the engine plans each
    /// batch up to it, so it equals `end_offset`).
    pub latest_offset: Option<Json>,
    /// Rows read from this source in the batch.
    pub num_input_rows: u64,
    /// Input rate, rows per second of wall time (0 in the engine: no wall clock).
    pub input_rows_per_second: f64,
    /// Processing rate, rows per second of wall time (0 in the engine).
    pub processed_rows_per_second: f64,
}

/// The sink's numbers (`SinkProgress`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SinkProgress {
    /// The sink as Spark names it (`MemorySink`, `ForeachBatchSink`, ...).
    pub description: String,
    /// Rows written to the sink in the batch; -1 for Spark's V1 sinks (file,
    /// `foreachBatch`), which do not report it.
    pub num_output_rows: i64,
}

/// The progress of one micro-batch.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StreamingQueryProgress {
    /// The query's id (a UUID), the same across restarts from one checkpoint.
    pub id: String,
    /// The run's id (a UUID), new each time the query starts or restarts.
    pub run_id: String,
    /// The query's name (`.queryName(...)`), if it has one.
    pub name: Option<String>,
    /// Trigger start, `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
    pub timestamp: String,
    /// The micro-batch's id (0-based; an idle trigger repeats the next batch's id).
    pub batch_id: u64,
    /// The batch's wall-clock duration, ms (0 in the engine: no wall clock).
    pub batch_duration: u64,
    /// Rows read from all sources in the batch.
    pub num_input_rows: u64,
    /// Input rate over all sources, rows per second (0 in the engine).
    pub input_rows_per_second: f64,
    /// Processing rate over all sources, rows per second (0 in the engine).
    pub processed_rows_per_second: f64,
    /// Time per trigger phase, ms (`addBatch`, `getBatch`, `latestOffset`, `queryPlanning`,
    /// `triggerExecution`, `walCommit`, ...); every entry is 0 in the engine.
    pub duration_ms: BTreeMap<String, u64>,
    /// `avg`, `max`, `min` (with new data) and `watermark`; omitted when empty.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub event_time: BTreeMap<String, String>,
    /// One entry per stateful operator, root-first (downstream first).
    pub state_operators: Vec<StateOperatorProgress>,
    /// One entry per source of the query, in the order the query reads them.
    pub sources: Vec<SourceProgress>,
    /// The sink's numbers.
    pub sink: SinkProgress,
}

/// Reads progress reports as real Spark prints them: one `StreamingQueryProgress` object
/// (`print(query.lastProgress)`), a list of them (`print(query.recentProgress)`), or listener
/// events holding one under `"progress"`. Unknown fields are ignored and missing ones are
/// zero, so reports of other Spark versions read too. Sorted by batch id, then timestamp.
///
/// # Errors
/// A message with the line and column of invalid JSON, or naming the entry that is not a
/// progress report (no `batchId`), or the field whose value has the wrong type.
pub fn parse_progress(text: &str) -> Result<Vec<StreamingQueryProgress>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("paste a StreamingQueryProgress: the JSON that print(query.lastProgress) shows".into());
    }
    let value: Json = serde_json::from_str(text).map_err(|e| {
        let hint = if text.contains("'") && !text.contains('"') { " (Python dict syntax: print it with .json or json.dumps)" } else { "" };
        format!("not valid JSON at line {}, column {}: {e}{hint}", e.line(), e.column())
    })?;
    let entries: Vec<Json> = match value {
        Json::Array(items) => items,
        other => vec![other],
    };
    if entries.is_empty() {
        return Err("the list is empty: query.recentProgress has no batches yet".into());
    }
    let many = entries.len() > 1;
    let mut out = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let entry = match entry {
            Json::Object(mut m) if !m.contains_key("batchId") && m.get("progress").is_some_and(Json::is_object) => {
                m.remove("progress").unwrap_or(Json::Null)
            }
            other => other,
        };
        let which = if many { format!("entry {i}: ") } else { String::new() };
        if !entry.get("batchId").is_some_and(Json::is_u64) {
            return Err(format!("{which}not a StreamingQueryProgress: it has no batchId"));
        }
        out.push(serde_json::from_value(entry).map_err(|e| format!("{which}{e}"))?);
    }
    out.sort_by(|a: &StreamingQueryProgress, b| (a.batch_id, &a.timestamp).cmp(&(b.batch_id, &b.timestamp)));
    Ok(out)
}

impl StreamingQueryProgress {
    /// Pretty JSON, as `query.lastProgress` prints in PySpark.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `print(query.recentProgress)` of a real Spark 4.3.0 run (engine/tests/fixtures/README.md).
    const SPARK: &str = include_str!("../../tests/fixtures/spark-recent-progress.json");

    #[test]
    fn reads_what_spark_prints() {
        let all = parse_progress(SPARK).unwrap();
        // Six reports: an idle trigger (batch 0 before data, no eventTime) and batches 0-4.
        assert_eq!(all.len(), 6);
        let last = all.last().unwrap();
        assert_eq!(last.batch_id, 4);
        assert_eq!(last.num_input_rows, 1);
        assert_eq!(last.event_time["watermark"], "2026-01-01T12:16:00.000Z");
        // The 12:03 click arrived behind watermark 12:16: late for both sliding windows.
        assert_eq!(last.state_operators[0].num_rows_dropped_by_watermark, 2);
        assert_eq!(last.state_operators[0].custom_metrics["SnapshotLastUploaded.partition_0_default"], -1);
        assert_eq!(last.sources[0].end_offset, Some(serde_json::json!({"logOffset": 2})));
        assert_eq!(last.sink.description, "MemorySink");
    }

    #[test]
    fn reads_one_report_and_listener_events() {
        let one: Json = serde_json::from_str::<Vec<Json>>(SPARK).unwrap().pop().unwrap();
        assert_eq!(parse_progress(&one.to_string()).unwrap()[0].batch_id, 4);
        let event = serde_json::json!([{ "progress": one }]);
        assert_eq!(parse_progress(&event.to_string()).unwrap()[0].batch_id, 4);
    }

    #[test]
    fn says_what_is_wrong() {
        assert!(parse_progress("").unwrap_err().contains("lastProgress"));
        assert!(parse_progress("{\"id\": 1,").unwrap_err().contains("line 1"));
        assert!(parse_progress("{'batchId': 1}").unwrap_err().contains(".json"));
        assert!(parse_progress("[]").unwrap_err().contains("empty"));
        assert!(parse_progress("[{\"batchId\": 1}, {\"x\": 2}]").unwrap_err().starts_with("entry 1: not a StreamingQueryProgress"));
        assert!(parse_progress("{\"batchId\": 1, \"numInputRows\": \"many\"}").unwrap_err().contains("invalid type"));
    }

    #[test]
    fn the_engine_reads_its_own_reports() {
        let p = StreamingQueryProgress {
            batch_id: 3,
            sources: vec![SourceProgress { start_offset: Some(Json::from(1)), ..Default::default() }],
            ..Default::default()
        };
        assert_eq!(parse_progress(&p.to_json()).unwrap(), vec![p]);
    }
}
