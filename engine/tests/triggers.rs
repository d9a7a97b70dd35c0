//! Triggers through the public API (spec §1.6 and §8.3), values worked out by hand, as
//! `testStream` scripts (`support`).

mod support;

use streamlab_engine::streaming::{OutputMode, SinkKind, Trigger};
use streamlab_engine::types::{timestamp_type, DataType, Row};
use support::*;

fn catalog() -> streamlab_engine::frontend::Catalog {
    streams(&[("s", &[("k", DataType::Utf8), ("ts", timestamp_type())])])
}

fn rows(ts: &[i64]) -> Vec<Row> {
    ts.iter().map(|t| row!["a", ts_s(*t)]).collect()
}

/// A row of the windowed count: window [start, end) in seconds and its count.
fn wcount(start_s: i64, end_s: i64, count: i64) -> Row {
    row![window_us(start_s * SEC_US, end_s * SEC_US), count]
}

const WINDOWED: &str = "s.withWatermark('ts', '0 seconds').groupBy(F.window('ts', '10 seconds')).count()";

/// Runs `actions` against `text` in append mode.
fn check(text: &str, actions: Vec<Action<'_>>) {
    test_stream(text, OutputMode::Append, catalog()).run(actions);
}

#[test]
fn once_runs_one_batch_without_the_trailing_no_data_batch() {
    // Spec T17: 3 rows (10, 20, 30 s) in one batch; the watermark moves to 30 s, but `once`
    // runs no no-data batch, so [10,20) and [20,30) stay in state unemitted; then it stops.
    check(&format!("{WINDOWED}.writeStream.trigger(once=True)"), vec![
        assert_on("the trigger is once", |t| assert_eq!(t.query().trigger, Trigger::Once)),
        AddData("s", rows(&[10, 20, 30])),
        Fire(vec![(0, 3)]),
        CheckLastBatch(vec![]),
        assert_on("a once query stops after its batch", |t| assert!(!t.query().is_active())),
        // A finished once query runs nothing more.
        Fire(vec![]),
    ]);
}

#[test]
fn available_now_runs_the_no_data_batch_then_stops() {
    // Same data with availableNow: batch 0 (data), then batch 1 (no-data, watermark 30 s)
    // emits [10,20) and [20,30); [30,40) stays in state.
    check(&format!("{WINDOWED}.writeStream.trigger(availableNow=True)"), vec![
        AddData("s", rows(&[10, 20, 30])),
        Fire(vec![(0, 3), (1, 0)]),
        CheckLastBatch(vec![wcount(10, 20, 1), wcount(20, 30, 1)]),
        assert_on("availableNow stops", |t| assert!(!t.query().is_active())),
    ]);
}

#[test]
fn processing_time_runs_at_most_one_batch_per_trigger() {
    check(&format!("{WINDOWED}.writeStream.trigger(processingTime='5 seconds')"), vec![
        assert_on("the trigger", |t| assert_eq!(t.query().trigger, Trigger::ProcessingTime { interval_ms: 5000 })),
        AddData("s", rows(&[10, 20, 30])),
        Fire(vec![(0, 3)]),
        // The next trigger runs the no-data batch.
        Fire(vec![(1, 0)]),
        assert_on("batch 1 is a no-data batch", |t| assert!(t.last_batch().no_data)),
        Fire(vec![]),
        assert_on("a processingTime query keeps running", |t| assert!(t.query().is_active())),
    ]);
}

#[test]
fn continuous_accepts_map_like_queries_only() {
    check("s.filter(\"k = 'a'\").select('k').writeStream.trigger(continuous='1 second')", vec![]);
    check("s.withWatermark('ts', '0 seconds').select('k').writeStream.trigger(continuous='1 second')", vec![ExpectFailure(
        Fail::analysis().message("Continuous processing does not support EventTimeWatermark operations."),
    )]);
    check("s.select('k').writeStream.foreachBatch(f).trigger(continuous='1 second')", vec![ExpectFailure(
        Fail::analysis().message("'foreachBatch' is not supported with continuous trigger."),
    )]);
}

