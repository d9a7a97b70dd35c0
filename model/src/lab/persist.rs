//! Saving the lab in the browser: the session as JSON (the scenario, the settings and the
//! learner's actions). The engine is deterministic, so replaying the actions rebuilds the
//! same batches, checkpoint and sink — the saved log is the lab's durable storage.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use streamlab_engine::scenario::{json_to_value, typed_schema, value_to_json, Scenario};
use streamlab_engine::streaming::{CrashPoint, OutputMode, SinkKind, Trigger};

use crate::lab::session::{Action, LabSession};

/// One saved action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum SavedAction {
    /// Rows added to a source ([`Action::Add`]).
    Add {
        /// The source's name in the scenario.
        source: String,
        /// The rows, each in the source's schema order, as the scenario's JSON values.
        rows: Vec<Vec<Json>>,
        /// The scenario step these events came from, if any (so undo takes the step back whole).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<usize>,
    },
    /// One trigger: at most one micro-batch.
    Trigger,
    /// Triggers until idle.
    RunAll {
        /// The scenario step whose "next step" ran it, if any.
        step: Option<usize>,
    },
    /// One trigger whose micro-batch dies at a crash point.
    Crash {
        /// The crash point's id: `after-offset-log`, `mid-sink` or `before-commit`.
        at: String,
    },
    /// Stop and start the query again on the same checkpoint.
    Restart {
        /// The changed query text the next run uses, if the restart changed it.
        query: Option<String>,
    },
    /// Processing time passing without a trigger, ms.
    Wait {
        /// How long, ms (positive).
        ms: i64,
    },
    /// An added row moved along event time (the picture's drag): row `row` of the Add at
    /// index `action`, column `column`, now at `event_time_us`.
    Retime {
        /// The index in the saved actions of the `Add` that added the row.
        action: usize,
        /// The row's index in that Add's rows.
        row: usize,
        /// The event-time column's index in the row.
        column: usize,
        /// The row's new event time, µs since the epoch.
        event_time_us: i64,
    },
}

/// A saved lab session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// The format's version; only 1 is read.
    pub version: u32,
    /// The scenario, with any source kinds the learner picked.
    pub scenario: Scenario,
    /// The query text of the first run (a restart with a changed query is in its action).
    pub query: String,
    /// The output mode.
    pub mode: OutputMode,
    /// The sink's id ([`SinkKind::id`]); an unknown one reads as the memory sink.
    pub sink: String,
    /// The trigger picked in the lab, as [`trigger_id`] writes it; `None` when none was picked.
    pub trigger: Option<String>,
    /// Whether the lab gives the query a checkpoint location.
    pub checkpoint_location: bool,
    /// How many of the scenario's steps have been run.
    pub next_step: usize,
    /// The learner's actions, oldest first, replayed to rebuild the session.
    pub actions: Vec<SavedAction>,
}

/// The saved form of a trigger: `default`, `processingTime:<ms>`, `once`, `availableNow`,
/// `continuous:<ms>`.
pub fn trigger_id(t: Trigger) -> String {
    match t {
        Trigger::Default => "default".into(),
        Trigger::ProcessingTime { interval_ms } => format!("processingTime:{interval_ms}"),
        Trigger::Once => "once".into(),
        Trigger::AvailableNow => "availableNow".into(),
        Trigger::Continuous { interval_ms } => format!("continuous:{interval_ms}"),
    }
}

/// Reads [`trigger_id`]'s text; `None` for anything else.
pub fn parse_trigger(s: &str) -> Option<Trigger> {
    let (kind, ms) = s.split_once(':').map_or((s, None), |(k, v)| (k, v.parse().ok()));
    Some(match kind {
        "default" => Trigger::Default,
        "processingTime" => Trigger::ProcessingTime { interval_ms: ms? },
        "once" => Trigger::Once,
        "availableNow" => Trigger::AvailableNow,
        "continuous" => Trigger::Continuous { interval_ms: ms? },
        _ => return None,
    })
}

