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

use crate::persist::parse_trigger;
use crate::quiz::{preset, Lang};
use crate::session::{LabView, LabSession};

/// Every lesson file, in the order of the path: (file name without `.toml`, its data as JSON,
/// `crate::data`).
const LESSON_FILES: &[(&str, &str)] = &[
    ("01-input-table", crate::data::data!("lessons/01-input-table")),
    ("02-output-modes", crate::data::data!("lessons/02-output-modes")),
    ("03-triggers", crate::data::data!("lessons/03-triggers")),
    ("04-windows", crate::data::data!("lessons/04-windows")),
    ("05-watermarks", crate::data::data!("lessons/05-watermarks")),
    ("06-late-data", crate::data::data!("lessons/06-late-data")),
    ("07-session-windows", crate::data::data!("lessons/07-session-windows")),
    ("08-dedup", crate::data::data!("lessons/08-dedup")),
    ("09-stream-static-joins", crate::data::data!("lessons/09-stream-static-joins")),
    ("10-stream-stream-joins", crate::data::data!("lessons/10-stream-stream-joins")),
    ("11-multiple-watermarks", crate::data::data!("lessons/11-multiple-watermarks")),
    ("12-checkpoints", crate::data::data!("lessons/12-checkpoints")),
    ("13-exactly-once", crate::data::data!("lessons/13-exactly-once")),
    ("14-sources", crate::data::data!("lessons/14-sources")),
    ("15-monitoring", crate::data::data!("lessons/15-monitoring")),
    ("16-state-store", crate::data::data!("lessons/16-state-store")),
    ("17-arbitrary-state", crate::data::data!("lessons/17-arbitrary-state")),
];

/// One language's text of a lesson.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonText {
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

/// A condition on the lab's state; every key given must hold.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// At least this many batches have run.
    pub batches_at_least: Option<usize>,
    /// At least this many no-data batches have run.
    pub no_data_batches_at_least: Option<usize>,
    /// At least this many of the scenario's steps are done.
    pub steps_done_at_least: Option<usize>,
    /// At least this many rows are pending (added, not read by a batch).
    pub pending_at_least: Option<usize>,
    /// The current watermark (the one the next batch runs with), ISO text.
    pub watermark: Option<String>,
    /// The output mode (`append`, `update`, `complete`).
    pub mode: Option<String>,
    /// The sink id (`file`, `kafka`, ...).
    pub sink: Option<String>,
    /// The trigger, as `trigger_kind` in a script (`availableNow`, `processingTime:5000`).
    pub trigger: Option<String>,
    /// The query text contains this.
    pub query_contains: Option<String>,
    /// The lab shows an error with this condition.
    pub error_class: Option<String>,
    /// The lab shows no error.
    pub no_error: Option<bool>,
    /// A row some batch emitted has these cells (in this order, others may sit between).
    pub emitted_row: Option<Vec<String>>,
    /// Rows dropped as late so far (first state operator, all batches).
    pub dropped_at_least: Option<u64>,
    /// The query is active (false after `once`/`availableNow` finished or a crash).
    pub active: Option<bool>,
    /// The checkpoint has been started at least this many times.
    pub runs_at_least: Option<u64>,
    /// Rows a reader of the sink sees twice.
    pub duplicates: Option<usize>,
    /// A source has this kind: `<source> <kind>` (`clicks file`).
    pub source_kind: Option<String>,
    /// The batch the `batch_*` keys talk about.
    pub batch: Option<u64>,
    /// That batch ran with this watermark (ISO text).
    pub batch_watermark: Option<String>,
    /// That batch emitted this many rows.
    pub batch_rows: Option<usize>,
    /// That batch was (not) a no-data batch.
    pub batch_no_data: Option<bool>,
    /// `numRowsDroppedByWatermark` of that batch's first state operator.
    pub batch_dropped: Option<u64>,
    /// `numRowsTotal` of that batch's first state operator.
    pub batch_state_total: Option<u64>,
}

impl Condition {
    /// True when no key is given (a condition that always holds).
    pub fn is_empty(&self) -> bool {
        *self == Condition::default()
    }

