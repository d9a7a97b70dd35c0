//! Evaluates a [`BoundExpr`] over one row with SQL's null semantics
//! (three-valued logic for AND/OR, NULL in → NULL out, comparisons across numeric types).

pub mod higher_order;

use std::cmp::Ordering;

use super::compare::compare;
use super::context::EvalContext;
use crate::analysis::BoundExpr;
use crate::plan::BinOp;
use crate::types::time::{checked_seconds_to_micros, floor_micros_to_seconds};
use crate::types::{CalendarInterval, DataType, Row, Value};

/// The value of `e` for `row`. Never panics: type mismatches give NULL, as Spark's
/// non-ANSI casts do.
pub fn eval(e: &BoundExpr, row: &Row, cx: &EvalContext) -> Value {
    match e {
        BoundExpr::Col(i) => row.get(*i).cloned().unwrap_or(Value::Null),
        BoundExpr::Lit(v) => v.clone(),
        BoundExpr::Interval(i) => Value::Long(i.add_to(0)),
        BoundExpr::Binary(op, l, r) => binary(*op, l, r, row, cx),
        BoundExpr::Not(x) => match eval(x, row, cx) {
            Value::Bool(b) => Value::Bool(!b),
            _ => Value::Null,
        },
        BoundExpr::Negate(x) => match eval(x, row, cx) {
            Value::Int(v) => Value::Int(v.wrapping_neg()),
            Value::Long(v) => Value::Long(v.wrapping_neg()),
            Value::Double(v) => Value::Double(-v),
            _ => Value::Null,
        },
        BoundExpr::IsNull(x, negated) => Value::Bool(eval(x, row, cx).is_null() != *negated),
        BoundExpr::Case { branches, otherwise } => {
            for (c, v) in branches {
                if matches!(eval(c, row, cx), Value::Bool(true)) {
                    return eval(v, row, cx);
                }
            }
            otherwise.as_ref().map_or(Value::Null, |o| eval(o, row, cx))
        }
        BoundExpr::Cast(x, t) => cast(eval(x, row, cx), t, cx),
        BoundExpr::Function(name, args) if args.iter().any(|a| matches!(a, BoundExpr::Lambda(..))) => higher_order::call(name, args, row, cx),
        // `TRY_CAST(x AS t)`: the value is computed as ever (its own errors fail the batch), the
        // cast gives NULL where the ANSI cast would fail (Spark's `Cast` in `EvalMode.TRY`).
        BoundExpr::Function(name, args) if name == "try_cast" => match args.as_slice() {
            [BoundExpr::Cast(x, t)] => {
                let v = eval(x, row, cx);
                let failed = cx.failed();
                let out = cast(v, t, cx);
                if !failed && cx.failed() {
                    cx.take_error();
                    Value::Null
                } else {
                    out
                }
            }
            _ => Value::Null,
        },
        BoundExpr::Function(name, args) => function(name, args, row, cx),
        BoundExpr::Lambda(..) => Value::Null,
        BoundExpr::LambdaVar(n) => cx.lambda_value(n),
        BoundExpr::ToJson(x, t) => super::functions::json::to_json(&eval(x, row, cx), t, cx),
        BoundExpr::WindowTime(x) => match eval(x, row, cx) {
            Value::Struct(f) if f.len() == 2 => match f[1] {
                Value::Timestamp(end) => Value::Timestamp(end - 1),
                _ => Value::Null,
            },
            _ => Value::Null,
        },
        BoundExpr::FromJson(x, t) => match eval(x, row, cx) {
            Value::Str(s) => from_json(&s, t),
            Value::Binary(b) => from_json(&String::from_utf8_lossy(&b), t),
            _ => Value::Null,
        },
        BoundExpr::Field(x, i) => match eval(x, row, cx) {
            Value::Struct(f) => f.get(*i).cloned().unwrap_or(Value::Null),
            _ => Value::Null,
        },
    }
}

/// `from_json(text, schema)`: a value of the schema's type; a field that is missing or does
/// not fit is NULL, and text that is not JSON of that shape gives NULL (Spark's PERMISSIVE
/// mode: for a struct schema, every field NULL).
fn from_json(text: &str, t: &DataType) -> Value {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => match crate::types::json::parsed_json_to_value(&v, t) {
            Value::Null if matches!(t, DataType::Struct(_)) => null_struct(t),
            v => v,
        },
        Err(_) if matches!(t, DataType::Struct(_)) => null_struct(t),
        Err(_) => Value::Null,
    }
}

