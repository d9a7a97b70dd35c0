//! Evaluates the scalar functions of the function table
//! ([`crate::plan::functions::FUNCTIONS`]) over already-evaluated arguments, with Spark's
//! NULL rules (NULL in → NULL out unless the function says otherwise) and its 1-based string
//! positions. Arguments arrive cast to the types `analysis` chose (`coalesce` branches to
//! their wider type, ...). Dates and times are in the session zone UTC.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::types::datetime::{fields, format_with_pattern, parse_with_pattern, spark_pattern_to_chrono, spark_string_to_timestamp, TimestampText};
use crate::types::time::{checked_seconds_to_micros, floor_micros_to_seconds, floor_millis_to_seconds, MICROS_PER_MILLI, MICROS_PER_SECOND};
use crate::types::{EventTime, Value};

const DAY_US: i64 = 86_400_000_000;

thread_local! {
    /// The running micro-batch's timestamp in ms: `current_timestamp()` in a stream is the
    /// batch's timestamp (`offsetSeqMetadata.batchTimestampMs`), the same for every row.
    static BATCH_TIMESTAMP_MS: Cell<i64> = const { Cell::new(0) };
}

thread_local! {
    /// The first error an expression raised in the running batch: (error condition, message).
    /// Spark 4 runs in ANSI mode, where a malformed cast, an integer overflow or a division by
    /// zero fails the task, and with it the micro-batch and the query.
    static EVAL_ERROR: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Records an ANSI-mode error raised while evaluating a row (the first one of the batch wins);
/// the expression itself returns NULL and the batch fails when it ends.
pub fn raise(condition: &str, message: String) {
    EVAL_ERROR.with(|e| {
        let mut e = e.borrow_mut();
        if e.is_none() {
            *e = Some((condition.to_string(), message));
        }
    });
}

/// Takes the error the running batch raised, if any (and clears it).
pub fn take_eval_error() -> Option<(String, String)> {
    EVAL_ERROR.with(|e| e.borrow_mut().take())
}

/// The running batch's timestamp, ms (`batchTimestampMs`).
pub fn batch_timestamp_ms() -> i64 {
    BATCH_TIMESTAMP_MS.with(Cell::get)
}

/// Sets the timestamp `current_timestamp()` returns while a batch runs.
pub fn set_batch_timestamp_ms(ms: i64) {
    BATCH_TIMESTAMP_MS.with(|c| c.set(ms));
}

fn s(v: &Value) -> String {
    v.to_string()
}

fn int(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_f64().map(|x| x as i64))
}

