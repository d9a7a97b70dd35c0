//! Spark 4's ANSI mode in a stream (a malformed cast, an overflow or a division by zero fails
//! the micro-batch and terminates the query with `STREAM_FAILED`, its cause the expression's
//! error condition), and `current_timestamp()` as the micro-batch's timestamp, as `testStream`
//! scripts (`support`).

mod support;

use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::{timestamp_type, DataType, Row, Value};
use support::*;

fn catalog() -> streamlab_engine::frontend::Catalog {
    streams(&[("clicks", &[("event_id", DataType::Utf8), ("code", DataType::Utf8), ("n", DataType::Int32), ("event_time", timestamp_type())])])
}

/// One click per code: event e{i}, n = i, at 12:0{i}.
fn clicks(codes: &[&str]) -> Vec<Row> {
    codes.iter().enumerate().map(|(i, c)| row![format!("e{i}"), *c, Value::Int(i as i32), ts_at(&format!("2026-01-01T12:0{i}:00Z"))]).collect()
}

/// The codes in one batch: the query must run them without failing.
fn runs(query: &str, codes: &[&str]) {
    test_stream(query, OutputMode::Append, catalog()).run(vec![AddData("clicks", clicks(codes)), ProcessAllAvailable]);
}

/// The codes in one batch: the batch must fail with `STREAM_FAILED` and `fail`'s cause.
fn fails(query: &str, codes: &[&str], fail: Fail<'_>) {
    test_stream(query, OutputMode::Append, catalog()).run(vec![AddData("clicks", clicks(codes)), ExpectFailure(fail)]);
}

#[test]
fn malformed_casts_fail_the_batch() {
    // " 12 " trims to 12: fine. "3.9" is not an int in ANSI mode (recorded in Spark 4.3:
    // CAST_INVALID_INPUT for '3.9' cast to INT).
    runs("clicks.select(F.col('code').cast('int'))", &[" 12 ", "7"]);
    fails(
        "clicks.select(F.col('code').cast('int'))",
        &["12", "3.9"],
        Fail::class("STREAM_FAILED")
            .cause("CAST_INVALID_INPUT")
            .cause_message_starts_with("The value '3.9' of the type \"STRING\" cannot be cast to \"INT\" because it is malformed."),
    );
}

#[test]
fn overflow_and_division_by_zero_fail_the_batch() {
    // n is 0 in the first row: 10 / n divides by zero.
    fails("clicks.select(F.lit(10) / F.col('n'))", &["a"], Fail::class("STREAM_FAILED").cause("DIVIDE_BY_ZERO"));
    // 2147483647 + n overflows an int for n = 1 (recorded in Spark 4.3: ARITHMETIC_OVERFLOW).
    fails("clicks.select(F.lit(2147483647) + F.col('n'))", &["a", "b"], Fail::class("STREAM_FAILED").cause("ARITHMETIC_OVERFLOW"));
    runs("clicks.select(F.lit(2147483646) + F.col('n'))", &["a", "b"]);
}

#[test]
fn a_sum_of_longs_that_overflows_fails_the_batch() {
    // Recorded with the oracle on Spark 4.3 (`groupBy('post_id').agg(F.sum('n'))`, update
    // mode, n = Long.MAX in batch 0 and again in batch 1): batch 0 emits the sum
    // 9223372036854775807; batch 1 fails with STREAM_FAILED, its cause in the log
    // `[ARITHMETIC_OVERFLOW] overflow. Use 'try_add' to tolerate overflow and return NULL
    // instead. ...` — the merge into the state overflows, and so does a partial sum within one
    // batch.
    let catalog = || streams(&[("clicks", &[("post_id", DataType::Utf8), ("n", DataType::Int64)])]);
    let max = |post: &str| row![post, Value::Long(i64::MAX)];
    let overflow = || Fail::class("STREAM_FAILED").cause("ARITHMETIC_OVERFLOW").cause_message_starts_with("overflow. Use 'try_add' to tolerate overflow and return NULL instead.");
    let query = "clicks.groupBy('post_id').agg(F.sum('n').alias('s'))";
    test_stream(query, OutputMode::Update, catalog()).run(vec![
        AddData("clicks", vec![max("p1")]),
        ProcessAllAvailable,
        CheckLastBatch(vec![row!["p1", Value::Long(i64::MAX)]]),
        AddData("clicks", vec![max("p1")]),
        ExpectFailure(overflow()),
    ]);
    test_stream(query, OutputMode::Update, catalog()).run(vec![AddData("clicks", vec![max("p1"), max("p1")]), ExpectFailure(overflow())]);
    // Other keys' sums stay apart: no overflow.
    test_stream(query, OutputMode::Update, catalog()).run(vec![
        AddData("clicks", vec![max("p1"), max("p2")]),
        ProcessAllAvailable,
        CheckLastBatch(vec![row!["p1", Value::Long(i64::MAX)], row!["p2", Value::Long(i64::MAX)]]),
    ]);
}

