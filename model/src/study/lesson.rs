//! The study path: ordered lessons from `quizzes/lessons/NN-<id>.toml` (format:
//! `quizzes/README.md`, "Lessons"). Each lesson has a text in English and Korean, a preset
//! with what to watch, guided steps whose [`Condition`] is checked against the lab's
//! [`LabView`], speaker notes for an instructor, and 3–6 questions from the bank.
//!
//! Plain Rust: the page renders a [`Lesson`], starts its lab with [`Lesson::session`], and
//! keeps the learner's step index (in `progress::Progress::lesson_step`) and after every lab
//! change calls [`Lesson::advance`] to move past the steps whose condition now holds.

use serde::Deserialize;
use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::parse_timestamp_us;

use crate::lab::persist::parse_trigger;
use crate::lab::presets::preset;
use crate::text::{Lang, Text};
use crate::lab::session::{LabView, LabSession};

mod condition;
mod lab;
pub use condition::{Condition, Missing};
pub use lab::LabOwner;

/// One lesson of the path as the app knows it before the lessons arrive (compiled in from
/// `lesson-index.json`, which `build.rs` writes): enough to open its lab and keep its progress.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonRef {
    /// The file name without `.toml` (`05-watermarks`).
    pub file: String,
    /// The preset the lesson's lab opens with.
    pub preset: String,
}

impl LessonRef {
    /// The lesson's id: the file name without its number (`watermarks`).
    pub fn id(&self) -> &str {
        self.file.split_once('-').map_or(self.file.as_str(), |(_, rest)| rest)
    }
}

/// Every lesson's [`LessonRef`], in the order of the path.
pub fn lesson_index() -> Vec<LessonRef> {
    crate::data::parse("lessons (index)", crate::data::data!("lesson-index")).unwrap_or_default()
}

/// Every lesson's id, in the order of the path (known before the lessons arrive).
pub fn lesson_ids() -> Vec<String> {
    lesson_index().iter().map(|l| l.id().to_string()).collect()
}

/// The lesson `id`'s [`LessonRef`] (known before the lessons arrive).
pub fn lesson_ref(id: &str) -> Option<LessonRef> {
    lesson_index().into_iter().find(|l| l.id() == id)
}

/// One language's text of a lesson.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonText {
    /// The lesson's title in this language.
    pub title: String,
    /// A few paragraphs, markdown-ish: blank lines between paragraphs, `code` in backticks,
    /// `- ` list items.
    pub text: String,
    /// What to watch in the lab with the lesson's preset.
    pub watch: String,
    /// Notes for an instructor presenting the lesson (presenter mode).
    pub speaker: String,
    /// Where the programming guide (and so the Databricks exam) and Spark 4.3 differ, what
    /// to answer in the exam.
    #[serde(default)]
    pub exam: Option<String>,
}

/// One language's text of a guided step.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepText {
    /// What to do and what to look at ("press Next step: the watermark moves to 09:03 — why?").
    pub text: String,
    /// The answer to the step's "why", shown once the condition holds.
    pub why: String,
}

/// One guided step.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuidedStep {
    /// The lab actions the step asks for ([`crate::lab::script`] lines), for a "show me" button
    /// and for the test that walks every lesson.
    #[serde(rename = "do")]
    pub actions: Vec<String>,
    /// The step's text in every language (`[step.en]`, `[step.ko]`).
    #[serde(flatten)]
    pub text: Text<StepText>,
    /// What the lab shows once the step is done.
    pub expect: Condition,
}

impl GuidedStep {
    /// The step's text in `lang`.
    pub fn text(&self, lang: Lang) -> &StepText {
        self.text.get(lang)
    }
}

/// One lesson of the path.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The file name without its number and `.toml` (`watermarks`); set by [`lessons`].
    #[serde(skip)]
    pub id: String,
    /// 1-based position in the path; set by [`lessons`].
    #[serde(skip)]
    pub number: usize,
    /// The preset the lab opens with.
    pub preset: String,
    /// Quiz topics the lesson covers (files in `quizzes/`).
    pub topics: Vec<String>,
    /// 3–6 question ids from the bank, asked at the end.
    pub questions: Vec<String>,
    /// Section numbers of the Spark rules the lesson rests on (as a question's `spec`).
    #[serde(default)]
    pub spec: Vec<String>,
    /// Exam-lens entries (`quizzes/exam-lens.toml`) the lesson teaches: its exam note says
    /// what the guide says, what Spark 4.3 does and what to answer on the exam.
    #[serde(default)]
    pub lens: Vec<String>,
    /// The lesson's text in every language (`[en]`, `[ko]`).
    #[serde(flatten)]
    pub text: Text<LessonText>,
    /// The guided steps, in the order the learner does them (`[[step]]` tables).
    #[serde(rename = "step")]
    pub steps: Vec<GuidedStep>,
}

