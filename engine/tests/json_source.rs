//! Spark's JSON file source as the scenario loader reads it: the progress report's
//! `eventTime` for batches with NULL event times (recorded cases), and the loader's errors
//! with the path of the bad value.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use streamlab_engine::scenario::{run, Scenario};

fn case(id: &str) -> Scenario {
    let path = format!("{}/tests/cases/{id}.json", env!("CARGO_MANIFEST_DIR"));
    Scenario::from_json(&std::fs::read_to_string(path).expect("recorded case")).expect("scenario")
}

/// Every batch's `eventTime` (min, max, avg, watermark) equals the recording. A NULL event
/// time counts as the epoch in Spark's stats (`EventTimeWatermarkExec` reads a NULL as 0), so
/// min and avg move while the watermark (from max) does not.
#[test]
fn event_time_stats_match_spark_with_null_event_times() {
    for id in ["json-null-event-time-window-append", "json-null-event-time-dedup-update", "json-event-time-offsets-and-fractions-window"] {
        let sc = case(id);
        let expected = sc.expected.clone().expect("expected block");
        let got = run(&sc);
        assert!(got.error.is_none(), "{id}: {:?}", got.error);
        assert_eq!(got.batches.len(), expected.batches.len(), "{id}");
        for ((_, b), want) in got.batches.iter().zip(&expected.batches) {
            let Some(want_et) = &want.event_time else { continue };
            for key in ["min", "max", "avg", "watermark"] {
                let w = want_et.get(key).and_then(|v| v.as_str()).map(|s| streamlab_engine::types::parse_timestamp_us(s).unwrap() / 1000);
                let g = b.progress.event_time.get(key).map(|s| streamlab_engine::types::parse_timestamp_us(s).unwrap() / 1000);
                assert_eq!(g, w, "{id} batch {} eventTime.{key}", b.batch_id);
            }
        }
    }
}

fn with(json: &str, edit: impl Fn(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    edit(&mut v);
    v.to_string()
}

const BASE: &str = r#"{"id": "x", "sources": {"clicks": {"schema": [["event_id", "string"], ["post_id", "long"], ["event_time", "timestamp"]]}},
  "steps": [{"clicks": [{"event_id": "e1", "post_id": 1, "event_time": "2026-01-01T12:00:00Z"}]}, {}, {"clicks": [{"event_id": "e2", "post_id": "abc", "event_time": "2026-01-01 12:01"}]}],
  "query": "clicks", "output_mode": "append"}"#;

#[test]
fn the_loader_names_the_path_of_what_does_not_fit() {
    let err = |json: String| Scenario::from_json(&json).unwrap_err().to_string();
    let e = err(with(BASE, |v| v["output_mode"] = "upsert".into()));
    assert!(e.contains("output_mode") && e.contains("upsert"), "{e}");
    let e = err(with(BASE, |v| v["steps"][1] = serde_json::json!({"views": [{"event_id": "v1"}]})));
    assert!(e.contains("steps[1].views") && e.contains("no source is named 'views'"), "{e}");
    let e = err(with(BASE, |v| v["sources"]["clicks"]["schema"][1][1] = "number".into()));
    assert!(e.contains("sources.clicks.schema[1]") && e.contains("'number'"), "{e}");
    // A row that is not an object: serde's path to it.
    let e = err(with(BASE, |v| v["steps"][2]["clicks"][0] = serde_json::json!([1, 2])));
    assert!(e.contains("steps[2].clicks[0]"), "{e}");
    // A time without a date takes today's date in Spark: not reproducible, rejected.
    let e = err(with(BASE, |v| v["steps"][0]["clicks"][0]["event_time"] = "12:40".into()));
    assert!(e.contains("steps[0].clicks[0].event_time"), "{e}");
}

#[test]
fn values_spark_reads_as_null_are_noted_with_their_path() {
    let sc = Scenario::from_json(BASE).unwrap();
    let notes = sc.input_notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("steps[2].clicks[0].post_id:") && notes[0].contains("\"abc\""), "{notes:?}");
    // The run keeps the row with a NULL post_id; "2026-01-01 12:01" is a timestamp Spark reads.
    let r = run(&sc);
    assert!(r.error.is_none(), "{:?}", r.error);
    let rows = &r.batches.last().unwrap().1.rows;
    assert_eq!(rows.len(), 1);
    assert!(rows[0][1].is_null());
    assert_eq!(rows[0][2], streamlab_engine::types::Value::Timestamp(streamlab_engine::types::parse_timestamp_us("2026-01-01T12:01:00Z").unwrap()));
}
