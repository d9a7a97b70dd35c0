//! The quiz bank and the preset scenarios.
//!
//! Questions live in `quizzes/<topic>.toml` (format: `quizzes/README.md`), presets in
//! `assets/scenarios/<id>.json` (the conformance scenario format). Both are embedded at
//! compile time. Every question names a preset, may override its query or output mode, and
//! carries a `[question.check]` claim that [`check_claim`] verifies by running the scenario
//! through the engine, so the answer a learner is told is right is what the engine (and, by
//! the conformance corpus, real Spark) does.
//!
//! Plain Rust, no Leptos: the lab page renders these structs.

use serde::Deserialize;
use streamlab_engine::scenario::{self, Scenario, ScenarioRun};
use streamlab_engine::streaming::{BatchResult, CrashPoint, SinkKind};
use streamlab_engine::types::{format_timestamp_us, parse_timestamp_us};
use streamlab_engine::{Error, Stage};

use crate::session::{RecoveryView, Session};

/// The two languages of every label and question.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Lang {
    #[default]
    En,
    Ko,
}

/// Every quiz file: (topic id, TOML text). The order is the order topics are shown in.
const QUIZ_FILES: &[(&str, &str)] = &[
    ("watermark", include_str!("../../quizzes/watermark.toml")),
    ("late-data", include_str!("../../quizzes/late-data.toml")),
    ("windows", include_str!("../../quizzes/windows.toml")),
    ("output-modes", include_str!("../../quizzes/output-modes.toml")),
    ("triggers-batches", include_str!("../../quizzes/triggers-batches.toml")),
    ("session-windows", include_str!("../../quizzes/session-windows.toml")),
    ("dedup", include_str!("../../quizzes/dedup.toml")),
    ("joins", include_str!("../../quizzes/joins.toml")),
    ("multiple-watermarks", include_str!("../../quizzes/multiple-watermarks.toml")),
    ("operators", include_str!("../../quizzes/operators.toml")),
    ("fault-tolerance", include_str!("../../quizzes/fault-tolerance.toml")),
    ("sinks", include_str!("../../quizzes/sinks.toml")),
    ("checkpoints", include_str!("../../quizzes/checkpoints.toml")),
];

/// Every preset scenario: (id, JSON text). The id is the file name without `.json`.
const PRESETS: &[(&str, &str)] = &[
    ("classic", include_str!("../../assets/scenarios/classic.json")),
    ("update-mode", include_str!("../../assets/scenarios/update-mode.json")),
    ("complete-mode", include_str!("../../assets/scenarios/complete-mode.json")),
    ("append-tumbling", include_str!("../../assets/scenarios/append-tumbling.json")),
    ("late-data", include_str!("../../assets/scenarios/late-data.json")),
    ("stateless-filter", include_str!("../../assets/scenarios/stateless-filter.json")),
    ("dedup", include_str!("../../assets/scenarios/dedup.json")),
    ("no-watermark-append-error", include_str!("../../assets/scenarios/no-watermark-append-error.json")),
    ("session-window", include_str!("../../assets/scenarios/session-window.json")),
    ("session-dynamic-gap", include_str!("../../assets/scenarios/session-dynamic-gap.json")),
    ("dedup-within-watermark", include_str!("../../assets/scenarios/dedup-within-watermark.json")),
    ("chained-aggregation", include_str!("../../assets/scenarios/chained-aggregation.json")),
    ("limit", include_str!("../../assets/scenarios/limit.json")),
    ("union-watermarks", include_str!("../../assets/scenarios/union-watermarks.json")),
    ("union-watermarks-max", include_str!("../../assets/scenarios/union-watermarks-max.json")),
    ("stream-static-join", include_str!("../../assets/scenarios/stream-static-join.json")),
    ("stream-stream-inner-join", include_str!("../../assets/scenarios/stream-stream-inner-join.json")),
    ("stream-stream-outer-join", include_str!("../../assets/scenarios/stream-stream-outer-join.json")),
    ("kafka-source", include_str!("../../assets/scenarios/kafka-source.json")),
    ("socket-source", include_str!("../../assets/scenarios/socket-source.json")),
    ("rate-source", include_str!("../../assets/scenarios/rate-source.json")),
];

/// One language's text of a question.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionText {
    pub prompt: String,
    /// Same order in every language; [`Question::answer`] indexes it.
    pub choices: Vec<String>,
    /// Why the answer is right, citing the rule.
    pub explanation: String,
}

