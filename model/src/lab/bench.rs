//! The benchmark page's measurements (`?bench`): the engine's workloads
//! (`streamlab_engine::workloads`, the same as the native criterion benches) timed where the
//! lab runs, in the browser's wasm. Plain Rust: the clock is passed in (`performance.now()` in
//! the page, `Instant` in native tests), so nothing here reads a clock itself.

use streamlab_engine::scenario::run;
use streamlab_engine::workloads::{self, ALL};

/// Events per batch the page measures, and how many runs each gets (the median is shown).
pub const SIZES: [(usize, usize); 4] = [(10, 201), (1_000, 21), (20_000, 5), (200_000, 1)];

/// One measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchRow {
    /// `classic`, `session`, ..., or `lab replay`.
    pub workload: String,
    /// Events in the batch (or in the whole replay).
    pub events: usize,
    /// Wall time of one run, ms: the median of the runs, or for small batches the mean of one
    /// timed loop over all runs (the browser's clock is coarse: 0.1 ms in Chromium).
    pub median_ms: f64,
    /// How many runs were timed.
    pub runs: usize,
    /// Rows the timed batches read from their sources, summed over the runs (every run reads
    /// its whole batch): what shows the work was done, not only timed.
    pub input_rows: u64,
}

impl BenchRow {
    /// Events per second at the median.
    pub fn events_per_second(&self) -> f64 {
        self.events as f64 / (self.median_ms / 1e3).max(1e-9)
    }
}

/// Every measurement the page makes, in order, as (workload index or None for the replay,
/// events, runs). The page runs them one at a time so it can repaint in between.
pub fn plan() -> Vec<(Option<usize>, usize, usize)> {
    let mut out: Vec<(Option<usize>, usize, usize)> = (0..ALL.len()).flat_map(|w| SIZES.iter().map(move |&(n, runs)| (Some(w), n, runs))).collect();
    out.push((None, 1_000, 11));
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs one entry of [`plan`] with `now` returning milliseconds.
pub fn measure(entry: (Option<usize>, usize, usize), now: &dyn Fn() -> f64) -> BenchRow {
    let (w, n, runs) = entry;
    let mut input_rows = 0u64;
    let times: Vec<f64> = match w.and_then(|i| ALL.get(i)) {
        // Small batches take microseconds: time them as one loop over queries made beforehand.
        Some(w) if n <= 1_000 => {
            let mut queries: Vec<_> = (0..runs).map(|_| w.loaded(n)).collect();
            let t0 = now();
            let mut read = 0;
            for q in &mut queries {
                read += std::hint::black_box(q.run_next_batch()).map_or(0, |b| b.input_rows);
            }
            let t = (now() - t0) / runs as f64;
            input_rows = read;
            vec![t]
        }
        Some(w) => (0..runs)
            .map(|_| {
                let mut q = w.loaded(n);
                let t0 = now();
                let read = std::hint::black_box(q.run_next_batch()).map_or(0, |b| b.input_rows);
                let t = now() - t0;
                input_rows += read;
                t
            })
            .collect(),
        None => {
            let scenario = workloads::replay_scenario(n, 50);
            (0..runs)
                .map(|_| {
                    let t0 = now();
                    let r = std::hint::black_box(run(&scenario));
                    let t = now() - t0;
                    input_rows += r.batches.iter().map(|(_, b)| b.input_rows).sum::<u64>();
                    t
                })
                .collect()
        }
    };
    BenchRow {
        workload: w.and_then(|i| ALL.get(i)).map_or_else(|| "lab replay (50 steps)".to_string(), |w| w.name.to_string()),
        events: n,
        median_ms: median(times),
        runs,
        input_rows,
    }
}
