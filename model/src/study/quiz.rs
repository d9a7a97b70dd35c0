//! The quiz bank and the preset scenarios.
//!
//! Questions live in `quizzes/<topic>.toml` (format: `quizzes/README.md`), presets in
//! `assets/scenarios/<id>.json` (the conformance scenario format, plus `name`, `name_ko` and
//! `notes_ko`). Both are embedded at compile time. Every question names a preset, may override
//! its query, output mode or confs, and carries a `[question.check]` claim that
//! [`crate::study::claim::check_claim`] verifies by running the scenario through the engine, so the answer a learner
//! is told is right is what the engine (and, by the conformance corpus, real Spark) does.
//!
//! Two kinds of question: `choice` (pick one; shown in a seeded [`shuffled`] order) and
//! `value` (type a watermark or a count; [`Question::check_value`] compares it with the
//! claim, which the engine checked). The bank's quality rules are in [`crate::study::rules`].
//!
//! Plain Rust, no Leptos: the lab page renders these structs.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value as Json;
use streamlab_engine::scenario::Scenario;
use streamlab_engine::streaming::{CrashPoint, SinkKind};
use streamlab_engine::types::{parse_timestamp_us, timestamp_type, Value};

use crate::lab::presets::{preset, scenario_day_us};
use crate::lab::rng::{fnv1a, permutation};
use crate::lab::session::{display_cell, parse_field};
use crate::text::{Lang, Text};

/// The quiz files by topic id, in the order topics are shown in, which follows the study path
/// (`quizzes/lessons/`): each topic's index (its names and question ids, compiled in
/// everywhere), and on native builds the file itself. The app fetches the files as one bundle
/// (`prerendered/questions.json`, [`bundle`], [`bank_from_bundle`]), so the wasm the lab waits for
/// does not carry the question text.
macro_rules! quiz_files {
    ($($topic:literal),* $(,)?) => {
        const QUIZ_INDEX: &[(&str, &str)] = &[$(($topic, include_str!(concat!(env!("OUT_DIR"), "/quizzes/index/", $topic, ".json")))),*];
        #[cfg(not(target_arch = "wasm32"))]
        const QUIZ_FILES: &[(&str, &str)] = &[$(($topic, include_str!(concat!(env!("OUT_DIR"), "/quizzes/", $topic, ".json")))),*];
    };
}

quiz_files!(
    "incremental",
    "output-modes",
    "triggers-batches",
    "windows",
    "watermark",
    "late-data",
    "session-windows",
    "dedup",
    "joins",
    "multiple-watermarks",
    "checkpoints",
    "fault-tolerance",
    "sinks",
    "sources",
    "monitoring",
    "state-store",
    "operators",
    "arbitrary-state",
);

/// One language's text of a question.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionText {
    /// The question as asked.
    pub prompt: String,
    /// Same order in every language; [`Question::answer`] indexes it. Empty for `value`
    /// questions.
    #[serde(default)]
    pub choices: Vec<String>,
    /// Why the answer is right: the rule and the numbers.
    pub explanation: String,
}

/// How a question is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Pick one of the choices.
    #[default]
    Choice,
    /// Type a value (a time or a whole number); the claim key `value_of` names is the answer.
    Value,
}

/// The claim keys a `value` question can ask for, and a choice question's `tie` can name.
pub const VALUE_KEYS: &[&str] = &[
    "watermark",
    "late_watermark",
    "rows",
    "input_rows",
    "dropped",
    "state_total",
    "state_updated",
    "state_removed",
    "shuffle_partitions",
    "batches",
    "emitted_total",
    "duplicates",
    "sink_visible_rows",
    "runs",
];

