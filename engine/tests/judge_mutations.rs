//! The judge is tested by mutation: every case of the corpus that the engine passes is changed
//! in one recorded fact at a time (a row value, the column order, an extra row, a missing row,
//! a batch id, the watermark, a state metric, the input row count, the output schema, the
//! error stage, condition and message, and the cause's), and every such mutant must be
//! reported as a failure by `check_with`. A mutant that passes is a blind spot of the judge.
//!
//! Run with `--nocapture` to see how many mutants were made.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use streamlab_engine::scenario::{check_with, Driver, ExpectedRow, Scenario, Verdict};
use streamlab_engine::types::{format_timestamp_us, parse_timestamp_us};

fn corpus() -> Vec<(PathBuf, Driver)> {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for (dir, driver) in [
        ("tests/spark/cases", Driver::Continuous),
        ("tests/spark/available-now-restarts", Driver::AvailableNowRestarts),
        ("tests/cases", Driver::Continuous),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(here.join(dir))
            .expect("corpus folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (f, driver)));
    }
    out
}

/// A value changed so that no tolerance can call it equal.
fn mutate_value(v: &Json) -> Json {
    match v {
        Json::Null => Json::from(0),
        Json::Bool(b) => Json::Bool(!b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Json::from(i.wrapping_add(1)),
            None => Json::from(n.as_f64().unwrap_or(0.0) * 1.5 + 1.0),
        },
        Json::String(s) => match parse_timestamp_us(s) {
            Ok(t) => Json::String(format_timestamp_us(t + 1_000_000)),
            Err(_) => Json::String(format!("{s}~")),
        },
        Json::Array(a) => {
            let mut a = a.clone();
            a.push(Json::Null);
            Json::Array(a)
        }
        Json::Object(m) => {
            let mut m = m.clone();
            match m.iter_mut().next() {
                Some((_, first)) => *first = mutate_value(first),
                None => {
                    m.insert("x".into(), Json::from(1));
                }
            }
            Json::Object(m)
        }
    }
}

/// The first character of a message's core (after `[CONDITION] `) changed.
fn mutate_message(m: &str) -> String {
    let start = if m.starts_with('[') { m.find("] ").map_or(0, |i| i + 2) } else { 0 };
    let mut chars: Vec<char> = m.chars().collect();
    let i = m[..start].chars().count();
    match chars.get_mut(i) {
        Some(c) => *c = if *c == 'Q' { 'X' } else { 'Q' },
        None => chars.push('Q'),
    }
    chars.into_iter().collect()
}

/// Every one-fact mutant of `s`, named.
fn mutants(s: &Scenario) -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    let exp = s.expected.as_ref().expect("expected");
    let mut push = |name: &str, f: &dyn Fn(&mut Scenario)| {
        let mut m = s.clone();
        f(&mut m);
        out.push((name.to_string(), m));
    };
    let first_with_rows = exp.batches.iter().position(|b| !b.rows.is_empty());
    if let Some(b) = first_with_rows {
        push("row value", &|m| {
            let cell = &mut m.expected.as_mut().unwrap().batches[b].rows[0].0[0].1;
            *cell = mutate_value(cell);
        });
        push("extra row", &|m| {
            let rows = &mut m.expected.as_mut().unwrap().batches[b].rows;
            rows.push(rows[0].clone());
        });
        push("missing row", &|m| {
            m.expected.as_mut().unwrap().batches[b].rows.remove(0);
        });
        push("repeated column", &|m| {
            let row = &mut m.expected.as_mut().unwrap().batches[b].rows[0].0;
            let last = row.last().cloned().expect("a cell");
            row.push(last);
        });
        if exp.batches[b].rows[0].0.len() >= 2 {
            push("column order", &|m| {
                m.expected.as_mut().unwrap().batches[b].rows[0].0.swap(0, 1);
            });
        }
    } else if !exp.batches.is_empty() {
        push("extra row", &|m| {
            m.expected.as_mut().unwrap().batches[0].rows.push(ExpectedRow(vec![("x".into(), Json::from(1))]));
        });
    }
    if !exp.batches.is_empty() {
        push("batch id", &|m| m.expected.as_mut().unwrap().batches[0].batch_id += 1);
        push("watermark", &|m| {
            let wm = &mut m.expected.as_mut().unwrap().batches[0].watermark;
            *wm = Some(match wm.as_deref().map(parse_timestamp_us) {
                Some(Ok(t)) => format_timestamp_us(t + 1_000_000),
                _ => "1970-01-01T00:00:00Z".into(),
            });
        });
        push("unreadable watermark", &|m| m.expected.as_mut().unwrap().batches[0].watermark = Some("not a time".into()));
        push("input rows", &|m| m.expected.as_mut().unwrap().batches[0].input_rows += 1);
        match exp.batches.iter().position(|b| !b.state.is_empty()) {
            Some(b) => push("state metric", &|m| m.expected.as_mut().unwrap().batches[b].state[0].num_rows_total += 1),
            None => push("state metric", &|m| {
                m.expected.as_mut().unwrap().batches[0].state.push(streamlab_engine::scenario::ExpectedState {
                    operator: "stateStoreSave".into(),
                    num_rows_total: 0,
                    num_rows_updated: 0,
                    num_rows_removed: 0,
                    num_rows_dropped_by_watermark: 0,
                })
            }),
        }
    }
    if exp.output_schema.as_ref().is_some_and(|s| !s.is_empty()) && exp.error.as_ref().is_none_or(|e| e.stage == "run") {
        push("output schema", &|m| {
            let col = &mut m.expected.as_mut().unwrap().output_schema.as_mut().unwrap()[0].1;
            *col = if col == "string" { "bigint".into() } else { "string".into() };
        });
    }
    if let Some(e) = &exp.error {
        push("error stage", &|m| {
            let st = &mut m.expected.as_mut().unwrap().error.as_mut().unwrap().stage;
            *st = if st == "define" { "start".into() } else { "define".into() };
        });
        push("error condition", &|m| {
            let c = &mut m.expected.as_mut().unwrap().error.as_mut().unwrap().error_class;
            *c = Some(format!("{}_MUTATED", c.clone().unwrap_or_default()));
        });
        push("error message", &|m| {
            let msg = &mut m.expected.as_mut().unwrap().error.as_mut().unwrap().message;
            *msg = mutate_message(msg);
        });
        if e.cause_error_class.is_some() {
            push("cause condition", &|m| {
                let c = &mut m.expected.as_mut().unwrap().error.as_mut().unwrap().cause_error_class;
                *c = Some(format!("{}_MUTATED", c.clone().unwrap_or_default()));
            });
        }
        if let Some(cm) = &e.cause_message {
            let changed = mutate_message(cm);
            push("cause message", &|m| m.expected.as_mut().unwrap().error.as_mut().unwrap().cause_message = Some(changed.clone()));
        }
        if e.step.is_some() {
            push("error step", &|m| {
                let st = &mut m.expected.as_mut().unwrap().error.as_mut().unwrap().step;
                *st = st.map(|s| s + 1);
            });
        }
    }
    // A step naming a source the scenario does not define.
    if !s.steps.is_empty() {
        push("unknown step source", &|m| {
            m.steps[0].insert("no_such_source".into(), vec![serde_json::Map::new()]);
        });
    }
    out
}

#[test]
fn every_mutant_of_every_passing_case_fails() {
    let (mut cases, mut made, mut kinds) = (0, 0, std::collections::BTreeMap::<String, usize>::new());
    let mut survivors = Vec::new();
    for (path, driver) in corpus() {
        let text = std::fs::read_to_string(&path).expect("read");
        let s = Scenario::from_json(&text).expect("load");
        // Cases the engine does not pass yet are other work; their mutants prove nothing.
        if check_with(&s, driver) != Verdict::Pass {
            continue;
        }
        cases += 1;
        for (name, m) in mutants(&s) {
            made += 1;
            *kinds.entry(name.clone()).or_default() += 1;
            if let Verdict::Pass = check_with(&m, driver) {
                survivors.push(format!("{} ({}): {name}", file_name(&path), if driver == Driver::Continuous { "continuous" } else { "availableNow" }));
            }
        }
    }
    println!("judge mutations: {made} mutants of {cases} passing cases, {} survived", survivors.len());
    println!("by kind: {kinds:?}");
    assert!(cases > 100, "only {cases} passing cases were mutated");
    assert!(survivors.is_empty(), "mutants the judge passed:\n{}", survivors.join("\n"));
}

fn file_name(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}
