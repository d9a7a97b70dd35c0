//! `Session`: the lab's one boundary to the engine (invariant 6). Plain Rust, no Leptos, so
//! native tests can drive it the way the page does.
//!
//! The session keeps what the learner did (added rows, triggers) as a list of [`Action`]s.
//! Any change to the query, output mode or watermark delay rebuilds the `StreamingQuery` and
//! replays every action: the engine is deterministic, so the lab shows at once what Spark
//! would have done with the new query over the same input. Nothing the learner did is lost,
//! even while the query text does not compile.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value as Json};
use streamlab_engine::analysis::Attr;
use streamlab_engine::execution::group_state::CallReason;
use streamlab_engine::execution::state_rows::{KeptReason, StateCell, StateNote, StateRowLabel};
use streamlab_engine::frontend::compile;
use streamlab_engine::scenario::{display_value, row_to_json, value_to_json, Scenario};
use streamlab_engine::streaming::{BatchResult, CrashPoint, OutputMode, SinkKind, StartOptions, StreamingConf, StreamingQuery, Trigger};
use streamlab_engine::types::{format_timestamp_us, parse_timestamp_us, spark_type_name, DataType, Row, Value};
use streamlab_engine::Error;

pub mod compare;
pub mod timeline;

/// One thing the learner did.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Rows added to a source (one `MemoryStream` block).
    Add { source: String, rows: Vec<Row> },
    /// One trigger: at most one micro-batch.
    Trigger,
    /// Triggers until idle (what the default trigger does after new data arrives).
    RunAll,
    /// One trigger whose batch dies at a point (the process crashes).
    Crash(CrashPoint),
    /// Stop and start the query again on the same checkpoint, sources and sink; with a text,
    /// the next run uses that query (a query changed between restarts).
    Restart(Option<String>),
    /// Processing time passes (ms) with no trigger: the query's clock moves on, so the next
    /// trigger may time out keys of a `ProcessingTimeTimeout` state function.
    Wait(i64),
}

/// One unit the sink wrote, for the sink panel.
#[derive(Debug, Clone, PartialEq)]
pub struct SinkRowView {
    pub batch_id: u64,
    /// 0 for the first attempt at this batch id, 1 for its re-run, ...
    pub attempt: u32,
    pub cells: Vec<String>,
    /// False for a part file `_spark_metadata` does not list (readers ignore it).
    pub visible: bool,
    /// True if a reader sees this row a second time.
    pub duplicate: bool,
}

/// The checkpoint, the sink and the query handle, for the recovery panel.
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryView {
    /// The sink the query writes to: the query text's own when it names one, else the picker's.
    pub sink: SinkKind,
    /// True if the query text named the sink, so the picker's choice does not apply.
    pub sink_from_query: bool,
    pub query_id: String,
    pub run_id: String,
    pub runs: u64,
    /// (batch id, end offsets, batchWatermarkMs as text).
    pub offset_log: Vec<(u64, String, String)>,
    /// (batch id, nextBatchWatermarkMs as text).
    pub commit_log: Vec<(u64, String)>,
    pub sink_rows: Vec<SinkRowView>,
    pub duplicates: usize,
    /// Set while the query is stopped by a crash.
    pub crashed: Option<String>,
    /// `query.isActive`.
    pub active: bool,
    /// `query.status.message`.
    pub status: String,
    /// The trigger in PySpark's words.
    pub trigger: String,
    /// `len(query.recentProgress)`.
    pub recent_progress: usize,
    /// The `StreamingQueryListener` events, oldest first.
    pub events: Vec<String>,
    /// What the console printed / what foreach and foreachBatch were called with.
    pub sink_log: Option<String>,
    /// `queryName` (the memory sink's table name).
    pub name: Option<String>,
    /// Whether the lab gives the query a checkpoint location.
    pub checkpoint_set: bool,
    /// The run's checkpoint is a temporary directory.
    pub temporary: bool,
}

/// An error shown in the page.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorView {
    /// `AnalysisException`, `ParseException`, `not modelled yet`, ...
    pub kind: String,
    /// Spark's error condition, when there is one.
    pub error_class: Option<String>,
    /// Spark's text (or ours for parse errors).
    pub message: String,
    pub hint: Option<String>,
    /// `define`, `start` or `run`.
    pub stage: Option<String>,
    /// 1-based line and column in the query text, and the byte span.
    pub position: Option<(usize, usize)>,
    pub span: Option<(usize, usize)>,
}

/// A streaming source as the event form needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceView {
    pub name: String,
    /// (column, Spark type name).
    pub columns: Vec<(String, String)>,
    /// The first timestamp column, for the watermark shortcut.
    pub time_column: Option<String>,
    /// `memory`, `file` or `socket`.
    pub kind: String,
}

/// A stateful operator's numbers in one batch.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricView {
    pub operator: String,
    pub total: u64,
    pub updated: u64,
    pub removed: u64,
    pub dropped: u64,
}

/// One executed micro-batch.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchView {
    pub id: u64,
    /// The scenario step that caused it, when run by "next step".
    pub step: Option<usize>,
    pub input_rows: u64,
    pub watermark: Option<String>,
    /// The watermark the batch ran with, ms since the epoch (`None` without a watermark).
    pub watermark_ms: Option<i64>,
    pub late_watermark: String,
    /// wm(N-1), the watermark late rows were judged against, ms since the epoch.
    pub late_watermark_ms: i64,
    pub no_data: bool,
    /// Emitted rows as display cells.
    pub rows: Vec<Vec<String>>,
    /// Emitted rows in the corpus JSON format (`data-json`).
    pub rows_json: Vec<String>,
    pub metrics: Vec<MetricView>,
    pub progress_json: String,
}

/// Whether a state row will be closed by the next batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowStatus {
    /// The watermark has not passed it.
    Open,
    /// Its end is at or before the current watermark: the next batch emits (append) or drops
    /// (update) it.
    Closing,
    /// Complete mode: kept forever.
    Kept,
    /// Removed by the last batch (shown once, greyed).
    Evicted,
    /// No event-time column: never evicted.
    NoWatermark,
    /// An `applyInPandasWithState` key without a timeout: kept until the function removes it.
    NoTimeout,
}

