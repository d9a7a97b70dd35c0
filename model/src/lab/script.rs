//! Lab actions written as text, for lessons ("press Next step"), question claims that need a
//! lab session (a trigger, a source kind, a restart) and tests. Each line is one thing a
//! learner can do in the lab; [`apply`] does it on a [`LabSession`] through the same methods the
//! page calls, so a scripted run is exactly what a learner would see.
//!
//! Syntax (one action per line, `name` or `name: argument`):
//!
//! | text | does |
//! |---|---|
//! | `next_step` | "Next step ▶": the scenario's next events, then every batch until idle |
//! | `run_steps` | `next_step` until every step is done |
//! | `push_step` | the next step's events as pending input, no batch |
//! | `trigger` | one trigger of the current trigger (default: at most one batch) |
//! | `reset` | forget every action |
//! | `restart` / `restart: <query>` | stop and start on the same checkpoint (optionally a changed query) |
//! | `crash: <point>` | the next batch dies at `after-offset-log`, `mid-sink` or `before-commit` |
//! | `mode: <append\|update\|complete>` | the output mode |
//! | `sink: <id>` | `memory`, `console`, `file`, `kafka`, `foreachBatch-naive`, `foreachBatch-idempotent`, `foreach` |
//! | `trigger_kind: <id>` | `default`, `processingTime:<ms>`, `once`, `availableNow`, `continuous:<ms>` |
//! | `source: <name> <kind> [maxFilesPerTrigger]` | a source's kind (`memory`, `file`, `socket`, `kafka`, `rate`) |
//! | `checkpoint: <on\|off>` | whether the lab gives a checkpoint location |
//! | `delay: <index> <interval>` | the delay of the index-th `withWatermark` (0-based) |
//! | `query: <text>` | replace the query text |
//! | `push: <source> col=value, col=value` | add one event (times as `09:30` on the scenario's day) |
//! | `advance: <source> <time>` | add an event at that time (other columns copied) and run until idle |
//! | `wait: <ms>` | processing time passes (the clock's "Wait" buttons), no batch |
//!
//! `trigger`, `restart`, `crash` and `wait` are entries of the session's log: they parse to
//! [`LabAction::Do`] with the log's own [`Action`]; the other lines are settings or steps made
//! of several log entries.

use std::collections::BTreeMap;

use streamlab_engine::streaming::{CrashPoint, OutputMode, SinkKind, Trigger};

use crate::lab::persist::parse_trigger;
use crate::lab::session::{Action, LabSession};

/// One lab action (see the module's table for the text form).
#[derive(Debug, Clone, PartialEq)]
pub enum LabAction {
    /// `next_step`: "Next step ▶", the scenario's next events, then every batch until idle.
    NextStep,
    /// `run_steps`: `next_step` until every step is done.
    RunSteps,
    /// `push_step`: the next step's events as pending input, no batch.
    PushStep,
    /// An entry of the session's log, done as its control does it ([`LabSession::perform`]):
    /// `trigger` ([`Action::Trigger`]: one trigger of the current trigger, by default at most one
    /// micro-batch), `restart` / `restart: <query>` ([`Action::Restart`]: stop the query and start
    /// it on the same checkpoint, with the changed query text when there is one), `crash: <point>`
    /// ([`Action::Crash`]: the next micro-batch dies at this point and the query stops),
    /// `wait: <ms>` ([`Action::Wait`]: processing time passes, the clock's "Wait" buttons).
    Do(Action),
    /// `reset`: forget every action and start the scenario again.
    Reset,
    /// `mode: <append|update|complete>`: the output mode.
    Mode(OutputMode),
    /// `sink: <id>`: the sink the query writes to.
    Sink(SinkKind),
    /// `trigger_kind: <id>`: the trigger (`default`, `processingTime:<ms>`, `once`, `availableNow`,
    /// `continuous:<ms>`).
    TriggerKind(Trigger),
    /// `source: <name> <kind> [maxFilesPerTrigger]`: a streaming source's kind.
    Source {
        /// The source's name in the scenario.
        source: String,
        /// `memory`, `file`, `socket`, `kafka` or `rate`.
        kind: String,
        /// A file source's `maxFilesPerTrigger`, when given.
        max_files_per_trigger: Option<u64>,
    },
    /// `checkpoint: <on|off>`: whether the lab gives the query a checkpoint location.
    Checkpoint(bool),
    /// `delay: <index> <interval>`: the delay of the index-th `withWatermark` (0-based).
    Delay {
        /// Which `withWatermark` in the query text, 0-based.
        index: usize,
        /// The new delay threshold as an interval (`5 minutes`).
        delay: String,
    },
    /// `query: <text>`: replace the query text.
    Query(String),
    /// `push: <source> col=value, col=value`: add one event (times as `09:30` on the scenario's day).
    Push {
        /// The source's name in the scenario.
        source: String,
        /// Column name → value as typed (read like the lab's event form).
        fields: BTreeMap<String, String>,
    },
    /// `advance: <source> <time>`: add an event at that time (other columns copied from the source's
    /// last event) and run every batch until idle.
    Advance {
        /// The source's name in the scenario.
        source: String,
        /// The new event's time in its timestamp column (`09:30` on the scenario's day).
        time: String,
    },
}

