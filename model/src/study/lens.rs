//! The exam lens: the rules where the programming guide (which the Databricks Spark developer
//! exam marks) or the Korean study documents say something Spark 4.3 does differently, from
//! `quizzes/exam-lens.toml` (format: `quizzes/README.md`, "Exam lens").
//!
//! Each [`LensEntry`] says what the guide says, what Spark 4.3 does (with the recorded real-Spark
//! cases that show it) and what to answer on the exam, in both languages. The lab shows the
//! entries whose [`LensEntry::rule`] the engine reports for the learner's query
//! (`streamlab_engine::analysis::exam_lens`, decided on the analyzed plan, the output mode and the
//! sink: see [`for_rules`]); lessons and questions cite entries by id; the cheat sheet lists them
//! all. Plain Rust, no Leptos.

use serde::Deserialize;

use crate::text::{Lang, Text};

/// Where the statement the lab contrasts with Spark 4.3 comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LensSource {
    /// The Structured Streaming programming guide (and so the exam).
    Guide,
    /// The Korean study documents learners read (`shared/pedagogy/seeds/`).
    Study,
}

/// One language's text of an entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LensText {
    /// A short name of the rule ("limit() and take() on a stream").
    pub title: String,
    /// What the guide (or the study documents) say.
    pub guide: String,
    /// What Spark 4.3 does, as the cited cases recorded it.
    pub spark: String,
    /// "On the exam, answer …".
    pub exam: String,
}

/// One rule where the exam's answer and Spark 4.3 differ.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LensEntry {
    /// Unique, kebab-case; lessons (`lens = [...]`) and questions (`lens = "..."`) cite it.
    pub id: String,
    /// The engine's rule id that makes the lab show this entry
    /// (`streamlab_engine::analysis::exam_lens::LensRule::id`); `None` for a rule no query shape
    /// shows (the watermark's timing, a session's exact boundary).
    #[serde(default)]
    pub rule: Option<String>,
    /// Whose statement the entry contrasts with Spark 4.3: the programming guide or the Korean
    /// study documents.
    pub source: LensSource,
    /// The number of the guide/Spark difference (as a question's `guide_differs`) when the
    /// guide is the source.
    #[serde(default)]
    pub guide_row: Option<u32>,
    /// Recorded real-Spark 4.3 cases (paths from the repository root): conformance scenarios
    /// with an `expected` block, or probes (`engine/tests/probes/`).
    pub cases: Vec<String>,
    /// The entry's text in every language (`[entry.en]`, `[entry.ko]`).
    #[serde(flatten)]
    pub text: Text<LensText>,
}

impl LensEntry {
    /// The text in `lang`.
    pub fn text(&self, lang: Lang) -> &LensText {
        self.text.get(lang)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LensFile {
    entry: Vec<LensEntry>,
}

/// Every entry, in file order (the cheat sheet's order).
///
/// # Errors
/// [`crate::data::LOADING`] while the exam lens is downloading (in the browser); the file does
/// not fit the format (a field missing or unknown).
pub fn entries() -> Result<Vec<LensEntry>, String> {
    Ok(crate::data::fetched::<LensFile>("exam-lens")?.entry)
}

/// The entry `id`, if any.
pub fn entry(id: &str) -> Option<LensEntry> {
    entries().ok()?.into_iter().find(|e| e.id == id)
}

/// The entries the engine's rule ids select, in the order of `rules` (an id no entry names is
/// skipped; each entry at most once).
pub fn for_rules(rules: &[&str]) -> Vec<LensEntry> {
    let all = entries().unwrap_or_default();
    let mut out: Vec<LensEntry> = Vec::new();
    for r in rules {
        for e in all.iter().filter(|e| e.rule.as_deref() == Some(*r)) {
            if !out.iter().any(|o| o.id == e.id) {
                out.push(e.clone());
            }
        }
    }
    out
}
