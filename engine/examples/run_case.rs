//! Runs scenario files through the engine and prints what it did, batch by batch, beside the
//! verdict against the recorded Spark run: a developer's view of one case.
//!
//! `cargo run -q -p streamlab-engine --example run_case -- engine/tests/docs/docs-x.json [...]`
#![allow(clippy::disallowed_methods)] // an example may read files

use streamlab_engine::scenario::{check, row_to_cells, run, Scenario};

fn main() {
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let scenario = match Scenario::from_json(&text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        println!("== {} ({path})", scenario.id);
        let r = run(&scenario);
        if let Some(e) = &r.error {
            println!("error (step {:?}): {e:?}", r.error_step);
        }
        println!("output: {:?}", r.output.iter().map(|a| format!("{}: {}", a.name, streamlab_engine::types::spark_type_name(&a.data_type))).collect::<Vec<_>>());
        for (step, b) in &r.batches {
            let rows: Vec<String> = b.rows.iter().map(|row| format!("{:?}", row_to_cells(row, &r.output))).collect();
            println!("batch {} (step {step}): {} rows {rows:?}", b.batch_id, rows.len());
        }
        println!("verdict: {:?}", check(&scenario));
    }
}
