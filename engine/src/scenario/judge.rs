//! Judging a run against what Spark did: batch ids and steps, rows as multisets, watermarks,
//! state metrics, the output schema, or the error's stage, condition and message
//! (`engine/tests/spark/README.md`, "What to compare").

use super::*;

/// How a scenario's expectation compares with the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The run matches everything Spark recorded.
    Pass,
    /// The first difference.
    Fail(String),
    /// A feature the engine does not model yet.
    Unsupported(String),
}

/// `#14` → `#N`: the harness writes expression ids this way (conformance README).
fn normalize_expr_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '#' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push('N');
        }
    }
    out
}

/// The core of a Spark message: without `[CLASS] ` prefix, ` SQLSTATE: ...` suffix and the
/// plan after `;\n`, with expression ids written `#N`.
pub fn message_core(message: &str) -> String {
    let message = &normalize_expr_ids(message);
    let mut m = message.trim();
    if m.starts_with('[') {
        if let Some(end) = m.find("] ") {
            m = &m[end + 2..];
        }
    }
    if let Some(i) = m.find(" SQLSTATE: ") {
        m = &m[..i];
    }
    if let Some(i) = m.find(";\n") {
        m = &m[..i];
    }
    m.trim().trim_end_matches(';').trim().to_string()
}

/// A message as the recording harness normalised Spark's: UUIDs become `<uuid>` and
/// expression ids (`#123`) become `#N`, so that the engine's text compares with the corpus.
pub fn normalize_message(message: &str) -> String {
    thread_local! {
        static PATTERNS: Option<(regex_lite::Regex, regex_lite::Regex)> = regex_lite::Regex::new(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        )
        .ok()
        .zip(regex_lite::Regex::new("#[0-9]+").ok());
    }
    PATTERNS.with(|p| match p {
        Some((uuid, expr_id)) => expr_id.replace_all(&uuid.replace_all(message, "<uuid>"), "#N").into_owned(),
        None => message.to_string(),
    })
}

/// Compares the engine's run of `scenario` with its `expected` block (conformance README,
/// "What to compare").
pub fn check(scenario: &Scenario) -> Verdict {
    check_with(scenario, Driver::Continuous)
}

/// [`check`] with a given driver.
///
/// Compares, in this order: the error (stage, condition — `null` in the recording is an
/// exception without one —, message, and for run errors the cause's condition and message
/// and the step), the output schema, then every batch Spark ran (also the batches before a run
/// error): id and step, input rows, watermark, rows as a multiset of (column, value) lists in
/// column order, and each stateful operator's metrics. A recording the judge cannot read
/// (an unparsable watermark) is a failure, never a pass.
pub fn check_with(scenario: &Scenario, driver: Driver) -> Verdict {
    if scenario.expected.is_none() {
        return Verdict::Fail("the scenario has no expected block".into());
    }
    let run = match driver {
        Driver::Continuous => run(scenario),
        Driver::AvailableNowRestarts => run_available_now(scenario),
    };
    judge(scenario, &run)
}

/// Compares an engine run of `scenario` (from [`run`], [`run_available_now`] or
/// [`run_explained`]) with its `expected` block, as [`check_with`] does.
pub fn judge(scenario: &Scenario, run: &ScenarioRun) -> Verdict {
    let Some(expected) = &scenario.expected else {
        return Verdict::Fail("the scenario has no expected block".into());
    };
    // A step naming a source the scenario does not define is a broken recording, whatever
    // the query does with it (a query refused at define time never reads the steps).
    for (i, step) in scenario.steps.iter().enumerate() {
        if let Some(source) = step.keys().find(|s| !scenario.sources.contains_key(*s)) {
            return Verdict::Fail(format!("step {i} names the source '{source}', which the scenario does not define"));
        }
    }
    // A feature the engine does not model: the batches it ran before giving up must still be
    // right; past that point it cannot be judged.
    let not_modelled = match &run.error {
        Some(Error::Unsupported(feature)) => Some(feature.clone()),
        Some(Error::Parse(p)) => p.unsupported.clone(),
        _ => None,
    };
    if let Some(feature) = not_modelled {
        for ((_, got), want) in run.batches.iter().zip(&expected.batches) {
            let rows: Vec<ExpectedRow> = got.rows.iter().map(|r| row_to_cells(r, &run.output)).collect();
            if got.batch_id != want.batch_id || row_multiset_diff(&want.rows, &rows).is_some() {
                return Verdict::Fail(format!("batch {} differs before the unsupported feature ({feature}) was reached", want.batch_id));
            }
        }
        return Verdict::Unsupported(feature);
    }
    match (&expected.error, &run.error) {
        (Some(e), Some(Error::Analysis(a))) => {
            if let Some(why) = compare_error(e, a) {
                return Verdict::Fail(why);
            }
            // The harness records the step of a run error, and step 0 for a start error (the
            // query starts before the first step).
            let ours = if e.stage == "run" { run.error_step } else { Some(0) };
            if e.step.is_some() && e.step != ours {
                return Verdict::Fail(format!("{} error at step {ours:?}, expected at step {:?}", e.stage, e.step));
            }
        }
        (Some(e), Some(other)) => return Verdict::Fail(format!("expected {} error {:?}, got: {other}", e.stage, e.error_class)),
        (Some(e), None) => return Verdict::Fail(format!("expected {} error {:?}, but the query ran", e.stage, e.error_class)),
        (None, Some(err)) => return Verdict::Fail(format!("unexpected error: {err}")),
        (None, None) => {}
    }
    // A query refused at define or start time has no output schema on our side (Spark's
    // DataFrame had one); a run error's query did.
    let refused = expected.error.as_ref().is_some_and(|e| e.stage != "run");
    if let Some(schema) = expected.output_schema.as_ref().filter(|_| !refused) {
        let ours: Vec<(String, String)> = run.output.iter().map(|a| (a.name.clone(), crate::types::spark_type_name(&a.data_type))).collect();
        if &ours != schema {
            return Verdict::Fail(format!("output schema: expected {schema:?}, got {ours:?}"));
        }
    }
    match compare_batches(&expected.batches, run) {
        Some(why) => Verdict::Fail(why),
        None => Verdict::Pass,
    }
}

