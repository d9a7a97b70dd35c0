//! Evaluates the scalar functions of the function table
//! ([`crate::plan::functions::FAMILIES`]) over already-evaluated arguments, family by family,
//! with Spark's NULL rules (NULL in → NULL out unless the function says otherwise), its
//! 1-based string positions and its ANSI-mode errors (raised in the [`EvalContext`]).
//! Arguments arrive cast to the types `analysis` chose (`coalesce` branches to their wider
//! type, ...); a string argument of a string function may be any value, read as
//! `CAST(x AS STRING)` ([`to_text`]). Dates and times follow the session time zone.

mod collections;
mod conditional;
mod datetime;
mod hash;
pub mod json;
mod math;
mod regex;
mod strings;
mod urls;

use std::rc::Rc;

use super::context::EvalContext;
use crate::types::Value;

/// The value of scalar function `name` (lower case, as in the table) for `args`.
pub fn call(name: &str, args: &[Value], cx: &EvalContext) -> Value {
    type Family = fn(&str, &[Value], &EvalContext) -> Option<Value>;
    const FAMILIES: [Family; 9] = [conditional::call, strings::call, regex::call, math::call, datetime::call, collections::call, json::call, hash::call, urls::call];
    FAMILIES.iter().find_map(|family| family(name, args, cx)).unwrap_or(Value::Null)
}

/// Argument `i`, NULL when absent.
fn arg(args: &[Value], i: usize) -> &Value {
    const NULL: &Value = &Value::Null;
    args.get(i).unwrap_or(NULL)
}

/// True if any argument is NULL (most functions then return NULL).
fn any_null(args: &[Value]) -> bool {
    args.iter().any(Value::is_null)
}

/// A whole-number argument (an int or a long; a string Spark would cast).
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Str(s) => s.trim().parse().ok(),
        other => other.as_i64(),
    }
}

/// A numeric argument as a double (a string is cast).
fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Str(s) => s.trim().parse().ok(),
        other => other.as_f64(),
    }
}

/// A reference-counted empty array.
pub fn empty_array() -> Value {
    Value::Array(Rc::from(Vec::new()))
}

/// `CAST(v AS STRING)` in the evaluation's session zone ([`crate::types::text::to_text`]).
pub fn to_text(v: &Value, cx: &EvalContext) -> String {
    crate::types::text::to_text(v, &cx.time_zone)
}

/// Java's `Double.toString` ([`crate::types::text::java_double`]).
pub use crate::types::text::java_double;

#[cfg(test)]
mod tests {
    use super::*;

    fn st(x: &str) -> Value {
        Value::str(x)
    }

    fn c(name: &str, args: &[Value]) -> Value {
        call(name, args, &EvalContext::default())
    }

    #[test]
    fn strings_follow_spark() {
        // substring is 1-based; 0 counts as 1; negative counts from the end.
        assert_eq!(c("substring", &[st("hello"), Value::Int(2), Value::Int(3)]), st("ell"));
        assert_eq!(c("substring", &[st("hello"), Value::Int(0), Value::Int(2)]), st("he"));
        assert_eq!(c("substring", &[st("hello"), Value::Int(-3), Value::Int(2)]), st("ll"));
        // concat_ws skips NULLs; concat with a NULL is NULL.
        assert_eq!(c("concat_ws", &[st("-"), st("a"), Value::Null, st("b")]), st("a-b"));
        assert!(c("concat", &[st("a"), Value::Null]).is_null());
        // Spark's trim removes spaces only.
        assert_eq!(c("trim", &[st(" \tx ")]), st("\tx"));
        assert_eq!(c("instr", &[st("hello"), st("l")]), Value::Int(3));
        assert_eq!(c("lpad", &[st("ab"), Value::Int(5), st("*")]), st("***ab"));
        assert_eq!(c("lpad", &[st("abcdef"), Value::Int(3), st("*")]), st("abc"));
        assert_eq!(c("initcap", &[st("hELLO wORLD")]), st("Hello World"));
        let parts = c("split", &[st("a b  c"), st(" ")]);
        assert_eq!(parts, Value::Array(vec![st("a"), st("b"), st(""), st("c")].into()));
        assert_eq!(c("regexp_extract", &[st("user-42"), st(r"(\w+)-(\d+)"), Value::Int(2)]), st("42"));
        assert_eq!(c("regexp_extract", &[st("none"), st(r"(\d+)"), Value::Int(1)]), st(""));
    }

