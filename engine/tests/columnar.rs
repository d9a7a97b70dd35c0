//! The columnar partial aggregation (`execution::columnar`) against the row-wise one: the same
//! query run both ways over random events in random micro-batches gives the same rows, state
//! metrics and watermark in every batch. A `select('*')` between the watermark and the
//! aggregation is a no-op for Spark's semantics but a `Project` the columnar path does not
//! read through, so the second query takes the row-wise path (both are asserted).
//!
//! The events cover what the columnar path reads differently: NULL keys, NULL event times
//! (the watermark's stats count them as 0, the window assignment skips them), keys of
//! several types, several blocks per batch, and aggregates that see row order (`first`,
//! `collect_list`, `max_by`).

use proptest::prelude::*;
use proptest::test_runner::Config;
use streamlab_engine::execution::columnar;
use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
use streamlab_engine::types::{timestamp_type, DataType, Row, Value};

/// 2026-01-01T12:00:00Z in µs.
const BASE_US: i64 = 1_767_268_800_000_000;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![("user".into(), DataType::Utf8), ("post".into(), DataType::Int64), ("ok".into(), DataType::Boolean), ("event_time".into(), timestamp_type())],
    );
    c
}

const AGGS: &str = "F.count('*').alias('n'), F.sum('post').alias('s'), F.first('user').alias('f'), F.collect_list('post').alias('l'), F.max_by('user', 'post').alias('m')";

/// The query with `between` inserted between the watermark and the aggregation.
fn query(between: &str, keys: &str) -> String {
    format!("clicks.withWatermark('event_time', '10 minutes'){between}.groupBy({keys}).agg({AGGS})")
}

fn row((user, post, ok, t): (Option<u8>, Option<i64>, Option<bool>, Option<i64>)) -> Row {
    vec![
        user.map_or(Value::Null, |u| Value::str(&format!("u{u}"))),
        post.map_or(Value::Null, Value::Long),
        ok.map_or(Value::Null, Value::Bool),
        t.map_or(Value::Null, |s| Value::Timestamp(BASE_US + s * 1_000_000)),
    ]
}

fn event() -> impl Strategy<Value = (Option<u8>, Option<i64>, Option<bool>, Option<i64>)> {
    (prop::option::weighted(0.9, 0u8..4), prop::option::weighted(0.9, 0i64..3), prop::option::weighted(0.9, any::<bool>()), prop::option::weighted(0.95, 0i64..7200))
}

/// Batches of blocks of events.
fn batches() -> impl Strategy<Value = Vec<Vec<Vec<Row>>>> {
    prop::collection::vec(prop::collection::vec(prop::collection::vec(event().prop_map(row), 0..12), 1..3), 1..5)
}

/// Every batch's (rows, state metrics, watermark) of `text` over `batches`, and whether every
/// batch that read input ran the aggregation's partial phase on columns (as the executor
/// reports it, `BatchResult::columnar_aggregations`) — `None` when no batch read input.
fn run(text: &str, mode: OutputMode, batches: &[Vec<Vec<Row>>]) -> (Option<bool>, Vec<String>) {
    let mut q = StreamingQuery::start(text, &catalog(), mode, StreamingConf::default()).expect("the query starts");
    let mut columnar: Option<bool> = None;
    let mut out = Vec::new();
    for blocks in batches {
        for b in blocks {
            q.add_data("clicks", b).expect("rows fit");
        }
        while let Some(r) = q.run_next_batch() {
            if r.input_rows > 0 {
                let this = r.columnar_aggregations == 1;
                columnar = Some(columnar.unwrap_or(this) && this);
            }
            let m: Vec<_> = r.state.iter().map(|s| (s.num_rows_total, s.num_rows_updated, s.num_rows_removed, s.num_rows_dropped_by_watermark)).collect();
            out.push(format!("batch {}: rows {:?} state {m:?} watermark {:?} event time {:?}", r.batch_id, r.rows, r.watermark_ms, r.event_time));
        }
        assert!(q.exception().is_none(), "{text}: {:?}", q.exception());
    }
    (columnar, out)
}

proptest! {
    #![proptest_config(Config { cases: 96, failure_persistence: None, ..Config::default() })]

    #[test]
    fn columnar_and_row_wise_partial_aggregation_agree(batches in batches(), mode in 0usize..3, keys in 0usize..3) {
        let mode = [OutputMode::Append, OutputMode::Update, OutputMode::Complete][mode];
        let keys = ["F.window('event_time', '10 minutes', '5 minutes'), 'post'", "'user', F.window('event_time', '15 minutes'), 'ok'", "'post', 'user'"][keys];
        // Append mode needs the watermark on a key: only the windowed groupings run in it.
        prop_assume!(mode != OutputMode::Append || keys.contains("window"));
        let (fast, a) = run(&query("", keys), mode, &batches);
        let (slow, b) = run(&query(".select('*')", keys), mode, &batches);
        // The executor reports the path it took in each batch that read rows.
        prop_assert!(fast != Some(false), "the plain query took the row-wise path in some batch");
        prop_assert!(slow != Some(true), "a Project below the aggregation took the columnar path");
        prop_assert_eq!(a, b);
    }
}

#[test]
fn a_computed_or_floating_point_key_takes_the_row_wise_path() {
    let start = |text: &str| StreamingQuery::start(text, &catalog(), OutputMode::Update, StreamingConf::default()).expect("starts");
    assert!(columnar::applies_to(start(&query("", "'post'")).plan()));
    // A computed key, and a double key (Spark normalises -0.0 and NaN in grouping keys).
    assert!(!columnar::applies_to(start(&query("", "F.col('post') + 1")).plan()));
    assert!(!columnar::applies_to(start("clicks.groupBy(F.col('post').cast('double')).count()").plan()));
}

/// The executor says which path a batch took: the plain query's aggregation reads columns,
/// the projected one rows. (With the dispatch in `execution::execute` forced to the row-wise
/// path this fails, where `columnar::applies_to` alone could not tell.)
#[test]
fn the_executor_reports_the_path_each_batch_took() {
    let rows: Vec<Row> = (0..6).map(|i| row((Some(i as u8 % 3), Some(i % 2), Some(true), Some(i * 60)))).collect();
    for (text, want) in [(query("", "F.window('event_time', '10 minutes'), 'post'"), 1), (query(".select('*')", "F.window('event_time', '10 minutes'), 'post'"), 0)] {
        let mut q = StreamingQuery::start(&text, &catalog(), OutputMode::Update, StreamingConf::default()).expect("starts");
        q.add_data("clicks", &rows).expect("rows fit");
        let r = q.run_next_batch().expect("a batch runs");
        assert_eq!((r.input_rows, r.columnar_aggregations), (6, want), "{text}");
    }
}
