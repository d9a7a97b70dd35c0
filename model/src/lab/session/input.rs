//! Events in: the event form's fields read as Spark's JSON reader reads them, the quick
//! "advance the watermark" event, a click on the picture's time axis, and the scenario's steps.

use std::collections::BTreeMap;

use serde_json::Value as Json;
use streamlab_engine::types::{DataType, Row, Value};

use super::{Action, LabSession};

/// What [`LabSession::advance_with_event`] says to an empty time (an event with no time would
/// not move the watermark).
pub const ADVANCE_NEEDS_TIME: &str = "Type the event's time first (e.g. 09:30): an event without a time does not move the watermark.";

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
        self.apply(Action::Add { source: source.to_string(), rows: vec![row], step: None });
        Ok(notes)
    }

    /// Pushes an event whose time column is `event_time` (other columns copied from the
    /// source's last event), then runs every batch until idle: the quickest way to move the
    /// watermark.
    ///
    /// # Errors
    /// The time is empty ([`ADVANCE_NEEDS_TIME`]) or does not parse, or the source has no
    /// timestamp column.
    pub fn advance_with_event(&mut self, source: &str, event_time: &str) -> Result<(), String> {
        if event_time.trim().is_empty() {
            return Err(ADVANCE_NEEDS_TIME.into());
        }
        let ts = parse_field(event_time.trim(), &streamlab_engine::types::timestamp_type(), self.base_day_us())?;
        let row = self.row_at(source, ts)?;
        self.apply(Action::Add { source: source.to_string(), rows: vec![row], step: None });
        self.apply(Action::RunAll { step: None });
        Ok(())
    }

    /// A time to suggest for [`LabSession::advance_with_event`] on `source`, as the learner
    /// would type it (`09:40` on the scenario's day): ten minutes after the latest event time
    /// added to the source so far (before any, the scenario's first step's), rounded up to a
    /// whole five minutes, so the suggestion moves the watermark past what is there. `None`
    /// when neither has a timed event for the source.
    pub fn advance_hint(&self, source: &str) -> Option<String> {
        const FIVE_MIN_US: i64 = 5 * 60 * 1_000_000;
        let view = self.sources().into_iter().find(|s| s.name == source)?;
        let time_col = view.time_column?;
        let idx = view.columns.iter().position(|(c, _)| *c == time_col)?;
        let latest_of = |rows: &[Row]| rows.iter().filter_map(|r| r.get(idx).and_then(Value::event_time_us)).max();
        let added = self
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::Add { source: s, rows, .. } if s == source => latest_of(rows),
                _ => None,
            })
            .max();
        let latest = added.or_else(|| {
            let first = self.scenario.steps.iter().find_map(|step| step.get(source))?;
            latest_of(&self.typed_rows(source, first)?)
        })?;
        let at = latest.saturating_add(2 * FIVE_MIN_US);
        let rounded = at.div_euclid(FIVE_MIN_US).saturating_add(i64::from(at.rem_euclid(FIVE_MIN_US) != 0)).saturating_mul(FIVE_MIN_US);
        Some(crate::lab::cells::display_time(rounded, self.base_day_us()))
    }

    /// Adds one event to `source` at `event_time_us` (µs since the epoch; the other columns
    /// copied from the source's last event, NULL when there is none) as pending input, the
    /// way the event form adds one: the time picture's "click on the event-time axis".
    ///
    /// # Errors
    /// No such source, or the source has no timestamp column.
    ///
    /// The time is rounded to whole seconds (a pixel of the axis is never a fraction of a
    /// microsecond). The source's id column (`id_column`) gets an id used nowhere in the
    /// scenario — not in its steps still to come, not in any row added — so the new event is
    /// never mistaken for one of the example's.
    pub fn add_event_at(&mut self, source: &str, event_time_us: i64) -> Result<(), String> {
        let mut row = self.row_at(source, Value::Timestamp(whole_seconds(event_time_us)))?;
        self.fresh_id(source, &mut row);
        self.apply(Action::Add { source: source.to_string(), rows: vec![row], step: None });
        Ok(())
    }

    /// Moves an added row along event time (the time picture's drag): row `row` of the log's
    /// action `action` (an [`Action::Add`]) gets `event_time_us`, rounded to whole seconds and
    /// kept inside Spark's timestamp range, in its source's event-time column, and every batch
    /// is replayed as if the row had always had that time. It is one action of the log
    /// ([`Action::Retime`]): [`LabSession::undo`] puts the row back. Returns false, and adds
    /// nothing, when the row already has that time.
    ///
    /// # Errors
    /// The action is not an added row, or its source has no timestamp column.
    pub fn move_event(&mut self, action: usize, row: usize, event_time_us: i64) -> Result<bool, String> {
        let actions = super::replay::effective_actions(&self.actions);
        let Some(Action::Add { source, rows, .. }) = actions.get(action) else { return Err(format!("action {action} did not add rows")) };
        let current = rows.get(row).ok_or_else(|| format!("action {action} added no row {row}"))?;
        let view = self.sources().into_iter().find(|s| s.name == *source).ok_or_else(|| format!("no source named '{source}'"))?;
        let time_col = view.time_column.ok_or("this source has no timestamp column")?;
        let column = view.columns.iter().position(|(c, _)| *c == time_col).filter(|c| *c < current.len()).ok_or("this row has no event-time cell")?;
        let to = whole_seconds(event_time_us).clamp(MIN_TIMESTAMP_US, MAX_TIMESTAMP_US);
        if current[column] == Value::Timestamp(to) {
            return Ok(false);
        }
        // A move changes history, not just the end of it: `apply` replays everything.
        self.apply(Action::Retime { action, row, column, event_time_us: to });
        Ok(true)
    }

    /// Where each row added to `source` sits in the log, (action index, row index), in the
    /// order the source holds them (a row's stream offset is its position here), with the row
    /// as replay reads it.
    pub(super) fn added_rows(&self, source: Option<&str>) -> Vec<((usize, usize), String, Row)> {
        super::replay::effective_actions(&self.actions)
            .into_owned()
            .into_iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Add { source: s, rows, .. } if source.is_none_or(|n| n == s) => Some(rows.into_iter().enumerate().map(move |(r, row)| ((i, r), s.clone(), row)).collect::<Vec<_>>()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// Gives `row`'s id column (if the source has one) an id no event of the scenario uses.
    fn fresh_id(&self, source: &str, row: &mut Row) {
        let Some(def) = self.scenario.sources.get(source) else { return };
        let Some((index, name, t)) = id_column(&def.schema) else { return };
        let Some(cell) = row.get_mut(index) else { return };
        // Every value of a column of that name: the scenario's steps (all sources) and every
        // row added so far.
        let mut used: Vec<String> = self.scenario.steps.iter().flat_map(|s| s.values().flatten()).filter_map(|r| r.get(&name)).map(json_text).collect();
        for (src, d) in &self.scenario.sources {
            if let Some(j) = d.schema.iter().position(|(c, _)| *c == name) {
                used.extend(self.added_rows(Some(src)).into_iter().filter_map(|(_, _, r)| r.get(j).map(value_text)));
            }
        }
        let last = value_text(cell);
        *cell = match t.as_str() {
            "string" => Value::str(&next_unused(&last, &used)),
            _ => {
                let max = used.iter().filter_map(|u| u.parse::<i64>().ok()).max().unwrap_or(0);
                Value::Long(max.saturating_add(1))
            }
        };
    }

    /// The source's last added row with its time column set to `ts`.
    fn row_at(&self, source: &str, ts: Value) -> Result<Row, String> {
        let view = self.sources().into_iter().find(|s| s.name == source).ok_or_else(|| format!("no source named '{source}'"))?;
        let time_col = view.time_column.ok_or("this source has no timestamp column")?;
        let last = self.actions.iter().rev().find_map(|a| match a {
            Action::Add { source: s, rows, .. } if s == source => rows.last().cloned(),
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
        self.apply(Action::RunAll { step: Some(self.next_step - 1) });
        true
    }

    /// Adds the scenario's next step of events as pending input, without running a batch.
    /// Returns false when all steps are done.
    pub fn push_step(&mut self) -> bool {
        let Some(step) = self.scenario.steps.get(self.next_step).cloned() else { return false };
        for (source, rows) in &step {
            let Some(typed) = self.typed_rows(source, rows) else { continue };
            if !typed.is_empty() {
                // Marked with its step, so that [`LabSession::undo`] takes the step back whole.
                self.apply(Action::Add { source: source.clone(), rows: typed, step: Some(self.next_step) });
            }
        }
        self.next_step += 1;
        true
    }

    /// A scenario step's events for `source` as rows, typed by the source's own schema (for
    /// Kafka, the JSON put in `value`); an event that does not fit is left out. `None` when
    /// the scenario has no such source or its schema does not read.
    fn typed_rows(&self, source: &str, events: &[serde_json::Map<String, Json>]) -> Option<Vec<Row>> {
        let schema = streamlab_engine::scenario::typed_schema(&self.scenario.sources.get(source)?.schema).ok()?;
        Some(events.iter().filter_map(|r| streamlab_engine::scenario::json_to_row(&schema, r).ok()).collect())
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
        JsonRead::Noted(v, why) => Ok((v, Some(why))),
        JsonRead::Unsupported(m) => Err(m),
    }
}

/// Spark's timestamp range (0001-01-01 to 9999-12-31 23:59:59 UTC), µs.
const MIN_TIMESTAMP_US: i64 = -62_135_596_800_000_000;
const MAX_TIMESTAMP_US: i64 = 253_402_300_799_000_000;

/// `us` rounded to the nearest whole second.
pub(super) fn whole_seconds(us: i64) -> i64 {
    us.saturating_add(500_000).div_euclid(1_000_000).saturating_mul(1_000_000)
}

/// A source's id column: its first column, when that is named `id` or `…_id` / `…Id` and
/// holds strings or longs (`event_id`, `order_id` in the examples): (index, name, type).
pub(super) fn id_column(schema: &[(String, String)]) -> Option<(usize, String, String)> {
    let (name, t) = schema.first()?;
    let named = name.eq_ignore_ascii_case("id") || name.ends_with("_id") || name.ends_with("Id");
    (named && matches!(t.as_str(), "string" | "long" | "int" | "integer" | "bigint")).then(|| (0, name.clone(), t.clone()))
}

fn json_text(j: &Json) -> String {
    match j {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Null => String::new(),
        other => streamlab_engine::scenario::display_value(other),
    }
}

/// The next id after `last` in its pattern (`c10` → `c11`, skipping any in `used`); an id
/// without a number gets `-1`, `-2`, …; no last id gives `e1`, `e2`, ….
pub fn next_unused(last: &str, used: &[String]) -> String {
    let digits = last.len() - last.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let prefix = match (last.is_empty(), digits) {
        (true, _) => "e".to_string(),
        (false, 0) => format!("{last}-"),
        (false, d) => last[..last.len() - d].to_string(),
    };
    let numbered = |u: &String| u.strip_prefix(prefix.as_str()).and_then(|n| n.parse::<u64>().ok());
    let mut n = used.iter().filter_map(numbered).max().unwrap_or(0).saturating_add(1);
    loop {
        let id = format!("{prefix}{n}");
        if !used.contains(&id) || n == u64::MAX {
            return id;
        }
        n += 1;
    }
}