/// One stateful operator's state rows.
#[derive(Debug, Clone, PartialEq)]
pub struct StateTableView {
    pub operator: String,
    pub columns: Vec<String>,
    pub rows: Vec<(Vec<String>, RowStatus)>,
    /// Free text: what this operator keeps and when it lets go.
    /// (English, Korean).
    pub note: (String, String),
}

/// Everything the page shows, as plain data.
#[derive(Debug, Clone, PartialEq)]
pub struct LabView {
    pub title: String,
    pub query_text: String,
    pub mode: OutputMode,
    pub error: Option<ErrorView>,
    pub sources: Vec<SourceView>,
    /// (source, display cells) of rows added but not yet read by a batch.
    pub pending: Vec<(String, Vec<String>)>,
    pub output_columns: Vec<String>,
    pub batches: Vec<BatchView>,
    pub state: Vec<StateTableView>,
    /// The global watermark the next batch will run with.
    pub watermark: Option<String>,
    /// The day (`2026-01-01`, UTC) that short times like `12:07` are on.
    pub day: String,
    /// Each `withWatermark` delay as written in the query.
    pub delays: Vec<String>,
    pub no_data_batch_due: bool,
    pub steps_done: usize,
    pub steps_total: usize,
    /// Static tables: (name, columns, rows).
    pub statics: Vec<(String, Vec<String>, Vec<Vec<String>>)>,
    /// The analyzed plan as a tree.
    pub plan: Option<String>,
    /// Checkpoint, sink and query handle.
    pub recovery: Option<RecoveryView>,
    /// The processing-time clock (ms) when the query's state function uses
    /// `ProcessingTimeTimeout`.
    pub processing_clock_ms: Option<i64>,
}

/// The lab's state: a scenario, the learner's actions and the query built from them.
#[derive(Debug, Clone)]
pub struct Session {
    scenario: Scenario,
    query_text: String,
    mode: OutputMode,
    actions: Vec<Action>,
    next_step: usize,
    /// Step index of each `RunAll` action that came from "next step".
    step_of_action: BTreeMap<usize, usize>,
    query: Option<StreamingQuery>,
    error: Option<ErrorView>,
    batches: Vec<(Option<usize>, BatchResult)>,
    pending: Vec<(String, Row)>,
    evicted: Vec<(usize, Row)>,
    sink_kind: SinkKind,
    crash: Option<String>,
    /// The query text of the first run (`query_text` is the latest run's).
    base_text: String,
    /// A trigger picked in the lab (overrides one written in the text).
    trigger: Option<Trigger>,
    /// Listener events of every run.
    events: Vec<String>,
    /// Whether the lab gives the query a checkpoint location (else a temporary one, where
    /// Spark allows it).
    checkpoint_set: bool,
    /// The current run's checkpoint is temporary: the next start does not reuse it.
    temporary: bool,
    /// Processing time added by [`Action::Wait`] so far, ms (the clock is 1 s per action plus
    /// this).
    waited_ms: i64,
    /// Replay stops once this batch id has run ([`Session::view_as_of`]).
    stop_after: Option<u64>,
}

fn error_view(e: &Error, text: &str) -> ErrorView {
    match e {
        Error::Parse(p) => ErrorView {
            kind: "ParseException".into(),
            error_class: None,
            message: p.message.clone(),
            hint: None,
            stage: Some("define".into()),
            position: Some(p.span.line_col(text)),
            span: Some((p.span.start, p.span.end)),
        },
        Error::Analysis(a) => ErrorView {
            kind: "AnalysisException".into(),
            error_class: Some(a.error_class.clone()),
            message: a.spark_text(),
            hint: a.hint.clone(),
            stage: Some(
                match a.stage {
                    streamlab_engine::Stage::Define => "define",
                    streamlab_engine::Stage::Start => "start",
                    streamlab_engine::Stage::Run => "run",
                }
                .into(),
            ),
            position: a.span.map(|s| s.line_col(text)),
            span: a.span.map(|s| (s.start, s.end)),
        },
        Error::Unsupported(f) => ErrorView {
            kind: "not modelled yet".into(),
            error_class: None,
            message: format!("{f} is not modelled by Streamlab yet."),
            hint: Some("the lab can run windows, watermarks, aggregations, dedup, limit, union and stream-static joins".into()),
            stage: None,
            position: None,
            span: None,
        },
        other => ErrorView {
            kind: "Error".into(),
            error_class: None,
            message: other.to_string(),
            hint: None,
            stage: None,
            position: None,
            span: None,
        },
    }
}

/// The parts of a session that [`crate::persist`] saves.
pub(crate) struct SessionParts<'a> {
    pub scenario: &'a Scenario,
    pub base_text: &'a str,
    pub mode: OutputMode,
    pub sink: SinkKind,
    pub trigger: Option<Trigger>,
    pub checkpoint_set: bool,
    pub next_step: usize,
    pub actions: &'a [Action],
    pub step_of_action: &'a BTreeMap<usize, usize>,
}

