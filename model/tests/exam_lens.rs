//! The exam lens (`quizzes/exam-lens.toml`): every entry has both languages, says what the exam
//! expects, rests on recorded real-Spark 4.3 cases, and is taught: at least one lesson and one
//! question cite it. Every engine rule has an entry, and every entry's rule is an engine rule.
#![allow(clippy::disallowed_methods)] // a test reads the recorded cases

use std::collections::BTreeSet;
use std::path::Path;

use streamlab_engine::analysis::exam_lens::LensRule;
use streamlab_model::study::lens::{entries, entry, for_rules, LensSource};
use streamlab_model::study::lesson::lessons;
use streamlab_model::study::quiz::bank;
use streamlab_model::text::Lang;

fn hangul(s: &str) -> bool {
    s.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
}

#[test]
fn every_entry_has_both_languages_and_an_exam_answer() {
    let es = entries().unwrap_or_else(|e| panic!("{e}"));
    assert!(es.len() >= 12, "only {} exam-lens entries", es.len());
    let mut ids = BTreeSet::new();
    for e in &es {
        assert!(ids.insert(e.id.as_str()), "duplicate entry {}", e.id);
        for lang in [Lang::En, Lang::Ko] {
            let t = e.text(lang);
            for (field, text) in [("title", &t.title), ("guide", &t.guide), ("spark", &t.spark), ("exam", &t.exam)] {
                assert!(text.trim().len() >= 8, "{} ({lang:?}): {field} is empty", e.id);
                if lang == Lang::Ko {
                    assert!(hangul(text), "{} (ko): {field} has no Korean", e.id);
                }
            }
        }
        assert!(e.text.en.exam.starts_with("On the exam"), "{}: the exam answer starts 'On the exam'", e.id);
        assert!(e.text.ko.exam.starts_with("시험"), "{}: the Korean exam answer starts '시험'", e.id);
        if e.source == LensSource::Guide {
            assert!(e.text.en.guide.contains("guide") || e.text.en.guide.contains('“'), "{}: the guide's statement names the guide or quotes it", e.id);
        }
    }
    assert!(entry("limit-on-stream").is_some());
    assert!(entry("no-such-entry").is_none());
}

/// A recorded case: a conformance scenario whose `expected` block real Spark 4.3.0 wrote, in a
/// folder the conformance runner reads, or a probe's recorded output.
#[test]
fn every_entry_rests_on_recorded_spark_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for e in entries().unwrap() {
        assert!(!e.cases.is_empty(), "{}: no recorded case", e.id);
        for c in &e.cases {
            let text = std::fs::read_to_string(root.join(c)).unwrap_or_else(|err| panic!("{}: case {c}: {err}", e.id));
            let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: case {c}: {err}", e.id));
            let version = if c.starts_with("engine/tests/probes/") {
                json["spark_version"].as_str()
            } else {
                assert!(
                    ["engine/tests/spark/cases/", "engine/tests/cases/", "engine/tests/docs/"].iter().any(|d| c.starts_with(d)),
                    "{}: case {c} is not in a folder the conformance runner reads",
                    e.id
                );
                json["expected"]["spark_version"].as_str()
            };
            assert_eq!(version, Some("4.3.0"), "{}: case {c} is not a Spark 4.3.0 recording", e.id);
        }
    }
}

#[test]
fn every_entry_is_taught_in_a_lesson_and_a_question() {
    let es = entries().unwrap();
    let known: BTreeSet<&str> = es.iter().map(|e| e.id.as_str()).collect();
    let ls = lessons().unwrap();
    let qs = bank().unwrap();
    for l in &ls {
        for id in &l.lens {
            assert!(known.contains(id.as_str()), "lesson {} cites unknown exam-lens entry {id}", l.id);
        }
        if !l.lens.is_empty() {
            for lang in [Lang::En, Lang::Ko] {
                assert!(l.text(lang).exam.is_some(), "lesson {} cites exam-lens entries but has no {lang:?} exam note", l.id);
            }
        }
    }
    for q in &qs {
        if let Some(id) = &q.lens {
            assert!(known.contains(id.as_str()), "question {} cites unknown exam-lens entry {id}", q.id);
        }
    }
    for e in &es {
        assert!(ls.iter().any(|l| l.lens.contains(&e.id)), "no lesson cites exam-lens entry {}", e.id);
        assert!(qs.iter().any(|q| q.lens.as_deref() == Some(e.id.as_str())), "no question cites exam-lens entry {}", e.id);
    }
}

#[test]
fn entries_and_engine_rules_match() {
    let es = entries().unwrap();
    let engine: BTreeSet<&str> = LensRule::ALL.iter().map(|r| r.id()).collect();
    for e in &es {
        if let Some(r) = &e.rule {
            assert!(engine.contains(r.as_str()), "{}: rule {r} is not an engine rule", e.id);
        }
    }
    for r in LensRule::ALL {
        let hit = for_rules(&[r.id()]);
        assert_eq!(hit.len(), 1, "engine rule {} has {} exam-lens entries", r.id(), hit.len());
    }
    // Unknown ids select nothing, and one entry is listed once.
    assert!(for_rules(&["no-such-rule"]).is_empty());
    assert_eq!(for_rules(&["limit", "limit"]).len(), 1);
}
