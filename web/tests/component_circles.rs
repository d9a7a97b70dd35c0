//! The page's components import each other without a circle (ARCHITECTURE.md, "Invariants"):
//! this test reads every file under `src/components/` and fails when two components import each
//! other, directly or through others (`crate::`, `super::` and `self::` paths; a component is
//! `components::x`, and `components::x::y` is `x` too). What several components share, such as
//! the context types, lives in a leaf they all import (`context.rs`).
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// The code of a file without `//` comments (doc links may point anywhere).
fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// A file's module path under `src` (`components/study/lessons.rs` → `components::study::lessons`,
/// a `mod.rs` is its folder's module).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.components().filter_map(|c| c.as_os_str().to_str()).map(|s| s.trim_end_matches(".rs").to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Reads one path from the start of `s` onto `at` (`a::b`, `super::a`, `a::{b, c::d}`), pushing
/// each full path it names to `out`; returns the length read.
fn read_path(s: &str, mut at: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut i = 0;
    loop {
        let rest = &s[i..];
        if let Some(group) = rest.strip_prefix('{') {
            i += 1;
            let mut j = 0;
            loop {
                let item = &group[j..];
                let skipped = item.len() - item.trim_start().len();
                j += skipped;
                if group[j..].is_empty() || group[j..].starts_with('}') {
                    break;
                }
                j += read_path(&group[j..], at.clone(), out);
                // Past an `as` rename to the next item or the group's end.
                j += group[j..].find([',', '}']).unwrap_or(group.len() - j);
                if group[j..].starts_with(',') {
                    j += 1;
                }
            }
            return i + j + 1;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        match name.as_str() {
            "" => break,
            "crate" => at.clear(),
            "super" => {
                at.pop();
            }
            "self" => {}
            n => at.push(n.to_string()),
        }
        i += name.len();
        match s[i..].strip_prefix("::") {
            Some(_) => i += 2,
            None => break,
        }
    }
    out.push(at);
    i
}

/// Every path a piece of code names through `crate::`, `super::` or `self::`, resolved from the
/// module `me`, with its line.
fn module_paths(code: &str, me: &[String]) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let prev = code[..i].chars().next_back();
        let boundary = !prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        if boundary && ["crate::", "super::", "self::"].iter().any(|p| rest.starts_with(p)) {
            let line = code[..i].matches('\n').count() + 1;
            let mut paths = Vec::new();
            i += read_path(rest, me.to_vec(), &mut paths).max(1);
            out.extend(paths.into_iter().map(|p| (line, p)));
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

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
    let edges = imports(src);
    // Reachability by a walk from each node: two nodes each reaching the other share a circle.
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|k| (k, reach(k))).collect();
    let mut out: BTreeSet<Vec<String>> = BTreeSet::new();
    for (a, ra) in &reaches {
        if ra.contains(*a) {
            let members: Vec<String> = ra.iter().filter(|b| reaches.get(b).is_some_and(|rb| rb.contains(*a))).cloned().collect();
            out.insert(members);
        }
    }
    out.into_iter().collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_import_circle_spans_two_components() {
    let c = circles(&src());
    // Each import inside a circle, to show where to cut it.
    let edges = imports(&src());
    let inside: Vec<String> = c
        .iter()
        .flat_map(|members| members.iter().flat_map(|a| edges.get(a).into_iter().flatten().filter(|(b, _)| members.contains(b)).map(move |(b, at)| format!("{at}: {a} -> {b}"))))
        .collect();
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