    #[test]
    fn times_follow_spark() {
        let t = crate::types::parse_timestamp_us("2026-01-01T12:07:30Z").unwrap();
        assert_eq!(c("hour", &[Value::Timestamp(t)]), Value::Int(12));
        assert_eq!(c("date_trunc", &[st("hour"), Value::Timestamp(t)]), Value::Timestamp(t - 7 * 60_000_000 - 30_000_000));
        assert_eq!(c("unix_timestamp", &[Value::Timestamp(t)]), Value::Long(t / 1_000_000));
        assert_eq!(c("from_unixtime", &[Value::Long(0)]), st("1970-01-01 00:00:00"));
        assert_eq!(c("date_format", &[Value::Timestamp(t), st("HH:mm")]), st("12:07"));
        // 2026-01-01 is a Thursday: dayofweek counts from Sunday = 1.
        assert_eq!(c("dayofweek", &[Value::Timestamp(t)]), Value::Int(5));
        assert_eq!(c("to_date", &[st("04/03/2026"), st("dd/MM/yyyy")]), Value::Date(20_516));
        // In Los Angeles 05:00 UTC on January 1st is still December 31st (UTC-8).
        let la = EvalContext::new(0, crate::types::timezone::SessionTimeZone::parse("America/Los_Angeles").unwrap());
        let t = crate::types::parse_timestamp_us("2026-01-01T05:00:00Z").unwrap();
        assert_eq!(call("to_date", &[Value::Timestamp(t)], &la), Value::Date(20_453));
        assert_eq!(call("hour", &[Value::Timestamp(t)], &la), Value::Int(21));
    }

    #[test]
    fn text_is_spark_cast_to_string() {
        let cx = EvalContext::default();
        assert_eq!(java_double(1e10), "1.0E10");
        assert_eq!(java_double(0.5), "0.5");
        assert_eq!(java_double(1.0e-4), "1.0E-4");
        assert_eq!(to_text(&Value::Timestamp(1_500_000), &cx), "1970-01-01 00:00:01.5");
        assert_eq!(to_text(&Value::Array(vec![Value::Int(1), Value::Null].into()), &cx), "[1, null]");
        assert_eq!(to_text(&Value::Map(vec![(st("a"), Value::Int(1))].into()), &cx), "{a -> 1}");
    }
}

#[cfg(test)]
mod no_panic {
    use super::*;

    /// Values at the edges of every type a learner can produce.
    fn edge_values() -> Vec<Value> {
        let st = Value::str;
        vec![
            Value::Null,
            Value::Int(0),
            Value::Int(-1),
            Value::Int(i32::MIN),
            Value::Int(i32::MAX),
            Value::Long(i64::MIN),
            Value::Long(i64::MAX),
            Value::Long(3),
            Value::Double(f64::NAN),
            Value::Double(f64::INFINITY),
            Value::Double(-0.0),
            Value::Double(1e308),
            Value::Double(2.5),
            st(""),
            st("a,b:c,a"),
            st("%s%d%999999999s%.999999999f"),
            st("2026-03-08 02:30:00"),
            st("https://u@h:1/p?q=1#r"),
            st("(a)(b"),
            st("é漢字😀"),
            Value::Bool(true),
            Value::Timestamp(i64::MIN),
            Value::Timestamp(i64::MAX),
            Value::Timestamp(0),
            Value::Date(i32::MIN),
            Value::Date(i32::MAX),
            Value::Binary(vec![0xff, 0x00].into()),
            Value::Array(vec![Value::Int(1), Value::Null, Value::Int(1)].into()),
            Value::Array(vec![Value::Struct(vec![st("k"), Value::Int(1)].into())].into()),
            Value::Map(vec![(st("k"), Value::Int(1))].into()),
            Value::Struct(vec![Value::Int(1), st("x")].into()),
        ]
    }

    /// No argument a learner can write makes a function panic: every function of the table,
    /// at each arity it takes (up to 4 arguments), over pseudo-random picks of edge values.
    #[test]
    fn no_function_panics_on_edge_values() {
        let values = edge_values();
        let cx = EvalContext::new(0, crate::types::timezone::SessionTimeZone::parse("America/Los_Angeles").expect("zone"));
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % values.len() as u64) as usize
        };
        for def in crate::plan::functions::all_functions() {
            for arity in def.min_args..=def.max_args.min(4) {
                for _ in 0..40 {
                    let args: Vec<Value> = (0..arity).map(|_| values[next()].clone()).collect();
                    let _ = call(def.name, &args, &cx);
                }
            }
        }
    }
}
