//! Writes a scenario (the conformance format, as the lab saves it) as a runnable PySpark 4.3
//! script.
//!
//! ```text
//! cargo run -p streamlab-engine --example export -- scenario.json            # script on stdout
//! cargo run -p streamlab-engine --example export -- scenario.json -o run.py
//! cargo run -p streamlab-engine --example export -- --all assets/scenarios -o out/   # one script per file
//! ```
//! Options: `--trigger availableNow|once|processingTime=<ms>` (default: the default trigger);
//! `--format script|ipynb|databricks` (default `script`): a Jupyter notebook or a Databricks
//! source-format notebook instead of the script (`.ipynb` / `.py` in `--all` mode).
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use streamlab_engine::export::{databricks_notebook, jupyter_notebook, pyspark_script, ExportOptions};
use streamlab_engine::scenario::Scenario;
use streamlab_engine::streaming::Trigger;

fn usage() -> ExitCode {
    eprintln!("usage: export <scenario.json> [-o script.py] [--trigger availableNow|once|processingTime=<ms>] [--format script|ipynb|databricks]\n       export --all <folder> -o <out-folder> [--format ...]");
    ExitCode::from(2)
}

/// What to write: the script or one of the notebooks.
#[derive(Clone, Copy)]
enum Format {
    Script,
    Ipynb,
    Databricks,
}

fn export_one(path: &Path, options: ExportOptions, format: Format) -> Result<(String, String), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let scenario = Scenario::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let written = match format {
        Format::Script => pyspark_script(&scenario, options),
        Format::Ipynb => jupyter_notebook(&scenario, options),
        Format::Databricks => databricks_notebook(&scenario, options),
    };
    Ok((scenario.id, written.map_err(|e| format!("{}: {e}", path.display()))?))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut input, mut out, mut all) = (None, None, false);
    let mut options = ExportOptions::default();
    let mut format = Format::Script;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--out" => out = it.next().map(PathBuf::from),
            "--all" => all = true,
            "--format" => {
                format = match it.next().map(String::as_str) {
                    Some("script") => Format::Script,
                    Some("ipynb") => Format::Ipynb,
                    Some("databricks") => Format::Databricks,
                    _ => return usage(),
                }
            }
            "--trigger" => {
                options.trigger = match it.next().map(String::as_str) {
                    Some("availableNow") => Trigger::AvailableNow,
                    Some("once") => Trigger::Once,
                    Some(t) if t.starts_with("processingTime=") => match t["processingTime=".len()..].parse() {
                        Ok(ms) => Trigger::ProcessingTime { interval_ms: ms },
                        Err(_) => return usage(),
                    },
                    _ => return usage(),
                }
            }
            s if !s.starts_with('-') && input.is_none() => input = Some(PathBuf::from(s)),
            _ => return usage(),
        }
    }
    let Some(input) = input else { return usage() };
    if all {
        let Some(out) = out else { return usage() };
        if let Err(e) = std::fs::create_dir_all(&out) {
            eprintln!("{}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        let mut files: Vec<PathBuf> = match std::fs::read_dir(&input) {
            Ok(d) => d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect(),
            Err(e) => {
                eprintln!("{}: {e}", input.display());
                return ExitCode::FAILURE;
            }
        };
        files.sort();
        for f in files {
            match export_one(&f, options, format).and_then(|(id, script)| {
                let dest = out.join(format!("{id}.{}", if matches!(format, Format::Ipynb) { "ipynb" } else { "py" }));
                std::fs::write(&dest, script).map_err(|e| format!("{}: {e}", dest.display())).map(|_| dest)
            }) {
                Ok(dest) => println!("{}", dest.display()),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    match export_one(&input, options, format) {
        Ok((_, script)) => match out {
            Some(path) => std::fs::write(&path, script).map_or_else(
                |e| {
                    eprintln!("{}: {e}", path.display());
                    ExitCode::FAILURE
                },
                |_| ExitCode::SUCCESS,
            ),
            None => {
                print!("{script}");
                ExitCode::SUCCESS
            }
        },
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