impl Session {
    pub(crate) fn parts(&self) -> SessionParts<'_> {
        SessionParts {
            scenario: &self.scenario,
            base_text: &self.base_text,
            mode: self.mode,
            sink: self.sink_kind,
            trigger: self.trigger,
            checkpoint_set: self.checkpoint_set,
            next_step: self.next_step,
            actions: &self.actions,
            step_of_action: &self.step_of_action,
        }
    }

    /// Rebuilds a session from saved parts, replaying its actions.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn restore(
        scenario: Scenario,
        query: String,
        mode: OutputMode,
        sink: SinkKind,
        trigger: Option<Trigger>,
        checkpoint_set: bool,
        next_step: usize,
        actions: Vec<Action>,
        step_of_action: BTreeMap<usize, usize>,
    ) -> Session {
        let mut s = Session::from_scenario(scenario);
        s.query_text = query.clone();
        s.base_text = query;
        s.mode = mode;
        s.sink_kind = sink;
        s.trigger = trigger;
        s.checkpoint_set = checkpoint_set;
        s.next_step = next_step.min(s.scenario.steps.len());
        s.actions = actions;
        s.step_of_action = step_of_action;
        s.rebuild();
        s
    }

    /// A session over `scenario`, with nothing run yet.
    pub fn from_scenario(scenario: Scenario) -> Session {
        let mode = OutputMode::parse(&scenario.output_mode).unwrap_or(OutputMode::Append);
        let mut s = Session {
            query_text: scenario.query.clone(),
            mode,
            scenario,
            actions: Vec::new(),
            next_step: 0,
            step_of_action: BTreeMap::new(),
            query: None,
            error: None,
            batches: Vec::new(),
            pending: Vec::new(),
            evicted: Vec::new(),
            sink_kind: SinkKind::Memory,
            crash: None,
            base_text: String::new(),
            trigger: None,
            events: Vec::new(),
            waited_ms: 0,
            checkpoint_set: true,
            temporary: false,
            stop_after: None,
        };
        s.base_text = s.query_text.clone();
        s.rebuild();
        s
    }

    /// Opens scenario JSON (the corpus format).
    ///
    /// # Errors
    /// What is wrong with the JSON, with line and column.
    pub fn from_json(text: &str) -> Result<Session, String> {
        let scenario = Scenario::from_json(text).map_err(|e| e.to_string())?;
        scenario.catalog().map_err(|e| e.to_string())?;
        Ok(Session::from_scenario(scenario))
    }

    /// The scenario the session runs (with any source kinds the learner picked).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Rows added but not yet read by a batch: (source, typed row), in the order added.
    pub fn pending_rows(&self) -> &[(String, Row)] {
        &self.pending
    }

    /// The scenario's day (UTC midnight, µs) that short times like `12:07` are on.
    pub fn day_us(&self) -> i64 {
        self.base_day_us()
    }

    /// The query text.
    pub fn query_text(&self) -> &str {
        &self.query_text
    }

    /// Replaces the query text and replays everything.
    pub fn set_query(&mut self, text: &str) {
        // An edit in the editor is the query of every run.
        self.query_text = text.to_string();
        self.base_text = text.to_string();
        for a in &mut self.actions {
            if let Action::Restart(t) = a {
                *t = None;
            }
        }
        self.rebuild();
    }

    /// Sets a source's kind (`memory`, `file` with `maxFilesPerTrigger`, `socket`) and replays.
    pub fn set_source_kind(&mut self, source: &str, kind: &str, max_files_per_trigger: Option<u64>) {
        if let Some(def) = self.scenario.sources.get_mut(source) {
            def.kind = Some(kind.to_string());
            def.options.clear();
            if let Some(n) = max_files_per_trigger {
                def.options.insert("maxFilesPerTrigger".into(), serde_json::Value::from(n));
            }
            if kind == "kafka" {
                def.options.insert("partitions".into(), serde_json::Value::from(2));
                def.options.insert("startingOffsets".into(), serde_json::Value::from("earliest"));
            }
        }
        self.rebuild();
    }

    /// Gives the query a checkpoint location, or not (spec §10.7), and replays.
    pub fn set_checkpoint_location(&mut self, set: bool) {
        self.checkpoint_set = set;
        self.rebuild();
    }

    /// Picks the trigger and replays everything with it.
    pub fn set_trigger(&mut self, trigger: Trigger) {
        self.trigger = Some(trigger);
        self.rebuild();
    }

    /// Stops the query and starts `text` on the same checkpoint (changing a query between
    /// restarts, spec §12.5): Spark's error if the change does not fit the state.
    pub fn restart_with(&mut self, text: &str) {
        self.apply(Action::Restart(Some(text.to_string())));
    }

    /// Switches the output mode and replays everything.
    pub fn set_mode(&mut self, mode: OutputMode) {
        self.mode = mode;
        self.rebuild();
    }

    /// Sets the delay of the `index`-th `withWatermark` (e.g. `"5 minutes"`) by rewriting the
    /// query text, then replays every batch so far with the new delay.
    ///
    /// # Errors
    /// The query does not compile, has no such watermark, or the delay is not an interval or
    /// is refused by `withWatermark` (negative: Spark's `requirement failed: delay threshold
    /// (…) should not be negative.`); the query and its delay stay as they were.
    pub fn set_delay(&mut self, index: usize, delay: &str) -> Result<(), String> {
        streamlab_engine::types::CalendarInterval::parse(delay).map_err(|e| e.to_string())?;
        let catalog = self.scenario.catalog().map_err(|e| e.to_string())?;
        let compiled = compile(&self.query_text, &catalog).map_err(|e| e.to_string())?;
        let span = *compiled.watermark_delay_spans.get(index).ok_or("the query has no such withWatermark")?;
        let quoted = format!("'{}'", delay.replace(['\'', '"', '\\'], ""));
        let mut text = self.query_text.clone();
        text.replace_range(span.start..span.end, &quoted);
        // A delay Spark refuses (a negative one) leaves the last good query running.
        compile(&text, &catalog).map_err(|e| error_view(&e, &text).message)?;
        self.set_query(&text);
        Ok(())
    }

    /// Adds one event to `source` from text fields (column → text). Empty fields are NULL;
    /// timestamps may be `12:07`, `12:07:30` (on the scenario's day) or any form Spark's JSON
    /// reader accepts. A value Spark's reader turns into NULL (`"seven"` in a long column) is
    /// added as NULL, and the returned notes say so, one per field (`post_id: ...`).
    ///
    /// # Errors
    /// Which field the engine cannot take, and why.
    pub fn push_event(&mut self, source: &str, fields: &BTreeMap<String, String>) -> Result<Vec<String>, String> {
        let def = self.scenario.sources.get(source).ok_or_else(|| format!("no source named '{source}'"))?;
        let schema = streamlab_engine::scenario::typed_schema(&def.schema).map_err(|e| e.to_string())?;
        let base_day = self.base_day_us();
        let mut row = Vec::new();
        let mut notes = Vec::new();
        for (name, t) in &schema {
            let text = fields.get(name).map(|s| s.trim()).unwrap_or("");
            let (v, note) = read_field(text, t, base_day).map_err(|m| format!("{name}: {m}"))?;
            if let Some(n) = note {
                notes.push(format!("{name}: {n}"));
            }
            row.push(v);
        }
        self.apply(Action::Add { source: source.to_string(), rows: vec![row] });
        Ok(notes)
    }

    /// The scenario's input values Spark's JSON reader turns into NULL, with their paths
    /// (`steps[2].clicks[0].post_id: ...`).
    pub fn input_notes(&self) -> Vec<String> {
        self.scenario.input_notes()
    }

    /// Pushes an event whose time column is `event_time` (other columns copied from the
    /// source's last event), then runs every batch until idle: the quickest way to move the
    /// watermark.
    ///
    /// # Errors
    /// The time does not parse, or the source has no timestamp column.
    pub fn advance_with_event(&mut self, source: &str, event_time: &str) -> Result<(), String> {
        let ts = parse_field(event_time.trim(), &streamlab_engine::types::timestamp_type(), self.base_day_us())?;
        let row = self.row_at(source, ts)?;
        self.apply(Action::Add { source: source.to_string(), rows: vec![row] });
        self.apply(Action::RunAll);
        Ok(())
    }

    /// Adds one event to `source` at `event_time_us` (µs since the epoch; the other columns
    /// copied from the source's last event, NULL when there is none) as pending input, the
    /// way the event form adds one: the time picture's "click on the event-time axis".
    ///
    /// # Errors
    /// No such source, or the source has no timestamp column.
    pub fn add_event_at(&mut self, source: &str, event_time_us: i64) -> Result<(), String> {
        let row = self.row_at(source, Value::Timestamp(event_time_us))?;
        self.apply(Action::Add { source: source.to_string(), rows: vec![row] });
        Ok(())
    }

    /// The source's last added row with its time column set to `ts`.
    fn row_at(&self, source: &str, ts: Value) -> Result<Row, String> {
        let view = self.sources().into_iter().find(|s| s.name == source).ok_or_else(|| format!("no source named '{source}'"))?;
        let time_col = view.time_column.ok_or("this source has no timestamp column")?;
        let last = self.actions.iter().rev().find_map(|a| match a {
            Action::Add { source: s, rows } if s == source => rows.last().cloned(),
            _ => None,
        });
        let idx = view.columns.iter().position(|(c, _)| *c == time_col).unwrap_or(0);
        let mut row = last.unwrap_or_else(|| vec![Value::Null; view.columns.len()]);
        if let Some(cell) = row.get_mut(idx) {
            *cell = ts;
        }
        Ok(row)
    }

    /// Adds the scenario's next step of events and runs every batch Spark would run until
    /// idle (the corpus harness's semantics). Returns false when all steps are done.
    pub fn run_step(&mut self) -> bool {
        if !self.push_step() {
            return false;
        }
        self.step_of_action.insert(self.actions.len(), self.next_step - 1);
        self.apply(Action::RunAll);
        true
    }

    /// Adds the scenario's next step of events as pending input, without running a batch.
    /// Returns false when all steps are done.
    pub fn push_step(&mut self) -> bool {
        let Some(step) = self.scenario.steps.get(self.next_step).cloned() else { return false };
        for (source, rows) in &step {
            // Events are typed by the source's own schema (for Kafka, the JSON put in `value`).
            let Some(Ok(schema)) = self.scenario.sources.get(source).map(|d| streamlab_engine::scenario::typed_schema(&d.schema)) else { continue };
            let typed: Vec<Row> = rows.iter().filter_map(|r| streamlab_engine::scenario::json_to_row(&schema, r).ok()).collect();
            if !typed.is_empty() {
                // Marked with its step, so that [`Session::undo`] takes the step back whole.
                self.step_of_action.insert(self.actions.len(), self.next_step);
                self.apply(Action::Add { source: source.clone(), rows: typed });
            }
        }
        self.next_step += 1;
        true
    }

    /// Steps back: forgets the last action of the log and replays the rest, so the lab shows
    /// exactly what it showed before that action (the engine is deterministic). A scenario
    /// step ("next step", or its events added by play) goes back whole: its events and the
    /// run they caused, and the step counter moves back to it. Returns false when there is
    /// nothing to undo. Settings (mode, delay, sink, trigger) are not actions: they are
    /// changed back by setting them again.
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.actions.len().checked_sub(1) else { return false };
        let mut cut = last;
        if let Some(step) = self.step_of_action.get(&last).copied() {
            while cut > 0 && self.step_of_action.get(&(cut - 1)) == Some(&step) && matches!(self.actions[cut - 1], Action::Add { .. }) {
                cut -= 1;
            }
            self.next_step = step.min(self.next_step);
        }
        self.actions.truncate(cut);
        self.step_of_action.retain(|i, _| *i < cut);
        self.rebuild();
        true
    }

    /// How many actions the log holds (what [`Session::undo`] can take back).
    pub fn action_count(&self) -> usize {
        self.actions.len()
    }

    /// True if a trigger now would run a batch (new input, or a no-data batch is due).
    pub fn batch_due(&self) -> bool {
        self.query.as_ref().is_some_and(|q| q.has_new_data() || q.wants_no_data_batch())
    }

    /// One trigger: at most one micro-batch.
    pub fn trigger(&mut self) {
        self.apply(Action::Trigger);
    }

    /// One trigger whose batch crashes at `point`; the query stops until [`Session::restart`].
    ///
    /// # Errors
    /// When no batch is due (nothing would run, so nothing can crash).
    pub fn crash(&mut self, point: CrashPoint) -> Result<(), String> {
        if !self.batch_due() || self.query.as_ref().is_some_and(|q| !q.is_active()) {
            return Err("No batch is due, so there is nothing to crash: add events (or wait for a no-data batch) first.".into());
        }
        self.apply(Action::Crash(point));
        Ok(())
    }

    /// Lets `ms` of processing time pass without a trigger (the "wait" button of a
    /// processing-time timeout); a wait that is not positive or moves the clock past year 9999
    /// is refused.
    ///
    /// # Errors
    /// A message saying what is wrong with `ms`.
    pub fn wait(&mut self, ms: i64) -> Result<(), String> {
        const MAX_CLOCK_MS: i64 = 253_402_300_799_000;
        if ms <= 0 || self.waited_ms.saturating_add(ms) > MAX_CLOCK_MS {
            return Err(format!("cannot wait {ms} ms: give a positive time that keeps the clock before year 9999"));
        }
        self.apply(Action::Wait(ms));
        Ok(())
    }

    /// The query's processing-time clock (ms), when its state function uses
    /// `ProcessingTimeTimeout`.
    pub fn processing_clock_ms(&self) -> Option<i64> {
        let q = self.query.as_ref()?;
        q.uses_processing_time_timeout().then(|| q.clock_ms().max((self.actions.len() as i64).saturating_mul(1000).saturating_add(self.waited_ms)))
    }

    /// Stops the query and starts it again on the same checkpoint: a batch that was logged
    /// but not committed runs again.
    pub fn restart(&mut self) {
        self.apply(Action::Restart(None));
    }

    /// Picks the sink and replays everything into it.
    pub fn set_sink(&mut self, kind: SinkKind) {
        self.sink_kind = kind;
        self.rebuild();
    }

    /// Forgets every action and starts the scenario again.
    pub fn reset(&mut self) {
        self.actions.clear();
        self.step_of_action.clear();
        self.next_step = 0;
        self.rebuild();
    }

    fn apply(&mut self, action: Action) {
        self.actions.push(action.clone());
        self.replay_one(self.actions.len() - 1, &action);
    }

    fn rebuild(&mut self) {
        self.batches.clear();
        self.pending.clear();
        self.evicted.clear();
        self.error = None;
        self.crash = None;
        self.query = None;
        self.events.clear();
        self.waited_ms = 0;
        self.query_text = self.base_text.clone();
        // The picker's sink applies only when the text names none; the start checks (sink,
        // output mode, checkpoint location) all run in the engine's `check_start`.
        let options = StartOptions {
            default_sink: Some(self.sink_kind),
            checkpoint_location: Some(self.checkpoint_set || self.scenario.conf.contains_key("spark.sql.streaming.checkpointLocation")),
        };
        let built = self.scenario.catalog().and_then(|catalog| {
            let conf = StreamingConf::from_map(&self.scenario.conf_strings()).map_err(Error::Scenario)?;
            StreamingQuery::start_with(&self.query_text, &catalog, self.mode, conf, options)
        });
        match built {
            Ok(mut q) => {
                if let Some(t) = self.trigger {
                    q.trigger = t;
                }
                // The time picture and its narration show the engine's own explanations.
                q.set_explaining(true);
                if let Err(e) = streamlab_engine::scenario::apply_source_kinds(&self.scenario, &mut q) {
                    self.error = Some(error_view(&e, &self.query_text));
                }
                self.temporary = q.temporary_checkpoint();
                self.events.push(format!("onQueryStarted: id={}, runId={}", q.id, q.run_id));
                self.query = Some(q);
            }
            Err(e) => self.error = Some(error_view(&e, &self.query_text)),
        }
        let actions = self.actions.clone();
        for (i, a) in actions.iter().enumerate() {
            if timeline::reached(self.stop_after, &self.batches) {
                break;
            }
            self.replay_one(i, a);
        }
    }

    fn replay_one(&mut self, index: usize, action: &Action) {
        let step = self.step_of_action.get(&index).copied();
        match action {
            Action::Add { source, rows } => {
                for r in rows {
                    self.pending.push((source.clone(), r.clone()));
                }
                if let Some(q) = &mut self.query {
                    if let Err(e) = q.add_data(source, rows) {
                        self.error = Some(error_view(&e, &self.query_text));
                    }
                }
            }
            Action::Wait(ms) => self.waited_ms = self.waited_ms.saturating_add(*ms),
            Action::Restart(text) => {
                let Some(q) = self.query.take() else { return };
                if q.is_active() {
                    self.events.push(format!("onQueryTerminated: id={}, runId={}, exception=None (stopped)", q.id, q.run_id));
                }
                if let Some(t) = text {
                    self.query_text = t.clone();
                }
                let conf = StreamingConf::from_map(&self.scenario.conf_strings()).unwrap_or_default();
                let (checkpoint, sources, mut sink) = q.stop();
                // A temporary checkpoint is not reused: the next start begins again from batch 0
                // (and a memory sink is a new, empty sink).
                let checkpoint = if self.temporary {
                    if sink.kind() == SinkKind::Memory {
                        sink = SinkKind::Memory.create();
                    }
                    streamlab_engine::streaming::Checkpoint::default()
                } else {
                    checkpoint
                };
                let restarted = self
                    .scenario
                    .catalog()
                    .and_then(|c| StreamingQuery::restart(&self.query_text, &c, self.mode, conf, checkpoint, sources, sink));
                match restarted {
                    Ok(mut q) => {
                        if let Some(t) = self.trigger {
                            q.trigger = t;
                        }
                        q.set_explaining(true);
                        self.events.push(format!("onQueryStarted: id={}, runId={}", q.id, q.run_id));
                        self.query = Some(q);
                    }
                    Err(e) => self.error = Some(error_view(&e, &self.query_text)),
                }
                self.crash = None;
            }
            Action::Trigger | Action::RunAll | Action::Crash(_) => {
                let Some(q) = &mut self.query else { return };
                q.set_clock_ms((index as i64).saturating_mul(1000).saturating_add(self.waited_ms));
                let before = state_keys(q);
                let was_active = q.is_active();
                let results: Vec<BatchResult> = match action {
                    Action::Trigger => q.fire(),
                    Action::Crash(p) => q.run_next_batch_crashing(Some(*p)).into_iter().collect(),
                    _ => timeline::run_all(q, self.stop_after),
                };
                for b in &results {
                    self.events.push(format!("onQueryProgress: batchId={}, numInputRows={}", b.batch_id, b.input_rows));
                }
                match q.exception() {
                    Some(e @ Error::Execution(streamlab_engine::error::ExecutionError::Crash { .. })) => self.crash = Some(e.to_string()),
                    Some(e) => self.error = Some(error_view(e, &self.query_text)),
                    None => {}
                }
                if was_active && !q.is_active() {
                    let why = q.exception().map_or("None (the trigger finished)".to_string(), |e| e.to_string());
                    self.events.push(format!("onQueryTerminated: id={}, runId={}, exception={why}", q.id, q.run_id));
                }
                if results.is_empty() {
                    return;
                }
                let after = state_keys(q);
                self.evicted = before.difference(&after).cloned().collect();
                if results.iter().any(|b| b.input_rows > 0) || !q.has_new_data() {
                    self.pending.clear();
                }
                self.batches.extend(results.into_iter().map(|b| (step, b)));
            }
        }
    }

    fn base_day_us(&self) -> i64 {
        let day = 86_400_000_000i64;
        let last = self.pending.last().map(|(_, r)| r.clone()).or_else(|| {
            self.batches.iter().rev().find_map(|(_, b)| b.input_by_source().values().flatten().last().cloned())
        });
        let from_rows = last.and_then(|r| r.iter().find_map(|v| if let Value::Timestamp(t) = v { Some(*t) } else { None }));
        let from_steps = self.scenario.steps.iter().flat_map(|s| s.values().flatten()).find_map(|r| {
            r.values().find_map(|v| v.as_str().and_then(|s| parse_timestamp_us(s).ok()))
        });
        from_steps.or(from_rows).map_or(parse_timestamp_us("2026-01-01T00:00:00Z").unwrap_or(0), |t| t.div_euclid(day) * day)
    }

    /// The streaming sources and their columns.
    pub fn sources(&self) -> Vec<SourceView> {
        self.scenario
            .sources
            .iter()
            .map(|(name, def)| SourceView {
                name: name.clone(),
                columns: def.schema.clone(),
                time_column: def.schema.iter().find(|(_, t)| t == "timestamp").map(|(n, _)| n.clone()),
                kind: def.kind.clone().unwrap_or_else(|| "memory".into()),
            })
            .collect()
    }

    /// The session as a scenario: the same sources, query and mode, and one step per group
    /// of events that a trigger consumed, so real Spark can replay it.
    pub fn to_scenario(&self) -> Scenario {
        let mut s = self.scenario.clone();
        s.query = self.query_text.clone();
        s.output_mode = self.mode.as_str().into();
        s.expected = None;
        let mut steps = Vec::new();
        let mut current: BTreeMap<String, Vec<Map<String, Json>>> = BTreeMap::new();
        for a in &self.actions {
            match a {
                Action::Add { source, rows } => {
                    let schema = self.scenario.sources.get(source).and_then(|d| streamlab_engine::scenario::typed_schema(&d.schema).ok()).unwrap_or_default();
                    for r in rows {
                        let obj: Map<String, Json> = schema.iter().zip(r).map(|((n, _), v)| (n.clone(), value_to_json(v))).collect();
                        current.entry(source.clone()).or_default().push(obj);
                    }
                }
                Action::Trigger | Action::RunAll | Action::Crash(_) => steps.push(std::mem::take(&mut current)),
                Action::Restart(_) | Action::Wait(_) => {}
            }
        }
        if !current.is_empty() {
            steps.push(current);
        }
        s.steps = steps;
        s
    }

    /// The session as a runnable PySpark 4.3 script (`streamlab_engine::export`): the file name
    /// (`<scenario id>.py`) and the script text. The lab's trigger goes with it.
    ///
    /// # Errors
    /// The engine's message when a source's definition cannot be exported.
    pub fn to_pyspark(&self) -> Result<(String, String), String> {
        let scenario = self.to_scenario();
        let options = streamlab_engine::export::ExportOptions { trigger: self.trigger.unwrap_or_default() };
        let script = streamlab_engine::export::pyspark_script(&scenario, options).map_err(|e| e.to_string())?;
        let stem = if scenario.id.is_empty() { "streamlab-session" } else { scenario.id.as_str() };
        Ok((format!("{stem}.py"), script))
    }

    /// Everything the page shows.
    pub fn view(&self) -> LabView {
        let output: Vec<Attr> = self.query.as_ref().map(|q| q.plan().output.clone()).unwrap_or_default();
        let catalog = self.scenario.catalog().ok();
        let delays = catalog
            .as_ref()
            .and_then(|c| compile(&self.query_text, c).ok())
            .map(|c| c.watermark_delay_spans.iter().map(|s| self.query_text[s.start + 1..s.end - 1].to_string()).collect())
            .unwrap_or_default();
        let has_watermark = self.query.as_ref().is_some_and(|q| q.plan().has_watermark());
        let day = self.base_day_us();
        LabView {
            title: self.scenario.title.clone(),
            query_text: self.query_text.clone(),
            mode: self.mode,
            error: self.error.clone(),
            sources: self.sources(),
            pending: self.pending.iter().map(|(s, r)| (s.clone(), r.iter().map(|v| display_cell(v, day)).collect())).collect(),
            output_columns: output.iter().map(|a| format!("{}: {}", a.name, spark_type_name(&a.data_type))).collect(),
            batches: self.batches.iter().map(|(step, b)| batch_view(*step, b, &output, day)).collect(),
            state: self.query.as_ref().map(|q| state_tables(q, &self.evicted, day)).unwrap_or_default(),
            watermark: self.query.as_ref().filter(|_| has_watermark).map(|q| format_timestamp_us(q.current_watermark_ms() * 1000)),
            day: format_timestamp_us(day).get(..10).unwrap_or_default().to_string(),
            delays,
            no_data_batch_due: self.query.as_ref().is_some_and(StreamingQuery::wants_no_data_batch),
            steps_done: self.next_step,
            steps_total: self.scenario.steps.len(),
            statics: catalog
                .map(|c| {
                    c.statics
                        .iter()
                        .map(|(n, (schema, rows))| {
                            (n.clone(), schema.iter().map(|(c, _)| c.clone()).collect(), rows.iter().map(|r| r.iter().map(display_value).collect()).collect())
                        })
                        .collect()
                })
                .unwrap_or_default(),
            plan: self.query.as_ref().map(|q| q.plan().to_string()),
            recovery: self.query.as_ref().map(|q| self.recovery_view(q, day)),
            processing_clock_ms: self.processing_clock_ms(),
        }
    }
}

