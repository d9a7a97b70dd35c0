//! Batch explanations worked out by hand (`StreamingQuery::set_explaining`,
//! `BatchResult::explanation`): each test says why the fates are what they are. The queries
//! run as `testStream` scripts (`support`) with explanations on.

mod support;

use streamlab_engine::execution::explain::{BatchExplanation, BatchReason, FateKind, JoinSide, RowFate};
use streamlab_engine::streaming::{BatchResult, CrashPoint, OutputMode, SinkKind, StreamingConf};
use streamlab_engine::types::{Row, Value};
use streamlab_engine::workloads::{catalog, CLASSIC};
use support::*;

const MIN: i64 = 60_000_000;
const MIN_MS: i64 = 60_000;

fn click(id: &str, user: &str, post: i64, minute: i64) -> Row {
    row![id, user, post, ts_min(minute)]
}

fn order(id: &str, user: &str, minute: i64) -> Row {
    row![id, user, 1.0, ts_min(minute)]
}

/// A query with explanations on.
fn explaining(query: &str, mode: OutputMode) -> StreamTest {
    test_stream(query, mode, catalog()).explaining(true)
}

fn explained(b: &BatchResult) -> &BatchExplanation {
    b.explanation.as_ref().expect("explaining is on")
}

#[test]
fn a_click_late_for_two_sliding_windows_has_two_late_fates_and_one_group_each() {
    // The classic query: 10-minute windows sliding every 5 minutes, 10-minute watermark.
    explaining(CLASSIC.query, OutputMode::Append).run(vec![
        AddData("clicks", vec![click("a", "u", 1, 30)]),
        RunBatch(Some((0, 1))),
        assert_on("batch 0", |t| {
            let e0 = explained(t.last_batch());
            // 12:30 falls in [25, 35) and [30, 40), latest first (Spark's order); both aggregated.
            assert_eq!(e0.reason, BatchReason::NewData { rows: 1 });
            assert_eq!(e0.rows[0].event_time_us, Some(30 * MIN));
            assert_eq!(
                e0.rows[0].fates,
                vec![
                    RowFate::Aggregated { op_id: 0, key: vec![Value::Long(1)], window: Some((30 * MIN, 40 * MIN)) },
                    RowFate::Aggregated { op_id: 0, key: vec![Value::Long(1)], window: Some((25 * MIN, 35 * MIN)) },
                ]
            );
            // Batch 0 saw max event time 30 min: the next watermark is 30 − 10 = 20 min.
            assert_eq!((e0.watermark_ms, e0.next_watermark_ms), (Some(0), Some(20 * MIN_MS)));
        }),
        // Batch 1 runs without data: the aggregation's eviction watermark moves 0 → 20 min.
        RunBatch(Some((1, 0))),
        assert_on("batch 1", |t| {
            let b1 = t.last_batch();
            assert!(b1.no_data);
            assert_eq!(explained(b1).reason, BatchReason::WatermarkMoved { op_id: 0, operator: "stateStoreSave".into(), from_ms: 0, to_ms: 20 * MIN_MS });
            assert!(explained(b1).rows.is_empty());
        }),
        // Batch 2: two clicks on post 2 at 12:12 and 12:13, both in [5, 15) and [10, 20). Both
        // windows end at or below wm(1) = 20 min: late. Four late fates, but Spark drops the rows
        // after partial aggregation: 2 groups, numRowsDroppedByWatermark = 2.
        AddData("clicks", vec![click("b", "u", 2, 12), click("c", "u", 2, 13)]),
        RunBatch(Some((2, 2))),
        assert_on("batch 2", |t| {
            let e2 = explained(t.last_batch());
            let late = |w: (i64, i64)| RowFate::Late {
                op_id: 0,
                operator: "stateStoreSave".into(),
                event_time_us: w.1,
                watermark_ms: 20 * MIN_MS,
                window: Some(w),
                key: Some(vec![Value::Long(2)]),
            };
            for r in &e2.rows {
                assert_eq!(r.fates, vec![late((10 * MIN, 20 * MIN)), late((5 * MIN, 15 * MIN))]);
                assert_eq!(r.kind(), FateKind::Late);
            }
            assert_eq!(e2.operators[0].num_rows_dropped_by_watermark, 2);
            assert_eq!((e2.operators[0].wm_for_late_events_ms, e2.operators[0].wm_for_eviction_ms), (20 * MIN_MS, 20 * MIN_MS));
        }),
        CheckState(state(0).dropped_by_watermark(2)),
    ]);
}

