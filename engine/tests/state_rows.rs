//! The state panel's rows come labelled by the engine (`StreamingQuery::state_tables`):
//! worked by hand on a 10-minute tumbling count with a 10-minute watermark, append mode.

use streamlab_engine::execution::state_rows::{KeptReason, StateCell, StateRowLabel};
use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
use streamlab_engine::types::{EventTime, Row, Value};
use streamlab_engine::workloads::catalog;

const MIN: i64 = 60_000_000;

fn click(id: &str, post: i64, minute: i64) -> Row {
    vec![Value::str(id), Value::str("u"), Value::Long(post), Value::Timestamp(minute * MIN)]
}

const QUERY: &str = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()";

#[test]
fn windows_are_open_closing_then_evicted() {
    let mut q = StreamingQuery::start(QUERY, &catalog(), OutputMode::Append, StreamingConf::default()).unwrap();
    q.add_data("clicks", &[click("a", 1, 1), click("b", 2, 25)]).unwrap();
    q.run_next_batch().unwrap();
    // Batch 0 saw max event time 25 min: the watermark for batch 1 is 25 − 10 = 15 min.
    // Window [0, 10) ends at 10 ≤ 15: closing (batch 1 emits it); [20, 30) ends at 30: open.
    let t = q.state_tables(&[]);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].operator, "stateStoreSave");
    assert_eq!(t[0].columns, vec!["window", "post_id", "count"]);
    let labels: Vec<(StateRowLabel, bool)> = t[0].rows.iter().map(|r| (r.label, r.updated_this_batch)).collect();
    assert_eq!(
        labels,
        vec![(StateRowLabel::Closing { evicts_at_us: EventTime::from_micros(10 * MIN) }, true), (StateRowLabel::Open { evicts_at_us: Some(EventTime::from_micros(30 * MIN)) }, true)]
    );
    assert_eq!(t[0].rows[0].cells[2], StateCell::Value(Value::Long(1)));

    // Batch 1 (no data) evicts [0, 10): its id is gone, shown once as evicted; [20, 30) stays
    // open and was not written by batch 1.
    let before = q.state_row_ids();
    let b = q.run_next_batch().unwrap();
    assert!(b.no_data);
    let evicted: Vec<(usize, Row)> = before.difference(&q.state_row_ids()).cloned().collect();
    assert_eq!(evicted.len(), 1);
    let t = q.state_tables(&evicted);
    let labels: Vec<(StateRowLabel, bool)> = t[0].rows.iter().map(|r| (r.label, r.updated_this_batch)).collect();
    assert_eq!(labels, vec![(StateRowLabel::Open { evicts_at_us: Some(EventTime::from_micros(30 * MIN)) }, false), (StateRowLabel::Evicted, true)]);
    assert_eq!(t[0].rows[1].cells[2], StateCell::Gone);
}

#[test]
fn complete_mode_and_no_watermark_keep_rows_forever() {
    let mut q = StreamingQuery::start(QUERY, &catalog(), OutputMode::Complete, StreamingConf::default()).unwrap();
    q.add_data("clicks", &[click("a", 1, 1), click("b", 2, 25)]).unwrap();
    q.run_next_batch().unwrap();
    assert!(q.state_tables(&[])[0].rows.iter().all(|r| r.label == StateRowLabel::Kept(KeptReason::CompleteMode)));

    let mut q = StreamingQuery::start("clicks.groupBy('post_id').count()", &catalog(), OutputMode::Update, StreamingConf::default()).unwrap();
    q.add_data("clicks", &[click("a", 1, 1)]).unwrap();
    q.run_next_batch().unwrap();
    assert_eq!(q.state_tables(&[])[0].rows[0].label, StateRowLabel::Kept(KeptReason::NoWatermark));
}