impl Session {
    /// The time picture ([`crate::picture`]): every batch so far with its input rows and the
    /// engine's explanation, the pending rows, and the state as it is now.
    pub fn picture(&self) -> crate::picture::Picture {
        use crate::picture::{build, Band, BatchInput, SourceInfo};
        let sources: Vec<SourceInfo> = self
            .sources()
            .into_iter()
            .map(|s| SourceInfo {
                time_index: s.time_column.as_ref().and_then(|t| s.columns.iter().position(|(c, _)| c == t)),
                columns: s.columns.into_iter().map(|(c, _)| c).collect(),
                name: s.name,
            })
            .collect();
        let batches: Vec<BatchInput> = self
            .batches
            .iter()
            .map(|(_, b)| BatchInput {
                band: Band {
                    batch_id: b.batch_id,
                    no_data: b.no_data,
                    input_rows: b.input_rows,
                    watermark_ms: b.watermark_ms,
                    emitted_rows: b.rows.len() as u64,
                    dropped_rows: b.state.iter().map(|s| s.num_rows_dropped_by_watermark).sum(),
                    removed_rows: b.state.iter().map(|s| s.num_rows_removed).sum(),
                    explanation: b.explanation.clone(),
                },
                input: if b.explanation.is_some() { Vec::new() } else { b.input_by_source().into_iter().collect() },
                output: b.rows.clone(),
            })
            .collect();
        let has_watermark = self.query.as_ref().is_some_and(|q| q.plan().has_watermark());
        let state = self.query.as_ref().map(|q| q.state_tables(&self.evicted)).unwrap_or_default();
        let next = self.query.as_ref().filter(|_| has_watermark).map(StreamingQuery::current_watermark_ms);
        build(&sources, &batches, &self.pending, &state, next, self.base_day_us())
    }
}

