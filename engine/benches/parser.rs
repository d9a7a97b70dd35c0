//! The parser on 50,000-character queries: a valid program of assignments, and the shapes
//! that used to hang or overflow (2,000 nested parentheses, a long chain of filters, a long
//! sum, a long SQL string). Each must parse, or fail with a message, within 50 ms natively.
//! Run: `cargo bench -p streamlab-engine --bench parser`.

use criterion::{criterion_group, criterion_main, Criterion};
use streamlab_engine::frontend::python::parse_program;
use streamlab_engine::frontend::{compile, Catalog};
use streamlab_engine::types::{timestamp_type, DataType};

const LEN: usize = 50_000;

/// `unit` repeated to about `LEN` characters between `head` and `tail`.
fn fill(head: &str, unit: &str, tail: &str) -> String {
    let n = (LEN - head.len() - tail.len()) / unit.len();
    format!("{head}{}{tail}", unit.repeat(n))
}

fn inputs() -> Vec<(&'static str, String)> {
    let nested = LEN / 2 - 20;
    vec![
        // Valid: a program of many short assignments (evaluates to a shallow plan).
        ("assignments", fill("", "w = clicks.filter(\"post_id > 1\").select('post_id', 'event_time')\n", "w")),
        ("nested parentheses", format!("clicks.filter({}1{})", "(".repeat(nested), ")".repeat(nested))),
        ("chained filters", fill("clicks", ".filter('post_id > 0')", "")),
        ("sum of terms", fill("clicks.select(F.col('post_id')", " + 1", ")")),
        ("SQL sum", fill("clicks.filter(\"post_id", " + 1", " > 0\")")),
        ("long string", fill("clicks.select('", "x", "')")),
    ]
}

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert("clicks".into(), vec![("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())]);
    c
}

fn bench(c: &mut Criterion) {
    let catalog = catalog();
    let mut g = c.benchmark_group("parse 50k chars");
    for (name, text) in inputs() {
        assert!(text.len() >= LEN - 100 && text.len() <= LEN, "{name}: {} chars", text.len());
        g.bench_function(name, |b| b.iter(|| parse_program(std::hint::black_box(&text)).is_ok()));
    }
    g.finish();
    let mut g = c.benchmark_group("compile 50k chars");
    for (name, text) in inputs() {
        g.bench_function(name, |b| b.iter(|| compile(std::hint::black_box(&text), &catalog).is_ok()));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
