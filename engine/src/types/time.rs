//! Time: timestamps in µs since the epoch (UTC), delays in ms, and Spark's interval strings.
//!
//! Mirrors `org.apache.spark.sql.catalyst.util.IntervalUtils.stringToInterval` for the
//! subset learners write (`"10 minutes"`, `"1 hour 30 minutes"`, `"interval 2 hours"`,
//! `"0 seconds"`, `"-5 seconds"`, `"1 month"`), and Spark's rules for turning an interval
//! into a watermark delay (a month is 31 days, `EventTimeWatermark.getDelayMs`) or a window
//! length (months rejected, `TimeWindow.getIntervalInMicroSeconds`).

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};
use thiserror::Error;

/// µs in one millisecond.
pub const MICROS_PER_MILLI: i64 = 1_000;
/// µs in one second.
pub const MICROS_PER_SECOND: i64 = 1_000_000;
/// µs in one day.
pub const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SECOND;

/// A calendar interval as Spark keeps it: months, days and µs kept apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CalendarInterval {
    pub months: i32,
    pub days: i32,
    pub micros: i64,
}

/// An interval string Spark would not accept. Displayed as Spark's `INVALID_INTERVAL_FORMAT`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("[INVALID_INTERVAL_FORMAT.{kind}] Error parsing '{input}' to interval. {detail}")]
pub struct IntervalError {
    pub input: String,
    pub kind: &'static str,
    pub detail: String,
}

impl CalendarInterval {
    /// Parses an interval string such as `"10 minutes"`, `"1 day 3 hours"` or
    /// `"interval 1 hour"` (case-insensitive; singular or plural units; fractional seconds).
    ///
    /// # Examples
    /// ```
    /// use streamlab_engine::types::CalendarInterval;
    /// let i = CalendarInterval::parse("interval 1 hour 30 minutes").unwrap();
    /// assert_eq!(i.micros, 90 * 60 * 1_000_000);
    /// ```
    ///
    /// # Errors
    /// [`IntervalError`] naming the first token that is not a number or a known unit.
    pub fn parse(input: &str) -> Result<CalendarInterval, IntervalError> {
        let err = |kind: &'static str, detail: String| IntervalError {
            input: input.to_string(),
            kind,
            detail,
        };
        let lower = input.trim().to_ascii_lowercase();
        let mut tokens: Vec<&str> = lower.split_whitespace().collect();
        if tokens.first() == Some(&"interval") {
            tokens.remove(0);
        }
        if tokens.is_empty() {
            return Err(err("INPUT_IS_EMPTY", "The input is empty.".into()));
        }
        let mut out = CalendarInterval::default();
        let mut i = 0;
        while i < tokens.len() {
            let number = tokens[i];
            let Some(unit) = tokens.get(i + 1) else {
                return Err(err(
                    "MISSING_UNIT",
                    format!("Missing a unit after the number '{number}'; write e.g. '{number} minutes'."),
                ));
            };
            let value: f64 = number
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| err("INVALID_VALUE", format!("Invalid value '{number}': expected a number such as 10.")))?;
            let unit = unit.trim_end_matches(',');
            let whole = |v: f64, u: &str| -> Result<i64, IntervalError> {
                if v.fract() != 0.0 {
                    Err(err("INVALID_FRACTION", format!("'{u}' cannot have a fractional part.")))
                } else {
                    Ok(v as i64)
                }
            };
            let add_micros = |out: &mut CalendarInterval, m: f64| -> Result<(), IntervalError> {
                let m = m.round();
                if m.abs() > 9.0e18 {
                    return Err(err("ARITHMETIC_EXCEPTION", "The interval is too large.".into()));
                }
                out.micros = out
                    .micros
                    .checked_add(m as i64)
                    .ok_or_else(|| err("ARITHMETIC_EXCEPTION", "The interval is too large.".into()))?;
                Ok(())
            };
            match unit.trim_end_matches('s') {
                "year" => out.months += whole(value, unit)? as i32 * 12,
                "month" => out.months += whole(value, unit)? as i32,
                "week" => out.days += whole(value, unit)? as i32 * 7,
                "day" => out.days += whole(value, unit)? as i32,
                "hour" => add_micros(&mut out, value * 3_600.0 * MICROS_PER_SECOND as f64)?,
                "minute" => add_micros(&mut out, value * 60.0 * MICROS_PER_SECOND as f64)?,
                "second" => add_micros(&mut out, value * MICROS_PER_SECOND as f64)?,
                "millisecond" => add_micros(&mut out, value * MICROS_PER_MILLI as f64)?,
                "microsecond" => add_micros(&mut out, value)?,
                _ => {
                    return Err(err(
                        "INVALID_UNIT",
                        format!("Invalid unit '{unit}': use seconds, minutes, hours, days or weeks."),
                    ))
                }
            }
            i += 2;
        }
        Ok(out)
    }

    /// The delay in ms a watermark uses: `months·31 days + days + µs/1000`
    /// (`EventTimeWatermark.getDelayMs`; a month counts as 31 days).
    pub fn delay_ms(&self) -> i64 {
        i64::from(self.months) * 31 * 86_400_000 + i64::from(self.days) * 86_400_000 + self.micros / 1000
    }

    /// The length in µs a time window uses (`days·86 400 000 000 + µs`).
    ///
    /// # Errors
    /// Spark's `_LEGACY_ERROR_TEMP_3231` text when the interval has months.
    pub fn window_micros(&self, text: &str) -> Result<i64, String> {
        if self.months != 0 {
            return Err(format!("Intervals greater than a month is not supported ({text})."));
        }
        Ok(i64::from(self.days) * MICROS_PER_DAY + self.micros)
    }

    /// True when the interval adds a positive amount of time.
    pub fn is_positive(&self) -> bool {
        i64::from(self.months) * 31 * MICROS_PER_DAY + i64::from(self.days) * MICROS_PER_DAY + self.micros > 0
    }

    /// Adds this interval to a timestamp in µs (months as 31 days: only used for gaps the
    /// corpus does not exercise with months).
    pub fn add_to(&self, ts_us: i64) -> i64 {
        ts_us
            .saturating_add(i64::from(self.months) * 31 * MICROS_PER_DAY)
            .saturating_add(i64::from(self.days) * MICROS_PER_DAY)
            .saturating_add(self.micros)
    }
}