fn null_struct(t: &DataType) -> Value {
    match t {
        DataType::Struct(f) => Value::Struct(std::rc::Rc::from(vec![Value::Null; f.len()])),
        _ => Value::Null,
    }
}

/// True if `e` is TRUE for `row` (NULL counts as false, as in a WHERE clause).
pub fn eval_predicate(e: &BoundExpr, row: &Row, cx: &EvalContext) -> bool {
    matches!(eval(e, row, cx), Value::Bool(true))
}

fn binary(op: BinOp, l: &BoundExpr, r: &BoundExpr, row: &Row, cx: &EvalContext) -> Value {
    match op {
        BinOp::And => {
            let a = eval(l, row, cx);
            if matches!(a, Value::Bool(false)) {
                return Value::Bool(false);
            }
            match (a, eval(r, row, cx)) {
                (_, Value::Bool(false)) => Value::Bool(false),
                (Value::Bool(true), Value::Bool(true)) => Value::Bool(true),
                _ => Value::Null,
            }
        }
        BinOp::Or => {
            let a = eval(l, row, cx);
            if matches!(a, Value::Bool(true)) {
                return Value::Bool(true);
            }
            match (a, eval(r, row, cx)) {
                (_, Value::Bool(true)) => Value::Bool(true),
                (Value::Bool(false), Value::Bool(false)) => Value::Bool(false),
                _ => Value::Null,
            }
        }
        _ => {
            // Timestamp ± interval keeps the interval's calendar parts.
            if let (BoundExpr::Interval(iv), BinOp::Add | BinOp::Sub) = (r, op) {
                return match eval(l, row, cx) {
                    Value::Timestamp(t) => {
                        let iv = if op == BinOp::Sub {
                            CalendarInterval { months: -iv.months, days: -iv.days, micros: -iv.micros }
                        } else {
                            *iv
                        };
                        Value::Timestamp(iv.add_to(t))
                    }
                    _ => Value::Null,
                };
            }
            let a = eval(l, row, cx);
            let b = eval(r, row, cx);
            if op == BinOp::EqNullSafe {
                return Value::Bool(match (a.is_null(), b.is_null()) {
                    (true, true) => true,
                    (false, false) => compare(&a, &b) == Some(Ordering::Equal),
                    _ => false,
                });
            }
            if a.is_null() || b.is_null() {
                return Value::Null;
            }
            if op.is_comparison() {
                let Some(ord) = compare(&a, &b) else { return Value::Null };
                return Value::Bool(match op {
                    BinOp::Eq => ord == Ordering::Equal,
                    BinOp::NotEq => ord != Ordering::Equal,
                    BinOp::Lt => ord == Ordering::Less,
                    BinOp::LtEq => ord != Ordering::Greater,
                    BinOp::Gt => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                });
            }
            arithmetic(op, &a, &b, cx)
        }
    }
}

fn arithmetic(op: BinOp, a: &Value, b: &Value, cx: &EvalContext) -> Value {
    use Value::*;
    let ints = match (a, b) {
        (Int(x), Int(y)) => Some((i64::from(*x), i64::from(*y), true)),
        (Int(_) | Long(_), Int(_) | Long(_)) => Some((a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0), false)),
        _ => None,
    };
    if op != BinOp::Div {
        if let Some((x, y, both_int)) = ints {
            let r = match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                BinOp::Mod => x.checked_rem(y),
                _ => None,
            };
            if op == BinOp::Mod && y == 0 {
                return divide_by_zero(cx);
            }
            return match r {
                Some(v) if both_int => i32::try_from(v).map_or_else(|_| overflow(op, cx), Int),
                Some(v) => Long(v),
                None => overflow(op, cx),
            };
        }
    }
    let (Some(x), Some(y)) = (to_f64(a), to_f64(b)) else { return Null };
    match op {
        BinOp::Add => Double(x + y),
        BinOp::Sub => Double(x - y),
        BinOp::Mul => Double(x * y),
        BinOp::Div if y == 0.0 => divide_by_zero(cx),
        BinOp::Div => Double(x / y),
        BinOp::Mod if y == 0.0 => divide_by_zero(cx),
        BinOp::Mod => Double(x % y),
        _ => Null,
    }
}

