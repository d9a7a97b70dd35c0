//! The benchmark suite (`cargo bench -p streamlab-engine --bench operators`): every workload of
//! `streamlab_engine::workloads` (windowed count, session windows, dedup, stream-stream join,
//! stateless) on one micro-batch of 10, 1,000, 20,000 and 200,000 events, reported in
//! events/s; the cost of a small batch as state and history grow; and the replay of a
//! 1,000-event lab session (what moving the delay slider does); and what per-batch
//! explanations cost when the lab turns them on.
//!
//! First it prints the growth table: for each workload, the median time of one batch of 1,000
//! and of 200,000 events and their ratio (ideal 200×: linear in the batch). Skipped when a
//! filter is given that does not match `growth`
//! (`cargo bench -p streamlab-engine --bench operators -- growth` prints only it).
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use criterion::{criterion_group, BatchSize, BenchmarkId, Criterion, Throughput};
use streamlab_engine::scenario::run;
use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
use streamlab_engine::workloads::{self, ALL};

fn one_batch(c: &mut Criterion) {
    for w in ALL {
        let mut group = c.benchmark_group(format!("one batch/{}", w.name));
        for n in [10usize, 1_000, 20_000, 200_000] {
            if n >= 20_000 {
                group.sample_size(10);
            }
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
                b.iter_batched(|| w.loaded(n), |mut q| q.run_next_batch().expect("a batch"), BatchSize::LargeInput)
            });
        }
        group.finish();
    }
}

/// A query whose state holds one row per event id (`groupBy('event_id').count()`, update
/// mode): `untouched` rows for ids no later batch touches, then `history` batches of the same
/// 10 ids (`e0`..`e9`), so the state's size stays the same from batch to batch.
fn grown(untouched: usize, history: usize) -> StreamingQuery {
    let catalog = workloads::catalog();
    let mut q = StreamingQuery::start("clicks.groupBy('event_id').count()", &catalog, OutputMode::Update, StreamingConf::default()).expect("query");
    if untouched > 0 {
        q.add_data("clicks", &workloads::clicks(10, untouched)).expect("rows");
        q.run_next_batch();
    }
    for _ in 0..history {
        q.add_data("clicks", &workloads::clicks(0, 10)).expect("rows");
        q.run_next_batch();
    }
    q
}

/// A batch of 10 events must cost the same whatever state it does not touch and however many
/// batches ran before it.
fn small_batch_as_state_grows(c: &mut Criterion) {
    let mut group = c.benchmark_group("10-event batch");
    group.sample_size(20);
    group.throughput(Throughput::Elements(10));
    for (label, untouched, history) in [("10 state rows", 0, 1), ("100,000 untouched state rows", 100_000, 1), ("after 1,000 batches", 0, 1_000)] {
        group.bench_function(label, |b| {
            let mut q = grown(untouched, history);
            b.iter_custom(|iters| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iters {
                    q.add_data("clicks", &workloads::clicks(0, 10)).expect("rows");
                    let t0 = std::time::Instant::now();
                    q.run_next_batch().expect("a batch");
                    total += t0.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

/// The classic query over 1,000 events in 50 steps of 20: what the lab replays when the
/// watermark delay changes.
fn lab_replay(c: &mut Criterion) {
    let scenario = workloads::replay_scenario(1_000, 50);
    let mut group = c.benchmark_group("lab replay");
    group.throughput(Throughput::Elements(1_000));
    group.bench_function("1,000 events in 50 steps, classic query", |b| b.iter(|| run(&scenario)));
    group.finish();
}

/// What explanations cost: one 20,000-event batch of the classic query with
/// `set_explaining` off and on (the lab turns it on; off, the batch runs as without it).
fn explaining(c: &mut Criterion) {
    let mut group = c.benchmark_group("explaining");
    group.sample_size(10);
    group.throughput(Throughput::Elements(20_000));
    for on in [false, true] {
        group.bench_function(if on { "classic 20,000, on" } else { "classic 20,000, off" }, |b| {
            b.iter_batched(
                || {
                    let mut q = workloads::CLASSIC.loaded(20_000);
                    q.set_explaining(on);
                    q
                },
                |mut q| q.run_next_batch().expect("a batch"),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// The median wall time of `runs` batches of `n` events of `w`, each on a fresh query.
fn median_batch(w: &workloads::Workload, n: usize, runs: usize) -> std::time::Duration {
    let mut times: Vec<std::time::Duration> = (0..runs)
        .map(|_| {
            let mut q = w.loaded(n);
            let t0 = std::time::Instant::now();
            std::hint::black_box(q.run_next_batch().expect("a batch"));
            t0.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Prints how one batch's time grows from 1,000 to 200,000 events, per workload.
fn growth_table() {
    println!("growth of one batch, 1,000 -> 200,000 events (ideal 200x):");
    println!("{:<10} {:>12} {:>14} {:>8}", "workload", "1,000 (ms)", "200,000 (ms)", "growth");
    for w in ALL {
        let small = median_batch(&w, 1_000, 21);
        let large = median_batch(&w, 200_000, 3);
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        println!("{:<10} {:>12.3} {:>14.1} {:>7.0}x", w.name, ms(small), ms(large), ms(large) / ms(small));
    }
}

criterion_group!(benches, one_batch, small_batch_as_state_grows, lab_replay, explaining);

fn main() {
    // The positional arguments are criterion's filter; `--bench` and options start with `-`.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if filter.is_empty() || filter.iter().any(|f| "growth".contains(f.as_str())) {
        growth_table();
    }
    if filter.iter().all(|f| f != "growth") {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}
