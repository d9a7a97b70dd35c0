//! pandas `Timestamp` and `Timedelta` (ns, UTC) and the `Series.dt` / `Series.str`
//! accessors of the pandas subset: the parts of a time (`year` ... `second`, `dayofweek`),
//! `floor`/`ceil` to a fixed frequency (`'10min'`, `'h'`, `'s'`, `'D'`), `timestamp()`,
//! `isoformat()`, `Timestamp ± Timedelta`, `Timestamp - Timestamp`, `Timedelta.total_seconds()`;
//! and the common string methods (`upper`, `lower`, `strip`, `len`, `contains`, `startswith`,
//! `endswith`, `replace`, `split`).

use std::rc::Rc;

use chrono::{Datelike, Timelike};

use super::Val;
use super::pandas::{arg, flag, is_na, list_val, missing, series_val, str_val, AccessorKind, Series, R};
use crate::pyfunc::PyError;
use crate::types::time::{NANOS_PER_MILLI, NANOS_PER_SECOND};

const NANOS_PER_MINUTE: i64 = 60 * NANOS_PER_SECOND;
const NANOS_PER_HOUR: i64 = 60 * NANOS_PER_MINUTE;
const NANOS_PER_DAY: i64 = 24 * NANOS_PER_HOUR;

fn datetime(ns: i64, line: usize) -> R<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::from_timestamp(ns.div_euclid(NANOS_PER_SECOND), ns.rem_euclid(NANOS_PER_SECOND) as u32).ok_or_else(|| PyError::runtime("OutOfBoundsDatetime: timestamp out of range", line))
}

/// A fixed frequency string (`'10min'`, `'5T'`, `'h'`, `'30s'`, `'D'`, `'100ms'`) in ns.
pub fn frequency_ns(freq: &str, line: usize) -> R<i64> {
    let digits: String = freq.chars().take_while(char::is_ascii_digit).collect();
    let unit = &freq[digits.len()..];
    let n: i64 = if digits.is_empty() { 1 } else { digits.parse().map_err(|_| PyError::runtime(format!("ValueError: Invalid frequency: {freq}"), line))? };
    let per = match unit {
        "D" | "d" => NANOS_PER_DAY,
        "h" | "H" => NANOS_PER_HOUR,
        "min" | "T" => NANOS_PER_MINUTE,
        "s" | "S" => NANOS_PER_SECOND,
        "ms" | "L" => NANOS_PER_MILLI,
        "us" | "U" => 1_000,
        "ns" | "N" => 1,
        "W" | "M" | "ME" | "MS" | "Y" | "YE" | "YS" | "Q" | "B" => return Err(PyError::not_modelled(format!("pandas frequency '{freq}' (a calendar frequency)"), line)),
        _ => return Err(PyError::runtime(format!("ValueError: Invalid frequency: {freq}"), line)),
    };
    n.checked_mul(per).filter(|x| *x > 0).ok_or_else(|| PyError::runtime(format!("ValueError: Invalid frequency: {freq}"), line))
}

fn round_to(ns: i64, step: i64, how: &str) -> i64 {
    let floor = ns.div_euclid(step) * step;
    match how {
        "floor" => floor,
        "ceil" if floor == ns => ns,
        "ceil" => floor + step,
        _ => {
            // `round`: half to even, as pandas does.
            let r = ns - floor;
            if r * 2 > step || (r * 2 == step && (floor / step) % 2 != 0) {
                floor + step
            } else {
                floor
            }
        }
    }
}

/// `ts.name` of a pandas `Timestamp` (ns since the epoch, UTC).
pub fn timestamp_attr(this: &Val, ns: i64, name: &str, line: usize) -> R<Val> {
    let t = datetime(ns, line)?;
    Ok(match name {
        "value" => Val::Int(ns),
        "year" => Val::Int(i64::from(t.year())),
        "month" => Val::Int(i64::from(t.month())),
        "day" => Val::Int(i64::from(t.day())),
        "hour" => Val::Int(i64::from(t.hour())),
        "minute" => Val::Int(i64::from(t.minute())),
        "second" => Val::Int(i64::from(t.second())),
        "microsecond" => Val::Int(ns.rem_euclid(NANOS_PER_SECOND) / 1_000),
        "dayofweek" | "day_of_week" => Val::Int(i64::from(t.weekday().num_days_from_monday())),
        "dayofyear" | "day_of_year" => Val::Int(i64::from(t.ordinal())),
        "timestamp" | "floor" | "ceil" | "round" | "isoformat" | "weekday" | "strftime" => Val::Method(Box::new(this.clone()), Rc::from(name)),
        other => return Err(missing(this, other, line)),
    })
}

