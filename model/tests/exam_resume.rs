//! An exam in progress survives a reload: the stored record (size, seed, start, position,
//! answers) draws the same exam again, and a record that does not fit the bank is refused.

use streamlab_model::study::exam::{draw, ExamAnswer, ExamInProgress};
use streamlab_model::study::quiz::bank;

#[test]
fn a_stored_exam_comes_back_the_same() {
    let bank = bank().expect("bank");
    let exam = draw(&bank, 10, 1_764_557_000_000);
    assert_eq!(exam.items.len(), 10);
    let mut answers = vec![ExamAnswer::Skipped; 10];
    answers[0] = ExamAnswer::Shown(2);
    answers[3] = ExamAnswer::Typed("09:03".into());
    let rec = ExamInProgress { n: 10, mock: false, seed: exam.seed, started_ms: 1_764_557_000_000, index: 4, answers: answers.clone() };
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
    let short = ExamInProgress { n: 10, mock: false, seed: 7, started_ms: 0, index: 0, answers: vec![ExamAnswer::Skipped; 3] };
    assert!(short.resume(&bank).is_none());
    let past = ExamInProgress { n: 10, mock: false, seed: 7, started_ms: 0, index: 10, answers: vec![ExamAnswer::Skipped; 10] };
    assert!(past.resume(&bank).is_none());
    // Damaged JSON never parses into a record (the page then drops it).
    assert!(serde_json::from_str::<ExamInProgress>("{\"n\":10,\"seed\":").is_err());
}

#[test]
fn a_mock_exam_resumes_from_the_exam_style_pool() {
    let bank = streamlab_model::study::quiz::bank().unwrap();
    let pool = streamlab_model::study::track::mock_pool(&bank);
    let exam = streamlab_model::study::exam::draw(&pool, 10, 99);
    let rec = ExamInProgress { n: 10, mock: true, seed: 99, started_ms: 0, index: 2, answers: vec![ExamAnswer::Skipped; 10] };
    let (again, _, i) = rec.resume(&bank).expect("a mock exam resumes");
    assert_eq!(again, exam);
    assert_eq!(i, 2);
    // Saved before mock exams existed: read as a normal exam.
    let old: ExamInProgress = serde_json::from_str(r#"{"n":10,"seed":99,"started_ms":0,"index":0,"answers":[]}"#).unwrap();
    assert!(!old.mock);
}
