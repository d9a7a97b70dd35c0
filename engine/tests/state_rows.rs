//! The state panel's rows come labelled by the engine (`StreamingQuery::state_tables`):
//! worked by hand on a 10-minute tumbling count with a 10-minute watermark, append mode, as
//! `testStream` scripts (`support`).

mod support;

use std::cell::RefCell;

use streamlab_engine::execution::state_rows::{KeptReason, StateCell, StateRowLabel};
use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::{EventTime, Row, Value};
use streamlab_engine::workloads::catalog;
use support::*;

const MIN: i64 = 60_000_000;

fn click(id: &str, post: i64, minute: i64) -> Row {
    row![id, "u", post, ts_min(minute)]
}

const QUERY: &str = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()";

#[test]
fn windows_are_open_closing_then_evicted() {
    let before = RefCell::new(None);
    test_stream(QUERY, OutputMode::Append, catalog()).run(vec![
        AddData("clicks", vec![click("a", 1, 1), click("b", 2, 25)]),
        RunBatch(Some((0, 2))),
        // Batch 0 saw max event time 25 min: the watermark for batch 1 is 25 − 10 = 15 min.
        // Window [0, 10) ends at 10 ≤ 15: closing (batch 1 emits it); [20, 30) ends at 30: open.
        assert_on("the state after batch 0", |t| {
            let q = t.query();
            let tables = q.state_tables(&[]);
            assert_eq!(tables.len(), 1);
            assert_eq!(tables[0].operator, "stateStoreSave");
            assert_eq!(tables[0].columns, vec!["window", "post_id", "count"]);
            let labels: Vec<(StateRowLabel, bool)> = tables[0].rows.iter().map(|r| (r.label, r.updated_this_batch)).collect();
            assert_eq!(
                labels,
                vec![(StateRowLabel::Closing { evicts_at_us: EventTime::from_micros(10 * MIN) }, true), (StateRowLabel::Open { evicts_at_us: Some(EventTime::from_micros(30 * MIN)) }, true)]
            );
            assert_eq!(tables[0].rows[0].cells[2], StateCell::Value(Value::Long(1)));
            *before.borrow_mut() = Some(q.state_row_ids());
        }),
        // Batch 1 (no data) evicts [0, 10): its id is gone, shown once as evicted; [20, 30) stays
        // open and was not written by batch 1.
        RunBatch(Some((1, 0))),
        assert_on("the state after batch 1", |t| {
            assert!(t.last_batch().no_data);
            let q = t.query();
            let before = before.borrow_mut().take().expect("the ids after batch 0");
            let evicted: Vec<(usize, Row)> = before.difference(&q.state_row_ids()).cloned().collect();
            assert_eq!(evicted.len(), 1);
            let tables = q.state_tables(&evicted);
            let labels: Vec<(StateRowLabel, bool)> = tables[0].rows.iter().map(|r| (r.label, r.updated_this_batch)).collect();
            assert_eq!(labels, vec![(StateRowLabel::Open { evicts_at_us: Some(EventTime::from_micros(30 * MIN)) }, false), (StateRowLabel::Evicted, true)]);
            assert_eq!(tables[0].rows[1].cells[2], StateCell::Gone);
        }),
    ]);
}

#[test]
fn complete_mode_and_no_watermark_keep_rows_forever() {
    test_stream(QUERY, OutputMode::Complete, catalog()).run(vec![
        AddData("clicks", vec![click("a", 1, 1), click("b", 2, 25)]),
        RunBatch(Some((0, 2))),
        assert_on("complete mode keeps every row", |t| {
            // Two posts (1 and 2), one row each, both kept.
            let labels: Vec<StateRowLabel> = t.query().state_tables(&[])[0].rows.iter().map(|r| r.label).collect();
            assert_eq!(labels, vec![StateRowLabel::Kept(KeptReason::CompleteMode); 2])
        }),
    ]);
    test_stream("clicks.groupBy('post_id').count()", OutputMode::Update, catalog()).run(vec![
        AddData("clicks", vec![click("a", 1, 1)]),
        RunBatch(Some((0, 1))),
        assert_on("no watermark keeps every row", |t| assert_eq!(t.query().state_tables(&[])[0].rows[0].label, StateRowLabel::Kept(KeptReason::NoWatermark))),
    ]);
}
