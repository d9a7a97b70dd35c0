//! The optimizer rules that change streaming results (`execution::optimizer`), watermark
//! propagation through chains of stateful operators (`streaming::watermark_propagator`) and
//! the two readings of a join condition (`analysis::join_helper`), checked on the plans they
//! produce. Their effect on batches is pinned by the `opt-`, `wm-` and `chk-` cases in
//! `tests/cases`, recorded with Spark 4.3.

use streamlab_engine::analysis::join_helper::checker_accepts;
use streamlab_engine::execution::optimizer::optimize;
use streamlab_engine::analysis::{resolve, Node, Plan, StateWatermark, UnsupportedOperationChecker};
use streamlab_engine::frontend::{compile, Catalog};
use streamlab_engine::streaming::watermark_propagator::{propagate, REDEFINING_WATERMARK};
use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::{timestamp_type, DataType, WatermarkMs};

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    let clicks = vec![("event_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())];
    let orders = vec![("order_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("amount".into(), DataType::Float64), ("order_time".into(), timestamp_type())];
    c.streams.insert("clicks".into(), clicks);
    c.streams.insert("orders".into(), orders);
    c
}

fn analyzed(query: &str) -> Plan {
    let compiled = compile(query, &catalog()).expect("compiles");
    resolve(&compiled.plan).expect("resolves")
}

fn optimized(query: &str, mode: OutputMode) -> Plan {
    optimize(analyzed(query), mode)
}

const CLICKS: &str = "clicks.withWatermark('event_time', '10 minutes').select(F.col('user_id').alias('click_user'), 'event_id', 'post_id', 'event_time')";
const ORDERS: &str = "orders.withWatermark('order_time', '10 minutes').select(F.col('user_id').alias('order_user'), 'order_id', 'amount', 'order_time')";
const RANGE: &str = "order_time >= event_time AND order_time <= event_time + interval 15 minutes";

fn join(cond: &str, how: &str) -> String {
    format!("{CLICKS}.join({ORDERS}, F.expr('{cond}'), '{how}')")
}

#[test]
fn a_filter_on_a_grouping_key_runs_below_the_aggregation_and_the_watermark() {
    let p = optimized(
        "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count().filter(F.col('post_id') == 1)",
        OutputMode::Append,
    );
    assert_eq!(
        p.to_string(),
        "StateStoreSave [window, post_id] -> [window, post_id, count], operator 0\n\
         +- TimeWindow event_time, 10 minutes, 10 minutes, 0 seconds\n\
         \x20  +- EventTimeWatermark event_time, 10 minutes\n\
         \x20     +- Filter (post_id = 1)\n\
         \x20        +- StreamingRelation clicks, [event_id, user_id, post_id, event_time]\n"
    );
}

#[test]
fn a_conjunct_on_the_event_time_stays_above_the_watermark_and_the_rest_moves_below() {
    let p = optimized(
        "clicks.withWatermark('event_time', '10 minutes').filter((F.col('post_id') == 1) & (F.col('event_time') < '2026-01-01 12:30:00'))",
        OutputMode::Append,
    );
    assert_eq!(
        p.to_string(),
        "Filter (event_time < '2026-01-01 12:30:00')\n\
         +- EventTimeWatermark event_time, 10 minutes\n\
         \x20  +- Filter (post_id = 1)\n\
         \x20     +- StreamingRelation clicks, [event_id, user_id, post_id, event_time]\n"
    );
}

#[test]
fn a_count_filter_stays_above_the_aggregation_and_a_filter_stays_above_deduplication() {
    let p = optimized("clicks.groupBy('post_id').count().filter(F.col('count') > 1)", OutputMode::Update);
    assert!(matches!(p.node, Node::Filter { .. }), "{p}");
    let p = optimized("clicks.withWatermark('event_time', '10 minutes').dropDuplicates(['event_id']).filter(F.col('post_id') == 1)", OutputMode::Append);
    assert!(matches!(&p.node, Node::Filter { input, .. } if matches!(input.node, Node::Dedup { .. })), "{p}");
}

#[test]
fn an_inner_join_infers_not_null_keys_below_the_watermarks_and_keeps_event_time_checks_above() {
    let p = optimized(&join(&format!("click_user = order_user AND amount > 10 AND {RANGE}"), "inner"), OutputMode::Append);
    let text = p.to_string();
    // isnotnull(user_id) reads no event time: below the watermark; isnotnull(event_time)
    // reads it: above. `amount > 10` reads the right side only: pushed into it.
    assert!(text.contains(":     +- EventTimeWatermark event_time, 10 minutes\n:        +- Filter (user_id IS NOT NULL)\n"), "{text}");
    assert!(text.contains(":  +- Filter (event_time IS NOT NULL)\n:     +- EventTimeWatermark"), "{text}");
    assert!(text.contains("+- Filter ((amount > 10) AND (user_id IS NOT NULL))"), "{text}");
    let Node::StreamJoin { spec, join, .. } = &p.node else { panic!("{text}") };
    assert_eq!(join.keys, vec![(0, 0)]);
    // Left: order_time <= event_time + 15 min bounds event_time from below → W − 15 min − 1 ms.
    assert_eq!(spec.left_state, StateWatermark::Value { offset_ms: -900_001 });
    assert_eq!(spec.right_state, StateWatermark::Value { offset_ms: -1 });
}

#[test]
fn a_key_filter_on_one_side_is_copied_to_the_other_through_the_equi_join() {
    let p = optimized(
        &format!(
            "clicks.withWatermark('event_time', '10 minutes').filter(F.col('user_id') == 'u1').select(F.col('user_id').alias('click_user'), 'event_id', 'post_id', 'event_time').join({ORDERS}, F.expr('click_user = order_user AND {RANGE}'), 'inner')"
        ),
        OutputMode::Append,
    );
    let text = p.to_string();
    assert!(text.contains("   +- EventTimeWatermark order_time, 10 minutes\n         +- Filter ((user_id = 'u1') AND (user_id IS NOT NULL))\n"), "{text}");
}

#[test]
fn a_filter_rejecting_null_right_rows_makes_a_left_outer_join_inner() {
    let p = optimized(&format!("{}.filter(F.col('amount') > 20)", join(&format!("click_user = order_user AND {RANGE}"), "left")), OutputMode::Append);
    let Node::StreamJoin { join: spec, .. } = &p.node else { panic!("{p}") };
    assert_eq!(spec.join_type.spark_name(), "Inner");
    // `amount IS NULL` would keep null-padded rows: the join stays outer.
    let p = optimized(&format!("{}.filter(F.col('amount').isNull())", join(&format!("click_user = order_user AND {RANGE}"), "left")), OutputMode::Append);
    assert!(matches!(&p.node, Node::Filter { input, .. } if matches!(&input.node, Node::StreamJoin { join, .. } if join.join_type.spark_name() == "LeftOuter")), "{p}");
}

#[test]
fn a_left_only_conjunct_of_a_left_outer_join_stays_as_the_left_pre_join_filter() {
    let p = optimized(&join(&format!("click_user = order_user AND post_id = 1 AND amount > 10 AND {RANGE}"), "left"), OutputMode::Append);
    let Node::StreamJoin { spec, join, right, .. } = &p.node else { panic!("{p}") };
    assert!(spec.left_only.is_some(), "{p}");
    assert!(spec.right_only.is_none(), "`amount > 10` is pushed into the right input");
    assert!(join.condition.as_ref().is_some_and(|c| format!("{c:?}").contains("Int(1)")));
    assert!(right.to_string().contains("amount > 10"));
}

#[test]
fn a_time_range_filter_above_an_inner_join_becomes_its_condition() {
    let p = optimized(&format!("{}.filter(F.expr('{RANGE}'))", join("click_user = order_user", "inner")), OutputMode::Append);
    let Node::StreamJoin { spec, .. } = &p.node else { panic!("{p}") };
    assert_eq!(spec.left_state, StateWatermark::Value { offset_ms: -900_001 });
}

#[test]
fn a_limit_keeps_state_only_in_append_mode_or_without_an_aggregation_below() {
    let names = |p: &Plan| p.stateful_operators().into_iter().map(|(_, n)| n).collect::<Vec<_>>();
    let p = optimized("clicks.groupBy('post_id').count().orderBy(F.desc('count'), 'post_id').limit(2)", OutputMode::Complete);
    assert_eq!(names(&p), vec!["stateStoreSave"]);
    assert!(p.to_string().starts_with("TakeOrderedAndProject 2\n"), "{p}");
    assert_eq!(p.stateful_operators()[0].0, 0, "operators are renumbered without the limit");
    let p = optimized("clicks.limit(3).groupBy('post_id').count()", OutputMode::Complete);
    assert_eq!(names(&p), vec!["stateStoreSave", "globalLimit"]);
    let p = optimized("clicks.limit(3)", OutputMode::Append);
    assert_eq!(names(&p), vec!["globalLimit"]);
}

#[test]
fn a_window_aggregation_after_a_range_join_gets_the_join_output_watermark() {
    let p = optimized(
        &format!("{}.groupBy(F.window('order_time', '10 minutes')).count()", join(&format!("click_user = order_user AND {RANGE}"), "inner")),
        OutputMode::Append,
    );
    let g = WatermarkMs::from_ms(1_767_268_800_000); // 2026-01-01T12:00:00Z
    let wm = propagate(&p, g).expect("one watermark per input");
    // Operator 0 is the aggregation (root-first), 1 the join. The join gets G; its output is
    // min(left state G − 15 min − 1 ms, right state G − 1 ms, G).
    assert_eq!(wm.get(&1), Some(&g));
    assert_eq!(wm.get(&0), Some(&WatermarkMs::from_ms(g.ms() - 900_001)));
    assert!(propagate(&p, WatermarkMs::ZERO).expect("0 is never simulated").is_empty());
}

#[test]
fn a_watermark_below_another_fails_only_once_the_global_watermark_is_set() {
    let p = optimized("clicks.withWatermark('event_time', '10 minutes').withWatermark('event_time', '5 minutes')", OutputMode::Append);
    assert!(propagate(&p, WatermarkMs::ZERO).is_ok());
    assert_eq!(propagate(&p, WatermarkMs::from_ms(1)), Err(REDEFINING_WATERMARK));
}

#[test]
fn the_checker_and_the_executor_read_an_outer_join_condition_differently() {
    // Watermark on the nullable (right) side only: start() accepts the left outer join, but the
    // left side has no event-time column, so at run time neither side gets a state watermark.
    let q = format!("clicks.select(F.col('user_id').alias('click_user'), 'event_id', 'event_time').join({ORDERS}, F.expr('click_user = order_user AND {RANGE}'), 'left')");
    let p = analyzed(&q);
    assert!(UnsupportedOperationChecker::check_for_streaming(&p, OutputMode::Append).is_ok());
    let Node::StreamJoin { spec, .. } = &p.node else { panic!("{p}") };
    assert_eq!((spec.left_state, spec.right_state), (StateWatermark::None, StateWatermark::None));
    // Watermark on the preserved side only: rejected.
    let q = format!("{CLICKS}.join(orders.select(F.col('user_id').alias('order_user'), 'order_id', 'order_time'), F.expr('click_user = order_user AND {RANGE}'), 'left')");
    let p = analyzed(&q);
    let Node::StreamJoin { left, right, join, .. } = &p.node else { panic!("{p}") };
    assert!(!checker_accepts(join.join_type, &left.output, &right.output, &join.keys, join.condition.as_ref()));
    assert!(UnsupportedOperationChecker::check_for_streaming(&p, OutputMode::Append).is_err());
}
