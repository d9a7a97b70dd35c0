//! The model's layers only point down: `text` → `lab` → `study` (ARCHITECTURE.md, "Layers").
//! This test reads every source file and fails on an import (`crate::X` outside comments) of
//! a layer above the file's own, and on an import circle between two modules (a module with its
//! own submodules is one: `lab/session/*` is `lab::session`).
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "../../engine/tests/support/imports.rs"]
mod imports;
use imports::{circles_in, code, rust_files};

/// Each top-level module's layer; a module may use only its own layer and lower ones.
/// `data` is the quiz files (compiled in, or fetched as one bundle), read by `study`.
const LAYERS: &[(&str, u32)] = &[("data", 0), ("text", 0), ("lab", 1), ("study", 2)];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}



/// Every path `crate::a::b…` a piece of code names (its first two segments), with its line.
fn crate_paths(code: &str) -> Vec<(usize, String, Option<String>)> {
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let top = ident(after);
            let second = after[top.len()..].strip_prefix("::").map(ident).filter(|s| !s.is_empty());
            out.push((i + 1, top, second));
            rest = after;
        }
    }
    out
}

/// A file's layer and module under `src` (`lab/session/view.rs` → ("lab", "session")).
fn place(rel: &Path) -> (String, Option<String>) {
    let mut parts = rel.components().filter_map(|c| c.as_os_str().to_str()).map(|s| s.trim_end_matches(".rs").to_string());
    let top = parts.next().unwrap_or_default();
    let module = parts.next().filter(|m| m != "mod");
    (top, module)
}

/// The code a crate ships from `text`: its unit-test module left out (a test may drive the
/// layers above).
fn shipped(text: &str) -> &str {
    text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text)
}

/// Upward imports in `src`, as `file:line: from -> to`.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src");
        let (top, _) = place(rel);
        let Some(from) = layer(&top) else {
            if top != "lib" {
                out.push(format!("{}: the module {top} has no layer in LAYERS", rel.display()));
            }
            continue;
        };
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (line, to, _) in crate_paths(&code(shipped(&text))) {
            if layer(&to).is_some_and(|l| l > from) {
                out.push(format!("{}:{line}: {top} -> {to}", rel.display()));
            }
        }
    }
    out
}

/// Every import circle between modules (`layer::module`), each as its sorted members.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src");
        let (top, Some(module)) = place(rel) else { continue };
        let me = format!("{top}::{module}");
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (_, to_top, to_module) in crate_paths(&code(shipped(&text))) {
            if let Some(m) = to_module.filter(|_| layer(&to_top).is_some()) {
                let other = format!("{to_top}::{m}");
                if other != me {
                    edges.entry(me.clone()).or_default().insert(other);
                }
            }
        }
    }
    circles_in(&edges)
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
    let c = circles(&src());
    assert!(c.is_empty(), "modules that import each other, directly or through others: {c:?}");
}

/// The checks can fail: a planted upward import and a planted circle in a copy are reported.
#[test]
fn a_planted_upward_import_and_circle_are_reported() {
    let dir = std::env::temp_dir().join(format!("streamlab-model-layers-{}", std::process::id()));
    let text = dir.join("text");
    let lab = dir.join("lab");
    std::fs::create_dir_all(&text).expect("temp dir");
    std::fs::create_dir_all(lab.join("session")).expect("temp dir");
    std::fs::write(text.join("bad.rs"), "// crate::study in a comment is fine\nuse crate::lab::session::LabView;\n").expect("write");
    std::fs::write(lab.join("session").join("view.rs"), "use crate::lab::picture::Picture;\n").expect("write");
    std::fs::write(lab.join("picture.rs"), "use crate::lab::session::LabView;\nuse crate::text::i18n::tr;\n").expect("write");
    let v = violations(&dir);
    let c = circles(&dir);
    std::fs::remove_dir_all(&dir).expect("cleanup");
    assert_eq!(v, vec!["text/bad.rs:2: text -> lab".to_string()]);
    assert_eq!(c, vec![vec!["lab::picture".to_string(), "lab::session".to_string()]]);
}

/// Every place outside `text/` that names a language other than the default one or matches
/// on the language (`Lang::Ko`, `Lang::En =>`, `match lang`, `let ko`, a `_ko` field), or
/// ships Korean words: each
/// language's words belong in its `text/` table file and the data, so a new language is one
/// file there plus data. `Lang::ALL`, `Lang::En` as the default and `Text` are fine.
fn language_by_hand(dir: &Path, skip: &str) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let rel = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
        // The glossary is a list of Korean terms: its banned variants and textbook spellings
        // are Korean words, checked against each term's Korean.
        if rel.starts_with(skip) || rel == "study/glossary.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("readable source");
        let shipped_lines = code(shipped(&text)).lines().count();
        for (i, line) in code(&text).lines().enumerate() {
            let by_hand = ["Lang::Ko", "Lang::En =>", "match lang", "let ko ", "if ko ", "_ko:", "_ko.", ".ko."].iter().find(|p| line.contains(*p));
            if let Some(p) = by_hand {
                out.push(format!("{rel}:{}: {p}", i + 1));
            } else if i < shipped_lines && line.chars().any(|c| ('가'..='힣').contains(&c)) {
                // Korean words in shipped code (a unit test may quote them).
                out.push(format!("{rel}:{}: Korean text", i + 1));
            }
        }
    }
    out
}

#[test]
fn no_code_outside_text_writes_a_language_by_hand() {
    let model = language_by_hand(&src(), "text/");
    let web = language_by_hand(&src().join("../../web/src"), "\u{0}");
    assert!(model.is_empty() && web.is_empty(), "languages written by hand outside model/src/text:\n{}", [model, web].concat().join("\n"));
}

/// The check can fail: a planted `Lang::Ko` and Korean words in shipped code are reported;
/// the same inside `text/`, or Korean quoted by a unit test, are not.
#[test]
fn a_planted_language_by_hand_is_reported() {
    let dir = std::env::temp_dir().join(format!("streamlab-model-langs-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("text")).expect("temp dir");
    std::fs::create_dir_all(dir.join("lab")).expect("temp dir");
    std::fs::write(dir.join("lab").join("note.rs"), "// Lang::Ko in a comment is fine\nlet ko = lang == Lang::Ko;\nlet t = Text::from_fn(|l| tr(l, \"x\"));\nlet w = [\"배치 \"];\n#[cfg(test)]\nmod tests {\n    const W: &str = \"배치\";\n}\n").expect("write");
    std::fs::write(dir.join("text").join("lang.rs"), "Lang::Ko => &self.ko,\n").expect("write");
    let found = language_by_hand(&dir, "text/");
    std::fs::remove_dir_all(&dir).expect("cleanup");
    assert_eq!(found, vec!["lab/note.rs:2: Lang::Ko".to_string(), "lab/note.rs:4: Korean text".to_string()]);
}