/// A cell as the lab shows it: times on the scenario's day as `12:07` (`12:07:30`,
/// `12:04:59.999999`), other days in full; windows as `[12:00, 12:10)`.
pub fn display_cell(v: &Value, base_day_us: i64) -> String {
    match v {
        Value::Timestamp(t) => {
            let day = 86_400_000_000i64;
            if t.div_euclid(day) * day != base_day_us {
                return format_timestamp_us(*t);
            }
            let rem = t.rem_euclid(day);
            let (h, m, s, us) = (rem / 3_600_000_000, rem / 60_000_000 % 60, rem / 1_000_000 % 60, rem % 1_000_000);
            match (s, us) {
                (0, 0) => format!("{h:02}:{m:02}"),
                (_, 0) => format!("{h:02}:{m:02}:{s:02}"),
                _ => format!("{h:02}:{m:02}:{s:02}.{us:06}"),
            }
        }
        Value::Struct(f) if f.len() == 2 => format!("[{}, {})", display_cell(&f[0], base_day_us), display_cell(&f[1], base_day_us)),
        other => display_value(other),
    }
}

impl Session {
    fn recovery_view(&self, q: &StreamingQuery, day: i64) -> RecoveryView {
        let wm = |ms: i64| display_cell(&Value::Timestamp(ms * 1000), day);
        let cp = &q.checkpoint;
        let sink_rows = q
            .sink
            .written()
            .iter()
            .zip(q.sink.duplicate_flags())
            .map(|(w, duplicate)| {
                SinkRowView {
                    batch_id: w.batch_id,
                    attempt: w.attempt,
                    cells: w.row.iter().map(|v| display_cell(v, day)).collect(),
                    visible: w.visible,
                    duplicate,
                }
            })
            .collect();
        RecoveryView {
            sink: q.sink.kind(),
            sink_from_query: q.sink_named_in_query(),
            query_id: q.id.clone(),
            run_id: q.run_id.clone(),
            runs: cp.runs,
            offset_log: cp
                .offsets
                .iter()
                .map(|o| {
                    let offs: Vec<String> = o.offsets.iter().map(|x| x.map_or("-".into(), |v| v.to_string())).collect();
                    (o.batch_id, offs.join(", "), wm(o.batch_watermark_ms))
                })
                .collect(),
            commit_log: cp.commits.iter().map(|c| (c.batch_id, wm(c.next_batch_watermark_ms))).collect(),
            sink_rows,
            duplicates: q.sink.duplicates(),
            crashed: self.crash.clone(),
            active: q.is_active(),
            status: if !q.is_active() {
                "Stopped".into()
            } else if q.has_new_data() {
                "Waiting for next trigger (new data available)".into()
            } else if q.wants_no_data_batch() {
                "Waiting for next trigger (a no-data batch is due)".into()
            } else {
                "Waiting for data to arrive".into()
            },
            trigger: q.trigger.describe(),
            recent_progress: self.batches.len().min(100),
            events: self.events.clone(),
            name: q.name.clone(),
            checkpoint_set: self.checkpoint_set,
            temporary: self.temporary,
            sink_log: q.sink.log_text(&q.plan().output.iter().map(|a| a.name.clone()).collect::<Vec<_>>()),
        }
    }
}

