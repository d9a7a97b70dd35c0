//! The conformance runner: every scenario in the project's copy of the Spark corpus
//! (`engine/tests/spark/cases` and `engine/tests/spark/available-now-restarts`, provenance in
//! `engine/tests/spark/README.md`), in `engine/tests/cases` (our own scenarios recorded with
//! real Spark through the oracle harness) and in `engine/tests/docs` (the streaming examples of the
//! PySpark API reference and the programming guide, recorded the same way; sources in
//! `engine/tests/docs/README.md`), in `engine/tests/study` (the study documents' and
//! certification-style programs, `engine/tests/study/README.md`), or only the folder in `STREAMLAB_CONFORMANCE_DIR`, through the
//! engine, compared batch by batch with what real Spark 4.3 did. Prints one line per case, a
//! summary per folder, and `N passed, M failed, K unsupported` over all; exits non-zero on
//! any wrong answer, on an empty folder, and when an unsupported verdict breaks the ratchet
//! (`tests/support/ratchet.rs`: only the cases in `tests/expected-unsupported.txt` may be
//! unsupported, each naming its listed feature, and a listed case that passes must leave the
//! list).
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[path = "support/ratchet.rs"]
mod ratchet;
use ratchet::Seen;

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
        here.join("tests/docs"),
        here.join("tests/study"),
    ]
}

fn main() -> ExitCode {
    let mut total = (0, 0, 0);
    let mut seen: BTreeMap<String, Seen> = BTreeMap::new();
    let filtered = std::env::args().skip(1).any(|a| !a.starts_with('-'));
    let default_dirs = std::env::var("STREAMLAB_CONFORMANCE_DIR").is_err();
    for dir in corpus_dirs() {
        let Some((p, f, u)) = run_dir(&dir, &mut seen) else { return ExitCode::FAILURE };
        if p + f + u == 0 && !filtered {
            eprintln!("conformance: {} holds no case: a corpus folder that judges nothing is a failure", dir.display());
            return ExitCode::FAILURE;
        }
        total = (total.0 + p, total.1 + f, total.2 + u);
    }
    println!("{} passed, {} failed, {} unsupported", total.0, total.1, total.2);
    let list_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/expected-unsupported.txt");
    let listed = match std::fs::read_to_string(&list_path).map_err(|e| e.to_string()).and_then(|t| ratchet::parse_list(&t)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("conformance: {}: {e}", list_path.display());
            return ExitCode::FAILURE;
        }
    };
    let problems = ratchet::problems(&seen, &listed, default_dirs && !filtered);
    for p in &problems {
        println!("RATCHET     {p}");
    }
    if total.1 > 0 || !problems.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn run_dir(dir: &std::path::Path, seen: &mut BTreeMap<String, Seen>) -> Option<(usize, usize, usize)> {
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
        // The same case id in two folders (a case and its availableNow restart): the worse
        // verdict counts for the ratchet.
        let this = match &verdict {
            Verdict::Pass => Seen::Pass,
            Verdict::Fail(_) => Seen::Fail,
            Verdict::Unsupported(f) => Seen::Unsupported(f.clone()),
        };
        seen.entry(name.clone()).and_modify(|s| if *s == Seen::Pass { *s = this.clone() }).or_insert(this);
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
