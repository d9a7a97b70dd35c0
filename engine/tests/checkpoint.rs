//! The checkpoint's state versions (`checkpoint::StateVersions`): every retained version
//! loads back to exactly the state the live query held after that batch, older ones are
//! gone, and a restart after the snapshot moved on continues as if nothing happened. The
//! queries run through the test driver's step-by-step API (`support::Stream`).

mod support;

use std::collections::BTreeMap;

use streamlab_engine::checkpoint::StateVersion;
use streamlab_engine::execution::OperatorState;
use streamlab_engine::streaming::{OutputMode, SinkKind, StreamingConf};
use streamlab_engine::types::Row;
use streamlab_engine::workloads::{self, ALL};
use support::{test_stream, Start, Stream};

/// Every state row of every operator, as text, in key order.
fn dump(states: &BTreeMap<usize, OperatorState>) -> Vec<String> {
    let mut out = Vec::new();
    for (op, s) in states {
        match s {
            OperatorState::Aggregate(a) => out.extend(a.store.iter().map(|(k, v)| format!("{op} {k:?} {v:?}"))),
            OperatorState::Dedup(d) => out.extend(d.store.iter().map(|(k, v)| format!("{op} {k:?} {v:?}"))),
            OperatorState::Limit(l) => out.extend(l.store.iter().map(|(k, v)| format!("{op} {k:?} {v:?}"))),
            OperatorState::Session(x) => out.extend(x.store.iter().map(|(k, v)| format!("{op} {k:?} {v:?}"))),
            OperatorState::GroupState(g) => out.extend(g.store.iter().map(|(k, v)| format!("{op} {k:?} {v:?}"))),
            OperatorState::Tws(t) => out.extend(t.store.iter().map(|(k, v)| format!("{op} {k:?} {v:?}"))),
            OperatorState::StreamJoin(j) => {
                out.extend(j.left.iter().map(|(k, v)| format!("{op} L {k:?} {v:?}")));
                out.extend(j.right.iter().map(|(k, v)| format!("{op} R {k:?} {v:?}")));
            }
        }
    }
    out
}

fn conf() -> StreamingConf {
    let map = BTreeMap::from([
        ("spark.sql.streaming.stateStore.minDeltasForSnapshot".to_string(), "3".to_string()),
        ("spark.sql.streaming.minBatchesToRetain".to_string(), "7".to_string()),
    ]);
    StreamingConf::from_map(&map).expect("valid confs")
}

/// The workloads (windowed count, session windows, dedup, stream-stream join; all evict
/// with a 10-minute watermark) and a global limit, each as (query, mode).
fn queries() -> Vec<(&'static str, OutputMode)> {
    // Sessions here never close (every user clicks every 90 s, the gap is 5 minutes), so the
    // session workload runs in complete mode to emit rows.
    let mut q: Vec<(&'static str, OutputMode)> = ALL
        .iter()
        .filter(|w| w.name != "stateless")
        .map(|w| (w.query, if w.query.contains("session_window") { OutputMode::Complete } else { w.mode }))
        .collect();
    q.push(("clicks.limit(7000)", OutputMode::Append));
    q
}

/// 500 events a batch: 500 × 90 ms = 45 s of event time, so over 40 batches (30 minutes)
/// the 10-minute watermark evicts state while new keys arrive.
fn add(q: &mut Stream, batch: usize, with_orders: bool) {
    q.add_data("clicks", &workloads::clicks(batch * 500, 500)).expect("clicks fit");
    if with_orders {
        q.add_data("orders", &workloads::orders(batch * 500, 500)).expect("orders fit");
    }
}

#[test]
fn every_retained_version_loads_the_state_the_batch_left() {
    for (text, mode) in queries() {
        let mut q = test_stream(text, mode, workloads::catalog()).conf(conf()).start().expect("query");
        let with_orders = text.contains("orders");
        // live[v] = the state after the batch that committed version v.
        let mut live: Vec<Vec<String>> = vec![Vec::new()];
        for b in 0..40 {
            add(&mut q, b, with_orders);
            let r = q.run_batch().expect("a batch");
            assert_eq!(r.batch_id as usize, live.len() - 1);
            live.push(dump(q.query().states()));
            // No-data batches (eviction) commit versions too.
            while let Some(r) = q.run_batch() {
                assert!(r.no_data);
                live.push(dump(q.query().states()));
            }
        }
        let versions = &q.checkpoint().state;
        let latest = versions.latest_version();
        assert_eq!(latest as usize, live.len() - 1, "{text}");
        assert!(live.iter().any(|s| !s.is_empty()), "{text}: the query keeps state");
        // Retained: latest - 7 ..= latest. The snapshot is the newest multiple of 3 at or
        // below latest - 7, so between 0 and 2 more versions load.
        let snapshot = (latest - 7) / 3 * 3;
        assert_eq!(versions.oldest_version(), snapshot, "{text}");
        assert_eq!(versions.delta_count() as u64, latest - snapshot, "{text}");
        for v in snapshot..=latest {
            let loaded: StateVersion = versions.load(v).unwrap_or_else(|| panic!("{text}: version {v} is retained"));
            assert_eq!(dump(&loaded), live[v as usize], "{text}: version {v}");
        }
        assert!(versions.load(snapshot - 1).is_none(), "{text}: version {} was cleaned up", snapshot - 1);
        // The logs keep batches latest - 1 - 7 ..= latest - 1 (batch N commits version N + 1).
        assert_eq!(q.checkpoint().offsets.len(), 8, "{text}");
        assert_eq!(q.checkpoint().commits.first().map(|c| c.batch_id), Some(latest - 1 - 7), "{text}");
    }
}

/// Stop after 40 batches (the snapshot has moved many times), restart on the checkpoint, run
/// 10 more: the output equals an uninterrupted run's.
#[test]
fn restart_after_snapshots_moved_continues_exactly() {
    for (text, mode) in queries() {
        let with_orders = text.contains("orders");
        let run = |stop_at: Option<usize>| -> Vec<Vec<Row>> {
            let mut q = test_stream(text, mode, workloads::catalog()).conf(conf()).sink(SinkKind::ForeachBatchIdempotent).start().expect("query");
            let mut out = Vec::new();
            for b in 0..50 {
                if Some(b) == stop_at {
                    q.stop();
                    q.start_again(Start::same()).expect("restart");
                }
                add(&mut q, b, with_orders);
                out.extend(q.process_all_available().iter().map(|r| r.rows.clone()));
            }
            out
        };
        let straight = run(None);
        assert!(straight.iter().any(|rows| !rows.is_empty()), "{text}: the query emits rows");
        assert_eq!(run(Some(40)), straight, "{text}");
    }
}
