//! Prints what the engine does with a preset, batch by batch, for writing questions and
//! lessons: `cargo run -p streamlab-model --example show -- <preset> [--query Q] [--mode M]
//! [--conf k=v] [--script 'action' ...]`. Without `--script` it is the plain run
//! (`scenario::run`); with it, a lab session after those actions (`web::script`).

use streamlab_model::lab::presets::preset;
use streamlab_model::lab::script;
use streamlab_model::lab::session::LabSession;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(id) = args.first() else {
        eprintln!("usage: show <preset> [--query Q] [--mode M] [--conf k=v] [--script action ...] [--progress]");
        return;
    };
    let Some(mut s) = preset(id) else {
        eprintln!("no preset {id}");
        return;
    };
    let mut script_lines = Vec::new();
    let mut progress = false;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--query" => {
                s.query = args[i + 1].clone();
                i += 1;
            }
            "--mode" => {
                s.output_mode = args[i + 1].clone();
                i += 1;
            }
            "--conf" => {
                let (k, v) = args[i + 1].split_once('=').expect("k=v");
                s.conf.insert(k.into(), serde_json::Value::from(v));
                i += 1;
            }
            "--script" => {
                script_lines.push(args[i + 1].clone());
                i += 1;
            }
            "--progress" => progress = true,
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let mut session = LabSession::from_scenario(s.clone());
    if script_lines.is_empty() {
        script_lines.push("run_steps".into());
    }
    if let Err(e) = script::run(&mut session, &script_lines) {
        println!("SCRIPT ERROR: {e}");
    }
    let v = session.view();
    println!("query: {}  mode: {:?}", v.query_text, v.mode);
    if let Some(e) = &v.error {
        println!("ERROR {} {:?} at {:?}: {}", e.kind, e.error_class, e.stage, e.message);
    }
    let progress_jsons = session.progress_jsons();
    for (b, progress_json) in v.batches.iter().zip(&progress_jsons) {
        let m: Vec<String> = b.metrics.iter().map(|m| format!("{}(tot {} upd {} rem {} drop {})", m.operator, m.total, m.updated, m.removed, m.dropped)).collect();
        println!(
            "b{} step {:?} {}in {} wm {} late {} -> {} rows {}",
            b.id,
            b.step,
            if b.no_data { "NODATA " } else { "" },
            b.input_rows,
            b.watermark.clone().unwrap_or("-".into()),
            b.late_watermark,
            b.rows.len(),
            m.join(" ")
        );
        for r in &b.rows {
            println!("      {}", r.join(" | "));
        }
        if progress {
            println!("{progress_json}");
        }
    }
    println!("current wm {:?}; steps {}/{}; due {}", v.watermark, v.steps_done, v.steps_total, v.no_data_batch_due);
    for t in &v.state {
        println!("state {} {:?}", t.operator, t.columns);
        for (r, st) in &t.rows {
            println!("      {} {:?}", r.join(" | "), st);
        }
    }
    if let Some(r) = &v.recovery {
        println!("sink {:?} runs {} dups {} visible {} active {} trigger {}", r.sink, r.runs, r.duplicates, r.sink_rows.iter().filter(|w| w.visible).count(), r.active, r.trigger);
        for (b, o, w) in &r.offset_log {
            println!("   offsets/{b}: {o} wm {w}");
        }
        if let Some(l) = &r.sink_log {
            println!("sink log:\n{l}");
        }
        println!("events: {:?}", r.events);
    }
}