/// The claim a question's answer makes, checked against the engine by [`check_claim`].
/// Every key given must hold; `batch` selects the batch the per-batch keys talk about.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The query fails with this error condition.
    pub error_class: Option<String>,
    /// ... at this stage: `define`, `start` or `run`.
    pub error_stage: Option<String>,
    /// The batch id the keys below talk about.
    pub batch: Option<u64>,
    /// Rows the sink received in that batch.
    pub rows: Option<usize>,
    /// The watermark that batch ran with (ISO text, UTC).
    pub watermark: Option<String>,
    /// `numRowsDroppedByWatermark` of the first state operator in that batch.
    pub dropped: Option<u64>,
    /// `numRowsTotal` of the first state operator in that batch.
    pub state_total: Option<u64>,
    /// That batch was (or was not) a no-data batch.
    pub no_data: Option<bool>,
    /// Total number of batches in the run.
    pub batches: Option<usize>,
    /// Total rows the sink received over the whole run.
    pub emitted_total: Option<usize>,

    // Recovery claims: the scenario driven through a lab `Session` writing to `sink`, with
    // an optional crash and restart (see `run_recovery`). The keys above always describe the
    // plain run without a crash.
    /// The sink ([`SinkKind::id`]: `memory`, `console`, `file`, `kafka`,
    /// `foreachBatch-naive`, `foreachBatch-idempotent`); default `memory`. A setting, not a
    /// result.
    pub sink: Option<String>,
    /// The batch id that crashes (needs `crash_point`). A setting, not a result.
    pub crash_at_batch: Option<u64>,
    /// Where it crashes ([`CrashPoint::id`]: `after-offset-log`, `mid-sink`,
    /// `before-commit`; needs `crash_at_batch`). A setting, not a result.
    pub crash_point: Option<String>,
    /// Rows a reader of the sink sees more than once at the end (`RecoveryView::duplicates`).
    pub duplicates: Option<usize>,
    /// Rows a reader of the sink sees at the end (sink rows with `visible`).
    pub sink_visible_rows: Option<usize>,
    /// How many times the query started on its checkpoint (`RecoveryView::runs`).
    pub runs: Option<u64>,
    /// The restart fails with a message containing this text (needs `crash_at_batch`).
    pub restart_error_contains: Option<String>,
}

impl Claim {
    /// True when no result key is given (a claim that cannot fail). `sink`, `crash_at_batch`
    /// and `crash_point` only set up the run, so a claim with nothing else is empty.
    pub fn is_empty(&self) -> bool {
        let settings_only = Claim { sink: None, crash_at_batch: None, crash_point: None, ..self.clone() };
        settings_only == Claim::default()
    }

    /// True when the claim needs the recovery run (a `Session` with a sink, maybe a crash).
    pub fn is_recovery(&self) -> bool {
        self.sink.is_some()
            || self.crash_at_batch.is_some()
            || self.crash_point.is_some()
            || self.has_recovery_results()
    }

    fn has_recovery_results(&self) -> bool {
        self.duplicates.is_some() || self.sink_visible_rows.is_some() || self.runs.is_some() || self.restart_error_contains.is_some()
    }

    fn has_batch_keys(&self) -> bool {
        self.rows.is_some() || self.watermark.is_some() || self.dropped.is_some() || self.state_total.is_some() || self.no_data.is_some()
    }
}

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
    /// 0-based index into `choices`.
    pub answer: usize,
    pub en: QuestionText,
    pub ko: QuestionText,
    pub check: Claim,
}

/// A quiz topic: one quiz file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topic {
    /// The file name without `.toml`; set by [`topics`].
    #[serde(skip)]
    pub id: String,
    pub en: String,
    pub ko: String,
}

