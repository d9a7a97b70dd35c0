//! The Python `str` methods PySpark programs use to build names and durations (`'{} seconds'.format(10)`, `','.join(cols)`).

use super::{type_error, Py, R};
use crate::frontend::Span;
use crate::error::{AnalysisError, Error};

/// The `str` methods programs use to build names and durations: `'{} seconds'.format(10)`,
/// `','.join(cols)`, `.upper()`, `.lower()`, `.strip()`, `.replace(a, b)`.
pub(super) fn str_method(text: &str, name: &str, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Py> {
    let plain = |v: &Py| -> Option<String> {
        Some(match v {
            Py::Str(s) => s.clone(),
            Py::Int(i) => i.to_string(),
            Py::Float(f) => format!("{f:?}"),
            Py::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Py::NoneVal => "None".to_string(),
            _ => return None,
        })
    };
    let strs = |args: &[(Py, Span)]| -> R<Vec<String>> {
        args.iter().map(|(v, s)| plain(v).ok_or_else(|| type_error(format!("str.{name}() takes plain values here, not a {}", v.type_name()), *s))).collect()
    };
    Ok(Py::Str(match name {
        "format" => {
            let args = strs(&pos)?;
            let named: Vec<(String, String)> = kw.iter().map(|(k, v, s)| plain(v).map(|t| (k.clone(), t)).ok_or_else(|| type_error(format!("str.format() takes plain values here, not a {}", v.type_name()), *s))).collect::<R<_>>()?;
            let mut out = String::new();
            let mut next = 0;
            let mut rest = text;
            while let Some(open) = rest.find(['{', '}']) {
                out.push_str(&rest[..open]);
                let tail = &rest[open..];
                if tail.starts_with("{{") || tail.starts_with("}}") {
                    out.push_str(&tail[..1]);
                    rest = &tail[2..];
                    continue;
                }
                let Some(close) = tail.find('}').filter(|_| tail.starts_with('{')) else {
                    return Err(Error::Analysis(AnalysisError::python("ValueError", "Single '}' encountered in format string", span)));
                };
                let field = &tail[1..close];
                let value = if field.is_empty() {
                    next += 1;
                    args.get(next - 1).cloned()
                } else if let Ok(i) = field.parse::<usize>() {
                    args.get(i).cloned()
                } else {
                    named.iter().find(|(k, _)| k == field).map(|(_, v)| v.clone())
                };
                out.push_str(&value.ok_or_else(|| Error::Analysis(AnalysisError::python("IndexError", format!("Replacement index {field} out of range for positional args tuple"), span)))?);
                rest = &tail[close + 1..];
            }
            out.push_str(rest);
            out
        }
        "join" => match pos.first() {
            Some((Py::List(items), s)) => strs(&items.iter().map(|i| (i.clone(), *s)).collect::<Vec<_>>())?.join(text),
            _ => return Err(type_error("str.join() takes a list of strings", span)),
        },
        "upper" => text.to_uppercase(),
        "lower" => text.to_lowercase(),
        "strip" => text.trim().to_string(),
        "replace" => match strs(&pos)?.as_slice() {
            [a, b] => text.replace(a.as_str(), b),
            _ => return Err(type_error("str.replace() takes 2 arguments", span)),
        },
        other => return Err(Error::Analysis(AnalysisError::python("AttributeError", format!("'str' object has no attribute '{other}'"), span))),
    }))
}
