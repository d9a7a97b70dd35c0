//! An exam in progress survives a reload: the stored record (size, seed, start, position,
//! answers) draws the same exam again, and a record that does not fit the bank is refused.

use streamlab_model::study::exam::{draw, ExamAnswer, ExamInProgress};
use streamlab_model::study::quiz::bank;

#[test]
fn a_stored_exam_comes_back_the_same() {
    let bank = bank().expect("bank");
    let exam = draw(&streamlab_model::study::track::exam_pool(&bank, false), 10, 1_764_557_000_000);
    assert_eq!(exam.items.len(), 10);
    let mut answers = vec![ExamAnswer::Skipped; 10];
    answers[0] = ExamAnswer::Shown(2);
    answers[3] = ExamAnswer::Typed("09:03".into());
    let rec = ExamInProgress { n: 10, mock: false, standalone: true, seed: exam.seed, started_ms: 1_764_557_000_000, index: 4, answers: answers.clone() };
    // Through the JSON the page stores.
    let back: ExamInProgress = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    assert_eq!(back, rec);
    let (again, a, i) = back.resume(&bank).expect("fits the bank");
    assert_eq!(again, exam);
    assert_eq!(a, answers);
    assert_eq!(i, 4);
}

#[test]
fn a_record_that_does_not_fit_the_bank_is_refused() {
    let bank = bank().expect("bank");
    // 3 answers for a 10-question exam, and a position past the end: both refused.
    let short = ExamInProgress { n: 10, mock: false, standalone: true, seed: 7, started_ms: 0, index: 0, answers: vec![ExamAnswer::Skipped; 3] };
    assert!(short.resume(&bank).is_none());
    let past = ExamInProgress { n: 10, mock: false, standalone: true, seed: 7, started_ms: 0, index: 10, answers: vec![ExamAnswer::Skipped; 10] };
    assert!(past.resume(&bank).is_none());
    // Damaged JSON never parses into a record (the page then drops it).
    assert!(serde_json::from_str::<ExamInProgress>("{\"n\":10,\"seed\":").is_err());
}

#[test]
fn a_mock_exam_resumes_from_the_exam_style_pool() {
    let bank = streamlab_model::study::quiz::bank().unwrap();
    let pool = streamlab_model::study::track::mock_pool(&bank);
    let exam = streamlab_model::study::exam::draw(&pool, 10, 99);
    let rec = ExamInProgress { n: 10, mock: true, standalone: true, seed: 99, started_ms: 0, index: 2, answers: vec![ExamAnswer::Skipped; 10] };
    let (again, _, i) = rec.resume(&bank).expect("a mock exam resumes");
    assert_eq!(again, exam);
    assert_eq!(i, 2);
    // Saved before mock exams existed: read as a normal exam.
    let old: ExamInProgress = serde_json::from_str(r#"{"n":10,"seed":99,"started_ms":0,"index":0,"answers":[]}"#).unwrap();
    assert!(!old.mock);
}

#[test]
fn an_exam_saved_before_it_drew_standalone_questions_resumes_as_it_was_drawn() {
    // Saved by an earlier version (no `standalone`): drawn again from the whole bank, so its
    // answers stay with the questions they were given to.
    let bank = bank().expect("bank");
    let old: ExamInProgress = serde_json::from_str(r#"{"n":10,"seed":5,"started_ms":0,"index":1,"answers":["Skipped","Skipped","Skipped","Skipped","Skipped","Skipped","Skipped","Skipped","Skipped","Skipped"]}"#).unwrap();
    assert!(!old.standalone);
    let (again, _, _) = old.resume(&bank).expect("resumes");
    assert_eq!(again, draw(&bank, 10, 5));
}

#[test]
fn the_exam_draws_only_questions_that_stand_alone() {
    use streamlab_model::study::track::{exam_pool, stands_alone};
    let bank = bank().expect("bank");
    let pool = exam_pool(&bank, false);
    // The exam page shows no lab: a stem naming one of its examples is left to the question
    // bank. These two named the classic query and the device watch and showed neither.
    for id in ["append-emits-window-once", "apws-processing-timeout-fires-without-data"] {
        let q = bank.iter().find(|q| q.id == id).unwrap_or_else(|| panic!("no question {id}"));
        assert!(!stands_alone(q), "{id} names a lab example");
        assert!(!pool.iter().any(|p| p.id == id), "{id} is in the exam's pool");
    }
    // Most of the bank stands alone, and every topic is still asked about.
    assert!(pool.len() * 10 >= bank.len() * 8, "only {} of {} questions stand alone", pool.len(), bank.len());
    let topics = |qs: &[streamlab_model::study::quiz::Question]| qs.iter().map(|q| q.topic.clone()).collect::<std::collections::BTreeSet<_>>();
    assert_eq!(topics(&pool), topics(&bank));
    for seed in 0..50 {
        let exam = draw(&pool, 10, seed);
        assert!(exam.items.iter().all(|i| pool.iter().any(|q| q.id == i.question)));
    }
}