#[test]
fn a_failed_batch_commits_nothing() {
    // Update mode: in append mode this aggregation has no watermark and is refused at start
    // (STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION), before any batch could fail; the scenario
    // version of this test passed on that start error.
    test_stream("clicks.groupBy('code').agg(F.sum(F.col('code').cast('long')))", OutputMode::Update, catalog()).run(vec![
        AddData("clicks", clicks(&["1", "x"])),
        // 'x' is not a long in ANSI mode.
        ExpectFailure(Fail::class("STREAM_FAILED").cause("CAST_INVALID_INPUT")),
        assert_on("the failing batch produced no result", |t| assert!(t.batches().is_empty())),
        CheckCommits(vec![]),
    ]);
}

#[test]
fn current_timestamp_is_the_batch_timestamp() {
    // The clock is at 0 ms: batch 0 runs at the epoch; at 1 000 ms batch 1 runs then.
    let at = |us: i64| move |t: &mut Stream| {
        let rows = &t.last_batch().rows;
        assert!(!rows.is_empty() && rows.iter().all(|row| row[1] == Value::Timestamp(us)), "{rows:?}");
    };
    test_stream("clicks.select('event_id', F.current_timestamp().alias('now'))", OutputMode::Append, catalog()).run(vec![
        SetClock(0),
        AddData("clicks", clicks(&["a", "b"])),
        RunBatch(Some((0, 2))),
        assert_on("now is the batch timestamp", at(0)),
        SetClock(1_000),
        AddData("clicks", clicks(&["c"])),
        RunBatch(Some((1, 1))),
        assert_on("now is the batch timestamp", at(1_000_000)),
    ]);
}

/// `try_cast` gives NULL where the ANSI cast fails the batch, in SQL and as `Column.try_cast`
/// (recorded in Spark 4.3: `sweep-min-expr-try-cast` and `sweep-min-column-try-cast` in
/// tests/study give 42 for '42' and NULL for 'x'); an error of the value it casts still fails
/// the batch. Unaliased, a cast of a column keeps the column's name, as `cast` does (Spark 4.3:
/// `df.selectExpr("try_cast(code AS INT)").columns` and `df.select(F.col("code").try_cast("int"))`
/// are both `['code']`).
#[test]
fn try_cast_gives_null_where_cast_fails() {
    for query in ["clicks.select(F.expr('try_cast(code AS INT)'))", "clicks.select(F.col('code').try_cast('int'))"] {
        test_stream(query, OutputMode::Append, catalog()).run(vec![AddData("clicks", clicks(&["42", "3.9", "x"])), ProcessAllAvailable, CheckLastBatch(vec![row![Value::Int(42)], row![Value::Null], row![Value::Null]])]);
        let compiled = streamlab_engine::frontend::compile(query, &catalog()).expect("compiles");
        let names: Vec<String> = streamlab_engine::analysis::resolve(&compiled.plan).expect("resolves").output.iter().map(|a| a.name.clone()).collect();
        assert_eq!(names, ["code"]);
    }
    // 10 / n divides by zero before any cast: the batch fails.
    fails("clicks.select(F.expr('try_cast(10 / n AS INT)'))", &["a"], Fail::class("STREAM_FAILED").cause("DIVIDE_BY_ZERO"));
}

/// `arr[i]` past the end fails the batch (Spark 4.3 on `split('a', ',')[1]`:
/// "[INVALID_ARRAY_INDEX] The index 1 is out of bounds. The array has 1 elements. Use the SQL
/// function `get()` to tolerate accessing element at invalid index and return NULL instead.");
/// an index inside the array reads it.
#[test]
fn an_array_index_out_of_bounds_fails_the_batch() {
    fails(
        "clicks.select(F.split('code', ',')[1])",
        &["a"],
        Fail::class("STREAM_FAILED").cause("INVALID_ARRAY_INDEX").cause_message_starts_with(
            "The index 1 is out of bounds. The array has 1 elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead.",
        ),
    );
    runs("clicks.select(F.split('code', ',').getItem(1))", &["a,b"]);
}