impl LabSession {
    /// The session as JSON for browser storage.
    pub fn to_saved_json(&self) -> String {
        let parts = self.parts();
        let actions = parts
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                Action::Add { source, rows } => SavedAction::Add {
                    source: source.clone(),
                    rows: rows.iter().map(|r| r.iter().map(value_to_json).collect()).collect(),
                    step: parts.step_of_action.get(&i).copied(),
                },
                Action::Trigger => SavedAction::Trigger,
                Action::RunAll => SavedAction::RunAll { step: parts.step_of_action.get(&i).copied() },
                Action::Crash(p) => SavedAction::Crash { at: p.id().to_string() },
                Action::Restart(q) => SavedAction::Restart { query: q.clone() },
                Action::Wait(ms) => SavedAction::Wait { ms: *ms },
                Action::Retime { action, row, column, event_time_us } => SavedAction::Retime { action: *action, row: *row, column: *column, event_time_us: *event_time_us },
            })
            .collect();
        let saved = Saved {
            version: 1,
            scenario: parts.scenario.clone(),
            query: parts.base_text.to_string(),
            mode: parts.mode,
            sink: parts.sink.id().to_string(),
            trigger: parts.trigger.map(trigger_id),
            checkpoint_location: parts.checkpoint_set,
            next_step: parts.next_step,
            actions,
        };
        serde_json::to_string(&saved).unwrap_or_default()
    }

    /// Rebuilds a session saved by [`LabSession::to_saved_json`].
    ///
    /// # Errors
    /// What is wrong with the text (never panics on bad input).
    pub fn from_saved_json(text: &str) -> Result<LabSession, String> {
        let saved: Saved = serde_json::from_str(text).map_err(|e| format!("saved session: {e}"))?;
        if saved.version != 1 {
            return Err(format!("saved session version {} is not supported", saved.version));
        }
        let mut actions = Vec::new();
        let mut steps = std::collections::BTreeMap::new();
        for (i, a) in saved.actions.iter().enumerate() {
            actions.push(match a {
                SavedAction::Add { source, rows, step } => {
                    if let Some(s) = step {
                        steps.insert(i, *s);
                    }
                    let def = saved.scenario.sources.get(source).ok_or_else(|| format!("saved session: unknown source {source}"))?;
                    let schema = typed_schema(&def.schema).map_err(|e| e.to_string())?;
                    let rows = rows
                        .iter()
                        .map(|r| schema.iter().zip(r).map(|((_, t), v)| json_to_value(v, t)).collect::<Result<Vec<_>, _>>())
                        .collect::<Result<Vec<_>, _>>()?;
                    Action::Add { source: source.clone(), rows }
                }
                SavedAction::Trigger => Action::Trigger,
                SavedAction::RunAll { step } => {
                    if let Some(s) = step {
                        steps.insert(i, *s);
                    }
                    Action::RunAll
                }
                SavedAction::Crash { at } => Action::Crash(CrashPoint::parse(at).ok_or_else(|| format!("saved session: unknown crash point {at}"))?),
                SavedAction::Restart { query } => Action::Restart(query.clone()),
                SavedAction::Wait { ms } if *ms > 0 => Action::Wait(*ms),
                SavedAction::Wait { ms } => return Err(format!("saved session: a wait of {ms} ms is not positive")),
                SavedAction::Retime { action, row, column, event_time_us } => {
                    // The move must name a cell of an earlier added row.
                    let target = actions.get(*action).and_then(|a| match a {
                        Action::Add { rows, .. } => rows.get(*row).and_then(|r| r.get(*column)),
                        _ => None,
                    });
                    if target.is_none() {
                        return Err(format!("saved session: action {i} moves a row that action {action} did not add"));
                    }
                    Action::Retime { action: *action, row: *row, column: *column, event_time_us: *event_time_us }
                }
            });
        }
        let sink = SinkKind::parse(&saved.sink).unwrap_or(SinkKind::Memory);
        let trigger = saved.trigger.as_deref().and_then(parse_trigger);
        Ok(LabSession::restore(saved.scenario, saved.query, saved.mode, sink, trigger, saved.checkpoint_location, saved.next_step, actions, steps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_saved_text_is_an_error_not_a_panic() {
        assert!(LabSession::from_saved_json("").is_err());
        assert!(LabSession::from_saved_json("{\"version\": 2}").is_err());
        assert!(LabSession::from_saved_json("[1,2,3]").is_err());
    }

    #[test]
    fn a_moved_row_is_saved_and_a_bad_move_is_an_error() {
        let mut s = LabSession::from_scenario(crate::lab::presets::preset("classic").unwrap());
        s.run_step();
        let t = streamlab_engine::types::parse_timestamp_us("2026-03-02T09:30:00Z").unwrap();
        assert_eq!(s.move_event(0, 0, t), Ok(true));
        let json = s.to_saved_json();
        let back = LabSession::from_saved_json(&json).unwrap();
        assert_eq!(back.to_saved_json(), json);
        assert_eq!(back.view().batches, s.view().batches);
        // A move naming an action that is not an earlier Add is refused, not a panic.
        let bad = json.replace("\"action\":0", "\"action\":7");
        assert!(LabSession::from_saved_json(&bad).is_err());
    }
}
