//! Synthetic workloads for the benchmarks: one per operator family, each a query with its
//! sources and a deterministic event generator. The native criterion benches
//! (`engine/benches/`) and the lab's `?bench` page (wasm, in the browser) run the same ones,
//! so their figures compare.
//!
//! Events: from 2026-01-01T12:00:00Z, one every 90 ms (so 20,000 events span 30 minutes),
//! over 100 posts and 1,000 users; event ids are unique.

use crate::frontend::Catalog;
use crate::scenario::{value_to_json, Scenario};
use crate::streaming::{OutputMode, StreamingConf, StreamingQuery};
use crate::types::{timestamp_type, DataType, Row, Value};

/// 2026-01-01T12:00:00Z in µs since the epoch.
pub const BASE_US: i64 = 1_767_268_800_000_000;
/// µs between two consecutive events.
pub const STEP_US: i64 = 90_000;

/// One benchmark workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Workload {
    /// Short name printed in the tables (`classic`, `session`, `dedup`, `join`, `stateless`).
    pub name: &'static str,
    /// What it runs, in a few words.
    pub about: &'static str,
    /// The PySpark query text.
    pub query: &'static str,
    /// The output mode the query runs in.
    pub mode: OutputMode,
}

/// The classic query of the programming guide: 10-minute windows sliding every 5 minutes, a
/// 10-minute watermark, append mode (two windows per event).
pub const CLASSIC: Workload = Workload {
    name: "classic",
    about: "windowed count: 10-min windows sliding 5 min, 10-min watermark, append",
    query: "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()",
    mode: OutputMode::Append,
};

/// Every workload, in the order the tables print them.
pub const ALL: [Workload; 5] = [
    CLASSIC,
    Workload {
        name: "session",
        about: "session windows: 5-min gap per user, 10-min watermark, append",
        query: "clicks.withWatermark('event_time', '10 minutes').groupBy(F.session_window('event_time', '5 minutes'), 'user_id').count()",
        mode: OutputMode::Append,
    },
    Workload {
        name: "dedup",
        about: "dropDuplicates(['event_id', 'event_time']) with a 10-min watermark",
        query: "clicks.withWatermark('event_time', '10 minutes').dropDuplicates(['event_id', 'event_time'])",
        mode: OutputMode::Append,
    },
    Workload {
        name: "join",
        about: "stream-stream inner join on user, orders within 15 min after the click, 10-min watermarks",
        query: "clicks.withWatermark('event_time', '10 minutes').select(F.col('user_id').alias('click_user'), 'event_id', 'event_time').join(orders.withWatermark('order_time', '10 minutes').select(F.col('user_id').alias('order_user'), 'order_id', 'order_time'), F.expr('click_user = order_user AND order_time >= event_time AND order_time <= event_time + interval 15 minutes'))",
        mode: OutputMode::Append,
    },
    Workload {
        name: "stateless",
        about: "filter and select, no state",
        query: "clicks.filter(F.col('post_id') < 50).select('event_id', 'user_id', 'event_time')",
        mode: OutputMode::Append,
    },
];

