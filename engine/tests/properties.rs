//! Property tests of the micro-batch semantics (spec §2, §3, §5, §6): random events, random
//! splits into micro-batches, and an independent model written here with plain integer
//! arithmetic. Each batch is `AddData` followed by `ProcessAllAvailable` (a `testStream`
//! script, `support`), as a default trigger does.
//!
//! Case counts are kept at 128 per property: the file runs in about a second in a debug build,
//! and the rarer boundary cases (an event time exactly at a watermark or dedup expiry) still
//! come up in most runs.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::Config;
use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::{BatchResult, OutputMode, StreamingQuery};
use streamlab_engine::types::{parse_timestamp_us, timestamp_type, DataType, Row, Value};

mod support;

use support::{test_stream, AddData, ProcessAllAvailable, MIN_US, SEC_US};

/// The delay of every `withWatermark('event_time', '10 minutes')` below, in ms.
const DELAY_MS: i64 = 10 * 60 * 1000;
/// Events fall in [BASE, BASE + 2 h).
const RANGE_S: i64 = 2 * 60 * 60;

fn base_us() -> i64 {
    parse_timestamp_us("2026-01-01T12:00:00Z").expect("valid timestamp")
}

fn config() -> Config {
    // No regression files: a failure is reported with its shrunk input instead.
    Config { cases: 128, failure_persistence: None, ..Config::default() }
}

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![("event_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())],
    );
    c
}

/// One click. `id` is the event id; resent copies keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ev {
    id: u32,
    post: i64,
    /// µs since the epoch.
    ts_us: i64,
}

impl Ev {
    fn row(self) -> Row {
        vec![Value::str(&format!("e{}", self.id)), Value::Long(self.post), Value::Timestamp(self.ts_us)]
    }
}

/// An event time offset in seconds within the 2-hour range. Half land on a 10-minute
/// boundary, so that window ends, watermarks (max - 10 minutes), event times and dedup
/// expiries (t + 10 minutes) coincide often enough to test the inclusive `<=` / `>=` of the
/// late and eviction predicates.
fn offset_s() -> impl Strategy<Value = i64> {
    prop_oneof![0i64..RANGE_S, (0i64..RANGE_S / 600).prop_map(|k| k * 600)]
}

/// Unique events: post_id in 1..5, event time in a 2-hour range at second granularity,
/// event_id = position (so unique).
fn events(max: usize) -> impl Strategy<Value = Vec<Ev>> {
    prop::collection::vec((1i64..5, offset_s()), 1..max).prop_map(|v| {
        let base = base_us();
        v.into_iter()
            .enumerate()
            .map(|(i, (post, s))| Ev { id: i as u32, post, ts_us: base + s * SEC_US })
            .collect()
    })
}

/// Cut points that split a sequence into 1..=6 consecutive batches (some may be empty; an
/// empty `add_data` adds nothing, as in Spark).
fn cuts() -> impl Strategy<Value = Vec<Index>> {
    prop::collection::vec(any::<Index>(), 0..6)
}

fn split<T: Clone>(items: &[T], cuts: &[Index]) -> Vec<Vec<T>> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c.index(items.len() + 1)).collect();
    points.sort_unstable();
    let mut out = Vec::new();
    let mut prev = 0;
    for p in points.into_iter().chain(std::iter::once(items.len())) {
        out.push(items[prev..p].to_vec());
        prev = p;
    }
    out
}

/// Each batch: `AddData`, then `ProcessAllAvailable`. Returns the query and every batch that ran.
fn run(query: &str, mode: OutputMode, batches: &[Vec<Ev>]) -> (StreamingQuery, Vec<BatchResult>) {
    let script = batches.iter().flat_map(|b| [AddData("clicks", b.iter().map(|e| e.row()).collect()), ProcessAllAvailable]).collect();
    let (q, results) = test_stream(query, mode, catalog()).run(script).into_parts();
    (q.unwrap_or_else(|| panic!("{query}: the query is not running")), results)
}

