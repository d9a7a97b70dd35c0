//! Native tests of scrubbing (`LabSession::view_as_of`) and the delay controls: the lab as of a
//! past batch must be exactly what the lab showed right after that batch ran.
#![allow(clippy::disallowed_methods)] // a test may read files

use streamlab_engine::scenario::Scenario;
use streamlab_model::lab::session::{LabView, LabSession};

mod support;
use support::{corpus_lab, lab};

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
        "dedup-within-watermark-retransmit",
    ] {
        // A missing fixture is a failure, never a silent skip.
        let path = format!("{}/../engine/tests/spark/cases/{id}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let case = Scenario::from_json(&text).expect("scenario");
        // The reference: the same input, one trigger (one batch) at a time, looked at after each.
        let mut by_trigger = LabSession::from_scenario(case.clone());
        let mut after = Vec::new();
        while by_trigger.push_step() {
            while by_trigger.batch_due() {
                by_trigger.trigger();
                after.push(by_trigger.view());
            }
        }
        // The lab: "next step" until the end, then back to each batch.
        let mut s = LabSession::from_scenario(case);
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
fn a_negative_delay_is_refused_beside_the_field_and_the_query_keeps_running() {
    let mut s = corpus_lab("window-sliding-classic-append");
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
    let mut s = corpus_lab("window-sliding-classic-append");
    s.run_step();
    s.run_step();
    let before = s.view();
    // The watermark shortcut: one event at 9999-12-31 23:59:59 and every batch until idle.
    // The watermark jumps to that time − 10 minutes and every window is emitted and evicted.
    s.advance_with_event("clicks", "9999-12-31T23:59:59Z")
        .unwrap();
    let far = s.view();
    assert_eq!(far.watermark.as_deref(), Some("9999-12-31T23:49:59Z"));
    assert!(far.state.iter().all(|t| t
        .rows
        .iter()
        .all(|(_, st)| *st == streamlab_model::lab::session::RowStatus::Evicted
            || *st == streamlab_model::lab::session::RowStatus::Open)));
    // Scrubbing back over it works: as of the batch before, the watermark is the old one.
    let first_new = before.batches.len();
    assert_eq!(
        s.view_as_of(far.batches[first_new - 1].id).watermark,
        before.watermark
    );
    // One undo takes the run back: batches, watermark and state are as before; the event
    // waits as pending input, unread, and a second undo removes it.
    assert!(s.undo());
    let v = s.view();
    assert_eq!(
        (v.batches.clone(), v.watermark.clone(), v.state.clone()),
        (
            before.batches.clone(),
            before.watermark.clone(),
            before.state.clone()
        )
    );
    assert_eq!(v.pending.len(), 1);
    assert!(s.undo());
    assert_eq!(s.view(), before);
}

/// The classic preset (assets/scenarios/classic.json), worked out by hand; the e2e test moves
/// the delay slider and scrubs on the same numbers.
/// Events on 2026-03-02: step 0 c1 p1 09:02, c2 p2 09:06, c3 p1 09:13; step 1 c4 p2 09:08,
/// c5 p3 09:16; step 2 c6 p1 09:11, c7 p2 09:24. Windows: 10 minutes sliding by 5, so each
/// event is in two windows.
#[test]
fn the_classic_preset_under_the_delay_slider_and_the_batch_slider() {
    let rows = |s: &LabSession| -> Vec<(u64, Vec<String>)> {
        s.view()
            .batches
            .iter()
            .flat_map(|b| b.rows.iter().map(move |r| (b.id, r.clone())))
            .collect()
    };
    let cells = |v: &[&str]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let mut s =
        lab("classic");
    s.run_step();
    s.run_step();
    // Spark runs a no-data batch whenever the watermark moves (append-mode aggregation).
    // Delay 10 minutes: batch 0 → watermark 09:13 − 10 = 09:03, no-data batch 1 emits
    // nothing (no window ends by 09:03); batch 2 reads step 1 → 09:16 − 10 = 09:06, which
    // passes the end of [08:55, 09:05) only: no-data batch 3 emits (p1, 1).
    assert_eq!(rows(&s), vec![(3, cells(&["[08:55, 09:05)", "1", "1"]))]);
    // Delay 0: watermark 09:13 after batch 0; no-data batch 1 emits the three windows ending
    // by 09:13. Batch 2 reads c4 (09:08): its window [09:00, 09:10) ends before 09:13 and is
    // dropped (numRowsDroppedByWatermark 1), [09:05, 09:15) takes it (p2: c2 + c4 = 2).
    // Watermark 09:16: no-data batch 3 emits the two [09:05, 09:15) windows.
    s.set_delay(0, "0 seconds").unwrap();
    assert_eq!(
        rows(&s),
        vec![
            (1, cells(&["[08:55, 09:05)", "1", "1"])),
            (1, cells(&["[09:00, 09:10)", "1", "1"])),
            (1, cells(&["[09:00, 09:10)", "2", "1"])),
            (3, cells(&["[09:05, 09:15)", "1", "1"])),
            (3, cells(&["[09:05, 09:15)", "2", "2"])),
        ]
    );
    assert_eq!(s.view().batches[2].metrics[0].dropped, 1);
    // Back to 10 minutes (batches 0–3 as above), then every step. As of batch 3 (the no-data
    // batch at watermark 09:06) the state holds the windows of c1–c5 but the evicted
    // [08:55, 09:05) p1, shown once, greyed: [09:00, 09:10) p1 = 1 (c1), p2 = 2 (c2, c4);
    // [09:05, 09:15) p1 = 1 (c3), p2 = 2 (c2, c4); [09:10, 09:20) p1 = 1 (c3), p3 = 1 (c5);
    // [09:15, 09:25) p3 = 1 (c5). None ends by 09:06, so all 7 are open; the evicted row
    // shows no count.
    s.set_delay(0, "10 minutes").unwrap();
    while s.run_step() {}
    let v3 = s.view_as_of(3);
    let state: Vec<(Vec<String>, streamlab_model::lab::session::RowStatus)> =
        v3.state.iter().flat_map(|t| t.rows.clone()).collect();
    use streamlab_model::lab::session::RowStatus::{Evicted, Open};
    let mut got: Vec<(String, String, String, streamlab_model::lab::session::RowStatus)> = state
        .iter()
        .map(|(c, st)| (c[0].clone(), c[1].clone(), c[2].clone(), *st))
        .collect();
    got.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let want: Vec<(String, String, String, streamlab_model::lab::session::RowStatus)> = [
        ("[08:55, 09:05)", "1", "—", Evicted), // its value is gone
        ("[09:00, 09:10)", "1", "1", Open),
        ("[09:00, 09:10)", "2", "2", Open),
        ("[09:05, 09:15)", "1", "1", Open),
        ("[09:05, 09:15)", "2", "2", Open),
        ("[09:10, 09:20)", "1", "1", Open),
        ("[09:10, 09:20)", "3", "1", Open),
        ("[09:15, 09:25)", "3", "1", Open),
    ]
    .into_iter()
    .map(|(w, p, n, st)| (w.to_string(), p.to_string(), n.to_string(), st))
    .collect();
    assert_eq!(got, want);
    assert_eq!(v3.watermark.as_deref(), Some("2026-03-02T09:06:00Z"));
    // Live, the lab has moved on (c10 at 09:35 closed more windows).
    assert_ne!(s.view().state, v3.state);
}

#[test]
fn compare_modes_runs_the_same_input_in_each_mode() {
    use streamlab_engine::streaming::OutputMode;
    let mut s =
        lab("classic");
    s.run_step();
    s.run_step();
    let runs = s.compare_modes();
    assert_eq!(
        runs.iter().map(|r| r.mode).collect::<Vec<_>>(),
        OutputMode::ALL.to_vec()
    );
    let emitted = |r: &streamlab_model::lab::session::compare::ModeRun| {
        r.batches.iter().map(|b| b.rows.len()).collect::<Vec<_>>()
    };
    // Batches 0–3 as in the test above. Append: only [08:55, 09:05) p1, in no-data batch 3.
    assert_eq!(emitted(&runs[0]), vec![0, 0, 0, 1]);
    // Update: batch 0 changes the 6 (window, post) groups of c1–c3 (c1: [08:55,09:05),
    // [09:00,09:10) p1; c2: [09:00,09:10), [09:05,09:15) p2; c3: [09:05,09:15), [09:10,09:20)
    // p1); no-data batches change nothing; batch 2 changes [09:00,09:10) p2, [09:05,09:15) p2
    // (c4) and [09:10,09:20), [09:15,09:25) p3 (c5): 4 rows.
    assert_eq!(emitted(&runs[1]), vec![6, 0, 4, 0]);
    // Complete: the whole table every batch, and no no-data batches (the aggregation keeps its
    // state, so a moved watermark gives it nothing to do): batch 0 has 6 groups, batch 1 adds
    // p3's two (c5) — c4's two groups existed: 8.
    assert_eq!(emitted(&runs[2]), vec![6, 8]);
    assert!(runs.iter().all(|r| r.error.is_none()));
    assert!(runs[0].current && !runs[1].current);
    // Without a watermark, Spark rejects append for an aggregation.
    s.set_query("clicks.groupBy('post_id').count()");
    s.set_mode(OutputMode::Update);
    let runs = s.compare_modes();
    let e = runs[0].error.as_ref().expect("append is rejected");
    assert_eq!(
        e.error_class.as_deref(),
        Some("STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION")
    );
    assert!(runs[0].batches.is_empty());
    assert!(runs[1].error.is_none() && runs[2].error.is_none());
}