fn batch_view(step: Option<usize>, b: &BatchResult, output: &[Attr], day: i64) -> BatchView {
    BatchView {
        id: b.batch_id,
        step,
        input_rows: b.input_rows,
        watermark: b.watermark_ms.map(|w| display_cell(&Value::Timestamp(w * 1000), day)),
        watermark_ms: b.watermark_ms,
        late_watermark: display_cell(&Value::Timestamp(b.late_watermark_ms * 1000), day),
        late_watermark_ms: b.late_watermark_ms,
        no_data: b.no_data,
        rows: b.rows.iter().map(|r| r.iter().map(|v| display_cell(v, day)).collect()).collect(),
        rows_json: b.rows.iter().map(|r| row_to_json(r, output).to_string()).collect(),
        metrics: b
            .state
            .iter()
            .map(|s| MetricView {
                operator: s.operator_name.clone(),
                total: s.num_rows_total,
                updated: s.num_rows_updated,
                removed: s.num_rows_removed,
                dropped: s.num_rows_dropped_by_watermark,
            })
            .collect(),
        progress_json: b.progress.to_json(),
    }
}

/// (operator id, row id) of every state row (the engine decides what a row is).
fn state_keys(q: &StreamingQuery) -> BTreeSet<(usize, Row)> {
    q.state_row_ids()
}