/// The sources every workload can read: `clicks` and `orders`.
pub fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![("event_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())],
    );
    c.streams.insert(
        "orders".into(),
        vec![("order_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("amount".into(), DataType::Float64), ("order_time".into(), timestamp_type())],
    );
    c
}

/// Click `i` (`event_id`, `user_id`, `post_id`, `event_time`), from event number `first`.
pub fn clicks(first: usize, n: usize) -> Vec<Row> {
    (first..first + n)
        .map(|i| {
            vec![
                Value::str(&format!("e{i}")),
                Value::str(&format!("u{}", i % 1000)),
                Value::Long((i % 100) as i64),
                Value::Timestamp(BASE_US + i as i64 * STEP_US),
            ]
        })
        .collect()
}

/// One order for every tenth click, by the same user, 2 minutes after it.
pub fn orders(first: usize, n: usize) -> Vec<Row> {
    (first..first + n)
        .filter(|i| i % 10 == 0)
        .map(|i| {
            vec![
                Value::str(&format!("o{i}")),
                Value::str(&format!("u{}", i % 1000)),
                Value::Double((i % 50) as f64 + 0.5),
                Value::Timestamp(BASE_US + i as i64 * STEP_US + 120_000_000),
            ]
        })
        .collect()
}

impl Workload {
    /// A started query over [`catalog`], with no data yet.
    ///
    /// # Panics
    /// If the workload's own query does not compile (a bug in this module).
    pub fn start(&self) -> StreamingQuery {
        StreamingQuery::start(self.query, &catalog(), self.mode, StreamingConf::default()).expect("a workload's query compiles")
    }

    /// Adds events `first..first + n` (clicks, and for the join their orders) as one block.
    ///
    /// # Panics
    /// If the rows do not fit the catalog (a bug in this module).
    pub fn add(&self, q: &mut StreamingQuery, first: usize, n: usize) {
        q.add_data("clicks", &clicks(first, n)).expect("clicks fit");
        if self.query.contains("orders") {
            q.add_data("orders", &orders(first, n)).expect("orders fit");
        }
    }

    /// A query holding `n` events, ready to run them as one micro-batch.
    pub fn loaded(&self, n: usize) -> StreamingQuery {
        let mut q = self.start();
        self.add(&mut q, 0, n);
        q
    }
}

/// The classic query over `events` clicks in `steps` equal steps, as a scenario: what the lab
/// replays when the learner moves the watermark delay.
///
/// # Panics
/// If the generated scenario does not read back (a bug in this module).
pub fn replay_scenario(events: usize, steps: usize) -> Scenario {
    let per_step = events / steps.max(1);
    let step_rows: Vec<serde_json::Value> = (0..steps)
        .map(|s| {
            let rows: Vec<serde_json::Value> = clicks(s * per_step, per_step)
                .iter()
                .map(|r| serde_json::json!({"event_id": value_to_json(&r[0]), "user_id": value_to_json(&r[1]), "post_id": value_to_json(&r[2]), "event_time": value_to_json(&r[3])}))
                .collect();
            serde_json::json!({ "clicks": rows })
        })
        .collect();
    let text = serde_json::json!({
        "id": "replay",
        "sources": {"clicks": {"schema": [["event_id", "string"], ["user_id", "string"], ["post_id", "long"], ["event_time", "timestamp"]]}},
        "steps": step_rows, "query": CLASSIC.query, "output_mode": "append"
    });
    Scenario::from_json(&text.to_string()).expect("a generated scenario reads")
}

/// The floor: what a plain hash aggregation of the classic query costs — each event counted in
/// its two sliding windows, keyed by (window start, post), no watermark, no state store, no
/// output. Returns the number of groups so the work cannot be optimised away.
pub fn classic_floor(events: &[Row]) -> usize {
    const SLIDE_US: i64 = 300_000_000;
    let mut counts: std::collections::HashMap<(i64, i64), u64> = std::collections::HashMap::with_capacity(events.len() / 4);
    for e in events {
        let (Value::Long(post), Value::Timestamp(t)) = (&e[2], &e[3]) else { continue };
        let last_start = t - t.rem_euclid(SLIDE_US);
        for start in [last_start - SLIDE_US, last_start] {
            *counts.entry((start, *post)).or_insert(0) += 1;
        }
    }
    counts.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_workload_runs_and_the_floor_counts_the_same_groups() {
        for w in ALL {
            let mut q = w.loaded(2_000);
            assert!(q.run_next_batch().is_some(), "{} ran no batch", w.name);
            assert!(q.exception().is_none(), "{}: {:?}", w.name, q.exception());
        }
        // 2,000 events over 180 s touch the 5-min-slide windows starting 11:55 and 12:00 for
        // each of the 100 posts: 200 groups, as the classic query's state holds after batch 0.
        let events = clicks(0, 2_000);
        assert_eq!(classic_floor(&events), 200);
        let mut q = CLASSIC.loaded(2_000);
        let b = q.run_next_batch().unwrap();
        assert_eq!(b.state[0].num_rows_total, 200);
    }

    #[test]
    fn the_replay_scenario_runs_every_step() {
        // One data batch per step: 50 steps of 20 events each.
        let r = crate::scenario::run(&replay_scenario(1_000, 50));
        assert!(r.error.is_none());
        assert_eq!(r.batches.iter().filter(|(_, b)| !b.no_data).count(), 50);
    }
}
