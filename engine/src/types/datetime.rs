//! Spark's text ↔ timestamp rules: the string forms `CAST(s AS TIMESTAMP)` and the JSON reader
//! accept (`DateTimeUtils.parseTimestampString` / `stringToTimestamp`), and Spark's datetime
//! pattern letters (`DateTimeFormatterHelper`, "Datetime Patterns" in the SQL reference)
//! translated to chrono formats for `date_format`, `to_timestamp`, `unix_timestamp`, ...
//!
//! A string without a zone is a wall-clock time in the session time zone
//! ([`spark_string_to_timestamp_in`]); one with an offset or a region id (`Europe/Paris`) names
//! its own zone.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};
use super::time::MICROS_PER_SECOND;
use super::timezone::zone_offset_seconds;

/// What Spark makes of a timestamp string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimestampText {
    /// µs since the epoch.
    Value(i64),
    /// Spark cannot read it: NULL (with `CAST` in non-ANSI mode, or the JSON reader's
    /// PERMISSIVE mode).
    Null,
    /// Spark reads it, but the engine cannot reproduce the value: a time with no date
    /// (Spark takes today's date from the wall clock) or a region zone id. The text says why.
    Unsupported(String),
}

/// Parses `s` as Spark's `stringToTimestamp` does with the session zone UTC: `yyyy`,
/// `yyyy-[m]m`, `yyyy-[m]m-[d]d`, then ` ` or `T`, `[h]h:[m]m:[s]s.[fraction]` (up to 6
/// fraction digits kept, more truncated) and an optional zone (`Z`, `+09:00`, `+0900`, `-5`,
/// `UTC`, `GMT+01:00`, `UTC+1`). Leading and trailing spaces are ignored; a sign before the year
/// is allowed. `DateTimeUtils.scala`.
pub fn spark_string_to_timestamp(text: &str) -> TimestampText {
    spark_string_to_timestamp_in(text, &super::timezone::SessionTimeZone::utc())
}

/// [`spark_string_to_timestamp`] with a session time zone: a string without a zone is a
/// wall-clock time there; a string with a zone (an offset or a region id) names its own.
pub fn spark_string_to_timestamp_in(text: &str, session: &super::timezone::SessionTimeZone) -> TimestampText {
    match parse_timestamp_text(text) {
        Ok((local, None)) => TimestampText::Value(session.from_local_us(local)),
        Ok((local, Some(zone))) => TimestampText::Value(zone.from_local_us(local)),
        Err(t) => t,
    }
}

/// `CAST(s AS DATE)` (`DateTimeUtils.stringToDate`): the date of a timestamp string as written,
/// whatever its time and zone; `None` if Spark cannot read it.
pub fn spark_string_to_date(text: &str) -> Option<i32> {
    match parse_timestamp_text(text) {
        Ok((local, _)) => i32::try_from(local.div_euclid(super::time::MICROS_PER_DAY)).ok(),
        Err(_) => None,
    }
}

/// `CAST(s AS TIMESTAMP_NTZ)`: the wall-clock time a timestamp string writes (µs since
/// 1970-01-01T00:00 local), its zone if any ignored; `None` if Spark cannot read it.
pub fn spark_string_to_wall_us(text: &str) -> Option<i64> {
    parse_timestamp_text(text).ok().map(|(local, _)| local)
}