/// How the recording harness's `foreachBatch` reports an exception raised in a Python worker.
const PYTHON_PROXY_WRAPPER: &str = "[FOREACH_BATCH_USER_FUNCTION_ERROR] An error occurred in the user provided function in foreach batch sink. Reason: An exception was raised by the Python Proxy.";

/// What differs between Spark's error and the engine's, if anything.
fn compare_error(e: &ExpectedError, a: &crate::error::AnalysisError) -> Option<String> {
    let stage = match a.stage {
        Stage::Define => "define",
        Stage::Start => "start",
        Stage::Run => "run",
    };
    if stage != e.stage {
        return Some(format!("error stage: expected {}, got {stage}", e.stage));
    }
    // `null`: an exception without an error condition (e.g. `require` failures).
    if e.error_class.as_deref().unwrap_or("") != a.error_class {
        return Some(format!("error class: expected {:?}, got {:?}", e.error_class, a.error_class));
    }
    // The corpus cuts long messages; a message of ours that starts with Spark's is the same.
    let want = message_core(&e.message);
    let got = message_core(&normalize_message(&a.message));
    if e.message.contains(PYTHON_PROXY_WRAPPER) {
        // The recording harness collects every batch in a Python `foreachBatch` (it calls
        // `collect()` there): whatever fails while the batch's rows are computed reaches it as
        // a Python exception, wrapped in the foreachBatch proxy's error and cut before the
        // cause — an exception a state function raised in the Python worker, and as much a
        // task's ANSI error (`CAST_INVALID_INPUT`, `CAST_OVERFLOW`, `DIVIDE_BY_ZERO`,
        // `ARITHMETIC_OVERFLOW`) that surfaced as `Py4JJavaError`. Such a record says only "the
        // batch failed while it was computed": the engine's error must be that (a run error
        // with the cause its batch raised); the cause itself is checked by unit tests against
        // the oracle's log.
        let before = want.split("[FOREACH_BATCH_USER_FUNCTION_ERROR]").next().unwrap_or_default().trim_end();
        if !got.starts_with(before) || a.cause.is_none() {
            return Some(format!("error message: expected {before} … an error raised while the batch was computed, got: {got}"));
        }
        return None;
    }
    if want.is_empty() || !got.starts_with(want.trim_end()) {
        return Some(format!("error message:\n  expected: {want}\n  got:      {got}"));
    }
    if e.cause_error_class.is_some() || e.cause_message.is_some() {
        let got = a.cause.as_ref().map(|(c, _)| c.as_str());
        if got != e.cause_error_class.as_deref() {
            return Some(format!("cause error class: expected {:?}, got {got:?}", e.cause_error_class));
        }
        let want = message_core(e.cause_message.as_deref().unwrap_or_default());
        let got_msg = a.cause.as_ref().map(|(_, m)| message_core(&normalize_message(m))).unwrap_or_default();
        if want.is_empty() || !got_msg.starts_with(want.trim_end()) {
            return Some(format!("cause message:\n  expected: {want}\n  got:      {got_msg}"));
        }
    }
    None
}

