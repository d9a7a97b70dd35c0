//! The study path: every lesson parses, names real presets, topics and questions, and every
//! guided step can be done in the lab: its condition does not hold before its actions and does
//! hold after them, walking the lesson from a fresh session.

use std::collections::BTreeSet;

use streamlab_web::lesson::{lesson, lessons};
use streamlab_web::quiz::{bank, topics, Lang};
use streamlab_web::script;

/// The order the study path must follow (the lesson ids, from the file names).
const PATH: &[&str] = &[
    "input-table",
    "output-modes",
    "triggers",
    "windows",
    "watermarks",
    "late-data",
    "session-windows",
    "dedup",
    "stream-static-joins",
    "stream-stream-joins",
    "multiple-watermarks",
    "checkpoints",
    "exactly-once",
    "sources",
    "monitoring",
    "state-store",
];

#[test]
fn the_path_is_in_order_and_complete() {
    let ls = lessons().unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = ls.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, PATH);
    for (i, l) in ls.iter().enumerate() {
        assert_eq!(l.number, i + 1);
        assert_eq!(lesson(&l.id).as_ref(), Some(l));
    }
    assert!(lesson("no-such-lesson").is_none());
}

#[test]
fn lessons_name_real_topics_and_questions_in_both_languages() {
    let qs = bank().unwrap();
    let topic_ids: BTreeSet<String> = topics().unwrap().into_iter().map(|t| t.id).collect();
    let mut covered = BTreeSet::new();
    for l in lessons().unwrap() {
        for t in &l.topics {
            assert!(topic_ids.contains(t), "lesson {}: unknown topic {t}", l.id);
            covered.insert(t.clone());
        }
        for id in &l.questions {
            let q = qs.iter().find(|q| &q.id == id).unwrap_or_else(|| panic!("lesson {}: no question {id}", l.id));
            assert!(l.topics.contains(&q.topic) || q.topic == "late-data" || q.topic == "operators", "lesson {}: question {id} is from topic {}", l.id, q.topic);
        }
        for lang in [Lang::En, Lang::Ko] {
            let t = l.text(lang);
            assert!(t.text.split("\n\n").filter(|p| !p.trim().is_empty()).count() >= 2, "lesson {} ({lang:?}): the text needs a few paragraphs", l.id);
            for s in &l.steps {
                assert!(!s.text(lang).text.trim().is_empty());
            }
        }
        let hangul = |s: &str| s.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
        assert!(hangul(&l.ko.text) && hangul(&l.ko.watch) && hangul(&l.ko.speaker), "lesson {}: ko text has no Korean", l.id);
    }
    // Every quiz topic is taught by some lesson except operator support, which lessons 2 and 8
    // mention in their exam notes.
    for t in &topic_ids {
        assert!(covered.contains(t) || t == "operators", "no lesson covers topic {t}");
    }
}

#[test]
fn exam_notes_say_both_the_guide_and_spark() {
    let ls = lessons().unwrap();
    let with_notes: Vec<_> = ls.iter().filter(|l| l.en.exam.is_some()).collect();
    assert!(with_notes.len() >= 6, "only {} lessons say where the guide and Spark 4.3 differ", with_notes.len());
    for l in &ls {
        assert_eq!(l.en.exam.is_some(), l.ko.exam.is_some(), "lesson {}: exam note in one language only", l.id);
        if let (Some(en), Some(ko)) = (&l.en.exam, &l.ko.exam) {
            assert!(en.contains("guide") && (en.contains("4.3") || en.contains("Spark")), "lesson {}: {en}", l.id);
            assert!(ko.contains("가이드"), "lesson {}: {ko}", l.id);
        }
    }
    // The joins lesson says what to answer in the exam.
    let joins = lesson("stream-stream-joins").unwrap();
    assert!(joins.en.exam.as_deref().unwrap().contains("answer append"));
}

#[test]
fn every_guided_step_can_be_done_in_the_lab() {
    for l in lessons().unwrap() {
        let mut s = l.session().unwrap_or_else(|| panic!("lesson {}: no session", l.id));
        assert_eq!(l.advance(0, &s.view()), 0, "lesson {}: a step is done before anything was pressed", l.id);
        for (i, step) in l.steps.iter().enumerate() {
            let before = s.view();
            assert!(!step.expect.holds(&before), "lesson {} step {i}: the condition already holds before its actions: it cannot fail", l.id);
            assert_eq!(l.advance(i, &before), i, "lesson {} step {i}", l.id);
            assert!(l.waiting_for(i, &before).is_some());
            script::run(&mut s, &step.actions).unwrap_or_else(|e| panic!("lesson {} step {i}: {e}", l.id));
            let after = s.view();
            if let Err(e) = step.expect.check(&after) {
                panic!("lesson {} step {i} ({}): not done after its actions: {e}", l.id, step.en.text);
            }
            assert_eq!(l.advance(i, &after), i + 1, "lesson {} step {i}: the next step is done before its own actions", l.id);
            assert!(l.waiting_for(i, &after).is_none());
        }
        assert_eq!(l.advance(l.steps.len(), &s.view()), l.steps.len());
    }
}