    /// Checks every key against the lab's view.
    ///
    /// # Errors
    /// The first key that does not hold, in English (for a hint or a test message).
    pub fn check(&self, v: &LabView) -> Result<(), String> {
        let at_least = |what: &str, want: Option<usize>, got: usize| match want {
            Some(n) if got < n => Err(format!("{what}: {got} of {n}")),
            _ => Ok(()),
        };
        at_least("batches", self.batches_at_least, v.batches.len())?;
        at_least("no-data batches", self.no_data_batches_at_least, v.batches.iter().filter(|b| b.no_data).count())?;
        at_least("steps done", self.steps_done_at_least, v.steps_done)?;
        at_least("pending rows", self.pending_at_least, v.pending.len())?;
        if let Some(wm) = &self.watermark {
            if v.watermark.as_deref() != Some(wm.as_str()) {
                return Err(format!("the watermark is {}, not {wm}", v.watermark.as_deref().unwrap_or("none")));
            }
        }
        if let Some(m) = &self.mode {
            if v.mode.as_str() != m {
                return Err(format!("output mode is {}, not {m}", v.mode.as_str()));
            }
        }
        let rec = v.recovery.as_ref();
        if let Some(sink) = &self.sink {
            if rec.map(|r| r.sink.id()) != Some(sink.as_str()) {
                return Err(format!("the sink is not {sink}"));
            }
        }
        if let Some(t) = &self.trigger {
            let want = parse_trigger(t).map(|t| t.describe());
            if rec.map(|r| r.trigger.clone()) != want {
                return Err(format!("the trigger is not {t}"));
            }
        }
        if let Some(text) = &self.query_contains {
            if !v.query_text.contains(text.as_str()) {
                return Err(format!("the query does not contain {text}"));
            }
        }
        if let Some(class) = &self.error_class {
            if v.error.as_ref().and_then(|e| e.error_class.as_deref()) != Some(class.as_str()) {
                return Err(format!("no {class} error is shown"));
            }
        }
        if let Some(want) = self.no_error {
            if want == v.error.is_some() {
                return Err(if want { "the lab shows an error".into() } else { "the lab shows no error".into() });
            }
        }
        if let Some(cells) = &self.emitted_row {
            let found = v.batches.iter().flat_map(|b| &b.rows).any(|row| {
                let mut it = row.iter();
                cells.iter().all(|c| it.any(|x| x == c))
            });
            if !found {
                return Err(format!("no batch emitted a row with {}", cells.join(" | ")));
            }
        }
        if let Some(n) = self.dropped_at_least {
            let got: u64 = v.batches.iter().filter_map(|b| b.metrics.first()).map(|m| m.dropped).sum();
            if got < n {
                return Err(format!("dropped rows: {got} of {n}"));
            }
        }
        if let Some(a) = self.active {
            if rec.map(|r| r.active) != Some(a) {
                return Err(if a { "the query is not active".into() } else { "the query is still active".into() });
            }
        }
        if let Some(n) = self.runs_at_least {
            let runs = rec.map_or(0, |r| r.runs);
            if runs < n {
                return Err(format!("runs: {runs} of {n}"));
            }
        }
        if let Some(n) = self.duplicates {
            let d = rec.map_or(0, |r| r.duplicates);
            if d != n {
                return Err(format!("duplicates: {d}, not {n}"));
            }
        }
        if let Some(sk) = &self.source_kind {
            let (name, kind) = sk.split_once(' ').unwrap_or((sk.as_str(), ""));
            if !v.sources.iter().any(|s| s.name == name && s.kind == kind) {
                return Err(format!("source {name} is not {kind}"));
            }
        }
        let batch_keys = self.batch_watermark.is_some() || self.batch_rows.is_some() || self.batch_no_data.is_some() || self.batch_dropped.is_some() || self.batch_state_total.is_some();
        if let Some(id) = self.batch {
            let b = v.batches.iter().rev().find(|b| b.id == id).ok_or_else(|| format!("batch {id} has not run"))?;
            if let Some(wm) = &self.batch_watermark {
                let want = parse_timestamp_us(wm).ok().map(|us| us / 1000);
                if b.watermark_ms != want {
                    return Err(format!("batch {id} ran with watermark {}, not {wm}", b.watermark.as_deref().unwrap_or("none")));
                }
            }
            if let Some(n) = self.batch_rows {
                if b.rows.len() != n {
                    return Err(format!("batch {id} emitted {} rows, not {n}", b.rows.len()));
                }
            }
            if let Some(nd) = self.batch_no_data {
                if b.no_data != nd {
                    return Err(format!("batch {id} no_data is {}", b.no_data));
                }
            }
            if let Some(n) = self.batch_dropped {
                let got = b.metrics.first().map(|m| m.dropped);
                if got != Some(n) {
                    return Err(format!("batch {id} dropped {}, not {n}", got.map_or_else(|| "nothing (no state operator)".to_string(), |g| g.to_string())));
                }
            }
            if let Some(n) = self.batch_state_total {
                let got = b.metrics.first().map(|m| m.total);
                if got != Some(n) {
                    return Err(format!("batch {id} state total {}, not {n}", got.map_or_else(|| "none (no state operator)".to_string(), |g| g.to_string())));
                }
            }
        } else if batch_keys {
            return Err("batch_* keys need batch".into());
        }
        Ok(())
    }

