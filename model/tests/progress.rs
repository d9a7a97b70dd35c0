//! The learner's record and exam mode: answers and per-topic scores, the review queue's
//! 1/3/7-day spacing, loading a damaged, older or newer record without panicking, and seeded
//! exams scored per topic with the wrong answers to open in the lab.

use proptest::prelude::*;
use streamlab_model::study::exam::{self, ExamAnswer};
use streamlab_model::study::lesson::lessons;
use streamlab_model::study::progress::{Day, Progress, PROGRESS_VERSION};
use streamlab_model::study::quiz::{bank, shuffled, Kind};

mod support;
use support::{question, questions};

fn lesson_ids() -> Vec<String> {
    static IDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    IDS.get_or_init(|| lessons().unwrap().into_iter().map(|l| l.id).collect()).clone()
}

#[test]
fn answers_update_scores_and_the_review_queue_spaces_1_3_7_days() {
    let mut p = Progress::default();
    let wm = question("watermark-max-minus-delay");
    let today = Day(20_000);
    p.record(&wm, false, today, false);
    assert_eq!(p.score("watermark").answered, 1);
    assert_eq!(p.score("watermark").correct, 0);
    // A miss comes back tomorrow, not today.
    assert!(p.due(today).is_empty());
    assert_eq!(p.due(today.plus(1)), vec![wm.id.clone()]);
    // Right at review: next time in 3 days, then 7, then it leaves the queue.
    p.record(&wm, true, today.plus(1), false);
    assert!(p.due(today.plus(3)).is_empty());
    assert_eq!(p.due(today.plus(4)), vec![wm.id.clone()]);
    p.record(&wm, true, today.plus(4), false);
    assert!(p.due(today.plus(10)).is_empty());
    assert_eq!(p.due(today.plus(11)), vec![wm.id.clone()]);
    p.record(&wm, true, today.plus(11), false);
    assert!(p.review.is_empty(), "three right reviews end the spacing");
    assert_eq!(p.score("watermark"), streamlab_model::study::progress::Score { answered: 4, correct: 3 });
    assert_eq!(p.score("watermark").percent(), 75);
    // A right answer before the due day does not move the question on; a new miss resets it.
    p.record(&wm, false, today.plus(20), false);
    p.record(&wm, true, today.plus(20), false);
    assert_eq!(p.due(today.plus(21)), vec![wm.id.clone()]);
    p.record(&wm, false, today.plus(21), false);
    assert_eq!(p.review[&wm.id].stage, 0);
    assert_eq!(Day::from_unix_ms(86_400_000 * 3 + 5), Day(3));
}

#[test]
fn due_reviews_come_longest_overdue_first() {
    let mut p = Progress::default();
    p.record(&question("watermark-never-decreases"), false, Day(10), false);
    p.record(&question("watermark-max-minus-delay"), false, Day(5), false);
    p.record(&question("late-judged-by-window-end"), false, Day(10), false);
    assert_eq!(p.due(Day(30)), vec!["watermark-max-minus-delay", "late-judged-by-window-end", "watermark-never-decreases"]);
}

#[test]
fn the_record_round_trips_and_bad_records_are_reset_with_a_message() {
    let bank = bank().unwrap();
    let ids = lesson_ids();
    let mut p = Progress::default();
    p.record(&bank[0], true, Day(1), false);
    p.reach_lesson("watermarks", 2);
    p.finish_lesson("input-table");
    p.finish_lesson("input-table");
    p.quiz_position = 7;
    let loaded = Progress::load(&p.to_json(), &bank, &ids);
    assert_eq!(loaded.progress, p);
    assert!(loaded.notice.is_none());
    // The app reads the record before it has fetched the bank, against the bank's index: the
    // same record comes back.
    let refs = streamlab_model::study::quiz::question_refs().unwrap();
    assert_eq!(Progress::load(&p.to_json(), &refs, &ids).progress, p);
    assert_eq!(loaded.progress.lessons_done, vec!["input-table"]);
    // Empty storage: a fresh start without a message.
    let fresh = Progress::load("", &bank, &ids);
    assert_eq!(fresh.progress, Progress::default());
    assert!(fresh.notice.is_none());
    // Damaged, foreign, newer: reset, with a message in both languages.
    let newer = format!("{{\"version\": {}}}", PROGRESS_VERSION + 1);
    for text in ["{not json", "[1, 2, 3]", "{\"answers\": []}", "{\"version\": 0}", newer.as_str(), "{\"version\": 1, \"answers\": 5}"] {
        let l = Progress::load(text, &bank, &ids);
        assert_eq!(l.progress, Progress::default(), "{text}");
        let n = l.notice.unwrap_or_else(|| panic!("no notice for {text}"));
        assert!(!n.0.en.is_empty() && n.0.ko.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)), "{text}");
    }
    assert!(Progress::load(&newer, &bank, &ids).notice.unwrap().0.en.contains("newer"));
}

