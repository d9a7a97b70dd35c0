//! Changing a query between restarts on the same checkpoint (spec §12.5), as `testStream`
//! scripts (`support`): one batch of FIRST, a stop, then `StartStream` with another query.

mod support;

use streamlab_engine::streaming::{OutputMode, SinkKind};
use streamlab_engine::types::{timestamp_type, DataType};
use support::*;

fn catalog() -> streamlab_engine::frontend::Catalog {
    streams(&[("s", &[("k", DataType::Utf8), ("n", DataType::Int64), ("ts", timestamp_type())])])
}

const FIRST: &str = "s.withWatermark('ts', '10 seconds').groupBy(F.window('ts', '10 seconds'), 'k').count()";

/// Runs FIRST for one batch, then restarts with `second` and runs `then`.
fn restart_with(second: &str, then: Vec<Action<'_>>) {
    let mut script = vec![
        AddData("s", vec![row!["a", 1, ts_us(5_000_000)]]),
        RunBatch(Some((0, 1))),
        StopStream,
        StartStream(Start::query(second)),
    ];
    script.extend(then);
    test_stream(FIRST, OutputMode::Append, catalog()).sink(SinkKind::File).run(script);
}

#[test]
fn a_filter_or_a_new_delay_is_allowed() {
    restart_with("s.withWatermark('ts', '10 seconds').filter('n > 0').groupBy(F.window('ts', '10 seconds'), 'k').count()", vec![CheckRuns(2)]);
    // The delay may change; the restored watermark never goes back.
    restart_with("s.withWatermark('ts', '1 hour').groupBy(F.window('ts', '10 seconds'), 'k').count()", vec![CheckRuns(2)]);
}

#[test]
fn other_grouping_keys_do_not_fit_the_state() {
    // Grouping by n instead of k must fail.
    restart_with("s.withWatermark('ts', '10 seconds').groupBy(F.window('ts', '10 seconds'), 'n').count()", vec![ExpectFailure(
        Fail::class("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE").message_contains("Existing key_schema=struct<window:struct<start:timestamp,end:timestamp>,k:string>"),
    )]);
}

#[test]
fn adding_a_stateful_operator_does_not_match_the_metadata() {
    // An added dropDuplicates must fail.
    restart_with("s.withWatermark('ts', '10 seconds').dropDuplicates(['k', 'ts']).groupBy(F.window('ts', '10 seconds'), 'k').count()", vec![ExpectFailure(
        Fail::class("STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA").message_contains("[(0, stateStoreSave)]"),
    )]);
}
