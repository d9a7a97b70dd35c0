//! Checking a question's claim against the engine (`quizzes/README.md`, "File format").
//!
//! A claim is checked on the facts of one run: the plain run (`scenario::run`, the conformance
//! harness's semantics), or, when the claim has a `script`, a `LabSession` after those
//! actions. Recovery keys (`duplicates`, `sink_visible_rows`, `runs`, `restart_error_contains`)
//! without a script use [`recovery_run`]: a session with a sink, a crash and a restart.


use serde_json::Value as Json;
use streamlab_engine::scenario::{self, ScenarioRun};
use streamlab_engine::streaming::{CrashPoint, SinkKind};
use streamlab_engine::types::{format_timestamp_us, parse_timestamp_us, Value};
use streamlab_engine::{Error, Stage};

use crate::lab::presets::{day_of, scenario_day, scenario_day_us};

use crate::study::quiz::{Claim, Question};
use crate::lab::session::{display_cell, RecoveryView, LabSession};

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Define => "define",
        Stage::Start => "start",
        Stage::Run => "run",
    }
}

/// One batch as a claim sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BatchFacts {
    pub id: u64,
    /// Emitted rows as the lab shows them, cells joined by ` | `.
    pub rows: Vec<String>,
    pub watermark_ms: Option<i64>,
    pub late_watermark_ms: i64,
    pub no_data: bool,
    /// The batch's `StreamingQueryProgress` as JSON.
    pub progress: Json,
}

/// What a run produced, whichever way it was driven.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct RunFacts {
    /// (error condition, stage, message) of an analysis error; (`""`, `""`, message) of
    /// another error.
    pub error: Option<(String, String, String)>,
    pub batches: Vec<BatchFacts>,
    /// The checkpoint and sink (session runs only).
    pub recovery: Option<RecoveryView>,
    /// Where each batch came from, for messages (`b3@step1`).
    pub labels: Vec<String>,
}

/// Cells of one row joined as claims write them.
pub(crate) fn row_text(cells: &[String]) -> String {
    cells.join(" | ")
}

fn plain_facts(q: &Question) -> Result<RunFacts, String> {
    let scenario = q.scenario()?;
    let run: ScenarioRun = scenario::run(&scenario);
    // The day short times are shown on, as the lab picks it: the steps' first event time, else
    // (a rate source) the first time the run read.
    let read_time = run.batches.iter().flat_map(|(_, b)| b.input_by_source().into_values().flatten()).find_map(|r| {
        r.iter().find_map(|v| if let Value::Timestamp(t) = v { Some(*t) } else { None })
    });
    let day = scenario_day(&scenario).or(read_time.map(day_of)).unwrap_or_else(|| scenario_day_us(&scenario));
    let error = run.error.as_ref().map(|e| match e {
        Error::Analysis(a) => (a.error_class.clone(), stage_name(a.stage).to_string(), a.message.clone()),
        other => (String::new(), String::new(), other.to_string()),
    });
    let batches = run
        .batches
        .iter()
        .map(|(_, b)| BatchFacts {
            id: b.batch_id,
            rows: b.rows.iter().map(|r| row_text(&r.iter().map(|v| display_cell(v, day)).collect::<Vec<_>>())).collect(),
            watermark_ms: b.watermark_ms,
            late_watermark_ms: b.late_watermark_ms,
            no_data: b.no_data,
            progress: serde_json::to_value(&b.progress).unwrap_or(Json::Null),
        })
        .collect();
    let labels = run.batches.iter().map(|(s, b)| format!("b{}@step{s}", b.batch_id)).collect();
    Ok(RunFacts { error, batches, recovery: None, labels })
}

