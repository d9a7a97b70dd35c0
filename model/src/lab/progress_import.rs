//! Spark's own progress reports in the lab: a learner pastes what `print(query.lastProgress)`
//! or `print(query.recentProgress)` showed on real Spark (or a listener's
//! `event.progress.json`), and sees it laid out as the lab lays out its own batches. Plain
//! Rust over `streamlab_engine::streaming::parse_progress`, so native tests check it.

use streamlab_engine::streaming::{parse_progress, StreamingQueryProgress};

use crate::lab::session::MetricView;

/// One progress report as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedBatchView {
    /// The report's `batchId`.
    pub id: u64,
    /// When the trigger started (`timestamp`, UTC), as Spark wrote it.
    pub timestamp: String,
    /// The same, short: `HH:MM:SS.mmm` (the day is in [`ImportedBatchView::day`]).
    pub time: String,
    /// The trigger's day, `YYYY-MM-DD`.
    pub day: String,
    /// `numInputRows`: rows the micro-batch read from every source.
    pub input_rows: u64,
    /// `eventTime.watermark` shortened (`2026-01-01 12:16`, seconds and ms only when not zero);
    /// `None` when the query has no watermark.
    pub watermark: Option<String>,
    /// `eventTime` `min`, `max`, `avg` of the batch's rows, when it read any.
    pub event_time: Vec<(String, String)>,
    /// Each stateful operator's numbers (`stateOperators`), in Spark's order.
    pub metrics: Vec<MetricView>,
    /// (description, startOffset, endOffset, numInputRows) per source; offsets as JSON text.
    pub sources: Vec<(String, String, String, u64)>,
    /// `sink.description` and `sink.numOutputRows` (-1 when the sink does not count).
    pub sink: (String, i64),
    /// `durationMs` entries, in Spark's order.
    pub durations: Vec<(String, u64)>,
    /// A trigger that found nothing to run also reports progress, without an `addBatch`
    /// duration: Spark ran no micro-batch then.
    pub idle: bool,
    /// The report, pretty-printed.
    pub json: String,
}

/// The batches of pasted progress JSON, oldest first.
///
/// # Errors
/// What is wrong with the text, and where (from `parse_progress`).
pub fn import_progress(text: &str) -> Result<Vec<ImportedBatchView>, String> {
    Ok(parse_progress(text)?.iter().map(view).collect())
}

/// `2026-01-01T12:16:00.000Z` → `2026-01-01 12:16`; keeps seconds and milliseconds when they
/// are not zero. Text that is not in Spark's progress format is returned as it is.
fn short_timestamp(ts: &str) -> String {
    let Some((day, rest)) = ts.trim_end_matches('Z').split_once('T') else { return ts.to_string() };
    let rest = rest.strip_suffix(".000").unwrap_or(rest);
    let rest = rest.strip_suffix(":00").unwrap_or(rest);
    format!("{day} {rest}")
}

fn offset(v: &Option<serde_json::Value>) -> String {
    v.as_ref().map_or_else(|| "—".into(), |v| v.to_string())
}

fn view(p: &StreamingQueryProgress) -> ImportedBatchView {
    ImportedBatchView {
        id: p.batch_id,
        timestamp: p.timestamp.clone(),
        time: p.timestamp.split_once('T').map_or_else(|| p.timestamp.clone(), |(_, t)| t.trim_end_matches('Z').to_string()),
        day: p.timestamp.split_once('T').map_or_else(String::new, |(d, _)| d.to_string()),
        input_rows: p.num_input_rows,
        watermark: p.event_time.get("watermark").map(|w| short_timestamp(w)),
        event_time: ["min", "max", "avg"].iter().filter_map(|k| p.event_time.get(*k).map(|v| (k.to_string(), v.clone()))).collect(),
        metrics: p
            .state_operators
            .iter()
            .map(MetricView::of)
            .collect(),
        sources: p.sources.iter().map(|s| (s.description.clone(), offset(&s.start_offset), offset(&s.end_offset), s.num_input_rows)).collect(),
        sink: (p.sink.description.clone(), p.sink.num_output_rows),
        durations: p.duration_ms.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        idle: !p.duration_ms.is_empty() && !p.duration_ms.contains_key("addBatch"),
        json: p.to_json(),
    }
}