#[test]
fn a_filtered_row_names_the_predicate_and_a_kept_row_its_output_row() {
    explaining("clicks.filter(F.col('post_id') < 50).select('event_id', 'user_id', 'event_time')", OutputMode::Append).run(vec![
        AddData("clicks", vec![click("a", "u", 60, 1), click("b", "u", 10, 2)]),
        RunBatch(Some((0, 2))),
        assert_on("batch 0", |t| {
            let e = explained(t.last_batch());
            // Row 0 (post 60) fails post_id < 50; row 1 is the batch's only output row (index 0).
            assert_eq!(e.rows[0].fates, vec![RowFate::Filtered { predicate: "(post_id < 50)".into() }]);
            assert_eq!(e.rows[1].fates, vec![RowFate::Emitted { index: 0 }]);
            assert_eq!((e.rows[0].offset, e.rows[1].offset), (0, 1));
            assert_eq!(e.emitted_rows, 1);
            // No watermark: no event time, no watermark.
            assert_eq!((e.rows[0].event_time_us, e.watermark_ms), (None, None));
        }),
        // The next block's rows continue the stream-wide offsets.
        AddData("clicks", vec![click("c", "u", 1, 3)]),
        RunBatch(Some((1, 1))),
        assert_on("batch 1", |t| {
            let e = explained(t.last_batch());
            assert_eq!(e.rows[0].offset, 2);
            assert_eq!(e.rows[0].row, click("c", "u", 1, 3));
        }),
    ]);
}

#[test]
fn dedup_tells_in_batch_from_in_state_duplicates_and_late_rows() {
    // Keys (event_id, event_time) with a 10-minute watermark: a key's state row goes when
    // the watermark reaches its event time.
    let key = vec![Value::str("a"), Value::Timestamp(30 * MIN)];
    explaining("clicks.withWatermark('event_time', '10 minutes').dropDuplicates(['event_id', 'event_time'])", OutputMode::Append).run(vec![
        AddData("clicks", vec![click("a", "u", 1, 30), click("a", "v", 2, 30)]),
        RunBatch(Some((0, 2))),
        assert_on("batch 0", |t| {
            let e0 = explained(t.last_batch());
            assert_eq!(e0.rows[0].fates, vec![RowFate::FirstOfKey { op_id: 0, key: key.clone(), expires_at_us: Some(30 * MIN) }, RowFate::Emitted { index: 0 }]);
            assert_eq!(e0.rows[1].fates, vec![RowFate::Deduplicated { op_id: 0, key: key.clone(), in_batch: true, expires_at_us: Some(30 * MIN) }]);
        }),
        // wm(0) becomes 30 − 10 = 20 min; batch 1 runs without data (dedup asks when its
        // eviction watermark moves) and keeps (a, 30) since 30 > 20.
        RunBatch(Some((1, 0))),
        assert_on("batch 1", |t| {
            assert!(matches!(explained(t.last_batch()).reason, BatchReason::WatermarkMoved { from_ms: 0, to_ms, .. } if to_ms == 20 * MIN_MS));
        }),
        // Batch 2: (a, 30) again is a duplicate of the stored key; (b, 15) is late (15 ≤ 20).
        AddData("clicks", vec![click("a", "w", 3, 30), click("b", "u", 1, 15)]),
        RunBatch(Some((2, 2))),
        assert_on("batch 2", |t| {
            let e2 = explained(t.last_batch());
            assert_eq!(e2.rows[0].fates, vec![RowFate::Deduplicated { op_id: 0, key: key.clone(), in_batch: false, expires_at_us: Some(30 * MIN) }]);
            assert_eq!(
                e2.rows[1].fates,
                vec![RowFate::Late { op_id: 0, operator: "dedupe".into(), event_time_us: 15 * MIN, watermark_ms: 20 * MIN_MS, window: None, key: None }]
            );
        }),
        CheckLastBatch(vec![]),
        CheckState(state(0).dropped_by_watermark(1)),
    ]);
}