/// The facts of a lab session as it stands (what its view shows).
pub(crate) fn session_facts(s: &LabSession) -> RunFacts {
    let v = s.view();
    let progress = s.progress_jsons();
    RunFacts {
        error: v.error.as_ref().map(|e| (e.error_class.clone().unwrap_or_default(), e.stage.clone().unwrap_or_default(), e.message.clone())),
        batches: v
            .batches
            .iter()
            .zip(&progress)
            .map(|(b, progress)| BatchFacts {
                id: b.id,
                rows: b.rows.iter().map(|r| row_text(r)).collect(),
                watermark_ms: b.watermark_ms,
                late_watermark_ms: b.late_watermark_ms,
                no_data: b.no_data,
                progress: serde_json::from_str(progress).unwrap_or(Json::Null),
            })
            .collect(),
        labels: v.batches.iter().map(|b| format!("b{}", b.id)).collect(),
        recovery: v.recovery,
    }
}

fn script_facts(q: &Question, script: &[String]) -> Result<RunFacts, String> {
    let mut s = LabSession::from_scenario(q.scenario()?);
    crate::lab::script::run(&mut s, script)?;
    Ok(session_facts(&s))
}

/// The value at a dotted path (`sources.0.endOffset`) of a JSON document.
pub(crate) fn json_path<'a>(doc: &'a Json, path: &str) -> Option<&'a Json> {
    path.split('.').try_fold(doc, |v, part| match v {
        Json::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
        Json::Object(map) => map.get(part),
        _ => None,
    })
}

fn json_equal(a: &Json, b: &Json) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => a == b,
    }
}

fn state_number(b: &BatchFacts, field: &str) -> Option<u64> {
    json_path(&b.progress, &format!("stateOperators.0.{field}")).and_then(Json::as_u64)
}