impl Topic {
    /// The topic's name in `lang`.
    pub fn name(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Ko => &self.ko,
        }
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
    let mut file: QuizFile = toml::from_str(text).map_err(|e| format!("quizzes/{topic}.toml: {e}"))?;
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
pub fn bank() -> Result<Vec<Question>, String> {
    let mut all = Vec::new();
    for (topic, text) in QUIZ_FILES {
        all.extend(parse_file(topic, text)?.question);
    }
    Ok(all)
}

/// Every topic, in display order.
///
/// # Errors
/// The first quiz file that does not parse.
pub fn topics() -> Result<Vec<Topic>, String> {
    QUIZ_FILES.iter().map(|(topic, text)| parse_file(topic, text).map(|f| f.topic)).collect()
}

/// Every preset scenario: (id, JSON text).
pub fn presets() -> Vec<(&'static str, &'static str)> {
    PRESETS.to_vec()
}

/// The preset scenario `id`, parsed; `None` for an unknown id (or a file that does not parse,
/// which the tests rule out).
pub fn preset(id: &str) -> Option<Scenario> {
    PRESETS.iter().find(|(p, _)| *p == id).and_then(|(_, json)| Scenario::from_json(json).ok())
}

impl Question {
    /// The question's scenario: its preset with `query` and `output_mode` overrides applied.
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
        Ok(s)
    }

    /// The question's text in `lang`.
    pub fn text(&self, lang: Lang) -> &QuestionText {
        match lang {
            Lang::En => &self.en,
            Lang::Ko => &self.ko,
        }
    }

    /// True when `choice` (0-based) is the right answer.
    pub fn is_correct(&self, choice: usize) -> bool {
        choice == self.answer
    }

    /// Checks the question's shape: a kebab-case id, both languages with the same number of
    /// choices (at least 3), non-empty prompt and explanation, the answer in range, a
    /// non-empty claim whose per-batch keys come with `batch`.
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
        for (lang, t) in [("en", &self.en), ("ko", &self.ko)] {
            if t.prompt.trim().is_empty() {
                return Err(format!("{lang}: empty prompt"));
            }
            if t.explanation.trim().is_empty() {
                return Err(format!("{lang}: empty explanation"));
            }
            if t.choices.len() < 3 {
                return Err(format!("{lang}: {} choices, at least 3 needed", t.choices.len()));
            }
            if let Some(i) = t.choices.iter().position(|c| c.trim().is_empty()) {
                return Err(format!("{lang}: choice {i} is empty"));
            }
        }
        if self.en.choices.len() != self.ko.choices.len() {
            return Err(format!("en has {} choices, ko has {}", self.en.choices.len(), self.ko.choices.len()));
        }
        if self.answer >= self.en.choices.len() {
            return Err(format!("answer {} is out of range (0..{})", self.answer, self.en.choices.len()));
        }
        if self.check.is_empty() {
            return Err("[question.check] is empty: a claim that cannot fail".into());
        }
        if self.check.has_batch_keys() && self.check.batch.is_none() {
            return Err("[question.check] has per-batch keys (rows, watermark, dropped, state_total, no_data) but no `batch`".into());
        }
        if let Some(stage) = &self.check.error_stage {
            if !matches!(stage.as_str(), "define" | "start" | "run") {
                return Err(format!("error_stage '{stage}' is not define, start or run"));
            }
        }
        if let Some(wm) = &self.check.watermark {
            parse_timestamp_us(wm).map_err(|m| format!("watermark '{wm}': {m}"))?;
        }
        let c = &self.check;
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

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Define => "define",
        Stage::Start => "start",
        Stage::Run => "run",
    }
}

fn batch_in(run: &ScenarioRun, id: u64) -> Result<&BatchResult, String> {
    run.batches.iter().map(|(_, b)| b).find(|b| b.batch_id == id).ok_or_else(|| {
        let ids: Vec<String> = run.batches.iter().map(|(s, b)| format!("b{}@step{s}", b.batch_id)).collect();
        format!("batch {id} did not run (batches: [{}])", ids.join(" "))
    })
}

/// What the recovery run of a claim ended with (see [`recovery_run`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryRun {
    /// The checkpoint and the sink at the end; `None` when the restart failed.
    pub recovery: Option<RecoveryView>,
    /// The session's error message after the restart, if it failed.
    pub restart_error: Option<String>,
    /// The ids of every batch that completed, in order (a re-run batch appears once, after
    /// the restart).
    pub batch_ids: Vec<u64>,
}

fn ids_text(ids: &[u64]) -> String {
    ids.iter().map(|i| format!("b{i}")).collect::<Vec<_>>().join(" ")
}

fn batch_ids(s: &Session) -> Vec<u64> {
    s.view().batches.iter().map(|b| b.id).collect()
}

