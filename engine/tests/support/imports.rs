//! Reading a crate's source for its imports, shared by the layer checks of every crate
//! (`engine/tests/layers.rs`, `model/tests/layers.rs`, `web/tests/component_circles.rs`, which
//! include this file by path): the files, their code without comments, the module paths they
//! name, and the import circles of a graph.
#![allow(dead_code)] // each check uses what it needs

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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
pub fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// A file's module path under `src` (`execution/functions/math.rs` → `execution::functions::math`,
/// a `mod.rs` is its folder's module).
pub fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.components().filter_map(|c| c.as_os_str().to_str()).map(|s| s.trim_end_matches(".rs").to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Reads one path from the start of `s` onto `at` (`a::b`, `super::a`, `a::{b, c::d}`), pushing
/// each full path it names to `out`; returns the length read.
pub fn read_path(s: &str, mut at: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
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
pub fn module_paths(code: &str, me: &[String]) -> Vec<(usize, Vec<String>)> {
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

/// Every circle of `imports` (module → imported module → the `file:line` importing it), and each
/// import inside one as `file:line: a -> b`, to show where to cut it.
pub fn circles_with_imports(imports: &BTreeMap<String, BTreeMap<String, String>>) -> (Vec<Vec<String>>, Vec<String>) {
    let circles = circles_in(&imports.iter().map(|(k, to)| (k.clone(), to.keys().cloned().collect())).collect());
    let inside = circles
        .iter()
        .flat_map(|members| members.iter().flat_map(|a| imports.get(a).into_iter().flatten().filter(|(b, _)| members.contains(b)).map(move |(b, at)| format!("{at}: {a} -> {b}"))))
        .collect();
    (circles, inside)
}

/// Every circle of `edges` (module → the modules it imports), each as its sorted members:
/// two modules each reaching the other, by a walk from each, share a circle.
pub fn circles_in(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
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
