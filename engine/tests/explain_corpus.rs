//! The agreement test: every case of the conformance corpus runs with explanations on
//! ([`streamlab_engine::scenario::run_explained`]), and each batch's explanation must agree
//! with the batch's own numbers and with what real Spark recorded:
//! - turning explanations on changes no verdict (the run still matches Spark);
//! - one explained row per input row (`numInputRows`), every row with at least one fate;
//! - `emitted_rows` = the rows the sink got (= Spark's rows for a passing case);
//! - per stateful operator whose input rows can be traced (no aggregation or stream-stream
//!   join below it), the `Late` fates = its `numRowsDroppedByWatermark` (for a window
//!   aggregation: the distinct late groups, as Spark counts after partial aggregation);
//! - each `OperatorSummary` = Spark's recorded metrics for the operator;
//! - `numRowsUpdated` of a window aggregation = the distinct groups its `Aggregated` fates
//!   name, of a deduplication = its `FirstOfKey` fates (times the operator's `runs`: an
//!   aggregation a global sort sampled reports its metrics twice);
//! - where lineage reaches the sink, the `Emitted` fates are the output rows, each once;
//! - the reason: new data for a batch with input, the watermark moving for a no-data batch.
//!
//! Prints how many cases, batches, rows and late fates it checked. (It starts a query only to
//! read its plan, through the test driver, `support`.)
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

mod support;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

use streamlab_engine::analysis::{Node, Plan};
use streamlab_engine::execution::explain::{BatchReason, RowFate};
use streamlab_engine::scenario::{check_with, judge, run_explained, Driver, Scenario, Verdict};
use support::test_stream;

#[derive(Default)]
struct Counts {
    cases: usize,
    batches: usize,
    rows: usize,
    late: usize,
    late_checked_ops: usize,
    late_skipped_ops: usize,
    updated_checked_ops: usize,
    emitted: usize,
    /// Every case file whose verdict was compared with and without explanations.
    judged: usize,
}

fn main() -> ExitCode {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        (here.join("tests/spark/cases"), Driver::Continuous),
        (here.join("tests/spark/available-now-restarts"), Driver::AvailableNowRestarts),
        (here.join("tests/cases"), Driver::Continuous),
        (here.join("tests/docs"), Driver::Continuous),
        (here.join("tests/study"), Driver::Continuous),
    ];
    let mut counts = Counts::default();
    let mut failures = Vec::new();
    let mut files_seen = 0;
    for (dir, driver) in dirs {
        // A folder that cannot be read, or holds no case, judges nothing: a failure.
        let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
            Ok(d) => d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect(),
            Err(e) => {
                println!("explain-corpus: cannot read {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        };
        if files.is_empty() {
            println!("explain-corpus: {} holds no case", dir.display());
            return ExitCode::FAILURE;
        }
        files.sort();
        files_seen += files.len();
        for path in files {
            let name = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            let scenario = match std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|t| Scenario::from_json(&t).map_err(|e| e.to_string())) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name}: cannot load: {e}"));
                    continue;
                }
            };
            if let Err(why) = check_case(&scenario, driver, &mut counts) {
                failures.push(format!("{name}: {why}"));
            }
        }
    }
    // Every file was judged: none skipped.
    if counts.judged != files_seen {
        failures.push(format!("judged {} cases of {files_seen} files", counts.judged));
    }
    println!(
        "explanations checked: {} of {} judged cases ran batches: {} batches, {} input rows, {} late fates; late counts checked for {} operator-batches ({} after an aggregation or a stream-stream join, not traceable); numRowsUpdated for {}; {} emitted fates",
        counts.cases, counts.judged, counts.batches, counts.rows, counts.late, counts.late_checked_ops, counts.late_skipped_ops, counts.updated_checked_ops, counts.emitted
    );
    for f in &failures {
        println!("DISAGREE {f}");
    }
    println!("{} disagreements", failures.len());
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The stateful operators with an aggregation or a stream-stream join below them: their
/// input rows are the operator's output, not the batch's input rows.
fn untraceable(plan: &Plan) -> BTreeSet<usize> {
    fn go(p: &Plan, out: &mut BTreeSet<usize>) -> bool {
        // Returns whether `p` or a node below it breaks lineage.
        let mut breaks = false;
        for c in p.children() {
            breaks |= go(c, out);
        }
        let op = match &p.node {
            Node::Aggregate { op_id, .. }
            | Node::Dedup { op_id, .. }
            | Node::Limit { op_id, .. }
            | Node::StreamJoin { op_id, .. }
            | Node::FlatMapGroupsWithState { op_id, .. }
            | Node::TransformWithState { op_id, .. } => Some(*op_id),
            _ => None,
        };
        if let (Some(op), true) = (op, breaks) {
            out.insert(op);
        }
        breaks || matches!(p.node, Node::Aggregate { .. } | Node::StreamJoin { .. } | Node::FlatMapGroupsWithState { .. } | Node::TransformWithState { .. })
    }
    let mut out = BTreeSet::new();
    go(plan, &mut out);
    out
}

