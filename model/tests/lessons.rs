//! The study path: every lesson parses, names real presets, topics and questions, and every
//! guided step can be done in the lab: its condition does not hold before its actions and does
//! hold after them, walking the lesson from a fresh session.

use std::collections::BTreeSet;

use streamlab_model::study::lesson::{lesson, lessons};
use streamlab_model::study::quiz::{bank, topics};
use streamlab_model::text::Lang;
use streamlab_model::lab::script;
use streamlab_model::text::markup::{blocks, Block, Span};

mod support;
use support::lab;

/// The order the study path must follow (the lesson ids, from the file names).
const PATH: &[&str] = &[
    "input-table",
    "sources",
    "triggers",
    "windows",
    "watermarks",
    "output-modes",
    "late-data",
    "session-windows",
    "dedup",
    "unsupported-operations",
    "stream-static-joins",
    "stream-stream-joins",
    "checkpoints",
    "exactly-once",
    "monitoring",
    "multiple-watermarks",
    "state-store",
    "arbitrary-state",
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
        assert!(hangul(&l.text.ko.text) && hangul(&l.text.ko.watch) && hangul(&l.text.ko.speaker), "lesson {}: ko text has no Korean", l.id);
    }
    // Every quiz topic is taught by some lesson (operator support by the unsupported-operations
    // lesson).
    for t in &topic_ids {
        assert!(covered.contains(t), "no lesson covers topic {t}");
    }
}

#[test]
fn exam_notes_say_both_the_guide_and_spark() {
    let ls = lessons().unwrap();
    let with_notes: Vec<_> = ls.iter().filter(|l| l.text.en.exam.is_some()).collect();
    assert!(with_notes.len() >= 6, "only {} lessons say where the guide and Spark 4.3 differ", with_notes.len());
    for l in &ls {
        assert_eq!(l.text.en.exam.is_some(), l.text.ko.exam.is_some(), "lesson {}: exam note in one language only", l.id);
        if let (Some(en), Some(ko)) = (&l.text.en.exam, &l.text.ko.exam) {
            assert!(en.contains("guide") && (en.contains("4.3") || en.contains("Spark")), "lesson {}: {en}", l.id);
            assert!(ko.contains("가이드"), "lesson {}: {ko}", l.id);
        }
    }
    // The joins lesson says what to answer in the exam.
    let joins = lesson("stream-stream-joins").unwrap();
    assert!(joins.text.en.exam.as_deref().unwrap().contains("answer append"));
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
                panic!("lesson {} step {i} ({}): not done after its actions: {e}", l.id, step.text.en.text);
            }
            assert_eq!(l.advance(i, &after), i + 1, "lesson {} step {i}: the next step is done before its own actions", l.id);
            assert!(l.waiting_for(i, &after).is_none());
        }
        assert_eq!(l.advance(l.steps.len(), &s.view()), l.steps.len());
    }
}

#[test]
fn end_of_lesson_questions_test_transfer() {
    // A question that runs the lesson's own preset unchanged (no query, mode, script, sink or
    // crash of its own) repeats a guided step's scenario:
    // at most 10% of the end-of-lesson questions may.
    let qs = bank().unwrap();
    let (mut slots, mut repeats) = (0, Vec::new());
    for l in lessons().unwrap() {
        for id in &l.questions {
            let q = qs.iter().find(|q| &q.id == id).unwrap();
            slots += 1;
            if q.scenario == l.preset && q.query.is_none() && q.output_mode.is_none() && q.conf.is_empty() && q.check.script.is_none() && !q.check.is_recovery() {
                repeats.push(format!("{}: {id}", l.id));
            }
        }
    }
    println!("{} of {slots} end-of-lesson questions run the lesson's own preset unchanged", repeats.len());
    assert!(repeats.len() * 10 <= slots, "{} of {slots} end-of-lesson questions repeat the lesson's scenario:\n{}", repeats.len(), repeats.join("\n"));
}

