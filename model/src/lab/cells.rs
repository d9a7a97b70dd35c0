//! One value as the lab shows it: a cell, a time on the scenario's day, the processing-time
//! clock, a state-table cell. Used by the session's views and the time picture alike.

use streamlab_engine::execution::group_state::CallReason;
use streamlab_engine::execution::state_rows::StateCell;
use streamlab_engine::scenario::display_value;
use streamlab_engine::types::{format_timestamp_us, Value};

/// A cell as the lab shows it: times on the scenario's day as `12:07` (`12:07:30`,
/// `12:04:59.999999`), other days in full; windows as `[12:00, 12:10)`, in full both when one
/// bound is on another day.
pub fn display_cell(v: &Value, base_day_us: i64) -> String {
    match v {
        Value::Timestamp(t) => {
            let day = 86_400_000_000i64;
            if t.div_euclid(day) * day != base_day_us {
                return format_timestamp_us(*t);
            }
            let rem = t.rem_euclid(day);
            let (h, m, s, us) = (rem / 3_600_000_000, rem / 60_000_000 % 60, rem / 1_000_000 % 60, rem % 1_000_000);
            match (s, us) {
                (0, 0) => format!("{h:02}:{m:02}"),
                (_, 0) => format!("{h:02}:{m:02}:{s:02}"),
                _ => format!("{h:02}:{m:02}:{s:02}.{us:06}"),
            }
        }
        // A window (`struct<start: timestamp, end: timestamp>`) reads as the interval it is;
        // any other struct, a two-field one included, as Spark shows a struct: `{u1, 1}`.
        // A window that starts or ends on another day writes both bounds in full (a day-long
        // window read `[2026-03-01T13:00:00Z, 13:00)`, which looks empty).
        Value::Struct(f) if f.len() == 2 && f.iter().all(|v| matches!(v, Value::Timestamp(_))) => {
            let day = 86_400_000_000i64;
            let on_day = f.iter().all(|v| matches!(v, Value::Timestamp(t) if t.div_euclid(day) * day == base_day_us));
            let bound = |v: &Value| match v {
                Value::Timestamp(t) if !on_day => format_timestamp_us(*t),
                v => display_cell(v, base_day_us),
            };
            format!("[{}, {})", bound(&f[0]), bound(&f[1]))
        }
        other => display_value(other),
    }
}

/// A timestamp (µs since the epoch) as [`display_cell`] shows it: `12:07` on the scenario's
/// day (the time picture's axis and watermark labels).
pub fn display_time(us: i64, base_day_us: i64) -> String {
    display_cell(&Value::Timestamp(us), base_day_us)
}

/// The scenario's day (`base_day_us`, UTC midnight in µs) as a date, `2026-01-05`: the date
/// part of a full time written on that day.
pub fn day_text(base_day_us: i64) -> String {
    format_timestamp_us(base_day_us).chars().take_while(|&c| c != 'T').collect()
}

/// `h:mm:ss` of the lab's processing-time clock (ms since the query's start), as its clock
/// panel shows it: `0:00:10`.
pub fn clock_text(ms: i64) -> String {
    let s = ms.div_euclid(1000);
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// One state-table cell as the lab shows it (times on the scenario's day `day`, µs).
pub fn state_cell_text(c: &StateCell, day: i64) -> String {
    match c {
        StateCell::Value(v) => display_cell(v, day),
        StateCell::Gone | StateCell::Matched(false) | StateCell::Called(None) => "—".to_string(),
        StateCell::SessionFrom(t) => format!("[{}, …)", display_cell(&Value::Timestamp(*t), day)),
        StateCell::Matched(true) => "✓".to_string(),
        StateCell::ProcessingDeadline(ms) => format!("⏱ {}", clock_text(*ms)),
        StateCell::Blank => String::new(),
        StateCell::Called(Some(CallReason::Data)) => "▶ rows".to_string(),
        StateCell::Called(Some(CallReason::TimedOut)) => "⏰ hasTimedOut".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_reads_as_an_interval_and_another_struct_as_a_struct() {
        let day = 1_767_225_600_000_000; // 2026-01-01T00:00:00Z
        let at = |h: i64| Value::Timestamp(day + h * 3_600_000_000);
        assert_eq!(display_cell(&Value::Struct(std::rc::Rc::from(vec![at(12), at(13)])), day), "[12:00, 13:00)");
        // A day-long window from 13:00 the day before to 13:00 on the scenario's day: both
        // bounds in full, or it would read [2025-12-31T13:00:00Z, 13:00).
        assert_eq!(display_cell(&Value::Struct(std::rc::Rc::from(vec![at(-11), at(13)])), day), "[2025-12-31T13:00:00Z, 2026-01-01T13:00:00Z)");
        let pair = display_cell(&Value::Struct(std::rc::Rc::from(vec![Value::str("u1"), Value::Long(1)])), day);
        assert!(!pair.starts_with('[') && pair.contains("u1") && pair.contains('1'), "{pair}");
    }
}