/// The wall-clock µs a timestamp string writes, and the zone it names if any.
fn parse_timestamp_text(text: &str) -> Result<(i64, Option<super::timezone::SessionTimeZone>), TimestampText> {
    let b = text.trim_matches(|c: char| c.is_whitespace() || c.is_control()).as_bytes();
    if b.is_empty() {
        return Err(TimestampText::Null);
    }
    let valid = |segment: usize, digits: usize| -> bool {
        segment == 6
            || (segment == 0 && (4..=6).contains(&digits))
            || (segment == 7 && digits <= 2)
            || (segment != 0 && segment != 6 && segment != 7 && (1..=2).contains(&digits))
    };
    let mut segments: [i64; 9] = [1, 1, 1, 0, 0, 0, 0, 0, 0];
    let mut i = 0usize;
    let mut value: i64 = 0;
    let mut digits = 0usize;
    let mut j = 0usize;
    let mut digits_milli = 0;
    let mut just_time = false;
    let mut year_sign: Option<i64> = None;
    let mut tz: Option<String> = None;
    if b[0] == b'-' || b[0] == b'+' {
        year_sign = Some(if b[0] == b'-' { -1 } else { 1 });
        j += 1;
    }
    macro_rules! next_segment {
        () => {{
            if !valid(i, digits) {
                return Err(TimestampText::Null);
            }
            segments[i] = value;
            value = 0;
            digits = 0;
            i += 1;
        }};
    }
    while j < b.len() {
        let c = b[j];
        if c.is_ascii_digit() {
            if i == 6 {
                digits_milli += 1;
            }
            if i != 6 || digits < 6 {
                value = value.saturating_mul(10).saturating_add(i64::from(c - b'0'));
            }
            digits += 1;
        } else if j == 0 && c == b'T' {
            just_time = true;
            i += 3;
        } else if i < 2 {
            if c == b'-' {
                next_segment!();
            } else if i == 0 && c == b':' && year_sign.is_none() {
                just_time = true;
                if !valid(3, digits) {
                    return Err(TimestampText::Null);
                }
                segments[3] = value;
                value = 0;
                digits = 0;
                i = 4;
            } else {
                return Err(TimestampText::Null);
            }
        } else if i == 2 {
            if c == b' ' || c == b'T' {
                next_segment!();
            } else {
                return Err(TimestampText::Null);
            }
        } else if i == 3 || i == 4 {
            if c == b':' {
                next_segment!();
            } else {
                return Err(TimestampText::Null);
            }
        } else if i == 5 || i == 6 {
            if c == b'.' && i == 5 {
                next_segment!();
            } else {
                next_segment!();
                tz = Some(String::from_utf8_lossy(&b[j..]).into_owned());
                j = b.len() - 1;
            }
            if i == 6 && c != b'.' {
                i += 1;
            }
        } else if i < segments.len() && (c == b':' || c == b' ') {
            next_segment!();
        } else {
            return Err(TimestampText::Null);
        }
        j += 1;
    }
    if i >= segments.len() || !valid(i, digits) {
        return Err(TimestampText::Null);
    }
    segments[i] = value;
    while digits_milli < 6 {
        segments[6] *= 10;
        digits_milli += 1;
    }
    let zone = match tz.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(z) if zone_offset_seconds(z).is_some() || is_region_id(z) => match super::timezone::SessionTimeZone::parse(z) {
            Ok(zone) => Some(zone),
            Err(_) => return Err(TimestampText::Null),
        },
        Some(_) => return Err(TimestampText::Null),
    };
    if just_time {
        return Err(TimestampText::Unsupported(
            "a time without a date: Spark takes today's date from the clock; write the date too".into(),
        ));
    }
    segments[0] *= year_sign.unwrap_or(1);
    let date = i32::try_from(segments[0]).ok().and_then(|y| NaiveDate::from_ymd_opt(y, segments[1] as u32, segments[2] as u32));
    let time = (segments[3] < 24 && segments[4] < 60 && segments[5] < 60)
        .then(|| NaiveTime::from_hms_micro_opt(segments[3] as u32, segments[4] as u32, segments[5] as u32, segments[6] as u32))
        .flatten();
    match (date, time) {
        (Some(d), Some(t)) => Ok((NaiveDateTime::new(d, t).and_utc().timestamp_micros(), zone)),
        _ => Err(TimestampText::Null),
    }
}

fn is_region_id(z: &str) -> bool {
    z.contains('/') && z.chars().all(|c| c.is_ascii_alphanumeric() || "/_-+".contains(c))
}

/// A Spark datetime pattern translated to a chrono format string.
///
/// # Errors
/// Spark's message for a pattern letter it rejects or the engine does not model
/// (`INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION` for `Y`, `w`, `u`, ...).
pub fn spark_pattern_to_chrono(pattern: &str) -> Result<String, String> {
    translate_pattern(pattern, false)
}

/// [`spark_pattern_to_chrono`] for formatting: zone letters become markers that
/// [`format_with_pattern`] replaces with the session zone's offset or name.
///
/// # Errors
/// As [`spark_pattern_to_chrono`].
pub fn spark_pattern_to_format(pattern: &str) -> Result<String, String> {
    translate_pattern(pattern, true)
}

