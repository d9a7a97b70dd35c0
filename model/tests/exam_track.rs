//! The exam track (`quizzes/exam-track.toml`): every lesson is on the track or marked beyond the
//! exam, never both; the track follows the study path's order within each day; the mock exam's
//! pool holds only exam-style questions (four options, code, no batch ids), enough for several
//! different mock exams.

use std::collections::BTreeSet;

use streamlab_model::study::exam::draw;
use streamlab_model::study::lesson::lessons;
use streamlab_model::study::quiz::bank;
use streamlab_model::study::track::{exam_style, mock_pool, track};

#[test]
fn every_lesson_is_on_the_track_or_beyond_it() {
    let t = track().unwrap_or_else(|e| panic!("{e}"));
    let ls = lessons().unwrap();
    let ids: BTreeSet<&str> = ls.iter().map(|l| l.id.as_str()).collect();
    let on: Vec<&str> = t.days.iter().flat_map(|d| d.lessons.iter().map(String::as_str)).collect();
    for id in on.iter().copied().chain(t.beyond.iter().map(String::as_str)) {
        assert!(ids.contains(id), "the track names an unknown lesson {id}");
    }
    for id in &ids {
        let n = on.iter().filter(|x| *x == id).count() + t.beyond.iter().filter(|x| x == id).count();
        assert_eq!(n, 1, "lesson {id} is on the track {n} times (once, or beyond the exam)");
    }
    assert!(t.days.len() >= 5);
    for d in &t.days {
        assert!(!d.title.en.trim().is_empty() && d.title.ko.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)), "a day has no title in both languages");
    }
    // The unsupported-operations lesson is on the track: the exam asks about it.
    assert!(on.contains(&"unsupported-operations"));
}

#[test]
fn the_mock_exam_draws_exam_style_questions_only() {
    let b = bank().unwrap();
    let t = track().unwrap();
    let pool = mock_pool(&b);
    println!("mock exam pool: {} exam-style questions of {}", pool.len(), b.len());
    assert!(pool.len() >= 3 * t.mock_size, "only {} exam-style questions for a {}-item mock", pool.len(), t.mock_size);
    // What the learner sees of an item is its stem and its options: none of them may carry the
    // lab's batch or arrival-group numbering (the mock exam once drew an item whose option read
    // "fails in batch 0").
    let numbered = |t: &str| {
        let lower = t.to_lowercase();
        (0..10).any(|n| [format!("batch {n}"), format!("group {n}"), format!("배치 {n}"), format!("묶음 {n}")].iter().any(|p| lower.contains(p.as_str())))
    };
    for q in &pool {
        let shown = [&q.text.en.prompt, &q.text.ko.prompt].into_iter().chain(&q.text.en.choices).chain(&q.text.ko.choices);
        for t in shown {
            assert!(!numbered(t), "{} shows the lab's numbering: {t}", q.id);
        }
    }
    // An item that leans on a lab example by name ("The running count declared 'append'")
    // stays out; one that says its own query is in.
    let named_example = b.iter().find(|q| q.id == "apws-aggregation-after-needs-watermark").expect("the item exists");
    assert!(named_example.text.en.prompt.starts_with("The running count") && !exam_style(named_example));
    assert!(pool.iter().any(|q| q.id == "available-now-runs-no-data-then-stops"));
    // An item whose option names a no-data batch by number stays out of the pool.
    let numbered_option = b.iter().find(|q| q.id == "chained-aggregation-append-emits-hour").expect("the item exists");
    assert!(numbered_option.text.en.choices.iter().any(|c| numbered(c)), "the item still numbers a batch in an option");
    assert!(!exam_style(numbered_option));
    // Where the guide and Spark 4.3 differ, an item keyed to Spark 4.3 (globalLimit's single
    // state partition; the guide says limit is unsupported) stays out; the guide-keyed one on
    // the same rule is in.
    let spark_keyed = b.iter().find(|q| q.id == "state-global-limit-single-partition").expect("the item exists");
    assert!(spark_keyed.guide_differs.is_some() && !exam_style(spark_keyed));
    assert!(pool.iter().any(|q| q.id == "exam-limit-not-supported"));
    // Different seeds give different mocks, each of mock_size items from the pool.
    let a = draw(&pool, t.mock_size, 1);
    let c = draw(&pool, t.mock_size, 2);
    assert_eq!(a.items.len(), t.mock_size);
    assert_ne!(a.items, c.items);
    let ids: BTreeSet<&str> = pool.iter().map(|q| q.id.as_str()).collect();
    assert!(a.items.iter().all(|i| ids.contains(i.question.as_str())));
}