/// ANSI mode: an integer `+`, `-` or `*` that overflows fails the batch (`ARITHMETIC_OVERFLOW`).
fn overflow(op: BinOp, cx: &EvalContext) -> Value {
    let f = match op {
        BinOp::Add => "try_add",
        BinOp::Sub => "try_subtract",
        BinOp::Mul => "try_multiply",
        _ => "try_mod",
    };
    cx.raise(
        "ARITHMETIC_OVERFLOW",
        format!("overflow. Use '{f}' to tolerate overflow and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error."),
    );
    Value::Null
}

/// ANSI mode: `x / 0` and `x % 0` fail the batch (`DIVIDE_BY_ZERO`).
fn divide_by_zero(cx: &EvalContext) -> Value {
    cx.raise(
        "DIVIDE_BY_ZERO",
        "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.".into(),
    );
    Value::Null
}

/// ANSI mode: a number outside the target type's range fails the batch (`CAST_OVERFLOW`,
/// SQLSTATE 22003; `QueryExecutionErrors.castingCauseOverflowError`): the value as Spark's
/// `toSQLValue` writes it (`9999999999L`, `1.0E20D`) and both types' SQL names.
fn cast_overflow(v: &Value, t: &DataType, cx: &EvalContext) -> Value {
    let (value, from) = match v {
        Value::Long(x) => (format!("{x}L"), "BIGINT"),
        // Java's `Double.toString` and a `D`, which Spark's cast to string also writes; NaN and
        // the infinities without it (Spark 4.3: "The value NaN of the type "DOUBLE" ...").
        Value::Double(d) if !d.is_finite() => (super::functions::to_text(v, cx), "DOUBLE"),
        Value::Double(_) => (format!("{}D", super::functions::to_text(v, cx)), "DOUBLE"),
        other => (super::functions::to_text(other, cx), "INT"),
    };
    cx.raise(
        "CAST_OVERFLOW",
        format!(
            "The value {value} of the type \"{from}\" cannot be cast to \"{}\" due to an overflow. Use `try_cast` to tolerate overflow and return NULL instead.",
            crate::types::spark_type_name(t).to_uppercase()
        ),
    );
    Value::Null
}

/// ANSI mode: a string that is not a value of the target type fails the batch
/// (`CAST_INVALID_INPUT`).
fn malformed(s: &str, t: &DataType, cx: &EvalContext) -> Value {
    cx.raise(
        "CAST_INVALID_INPUT",
        format!(
            "The value '{s}' of the type \"STRING\" cannot be cast to \"{}\" because it is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.",
            crate::types::spark_type_name(t).to_uppercase()
        ),
    );
    Value::Null
}

fn to_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Str(s) => s.trim().parse().ok(),
        other => other.as_f64(),
    }
}

/// Spark's double parsing for casts: trimmed decimal text, `NaN`, `Infinity`, `-Infinity`
/// (`inf` forms too), and a trailing `d`/`f` (Java's `Double.parseDouble`).
fn parse_double(s: &str) -> Option<f64> {
    let t = s.trim();
    let t = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
    match t.to_ascii_lowercase().as_str() {
        "nan" => Some(f64::NAN),
        "infinity" | "+infinity" | "inf" | "+inf" => Some(f64::INFINITY),
        "-infinity" | "-inf" => Some(f64::NEG_INFINITY),
        _ => t.parse().ok().filter(|x: &f64| x.is_finite()),
    }
}