/// One quiz question.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// Unique over the bank, kebab-case.
    pub id: String,
    /// The topic (quiz file name without `.toml`); set by [`bank`].
    #[serde(skip)]
    pub topic: String,
    /// A preset id (`assets/scenarios/<id>.json`).
    pub scenario: String,
    /// Replaces the preset's query.
    #[serde(default)]
    pub query: Option<String>,
    /// Replaces the preset's output mode.
    #[serde(default)]
    pub output_mode: Option<String>,
    /// Session confs added to the preset's (`spark.sql.shuffle.partitions`, ...).
    #[serde(default)]
    pub conf: BTreeMap<String, Json>,
    /// `choice` (pick one) or `value` (type it); `choice` when not given.
    #[serde(default)]
    pub kind: Kind,
    /// Choice questions: 0-based index into `choices` (in the file's order; shown shuffled).
    #[serde(default)]
    pub answer: usize,
    /// Value questions: the claim key whose value is the answer (one of [`VALUE_KEYS`]).
    #[serde(default)]
    pub value_of: Option<String>,
    /// Choice questions: the claim key whose value the correct choice shows (and no other
    /// choice does), tying the answer to the engine's number.
    #[serde(default)]
    pub tie: Option<String>,
    /// The section number of the Spark rule the answer rests on (`12.3`, see
    /// `quizzes/README.md`), for concept questions the engine can back only in part.
    #[serde(default)]
    pub spec: Option<String>,
    /// The number of the guide/Spark difference (see `quizzes/README.md`) when the programming
    /// guide (and so the exam) and Spark 4.3 differ on this question; the text must then say both.
    #[serde(default)]
    pub guide_differs: Option<u32>,
    /// The exam-lens entry (`quizzes/exam-lens.toml`) this question rests on, when the exam's
    /// answer and Spark 4.3 differ on it.
    #[serde(default)]
    pub lens: Option<String>,
    /// The question's text in every language (the file's `[question.en]`, `[question.ko]`).
    #[serde(flatten)]
    pub text: Text<QuestionText>,
    /// What the engine must confirm for the answer to be right (`[question.check]`).
    pub check: Claim,
    /// Choice questions without `tie`: each choice's own claim, in choice order; the engine
    /// must confirm the right one's and refute every other (see [`crate::study::claim::decide`]).
    #[serde(default)]
    pub choice_check: Vec<Claim>,
}

/// A quiz topic: one quiz file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topic {
    /// The file name without `.toml`; set by [`topics`].
    #[serde(skip)]
    pub id: String,
    /// The topic's name in every language (the quiz file's `[topic]` table: `en = "…"`, `ko = "…"`).
    #[serde(flatten)]
    pub name: Text,
}