/// Checks every plain key of `c` (not the recovery settings) on `facts`.
pub(crate) fn check_facts(c: &Claim, facts: &RunFacts) -> Result<(), String> {
    if c.error_class.is_some() || c.error_stage.is_some() {
        match &facts.error {
            Some((class, stage, message)) if !class.is_empty() => {
                if let Some(want) = &c.error_class {
                    if want != class {
                        return Err(format!("error_class: claimed {want}, the engine raised {class} ({message})"));
                    }
                }
                if let Some(want) = &c.error_stage {
                    if want != stage {
                        return Err(format!("error_stage: claimed {want}, the engine raised {class} at {stage}"));
                    }
                }
            }
            Some((_, _, message)) => return Err(format!("claimed an analysis error, the engine failed with: {message}")),
            None => return Err(format!("claimed an error, but the query ran ({} batches)", facts.batches.len())),
        }
    } else if let Some((_, _, message)) = &facts.error {
        if c.restart_error_contains.is_none() && c.ok != Some(false) {
            return Err(format!("the query failed: {message}"));
        }
    }
    if c.ok == Some(false) && facts.error.is_none() {
        return Err(format!("claimed the query fails, but it ran ({} batches)", facts.batches.len()));
    }
    if let Some(id) = c.batch {
        // The last batch with this id: after a restart on a temporary checkpoint ids start again.
        let Some(b) = facts.batches.iter().rev().find(|b| b.id == id) else {
            return Err(format!("batch {id} did not run (batches: [{}])", facts.labels.join(" ")));
        };
        if let Some(n) = c.rows {
            if b.rows.len() != n {
                return Err(format!("batch {id}: claimed {n} rows, the sink received {}", b.rows.len()));
            }
        }
        if let Some(want) = &c.row_set {
            let mut want = want.clone();
            let mut got = b.rows.clone();
            want.sort();
            got.sort();
            if want != got {
                return Err(format!("batch {id}: claimed row_set {want:?}, the sink received {got:?}"));
            }
        }
        for (key, claimed, actual) in [("watermark", &c.watermark, b.watermark_ms), ("late_watermark", &c.late_watermark, Some(b.late_watermark_ms))] {
            let Some(wm) = claimed else { continue };
            let want = parse_timestamp_us(wm).map_err(|m| format!("{key} '{wm}': {m}"))?;
            match actual {
                Some(ms) if ms * 1000 == want => {}
                Some(ms) => return Err(format!("batch {id}: claimed {key} {wm}, it ran with {}", format_timestamp_us(ms * 1000))),
                None => return Err(format!("batch {id}: claimed {key} {wm}, the query has no watermark")),
            }
        }
        if let Some(n) = c.input_rows {
            let got = json_path(&b.progress, "numInputRows").and_then(Json::as_u64);
            if got != Some(n) {
                return Err(format!("batch {id}: claimed input_rows = {n}, numInputRows = {got:?}"));
            }
        }
        let state_keys = [
            ("dropped", c.dropped, "numRowsDroppedByWatermark"),
            ("state_total", c.state_total, "numRowsTotal"),
            ("state_updated", c.state_updated, "numRowsUpdated"),
            ("state_removed", c.state_removed, "numRowsRemoved"),
            ("shuffle_partitions", c.shuffle_partitions, "numShufflePartitions"),
        ];
        for (key, claimed, field) in state_keys {
            let Some(n) = claimed else { continue };
            match state_number(b, field) {
                Some(got) if got == n => {}
                Some(got) => return Err(format!("batch {id}: claimed {key} = {n}, {field} = {got}")),
                None => return Err(format!("batch {id}: claimed {key} = {n}, but the query has no state operator")),
            }
        }
        if let Some(want) = &c.operators {
            let got: Vec<String> = json_path(&b.progress, "stateOperators")
                .and_then(Json::as_array)
                .map(|ops| ops.iter().filter_map(|o| o.get("operatorName").and_then(Json::as_str).map(str::to_string)).collect())
                .unwrap_or_default();
            if &got != want {
                return Err(format!("batch {id}: claimed operators {want:?}, the progress lists {got:?}"));
            }
        }
        if let Some(fields) = &c.progress {
            for (path, want) in fields {
                match json_path(&b.progress, path) {
                    Some(got) if json_equal(got, want) => {}
                    Some(got) => return Err(format!("batch {id}: claimed progress {path} = {want}, it is {got}")),
                    None => return Err(format!("batch {id}: claimed progress {path} = {want}, the progress has no {path}")),
                }
            }
        }
        if let Some(cells) = &c.row_with {
            let found = b.rows.iter().any(|row| {
                let mut it = row.split(" | ");
                cells.iter().all(|want| it.any(|x| x == want))
            });
            if !found {
                return Err(format!("batch {id}: claimed a row with {}, the sink received {:?}", cells.join(" | "), b.rows));
            }
        }
        if let Some(nd) = c.no_data {
            if b.no_data != nd {
                return Err(format!("batch {id}: claimed no_data = {nd}, it was {}", b.no_data));
            }
        }
    }
    if let Some(n) = c.batches {
        if facts.batches.len() != n {
            return Err(format!("claimed {n} batches, {} ran", facts.batches.len()));
        }
    }
    if let Some(n) = c.emitted_total {
        let total: usize = facts.batches.iter().map(|b| b.rows.len()).sum();
        if total != n {
            return Err(format!("claimed {n} rows emitted in total, the sink received {total}"));
        }
    }
    Ok(())
}

/// The recovery keys of a script claim, on the session's view.
fn check_script_recovery(c: &Claim, facts: &RunFacts) -> Result<(), String> {
    if let Some(want) = &c.restart_error_contains {
        match &facts.error {
            Some((_, _, got)) if got.contains(want.as_str()) => {}
            Some((_, _, got)) => return Err(format!("claimed restart_error_contains = '{want}', the session failed with: {got}")),
            None => return Err(format!("claimed restart_error_contains = '{want}', but nothing failed")),
        }
    }
    let wants_view = c.wants_view();
    if !wants_view {
        return Ok(());
    }
    let Some(r) = &facts.recovery else {
        return Err("claimed sink/checkpoint numbers, but the session has no query".into());
    };
    compare_recovery(c, r, "script", &facts.labels.join(" "))
}

