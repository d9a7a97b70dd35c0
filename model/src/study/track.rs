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
    // The lab's own examples by name ("the classic query", "step 0", "the session tracker"):
    // an exam question says its query and data itself.
    let lab_words = |t: &str| {
        let lower = t.to_lowercase();
        all(Words::LabExamples).any(|w| lower.contains(w))
    };
    let numbered = |prompt: &str, choices: &[String]| ids(prompt) || lab_words(prompt) || choices.iter().any(|c| ids(c) || lab_words(c));
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

/// The mock exam's pool: every exam-style question of the bank.
pub fn mock_pool(bank: &[Question]) -> Vec<Question> {
    bank.iter().filter(|q| exam_style(q)).cloned().collect()
}
