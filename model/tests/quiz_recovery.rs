//! Recovery claims (`sink`, `crash_at_batch`, `crash_point`, `duplicates`, `sink_visible_rows`,
//! `runs`, `restart_error_contains`): the format rules, the crash-and-restart driver, and that
//! every recovery key of every question can fail.

use streamlab_engine::scenario;
use streamlab_model::study::quiz::{bank, Question};
use streamlab_model::study::claim::{check_claim, recovery_run};
use streamlab_model::study::quiz::Claim;

mod support;
use support::question;

/// A bank question re-used with another scenario and claim.
fn with(scenario: &str, check: Claim) -> Question {
    let mut q = bank().unwrap().remove(0);
    q.id = "probe".into();
    q.scenario = scenario.into();
    q.query = None;
    q.output_mode = None;
    q.conf.clear();
    q.tie = None;
    q.guide_differs = None;
    q.check = check;
    q
}

fn crash(sink: &str, batch: u64, point: &str) -> Claim {
    Claim { sink: Some(sink.into()), crash_at_batch: Some(batch), crash_point: Some(point.into()), ..Default::default() }
}

#[test]
fn the_new_topics_have_enough_recovery_questions() {
    let qs = bank().unwrap();
    let recovery: Vec<&Question> = qs.iter().filter(|q| q.check.is_recovery()).collect();
    assert!(recovery.len() >= 10, "only {} recovery questions", recovery.len());
    for topic in ["fault-tolerance", "sinks", "checkpoints"] {
        assert!(qs.iter().any(|q| q.topic == topic), "topic {topic} has no questions");
    }
    // The exam-style question is there, with the file sink + checkpoint answer.
    let q = question("exactly-once-combination");
    assert_eq!(q.text.en.prompt, "Which combination gives end-to-end exactly-once?");
    assert_eq!(q.text.en.choices[q.answer], "Kafka source + file sink with a checkpoint");
}

#[test]
fn every_recovery_key_can_fail() {
    for q in bank().unwrap().into_iter().filter(|q| q.check.is_recovery()) {
        let c = &q.check;
        let mut flips: Vec<(&str, Claim)> = Vec::new();
        if let Some(n) = c.duplicates {
            flips.push(("duplicates", Claim { duplicates: Some(n + 1), ..c.clone() }));
        }
        if let Some(n) = c.sink_visible_rows {
            flips.push(("sink_visible_rows", Claim { sink_visible_rows: Some(n + 1), ..c.clone() }));
        }
        if let Some(n) = c.runs {
            flips.push(("runs", Claim { runs: Some(n + 1), ..c.clone() }));
        }
        if c.restart_error_contains.is_some() {
            flips.push(("restart_error_contains", Claim { restart_error_contains: Some("no such text".into()), ..c.clone() }));
        }
        assert!(!flips.is_empty(), "question '{}': no recovery result key", q.id);
        for (key, wrong) in flips {
            let mut w = q.clone();
            w.check = wrong;
            let e = check_claim(&w).expect_err(&format!("question '{}': a falsified {key} still passes", q.id));
            assert!(e.contains(&q.id) && e.contains(key), "question '{}': unclear message for {key}: {e}", q.id);
        }
    }
}

#[test]
fn file_and_kafka_differ_on_the_same_crash() {
    // The pair the exactly-once questions rest on: classic, batch 5 (2 windows) dies mid-sink.
    let file = recovery_run(&with("classic", crash("file", 5, "mid-sink"))).unwrap().recovery.unwrap();
    let kafka = recovery_run(&with("classic", crash("kafka", 5, "mid-sink"))).unwrap().recovery.unwrap();
    assert_eq!((file.duplicates, file.sink_rows.iter().filter(|r| r.visible).count()), (0, 10));
    // The orphan part file of the crashed attempt: written, never visible.
    assert_eq!(file.sink_rows.iter().filter(|r| !r.visible).count(), 1);
    assert_eq!((kafka.duplicates, kafka.sink_rows.iter().filter(|r| r.visible).count()), (1, 11));
}

#[test]
fn a_crash_run_has_the_batches_of_a_run_without_a_crash() {
    // The driver crashes the right batch and finishes the scenario: the same batch ids as the
    // plain run, each once (the re-run replaces the crashed attempt).
    let plain: Vec<u64> = scenario::run(&question("exactly-once-combination").scenario().unwrap()).batches.iter().map(|(_, b)| b.batch_id).collect();
    for point in ["after-offset-log", "mid-sink", "before-commit"] {
        for batch in [0, 3, 5, 8] {
            let run = recovery_run(&with("classic", crash("file", batch, point))).unwrap();
            assert_eq!(run.batch_ids, plain, "crash at {batch} ({point})");
            let r = run.recovery.unwrap();
            assert_eq!(r.runs, 2, "crash at {batch} ({point})");
            assert_eq!(r.offset_log.len(), plain.len(), "crash at {batch} ({point}): a re-run writes no new offset entry");
            assert_eq!(r.commit_log.len(), plain.len());
            assert!(r.crashed.is_none());
        }
    }
}