impl LabAction {
    /// Reads one action.
    ///
    /// # Errors
    /// An unknown action name or an argument that does not fit it.
    pub fn parse(text: &str) -> Result<LabAction, String> {
        let text = text.trim();
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) if !n.contains(' ') => (n.trim(), a.trim()),
            _ => (text, ""),
        };
        let need = |what: &str| if arg.is_empty() { Err(format!("'{name}' needs {what}")) } else { Ok(arg) };
        let none = |a: LabAction| if arg.is_empty() { Ok(a) } else { Err(format!("'{name}' takes no argument")) };
        match name {
            "next_step" => none(LabAction::NextStep),
            "run_steps" => none(LabAction::RunSteps),
            "push_step" => none(LabAction::PushStep),
            "trigger" => none(LabAction::Do(Action::Trigger)),
            "reset" => none(LabAction::Reset),
            "restart" => Ok(LabAction::Do(Action::Restart { query: (!arg.is_empty()).then(|| arg.to_string()) })),
            "crash" => CrashPoint::parse(need("a crash point")?).map(|at| LabAction::Do(Action::Crash { at })).ok_or_else(|| format!("unknown crash point '{arg}'")),
            "mode" => OutputMode::parse(need("an output mode")?).map(LabAction::Mode).map_err(|e| e.message),
            "sink" => SinkKind::parse(need("a sink id")?).map(LabAction::Sink).ok_or_else(|| format!("unknown sink '{arg}'")),
            "trigger_kind" => parse_trigger(need("a trigger id")?).map(LabAction::TriggerKind).ok_or_else(|| format!("unknown trigger '{arg}'")),
            "source" => {
                let parts: Vec<&str> = need("a source name and kind")?.split_whitespace().collect();
                let max = match parts.get(2) {
                    Some(n) => Some(n.parse::<u64>().map_err(|_| format!("maxFilesPerTrigger '{n}' is not a whole number"))?),
                    None => None,
                };
                match parts.as_slice() {
                    [source, kind] | [source, kind, _] => Ok(LabAction::Source { source: source.to_string(), kind: kind.to_string(), max_files_per_trigger: max }),
                    _ => Err(format!("'source' needs '<name> <kind> [maxFilesPerTrigger]', got '{arg}'")),
                }
            }
            "checkpoint" => match need("on or off")? {
                "on" => Ok(LabAction::Checkpoint(true)),
                "off" => Ok(LabAction::Checkpoint(false)),
                other => Err(format!("checkpoint is 'on' or 'off', got '{other}'")),
            },
            "delay" => {
                let (i, d) = need("an index and an interval")?.split_once(' ').ok_or("'delay' needs '<index> <interval>'")?;
                let index = i.parse().map_err(|_| format!("'{i}' is not a watermark index"))?;
                Ok(LabAction::Delay { index, delay: d.trim().to_string() })
            }
            "query" => Ok(LabAction::Query(need("a query")?.to_string())),
            "push" => {
                let (source, rest) = need("a source and fields")?.split_once(' ').ok_or("'push' needs '<source> col=value, ...'")?;
                let mut fields = BTreeMap::new();
                for f in rest.split(',') {
                    let (k, v) = f.split_once('=').ok_or_else(|| format!("'{}' is not col=value", f.trim()))?;
                    fields.insert(k.trim().to_string(), v.trim().to_string());
                }
                Ok(LabAction::Push { source: source.to_string(), fields })
            }
            "advance" => {
                let (source, time) = need("a source and a time")?.split_once(' ').ok_or("'advance' needs '<source> <time>'")?;
                Ok(LabAction::Advance { source: source.to_string(), time: time.trim().to_string() })
            }
            "wait" => need("a time in ms")?.parse::<i64>().map(|ms| LabAction::Do(Action::Wait { ms })).map_err(|_| format!("'wait' needs whole milliseconds, got '{arg}'")),
            other => Err(format!("unknown lab action '{other}'")),
        }
    }
}

