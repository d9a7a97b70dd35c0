//! Date and time functions (`datetimeExpressions.scala`, `DateTimeUtils.scala`): a timestamp's
//! calendar fields, its date, its text and truncation are read in the session time zone
//! ([`EvalContext::time_zone`]); a date is a day number; strings are cast as Spark casts them.
//! Under ANSI mode text that does not parse fails the batch (`CAST_INVALID_INPUT`,
//! `CANNOT_PARSE_TIMESTAMP`); the `try_` forms give NULL.

use chrono::{Datelike, NaiveDate, NaiveDateTime, Timelike};

use super::super::context::EvalContext;
use super::{any_null, arg, int, num, to_text};
use crate::types::datetime::{format_with_pattern, parse_with_pattern, spark_pattern_to_chrono, spark_pattern_to_format, spark_string_to_date, spark_string_to_timestamp_in, TimestampText};
use crate::types::time::{floor_micros_to_seconds, MICROS_PER_DAY, MICROS_PER_MILLI, MICROS_PER_SECOND};
use crate::types::timezone::SessionTimeZone;
use crate::types::Value;

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    let tz = &cx.time_zone;
    // Functions of no argument or with their own NULL rules.
    match name {
        "current_date" | "curdate" => return Some(Value::Date(local_day(cx.batch_timestamp_ms * MICROS_PER_MILLI, tz))),
        "current_timestamp" | "now" => return Some(Value::Timestamp(cx.batch_timestamp_ms * MICROS_PER_MILLI)),
        "localtimestamp" => return Some(Value::Timestamp(tz.to_local_us(cx.batch_timestamp_ms * MICROS_PER_MILLI))),
        "unix_timestamp" if args.is_empty() => return Some(Value::Long(cx.batch_timestamp_ms.div_euclid(1000))),
        _ => {}
    }
    if !is_datetime(name) {
        return None;
    }
    if any_null(args) {
        return Some(Value::Null);
    }
    let first = arg(args, 0);
    let ts = |v: &Value| timestamp_of(v, cx);
    let date = |v: &Value| date_of(v, cx);
    let n = |i: usize| int(arg(args, i));
    Some(match name {
        "year" | "quarter" | "month" | "dayofmonth" | "day" | "dayofweek" | "weekday" | "dayofyear" | "weekofyear" | "dayname" | "monthname" => {
            let Some(d) = date(first).and_then(naive_date) else { return Some(Value::Null) };
            match name {
                "year" => Value::Int(d.year()),
                "quarter" => Value::Int(d.month0() as i32 / 3 + 1),
                "month" => Value::Int(d.month() as i32),
                "dayofmonth" | "day" => Value::Int(d.day() as i32),
                "dayofweek" => Value::Int(d.weekday().number_from_sunday() as i32),
                "weekday" => Value::Int(d.weekday().num_days_from_monday() as i32),
                "dayofyear" => Value::Int(d.ordinal() as i32),
                "weekofyear" => Value::Int(d.iso_week().week() as i32),
                "dayname" => Value::str(&d.format("%a").to_string()),
                _ => Value::str(&d.format("%b").to_string()),
            }
        }
        "hour" | "minute" | "second" => {
            let Some(t) = ts(first).and_then(|t| tz.local_datetime(t)) else { return Some(Value::Null) };
            Value::Int(match name {
                "hour" => t.hour(),
                "minute" => t.minute(),
                _ => t.second(),
            } as i32)
        }
        "date_format" => match (ts(first), format_pattern(args.get(1), "", cx)) {
            (Some(t), Some(f)) => format_with_pattern(t, &f, tz).map_or(Value::Null, |x| Value::str(&x)),
            _ => Value::Null,
        },
        "to_date" | "try_to_date" => {
            let strict = name == "to_date";
            match (first, args.get(1)) {
                (Value::Str(s), Some(p)) => match parse(s, p, cx) {
                    Some(t) => Value::Date(local_day(t, tz)),
                    None => cannot_parse(s, strict, cx),
                },
                (Value::Str(s), None) => match spark_string_to_date(s) {
                    Some(d) => Value::Date(d),
                    None if strict => malformed(s, "DATE", cx),
                    None => Value::Null,
                },
                (other, _) => date(other).map_or(Value::Null, Value::Date),
            }
        }
        "to_timestamp_ntz" if args.len() == 1 => match first {
            Value::Str(s) => match crate::types::datetime::spark_string_to_wall_us(s) {
                Some(w) => Value::Timestamp(w),
                None => malformed(s, "TIMESTAMP_NTZ", cx),
            },
            other => ts(other).map_or(Value::Null, |t| Value::Timestamp(tz.to_local_us(t))),
        },
        "to_timestamp" | "try_to_timestamp" | "to_timestamp_ltz" | "to_timestamp_ntz" => {
            let strict = name != "try_to_timestamp";
            let t = match (first, args.get(1)) {
                (Value::Str(s), Some(p)) => match parse(s, p, cx) {
                    Some(t) => Some(t),
                    None => return Some(cannot_parse(s, strict, cx)),
                },
                (Value::Str(s), None) => match spark_string_to_timestamp_in(s, tz) {
                    TimestampText::Value(t) => Some(t),
                    _ if strict => return Some(malformed(s, "TIMESTAMP", cx)),
                    _ => None,
                },
                // A number is seconds since the epoch (`CAST(n AS TIMESTAMP)`).
                (Value::Int(_) | Value::Long(_), None) => int(first).and_then(|s| s.checked_mul(MICROS_PER_SECOND)),
                (Value::Double(d), None) => d.is_finite().then(|| (d * 1e6) as i64),
                (other, _) => ts(other),
            };
            match t {
                Some(t) if name == "to_timestamp_ntz" => Value::Timestamp(tz.to_local_us(t)),
                Some(t) => Value::Timestamp(t),
                None => Value::Null,
            }
        }
        "unix_timestamp" | "to_unix_timestamp" => {
            let t = match (first, args.get(1)) {
                (Value::Str(s), p) => {
                    let p = p.cloned().unwrap_or_else(|| Value::str("yyyy-MM-dd HH:mm:ss"));
                    match parse(s, &p, cx) {
                        Some(t) => Some(t),
                        None => return Some(cannot_parse(s, true, cx)),
                    }
                }
                (other, _) => ts(other),
            };
            t.map_or(Value::Null, |t| Value::Long(floor_micros_to_seconds(t)))
        }
        "from_unixtime" => match (int(first), format_pattern(args.get(1), "yyyy-MM-dd HH:mm:ss", cx)) {
            (Some(secs), Some(f)) => secs.checked_mul(MICROS_PER_SECOND).and_then(|t| format_with_pattern(t, &f, tz)).map_or(Value::Null, |x| Value::str(&x)),
            _ => Value::Null,
        },
        "timestamp_seconds" => match first {
            Value::Double(d) if d.is_finite() => Value::Timestamp((d * 1e6) as i64),
            other => int(other).and_then(|s| s.checked_mul(MICROS_PER_SECOND)).map_or(Value::Null, Value::Timestamp),
        },
        "timestamp_millis" => int(first).and_then(|s| s.checked_mul(MICROS_PER_MILLI)).map_or(Value::Null, Value::Timestamp),
        "timestamp_micros" => int(first).map_or(Value::Null, Value::Timestamp),
        "unix_seconds" => ts(first).map_or(Value::Null, |t| Value::Long(t.div_euclid(MICROS_PER_SECOND))),
        "unix_millis" => ts(first).map_or(Value::Null, |t| Value::Long(t.div_euclid(MICROS_PER_MILLI))),
        "unix_micros" => ts(first).map_or(Value::Null, Value::Long),
        "unix_date" => date(first).map_or(Value::Null, Value::Int),
        "date_from_unix_date" => n(0).and_then(|d| i32::try_from(d).ok()).map_or(Value::Null, Value::Date),
        "date_trunc" => match (first, ts(arg(args, 1))) {
            (Value::Str(unit), Some(t)) => date_trunc(unit, t, tz).map_or(Value::Null, Value::Timestamp),
            _ => Value::Null,
        },
        "trunc" => match (date(first), arg(args, 1)) {
            (Some(d), Value::Str(unit)) => trunc_date(d, unit).map_or(Value::Null, Value::Date),
            _ => Value::Null,
        },
        "date_add" | "dateadd" | "date_sub" => match (date(first), n(1)) {
            (Some(d), Some(k)) => {
                let k = if name == "date_sub" { k.checked_neg() } else { Some(k) };
                k.and_then(|k| i64::from(d).checked_add(k)).and_then(|x| i32::try_from(x).ok()).map_or(Value::Null, Value::Date)
            }
            _ => Value::Null,
        },
        "datediff" | "date_diff" => match (date(first), date(arg(args, 1))) {
            (Some(a), Some(b)) => a.checked_sub(b).map_or(Value::Null, Value::Int),
            _ => Value::Null,
        },
        "add_months" => match (date(first).and_then(naive_date), n(1)) {
            (Some(d), Some(k)) => add_months(d, k).map_or(Value::Null, |d| Value::Date(day_number(d))),
            _ => Value::Null,
        },
        "months_between" => match (ts(first), ts(arg(args, 1))) {
            (Some(a), Some(b)) => {
                let round = !matches!(args.get(2), Some(Value::Bool(false)));
                months_between(a, b, round, tz).map_or(Value::Null, Value::Double)
            }
            _ => Value::Null,
        },
        "last_day" => match date(first).and_then(naive_date) {
            Some(d) => last_day(d).map_or(Value::Null, |d| Value::Date(day_number(d))),
            None => Value::Null,
        },
        "next_day" => match (date(first), day_of_week(&to_text(arg(args, 1), cx))) {
            (Some(d), Some(target)) => {
                // Monday = 0; the first such day strictly after d.
                let today = (i64::from(d) + 3).rem_euclid(7);
                let ahead = (target - today - 1).rem_euclid(7) + 1;
                d.checked_add(ahead as i32).map_or(Value::Null, Value::Date)
            }
            (Some(_), None) => {
                cx.raise("ILLEGAL_DAY_OF_WEEK", format!("Illegal input for day of week: {}.", to_text(arg(args, 1), cx)));
                Value::Null
            }
            _ => Value::Null,
        },
        "make_date" => match (n(0), n(1), n(2)) {
            (Some(y), Some(m), Some(d)) => match i32::try_from(y).ok().and_then(|y| NaiveDate::from_ymd_opt(y, m as u32, d as u32)) {
                Some(date) => Value::Date(day_number(date)),
                None => {
                    cx.raise("DATETIME_FIELD_OUT_OF_BOUNDS", format!("Invalid date: year {y}, month {m}, day {d}. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error."));
                    Value::Null
                }
            },
            _ => Value::Null,
        },
        "make_timestamp" | "make_timestamp_ltz" | "make_timestamp_ntz" | "try_make_timestamp" | "try_make_timestamp_ltz" | "try_make_timestamp_ntz" => {
            make_timestamp(args, name.ends_with("ntz"), !name.starts_with("try_"), cx)
        }
        "from_utc_timestamp" | "to_utc_timestamp" => match (ts(first), SessionTimeZone::parse(&to_text(arg(args, 1), cx))) {
            (Some(t), Ok(zone)) => Value::Timestamp(if name == "from_utc_timestamp" { zone.to_local_us(t) } else { zone.from_local_us(t) }),
            (Some(_), Err(_)) if crate::types::tzdb::database().is_none() => {
                cx.raise(crate::types::tzdb::LOADING, crate::types::tzdb::loading_text(&to_text(arg(args, 1), cx)));
                Value::Null
            }
            (Some(_), Err(_)) => {
                cx.raise("INVALID_TIMEZONE", format!("The timezone: {} is invalid. The timezone must be either a region-based zone ID or a zone offset.", to_text(arg(args, 1), cx)));
                Value::Null
            }
            _ => Value::Null,
        },
        // `convert_timezone([source, ]target, ts_ntz)`: a wall-clock time moved between zones.
        "convert_timezone" => {
            let (source, target, t) = if args.len() == 3 { (to_text(first, cx), to_text(arg(args, 1), cx), arg(args, 2)) } else { (tz.id().to_string(), to_text(first, cx), arg(args, 1)) };
            let wall = match t {
                Value::Timestamp(t) => Some(*t),
                Value::Str(s) => match spark_string_to_timestamp_in(s, &SessionTimeZone::utc()) {
                    TimestampText::Value(t) => Some(t),
                    _ => None,
                },
                other => date(other).map(|d| i64::from(d).saturating_mul(MICROS_PER_DAY)),
            };
            match (wall, SessionTimeZone::parse(&source), SessionTimeZone::parse(&target)) {
                (Some(w), Ok(s), Ok(t)) => Value::Timestamp(t.to_local_us(s.from_local_us(w))),
                _ => Value::Null,
            }
        }
        "timestamp_add" | "timestampadd" => match (first, n(1), ts(arg(args, 2))) {
            (Value::Str(unit), Some(k), Some(t)) => timestamp_add(unit, k, t, tz).map_or(Value::Null, Value::Timestamp),
            _ => Value::Null,
        },
        "timestamp_diff" | "timestampdiff" => match (first, ts(arg(args, 1)), ts(arg(args, 2))) {
            (Value::Str(unit), Some(a), Some(b)) => timestamp_diff(unit, a, b, tz).map_or(Value::Null, Value::Long),
            _ => Value::Null,
        },
        "date_part" | "datepart" | "extract" => date_part(&to_text(first, cx), arg(args, 1), cx),
        _ => return None,
    })
}

