//! Time: timestamps in µs since the epoch (UTC), their text forms, and durations as text.
//! Interval strings are in [`super::interval`].

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};

/// µs in one millisecond.
pub const MICROS_PER_MILLI: i64 = 1_000;
/// µs in one second.
pub const MICROS_PER_SECOND: i64 = 1_000_000;
/// µs in one day.
pub const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SECOND;

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
