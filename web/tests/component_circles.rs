//! The page's components import each other without a circle (ARCHITECTURE.md, "Invariants"):
//! this test reads every file under `src/components/` and fails when two components import each
//! other, directly or through others (`crate::`, `super::` and `self::` paths; a component is
//! `components::x`, and `components::x::y` is `x` too). What several components share, such as
//! the context types, lives in a leaf they all import (`context.rs`).
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "../../engine/tests/support/imports.rs"]
mod imports;
use imports::{circles_with_imports, code, module_of, module_paths, rust_files};






/// The imports between components (`x` for `components::x`), each with the first `file:line`
/// making it; `components/mod.rs`, the parent that routes to them all, is none of them.
fn imports(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut files = Vec::new();
    rust_files(&src.join("components"), &mut files);
    files.sort();
    let components = src.join("components");
    let is_component = |m: &str| components.join(format!("{m}.rs")).is_file() || components.join(m).join("mod.rs").is_file();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src");
        let me = module_of(rel);
        if me.len() < 2 {
            continue;
        }
        let from = me[1].clone();
        let text = std::fs::read_to_string(&f).expect("readable source");
        let shipped = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(&text);
        for (line, to) in module_paths(&code(shipped), &me) {
            if to.len() >= 2 && to[0] == "components" && is_component(&to[1]) && to[1] != from {
                edges.entry(from.clone()).or_default().entry(to[1].clone()).or_insert_with(|| format!("{}:{line}", rel.display()));
            }
        }
    }
    edges
}

/// Every import circle between components, each as its sorted members.
fn circles(src: &Path) -> Vec<Vec<String>> {
    circles_with_imports(&imports(src)).0
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_import_circle_spans_two_components() {
    let (c, inside) = circles_with_imports(&imports(&src()));
    assert!(c.is_empty(), "components that import each other, directly or through others: {c:?}\n{}", inside.join("\n"));
}

/// The check can fail: a circle planted in a copy (through a submodule, a group and a view's
/// tag) is reported, and a shared leaf is not one.
#[test]
fn a_planted_circle_is_reported() {
    let dir = std::env::temp_dir().join(format!("streamlab-web-circles-{}", std::process::id()));
    let components = dir.join("components");
    std::fs::create_dir_all(components.join("study")).expect("temp dir");
    std::fs::write(components.join("mod.rs"), "mod context;\nmod controls;\nmod presenter;\nmod study;\nuse presenter::Presenter;\n").expect("write");
    std::fs::write(components.join("context.rs"), "// super::presenter in a comment is fine\nuse crate::Lab;\n").expect("write");
    std::fs::write(components.join("presenter.rs"), "use super::{context::Player, controls::SpeedPicker};\n").expect("write");
    std::fs::write(components.join("controls.rs"), "use super::context::Player;\nfn f() { view! { <super::study::Nav/> } }\n").expect("write");
    std::fs::write(components.join("study").join("mod.rs"), "mod lessons;\nuse crate::components::context::Player;\n").expect("write");
    std::fs::write(components.join("study").join("lessons.rs"), "use super::super::presenter::Presenter;\n").expect("write");
    let c = circles(&dir);
    std::fs::remove_dir_all(&dir).expect("cleanup");
    assert_eq!(c, vec![vec!["controls".to_string(), "presenter".to_string(), "study".to_string()]]);
}
