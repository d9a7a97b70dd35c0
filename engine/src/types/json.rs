//! The JSON value codec every layer shares: JSON read into typed values as Spark's JSON
//! reader (`JacksonParser`, PERMISSIVE mode) reads them, and values written back as the
//! conformance corpus writes them (also Python's `json.dumps` text for exported scripts).

use serde_json::{Map, Value as Json};

use crate::types::{format_timestamp_us, DataType, Row, Value};

/// Converts a JSON object to a row of `schema` the way Spark's JSON reader does (missing keys
/// and values it cannot read are NULL, see [`read_json_value`]).
///
/// # Errors
/// A message naming the column whose value the engine cannot reproduce.
pub fn json_to_row(schema: &[(String, DataType)], obj: &Map<String, Json>) -> Result<Row, String> {
    schema
        .iter()
        .map(|(name, t)| {
            let v = obj.get(name).unwrap_or(&Json::Null);
            json_to_value(v, t).map_err(|m| format!("column '{name}': {m}"))
        })
        .collect()
}

/// Converts one JSON value to a typed value as Spark's JSON reader does (a value it cannot
/// read is NULL).
///
/// # Errors
/// The reason, when the engine cannot reproduce what Spark makes of the value
/// ([`JsonRead::Unsupported`]).
pub fn json_to_value(v: &Json, t: &DataType) -> Result<Value, String> {
    match read_json_value(v, t) {
        JsonRead::Value(v) | JsonRead::Noted(v, _) => Ok(v),
        JsonRead::Null(_) => Ok(Value::Null),
        JsonRead::Unsupported(m) => Err(m),
    }
}

/// `from_json`'s reading of a parsed JSON value as type `t` (`JacksonParser` over a string
/// column): as [`read_json_value`], except that a non-string value read as a string is its
/// compact JSON text (`[1,2]`), as Jackson writes it back; nested types recurse.
pub fn parsed_json_to_value(v: &Json, t: &DataType) -> Value {
    match (t, v) {
        (_, Json::Null) => Value::Null,
        (DataType::Utf8, Json::String(s)) => Value::str(s),
        (DataType::Utf8, other) => Value::str(&other.to_string()),
        (DataType::List(f), Json::Array(items)) => Value::Array(items.iter().map(|x| parsed_json_to_value(x, f.data_type())).collect()),
        (DataType::Struct(fields), Json::Object(obj)) => Value::Struct(fields.iter().map(|f| obj.get(f.name()).map_or(Value::Null, |x| parsed_json_to_value(x, f.data_type()))).collect()),
        (DataType::Map(..), Json::Object(obj)) => match crate::types::map_key_value(t) {
            Some((_, vt)) => Value::Map(obj.iter().map(|(k, x)| (Value::str(k), parsed_json_to_value(x, vt))).collect()),
            None => Value::Null,
        },
        (DataType::List(_) | DataType::Struct(_) | DataType::Map(..), _) => Value::Null,
        _ => json_to_value(v, t).unwrap_or(Value::Null),
    }
}

/// What Spark's JSON reader makes of one field.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonRead {
    /// The value (NULL for JSON `null`).
    Value(Value),
    /// Spark reads this field as NULL (PERMISSIVE mode keeps the rest of the row); the text
    /// says why, for the learner.
    Null(String),
    /// Spark reads it, but the engine cannot reproduce the value (a time without a date, a
    /// region time zone).
    Unsupported(String),
    /// Spark reads this value, and the learner should know something about it: the text says
    /// what (seconds past ±292,000 years, which Spark multiplies into µs in a long that wraps
    /// around; a number that looks like epoch milliseconds but is read as seconds).
    Noted(Value, String),
}

