//! The quiz bank and the presets: every question is well formed in both languages, every
//! answer's claim holds when the engine runs the question's scenario, and the bank follows the
//! quality rules of `quizzes/README.md` (no reason inside a choice, the right choice not given
//! away by its length, shuffled choices, one question per claim, explanations with numbers,
//! both readings where the guide and Spark 4.3 differ). `cargo test -p streamlab-model --test
//! quiz_bank -- --nocapture` prints the bank's statistics.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::{BTreeMap, BTreeSet};

use streamlab_engine::scenario::{self, Scenario};
use streamlab_engine::Error;
use streamlab_model::study::quiz::{bank, shuffled, topics, Answer, Grade, Kind, Question, ValueCheck};
use streamlab_model::study::claim::{check_claim, decide};
use streamlab_model::lab::presets::{preset, preset_info, presets};
use streamlab_model::text::Lang;
use streamlab_model::study::rules::{answer_is_longest, claim_key, leans_on_another, longest_share, per_kind, per_topic, stem_gives_answer, violations};
use streamlab_model::study::strategy::{failure_keys, score, Strategy};

/// The most questions whose right choice is the longest (strictly), as a share.
const MAX_LONGEST_SHARE: f64 = 0.30;
/// The most any test-wise strategy may score (expected share right, ties at random).
const MAX_STRATEGY_SCORE: f64 = 0.35;
/// The most "what happens?" items (a choice says it fails, another that it runs) keyed to a
/// failure.
const MAX_FAILURE_KEY_SHARE: f64 = 0.55;
/// The smallest bank.
const MIN_QUESTIONS: usize = 220;

