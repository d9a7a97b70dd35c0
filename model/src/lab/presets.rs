//! The preset scenarios: `assets/scenarios/<id>.json` (the conformance scenario format, plus
//! `name`, `name_ko`, `title`, `title_ko`, `notes` and `notes_ko`), embedded at compile time, a
//! generated preset's rows made by [`crate::lab::generate`]; and "the scenario's day", the day
//! short times such as `09:03` are on.

use std::collections::BTreeMap;

use streamlab_engine::scenario::Scenario;
use streamlab_engine::types::parse_timestamp_us;

use crate::text::{Lang, Text};

/// Every preset scenario: (id, JSON text). The id is the file name without `.json`.
const PRESETS: &[(&str, &str)] = &[
    ("classic", include_str!("../../../assets/scenarios/classic.json")),
    ("update-mode", include_str!("../../../assets/scenarios/update-mode.json")),
    ("complete-mode", include_str!("../../../assets/scenarios/complete-mode.json")),
    ("append-tumbling", include_str!("../../../assets/scenarios/append-tumbling.json")),
    ("late-data", include_str!("../../../assets/scenarios/late-data.json")),
    ("stateless-filter", include_str!("../../../assets/scenarios/stateless-filter.json")),
    ("dedup", include_str!("../../../assets/scenarios/dedup.json")),
    ("no-watermark-append-error", include_str!("../../../assets/scenarios/no-watermark-append-error.json")),
    ("session-window", include_str!("../../../assets/scenarios/session-window.json")),
    ("session-dynamic-gap", include_str!("../../../assets/scenarios/session-dynamic-gap.json")),
    ("dedup-within-watermark", include_str!("../../../assets/scenarios/dedup-within-watermark.json")),
    ("chained-aggregation", include_str!("../../../assets/scenarios/chained-aggregation.json")),
    ("limit", include_str!("../../../assets/scenarios/limit.json")),
    ("union-watermarks", include_str!("../../../assets/scenarios/union-watermarks.json")),
    ("union-watermarks-max", include_str!("../../../assets/scenarios/union-watermarks-max.json")),
    ("stream-static-join", include_str!("../../../assets/scenarios/stream-static-join.json")),
    ("stream-stream-inner-join", include_str!("../../../assets/scenarios/stream-stream-inner-join.json")),
    ("stream-stream-outer-join", include_str!("../../../assets/scenarios/stream-stream-outer-join.json")),
    ("kafka-source", include_str!("../../../assets/scenarios/kafka-source.json")),
    ("socket-source", include_str!("../../../assets/scenarios/socket-source.json")),
    ("network-word-count", include_str!("../../../assets/scenarios/network-word-count.json")),
    ("network-word-count-windowed", include_str!("../../../assets/scenarios/network-word-count-windowed.json")),
    ("rate-source", include_str!("../../../assets/scenarios/rate-source.json")),
    ("file-source", include_str!("../../../assets/scenarios/file-source.json")),
    ("tumbling-start-time", include_str!("../../../assets/scenarios/tumbling-start-time.json")),
    ("apply-in-pandas-count", include_str!("../../../assets/scenarios/apply-in-pandas-count.json")),
    ("apply-in-pandas-session", include_str!("../../../assets/scenarios/apply-in-pandas-session.json")),
    ("device-silence-alert", include_str!("../../../assets/scenarios/device-silence-alert.json")),
    ("apply-in-pandas-mode-error", include_str!("../../../assets/scenarios/apply-in-pandas-mode-error.json")),
    ("transform-with-state-session", include_str!("../../../assets/scenarios/transform-with-state-session.json")),
    ("busy-board", include_str!("../../../assets/scenarios/busy-board.json")),
];

/// Every preset scenario: (id, JSON text), a generated preset's steps made from its rule
/// ([`crate::lab::generate::expand`]).
pub fn presets() -> Vec<(&'static str, String)> {
    PRESETS.iter().map(|(id, json)| (*id, crate::lab::generate::expand(json).unwrap_or_else(|_| json.to_string()))).collect()
}

/// The preset scenario `id`, parsed (a generated one with its steps made); `None` for an
/// unknown id (or a file that does not parse, which the tests rule out).
pub fn preset(id: &str) -> Option<Scenario> {
    let json = PRESETS.iter().find(|(p, _)| *p == id)?.1;
    Scenario::from_json(&crate::lab::generate::expand(json).ok()?).ok()
}

/// The columns Spark's own reader gives a stream of source `kind` with the reader `options`,
/// whatever schema the code asks for: `socket` is `value` (`TextSocketReader.SCHEMA_REGULAR`),
/// with `includeTimestamp` `value, timestamp` (`SCHEMA_TIMESTAMP`); `rate` is `timestamp,
/// value` (`RateStreamProvider.SCHEMA`); `None` for kinds whose columns are the stream's own
/// (files take the code's schema; the lab's `kafka` kind always shows Kafka's columns).
fn spark_columns(kind: &str, options: &[(String, String)]) -> Option<&'static [&'static str]> {
    let set = |key: &str| options.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).is_some_and(|(_, v)| v.eq_ignore_ascii_case("true"));
    match kind {
        "socket" if set("includeTimestamp") => Some(&["value", "timestamp"]),
        "socket" => Some(&["value"]),
        "rate" => Some(&["timestamp", "value"]),
        _ => None,
    }
}

