//! `LabSession`: the lab's one boundary to the engine (no component calls the engine). Plain
//! Rust, no Leptos, so native tests can drive it the way the page does.
//!
//! The session keeps what the learner did (added rows, triggers) as a list of [`Action`]s.
//! Any change to the query, output mode or watermark delay rebuilds the `StreamingQuery` and
//! replays every action: the engine is deterministic, so the lab shows at once what Spark
//! would have done with the new query over the same input. Nothing the learner did is lost,
//! even while the query text does not compile.
//!
//! # Layout
//! This file is the orchestration (construction, settings, triggers, [`LabSession::view`]);
//! `replay` holds the action log and its replay, `view` the snapshot types, `format` the
//! engine's values as text, `input` events in, `load_save` scenario JSON and export,
//! `recovery` the sink, crashes and restarts, `picture` the time picture's gathering,
//! [`compare`] the three output modes side by side, [`timeline`] the lab as of a past batch.

use streamlab_engine::analysis::Attr;
use streamlab_engine::scenario::display_value;
use streamlab_engine::streaming::{BatchResult, StreamingQuery};
use streamlab_engine::types::{format_timestamp_us, parse_timestamp_us, spark_type_name, Row, Value};

pub mod compare;
mod delay_memo;
mod format;
mod input;
mod lens_rules;
mod load_save;
mod picture;
mod recovery;
mod replay;
pub mod timeline;
mod view;

// The engine's plain types the page names (a mode button, the trigger, sink and crash
// pickers, a scenario to open, a mark's fate): components take them from here, never from
// the engine (`tests/boundary.rs` checks).
pub use streamlab_engine::execution::explain::FateKind;
pub use streamlab_engine::scenario::Scenario;
pub use streamlab_engine::streaming::{CrashPoint, OutputMode, SinkKind, Trigger};

pub use crate::lab::cells::{clock_text, display_cell, display_time, state_cell_text};
use format::{error_view, state_tables};
pub use input::{next_unused, parse_field, read_field};
pub use lens_rules::engine_rules;
pub use delay_memo::MEMO_MAX_ROWS;
pub use replay::Action;
pub(crate) use replay::adds_cell;
pub use view::{BatchView, ErrorView, LabView, MetricView, ReadView, RecoveryView, RowStatus, SinkRowView, SourceView, StateTableView};

/// The query text compiled once for both the start and what the lab reads off the text
/// ([`LabSession::read_text`]).
#[derive(Debug, Clone)]
struct CompiledText {
    /// The scenario's sources made a catalog (else `compiled` is that error).
    catalog_ok: bool,
    compiled: Result<streamlab_engine::frontend::Evaluated, streamlab_engine::error::Error>,
    traced: streamlab_engine::frontend::Traced,
}