/// `ts.name(*args)` of a pandas `Timestamp`.
pub fn timestamp_call(this: &Val, ns: i64, name: &str, args: &[Val], line: usize) -> R<Val> {
    Ok(match name {
        "timestamp" => Val::Float(ns as f64 / 1e9),
        "weekday" => timestamp_attr(this, ns, "dayofweek", line)?,
        "floor" | "ceil" | "round" => {
            let freq = args.first().map(Val::str_value).ok_or_else(|| PyError::runtime(format!("TypeError: {name}() missing 1 required positional argument: 'freq'"), line))?;
            Val::Timestamp(round_to(ns, frequency_ns(&freq, line)?, name))
        }
        "isoformat" => {
            let t = datetime(ns, line)?;
            let frac = ns.rem_euclid(NANOS_PER_SECOND);
            let base = t.format("%Y-%m-%dT%H:%M:%S").to_string();
            str_val(&if frac == 0 { format!("{base}+00:00") } else if frac % 1_000 == 0 { format!("{base}.{:06}+00:00", frac / 1_000) } else { format!("{base}.{frac:09}+00:00") })
        }
        "strftime" => {
            let fmt = args.first().map(Val::str_value).unwrap_or_default();
            let t = datetime(ns, line)?;
            let items: Vec<chrono::format::Item<'_>> = chrono::format::StrftimeItems::new(&fmt).collect();
            if items.iter().any(|i| matches!(i, chrono::format::Item::Error)) {
                return Err(PyError::runtime(format!("ValueError: Invalid format string '{fmt}'"), line));
            }
            str_val(&t.format_with_items(items.into_iter()).to_string())
        }
        other => return Err(missing(this, other, line)),
    })
}

/// `td.name` of a pandas `Timedelta` (ns).
pub fn timedelta_attr(this: &Val, ns: i64, name: &str, line: usize) -> R<Val> {
    Ok(match name {
        "value" => Val::Int(ns),
        "days" => Val::Int(ns.div_euclid(NANOS_PER_DAY)),
        "seconds" => Val::Int(ns.rem_euclid(NANOS_PER_DAY) / NANOS_PER_SECOND),
        "microseconds" => Val::Int(ns.rem_euclid(NANOS_PER_SECOND) / 1_000),
        "total_seconds" => Val::Method(Box::new(this.clone()), Rc::from(name)),
        other => return Err(missing(this, other, line)),
    })
}

/// The text `str(td)` gives (`0 days 00:10:00`).
pub fn timedelta_text(ns: i64) -> String {
    let days = ns.div_euclid(NANOS_PER_DAY);
    let rest = ns.rem_euclid(NANOS_PER_DAY);
    let (h, m, s) = (rest / NANOS_PER_HOUR, rest % NANOS_PER_HOUR / NANOS_PER_MINUTE, rest % NANOS_PER_MINUTE / NANOS_PER_SECOND);
    let frac = rest % NANOS_PER_SECOND;
    let base = format!("{days} days {h:02}:{m:02}:{s:02}");
    if frac == 0 {
        base
    } else if frac % 1_000 == 0 {
        format!("{base}.{:06}", frac / 1_000)
    } else {
        format!("{base}.{frac:09}")
    }
}

