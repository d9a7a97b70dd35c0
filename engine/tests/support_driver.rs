//! The test driver (`support`) itself: a wrong expectation is reported with the action's
//! index, what was expected and what happened, and the script's progress.

mod support;

use streamlab_engine::streaming::{OutputMode, SinkKind};
use streamlab_engine::types::{timestamp_type, DataType};
use support::*;

fn catalog() -> streamlab_engine::frontend::Catalog {
    streams(&[("s", &[("k", DataType::Utf8), ("n", DataType::Int64), ("ts", timestamp_type())])])
}

const FILTER: &str = "s.filter(F.col('n') > 1)";

#[test]
fn a_right_script_passes() {
    // A file sink: Spark resumes it from a checkpoint in append mode (not the memory sink).
    test_stream(FILTER, OutputMode::Append, catalog()).sink(SinkKind::File).run(vec![
        AddData("s", vec![row!["a", 1, ts_s(1)], row!["b", 2, ts_s(2)]]),
        ProcessAllAvailable,
        CheckNewAnswer(vec![row!["b", 2, ts_s(2)]]),
        CheckNewAnswer(vec![]),
        StopStream,
        AddData("s", vec![row!["c", 3, ts_s(3)]]),
        StartStream(Start::same()),
        RunBatch(Some((1, 1))),
        CheckLastBatch(vec![row!["c", 3, ts_s(3)]]),
        CheckAnswer(vec![row!["b", 2, ts_s(2)], row!["c", 3, ts_s(3)]]),
        CheckCommits(vec![0, 1]),
        CheckRuns(2),
    ]);
}

#[test]
#[should_panic(expected = "action 2 (CheckNewAnswer) failed: new rows since the last CheckNewAnswer")]
fn a_wrong_new_answer_names_the_action() {
    // The filter keeps n = 2 only; the script claims it kept n = 1.
    test_stream(FILTER, OutputMode::Append, catalog()).run(vec![
        AddData("s", vec![row!["a", 1, ts_s(1)], row!["b", 2, ts_s(2)]]),
        ProcessAllAvailable,
        CheckNewAnswer(vec![row!["a", 1, ts_s(1)]]),
    ]);
}

/// The report: the failing action marked in the progress listing, expected and actual rows,
/// and the batches that ran.
#[test]
fn the_report_lists_the_progress_and_the_batches() {
    let caught = std::panic::catch_unwind(|| {
        test_stream(FILTER, OutputMode::Append, catalog()).run(vec![
            AddData("s", vec![row!["a", 1, ts_s(1)], row!["b", 2, ts_s(2)]]),
            ProcessAllAvailable,
            CheckNewAnswer(vec![row!["a", 1, ts_s(1)]]),
            StopStream,
        ]);
    });
    let report = match caught {
        Ok(()) => panic!("a wrong CheckNewAnswer passed"),
        Err(p) => p.downcast_ref::<String>().cloned().expect("a text"),
    };
    assert!(report.contains("== Progress =="), "{report}");
    assert!(report.contains("=> CheckNewAnswer({[a, 1, 1970-01-01T00:00:01.000Z]})") || report.contains("=> CheckNewAnswer({[a, 1,"), "{report}");
    assert!(report.contains("   StopStream"), "{report}");
    assert!(report.contains("expected: {[a, 1,") && report.contains("actual:   {[b, 2,"), "{report}");
    assert!(report.contains("batch 0: 2 input rows"), "{report}");
}

#[test]
#[should_panic(expected = "action 1 (CheckNewAnswer) failed: CheckNewAnswer: the query has input no batch has read")]
fn a_check_before_the_data_was_processed_fails() {
    test_stream(FILTER, OutputMode::Append, catalog()).run(vec![AddData("s", vec![row!["a", 1, ts_s(1)]]), CheckNewAnswer(vec![])]);
}

#[test]
#[should_panic(expected = "action 1 (RunBatch) failed: the query failed: ")]
fn an_unexpected_failure_fails_the_action_that_ran_the_batch() {
    // 10 / 0 fails the batch in ANSI mode; the script does not expect it.
    test_stream("s.select(F.lit(10) / (F.col('n') - 1))", OutputMode::Append, catalog()).run(vec![AddData("s", vec![row!["a", 1, ts_s(1)]]), RunBatch(None)]);
}

#[test]
#[should_panic(expected = "action 2 (ExpectFailure) failed: expected a failure with cause ARITHMETIC_OVERFLOW")]
fn a_failure_of_another_kind_is_reported() {
    // The batch divides by zero; the script expects an overflow.
    test_stream("s.select(F.lit(10) / (F.col('n') - 1))", OutputMode::Append, catalog()).run(vec![
        AddData("s", vec![row!["a", 1, ts_s(1)], row!["a", 2, ts_s(1)]]),
        ProcessAllAvailable,
        ExpectFailure(Fail::class("STREAM_FAILED").cause("ARITHMETIC_OVERFLOW")),
    ]);
}

#[test]
#[should_panic(expected = "action 0 (AssertOnQuery) failed: ")]
fn a_failing_assert_on_query_is_reported_with_its_message() {
    test_stream(FILTER, OutputMode::Append, catalog()).run(vec![assert_on("the watermark", |t| assert_eq!(t.query().current_watermark_ms(), 1))]);
}
