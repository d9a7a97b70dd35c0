//! Grammar-driven fuzzing of the frontend and the engine, as an ordinary test binary
//! (coverage-guided `cargo fuzz` needs a nightly toolchain this project does not use).
//!
//! - `frontend`: random PySpark query text generated from the grammar the lab reads (calls,
//!   columns, operators, SQL strings, interval strings, deep nesting), often mangled by byte
//!   edits, through `compile` and `StreamingQuery::start` in every output mode.
//! - `engine`: random streaming queries that mostly compile (watermarks, windows, sessions,
//!   aggregations, deduplication, joins, filters) × random events × random batch splits ×
//!   random stop-and-restart on the checkpoint.
//!
//! Each input must not panic and must finish within a second (ten in a debug build); in the
//! engine the watermark never goes back, and in complete mode the last result table equals a
//! recomputation over all input at once (complete mode drops and evicts nothing).
//!
//! The normal suite runs a few hundred inputs per target. The long run:
//! `STREAMLAB_FUZZ_ITERS=1000000 cargo test --release -p streamlab-engine --test fuzz -- --nocapture`
//! (`STREAMLAB_FUZZ_SEED` picks another base seed; every finding prints the seed that
//! reproduces it with `STREAMLAB_FUZZ_ONE=<seed>`).
//!
//! The queries start, run and restart through the test driver's step-by-step API
//! (`support::Stream`): the input is random, so there is no fixed script.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use streamlab_engine::frontend::{compile, Catalog};
use streamlab_engine::scenario::value_to_json;
use streamlab_engine::streaming::{BatchResult, OutputMode, SinkKind};
use streamlab_engine::types::{timestamp_type, DataType, Row, Value};
use support::{test_stream, Start};

/// SplitMix64: small, fast and deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// What the engine target exercised: queries started, batches run, restarts, complete-mode
/// results checked against a recomputation.
static STARTED: AtomicU64 = AtomicU64::new(0);
static BATCHES: AtomicU64 = AtomicU64::new(0);
static RESTARTS: AtomicU64 = AtomicU64::new(0);
static RECOMPUTED: AtomicU64 = AtomicU64::new(0);

fn seed_for(base: u64, i: u64) -> u64 {
    Rng(base ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03)).next()
}

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())],
    );
    c.streams.insert("views".into(), vec![("view_post".into(), DataType::Int64), ("view_time".into(), timestamp_type())]);
    c
}

// ------------------------------------------------------------------------------------------
// Generators

const COLS: &[&str] = &["user_id", "post_id", "event_time", "window", "count", "nope", "view_post", "view_time", "*"];
const INTERVALS: &[&str] = &[
    "10 minutes", "5 minutes", "1 minute", "30 seconds", "1 hour", "0 seconds", "-5 minutes", "1 day -1 hour",
    "interval 10 minutes", "interval '10' minute", "1.5 seconds", "1.5 minutes", "1 month", "2 years 5 months",
    "200000000 days", "106751991 days", "9223372036854775807 microseconds", "ten minutes", "", " ", "10",
    "1 hour -70 minutes", "10 minutes 10 minutes", "1 microsecond", "1 millisecond", "- 10 minutes",
];
const SQL: &[&str] = &[
    "post_id > 1", "post_id % 2 = 0", "user_id LIKE 'u%'", "user_id RLIKE '^u[0-9]+$'", "post_id IS NOT NULL",
    "post_id BETWEEN 1 AND 3", "post_id IN (1, 2, 3)", "NOT (post_id = 2)", "CAST(post_id AS STRING) = '1'",
    "event_time > TIMESTAMP '2026-01-01 12:05:00'", "event_time + INTERVAL 5 MINUTES > event_time",
    "upper(user_id) = 'U1'", "post_id + 1 > 2 AND post_id < 5 OR user_id = 'u2'", "coalesce(post_id, 0) >= 0",
    "CASE WHEN post_id > 2 THEN 'hi' ELSE 'lo' END = 'hi'", "((post_id))", "post_id +", "'unclosed", "post_id = = 1",
];

