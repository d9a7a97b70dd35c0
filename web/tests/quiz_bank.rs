//! The quiz bank and the presets: every question is well formed in both languages, and every
//! answer's claim holds when the engine runs the question's scenario.

use std::collections::BTreeSet;

use streamlab_engine::scenario::{self, Scenario};
use streamlab_engine::Error;
use streamlab_web::quiz::{bank, check_claim, preset, presets, topics, Lang};

#[test]
fn every_question_parses() {
    let qs = bank().unwrap_or_else(|e| panic!("{e}"));
    assert!(qs.len() >= 12, "only {} questions", qs.len());
    let ts = topics().unwrap_or_else(|e| panic!("{e}"));
    for t in &ts {
        assert!(!t.en.trim().is_empty() && !t.ko.trim().is_empty(), "topic {} has no name", t.id);
        assert!(qs.iter().any(|q| q.topic == t.id), "topic {} has no questions", t.id);
    }
}

#[test]
fn ids_are_unique() {
    let qs = bank().unwrap();
    let mut seen = BTreeSet::new();
    for q in &qs {
        assert!(seen.insert(q.id.as_str()), "duplicate question id '{}'", q.id);
    }
}

#[test]
fn both_languages_and_answers_in_range() {
    for q in bank().unwrap() {
        q.validate().unwrap_or_else(|e| panic!("question '{}': {e}", q.id));
        let (en, ko) = (q.text(Lang::En), q.text(Lang::Ko));
        assert_eq!(en.choices.len(), ko.choices.len(), "question '{}': choice counts differ", q.id);
        assert!(en.choices.len() >= 3, "question '{}': fewer than 3 choices", q.id);
        assert!(q.answer < en.choices.len(), "question '{}': answer out of range", q.id);
        for t in [en, ko] {
            assert!(!t.prompt.trim().is_empty(), "question '{}': empty prompt", q.id);
            assert!(!t.explanation.trim().is_empty(), "question '{}': empty explanation", q.id);
            let distinct: BTreeSet<&str> = t.choices.iter().map(|c| c.trim()).collect();
            assert_eq!(distinct.len(), t.choices.len(), "question '{}': repeated choice", q.id);
        }
        // The Korean text is Korean (at least one Hangul syllable in prompt and explanation).
        let hangul = |s: &str| s.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
        assert!(hangul(&ko.prompt) && hangul(&ko.explanation), "question '{}': ko text has no Korean", q.id);
    }
}

#[test]
fn every_question_names_a_preset() {
    for q in bank().unwrap() {
        q.scenario().unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn presets_parse_and_run() {
    let ps = presets();
    assert!(ps.len() >= 8);
    let mut ids = BTreeSet::new();
    for (id, json) in ps {
        assert!(ids.insert(id), "duplicate preset {id}");
        let s = Scenario::from_json(json).unwrap_or_else(|e| panic!("preset {id}: {e}"));
        assert_eq!(s.id, id, "preset {id}: the file's id differs from its name");
        assert!(!s.title.trim().is_empty(), "preset {id}: no title");
        assert!(s.expected.is_none(), "preset {id}: presets carry no expected block");
        assert_eq!(preset(id).as_ref(), Some(&s));
        let run = scenario::run(&s);
        match (&run.error, id.ends_with("-error")) {
            (None, false) => assert!(!run.batches.is_empty(), "preset {id}: no batch ran"),
            (Some(Error::Analysis(_)), true) => {}
            (Some(e), false) => panic!("preset {id}: unexpected error: {e}"),
            (Some(e), true) => panic!("preset {id}: expected an analysis error, got: {e}"),
            (None, true) => panic!("preset {id}: expected an error, but the query ran"),
        }
    }
    assert!(preset("no-such-preset").is_none());
}

#[test]
fn every_claim_holds_in_the_engine() {
    let mut failures = Vec::new();
    let qs = bank().unwrap();
    for q in &qs {
        if let Err(e) = check_claim(q) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{} of {} claims fail:\n{}", failures.len(), qs.len(), failures.join("\n"));
}

#[test]
fn a_wrong_claim_is_caught() {
    // The checker must be able to fail: flip every question's claim and expect an error.
    for q in bank().unwrap() {
        let mut wrong = q.clone();
        let c = &mut wrong.check;
        if let Some(n) = c.rows.as_mut() {
            *n += 1;
        } else if let Some(n) = c.dropped.as_mut() {
            *n += 1;
        } else if let Some(n) = c.state_total.as_mut() {
            *n += 1;
        } else if let Some(b) = c.no_data.as_mut() {
            *b = !*b;
        } else if let Some(n) = c.batches.as_mut() {
            *n += 1;
        } else if let Some(n) = c.emitted_total.as_mut() {
            *n += 1;
        } else if c.watermark.is_some() {
            c.watermark = Some("1999-01-01T00:00:00Z".into());
        } else if c.error_class.is_some() {
            c.error_class = Some("NOT_A_CONDITION".into());
        } else if c.error_stage.is_some() {
            c.error_stage = Some(if c.error_stage.as_deref() == Some("run") { "define" } else { "run" }.into());
        } else if let Some(b) = c.batch.as_mut() {
            *b += 1000;
        } else if let Some(n) = c.duplicates.as_mut() {
            *n += 1;
        } else if let Some(n) = c.sink_visible_rows.as_mut() {
            *n += 1;
        } else if let Some(n) = c.runs.as_mut() {
            *n += 1;
        } else if c.restart_error_contains.is_some() {
            c.restart_error_contains = Some("NOT_A_RESTART_ERROR".into());
        }
        assert!(check_claim(&wrong).is_err(), "question '{}': a falsified claim still passes", q.id);
    }
    let mut empty = bank().unwrap().remove(0);
    empty.check = Default::default();
    assert!(check_claim(&empty).is_err(), "an empty claim must be an error");
}
