//! Presets made by rule: a preset file's `generate` block (Streamlab's extension key, which
//! the engine ignores) says how to make its steps from a seed, so a 1,000-event demo is a few
//! lines of data instead of 1,000 typed rows. [`expand`] turns such a file into an ordinary
//! scenario (the steps filled in); the same seed always gives the same rows.
//!
//! The rule: `rows` events over `steps` steps (`rows / steps` in each, the last step also taking
//! the remainder), step k's events at
//! whole seconds in `[start + k·step_seconds, start + (k+1)·step_seconds)` in random order;
//! every `late_every`-th event (the 20th, 40th, ... counting from 1) is set back by
//! `late_back_seconds` (a random whole number of seconds in `[lo, hi)`) from its step's start,
//! unless that falls before `start`. Columns are filled per their [`Column`] rule.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value as Json};
use streamlab_engine::types::{format_timestamp_us, parse_timestamp_us};

use crate::lab::rng::splitmix;

/// How one column of a generated event is filled.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Column {
    /// `prefix` then the event's number from 1: `c1`, `c2`, ...
    Sequence(String),
    /// `prefix` then a random number in `1..=count`: `u1` ... `u60`.
    Key {
        /// The text before the number (`u`).
        prefix: String,
        /// How many distinct keys (0 counts as 1).
        count: u64,
    },
    /// A random whole number in `[lo, hi]`.
    Int([i64; 2]),
    /// The event time the rule gives (the module's doc).
    EventTime,
}

/// A preset's `generate` block.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The seed of the random numbers: the same seed always makes the same rows.
    pub seed: u64,
    /// The source the events go to.
    pub source: String,
    /// How many events in all, split evenly over the steps (the last step takes the remainder).
    pub rows: usize,
    /// How many scenario steps (at least 1).
    pub steps: usize,
    /// The first step's start, as a scenario writes times (`2026-03-02T09:00:00Z`).
    pub start: String,
    /// The length of each step along event time, seconds: step k's events fall in
    /// `[start + k·step_seconds, start + (k+1)·step_seconds)`.
    pub step_seconds: i64,
    /// Every n-th event is late (0: none).
    #[serde(default)]
    pub late_every: usize,
    /// `[lo, hi)`: how many seconds before its step's start a late event is set (a random whole
    /// number; the event keeps its time if that falls before `start`).
    #[serde(default)]
    pub late_back_seconds: [i64; 2],
    /// How each column is filled, by column name.
    pub columns: BTreeMap<String, Column>,
}

/// A number in `[lo, hi)` (`lo` when the range is empty).
fn between(state: &mut u64, lo: i64, hi: i64) -> i64 {
    let span = hi.saturating_sub(lo);
    if span <= 0 {
        return lo;
    }
    lo + (splitmix(state) % span as u64) as i64
}

impl Rule {
    /// The steps the rule makes: `steps` maps of the source to its rows.
    ///
    /// # Errors
    /// `start` is not a timestamp, or `steps` is 0.
    pub fn steps(&self) -> Result<Vec<Json>, String> {
        if self.steps == 0 {
            return Err("generate: steps must be at least 1".into());
        }
        let start_us = parse_timestamp_us(&self.start)?;
        const US: i64 = 1_000_000;
        let per_step = self.rows / self.steps;
        let mut state = self.seed;
        let mut out = Vec::with_capacity(self.steps);
        for k in 0..self.steps {
            let step_start = self.step_seconds.saturating_mul(k as i64);
            let count = if k + 1 == self.steps { self.rows - per_step * (self.steps - 1) } else { per_step };
            let mut rows = Vec::with_capacity(count);
            for i in 0..count {
                let n = k * per_step + i + 1;
                let mut secs = step_start + between(&mut state, 0, self.step_seconds);
                if self.late_every > 0 && n.is_multiple_of(self.late_every) {
                    let back = between(&mut state, self.late_back_seconds[0], self.late_back_seconds[1]);
                    if step_start - back >= 0 {
                        secs = step_start - back;
                    }
                }
                let mut row = Map::new();
                for (name, col) in &self.columns {
                    let v = match col {
                        Column::Sequence(prefix) => Json::from(format!("{prefix}{n}")),
                        Column::Key { prefix, count } => Json::from(format!("{prefix}{}", 1 + splitmix(&mut state) % (*count).max(1))),
                        Column::Int([lo, hi]) => Json::from(between(&mut state, *lo, hi.saturating_add(1))),
                        Column::EventTime => Json::from(format_timestamp_us(start_us.saturating_add(secs.saturating_mul(US)))),
                    };
                    row.insert(name.clone(), v);
                }
                rows.push(Json::Object(row));
            }
            let mut step = Map::new();
            step.insert(self.source.clone(), Json::Array(rows));
            out.push(Json::Object(step));
        }
        Ok(out)
    }
}

/// A preset file's JSON with its `generate` block's steps in `steps` (the block removed); a
/// file without one unchanged.
///
/// # Errors
/// The text is not JSON, or its `generate` block is malformed.
pub fn expand(json: &str) -> Result<String, String> {
    let mut doc: Json = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let Some(obj) = doc.as_object_mut() else { return Ok(json.to_string()) };
    let Some(rule) = obj.remove("generate") else { return Ok(json.to_string()) };
    let rule: Rule = serde_json::from_value(rule).map_err(|e| format!("generate: {e}"))?;
    obj.insert("steps".into(), Json::Array(rule.steps()?));
    serde_json::to_string(&doc).map_err(|e| e.to_string())
}

