//! Regression tests for inputs that used to hang the parser or overflow the stack: each deep
//! or long query either runs or fails with a positioned message, and queries at the limits run
//! end to end (parse, evaluate, analyze, execute a batch) on a thread with a bounded stack.
//!
//! Timing is measured by the `parser` criterion benchmark (`engine/benches/parser.rs`), not
//! here; these tests check outcomes only. Queries run through the test driver (`support`).

mod support;

use streamlab_engine::error::Error;
use streamlab_engine::frontend::python::{parse_program, MAX_DEPTH, MAX_NESTING};
use streamlab_engine::frontend::{compile, Catalog};
use streamlab_engine::plan::limits::{MAX_TREE_DEPTH, MAX_TREE_NODES};
use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::{timestamp_type, DataType};
use support::*;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert("clicks".into(), vec![("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())]);
    c
}

/// The parse error of `text`: message and the text its span covers.
fn parse_error(text: &str) -> (String, String) {
    let e = parse_program(text).expect_err("should not parse");
    let covered = text.get(e.span.start..e.span.end).unwrap_or("<bad span>").to_string();
    (e.message, covered)
}

/// The error `compile` reports for `text`, as text, with its span when it has one.
fn compile_error(text: &str) -> (String, Option<(usize, usize)>) {
    match compile(text, &catalog()) {
        Ok(_) => panic!("should not compile: {}…", &text[..text.len().min(80)]),
        Err(Error::Parse(p)) => (p.message, Some((p.span.start, p.span.end))),
        Err(e) => (e.to_string(), None),
    }
}

/// Runs `text` as a query over one event on a thread with `stack_kib` of stack: compile,
/// analyze, one batch. Returns the number of output rows, or the error's text.
fn run_on_small_stack(text: String, stack_kib: usize) -> Result<usize, String> {
    std::thread::Builder::new()
        .stack_size(stack_kib * 1024)
        .spawn(move || {
            let mut q = test_stream(&text, OutputMode::Append, catalog()).start().map_err(|e| e.to_string())?;
            q.add_data("clicks", &[row![1, ts_us(0)]]).map_err(|e| e.to_string())?;
            Ok(q.run_batch().map_or(0, |b| b.rows.len()))
        })
        .expect("spawn")
        .join()
        .expect("the query overflowed its stack or panicked")
}

#[test]
fn two_thousand_nested_parentheses_fail_at_the_limit() {
    // Used to take forever (the grammar re-parsed each level twice) and then overflow.
    let text = format!("clicks.filter({}F.col('post_id') > 0{})", "(".repeat(2_000), ")".repeat(2_000));
    let (message, covered) = parse_error(&text);
    assert!(message.contains("nested more than 100 levels"), "{message}");
    // The span is the first bracket past the limit: `filter(` is level 1, so the 100th `(`
    // of the run is level 101.
    assert_eq!(covered, "(");
    let e = parse_program(&text).unwrap_err();
    assert_eq!(e.span.start, "clicks.filter(".len() + MAX_NESTING - 1);
}

#[test]
fn depth_one_hundred_parses() {
    // 100 levels of brackets around an expression inside select(...) is 101 levels: one
    // fewer pair parses, and is as fast as a flat query.
    let inner = MAX_NESTING - 1;
    let text = format!("clicks.select({}'post_id'{})", "(".repeat(inner), ")".repeat(inner));
    let q = compile(&text, &catalog()).expect("at the nesting limit");
    assert!(q.plan.to_string().starts_with("Project"), "{}", q.plan);
    // A tuple and a parenthesis are told apart after parsing: `(x,)` is a tuple.
    assert!(compile("clicks.select(('post_id',))", &catalog()).is_ok());
}

#[test]
fn seven_hundred_chained_filters_fail_with_a_position() {
    let text = format!("clicks{}", ".filter('post_id > 0')".repeat(700));
    let (message, span) = compile_error(&text);
    assert!(message.contains(&format!("more than {MAX_DEPTH} levels")), "{message}");
    // Each `.filter(...)` is two levels (attribute, call) over `clicks` (1): the 100th call
    // would be level 201. The span covers the chain up to that call.
    let (start, end) = span.expect("a positioned error");
    assert_eq!(start, 0);
    assert_eq!(end, "clicks".len() + 100 * ".filter('post_id > 0')".len());
}

#[test]
fn one_thousand_plus_one_terms_fail_with_a_position() {
    let text = format!("clicks.select(F.col('post_id'){})", " + 1".repeat(1_000));
    let (message, span) = compile_error(&text);
    assert!(message.contains(&format!("more than {MAX_DEPTH} levels")), "{message}");
    assert!(span.is_some());
    // Long runs of prefix operators are refused the same way.
    let (message, _) = compile_error(&format!("clicks.select({}F.col('post_id'))", "-".repeat(5_000)));
    assert!(message.contains("levels"), "{message}");
}

#[test]
fn sql_chains_and_variables_are_bounded_too() {
    // sqlparser builds `a + 1 + 1 ...` in a loop, as deep as it is long.
    let (message, _) = compile_error(&format!("clicks.filter(\"post_id{} > 0\")", " + 1".repeat(5_000)));
    assert!(message.contains("operators and brackets"), "{message}");
    // A chain grown one assignment at a time reaches the tree limit.
    let text = format!("w = clicks\n{}w", "w = w.filter('post_id > 0')\n".repeat(MAX_TREE_DEPTH + 10));
    let (message, _) = compile_error(&text);
    assert!(message.contains(&format!("more than {MAX_TREE_DEPTH} levels")), "{message}");
    // A shared sub-plan doubled 30 times is 2^30 leaves to analyze: refused by size.
    let text = format!("u = clicks\n{}u", "u = u.union(u)\n".repeat(30));
    let (message, _) = compile_error(&text);
    assert!(message.contains(&MAX_TREE_NODES.to_string()), "{message}");
    // An expression doubled by reassignment: copies are charged.
    let text = format!("c = F.col('post_id')\n{}clicks.select(c)", "c = c + c\n".repeat(40));
    let (message, _) = compile_error(&text);
    assert!(message.contains("nodes"), "{message}");
    // A string doubled by reassignment.
    let text = format!("s = 'xxxxxxxxxxxxxxxx'\n{}clicks.select(s)", "s = s + s\n".repeat(60));
    let (message, _) = compile_error(&text);
    assert!(message.contains("nodes"), "{message}");
}

#[test]
fn a_long_query_is_refused_by_length() {
    let text = format!("clicks.select('{}')", "x".repeat(200_000));
    let (message, _) = parse_error(&text);
    assert!(message.contains("bytes"), "{message}");
}

/// The stack each at-limit query gets natively. Measured: a debug build needs between 4 and
/// 8 MiB (its frames are large), a release build between 256 and 512 KiB; the lab's wasm build
/// has 1 MiB, and the end-to-end test runs the same shapes there.
const STACK_KIB: usize = if cfg!(debug_assertions) { 16 * 1024 } else { 1024 };

#[test]
fn queries_at_the_limits_run_end_to_end() {
    let filters = (MAX_DEPTH - 1) / 2; // `.filter(...)` is two levels
    let cases = [
        format!("clicks.filter({}F.col('post_id') > 0{})", "(".repeat(MAX_NESTING - 2), ")".repeat(MAX_NESTING - 2)),
        format!("clicks{}", ".filter('post_id > 0')".repeat(filters)),
        // Project (1) over the sum: `F.col` (1) and one level per `+ 1`.
        format!("clicks.select(F.col('post_id'){})", " + 1".repeat(MAX_TREE_DEPTH - 2)),
        // Filter (1) > comparison (1) > the sum.
        format!("clicks.filter(\"post_id{} > 0\")", " + 1".repeat(MAX_TREE_DEPTH - 3)),
        format!("w = clicks\n{}w", "w = w.filter('post_id > 0')\n".repeat(MAX_TREE_DEPTH - 2)),
    ];
    for text in cases {
        let shown = text.chars().take(60).collect::<String>();
        assert_eq!(run_on_small_stack(text, STACK_KIB), Ok(1), "{shown}…");
    }
}

#[test]
fn a_window_of_a_day_sliding_every_microsecond_is_refused_with_the_numbers() {
    // Spark builds ceil(1 day / 1 µs) = 86 400 000 000 copies of each row and runs out of
    // memory; the lab refuses it and says how many windows per row that would be.
    let text = "clicks.groupBy(F.window('event_time', '1 day', '1 microsecond')).count()";
    test_stream(text, OutputMode::Complete, catalog()).run(vec![ExpectFailure(Fail::unsupported().message_contains("86400000000 windows"))]);
    // At the limit (1 000 windows per row) the query runs: one event, 1 000 window rows.
    let at_limit = "clicks.select(F.window('event_time', '1000 seconds', '1 second'), 'post_id')";
    assert_eq!(run_on_small_stack(at_limit.to_string(), STACK_KIB), Ok(1_000));
}

#[test]
fn a_window_bound_that_overflows_fails_the_batch_as_spark_does() {
    // 106 751 991 days is the longest window that fits a long; a start time of -106 751 990
    // days makes `event_time - startTime` overflow for a 2026 event: Spark's ANSI arithmetic
    // fails the batch with ARITHMETIC_OVERFLOW (no panic, no wrapped window).
    let text = "clicks.groupBy(F.window('event_time', '106751991 days', '106751991 days', '-106751990 days')).count()";
    test_stream(text, OutputMode::Complete, catalog()).run(vec![
        // 2026-01-01T00:00:00Z: 1 767 225 600 000 000 µs + 106 751 990 days > i64::MAX.
        AddData("clicks", vec![row![1, ts_us(1_767_225_600_000_000)]]),
        RunBatch(None),
        ExpectFailure(Fail::class("STREAM_FAILED").cause("ARITHMETIC_OVERFLOW").message_contains("try_subtract")),
    ]);
}