fn interval(r: &mut Rng) -> String {
    format!("'{}'", r.pick(INTERVALS))
}

/// A column expression, up to `depth` levels.
fn column(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.chance(30) {
        return match r.below(5) {
            0 => format!("F.col('{}')", r.pick(COLS)),
            1 => format!("'{}'", r.pick(COLS)),
            2 => format!("F.lit({})", r.pick(&["1", "2.5", "'x'", "True", "None", "-3"])),
            3 => format!("clicks.{}", r.pick(&["post_id", "user_id", "event_time"])),
            _ => format!("F.expr(\"{}\")", r.pick(SQL)),
        };
    }
    let d = depth - 1;
    match r.below(16) {
        0 => format!("({} {} {})", column(r, d), r.pick(&["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&", "|"]), column(r, d)),
        1 => format!("~{}", column(r, d)),
        2 => format!("-{}", column(r, d)),
        3 => format!("F.window({}, {}{})", column(r, 0), interval(r), if r.chance(50) { format!(", {}", interval(r)) } else { String::new() }),
        4 => format!("F.window('event_time', {}, {}, {})", interval(r), interval(r), interval(r)),
        5 => format!("F.session_window('event_time', {})", interval(r)),
        6 => format!("F.{}({})", r.pick(&["upper", "lower", "abs", "round", "length", "ceil", "floor", "coalesce", "window_time"]), column(r, d)),
        7 => format!("{}.alias('{}')", column(r, d), r.pick(&["a", "b", "count", "post_id"])),
        8 => format!("F.when({}, {}).otherwise({})", column(r, d), column(r, d), column(r, d)),
        9 => format!("{}.{}('{}')", column(r, d), r.pick(&["like", "rlike", "contains", "startswith"]), r.pick(&["u%", "%%%%%%%%%%%%%%%%%%%%x", "_1", "^u.*$", "(", "\\\\", "a\\\\_b"])),
        10 => format!("{}.cast('{}')", column(r, d), r.pick(&["string", "long", "int", "double", "timestamp", "boolean", "nonsense"])),
        11 => format!("F.{}({})", r.pick(&["count", "sum", "avg", "min", "max", "approx_count_distinct", "countDistinct"]), column(r, d)),
        12 => format!("{}.{}()", column(r, d), r.pick(&["isNull", "isNotNull", "desc", "asc"])),
        13 => format!("{}.isin({}, {})", column(r, d), r.below(5), r.below(5)),
        14 => format!("({},)", column(r, d)),
        _ => format!("F.expr(\"{}\")", r.pick(SQL)),
    }
}

/// A DataFrame expression, up to `depth` calls deep.
fn dataframe(r: &mut Rng, depth: u32) -> String {
    let mut df = r.pick(&["clicks", "clicks", "clicks", "views", "spark", "nope"]).to_string();
    for _ in 0..=r.below(depth as usize + 1) {
        df = match r.below(17) {
            0 => format!("{df}.withWatermark('{}', {})", r.pick(&["event_time", "view_time", "post_id"]), interval(r)),
            1 => format!("{df}.select({}, {})", column(r, 2), column(r, 2)),
            2 => format!("{df}.filter({})", column(r, 3)),
            3 => format!("{df}.where(\"{}\")", r.pick(SQL)),
            4 => format!("{df}.groupBy({}).count()", column(r, 1)),
            5 => format!("{df}.groupBy({}, {}).agg({}, {})", column(r, 1), column(r, 1), column(r, 2), column(r, 2)),
            6 => format!("{df}.dropDuplicates([{}])", r.pick(&["'user_id'", "'post_id', 'event_time'", "", "'nope'"])),
            7 => format!("{df}.dropDuplicatesWithinWatermark()"),
            8 => format!("{df}.withColumn('{}', {})", r.pick(&["x", "post_id", "window"]), column(r, 2)),
            9 => format!("{df}.limit({})", r.below(4)),
            10 => format!("{df}.union({})", dataframe(r, 0)),
            11 => format!("{df}.join({}, {})", dataframe(r, 0), r.pick(&["'post_id'", "F.expr(\"post_id = view_post\")", "on='post_id', how='left'", "how='cross'"])),
            12 => format!("{df}.orderBy({})", column(r, 1)),
            13 => format!("{df}.distinct()"),
            14 => format!("{df}.selectExpr(\"{}\")", r.pick(SQL)),
            15 => format!("{df}.drop('{}')", r.pick(COLS)),
            _ => format!("{df}.writeStream.outputMode('{}')", r.pick(&["append", "update", "complete", "bogus"])),
        };
    }
    df
}

