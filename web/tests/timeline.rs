//! Native tests of scrubbing (`Session::view_as_of`) and the delay controls: the lab as of a
//! past batch must be exactly what the lab showed right after that batch ran.
#![allow(clippy::disallowed_methods)] // a test may read files

use streamlab_engine::scenario::Scenario;
use streamlab_web::session::{LabView, Session};

fn corpus(id: &str) -> Scenario {
    let path = format!(
        "{}/../engine/tests/spark/cases/{id}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    Scenario::from_json(&std::fs::read_to_string(path).expect("corpus case")).expect("scenario")
}

/// What scrubbing must reproduce: state, emitted rows, metrics and watermark (the batch's
/// `step` label is left out: the reference below runs the batches by single triggers).
fn seen(
    v: &LabView,
) -> (
    Vec<String>,
    Vec<Vec<Vec<String>>>,
    Vec<Vec<(u64, u64, u64, u64)>>,
    Option<String>,
) {
    (
        v.state
            .iter()
            .flat_map(|t| {
                t.rows
                    .iter()
                    .map(move |(c, st)| format!("{}: {c:?} {st:?}", t.operator))
            })
            .collect(),
        v.batches.iter().map(|b| b.rows.clone()).collect(),
        v.batches
            .iter()
            .map(|b| {
                b.metrics
                    .iter()
                    .map(|m| (m.total, m.updated, m.removed, m.dropped))
                    .collect()
            })
            .collect(),
        v.watermark.clone(),
    )
}

#[test]
fn a_past_batch_shows_what_the_lab_showed_right_after_it() {
    for id in [
        "window-sliding-classic-append",
        "window-tumbling-append-basic",
        "dedup-within-watermark",
    ] {
        let Ok(text) = std::fs::read_to_string(format!(
            "{}/../engine/tests/spark/cases/{id}.json",
            env!("CARGO_MANIFEST_DIR")
        )) else {
            continue;
        };
        let case = Scenario::from_json(&text).expect("scenario");
        // The reference: the same input, one trigger (one batch) at a time, looked at after each.
        let mut by_trigger = Session::from_scenario(case.clone());
        let mut after = Vec::new();
        while by_trigger.push_step() {
            while by_trigger.batch_due() {
                by_trigger.trigger();
                after.push(by_trigger.view());
            }
        }
        // The lab: "next step" until the end, then back to each batch.
        let mut s = Session::from_scenario(case);
        while s.run_step() {}
        let live = s.view();
        assert_eq!(live.batches.len(), after.len(), "{id}");
        assert!(after.len() >= 3, "{id}: too few batches to scrub");
        for (i, want) in after.iter().enumerate() {
            let id_i = live.batches[i].id;
            let got = s.view_as_of(id_i);
            assert_eq!(got.batches.last().map(|b| b.id), Some(id_i), "{id}");
            assert_eq!(seen(&got), seen(want), "{id}: as of batch {id_i}");
        }
        // Scrubbing changes nothing: the live view is the same afterwards.
        assert_eq!(s.view(), live);
    }
}

#[test]
fn the_classic_case_as_of_batch_1_holds_its_windows() {
    // Corpus case window-sliding-classic-append, step 0: events at 12:07, 12:08 (post 1 and 2)
    // and 12:14; 10-minute windows sliding by 5 minutes, 10-minute delay. Batch 0 reads them
    // (watermark 0 while it runs); the watermark becomes 12:14 − 10 min = 12:04, so batch 1 is
    // a no-data batch only if a window ends by 12:04 — none does ([12:00, 12:10) is the
    // earliest), so step 0 runs batch 0 alone.
    let mut s = Session::from_scenario(corpus("window-sliding-classic-append"));
    while s.run_step() {}
    let v0 = s.view_as_of(0);
    assert_eq!(v0.batches.len(), 1);
    assert_eq!(v0.watermark.as_deref(), Some("2026-01-01T12:04:00Z"));
    // Each event is in two windows: 12:07 and 12:08 in [12:00,12:10) and [12:05,12:15),
    // 12:14 in [12:05,12:15) and [12:10,12:20) — one state row per (window, post_id) pair.
    let total: u64 = v0.batches[0].metrics.iter().map(|m| m.total).sum();
    let rows: usize = v0.state.iter().map(|t| t.rows.len()).sum();
    assert_eq!(total as usize, rows);
    assert!(rows > 0);
}

#[test]
fn a_negative_delay_is_refused_beside_the_field_and_the_query_keeps_running() {
    let mut s = Session::from_scenario(corpus("window-sliding-classic-append"));
    while s.run_step() {}
    let before = s.view();
    let e = s.set_delay(0, "-5 minutes").unwrap_err();
    // Dataset.withWatermark's `require` (no error condition), in Spark's words.
    assert_eq!(
        e,
        "requirement failed: delay threshold (-5 minutes) should not be negative."
    );
    let after = s.view();
    assert_eq!(
        after, before,
        "the last good delay stays and nothing is replayed"
    );
    assert_eq!(after.delays, vec!["10 minutes".to_string()]);
    assert!(after.error.is_none());
    // The controls still work: the next good delay applies.
    s.set_delay(0, "5 minutes").unwrap();
    assert_eq!(s.view().delays, vec!["5 minutes".to_string()]);
}

#[test]
fn an_event_in_year_9999_is_one_undo_away_from_harmless() {
    let mut s = Session::from_scenario(corpus("window-sliding-classic-append"));
    s.run_step();
    s.run_step();
    let before = s.view();
    // The event is pushed and triggered: its batch moves the watermark to 9999-12-31 23:50.
    let fields = [
        ("event_id", "x"),
        ("user_id", "u"),
        ("post_id", "1"),
        ("event_time", "9999-12-31T23:59:59Z"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    s.push_event("clicks", &fields).unwrap();
    s.trigger();
    while s.batch_due() {
        s.trigger();
    }
    assert!(
        s.view()
            .watermark
            .unwrap()
            .starts_with("9999-12-31T23:49:59"),
        "{:?}",
        s.view().watermark
    );
    // Scrubbing back over it and forth works.
    let last = s.view().batches.last().unwrap().id;
    assert_eq!(
        s.view_as_of(last - 1).batches.len(),
        s.view().batches.len() - 1
    );
    // Undo the triggers: the batches and watermark are back; the event waits, unread.
    while s.view().batches.len() > before.batches.len() {
        assert!(s.undo());
    }
    assert_eq!(s.view().watermark, before.watermark);
    assert_eq!(s.view().state, before.state);
    // One more undo takes the event itself back: the lab is as before.
    assert!(s.undo());
    assert_eq!(s.view(), before);
}
