//! The classic query (10-minute windows sliding 5 minutes, 10-minute watermark, append) on
//! one micro-batch of 10 events and one of 20,000 events. Run: `cargo bench -p streamlab-engine`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
use streamlab_engine::types::{timestamp_type, DataType, Row, Value};

const QUERY: &str = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()";

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![("event_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())],
    );
    c
}

fn events(n: usize) -> Vec<Row> {
    // 2026-01-01T12:00:00Z plus one event every 90 ms over 100 posts and 1,000 users.
    let base = 1_767_268_800_000_000i64;
    (0..n)
        .map(|i| {
            vec![
                Value::str(&format!("e{i}")),
                Value::str(&format!("u{}", i % 1000)),
                Value::Long((i % 100) as i64),
                Value::Timestamp(base + i as i64 * 90_000),
            ]
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let catalog = catalog();
    for n in [10usize, 20_000] {
        let rows = events(n);
        c.bench_function(&format!("classic query, one micro-batch of {n} events"), |b| {
            b.iter_batched(
                || {
                    let mut q = StreamingQuery::start(QUERY, &catalog, OutputMode::Append, StreamingConf::default()).expect("query");
                    q.add_data("clicks", &rows).expect("rows");
                    q
                },
                |mut q| q.run_next_batch().expect("a batch"),
                BatchSize::SmallInput,
            )
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