fn compare_recovery(c: &Claim, r: &RecoveryView, setup: &str, ran: &str) -> Result<(), String> {
    if let Some(n) = c.duplicates {
        if r.duplicates != n {
            return Err(format!("{setup}: claimed duplicates = {n}, a reader sees {} (batches: [{ran}])", r.duplicates));
        }
    }
    if let Some(n) = c.sink_visible_rows {
        let visible = r.sink_rows.iter().filter(|w| w.visible).count();
        if visible != n {
            return Err(format!("{setup}: claimed sink_visible_rows = {n}, a reader sees {visible} ({} written in all; batches: [{ran}])", r.sink_rows.len()));
        }
    }
    if let Some(n) = c.runs {
        if r.runs != n {
            return Err(format!("{setup}: claimed runs = {n}, the checkpoint was started {} times", r.runs));
        }
    }
    let started: Vec<(&str, &str)> = r
        .events
        .iter()
        .filter_map(|e| e.strip_prefix("onQueryStarted: id="))
        .filter_map(|e| e.split_once(", runId="))
        .collect();
    for (key, want, pick) in [("query_id_kept", c.query_id_kept, 0usize), ("run_id_kept", c.run_id_kept, 1)] {
        let Some(want) = want else { continue };
        let ids: Vec<&str> = started.iter().map(|(id, run)| if pick == 0 { *id } else { *run }).collect();
        if ids.len() < 2 {
            return Err(format!("{setup}: claimed {key}, but the query started {} time(s)", ids.len()));
        }
        let kept = ids.iter().all(|i| *i == ids[0]);
        if kept != want {
            return Err(format!("{setup}: claimed {key} = {want}, the starts had {ids:?}"));
        }
    }
    if let Some(want) = c.active {
        if r.active != want {
            return Err(format!("{setup}: claimed active = {want}, the query is{} active", if r.active { "" } else { " not" }));
        }
    }
    if let Some(n) = c.progress_events {
        let got = r.events.iter().filter(|e| e.starts_with("onQueryProgress")).count();
        if got != n {
            return Err(format!("{setup}: claimed progress_events = {n}, the listener was called {got} times"));
        }
    }
    for (key, want, log) in [("offsets_last", c.offsets_last, r.offset_log.iter().map(|e| e.0).max()), ("commits_last", c.commits_last, r.commit_log.iter().map(|e| e.0).max())] {
        let Some(want) = want else { continue };
        if log != Some(want) {
            return Err(format!("{setup}: claimed {key} = {want}, the log ends at {log:?}"));
        }
    }
    Ok(())
}

/// What the recovery run of a claim ended with (see [`recovery_run`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryRun {
    /// The checkpoint and the sink at the end; `None` when the restart failed.
    pub recovery: Option<RecoveryView>,
    /// The session's error message after the restart, if it failed.
    pub restart_error: Option<String>,
    /// The ids of every batch that completed, in order (a re-run batch appears once, after
    /// the restart).
    pub batch_ids: Vec<u64>,
}

fn ids_text(ids: &[u64]) -> String {
    ids.iter().map(|i| format!("b{i}")).collect::<Vec<_>>().join(" ")
}

fn batch_ids(s: &LabSession) -> Vec<u64> {
    s.view().batches.iter().map(|b| b.id).collect()
}

/// One trigger that must run a batch.
fn trigger_one(s: &mut LabSession) -> Result<(), String> {
    let before = s.view().batches.len();
    s.trigger();
    let v = s.view();
    if v.batches.len() == before {
        let why = v.error.map_or_else(|| "nothing ran".to_string(), |e| e.message);
        return Err(format!("a batch was due but did not run: {why}"));
    }
    Ok(())
}