/// One learner's lab: a scenario, the learner's actions and the `StreamingQuery` built from
/// them, with everything the page shows derived from it ([`LabSession::view`]). Named for the
/// lab, not for Spark: it is neither a `SparkSession` nor a session window
/// (`session_window`), which the engine models separately.
#[derive(Debug, Clone)]
pub struct LabSession {
    scenario: Scenario,
    query_text: String,
    mode: OutputMode,
    actions: Vec<Action>,
    next_step: usize,
    query: Option<StreamingQuery>,
    /// The output mode the query text sets (`.outputMode("update")`), which wins over `mode`.
    text_mode: Option<OutputMode>,
    /// The text starts its query with no `.outputMode(...)`: `text_mode` is Spark's default.
    text_mode_default: bool,
    error: Option<ErrorView>,
    batches: Vec<(Option<usize>, BatchResult)>,
    pending: Vec<(String, Row)>,
    evicted: Vec<(usize, Row)>,
    /// The state's row ids after the last batch, with the (run id, batches run) they were
    /// read at: the next batch's "before" while the query has run nothing since, so each
    /// batch reads its state's ids once, not twice.
    state_ids: Option<((String, usize), std::collections::BTreeSet<(usize, Row)>)>,
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
    /// Processing time added by [`Action::Wait`]s so far, ms ([`LabSession::clock_now`]).
    waited_ms: i64,
    /// Batch-running actions (trigger, run, crash) replayed so far: one second each on the
    /// clock ([`LabSession::clock_now`]).
    runs: i64,
    /// Replay stops once this batch id has run ([`LabSession::view_as_of`]).
    stop_after: Option<u64>,
    /// Each `withWatermark` delay as written in the query text (`LabView::delays`), found
    /// when the text changes rather than by compiling it again for every view.
    delays: Vec<String>,
    /// Where each of [`LabSession::delays`] is in the text, its quotes included.
    delay_spans: Vec<streamlab_engine::frontend::Span>,
    /// The event-time column of each of [`LabSession::delays`] (`LabView::delay_columns`).
    delay_columns: Vec<String>,
    /// A text the slider checked by compiling it, kept for the replay that follows: one
    /// compile per slider step instead of four.
    compiled_next: Option<(String, CompiledText)>,
    /// The reader calls of the text that read one of the lab's streams (`LabView::reads`),
    /// found with the delays.
    reads: Vec<streamlab_engine::frontend::SourceRead>,
    /// When the text names its own sink: whether the program gives it a checkpoint location
    /// (`LabView::checkpoint_from_text`), found with the delays.
    text_checkpoint: Option<bool>,
    /// The sink the text names (`.writeStream.format('parquet')`), found with the delays.
    text_sink: Option<SinkKind>,
    /// What the program's `print(...)` calls wrote (`LabView::printed`), found with the delays.
    printed: Vec<String>,
    /// The `foreachBatch(f)` / `foreach(writer)` calls whose Python is not run
    /// (`LabView::not_run`), found with the delays.
    not_run: Vec<(String, String)>,
    /// The exam-lens rules the current query, mode and sink meet ([`engine_rules`]).
    lens: Vec<&'static str>,
    /// `batches` as the batch list shows them, made once per batch as it runs (a step with
    /// 10,000 rows in an earlier batch does not write them out again).
    batch_views: Vec<std::sync::Arc<BatchView>>,
    /// The sessions other delays of the slider give, kept while nothing else changes.
    delay_memo: delay_memo::DelayMemo,
}

impl LabSession {
    /// A session over `scenario`, with nothing run yet.
    pub fn from_scenario(scenario: Scenario) -> LabSession {
        let mode = OutputMode::parse(&scenario.output_mode).unwrap_or(OutputMode::Append);
        let mut s = LabSession {
            query_text: scenario.query.clone(),
            mode,
            scenario,
            actions: Vec::new(),
            next_step: 0,
            query: None,
            text_mode: None,
            text_mode_default: false,
            error: None,
            batches: Vec::new(),
            pending: Vec::new(),
            evicted: Vec::new(),
            state_ids: None,
            sink_kind: SinkKind::Memory,
            crash: None,
            base_text: String::new(),
            trigger: None,
            events: Vec::new(),
            waited_ms: 0,
            runs: 0,
            checkpoint_set: true,
            temporary: false,
            stop_after: None,
            delays: Vec::new(),
            delay_spans: Vec::new(),
            delay_columns: Vec::new(),
            compiled_next: None,
            reads: Vec::new(),
            text_checkpoint: None,
            text_sink: None,
            printed: Vec::new(),
            not_run: Vec::new(),
            lens: Vec::new(),
            batch_views: Vec::new(),
            delay_memo: delay_memo::DelayMemo::default(),
        };
        s.base_text = s.query_text.clone();
        s.rebuild();
        s
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

    /// Compiles the query again and replays everything, as after an edit: for a change outside
    /// the session, such as the time-zone database arriving ([`install_time_zones`]).
    pub fn replay_all(&mut self) {
        self.rebuild();
    }

    /// Replaces the query text and replays everything.
    pub fn set_query(&mut self, text: &str) {
        // An edit in the editor is the query of every run.
        self.query_text = text.to_string();
        self.base_text = text.to_string();
        for a in &mut self.actions {
            if let Action::Restart { query } = a {
                *query = None;
            }
        }
        self.rebuild();
    }

    /// Sets a source's kind (`memory`, `file` with `maxFilesPerTrigger`, `socket`, `kafka` with
    /// two partitions, `rate`) and replays.
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

    /// Picks the trigger and replays everything with it.
    pub fn set_trigger(&mut self, trigger: Trigger) {
        self.trigger = Some(trigger);
        self.rebuild();
    }

    /// The trigger picker's option (`default`, `processingTime`, `once`, `availableNow`,
    /// `continuous`, as [`picker_trigger`] reads them) for the trigger the query runs with: the
    /// one written in the text, else the one picked in the lab, else the default.
    pub fn trigger_choice(&self) -> &'static str {
        match self.query.as_ref().map(|q| q.trigger).or(self.trigger).unwrap_or_default() {
            Trigger::Default => "default",
            Trigger::ProcessingTime { .. } => "processingTime",
            Trigger::Once => "once",
            Trigger::AvailableNow => "availableNow",
            Trigger::Continuous { .. } => "continuous",
        }
    }