/// The study session as the page runs it, by "Next lesson" alone: from the free lab (changed by
/// the learner) into lesson 1, then each lesson's "Next lesson". Every lesson opens on its own
/// lab — exactly its preset's fresh session, nothing carried over from the lesson before (lesson
/// 3 ends on trigger once) — and "Do it for me" completes its tasks in order without building
/// the lab again. The free lab comes back as the learner left it.
#[test]
fn every_lesson_reached_by_next_lesson_opens_its_own_lab_and_do_it_for_me_completes_it() {
    use streamlab_model::study::lesson::LabOwner;
    let all = lessons().unwrap();
    let mut live = lab("classic");
    live.set_query("clicks.select('event_id', 'event_time')");
    live.run_step();
    let free = live.to_saved_json();
    let mut owner = LabOwner::default();
    let mut at = Some(&all[0]);
    let mut walked = Vec::new();
    while let Some(l) = at {
        assert!(owner.enter_lesson(&mut live, &l.id, &l.preset), "lesson {}: the lab before it was kept", l.id);
        let fresh = l.session().unwrap();
        assert_eq!(live.to_saved_json(), fresh.to_saved_json(), "lesson {}: its lab is not its preset's fresh lab", l.id);
        assert_eq!(live.trigger_choice(), fresh.trigger_choice(), "lesson {}", l.id);
        // Entering it again (a reload, back from a question page) keeps the lesson's lab.
        assert!(!owner.enter_lesson(&mut live, &l.id, &l.preset));
        let mut step = l.advance(0, &live.view());
        assert_eq!(step, 0, "lesson {}: a task is done before anything was pressed", l.id);
        while step < l.steps.len() {
            let rebuilt = l.do_step(step, &mut live).unwrap_or_else(|e| panic!("lesson {} task {step}: {e}", l.id));
            assert!(!rebuilt, "lesson {} task {step}: Do it for me had to build the lab again", l.id);
            let next = l.advance(step, &live.view());
            assert_eq!(next, step + 1, "lesson {} task {step}: Do it for me did not complete it: {:?}", l.id, l.waiting_for(step, &live.view()));
            step = next;
        }
        walked.push(l.id.as_str());
        at = l.next(&all);
    }
    assert_eq!(walked, PATH);
    assert_eq!(owner.free.as_deref(), Some(free.as_str()));
    assert!(owner.enter_free_lab(&mut live, || None));
    assert_eq!(live.to_saved_json(), free);
}

/// The hint under an unfinished task names what is missing in Korean as in English: before each
/// task's actions, its hint is Korean text (Hangul, none of the English sentence) in Korean.
#[test]
fn the_korean_hint_names_what_is_missing() {
    let hangul = |s: &str| s.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
    for l in lessons().unwrap() {
        let mut s = l.session().unwrap();
        for (i, step) in l.steps.iter().enumerate() {
            let w = l.waiting_for(i, &s.view()).unwrap_or_else(|| panic!("lesson {} task {i}: nothing missing before its actions", l.id));
            assert!(hangul(w.text(Lang::Ko)), "lesson {} task {i}: Korean hint {:?}", l.id, w.0.ko);
            assert_ne!(w.text(Lang::Ko), w.text(Lang::En));
            assert!(!w.0.ko.contains("(가)") && !w.0.ko.contains("(는)") && !w.0.ko.contains("(를)"), "lesson {} task {i}: particle left: {}", l.id, w.0.ko);
            // The hint never prints what the task asks the learner to find: the row it looks
            // for, or the count it expects.
            let e = &step.expect;
            for hint in [&w.0.en, &w.0.ko] {
                if let Some(cells) = &e.emitted_row {
                    assert!(!cells.iter().all(|c| hint.contains(c.as_str())), "lesson {} task {i}: hint gives the row away: {hint}", l.id);
                }
                // A watermark as the lab writes it (09:03): the time part of the wanted one.
                for wm in [&e.watermark, &e.batch_watermark].into_iter().flatten() {
                    let hhmm = wm.get(11..16).unwrap_or(wm);
                    assert!(!hint.contains(hhmm), "lesson {} task {i}: hint gives the watermark away: {hint}", l.id);
                }
                if let Some(class) = &e.error_class {
                    assert!(!hint.contains(class.as_str()), "lesson {} task {i}: hint names the error: {hint}", l.id);
                }
                for n in [e.batch_rows, e.pending_at_least, e.duplicates, e.batches_at_least, e.no_data_batches_at_least, e.steps_done_at_least].into_iter().flatten().map(|n| n as u64).chain([e.batch_dropped, e.batch_state_total, e.dropped_at_least].into_iter().flatten()) {
                    // "not 3" as a count, not the start of "not 2026-03-02…".
                    let says = |p: String| hint.match_indices(p.as_str()).any(|(at, _)| !hint[at + p.len()..].starts_with(|c: char| c.is_ascii_digit() || c == '-'));
                    assert!(!says(format!("not {n}")) && !says(format!("of {n}")) && !hint.contains(&format!("{n}개 중")) && !hint.contains(&format!("{n}개가 아니라")), "lesson {} task {i}: hint gives the count away: {hint}", l.id);
                }
            }
            script::run(&mut s, &step.actions).unwrap();
        }
    }
    // One worked through: lesson 3's second task (availableNow, three files added without a
    // batch) first waits for the 4 pending rows; the hint says how many there are now (0) and
    // that it is too few, without the 4 the task asks the learner to find.
    let l = lesson("triggers").unwrap();
    let mut s = l.session().unwrap();
    script::run(&mut s, &l.steps[0].actions).unwrap();
    let w = l.waiting_for(1, &s.view()).unwrap();
    assert_eq!(w.0.en, "more pending rows (now 0, fewer than this task needs)");
    // "행" has a final consonant: 이 (not 가).
    assert_eq!(w.0.ko, "대기 중인 행이 더 있어야 합니다(지금 0개로는 부족합니다)");
    // With the rows added but the trigger still the default, the trigger is what is missing.
    script::run(&mut s, &["reset".into(), "push_step".into(), "push_step".into(), "push_step".into()]).unwrap();
    let w = l.waiting_for(1, &s.view()).unwrap();
    assert_eq!(w.0.en, "the trigger is not availableNow=True");
    assert_eq!(w.0.ko, "트리거가 availableNow=True가 아닙니다");
}

