#![allow(clippy::disallowed_methods)]
use streamlab_engine::workloads::ALL;
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let which = std::env::args().nth(2).unwrap_or("dedup".into());
    let w = ALL.iter().find(|w| w.name == which).unwrap();
    let reps = if n <= 1000 { 2001 } else { 7 };
    let mut times = vec![];
    for _ in 0..reps {
        let mut q = w.loaded(n);
        let t0 = std::time::Instant::now();
        std::hint::black_box(q.run_next_batch().unwrap());
        times.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{which} {n}: median {:.3} ms", times[times.len() / 2]);
}
