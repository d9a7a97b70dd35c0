//! Changing a query between restarts on the same checkpoint (spec §12.5).

use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::{OutputMode, SinkKind, StreamingConf, StreamingQuery};
use streamlab_engine::types::{timestamp_type, DataType, Value};
use streamlab_engine::Error;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert("s".into(), vec![("k".into(), DataType::Utf8), ("n".into(), DataType::Int64), ("ts".into(), timestamp_type())]);
    c
}

const FIRST: &str = "s.withWatermark('ts', '10 seconds').groupBy(F.window('ts', '10 seconds'), 'k').count()";

/// Runs FIRST for one batch, then restarts with `second`.
fn restart_with(second: &str) -> Result<StreamingQuery, Error> {
    let cat = catalog();
    let mut q = StreamingQuery::start(FIRST, &cat, OutputMode::Append, StreamingConf::default()).unwrap();
    q.sink = SinkKind::File.create();
    q.add_data("s", &[vec![Value::str("a"), Value::Long(1), Value::Timestamp(5_000_000)]]).unwrap();
    q.run_next_batch().unwrap();
    let (c, src, sink) = q.stop();
    StreamingQuery::restart(second, &cat, OutputMode::Append, StreamingConf::default(), c, src, sink)
}

#[test]
fn a_filter_or_a_new_delay_is_allowed() {
    assert!(restart_with("s.withWatermark('ts', '10 seconds').filter('n > 0').groupBy(F.window('ts', '10 seconds'), 'k').count()").is_ok());
    // The delay may change; the restored watermark never goes back.
    assert!(restart_with("s.withWatermark('ts', '1 hour').groupBy(F.window('ts', '10 seconds'), 'k').count()").is_ok());
}

#[test]
fn other_grouping_keys_do_not_fit_the_state() {
    let Err(Error::Analysis(e)) = restart_with("s.withWatermark('ts', '10 seconds').groupBy(F.window('ts', '10 seconds'), 'n').count()") else {
        panic!("grouping by n instead of k must fail")
    };
    assert_eq!(e.error_class, "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE");
    assert!(e.message.contains("Existing key_schema=struct<window:struct<start:timestamp,end:timestamp>,k:string>"), "{}", e.message);
}

#[test]
fn adding_a_stateful_operator_does_not_match_the_metadata() {
    let Err(Error::Analysis(e)) = restart_with("s.withWatermark('ts', '10 seconds').dropDuplicates(['k', 'ts']).groupBy(F.window('ts', '10 seconds'), 'k').count()") else {
        panic!("an added dropDuplicates must fail")
    };
    assert_eq!(e.error_class, "STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA");
    assert!(e.message.contains("[(0, stateStoreSave)]"), "{}", e.message);
}