#[test]
fn a_join_row_counts_its_partners_in_state_and_in_the_batch() {
    // Clicks join orders of the same user placed within 15 minutes after the click.
    let query = streamlab_engine::workloads::ALL[3].query;
    let partners = |e: &BatchExplanation| -> Vec<(JoinSide, usize)> {
        e.rows
            .iter()
            .map(|r| match r.fates.as_slice() {
                [RowFate::Joined { side, partners, .. }] => (*side, *partners),
                other => panic!("one Joined fate expected, got {other:?}"),
            })
            .collect()
    };
    explaining(query, OutputMode::Append).run(vec![
        AddData("clicks", vec![click("c1", "u1", 1, 10)]),
        AddData("orders", vec![order("o1", "u1", 12), order("o2", "u1", 20), order("o3", "u1", 30), order("o4", "u2", 12)]),
        RunBatch(Some((0, 5))),
        assert_on("batch 0", |t| {
            let b0 = t.last_batch();
            let e0 = explained(b0);
            // The click at 10 meets o1 (12) and o2 (20), both in [10, 25]; o3 (30) is too late for
            // it and o4 is another user's. Each of o1, o2 meets the click.
            assert_eq!(partners(e0), vec![(JoinSide::Left, 2), (JoinSide::Right, 1), (JoinSide::Right, 1), (JoinSide::Right, 0), (JoinSide::Right, 0)]);
            assert_eq!(b0.rows.len(), 2);
            // The click waits for orders up to 15 minutes after it: its state goes once the state
            // watermark reaches 10 + 15 min, plus 1 ms because the bound `order_time <= event_time +
            // 15 minutes` is not strict (`getStateValueWatermark` takes 1 ms off for `<=`). An order
            // waits for clicks before it (`order_time >= event_time`): it goes at its own time + 1 ms.
            let evicts = |r: usize| match e0.rows[r].fates[0] {
                RowFate::Joined { evicts_at_us, .. } => evicts_at_us,
                _ => None,
            };
            assert_eq!((evicts(0), evicts(1)), (Some(25 * MIN + 1_000), Some(12 * MIN + 1_000)));
        }),
        // Batch 1: an order at 14 meets the stored click (10 ≤ 14 ≤ 25): one partner in state.
        AddData("orders", vec![order("o5", "u1", 14)]),
        RunBatch(Some((1, 1))),
        assert_on("batch 1", |t| {
            assert_eq!(partners(explained(t.last_batch())), vec![(JoinSide::Right, 1)]);
            assert_eq!(t.last_batch().rows.len(), 1);
        }),
    ]);
}

#[test]
fn explaining_changes_no_result() {
    // The same three batches with and without explanations give the same rows and metrics.
    let run = |explaining: bool| {
        let mut script = Vec::new();
        for m in [30, 12, 41] {
            script.push(AddData("clicks", vec![click("x", "u", 1, m), click("y", "u", 2, m + 1)]));
            script.push(ProcessAllAvailable);
        }
        let s = test_stream(CLASSIC.query, OutputMode::Append, catalog()).explaining(explaining).run(script);
        s.batches().iter().map(|b| (b.rows.clone(), b.state.clone(), b.watermark_ms)).collect::<Vec<_>>()
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn lateness_is_judged_against_the_previous_batch_watermark() {
    // Without no-data batches, data batch 1 runs with wm(0) = 0 for late rows and wm(1) = 20
    // min for eviction (spec §2.4). A click at 12:17 falls in [15, 25) and [10, 20): the
    // window [10, 20) ends at 20 ≤ wm(1) but above wm(0) = 0, so the row is aggregated, not
    // late, and the window is emitted (and evicted) in this very batch with count 1.
    let conf = StreamingConf { no_data_micro_batches: false, ..StreamingConf::default() };
    explaining(CLASSIC.query, OutputMode::Append).conf(conf).run(vec![
        AddData("clicks", vec![click("a", "u", 1, 30)]),
        RunBatch(Some((0, 1))),
        AddData("clicks", vec![click("b", "u", 7, 17)]),
        RunBatch(Some((1, 1))),
        assert_on("batch 1", |t| {
            let e1 = explained(t.last_batch());
            assert_eq!(
                e1.rows[0].fates,
                vec![
                    RowFate::Aggregated { op_id: 0, key: vec![Value::Long(7)], window: Some((15 * MIN, 25 * MIN)) },
                    RowFate::Aggregated { op_id: 0, key: vec![Value::Long(7)], window: Some((10 * MIN, 20 * MIN)) },
                ]
            );
            assert_eq!((e1.operators[0].wm_for_late_events_ms, e1.operators[0].wm_for_eviction_ms), (0, 20 * MIN_MS));
            assert_eq!(e1.emitted_rows, 1);
        }),
        CheckLastBatchInOrder(vec![row![window_min(10, 20), 7, 1]]),
    ]);
}

#[test]
fn a_batch_run_again_after_a_crash_says_it_was_recovered() {
    // Batch 0 dies after the sink took its rows and before its commit entry: the restart
    // runs batch 0 again as logged (offsets, watermark), so its reason is Recovered, and its
    // one row is traced exactly as the first time.
    // A sink Spark resumes from a checkpoint in append mode (the memory sink is not one).
    explaining(CLASSIC.query, OutputMode::Append).sink(SinkKind::ForeachBatchNaive).run(vec![
        AddData("clicks", vec![click("a", "u", 1, 30)]),
        CrashNext(CrashPoint::BeforeCommit),
        StartStream(Start::same()),
        RunBatch(Some((0, 1))),
        assert_on("the re-run of batch 0", |t| {
            let e = explained(t.last_batch());
            assert_eq!((e.batch_id, &e.reason), (0, &BatchReason::Recovered));
            assert_eq!(e.rows.len(), 1);
            assert_eq!(e.rows[0].offset, 0);
            assert!(matches!(e.rows[0].fates[..], [RowFate::Aggregated { .. }, RowFate::Aggregated { .. }]));
        }),
    ]);
}
