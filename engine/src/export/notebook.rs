//! Export to a notebook: the same scenario and runner as the script ([`super::pyspark_script`]),
//! as cells a learner runs one by one — the setup, the query, then one cell per step whose output
//! is the micro-batches that step causes, as the lab shows them. Two formats: a Jupyter notebook
//! (`.ipynb`, nbformat 4.5) and a Databricks notebook in source format (`.py` with
//! `# Databricks notebook source`, `# COMMAND ----------` between cells, `# MAGIC %md` for text),
//! which imports into a Databricks workspace.

use serde_json::{json, Value as Json};

use super::{data_block, feeds, kind_note, trigger_note, ExportOptions, RUNNER};
use crate::error::Error;
use crate::scenario::Scenario;

/// One cell: markdown text or Python code.
enum Cell {
    Markdown(String),
    Code(String),
}

/// Where the notebook runs: Jupyter with a local PySpark, or a Databricks workspace.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Host {
    Jupyter,
    Databricks,
}

/// The runner without the script's `if __name__ == "__main__":` block (a notebook's cells
/// run as `__main__`).
fn runner_body() -> &'static str {
    RUNNER.rsplit_once("\nif __name__ == \"__main__\":").map_or(RUNNER, |(body, _)| body)
}

fn cells(scenario: &Scenario, options: ExportOptions, host: Host) -> Result<Vec<Cell>, Error> {
    let title = if scenario.title.is_empty() { scenario.id.as_str() } else { scenario.title.as_str() };
    let mut intro = format!(
        "# {title}\n\nExported from Streamlab (scenario `{id}`): the lab's scenario as a notebook on real Spark. Run the cells in order: \
         the setup, then one cell per step. Each step's events become one JSON file of a file source, so one step is one micro-batch, \
         as in the lab; every micro-batch is printed as the lab shows it — batch id, watermark, the rows the sink received and the state \
         metrics from `lastProgress`.\n\nThe query ({mode} mode{trigger}), with each source bound to its streaming DataFrame and \
         `F = pyspark.sql.functions`:\n\n```python\n{query}\n```\n",
        id = scenario.id,
        mode = scenario.output_mode,
        trigger = trigger_note(options.trigger),
        query = scenario.query.trim_end(),
    );
    if let Some(note) = kind_note(scenario)? {
        intro.push('\n');
        intro.push_str(&note.lines().map(|l| l.trim_start_matches("# ")).collect::<Vec<_>>().join("\n"));
        intro.push('\n');
    }
    let mut out = vec![Cell::Markdown(intro)];
    let (setup_note, open_lab) = match host {
        Host::Jupyter => (
            "## Setup\n\nNeeds PySpark 4.3 (`pip install pyspark==4.3.0`; Spark needs Java 17). The cell below holds the scenario and the runner; nothing in it needs editing.",
            "lab = Notebook()",
        ),
        Host::Databricks => (
            "## Setup\n\nRuns on the cluster's own `spark`. The step files go to DBFS (`/dbfs/tmp/streamlab`); on a workspace without DBFS, \
             pass another folder the driver can write and the cluster can read, e.g. a Unity Catalog volume (`/Volumes/...`). \
             The lab follows Spark 4.3: on an older Databricks Runtime some batches may differ.",
            "lab = Notebook(spark=spark, workdir_root=\"/dbfs/tmp/streamlab\")",
        ),
    };
    out.push(Cell::Markdown(setup_note.to_string()));
    let mut setup = data_block(scenario, feeds(scenario)?, options)?;
    setup.push_str(runner_body());
    out.push(Cell::Code(setup.trim_end().to_string()));
    out.push(Cell::Markdown("## Start the query\n\nBuilds the sources and the query, and starts it (Spark refuses a query it cannot run here, as the lab does).".to_string()));
    out.push(Cell::Code(open_lab.to_string()));
    for (k, step) in scenario.steps.iter().enumerate() {
        let mut what: Vec<String> = step.iter().filter(|(_, rows)| !rows.is_empty()).map(|(name, rows)| format!("{} into `{name}`", count(rows.len(), "event"))).collect();
        if what.is_empty() {
            what.push("no events".to_string());
        }
        out.push(Cell::Markdown(format!("### Step {k}: {}", what.join(", "))));
        out.push(Cell::Code(format!("lab.step({k})")));
    }
    out.push(Cell::Markdown("## Finish\n\nStops the query. `lab.finish(record=\"recorded.json\")` also writes what Spark did in Streamlab's scenario format: open it in the lab.".to_string()));
    out.push(Cell::Code("expected = lab.finish()".to_string()));
    Ok(out)
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// `text` as nbformat's list of lines (each but the last keeps its `\n`).
fn source_lines(text: &str) -> Json {
    let lines: Vec<Json> = text.split_inclusive('\n').map(|l| Json::String(l.to_string())).collect();
    Json::Array(lines)
}

/// The scenario as a Jupyter notebook (nbformat 4.5, Python 3 kernel): JSON text.
///
/// # Errors
/// [`Error::Scenario`] when a source's definition is invalid, as for the script.
pub fn jupyter_notebook(scenario: &Scenario, options: ExportOptions) -> Result<String, Error> {
    let cells: Vec<Json> = cells(scenario, options, Host::Jupyter)?
        .into_iter()
        .enumerate()
        .map(|(i, c)| match c {
            Cell::Markdown(t) => json!({ "cell_type": "markdown", "id": format!("cell-{i}"), "metadata": {}, "source": source_lines(&t) }),
            Cell::Code(t) => json!({ "cell_type": "code", "id": format!("cell-{i}"), "metadata": {}, "execution_count": null, "outputs": [], "source": source_lines(&t) }),
        })
        .collect();
    let nb = json!({
        "cells": cells,
        "metadata": {
            "kernelspec": { "display_name": "Python 3", "language": "python", "name": "python3" },
            "language_info": { "name": "python" },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    });
    serde_json::to_string_pretty(&nb).map_err(|e| Error::Scenario(e.to_string()))
}

/// The scenario as a Databricks notebook in source format (`.py`), which a workspace imports.
///
/// # Errors
/// As [`jupyter_notebook`].
pub fn databricks_notebook(scenario: &Scenario, options: ExportOptions) -> Result<String, Error> {
    let parts: Vec<String> = cells(scenario, options, Host::Databricks)?
        .into_iter()
        .map(|c| match c {
            Cell::Markdown(t) => {
                let mut s = String::from("# MAGIC %md\n");
                for line in t.trim_end().lines() {
                    s.push_str(if line.is_empty() { "# MAGIC\n" } else { "# MAGIC " });
                    if !line.is_empty() {
                        s.push_str(line);
                        s.push('\n');
                    }
                }
                s
            }
            Cell::Code(t) => format!("{}\n", t.trim_end()),
        })
        .collect();
    Ok(format!("# Databricks notebook source\n{}", parts.join("\n# COMMAND ----------\n\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Scenario {
        Scenario::from_json(
            r#"{"id": "demo", "title": "Demo", "sources": {"clicks": {"schema": [["post_id", "long"]]}},
                "steps": [{"clicks": [{"post_id": 1}, {"post_id": 2}]}, {}], "query": "clicks.filter('post_id = 1')", "output_mode": "append"}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_jupyter_notebook_has_a_cell_per_step_after_the_setup() {
        let nb: Json = serde_json::from_str(&jupyter_notebook(&classic(), ExportOptions::default()).unwrap()).unwrap();
        assert_eq!((nb["nbformat"].as_i64(), nb["nbformat_minor"].as_i64()), (Some(4), Some(5)));
        let code: Vec<String> = nb["cells"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["cell_type"] == "code")
            .map(|c| c["source"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect::<String>())
            .collect();
        // setup, start, step 0, step 1, finish
        assert_eq!(code.len(), 5);
        assert!(code[0].contains("SCENARIO = json.loads") && code[0].contains("class Notebook"));
        assert!(!code[0].contains("if __name__"), "the script's main block would run in the notebook");
        assert_eq!(&code[1..], ["lab = Notebook()", "lab.step(0)", "lab.step(1)", "expected = lab.finish()"]);
        let step0 = &nb["cells"].as_array().unwrap().iter().find(|c| c["source"][0].as_str().is_some_and(|s| s.starts_with("### Step 0"))).unwrap()["source"][0];
        assert_eq!(step0, "### Step 0: 2 events into `clicks`");
    }

    #[test]
    fn a_databricks_notebook_is_in_source_format() {
        let text = databricks_notebook(&classic(), ExportOptions::default()).unwrap();
        assert!(text.starts_with("# Databricks notebook source\n# MAGIC %md\n# MAGIC # Demo\n"));
        // setup, start, 2 steps, finish: 5 code cells between 9 markdown and code cells.
        assert_eq!(text.matches("\n# COMMAND ----------\n").count(), 10);
        assert!(text.contains("lab = Notebook(spark=spark, workdir_root=\"/dbfs/tmp/streamlab\")"));
    }
}
