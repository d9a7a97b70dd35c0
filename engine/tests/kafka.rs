//! A Kafka-like source: records with Kafka's schema; the event JSON is in `value` as bytes.
//! The scenario tests go through `scenario::run` (the harness's loop, as the lab loads a
//! Kafka scenario); the restart test is a `testStream` script (`support`).

mod support;

use serde_json::json;
use streamlab_engine::scenario::{run, Scenario};
use streamlab_engine::Error;
use support::*;

fn scenario(query: &str) -> Scenario {
    Scenario::from_json(
        &json!({
            "id": "kafka",
            "sources": {"orders": {"schema": [["order_id", "string"], ["amount", "double"], ["order_time", "timestamp"]],
                                   "kind": "kafka", "options": {"partitions": 2}}},
            "steps": [
                {"orders": [{"order_id": "o1", "amount": 12.5, "order_time": "2026-01-01T12:00:00Z"},
                            {"order_id": "o2", "amount": 3.0, "order_time": "2026-01-01T12:01:00Z"},
                            {"order_id": "o3", "amount": 7.0, "order_time": "2026-01-01T12:02:00Z"}]}
            ],
            "query": query,
            "output_mode": "append"
        })
        .to_string(),
    )
    .unwrap()
}

#[test]
fn records_carry_partition_offset_and_the_event_as_bytes() {
    let r = run(&scenario("orders.select('partition', 'offset', F.col('value').cast('string').alias('json'))"));
    assert!(r.error.is_none(), "{:?}", r.error);
    let rows: Vec<String> = r.batches[0].1.rows.iter().map(|row| format!("{} {} {}", row[0], row[1], row[2])).collect();
    // Round-robin over 2 partitions: o1 → p0 offset 0, o2 → p1 offset 0, o3 → p0 offset 1.
    assert_eq!(
        rows,
        vec![
            r#"0 0 {"order_id":"o1","amount":12.5,"order_time":"2026-01-01T12:00:00Z"}"#,
            r#"1 0 {"order_id":"o2","amount":3.0,"order_time":"2026-01-01T12:01:00Z"}"#,
            r#"0 1 {"order_id":"o3","amount":7.0,"order_time":"2026-01-01T12:02:00Z"}"#,
        ]
    );
}

#[test]
fn from_json_over_the_cast_value_gives_the_events_back() {
    let r = run(&scenario(
        "orders.select(F.from_json(F.col('value').cast('string'), 'order_id STRING, amount DOUBLE, order_time TIMESTAMP').alias('o')).select('o.*')",
    ));
    assert!(r.error.is_none(), "{:?}", r.error);
    let names: Vec<&str> = r.output.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["order_id", "amount", "order_time"]);
    assert_eq!(r.batches[0].1.rows.len(), 3);
    assert_eq!(r.batches[0].1.rows[1][1].to_string(), "3.0");
}

#[test]
fn from_json_on_the_raw_bytes_is_rejected() {
    let r = run(&scenario("orders.select(F.from_json(F.col('value'), 'order_id STRING').alias('o'))"));
    let Some(Error::Analysis(e)) = r.error else { panic!("binary value must be cast first") };
    assert_eq!(e.error_class, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    assert!(e.hint.unwrap().contains("cast('string')"));
}

#[test]
fn starting_offsets_latest_skips_what_a_new_query_finds() {
    use streamlab_engine::frontend::Catalog;
    use streamlab_engine::streaming::{kafka_schema, OutputMode, SinkKind, SourceKind};
    use streamlab_engine::types::DataType;
    let mut c = Catalog::default();
    c.streams.insert("t".into(), kafka_schema());
    let run = |latest: bool| {
        let s = test_stream("t.select('offset')", OutputMode::Append, c.clone())
            .source_kind("t", SourceKind::Kafka { partitions: 1, starting_latest: latest })
            .payload_schema("t", vec![("n".into(), DataType::Int64)])
            .run(vec![
                AddData("t", vec![row![1]]),
                RunBatch(Some((0, 1))),
                // Stop, write one more record while down, and start a NEW query (no checkpoint).
                StopStream,
                AddData("t", vec![row![2]]),
                StartStream(Start::same().new_checkpoint(SinkKind::Console)),
                AddData("t", vec![row![3]]),
                ProcessAllAvailable,
            ]);
        s.last_run().iter().map(|b| b.rows.len()).sum::<usize>()
    };
    // earliest re-reads all 3 records; latest starts after the 2 already in the topic.
    assert_eq!(run(false), 3);
    assert_eq!(run(true), 1);
}