fn is_datetime(name: &str) -> bool {
    matches!(
        name,
        "year" | "quarter" | "month" | "dayofmonth" | "day" | "dayofweek" | "weekday" | "dayofyear" | "weekofyear" | "dayname" | "monthname" | "hour" | "minute"
            | "second" | "date_format" | "to_date" | "try_to_date" | "to_timestamp" | "try_to_timestamp" | "to_timestamp_ltz" | "to_timestamp_ntz" | "unix_timestamp"
            | "to_unix_timestamp" | "from_unixtime" | "timestamp_seconds" | "timestamp_millis" | "timestamp_micros" | "unix_seconds" | "unix_millis" | "unix_micros"
            | "unix_date" | "date_from_unix_date" | "date_trunc" | "trunc" | "date_add" | "dateadd" | "date_sub" | "datediff" | "date_diff" | "add_months"
            | "months_between" | "last_day" | "next_day" | "make_date" | "make_timestamp" | "make_timestamp_ltz" | "make_timestamp_ntz" | "try_make_timestamp"
            | "try_make_timestamp_ltz" | "try_make_timestamp_ntz" | "from_utc_timestamp" | "to_utc_timestamp" | "convert_timezone" | "timestamp_add"
            | "timestamp_diff" | "timestampadd" | "timestampdiff" | "date_part" | "datepart" | "extract"
    )
}

