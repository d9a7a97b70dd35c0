//! Spark's comparison of two SQL values (`Ordering` under implicit casts): what `=`, `<`,
//! joins' key equality, `array_contains`, `greatest` and the like share.

use std::cmp::Ordering;

use crate::types::{parse_timestamp_us, Value};

/// Compares two non-null values the way Spark's implicit casts do: numbers as numbers,
/// a timestamp against a string by parsing the string.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Timestamp(x), Str(s)) => parse_timestamp_us(s).ok().map(|y| x.cmp(&y)),
        (Str(s), Timestamp(y)) => parse_timestamp_us(s).ok().map(|x| x.cmp(y)),
        (Str(s), other) | (other, Str(s)) if other.as_f64().is_some() => {
            let n: f64 = s.trim().parse().ok()?;
            let o = other.as_f64()?;
            Some(if matches!(a, Str(_)) { n.total_cmp(&o) } else { o.total_cmp(&n) })
        }
        (Int(_) | Long(_), Int(_) | Long(_)) => Some(a.as_i64()?.cmp(&b.as_i64()?)),
        _ if a.as_f64().is_some() && b.as_f64().is_some() => Some(spark_double_cmp(a.as_f64()?, b.as_f64()?)),
        _ if std::mem::discriminant(a) == std::mem::discriminant(b) => Some(a.cmp(b)),
        _ => None,
    }
}

/// Spark's ordering of doubles (`SQLOrderingUtil.compareDoubles`): NaN equals NaN and is
/// larger than any other value; -0.0 equals 0.0.
pub fn spark_double_cmp(x: f64, y: f64) -> Ordering {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}
