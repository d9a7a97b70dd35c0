//! The action log and its replay: what the learner did, kept as [`Action`]s, and the
//! rebuild that starts the query again and replays them after any change.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use streamlab_engine::streaming::{BatchResult, CrashPoint, SinkKind, StartOptions, StreamingConf, StreamingQuery};
use streamlab_engine::types::Row;
use streamlab_engine::Error;

use super::format::{batch_view, error_view};
use super::{timeline, LabSession};

/// One thing the learner did: an entry of the session's log, replayed after every change.
/// The same type, with rows as JSON values (`R = Vec<Json>`), is the saved form
/// ([`crate::lab::persist::SavedAction`]): its serde attributes *are* the saved format
/// (`{"do": "add", "source": …, "rows": …, "step": 0}`, `{"do": "trigger"}`, …), and
/// [`Action::map_rows`] turns one form into the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action<R = Row> {
    /// Rows added to a source (one `MemoryStream` block).
    Add {
        /// The source's name in the scenario.
        source: String,
        /// The rows, each in the source's schema order.
        rows: Vec<R>,
        /// The scenario step these events came from, if any (so undo takes the step back whole).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<usize>,
    },
    /// One trigger: at most one micro-batch.
    Trigger,
    /// Triggers until idle (what the default trigger does after new data arrives).
    RunAll {
        /// The scenario step whose "next step" ran it, if any (saved as `null` when none).
        step: Option<usize>,
    },
    /// One trigger whose batch dies at a point (the process crashes).
    Crash {
        /// Where the batch dies; saved as its id (`after-offset-log`, `mid-sink`, `before-commit`).
        #[serde(with = "crash_point_id")]
        at: CrashPoint,
    },
    /// Stop and start the query again on the same checkpoint, sources and sink.
    Restart {
        /// The query text the next run uses, when the restart changed it (a query changed
        /// between restarts).
        query: Option<String>,
    },
    /// Processing time passes with no trigger: the query's clock moves on, so the next
    /// trigger may time out keys of a `ProcessingTimeTimeout` state function.
    Wait {
        /// How long, ms (positive).
        ms: i64,
    },
    /// An added row moved along event time (the time picture's drag): row `row` of the
    /// [`Action::Add`] at index `action` of the log has `event_time_us` (µs, whole seconds) in
    /// column `column`. The Add itself stays as it was, so undo (which forgets the last action)
    /// puts the row back; replay reads every Add with the moves of the log applied
    /// (`effective_actions`), as if the row had always had that time.
    Retime {
        /// The index in the log of the [`Action::Add`] that added the row.
        action: usize,
        /// The row's index in that Add's rows.
        row: usize,
        /// The event-time column's index in the row.
        column: usize,
        /// The row's new event time, µs since the epoch.
        event_time_us: i64,
    },
}

impl<R> Action<R> {
    /// The same action with the rows of an [`Action::Add`] turned by `f` (given the source's
    /// name and the rows); every other action is copied as it is. Saving is
    /// `map_rows` to JSON values, loading `map_rows` back with the scenario's schema.
    ///
    /// # Errors
    /// What `f` returns for an Add's rows.
    pub fn map_rows<S, E>(&self, f: impl FnOnce(&str, &[R]) -> Result<Vec<S>, E>) -> Result<Action<S>, E> {
        Ok(match self {
            Action::Add { source, rows, step } => Action::Add { source: source.clone(), rows: f(source, rows)?, step: *step },
            Action::Trigger => Action::Trigger,
            Action::RunAll { step } => Action::RunAll { step: *step },
            Action::Crash { at } => Action::Crash { at: *at },
            Action::Restart { query } => Action::Restart { query: query.clone() },
            Action::Wait { ms } => Action::Wait { ms: *ms },
            Action::Retime { action, row, column, event_time_us } => Action::Retime { action: *action, row: *row, column: *column, event_time_us: *event_time_us },
        })
    }

