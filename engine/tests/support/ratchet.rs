//! The ratchet on unsupported verdicts: the conformance runner reads the list of cases expected
//! to be unsupported, each with the feature it names (`engine/tests/expected-unsupported.txt`),
//! and fails when a case is unsupported that is not on the list (a case that silently stopped
//! being judged), when a listed case names another feature, and when a listed case passes now
//! (so the list only shrinks). Shared by `tests/conformance.rs` and `tests/ratchet.rs` (which
//! shows it can fail).

use std::collections::BTreeMap;

/// One case's verdict, as the ratchet sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    Pass,
    Fail,
    /// Unsupported, naming this feature.
    Unsupported(String),
}

/// Reads the list: one `case-id: feature` per line; blank lines and `#` comments skipped.
///
/// # Errors
/// A line without `: `, or a case listed twice.
pub fn parse_list(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((id, feature)) = line.split_once(": ") else {
            return Err(format!("line {}: expected `case-id: feature`, got {line:?}", i + 1));
        };
        if out.insert(id.trim().to_string(), feature.trim().to_string()).is_some() {
            return Err(format!("line {}: {id} is listed twice", i + 1));
        }
    }
    Ok(out)
}

/// What is wrong with `seen` (case id → verdict) against `listed`; empty when the ratchet holds.
/// `complete` says the run judged every case of the corpus (no name filter, the default
/// folders), so a listed case that was not seen is reported too.
pub fn problems(seen: &BTreeMap<String, Seen>, listed: &BTreeMap<String, String>, complete: bool) -> Vec<String> {
    let mut out = Vec::new();
    for (id, verdict) in seen {
        match (verdict, listed.get(id)) {
            (Seen::Unsupported(f), None) => out.push(format!("{id} is unsupported ({f}) but not on the list of expected unsupported cases: build the feature, or list it with the feature it names")),
            (Seen::Unsupported(f), Some(want)) if f != want => out.push(format!("{id} now names another missing feature: {f:?}, listed as {want:?}")),
            (Seen::Pass, Some(_)) => out.push(format!("{id} passes now: take it off the list of expected unsupported cases")),
            _ => {}
        }
    }
    if complete {
        for id in listed.keys().filter(|id| !seen.contains_key(*id)) {
            out.push(format!("{id} is on the list of expected unsupported cases but no such case was run"));
        }
    }
    out
}