/// The example whose only stream is a source of `kind` (`socket`, `rate`, `kafka`, `file`) with
/// the columns Spark's reader gives that kind with the code's reader `options`
/// ([`spark_columns`]), first in the picker's order: where code written for that source runs as
/// written (the guide's socket word count reads `value`). `None` when no example has one (a
/// socket read with `includeTimestamp`).
pub fn example_with_source(kind: &str, options: &[(String, String)]) -> Option<&'static str> {
    let want = spark_columns(kind, options);
    single_streams().iter().find(|(_, k, columns)| k == kind && want.is_none_or(|w| columns.iter().map(String::as_str).eq(w.iter().copied()))).map(|(id, _, _)| *id)
}

/// Each preset with a single stream: (id, its kind, its column names), in the picker's order,
/// read once from the files' `sources` (the lab's view asks on every repaint).
fn single_streams() -> &'static [(&'static str, String, Vec<String>)] {
    static INDEX: std::sync::OnceLock<Vec<(&'static str, String, Vec<String>)>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        PRESETS
            .iter()
            .filter_map(|(id, json)| {
                #[derive(serde::Deserialize)]
                struct File {
                    sources: BTreeMap<String, streamlab_engine::scenario::SourceDef>,
                }
                let file: File = serde_json::from_str(json).ok()?;
                let mut sources = file.sources.into_values();
                let (Some(only), None) = (sources.next(), sources.next()) else { return None };
                Some((*id, only.kind.unwrap_or_else(|| "memory".into()), only.schema.into_iter().map(|(c, _)| c).collect()))
            })
            .collect()
    })
}

/// The raw file of preset `id` (a generated preset's `generate` block still in it).
pub fn preset_file(id: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(p, _)| *p == id).map(|(_, json)| *json)
}

/// A preset's names and notes in every language: the extension keys `name`, `title` and
/// `notes` of the preset file for English and the same keys with the language's code as a
/// suffix for the others (`name_ko`); the engine keeps them in `Scenario::extra` and never
/// reads them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PresetInfo {
    /// The preset's id, the scenario's `id` (`classic`).
    pub id: String,
    /// A short name that questions and lessons use ("Classic sliding windows").
    pub name: Text,
    /// The one-line title (the scenario's `title`).
    pub title: Text,
    /// What the preset shows.
    pub notes: Text,
}

impl PresetInfo {
    /// Reads the keys of a preset file (see [`PresetInfo`]); a missing key reads as empty text.
    fn from_json(json: &serde_json::Value) -> PresetInfo {
        let field = |key: &str| {
            Text::from_fn(|lang| {
                let key = if lang == Lang::En { key.to_string() } else { format!("{key}_{}", lang.code()) };
                json.get(&key).and_then(|v| v.as_str()).unwrap_or_default().to_string()
            })
        };
        let id = json.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
        PresetInfo { id, name: field("name"), title: field("title"), notes: field("notes") }
    }

    /// The short name in `lang`.
    pub fn name(&self, lang: Lang) -> &str {
        self.name.get(lang)
    }

    /// The one-line title in `lang`.
    pub fn title(&self, lang: Lang) -> &str {
        self.title.get(lang)
    }

    /// The notes in `lang`.
    pub fn notes(&self, lang: Lang) -> &str {
        self.notes.get(lang)
    }
}

/// The names and notes of preset `id`; `None` for an unknown id.
pub fn preset_info(id: &str) -> Option<PresetInfo> {
    let json = PRESETS.iter().find(|(p, _)| *p == id)?.1;
    serde_json::from_str(json).ok().map(|j| PresetInfo::from_json(&j))
}

/// A scenario's title in every language, read as [`PresetInfo`] reads a preset file's (`title`,
/// `title_ko`); a language the scenario has no title in shows the English one.
pub fn scenario_title(s: &Scenario) -> Text {
    let info = serde_json::to_value(s).map(|j| PresetInfo::from_json(&j)).unwrap_or_default();
    info.title.map(|_, t| if t.is_empty() { s.title.clone() } else { t.clone() })
}

/// The day (UTC midnight, µs) of a scenario's first event time: the day short times such as
/// `09:03` are on (the same day the lab shows).
pub fn scenario_day_us(s: &Scenario) -> i64 {
    scenario_day(s).unwrap_or_else(|| parse_timestamp_us("2026-01-01T00:00:00Z").unwrap_or(0))
}

/// The day of a scenario's first event time, if its steps carry any (a rate source's do not).
pub fn scenario_day(s: &Scenario) -> Option<i64> {
    scenario_first_time(s).map(day_of)
}

/// The first time (µs) written in a scenario's steps, in step order: the first event the
/// example brings. `None` when its steps carry no time (a rate source's).
pub fn scenario_first_time(s: &Scenario) -> Option<i64> {
    s.steps.iter().flat_map(|st| st.values().flatten()).find_map(|r| r.values().find_map(|v| v.as_str().and_then(|t| parse_timestamp_us(t).ok())))
}

/// UTC midnight (µs) of the day `t` (µs) falls on.
pub fn day_of(t: i64) -> i64 {
    const DAY: i64 = 86_400_000_000;
    t.div_euclid(DAY) * DAY
}
