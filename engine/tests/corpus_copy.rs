//! The project's copy of the Spark-recorded corpus (`engine/tests/spark/`) must equal the shared
//! corpus (`../shared/conformance/` beside the repository) file by file whenever that folder is
//! present, so a clone of the repository alone runs the same cases and the two never drift.
//! Without the shared folder (a fresh clone on its own) there is nothing to compare and the
//! test says so.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file under `root`, keyed by its path relative to `root` (`/`-separated).
fn files_under(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read(&path).expect("readable file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

#[test]
fn project_copy_equals_shared_corpus() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let copy = here.join("tests/spark");
    let shared = here.join("../../shared/conformance");
    let ours = files_under(&copy);
    assert!(ours.keys().any(|k| k.starts_with("cases/")), "the project's copy has no cases");
    if !shared.is_dir() {
        eprintln!("no {} beside the repository: nothing to compare the copy with", shared.display());
        return;
    }
    let theirs = files_under(&shared);
    let missing: Vec<&String> = theirs.keys().filter(|k| !ours.contains_key(*k)).collect();
    let extra: Vec<&String> = ours.keys().filter(|k| !theirs.contains_key(*k)).collect();
    let changed: Vec<&String> = theirs.iter().filter(|(k, v)| ours.get(*k).is_some_and(|o| o != *v)).map(|(k, _)| k).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && changed.is_empty(),
        "engine/tests/spark differs from ../shared/conformance (copy it again: \
         `rm -r engine/tests/spark/* && cp -r ../shared/conformance/* engine/tests/spark/`)\n\
         missing from the copy: {missing:?}\nonly in the copy: {extra:?}\nchanged: {changed:?}"
    );
}