/// The engine's labelled state tables as text: cells displayed on the scenario's day, labels
/// as the panel's row styles, the join notes in both languages.
fn state_tables(q: &StreamingQuery, evicted: &[(usize, Row)], day: i64) -> Vec<StateTableView> {
    let cell = |c: &StateCell| match c {
        StateCell::Value(v) => display_cell(v, day),
        StateCell::Gone => "—".to_string(),
        StateCell::SessionFrom(t) => format!("[{}, …)", display_cell(&Value::Timestamp(*t), day)),
        StateCell::Matched(true) => "✓".to_string(),
        StateCell::Matched(false) => "—".to_string(),
        StateCell::Blank => String::new(),
        StateCell::Called(Some(CallReason::Data)) => "▶ rows".to_string(),
        StateCell::Called(Some(CallReason::TimedOut)) => "⏰ hasTimedOut".to_string(),
        StateCell::Called(None) => "—".to_string(),
    };
    let status = |l: StateRowLabel| match l {
        StateRowLabel::Open { .. } => RowStatus::Open,
        StateRowLabel::Closing { .. } => RowStatus::Closing,
        StateRowLabel::Evicted => RowStatus::Evicted,
        StateRowLabel::Kept(KeptReason::CompleteMode) => RowStatus::Kept,
        StateRowLabel::Kept(KeptReason::NoWatermark | KeptReason::Counter) => RowStatus::NoWatermark,
        StateRowLabel::Kept(KeptReason::NoTimeout) => RowStatus::NoTimeout,
    };
    let note = |n: Option<StateNote>| match n {
        None => Default::default(),
        Some(StateNote::NoStateWatermark) => ("no state watermark: rows stay forever".to_string(), "상태 워터마크 없음: 행이 영원히 남음".to_string()),
        Some(StateNote::KeyWatermark) => ("state watermark on the join key: key <= watermark".to_string(), "조인 키의 상태 워터마크: 키 <= 워터마크".to_string()),
        Some(StateNote::ValueWatermark { offset_ms }) => {
            let sign = if offset_ms < 0 { "−" } else { "+" };
            let d = streamlab_engine::types::format_duration_us(offset_ms.unsigned_abs().saturating_mul(1000).min(i64::MAX as u64) as i64);
            (format!("state watermark: event time <= watermark {sign} {d}"), format!("상태 워터마크: 이벤트 시간 <= 워터마크 {sign} {d}"))
        }
    };
    q.state_tables(evicted)
        .into_iter()
        .map(|t| StateTableView {
            operator: t.operator,
            columns: t.columns,
            rows: t.rows.iter().map(|r| (r.cells.iter().map(cell).collect(), status(r.label))).collect(),
            note: note(t.note),
        })
        .collect()
}

