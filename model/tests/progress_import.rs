//! Real Spark's progress reports read into the lab's batch views. The fixture is what
//! `print(query.recentProgress)` printed on PySpark 4.3.0 (engine/tests/fixtures/README.md).

use streamlab_model::lab::progress_import::import_progress;

const SPARK: &str = include_str!("../../engine/tests/fixtures/spark-recent-progress.json");

#[test]
fn recent_progress_becomes_one_view_per_report() {
    let views = import_progress(SPARK).expect("Spark's JSON reads");
    let ids: Vec<u64> = views.iter().map(|v| v.id).collect();
    // Spark reported batch 0 twice: an idle trigger before the first file, then the batch.
    assert_eq!(ids, vec![0, 0, 1, 2, 3, 4]);
    assert!(views[0].idle && views[0].watermark.is_none());
    assert!(!views[1].idle);
    let last = views.last().unwrap();
    assert_eq!(last.watermark.as_deref(), Some("2026-01-01 12:16"));
    assert_eq!(views[1].watermark.as_deref(), Some("1970-01-01 00:00"));
    assert_eq!((last.day.as_str(), last.time.as_str()), ("2026-12-01", "00:16:14.666"));
    assert_eq!(last.metrics[0].operator, "stateStoreSave");
    assert_eq!(last.metrics[0].dropped, 2, "the 12:03 click was late for two sliding windows");
    assert_eq!(last.sources[0].1, r#"{"logOffset":1}"#);
    assert_eq!(last.sink, ("MemorySink".to_string(), 0));
    assert_eq!(last.event_time[0], ("min".to_string(), "2026-01-01T12:03:00.000Z".to_string()));
}

#[test]
fn bad_text_gets_a_message() {
    assert!(import_progress("nonsense").unwrap_err().contains("not valid JSON"));
    assert!(import_progress(r#"{"x": 1}"#).unwrap_err().contains("no batchId"));
}
