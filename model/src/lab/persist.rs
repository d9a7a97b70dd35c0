//! Saving the lab in the browser: the session as JSON (the scenario, the settings and the
//! learner's actions). The engine is deterministic, so replaying the actions rebuilds the
//! same batches, checkpoint and sink — the saved log is the lab's durable storage.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use streamlab_engine::scenario::{json_to_value, typed_schema, value_to_json, Scenario};
use streamlab_engine::streaming::{OutputMode, SinkKind, Trigger};

use crate::lab::session::{adds_cell, Action, LabSession};

/// One saved action: the log's [`Action`] with its rows as the scenario's JSON values, read
/// back with the source's schema. `Action`'s serde attributes are the saved format.
pub type SavedAction = Action<Vec<Json>>;

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
            .map(|a| {
                let Ok(saved) = a.map_rows(|_, rows| Ok::<_, std::convert::Infallible>(rows.iter().map(|r| r.iter().map(value_to_json).collect()).collect()));
                saved
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
        let mut actions: Vec<Action> = Vec::new();
        for (i, a) in saved.actions.iter().enumerate() {
            let a = a.map_rows(|source, rows| {
                let def = saved.scenario.sources.get(source).ok_or_else(|| format!("saved session: unknown source {source}"))?;
                let schema = typed_schema(&def.schema).map_err(|e| e.to_string())?;
                rows.iter().map(|r| schema.iter().zip(r).map(|((_, t), v)| json_to_value(v, t)).collect::<Result<Vec<_>, _>>()).collect::<Result<Vec<_>, _>>()
            })?;
            match a {
                Action::Wait { ms } if ms <= 0 => return Err(format!("saved session: a wait of {ms} ms is not positive")),
                // A move must name a cell of an earlier added row.
                Action::Retime { action, row, column, .. } if !adds_cell(&actions, action, row, column) => {
                    return Err(format!("saved session: action {i} moves a row that action {action} did not add"));
                }
                _ => {}
            }
            actions.push(a);
        }
        let sink = SinkKind::parse(&saved.sink).unwrap_or(SinkKind::Memory);
        let trigger = saved.trigger.as_deref().and_then(parse_trigger);
        Ok(LabSession::restore(saved.scenario, saved.query, saved.mode, sink, trigger, saved.checkpoint_location, saved.next_step, actions))
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
