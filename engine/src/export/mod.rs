//! Export to PySpark: a scenario (sources, steps of events, static tables, confs, the query, the
//! output mode and the trigger) as one runnable PySpark 4.3 script, so a learner can take what
//! they built in the lab to real Spark (`python script.py`, or `spark-submit script.py`).
//!
//! The script embeds the scenario as JSON and a fixed runner (`runner.py`, the same in every
//! export) that writes each step's events as one JSON file of a file source (one step is one
//! micro-batch, as in the lab and the conformance corpus), runs the query with `foreachBatch`,
//! and prints every micro-batch as the lab shows it: batch id, watermark, the rows the sink
//! received and the state metrics from `lastProgress`. `--record FILE` also writes the
//! scenario with Spark's own `expected` block (the conformance format), which the lab opens and
//! the conformance runner checks, so any lab session can be recorded with real Spark.
//!
//! Every source kind of the lab becomes a file source in the script: a Kafka topic's records
//! and the rate source's rows are computed by the engine and written with the columns Spark's
//! Kafka and rate sources have, so the script needs no broker and no clock.

mod notebook;

use std::collections::BTreeMap;

use serde_json::{json, Map, Value as Json};

pub use notebook::{databricks_notebook, jupyter_notebook};

use crate::error::Error;
use crate::scenario::{run, value_to_json, Scenario};
use crate::streaming::Trigger;
use crate::types::{DataType, Row};

/// The runner every exported script ends with.
const RUNNER: &str = include_str!("runner.py");

/// What to export besides the scenario itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// The trigger the lab runs the query with; `Default` writes no `.trigger(...)`.
    /// `continuous` cannot write through `foreachBatch`, so it is exported as the default
    /// trigger with a note in the script.
    pub trigger: Trigger,
}

/// The PySpark script for `scenario`: Python 3 source text, UTF-8.
///
/// # Examples
/// ```
/// use streamlab_engine::export::{pyspark_script, ExportOptions};
/// use streamlab_engine::scenario::Scenario;
/// let s = Scenario::from_json(r#"{"id": "demo", "sources": {"clicks": {"schema": [["post_id", "long"]]}},
///     "steps": [{"clicks": [{"post_id": 1}]}], "query": "clicks.filter('post_id = 1')", "output_mode": "append"}"#).unwrap();
/// let script = pyspark_script(&s, ExportOptions::default()).unwrap();
/// assert!(script.starts_with("#!/usr/bin/env python3"));
/// assert!(script.contains("clicks.filter('post_id = 1')"));
/// ```
///
/// # Errors
/// [`Error::Scenario`] when a source's definition is invalid (an unknown kind or option).
pub fn pyspark_script(scenario: &Scenario, options: ExportOptions) -> Result<String, Error> {
    let feeds = feeds(scenario)?;
    let mut out = String::new();
    out.push_str("#!/usr/bin/env python3\n");
    let title = if scenario.title.is_empty() { scenario.id.as_str() } else { scenario.title.as_str() };
    for line in title.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&format!(
        "#\n\
         # Exported from Streamlab (scenario '{id}'): the lab's scenario as a PySpark 4.3 script.\n\
         #\n\
         #   pip install pyspark==4.3.0    (Spark needs Java 17)\n\
         #   python {id}.py                (or: spark-submit {id}.py)\n\
         #   python {id}.py --record {id}.json\n\
         #       also writes the scenario with what Spark did: open it in the lab, or check the engine with it\n\
         #\n\
         # Each step's events become one JSON file of a file source, so one step is one micro-batch, as in\n\
         # the lab. The query runs with foreachBatch, and every micro-batch is printed as the lab shows it:\n\
         # batch id, watermark, the rows the sink received, and the state metrics from lastProgress.\n\
         #\n\
         # The query ({mode} mode{trigger}), evaluated with each source bound to its streaming DataFrame\n\
         # and F = pyspark.sql.functions:\n",
        id = scenario.id,
        mode = scenario.output_mode,
        trigger = trigger_note(options.trigger),
    ));
    for line in scenario.query.lines() {
        out.push_str(&format!("#     {line}\n"));
    }
    if let Some(note) = kind_note(scenario)? {
        out.push_str("#\n");
        out.push_str(&note);
    }
    out.push('\n');
    out.push_str(&data_block(scenario, feeds, options)?);
    out.push_str(RUNNER);
    Ok(out)
}