/// Marks a zone field in a format (a private-use character, then the letter and its count).
const ZONE_MARK: char = '\u{E000}';

fn translate_pattern(pattern: &str, for_format: bool) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        if c == '\'' {
            // Quoted literal; '' is a single quote.
            if chars.get(k + 1) == Some(&'\'') {
                out.push('\'');
                k += 2;
                continue;
            }
            k += 1;
            while k < chars.len() {
                if chars[k] == '\'' {
                    if chars.get(k + 1) == Some(&'\'') {
                        out.push('\'');
                        k += 2;
                        continue;
                    }
                    break;
                }
                push_literal(&mut out, chars[k]);
                k += 1;
            }
            k += 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            push_literal(&mut out, c);
            k += 1;
            continue;
        }
        let mut n = 1;
        while chars.get(k + n) == Some(&c) {
            n += 1;
        }
        k += n;
        let spec = match (c, n) {
            ('y', 2) => "%y",
            ('y', _) => "%Y",
            ('M' | 'L', 1) => "%-m",
            ('M' | 'L', 2) => "%m",
            ('M' | 'L', 3) => "%b",
            ('M' | 'L', _) => "%B",
            ('d', 1) => "%-d",
            ('d', 2) => "%d",
            ('D', 1) => "%-j",
            ('D', _) => "%j",
            ('H', 1) => "%-H",
            ('H', 2) => "%H",
            ('h', 1) => "%-I",
            ('h', 2) => "%I",
            ('m', 1) => "%-M",
            ('m', 2) => "%M",
            ('s', 1) => "%-S",
            ('s', 2) => "%S",
            ('S', 1..=9) => match n {
                3 => "%3f",
                6 => "%6f",
                9 => "%9f",
                _ => return Err(format!("the fraction pattern '{}' is not modelled; use S, SSS, SSSSSS or SSSSSSSSS", "S".repeat(n))),
            },
            ('a', 1) => "%p",
            ('E', 1..=3) => "%a",
            ('E', 4) => "%A",
            // Offsets and zone names: a marker the formatter fills in from the session zone
            // ([`format_with_pattern`]); parsing reads an offset.
            ('X' | 'x' | 'Z' | 'O', _) | ('V', 2) | ('z', 1..=3) if for_format => {
                out.push(ZONE_MARK);
                out.push(c);
                out.push(char::from_digit(n.min(9) as u32, 10).unwrap_or('1'));
                continue;
            }
            ('X', 1..=5) | ('x', 1..=3) | ('Z', 1..=5) => "%#z",
            ('V', 2) | ('z', 1..=3) => "UTC",
            ('Y' | 'w' | 'W' | 'u' | 'e' | 'c', _) => {
                return Err(format!(
                    "[INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN] You may get a different result due to the upgrading to Spark >= 3.0: All week-based patterns are unsupported since Spark 3.0, detected week-based character: {c}. Please use the SQL function EXTRACT instead."
                ))
            }
            ('d' | 'h' | 'H' | 'm' | 's' | 'E' | 'a', _) => {
                return Err(format!(
                    "[INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION] You may get a different result due to the upgrading to Spark >= 3.0: Fail to recognize '{pattern}' pattern in the DateTimeFormatter."
                ))
            }
            _ => return Err(format!("[INVALID_DATETIME_PATTERN] Unrecognized datetime pattern: {pattern}. The letter '{c}' is not modelled by Streamlab.")),
        };
        out.push_str(spec);
    }
    Ok(out)
}

fn push_literal(out: &mut String, c: char) {
    if c == '%' {
        out.push_str("%%");
    } else {
        out.push(c);
    }
}