fn qs() -> Vec<Question> {
    bank().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_question_parses_and_every_topic_has_questions() {
    let qs = qs();
    assert!(qs.len() >= MIN_QUESTIONS, "only {} questions (at least {MIN_QUESTIONS})", qs.len());
    let ts = topics().unwrap_or_else(|e| panic!("{e}"));
    for t in &ts {
        assert!(!t.name.en.trim().is_empty() && !t.name.ko.trim().is_empty(), "topic {} has no name", t.id);
        let n = qs.iter().filter(|q| q.topic == t.id).count();
        assert!(n >= 5, "topic {} has only {n} questions", t.id);
    }
}

#[test]
fn bank_statistics() {
    // Printed for the report and the README; the asserts are the rules.
    let qs = qs();
    println!("{} questions; kinds {:?}", qs.len(), per_kind(&qs));
    for lang in [Lang::En, Lang::Ko] {
        let (longest, choice) = longest_share(&qs, lang);
        let share = longest as f64 / choice as f64;
        println!("{lang:?}: the right choice is the longest in {longest} of {choice} choice questions ({:.1}%)", share * 100.0);
        assert!(share <= MAX_LONGEST_SHARE, "{lang:?}: the right choice is the longest in {:.1}% of questions (at most {:.0}%)", share * 100.0, MAX_LONGEST_SHARE * 100.0);
    }
    for (topic, n) in per_topic(&qs) {
        println!("  {topic}: {n}");
    }
    let tied = qs.iter().filter(|q| q.tie.is_some()).count();
    let own = qs.iter().filter(|q| !q.choice_check.is_empty()).count();
    let value = qs.iter().filter(|q| q.kind == Kind::Value).count();
    println!("the engine decides every key: {tied} by a tied value, {own} by each choice's own claim, {value} typed values");
    let lens = qs.iter().filter(|q| q.lens.is_some()).count();
    println!("{lens} questions cite an exam-lens entry");
    let concept = qs.iter().filter(|q| q.spec.is_some()).count();
    println!("{concept} questions cite a spark-semantics.md section");
}

#[test]
fn ids_are_unique_and_no_two_questions_share_a_claim() {
    let mut ids = BTreeSet::new();
    let mut claims: BTreeMap<String, &str> = BTreeMap::new();
    let qs = qs();
    for q in &qs {
        assert!(ids.insert(q.id.as_str()), "duplicate question id '{}'", q.id);
        if let Some(other) = claims.insert(claim_key(q), &q.id) {
            panic!("questions '{other}' and '{}' have the same scenario and claim", q.id);
        }
    }
}

#[test]
fn both_languages_and_answers_in_range() {
    for q in qs() {
        q.validate().unwrap_or_else(|e| panic!("question '{}': {e}", q.id));
        let (en, ko) = (q.text(Lang::En), q.text(Lang::Ko));
        assert_eq!(en.choices.len(), ko.choices.len(), "question '{}': choice counts differ", q.id);
        for t in [en, ko] {
            let distinct: BTreeSet<&str> = t.choices.iter().map(|c| c.trim()).collect();
            assert_eq!(distinct.len(), t.choices.len(), "question '{}': repeated choice", q.id);
        }
        // The Korean text is Korean (at least one Hangul syllable in prompt and explanation).
        let hangul = |s: &str| s.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
        assert!(hangul(&ko.prompt) && hangul(&ko.explanation), "question '{}': ko text has no Korean", q.id);
    }
}

/// Inline code opens and closes: an odd backtick shows as a stray character and turns the rest
/// of the text into code (two prompts had lost the start of a sentence and kept its closing
/// backtick: "Sql.streaming.multipleWatermarkPolicy = max`").
#[test]
fn inline_code_is_closed_in_every_text() {
    let mut bad = Vec::new();
    for q in qs() {
        for lang in [Lang::En, Lang::Ko] {
            let t = q.text(lang);
            for (part, text) in [("prompt", &t.prompt), ("explanation", &t.explanation)].into_iter().chain(t.choices.iter().map(|c| ("choice", c))) {
                if text.matches('`').count() % 2 == 1 {
                    bad.push(format!("{} ({lang:?}) {part}: {text}", q.id));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} texts with an unclosed `:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn every_question_follows_the_quality_rules() {
    let mut all = Vec::new();
    for q in qs() {
        for v in violations(&q) {
            all.push(format!("{}: {v}", q.id));
        }
    }
    assert!(all.is_empty(), "{} rule violations:\n{}", all.len(), all.join("\n"));
}

#[test]
fn the_rules_catch_what_they_should() {
    let mut q = qs().into_iter().find(|q| q.id == "watermark-max-minus-delay").unwrap();
    assert!(violations(&q).is_empty());
    q.text.en.choices[0] = "08:52 because it uses the earliest click".into();
    assert!(violations(&q).iter().any(|v| v.contains("justification")));
    q.text.en.choices[0] = "08:52".into();
    q.text.ko.choices[2] = "09:13: 지연 시간을 빼먹음".into();
    assert!(violations(&q).iter().any(|v| v.contains("justification")));
    q.text.ko.choices[2] = "09:13".into();
    // A tie whose right choice does not show the engine's value.
    q.text.en.choices[1] = "09:04".into();
    assert!(violations(&q).iter().any(|v| v.contains("tie")));
    q.text.en.choices[1] = "09:03".into();
    q.text.en.explanation = "No numbers at all in this explanation, which is long enough otherwise.".into();
    assert!(violations(&q).iter().any(|v| v.contains("numbers")));
    // The longest-choice rule sees a giveaway.
    let mut l = qs().into_iter().find(|q| q.id == "watermark-max-minus-delay").unwrap();
    l.text.en.choices[l.answer] = "09:03, the newest event minus the delay".into();
    assert!(answer_is_longest(&l, Lang::En));
}

#[test]
fn guide_and_spark_differences_say_both() {
    let qs = qs();
    let marked: Vec<&Question> = qs.iter().filter(|q| q.guide_differs.is_some()).collect();
    assert!(marked.len() >= 8, "only {} questions say where the guide and Spark 4.3 differ", marked.len());
    // The three behaviours the brief names: joins in update mode, limit, distinct.
    for row in [3, 4, 5] {
        assert!(marked.iter().any(|q| q.guide_differs == Some(row)), "no question on spark-semantics.md §14 row {row}");
    }
}

#[test]
fn choices_are_shuffled_per_attempt_with_a_stable_seed() {
    let qs = qs();
    let mut positions = [0usize; 4];
    let mut moved = 0;
    for q in qs.iter().filter(|q| q.kind == Kind::Choice) {
        let n = q.text.en.choices.len();
        for seed in 0..8u64 {
            let order = shuffled(q, seed);
            assert_eq!(order, shuffled(q, seed), "question '{}': not stable for seed {seed}", q.id);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "question '{}': not a permutation", q.id);
            let shown = order.iter().position(|&i| i == q.answer).unwrap();
            if shown < 4 {
                positions[shown] += 1;
            }
        }
        if (0..8u64).map(|s| shuffled(q, s)).collect::<BTreeSet<_>>().len() > 1 {
            moved += 1;
        }
    }
    let choice = qs.iter().filter(|q| q.kind == Kind::Choice).count();
    assert_eq!(moved, choice, "every choice question gets more than one order over 8 seeds");
    // The right answer lands on every position about equally often (each at least 15%).
    let total: usize = positions.iter().sum();
    println!("right answer shown at positions 1-4: {positions:?}");
    for (i, p) in positions.iter().enumerate() {
        assert!(*p * 100 >= total * 15, "the right answer is shown at position {} only {p} of {total} times", i + 1);
    }
    // In the files, too, the right answer is not always at the same index.
    let mut file_pos = [0usize; 4];
    for q in qs.iter().filter(|q| q.kind == Kind::Choice) {
        file_pos[q.answer.min(3)] += 1;
    }
    assert!(file_pos.iter().all(|p| *p * 100 >= choice * 10), "answers in the files: {file_pos:?}");
}

#[test]
fn value_questions_accept_the_engine_value_and_reject_others() {
    let qs = qs();
    let values: Vec<&Question> = qs.iter().filter(|q| q.kind == Kind::Value).collect();
    assert!(values.len() >= 20, "only {} type-the-value questions", values.len());
    for q in values {
        let key = q.value_of.as_deref().unwrap();
        let right = q.claim_value_text(key).unwrap();
        assert_eq!(q.check_value(&right), ValueCheck::Correct, "question '{}': its own value '{right}'", q.id);
        let wrong = if key.contains("watermark") {
            "00:01".to_string()
        } else {
            (right.parse::<u64>().unwrap() + 1).to_string()
        };
        assert!(matches!(q.check_value(&wrong), ValueCheck::Wrong { .. }), "question '{}': '{wrong}' is not wrong", q.id);
        assert!(matches!(q.check_value("soon"), ValueCheck::Unreadable(_)), "question '{}'", q.id);
        assert!(q.claim_value_text(key).is_some());
        // grade, the rule the card and the exam share, says the same and names the value.
        assert_eq!(q.grade(&Answer::Typed(right.clone())), Grade::Right, "question '{}'", q.id);
        assert_eq!(q.grade(&Answer::Typed(wrong.clone())), Grade::Wrong { expected: Some(right.clone()) }, "question '{}'", q.id);
        assert!(matches!(q.grade(&Answer::Typed("soon".into())), Grade::Unreadable(_)), "question '{}'", q.id);
        assert_eq!(q.grade(&Answer::Choice(0)), Grade::Wrong { expected: Some(right) }, "question '{}': a choice is no answer to it", q.id);
    }
    // A choice question: its answer's index is right, every other choice and any typed text wrong.
    for q in qs.iter().filter(|q| q.kind == Kind::Choice) {
        for c in 0..q.text.en.choices.len() {
            let want = if c == q.answer { Grade::Right } else { Grade::Wrong { expected: None } };
            assert_eq!(q.grade(&Answer::Choice(c)), want, "question '{}' choice {c}", q.id);
        }
        assert_eq!(q.grade(&Answer::Typed(q.text.en.choices[q.answer].clone())), Grade::Wrong { expected: None }, "question '{}'", q.id);
    }
    // Times are read like the event form: 09:03 = 09:03:00 = the full ISO text.
    let q = qs.iter().find(|q| q.id == "watermark-type-start-time").unwrap();
    for typed in ["09:07", "09:07:00", " 9:07 ", "2026-03-02T09:07:00Z"] {
        assert_eq!(q.check_value(typed), ValueCheck::Correct, "'{typed}'");
    }
}

#[test]
fn every_question_names_a_preset() {
    for q in qs() {
        q.scenario().unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The project's copy of the Spark semantics spec the `spec` fields name sections of.
fn spec_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/spark-semantics.md")
}

/// The copy is the shared spec, whenever the shared folder is beside the project (a clone alone
/// has only the copy, which the section check above reads).
#[test]
fn the_spec_copy_is_the_shared_spec() {
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec/spark-semantics.md");
    let Ok(theirs) = std::fs::read_to_string(&shared) else {
        println!("{} not found: the copy is not compared", shared.display());
        return;
    };
    let ours = std::fs::read_to_string(spec_path()).expect("docs/spark-semantics.md");
    assert!(ours == theirs, "docs/spark-semantics.md differs from {}: copy it again", shared.display());
}

#[test]
fn spec_sections_exist() {
    // The project's copy of the spec (docs/spark-semantics.md; kept equal to the shared one by
    // `the_spec_copy_is_the_shared_spec`).
    let spec = std::fs::read_to_string(spec_path()).expect("docs/spark-semantics.md");
    let headings: BTreeSet<String> = spec
        .lines()
        .filter(|l| l.starts_with("## ") || l.starts_with("### "))
        .filter_map(|l| l.trim_start_matches('#').trim().split(' ').next().map(|n| n.trim_end_matches('.').to_string()))
        .collect();
    for q in qs() {
        if let Some(s) = &q.spec {
            assert!(headings.contains(s), "question '{}': spark-semantics.md has no section {s}", q.id);
        }
    }
    for l in streamlab_model::study::lesson::lessons().expect("lessons parse") {
        for s in &l.spec {
            assert!(headings.contains(s), "lesson '{}': spark-semantics.md has no section {s}", l.id);
        }
    }
}

#[test]
fn presets_parse_and_run_and_have_both_languages() {
    let ps = presets();
    assert!(ps.len() >= 8);
    let mut ids = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (id, json) in ps {
        assert!(ids.insert(id), "duplicate preset {id}");
        let s = Scenario::from_json(&json).unwrap_or_else(|e| panic!("preset {id}: {e}"));
        assert_eq!(s.id, id, "preset {id}: the file's id differs from its name");
        assert!(!s.title.trim().is_empty(), "preset {id}: no title");
        assert!(s.expected.is_none(), "preset {id}: presets carry no expected block");
        assert_eq!(preset(id).as_ref(), Some(&s));
        let info = preset_info(id).unwrap();
        for (field, text) in [("name", &info.name), ("title", &info.title), ("notes", &info.notes)] {
            for (lang, text) in text.iter() {
                assert!(!text.trim().is_empty(), "preset {id}: no {field} in {lang:?}");
            }
        }
        assert!(names.insert(info.name.en.clone()), "preset {id}: name '{}' is used twice", info.name.en);
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
    assert!(preset_info("no-such-preset").is_none());
}

#[test]
fn every_claim_holds_in_the_engine() {
    let mut failures = Vec::new();
    let qs = qs();
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
    for q in qs() {
        let mut wrong = q.clone();
        let c = &mut wrong.check;
        if let Some(n) = c.rows.as_mut() {
            *n += 1;
        } else if let Some(r) = c.row_set.as_mut() {
            r.push("not | a | row".into());
        } else if let Some(n) = c.dropped.as_mut() {
            *n += 1;
        } else if let Some(n) = c.state_total.as_mut() {
            *n += 1;
        } else if let Some(n) = c.input_rows.as_mut() {
            *n += 1;
        } else if let Some(n) = c.shuffle_partitions.as_mut() {
            *n += 1;
        } else if let Some(n) = c.state_removed.as_mut() {
            *n += 1;
        } else if let Some(o) = c.operators.as_mut() {
            o.push("noSuchOperator".into());
        } else if let Some(p) = c.progress.as_mut() {
            let first = p.keys().next().cloned().unwrap();
            p.insert(first, serde_json::json!("not the value"));
        } else if let Some(b) = c.no_data.as_mut() {
            *b = !*b;
        } else if let Some(n) = c.batches.as_mut() {
            *n += 1;
        } else if let Some(n) = c.emitted_total.as_mut() {
            *n += 1;
        } else if c.watermark.is_some() {
            c.watermark = Some("1999-01-01T00:00:00Z".into());
        } else if c.late_watermark.is_some() {
            c.late_watermark = Some("1999-01-01T00:00:00Z".into());
        } else if c.error_class.is_some() {
            c.error_class = Some("NOT_A_CONDITION".into());
        } else if c.error_stage.is_some() {
            c.error_stage = Some(if c.error_stage.as_deref() == Some("run") { "define" } else { "run" }.into());
        } else if let Some(r) = c.lens_rules.as_mut() {
            r.push("no-such-rule".into());
        } else if let Some(ok) = c.ok.as_mut() {
            *ok = !*ok;
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
    let mut empty = qs().remove(0);
    empty.check = Default::default();
    assert!(check_claim(&empty).is_err(), "an empty claim must be an error");
}

#[test]
fn the_engine_decides_every_key() {
    let qs = qs();
    let mut failures = Vec::new();
    for q in &qs {
        if let Err(e) = decide(q) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{} of {} questions are not decided by the engine:\n{}", failures.len(), qs.len(), failures.join("\n"));
}

#[test]
fn a_wrong_key_is_caught() {
    // The mutation test: every other choice, keyed in turn, must fail the check.
    let mut missed = Vec::new();
    let mut mutants = 0;
    for q in qs().into_iter().filter(|q| q.kind == Kind::Choice) {
        for wrong in (0..q.text.en.choices.len()).filter(|i| *i != q.answer) {
            mutants += 1;
            let mut m = q.clone();
            m.answer = wrong;
            if decide(&m).is_ok() {
                missed.push(format!("{}: answer {} -> {wrong} still passes", q.id, q.answer));
            }
        }
    }
    println!("{mutants} wrong keys tried, {} missed", missed.len());
    assert!(missed.is_empty(), "{} wrong keys pass:\n{}", missed.len(), missed.join("\n"));
}

#[test]
fn test_wise_strategies_do_not_pay() {
    let qs = qs();
    let mut over = Vec::new();
    for lang in [Lang::En, Lang::Ko] {
        for s in Strategy::ALL {
            let share = score(&qs, lang, s);
            println!("{lang:?}: {:<22} {:.1}%", s.name(), share * 100.0);
            if share > MAX_STRATEGY_SCORE {
                over.push(format!("{lang:?}: '{}' scores {:.1}%", s.name(), share * 100.0));
            }
        }
        let (failing, items) = failure_keys(&qs, lang);
        let share = failing as f64 / items.max(1) as f64;
        println!("{lang:?}: {failing} of {items} \"what happens?\" items are keyed to a failure ({:.1}%)", share * 100.0);
        if share > MAX_FAILURE_KEY_SHARE {
            over.push(format!("{lang:?}: {:.1}% of \"what happens?\" items are keyed to a failure", share * 100.0));
        }
    }
    assert!(over.is_empty(), "test-wise strategies pay (at most {:.0}%, failure keys at most {:.0}%):\n{}", MAX_STRATEGY_SCORE * 100.0, MAX_FAILURE_KEY_SHARE * 100.0, over.join("\n"));
}

#[test]
fn every_stem_stands_alone() {
    let mut bad = Vec::new();
    for q in qs() {
        for lang in [Lang::En, Lang::Ko] {
            if let Some(why) = leans_on_another(&q.text(lang).prompt, lang) {
                bad.push(format!("{} ({lang:?}): {why}", q.id));
            }
            if let Some(why) = stem_gives_answer(&q, lang) {
                bad.push(format!("{} ({lang:?}): {why}", q.id));
            }
        }
    }
    assert!(bad.is_empty(), "{} stems do not stand alone or give the answer:\n{}", bad.len(), bad.join("\n"));
}

/// The app fetches the bank as one bundle (`prerendered/questions.json`) and holds only its
/// index (ids and topics) before: the bundle reads back as the bank, the index names the same
/// questions and topics, and a bundle from another build is refused, not half read.
#[test]
fn the_fetched_bundle_is_the_bank_and_the_index_names_it() {
    use streamlab_model::study::quiz::{bank_from_bundle, bundle, question_refs};
    let all = bank().unwrap();
    assert_eq!(bank_from_bundle(&bundle()).unwrap(), all);
    let refs = question_refs().unwrap();
    assert_eq!(refs.iter().map(|r| (r.id.as_str(), r.topic.as_str())).collect::<Vec<_>>(), all.iter().map(|q| (q.id.as_str(), q.topic.as_str())).collect::<Vec<_>>());
    assert_eq!(topics().unwrap().len(), 18, "one topic a quiz file");
    // A bundle without one topic, with one question renamed, or not JSON at all.
    let text = bundle();
    let mut files: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
    files.remove("dedup");
    assert!(bank_from_bundle(&serde_json::Value::Object(files).to_string()).unwrap_err().contains("no topic 'dedup'"));
    let renamed = text.replacen(&format!("\"id\":\"{}\"", all[0].id), "\"id\":\"renamed-question\"", 1);
    assert!(bank_from_bundle(&renamed).unwrap_err().contains("not the one this version"));
    assert!(bank_from_bundle("<html>offline</html>").is_err());
}
