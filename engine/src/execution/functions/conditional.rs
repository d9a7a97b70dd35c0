//! Conditional, predicate and miscellaneous functions with their own NULL rules
//! (`nullExpressions.scala`, `conditionalExpressions.scala`, `predicates.scala`,
//! `misc.scala`): `coalesce`, `nvl`, `nvl2`, `if`, `nullif`, `nanvl`, `nullifzero`,
//! `zeroifnull`, `equal_null`, `isnan`, `IN`, `greatest`, `least`, `assert_true`,
//! `raise_error`, `current_timezone`.

use std::cmp::Ordering;

use super::super::context::EvalContext;
use super::super::compare::compare;
use super::{arg, to_text};
use crate::types::Value;

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    let first = arg(args, 0);
    let equal = |a: &Value, b: &Value| compare(a, b) == Some(Ordering::Equal);
    Some(match name {
        "coalesce" | "nvl" | "ifnull" => args.iter().find(|v| !v.is_null()).cloned().unwrap_or(Value::Null),
        "nvl2" => if first.is_null() { arg(args, 2).clone() } else { arg(args, 1).clone() },
        "if" => if matches!(first, Value::Bool(true)) { arg(args, 1).clone() } else { arg(args, 2).clone() },
        "nullif" => {
            let b = arg(args, 1);
            if !first.is_null() && equal(first, b) { Value::Null } else { first.clone() }
        }
        // `nanvl(a, b)`: b when a is NaN.
        "nanvl" => match first {
            Value::Double(d) if d.is_nan() => arg(args, 1).as_f64().map_or(Value::Null, Value::Double),
            other => other.as_f64().map_or(Value::Null, Value::Double),
        },
        "nullifzero" => if first.as_f64() == Some(0.0) { Value::Null } else { first.clone() },
        "zeroifnull" => match first {
            Value::Null => Value::Int(0),
            other => other.clone(),
        },
        "equal_null" => Value::Bool(match (first.is_null(), arg(args, 1).is_null()) {
            (true, true) => true,
            (false, false) => equal(first, arg(args, 1)),
            _ => false,
        }),
        "isnan" => Value::Bool(matches!(first, Value::Double(d) if d.is_nan())),
        "in" => {
            if first.is_null() {
                return Some(Value::Null);
            }
            let mut saw_null = false;
            for item in args.get(1..).unwrap_or_default() {
                if item.is_null() {
                    saw_null = true;
                } else if equal(first, item) {
                    return Some(Value::Bool(true));
                }
            }
            if saw_null { Value::Null } else { Value::Bool(false) }
        }
        "greatest" | "least" => {
            let mut best: Option<&Value> = None;
            for a in args.iter().filter(|a| !a.is_null()) {
                let better = best.is_none_or(|b| if name == "greatest" { compare(a, b) == Some(Ordering::Greater) } else { compare(a, b) == Some(Ordering::Less) });
                if better {
                    best = Some(a);
                }
            }
            best.cloned().unwrap_or(Value::Null)
        }
        // `assert_true(cond[, message])`: NULL when the condition holds, else the query fails.
        "assert_true" => {
            if !matches!(first, Value::Bool(true)) {
                let message = match args.get(1) {
                    Some(m) if !m.is_null() => to_text(m, cx),
                    _ => "null".to_string(),
                };
                cx.raise("USER_RAISED_EXCEPTION", message);
            }
            Value::Null
        }
        "raise_error" => {
            cx.raise("USER_RAISED_EXCEPTION", if first.is_null() { "null".into() } else { to_text(first, cx) });
            Value::Null
        }
        "current_timezone" => Value::str(cx.time_zone.id()),
        _ => return None,
    })
}
