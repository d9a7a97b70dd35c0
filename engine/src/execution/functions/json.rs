//! JSON functions (`jsonExpressions.scala`, `JacksonGenerator`, `JsonInferSchema`):
//! `to_json` (compact text; struct fields that are NULL left out, timestamps as
//! `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` in the session zone), `get_json_object` (a `$.a.b[0]` path;
//! a string result unquoted, anything else as JSON text), `json_array_length`,
//! `json_object_keys` (in the order written) and `schema_of_json` (folded at analysis).

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value as Json;

use super::super::context::EvalContext;
use super::{any_null, arg, java_double, to_text};
use crate::types::{DataType, Value};

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    if !matches!(name, "get_json_object" | "json_array_length" | "json_object_keys") {
        return None;
    }
    if any_null(args) {
        return Some(Value::Null);
    }
    let text = to_text(arg(args, 0), cx);
    Some(match name {
        "get_json_object" => {
            let Ok(doc) = serde_json::from_str::<Json>(&text) else { return Some(Value::Null) };
            match json_path(&doc, &to_text(arg(args, 1), cx)) {
                Some(Json::String(s)) => Value::str(&s),
                Some(Json::Null) | None => Value::Null,
                Some(other) => Value::str(&other.to_string()),
            }
        }
        "json_array_length" => match serde_json::from_str::<Json>(&text) {
            Ok(Json::Array(a)) => Value::Int(a.len() as i32),
            _ => Value::Null,
        },
        _ => object_keys(&text).map_or(Value::Null, |keys| Value::Array(keys.iter().map(|k| Value::str(k)).collect())),
    })
}

/// `to_json(v)` for a value of type `t` (a struct, map or array).
pub fn to_json(v: &Value, t: &DataType, cx: &EvalContext) -> Value {
    if v.is_null() {
        return Value::Null;
    }
    let mut out = String::new();
    write_json(v, t, cx, &mut out);
    Value::str(&out)
}

fn write_json(v: &Value, t: &DataType, cx: &EvalContext, out: &mut String) {
    match (v, t) {
        (Value::Null, _) => out.push_str("null"),
        (Value::Struct(values), DataType::Struct(fields)) => {
            out.push('{');
            let mut first = true;
            for (x, f) in values.iter().zip(fields.iter()) {
                if x.is_null() {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str(&Json::String(f.name().clone()).to_string());
                out.push(':');
                write_json(x, f.data_type(), cx, out);
            }
            out.push('}');
        }
        (Value::Map(entries), DataType::Map(..)) => {
            let (kt, vt) = crate::types::map_key_value(t).map(|(k, v)| (k.clone(), v.clone())).unwrap_or((DataType::Utf8, DataType::Utf8));
            let _ = kt;
            out.push('{');
            for (i, (k, x)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Json::String(to_text(k, cx)).to_string());
                out.push(':');
                write_json(x, &vt, cx, out);
            }
            out.push('}');
        }
        (Value::Array(items), DataType::List(f)) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(x, f.data_type(), cx, out);
            }
            out.push(']');
        }
        (Value::Str(s), _) => out.push_str(&Json::String(s.to_string()).to_string()),
        (Value::Double(d), _) => out.push_str(&java_double(*d)),
        (Value::Timestamp(us), DataType::Timestamp(_, None)) => out.push_str(&Json::String(iso_text(*us, 0)).to_string()),
        (Value::Timestamp(us), _) => out.push_str(&Json::String(iso_text(cx.time_zone.to_local_us(*us), cx.time_zone.offset_seconds_at(*us))).to_string()),
        (Value::Date(_), _) | (Value::Binary(_), _) => {
            let text = match v {
                Value::Binary(b) => {
                    use base64::Engine;
                    base64::engine::general_purpose::STANDARD.encode(b)
                }
                other => to_text(other, cx),
            };
            out.push_str(&Json::String(text).to_string());
        }
        (other, _) => out.push_str(&other.to_string()),
    }
}

/// `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` of a local wall-clock time at `offset` seconds east.
fn iso_text(local_us: i64, offset: i32) -> String {
    let Some(dt) = chrono::DateTime::from_timestamp_micros(local_us) else { return local_us.to_string() };
    let zone = if offset == 0 {
        "Z".to_string()
    } else {
        let a = offset.unsigned_abs();
        format!("{}{:02}:{:02}", if offset < 0 { '-' } else { '+' }, a / 3600, a % 3600 / 60)
    };
    format!("{}{zone}", dt.naive_utc().format("%Y-%m-%dT%H:%M:%S%.3f"))
}

/// The value at a JSONPath (`$`, `.name`, `['name']`, `[n]`, `[*]`), as `get_json_object`
/// reads it; `None` if the path does not match or is not valid.
fn json_path(doc: &Json, path: &str) -> Option<Json> {
    let rest = path.trim().strip_prefix('$')?;
    let mut current = vec![doc.clone()];
    let mut wildcard = false;
    let chars: Vec<char> = rest.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '.' => {
                let start = i + 1;
                let mut j = start;
                while j < chars.len() && chars[j] != '.' && chars[j] != '[' {
                    j += 1;
                }
                let name: String = chars[start..j].iter().collect();
                if name.is_empty() {
                    return None;
                }
                current = current.iter().filter_map(|v| if name == "*" { Some(v.clone()) } else { v.get(&name).cloned() }).collect();
                i = j;
            }
            '[' => {
                let end = chars[i..].iter().position(|c| *c == ']')? + i;
                let inner: String = chars[i + 1..end].iter().collect();
                let inner = inner.trim();
                if inner == "*" {
                    wildcard = true;
                    current = current.iter().flat_map(|v| v.as_array().cloned().unwrap_or_default()).collect();
                } else if let Some(name) = inner.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
                    current = current.iter().filter_map(|v| v.get(name).cloned()).collect();
                } else {
                    let k: usize = inner.parse().ok()?;
                    current = current.iter().filter_map(|v| v.get(k).cloned()).collect();
                }
                i = end + 1;
            }
            _ => return None,
        }
    }
    match (wildcard, current.len()) {
        (_, 0) => None,
        (false, 1) => current.pop(),
        (true, 1) => current.pop(),
        _ => Some(Json::Array(current)),
    }
}

/// The keys of a JSON object in the order written; `None` if the text is not an object.
fn object_keys(text: &str) -> Option<Vec<String>> {
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some(k) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                keys.push(k);
            }
            Ok(keys)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let keys = (&mut de).deserialize_map(Keys).ok()?;
    de.end().ok()?;
    Some(keys)
}

pub use crate::types::json::schema_of_json;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_schemas() {
        let doc: Json = serde_json::from_str(r#"{"a":{"b":[10,{"c":"x"}]},"d":"e"}"#).unwrap();
        assert_eq!(json_path(&doc, "$.a.b[0]"), Some(Json::from(10)));
        assert_eq!(json_path(&doc, "$.a.b[1].c"), Some(Json::from("x")));
        assert_eq!(json_path(&doc, "$['d']"), Some(Json::from("e")));
        assert_eq!(json_path(&doc, "$.zz"), None);
        assert_eq!(object_keys(r#"{"z":1,"a":2}"#), Some(vec!["z".to_string(), "a".to_string()]));
        assert_eq!(schema_of_json(r#"{"b":[1,2.5],"a":"x"}"#).as_deref(), Some("STRUCT<a: STRING, b: ARRAY<DOUBLE>>"));
    }
}
