//! Load and save: scenario JSON in, the session out as a scenario or a PySpark script, and
//! the parts [`crate::lab::persist`] saves and restores.

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};
use streamlab_engine::scenario::{value_to_json, Scenario};
use streamlab_engine::streaming::{OutputMode, SinkKind, Trigger};

use super::{Action, LabSession};

/// The parts of a session that [`crate::lab::persist`] saves.
pub(crate) struct SessionParts<'a> {
    pub scenario: &'a Scenario,
    pub base_text: &'a str,
    pub mode: OutputMode,
    pub sink: SinkKind,
    pub trigger: Option<Trigger>,
    pub checkpoint_set: bool,
    pub next_step: usize,
    pub actions: &'a [Action],
}

impl LabSession {
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
    ) -> LabSession {
        let mut s = LabSession::from_scenario(scenario);
        s.query_text = query.clone();
        s.base_text = query;
        s.mode = mode;
        s.sink_kind = sink;
        s.trigger = trigger;
        s.checkpoint_set = checkpoint_set;
        s.next_step = next_step.min(s.scenario.steps.len());
        s.actions = actions;
        s.rebuild();
        s
    }

    /// Whether opening another scenario would lose something the learner did here: an action
    /// in the log (events, triggers, crashes), or a query text (but for the blanks around it)
    /// or output mode other than the scenario's own. The page keeps such a session when an
    /// example replaces it, and Step back brings it back.
    pub fn has_own_work(&self) -> bool {
        !self.actions.is_empty() || self.query_text.trim() != self.scenario.query.trim() || OutputMode::parse(&self.scenario.output_mode).unwrap_or(OutputMode::Append) != self.mode
    }

    /// Opens scenario JSON (the corpus format).
    ///
    /// # Errors
    /// What is wrong with the JSON, with line and column.
    pub fn from_json(text: &str) -> Result<LabSession, String> {
        let scenario = Scenario::from_json(text).map_err(|e| e.to_string())?;
        scenario.catalog().map_err(|e| e.to_string())?;
        Ok(LabSession::from_scenario(scenario))
    }

    /// The scenario's input values Spark's JSON reader turns into NULL, with their paths
    /// (`steps[2].clicks[0].post_id: ...`).
    pub fn input_notes(&self) -> Vec<String> {
        self.scenario.input_notes()
    }

    /// The session as a scenario: the same sources, query and mode; one step per group of
    /// events that a trigger consumed (and one for events still pending), then the scenario's
    /// steps the learner has not reached yet — so real Spark replays what the lab did and
    /// goes on as the example does, and a fresh preset saves all of its steps.
    pub fn to_scenario(&self) -> Scenario {
        let mut s = self.scenario.clone();
        s.query = self.query_text.clone();
        // The mode the query runs in: the text's `.outputMode(...)` (or Spark's default for a
        // program that starts its query without one) wins over the lab's buttons.
        s.output_mode = self.text_mode.unwrap_or(self.mode).as_str().into();
        s.expected = None;
        let mut steps = Vec::new();
        let mut current: BTreeMap<String, Vec<Map<String, Json>>> = BTreeMap::new();
        for a in super::replay::effective_actions(&self.actions).iter() {
            match a {
                Action::Add { source, rows, .. } => {
                    let schema = self.scenario.sources.get(source).and_then(|d| streamlab_engine::scenario::typed_schema(&d.schema).ok()).unwrap_or_default();
                    for r in rows {
                        let obj: Map<String, Json> = schema.iter().zip(r).map(|((n, _), v)| (n.clone(), value_to_json(v))).collect();
                        current.entry(source.clone()).or_default().push(obj);
                    }
                }
                Action::Trigger | Action::RunAll { .. } | Action::Crash { .. } => steps.push(std::mem::take(&mut current)),
                Action::Restart { .. } | Action::Wait { .. } | Action::Retime { .. } => {}
            }
        }
        if !current.is_empty() {
            steps.push(current);
        }
        steps.extend(self.scenario.steps.iter().skip(self.next_step).cloned());
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

    /// The session as a notebook: a Jupyter notebook (`<id>.ipynb`) or, with `databricks`, a
    /// Databricks source-format notebook (`<id>.databricks.py`) — the setup, the query, then
    /// one cell per step whose output is that step's micro-batches (`streamlab_engine::export`).
    ///
    /// # Errors
    /// As [`LabSession::to_pyspark`].
    pub fn to_notebook(&self, databricks: bool) -> Result<(String, String), String> {
        let scenario = self.to_scenario();
        let options = streamlab_engine::export::ExportOptions { trigger: self.trigger.unwrap_or_default() };
        let stem = if scenario.id.is_empty() { "streamlab-session" } else { scenario.id.as_str() };
        if databricks {
            let text = streamlab_engine::export::databricks_notebook(&scenario, options).map_err(|e| e.to_string())?;
            Ok((format!("{stem}.databricks.py"), text))
        } else {
            let text = streamlab_engine::export::jupyter_notebook(&scenario, options).map_err(|e| e.to_string())?;
            Ok((format!("{stem}.ipynb"), text))
        }
    }
}