/// `date_format(ts, pattern)`: the instant `utc_us` formatted as a wall-clock time in `zone`,
/// zone fields (`XXX`, `Z`, `z`, `VV`, `O`) from the zone's offset and name at that instant.
pub fn format_with_pattern(utc_us: i64, chrono_fmt: &str, zone: &super::timezone::SessionTimeZone) -> Option<String> {
    use super::timezone::format_offset;
    let dt = DateTime::<Utc>::from_timestamp_micros(zone.to_local_us(utc_us))?;
    let mut s = String::new();
    use std::fmt::Write;
    write!(s, "{}", dt.format(chrono_fmt)).ok()?;
    if !s.contains(ZONE_MARK) {
        return Some(s);
    }
    let offset = zone.offset_seconds_at(utc_us);
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != ZONE_MARK {
            out.push(c);
            continue;
        }
        let (letter, n) = (chars.next()?, chars.next()?.to_digit(10)?);
        let z = |text: String| if offset == 0 { "Z".to_string() } else { text };
        out.push_str(&match (letter, n) {
            ('X', 1) => z(format_offset(offset, false, true)),
            ('X', 2 | 4) => z(format_offset(offset, false, false)),
            ('X', _) => z(format_offset(offset, true, false)),
            ('x', 1) => format_offset(offset, false, true),
            ('x', 2 | 4) => format_offset(offset, false, false),
            ('x', _) => format_offset(offset, true, false),
            ('Z', 1..=3) => format_offset(offset, false, false),
            ('Z', 4) if offset == 0 => "GMT".into(),
            ('Z', 4) => format!("GMT{}", format_offset(offset, true, false)),
            ('Z', _) => z(format_offset(offset, true, false)),
            ('O', 1) if offset == 0 => "GMT".into(),
            ('O', 1) => format!("GMT{}", format_offset(offset, true, true).replacen("+0", "+", 1).replacen("-0", "-", 1)),
            ('O', _) if offset == 0 => "GMT".into(),
            ('O', _) => format!("GMT{}", format_offset(offset, true, false)),
            ('V', _) => zone.id().to_string(),
            _ => zone.short_name_at(utc_us),
        });
    }
    Some(out)
}

/// `to_timestamp(s, pattern)`: parses with a pattern; missing date fields default to
/// 1970-01-01 and missing time fields to 0, as Spark's formatter does; a time without an
/// offset is a wall-clock time in `zone`. `None` if it does not fit.
pub fn parse_with_pattern(text: &str, chrono_fmt: &str, zone: &super::timezone::SessionTimeZone) -> Option<i64> {
    use chrono::format::{parse, Parsed, StrftimeItems};
    let mut p = Parsed::new();
    parse(&mut p, text, StrftimeItems::new(chrono_fmt)).ok()?;
    let year = p.year.or_else(|| p.year_mod_100.map(|y| 2000 + y)).unwrap_or(1970);
    let date = if let Some(ord) = p.ordinal {
        NaiveDate::from_yo_opt(year, ord)?
    } else {
        NaiveDate::from_ymd_opt(year, p.month.unwrap_or(1), p.day.unwrap_or(1))?
    };
    let hour = match (p.hour_div_12, p.hour_mod_12) {
        (Some(h12), Some(m12)) => h12 * 12 + m12,
        _ => 0,
    };
    let time = NaiveTime::from_hms_nano_opt(hour, p.minute.unwrap_or(0), p.second.unwrap_or(0), p.nanosecond.unwrap_or(0))?;
    let us = NaiveDateTime::new(date, time).and_utc().timestamp_micros();
    Some(match p.offset {
        Some(o) => us - i64::from(o) * MICROS_PER_SECOND,
        None => zone.from_local_us(us),
    })
}