/// One JSON field read into a column of type `t` by Spark's `JacksonParser` (schema given,
/// PERMISSIVE mode, default options):
/// - `string`: a JSON string as is; any other value as its JSON text (`12`, `true`, `{"a":1}`).
/// - `long`/`int`: a JSON whole number that fits; a string, a fraction, a boolean, an object
///   or a number out of range is NULL.
/// - `double`: any JSON number; the strings `NaN`, `Infinity`, `-Infinity` (also `+Infinity`,
///   `INF`, `+INF`, `-INF`); other strings are NULL.
/// - `boolean`: `true`/`false` only; strings and numbers are NULL.
/// - `timestamp`: a string in a form `CAST(s AS TIMESTAMP)` accepts
///   ([`spark_string_to_timestamp`](crate::types::datetime::spark_string_to_timestamp), with
///   `GMT` removed as the legacy fallback does); a JSON whole number is seconds since the epoch;
///   a fraction, a boolean or an unreadable string is NULL.
pub fn read_json_value(v: &Json, t: &DataType) -> JsonRead {
    use crate::types::datetime::{spark_string_to_timestamp, TimestampText};
    let null = |why: String| JsonRead::Null(why);
    let what = |v: &Json| match v {
        Json::String(s) if s.is_empty() => "an empty string".to_string(),
        Json::String(s) => format!("the string \"{s}\""),
        // A whole number past u64 is read as a double (1e22): not a fraction, just too large.
        Json::Number(n) if n.as_f64().is_some_and(|f| n.is_f64() && f.fract() == 0.0 && f.abs() >= 1.8e19) => {
            let f = n.as_f64().unwrap_or_default();
            // Written out whole while that stays short (1e300 keeps its exponent).
            let text = if f.abs() < 1e30 { format!("{f:.0}") } else { n.to_string() };
            format!("the number {text} (too large for 64 bits)")
        }
        // `1e3`, `1000.0`: whole in value, but a decimal token, which Spark's reader does not
        // take as a whole number.
        Json::Number(n) if n.as_f64().is_some_and(|f| n.is_f64() && f.fract() == 0.0) => format!("the number {n} (not written as a whole number)"),
        Json::Number(n) if n.is_f64() => format!("the number {n} (with a fraction)"),
        Json::Number(n) => format!("the number {n}"),
        Json::Bool(b) => format!("the boolean {b}"),
        Json::Object(_) => "an object".into(),
        Json::Array(_) => "an array".into(),
        Json::Null => "null".into(),
    };
    if v.is_null() {
        return JsonRead::Value(Value::Null);
    }
    match t {
        // Any other JSON value keeps its text as written in the file; the harness writes
        // events with Python's `json.dumps`, whose spacing and float text this reproduces.
        DataType::Utf8 => JsonRead::Value(match v {
            Json::String(s) => Value::str(s),
            other => Value::str(&python_json_text(other)),
        }),
        DataType::Int64 => match v.as_i64() {
            Some(n) if !v.is_f64() => JsonRead::Value(Value::Long(n)),
            _ => null(format!("{} is not a whole number that fits a long: Spark reads NULL", what(v))),
        },
        DataType::Int32 => match v.as_i64().filter(|_| !v.is_f64()).and_then(|n| i32::try_from(n).ok()) {
            Some(n) => JsonRead::Value(Value::Int(n)),
            None => null(format!("{} is not a whole number that fits an int: Spark reads NULL", what(v))),
        },
        DataType::Float64 => match v {
            Json::Number(n) => n.as_f64().map_or_else(|| null(format!("{} does not fit a double", what(v))), |d| JsonRead::Value(Value::Double(d))),
            Json::String(s) => match s.as_str() {
                "NaN" => JsonRead::Value(Value::Double(f64::NAN)),
                "Infinity" | "+Infinity" | "INF" | "+INF" => JsonRead::Value(Value::Double(f64::INFINITY)),
                "-Infinity" | "-INF" => JsonRead::Value(Value::Double(f64::NEG_INFINITY)),
                _ => null(format!("{} is not a JSON number: Spark reads NULL", what(v))),
            },
            other => null(format!("{} is not a number: Spark reads NULL", what(other))),
        },
        DataType::Boolean => match v {
            Json::Bool(b) => JsonRead::Value(Value::Bool(*b)),
            other => null(format!("{} is not true or false: Spark reads NULL", what(other))),
        },
        DataType::Timestamp(..) => match v {
            Json::String(s) if !s.is_empty() => {
                let read = match spark_string_to_timestamp(s) {
                    TimestampText::Null if s.contains("GMT") => spark_string_to_timestamp(&s.replace("GMT", "")),
                    other => other,
                };
                match read {
                    TimestampText::Value(us) => JsonRead::Value(Value::Timestamp(us)),
                    TimestampText::Null => null(format!("{} is not a timestamp Spark can read (write 2026-01-01T12:07:00Z): Spark reads NULL", what(v))),
                    TimestampText::Unsupported(m) => JsonRead::Unsupported(format!("\"{s}\": {m}")),
                }
            }
            // JacksonParser: `parser.getLongValue * 1000L * 1000L` (seconds; Long arithmetic wraps).
            Json::Number(n) if !n.is_f64() => match n.as_i64() {
                Some(secs) => match secs.checked_mul(super::time::MICROS_PER_SECOND) {
                    // 10^11 s is the year 5138: such a number is most likely epoch ms (or µs)
                    // written where Spark reads seconds.
                    Some(us) if secs.unsigned_abs() >= 100_000_000_000 => JsonRead::Noted(
                        Value::Timestamp(us),
                        format!("{secs} is read as seconds since the epoch, which is {}: if it is milliseconds, divide it by 1000", crate::types::format_timestamp_us(us)),
                    ),
                    Some(us) => JsonRead::Value(Value::Timestamp(us)),
                    None => {
                        let us = secs.wrapping_mul(super::time::MICROS_PER_SECOND);
                        JsonRead::Noted(
                            Value::Timestamp(us),
                            format!(
                                "{} seconds since the epoch is past what a timestamp holds (about ±292,000 years): Spark multiplies it into µs in a 64-bit long, which wraps around, and reads {}",
                                secs,
                                crate::types::format_timestamp_us(us)
                            ),
                        )
                    }
                },
                None => null(format!("{} does not fit a long: Spark reads NULL", what(v))),
            },
            other => null(format!("{} is not a timestamp: Spark reads a string such as \"2026-01-01T12:07:00Z\" or whole epoch seconds, and NULL here", what(other))),
        },
        // Nested types (`from_json` with an array, map or struct schema): each element or
        // field read by the same rules, NULL where it does not fit.
        DataType::List(f) => match v {
            Json::Array(items) => JsonRead::Value(Value::Array(items.iter().map(|x| json_to_value(x, f.data_type()).unwrap_or(Value::Null)).collect())),
            Json::Null => JsonRead::Value(Value::Null),
            other => null(format!("{} is not an array", what(other))),
        },
        DataType::Struct(fields) => match v {
            Json::Object(obj) => JsonRead::Value(Value::Struct(
                fields.iter().map(|f| obj.get(f.name()).map_or(Value::Null, |x| json_to_value(x, f.data_type()).unwrap_or(Value::Null))).collect(),
            )),
            Json::Null => JsonRead::Value(Value::Null),
            other => null(format!("{} is not an object", what(other))),
        },
        DataType::Map(..) => match (v, crate::types::map_key_value(t)) {
            (Json::Object(obj), Some((_, vt))) => JsonRead::Value(Value::Map(obj.iter().map(|(k, x)| (Value::str(k), json_to_value(x, vt).unwrap_or(Value::Null))).collect())),
            (Json::Null, _) => JsonRead::Value(Value::Null),
            (other, _) => null(format!("{} is not an object", what(other))),
        },
        DataType::Date32 => match v {
            Json::String(s) => match crate::types::datetime::spark_string_to_date(s) {
                Some(d) => JsonRead::Value(Value::Date(d)),
                None => null(format!("{} is not a date", what(v))),
            },
            Json::Null => JsonRead::Value(Value::Null),
            other => null(format!("{} is not a date", what(other))),
        },
        other => JsonRead::Unsupported(format!("unsupported column type {other}")),
    }
}

