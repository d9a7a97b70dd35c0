//! Running a scenario as the recording harness ran it in Spark: one long-running query whose
//! steps each add rows and run every batch Spark would run ([`run`]), or each step as an
//! `availableNow` restart on the same checkpoint ([`run_available_now`]).

use super::*;
use crate::streaming::{BatchResult, StreamingQuery};

/// The engine's run of a scenario.
#[derive(Debug, Clone)]
pub struct ScenarioRun {
    /// The error the query stopped with, and at which step for run errors.
    pub error: Option<Error>,
    /// The analyzed query's output columns; empty when the query could not be defined.
    pub output: Vec<Attr>,
    /// (step, batch) for every batch that ran.
    pub batches: Vec<(usize, BatchResult)>,
    /// The step during which the query stopped with its error, for run errors.
    pub error_step: Option<usize>,
}

/// Runs a scenario as the harness ran it in Spark: one query, each step's rows added to
/// every source, then every batch Spark would run until idle.
pub fn run(scenario: &Scenario) -> ScenarioRun {
    run_continuous(scenario, false)
}

/// [`run`] or [`run_available_now`] (per `driver`) with every batch explaining itself
/// ([`StreamingQuery::set_explaining`], [`BatchResult::explanation`]).
pub fn run_explained(scenario: &Scenario, driver: Driver) -> ScenarioRun {
    match driver {
        Driver::Continuous => run_continuous(scenario, true),
        Driver::AvailableNowRestarts => run_restarts(scenario, true),
    }
}

fn run_continuous(scenario: &Scenario, explaining: bool) -> ScenarioRun {
    let fail = |e: Error| ScenarioRun { error: Some(e), output: vec![], batches: vec![], error_step: None };
    let (catalog, mode, conf) = match scenario.setup() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut q = match StreamingQuery::start(&scenario.program(), &catalog, mode, conf) {
        Ok(q) => q,
        Err(e) => return fail(e),
    };
    if let Err(e) = apply_source_kinds(scenario, &mut q) {
        return fail(e);
    }
    q.set_explaining(explaining);
    let output = q.plan().output.clone();
    let mut batches = Vec::new();
    for (i, step) in scenario.steps.iter().enumerate() {
        for (source, rows) in step {
            let schema = match step_schema(scenario, i, source) {
                Ok(s) => s,
                Err(e) => return ScenarioRun { error: Some(e), output, batches, error_step: None },
            };
            let typed: Result<Vec<Row>, String> = rows.iter().map(|r| json_to_row(&schema, r)).collect();
            let added = typed.map_err(|m| Error::Scenario(format!("step {i}, source '{source}': {m}"))).and_then(|rows| q.add_data(source, &rows));
            if let Err(e) = added {
                return ScenarioRun { error: Some(e), output, batches, error_step: None };
            }
        }
        q.set_clock_ms(i as i64 * crate::types::time::MILLIS_PER_SECOND);
        for b in q.process_all_available() {
            batches.push((i, b));
        }
        if let Some(e) = q.exception() {
            return ScenarioRun { error: Some(e.clone()), output, batches, error_step: Some(i) };
        }
    }
    ScenarioRun { error: None, output, batches, error_step: None }
}

/// The schema of the source a step names.
///
/// # Errors
/// A step naming a source the scenario does not define, or a bad schema.
fn step_schema(scenario: &Scenario, step: usize, source: &str) -> Result<Vec<(String, DataType)>, Error> {
    let def = scenario
        .sources
        .get(source)
        .ok_or_else(|| Error::Scenario(format!("step {step} names the source '{source}', which the scenario does not define")))?;
    typed_schema(&def.schema)
}

/// Applies each source's `kind` to a query.
///
/// # Errors
/// As [`SourceDef::source_kind`].
pub fn apply_source_kinds(scenario: &Scenario, q: &mut StreamingQuery) -> Result<(), Error> {
    for (name, def) in &scenario.sources {
        q.set_source_kind(name, def.source_kind()?);
        q.set_payload_schema(name, typed_schema(&def.schema)?);
    }
    Ok(())
}

/// How the harness runs the steps (conformance README).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    /// One long-running query with the default trigger.
    Continuous,
    /// Each step is a new run with `trigger(availableNow=True)` on the same checkpoint.
    AvailableNowRestarts,
}

/// Runs a scenario with each step as a separate `availableNow` run on one checkpoint: add
/// the step's rows, start the query on the checkpoint, run until idle, stop.
pub fn run_available_now(scenario: &Scenario) -> ScenarioRun {
    run_restarts(scenario, false)
}

fn run_restarts(scenario: &Scenario, explaining: bool) -> ScenarioRun {
    let fail = |e: Error| ScenarioRun { error: Some(e), output: vec![], batches: vec![], error_step: None };
    let (catalog, mode, conf) = match scenario.setup() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    // The first start() checks the query; each later run restarts on the checkpoint.
    let first = match StreamingQuery::start(&scenario.program(), &catalog, mode, conf.clone()) {
        Ok(q) => q,
        Err(e) => return fail(e),
    };
    let output = first.plan().output.clone();
    let mut first = first;
    if let Err(e) = apply_source_kinds(scenario, &mut first) {
        return fail(e);
    }
    // The harness writes with foreachBatch, which resumes from a checkpoint in any mode.
    first.sink = crate::streaming::SinkKind::ForeachBatchNaive.create();
    let (mut checkpoint, mut sources, mut sink) = first.stop();
    checkpoint.runs = 0;
    let mut batches = Vec::new();
    for (i, step) in scenario.steps.iter().enumerate() {
        for (source, rows) in step {
            let schema = match step_schema(scenario, i, source) {
                Ok(s) => s,
                Err(e) => return ScenarioRun { error: Some(e), output, batches, error_step: None },
            };
            let Some(s) = sources.iter_mut().find(|s| s.name() == source) else {
                return ScenarioRun { error: Some(Error::Scenario(format!("step {i} names the source '{source}', which the query does not read"))), output, batches, error_step: None };
            };
            let typed: Result<Vec<Row>, String> = rows.iter().map(|r| json_to_row(&schema, r)).collect();
            match typed.and_then(|rows| if rows.is_empty() { Ok(()) } else { s.add_rows(&rows).map(|_| ()) }) {
                Ok(()) => {}
                Err(m) => return ScenarioRun { error: Some(Error::Scenario(format!("step {i}, source '{source}': {m}"))), output, batches, error_step: None },
            }
        }
        let mut q = match StreamingQuery::restart(&scenario.program(), &catalog, mode, conf.clone(), checkpoint, sources, sink) {
            Ok(q) => q,
            Err(e) => return ScenarioRun { error: Some(e), output, batches, error_step: None },
        };
        q.set_clock_ms(i as i64 * crate::types::time::MILLIS_PER_SECOND);
        q.set_explaining(explaining);
        for b in q.process_all_available() {
            batches.push((i, b));
        }
        if let Some(e) = q.exception() {
            return ScenarioRun { error: Some(e.clone()), output, batches, error_step: Some(i) };
        }
        (checkpoint, sources, sink) = q.stop();
    }
    ScenarioRun { error: None, output, batches, error_step: None }
}

