//! The engine against the floor and against Spark, in one run
//! (`cargo bench -p streamlab-engine --bench floor`): the classic query's 20,000-event
//! micro-batch through the engine, a plain Rust hash aggregation of the same events (the
//! floor: each event counted in its two sliding windows, nothing else), and the ratio; then,
//! when a PySpark 4.3 is at hand (`.venv-spark/bin/python`, made by `scripts/spark-check.sh`,
//! or `STREAMLAB_PYSPARK=<python>`), Spark's own time for the same batch
//! (`scripts/bench_spark.py`, `local[2]`, median of several runs after a warm-up) and the
//! speed-up. Also the 10-event batch. Figures are medians of wall-clock runs.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use streamlab_engine::workloads::{classic_floor, clicks, CLASSIC};

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

fn time_engine(n: usize, runs: usize) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let mut q = CLASSIC.loaded(n);
                let t0 = Instant::now();
                black_box(q.run_next_batch());
                t0.elapsed()
            })
            .collect(),
    )
}

fn time_floor(n: usize, runs: usize) -> Duration {
    let events = clicks(0, n);
    median(
        (0..runs)
            .map(|_| {
                let t0 = Instant::now();
                black_box(classic_floor(black_box(&events)));
                t0.elapsed()
            })
            .collect(),
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Spark's median batch time in ms for `n` events, if a PySpark is available.
fn time_spark(n: usize) -> Option<f64> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = std::env::var("STREAMLAB_PYSPARK").map(PathBuf::from).unwrap_or_else(|_| root.join(".venv-spark/bin/python"));
    if !python.exists() {
        return None;
    }
    let out = Command::new(&python).arg(root.join("scripts/bench_spark.py")).arg(n.to_string()).env("PYSPARK_PYTHON", &python).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find_map(|l| l.strip_prefix("median_ms ")).and_then(|v| v.trim().parse().ok())
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` runs this once quickly.
    let quick = !std::env::args().any(|a| a == "--bench");
    let runs = if quick { 3 } else { 31 };
    println!("classic query: 10-min windows sliding 5 min, 10-min watermark, append; events 90 ms apart over 100 posts");
    println!("{:>8}  {:>12}  {:>12}  {:>10}  {:>12}  {:>10}", "events", "engine ms", "floor ms", "÷ floor", "Spark ms", "speed-up");
    for n in [10usize, 20_000] {
        let engine = time_engine(n, runs);
        let floor = time_floor(n, runs);
        let spark = if quick { None } else { time_spark(n) };
        println!(
            "{:>8}  {:>12.4}  {:>12.4}  {:>9.1}×  {:>12}  {:>10}",
            n,
            ms(engine),
            ms(floor),
            engine.as_secs_f64() / floor.as_secs_f64().max(1e-12),
            spark.map_or_else(|| "—".into(), |s| format!("{s:.1}")),
            spark.map_or_else(|| "—".into(), |s| format!("{:.0}×", s / ms(engine).max(1e-9))),
        );
    }
    if !quick && time_spark(10).is_none() {
        println!("(no PySpark 4.3 found: run scripts/spark-check.sh once, or set STREAMLAB_PYSPARK=<python>)");
    }
}