fn col(q: &StreamingQuery, name: &str) -> usize {
    q.plan().output.iter().position(|a| a.name == name).unwrap_or_else(|| panic!("no output column {name}"))
}

fn ts_of(v: &Value) -> i64 {
    match v {
        Value::Timestamp(t) => *t,
        other => panic!("expected a timestamp, got {other:?}"),
    }
}

fn window_of(v: &Value) -> (i64, i64) {
    match v {
        Value::Struct(f) if f.len() == 2 => (ts_of(&f[0]), ts_of(&f[1])),
        other => panic!("expected a window struct, got {other:?}"),
    }
}

fn long_of(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("expected a whole number, got {v:?}"))
}

/// Input rows of a batch, read back as events. Also checks that `last_input_row` (one row
/// decoded) is the last row of the whole decode.
fn batch_events(b: &BatchResult) -> Vec<Ev> {
    assert_eq!(b.last_input_row(), b.input_by_source().values().flatten().last().cloned(), "batch {}", b.batch_id);
    b.input_by_source()
        .get("clicks")
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    let id = match &r[0] {
                        Value::Str(s) => s[1..].parse().expect("id"),
                        other => panic!("event_id {other:?}"),
                    };
                    Ev { id, post: long_of(&r[1]), ts_us: ts_of(&r[2]) }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The windows of `window(ts, window, slide)` with startTime 0, per spec §3.2.
///
/// `last_start = floor(ts / slide) * slide` is the largest slide-aligned start <= ts
/// (`div_euclid` is a true floor, also for negative times). The candidates are
/// `last_start - i*slide` for i in 0..ceil(window/slide); a candidate is kept when
/// `start <= ts < start + window` (start inclusive, end exclusive). For a 10-minute window
/// sliding by 5 minutes that is always exactly two windows: [ls, ls+10m) and [ls-5m, ls+5m).
fn model_windows(ts: i64, window: i64, slide: i64) -> Vec<(i64, i64)> {
    let last_start = ts.div_euclid(slide) * slide;
    let n = (window + slide - 1) / slide;
    (0..n)
        .map(|i| last_start - i * slide)
        .filter(|s| *s <= ts && ts < s + window)
        .map(|s| (s, s + window))
        .collect()
}

/// Complete-mode result of `groupBy(window(...), 'post_id').count()` recomputed from scratch.
/// Complete mode never drops late rows (spec §5.2), so every event counts.
fn model_complete(all: &[Ev], window: i64, slide: i64) -> BTreeMap<(i64, i64, i64), i64> {
    let mut m = BTreeMap::new();
    for e in all {
        for (s, end) in model_windows(e.ts_us, window, slide) {
            *m.entry((s, end, e.post)).or_insert(0) += 1;
        }
    }
    m
}

/// A (window, post_id) → count result table, asserting each key appears once.
fn window_counts(q: &StreamingQuery, rows: &[Row]) -> Result<BTreeMap<(i64, i64, i64), i64>, TestCaseError> {
    let (w, p, c) = (col(q, "window"), col(q, "post_id"), col(q, "count"));
    let mut m = BTreeMap::new();
    for r in rows {
        let (s, e) = window_of(&r[w]);
        let prev = m.insert((s, e, long_of(&r[p])), long_of(&r[c]));
        prop_assert!(prev.is_none(), "key ({s}, {e}, {}) appears twice in one batch", long_of(&r[p]));
    }
    Ok(m)
}

const SLIDING_COMPLETE: &str = "clicks.groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()";
const SLIDING_COMPLETE_WM: &str =
    "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()";
const TUMBLING_WM: &str = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()";
const DEDUP: &str = "clicks.withWatermark('event_time', '10 minutes').dropDuplicates(['event_id', 'event_time'])";
const DEDUP_WITHIN: &str = "clicks.withWatermark('event_time', '10 minutes').dropDuplicatesWithinWatermark(['event_id'])";

/// (a) The last batch of a complete-mode windowed count equals a recomputation over all events.
fn check_complete_matches_model(query: &str, evs: &[Ev], cuts: &[Index]) -> Result<(), TestCaseError> {
    let batches = split(evs, cuts);
    let (q, results) = run(query, OutputMode::Complete, &batches);
    let last = results.last().expect("at least one event, so at least one batch");
    let got = window_counts(&q, &last.rows)?;
    let want = model_complete(evs, 10 * MIN_US, 5 * MIN_US);
    prop_assert_eq!(got, want);
    Ok(())
}

/// Events plus re-sent copies: each copy has the id of an earlier event and its event time
/// shifted by 0 (an exact duplicate), by exactly the delay (10 minutes, the
/// dropDuplicatesWithinWatermark expiry boundary) or by 1..60 minutes, and arrives somewhere
/// after it.
fn with_resends() -> impl Strategy<Value = Vec<Ev>> {
    (events(30), prop::collection::vec((any::<Index>(), any::<Index>(), prop_oneof![Just(0i64), Just(10i64), 1i64..60]), 0..12)).prop_map(
        |(mut seq, resends)| {
            let originals = seq.clone();
            for (src, pos, shift_min) in resends {
                let original = originals[src.index(originals.len())];
                let at = seq.iter().position(|e| e.id == original.id).expect("present");
                let insert_at = at + 1 + pos.index(seq.len() - at);
                seq.insert(insert_at, Ev { ts_us: original.ts_us + shift_min * MIN_US, ..original });
            }
            seq
        },
    )
}

/// Rows of a dedup query's output as events.
fn out_events(q: &StreamingQuery, rows: &[Row]) -> Vec<Ev> {
    let (i, p, t) = (col(q, "event_id"), col(q, "post_id"), col(q, "event_time"));
    rows.iter()
        .map(|r| {
            let id = match &r[i] {
                Value::Str(s) => s[1..].parse().expect("id"),
                other => panic!("event_id {other:?}"),
            };
            Ev { id, post: long_of(&r[p]), ts_us: ts_of(&r[t]) }
        })
        .collect()
}

fn sorted(mut v: Vec<Ev>) -> Vec<(u32, i64, i64)> {
    let mut out: Vec<(u32, i64, i64)> = v.drain(..).map(|e| (e.id, e.post, e.ts_us)).collect();
    out.sort_unstable();
    out
}

proptest! {
    #![proptest_config(config())]

    /// (a) without a watermark.
    #[test]
    fn complete_sliding_count_equals_recomputation(evs in events(40), cuts in cuts()) {
        check_complete_matches_model(SLIDING_COMPLETE, &evs, &cuts)?;
    }

    /// (a) with a watermark: Complete mode ignores it for dropping and eviction (spec §5.2),
    /// even when events arrive far behind it.
    #[test]
    fn complete_sliding_count_with_watermark_equals_recomputation(evs in events(40), cuts in cuts()) {
        check_complete_matches_model(SLIDING_COMPLETE_WM, &evs, &cuts)?;
    }

    /// (b) Append mode, tumbling 10-minute window, 10-minute delay.
    #[test]
    fn append_tumbling_emits_each_window_once_with_non_late_count(evs in events(40), cuts in cuts()) {
        const W: i64 = 10 * MIN_US;
        let tumbling = |ts: i64| {
            let s = ts.div_euclid(W) * W;
            (s, s + W)
        };
        let mut batches = split(&evs, &cuts);
        // A final event far in the future closes every window of the 2-hour range.
        let far = Ev { id: evs.len() as u32, post: 1, ts_us: base_us() + 10 * 60 * MIN_US };
        batches.push(vec![far]);
        let (q, results) = run(TUMBLING_WM, OutputMode::Append, &batches);

        // Non-late events per (window, post_id): late iff window end <= the watermark of the
        // previous batch (spec §2.4, §2.5), as the batch reports it in late_watermark_ms.
        let mut non_late: BTreeMap<(i64, i64, i64), i64> = BTreeMap::new();
        let mut emitted: BTreeMap<(i64, i64, i64), i64> = BTreeMap::new();
        for b in &results {
            for e in batch_events(b) {
                let (s, end) = tumbling(e.ts_us);
                if end > b.late_watermark_ms * 1000 {
                    *non_late.entry((s, end, e.post)).or_insert(0) += 1;
                }
            }
            for (k, c) in window_counts(&q, &b.rows)? {
                prop_assert!(emitted.insert(k, c).is_none(), "window {:?} emitted twice (again in batch {})", k, b.batch_id);
                prop_assert!(k.1 <= b.watermark_ms.expect("watermarked") * 1000, "window {:?} emitted before the watermark passed its end", k);
            }
        }
        for (k, c) in &emitted {
            prop_assert_eq!(Some(c), non_late.get(k), "count of window {:?}", k);
        }
        let final_wm = q.current_watermark_ms();
        prop_assert_eq!(results.last().and_then(|b| b.watermark_ms), Some(final_wm), "the last batch evicts with the final watermark");
        let want: BTreeSet<(i64, i64, i64)> = non_late.keys().filter(|k| k.1 <= final_wm * 1000).copied().collect();
        let got: BTreeSet<(i64, i64, i64)> = emitted.keys().copied().collect();
        prop_assert_eq!(got, want);
    }

    /// (c) The watermark never decreases, the late watermark of batch N is the watermark of
    /// batch N-1 (0 for batch 0), and the watermark equals max(event time seen) - delay
    /// (spec §2.3), for every query with a watermark.
    #[test]
    fn watermark_is_monotonic_and_follows_max_event_time(evs in with_resends(), cuts in cuts(), which in 0usize..6) {
        let (query, mode) = [
            (SLIDING_COMPLETE_WM, OutputMode::Complete),
            (TUMBLING_WM, OutputMode::Append),
            ("clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()", OutputMode::Update),
            (DEDUP, OutputMode::Append),
            (DEDUP_WITHIN, OutputMode::Append),
            ("clicks.withWatermark('event_time', '10 minutes').filter(F.col('post_id') > 2)", OutputMode::Append),
        ][which];
        let (_, results) = run(query, mode, &split(&evs, &cuts));
        // The filter of the last query reads no event time, so Spark runs it below
        // withWatermark (PushPredicateThroughNonJoin): only the rows it keeps move the watermark.
        let moves_watermark = |e: &Ev| which != 5 || e.post > 2;
        let mut model_next_wm = 0i64;
        let mut prev: Option<i64> = None;
        for b in &results {
            let wm = b.watermark_ms.expect("the query has a watermark");
            if let Some(p) = prev {
                prop_assert!(wm >= p, "{}: watermark went from {} to {} in batch {}", query, p, wm, b.batch_id);
            }
            prop_assert_eq!(b.late_watermark_ms, prev.unwrap_or(0), "{}: late watermark of batch {}", query, b.batch_id);
            prop_assert_eq!(wm, model_next_wm, "{}: watermark of batch {}", query, b.batch_id);
            if let Some(max) = batch_events(b).iter().filter(|e| moves_watermark(e)).map(|e| e.ts_us / 1000).max() {
                model_next_wm = model_next_wm.max(max - DELAY_MS);
            }
            prev = Some(wm);
        }
    }

    /// (d) dropDuplicates(['event_id', 'event_time']) with a watermark: a key is never
    /// emitted twice (its eviction happens only once the watermark passes its event time, and
    /// any later copy is then late), no late row is emitted, and per batch the output is
    /// exactly what spec §6.1's loop gives.
    #[test]
    fn drop_duplicates_never_emits_a_key_twice(evs in with_resends(), cuts in cuts()) {
        let (q, results) = run(DEDUP, OutputMode::Append, &split(&evs, &cuts));
        let mut seen_out: BTreeSet<(u32, i64)> = BTreeSet::new();
        let mut model_state: BTreeSet<(u32, i64)> = BTreeSet::new();
        for b in &results {
            let out = out_events(&q, &b.rows);
            for e in &out {
                prop_assert!(seen_out.insert((e.id, e.ts_us)), "key (e{}, {}) emitted twice, again in batch {}", e.id, e.ts_us, b.batch_id);
                prop_assert!(e.ts_us > b.late_watermark_ms * 1000, "late row e{} emitted in batch {}", e.id, b.batch_id);
            }
            let mut want = Vec::new();
            for e in batch_events(b) {
                if e.ts_us <= b.late_watermark_ms * 1000 {
                    continue;
                }
                if model_state.insert((e.id, e.ts_us)) {
                    want.push(e);
                }
            }
            // Eviction (keys with event_time <= wm(N)) is not modelled: a later copy of an
            // evicted key is late anyway, so the emitted rows are the same.
            prop_assert_eq!(sorted(out), sorted(want), "batch {}", b.batch_id);
        }
    }

    /// (d) dropDuplicatesWithinWatermark(['event_id']): a key first emitted with event time t
    /// is not emitted again while the watermark < t + delay (spec §6.2: the entry expires when
    /// evictWm >= t + delay; a batch sees the entry unless the previous batch's watermark
    /// reached the expiry). Also, per batch, the output is exactly spec §6.2's loop.
    #[test]
    fn drop_duplicates_within_watermark_respects_retention(evs in with_resends(), cuts in cuts()) {
        let (q, results) = run(DEDUP_WITHIN, OutputMode::Append, &split(&evs, &cuts));
        let mut last_emitted: BTreeMap<u32, i64> = BTreeMap::new();
        let mut model_state: BTreeMap<u32, i64> = BTreeMap::new();
        for b in &results {
            let out = out_events(&q, &b.rows);
            let mut in_batch = BTreeSet::new();
            for e in &out {
                prop_assert!(in_batch.insert(e.id), "e{} emitted twice in batch {}", e.id, b.batch_id);
                if let Some(t) = last_emitted.get(&e.id) {
                    prop_assert!(
                        b.late_watermark_ms * 1000 >= t + DELAY_MS * 1000,
                        "e{} emitted at {} and again in batch {} while the watermark {} < {} + delay",
                        e.id, t, b.batch_id, b.late_watermark_ms, t / 1000
                    );
                }
                last_emitted.insert(e.id, e.ts_us);
            }
            let mut want = Vec::new();
            for e in batch_events(b) {
                if e.ts_us <= b.late_watermark_ms * 1000 || model_state.contains_key(&e.id) {
                    continue;
                }
                model_state.insert(e.id, e.ts_us + DELAY_MS * 1000);
                want.push(e);
            }
            let evict_us = b.watermark_ms.expect("watermarked") * 1000;
            model_state.retain(|_, expires| evict_us < *expires);
            prop_assert_eq!(sorted(out), sorted(want), "batch {}", b.batch_id);
        }
    }

    /// (e) Complete mode: the final result table does not depend on how the same events are
    /// split into batches.
    #[test]
    fn complete_result_is_independent_of_batch_split(evs in events(40), cuts_a in cuts(), cuts_b in cuts(), wm in any::<bool>()) {
        let query = if wm { SLIDING_COMPLETE_WM } else { SLIDING_COMPLETE };
        let (qa, ra) = run(query, OutputMode::Complete, &split(&evs, &cuts_a));
        let (qb, rb) = run(query, OutputMode::Complete, &split(&evs, &cuts_b));
        // All in one batch, too.
        let (qc, rc) = run(query, OutputMode::Complete, std::slice::from_ref(&evs));
        let a = window_counts(&qa, &ra.last().expect("batch").rows)?;
        let b = window_counts(&qb, &rb.last().expect("batch").rows)?;
        let c = window_counts(&qc, &rc.last().expect("batch").rows)?;
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(&a, &c);
    }
}