/// `SCENARIO`, `FEEDS` and `TRIGGER`, as Python: what the runner reads.
fn data_block(scenario: &Scenario, feeds: Map<String, Json>, options: ExportOptions) -> Result<String, Error> {
    let mut out = String::from("import json\n\n");
    out.push_str(&format!("SCENARIO = json.loads(r\"\"\"\n{}\n\"\"\")\n\n", scenario_json(scenario)?));
    out.push_str("# Records a Kafka topic or the rate source delivered at each step, as the lab's source made them.\n");
    out.push_str(&format!("FEEDS = json.loads(r\"\"\"\n{}\n\"\"\")\n\n", compact_json(&Json::Object(feeds), 0)));
    out.push_str(&format!("TRIGGER = {}\n", python_trigger(options.trigger)));
    Ok(out)
}

/// The scenario without its `expected` block, keys in the format's order. The text goes inside
/// a Python `r"""..."""` literal as it is: JSON never holds three `"` in a row (a string's
/// quotes are escaped, and a string is never followed by another one) and ends with `}`.
fn scenario_json(scenario: &Scenario) -> Result<String, Error> {
    let mut bare = scenario.clone();
    bare.expected = None;
    let Json::Object(mut fields) = serde_json::to_value(&bare).map_err(|e| Error::Scenario(e.to_string()))? else {
        return Err(Error::Scenario("a scenario serializes to an object".into()));
    };
    const ORDER: [&str; 10] = ["id", "title", "concepts", "sources", "static", "conf", "steps", "query", "output_mode", "notes"];
    let mut keys: Vec<String> = ORDER.iter().map(|k| k.to_string()).filter(|k| fields.contains_key(k)).collect();
    keys.extend(fields.keys().filter(|k| !ORDER.contains(&k.as_str())).cloned().collect::<Vec<_>>());
    let items: Vec<String> = keys
        .iter()
        .filter_map(|k| fields.remove(k).map(|v| format!("  {}: {}", Json::String(k.clone()), compact_json(&v, 2))))
        .collect();
    Ok(format!("{{\n{}\n}}", items.join(",\n")))
}

/// JSON with containers that fit in 100 columns kept on one line (easy to read and edit).
fn compact_json(v: &Json, indent: usize) -> String {
    let flat = v.to_string();
    let (open, close, items): (char, char, Vec<String>) = match v {
        Json::Array(a) if !a.is_empty() && flat.len() + indent > 100 => {
            ('[', ']', a.iter().map(|x| compact_json(x, indent + 2)).collect())
        }
        Json::Object(m) if !m.is_empty() && flat.len() + indent > 100 => (
            '{',
            '}',
            m.iter().map(|(k, x)| format!("{}: {}", Json::String(k.clone()), compact_json(x, indent + 2))).collect(),
        ),
        _ => return flat,
    };
    let pad = " ".repeat(indent + 2);
    format!("{open}\n{pad}{}\n{}{close}", items.join(&format!(",\n{pad}")), " ".repeat(indent))
}

/// `TRIGGER` in the script: keyword arguments of `DataStreamWriter.trigger`, or `None`.
fn python_trigger(t: Trigger) -> String {
    match t {
        Trigger::Default | Trigger::Continuous { .. } => "None".into(),
        Trigger::ProcessingTime { interval_ms } => format!("{{\"processingTime\": \"{}\"}}", crate::streaming::trigger::interval_text(interval_ms)),
        Trigger::Once => "{\"once\": True}".into(),
        Trigger::AvailableNow => "{\"availableNow\": True}".into(),
    }
}

fn trigger_note(t: Trigger) -> String {
    match t {
        Trigger::Default => String::new(),
        Trigger::Continuous { .. } => {
            ", exported with the default trigger: trigger(continuous=...) cannot write through foreachBatch".into()
        }
        other => format!(", trigger({})", other.describe()),
    }
}

/// A comment on sources the script stands in for with files.
fn kind_note(scenario: &Scenario) -> Result<Option<String>, Error> {
    let mut note = String::new();
    for (name, def) in &scenario.sources {
        let Some(what) = def.source_kind()?.create(name, &[]).export_note() else { continue };
        note.push_str(&format!("# '{name}' is {what}.\n"));
    }
    Ok((!note.is_empty()).then_some(note))
}