impl Topic {
    /// The topic's name in `lang`.
    pub fn name(&self, lang: Lang) -> &str {
        self.name.get(lang)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuizFile {
    topic: Topic,
    #[serde(default)]
    question: Vec<Question>,
}

fn parse_file(topic: &str, text: &str) -> Result<QuizFile, String> {
    let mut file: QuizFile = crate::data::parse(&format!("{topic}.toml"), text)?;
    file.topic.id = topic.to_string();
    for q in &mut file.question {
        q.topic = topic.to_string();
        q.validate().map_err(|m| format!("quizzes/{topic}.toml: question '{}': {m}", q.id))?;
    }
    Ok(file)
}

/// Every question of every quiz file, in file order.
///
/// # Errors
/// The first file that does not parse or a question that does not fit the format
/// ([`Question::validate`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn bank() -> Result<Vec<Question>, String> {
    let mut all = Vec::new();
    for (topic, text) in QUIZ_FILES {
        all.extend(parse_file(topic, text)?.question);
    }
    Ok(all)
}

/// Every quiz file as one JSON object, topic id → the file's data, in display order: what the
/// app fetches as `prerendered/questions.json` (written into `assets/prerendered/` by
/// `crate::study::prerender`).
#[cfg(not(target_arch = "wasm32"))]
pub fn bundle() -> String {
    let files: Vec<String> = QUIZ_FILES.iter().map(|(topic, text)| format!("{}:{text}", Json::from(*topic))).collect();
    format!("{{{}}}", files.join(","))
}

/// The questions read from a [`bundle`]'s JSON, in the bundle's order.
///
/// # Errors
/// A message naming what does not parse (the bundle, a topic's file or a question) or a topic
/// the app's index does not have.
pub fn bank_from_bundle(json: &str) -> Result<Vec<Question>, String> {
    let files: serde_json::Map<String, Json> = serde_json::from_str(json).map_err(|e| format!("prerendered/questions.json: {e}"))?;
    let mut all = Vec::new();
    for (topic, _) in QUIZ_INDEX {
        let file = files.get(*topic).ok_or_else(|| format!("prerendered/questions.json has no topic '{topic}'"))?;
        all.extend(parse_file(topic, &file.to_string())?.question);
    }
    // The bundle and the app come from one build (the service worker caches them together); a
    // bundle from another would name questions the progress record does not know.
    let ids: Vec<&str> = all.iter().map(|q| q.id.as_str()).collect();
    if files.len() != QUIZ_INDEX.len() || ids != question_refs()?.iter().map(|r| r.id.as_str()).collect::<Vec<_>>() {
        return Err("prerendered/questions.json is not the one this version of the app was built with".into());
    }
    Ok(all)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TopicIndex {
    topic: Topic,
    ids: Vec<String>,
}

fn parse_index(topic: &str, text: &str) -> Result<TopicIndex, String> {
    let mut index: TopicIndex = crate::data::parse(&format!("{topic}.toml (index)"), text)?;
    index.topic.id = topic.to_string();
    Ok(index)
}

/// Every topic, in display order.
///
/// # Errors
/// The first quiz file's index that does not parse.
pub fn topics() -> Result<Vec<Topic>, String> {
    QUIZ_INDEX.iter().map(|(topic, text)| parse_index(topic, text).map(|i| i.topic)).collect()
}

/// What the app knows of a question before it has fetched the bank: its id and topic (a saved
/// progress record is read against these, [`crate::study::progress::Progress::load`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionRef {
    /// The question's id.
    pub id: String,
    /// Its topic (quiz file name without `.toml`).
    pub topic: String,
}

/// A question's id and topic, of a whole [`Question`] or of a [`QuestionRef`].
pub trait QuestionKey {
    /// The question's id.
    fn id(&self) -> &str;
    /// Its topic.
    fn topic(&self) -> &str;
}

impl QuestionKey for Question {
    fn id(&self) -> &str {
        &self.id
    }
    fn topic(&self) -> &str {
        &self.topic
    }
}

impl QuestionKey for QuestionRef {
    fn id(&self) -> &str {
        &self.id
    }
    fn topic(&self) -> &str {
        &self.topic
    }
}

/// Every question's id and topic, in file order, from the index compiled into the app.
///
/// # Errors
/// The first quiz file's index that does not parse.
pub fn question_refs() -> Result<Vec<QuestionRef>, String> {
    let mut all = Vec::new();
    for (topic, text) in QUIZ_INDEX {
        all.extend(parse_index(topic, text)?.ids.into_iter().map(|id| QuestionRef { id, topic: topic.to_string() }));
    }
    Ok(all)
}

/// The claim a question's answer makes, checked against the engine by [`crate::study::claim::check_claim`].
/// Every key given must hold; `batch` selects the batch the per-batch keys talk about.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Lab actions ([`crate::lab::script`]) run on a `LabSession` over the question's scenario;
    /// with a script, every result key below describes the session after it instead of the
    /// plain run. A setting, not a result.
    pub script: Option<Vec<String>>,
    /// In a `choice_check` entry only: the query this choice is about (a "which of these
    /// queries…" question), replacing the question's. A setting, not a result.
    pub query: Option<String>,
    /// In a `choice_check` entry only: the output mode this choice is about. A setting.
    pub output_mode: Option<String>,
    /// The query fails with this error condition.
    pub error_class: Option<String>,
    /// ... at this stage: `define`, `start` or `run`.
    pub error_stage: Option<String>,
    /// `true`: the query runs without an error (no define, start or run error); `false`: it
    /// fails somewhere. For a choice that says only "it runs" or "it fails".
    pub ok: Option<bool>,
    /// The batch id the keys below talk about.
    pub batch: Option<u64>,
    /// Rows the sink received in that batch.
    pub rows: Option<usize>,
    /// The rows of that batch as the lab shows them, cells joined by ` | ` (a multiset).
    pub row_set: Option<Vec<String>>,
    /// The watermark that batch ran with (ISO text, UTC).
    pub watermark: Option<String>,
    /// wm(N-1): the watermark that batch judged late rows against (ISO text, UTC).
    pub late_watermark: Option<String>,
    /// Rows the batch read from its sources (`numInputRows`).
    pub input_rows: Option<u64>,
    /// `numRowsDroppedByWatermark` of the first state operator in that batch.
    pub dropped: Option<u64>,
    /// `numRowsTotal` of the first state operator in that batch.
    pub state_total: Option<u64>,
    /// `numRowsUpdated` of the first state operator in that batch.
    pub state_updated: Option<u64>,
    /// `numRowsRemoved` of the first state operator in that batch.
    pub state_removed: Option<u64>,
    /// `numShufflePartitions` of the first state operator in that batch.
    pub shuffle_partitions: Option<u64>,
    /// The state operators' names in that batch, in progress order (downstream first).
    pub operators: Option<Vec<String>>,
    /// Fields of that batch's `StreamingQueryProgress` JSON: a dotted path (`numInputRows`,
    /// `sources.0.endOffset`, `eventTime.watermark`) → the value it must have.
    pub progress: Option<BTreeMap<String, Json>>,
    /// That batch was (true) / was not (false) a no-data batch.
    pub no_data: Option<bool>,
    /// Total number of batches in the run.
    pub batches: Option<usize>,
    /// Total rows the sink received over the whole run.
    pub emitted_total: Option<usize>,

