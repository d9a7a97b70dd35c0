//! Events in: the event form's fields read as Spark's JSON reader reads them, the quick
//! "advance the watermark" event, a click on the picture's time axis, and the scenario's steps.

use std::collections::BTreeMap;

use serde_json::Value as Json;
use streamlab_engine::types::{DataType, Row, Value};

use super::{Action, LabSession};

impl LabSession {
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
                // Marked with its step, so that [`LabSession::undo`] takes the step back whole.
                self.step_of_action.insert(self.actions.len(), self.next_step);
                self.apply(Action::Add { source: source.clone(), rows: typed });
            }
        }
        self.next_step += 1;
        true
    }
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
