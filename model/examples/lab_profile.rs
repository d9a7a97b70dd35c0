//! Where a lab change spends its time, natively (the browser adds the page's own work on top):
//! the delay slider over the 1,000-event classic scenario the end-to-end test drags (replay,
//! against the kept replay swapped in, view, picture and the saved JSON, each ms per step, mean
//! of 20 steps; the stops made ahead as the idle page does), and one step with
//! 10,000 state rows. A profiling aid, not a test:
//!
//!     cargo run --release -p streamlab-model --example lab_profile
//!
//! (`perf record --call-graph dwarf target/release/examples/lab_profile` shows the callers;
//! `NO_10K=1` leaves out the 10,000-row step, so the profile is the slider's alone.)

#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::time::Instant;
use streamlab_model::lab::session::timeline::DELAY_STOPS;
use streamlab_model::lab::session::LabSession;

fn main() {
    let classic = std::fs::read_to_string("assets/scenarios/classic.json").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&classic).unwrap();
    let mut steps = vec![];
    let base = 1_772_442_000i64; // 2026-03-02T09:00:00Z, s
    for s in 0..50 {
        let mut clicks = vec![];
        for j in 0..20 {
            let i = s * 20 + j;
            let t = base + i * 15 - if i % 10 == 9 { 1200 } else { 0 };
            let ts = chrono_like(t);
            clicks.push(serde_json::json!({"event_id": format!("e{i}"), "user_id": format!("u{}", i % 13), "post_id": i % 7, "event_time": ts}));
        }
        steps.push(serde_json::json!({"clicks": clicks}));
    }
    v["steps"] = serde_json::Value::Array(steps);
    let mut s = LabSession::from_json(&v.to_string()).unwrap();
    while s.run_step() {}
    println!("batches {}", s.view().batches.len());
    let mut t = [0f64; 7];
    // Every stop made ahead, as the page does while it is idle.
    let a = Instant::now();
    let mut prepared = 0;
    while s.prepare_next_stop() {
        prepared += 1;
    }
    let prepare_ms = a.elapsed().as_secs_f64() * 1e3;
    for i in 0..20 {
        // The slider's stops 4..13, as the end-to-end test moves it.
        let d = DELAY_STOPS[4 + i % 10];
        // A replay (a copy keeps no other delays), then the kept one swapped in.
        let mut fresh = s.clone();
        let a = Instant::now();
        fresh.set_delay(0, d).unwrap();
        let b = Instant::now();
        s.set_delay(0, d).unwrap();
        let c = Instant::now();
        let view = s.view();
        let d1 = Instant::now();
        let p = s.picture();
        let d2 = Instant::now();
        let j = s.to_saved_json();
        let e = Instant::now();
        std::hint::black_box((&view, &p, &j, &fresh));
        t[0] += (b - a).as_secs_f64(); t[5] += (c - b).as_secs_f64(); t[1] += (d1 - c).as_secs_f64(); t[2] += (d2 - d1).as_secs_f64(); t[3] += (e - d2).as_secs_f64();
        t[4] = j.len() as f64;
    }
    if std::env::var_os("NO_10K").is_none() { ten_k(); }
    println!("per step ms: set_delay replaying {:.2}, swapping in the kept replay {:.3}  view {:.2}  picture {:.2}  saved_json {:.2}  (json {} bytes); {prepared} stops made ahead in {prepare_ms:.1} ms", t[0]/20.0*1e3, t[5]/20.0*1e3, t[1]/20.0*1e3, t[2]/20.0*1e3, t[3]/20.0*1e3, t[4]);
}

fn ten_k() {
    let day = 1_772_409_600i64; // 2026-03-02T00:00:00Z, s
    let first: Vec<serde_json::Value> = (0..10_000).map(|i| serde_json::json!({"event_id": format!("k{i}"), "event_time": chrono_like(day + 9 * 3600 + i)})).collect();
    let sc = serde_json::json!({"id": "state-10k", "sources": {"clicks": {"schema": [["event_id", "string"], ["event_time", "timestamp"]]}},
        "query": "clicks.groupBy('event_id').count()", "output_mode": "update",
        "steps": [{"clicks": first}, {"clicks": [{"event_id": "k0", "event_time": "2026-03-02T12:00:00Z"}]}]});
    let mut s = LabSession::from_json(&sc.to_string()).unwrap();
    s.run_step();
    let a = Instant::now();
    s.run_step();
    let b = Instant::now();
    let view = s.view();
    let c = Instant::now();
    let p = s.picture();
    let d = Instant::now();
    std::hint::black_box((&view, &p));
    println!("10k state rows step ms: run_step {:.2}  view {:.2}  picture {:.2}", (b - a).as_secs_f64() * 1e3, (c - b).as_secs_f64() * 1e3, (d - c).as_secs_f64() * 1e3);
}

/// `t` (s since the epoch, on 2026-03-02) as the scenario format's UTC time.
fn chrono_like(t: i64) -> String {
    let sod = t.rem_euclid(86_400);
    format!("2026-03-02T{:02}:{:02}:{:02}Z", sod / 3600, sod % 3600 / 60, sod % 60)
}