/// One trigger that must run a batch.
fn trigger_one(s: &mut Session) -> Result<(), String> {
    let before = s.view().batches.len();
    s.trigger();
    let v = s.view();
    if v.batches.len() == before {
        let why = v.error.map_or_else(|| "nothing ran".to_string(), |e| e.message);
        return Err(format!("a batch was due but did not run: {why}"));
    }
    Ok(())
}

/// Drives the question's scenario through a lab [`Session`] writing to the claim's `sink`
/// (default memory). Without `crash_at_batch`: every step, as `run_step` does. With it: steps
/// and triggers one batch at a time until the next batch would get id `crash_at_batch`, then
/// `crash(crash_point)`, `restart()`, and (if the restart worked) triggers until idle — the
/// re-run batch and any no-data batch after it — and the remaining steps.
///
/// # Errors
/// An unknown sink or crash point, a query that does not start, or a crash batch that never
/// runs.
pub fn recovery_run(q: &Question) -> Result<RecoveryRun, String> {
    let c = &q.check;
    let kind = match &c.sink {
        Some(id) => SinkKind::parse(id).ok_or_else(|| format!("unknown sink '{id}'"))?,
        None => SinkKind::Memory,
    };
    let mut s = Session::from_scenario(q.scenario()?);
    s.set_sink(kind);
    if let Some(e) = s.view().error {
        return Err(format!("the query does not start: {}", e.message));
    }
    let mut restart_error = None;
    if let Some(crash_at) = c.crash_at_batch {
        let point_id = c.crash_point.as_deref().ok_or("crash_at_batch needs crash_point")?;
        let point = CrashPoint::parse(point_id).ok_or_else(|| format!("unknown crash point '{point_id}'"))?;
        loop {
            let next = s.view().batches.last().map_or(0, |b| b.id + 1);
            if next > crash_at {
                return Err(format!("batch {crash_at} already ran (batches: [{}])", ids_text(&batch_ids(&s))));
            }
            if s.batch_due() {
                if next == crash_at {
                    break;
                }
                trigger_one(&mut s)?;
            } else if !s.push_step() {
                return Err(format!("batch {crash_at} never runs: the scenario ends after batches [{}]", ids_text(&batch_ids(&s))));
            }
        }
        s.crash(point).map_err(|m| format!("batch {crash_at}: {m}"))?;
        if s.view().recovery.and_then(|r| r.crashed).is_none() {
            return Err(format!("batch {crash_at} did not crash at {point_id}"));
        }
        s.restart();
        restart_error = s.view().error.map(|e| e.message);
    }
    if restart_error.is_none() {
        // The re-run batch (and a no-data batch it makes due), then the rest of the steps.
        loop {
            let before = s.view().batches.len();
            s.trigger();
            if s.view().batches.len() == before {
                break;
            }
        }
        while s.run_step() {}
        if let Some(e) = s.view().error {
            return Err(format!("the query failed: {}", e.message));
        }
    }
    let v = s.view();
    Ok(RecoveryRun { recovery: v.recovery, restart_error, batch_ids: v.batches.iter().map(|b| b.id).collect() })
}

fn check_recovery(q: &Question) -> Result<(), String> {
    let c = &q.check;
    let run = recovery_run(q)?;
    let sink = c.sink.as_deref().unwrap_or("memory");
    let setup = match (c.crash_at_batch, &c.crash_point) {
        (Some(b), Some(p)) => format!("{sink} sink, crash at batch {b} ({p}) and restart"),
        _ => format!("{sink} sink, no crash"),
    };
    match (&c.restart_error_contains, &run.restart_error) {
        (Some(want), Some(got)) if !got.contains(want.as_str()) => {
            return Err(format!("{setup}: claimed restart_error_contains = '{want}', the restart failed with: {got}"));
        }
        (Some(want), None) => return Err(format!("{setup}: claimed restart_error_contains = '{want}', but the restart worked")),
        _ => {}
    }
    let wants_view = c.duplicates.is_some() || c.sink_visible_rows.is_some() || c.runs.is_some();
    let Some(r) = run.recovery.as_ref().filter(|_| wants_view) else {
        if wants_view {
            let why = run.restart_error.as_deref().unwrap_or("no query");
            return Err(format!("{setup}: claimed sink/checkpoint numbers, but the restart failed: {why}"));
        }
        return Ok(());
    };
    let ran = ids_text(&run.batch_ids);
    if let Some(n) = c.duplicates {
        if r.duplicates != n {
            return Err(format!("{setup}: claimed duplicates = {n}, a reader sees {} (batches: [{ran}])", r.duplicates));
        }
    }
    if let Some(n) = c.sink_visible_rows {
        let visible = r.sink_rows.iter().filter(|w| w.visible).count();
        if visible != n {
            return Err(format!(
                "{setup}: claimed sink_visible_rows = {n}, a reader sees {visible} ({} written in all; batches: [{ran}])",
                r.sink_rows.len()
            ));
        }
    }
    if let Some(n) = c.runs {
        if r.runs != n {
            return Err(format!("{setup}: claimed runs = {n}, the checkpoint was started {} times", r.runs));
        }
    }
    Ok(())
}

