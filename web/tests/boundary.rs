//! Invariant 6, "one boundary": components never call the engine. This test reads every file
//! under `src/components/` and fails on a mention of `streamlab_engine` outside comments;
//! what a component needs from the engine comes through `crate::session` (its re-exported
//! plain types, its snapshots and formatting helpers). It also keeps the list of the plain-Rust
//! modules that do call the engine, so a new one is added on purpose.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::path::{Path, PathBuf};

/// The modules outside `session` that call the engine (none of them is a component): the
/// study path checks claims, steps and predictions by running it, `generate` writes
/// preset rows' times, and `persist`, `picture`,
/// `progress_import` and `bench` read or show its types.
const ENGINE_CALLERS: &[&str] = &[
    "bench.rs",
    "claim.rs",
    "generate.rs",
    "lens.rs",
    "lesson.rs",
    "lesson/condition.rs",
    "persist.rs",
    "picture.rs",
    "predict.rs",
    "progress_import.rs",
    "quiz.rs",
    "script.rs",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable src dir") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without `//` comments (doc comments may name the engine).
fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every line under `dir` that names the engine crate, as `file:line`, paths relative to `dir`.
fn engine_mentions(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (i, line) in code(&text).lines().enumerate() {
            if line.contains("streamlab_engine") {
                out.push(format!("{}:{}", f.strip_prefix(dir).expect("under dir").display(), i + 1));
            }
        }
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_component_imports_the_engine() {
    let v = engine_mentions(&src().join("components"));
    assert!(v.is_empty(), "components naming streamlab_engine (take it from crate::session instead):\n{}", v.join("\n"));
}

#[test]
fn only_the_session_and_the_listed_modules_call_the_engine() {
    let callers: Vec<String> = engine_mentions(&src())
        .into_iter()
        .filter_map(|m| m.split(':').next().map(str::to_string))
        .filter(|f| !(f == "session.rs" || f.starts_with("session/")))
        .collect();
    let unlisted: Vec<&String> = callers.iter().filter(|f| !ENGINE_CALLERS.contains(&f.as_str())).collect();
    assert!(unlisted.is_empty(), "modules calling the engine that are neither the session nor listed in ENGINE_CALLERS: {unlisted:?}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("temp dir");
    for e in std::fs::read_dir(from).expect("readable dir") {
        let p = e.expect("dir entry").path();
        let target = to.join(p.file_name().expect("a name"));
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).expect("copy");
        }
    }
}

/// The check can fail: in a copy of the components, an engine import planted in `query.rs`
/// and an engine path planted in `study/mod.rs` are reported, and nothing else is.
#[test]
fn a_planted_engine_import_in_a_component_is_reported() {
    let dir = std::env::temp_dir().join(format!("streamlab-web-boundary-{}", std::process::id()));
    copy_dir(&src().join("components"), &dir);
    let plant = |file: &Path, head: &str| {
        let text = std::fs::read_to_string(file).expect("readable copy");
        std::fs::write(file, format!("{head}{text}")).expect("write");
    };
    plant(&dir.join("query.rs"), "// streamlab_engine in a comment is fine\nuse streamlab_engine::streaming::OutputMode;\n");
    plant(&dir.join("study").join("mod.rs"), "pub type Planted = streamlab_engine::scenario::Scenario; // a path, not a use\n");
    let v = engine_mentions(&dir);
    std::fs::remove_dir_all(&dir).expect("cleanup");
    let study_mod = Path::new("study").join("mod.rs");
    assert_eq!(v, vec!["query.rs:2".to_string(), format!("{}:1", study_mod.display())]);
}