/// Parses an ISO-8601 timestamp (`2026-01-01T12:07:00Z`, `2026-01-01T12:07:00.5+09:00`,
/// `2026-01-01 12:07:00`; no offset means UTC) into µs since the epoch.
///
/// # Errors
/// A message naming the text and the accepted shape.
pub fn parse_timestamp_us(text: &str) -> Result<i64, String> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Ok(dt.with_timezone(&Utc).timestamp_micros());
    }
    for fmt in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"] {
        if let Ok(n) = NaiveDateTime::parse_from_str(t, fmt) {
            return Ok(n.and_utc().timestamp_micros());
        }
    }
    Err(format!(
        "'{t}' is not a timestamp: write it as 2026-01-01T12:07:00Z (UTC)"
    ))
}

/// Formats µs since the epoch as the corpus does: `YYYY-MM-DDTHH:MM:SSZ`, with `.ffffff`
/// only when the µs are non-zero.
pub fn format_timestamp_us(us: i64) -> String {
    match DateTime::<Utc>::from_timestamp_micros(us) {
        Some(dt) if us % MICROS_PER_SECOND == 0 => dt.to_rfc3339_opts(SecondsFormat::Secs, true),
        Some(dt) => dt.to_rfc3339_opts(SecondsFormat::Micros, true),
        None => format!("{us}µs"),
    }
}

/// Formats ms since the epoch as Spark's progress JSON does: `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
pub fn format_progress_ms(ms: i64) -> String {
    match DateTime::<Utc>::from_timestamp_millis(ms) {
        Some(dt) => dt.to_rfc3339_opts(SecondsFormat::Millis, true),
        None => format!("{ms}ms"),
    }
}

/// Formats a duration in µs as a short human text: `10 minutes`, `1 hour 30 minutes`, `0 seconds`.
pub fn format_duration_us(us: i64) -> String {
    if us == 0 {
        return "0 seconds".into();
    }
    let mut rest = us.unsigned_abs();
    let mut parts = Vec::new();
    for (unit, size) in [
        ("day", 86_400_000_000u64),
        ("hour", 3_600_000_000),
        ("minute", 60_000_000),
        ("second", 1_000_000),
        ("millisecond", 1_000),
        ("microsecond", 1),
    ] {
        let n = rest / size;
        if n > 0 {
            parts.push(format!("{n} {unit}{}", if n == 1 { "" } else { "s" }));
            rest %= size;
        }
    }
    let text = parts.join(" ");
    if us < 0 {
        format!("-{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_spark_interval_strings() {
        // 10 minutes = 600 s = 600 000 000 µs.
        assert_eq!(CalendarInterval::parse("10 minutes").unwrap().micros, 600_000_000);
        assert_eq!(CalendarInterval::parse("interval 1 hour").unwrap().micros, 3_600_000_000);
        assert_eq!(CalendarInterval::parse("1 day 3 hours").unwrap().days, 1);
        assert_eq!(CalendarInterval::parse("0 seconds").unwrap().micros, 0);
        assert_eq!(CalendarInterval::parse("-5 seconds").unwrap().micros, -5_000_000);
        assert_eq!(CalendarInterval::parse("1.5 seconds").unwrap().micros, 1_500_000);
        assert_eq!(CalendarInterval::parse("2 WEEKS").unwrap().days, 14);
    }

    #[test]
    fn month_delay_is_31_days() {
        // spec §2.1: a "1 month" delay is 31 days of ms.
        assert_eq!(CalendarInterval::parse("1 month").unwrap().delay_ms(), 31 * 86_400_000);
        assert!(CalendarInterval::parse("1 month").unwrap().window_micros("1 month").is_err());
    }

    #[test]
    fn bad_intervals_name_the_problem() {
        let e = CalendarInterval::parse("10 minuts").unwrap_err();
        assert_eq!(e.kind, "INVALID_UNIT");
        assert!(e.to_string().contains("'minuts'"), "{e}");
        assert_eq!(CalendarInterval::parse("ten minutes").unwrap_err().kind, "INVALID_VALUE");
        assert_eq!(CalendarInterval::parse("10").unwrap_err().kind, "MISSING_UNIT");
        assert_eq!(CalendarInterval::parse("  ").unwrap_err().kind, "INPUT_IS_EMPTY");
    }

    #[test]
    fn timestamps_round_trip() {
        let t = parse_timestamp_us("2026-01-01T12:07:00Z").unwrap();
        assert_eq!(format_timestamp_us(t), "2026-01-01T12:07:00Z");
        let t2 = parse_timestamp_us("2026-01-01T12:04:59.999999Z").unwrap();
        assert_eq!(t - t2, 2 * 60 * 1_000_000 + 1);
        assert_eq!(format_timestamp_us(t2), "2026-01-01T12:04:59.999999Z");
        assert_eq!(parse_timestamp_us("2026-01-01 12:07:00").unwrap(), t);
        assert!(parse_timestamp_us("yesterday").is_err());
        assert_eq!(format_progress_ms(0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn durations_read_back() {
        assert_eq!(format_duration_us(600_000_000), "10 minutes");
        assert_eq!(format_duration_us(5_400_000_000), "1 hour 30 minutes");
    }
}