/// µs of a timestamp argument: a timestamp, a date (its local midnight), or a string cast in
/// the session zone.
pub(super) fn timestamp_of(v: &Value, cx: &EvalContext) -> Option<i64> {
    match v {
        Value::Timestamp(t) => Some(*t),
        Value::Date(d) => Some(cx.time_zone.from_local_us(i64::from(*d).saturating_mul(MICROS_PER_DAY))),
        Value::Str(s) => match spark_string_to_timestamp_in(s, &cx.time_zone) {
            TimestampText::Value(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// The day number of a date argument: a date, a timestamp's local date, a string's date.
pub(super) fn date_of(v: &Value, cx: &EvalContext) -> Option<i32> {
    match v {
        Value::Date(d) => Some(*d),
        Value::Timestamp(t) => Some(local_day(*t, &cx.time_zone)),
        Value::Str(s) => spark_string_to_date(s),
        _ => None,
    }
}

/// The local date of instant `us` in `tz`, as a day number.
pub(super) fn local_day(us: i64, tz: &SessionTimeZone) -> i32 {
    tz.to_local_us(us).div_euclid(MICROS_PER_DAY) as i32
}

fn naive_date(d: i32) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(1970, 1, 1)?.checked_add_signed(chrono::Duration::days(i64::from(d)))
}

fn day_number(d: NaiveDate) -> i32 {
    d.signed_duration_since(NaiveDate::from_ymd_opt(1970, 1, 1).expect("the epoch")).num_days() as i32
}

/// A datetime pattern argument as a chrono format for parsing; a pattern Spark rejects fails
/// the batch.
fn pattern(v: Option<&Value>, default: &str, cx: &EvalContext) -> Option<String> {
    translated(v, default, cx, spark_pattern_to_chrono)
}

/// [`pattern`] for formatting (zone fields filled in from the session zone).
fn format_pattern(v: Option<&Value>, default: &str, cx: &EvalContext) -> Option<String> {
    translated(v, default, cx, spark_pattern_to_format)
}

fn translated(v: Option<&Value>, default: &str, cx: &EvalContext, translate: fn(&str) -> Result<String, String>) -> Option<String> {
    let p = match v {
        Some(Value::Str(p)) => p.to_string(),
        Some(_) => return None,
        None => default.to_string(),
    };
    match translate(&p) {
        Ok(f) => Some(f),
        Err(m) => {
            let (condition, message) = match m.strip_prefix('[').and_then(|r| r.split_once("] ")) {
                Some((c, rest)) => (c.to_string(), rest.to_string()),
                None => ("INVALID_DATETIME_PATTERN".to_string(), m),
            };
            cx.raise(&condition, message);
            None
        }
    }
}

/// `s` parsed with pattern `p` in the session zone.
fn parse(s: &str, p: &Value, cx: &EvalContext) -> Option<i64> {
    parse_with_pattern(s, &pattern(Some(p), "", cx)?, &cx.time_zone)
}

/// ANSI mode (`GetTimestamp` with failOnError): text that does not fit its pattern fails.
fn cannot_parse(s: &str, strict: bool, cx: &EvalContext) -> Value {
    if strict {
        cx.raise(
            "CANNOT_PARSE_TIMESTAMP",
            format!("Text '{s}' could not be parsed. Use `try_to_timestamp` to tolerate invalid input string and return NULL instead."),
        );
    }
    Value::Null
}

/// ANSI mode (`Cast`): a string that is not a value of the type fails.
fn malformed(s: &str, ty: &str, cx: &EvalContext) -> Value {
    cx.raise(
        "CAST_INVALID_INPUT",
        format!("The value '{s}' of the type \"STRING\" cannot be cast to \"{ty}\" because it is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead."),
    );
    Value::Null
}

/// `date_trunc(unit, ts)`: truncated in the session zone (`DateTimeUtils.truncTimestamp`).
fn date_trunc(unit: &str, t: i64, tz: &SessionTimeZone) -> Option<i64> {
    let local = tz.to_local_us(t);
    let floor = |step: i64| local.div_euclid(step) * step;
    let local_out = match unit.to_ascii_lowercase().as_str() {
        "microsecond" => local,
        "millisecond" => floor(MICROS_PER_MILLI),
        "second" => floor(MICROS_PER_SECOND),
        "minute" => floor(60 * MICROS_PER_SECOND),
        "hour" => floor(3600 * MICROS_PER_SECOND),
        "day" | "dd" => floor(MICROS_PER_DAY),
        other => i64::from(trunc_date(local.div_euclid(MICROS_PER_DAY) as i32, other)?) * MICROS_PER_DAY,
    };
    Some(tz.from_local_us(local_out))
}

/// `trunc(date, unit)`: the first day of its year, quarter, month or (Monday) week.
fn trunc_date(d: i32, unit: &str) -> Option<i32> {
    let nd = naive_date(d)?;
    let first = |m: u32| NaiveDate::from_ymd_opt(nd.year(), m, 1).map(day_number);
    match unit.to_ascii_lowercase().as_str() {
        "year" | "yyyy" | "yy" => first(1),
        "quarter" => first(nd.month0() / 3 * 3 + 1),
        "month" | "mon" | "mm" => first(nd.month()),
        "week" => Some(d - nd.weekday().num_days_from_monday() as i32),
        _ => None,
    }
}

/// `add_months`: the same day of the month, or the month's last day when it has fewer.
fn add_months(d: NaiveDate, k: i64) -> Option<NaiveDate> {
    let total = (i64::from(d.year()) * 12 + i64::from(d.month0())).checked_add(k)?;
    let (y, m) = (i32::try_from(total.div_euclid(12)).ok()?, total.rem_euclid(12) as u32 + 1);
    let last = last_day(NaiveDate::from_ymd_opt(y, m, 1)?)?.day();
    NaiveDate::from_ymd_opt(y, m, d.day().min(last))
}

fn last_day(d: NaiveDate) -> Option<NaiveDate> {
    let (y, m) = if d.month() == 12 { (d.year() + 1, 1) } else { (d.year(), d.month() + 1) };
    NaiveDate::from_ymd_opt(y, m, 1)?.pred_opt()
}

/// `months_between(a, b)` (`DateTimeUtils.monthsBetween`): whole months when both are the
/// same day of the month or both the last day; else the day difference plus the time elapsed
/// since each one's local midnight (real seconds, so a DST day counts 23 or 25 hours) over a
/// 31-day month; rounded to 8 decimals when asked.
fn months_between(a: i64, b: i64, round: bool, tz: &SessionTimeZone) -> Option<f64> {
    let da = tz.local_datetime(a)?;
    let db = tz.local_datetime(b)?;
    let since_midnight = |us: i64| us - tz.from_local_us(tz.to_local_us(us).div_euclid(MICROS_PER_DAY) * MICROS_PER_DAY);
    let months = (da.year() - db.year()) * 12 + da.month() as i32 - db.month() as i32;
    let is_last = |d: &NaiveDateTime| last_day(d.date()).is_some_and(|l| l == d.date());
    if da.day() == db.day() || (is_last(&da) && is_last(&db)) {
        return Some(f64::from(months));
    }
    // Whole seconds, as Spark's `MICROSECONDS.toSeconds`.
    let secs = |us: i64| since_midnight(us) / MICROS_PER_SECOND;
    let diff_s = (i64::from(da.day()) - i64::from(db.day())) * 86_400 + secs(a).saturating_sub(secs(b));
    let diff_us = diff_s * MICROS_PER_SECOND;
    let r = f64::from(months) + diff_us as f64 / (31.0 * MICROS_PER_DAY as f64);
    Some(if round { (r * 1e8).round() / 1e8 } else { r })
}

/// A day-of-week name as `next_day` reads it (`MO`, `MON`, `MONDAY`, ...), Monday = 0.
fn day_of_week(s: &str) -> Option<i64> {
    let u = s.trim().to_ascii_uppercase();
    ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].iter().position(|p| u == *p || (u.len() >= 3 && ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"].iter().any(|f| f.starts_with(&u) && f.starts_with(p)))).map(|i| i as i64)
}

/// `make_timestamp(y, mo, d, h, mi, sec[, tz])`: seconds may have a fraction (µs kept);
/// `sec = 60` means the next minute; an invalid field fails (or NULL for `try_`).
fn make_timestamp(args: &[Value], ntz: bool, strict: bool, cx: &EvalContext) -> Value {
    let f = |i: usize| int(arg(args, i));
    let (Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(sec)) = (f(0), f(1), f(2), f(3), f(4), num(arg(args, 5))) else { return Value::Null };
    let whole = sec.trunc() as i64;
    let micros = ((sec - sec.trunc()) * 1e6).round() as i64;
    let date = i32::try_from(y).ok().and_then(|y| NaiveDate::from_ymd_opt(y, mo as u32, d as u32));
    let ok_time = (0..24).contains(&h) && (0..60).contains(&mi) && (0..=60).contains(&whole) && !(whole == 60 && micros != 0);
    let Some(date) = date.filter(|_| ok_time) else {
        if strict {
            cx.raise("DATETIME_FIELD_OUT_OF_BOUNDS", format!("Invalid value for a date or time field: year {y}, month {mo}, day {d}, hour {h}, minute {mi}, second {sec}. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error."));
        }
        return Value::Null;
    };
    let local = i64::from(day_number(date)) * MICROS_PER_DAY + (h * 3600 + mi * 60 + whole) * MICROS_PER_SECOND + micros;
    if ntz {
        return Value::Timestamp(local);
    }
    let zone = match args.get(6) {
        Some(z) => match SessionTimeZone::parse(&to_text(z, cx)) {
            Ok(zone) => zone,
            Err(_) => return Value::Null,
        },
        None => cx.time_zone.clone(),
    };
    Value::Timestamp(zone.from_local_us(local))
}

/// `timestamp_add(unit, n, ts)` (`TimestampAdd`): months and years on the calendar in the
/// session zone, days and smaller as fixed µs... days on the local calendar too.
fn timestamp_add(unit: &str, k: i64, t: i64, tz: &SessionTimeZone) -> Option<i64> {
    let u = unit.to_ascii_uppercase();
    let fixed = |step: i64| k.checked_mul(step).and_then(|d| t.checked_add(d));
    match u.as_str() {
        "MICROSECOND" => fixed(1),
        "MILLISECOND" => fixed(MICROS_PER_MILLI),
        "SECOND" => fixed(MICROS_PER_SECOND),
        "MINUTE" => fixed(60 * MICROS_PER_SECOND),
        "HOUR" => fixed(3600 * MICROS_PER_SECOND),
        "DAY" | "DAYOFYEAR" | "WEEK" => {
            let days = if u == "WEEK" { k.checked_mul(7)? } else { k };
            Some(tz.from_local_us(tz.to_local_us(t).checked_add(days.checked_mul(MICROS_PER_DAY)?)?))
        }
        "MONTH" | "QUARTER" | "YEAR" => {
            let months = k.checked_mul(match u.as_str() {
                "MONTH" => 1,
                "QUARTER" => 3,
                _ => 12,
            })?;
            let local = tz.to_local_us(t);
            let day = local.div_euclid(MICROS_PER_DAY);
            let time = local.rem_euclid(MICROS_PER_DAY);
            let d = add_months(naive_date(i32::try_from(day).ok()?)?, months)?;
            Some(tz.from_local_us(i64::from(day_number(d)) * MICROS_PER_DAY + time))
        }
        _ => None,
    }
}

/// `timestamp_diff(unit, a, b)` (`TimestampDiff`): whole units from a to b, truncated.
fn timestamp_diff(unit: &str, a: i64, b: i64, tz: &SessionTimeZone) -> Option<i64> {
    let u = unit.to_ascii_uppercase();
    let d = b.saturating_sub(a);
    Some(match u.as_str() {
        "MICROSECOND" => d,
        "MILLISECOND" => d / MICROS_PER_MILLI,
        "SECOND" => d / MICROS_PER_SECOND,
        "MINUTE" => d / (60 * MICROS_PER_SECOND),
        "HOUR" => d / (3600 * MICROS_PER_SECOND),
        "DAY" | "DAYOFYEAR" => tz.to_local_us(b).saturating_sub(tz.to_local_us(a)) / MICROS_PER_DAY,
        "WEEK" => tz.to_local_us(b).saturating_sub(tz.to_local_us(a)) / (7 * MICROS_PER_DAY),
        "MONTH" | "QUARTER" | "YEAR" => {
            let (la, lb) = (tz.to_local_us(a), tz.to_local_us(b));
            let (da, db) = (chrono::DateTime::from_timestamp_micros(la)?.naive_utc(), chrono::DateTime::from_timestamp_micros(lb)?.naive_utc());
            let mut months = i64::from((db.year() - da.year()) * 12 + db.month() as i32 - da.month() as i32);
            // A month counts only once the day and time of day are reached.
            let key = |d: &NaiveDateTime| (d.day(), d.num_seconds_from_midnight(), d.nanosecond());
            if months > 0 && key(&db) < key(&da) {
                months -= 1;
            } else if months < 0 && key(&db) > key(&da) {
                months += 1;
            }
            match u.as_str() {
                "MONTH" => months,
                "QUARTER" => months / 3,
                _ => months / 12,
            }
        }
        _ => return None,
    })
}

/// `date_part(field, source)` / `extract(field FROM source)`: an int field of a date or
/// timestamp in the session zone.
fn date_part(field: &str, v: &Value, cx: &EvalContext) -> Value {
    let f = field.trim().to_ascii_uppercase();
    let date = || date_of(v, cx).and_then(naive_date);
    let time = || timestamp_of(v, cx).and_then(|t| cx.time_zone.local_datetime(t));
    let r = match f.as_str() {
        "YEAR" | "Y" | "YEARS" | "YR" | "YRS" => date().map(|d| d.year()),
        "QUARTER" | "QTR" => date().map(|d| d.month0() as i32 / 3 + 1),
        "MONTH" | "MON" | "MONS" | "MONTHS" => date().map(|d| d.month() as i32),
        "WEEK" | "W" | "WEEKS" => date().map(|d| d.iso_week().week() as i32),
        "DAY" | "D" | "DAYS" => date().map(|d| d.day() as i32),
        "DAYOFWEEK" | "DOW" => date().map(|d| d.weekday().number_from_sunday() as i32),
        "DAYOFWEEK_ISO" | "DOW_ISO" => date().map(|d| d.weekday().number_from_monday() as i32),
        "DOY" => date().map(|d| d.ordinal() as i32),
        "HOUR" | "H" | "HOURS" | "HR" | "HRS" => time().map(|t| t.hour() as i32),
        "MINUTE" | "M" | "MIN" | "MINS" | "MINUTES" => time().map(|t| t.minute() as i32),
        _ => {
            cx.raise("INVALID_EXTRACT_FIELD", format!("Cannot extract {field} from {}. (Streamlab models the int fields; SECOND is a DECIMAL.)", to_text(v, cx)));
            None
        }
    };
    r.map_or(Value::Null, Value::Int)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn calendar_arithmetic() {
        // Jan 31 + 1 month is Feb 28 (2026 is not a leap year), Feb 29 in 2028.
        assert_eq!(add_months(d(2026, 1, 31), 1), Some(d(2026, 2, 28)));
        assert_eq!(add_months(d(2028, 1, 31), 1), Some(d(2028, 2, 29)));
        assert_eq!(last_day(d(2028, 2, 3)), Some(d(2028, 2, 29)));
        // Spark's doc example: months_between('1997-02-28 10:30:00', '1996-10-30') = 3.94959677.
        let a = crate::types::parse_timestamp_us("1997-02-28T10:30:00Z").unwrap();
        let b = crate::types::parse_timestamp_us("1996-10-30T00:00:00Z").unwrap();
        assert_eq!(months_between(a, b, true, &SessionTimeZone::utc()), Some(3.94959677));
        assert_eq!(day_of_week("Sun"), Some(6));
        assert_eq!(day_of_week("mon"), Some(0));
    }
}