#[test]
fn the_sink_can_be_written_in_the_query() {
    check("s.select('k').writeStream.format('kafka').option('topic', 't')", vec![assert_on("the sink", |t| assert_eq!(t.sink().kind(), SinkKind::Kafka))]);
    check("s.select('k').writeStream.trigger(once=True, availableNow=True)", vec![ExpectFailure(Fail::class("ONLY_ALLOW_SINGLE_TRIGGER"))]);
}

#[test]
fn available_now_respects_max_files_per_trigger_and_once_ignores_it() {
    use streamlab_engine::streaming::SourceKind;
    let files = SourceKind::File { max_files_per_trigger: Some(1) };
    let output_sizes = |want: Vec<usize>| assert_on("output rows per batch", move |t| assert_eq!(t.last_run().iter().map(|b| b.rows.len()).collect::<Vec<_>>(), want));
    // Spec T16: three files (10, 20, 30 s), maxFilesPerTrigger=1, window 10 s, delay 0:
    // b0 [], b1 [], b2 [[10,20) 1], b3 no-data [[20,30) 1]; [30,40) stays in state.
    test_stream(&format!("{WINDOWED}.writeStream.trigger(availableNow=True)"), OutputMode::Append, catalog()).source_kind("s", files).run(vec![
        AddData("s", rows(&[10])),
        AddData("s", rows(&[20])),
        AddData("s", rows(&[30])),
        Fire(vec![(0, 1), (1, 1), (2, 1), (3, 0)]),
        output_sizes(vec![0, 0, 1, 1]),
    ]);
    // Spec T17: `once` reads all three files in one batch and emits nothing.
    test_stream(&format!("{WINDOWED}.writeStream.trigger(once=True)"), OutputMode::Append, catalog()).source_kind("s", files).run(vec![
        AddData("s", rows(&[10])),
        AddData("s", rows(&[20])),
        AddData("s", rows(&[30])),
        Fire(vec![(0, 3)]),
        output_sizes(vec![0]),
    ]);
}

#[test]
fn a_socket_source_cannot_replay_after_a_crash() {
    use streamlab_engine::streaming::{CrashPoint, SourceKind};
    test_stream("s.select('k', 'ts')", OutputMode::Append, catalog()).source_kind("s", SourceKind::Socket).sink(SinkKind::File).run(vec![
        AddData("s", rows(&[1, 2])),
        // Batch 0 logs its offsets, then the process dies before running it.
        CrashNext(CrashPoint::AfterOffsetLog),
        StartStream(Start::same()),
        // The re-run of batch 0 finds nothing: the socket's lines were lost with the connection.
        RunBatch(Some((0, 0))),
        CheckAnswer(vec![]),
    ]);
}

#[test]
fn the_rate_source_makes_rows_per_second_of_clock() {
    use streamlab_engine::streaming::{rate_schema, SourceKind};
    let mut c = streamlab_engine::frontend::Catalog::default();
    c.streams.insert("r".into(), rate_schema());
    test_stream("r.select('value')", OutputMode::Append, c).source_kind("r", SourceKind::Rate { rows_per_second: 2 }).run(vec![
        SetClock(10_000), // the source starts
        RunBatch(None),   // no second has passed yet
        SetClock(11_500), // 1 whole second: 2 rows
        RunBatch(Some((0, 2))),
        CheckLastBatchInOrder(vec![row![0], row![1]]),
        SetClock(13_000), // 3 seconds in all: rows 2..6
        RunBatch(Some((1, 4))),
        assert_on("rows 2..6", |t| assert_eq!(t.last_batch().rows.len(), 4)),
    ]);
}

#[test]
fn the_memory_sink_needs_a_query_name_which_names_its_table() {
    check("s.select('k').writeStream.format('memory')", vec![ExpectFailure(Fail::analysis().message("queryName must be specified for memory sink."))]);
    check("s.select('k').writeStream.format('memory').queryName('clicks_view')", vec![assert_on("the name", |t| assert_eq!(t.query().name.as_deref(), Some("clicks_view")))]);
}

#[test]
fn the_file_sink_takes_append_only() {
    test_stream(&format!("{WINDOWED}.writeStream.format('parquet')"), OutputMode::Update, catalog())
        .run(vec![ExpectFailure(Fail::class("STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE"))]);
    check(&format!("{WINDOWED}.writeStream.format('parquet')"), vec![]);
}
