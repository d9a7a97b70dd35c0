//! The conformance runner: every scenario in the project's copy of the Spark corpus
//! (`engine/tests/spark/cases` and `engine/tests/spark/available-now-restarts`, provenance in
//! `engine/tests/spark/README.md`) and in `engine/tests/cases` (our own scenarios recorded with
//! real Spark through the oracle harness), or only the folder in `STREAMLAB_CONFORMANCE_DIR`, through the
//! engine, compared batch by batch with what real Spark 4.3 did. Prints one line per case, a
//! summary per folder, and `N passed, M failed, K unsupported` over all; exits non-zero on
//! any wrong answer.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::path::PathBuf;
use std::process::ExitCode;

use streamlab_engine::scenario::{check_with, Driver, Scenario, Verdict};

fn corpus_dirs() -> Vec<PathBuf> {
    if let Ok(dir) = std::env::var("STREAMLAB_CONFORMANCE_DIR") {
        return vec![PathBuf::from(dir)];
    }
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    vec![
        here.join("tests/spark/cases"),
        here.join("tests/spark/available-now-restarts"),
        here.join("tests/cases"),
    ]
}

fn main() -> ExitCode {
    let mut total = (0, 0, 0);
    for dir in corpus_dirs() {
        let Some((p, f, u)) = run_dir(&dir) else { return ExitCode::FAILURE };
        total = (total.0 + p, total.1 + f, total.2 + u);
    }
    println!("{} passed, {} failed, {} unsupported", total.0, total.1, total.2);
    if total.1 > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn run_dir(dir: &std::path::Path) -> Option<(usize, usize, usize)> {
    println!("== {}", dir.display());
    // A folder named `available-now-restarts` runs each step as an availableNow restart.
    let driver = if dir.file_name().is_some_and(|n| n == "available-now-restarts") { Driver::AvailableNowRestarts } else { Driver::Continuous };
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect(),
        Err(e) => {
            eprintln!("conformance: cannot read {}: {e}", dir.display());
            return None;
        }
    };
    files.sort();
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let (mut passed, mut failed, mut unsupported) = (0, 0, 0);
    for path in files {
        let name = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let verdict = match std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|t| Scenario::from_json(&t).map_err(|e| e.to_string())) {
            // A panic is a wrong answer for this case, not the end of the run.
            Ok(s) => std::panic::catch_unwind(|| check_with(&s, driver))
                .unwrap_or_else(|p| Verdict::Fail(format!("panicked: {}", panic_text(&p)))),
            Err(e) => Verdict::Fail(format!("cannot load: {e}")),
        };
        match verdict {
            Verdict::Pass => {
                passed += 1;
                println!("pass        {name}");
            }
            Verdict::Fail(why) => {
                failed += 1;
                println!("FAIL        {name}: {why}");
            }
            Verdict::Unsupported(feature) => {
                unsupported += 1;
                println!("unsupported {name}: {feature}");
            }
        }
    }
    println!("{}: {passed} passed, {failed} failed, {unsupported} unsupported", dir.display());
    Some((passed, failed, unsupported))
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}
