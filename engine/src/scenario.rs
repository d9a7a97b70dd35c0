//! The scenario format of `../shared/conformance/` (v1): sources with schemas, static tables,
//! confs, steps of input rows, a query and an output mode, and optionally what real Spark did.
//!
//! The lab opens and saves this same format, so any case can be opened in the lab and any
//! lab session replayed in real Spark. Unknown keys are ignored.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::analysis::Attr;
use crate::error::{Error, Stage};
use crate::frontend::Catalog;
use crate::streaming::{BatchResult, OutputMode, StreamingConf, StreamingQuery};
use crate::types::{format_double, parse_timestamp_us, parse_type_name, DataType, Row, Value, WatermarkMs};

/// A column list: `[["event_id","string"], ...]`.
pub type SchemaDef = Vec<(String, String)>;

/// A streaming source's definition. `kind` and `options` are Streamlab's extension
/// (`memory` by default; `file` with `maxFilesPerTrigger`; `socket`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceDef {
    pub schema: SchemaDef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, Json>,
}

impl SourceDef {
    /// The source kind this definition asks for (`kind`, default `memory`, with its
    /// `options`), as the source registry reads it ([`crate::streaming::SourceKind::from_options`]).
    ///
    /// # Errors
    /// An unknown kind or an option out of range.
    pub fn source_kind(&self) -> Result<crate::streaming::SourceKind, Error> {
        crate::streaming::SourceKind::from_options(self.kind.as_deref().unwrap_or("memory"), &self.options).map_err(Error::Scenario)
    }
}

/// A static table: schema and rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StaticDef {
    pub schema: SchemaDef,
    #[serde(default)]
    pub rows: Vec<Map<String, Json>>,
}

/// One step: rows per source name.
pub type Step = BTreeMap<String, Vec<Map<String, Json>>>;

/// A scenario (conformance README, "Scenario format (v1)").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    #[serde(default)]
    pub title: String,
    /// Streamlab's extension: the title in Korean for the lab's preset list.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title_ko: String,
    #[serde(default)]
    pub concepts: Vec<String>,
    pub sources: BTreeMap<String, SourceDef>,
    #[serde(default, rename = "static", skip_serializing_if = "BTreeMap::is_empty")]
    pub statics: BTreeMap<String, StaticDef>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conf: BTreeMap<String, Json>,
    pub steps: Vec<Step>,
    /// Python statements the harness runs before `query` (a state function, imports).
    /// Streamlab does not run them; the names they define are known to the query.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prelude: String,
    pub query: String,
    pub output_mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

/// What real Spark did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    #[serde(default)]
    pub spark_version: String,
    #[serde(default)]
    pub error: Option<ExpectedError>,
    #[serde(default)]
    pub output_schema: Option<SchemaDef>,
    #[serde(default)]
    pub batches: Vec<ExpectedBatch>,
}

/// An error Spark raised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedError {
    pub stage: String,
    #[serde(default)]
    pub class: String,
    pub error_class: Option<String>,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub step: Option<usize>,
    #[serde(default)]
    pub cause_error_class: Option<String>,
    #[serde(default)]
    pub cause_message: Option<String>,
}

/// One micro-batch Spark ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedBatch {
    pub batch_id: u64,
    pub step: usize,
    pub input_rows: u64,
    pub watermark: Option<String>,
    #[serde(default)]
    pub rows: Vec<ExpectedRow>,
    #[serde(default)]
    pub state: Vec<ExpectedState>,
    #[serde(default)]
    pub event_time: Option<Map<String, Json>>,
}

/// One output row as the recording wrote it: (column, value) pairs in Spark's column order,
/// with repeated column names kept (a JSON object read into a map would keep only the last).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExpectedRow(pub Vec<(String, Json)>);

impl Serialize for ExpectedRow {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for ExpectedRow {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RowVisitor;
        impl<'de> serde::de::Visitor<'de> for RowVisitor {
            type Value = ExpectedRow;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a row as a JSON object of column -> value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<ExpectedRow, A::Error> {
                let mut cells = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Json>()? {
                    cells.push((k, v));
                }
                Ok(ExpectedRow(cells))
            }
        }
        deserializer.deserialize_map(RowVisitor)
    }
}

impl ExpectedRow {
    /// The row as a JSON object (a repeated column keeps its last value; for display).
    pub fn to_json(&self) -> Json {
        Json::Object(self.0.iter().cloned().collect())
    }
}

impl std::fmt::Display for ExpectedRow {
    /// `{"a":1,"a":2}`: the cells in order, repeated names included.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("{")?;
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{v}", Json::String(k.clone()))?;
        }
        f.write_str("}")
    }
}