/// `pd.Timedelta(value=None, unit='ns', **components)`: `days`, `hours`, `minutes`,
/// `seconds`, `milliseconds`, `microseconds`, or a number with a unit, or a string such as
/// `'10 minutes'` / `'10min'`.
pub fn make_timedelta(args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let mut ns: i64 = 0;
    let unit = kwargs.iter().find(|(k, _)| k == "unit").map(|(_, v)| v.str_value());
    match args.first() {
        Some(Val::Timedelta(t)) => return Ok(Val::Timedelta(*t)),
        Some(Val::Str(s)) => {
            let t = s.trim();
            let (num, u) = t.split_at(t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len()));
            let n: f64 = num.parse().map_err(|_| PyError::runtime(format!("ValueError: unit abbreviation w/o a number: '{s}'"), line))?;
            let per = match u.trim() {
                "day" | "days" | "d" | "D" => NANOS_PER_DAY,
                "hour" | "hours" | "h" | "hr" => NANOS_PER_HOUR,
                "minute" | "minutes" | "min" | "m" | "T" => NANOS_PER_MINUTE,
                "second" | "seconds" | "sec" | "s" | "S" => NANOS_PER_SECOND,
                "millisecond" | "milliseconds" | "ms" => NANOS_PER_MILLI,
                other => return Err(PyError::runtime(format!("ValueError: invalid unit abbreviation: {other}"), line)),
            };
            ns = (n * per as f64) as i64;
        }
        Some(v) if v.as_f64().is_some() => {
            let per = match unit.as_deref().unwrap_or("ns") {
                "D" | "days" | "day" => NANOS_PER_DAY,
                "h" | "hours" => NANOS_PER_HOUR,
                "m" | "min" | "minutes" => NANOS_PER_MINUTE,
                "s" | "seconds" => NANOS_PER_SECOND,
                "ms" | "milliseconds" => NANOS_PER_MILLI,
                "us" | "microseconds" => 1_000,
                "ns" | "nanoseconds" => 1,
                other => return Err(PyError::runtime(format!("ValueError: invalid unit abbreviation: {other}"), line)),
            };
            ns = (v.as_f64().unwrap_or(0.0) * per as f64) as i64;
        }
        Some(other) => return Err(PyError::runtime(format!("ValueError: Could not convert {} to a Timedelta", other.type_name()), line)),
        None => {}
    }
    for (k, v) in kwargs.iter().filter(|(k, _)| k != "unit") {
        let per: i64 = match k.as_str() {
            "weeks" => 7 * NANOS_PER_DAY,
            "days" => NANOS_PER_DAY,
            "hours" => NANOS_PER_HOUR,
            "minutes" => NANOS_PER_MINUTE,
            "seconds" => NANOS_PER_SECOND,
            "milliseconds" => NANOS_PER_MILLI,
            "microseconds" => 1_000,
            "nanoseconds" => 1,
            _ => return Err(PyError::runtime(format!("TypeError: unexpected keyword argument '{k}'"), line)),
        };
        let n = v.as_f64().ok_or_else(|| PyError::runtime("TypeError: Timedelta takes numbers", line))?;
        ns = ns.saturating_add((n * per as f64) as i64);
    }
    Ok(Val::Timedelta(ns))
}

/// Arithmetic with timestamps and timedeltas: `Timestamp ± Timedelta`, `Timestamp -
/// Timestamp`, `Timedelta ± Timedelta`, `Timedelta * n`, `Timedelta / Timedelta`; `None` when
/// the operands are not times.
pub fn time_arith(op: crate::pyfunc::parse::BinOp, x: &Val, y: &Val, line: usize) -> Option<R<Val>> {
    use crate::pyfunc::parse::BinOp::*;
    let overflow = || PyError::runtime("OverflowError: Python int too large to convert to C long", line);
    let r = match (op, x, y) {
        (Add, Val::Timestamp(t), Val::Timedelta(d)) | (Add, Val::Timedelta(d), Val::Timestamp(t)) => t.checked_add(*d).map(Val::Timestamp),
        (Sub, Val::Timestamp(t), Val::Timedelta(d)) => t.checked_sub(*d).map(Val::Timestamp),
        (Sub, Val::Timestamp(a), Val::Timestamp(b)) => a.checked_sub(*b).map(Val::Timedelta),
        (Add, Val::Timedelta(a), Val::Timedelta(b)) => a.checked_add(*b).map(Val::Timedelta),
        (Sub, Val::Timedelta(a), Val::Timedelta(b)) => a.checked_sub(*b).map(Val::Timedelta),
        (Mul, Val::Timedelta(d), n) | (Mul, n, Val::Timedelta(d)) if n.as_f64().is_some() => Some(Val::Timedelta((*d as f64 * n.as_f64().unwrap_or(0.0)) as i64)),
        (Div, Val::Timedelta(a), Val::Timedelta(b)) => {
            if *b == 0 {
                return Some(Err(PyError::runtime("ZeroDivisionError: division by zero", line)));
            }
            Some(Val::Float(*a as f64 / *b as f64))
        }
        (FloorDiv, Val::Timedelta(a), Val::Timedelta(b)) => {
            if *b == 0 {
                return Some(Err(PyError::runtime("ZeroDivisionError: integer division or modulo by zero", line)));
            }
            Some(Val::Int(a.div_euclid(*b)))
        }
        (Div | FloorDiv, Val::Timedelta(a), n) if n.as_f64().is_some_and(|x| x != 0.0) => Some(Val::Timedelta((*a as f64 / n.as_f64().unwrap_or(1.0)) as i64)),
        (Add | Sub, Val::Timestamp(_), Val::Int(_)) | (Add, Val::Int(_), Val::Timestamp(_)) => {
            return Some(Err(PyError::runtime("TypeError: Addition/subtraction of integers and integer-arrays with Timestamp is no longer supported.  Instead of adding/subtracting `n`, use `n * obj.freq`", line)));
        }
        _ => return None,
    };
    Some(r.ok_or_else(overflow))
}

