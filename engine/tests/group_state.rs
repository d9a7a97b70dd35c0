//! `applyInPandasWithState` from the lab's side: Python typed above the query runs, its
//! errors name their line, and PySpark's `GroupState` errors carry PySpark's text (the
//! recorded corpus holds only the harness's wrapper of these errors: see
//! `apws-*-error.json` and `scenario::compare_error`).
//! The queries run as `testStream` scripts (`support`).
#![allow(clippy::disallowed_methods)]

mod support;

use streamlab_engine::frontend::{split_python_blocks, Catalog};
use streamlab_engine::plan::OutputMode;
use streamlab_engine::types::{timestamp_type, DataType, Value};
use streamlab_engine::Error;
use support::*;

fn catalog() -> Catalog {
    streams(&[("clicks", &[("user_id", DataType::Utf8), ("event_time", timestamp_type())])])
}

fn ts(hm: &str) -> Value {
    ts_at(&format!("2026-01-01T{hm}:00Z"))
}

/// Runs `actions` against `text` in update mode.
fn check(text: &str, actions: Vec<Action<'_>>) {
    test_stream(text, OutputMode::Update, catalog()).run(actions);
}

const EDITOR: &str = "import pandas as pd\n\ndef count_state(key, pdfs, state):\n    n = state.get[0] if state.exists else 0\n    for pdf in pdfs:\n        n += len(pdf)\n    state.update((n,))\n    yield pd.DataFrame({'user_id': [key[0]], 'n': [n]})\n\nclicks.groupBy('user_id').applyInPandasWithState(count_state, 'user_id STRING, n LONG', 'n LONG', 'update', 'NoTimeout')\n";

#[test]
fn python_above_the_query_keeps_offsets_and_lines() {
    let (query, python) = split_python_blocks(EDITOR);
    assert_eq!(query.len(), EDITOR.len(), "byte offsets kept");
    assert_eq!(python.lines().count(), EDITOR.lines().count(), "line numbers kept (the query line is left empty)");
    assert!(query.trim_start().starts_with("clicks.groupBy"));
    assert!(python.contains("def count_state") && !python.contains("clicks.groupBy"));
}

#[test]
fn a_running_count_typed_in_the_editor_runs_batch_by_batch() {
    check(EDITOR, vec![
        // Batch 0: u1 twice, u2 once → (u1, 2), (u2, 1); batch 1: u1 once more → (u1, 3) only
        // (the function runs only for keys with data).
        AddData("clicks", vec![row!["u1", ts("12:00")], row!["u1", ts("12:01")], row!["u2", ts("12:02")]]),
        RunBatch(Some((0, 3))),
        CheckLastBatch(vec![row!["u1", 2], row!["u2", 1]]),
        assert_on("the operator", |t| assert_eq!(t.last_batch().state[0].operator_name, "applyInPandasWithState")),
        CheckState(state(0).total(2).updated(2)),
        AddData("clicks", vec![row!["u1", ts("12:03")]]),
        RunBatch(Some((1, 1))),
        CheckLastBatchInOrder(vec![row!["u1", 3]]),
    ]);
}

#[test]
fn a_python_error_fails_the_batch_and_names_the_line() {
    // Line 7 of the editor text reads a name that does not exist.
    let text = EDITOR.replace("    state.update((n,))", "    state.update((total,))");
    check(&text, vec![
        AddData("clicks", vec![row!["u1", ts("12:00")]]),
        RunBatch(None),
        ExpectFailure(
            Fail::class("STREAM_FAILED")
                .message_contains("line 7 of the Python code, in count_state")
                .message_contains("NameError: name 'total' is not defined"),
        ),
    ]);
}

#[test]
fn a_syntax_error_in_the_function_is_reported_when_the_query_is_defined() {
    let text = EDITOR.replace("    for pdf in pdfs:", "    for pdf in pdfs");
    check(&text, vec![ExpectFailure(Fail::any().text_contains("line 5"))]);
}

/// PySpark 4.3's texts, as the oracle's log printed them when recording
/// `apws-duration-without-processing-timeout-error` and `apws-timeout-below-watermark-error`.
#[test]
fn group_state_errors_carry_pysparks_conditions_and_text() {
    let duration = EDITOR.replace("    state.update((n,))", "    state.update((n,))\n    state.setTimeoutDuration(60 * 1000)");
    check(&duration, vec![
        AddData("clicks", vec![row!["u1", ts("12:00")]]),
        RunBatch(None),
        ExpectFailure(
            Fail::analysis()
                .cause("CANNOT_WITHOUT")
                .message_contains("[CANNOT_WITHOUT] Cannot set timeout duration without enabling processing time timeout in applyInPandasWithState."),
        ),
    ]);
}

/// A device goes silent: each event sets a one-minute processing-time timeout from the batch's
/// clock; the key times out in the first batch whose clock is strictly past it (spec §9.1).
#[test]
fn a_processing_time_timeout_fires_when_the_clock_passes_it() {
    let text = "import pandas as pd\n\ndef silence(key, pdfs, state):\n    if state.hasTimedOut:\n        state.remove()\n        yield pd.DataFrame({'user_id': [key[0]], 'at': [state.getCurrentProcessingTimeMs()]})\n    else:\n        state.update((1,))\n        state.setTimeoutDuration(60 * 1000)\n\nclicks.groupBy('user_id').applyInPandasWithState(silence, 'user_id STRING, at LONG', 'n LONG', 'update', 'ProcessingTimeTimeout')\n";
    check(text, vec![
        assert_on("the lab shows the clock", |t| assert!(t.query().uses_processing_time_timeout())),
        SetClock(1_000),
        AddData("clicks", vec![row!["u1", ts("12:00")]]),
        RunBatch(Some((0, 1))),
        CheckLastBatch(vec![]),
        // The timeout is 1 000 + 60 000 = 61 000 ms. At 61 000 it has not passed: no batch.
        SetClock(61_000),
        Fire(vec![]),
        // At 61 001 it has: a batch without data calls the function with hasTimedOut.
        SetClock(61_001),
        Fire(vec![(1, 0)]),
        assert_on("a no-data batch", |t| assert!(t.last_batch().no_data)),
        CheckLastBatchInOrder(vec![row!["u1", 61_001]]),
        CheckState(state(0).total(0).removed(1)),
    ]);
}

#[test]
fn a_python_syntax_error_points_at_its_own_line() {
    // `def def` on line 3 of the editor: the error is there, not at the query.
    let text = EDITOR.replace("def count_state", "def def count_state");
    // Python's SyntaxError, named as the error's kind (the heading the lab shows), not repeated
    // in its message.
    check(&text, vec![ExpectFailure(Fail::parse().message_starts_with("in the Python code above the query, line 3: invalid syntax").check(|e| {
        let Error::Parse(p) = e else { unreachable!("a parse error") };
        assert_eq!(p.exception(), "SyntaxError");
        assert_eq!(&text[p.span.start..p.span.end], "def def count_state(key, pdfs, state):");
    }))]);
}
