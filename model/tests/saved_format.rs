//! The saved-session format (`lab::persist`, browser storage and share links) does not drift:
//! a session saved before the log's `Action` carried its own serde form (the literal below,
//! written by `to_saved_json` then, with an action of every kind) still opens, replays and
//! saves again byte for byte, and the same clicks today write the same text.

use std::collections::BTreeMap;

use streamlab_model::lab::session::{CrashPoint, LabSession, SinkKind};

/// What `LabSession::to_saved_json` wrote for [`clicks`] before `Action` carried its own
/// serde form: every action kind (an Add with and without a step marker, `run_all` with a
/// step and with `null`, a restart with and without a query, a crash, a wait, a moved row).
const SAVED: &str = concat!(
    r#"{"version":1,"scenario":{"id":"tiny","title":"Tiny","concepts":[],"sources":{"clicks":{"schema":[["event_id","string"],["post_id","long"],["event_time","timestamp"]]}},"steps":[{"clicks":[{"event_id":"c1","event_time":"2026-03-02T09:02:00Z","post_id":1},{"event_id":"c2","event_time":"2026-03-02T09:06:00Z","post_id":2}]},{"clicks":[{"event_id":"c3","event_time":"2026-03-02T09:13:00Z","post_id":1}]},{"clicks":[{"event_id":"c4","event_time":"2026-03-02T09:31:00Z","post_id":2}]}],"query":"clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()","output_mode":"append"},"query":"clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()","mode":"append","sink":"file","trigger":null,"checkpoint_location":true,"next_step":3,"actions":["#,
    r#"{"do":"add","source":"clicks","rows":[["c1",1,"2026-03-02T09:02:00Z"],["c2",2,"2026-03-02T09:06:00Z"]],"step":0},"#,
    r#"{"do":"run_all","step":0},"#,
    r#"{"do":"add","source":"clicks","rows":[["c3",1,"2026-03-02T09:13:00Z"]],"step":1},"#,
    r#"{"do":"trigger"},"#,
    r#"{"do":"add","source":"clicks","rows":[["c9",null,"2026-03-02T09:20:00Z"]]},"#,
    r#"{"do":"crash","at":"mid-sink"},"#,
    r#"{"do":"restart","query":null},"#,
    r#"{"do":"wait","ms":5000},"#,
    r#"{"do":"add","source":"clicks","rows":[["c9",null,"2026-03-02T09:45:00Z"]]},"#,
    r#"{"do":"run_all","step":null},"#,
    r#"{"do":"retime","action":0,"row":1,"column":2,"event_time_us":1772442240000000},"#,
    r#"{"do":"restart","query":"clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count().select('post_id', 'count')"},"#,
    r#"{"do":"add","source":"clicks","rows":[["c4",2,"2026-03-02T09:31:00Z"]],"step":2},"#,
    r#"{"do":"run_all","step":2}"#,
    "]}",
);

/// The scenario inside [`SAVED`].
const SCENARIO: &str = r#"{"id":"tiny","title":"Tiny","sources":{"clicks":{"schema":[["event_id","string"],["post_id","long"],["event_time","timestamp"]]}},"steps":[{"clicks":[{"event_id":"c1","post_id":1,"event_time":"2026-03-02T09:02:00Z"},{"event_id":"c2","post_id":2,"event_time":"2026-03-02T09:06:00Z"}]},{"clicks":[{"event_id":"c3","post_id":1,"event_time":"2026-03-02T09:13:00Z"}]},{"clicks":[{"event_id":"c4","post_id":2,"event_time":"2026-03-02T09:31:00Z"}]}],"query":"clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()","output_mode":"append"}"#;

/// The learner's clicks that saved [`SAVED`].
fn clicks() -> LabSession {
    let mut s = LabSession::from_json(SCENARIO).unwrap();
    s.set_sink(SinkKind::File);
    s.run_step();
    s.push_step();
    s.trigger();
    let fields: BTreeMap<String, String> = [("event_id", "c9"), ("post_id", ""), ("event_time", "09:20")].into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    s.push_event("clicks", &fields).unwrap();
    s.crash(CrashPoint::MidSink).unwrap();
    s.restart();
    s.wait(5000).unwrap();
    s.advance_with_event("clicks", "09:45").unwrap();
    assert_eq!(s.move_event(0, 1, 1_772_442_240_000_000), Ok(true));
    s.restart_with("clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count().select('post_id', 'count')");
    s.run_step();
    s
}

#[test]
fn an_old_saved_session_loads_and_saves_the_same() {
    let back = LabSession::from_saved_json(SAVED).unwrap();
    assert_eq!(back.to_saved_json(), SAVED);
    let live = clicks();
    assert_eq!(live.to_saved_json(), SAVED);
    assert_eq!(back.view(), live.view());
    assert_eq!(back.view().batches.len(), 7);
    // Undo takes back the last scenario step whole (its Add and its run, by their step marks).
    let (mut a, mut b) = (back, live);
    assert!(a.undo() && b.undo());
    assert_eq!(a.view(), b.view());
    assert_eq!(a.action_count(), 12);
}

#[test]
fn optional_fields_may_be_left_out() {
    // A `run_all` without `step` and a `restart` without `query` read as `null`, and save as it.
    let short = SAVED.replace(r#"{"do":"run_all","step":null}"#, r#"{"do":"run_all"}"#).replace(r#"{"do":"restart","query":null}"#, r#"{"do":"restart"}"#);
    assert_ne!(short, SAVED);
    assert_eq!(LabSession::from_saved_json(&short).unwrap().to_saved_json(), SAVED);
}

#[test]
fn a_bad_action_is_an_error() {
    for (bad, says) in [
        (r#"{"do":"crash","at":"somewhere"}"#, "unknown crash point somewhere"),
        (r#"{"do":"wait","ms":0}"#, "a wait of 0 ms is not positive"),
        (r#"{"do":"retime","action":5,"row":0,"column":0,"event_time_us":0}"#, "action 3 moves a row that action 5 did not add"),
        (r#"{"do":"add","source":"nope","rows":[]}"#, "unknown source nope"),
        (r#"{"do":"jump"}"#, "unknown variant"),
    ] {
        let text = SAVED.replace(r#"{"do":"trigger"}"#, bad);
        let e = LabSession::from_saved_json(&text).map(|_| ()).unwrap_err();
        assert!(e.starts_with("saved session: ") && e.contains(says), "{bad}: {e}");
    }
}