/// `CAST(v AS t)` with Spark 4's ANSI behaviour: a string that is not a value of the target
/// type fails the batch (`CAST_INVALID_INPUT`, recorded via `functions::raise`) and gives
/// NULL here; other impossible casts give NULL.
pub fn cast(v: Value, t: &DataType, cx: &EvalContext) -> Value {
    use Value::*;
    if v.is_null() {
        return Null;
    }
    match t {
        DataType::Utf8 => match v {
            Str(_) => v,
            // Spark's text of the value (Kafka's bytes: their UTF-8 text), in the session zone.
            other => Value::str(&super::functions::to_text(&other, cx)),
        },
        DataType::Binary => match v {
            Binary(_) => v,
            Str(s) => Binary(std::rc::Rc::from(s.as_bytes())),
            _ => Null,
        },
        DataType::Int64 => match v {
            Str(s) => s.trim().parse::<i64>().map_or_else(|_| malformed(&s, t, cx), Long),
            // Spark's ANSI `Cast`: `floor(x) <= Long.MaxValue && ceil(x) >= Long.MinValue` (as
            // doubles), else `CAST_OVERFLOW`; NaN and the infinities fail it too.
            Double(d) if d.floor() <= i64::MAX as f64 && d.ceil() >= i64::MIN as f64 => Long(d as i64),
            Double(_) => cast_overflow(&v, t, cx),
            Timestamp(t) => Long(floor_micros_to_seconds(t)),
            Bool(b) => Long(i64::from(b)),
            other => other.as_i64().map_or(Null, Long),
        },
        DataType::Int32 => match v {
            Str(s) => s.trim().parse::<i32>().map_or_else(|_| malformed(&s, t, cx), Int),
            Double(d) if d.floor() <= f64::from(i32::MAX) && d.ceil() >= f64::from(i32::MIN) => Int(d as i32),
            Double(_) => cast_overflow(&v, t, cx),
            Long(x) => i32::try_from(x).map_or_else(|_| cast_overflow(&v, t, cx), Int),
            other => match cast(other, &DataType::Int64, cx) {
                Long(x) => i32::try_from(x).map_or(Null, Int),
                _ => Null,
            },
        },
        DataType::Float64 => match v {
            Str(s) => parse_double(&s).map_or_else(|| malformed(&s, t, cx), Double),
            Timestamp(t) => Double(t as f64 / 1e6),
            other => other.as_f64().map_or(Null, Double),
        },
        DataType::Boolean => match v {
            Bool(_) => v,
            Str(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "t" | "yes" | "y" | "1" => Bool(true),
                "false" | "f" | "no" | "n" | "0" => Bool(false),
                _ => malformed(&s, t, cx),
            },
            other => other.as_f64().map_or(Null, |x| Bool(x != 0.0)),
        },
        DataType::Date32 => match v {
            Date(_) => v,
            Timestamp(us) => Date(cx.time_zone.to_local_us(us).div_euclid(86_400_000_000) as i32),
            Str(s) => match crate::types::datetime::spark_string_to_date(&s) {
                Some(d) => Date(d),
                None => malformed(&s, t, cx),
            },
            _ => Null,
        },
        // TIMESTAMP_NTZ: the wall-clock time in the session zone.
        DataType::Timestamp(_, None) => match v {
            Timestamp(us) => Timestamp(cx.time_zone.to_local_us(us)),
            Date(d) => Timestamp(i64::from(d).saturating_mul(86_400_000_000)),
            Str(s) => match crate::types::datetime::spark_string_to_wall_us(&s) {
                Some(us) => Timestamp(us),
                None => malformed(&s, t, cx),
            },
            _ => Null,
        },
        DataType::Timestamp(..) => match v {
            Timestamp(_) => v,
            Date(d) => Timestamp(cx.time_zone.from_local_us(i64::from(d).saturating_mul(86_400_000_000))),
            Str(s) => match crate::types::datetime::spark_string_to_timestamp_in(&s, &cx.time_zone) {
                crate::types::datetime::TimestampText::Value(us) => Timestamp(us),
                _ => malformed(&s, t, cx),
            },
            Int(_) | Long(_) => v.as_i64().and_then(checked_seconds_to_micros).map_or(Null, Timestamp),
            Double(d) if d.is_finite() => Timestamp((d * 1e6) as i64),
            _ => Null,
        },
        _ => Null,
    }
}