fn check_case(scenario: &Scenario, driver: Driver, c: &mut Counts) -> Result<(), String> {
    c.judged += 1;
    let plain = check_with(scenario, driver);
    let run = std::panic::catch_unwind(|| run_explained(scenario, driver)).map_err(|_| "panicked with explanations on".to_string())?;
    let explained = judge(scenario, &run);
    if explained != plain {
        return Err(format!("explanations change the verdict: {plain:?} → {explained:?}"));
    }
    if run.batches.is_empty() {
        return Ok(());
    }
    // The run above had batches, so the scenario sets up and its query starts.
    let (catalog, mode, conf) = scenario.setup().map_err(|e| format!("the scenario ran but does not set up again: {e}"))?;
    let q = test_stream(&scenario.program(), mode, catalog).conf(conf).start().map_err(|e| format!("the query ran but does not start again: {e}"))?;
    let plan = q.query().plan();
    let blind = untraceable(plan);
    let lineage_to_sink = {
        let mut ok = true;
        plan.walk(&mut |p| ok &= !matches!(p.node, Node::Aggregate { .. } | Node::StreamJoin { .. } | Node::FlatMapGroupsWithState { .. } | Node::TransformWithState { .. }));
        ok
    };
    let has_static = {
        let mut s = false;
        plan.walk(&mut |p| s |= matches!(p.node, Node::StaticJoin { .. }));
        s
    };
    let window_agg: BTreeSet<usize> = {
        let mut s = BTreeSet::new();
        plan.walk(&mut |p| {
            if let Node::Aggregate { op_id, session: None, .. } = &p.node {
                s.insert(*op_id);
            }
        });
        s
    };
    // A global aggregation (no grouping key) writes its one row in every batch that runs, rows
    // or none (`own-global-count-after-dedup-nodata-update`: Spark's numRowsUpdated is 1 in its
    // no-data batches too).
    let global_agg: BTreeSet<usize> = {
        let mut s = BTreeSet::new();
        plan.walk(&mut |p| {
            if let Node::Aggregate { op_id, keys, session: None, .. } = &p.node {
                if keys.is_empty() {
                    s.insert(*op_id);
                }
            }
        });
        s
    };
    let expected = scenario.expected.as_ref().map(|e| &e.batches[..]).unwrap_or(&[]);
    let pass = explained == Verdict::Pass;
    c.cases += 1;
    for (i, (_, b)) in run.batches.iter().enumerate() {
        let at = format!("batch {}", b.batch_id);
        let e = b.explanation.as_ref().ok_or(format!("{at}: no explanation"))?;
        c.batches += 1;
        c.rows += e.rows.len();
        if e.batch_id != b.batch_id || e.watermark_ms != b.watermark_ms {
            return Err(format!("{at}: id or watermark differs from the batch"));
        }
        if e.rows.len() as u64 != b.input_rows || b.progress.num_input_rows != b.input_rows {
            return Err(format!("{at}: {} explained rows, numInputRows {}", e.rows.len(), b.input_rows));
        }
        if let Some(r) = e.rows.iter().find(|r| r.fates.is_empty()) {
            return Err(format!("{at}: row {} of {} has no fate", r.offset, r.source));
        }
        if e.emitted_rows != b.rows.len() as u64 {
            return Err(format!("{at}: emitted_rows {} but the sink got {}", e.emitted_rows, b.rows.len()));
        }
        let want = pass.then(|| expected.get(i)).flatten();
        if let Some(w) = want {
            if e.emitted_rows != w.rows.len() as u64 {
                return Err(format!("{at}: emitted_rows {} but Spark emitted {}", e.emitted_rows, w.rows.len()));
            }
            let spark: Vec<(String, u64, u64, u64, u64)> =
                w.state.iter().map(|s| (s.operator.clone(), s.num_rows_total, s.num_rows_updated, s.num_rows_removed, s.num_rows_dropped_by_watermark)).collect();
            let ours: Vec<(String, u64, u64, u64, u64)> = e
                .operators
                .iter()
                .map(|s| (s.operator.clone(), s.num_rows_total, s.num_rows_updated, s.num_rows_removed, s.num_rows_dropped_by_watermark))
                .collect();
            if spark != ours {
                return Err(format!("{at}: operator summaries {ours:?}, Spark {spark:?}"));
            }
        }
        match (&e.reason, b.no_data) {
            (BatchReason::NewData { rows }, false) if *rows == b.input_rows => {}
            (BatchReason::WatermarkMoved { from_ms, to_ms, .. }, true) if to_ms > from_ms => {}
            (BatchReason::Recovered, _) => {}
            (r, no_data) => return Err(format!("{at}: reason {r:?} for a batch with no_data = {no_data}")),
        }
        for op in &e.operators {
            let lates: Vec<&RowFate> = e.rows.iter().flat_map(|r| &r.fates).filter(|f| matches!(f, RowFate::Late { op_id, .. } if *op_id == op.op_id)).collect();
            c.late += lates.len();
            if blind.contains(&op.op_id) {
                c.late_skipped_ops += 1;
                continue;
            }
            c.late_checked_ops += 1;
            let counted = if window_agg.contains(&op.op_id) {
                let groups: BTreeSet<String> = lates.iter().map(|f| match f {
                    RowFate::Late { key, window, .. } => format!("{key:?} {window:?}"),
                    _ => String::new(),
                }).collect();
                groups.len() as u64
            } else {
                lates.len() as u64
            };
            // A metric sums over the operator's runs (two when a sort sampled it).
            if counted * op.runs != op.num_rows_dropped_by_watermark {
                return Err(format!("{at}: operator {} ({}) has {counted} late fates (groups), numRowsDroppedByWatermark {}", op.op_id, op.operator, op.num_rows_dropped_by_watermark));
            }
            // Rows written: one per group a window aggregation took rows into, one per new
            // key of a deduplication.
            let written: Option<u64> = match op.operator.as_str() {
                "stateStoreSave" if global_agg.contains(&op.op_id) => Some(1),
                "stateStoreSave" => Some(
                    e.rows
                        .iter()
                        .flat_map(|r| &r.fates)
                        .filter_map(|f| match f {
                            RowFate::Aggregated { op_id, key, window } if *op_id == op.op_id => Some(format!("{key:?} {window:?}")),
                            _ => None,
                        })
                        .collect::<BTreeSet<String>>()
                        .len() as u64,
                ),
                "dedupe" | "dedupeWithinWatermark" => {
                    Some(e.rows.iter().flat_map(|r| &r.fates).filter(|f| matches!(f, RowFate::FirstOfKey { op_id, .. } if *op_id == op.op_id)).count() as u64)
                }
                _ => None,
            };
            if let Some(w) = written {
                c.updated_checked_ops += 1;
                if w * op.runs != op.num_rows_updated {
                    return Err(format!("{at}: operator {} ({}) took rows into {w} groups/keys, numRowsUpdated {}", op.op_id, op.operator, op.num_rows_updated));
                }
            }
        }
        if lineage_to_sink {
            let mut indices: Vec<usize> = e.rows.iter().flat_map(|r| &r.fates).filter_map(|f| if let RowFate::Emitted { index } = f { Some(*index) } else { None }).collect();
            c.emitted += indices.len();
            indices.sort_unstable();
            let distinct = indices.windows(2).all(|w| w[0] != w[1]);
            let in_range = indices.last().is_none_or(|l| *l < b.rows.len());
            let all = has_static || indices.len() == b.rows.len();
            if !(distinct && in_range && all) {
                return Err(format!("{at}: {} Emitted fates for {} output rows", indices.len(), b.rows.len()));
            }
        }
    }
    Ok(())
}