/// The `generate` block of a preset file, if it has one.
pub fn rule_of(json: &str) -> Option<Rule> {
    let doc: Json = serde_json::from_str(json).ok()?;
    serde_json::from_value(doc.get("generate")?.clone()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(seed: u64) -> Rule {
        serde_json::from_value(serde_json::json!({
            "seed": seed, "source": "clicks", "rows": 10, "steps": 2, "start": "2026-03-02T09:00:00Z",
            "step_seconds": 60, "late_every": 5, "late_back_seconds": [30, 40],
            "columns": { "event_id": { "sequence": "c" }, "user_id": { "key": { "prefix": "u", "count": 3 } },
                         "post_id": { "int": [1, 2] }, "event_time": "event_time" }
        }))
        .unwrap()
    }

    fn times(steps: &[Json]) -> Vec<Vec<String>> {
        steps.iter().map(|s| s["clicks"].as_array().unwrap().iter().map(|r| r["event_time"].as_str().unwrap().to_string()).collect()).collect()
    }

    #[test]
    fn the_rule_places_every_event() {
        let steps = rule(7).steps().unwrap();
        assert_eq!(steps.len(), 2);
        let t = times(&steps);
        assert_eq!(t.iter().map(Vec::len).collect::<Vec<_>>(), vec![5, 5]);
        // Step 0: 09:00:00–09:00:59, all on time (c5 would go back 30–39 s before 09:00,
        // before the start, so it stays). Step 1: 09:01:00–09:01:59, but c10 (the 10th, a
        // multiple of 5) goes back 30–39 s from 09:01:00: 09:00:21–09:00:30.
        for s in &t[0] {
            assert!(s.as_str() >= "2026-03-02T09:00:00Z" && s.as_str() < "2026-03-02T09:01:00Z", "{s}");
        }
        for s in &t[1][..4] {
            assert!(s.as_str() >= "2026-03-02T09:01:00Z" && s.as_str() < "2026-03-02T09:02:00Z", "{s}");
        }
        assert!(t[1][4].as_str() >= "2026-03-02T09:00:21Z" && t[1][4].as_str() <= "2026-03-02T09:00:30Z", "{}", t[1][4]);
        let row = &steps[1]["clicks"][4];
        assert_eq!(row["event_id"], "c10");
        assert!(["u1", "u2", "u3"].contains(&row["user_id"].as_str().unwrap()));
        assert!([1, 2].contains(&row["post_id"].as_i64().unwrap()));
    }

    /// The busy-board preset's 1,000 clicks: the engine drops as late exactly the clicks the
    /// rule set back, and no other. Why, by hand: step k's on-time clicks are at or after its
    /// start s_k, and the 100 on-time clicks of step k−1 (at or after s_k − 6 min) put the
    /// watermark of step k's batch at or after s_k − 16 min. A click set back 26–36 min sits
    /// at or before s_k − 26 min, so both of its 10-minute windows end by s_k − 16 min, at or
    /// before the watermark: dropped from both. An on-time click's windows end after s_k,
    /// past any watermark the earlier steps made: kept.
    #[test]
    fn the_busy_board_drops_exactly_the_clicks_set_back() {
        use crate::lab::session::{FateKind, LabSession};
        let file = crate::lab::presets::preset_file("busy-board").unwrap();
        let rule = rule_of(file).unwrap();
        let start = parse_timestamp_us(&rule.start).unwrap();
        let steps = rule.steps().unwrap();
        let mut set_back = std::collections::BTreeSet::new();
        let mut total = 0;
        for (k, step) in steps.iter().enumerate() {
            let step_start = start + rule.step_seconds * k as i64 * 1_000_000;
            for row in step["clicks"].as_array().unwrap() {
                total += 1;
                if parse_timestamp_us(row["event_time"].as_str().unwrap()).unwrap() < step_start {
                    set_back.insert(row["event_id"].as_str().unwrap().to_string());
                }
            }
        }
        assert_eq!(total, 1000);
        // Every 20th click of steps 6–9 (5 a step) goes back for sure; of step 5 (at 30 min)
        // those drawn 26–30 min back do; none before.
        assert!((20..=25).contains(&set_back.len()), "{} set back", set_back.len());
        let mut lab = LabSession::from_scenario(crate::lab::presets::preset("busy-board").unwrap());
        while lab.run_step() {}
        let p = lab.picture();
        assert_eq!(p.marks().filter(|(_, m)| m.band.is_some()).count(), 1000);
        let late: std::collections::BTreeSet<String> = p
            .marks()
            .filter(|(_, m)| m.kind == Some(FateKind::Late))
            .filter_map(|(_, m)| m.cells().into_iter().find(|(c, _)| c == "event_id").map(|(_, v)| v))
            .collect();
        assert_eq!(late, set_back);
    }

    #[test]
    fn the_same_seed_gives_the_same_rows() {
        assert_eq!(rule(7).steps().unwrap(), rule(7).steps().unwrap());
        assert_ne!(rule(7).steps().unwrap(), rule(8).steps().unwrap());
    }

    #[test]
    fn a_file_without_a_rule_is_unchanged_and_a_bad_rule_is_an_error() {
        assert_eq!(expand(r#"{"id":"x","steps":[]}"#).unwrap(), r#"{"id":"x","steps":[]}"#);
        let bad = r#"{"id":"x","steps":[],"generate":{"seed":1}}"#;
        assert!(expand(bad).unwrap_err().starts_with("generate: "));
    }
}