/// Reads one event-form field: `12:07` / `12:07:30` (on the scenario's day) for timestamps,
/// otherwise the text as Spark's JSON reader would read that value (a number, `true`, or a
/// string). Empty text and `null` are NULL.
///
/// # Errors
/// A time of day that does not exist, or a value the engine cannot reproduce.
pub fn parse_field(text: &str, t: &DataType, base_day_us: i64) -> Result<Value, String> {
    read_field(text, t, base_day_us).map(|(v, _)| v)
}

/// [`parse_field`], with a note when Spark's reader turns the value into NULL.
///
/// # Errors
/// As [`parse_field`].
pub fn read_field(text: &str, t: &DataType, base_day_us: i64) -> Result<(Value, Option<String>), String> {
    use streamlab_engine::scenario::{read_json_value, JsonRead};
    if text.is_empty() || text.eq_ignore_ascii_case("null") {
        return Ok((Value::Null, None));
    }
    if let DataType::Timestamp(..) = t {
        // `12:07` or `12:07:30` on the scenario's day.
        let parts: Vec<&str> = text.split(':').collect();
        if text.len() <= 12 && (2..=3).contains(&parts.len()) && !text.contains('-') {
            let nums: Option<Vec<f64>> = parts.iter().map(|p| p.trim().parse::<f64>().ok()).collect();
            if let Some(n) = nums {
                let (h, m, s) = (n[0], n[1], n.get(2).copied().unwrap_or(0.0));
                if (0.0..24.0).contains(&h) && (0.0..60.0).contains(&m) && (0.0..60.0).contains(&s) && h.fract() == 0.0 && m.fract() == 0.0 {
                    return Ok((Value::Timestamp(base_day_us + ((h * 3600.0 + m * 60.0) * 1e6) as i64 + (s * 1e6).round() as i64), None));
                }
            }
            return Err(format!("'{text}' is not a time of day: write 12:07 or 12:07:30"));
        }
    }
    // The text is the JSON value Spark would read: a number or boolean as typed, anything
    // else as a string (a string column takes the text as it is).
    let json = match t {
        DataType::Utf8 => Json::String(text.to_string()),
        _ => match serde_json::from_str::<Json>(text) {
            Ok(j @ (Json::Number(_) | Json::Bool(_))) => j,
            _ => Json::String(text.to_string()),
        },
    };
    match read_json_value(&json, t) {
        JsonRead::Value(v) => Ok((v, None)),
        JsonRead::Null(why) => Ok((Value::Null, Some(why))),
        JsonRead::Unsupported(m) => Err(m),
    }
}