    /// The trigger the query runs with, as the engine describes it (`processingTime='10000
    /// ms'`): what the trigger menu shows when the text sets it.
    pub fn trigger_description(&self) -> String {
        self.query.as_ref().map(|q| q.trigger).or(self.trigger).unwrap_or_default().describe()
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
        let text = self.text_with_delay(index, delay)?;
        // A delay replayed before (or made ahead while the page was idle) is kept: a swap.
        if self.swap_in_kept(&text) {
            return Ok(());
        }
        // A delay Spark refuses (a negative one) leaves the last good query running.
        self.compile_for_delay(&text)?;
        self.replay_keeping(&text);
        Ok(())
    }

    /// True if a trigger now would run a batch (new input, or a no-data batch is due).
    pub fn batch_due(&self) -> bool {
        self.query.as_ref().is_some_and(|q| q.has_new_data() || q.wants_no_data_batch())
    }

    /// One trigger: at most one micro-batch.
    pub fn trigger(&mut self) {
        self.apply(Action::Trigger);
    }

    /// Lets `ms` of processing time pass without a trigger (the "wait" button of a
    /// processing-time timeout); a wait that is not positive or moves the clock past year 9999
    /// is refused.
    ///
    /// # Errors
    /// A message saying what is wrong with `ms`.
    pub fn wait(&mut self, ms: i64) -> Result<(), String> {
        self.perform(Action::Wait { ms })
    }

    /// The query's processing-time clock (ms), when its state function uses
    /// `ProcessingTimeTimeout`.
    pub fn processing_clock_ms(&self) -> Option<i64> {
        let q = self.query.as_ref()?;
        q.uses_processing_time_timeout().then(|| q.clock_ms().max(self.clock_now()))
    }

    /// The lab's processing-time clock (ms) for the next trigger: each trigger (a step's run,
    /// a single trigger, a crash) runs one second after the one before, the first at 0, and
    /// "Wait" adds its time. Adding events takes no time. So step k of a scenario runs at k s,
    /// as in the plain run (`scenario::run`), and "Wait 10 s" moves the clock by exactly 10 s.
    fn clock_now(&self) -> i64 {
        self.runs.saturating_mul(streamlab_engine::types::time::MILLIS_PER_SECOND).saturating_add(self.waited_ms)
    }

    /// Forgets every action and starts the scenario again.
    pub fn reset(&mut self) {
        self.actions.clear();
        self.next_step = 0;
        self.rebuild();
    }