/// One stateful operator's metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedState {
    pub operator: String,
    pub num_rows_total: u64,
    pub num_rows_updated: u64,
    pub num_rows_removed: u64,
    pub num_rows_dropped_by_watermark: u64,
}

impl Scenario {
    /// Parses scenario JSON.
    ///
    /// # Errors
    /// [`Error::Scenario`] with serde's line and column.
    /// Checks what it holds as the harness and Spark's reader would (see
    /// [`Scenario::validate`]).
    ///
    /// # Errors
    /// [`Error::Scenario`] with the path of the bad value (`steps[2].clicks[0]`) and serde's
    /// line and column, or the first problem [`Scenario::validate`] finds.
    pub fn from_json(text: &str) -> Result<Scenario, Error> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            if path.is_empty() || path == "." {
                Error::Scenario(inner.to_string())
            } else {
                Error::Scenario(format!("{path}: {inner}"))
            }
        })?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Checks what the harness checks before a run (`run_case.py` `_validate`) and every
    /// input value the engine cannot reproduce: the output mode, each column type, each
    /// step's source names and each event's values.
    ///
    /// # Errors
    /// [`Error::Scenario`] naming the path of the bad value, e.g.
    /// `output_mode: "upsert" is not an output mode: use append, update or complete` or
    /// `steps[2].clicks[0].event_time: ...`.
    pub fn validate(&self) -> Result<(), Error> {
        if OutputMode::parse(&self.output_mode).is_err() {
            return Err(Error::Scenario(format!(
                "output_mode: \"{}\" is not an output mode: use append, update or complete",
                self.output_mode
            )));
        }
        for (name, def) in &self.sources {
            for (k, (col, t)) in def.schema.iter().enumerate() {
                parse_type_name(t).map_err(|m| Error::Scenario(format!("sources.{name}.schema[{k}] ('{col}'): {m}")))?;
            }
            def.source_kind().map_err(|e| Error::Scenario(format!("sources.{name}: {}", scenario_text(&e))))?;
        }
        for (name, def) in &self.statics {
            if self.sources.contains_key(name) {
                return Err(Error::Scenario(format!("static.{name}: the name is also a streaming source")));
            }
            for (k, (col, t)) in def.schema.iter().enumerate() {
                parse_type_name(t).map_err(|m| Error::Scenario(format!("static.{name}.schema[{k}] ('{col}'): {m}")))?;
            }
        }
        for (i, step) in self.steps.iter().enumerate() {
            for (source, rows) in step {
                let Some(def) = self.sources.get(source) else {
                    let known: Vec<&str> = self.sources.keys().map(String::as_str).collect();
                    return Err(Error::Scenario(format!(
                        "steps[{i}].{source}: no source is named '{source}'; the sources are {}",
                        known.join(", ")
                    )));
                };
                let schema = typed_schema(&def.schema)?;
                for (r, row) in rows.iter().enumerate() {
                    for (col, t) in &schema {
                        if let JsonRead::Unsupported(m) = read_json_value(row.get(col).unwrap_or(&Json::Null), t) {
                            return Err(Error::Scenario(format!("steps[{i}].{source}[{r}].{col}: {m}")));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The input values Spark's JSON reader turns into NULL (or reads as another value than
    /// written, [`JsonRead::Noted`]), each with its path and why
    /// (`steps[2].clicks[0].post_id: the string "abc" is not a whole number ...`), and event
    /// keys that are not columns of the source's schema (Spark ignores them).
    pub fn input_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            for (source, rows) in step {
                let Some(Ok(schema)) = self.sources.get(source).map(|d| typed_schema(&d.schema)) else { continue };
                for (r, row) in rows.iter().enumerate() {
                    for (col, t) in &schema {
                        if let JsonRead::Null(why) | JsonRead::Noted(_, why) = read_json_value(row.get(col).unwrap_or(&Json::Null), t) {
                            notes.push(format!("steps[{i}].{source}[{r}].{col}: {why}"));
                        }
                    }
                    for key in row.keys() {
                        if !schema.iter().any(|(c, _)| c == key) {
                            notes.push(format!("steps[{i}].{source}[{r}].{key}: not a column of '{source}'; Spark ignores it"));
                        }
                    }
                }
            }
        }
        notes
    }

    /// Pretty JSON in the corpus format.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The output mode.
    ///
    /// # Errors
    /// Spark's `STREAMING_OUTPUT_MODE.INVALID`.
    pub fn mode(&self) -> Result<OutputMode, Error> {
        OutputMode::parse(&self.output_mode).map_err(Error::Analysis)
    }

    /// The confs as strings.
    pub fn conf_strings(&self) -> BTreeMap<String, String> {
        self.conf
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string)))
            .collect()
    }

    /// What a run needs: the catalog, the output mode and the confs.
    ///
    /// # Errors
    /// As [`Scenario::catalog`], [`Scenario::mode`] and [`StreamingConf::from_map`].
    pub fn setup(&self) -> Result<(Catalog, OutputMode, StreamingConf), Error> {
        let conf = StreamingConf::from_map(&self.conf_strings()).map_err(Error::Scenario)?;
        Ok((self.catalog()?, self.mode()?, conf))
    }

    /// The catalog: source schemas and static tables with typed rows.
    ///
    /// # Errors
    /// An unknown type name or a static row that does not fit its schema.
    pub fn catalog(&self) -> Result<Catalog, Error> {
        let mut c = Catalog { python_names: crate::frontend::prelude_names(&self.prelude), prelude: std::rc::Rc::from(self.prelude.as_str()), ..Catalog::default() };
        for (name, s) in &self.sources {
            // A Kafka source reads records; its schema is Kafka's, the events are in `value`.
            let schema = s.source_kind()?.read_schema(&typed_schema(&s.schema)?);
            c.streams.insert(name.clone(), schema);
        }
        for (name, s) in &self.statics {
            let schema = typed_schema(&s.schema)?;
            let rows = s
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| json_to_row(&schema, r).map_err(|m| Error::Scenario(format!("static table '{name}' row {}: {m}", i + 1))))
                .collect::<Result<Vec<_>, _>>()?;
            c.statics.insert(name.clone(), (schema, Rc::new(rows)));
        }
        Ok(c)
    }
}