/// Date/time fields of a timestamp in UTC: (year, month, day, hour, minute, second, µs,
/// day of week with Sunday = 1, day of year).
pub fn fields(us: i64) -> Option<(i32, u32, u32, u32, u32, u32, u32, u32, u32)> {
    let dt = DateTime::<Utc>::from_timestamp_micros(us)?;
    Some((
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second(),
        dt.timestamp_subsec_micros(),
        dt.weekday().number_from_sunday(),
        dt.ordinal(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> i64 {
        crate::types::parse_timestamp_us(s).unwrap()
    }

    #[test]
    fn spark_timestamp_forms() {
        use TimestampText::*;
        let noon = ts("2026-01-01T12:00:00Z");
        assert_eq!(spark_string_to_timestamp("2026-01-01T12:00:00Z"), Value(noon));
        assert_eq!(spark_string_to_timestamp("2026-01-01 12:00:00"), Value(noon));
        assert_eq!(spark_string_to_timestamp("  2026-01-01T12:00  "), Value(noon));
        // A date alone is midnight; a year alone is January 1st.
        assert_eq!(spark_string_to_timestamp("2026-01-01"), Value(ts("2026-01-01T00:00:00Z")));
        assert_eq!(spark_string_to_timestamp("2026"), Value(ts("2026-01-01T00:00:00Z")));
        // 21:00 at +09:00 is 12:00 UTC; fractions past µs are truncated.
        assert_eq!(spark_string_to_timestamp("2026-01-01T21:00:00+09:00"), Value(noon));
        assert_eq!(spark_string_to_timestamp("2026-01-01T21:00:00+0900"), Value(noon));
        assert_eq!(spark_string_to_timestamp("2026-01-01T12:00:00.123456789Z"), Value(noon + 123_456));
        assert_eq!(spark_string_to_timestamp("2026-1-2 3:04:05"), Value(ts("2026-01-02T03:04:05Z")));
        assert_eq!(spark_string_to_timestamp("2026-01-01T12:00:00 UTC"), Value(noon));
        for bad in ["abc", "", "2026/01/01", "Jan 1 2026", "2026-02-30", "2026-01-01T24:00:00Z", "1767268860"] {
            assert_eq!(spark_string_to_timestamp(bad), Null, "{bad}");
        }
        assert!(matches!(spark_string_to_timestamp("12:40"), Unsupported(_)));
        // A region id names its zone: 13:00 in Paris in January is 12:00 UTC.
        assert_eq!(spark_string_to_timestamp("2026-01-01T13:00:00Europe/Paris"), Value(noon));
    }

    proptest::proptest! {
        /// No text a learner can type makes the parsers panic.
        #[test]
        fn any_text_is_safe(text in "\\PC{0,40}", pattern in "[yMdHhmsSaEDXxZz'. :/-]{0,12}") {
            let _ = spark_string_to_timestamp(&text);
            if let Ok(f) = spark_pattern_to_chrono(&pattern) {
                let _ = parse_with_pattern(&text, &f, &crate::types::timezone::SessionTimeZone::utc());
                let _ = format_with_pattern(1_767_268_800_000_000, &f, &crate::types::timezone::SessionTimeZone::utc());
            }
        }
    }

    #[test]
    fn patterns_translate() {
        let f = spark_pattern_to_chrono("yyyy-MM-dd HH:mm:ss").unwrap();
        let utc = crate::types::timezone::SessionTimeZone::utc();
        assert_eq!(format_with_pattern(ts("2026-03-04T05:06:07Z"), &f, &utc).unwrap(), "2026-03-04 05:06:07");
        let f = spark_pattern_to_chrono("dd/MM/yyyy").unwrap();
        assert_eq!(parse_with_pattern("04/03/2026", &f, &crate::types::timezone::SessionTimeZone::utc()), Some(ts("2026-03-04T00:00:00Z")));
        // '' is a quote; a quoted word is literal; x is the offset, +00 in UTC.
        let f = spark_pattern_to_format("EEE, d MMM yyyy hh:mm a 'at' ''x''").unwrap();
        assert_eq!(format_with_pattern(ts("2026-01-01T13:07:00Z"), &f, &utc).unwrap(), "Thu, 1 Jan 2026 01:07 PM at '+00'");
        // In Los Angeles in January: PST, -08:00.
        let la = crate::types::timezone::SessionTimeZone::parse("America/Los_Angeles").unwrap();
        let f = spark_pattern_to_format("HH:mm XXX z").unwrap();
        assert_eq!(format_with_pattern(ts("2026-01-01T13:07:00Z"), &f, &la).unwrap(), "05:07 -08:00 PST");
        assert!(spark_pattern_to_chrono("YYYY-ww").is_err());
        // An offset field parses `Z` and `+09:00`.
        let f = spark_pattern_to_chrono("yyyy-MM-dd'T'HH:mm:ssXXX").unwrap();
        assert_eq!(parse_with_pattern("2026-01-01T21:00:00+09:00", &f, &utc), Some(ts("2026-01-01T12:00:00Z")));
        assert_eq!(parse_with_pattern("2026-01-01T12:00:00Z", &f, &utc), Some(ts("2026-01-01T12:00:00Z")));
    }
}
