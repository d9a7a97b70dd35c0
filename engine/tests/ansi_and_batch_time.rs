//! Spark 4's ANSI mode in a stream (a malformed cast, an overflow or a division by zero fails
//! the micro-batch and terminates the query with `STREAM_FAILED`, its cause the expression's
//! error condition), and `current_timestamp()` as the micro-batch's timestamp.

use streamlab_engine::error::Error;
use streamlab_engine::scenario::{run, Scenario};

fn scenario(query: &str, post_ids: &[&str]) -> Scenario {
    let rows: Vec<String> = post_ids
        .iter()
        .enumerate()
        .map(|(i, p)| format!(r#"{{"event_id": "e{i}", "code": "{p}", "n": {i}, "event_time": "2026-01-01T12:0{i}:00Z"}}"#))
        .collect();
    Scenario::from_json(&format!(
        r#"{{"id": "t", "sources": {{"clicks": {{"schema": [["event_id", "string"], ["code", "string"], ["n", "int"], ["event_time", "timestamp"]]}}}},
            "steps": [{{"clicks": [{}]}}], "query": "{query}", "output_mode": "append"}}"#,
        rows.join(", ")
    ))
    .expect("scenario")
}

fn run_error(query: &str, codes: &[&str]) -> Option<(String, String)> {
    match run(&scenario(query, codes)).error {
        Some(Error::Analysis(a)) => {
            assert_eq!(a.error_class, "STREAM_FAILED");
            a.cause
        }
        Some(other) => panic!("unexpected error {other}"),
        None => None,
    }
}

#[test]
fn malformed_casts_fail_the_batch() {
    // " 12 " trims to 12: fine. "3.9" is not an int in ANSI mode (recorded in Spark 4.3:
    // CAST_INVALID_INPUT for '3.9' cast to INT).
    assert_eq!(run_error("clicks.select(F.col('code').cast('int'))", &[" 12 ", "7"]), None);
    let (cause, msg) = run_error("clicks.select(F.col('code').cast('int'))", &["12", "3.9"]).expect("fails");
    assert_eq!(cause, "CAST_INVALID_INPUT");
    assert!(msg.starts_with("The value '3.9' of the type \"STRING\" cannot be cast to \"INT\" because it is malformed."), "{msg}");
}

#[test]
fn overflow_and_division_by_zero_fail_the_batch() {
    // n is 0 in the first row: 10 / n divides by zero.
    assert_eq!(run_error("clicks.select(F.lit(10) / F.col('n'))", &["a"]).map(|c| c.0), Some("DIVIDE_BY_ZERO".into()));
    // 2147483647 + n overflows an int for n = 1 (recorded in Spark 4.3: ARITHMETIC_OVERFLOW).
    assert_eq!(run_error("clicks.select(F.lit(2147483647) + F.col('n'))", &["a", "b"]).map(|c| c.0), Some("ARITHMETIC_OVERFLOW".into()));
    assert_eq!(run_error("clicks.select(F.lit(2147483646) + F.col('n'))", &["a", "b"]), None);
}

#[test]
fn a_failed_batch_commits_nothing() {
    let r = run(&scenario("clicks.groupBy('code').agg(F.sum(F.col('code').cast('long')))", &["1", "x"]));
    assert!(r.error.is_some());
    assert!(r.batches.is_empty(), "the failing batch produced no result");
}

#[test]
fn current_timestamp_is_the_batch_timestamp() {
    // The scenario runner sets the clock to step · 1000 ms: batch 0 runs at the epoch.
    let r = run(&scenario("clicks.select('event_id', F.current_timestamp().alias('now'))", &["a", "b"]));
    assert!(r.error.is_none(), "{:?}", r.error);
    let rows = &r.batches[0].1.rows;
    assert!(rows.iter().all(|row| row[1] == streamlab_engine::types::Value::Timestamp(0)), "{rows:?}");
}