    /// The scenario step this action belongs to ("next step" adds a step's events and runs
    /// them): undo takes a step back whole, and its batches are labelled with it.
    pub fn step(&self) -> Option<usize> {
        match self {
            Action::Add { step, .. } | Action::RunAll { step } => *step,
            _ => None,
        }
    }
}

/// Whether `log[action]` is an [`Action::Add`] with a cell at (`row`, `column`): what an
/// [`Action::Retime`] must name (checked when a log is loaded or a move is made).
pub(crate) fn adds_cell(log: &[Action], action: usize, row: usize, column: usize) -> bool {
    matches!(log.get(action), Some(Action::Add { rows, .. }) if rows.get(row).is_some_and(|r| column < r.len()))
}

/// [`CrashPoint`] as its id in the saved JSON.
mod crash_point_id {
    use serde::{de::Error as _, Deserialize, Deserializer, Serializer};
    use streamlab_engine::streaming::CrashPoint;

    pub(super) fn serialize<S: Serializer>(p: &CrashPoint, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.id())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CrashPoint, D::Error> {
        let id = String::deserialize(d)?;
        CrashPoint::parse(&id).ok_or_else(|| D::Error::custom(format!("unknown crash point {id}")))
    }
}

/// The log as replay reads it: each [`Action::Add`] with every later [`Action::Retime`] that
/// targets it applied (in log order, the last move wins). A move whose target is not an
/// earlier added row is ignored (a saved log is checked when it is read).
pub(super) fn effective_actions(actions: &[Action]) -> std::borrow::Cow<'_, [Action]> {
    // A log with no move is read as it is (replay runs on every step of the delay slider; a
    // copy of every added row each time cost it a twentieth).
    if !actions.iter().any(|a| matches!(a, Action::Retime { .. })) {
        return std::borrow::Cow::Borrowed(actions);
    }
    let mut out = actions.to_vec();
    for (i, a) in actions.iter().enumerate() {
        let Action::Retime { action, row, column, event_time_us } = a else { continue };
        if *action >= i {
            continue;
        }
        if let Some(Action::Add { rows, .. }) = out.get_mut(*action) {
            if let Some(cell) = rows.get_mut(*row).and_then(|r| r.get_mut(*column)) {
                *cell = streamlab_engine::types::Value::Timestamp(*event_time_us);
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

impl LabSession {
    /// Steps back: forgets the last action of the log and replays the rest, so the lab shows
    /// exactly what it showed before that action (the engine is deterministic). A scenario
    /// step ("next step", or its events added by play) goes back whole: its events and the
    /// run they caused, and the step counter moves back to it. Returns false when there is
    /// nothing to undo. Settings (mode, delay, sink, trigger) are not actions: they are
    /// changed back by setting them again.
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.actions.len().checked_sub(1) else { return false };
        let mut cut = last;
        if let Some(step) = self.actions[last].step() {
            while cut > 0 && matches!(self.actions[cut - 1], Action::Add { step: Some(s), .. } if s == step) {
                cut -= 1;
            }
            self.next_step = step.min(self.next_step);
        }
        self.actions.truncate(cut);
        self.rebuild();
        true
    }

    /// How many actions the log holds (what [`LabSession::undo`] can take back).
    pub fn action_count(&self) -> usize {
        self.actions.len()
    }

    /// Logs `action` and replays it: a moved row ([`Action::Retime`]) changes history, not
    /// just the end of it, so then everything is replayed.
    /// Does one action of the log as the lab's control for it does: checks that it can be
    /// done now, then logs and replays it. The script's log lines (`trigger`, `crash`,
    /// `restart`, `wait`: [`crate::lab::script::LabAction::Do`]) come here, and so do
    /// [`LabSession::crash`] and [`LabSession::wait`].
    ///
    /// # Errors
    /// Why it cannot be done now: a crash with no batch due, a wait that is not positive or
    /// moves the clock past year 9999, rows for a source the scenario lacks, a move naming no
    /// added row's cell.
    pub fn perform(&mut self, action: Action) -> Result<(), String> {
        /// 9999-12-31T23:59:59Z, ms: the processing-time clock stays a valid timestamp.
        const MAX_CLOCK_MS: i64 = 253_402_300_799_000;
        match &action {
            Action::Crash { .. } if !self.batch_due() || self.query.as_ref().is_some_and(|q| !q.is_active()) => {
                return Err("No batch is due, so there is nothing to crash: add events (or wait for a no-data batch) first.".into());
            }
            Action::Wait { ms } if *ms <= 0 || self.waited_ms.saturating_add(*ms) > MAX_CLOCK_MS => {
                return Err(format!("cannot wait {ms} ms: give a positive time that keeps the clock before year 9999"));
            }
            Action::Add { source, .. } if !self.scenario.sources.contains_key(source) => return Err(format!("no source named '{source}'")),
            Action::Retime { action: a, row, column, .. } if !adds_cell(&self.actions, *a, *row, *column) => {
                return Err(format!("action {a} added no row {row} with a column {column}"));
            }
            _ => {}
        }
        self.apply(action);
        Ok(())
    }

    pub(super) fn apply(&mut self, action: Action) {
        // A new action: the sessions other delays gave are of the log without it.
        self.delay_memo.clear();
        self.actions.push(action.clone());
        if matches!(action, Action::Retime { .. }) {
            self.rebuild();
        } else {
            self.replay_one(&action);
        }
    }

    pub(super) fn rebuild(&mut self) {
        // Something changed (set_delay takes its memo out before it replays).
        self.delay_memo.clear();
        self.batches.clear();
        self.batch_views.clear();
        self.pending.clear();
        self.evicted.clear();
        self.state_ids = None;
        self.error = None;
        self.crash = None;
        self.query = None;
        self.events.clear();
        self.waited_ms = 0;
        self.runs = 0;
        self.query_text = self.base_text.clone();
        // The picker's sink applies only when the text names none; the start checks (sink,
        // output mode, checkpoint location) all run in the engine's `check_start`.
        let options = StartOptions {
            default_sink: Some(self.sink_kind),
            checkpoint_location: Some(self.checkpoint_set),
            session_checkpoint_location: self.session_checkpoint_location(),
            // The menu's trigger, checked at start like one in the text.
            default_trigger: self.trigger,
        };
        self.text_mode = None;
        self.text_mode_default = false;
        // Compiled once: for the start, and (unless a restart changes the text) for the delays.
        let compiled = self.compile_text();
        let built = self.scenario.catalog().and_then(|catalog| {
            let conf = StreamingConf::from_map(&self.scenario.conf_strings()).map_err(Error::Scenario)?;
            let started = compiled.compiled.clone().and_then(|c| StreamingQuery::start_evaluated(c, &self.query_text, &catalog, self.mode, conf, options));
            // The mode the text sets, also when the start failed (its error is about that mode).
            self.text_mode_default = compiled.compiled.as_ref().is_ok_and(|c| c.output_mode_default);
            self.text_mode = match &started {
                Ok(q) => q.mode_set_in_query().then(|| q.output_mode()),
                Err(_) => compiled.compiled.as_ref().ok().and_then(|c| c.output_mode),
            };
            started
        });
        match built {
            Ok(mut q) => {
                // The start took the menu's trigger where the text sets none (the text's own
                // `.trigger(...)` wins, as its sink and mode do).
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
        // The log is set aside while it replays (replay does not read it), so that a log with
        // no move is replayed as it is, not copied.
        let log = std::mem::take(&mut self.actions);
        for a in effective_actions(&log).iter() {
            if timeline::reached(self.stop_after, &self.batches) {
                break;
            }
            self.replay_one(a);
        }
        self.actions = log;
        if self.query_text == self.base_text {
            self.read_text(compiled);
        } else {
            self.find_delays();
        }
    }

    fn replay_one(&mut self, action: &Action) {
        let step = action.step();
        match action {
            Action::Add { source, rows, .. } => {
                for r in rows {
                    self.pending.push((source.clone(), r.clone()));
                }
                if let Some(q) = &mut self.query {
                    if let Err(e) = q.add_data(source, rows) {
                        self.error = Some(error_view(&e, &self.query_text));
                    }
                }
            }
            Action::Wait { ms } => self.waited_ms = self.waited_ms.saturating_add(*ms),
            // Applied to its Add before replay starts ([`effective_actions`]).
            Action::Retime { .. } => {}
            Action::Restart { query: text } => {
                // The restarted query's state is the checkpoint's (or none): read it afresh.
                self.state_ids = None;
                let Some(q) = self.query.take() else { return };
                if q.is_active() {
                    self.events.push(format!("onQueryTerminated: id={}, runId={}, exception=None (stopped)", q.id, q.run_id));
                }
                if let Some(t) = text {
                    self.query_text = t.clone();
                    self.find_delays();
                }
                let conf = StreamingConf::from_map(&self.scenario.conf_strings()).unwrap_or_default();
                let (checkpoint, sources, mut sink) = q.stop();
                // A temporary checkpoint is not reused: the next start begins again from batch 0
                // (and a memory sink is a new, empty sink).
                let checkpoint = if self.temporary {
                    if sink.kind() == SinkKind::Memory {
                        sink = SinkKind::Memory.create();
                    }
                    // ... and it is a new query: a new id (Spark draws one for a checkpoint
                    // it has not seen), seeded by how many starts came before.
                    let starts = self.events.iter().filter(|e| e.starts_with("onQueryStarted")).count() as u64;
                    streamlab_engine::streaming::Checkpoint { query_id: Some(streamlab_engine::streaming::uuid_from_seed(0x7E3D_0000 + starts)), ..streamlab_engine::streaming::Checkpoint::default() }
                } else {
                    checkpoint
                };
                let restarted = self
                    .scenario
                    .catalog()
                    .and_then(|c| StreamingQuery::restart(&self.query_text, &c, self.mode, conf, checkpoint, sources, sink));
                match restarted {
                    Ok(mut q) => {
                        if let Some(t) = self.trigger.filter(|_| !q.trigger_set_in_query()) {
                            q.trigger = t;
                        }
                        q.set_explaining(true);
                        self.events.push(format!("onQueryStarted: id={}, runId={}", q.id, q.run_id));
                        self.text_mode = q.mode_set_in_query().then(|| q.output_mode());
                        self.query = Some(q);
                    }
                    Err(e) => self.error = Some(error_view(&e, &self.query_text)),
                }
                self.crash = None;
            }
            Action::Trigger | Action::RunAll { .. } | Action::Crash { .. } => {
                let clock = self.clock_now();
                let Some(q) = &mut self.query else { return };
                self.runs += 1;
                q.set_clock_ms(clock);
                let at = (q.run_id.clone(), self.batches.len());
                let before = match self.state_ids.take() {
                    Some((read_at, ids)) if read_at == at => ids,
                    _ => state_keys(q),
                };
                let was_active = q.is_active();
                let results: Vec<BatchResult> = match action {
                    Action::Trigger => q.fire(),
                    Action::Crash { at } => q.run_next_batch_crashing(Some(*at)).into_iter().collect(),
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
                self.state_ids = Some(((q.run_id.clone(), self.batches.len() + results.len()), after));
                if results.iter().any(|b| b.input_rows > 0) || !q.has_new_data() {
                    self.pending.clear();
                }
                let (output, day) = (q.plan().output.clone(), self.base_day_us());
                self.batch_views.extend(results.iter().map(|b| std::sync::Arc::new(batch_view(step, b, &output, day))));
                self.batches.extend(results.into_iter().map(|b| (step, b)));
            }
        }
    }
}

/// (operator id, row id) of every state row (the engine decides what a row is).
fn state_keys(q: &StreamingQuery) -> BTreeSet<(usize, Row)> {
    q.state_row_ids()
}
