//! The sources lesson's restart without a checkpoint location, as the recovery panel shows it.

use streamlab_model::study::lesson::lessons;
use streamlab_model::lab::script;

mod support;
use support::lab;

/// The lesson's Kafka topic has 2 partitions and records go round-robin. Its first run reads
/// o1, o2, o3 (p0, p1, p0): the offset log's batch 0 ends at {"0":2,"1":1}. Its last task turns
/// the checkpoint location off and restarts: a temporary checkpoint is not reused, so the
/// restart is a new query (a new id and runId, its first run) whose batch 0 reads all 5
/// records from `earliest`: p0 holds records 0, 2, 4 and p1 records 1, 3, so it ends at
/// {"0":3,"1":2}.
#[test]
fn a_restart_without_a_checkpoint_is_a_new_query_with_kafka_offsets_per_partition() {
    let l = lessons().unwrap().into_iter().find(|l| l.id == "sources").expect("the sources lesson");
    let mut s = l.session().unwrap();
    script::run(&mut s, &l.steps[0].actions).unwrap();
    let v = s.view();
    let first = v.recovery.clone().expect("the query runs");
    assert_eq!(first.offset_log.iter().map(|(b, o, _)| (*b, o.as_str())).collect::<Vec<_>>(), vec![(0, r#"{"orders":{"0":2,"1":1}}"#)]);
    for step in &l.steps[1..] {
        script::run(&mut s, &step.actions).unwrap();
    }
    let v = s.view();
    let after = v.recovery.clone().expect("the query runs");
    assert!(after.temporary);
    assert_eq!(after.offset_log.iter().map(|(b, o, _)| (*b, o.as_str())).collect::<Vec<_>>(), vec![(0, r#"{"orders":{"0":3,"1":2}}"#)]);
    assert_ne!(after.query_id, first.query_id, "a temporary checkpoint is a new query");
    assert_ne!(after.run_id, first.run_id);
    assert_eq!(after.runs, 1);
    // The progress names the Kafka source as Spark does.
    assert!(v.progress_json.unwrap_or_default().contains("KafkaV2[Subscribe[orders]]"));
}

/// A restart on the same checkpoint keeps the query id and draws a new runId (Spark's
/// `StreamingQueryManager.startQuery`): the classic preset into a file sink (the memory sink
/// refuses to resume in append mode) after one step, restarted.
#[test]
fn a_restart_on_the_same_checkpoint_keeps_the_id_and_gets_a_new_run_id() {
    let mut s = lab("classic");
    s.set_sink(streamlab_engine::streaming::SinkKind::File);
    s.run_step();
    let before = s.view().recovery.expect("the query runs");
    s.restart();
    let v = s.view();
    let after = v.recovery.unwrap_or_else(|| panic!("the query runs: {:?}", v.error));
    assert_eq!(after.query_id, before.query_id);
    assert_ne!(after.run_id, before.run_id);
    assert_eq!((before.runs, after.runs), (1, 2));
    // `recentProgress` is the query object's: the first step ran batch 0 and the no-data
    // batch 1 (the watermark moved to 09:03), two reports; the restarted query has none yet,
    // and the next step (batch 2 and no-data batch 3, the watermark to 09:06) brings two.
    assert_eq!((before.recent_progress, after.recent_progress), (2, 0));
    s.run_step();
    assert_eq!(s.view().recovery.expect("the query runs").recent_progress, 2);
}
