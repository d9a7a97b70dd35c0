//! `applyInPandasWithState` from the lab's side: Python typed above the query runs, its
//! errors name their line, and PySpark's `GroupState` errors carry PySpark's text (the
//! recorded corpus holds only the harness's wrapper of these errors: see
//! `apws-*-error.json` and `scenario::compare_error`).
#![allow(clippy::disallowed_methods)]

use streamlab_engine::frontend::{split_python_blocks, Catalog};
use streamlab_engine::plan::OutputMode;
use streamlab_engine::streaming::{StreamingConf, StreamingQuery};
use streamlab_engine::types::{timestamp_type, DataType, Value};
use streamlab_engine::Error;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert("clicks".into(), vec![("user_id".into(), DataType::Utf8), ("event_time".into(), timestamp_type())]);
    c
}

fn ts(hm: &str) -> Value {
    Value::Timestamp(streamlab_engine::types::parse_timestamp_us(&format!("2026-01-01T{hm}:00Z")).expect("time"))
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
    let mut q = StreamingQuery::start(EDITOR, &catalog(), OutputMode::Update, StreamingConf::default()).expect("starts");
    // Batch 0: u1 twice, u2 once → (u1, 2), (u2, 1); batch 1: u1 once more → (u1, 3) only
    // (the function runs only for keys with data).
    q.add_data("clicks", &[vec![Value::str("u1"), ts("12:00")], vec![Value::str("u1"), ts("12:01")], vec![Value::str("u2"), ts("12:02")]]).expect("add");
    let b0 = q.run_next_batch().expect("batch 0");
    let mut rows = b0.rows.clone();
    rows.sort();
    assert_eq!(rows, vec![vec![Value::str("u1"), Value::Long(2)], vec![Value::str("u2"), Value::Long(1)]]);
    assert_eq!(b0.state[0].operator_name, "applyInPandasWithState");
    assert_eq!((b0.state[0].num_rows_total, b0.state[0].num_rows_updated), (2, 2));
    q.add_data("clicks", &[vec![Value::str("u1"), ts("12:03")]]).expect("add");
    let b1 = q.run_next_batch().expect("batch 1");
    assert_eq!(b1.rows, vec![vec![Value::str("u1"), Value::Long(3)]]);
}

#[test]
fn a_python_error_fails_the_batch_and_names_the_line() {
    // Line 7 of the editor text reads a name that does not exist.
    let text = EDITOR.replace("    state.update((n,))", "    state.update((total,))");
    let mut q = StreamingQuery::start(&text, &catalog(), OutputMode::Update, StreamingConf::default()).expect("starts");
    q.add_data("clicks", &[vec![Value::str("u1"), ts("12:00")]]).expect("add");
    assert!(q.run_next_batch().is_none());
    let Some(Error::Analysis(e)) = q.exception() else { panic!("the query failed: {:?}", q.exception()) };
    assert_eq!(e.error_class, "STREAM_FAILED");
    assert!(e.message.contains("line 7 of the Python code, in count_state") && e.message.contains("NameError: name 'total' is not defined"), "{}", e.message);
}

#[test]
fn a_syntax_error_in_the_function_is_reported_when_the_query_is_defined() {
    let text = EDITOR.replace("    for pdf in pdfs:", "    for pdf in pdfs");
    let e = StreamingQuery::start(&text, &catalog(), OutputMode::Update, StreamingConf::default()).expect_err("refused");
    assert!(e.to_string().contains("line 5"), "{e}");
}

/// PySpark 4.3's texts, as the oracle's log printed them when recording
/// `apws-duration-without-processing-timeout-error` and `apws-timeout-below-watermark-error`.
#[test]
fn group_state_errors_carry_pysparks_conditions_and_text() {
    let duration = EDITOR.replace("    state.update((n,))", "    state.update((n,))\n    state.setTimeoutDuration(60 * 1000)");
    let mut q = StreamingQuery::start(&duration, &catalog(), OutputMode::Update, StreamingConf::default()).expect("starts");
    q.add_data("clicks", &[vec![Value::str("u1"), ts("12:00")]]).expect("add");
    assert!(q.run_next_batch().is_none());
    let Some(Error::Analysis(e)) = q.exception() else { panic!("failed") };
    assert_eq!(e.cause.as_ref().map(|c| c.0.as_str()), Some("CANNOT_WITHOUT"));
    assert!(e.message.contains("[CANNOT_WITHOUT] Cannot set timeout duration without enabling processing time timeout in applyInPandasWithState."), "{}", e.message);
}

/// A device goes silent: each event sets a one-minute processing-time timeout from the batch's
/// clock; the key times out in the first batch whose clock is strictly past it (spec §9.1).
#[test]
fn a_processing_time_timeout_fires_when_the_clock_passes_it() {
    let text = "import pandas as pd\n\ndef silence(key, pdfs, state):\n    if state.hasTimedOut:\n        state.remove()\n        yield pd.DataFrame({'user_id': [key[0]], 'at': [state.getCurrentProcessingTimeMs()]})\n    else:\n        state.update((1,))\n        state.setTimeoutDuration(60 * 1000)\n\nclicks.groupBy('user_id').applyInPandasWithState(silence, 'user_id STRING, at LONG', 'n LONG', 'update', 'ProcessingTimeTimeout')\n";
    let mut q = StreamingQuery::start(text, &catalog(), OutputMode::Update, StreamingConf::default()).expect("starts");
    assert!(q.uses_processing_time_timeout());
    q.set_clock_ms(1_000);
    q.add_data("clicks", &[vec![Value::str("u1"), ts("12:00")]]).expect("add");
    let b0 = q.run_next_batch().expect("batch 0");
    assert!(b0.rows.is_empty());
    // The timeout is 1 000 + 60 000 = 61 000 ms. At 61 000 it has not passed: no batch.
    q.set_clock_ms(61_000);
    assert!(q.fire().is_empty());
    // At 61 001 it has: a batch without data calls the function with hasTimedOut.
    q.set_clock_ms(61_001);
    let fired = q.fire();
    assert_eq!(fired.len(), 1);
    assert!(fired[0].no_data);
    assert_eq!(fired[0].rows, vec![vec![Value::str("u1"), Value::Long(61_001)]]);
    assert_eq!((fired[0].state[0].num_rows_total, fired[0].state[0].num_rows_removed), (0, 1));
}

#[test]
fn a_python_syntax_error_points_at_its_own_line() {
    // `def def` on line 3 of the editor: the error is there, not at the query.
    let text = EDITOR.replace("def count_state", "def def count_state");
    let Err(Error::Parse(p)) = StreamingQuery::start(&text, &catalog(), OutputMode::Update, StreamingConf::default()) else { panic!("refused") };
    assert!(p.message.starts_with("in the Python code above the query, line 3: SyntaxError"), "{}", p.message);
    assert_eq!(&text[p.span.start..p.span.end], "def def count_state(key, pdfs, state):");
}
