//! A value as text, the way Spark's `CAST(v AS STRING)` writes it (`ToStringBase`), which is
//! also how `concat`, `concat_ws`, `||` and every string function read a non-string argument
//! (their implicit cast).
//!
//! - a timestamp: `yyyy-MM-dd HH:mm:ss` with the fraction of a second after a dot, trailing
//!   zeros trimmed (`.5`, `.123456`), no fraction when it is zero
//!   (`TimestampFormatter.getFractionFormatter`); in the session time zone
//!   (`spark.sql.session.timeZone`);
//! - a date: `yyyy-MM-dd`;
//! - a double: as Java's `Double.toString` (`0.1`, `100.0`, `1.0E10`, `1.0E-5`);
//! - an array `[a, b]`, a struct `{a, b}` (fields without names), a map `{k -> v}`, NULL inside
//!   them `null`;
//! - bytes: their UTF-8 text.

use super::time::MICROS_PER_SECOND;
use super::timezone::SessionTimeZone;
use super::value::Value;

/// `CAST(v AS STRING)` for a non-NULL `v` in the session time zone `tz` (a NULL gives
/// `"null"`, its text inside an array, struct or map; a top-level NULL casts to NULL, which
/// callers handle).
pub fn to_text(v: &Value, tz: &SessionTimeZone) -> String {
    let inner = |items: &[Value]| items.iter().map(|x| to_text(x, tz)).collect::<Vec<_>>().join(", ");
    match v {
        Value::Null => "null".into(),
        Value::Str(s) => s.to_string(),
        Value::Double(d) => java_double(*d),
        Value::Timestamp(us) => timestamp_text(*us, tz),
        Value::Binary(b) => String::from_utf8_lossy(b).into_owned(),
        Value::Array(items) => format!("[{}]", inner(items)),
        Value::Struct(items) => format!("{{{}}}", inner(items)),
        Value::Map(entries) => format!("{{{}}}", entries.iter().map(|(k, x)| format!("{} -> {}", to_text(k, tz), to_text(x, tz))).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// Java's `Double.toString`: plain decimal with at least one fraction digit for magnitudes in
/// [10^-3, 10^7) (and zero), otherwise `d.dddE±n`; `NaN`, `Infinity`, `-Infinity`. Digits are
/// the shortest that read back as the same double.
pub fn java_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let a = d.abs();
    if a == 0.0 || (1e-3..1e7).contains(&a) {
        let s = format!("{d}");
        return if s.contains('.') { s } else { format!("{s}.0") };
    }
    let s = format!("{d:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    if mantissa.contains('.') {
        format!("{mantissa}E{exp}")
    } else {
        format!("{mantissa}.0E{exp}")
    }
}

/// A timestamp (µs since the epoch) as `CAST(ts AS STRING)` writes it in the session zone.
pub fn timestamp_text(us: i64, tz: &SessionTimeZone) -> String {
    let frac = us.rem_euclid(MICROS_PER_SECOND);
    let Some(dt) = tz.local_datetime(us) else { return us.to_string() };
    let base = dt.format("%Y-%m-%d %H:%M:%S").to_string();
    if frac == 0 {
        base
    } else {
        format!("{base}.{}", format!("{frac:06}").trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected texts recorded from Spark 4.3.0 (`timestamp-to-string-cast-concat-append`,
    // `window-struct-cast-to-string-append`).
    #[test]
    fn timestamps_trim_their_fraction() {
        let t = crate::types::parse_timestamp_us("2023-01-01T01:00:00Z").unwrap();
        assert_eq!(timestamp_text(t, &SessionTimeZone::utc()), "2023-01-01 01:00:00");
        assert_eq!(timestamp_text(t + 123_456, &SessionTimeZone::utc()), "2023-01-01 01:00:00.123456");
        assert_eq!(timestamp_text(t + 120_000, &SessionTimeZone::utc()), "2023-01-01 01:00:00.12");
        // Before the epoch the fraction still counts forward from the second.
        assert_eq!(timestamp_text(-500_000, &SessionTimeZone::utc()), "1969-12-31 23:59:59.5");
    }

    #[test]
    fn doubles_print_as_java_does() {
        assert_eq!(java_double(1.0e10), "1.0E10");
        assert_eq!(java_double(0.1), "0.1");
        assert_eq!(java_double(123_456_789.0), "1.23456789E8");
        assert_eq!(java_double(1e-5), "1.0E-5");
        assert_eq!(java_double(100.0), "100.0");
        assert_eq!(java_double(-0.0), "-0.0");
    }

    #[test]
    fn nested_values_use_lowercase_null() {
        let v = Value::Struct(vec![Value::Null, Value::Bool(true)].into());
        assert_eq!(to_text(&v, &SessionTimeZone::utc()), "{null, true}");
        assert_eq!(to_text(&Value::Array(vec![Value::Timestamp(0), Value::Null].into()), &SessionTimeZone::utc()), "[1970-01-01 00:00:00, null]");
    }
}