/// Does `action` on `session`, as the page's buttons do.
///
/// # Errors
/// What the session refused (a bad event field, no batch to crash, no step left, ...).
pub fn apply(session: &mut LabSession, action: &LabAction) -> Result<(), String> {
    match action {
        LabAction::NextStep => {
            if !session.run_step() {
                return Err("every step of the scenario has run".into());
            }
        }
        LabAction::RunSteps => while session.run_step() {},
        LabAction::PushStep => {
            if !session.push_step() {
                return Err("every step of the scenario has run".into());
            }
        }
        LabAction::Do(a) => session.perform(a.clone())?,
        LabAction::Reset => session.reset(),
        LabAction::Mode(m) => session.set_mode(*m),
        LabAction::Sink(k) => session.set_sink(*k),
        LabAction::TriggerKind(t) => session.set_trigger(*t),
        LabAction::Source { source, kind, max_files_per_trigger } => {
            if !session.sources().iter().any(|s| &s.name == source) {
                return Err(format!("no source named '{source}'"));
            }
            session.set_source_kind(source, kind, *max_files_per_trigger);
        }
        LabAction::Checkpoint(on) => session.set_checkpoint_location(*on),
        LabAction::Delay { index, delay } => session.set_delay(*index, delay)?,
        LabAction::Query(q) => session.set_query(q),
        // A value Spark's reader makes NULL is pushed as NULL; the notes are for the event form.
        LabAction::Push { source, fields } => {
            session.push_event(source, fields)?;
        }
        LabAction::Advance { source, time } => session.advance_with_event(source, time)?,
    }
    Ok(())
}

/// Parses and applies every line of `script` in order.
///
/// # Errors
/// The first line that does not parse or apply, with its number (1-based).
pub fn run(session: &mut LabSession, script: &[String]) -> Result<(), String> {
    for (i, line) in script.iter().enumerate() {
        let action = LabAction::parse(line).map_err(|m| format!("script line {} ('{line}'): {m}", i + 1))?;
        apply(session, &action).map_err(|m| format!("script line {} ('{line}'): {m}", i + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse_and_bad_ones_are_errors() {
        assert_eq!(LabAction::parse("next_step"), Ok(LabAction::NextStep));
        assert_eq!(LabAction::parse(" mode: update "), Ok(LabAction::Mode(OutputMode::Update)));
        assert_eq!(LabAction::parse("trigger_kind: availableNow"), Ok(LabAction::TriggerKind(Trigger::AvailableNow)));
        assert_eq!(LabAction::parse("trigger_kind: processingTime:5000"), Ok(LabAction::TriggerKind(Trigger::ProcessingTime { interval_ms: 5000 })));
        assert_eq!(
            LabAction::parse("source: clicks file 1"),
            Ok(LabAction::Source { source: "clicks".into(), kind: "file".into(), max_files_per_trigger: Some(1) })
        );
        assert_eq!(LabAction::parse("delay: 0 5 minutes"), Ok(LabAction::Delay { index: 0, delay: "5 minutes".into() }));
        let push = LabAction::parse("push: clicks event_id=c9, post_id=1, event_time=09:30").unwrap();
        let LabAction::Push { source, fields } = push else { panic!("not a push") };
        assert_eq!((source.as_str(), fields.len(), fields["event_time"].as_str()), ("clicks", 3, "09:30"));
        assert_eq!(LabAction::parse("restart: clicks.select('post_id')"), Ok(LabAction::Do(Action::Restart { query: Some("clicks.select('post_id')".into()) })));
        assert_eq!(LabAction::parse("restart"), Ok(LabAction::Do(Action::Restart { query: None })));
        assert_eq!(LabAction::parse("trigger"), Ok(LabAction::Do(Action::Trigger)));
        assert_eq!(LabAction::parse("crash: mid-sink"), Ok(LabAction::Do(Action::Crash { at: CrashPoint::MidSink })));
        assert_eq!(LabAction::parse("wait: 5000"), Ok(LabAction::Do(Action::Wait { ms: 5000 })));
        for bad in ["", "jump", "mode: sideways", "crash: somewhere", "sink: parquet", "next_step: 3", "source: clicks", "checkpoint: maybe", "delay: x 5 minutes", "push: clicks", "push: clicks a", "trigger: 2", "wait: soon", "wait"] {
            assert!(LabAction::parse(bad).is_err(), "'{bad}' should not parse");
        }
    }
}