/// Deep or long text of one of the shapes that used to hang or overflow.
fn extreme(r: &mut Rng) -> String {
    let n = 1 + r.below(3_000);
    match r.below(8) {
        0 => format!("clicks.filter({}F.col('post_id') > 0{})", "(".repeat(n), ")".repeat(n)),
        1 => format!("clicks{}", ".filter('post_id > 0')".repeat(n)),
        2 => format!("clicks.select(F.col('post_id'){})", " + 1".repeat(n)),
        3 => format!("clicks.filter(\"post_id{} > 0\")", " + 1".repeat(n)),
        4 => format!("w = clicks\n{}w", "w = w.filter('post_id > 0')\n".repeat(n.min(600))),
        5 => format!("c = F.col('post_id')\n{}clicks.select(c)", "c = c + c\n".repeat(n.min(80))),
        6 => format!("clicks.select({}'post_id'{})", "[".repeat(n), "]".repeat(n)),
        _ => format!("clicks.select({}F.col('post_id'))", "-".repeat(n)),
    }
}

/// Byte-level edits that keep the text UTF-8: deletions, insertions of syntax characters,
/// duplicated slices.
fn mangle(r: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + r.below(4) {
        let at = r.below(chars.len() + 1);
        match r.below(4) {
            0 if !chars.is_empty() => {
                let end = (at + 1 + r.below(8)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 => {
                let c = r.pick(&["(", ")", "[", "]", ",", ".", "'", "\"", "=", "#", "\\", " ", "\n", "é", "𝄞", "0", "-", "~", "*"]);
                chars.splice(at..at, c.chars());
            }
            2 if !chars.is_empty() => {
                let start = r.below(chars.len());
                let end = (start + 1 + r.below(20)).min(chars.len());
                let slice: Vec<char> = chars[start..end].to_vec();
                chars.splice(at..at, slice);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn frontend_input(r: &mut Rng) -> String {
    let mut text = match r.below(10) {
        0 => extreme(r),
        1 => format!("w = {}\nv = {}\n{}", dataframe(r, 2), dataframe(r, 2), r.pick(&["w", "v.union(w)", "w.join(v, 'post_id')", "x"])),
        _ => dataframe(r, 4),
    };
    if r.chance(40) {
        text = mangle(r, &text);
    }
    text
}

// ------------------------------------------------------------------------------------------
// The engine target: queries that mostly compile, events, splits, restarts

/// A streaming query of one of the shapes the lab teaches, and whether its complete-mode
/// result may be checked against a recomputation (no operator below the aggregation drops
/// rows by watermark).
fn engine_query(r: &mut Rng) -> (String, bool) {
    let delay = r.pick(&["0 seconds", "5 minutes", "10 minutes", "1 hour"]);
    let wm = if r.chance(70) { format!(".withWatermark('event_time', '{delay}')") } else { String::new() };
    let filter = if r.chance(30) { format!(".filter(\"{}\")", r.pick(&["post_id > 1", "user_id LIKE 'u%'", "post_id % 2 = 0", "post_id IS NOT NULL"])) } else { String::new() };
    let src = format!("clicks{filter}{wm}");
    let window = match r.below(3) {
        0 => "F.window('event_time', '10 minutes')".to_string(),
        1 => format!("F.window('event_time', '10 minutes', '{}')", r.pick(&["5 minutes", "3 minutes", "10 minutes"])),
        _ => format!("F.window('event_time', '10 minutes', '5 minutes', '{}')", r.pick(&["1 minute", "-2 minutes"])),
    };
    let agg = r.pick(&["F.count('*').alias('n')", "F.sum('post_id').alias('s')", "F.max('event_time').alias('last')", "F.min('post_id').alias('lo')", "F.avg('post_id').alias('mean')"]);
    match r.below(9) {
        0 => (format!("{src}.groupBy({window}, 'post_id').count()"), true),
        1 => (format!("{src}.groupBy({window}).agg({agg})"), true),
        2 => (format!("{src}.groupBy('post_id').agg({agg})"), true),
        // `SessionWindowStateStoreRestoreExec` drops late rows in every output mode (spec
        // §4.3), so a complete-mode result depends on the batch split.
        3 => (format!("{src}.groupBy(F.session_window('event_time', '{}'), 'user_id').count()", r.pick(&["5 minutes", "10 minutes"])), false),
        4 => (format!("{src}.dropDuplicates(['user_id', 'post_id'])"), false),
        5 => (format!("{src}.dropDuplicatesWithinWatermark(['user_id'])"), false),
        6 => (format!("{src}.dropDuplicates(['user_id']).groupBy('post_id').count()"), false),
        7 => (format!("{src}.select({window}, 'post_id', 'user_id')"), false),
        _ => (
            format!(
                "v = views.withWatermark('view_time', '10 minutes')\n{src}.join(v, F.expr(\"post_id = view_post AND view_time >= event_time AND view_time <= event_time + INTERVAL 15 MINUTES\"), '{}')",
                r.pick(&["inner", "left", "leftOuter"])
            ),
            false,
        ),
    }
}

/// Events of both sources, with event times that often coincide with window and watermark
/// boundaries, sometimes NULL, sometimes far apart.
fn events(r: &mut Rng) -> (Vec<Row>, Vec<Row>) {
    let base = 1_767_268_800_000_000i64; // 2026-01-01T12:00:00Z
    let minute = 60_000_000i64;
    let time = |r: &mut Rng| -> Value {
        match r.below(20) {
            0 => Value::Null,
            1 => Value::Timestamp(base + r.below(100_000) as i64 * minute),
            2 => Value::Timestamp(base - r.below(1_000) as i64 * minute),
            3..=9 => Value::Timestamp(base + (r.below(24) as i64) * 5 * minute),
            _ => Value::Timestamp(base + r.below(120 * 60) as i64 * 1_000_000 + r.below(3) as i64),
        }
    };
    let n = r.below(40);
    let clicks = (0..n)
        .map(|_| {
            let user = if r.chance(5) { Value::Null } else { Value::str(&format!("u{}", r.below(4))) };
            let post = if r.chance(5) { Value::Null } else { Value::Long(r.below(5) as i64) };
            vec![user, post, time(r)]
        })
        .collect();
    let m = r.below(15);
    let views = (0..m).map(|_| vec![Value::Long(r.below(5) as i64), time(r)]).collect();
    (clicks, views)
}

/// The outcome of one engine input: every batch that ran and the final complete table, if
/// the query started.
struct EngineRun {
    batches: Vec<BatchResult>,
    started: bool,
}

fn run_engine(text: &str, mode: OutputMode, clicks: &[Row], views: &[Row], r: &mut Rng) -> EngineRun {
    let Ok(mut q) = test_stream(text, mode, catalog()).sink(SinkKind::ForeachBatchNaive).start() else { return EngineRun { batches: vec![], started: false } };
    let steps = 1 + r.below(6);
    let cut = |len: usize, k: usize| len * k / steps;
    for k in 0..steps {
        let c = &clicks[cut(clicks.len(), k)..cut(clicks.len(), k + 1)];
        let v = &views[cut(views.len(), k)..cut(views.len(), k + 1)];
        if !c.is_empty() {
            q.add_data("clicks", c).expect("clicks fit");
        }
        if !v.is_empty() && text.contains("views") {
            q.add_data("views", v).expect("views fit");
        }
        q.set_clock(k as i64 * 1_000);
        q.process_all_available();
        if q.exception().is_some() {
            break;
        }
        if r.chance(25) {
            // Stop and restart on the same checkpoint.
            RESTARTS.fetch_add(1, Ordering::Relaxed);
            q.stop();
            if let Err(e) = q.start_again(Start::same()) {
                panic!("restart of a query that started refused: {e}");
            }
        }
    }
    EngineRun { batches: q.into_parts().1, started: true }
}

/// The rows of a table as sortable text (doubles rounded to 9 significant digits).
fn table(rows: &[Row]) -> Vec<String> {
    let mut t: Vec<String> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| match v {
                    Value::Double(d) => format!("{d:.9e}"),
                    v => value_to_json(v).to_string(),
                })
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    t.sort();
    t
}

/// Checks one engine input; returns what is wrong, if anything.
fn engine_input(seed: u64) -> Option<String> {
    let mut r = Rng(seed);
    let (text, recomputable) = engine_query(&mut r);
    let mode = [OutputMode::Append, OutputMode::Update, OutputMode::Complete][r.below(3)];
    let (clicks, views) = events(&mut r);
    let run = run_engine(&text, mode, &clicks, &views, &mut r);
    if !run.started {
        return None;
    }
    STARTED.fetch_add(1, Ordering::Relaxed);
    BATCHES.fetch_add(run.batches.len() as u64, Ordering::Relaxed);
    let mut last = i64::MIN;
    for b in &run.batches {
        if let Some(wm) = b.watermark_ms {
            if wm < last {
                return Some(format!("watermark went back from {last} to {wm} in batch {}: {text}", b.batch_id));
            }
            last = wm;
        }
    }
    if mode == OutputMode::Complete && recomputable {
        let streamed = run.batches.last()?;
        // One batch with everything, no restart.
        let mut q = test_stream(&text, mode, catalog()).start().expect("started before");
        if !clicks.is_empty() {
            q.add_data("clicks", &clicks).expect("clicks fit");
        }
        let all = q.process_all_available();
        let recomputed = all.last().map(|b| table(&b.rows)).unwrap_or_default();
        RECOMPUTED.fetch_add(1, Ordering::Relaxed);
        let got = table(&streamed.rows);
        if got != recomputed {
            return Some(format!("complete mode differs from a recomputation\n  query: {text}\n  streamed:   {got:?}\n  recomputed: {recomputed:?}"));
        }
    }
    None
}

// ------------------------------------------------------------------------------------------
// The driver

/// How many inputs each target runs (`STREAMLAB_FUZZ_ITERS`, default 300). Zero is refused: a
/// run that judges nothing must not pass.
fn iterations() -> u64 {
    let n = std::env::var("STREAMLAB_FUZZ_ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    assert!(n > 0, "STREAMLAB_FUZZ_ITERS=0 would judge no input");
    n
}

fn base_seed() -> u64 {
    std::env::var("STREAMLAB_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED_2026)
}

/// Runs `check(seed)` for every input, catching panics, timing each, with a watchdog that
/// names the input if one runs for more than 30 s. Returns the findings.
fn drive(name: &str, check: impl Fn(u64) -> Option<String>) -> Vec<String> {
    let only: Option<u64> = std::env::var("STREAMLAB_FUZZ_ONE").ok().and_then(|s| s.parse().ok());
    let seeds: Vec<u64> = match only {
        Some(s) => vec![s],
        None => (0..iterations()).map(|i| seed_for(base_seed(), i)).collect(),
    };
    let current = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicU64::new(0));
    let (cur, fin) = (current.clone(), done.clone());
    let label = name.to_string();
    std::thread::spawn(move || {
        let mut last = (u64::MAX, Instant::now());
        loop {
            std::thread::sleep(Duration::from_secs(5));
            if fin.load(Ordering::Relaxed) == 1 {
                return;
            }
            let c = cur.load(Ordering::Relaxed);
            if c != last.0 {
                last = (c, Instant::now());
            } else if last.1.elapsed() > Duration::from_secs(30) {
                eprintln!("fuzz {label}: input with seed {c} has run for over 30 s (STREAMLAB_FUZZ_ONE={c})");
                last.1 = Instant::now();
            }
        }
    });
    let t0 = Instant::now();
    let mut findings = Vec::new();
    let mut slowest = Duration::ZERO;
    for (i, &seed) in seeds.iter().enumerate() {
        current.store(seed, Ordering::Relaxed);
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| check(seed)));
        let took = start.elapsed();
        slowest = slowest.max(took);
        let before = findings.len();
        match outcome {
            Ok(None) => {}
            Ok(Some(why)) => findings.push(format!("seed {seed}: {why}")),
            Err(p) => {
                let msg = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default();
                findings.push(format!("seed {seed}: panicked: {msg}"));
            }
        }
        // A long run shows each finding as it happens.
        for f in &findings[before..] {
            println!("fuzz {name}: finding: {}", f.chars().take(300).collect::<String>());
        }
        if (i + 1) % 100_000 == 0 {
            println!("fuzz {name}: {} inputs, {:?}, {} findings", i + 1, t0.elapsed(), findings.len());
        }
    }
    done.store(1, Ordering::Relaxed);
    println!("fuzz {name}: {} inputs in {:?} (slowest {slowest:?}), {} findings", seeds.len(), t0.elapsed(), findings.len());
    findings
}

fn frontend_check(seed: u64) -> Option<String> {
    let mut r = Rng(seed);
    let text = frontend_input(&mut r);
    let catalog = catalog();
    let _ = compile(&text, &catalog);
    for mode in [OutputMode::Append, OutputMode::Update, OutputMode::Complete] {
        if let Ok(mut q) = test_stream(&text, mode, catalog.clone()).start() {
            // One small batch through whatever compiled.
            let _ = q.add_data("clicks", &[vec![Value::str("u1"), Value::Long(1), Value::Timestamp(1_767_268_800_000_000)]]);
            let _ = q.process_all_available();
        }
    }
    None
}

/// The stack the fuzz loop runs on: queries at the depth limits need up to 8 MiB in a debug
/// build and under 512 KiB in a release build (`engine/tests/limits.rs`); the release run
/// keeps the wasm build's 1 MiB, so a stack regression shows up as a crash.
fn stack_bytes() -> usize {
    if cfg!(debug_assertions) {
        64 << 20
    } else {
        1 << 20
    }
}

fn fuzz(name: &'static str, check: fn(u64) -> Option<String>) {
    std::panic::set_hook(Box::new(|_| {}));
    let findings = std::thread::Builder::new()
        .stack_size(stack_bytes())
        .spawn(move || drive(name, check))
        .expect("spawn")
        .join()
        .expect("the fuzz driver itself panicked");
    let _ = std::panic::take_hook();
    assert!(findings.is_empty(), "{} findings:\n{}", findings.len(), findings.join("\n"));
}

#[test]
fn frontend() {
    fuzz("frontend", frontend_check);
}

#[test]
fn engine() {
    fuzz("engine", engine_input);
    let (started, recomputed) = (STARTED.load(Ordering::Relaxed), RECOMPUTED.load(Ordering::Relaxed));
    println!(
        "fuzz engine: {started} queries started, {} batches, {} restarts, {recomputed} complete results recomputed",
        BATCHES.load(Ordering::Relaxed),
        RESTARTS.load(Ordering::Relaxed),
    );
    // Floors: a query that does not start counts as a clean input, so a front end that
    // refused everything would pass without them. The generator's default run starts about
    // two thirds of its queries and recomputes about one in eight (300 inputs: 191 and 37).
    if std::env::var("STREAMLAB_FUZZ_ONE").is_err() {
        let n = iterations();
        assert!(started * 2 >= n, "only {started} of {n} fuzzed queries started: the generator or the front end changed");
        assert!(recomputed * 20 >= n, "only {recomputed} of {n} fuzzed queries were checked against a recomputation");
    }
}