/// What differs between Spark's batches and the engine's, if anything.
fn compare_batches(want_batches: &[ExpectedBatch], run: &ScenarioRun) -> Option<String> {
    if run.batches.len() != want_batches.len() {
        let ids: Vec<String> = run.batches.iter().map(|(s, b)| format!("b{}@s{s}", b.batch_id)).collect();
        let exp: Vec<String> = want_batches.iter().map(|b| format!("b{}@s{}", b.batch_id, b.step)).collect();
        return Some(format!("batches: expected [{}], got [{}]", exp.join(" "), ids.join(" ")));
    }
    for ((step, got), want) in run.batches.iter().zip(want_batches) {
        let at = format!("batch {}", want.batch_id);
        if got.batch_id != want.batch_id || *step != want.step {
            return Some(format!("{at}: expected id {} at step {}, got id {} at step {step}", want.batch_id, want.step, got.batch_id));
        }
        if got.input_rows != want.input_rows {
            return Some(format!("{at}: input_rows expected {}, got {}", want.input_rows, got.input_rows));
        }
        let wm_want = match want.watermark.as_deref().map(parse_timestamp_us).transpose() {
            Ok(w) => w,
            Err(e) => return Some(format!("{at}: the recorded watermark cannot be read: {e}")),
        };
        let wm_got = got.watermark_ms.map(|ms| WatermarkMs::from_ms(ms).micros());
        if wm_want != wm_got {
            return Some(format!(
                "{at}: watermark expected {:?}, got {:?}",
                want.watermark,
                got.watermark_ms.map(|m| WatermarkMs::from_ms(m).as_event_time().to_string())
            ));
        }
        let rows: Vec<ExpectedRow> = got.rows.iter().map(|r| row_to_cells(r, &run.output)).collect();
        if let Some(diff) = row_multiset_diff(&want.rows, &rows) {
            return Some(format!("{at}: rows differ: {diff}"));
        }
        let state: Vec<ExpectedState> = got
            .state
            .iter()
            .map(|s| ExpectedState {
                operator: s.operator_name.clone(),
                num_rows_total: s.num_rows_total,
                num_rows_updated: s.num_rows_updated,
                num_rows_removed: s.num_rows_removed,
                num_rows_dropped_by_watermark: s.num_rows_dropped_by_watermark,
            })
            .collect();
        if state != want.state {
            return Some(format!("{at}: state expected {:?}, got {:?}", want.state, state));
        }
    }
    None
}

/// True when two rows have the same columns in the same order (repeated names included) and
/// matching values ([`json_matches`]).
pub fn rows_match(want: &ExpectedRow, got: &ExpectedRow) -> bool {
    want.0.len() == got.0.len() && want.0.iter().zip(&got.0).all(|((wk, wv), (gk, gv))| wk == gk && json_matches(wv, gv))
}

/// `None` if `want` and `got` hold the same rows in any order; else what differs.
pub fn row_multiset_diff(want: &[ExpectedRow], got: &[ExpectedRow]) -> Option<String> {
    diff_as_multisets(want, got, rows_match)
}

/// `None` if every item of `want` pairs with one of `got` under `same` and none is left over;
/// else the missing and unexpected items, as the judge prints them.
fn diff_as_multisets<T: std::fmt::Display>(want: &[T], got: &[T], same: impl Fn(&T, &T) -> bool) -> Option<String> {
    let mut remaining: Vec<&T> = got.iter().collect();
    let mut missing = Vec::new();
    for w in want {
        match remaining.iter().position(|g| same(w, g)) {
            Some(i) => {
                remaining.remove(i);
            }
            None => missing.push(w.to_string()),
        }
    }
    if missing.is_empty() && remaining.is_empty() {
        None
    } else {
        Some(format!(
            "missing {} [{}], unexpected {} [{}]",
            missing.len(),
            missing.join(", "),
            remaining.len(),
            remaining.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(", ")
        ))
    }
}

/// Compares two JSON values: numbers with a relative tolerance of 1e-9, timestamp strings by
/// their instant.
pub fn json_matches(want: &Json, got: &Json) -> bool {
    match (want, got) {
        (Json::Number(a), Json::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => {
                let (x, y) = (a.as_f64().unwrap_or(f64::NAN), b.as_f64().unwrap_or(f64::NAN));
                x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
            }
        },
        (Json::String(a), Json::String(b)) => {
            a == b || matches!((parse_timestamp_us(a), parse_timestamp_us(b)), (Ok(x), Ok(y)) if x == y && a.contains('T'))
        }
        (Json::Object(a), Json::Object(b)) => a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| json_matches(v, w))),
        (Json::Array(a), Json::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| json_matches(x, y)),
        (a, b) => a == b,
    }
}

/// `None` if `want` and `got` hold the same rows in any order; else what differs.
pub fn multiset_diff(want: &[Json], got: &[Json]) -> Option<String> {
    diff_as_multisets(want, got, json_matches)
}