#[test]
fn a_record_from_an_older_bank_is_migrated() {
    // Answers to questions that were removed are dropped, scores are recomputed, an unknown
    // lesson is forgotten and an out-of-range quiz position goes back to the start.
    let bank = bank().unwrap();
    let ids = lesson_ids();
    let mut p = Progress::default();
    p.record(&bank[0], true, Day(1), false);
    let mut gone = bank[0].clone();
    gone.id = "a-question-that-was-removed".into();
    p.record(&gone, false, Day(1), false);
    p.reach_lesson("a-lesson-that-was-removed", 3);
    p.finish_lesson("watermarks");
    p.finish_lesson("old-lesson");
    p.quiz_position = 100_000;
    let l = Progress::load(&p.to_json(), &bank, &ids);
    assert_eq!(l.progress.answers.len(), 1);
    assert!(l.progress.review.is_empty());
    assert_eq!(l.progress.score(&bank[0].topic).answered, 1);
    assert_eq!(l.progress.lesson, None);
    assert_eq!(l.progress.lessons_done, vec!["watermarks"]);
    assert_eq!(l.progress.quiz_position, 0);
    let n = l.notice.unwrap();
    assert!(n.0.en.contains("1 answers and 1 reviews"), "{}", n.0.en);
}

#[test]
fn exams_are_drawn_across_topics_and_scored_per_topic() {
    let bank = bank().unwrap();
    let e = exam::draw(&bank, 20, 42);
    assert_eq!(e.items.len(), 20);
    assert_eq!(e, exam::draw(&bank, 20, 42), "the same seed draws the same exam");
    assert_ne!(e, exam::draw(&bank, 20, 43));
    let ids: std::collections::BTreeSet<&str> = e.items.iter().map(|i| i.question.as_str()).collect();
    assert_eq!(ids.len(), 20, "no question twice");
    // 17 topics, 20 questions: every topic at least once, none more than twice.
    let mut per_topic = std::collections::BTreeMap::new();
    for i in &e.items {
        let t = bank.iter().find(|q| q.id == i.question).unwrap().topic.clone();
        *per_topic.entry(t).or_insert(0) += 1;
    }
    let topics = streamlab_model::study::quiz::topics().unwrap().len();
    assert_eq!(per_topic.len(), topics.min(20));
    assert!(per_topic.values().all(|n| *n <= 2), "{per_topic:?}");
    // Answer every item right (through the shown order), then get two wrong.
    let mut answers: Vec<ExamAnswer> = e
        .items
        .iter()
        .map(|item| {
            let q = bank.iter().find(|q| q.id == item.question).unwrap();
            assert_eq!(item.order, shuffled(q, 42));
            match q.kind {
                Kind::Choice => ExamAnswer::Shown(item.order.iter().position(|&c| c == q.answer).unwrap()),
                Kind::Value => ExamAnswer::Typed(q.claim_value_text(q.value_of.as_deref().unwrap()).unwrap()),
            }
        })
        .collect();
    let all_right = exam::score(&bank, &e, &answers);
    assert_eq!((all_right.asked, all_right.correct, all_right.percent()), (20, 20, 100));
    assert!(all_right.wrong.is_empty());
    // A perfect exam still has something to review: every question, with its right answer.
    assert_eq!(all_right.right.len(), 20);
    assert_eq!(all_right.right.iter().map(|r| r.question.as_str()).collect::<Vec<_>>(), e.items.iter().map(|i| i.question.as_str()).collect::<Vec<_>>());
    assert!(all_right.right.iter().all(|r| r.right_choice.is_some() || r.right_value.is_some()));
    // 2 minutes a question: 20 questions, 40 minutes.
    assert_eq!(exam::time_limit_s(20), 2_400);
    answers[0] = ExamAnswer::Skipped;
    answers.truncate(19);
    let r = exam::score(&bank, &e, &answers);
    assert_eq!((r.asked, r.correct), (20, 18));
    assert_eq!(r.per_topic.iter().map(|t| t.asked).sum::<usize>(), 20);
    assert_eq!(r.per_topic.iter().map(|t| t.correct).sum::<usize>(), 18);
    assert_eq!(r.wrong.len(), 2);
    assert_eq!(r.right.len(), 18);
    for w in &r.wrong {
        let q = bank.iter().find(|q| q.id == w.question).unwrap();
        assert_eq!(w.scenario, q.scenario, "the wrong answer says which scenario to open");
        assert_eq!(w.batch, q.batch());
        assert!(w.right_choice.is_some() || w.right_value.is_some());
    }
    // Recording the exam puts the two misses in the review queue.
    let mut p = Progress::default();
    exam::record(&mut p, &bank, &e, &r, Day(3));
    assert_eq!(p.answers.len(), 20);
    assert!(p.answers.iter().all(|a| a.exam));
    assert_eq!(p.due(Day(4)).len(), 2);
    // A bigger exam than the bank takes every question once.
    assert_eq!(exam::draw(&bank, 10_000, 1).items.len(), bank.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn any_stored_text_loads_without_panicking(text in ".{0,300}") {
        let bank = questions();
        let l = Progress::load(&text, bank, &lesson_ids());
        prop_assert!(l.progress.version == PROGRESS_VERSION);
    }

    #[test]
    fn any_json_shaped_record_loads_without_panicking(
        version in 0u32..4,
        stage in any::<u8>(),
        due in any::<i64>(),
        pos in any::<usize>(),
    ) {
        let bank = questions();
        let text = format!(
            "{{\"version\":{version},\"answers\":[],\"scores\":{{}},\"lesson\":null,\"lesson_step\":0,\"lessons_done\":[],\"quiz_position\":{pos},\"review\":{{\"{}\":{{\"due\":{due},\"stage\":{stage}}}}}}}",
            bank[0].id
        );
        let mut l = Progress::load(&text, bank, &lesson_ids()).progress;
        // Whatever came in, recording and listing due reviews never panics.
        l.record(&bank[0], true, Day(due.saturating_add(1)), false);
        let _ = l.due(Day(i64::MAX));
    }
}