fn scenario_text(e: &Error) -> String {
    match e {
        Error::Scenario(m) => m.clone(),
        other => other.to_string(),
    }
}

/// Reads a schema definition.
///
/// # Errors
/// An unknown type name.
pub fn typed_schema(schema: &SchemaDef) -> Result<Vec<(String, DataType)>, Error> {
    schema
        .iter()
        .map(|(n, t)| Ok((n.clone(), parse_type_name(t).map_err(|m| Error::Scenario(format!("column '{n}': {m}")))?)))
        .collect()
}

pub use crate::types::json::{json_to_row, json_to_value, python_float_repr, python_json_text, read_json_value, value_to_json, JsonRead};

/// A row as a JSON object keyed by output column name.
pub fn row_to_json(row: &Row, output: &[Attr]) -> Json {
    let mut m = Map::new();
    for (a, v) in output.iter().zip(row) {
        m.insert(a.name.clone(), value_to_json(v));
    }
    Json::Object(m)
}

/// A row as the corpus compares it: (column, value) pairs in output order, repeated names kept.
pub fn row_to_cells(row: &Row, output: &[Attr]) -> ExpectedRow {
    ExpectedRow(output.iter().zip(row).map(|(a, v)| (a.name.clone(), value_to_json(v))).collect())
}

/// A short display of a value for tables (doubles with a fraction, timestamps ISO).
pub fn display_value(v: &Value) -> String {
    match v {
        Value::Double(d) => format_double(*d),
        other => other.to_string(),
    }
}

/// The engine's run of a scenario.
#[derive(Debug, Clone)]
pub struct ScenarioRun {
    /// The error the query stopped with, and at which step for run errors.
    pub error: Option<Error>,
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
    let mut q = match StreamingQuery::start(&scenario.query, &catalog, mode, conf) {
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
    let first = match StreamingQuery::start(&scenario.query, &catalog, mode, conf.clone()) {
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
        let mut q = match StreamingQuery::restart(&scenario.query, &catalog, mode, conf.clone(), checkpoint, sources, sink) {
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

/// How a scenario's expectation compares with the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
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
        // The recording harness collects every batch in a Python `foreachBatch`: an exception
        // a Python function raised inside the batch reaches it wrapped in the foreachBatch
        // proxy's error, cut before the cause. Such a record says only "the batch failed in
        // Python"; the engine's message must say that much (the cause itself is checked by
        // unit tests against the oracle's log).
        let before = want.split("[FOREACH_BATCH_USER_FUNCTION_ERROR]").next().unwrap_or_default().trim_end();
        if !got.starts_with(before) || !got.contains(crate::pyfunc::PYTHON_WORKER) {
            return Some(format!("error message: expected {before} … an exception from the Python worker, got: {got}"));
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