/// Runs the question's scenario through the engine and checks every key of its
/// `[question.check]` claim.
///
/// # Errors
/// The first key that does not hold (or an empty claim, or a scenario that cannot be built).
pub fn check_claim(q: &Question) -> Result<(), String> {
    let c = &q.check;
    if c.is_empty() {
        return Err(format!("question '{}': [question.check] is empty: a claim that cannot fail", q.id));
    }
    let fail = |m: String| Err(format!("question '{}': {m}", q.id));
    let scenario = q.scenario()?;
    let run = scenario::run(&scenario);

    if c.error_class.is_some() || c.error_stage.is_some() {
        match &run.error {
            Some(Error::Analysis(a)) => {
                if let Some(class) = &c.error_class {
                    if &a.error_class != class {
                        return fail(format!("error_class: claimed {class}, the engine raised {} ({})", a.error_class, a.message));
                    }
                }
                if let Some(stage) = &c.error_stage {
                    if stage != stage_name(a.stage) {
                        return fail(format!("error_stage: claimed {stage}, the engine raised {} at {}", a.error_class, stage_name(a.stage)));
                    }
                }
            }
            Some(other) => return fail(format!("claimed an analysis error, the engine failed with: {other}")),
            None => return fail(format!("claimed an error, but the query ran ({} batches)", run.batches.len())),
        }
    } else if let Some(e) = &run.error {
        return fail(format!("the query failed: {e}"));
    }

    if let Some(id) = c.batch {
        let b = match batch_in(&run, id) {
            Ok(b) => b,
            Err(m) => return fail(m),
        };
        if let Some(n) = c.rows {
            if b.rows.len() != n {
                return fail(format!("batch {id}: claimed {n} rows, the sink received {}", b.rows.len()));
            }
        }
        if let Some(wm) = &c.watermark {
            let want = parse_timestamp_us(wm).map_err(|m| format!("question '{}': watermark '{wm}': {m}", q.id))?;
            match b.watermark_ms {
                Some(ms) if ms * 1000 == want => {}
                Some(ms) => return fail(format!("batch {id}: claimed watermark {wm}, it ran with {}", format_timestamp_us(ms * 1000))),
                None => return fail(format!("batch {id}: claimed watermark {wm}, the query has no watermark")),
            }
        }
        if c.dropped.is_some() || c.state_total.is_some() {
            let Some(s) = b.state.first() else {
                return fail(format!("batch {id}: claimed state metrics, but the query has no state operator"));
            };
            if let Some(n) = c.dropped {
                if s.num_rows_dropped_by_watermark != n {
                    return fail(format!("batch {id}: claimed dropped = {n}, numRowsDroppedByWatermark = {}", s.num_rows_dropped_by_watermark));
                }
            }
            if let Some(n) = c.state_total {
                if s.num_rows_total != n {
                    return fail(format!("batch {id}: claimed state_total = {n}, numRowsTotal = {}", s.num_rows_total));
                }
            }
        }
        if let Some(nd) = c.no_data {
            if b.no_data != nd {
                return fail(format!("batch {id}: claimed no_data = {nd}, it was {}", b.no_data));
            }
        }
    }
    if let Some(n) = c.batches {
        if run.batches.len() != n {
            return fail(format!("claimed {n} batches, {} ran", run.batches.len()));
        }
    }
    if let Some(n) = c.emitted_total {
        let total: usize = run.batches.iter().map(|(_, b)| b.rows.len()).sum();
        if total != n {
            return fail(format!("claimed {n} rows emitted in total, the sink received {total}"));
        }
    }
    if c.is_recovery() {
        if let Err(m) = check_recovery(q) {
            return fail(m);
        }
    }
    Ok(())
}