    /// True when every key holds.
    pub fn holds(&self, v: &LabView) -> bool {
        self.check(v).is_ok()
    }
}

/// One guided step.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuidedStep {
    /// The lab actions the step asks for ([`crate::script`] lines), for a "show me" button
    /// and for the test that walks every lesson.
    #[serde(rename = "do")]
    pub actions: Vec<String>,
    pub en: StepText,
    pub ko: StepText,
    /// What the lab shows once the step is done.
    pub expect: Condition,
}

impl GuidedStep {
    /// The step's text in `lang`.
    pub fn text(&self, lang: Lang) -> &StepText {
        if lang == Lang::Ko { &self.ko } else { &self.en }
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
    /// Sections of `spark-semantics.md` the lesson rests on.
    #[serde(default)]
    pub spec: Vec<String>,
    pub en: LessonText,
    pub ko: LessonText,
    #[serde(rename = "step")]
    pub steps: Vec<GuidedStep>,
}

impl Lesson {
    /// The lesson's text in `lang`.
    pub fn text(&self, lang: Lang) -> &LessonText {
        if lang == Lang::Ko { &self.ko } else { &self.en }
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

    /// What the step `index` still waits for, in English (for a hint), or `None` when it holds
    /// (or there is no such step).
    pub fn waiting_for(&self, index: usize, v: &LabView) -> Option<String> {
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
        for (lang, t) in [("en", &self.en), ("ko", &self.ko)] {
            for (field, text) in [("title", &t.title), ("text", &t.text), ("watch", &t.watch), ("speaker", &t.speaker)] {
                if text.trim().is_empty() {
                    return Err(format!("{lang}.{field} is empty"));
                }
            }
        }
        for (i, s) in self.steps.iter().enumerate() {
            if s.expect.is_empty() {
                return Err(format!("step {i}: an empty condition cannot fail"));
            }
            if [&s.en.text, &s.en.why, &s.ko.text, &s.ko.why].iter().any(|t| t.trim().is_empty()) {
                return Err(format!("step {i}: empty text or why"));
            }
            for a in &s.actions {
                crate::script::LabAction::parse(a).map_err(|m| format!("step {i}: '{a}': {m}"))?;
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
/// The first file that does not parse or a lesson that does not fit the format.
pub fn lessons() -> Result<Vec<Lesson>, String> {
    LESSON_FILES
        .iter()
        .enumerate()
        .map(|(i, (file, text))| {
            let mut l: Lesson = crate::data::parse(&format!("lessons/{file}.toml"), text)?;
            l.id = file.split_once('-').map_or(*file, |(_, rest)| rest).to_string();
            l.number = i + 1;
            l.validate().map_err(|m| format!("quizzes/lessons/{file}.toml: {m}"))?;
            Ok(l)
        })
        .collect()
}

/// The lesson `id`; `None` for an unknown id.
pub fn lesson(id: &str) -> Option<Lesson> {
    lessons().ok()?.into_iter().find(|l| l.id == id)
}
