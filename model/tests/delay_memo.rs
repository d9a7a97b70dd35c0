//! The delay slider's kept replays (`LabSession::prepare_delay`, the swap in
//! `LabSession::set_delay`): a kept session must be exactly the one a replay makes, and a memo
//! must never outlive the log, mode or sink it was made over.

use streamlab_model::lab::session::timeline::DELAY_STOPS;
use streamlab_model::lab::session::{LabSession, OutputMode, MEMO_MAX_ROWS};

mod support;
use support::{lab, run_all};

/// Everything the page reads of a session: the view, the time picture and the saved log.
fn shown(s: &LabSession) -> (streamlab_model::lab::session::LabView, streamlab_model::lab::picture::Picture, String) {
    (s.view(), s.picture(), s.to_saved_json())
}

/// `s` with delay `index` set by a replay of its own: a copy keeps no memo, so its
/// `set_delay` replays every batch.
fn replayed(s: &LabSession, index: usize, delay: &str) -> LabSession {
    let mut fresh = s.clone();
    assert_eq!(fresh.kept_delays(), 0, "a copy keeps no other delays");
    fresh.set_delay(index, delay).unwrap();
    fresh
}

#[test]
fn every_prepared_stop_is_what_a_replay_gives() {
    let mut s = lab("classic");
    run_all(&mut s);
    let start = s.clone();
    // Made ahead: every stop but the current one (10 minutes) is replayed and kept.
    let made = DELAY_STOPS.iter().filter(|d| s.prepare_delay(0, d)).count();
    assert_eq!(made, DELAY_STOPS.len() - 1);
    assert_eq!(s.kept_delays(), DELAY_STOPS.len() - 1);
    // Asking again does nothing: each is kept already.
    assert!(DELAY_STOPS.iter().all(|d| !s.prepare_delay(0, d)));
    // What the page showed has not changed.
    assert_eq!(shown(&s), shown(&start));
    for d in DELAY_STOPS {
        s.set_delay(0, d).unwrap();
        assert_eq!(shown(&s), shown(&replayed(&start, 0, d)), "delay {d}");
        // A swap keeps the session it replaced: the memo still holds every other stop.
        assert_eq!(s.kept_delays(), DELAY_STOPS.len() - 1, "delay {d}");
    }
}

#[test]
fn a_step_back_to_the_last_delay_is_the_session_it_left() {
    let mut s = lab("classic");
    run_all(&mut s);
    let start = s.clone();
    s.set_delay(0, "0 seconds").unwrap();
    // The 10-minute session it replayed from is kept, so going back is a swap.
    assert_eq!(s.kept_delays(), 1);
    s.set_delay(0, "10 minutes").unwrap();
    assert_eq!(s.kept_delays(), 1);
    assert_eq!(shown(&s), shown(&replayed(&start, 0, "10 minutes")));
    // The classic example's watermark after its last batch with no delay is its latest event
    // time; with 10 minutes it is ten minutes earlier (the two are kept apart by the memo).
    s.set_delay(0, "0 seconds").unwrap();
    let none = s.view().watermark;
    s.set_delay(0, "10 minutes").unwrap();
    assert_ne!(s.view().watermark, none);
}

#[test]
fn an_action_mode_or_sink_change_forgets_the_kept_delays() {
    let mut s = lab("classic");
    run_all(&mut s);
    assert!(s.prepare_delay(0, "0 seconds"));
    // A new event: the kept session is of the log without it.
    let at = s.day_us() + 23 * 3_600_000_000;
    s.add_event_at("clicks", at).unwrap();
    assert_eq!(s.kept_delays(), 0);
    let before = s.clone();
    s.set_delay(0, "0 seconds").unwrap();
    assert_eq!(shown(&s), shown(&replayed(&before, 0, "0 seconds")));
    // A mode change replays everything: the kept 10-minute session is forgotten.
    assert_eq!(s.kept_delays(), 1);
    s.set_mode(OutputMode::Update);
    assert_eq!(s.kept_delays(), 0);
    assert!(s.prepare_delay(0, "1 hour"));
    s.set_sink(streamlab_model::lab::session::SinkKind::Console);
    assert_eq!(s.kept_delays(), 0);
    // Undo replays too.
    assert!(s.prepare_delay(0, "1 hour"));
    assert!(s.undo());
    assert_eq!(s.kept_delays(), 0);
}

#[test]
fn a_session_whose_restart_runs_its_own_text_is_not_kept() {
    let mut s = lab("classic");
    // The memory sink is not recovered from a checkpoint in append mode: a file sink is.
    s.set_sink(streamlab_model::lab::session::SinkKind::File);
    s.run_step();
    // A restart with a changed query (a filter, which fits the state).
    s.restart_with("clicks.filter('post_id > 0').withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()");
    s.run_step();
    assert!(s.view().error.is_none(), "{:?}", s.view().error);
    let start = s.clone();
    // The slider edits the latest run's text and makes it every run's (set_query): the
    // session before that edit is not what the slider's text gives, so it is not kept.
    s.set_delay(0, "5 minutes").unwrap();
    assert_eq!(s.kept_delays(), 0);
    s.set_delay(0, "10 minutes").unwrap();
    assert_eq!(shown(&s), shown(&replayed(&start, 0, "10 minutes")));
    // Both runs now run the one text, so this session was keepable.
    assert_eq!(s.kept_delays(), 1);
}

#[test]
fn refused_delays_and_large_logs_are_not_prepared() {
    let mut s = lab("classic");
    run_all(&mut s);
    // Not an interval, no such watermark, negative (Spark refuses it): nothing is made.
    assert!(!s.prepare_delay(0, "ten minutes"));
    assert!(!s.prepare_delay(1, "5 minutes"));
    assert!(!s.prepare_delay(0, "-5 minutes"));
    assert_eq!(s.kept_delays(), 0);
    // One more row than MEMO_MAX_ROWS in the log: nothing is kept.
    let mut scenario = s.scenario().clone();
    let row = scenario.steps[0]["clicks"][0].clone();
    scenario.steps = vec![[("clicks".to_string(), vec![row; MEMO_MAX_ROWS + 1])].into_iter().collect()];
    let mut big = LabSession::from_scenario(scenario);
    run_all(&mut big);
    assert!(!big.prepare_delay(0, "5 minutes"));
    big.set_delay(0, "5 minutes").unwrap();
    assert_eq!(big.kept_delays(), 0);
}

#[test]
fn the_next_stop_prepared_is_the_nearest_not_kept() {
    let mut s = lab("classic");
    run_all(&mut s);
    // The classic query's delay is 10 minutes, stop 10 of DELAY_STOPS: 7 minutes (9) first,
    // then 15 minutes (11), then 5 minutes (8).
    let start = s.clone();
    for (n, next) in ["7 minutes", "15 minutes", "5 minutes"].into_iter().enumerate() {
        assert!(s.prepare_next_stop());
        assert_eq!(s.kept_delays(), n + 1);
        // The one just made is kept: set_delay to it is a swap (the count stays).
        let mut probe = s.clone();
        assert_eq!(probe.kept_delays(), 0);
        assert!(probe.prepare_delay(0, next), "{next} is not kept in a copy");
        assert!(!s.prepare_delay(0, next), "{next} was not the one prepared");
    }
    // Every stop but the current one, then nothing more.
    while s.prepare_next_stop() {}
    assert_eq!(s.kept_delays(), DELAY_STOPS.len() - 1);
    assert_eq!(shown(&s), shown(&start));
}