fn function(name: &str, args: &[BoundExpr], row: &Row, cx: &EvalContext) -> Value {
    let vals: Vec<Value> = args.iter().map(|a| eval(a, row, cx)).collect();
    super::functions::call(name, &vals, cx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx() -> EvalContext {
        EvalContext::default()
    }

    fn lit(v: Value) -> Box<BoundExpr> {
        Box::new(BoundExpr::Lit(v))
    }

    #[test]
    fn three_valued_logic() {
        // NULL AND FALSE = FALSE; NULL OR TRUE = TRUE; NULL AND TRUE = NULL.
        let row = vec![];
        let and = BoundExpr::Binary(BinOp::And, lit(Value::Null), lit(Value::Bool(false)));
        assert_eq!(eval(&and, &row, &cx()), Value::Bool(false));
        let or = BoundExpr::Binary(BinOp::Or, lit(Value::Null), lit(Value::Bool(true)));
        assert_eq!(eval(&or, &row, &cx()), Value::Bool(true));
        let and2 = BoundExpr::Binary(BinOp::And, lit(Value::Null), lit(Value::Bool(true)));
        assert!(eval(&and2, &row, &cx()).is_null());
        assert!(!eval_predicate(&and2, &row, &cx()));
    }

    #[test]
    fn numbers_compare_across_types_and_null_propagates() {
        let eq = BoundExpr::Binary(BinOp::Eq, lit(Value::Long(2)), lit(Value::Int(2)));
        assert_eq!(eval(&eq, &vec![], &cx()), Value::Bool(true));
        let add = BoundExpr::Binary(BinOp::Add, lit(Value::Null), lit(Value::Int(2)));
        assert!(eval(&add, &vec![], &cx()).is_null());
        // Integer division is a double in Spark: 7 / 2 = 3.5.
        let div = BoundExpr::Binary(BinOp::Div, lit(Value::Int(7)), lit(Value::Int(2)));
        assert_eq!(eval(&div, &vec![], &cx()), Value::Double(3.5));
    }

    #[test]
    fn timestamp_plus_interval() {
        let iv = CalendarInterval::parse("15 minutes").unwrap();
        let e = BoundExpr::Binary(BinOp::Add, lit(Value::Timestamp(0)), Box::new(BoundExpr::Interval(iv)));
        assert_eq!(eval(&e, &vec![], &cx()), Value::Timestamp(15 * 60 * crate::types::time::MICROS_PER_SECOND));
    }

    #[test]
    fn casts_never_panic() {
        // ANSI mode: a malformed string gives NULL here and fails the batch.
        let cx = cx();
        assert!(cast(Value::str("abc"), &DataType::Int64, &cx).is_null());
        assert_eq!(cx.take_error().map(|e| e.0), Some("CAST_INVALID_INPUT".to_string()));
        assert_eq!(cast(Value::str(" 42 "), &DataType::Int64, &cx), Value::Long(42));
        assert_eq!(cast(Value::Long(7), &DataType::Utf8, &cx), Value::str("7"));
        // A timestamp as a string is Spark's text in the session zone, not ISO-8601.
        assert_eq!(cast(Value::Timestamp(0), &DataType::Utf8, &cx), Value::str("1970-01-01 00:00:00"));
    }

    /// ANSI casts of numbers out of the target's range fail the batch with `CAST_OVERFLOW`,
    /// the value written as Spark's `toSQLValue` writes it (the three messages below as Spark
    /// 4.3 gave them for `CAST(a AS INT)` / `CAST(a AS BIGINT)` in a batch query). The recording
    /// `sweep-cert-cast-int-overflow-error` (tests/study) has Spark fail the batch that reads
    /// `9999999999` cast to INT; its log's cause is "The value 9999999999L of the type "BIGINT"
    /// cannot be cast to "INT" due to an overflow".
    #[test]
    fn casts_out_of_range_overflow() {
        let cx = cx();
        let raised = |v: Value, t: DataType| {
            assert!(cast(v, &t, &cx).is_null());
            cx.take_error().expect("an error")
        };
        let (c, m) = raised(Value::Long(9_999_999_999), DataType::Int32);
        assert_eq!(c, "CAST_OVERFLOW");
        assert!(m.starts_with("The value 9999999999L of the type \"BIGINT\" cannot be cast to \"INT\" due to an overflow."), "{m}");
        assert!(raised(Value::Double(1e20), DataType::Int64).1.starts_with("The value 1.0E20D of the type \"DOUBLE\" cannot be cast to \"BIGINT\""));
        assert!(raised(Value::Double(f64::NAN), DataType::Int32).1.starts_with("The value NaN of the type \"DOUBLE\" cannot be cast to \"INT\""));
        // In range: the fraction is cut toward zero, no error.
        assert_eq!(cast(Value::Long(-2_147_483_648), &DataType::Int32, &cx), Value::Int(i32::MIN));
        assert_eq!(cast(Value::Double(-3.9), &DataType::Int32, &cx), Value::Int(-3));
        assert_eq!(cast(Value::Double(2_147_483_647.5), &DataType::Int32, &cx), Value::Int(i32::MAX));
        assert!(cx.take_error().is_none());
    }
}