    // Recovery claims: the scenario driven through a `LabSession` writing to `sink`, with
    // an optional crash and restart (see `recovery_run`). The keys above always describe the
    // plain run without a crash (or the script's session).
    /// The sink (`SinkKind::id`); default `memory`. A setting, not a result.
    pub sink: Option<String>,
    /// The batch id that crashes (needs `crash_point`). A setting, not a result.
    pub crash_at_batch: Option<u64>,
    /// Where it crashes (`CrashPoint::id`; needs `crash_at_batch`). A setting, not a result.
    pub crash_point: Option<String>,
    /// Rows a reader of the sink sees more than once at the end (`RecoveryView::duplicates`).
    pub duplicates: Option<usize>,
    /// Rows a reader of the sink sees at the end (sink rows with `visible`).
    pub sink_visible_rows: Option<usize>,
    /// How many times the query started on its checkpoint (`RecoveryView::runs`).
    pub runs: Option<u64>,
    /// The restart fails with a message containing this text (needs `crash_at_batch`, or a
    /// script with a restart).
    pub restart_error_contains: Option<String>,
    /// Every start of the query kept the first start's `query.id` (from the
    /// `onQueryStarted` events).
    pub query_id_kept: Option<bool>,
    /// Every start kept the first start's `query.runId`.
    pub run_id_kept: Option<bool>,
    /// How many times the listener's `onQueryProgress` was called over every start.
    pub progress_events: Option<usize>,
    /// The last batch id in the checkpoint's `offsets/` log at the end.
    pub offsets_last: Option<u64>,
    /// The last batch id in the checkpoint's `commits/` log at the end.
    pub commits_last: Option<u64>,
    /// Per batch: some row of that batch has these cells, in this order (others may sit
    /// between).
    pub row_with: Option<Vec<String>>,
    /// The exam-lens rules the engine reports for the query, its output mode and `sink`
    /// (`crate::lab::session::engine_rules`), in the engine's order: which rules of the exam lens the
    /// query meets. `[]` claims it meets none.
    pub lens_rules: Option<Vec<String>>,
    /// The query is (`true`) / is not (`false`) active at the end of a script (it stopped after
    /// `once` / `availableNow`, or failed).
    pub active: Option<bool>,
}

impl Claim {
    /// True when no result key is given (a claim that cannot fail). `script`, `sink`,
    /// `crash_at_batch` and `crash_point` only set up the run, so a claim with nothing else
    /// is empty.
    pub fn is_empty(&self) -> bool {
        let results_only = Claim { script: None, query: None, output_mode: None, sink: None, crash_at_batch: None, crash_point: None, ..self.clone() };
        results_only == Claim::default()
    }

    /// True when the claim needs the recovery run (a `LabSession` with a sink, maybe a crash).
    pub fn is_recovery(&self) -> bool {
        self.script.is_none() && (self.sink.is_some() || self.crash_at_batch.is_some() || self.crash_point.is_some() || self.has_recovery_results())
    }

    pub(crate) fn has_recovery_results(&self) -> bool {
        self.duplicates.is_some() || self.sink_visible_rows.is_some() || self.runs.is_some() || self.restart_error_contains.is_some() || self.wants_view()
    }

    /// True when a key reads the recovery view (sink, checkpoint logs, listener events).
    pub(crate) fn wants_view(&self) -> bool {
        self.duplicates.is_some()
            || self.sink_visible_rows.is_some()
            || self.runs.is_some()
            || self.query_id_kept.is_some()
            || self.run_id_kept.is_some()
            || self.progress_events.is_some()
            || self.offsets_last.is_some()
            || self.commits_last.is_some()
            || self.active.is_some()
    }

