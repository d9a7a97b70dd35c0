//! Pattern functions (`regexpExpressions.scala`): `like`, `ilike`, `rlike`/`regexp`/
//! `regexp_like`, `split`, `regexp_extract`, `regexp_extract_all`, `regexp_replace`,
//! `regexp_count`, `regexp_instr`, `regexp_substr`. Regular expressions run on `regex-lite`
//! (linear time; Java's look-around and back-references are not modelled); a pattern it
//! cannot read fails the batch as Spark's `INVALID_PARAMETER_VALUE.PATTERN` does.

use regex_lite::Regex;

use super::super::context::EvalContext;
use super::super::like;
use super::{any_null, arg, int, to_text};
use crate::types::Value;

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    if !matches!(
        name,
        "like" | "ilike" | "rlike" | "regexp" | "regexp_like" | "split" | "regexp_extract" | "regexp_extract_all" | "regexp_replace" | "regexp_count" | "regexp_instr" | "regexp_substr"
    ) {
        return None;
    }
    if any_null(args) {
        return Some(Value::Null);
    }
    let text = to_text(arg(args, 0), cx);
    let pattern = to_text(arg(args, 1), cx);
    if name == "like" || name == "ilike" {
        let r = if name == "ilike" { like::like(&text.to_lowercase(), &pattern.to_lowercase()) } else { like::like(&text, &pattern) };
        return Some(r.map_or(Value::Null, Value::Bool));
    }
    let Some(re) = regex(&pattern, name, cx) else { return Some(Value::Null) };
    let group = |default: i64| int(arg(args, 2)).unwrap_or(default);
    Some(match name {
        "rlike" | "regexp" | "regexp_like" => Value::Bool(re.is_match(&text)),
        "split" => Value::Array(split(&text, &re, args.get(2).and_then(int).unwrap_or(-1)).into_iter().map(|p| Value::str(&p)).collect()),
        "regexp_extract" => {
            let Some(idx) = check_group(&re, group(1), name, cx) else { return Some(Value::Null) };
            Value::str(re.captures(&text).and_then(|c| c.get(idx)).map_or("", |m| m.as_str()))
        }
        "regexp_extract_all" => {
            let Some(idx) = check_group(&re, group(1), name, cx) else { return Some(Value::Null) };
            Value::Array(re.captures_iter(&text).map(|c| Value::str(c.get(idx).map_or("", |m| m.as_str()))).collect())
        }
        "regexp_replace" => {
            // `regexp_replace(s, re, rep[, pos])`: from 1-based character `pos`; `$1` is a group.
            let rep = java_replacement(&to_text(arg(args, 2), cx));
            let pos = args.get(3).and_then(int).unwrap_or(1).max(1) as usize;
            let skip: usize = text.chars().take(pos - 1).map(char::len_utf8).sum();
            if skip > text.len() || pos - 1 > text.chars().count() {
                return Some(Value::str(&text));
            }
            Value::str(&format!("{}{}", &text[..skip], re.replace_all(&text[skip..], rep.as_str())))
        }
        "regexp_count" => Value::Int(re.find_iter(&text).count() as i32),
        "regexp_substr" => re.find(&text).map_or(Value::Null, |m| Value::str(m.as_str())),
        "regexp_instr" => {
            let Some(idx) = check_group(&re, group(0), name, cx) else { return Some(Value::Null) };
            Value::Int(re.captures(&text).and_then(|c| c.get(idx)).map_or(0, |m| text[..m.start()].chars().count() as i32 + 1))
        }
        _ => return None,
    })
}

/// The compiled pattern, or `None` after raising Spark's error for a pattern it rejects.
fn regex(pattern: &str, function: &str, cx: &EvalContext) -> Option<Regex> {
    let re = like::compiled(pattern);
    if re.is_none() {
        cx.raise(
            "INVALID_PARAMETER_VALUE.PATTERN",
            format!("The value of parameter(s) `regexp` in `{function}` is invalid: '{pattern}'. (Streamlab reads regular expressions without look-around or back-references.)"),
        );
    }
    re
}

/// A group index Spark accepts (`REGEX_GROUP_INDEX`): at most the number of groups.
fn check_group(re: &Regex, idx: i64, function: &str, cx: &EvalContext) -> Option<usize> {
    let groups = re.captures_len() as i64 - 1;
    if idx < 0 {
        cx.raise("INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", format!("The value of parameter(s) `idx` in `{function}` is invalid: Expects group index between 0 and {groups}, but got {idx}."));
        return None;
    }
    if idx > groups {
        cx.raise("INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", format!("The value of parameter(s) `idx` in `{function}` is invalid: Expects group index between 0 and {groups}, but got {idx}."));
        return None;
    }
    Some(idx as usize)
}

/// Java's replacement syntax (`$1`, `\$`) in regex-lite's (`${1}`, `$$`).
fn java_replacement(rep: &str) -> String {
    let mut out = String::new();
    let mut chars = rep.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('$') => out.push_str("$$"),
                Some(other) => out.push(other),
                None => {}
            },
            '$' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                out.push_str(&format!("${{{digits}}}"));
            }
            other => out.push(other),
        }
    }
    out
}

/// Java's `String.split(regex, limit)`: limit > 0 caps the parts; otherwise all parts, and
/// (limit 0 only) trailing empty strings removed. Spark passes -1: trailing empties stay.
fn split(text: &str, re: &Regex, limit: i64) -> Vec<String> {
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