/// µs of a timestamp argument: a timestamp, a date (midnight), or a string Spark casts.
fn ts(v: &Value) -> Option<i64> {
    match v {
        Value::Timestamp(t) => Some(*t),
        Value::Date(d) => Some(i64::from(*d) * DAY_US),
        Value::Str(text) => match spark_string_to_timestamp(text) {
            TimestampText::Value(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// A datetime pattern argument as a chrono format; a pattern Spark rejects fails the batch
/// with Spark's error condition (raised when the formatter is first used, as in Spark).
fn pattern(v: Option<&Value>, default: &str) -> Option<String> {
    let p = match v {
        Some(Value::Str(p)) => p.to_string(),
        Some(_) => return None,
        None => default.to_string(),
    };
    match spark_pattern_to_chrono(&p) {
        Ok(f) => Some(f),
        Err(m) => {
            let (condition, message) = match m.strip_prefix('[').and_then(|r| r.split_once("] ")) {
                Some((c, rest)) => (c.to_string(), rest.to_string()),
                None => ("INVALID_DATETIME_PATTERN".to_string(), m),
            };
            raise(&condition, message);
            None
        }
    }
}

/// The value of scalar function `name` (lower case, as in the table) for `args`.
pub fn call(name: &str, args: &[Value]) -> Value {
    let first = args.first().cloned().unwrap_or(Value::Null);
    // Functions with their own NULL rules.
    match name {
        "coalesce" | "nvl" | "ifnull" => return args.iter().find(|v| !v.is_null()).cloned().unwrap_or(Value::Null),
        "if" => {
            return if matches!(first, Value::Bool(true)) { args.get(1).cloned().unwrap_or(Value::Null) } else { args.get(2).cloned().unwrap_or(Value::Null) };
        }
        "nullif" => {
            let b = args.get(1).cloned().unwrap_or(Value::Null);
            return if !first.is_null() && super::eval::compare(&first, &b) == Some(std::cmp::Ordering::Equal) { Value::Null } else { first };
        }
        "concat" => {
            if args.iter().any(Value::is_null) {
                return Value::Null;
            }
            if args.iter().all(|a| matches!(a, Value::Array(_))) && !args.is_empty() {
                let items: Vec<Value> = args.iter().flat_map(|a| if let Value::Array(x) = a { x.to_vec() } else { vec![] }).collect();
                return Value::Array(items.into());
            }
            return Value::str(&args.iter().map(s).collect::<String>());
        }
        "concat_ws" => {
            if first.is_null() {
                return Value::Null;
            }
            let mut parts = Vec::new();
            for a in &args[1..] {
                match a {
                    Value::Null => {}
                    Value::Array(items) => parts.extend(items.iter().filter(|v| !v.is_null()).map(s)),
                    other => parts.push(s(other)),
                }
            }
            return Value::str(&parts.join(&s(&first)));
        }
        "greatest" | "least" => {
            let mut best: Option<Value> = None;
            for a in args.iter().filter(|a| !a.is_null()) {
                let better = best.as_ref().is_none_or(|b| if name == "greatest" { a > b } else { a < b });
                if better {
                    best = Some(a.clone());
                }
            }
            return best.unwrap_or(Value::Null);
        }
        "array" => return Value::Array(args.iter().cloned().collect()),
        "in" => {
            if first.is_null() {
                return Value::Null;
            }
            let mut saw_null = false;
            for item in args.get(1..).unwrap_or_default() {
                if item.is_null() {
                    saw_null = true;
                } else if super::eval::compare(&first, item) == Some(std::cmp::Ordering::Equal) {
                    return Value::Bool(true);
                }
            }
            return if saw_null { Value::Null } else { Value::Bool(false) };
        }
        "current_date" => return Value::Date(BATCH_TIMESTAMP_MS.with(Cell::get).div_euclid(86_400_000) as i32),
        "current_timestamp" | "now" => return Value::Timestamp(EventTime::from_millis(BATCH_TIMESTAMP_MS.with(Cell::get)).micros()),
        "unix_timestamp" if args.is_empty() => return Value::Long(floor_millis_to_seconds(BATCH_TIMESTAMP_MS.with(Cell::get))),
        // Spark's `xxhash64(a, b, ...)`: each argument's hash seeds the next, from 42.
        "xxhash64" => return Value::Long(super::hll::spark_xxhash64_all(args) as i64),
        "size" => {
            return match first {
                Value::Array(a) => Value::Int(a.len() as i32),
                // size(NULL) is -1 (spark.sql.legacy.sizeOfNull is false in ANSI mode: NULL).
                _ => Value::Null,
            }
        }
        _ => {}
    }
    if args.iter().any(Value::is_null) && !matches!(name, "split" | "regexp_extract" | "to_timestamp" | "to_date" | "unix_timestamp" | "from_unixtime") {
        return Value::Null;
    }
    if first.is_null() {
        return Value::Null;
    }
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Null);
    match name {
        "upper" | "ucase" => Value::str(&s(&first).to_uppercase()),
        "lower" | "lcase" => Value::str(&s(&first).to_lowercase()),
        "length" | "char_length" => Value::Int(s(&first).chars().count() as i32),
        // Spark trims the space character only.
        "trim" => Value::str(s(&first).trim_matches(' ')),
        "ltrim" => Value::str(s(&first).trim_start_matches(' ')),
        "rtrim" => Value::str(s(&first).trim_end_matches(' ')),
        "initcap" => {
            let lower = s(&first).to_lowercase();
            let mut out = String::with_capacity(lower.len());
            let mut start = true;
            for c in lower.chars() {
                if start {
                    out.extend(c.to_uppercase());
                } else {
                    out.push(c);
                }
                start = c == ' ';
            }
            Value::str(&out)
        }
        "reverse" => match first {
            Value::Array(a) => Value::Array(a.iter().rev().cloned().collect()),
            other => Value::str(&s(&other).chars().rev().collect::<String>()),
        },
        "substring" | "substr" => {
            let chars: Vec<char> = s(&first).chars().collect();
            let pos = int(&arg(1)).unwrap_or(1);
            let len = args.get(2).and_then(int).unwrap_or(i64::from(i32::MAX));
            Value::str(&substring(&chars, pos, len))
        }
        "left" => {
            let chars: Vec<char> = s(&first).chars().collect();
            let n = int(&arg(1)).unwrap_or(0).max(0) as usize;
            Value::str(&chars[..n.min(chars.len())].iter().collect::<String>())
        }
        "right" => {
            let chars: Vec<char> = s(&first).chars().collect();
            let n = int(&arg(1)).unwrap_or(0).max(0) as usize;
            Value::str(&chars[chars.len().saturating_sub(n)..].iter().collect::<String>())
        }
        "split" => {
            let (Value::Str(text), Value::Str(re)) = (&first, &arg(1)) else { return Value::Null };
            let limit = args.get(2).and_then(int).unwrap_or(-1);
            match regex_lite::Regex::new(re) {
                Ok(r) => Value::Array(split(text, &r, limit).into_iter().map(|p| Value::str(&p)).collect()),
                Err(_) => Value::Null,
            }
        }
        "regexp_extract" => {
            let (Value::Str(text), Value::Str(re)) = (&first, &arg(1)) else { return Value::Null };
            let idx = args.get(2).and_then(int).unwrap_or(1).max(0) as usize;
            match regex_lite::Regex::new(re) {
                Ok(r) => Value::str(r.captures(text).and_then(|c| c.get(idx)).map_or("", |m| m.as_str())),
                Err(_) => Value::Null,
            }
        }
        "regexp_replace" => {
            let (Value::Str(text), Value::Str(re)) = (&first, &arg(1)) else { return Value::Null };
            match regex_lite::Regex::new(re) {
                Ok(r) => Value::str(&r.replace_all(text, s(&arg(2)).as_str())),
                Err(_) => Value::Null,
            }
        }
        "lpad" | "rpad" => {
            let chars: Vec<char> = s(&first).chars().collect();
            // Capped so a typo cannot ask for gigabytes.
            let n = int(&arg(1)).unwrap_or(0).clamp(0, 1_000_000) as usize;
            let pad: Vec<char> = args.get(2).map_or_else(|| vec![' '], |p| s(p).chars().collect());
            Value::str(&pad_to(&chars, n, &pad, name == "lpad"))
        }
        "instr" => {
            let (hay, needle) = (s(&first), s(&arg(1)));
            Value::Int(hay.find(&needle).map_or(0, |byte| hay[..byte].chars().count() as i32 + 1))
        }
        "repeat" => {
            let text = s(&first);
            let n = int(&arg(1)).unwrap_or(0).clamp(0, 10_000) as usize;
            // Capped so a typo cannot ask for gigabytes.
            Value::str(&text.repeat(n.min(1_000_000 / text.len().max(1))))
        }
        "contains" | "startswith" | "endswith" => {
            let (a, b) = (s(&first), s(&arg(1)));
            Value::Bool(match name {
                "contains" => a.contains(&b),
                "startswith" => a.starts_with(&b),
                _ => a.ends_with(&b),
            })
        }
        // Linear time (`like.rs`); a pattern Spark refuses gives NULL here (Spark fails).
        "like" => super::like::like(&s(&first), &s(&arg(1))).map_or(Value::Null, Value::Bool),
        "abs" => match first {
            Value::Int(v) => Value::Int(v.wrapping_abs()),
            Value::Long(v) => Value::Long(v.wrapping_abs()),
            Value::Double(v) => Value::Double(v.abs()),
            _ => Value::Null,
        },
        "negative" => match first {
            Value::Int(v) => Value::Int(v.wrapping_neg()),
            Value::Long(v) => Value::Long(v.wrapping_neg()),
            Value::Double(v) => Value::Double(-v),
            _ => Value::Null,
        },
        "sqrt" | "cbrt" | "exp" | "ln" | "log10" | "log2" | "signum" => {
            let Some(x) = first.as_f64() else { return Value::Null };
            let y = match name {
                "sqrt" => x.sqrt(),
                "cbrt" => x.cbrt(),
                "exp" => x.exp(),
                "signum" => if x == 0.0 || x.is_nan() { x } else { x.signum() },
                // Logarithms of non-positive numbers are NULL (`Logarithm.nullSafeEval`).
                _ if x <= 0.0 => return Value::Null,
                "ln" => x.ln(),
                "log10" => x.log10(),
                _ => x.log2(),
            };
            Value::Double(y)
        }
        "log" => {
            // log(x) is ln(x); log(base, x).
            let (base, x) = match args.len() {
                1 => (std::f64::consts::E, first.as_f64()),
                _ => (first.as_f64().unwrap_or(f64::NAN), arg(1).as_f64()),
            };
            match x {
                Some(x) if x > 0.0 && base > 0.0 => Value::Double(if args.len() == 1 { x.ln() } else { x.ln() / base.ln() }),
                _ => Value::Null,
            }
        }
        "pow" | "power" => match (first.as_f64(), arg(1).as_f64()) {
            (Some(a), Some(b)) => Value::Double(a.powf(b)),
            _ => Value::Null,
        },
        "ceil" => first.as_f64().map_or(Value::Null, |x| Value::Long(x.ceil() as i64)),
        "floor" => first.as_f64().map_or(Value::Null, |x| Value::Long(x.floor() as i64)),
        "round" => {
            let scale = args.get(1).and_then(Value::as_i64).unwrap_or(0).clamp(-18, 18) as i32;
            match first {
                Value::Double(x) => Value::Double(super::eval::round_half_up(x, scale)),
                Value::Int(_) | Value::Long(_) if scale >= 0 => first,
                Value::Int(x) => Value::Int(super::eval::round_half_up(f64::from(x), scale) as i32),
                other => other.as_f64().map_or(Value::Null, |x| Value::Long(super::eval::round_half_up(x, scale) as i64)),
            }
        }
        "date_format" => match (ts(&first), pattern(args.get(1), "")) {
            (Some(t), Some(f)) => format_with_pattern(t, &f).map_or(Value::Null, |x| Value::str(&x)),
            _ => Value::Null,
        },
        "to_timestamp" => match to_timestamp(&first, args.get(1)) {
            Some(t) => Value::Timestamp(t),
            None => {
                // ANSI mode (`GetTimestamp` with failOnError): text that does not fit fails.
                if let Value::Str(text) = &first {
                    raise(
                        "CANNOT_PARSE_TIMESTAMP",
                        format!("Text '{text}' could not be parsed. Use `try_to_timestamp` to tolerate invalid input string and return NULL instead."),
                    );
                }
                Value::Null
            }
        },
        "to_date" => to_timestamp(&first, args.get(1)).map_or(Value::Null, |t| Value::Date(t.div_euclid(DAY_US) as i32)),
        "unix_timestamp" => {
            let t = match (&first, args.get(1)) {
                (Value::Str(_), None) => to_timestamp(&first, Some(&Value::str("yyyy-MM-dd HH:mm:ss"))),
                _ => to_timestamp(&first, args.get(1)),
            };
            t.map_or(Value::Null, |t| Value::Long(floor_micros_to_seconds(t)))
        }
        "from_unixtime" => match (int(&first), pattern(args.get(1), "yyyy-MM-dd HH:mm:ss")) {
            (Some(secs), Some(f)) => checked_seconds_to_micros(secs).and_then(|t| format_with_pattern(t, &f)).map_or(Value::Null, |x| Value::str(&x)),
            _ => Value::Null,
        },
        "timestamp_seconds" => match first {
            Value::Double(d) if d.is_finite() => Value::Timestamp((d * 1e6) as i64),
            other => other.as_i64().and_then(checked_seconds_to_micros).map_or(Value::Null, Value::Timestamp),
        },
        "date_trunc" => match (&first, ts(&arg(1))) {
            (Value::Str(unit), Some(t)) => date_trunc(unit, t).map_or(Value::Null, Value::Timestamp),
            _ => Value::Null,
        },
        "year" | "month" | "dayofmonth" | "day" | "dayofweek" | "dayofyear" | "hour" | "minute" | "second" => {
            let Some((y, mo, d, h, mi, sec, _, dow, doy)) = ts(&first).and_then(fields) else { return Value::Null };
            Value::Int(match name {
                "year" => y,
                "month" => mo as i32,
                "dayofmonth" | "day" => d as i32,
                "dayofweek" => dow as i32,
                "dayofyear" => doy as i32,
                "hour" => h as i32,
                "minute" => mi as i32,
                _ => sec as i32,
            })
        }
        "date_add" | "date_sub" => match (ts(&first), int(&arg(1))) {
            (Some(t), Some(n)) => {
                let days = t.div_euclid(DAY_US) + if name == "date_add" { n } else { -n };
                i32::try_from(days).map_or(Value::Null, Value::Date)
            }
            _ => Value::Null,
        },
        "datediff" => match (ts(&first), ts(&arg(1))) {
            (Some(a), Some(b)) => Value::Int((a.div_euclid(DAY_US) - b.div_euclid(DAY_US)) as i32),
            _ => Value::Null,
        },
        "rlike" => super::like::rlike(&s(&first), &s(&arg(1))).map_or(Value::Null, Value::Bool),
        "array_sort" => match first {
            Value::Array(a) => {
                let mut v = a.to_vec();
                // NULLs last (`array_sort`).
                v.sort_by(|x, y| match (x.is_null(), y.is_null()) {
                    (true, false) => std::cmp::Ordering::Greater,
                    (false, true) => std::cmp::Ordering::Less,
                    _ => x.cmp(y),
                });
                Value::Array(v.into())
            }
            _ => Value::Null,
        },
        "array_contains" => match first {
            Value::Array(a) => Value::Bool(a.iter().any(|x| super::eval::compare(x, &arg(1)) == Some(std::cmp::Ordering::Equal))),
            _ => Value::Null,
        },
        "get_item" => match (first, int(&arg(1))) {
            (Value::Array(a), Some(i)) if i >= 0 => a.get(i as usize).cloned().unwrap_or(Value::Null),
            _ => Value::Null,
        },
        "element_at" => match (first, int(&arg(1))) {
            (Value::Array(a), Some(i)) if i > 0 => a.get(i as usize - 1).cloned().unwrap_or(Value::Null),
            (Value::Array(a), Some(i)) if i < 0 => a.len().checked_sub(i.unsigned_abs() as usize).and_then(|k| a.get(k).cloned()).unwrap_or(Value::Null),
            _ => Value::Null,
        },
        _ => Value::Null,
    }
}

/// `to_timestamp(v[, pattern])`: a string by the pattern, or by `CAST(v AS TIMESTAMP)`'s rules
/// without one; a timestamp or date as is. `None` if it does not fit.
fn to_timestamp(v: &Value, pattern_arg: Option<&Value>) -> Option<i64> {
    match (v, pattern_arg) {
        (Value::Str(text), Some(p)) => parse_with_pattern(text, &pattern(Some(p), "")?),
        (other, _) => ts(other),
    }
}

/// Spark's `substring(str, pos, len)`: 1-based; 0 counts as 1; a negative position counts
/// from the end (`UTF8String.substringSQL`).
fn substring(chars: &[char], pos: i64, len: i64) -> String {
    let n = chars.len() as i64;
    let start = if pos > 0 { pos - 1 } else if pos < 0 { n + pos } else { 0 };
    let end = if len <= 0 { start } else { start.saturating_add(len) };
    let (start, end) = (start.clamp(0, n), end.clamp(0, n));
    if start >= end {
        return String::new();
    }
    chars[start as usize..end as usize].iter().collect()
}

/// Java's `String.split(regex, limit)`: limit > 0 caps the parts; otherwise all parts, and
/// (limit 0 only) trailing empty strings removed. Spark passes -1: trailing empties stay.
fn split(text: &str, re: &regex_lite::Regex, limit: i64) -> Vec<String> {
    if text.is_empty() {
        return vec![String::new()];
    }
    let mut parts: Vec<String> = if limit > 0 { re.splitn(text, limit as usize).map(str::to_string).collect() } else { re.split(text).map(str::to_string).collect() };
    // Java drops a leading empty string produced by a zero-width match at the start.
    if parts.len() > 1 && parts[0].is_empty() && re.find(text).is_some_and(|m| m.start() == 0 && m.end() == 0) {
        parts.remove(0);
    }
    if limit == 0 {
        while parts.last().is_some_and(String::is_empty) {
            parts.pop();
        }
    }
    parts
}

fn pad_to(chars: &[char], n: usize, pad: &[char], left: bool) -> String {
    if chars.len() >= n || pad.is_empty() {
        return chars[..n.min(chars.len())].iter().collect();
    }
    let fill: String = pad.iter().cycle().take(n - chars.len()).collect();
    let body: String = chars.iter().collect();
    if left {
        fill + &body
    } else {
        body + &fill
    }
}

/// `date_trunc(unit, ts)` in UTC.
fn date_trunc(unit: &str, t: i64) -> Option<i64> {
    let (y, mo, d, ..) = fields(t)?;
    let day_start = t.div_euclid(DAY_US) * DAY_US;
    let ymd = |y: i32, m: u32, d: u32| chrono::NaiveDate::from_ymd_opt(y, m, d).map(|x| x.and_hms_opt(0, 0, 0).map(|n| n.and_utc().timestamp_micros()));
    Some(match unit.to_ascii_lowercase().as_str() {
        "microsecond" => t,
        "millisecond" => t.div_euclid(MICROS_PER_MILLI) * MICROS_PER_MILLI,
        "second" => t.div_euclid(MICROS_PER_SECOND) * MICROS_PER_SECOND,
        "minute" => t.div_euclid(60_000_000) * 60_000_000,
        "hour" => t.div_euclid(3_600_000_000) * 3_600_000_000,
        "day" | "dd" => day_start,
        "week" => {
            // Monday of the week.
            let dow_from_monday = (t.div_euclid(DAY_US) + 3).rem_euclid(7);
            day_start - dow_from_monday * DAY_US
        }
        "month" | "mon" | "mm" => ymd(y, mo, 1)??,
        "quarter" => ymd(y, (mo - 1) / 3 * 3 + 1, 1)??,
        "year" | "yyyy" | "yy" => ymd(y, 1, 1)??,
        _ => {
            let _ = d;
            return None;
        }
    })
}

/// A reference-counted empty array.
pub fn empty_array() -> Value {
    Value::Array(Rc::from(Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(x: &str) -> Value {
        Value::str(x)
    }

    #[test]
    fn strings_follow_spark() {
        // substring is 1-based; 0 counts as 1; negative counts from the end.
        assert_eq!(call("substring", &[st("hello"), Value::Int(2), Value::Int(3)]), st("ell"));
        assert_eq!(call("substring", &[st("hello"), Value::Int(0), Value::Int(2)]), st("he"));
        assert_eq!(call("substring", &[st("hello"), Value::Int(-3), Value::Int(2)]), st("ll"));
        // concat_ws skips NULLs; concat with a NULL is NULL.
        assert_eq!(call("concat_ws", &[st("-"), st("a"), Value::Null, st("b")]), st("a-b"));
        assert!(call("concat", &[st("a"), Value::Null]).is_null());
        // Spark's trim removes spaces only.
        assert_eq!(call("trim", &[st(" \tx ")]), st("\tx"));
        assert_eq!(call("instr", &[st("hello"), st("l")]), Value::Int(3));
        assert_eq!(call("lpad", &[st("ab"), Value::Int(5), st("*")]), st("***ab"));
        assert_eq!(call("lpad", &[st("abcdef"), Value::Int(3), st("*")]), st("abc"));
        assert_eq!(call("initcap", &[st("hELLO wORLD")]), st("Hello World"));
        let parts = call("split", &[st("a b  c"), st(" ")]);
        assert_eq!(parts, Value::Array(vec![st("a"), st("b"), st(""), st("c")].into()));
        assert_eq!(call("regexp_extract", &[st("user-42"), st(r"(\w+)-(\d+)"), Value::Int(2)]), st("42"));
        assert_eq!(call("regexp_extract", &[st("none"), st(r"(\d+)"), Value::Int(1)]), st(""));
    }

    #[test]
    fn times_follow_spark() {
        let t = crate::types::parse_timestamp_us("2026-01-01T12:07:30Z").unwrap();
        assert_eq!(call("hour", &[Value::Timestamp(t)]), Value::Int(12));
        assert_eq!(call("date_trunc", &[st("hour"), Value::Timestamp(t)]), Value::Timestamp(t - 7 * 60_000_000 - 30_000_000));
        assert_eq!(call("unix_timestamp", &[Value::Timestamp(t)]), Value::Long(floor_micros_to_seconds(t)));
        assert_eq!(call("from_unixtime", &[Value::Long(0)]), st("1970-01-01 00:00:00"));
        assert_eq!(call("date_format", &[Value::Timestamp(t), st("HH:mm")]), st("12:07"));
        // 2026-01-01 is a Thursday: dayofweek counts from Sunday = 1.
        assert_eq!(call("dayofweek", &[Value::Timestamp(t)]), Value::Int(5));
        assert_eq!(call("to_date", &[st("04/03/2026"), st("dd/MM/yyyy")]), Value::Date(20_516));
    }
}