    pub(crate) fn has_batch_keys(&self) -> bool {
        self.rows.is_some()
            || self.row_set.is_some()
            || self.watermark.is_some()
            || self.late_watermark.is_some()
            || self.input_rows.is_some()
            || self.dropped.is_some()
            || self.state_total.is_some()
            || self.state_updated.is_some()
            || self.state_removed.is_some()
            || self.shuffle_partitions.is_some()
            || self.operators.is_some()
            || self.progress.is_some()
            || self.no_data.is_some()
            || self.row_with.is_some()
    }
}

/// What a typed answer turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueCheck {
    /// The typed answer is the claim's value.
    Correct,
    /// A readable answer that is not the claim's value; carries the right one as the lab
    /// shows it.
    Wrong {
        /// The value the answer should have been, as the lab shows it.
        expected: String,
    },
    /// The text is not a time / number; carries what to type.
    Unreadable(String),
}

/// A learner's answer to a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A choice, by its index in the file's order (not the order it was shown in).
    Choice(usize),
    /// Text typed for a value question.
    Typed(String),
}

/// What [`Question::grade`] made of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grade {
    /// The right answer.
    Right,
    /// A wrong answer; for a value question, the right value as the lab shows it.
    Wrong {
        /// The value the answer should have been (value questions only).
        expected: Option<String>,
    },
    /// Typed text that is not a time or a number; carries what to type. Not an answer: the
    /// learner can type again.
    Unreadable(String),
}