/// Drives the question's scenario through a [`LabSession`] writing to the claim's `sink`
/// (default memory). Without `crash_at_batch`: every step, as `run_step` does. With it: steps
/// and triggers one batch at a time until the next batch would get id `crash_at_batch`, then
/// `crash(crash_point)`, `restart()`, and (if the restart worked) triggers until idle — the
/// re-run batch and any no-data batch after it — and the remaining steps.
///
/// # Errors
/// An unknown sink or crash point, a query that does not start, or a crash batch that never
/// runs.
pub fn recovery_run(q: &Question) -> Result<RecoveryRun, String> {
    let c = &q.check;
    let kind = match &c.sink {
        Some(id) => SinkKind::parse(id).ok_or_else(|| format!("unknown sink '{id}'"))?,
        None => SinkKind::Memory,
    };
    let mut s = LabSession::from_scenario(q.scenario()?);
    s.set_sink(kind);
    if let Some(e) = s.view().error {
        return Err(format!("the query does not start: {}", e.message));
    }
    let mut restart_error = None;
    if let Some(crash_at) = c.crash_at_batch {
        let point_id = c.crash_point.as_deref().ok_or("crash_at_batch needs crash_point")?;
        let point = CrashPoint::parse(point_id).ok_or_else(|| format!("unknown crash point '{point_id}'"))?;
        loop {
            let next = s.view().batches.last().map_or(0, |b| b.id + 1);
            if next > crash_at {
                return Err(format!("batch {crash_at} already ran (batches: [{}])", ids_text(&batch_ids(&s))));
            }
            if s.batch_due() {
                if next == crash_at {
                    break;
                }
                trigger_one(&mut s)?;
            } else if !s.push_step() {
                return Err(format!("batch {crash_at} never runs: the scenario ends after batches [{}]", ids_text(&batch_ids(&s))));
            }
        }
        s.crash(point).map_err(|m| format!("batch {crash_at}: {m}"))?;
        if s.view().recovery.and_then(|r| r.crashed).is_none() {
            return Err(format!("batch {crash_at} did not crash at {point_id}"));
        }
        s.restart();
        restart_error = s.view().error.map(|e| e.message);
    }
    if restart_error.is_none() {
        // The re-run batch (and a no-data batch it makes due), then the rest of the steps.
        loop {
            let before = s.view().batches.len();
            s.trigger();
            if s.view().batches.len() == before {
                break;
            }
        }
        while s.run_step() {}
        if let Some(e) = s.view().error {
            return Err(format!("the query failed: {}", e.message));
        }
    }
    let v = s.view();
    Ok(RecoveryRun { recovery: v.recovery, restart_error, batch_ids: v.batches.iter().map(|b| b.id).collect() })
}

fn check_recovery(q: &Question) -> Result<(), String> {
    let c = &q.check;
    let run = recovery_run(q)?;
    let sink = c.sink.as_deref().unwrap_or("memory");
    let setup = match (c.crash_at_batch, &c.crash_point) {
        (Some(b), Some(p)) => format!("{sink} sink, crash at batch {b} ({p}) and restart"),
        _ => format!("{sink} sink, no crash"),
    };
    match (&c.restart_error_contains, &run.restart_error) {
        (Some(want), Some(got)) if !got.contains(want.as_str()) => {
            return Err(format!("{setup}: claimed restart_error_contains = '{want}', the restart failed with: {got}"));
        }
        (Some(want), None) => return Err(format!("{setup}: claimed restart_error_contains = '{want}', but the restart worked")),
        _ => {}
    }
    let wants_view = c.wants_view();
    let Some(r) = run.recovery.as_ref().filter(|_| wants_view) else {
        if wants_view {
            let why = run.restart_error.as_deref().unwrap_or("no query");
            return Err(format!("{setup}: claimed sink/checkpoint numbers, but the restart failed: {why}"));
        }
        return Ok(());
    };
    compare_recovery(c, r, &setup, &ids_text(&run.batch_ids))
}

/// Runs the question's scenario through the engine and checks every key of its
/// `[question.check]` claim.
///
/// # Errors
/// The first key that does not hold (or an empty claim, or a scenario that cannot be built),
/// with the question's id.
pub fn check_claim(q: &Question) -> Result<(), String> {
    let c = &q.check;
    let fail = |m: String| Err(format!("question '{}': {m}", q.id));
    if c.is_empty() {
        return fail("[question.check] is empty: a claim that cannot fail".into());
    }
    if let Some(want) = &c.lens_rules {
        let got = match lens_rules_of(q) {
            Ok(g) => g,
            Err(m) => return fail(m),
        };
        if &got != want {
            return fail(format!("lens_rules: claimed {want:?}, the engine reports {got:?}"));
        }
        if (Claim { lens_rules: None, ..c.clone() }).is_empty() {
            return Ok(());
        }
    }
    if let Some(script) = &c.script {
        let facts = match script_facts(q, script) {
            Ok(f) => f,
            Err(m) => return fail(m),
        };
        if let Err(m) = check_facts(c, &facts).and_then(|()| check_script_recovery(c, &facts)) {
            return fail(m);
        }
        return Ok(());
    }
    let facts = match plain_facts(q) {
        Ok(f) => f,
        Err(m) => return fail(m),
    };
    let plain = Claim { restart_error_contains: None, ..c.clone() };
    if let Err(m) = check_facts(&plain, &facts) {
        return fail(m);
    }
    if c.is_recovery() {
        if let Err(m) = check_recovery(q) {
            return fail(m);
        }
    }
    Ok(())
}