/// No learner-facing text cites the project's internal files (a learner cannot open
/// `spark-semantics.md` or its sections): lessons, tasks, questions, the exam lens, every label
/// and message, in both languages.
#[test]
fn no_learner_text_cites_internal_files() {
    let internal = |t: &str| ["spark-semantics", "§", ".md", "ARCHITECTURE", "quizzes/"].into_iter().find(|m| t.contains(m));
    let mut texts: Vec<(String, String)> = Vec::new();
    for l in lessons().unwrap() {
        for lang in [Lang::En, Lang::Ko] {
            texts.push((format!("lesson {}", l.id), format!("{:?}", l.text(lang))));
            for s in &l.steps {
                texts.push((format!("lesson {} task", l.id), format!("{:?}", s.text(lang))));
            }
        }
    }
    for q in bank().unwrap() {
        for lang in [Lang::En, Lang::Ko] {
            texts.push((format!("question {}", q.id), format!("{:?}", q.text(lang))));
        }
    }
    for e in streamlab_model::study::lens::entries().unwrap() {
        for lang in [Lang::En, Lang::Ko] {
            texts.push((format!("exam lens {}", e.id), format!("{:?}", e.text(lang))));
        }
    }
    for lang in Lang::ALL {
        for (key, text) in streamlab_model::text::i18n::labels_in(lang) {
            texts.push((format!("label {key}"), text.to_string()));
        }
        for (en, text) in streamlab_model::text::i18n::messages_in(lang) {
            texts.push(("message".into(), format!("{en} {text}")));
        }
    }
    let bad: Vec<String> = texts.iter().filter_map(|(w, t)| internal(t).map(|m| format!("{w}: cites {m}"))).collect();
    assert!(texts.len() > 1000 && bad.is_empty(), "{} texts, internal references:\n{}", texts.len(), bad.join("\n"));
}

#[test]
fn every_lesson_text_reads_without_stray_marks() {
    // Each lesson's text, in both languages, uses only closed marks: no `**` or backtick is
    // left over as plain text.
    for l in streamlab_model::study::lesson::lessons().expect("lessons parse") {
        for text in [&l.text.en.text, &l.text.ko.text, &l.text.en.watch, &l.text.ko.watch] {
            for b in blocks(text) {
                let spans = match b {
                    Block::Para(s) => s,
                    Block::List(items) => items.concat(),
                };
                for s in spans {
                    if let Span::Text(x) = s {
                        assert!(!x.contains('`') && !x.contains("**"), "lesson {}: stray mark in {x:?}", l.id);
                    }
                }
            }
        }
    }
}

/// A learner who runs the whole example before the delay task can still do it: the task reads
/// batch 6's watermark, not the live one (a walkthrough found the live 09:30 never matched).
/// Worked from the classic preset: with a 5-minute delay, batch 6 (step 3's data) runs with
/// max event time 09:24 − 5 min = 09:19, however many steps ran after it.
#[test]
fn the_watermark_delay_task_holds_after_running_ahead() {
    let l = lesson("watermarks").expect("lesson 5");
    let step = l.steps.iter().find(|s| s.actions == ["delay: 0 5 minutes"]).expect("the delay task");
    let mut s = l.session().expect("its lab");
    script::run(&mut s, &["run_steps".to_string()]).expect("every step");
    assert!(!step.expect.holds(&s.view()), "the task holds before the delay changed");
    script::run(&mut s, &["delay: 0 5 minutes".to_string()]).expect("the delay");
    step.expect.check(&s.view()).unwrap_or_else(|e| panic!("after running ahead, then the delay: {e}"));
}