/// JSON text as Python's `json.dumps` writes it: `{"a": 1, "b": [1, "x"]}`, floats by
/// `repr` (`100.0`, `1e+300`, `1.5e-07`).
pub fn python_json_text(v: &Json) -> String {
    match v {
        Json::Number(n) if n.is_f64() => n.as_f64().map_or_else(|| n.to_string(), python_float_repr),
        Json::Array(items) => format!("[{}]", items.iter().map(python_json_text).collect::<Vec<_>>().join(", ")),
        Json::Object(m) => format!(
            "{{{}}}",
            m.iter().map(|(k, x)| format!("{}: {}", Json::String(k.clone()), python_json_text(x))).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}

/// Python's `repr` of a float: the shortest round-trip digits, in exponent form when the
/// decimal exponent is below -4 or at least 16.
pub fn python_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..16).contains(&exp) {
        let plain = format!("{x}");
        if plain.contains('.') {
            plain
        } else {
            format!("{plain}.0")
        }
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

/// A value as the corpus writes it: timestamps as ISO text, windows as `{start, end}`.
pub fn value_to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Long(i) => Json::from(*i),
        // The harness writes non-finite doubles as Python's repr: "nan", "inf", "-inf".
        Value::Double(d) if d.is_nan() => Json::String("nan".into()),
        Value::Double(d) if d.is_infinite() => Json::String(if *d > 0.0 { "inf" } else { "-inf" }.into()),
        Value::Double(d) => serde_json::Number::from_f64(*d).map_or(Json::Null, Json::Number),
        Value::Str(s) => Json::String(s.to_string()),
        Value::Timestamp(t) => Json::String(format_timestamp_us(*t)),
        Value::Struct(f) if f.len() == 2 => {
            let mut m = Map::new();
            m.insert("start".into(), value_to_json(&f[0]));
            m.insert("end".into(), value_to_json(&f[1]));
            Json::Object(m)
        }
        Value::Struct(f) => Json::Array(f.iter().map(value_to_json).collect()),
        Value::Binary(b) => Json::String(String::from_utf8_lossy(b).into_owned()),
        Value::Date(_) => Json::String(v.to_string()),
        Value::Array(items) => Json::Array(items.iter().map(value_to_json).collect()),
        // The harness writes a map as a dict with `str(key)` keys.
        Value::Map(entries) => Json::Object(entries.iter().map(|(k, x)| (python_str(k), value_to_json(x))).collect()),
    }
}