#[test]
fn query_id_is_kept_and_run_id_is_new() {
    // Backs the question 'query-id-kept-run-id-new': compare its recovery run with the same
    // scenario run once without a crash.
    let q = question("query-id-kept-run-id-new");
    let restarted = recovery_run(&q).unwrap().recovery.unwrap();
    let once = recovery_run(&with("classic", Claim { sink: Some("file".into()), runs: Some(1), ..Default::default() })).unwrap().recovery.unwrap();
    assert_eq!(once.runs, 1);
    assert_eq!(restarted.runs, 2);
    assert_eq!(restarted.query_id, once.query_id, "the query id comes from <checkpoint>/metadata");
    assert_ne!(restarted.run_id, once.run_id, "every start gets a new run id");
}

#[test]
fn the_memory_sink_recovers_only_in_complete_mode() {
    let append = recovery_run(&question("memory-sink-append-cannot-recover")).unwrap();
    assert!(append.recovery.is_none());
    assert!(append.restart_error.unwrap().contains("does not support recovering from checkpoint location"));
    let complete = recovery_run(&with("complete-mode", Claim { runs: Some(2), ..crash("memory", 1, "mid-sink") })).unwrap();
    assert!(complete.restart_error.is_none());
    // Claiming the restart error where the restart works fails, and says why.
    let mut c = crash("memory", 1, "mid-sink");
    c.restart_error_contains = Some("does not support recovering".into());
    let e = check_claim(&with("complete-mode", c)).unwrap_err();
    assert!(e.contains("restart worked"), "{e}");
    // Claiming sink numbers where the restart fails fails, and says why.
    let mut c = crash("memory", 5, "mid-sink");
    c.duplicates = Some(0);
    let e = check_claim(&with("classic", c)).unwrap_err();
    assert!(e.contains("restart failed"), "{e}");
}

#[test]
fn a_crash_batch_that_never_runs_is_reported() {
    let mut c = crash("file", 42, "mid-sink");
    c.duplicates = Some(0);
    let e = check_claim(&with("classic", c)).unwrap_err();
    assert!(e.contains("batch 42 never runs") && e.contains("b8"), "{e}");
}

#[test]
fn recovery_claims_follow_the_format_rules() {
    let bad = |check: Claim| with("classic", check).validate().unwrap_err();
    // Settings alone are no claim.
    let only_settings = crash("kafka", 5, "mid-sink");
    assert!(only_settings.is_empty());
    assert!(bad(only_settings.clone()).contains("empty"));
    assert!(check_claim(&with("classic", only_settings)).is_err());
    // A sink with only plain-run keys is a claim, but not about the sink.
    let e = bad(Claim { sink: Some("kafka".into()), emitted_total: Some(10), ..Default::default() });
    assert!(e.contains("no recovery result key"), "{e}");
    // Unknown ids, a crash batch without a point (and the other way round), a restart error
    // without a restart.
    assert!(bad(Claim { sink: Some("parquet".into()), runs: Some(1), ..Default::default() }).contains("sink 'parquet'"));
    let mut c = crash("file", 5, "halfway");
    c.runs = Some(2);
    assert!(bad(c).contains("crash_point 'halfway'"));
    assert!(bad(Claim { crash_at_batch: Some(5), runs: Some(2), ..Default::default() }).contains("go together"));
    assert!(bad(Claim { crash_point: Some("mid-sink".into()), runs: Some(2), ..Default::default() }).contains("go together"));
    let e = bad(Claim { restart_error_contains: Some("recovering".into()), ..Default::default() });
    assert!(e.contains("needs crash_at_batch"), "{e}");
    // Unknown keys in the TOML are errors too (deny_unknown_fields).
    assert!(toml::from_str::<Claim>("sink = 'file'\nduplicate = 0").is_err());
    // A claim without a crash runs the scenario once.
    let ok = with("classic", Claim { sink: Some("kafka".into()), runs: Some(1), sink_visible_rows: Some(10), duplicates: Some(0), ..Default::default() });
    ok.validate().unwrap();
    check_claim(&ok).unwrap();
}