/// The rows the engine's Kafka and rate sources delivered, per source and step:
/// `{name: {"schema": [[column, type]], "steps": [[row, ...], ...]}}`.
fn feeds(scenario: &Scenario) -> Result<Map<String, Json>, Error> {
    let made: Vec<(String, Vec<(String, DataType)>)> = scenario
        .sources
        .iter()
        .map(|(name, def)| {
            // The sources whose rows Spark cannot make from the scenario's events (Kafka
            // records, rate rows), with the schema they read.
            let source = def.source_kind()?.create(name, &[]);
            Ok(source.exports_made_rows().then(|| (name.clone(), source.columns())))
        })
        .collect::<Result<Vec<_>, Error>>()?
        .into_iter()
        .flatten()
        .collect();
    let mut out = Map::new();
    if made.is_empty() {
        return Ok(out);
    }
    let engine_run = run(scenario);
    for (name, schema) in made {
        let mut steps: Vec<Vec<Json>> = vec![Vec::new(); scenario.steps.len()];
        for (step, batch) in &engine_run.batches {
            let rows: Vec<Row> = batch.input_by_source().remove(&name).unwrap_or_default();
            if let Some(slot) = steps.get_mut(*step) {
                slot.extend(rows.iter().map(|r| row_object(r, &schema)));
            }
        }
        let columns: Vec<Json> = schema.iter().map(|(n, t)| json!([n, scenario_type(t)])).collect();
        out.insert(name, json!({ "schema": columns, "steps": steps }));
    }
    Ok(out)
}

fn row_object(row: &Row, schema: &[(String, DataType)]) -> Json {
    let m: BTreeMap<String, Json> = schema.iter().zip(row).map(|((n, _), v)| (n.clone(), value_to_json(v))).collect();
    Json::Object(m.into_iter().collect())
}

/// The scenario format's name of a source column type.
fn scenario_type(t: &DataType) -> &'static str {
    match t {
        DataType::Utf8 => "string",
        DataType::Int64 => "long",
        DataType::Int32 => "int",
        DataType::Float64 => "double",
        DataType::Boolean => "boolean",
        DataType::Binary => "binary",
        _ => "timestamp",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(text: &str) -> Scenario {
        Scenario::from_json(text).expect("scenario")
    }

    #[test]
    fn quotes_in_the_scenario_cannot_end_the_python_literal_and_stay_readable() {
        let s = scenario(
            r#"{"id": "q", "title": "it's ''' and \"\"\" tricky \\", "sources": {"clicks": {"schema": [["post_id", "long"]]}},
                "steps": [], "query": "clicks.filter(\"post_id = '1'\")", "output_mode": "append"}"#,
        );
        let script = pyspark_script(&s, ExportOptions::default()).unwrap();
        let open = "SCENARIO = json.loads(r\"\"\"";
        let start = script.find(open).unwrap() + open.len();
        let end = start + script[start..].find("\"\"\")").unwrap();
        let embedded: Json = serde_json::from_str(&script[start..end]).unwrap();
        // The literal ends where the JSON ends, and the JSON keeps every quote.
        assert_eq!(embedded["title"], "it's ''' and \"\"\" tricky \\");
        assert_eq!(embedded["query"], "clicks.filter(\"post_id = '1'\")");
        assert!(script.contains(r#""query": "clicks.filter(\"post_id = '1'\")""#), "single quotes stay as they are");
    }

    #[test]
    fn kafka_records_are_computed_by_the_engine() {
        // Two orders in step 0 on a one-partition topic: offsets 0 and 1, the event JSON in `value`.
        let s = scenario(
            r#"{"id": "k", "sources": {"orders": {"schema": [["order_id", "string"], ["amount", "double"]], "kind": "kafka"}},
                "steps": [{"orders": [{"order_id": "o1", "amount": 5.0}, {"order_id": "o2", "amount": 7.5}]}],
                "query": "orders.select(F.col('value').cast('string'))", "output_mode": "append"}"#,
        );
        let f = feeds(&s).unwrap();
        let rows = &f["orders"]["steps"][0];
        assert_eq!(rows.as_array().unwrap().len(), 2);
        assert_eq!(rows[0]["offset"], 0);
        assert_eq!(rows[1]["offset"], 1);
        assert_eq!(rows[0]["topic"], "orders");
        let value: Json = serde_json::from_str(rows[1]["value"].as_str().unwrap()).unwrap();
        assert_eq!(value["order_id"], "o2");
        assert_eq!(f["orders"]["schema"][1], json!(["value", "binary"]));
    }

    #[test]
    fn triggers_become_keyword_arguments() {
        assert_eq!(python_trigger(Trigger::AvailableNow), "{\"availableNow\": True}");
        assert_eq!(python_trigger(Trigger::ProcessingTime { interval_ms: 1500 }), "{\"processingTime\": \"1500 milliseconds\"}");
        // As a program writes it (the trigger menu's 2 seconds).
        assert_eq!(python_trigger(Trigger::ProcessingTime { interval_ms: 2000 }), "{\"processingTime\": \"2 seconds\"}");
        assert_eq!(python_trigger(Trigger::Default), "None");
    }
}
