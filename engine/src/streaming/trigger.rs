//! `Trigger`: when the next micro-batch runs (`Trigger.scala`,
//! `TriggerExecutor.scala`, PySpark `DataStreamWriter.trigger`).

use crate::error::{AnalysisError, Stage};
use crate::types::CalendarInterval;

/// How batches are triggered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Trigger {
    /// `trigger(processingTime=...)`; the default is `ProcessingTime(0)`: back to back.
    /// Each trigger runs at most one batch; an overrunning batch starts the next at once.
    #[default]
    Default,
    /// `trigger(processingTime='10 seconds')`: a batch at most every interval, aligned to
    /// multiples of it.
    ProcessingTime {
        /// The interval, ms.
        interval_ms: i64,
    },
    /// `trigger(once=True)` (deprecated): one batch with all available data, no trailing
    /// no-data batch, then stop.
    Once,
    /// `trigger(availableNow=True)`: every batch for the data available at start, including
    /// no-data batches, then stop.
    AvailableNow,
    /// `trigger(continuous=...)`: long-running tasks, epochs every interval; at-least-once;
    /// map-like queries only.
    Continuous {
        /// The checkpoint (epoch) interval, ms.
        interval_ms: i64,
    },
}

/// `ms` as the interval text a PySpark program writes for a trigger: in the largest of hours,
/// minutes and seconds that holds it whole, else in milliseconds (`10 seconds`, `1 minute`,
/// `1500 milliseconds`). Spark's interval parser reads each back to `ms`.
pub(crate) fn interval_text(ms: i64) -> String {
    if ms == 0 {
        return "0 seconds".into();
    }
    let (n, unit) = [(3_600_000, "hour"), (60_000, "minute"), (1_000, "second")]
        .into_iter()
        .find(|&(u, _)| ms % u == 0)
        .map_or((ms, "millisecond"), |(u, name)| (ms / u, name));
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

impl Trigger {
    /// When the trigger after one that started at `started_ms` and finished at `finished_ms`
    /// fires (`ProcessingTimeExecutor`): processing-time triggers are aligned to
    /// multiples of the interval; a batch that overran its slot is followed at once (no
    /// catch-up of missed slots). Other triggers fire again as soon as the last one finished.
    pub fn next_fire_ms(&self, started_ms: i64, finished_ms: i64) -> i64 {
        match self {
            Trigger::ProcessingTime { interval_ms } if *interval_ms > 0 => {
                let next = started_ms.div_euclid(*interval_ms) * interval_ms + interval_ms;
                next.max(finished_ms)
            }
            _ => finished_ms,
        }
    }

    /// The PySpark spelling.
    pub fn describe(&self) -> String {
        match self {
            Trigger::Default => "default (processingTime='0 seconds')".into(),
            Trigger::ProcessingTime { interval_ms } => format!("processingTime='{}'", interval_text(*interval_ms)),
            Trigger::Once => "once=True".into(),
            Trigger::AvailableNow => "availableNow=True".into(),
            Trigger::Continuous { interval_ms } => format!("continuous='{}'", interval_text(*interval_ms)),
        }
    }

    /// Reads PySpark's `trigger(...)` keyword arguments: exactly one of `processingTime`,
    /// `once`, `availableNow`, `continuous`, `realTime`.
    ///
    /// # Errors
    /// PySpark's `ONLY_ALLOW_SINGLE_TRIGGER`, `VALUE_NOT_NON_EMPTY_STR`, `VALUE_NOT_ALLOWED`,
    /// or an interval error.
    pub fn from_kwargs(kwargs: &[(String, TriggerArg)]) -> Result<Trigger, AnalysisError> {
        let err = |class: &str, msg: String| AnalysisError::new(Stage::Define, class, msg);
        if kwargs.len() != 1 {
            return Err(err("ONLY_ALLOW_SINGLE_TRIGGER", "Only a single trigger is allowed.".into()));
        }
        let (name, value) = &kwargs[0];
        let interval = |s: &str| -> Result<i64, AnalysisError> {
            if s.trim().is_empty() {
                return Err(err("VALUE_NOT_NON_EMPTY_STR", format!("Value for `{name}` must be a non empty string, got '{s}'.")));
            }
            let iv = CalendarInterval::parse(s).map_err(|e| err(crate::types::IntervalError::CONDITION, e.message()))?;
            iv.delay_ms().map_err(|_| err(crate::types::IntervalOverflow::CONDITION, crate::types::IntervalOverflow::MESSAGE.into()))
        };
        match (name.as_str(), value) {
            ("processingTime", TriggerArg::Str(s)) => Ok(Trigger::ProcessingTime { interval_ms: interval(s)? }),
            ("continuous", TriggerArg::Str(s)) => Ok(Trigger::Continuous { interval_ms: interval(s)? }),
            ("once", TriggerArg::Bool(true)) => Ok(Trigger::Once),
            ("availableNow", TriggerArg::Bool(true)) => Ok(Trigger::AvailableNow),
            ("once" | "availableNow", other) => Err(err("VALUE_NOT_ALLOWED", format!("Value for `{name}` must be True, got '{other}'."))),
            ("realTime", _) => Err(err("UNSUPPORTED_TRIGGER", "Real-time mode is described in the lab, not simulated.".into())),
            (other, _) => Err(err("UNSUPPORTED_TRIGGER", format!("Unknown trigger '{other}': use processingTime, once, availableNow or continuous."))),
        }
    }
}

/// A keyword argument value of `trigger(...)`.
#[derive(Debug, Clone, PartialEq)]
pub enum TriggerArg {
    /// A string, as `processingTime` and `continuous` take (`'10 seconds'`).
    Str(String),
    /// A boolean, as `once` and `availableNow` take.
    Bool(bool),
    /// Any other Python value: its type name, for the error message.
    Other(String),
}

impl std::fmt::Display for TriggerArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TriggerArg::Str(s) => f.write_str(s),
            TriggerArg::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            TriggerArg::Other(s) => f.write_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw(name: &str, v: TriggerArg) -> Vec<(String, TriggerArg)> {
        vec![(name.to_string(), v)]
    }

    #[test]
    fn a_trigger_is_described_as_a_program_writes_it() {
        // Each text is one Spark's interval parser reads back to the same ms.
        for (ms, text) in [(10_000, "processingTime='10 seconds'"), (60_000, "processingTime='1 minute'"), (7_200_000, "processingTime='2 hours'"), (1_500, "processingTime='1500 milliseconds'"), (0, "processingTime='0 seconds'")] {
            let t = Trigger::ProcessingTime { interval_ms: ms };
            assert_eq!(t.describe(), text);
            let arg = text.trim_start_matches("processingTime='").trim_end_matches('\'');
            assert_eq!(Trigger::from_kwargs(&kw("processingTime", TriggerArg::Str(arg.into()))).unwrap(), t, "{text}");
        }
        assert_eq!(Trigger::Continuous { interval_ms: 1_000 }.describe(), "continuous='1 second'");
    }

    #[test]
    fn processing_time_aligns_and_does_not_catch_up() {
        let t = Trigger::ProcessingTime { interval_ms: 5000 };
        // Started at 12.3 s, done at 13 s: the next slot is 15 s.
        assert_eq!(t.next_fire_ms(12_300, 13_000), 15_000);
        // Overran to 17.2 s: the next trigger starts at once; the 15 s slot is not made up.
        assert_eq!(t.next_fire_ms(12_300, 17_200), 17_200);
        assert_eq!(Trigger::Default.next_fire_ms(0, 40), 40);
    }

    #[test]
    fn pyspark_keywords() {
        assert_eq!(Trigger::from_kwargs(&kw("processingTime", TriggerArg::Str("5 seconds".into()))).unwrap(), Trigger::ProcessingTime { interval_ms: 5000 });
        assert_eq!(Trigger::from_kwargs(&kw("availableNow", TriggerArg::Bool(true))).unwrap(), Trigger::AvailableNow);
        assert_eq!(Trigger::from_kwargs(&kw("once", TriggerArg::Bool(false))).unwrap_err().error_class, "VALUE_NOT_ALLOWED");
        let two = vec![("once".to_string(), TriggerArg::Bool(true)), ("availableNow".to_string(), TriggerArg::Bool(true))];
        assert_eq!(Trigger::from_kwargs(&two).unwrap_err().message, "Only a single trigger is allowed.");
        assert_eq!(Trigger::from_kwargs(&kw("processingTime", TriggerArg::Str("".into()))).unwrap_err().error_class, "VALUE_NOT_NON_EMPTY_STR");
    }
}
