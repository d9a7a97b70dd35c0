//! The conformance runner's ratchet on unsupported verdicts can fail: each way of breaking it is
//! reported (an unsupported case not on the list, a listed case naming another feature, a listed
//! case that passes, a listed case that does not exist).

#[path = "support/ratchet.rs"]
mod ratchet;

use std::collections::BTreeMap;

use ratchet::{parse_list, problems, Seen};

#[test]
fn every_way_of_breaking_the_ratchet_is_reported() {
    let listed = parse_list("# comment\nkept: the function soundex()\nnow-passes: spark.range()\ngone: DataFrame.observe()\nrenamed: the function foo()\n").unwrap();
    let seen: BTreeMap<String, Seen> = [
        ("kept", Seen::Unsupported("the function soundex()".into())),
        ("now-passes", Seen::Pass),
        ("renamed", Seen::Unsupported("the function bar()".into())),
        // A case that silently stopped being judged: the demonstration of issue 29.
        ("fn-case-coalesce-coercion-append", Seen::Unsupported("the function coalesce()".into())),
        ("plain", Seen::Pass),
        ("wrong", Seen::Fail),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let found = problems(&seen, &listed, true);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found.iter().any(|p| p.starts_with("fn-case-coalesce-coercion-append is unsupported (the function coalesce()) but not on the list")));
    assert!(found.iter().any(|p| p.starts_with("now-passes passes now")));
    assert!(found.iter().any(|p| p.starts_with("renamed now names another missing feature")));
    assert!(found.iter().any(|p| p.starts_with("gone is on the list")));
    // A partial run (a name filter, another folder) does not miss what it did not run.
    assert_eq!(problems(&seen, &listed, false).len(), 3);
    // The list holds.
    let seen_ok: BTreeMap<String, Seen> = [("kept".to_string(), Seen::Unsupported("the function soundex()".into()))].into_iter().collect();
    assert!(problems(&seen_ok, &parse_list("kept: the function soundex()").unwrap(), true).is_empty());
}

#[test]
fn the_list_is_read_strictly() {
    assert!(parse_list("no separator here").is_err());
    assert!(parse_list("a: x\na: y").is_err());
}

#[test]
fn the_projects_list_parses_and_names_real_cases() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    #[allow(clippy::disallowed_methods)] // a test may read files
    let text = std::fs::read_to_string(here.join("expected-unsupported.txt")).expect("the list exists");
    let listed = parse_list(&text).expect("the list parses");
    for id in listed.keys() {
        let found = ["spark/cases", "spark/available-now-restarts", "cases", "docs", "study"].iter().any(|d| here.join(d).join(format!("{id}.json")).exists());
        assert!(found, "{id} is listed but no case file has that id");
    }
}