/// A value as the harness writes it, knowing its type: a struct as an object of its named
/// fields (PySpark's `Row.asDict`), inside arrays and maps too.
pub fn value_to_json_typed(v: &Value, t: &DataType) -> Json {
    match (v, t) {
        (Value::Struct(items), DataType::Struct(fields)) if fields.len() == items.len() => {
            Json::Object(fields.iter().zip(items.iter()).map(|(f, x)| (f.name().clone(), value_to_json_typed(x, f.data_type()))).collect())
        }
        (Value::Array(items), DataType::List(f)) => Json::Array(items.iter().map(|x| value_to_json_typed(x, f.data_type())).collect()),
        (Value::Map(entries), DataType::Map(..)) => match crate::types::map_key_value(t) {
            Some((_, vt)) => Json::Object(entries.iter().map(|(k, x)| (python_str(k), value_to_json_typed(x, vt))).collect()),
            None => value_to_json(v),
        },
        _ => value_to_json(v),
    }
}

/// Python's `str()` of a map key as the harness converts it.
fn python_str(k: &Value) -> String {
    match k {
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Double(d) => python_float_repr(*d),
        Value::Timestamp(_) | Value::Date(_) | Value::Str(_) => match value_to_json(k) {
            Json::String(s) => s,
            other => other.to_string(),
        },
        other => other.to_string(),
    }
}

/// `schema_of_json(text)`: the DDL of the type Spark infers (`STRUCT<a: BIGINT, b: STRING>`,
/// fields sorted by name, whole numbers BIGINT, other numbers DOUBLE, mixed types STRING).
pub fn schema_of_json(text: &str) -> Option<String> {
    let doc: Json = serde_json::from_str(text).ok()?;
    Some(infer(&doc))
}

