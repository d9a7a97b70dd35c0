//! The conformance scenario format (v1, `engine/tests/spark/README.md`): sources with
//! schemas, static tables, confs, steps of input rows, a query and an output mode, and
//! optionally what real Spark did.
//!
//! The lab opens and saves this same format, so any case can be opened in the lab and any
//! lab session replayed in real Spark. Unknown keys are ignored.
//!
//! # Layout
//! - this file: the format (`Scenario`, `Expected`, rows as JSON) and what a run needs from it.
//! - [`run`]: running a scenario as the recording harness ran it in Spark (one
//!   long-running query, or an `availableNow` restart per step).
//! - `judge`: comparing a run with what Spark did (`Verdict`), batch by batch.

mod judge;
mod run;

pub use judge::*;
pub use run::*;

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::analysis::Attr;
use crate::error::{Error, Stage};
use crate::frontend::Catalog;
use crate::streaming::{OutputMode, StreamingConf};
use crate::types::{format_double, parse_timestamp_us, parse_type_name, DataType, Row, Value, WatermarkMs};

/// A column list: `[["event_id","string"], ...]`.
pub type SchemaDef = Vec<(String, String)>;

/// A streaming source's definition. `kind` and `options` are Streamlab's extension
/// (`memory` by default; `file` with `maxFilesPerTrigger`; `socket`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceDef {
    /// The event columns, as (name, Spark type name) pairs.
    pub schema: SchemaDef,
    /// The source kind: `memory` (when absent), `file`, `socket`, `kafka` or `rate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The kind's reader options (`maxFilesPerTrigger` for `file`, ...), as JSON values.
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
    /// The table's columns, as (name, Spark type name) pairs.
    pub schema: SchemaDef,
    /// The rows, each a JSON object of column → value.
    #[serde(default)]
    pub rows: Vec<Map<String, Json>>,
}

/// One step: rows per source name.
pub type Step = BTreeMap<String, Vec<Map<String, Json>>>;

/// A scenario (conformance README, "Scenario format (v1)").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The scenario's id, its file name without `.json`.
    pub id: String,
    /// A one-line title.
    #[serde(default)]
    pub title: String,
    /// Keys the format does not define, kept as they were written so that a saved or shared
    /// scenario carries them: Streamlab's texts in other languages and names (`title_ko`,
    /// `name`, `notes_ko`, …). The engine never reads them.
    #[serde(flatten)]
    pub extra: Map<String, Json>,
    /// Tags for the concepts the scenario exercises (`watermark`, `append`, ...).
    #[serde(default)]
    pub concepts: Vec<String>,
    /// The streaming sources by name; the query refers to each name as its DataFrame.
    pub sources: BTreeMap<String, SourceDef>,
    /// The static (batch) tables by name (the JSON key `static`).
    #[serde(default, rename = "static", skip_serializing_if = "BTreeMap::is_empty")]
    pub statics: BTreeMap<String, StaticDef>,
    /// Session confs (`spark.sql.shuffle.partitions`,
    /// `spark.sql.streaming.multipleWatermarkPolicy`, ...), strings or JSON values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conf: BTreeMap<String, Json>,
    /// The input, in order: at each step every named source receives its rows, and the
    /// query runs the batches Spark would run over them.
    pub steps: Vec<Step>,
    /// Python statements the harness runs before `query` (a state function, imports).
    /// Streamlab does not run them; the names they define are known to the query.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prelude: String,
    /// The PySpark query text: an expression over the source and table names, `F`
    /// (`pyspark.sql.functions`) and `spark`.
    pub query: String,
    /// `append`, `update` or `complete` (checked by [`Scenario::validate`]).
    pub output_mode: String,
    /// What real Spark did, when recorded; `None` for a scenario not yet run in Spark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
    /// Free text about the scenario.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

/// What real Spark did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    /// The Spark version that recorded it (`4.3.0`).
    #[serde(default)]
    pub spark_version: String,
    /// The error the query failed with, if it failed.
    #[serde(default)]
    pub error: Option<ExpectedError>,
    /// The query's output columns, as (name, Spark type name) pairs
    /// (`struct<start:timestamp,end:timestamp>`, `bigint`).
    #[serde(default)]
    pub output_schema: Option<SchemaDef>,
    /// Every micro-batch Spark ran, in order (none when the query was refused).
    #[serde(default)]
    pub batches: Vec<ExpectedBatch>,
}

