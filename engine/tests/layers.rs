//! The engine's layers only point down: `types` → `plan` → `analysis` → `execution` →
//! `checkpoint` → `streaming` → `frontend` / `scenario` → `export` / `workloads` (ARCHITECTURE.md).
//! This test reads every source file and fails on an import (`crate::X` outside comments) of
//! a module in a higher layer, on an import loop between two files of the frontend, and on an
//! import circle between modules (`crate::`, `super::` and `self::` paths; a module is a file's
//! path at depth two, `execution::eval`, and one with its own submodules is one: `pyfunc/interp/*`
//! is `pyfunc::interp`).
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "support/imports.rs"]
mod imports;
use imports::{circles_with_imports, code, module_of, module_paths, rust_files};

/// Each top-level module's layer; a module may use only its own layer and lower ones.
const LAYERS: &[(&str, u32)] = &[
    ("error", 0),
    ("types", 0),
    ("plan", 1),
    ("state", 1),
    ("pyfunc", 1),
    ("analysis", 2),
    ("execution", 3),
    ("checkpoint", 4),
    ("streaming", 5),
    ("frontend", 6),
    ("scenario", 6),
    ("export", 7),
    ("workloads", 7),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}



/// Every `crate::<module>` a piece of code names, with its line number.
fn crate_refs(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            out.push((i + 1, name));
            rest = after;
        }
        // `use crate::{a, b}` names several modules at once.
        if let Some(at) = line.find("crate::{") {
            let inner = &line[at + "crate::{".len()..];
            for part in inner.split([',', '}']) {
                let name: String = part.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    out.push((i + 1, name));
                }
            }
        }
    }
    out
}

/// Upward imports in `src`, as `file:line: from -> to`.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src");
        let top = rel.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or("").trim_end_matches(".rs").to_string();
        // A module missing from LAYERS would escape the check: name it.
        let Some(from) = layer(&top) else {
            if top != "lib" {
                out.push(format!("{}: the module {top} has no layer in LAYERS", rel.display()));
            }
            continue;
        };
        let text = std::fs::read_to_string(&f).expect("readable source");
        // A unit-test module may build its query through the layers above (the frontend reads
        // the text the test writes); the rule is about the code the crate ships.
        let shipped = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(&text);
        for (line, to) in crate_refs(&code(shipped)) {
            if layer(&to).is_some_and(|l| l > from) {
                out.push(format!("{}:{line}: {top} -> {to}", rel.display()));
            }
        }
    }
    out
}




/// The imports between modules (`top::module`), each with the first `file:line` making it.
fn imports(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let is_module = |m: &[String]| src.join(&m[0]).join(format!("{}.rs", m[1])).is_file() || src.join(&m[0]).join(&m[1]).join("mod.rs").is_file();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src");
        let me = module_of(rel);
        if me.len() < 2 {
            continue;
        }
        let from = me[..2].join("::");
        let text = std::fs::read_to_string(&f).expect("readable source");
        let shipped = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(&text);
        for (line, to) in module_paths(&code(shipped), &me) {
            if to.len() >= 2 && is_module(&to[..2]) {
                let other = to[..2].join("::");
                if other != from {
                    edges.entry(from.clone()).or_default().entry(other).or_insert_with(|| format!("{}:{line}", rel.display()));
                }
            }
        }
    }
    edges
}

/// Every import circle between modules (`top::module`), each as its sorted members.
fn circles(src: &Path) -> Vec<Vec<String>> {
    circles_with_imports(&imports(src)).0
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let v = violations(&src());
    assert!(v.is_empty(), "imports that run up the layers:\n{}", v.join("\n"));
}

#[test]
fn no_import_circle_spans_two_modules() {
    let (c, inside) = circles_with_imports(&imports(&src()));
    assert!(c.is_empty(), "modules that import each other, directly or through others: {c:?}\n{}", inside.join("\n"));
}

#[test]
fn the_frontend_files_do_not_import_each_other_in_a_loop() {
    let dir = src().join("frontend");
    let mut uses: Vec<(String, String)> = Vec::new();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    for f in &files {
        let me = f.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        let text = code(&std::fs::read_to_string(f).expect("readable"));
        for other in files.iter().filter_map(|o| o.file_stem().and_then(|s| s.to_str())) {
            if other != me && other != "mod" && (text.contains(&format!("super::{other}::")) || text.contains(&format!("frontend::{other}::"))) {
                uses.push((me.clone(), other.to_string()));
            }
        }
    }
    let loops: Vec<String> = uses.iter().filter(|(a, b)| uses.contains(&(b.clone(), a.clone()))).map(|(a, b)| format!("{a} <-> {b}")).collect();
    assert!(loops.is_empty(), "import loops in frontend/: {loops:?}");
}

/// The checks can fail: a planted upward import and a planted circle in a copy are reported.
#[test]
fn a_planted_upward_import_and_circle_are_reported() {
    let dir = std::env::temp_dir().join(format!("streamlab-layers-{}", std::process::id()));
    let plan = dir.join("plan");
    let execution = dir.join("execution");
    std::fs::create_dir_all(&plan).expect("temp dir");
    std::fs::create_dir_all(execution.join("functions")).expect("temp dir");
    std::fs::write(plan.join("bad.rs"), "// crate::streaming in a comment is fine\nuse crate::streaming::OutputMode;\nuse crate::{types, scenario};\n")
        .expect("write");
    std::fs::write(execution.join("eval.rs"), "use super::compare::compare;\nuse super::functions::call;\n").expect("write");
    std::fs::write(execution.join("compare.rs"), "// super::eval in a comment is fine\nuse crate::types::Value;\n").expect("write");
    std::fs::write(execution.join("functions").join("mod.rs"), "mod strings;\n").expect("write");
    std::fs::write(execution.join("functions").join("strings.rs"), "use super::super::{compare::compare, eval::eval};\n").expect("write");
    let v = violations(&dir);
    let c = circles(&dir);
    std::fs::remove_dir_all(&dir).expect("cleanup");
    assert_eq!(v, vec!["plan/bad.rs:2: plan -> streaming".to_string(), "plan/bad.rs:3: plan -> scenario".to_string()]);
    assert_eq!(c, vec![vec!["execution::eval".to_string(), "execution::functions".to_string()]]);
}