impl Lesson {
    /// The lesson's text in `lang`.
    pub fn text(&self, lang: Lang) -> &LessonText {
        self.text.get(lang)
    }

    /// The lesson after this one in `all` (the path, in order): what "Next lesson" opens.
    pub fn next<'a>(&self, all: &'a [Lesson]) -> Option<&'a Lesson> {
        all.get(self.number)
    }

    /// A fresh lab session over the lesson's preset.
    pub fn session(&self) -> Option<LabSession> {
        preset(&self.preset).map(LabSession::from_scenario)
    }

    /// The step the learner is on after a lab change: from step `from` (the one they were
    /// on), move past every step whose condition holds in the lab's view, in order. Steps are
    /// checked one at a time from where the learner is, because a later step may change what
    /// an earlier one looked at (switching the output mode re-runs every batch). Returns
    /// `steps.len()` when the lesson's steps are all done.
    pub fn advance(&self, from: usize, v: &LabView) -> usize {
        let mut at = from.min(self.steps.len());
        while self.steps.get(at).is_some_and(|s| s.expect.holds(v)) {
            at += 1;
        }
        at
    }

    /// What the step `index` still waits for (for the hint under it), or `None` when it holds
    /// (or there is no such step).
    pub fn waiting_for(&self, index: usize, v: &LabView) -> Option<Missing> {
        self.steps.get(index).and_then(|s| s.expect.check(v).err())
    }

    fn validate(&self) -> Result<(), String> {
        if preset(&self.preset).is_none() {
            return Err(format!("unknown preset '{}'", self.preset));
        }
        if !(3..=6).contains(&self.questions.len()) {
            return Err(format!("{} questions, 3 to 6 needed", self.questions.len()));
        }
        if self.steps.len() < 2 {
            return Err(format!("{} guided steps, at least 2 needed", self.steps.len()));
        }
        for (lang, t) in self.text.iter() {
            for (field, text) in [("title", &t.title), ("text", &t.text), ("watch", &t.watch), ("speaker", &t.speaker)] {
                if text.trim().is_empty() {
                    return Err(format!("{}.{field} is empty", lang.code()));
                }
            }
        }
        for (i, s) in self.steps.iter().enumerate() {
            if s.expect.is_empty() {
                return Err(format!("step {i}: an empty condition cannot fail"));
            }
            if s.text.iter().any(|(_, t)| t.text.trim().is_empty() || t.why.trim().is_empty()) {
                return Err(format!("step {i}: empty text or why"));
            }
            for a in &s.actions {
                crate::lab::script::LabAction::parse(a).map_err(|m| format!("step {i}: '{a}': {m}"))?;
            }
            if let Some(m) = &s.expect.mode {
                OutputMode::parse(m).map_err(|e| format!("step {i}: {}", e.message))?;
            }
            if let Some(t) = &s.expect.trigger {
                parse_trigger(t).ok_or_else(|| format!("step {i}: unknown trigger '{t}'"))?;
            }
            for wm in [&s.expect.watermark, &s.expect.batch_watermark].into_iter().flatten() {
                parse_timestamp_us(wm).map_err(|m| format!("step {i}: watermark '{wm}': {m}"))?;
            }
        }
        Ok(())
    }
}

/// Every lesson, in the order of the path.
///
/// # Errors
/// [`crate::data::LOADING`] while the lessons are downloading (in the browser); the first file
/// that does not parse or a lesson that does not fit the format.
pub fn lessons() -> Result<Vec<Lesson>, String> {
    lesson_index()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut l: Lesson = crate::data::fetched(&format!("lessons/{}", r.file))?;
            l.id = r.id().to_string();
            l.number = i + 1;
            l.validate().map_err(|m| format!("quizzes/lessons/{}.toml: {m}", r.file))?;
            Ok(l)
        })
        .collect()
}

/// The lesson `id`; `None` for an unknown id.
pub fn lesson(id: &str) -> Option<Lesson> {
    lessons().ok()?.into_iter().find(|l| l.id == id)
}