/// The claim one choice makes: its own result keys, run with the question's settings
/// (`script`, `sink`, the crash) and, when it gives per-batch keys without a `batch`, the
/// question's batch.
pub fn choice_claim(q: &Question, option: &Claim) -> Claim {
    let base = &q.check;
    let mut c = option.clone();
    c.script = c.script.or_else(|| base.script.clone());
    c.sink = c.sink.or_else(|| base.sink.clone());
    c.crash_at_batch = c.crash_at_batch.or(base.crash_at_batch);
    c.crash_point = c.crash_point.or_else(|| base.crash_point.clone());
    if c.batch.is_none() && c.has_batch_keys() {
        c.batch = base.batch;
    }
    c
}

/// The engine decides which choice is right: with `tie`, the right choice (in both languages)
/// shows the claim's value and no other does ([`crate::study::rules::tie_holds`]); with
/// `choice_check`, the right choice's own claim holds in the engine and every other choice's
/// claim fails. So a wrong `answer` always fails this check. Value questions are decided by
/// their claim alone.
///
/// # Errors
/// The question has no decider, or the engine does not single out the keyed choice.
pub fn decide(q: &Question) -> Result<(), String> {
    if q.kind == crate::study::quiz::Kind::Value {
        return Ok(());
    }
    let fail = |m: String| Err(format!("question '{}': {m}", q.id));
    if q.tie.is_some() {
        return crate::study::rules::tie_holds(q).or_else(fail);
    }
    if q.choice_check.is_empty() {
        return fail("no decider: give `tie` or a `choice_check` per choice, so that the engine picks the right choice".into());
    }
    if q.choice_check.len() != q.text.en.choices.len() {
        return fail(format!("{} choice_check entries for {} choices", q.choice_check.len(), q.text.en.choices.len()));
    }
    for (i, option) in q.choice_check.iter().enumerate() {
        if option.is_empty() {
            return fail(format!("choice_check {i} is empty"));
        }
        let probe = Question {
            query: option.query.clone().or_else(|| q.query.clone()),
            output_mode: option.output_mode.clone().or_else(|| q.output_mode.clone()),
            check: Claim { query: None, output_mode: None, ..choice_claim(q, option) },
            ..q.clone()
        };
        let holds = check_claim(&probe);
        match (i == q.answer, holds) {
            (true, Err(m)) => return fail(format!("the keyed choice {i}'s claim fails in the engine: {m}")),
            (false, Ok(())) => return fail(format!("choice {i} ('{}') is not the key, but its claim holds in the engine too", q.text.en.choices[i])),
            _ => {}
        }
    }
    Ok(())
}

/// The exam-lens rules of a question's query (its scenario, overrides and the claim's sink).
fn lens_rules_of(q: &Question) -> Result<Vec<String>, String> {
    let s = q.scenario()?;
    let catalog = s.catalog().map_err(|e| e.to_string())?;
    let mode = s.mode().map_err(|e| e.to_string())?;
    let sink = match &q.check.sink {
        Some(id) => Some(SinkKind::ALL.into_iter().find(|k| k.id() == id).ok_or_else(|| format!("unknown sink '{id}'"))?),
        None => None,
    };
    Ok(crate::lab::session::engine_rules(&s.query, &catalog, mode, sink).into_iter().map(str::to_string).collect())
}