/// An error Spark raised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedError {
    /// When Spark raised it: `define` (building the DataFrame), `start` (`start()`) or
    /// `run` (during a batch).
    pub stage: String,
    /// The exception class PySpark raised (`AnalysisException`, `StreamingQueryException`,
    /// ...); see [`crate::error::AnalysisError::exception_class`].
    #[serde(default)]
    pub class: String,
    /// Spark's error condition (`STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION`); `None` for
    /// an exception without one.
    pub error_class: Option<String>,
    /// The message, with paths, UUIDs and expression ids normalised (`<work>`, `<uuid>`,
    /// `#N`).
    #[serde(default)]
    pub message: String,
    /// The step during which a `run` error happened (0 for a `start` error).
    #[serde(default)]
    pub step: Option<usize>,
    /// For a `run` error (`STREAM_FAILED`): the cause's error condition.
    #[serde(default)]
    pub cause_error_class: Option<String>,
    /// For a `run` error: the cause's message.
    #[serde(default)]
    pub cause_message: Option<String>,
}

/// One micro-batch Spark ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedBatch {
    /// The micro-batch id.
    pub batch_id: u64,
    /// The step (index into [`Scenario::steps`]) whose input caused the batch.
    pub step: usize,
    /// Rows read from streaming sources in the batch (`numInputRows`; static tables not
    /// counted).
    pub input_rows: u64,
    /// The watermark the batch ran with (`2026-01-01T12:11:00Z`, ms precision); `None` when
    /// the query has no watermark.
    pub watermark: Option<String>,
    /// The rows the batch wrote to the sink, compared as a multiset.
    #[serde(default)]
    pub rows: Vec<ExpectedRow>,
    /// One entry per stateful operator, in Spark's progress order (downstream first).
    #[serde(default)]
    pub state: Vec<ExpectedState>,
    /// The progress's `eventTime` map (`min`, `max`, `avg`, `watermark`, as timestamps).
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
    /// Spark's operator name (`stateStoreSave`, `dedupe`, `symmetricHashJoin`, ...).
    pub operator: String,
    /// `numRowsTotal`: rows in the state store after the batch.
    pub num_rows_total: u64,
    /// `numRowsUpdated`: state rows the batch added or changed.
    pub num_rows_updated: u64,
    /// `numRowsRemoved`: state rows the batch evicted.
    pub num_rows_removed: u64,
    /// `numRowsDroppedByWatermark`: late rows dropped at the operator's input.
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

    /// The program the scenario runs: its `prelude` (imports, functions, classes, and any
    /// statements, which the recording harness `exec`s first in the same namespace) followed by
    /// its `query`, read as one PySpark program.
    pub fn program(&self) -> String {
        if self.prelude.trim().is_empty() {
            self.query.clone()
        } else {
            format!("{}\n{}", self.prelude.trim_end(), self.query)
        }
    }

    /// The catalog: source schemas and static tables with typed rows.
    ///
    /// # Errors
    /// An unknown type name or a static row that does not fit its schema.
    pub fn catalog(&self) -> Result<Catalog, Error> {
        let mut c = Catalog::default();
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
        m.insert(a.name.clone(), crate::types::json::value_to_json_typed(v, &a.data_type));
    }
    Json::Object(m)
}

/// A row as the corpus compares it: (column, value) pairs in output order, repeated names kept.
pub fn row_to_cells(row: &Row, output: &[Attr]) -> ExpectedRow {
    ExpectedRow(output.iter().zip(row).map(|(a, v)| (a.name.clone(), crate::types::json::value_to_json_typed(v, &a.data_type))).collect())
}

/// A short display of a value for tables (doubles with a fraction, timestamps ISO).
pub fn display_value(v: &Value) -> String {
    match v {
        Value::Double(d) => format_double(*d),
        other => other.to_string(),
    }
}