/// `s.dt.name` / `s.str.name`.
pub(in crate::pyfunc) fn accessor_attr(kind: AccessorKind, s: &Rc<Series>, this: &Val, name: &str, line: usize) -> R<Val> {
    match kind {
        AccessorKind::Dt => match name {
            "year" | "month" | "day" | "hour" | "minute" | "second" | "microsecond" | "dayofweek" | "day_of_week" | "dayofyear" | "day_of_year" => {
                let values = s.values.iter().map(|v| match v {
                    Val::Timestamp(ns) => timestamp_attr(v, *ns, name, line),
                    v if is_na(v) => Ok(Val::Float(f64::NAN)),
                    other => Err(PyError::runtime(format!("AttributeError: Can only use .dt accessor with datetimelike values, not {}", other.type_name()), line)),
                });
                Ok(series_val(s.with_values(values.collect::<R<Vec<_>>>()?)))
            }
            "floor" | "ceil" | "round" | "strftime" => Ok(Val::Method(Box::new(this.clone()), Rc::from(name))),
            other => Err(missing(this, other, line)),
        },
        AccessorKind::Str => match name {
            "upper" | "lower" | "strip" | "lstrip" | "rstrip" | "len" | "contains" | "startswith" | "endswith" | "replace" | "split" | "title" | "capitalize" => {
                Ok(Val::Method(Box::new(this.clone()), Rc::from(name)))
            }
            other => Err(missing(this, other, line)),
        },
    }
}

/// `s.dt.name(*args)` / `s.str.name(*args)`, element by element (a missing value stays
/// missing).
pub(in crate::pyfunc) fn accessor_call(kind: AccessorKind, s: &Rc<Series>, name: &str, args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let mut out = Vec::with_capacity(s.values.len());
    for v in &s.values {
        if is_na(v) {
            // A missing value stays missing (a length becomes NaN, the column float).
            out.push(if name == "len" { Val::Float(f64::NAN) } else { v.clone() });
            continue;
        }
        out.push(match (kind, v) {
            (AccessorKind::Dt, Val::Timestamp(ns)) => timestamp_call(v, *ns, name, args, line)?,
            (AccessorKind::Str, Val::Str(t)) => str_method(t, name, args, kwargs, line)?,
            (AccessorKind::Dt, other) => return Err(PyError::runtime(format!("AttributeError: Can only use .dt accessor with datetimelike values, not {}", other.type_name()), line)),
            (AccessorKind::Str, _) => Val::Float(f64::NAN),
        });
    }
    Ok(series_val(s.with_values(out)))
}

/// One string method of `Series.str` on `t`.
fn str_method(t: &str, name: &str, args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let text = |i: usize, n: &str| arg(args, kwargs, i, n).map(Val::str_value).unwrap_or_default();
    Ok(match name {
        "upper" => str_val(&t.to_uppercase()),
        "lower" => str_val(&t.to_lowercase()),
        "strip" => str_val(t.trim()),
        "lstrip" => str_val(t.trim_start()),
        "rstrip" => str_val(t.trim_end()),
        "len" => Val::Int(t.chars().count() as i64),
        "title" | "capitalize" => {
            let mut out = String::with_capacity(t.len());
            let mut start = true;
            for c in t.chars() {
                if start {
                    out.extend(c.to_uppercase());
                } else {
                    out.extend(c.to_lowercase());
                }
                start = if name == "title" { !c.is_alphanumeric() } else { false };
            }
            str_val(&out)
        }
        "startswith" => Val::Bool(t.starts_with(&text(0, "pat"))),
        "endswith" => Val::Bool(t.ends_with(&text(0, "pat"))),
        "contains" => {
            let pat = text(0, "pat");
            let case = flag(kwargs, "case", true);
            if flag(kwargs, "regex", true) {
                let re = regex_lite::RegexBuilder::new(&pat).case_insensitive(!case).build().map_err(|e| PyError::runtime(format!("re.error: {e}"), line))?;
                Val::Bool(re.is_match(t))
            } else if case {
                Val::Bool(t.contains(&pat))
            } else {
                Val::Bool(t.to_lowercase().contains(&pat.to_lowercase()))
            }
        }
        "replace" => {
            let (pat, repl) = (text(0, "pat"), text(1, "repl"));
            if flag(kwargs, "regex", false) {
                let re = regex_lite::Regex::new(&pat).map_err(|e| PyError::runtime(format!("re.error: {e}"), line))?;
                str_val(&re.replace_all(t, repl.as_str()))
            } else {
                str_val(&t.replace(&pat, &repl))
            }
        }
        "split" => {
            let parts: Vec<Val> = match arg(args, kwargs, 0, "pat").filter(|p| !matches!(p, Val::None)) {
                Some(p) => t.split(p.str_value().as_str()).map(str_val).collect(),
                None => t.split_whitespace().map(str_val).collect(),
            };
            list_val(parts)
        }
        other => return Err(PyError::not_modelled(format!("pandas Series.str.{other}()"), line)),
    })
}