/// The order to show a question's choices in for one attempt: `order[k]` is the index (in
/// the file) of the choice shown k-th. The same `(question, seed)` always gives the same
/// order (the caller picks the seed, e.g. the attempt number), so tests are stable; value
/// questions have no choices and get an empty order.
pub fn shuffled(q: &Question, seed: u64) -> Vec<usize> {
    permutation(q.text.en.choices.len(), fnv1a(q.id.as_bytes()) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

impl Question {
    /// The question's scenario: its preset with `query`, `output_mode` and `conf` overrides
    /// applied.
    ///
    /// # Errors
    /// An unknown preset id.
    pub fn scenario(&self) -> Result<Scenario, String> {
        let mut s = preset(&self.scenario).ok_or_else(|| format!("question '{}': unknown scenario '{}'", self.id, self.scenario))?;
        if let Some(q) = &self.query {
            s.query = q.clone();
        }
        if let Some(m) = &self.output_mode {
            s.output_mode = m.clone();
        }
        for (k, v) in &self.conf {
            s.conf.insert(k.clone(), v.clone());
        }
        Ok(s)
    }

    /// The question's text in `lang`.
    pub fn text(&self, lang: Lang) -> &QuestionText {
        self.text.get(lang)
    }

    /// True for a choice question whose right answer is `choice` (0-based, file order).
    pub fn is_correct(&self, choice: usize) -> bool {
        self.kind == Kind::Choice && choice == self.answer
    }

    /// The batch the claim talks about, to open in the lab next to a wrong answer.
    pub fn batch(&self) -> Option<u64> {
        self.check.batch.or(self.check.crash_at_batch)
    }

    /// The claim's value for `key` (one of [`VALUE_KEYS`]) as the lab shows it: times as
    /// `09:03` on the scenario's day (full ISO text on another day), counts as numbers.
    pub fn claim_value_text(&self, key: &str) -> Option<String> {
        let c = &self.check;
        let time = |t: &Option<String>| -> Option<String> {
            let us = parse_timestamp_us(t.as_deref()?).ok()?;
            let day = self.scenario().map(|s| scenario_day_us(&s)).unwrap_or(0);
            Some(display_cell(&Value::Timestamp(us), day))
        };
        match key {
            "watermark" => time(&c.watermark),
            "late_watermark" => time(&c.late_watermark),
            "rows" => c.rows.map(|n| n.to_string()),
            "input_rows" => c.input_rows.map(|n| n.to_string()),
            "dropped" => c.dropped.map(|n| n.to_string()),
            "state_total" => c.state_total.map(|n| n.to_string()),
            "state_updated" => c.state_updated.map(|n| n.to_string()),
            "state_removed" => c.state_removed.map(|n| n.to_string()),
            "shuffle_partitions" => c.shuffle_partitions.map(|n| n.to_string()),
            "batches" => c.batches.map(|n| n.to_string()),
            "emitted_total" => c.emitted_total.map(|n| n.to_string()),
            "duplicates" => c.duplicates.map(|n| n.to_string()),
            "sink_visible_rows" => c.sink_visible_rows.map(|n| n.to_string()),
            "runs" => c.runs.map(|n| n.to_string()),
            _ => None,
        }
    }

    /// Grades an answer: the one rule the question card and the exam both use. A choice
    /// question is right for its answer's index; a value question reads typed text as
    /// [`Question::check_value`] does. An answer of the other kind is wrong.
    pub fn grade(&self, answer: &Answer) -> Grade {
        match (self.kind, answer) {
            (Kind::Choice, Answer::Choice(c)) if self.is_correct(*c) => Grade::Right,
            (Kind::Choice, _) => Grade::Wrong { expected: None },
            (Kind::Value, Answer::Typed(t)) => match self.check_value(t) {
                ValueCheck::Correct => Grade::Right,
                ValueCheck::Wrong { expected } => Grade::Wrong { expected: Some(expected) },
                ValueCheck::Unreadable(m) => Grade::Unreadable(m),
            },
            (Kind::Value, Answer::Choice(_)) => Grade::Wrong { expected: self.value_of.as_deref().and_then(|k| self.claim_value_text(k)) },
        }
    }

    /// Checks a typed answer to a `value` question against the claim (which the engine
    /// checked): times are read like the lab's event form (`09:03`, `09:03:00`, ISO text;
    /// `1970-01-01T00:00:00Z` for a zero watermark), counts as whole numbers.
    pub fn check_value(&self, input: &str) -> ValueCheck {
        let Some(key) = self.value_of.as_deref() else {
            return ValueCheck::Unreadable("this question is answered by picking a choice".into());
        };
        let Some(expected) = self.claim_value_text(key) else {
            return ValueCheck::Unreadable(format!("the claim has no {key}"));
        };
        let input = input.trim();
        if matches!(key, "watermark" | "late_watermark") {
            let want = if key == "watermark" { &self.check.watermark } else { &self.check.late_watermark };
            let Some(Ok(want)) = want.as_deref().map(parse_timestamp_us) else {
                return ValueCheck::Unreadable(format!("the claim has no {key}"));
            };
            let day = self.scenario().map(|s| scenario_day_us(&s)).unwrap_or(0);
            return match parse_field(input, &timestamp_type(), day) {
                Ok(Value::Timestamp(got)) if got == want => ValueCheck::Correct,
                Ok(Value::Timestamp(_)) => ValueCheck::Wrong { expected },
                _ => ValueCheck::Unreadable("type a time such as 09:03 (UTC), or 1970-01-01T00:00:00Z".into()),
            };
        }
        match input.parse::<u64>() {
            Ok(n) if n.to_string() == expected => ValueCheck::Correct,
            Ok(_) => ValueCheck::Wrong { expected },
            Err(_) => ValueCheck::Unreadable("type a whole number such as 3".into()),
        }
    }

    /// Checks the question's shape: a kebab-case id, both languages, choices fitting the
    /// kind (at least 3, same number in both languages, or none for `value`), non-empty
    /// prompt and explanation, the answer in range, a non-empty claim whose per-batch keys
    /// come with `batch`, `value_of`/`tie` naming a key the claim has.
    ///
    /// # Errors
    /// What is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let kebab = !self.id.is_empty()
            && !self.id.starts_with('-')
            && !self.id.ends_with('-')
            && !self.id.contains("--")
            && self.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !kebab {
            return Err(format!("id '{}' is not kebab-case", self.id));
        }
        for (lang, t) in self.text.iter() {
            let lang = lang.code();
            if t.prompt.trim().is_empty() {
                return Err(format!("{lang}: empty prompt"));
            }
            if t.explanation.trim().is_empty() {
                return Err(format!("{lang}: empty explanation"));
            }
            match self.kind {
                Kind::Choice if t.choices.len() < 3 => return Err(format!("{lang}: {} choices, at least 3 needed", t.choices.len())),
                Kind::Value if !t.choices.is_empty() => return Err(format!("{lang}: a value question has no choices")),
                _ => {}
            }
            if let Some(i) = t.choices.iter().position(|c| c.trim().is_empty()) {
                return Err(format!("{lang}: choice {i} is empty"));
            }
        }
        if let Some((lang, t)) = self.text.iter().find(|(_, t)| t.choices.len() != self.text.en.choices.len()) {
            return Err(format!("en has {} choices, {} has {}", self.text.en.choices.len(), lang.code(), t.choices.len()));
        }
        self.validate_claim()?;
        if self.check.query.is_some() || self.check.output_mode.is_some() {
            return Err("query and output_mode go on the question; in a claim they are for choice_check entries only".into());
        }
        match self.kind {
            Kind::Choice => {
                if self.answer >= self.text.en.choices.len() {
                    return Err(format!("answer {} is out of range (0..{})", self.answer, self.text.en.choices.len()));
                }
                if self.value_of.is_some() {
                    return Err("value_of is for value questions".into());
                }
            }
            Kind::Value => {
                let key = self.value_of.as_deref().ok_or("a value question needs value_of")?;
                if !VALUE_KEYS.contains(&key) {
                    return Err(format!("value_of '{key}' is not one of {}", VALUE_KEYS.join(", ")));
                }
                if self.claim_value_text(key).is_none() {
                    return Err(format!("value_of '{key}' but the claim has no {key}"));
                }
                if self.tie.is_some() {
                    return Err("tie is for choice questions (a value question's answer is the claim)".into());
                }
            }
        }
        if let Some(key) = &self.tie {
            if !VALUE_KEYS.contains(&key.as_str()) {
                return Err(format!("tie '{key}' is not one of {}", VALUE_KEYS.join(", ")));
            }
            if self.claim_value_text(key).is_none() {
                return Err(format!("tie '{key}' but the claim has no {key}"));
            }
        }
        if let Some(spec) = &self.spec {
            let ok = !spec.is_empty() && spec.split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
            if !ok {
                return Err(format!("spec '{spec}' is not a section number such as 12.3"));
            }
        }
        Ok(())
    }

    fn validate_claim(&self) -> Result<(), String> {
        let c = &self.check;
        if c.is_empty() {
            return Err("[question.check] is empty: a claim that cannot fail".into());
        }
        if c.has_batch_keys() && c.batch.is_none() {
            return Err("[question.check] has per-batch keys (rows, watermark, dropped, state_total, no_data, ...) but no `batch`".into());
        }
        if let Some(stage) = &c.error_stage {
            if !matches!(stage.as_str(), "define" | "start" | "run") {
                return Err(format!("error_stage '{stage}' is not define, start or run"));
            }
        }
        for (key, wm) in [("watermark", &c.watermark), ("late_watermark", &c.late_watermark)] {
            if let Some(wm) = wm {
                parse_timestamp_us(wm).map_err(|m| format!("{key} '{wm}': {m}"))?;
            }
        }
        if let Some(script) = &c.script {
            if script.is_empty() {
                return Err("script is empty".into());
            }
            for line in script {
                crate::lab::script::LabAction::parse(line).map_err(|m| format!("script line '{line}': {m}"))?;
            }
            if c.sink.is_some() || c.crash_at_batch.is_some() || c.crash_point.is_some() {
                return Err("with a script, set the sink and crashes in the script (sink: ..., crash: ...), not with sink / crash_at_batch / crash_point".into());
            }
            return Ok(());
        }
        if let Some(sink) = &c.sink {
            if SinkKind::parse(sink).is_none() {
                let ids: Vec<&str> = SinkKind::ALL.iter().map(|k| k.id()).collect();
                return Err(format!("sink '{sink}' is not one of {}", ids.join(", ")));
            }
        }
        if let Some(point) = &c.crash_point {
            if CrashPoint::parse(point).is_none() {
                let ids: Vec<&str> = CrashPoint::ALL.iter().map(|p| p.id()).collect();
                return Err(format!("crash_point '{point}' is not one of {}", ids.join(", ")));
            }
        }
        if c.crash_at_batch.is_some() != c.crash_point.is_some() {
            return Err("crash_at_batch and crash_point go together".into());
        }
        if c.is_recovery() && !c.has_recovery_results() {
            return Err("sink / crash_at_batch / crash_point set up a recovery run but no recovery result key (duplicates, sink_visible_rows, runs, restart_error_contains) is given".into());
        }
        if c.restart_error_contains.is_some() && c.crash_at_batch.is_none() {
            return Err("restart_error_contains needs crash_at_batch and crash_point (there is no restart otherwise)".into());
        }
        if c.restart_error_contains.as_deref().is_some_and(|t| t.trim().is_empty()) {
            return Err("restart_error_contains is empty".into());
        }
        Ok(())
    }
}