fn infer(v: &Json) -> String {
    match v {
        Json::Null | Json::String(_) => "STRING".into(),
        Json::Bool(_) => "BOOLEAN".into(),
        Json::Number(n) if n.is_i64() || n.is_u64() => "BIGINT".into(),
        Json::Number(_) => "DOUBLE".into(),
        Json::Array(items) => {
            let mut t: Option<String> = None;
            for x in items.iter().filter(|x| !x.is_null()) {
                let u = infer(x);
                t = Some(match t {
                    None => u,
                    Some(a) if a == u => a,
                    Some(a) if (a == "BIGINT" && u == "DOUBLE") || (a == "DOUBLE" && u == "BIGINT") => "DOUBLE".into(),
                    Some(_) => "STRING".into(),
                });
            }
            format!("ARRAY<{}>", t.unwrap_or_else(|| "STRING".into()))
        }
        Json::Object(m) => {
            let fields: Vec<String> = m.iter().map(|(k, x)| format!("{}: {}", quote_name(k), infer(x))).collect();
            format!("STRUCT<{}>", fields.join(", "))
        }
    }
}

fn quote_name(n: &str) -> String {
    if n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !n.is_empty() {
        n.to_string()
    } else {
        format!("`{}`", n.replace('`', "``"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why a value is NULL names it as the learner wrote it: a fraction is a fraction, a whole
    /// number too large even for u64 (serde_json reads it as the double 1e22) is not, and
    /// it is written out whole.
    #[test]
    fn a_huge_whole_number_is_not_called_a_fraction() {
        let why = |text: &str| match read_json_value(&serde_json::from_str(text).expect("JSON"), &DataType::Int64) {
            JsonRead::Null(why) => why,
            other => panic!("{text} read as {other:?}"),
        };
        assert_eq!(why("10000000000000000000000"), "the number 10000000000000000000000 (too large for 64 bits) is not a whole number that fits a long: Spark reads NULL");
        assert_eq!(why("1.5"), "the number 1.5 (with a fraction) is not a whole number that fits a long: Spark reads NULL");
        // 1e3 is 1000 in value, but a decimal token for Spark's reader.
        assert_eq!(why("1e3"), "the number 1000.0 (not written as a whole number) is not a whole number that fits a long: Spark reads NULL");
        // 2^64 - 1 still parses as a u64: not a double, no remark.
        assert_eq!(why("18446744073709551615"), "the number 18446744073709551615 is not a whole number that fits a long: Spark reads NULL");
    }

    /// 99,999,999,999,999 s × 1,000,000 is past i64::MAX (9.22e18 µs): Spark's
    /// `getLongValue * 1000L * 1000L` wraps, so it reads the wrapped µs, and the lab says so.
    #[test]
    fn seconds_past_a_timestamp_wrap_as_in_spark_and_ms_get_a_hint() {
        let ts = crate::types::timestamp_type();
        let JsonRead::Noted(Value::Timestamp(us), why) = read_json_value(&serde_json::json!(99_999_999_999_999i64), &ts) else { panic!("not wrapped") };
        assert_eq!(us, 99_999_999_999_999i64.wrapping_mul(1_000_000));
        assert!(why.starts_with("99999999999999 seconds since the epoch is past what a timestamp holds"), "{why}");
        // Epoch ms where Spark reads seconds: read as seconds, with a hint.
        let JsonRead::Noted(Value::Timestamp(us), why) = read_json_value(&serde_json::json!(1_772_442_120_000i64), &ts) else { panic!("no hint") };
        assert_eq!(us, 1_772_442_120_000_000_000);
        assert!(why.starts_with("1772442120000 is read as seconds since the epoch, which is +58136-") && why.ends_with("if it is milliseconds, divide it by 1000"), "{why}");
        // One year ahead still fits: read as written, no note.
        assert_eq!(read_json_value(&serde_json::json!(1_798_761_600i64), &ts), JsonRead::Value(Value::Timestamp(1_798_761_600_000_000)));
    }
}