    fn base_day_us(&self) -> i64 {
        let day = 86_400_000_000i64;
        let from_steps = self.scenario.steps.iter().flat_map(|s| s.values().flatten()).find_map(|r| {
            r.values().find_map(|v| v.as_str().and_then(|s| parse_timestamp_us(s).ok()))
        });
        // The rows are read only when the steps have no time, and only the last one is decoded:
        // this runs on every repaint.
        let from_rows = || {
            let last = self.pending.last().map(|(_, r)| r.clone()).or_else(|| {
                self.batches.iter().rev().find_map(|(_, b)| b.last_input_row())
            });
            last.and_then(|r| r.iter().find_map(|v| if let Value::Timestamp(t) = v { Some(*t) } else { None }))
        };
        // A rate source's rows carry the lab's processing-time clock, which starts at the
        // epoch: its day is known before its first batch (else batch 0's rows, made before
        // any row existed, were written in full and the later ones short).
        let rate = || self.scenario.sources.values().any(|d| d.kind.as_deref() == Some("rate")).then_some(0);
        from_steps.or_else(rate).or_else(from_rows).map_or(parse_timestamp_us("2026-01-01T00:00:00Z").unwrap_or(0), |t| t.div_euclid(day) * day)
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

    /// The text's reader calls that read a lab stream of another kind than the format they
    /// name, or give a schema ([`LabView::reads`]).
    fn read_views(&self) -> Vec<ReadView> {
        let sources = self.sources();
        self.reads
            .iter()
            .filter_map(|r| {
                let src = sources.iter().find(|s| s.name == r.stream)?;
                let kind = source_kind_of_format(&r.format);
                // Options of the code that the lab's stream of that kind takes from the example.
                let lab_options = self.scenario.sources.get(&r.stream).map(|d| &d.options);
                let options_not_applied: Vec<(String, String, String)> = if kind == Some(src.kind.as_str()) {
                    streamlab_engine::streaming::SourceKind::reader_options(&src.kind)
                        .iter()
                        .filter_map(|(key, default)| {
                            let (_, code) = r.options.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key))?;
                            let lab = lab_options.and_then(|o| o.get(*key)).map_or_else(|| default.to_string(), |v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
                            (code != &lab).then(|| (key.to_string(), code.clone(), lab))
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                if kind == Some(src.kind.as_str()) && !r.schema_given && options_not_applied.is_empty() {
                    return None;
                }
                let call = self.query_text.get(r.span.start..r.span.end).map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|t| t.chars().count() <= 90);
                Some(ReadView {
                    call: call.unwrap_or_else(|| format!("spark.readStream.format(\"{}\")….load()", r.format)),
                    stream: r.stream.clone(),
                    format: r.format.clone(),
                    stream_kind: src.kind.clone(),
                    columns: src.columns.iter().map(|(c, _)| c.clone()).collect(),
                    kind,
                    schema_given: r.schema_given,
                    options_not_applied,
                    // Not the example this lab already is.
                    example: kind.and_then(|k| crate::lab::presets::example_with_source(k, &r.options)).filter(|id| *id != self.scenario.id),
                })
            })
            .collect()
    }

    /// Finds [`LabSession::delays`] in the current query text (none when it does not compile)
    /// and the exam-lens rules the query, its output mode and its sink meet.
    fn find_delays(&mut self) {
        let compiled = self.compile_text();
        self.read_text(compiled);
    }

    /// The current query text compiled, with what the program did (a scenario whose sources
    /// do not make a catalog gives that error and nothing traced).
    fn compile_text(&mut self) -> CompiledText {
        if let Some((text, compiled)) = self.compiled_next.take() {
            if text == self.query_text {
                return compiled;
            }
        }
        match self.scenario.catalog() {
            Ok(c) => {
                let (compiled, traced) = streamlab_engine::frontend::compile_traced(&self.query_text, &c);
                CompiledText { catalog_ok: true, compiled, traced }
            }
            Err(e) => CompiledText { catalog_ok: false, compiled: Err(e), traced: Default::default() },
        }
    }

    /// [`LabSession::find_delays`] on the text as [`LabSession::compile_text`] compiled it.
    fn read_text(&mut self, CompiledText { catalog_ok, compiled, traced }: CompiledText) {
        let text = &self.query_text;
        // The reader calls also when the program fails: often on what the stream read lacks.
        self.lens = if catalog_ok { lens_rules::rules_of(&compiled, self.mode, Some(self.sink_kind)) } else { Vec::new() };
        let session_location = self.session_checkpoint_location();
        self.text_checkpoint = compiled.as_ref().ok().filter(|c| c.sink.is_some()).map(|c| c.sets_checkpoint_location() || session_location);
        self.text_sink = compiled.as_ref().ok().and_then(|c| c.sink);
        self.delay_spans = compiled.as_ref().map(|c| c.watermark_delay_spans.clone()).unwrap_or_default();
        self.delay_columns = compiled.as_ref().map(|c| c.watermark_delay_columns.clone()).unwrap_or_default();
        self.delays = compiled
            .ok()
            .map(|c| c.watermark_delay_spans.iter().filter_map(|s| text.get(s.start + 1..s.end.saturating_sub(1))).map(str::to_string).collect())
            .unwrap_or_default();
        self.reads = traced.reads;
        self.printed = traced.printed;
        self.not_run = traced.not_run.into_iter().map(|n| (n.call, n.function)).collect();
    }

    /// The scenario's session conf sets `spark.sql.streaming.checkpointLocation`: a location
    /// for every sink, the text's own too.
    fn session_checkpoint_location(&self) -> bool {
        self.scenario.conf.contains_key("spark.sql.streaming.checkpointLocation")
    }

    /// Every batch's `StreamingQueryProgress` as JSON, oldest first ([`LabView::progress_json`]
    /// is only the last batch's: the page shows no other, and writing a hundred of them on every
    /// slider step cost more than drawing them).
    pub fn progress_jsons(&self) -> Vec<String> {
        self.batches.iter().map(|(_, b)| b.progress.to_json()).collect()
    }

    /// Everything the page shows.
    pub fn view(&self) -> LabView {
        let output: Vec<Attr> = self.query.as_ref().map(|q| q.plan().output.clone()).unwrap_or_default();
        let catalog = self.scenario.catalog().ok();
        let has_watermark = self.query.as_ref().is_some_and(|q| q.plan().has_watermark());
        let day = self.base_day_us();
        let recovery = self.query.as_ref().map(|q| self.recovery_view(q, day));
        let failed_batch = recovery.as_ref().filter(|_| self.error.as_ref().is_some_and(|e| e.stage.as_deref() == Some("run"))).and_then(|r| {
            let (id, _, _) = r.offset_log.last()?;
            (!r.commit_log.iter().any(|(c, _)| c == id)).then_some(*id)
        });
        LabView {
            title: self.scenario.title.clone(),
            query_text: self.query_text.clone(),
            // The text's `.outputMode(...)` wins over the lab's mode switch, as in Spark.
            mode: self.text_mode.unwrap_or(self.mode),
            mode_set_in_query: self.text_mode.is_some(),
            mode_default_in_query: self.text_mode.is_some() && self.text_mode_default,
            error: self.error.clone(),
            sources: self.sources(),
            pending: self.pending.iter().map(|(s, r)| (s.clone(), r.iter().map(|v| display_cell(v, day)).collect())).collect(),
            output_columns: output.iter().map(|a| format!("{}: {}", a.name, spark_type_name(&a.data_type))).collect(),
            batches: self.batch_views.clone(),
            state: self.query.as_ref().map(|q| state_tables(q, &self.evicted, day)).unwrap_or_default(),
            watermark: self.query.as_ref().filter(|_| has_watermark).map(|q| format_timestamp_us(q.current_watermark_ms() * 1000)),
            watermark_ms: self.query.as_ref().filter(|_| has_watermark).map(StreamingQuery::current_watermark_ms),
            day: format_timestamp_us(day).get(..10).unwrap_or_default().to_string(),
            session_time_zone: self.query.as_ref().map(StreamingQuery::session_time_zone).filter(|z| !z.is_utc()).map(|z| z.id().to_string()),
            delays: self.delays.clone(),
            delay_columns: self.delay_columns.clone(),
            reads: self.read_views(),
            checkpoint_from_text: self.text_checkpoint,
            sink: self.text_sink.unwrap_or(self.sink_kind),
            sink_from_text: self.text_sink.is_some(),
            trigger_from_text: self.query.as_ref().is_some_and(|q| q.trigger_set_in_query()),
            printed: self.printed.clone(),
            not_run: self.not_run.clone(),
            lens: self.lens.iter().map(|r| r.to_string()).collect(),
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
            recovery,
            processing_clock_ms: self.processing_clock_ms(),
            progress_json: self.batches.last().map(|(_, b)| b.progress.to_json()),
            failed_batch,
        }
    }
}

/// Installs the time-zone database the app fetched (`prerendered/tzdb.json`), which region ids
/// (`Asia/Seoul`) need in the browser; then [`LabSession::replay_all`] runs a query that named
/// one again.
///
/// # Errors
/// What is wrong with the file ([`streamlab_engine::types::tzdb::install`]).
pub fn install_time_zones(json: &str) -> Result<(), String> {
    streamlab_engine::types::tzdb::install(json)
}

/// The lab's source kind (`SourceView::kind`) a reader format stands for: `rate`, `socket`
/// and `kafka` are themselves; the file formats (`json`, `csv`, `parquet` — a bare `load()`'s
/// default —, `text`, `orc`, `xml`, `avro`) are a `file` source; any other has none here.
pub fn source_kind_of_format(format: &str) -> Option<&'static str> {
    match format.to_ascii_lowercase().as_str() {
        "rate" => Some("rate"),
        "socket" => Some("socket"),
        "kafka" => Some("kafka"),
        "json" | "csv" | "parquet" | "text" | "orc" | "xml" | "avro" => Some("file"),
        _ => None,
    }
}

/// The lines of `text` around the error's byte span `a..b` that the error box shows: up to
/// `context` lines before and after the lines it covers, as (before, the span, after), with
/// `…` on a line of its own where lines were left out. A pasted 36-line program showed whole,
/// its "What to do" a long scroll away on a phone.
pub fn error_excerpt(text: &str, a: usize, b: usize, context: usize) -> (String, String, String) {
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (a, b) = (floor(a), floor(b.max(a)));
    let mut start = text[..a].rfind('\n').map_or(0, |i| i + 1);
    for _ in 0..context {
        if start == 0 {
            break;
        }
        start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    let mut end = text[b..].find('\n').map_or(text.len(), |i| b + i);
    for _ in 0..context {
        if end >= text.len() {
            break;
        }
        end = text[end + 1..].find('\n').map_or(text.len(), |i| end + 1 + i);
    }
    let before = format!("{}{}", if start > 0 { "…\n" } else { "" }, &text[start..a]);
    let after = format!("{}{}", &text[b..end], if end < text.len() && !text[end..].trim().is_empty() { "\n…" } else { "" });
    (before, text[a..b].to_string(), after)
}

/// The trigger the lab's picker means by `choice` (its `<option>` values: `processingTime`
/// every 2 s, `once`, `availableNow`, `continuous` every 1 s; anything else the default).
pub fn picker_trigger(choice: &str) -> Trigger {
    match choice {
        "processingTime" => Trigger::ProcessingTime { interval_ms: 2_000 },
        "once" => Trigger::Once,
        "availableNow" => Trigger::AvailableNow,
        "continuous" => Trigger::Continuous { interval_ms: 1_000 },
        _ => Trigger::Default,
    }
}

/// The label key (`crate::text::i18n`) of a sink's name in the lab: the engine names its sinks by
/// [`SinkKind::id`], the page's words for them live here.
pub fn sink_label_key(kind: SinkKind) -> &'static str {
    match kind {
        SinkKind::Memory => "sink.memory",
        SinkKind::Console => "sink.console",
        SinkKind::File => "sink.file",
        SinkKind::Kafka => "sink.kafka",
        SinkKind::ForeachBatchNaive => "sink.fb-naive",
        SinkKind::ForeachBatchIdempotent => "sink.fb-idempotent",
        SinkKind::Foreach => "sink.foreach",
    }
}

/// The label key of what the Structured Streaming programming guide's "Output Sinks" table says
/// in its "Fault-tolerant" column for a sink: the answer the certification marks, shown beside
/// what the lab's sink does on a re-run ([`guarantee_label_key`]). They differ for the memory
/// sink: it skips a batch id it has seen (`MemorySink.addBatch`), yet the guide calls it not
/// fault-tolerant, since its rows live in the driver and only complete mode rebuilds them
/// after a restart.
pub fn sink_guide_key(kind: SinkKind) -> &'static str {
    match kind {
        SinkKind::Memory => "sink.guide.memory",
        SinkKind::Console => "sink.guide.console",
        SinkKind::File => "sink.guide.file",
        SinkKind::Kafka | SinkKind::Foreach => "sink.guide.at-least-once",
        SinkKind::ForeachBatchNaive | SinkKind::ForeachBatchIdempotent => "sink.guide.foreach-batch",
    }
}

/// The label key of what `kind` does on a re-run in `mode`: its delivery guarantee
/// ([`guarantee_label_key`]), or `guarantee.no-restart` where a query on it cannot restart from
/// its checkpoint in that mode (the memory sink outside complete mode: it skips a batch id it
/// has seen, but only within a run).
pub fn sink_guarantee_key(kind: SinkKind, mode: OutputMode) -> &'static str {
    if kind.recovers_from_checkpoint(mode) {
        guarantee_label_key(kind.guarantee())
    } else {
        "guarantee.no-restart"
    }
}

/// The label key of a delivery guarantee (`guarantee.exactly`, `guarantee.atleast`).
pub fn guarantee_label_key(g: streamlab_engine::streaming::DeliveryGuarantee) -> &'static str {
    match g {
        streamlab_engine::streaming::DeliveryGuarantee::ExactlyOnce => "guarantee.exactly",
        streamlab_engine::streaming::DeliveryGuarantee::AtLeastOnce => "guarantee.atleast",
    }
}
