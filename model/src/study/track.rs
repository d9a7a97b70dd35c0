//! The exam track (`quizzes/exam-track.toml`): the lessons the Databricks Spark developer exam
//! needs, day by day, the lessons beyond it, and the mock exam's pool — exam-style questions
//! only (four options, code in the stem, no batch ids or arrival groups, which the exam never
//! shows). Plain Rust: the exam-track page and the exam page render these.

use serde::Deserialize;

use crate::study::quiz::{Kind, Question};

use crate::text::i18n::{words, Words};
use crate::text::{Lang, Text};

const TRACK_FILE: &str = crate::data::data!("exam-track");

/// One day of the track.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackDay {
    /// The day's title in every language (`en = "…"`, `ko = "…"`).
    #[serde(flatten)]
    pub title: Text,
    /// Lesson ids, in study order.
    pub lessons: Vec<String>,
}

impl TrackDay {
    /// The day's title in `lang`.
    pub fn title(&self, lang: Lang) -> &str {
        self.title.get(lang)
    }
}

/// The track.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track {
    /// Lessons the exam does not need (marked "beyond the exam").
    pub beyond: Vec<String>,
    /// How many questions the mock exam draws.
    pub mock_size: usize,
    /// The track's days, in study order (`[[day]]` tables).
    #[serde(rename = "day")]
    pub days: Vec<TrackDay>,
}

/// The track.
///
/// # Errors
/// The file does not fit the format.
pub fn track() -> Result<Track, String> {
    crate::data::parse("exam-track.toml", TRACK_FILE)
}

/// True when a question reads like the certification's: four options, code in the stem, and
/// no batch id or arrival group (the lab's numbering) and no lab example named ("the classic
/// query", "step 0") in its stem or options, in either language;
/// where the guide and Spark 4.3 differ, keyed to the guide's answer (the exam's).
pub fn exam_style(q: &Question) -> bool {
    // Every language's words, as a question's text in one language may quote another's.
    let all = |list: Words| Lang::ALL.into_iter().flat_map(move |l| words(l, list).iter());
    let ids = |t: &str| {
        let lower = t.to_lowercase();
        all(Words::LabIds).any(|w| (0..10).any(|n| lower.contains(&format!("{w} {n}"))))
    };
    let numbered = |prompt: &str, choices: &[String]| ids(prompt) || names_lab_example(prompt) || choices.iter().any(|c| ids(c) || names_lab_example(c));
    // Where the guide and Spark 4.3 differ, the exam marks the guide: an item keyed to Spark
    // 4.3 there (how many partitions globalLimit has) teaches the lab, not the exam. Only the
    // items keyed by the exam-lens rules (the guide's answer) stay in the mock.
    let exam_keyed = q.check.lens_rules.is_some() || q.choice_check.iter().any(|c| c.lens_rules.is_some());
    let keyed_for_the_exam = q.guide_differs.is_none() || exam_keyed;
    keyed_for_the_exam
        && q.kind == Kind::Choice
        && q.text.en.choices.len() == 4
        && q.text.en.prompt.contains('`')
        && q.text.iter().all(|(_, t)| !numbered(&t.prompt, &t.choices))
}

/// True when `text` names one of the lab's own examples ("the classic query", "the session
/// tracker", "the device watch"), in any language: an exam question says its query and data
/// itself.
fn names_lab_example(text: &str) -> bool {
    let lower = text.to_lowercase();
    Lang::ALL.into_iter().flat_map(|l| words(l, Words::LabExamples).iter()).any(|w| lower.contains(w))
}

/// True when a question can be answered from its own text: its stem names none of the lab's
/// examples (the bank's rules already hold every stem that names a batch to showing its query
/// and events: `crate::study::rules::leans_on_another`). The exam page shows no lab, so the
/// exam draws only these ([`exam_pool`]); the question bank shows the others with their
/// example one click away ("Try it in the lab").
pub fn stands_alone(q: &Question) -> bool {
    q.text.iter().all(|(_, t)| !names_lab_example(&t.prompt))
}

/// What an exam draws from: the exam-style questions for a mock exam ([`mock_pool`]), else
/// every question that stands alone ([`stands_alone`]).
pub fn exam_pool(bank: &[Question], mock: bool) -> Vec<Question> {
    if mock {
        mock_pool(bank)
    } else {
        bank.iter().filter(|q| stands_alone(q)).cloned().collect()
    }
}

/// The mock exam's pool: every exam-style question of the bank.
pub fn mock_pool(bank: &[Question]) -> Vec<Question> {
    bank.iter().filter(|q| exam_style(q)).cloned().collect()
}
