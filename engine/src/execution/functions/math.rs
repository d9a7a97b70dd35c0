//! Mathematical and bitwise functions (`mathExpressions.scala`, `arithmetic.scala`,
//! `bitwiseExpressions.scala`): doubles follow `java.lang.Math` (NaN for a domain error,
//! NULL for the logarithm of a non-positive number), integer overflow fails the batch in
//! ANSI mode as Spark 4's does, and the `try_` forms give NULL instead.

use super::super::context::EvalContext;
use super::{any_null, arg, int, num, to_text};
use crate::types::Value;

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    match name {
        "e" => return Some(Value::Double(std::f64::consts::E)),
        "pi" => return Some(Value::Double(std::f64::consts::PI)),
        _ => {}
    }
    if !is_math(name) {
        return None;
    }
    if any_null(args) {
        return Some(Value::Null);
    }
    let first = arg(args, 0);
    let x = num(first);
    let double = |f: fn(f64) -> f64| x.map_or(Value::Null, |x| Value::Double(f(x)));
    Some(match name {
        "abs" => match first {
            Value::Int(v) => v.checked_abs().map_or_else(|| overflow("abs", cx), Value::Int),
            Value::Long(v) => v.checked_abs().map_or_else(|| overflow("abs", cx), Value::Long),
            other => other.as_f64().map_or(Value::Null, |x| Value::Double(x.abs())),
        },
        "negative" | "negate" => match first {
            Value::Int(v) => v.checked_neg().map_or_else(|| overflow("negative", cx), Value::Int),
            Value::Long(v) => v.checked_neg().map_or_else(|| overflow("negative", cx), Value::Long),
            other => other.as_f64().map_or(Value::Null, |x| Value::Double(-x)),
        },
        "positive" => first.clone(),
        "sqrt" => double(f64::sqrt),
        "cbrt" => double(f64::cbrt),
        "exp" => double(f64::exp),
        "expm1" => double(f64::exp_m1),
        "sin" => double(f64::sin),
        "cos" => double(f64::cos),
        "tan" => double(f64::tan),
        "asin" => double(f64::asin),
        "acos" => double(f64::acos),
        "atan" => double(f64::atan),
        "sinh" => double(f64::sinh),
        "cosh" => double(f64::cosh),
        "tanh" => double(f64::tanh),
        "asinh" => double(|x| if x.is_infinite() { x } else { (x + (x * x + 1.0).sqrt()).ln() }),
        "acosh" => double(|x| (x + (x * x - 1.0).sqrt()).ln()),
        "atanh" => double(|x| 0.5 * ((1.0 + x) / (1.0 - x)).ln()),
        "cot" => double(|x| 1.0 / x.tan()),
        "csc" => double(|x| 1.0 / x.sin()),
        "sec" => double(|x| 1.0 / x.cos()),
        "degrees" => double(f64::to_degrees),
        "radians" => double(f64::to_radians),
        "rint" => double(round_half_even_int),
        "signum" | "sign" => double(|x| if x == 0.0 || x.is_nan() { x } else { x.signum() }),
        // Logarithms of non-positive numbers are NULL (`Logarithm.nullSafeEval`).
        "ln" | "log10" | "log2" => match x {
            Some(x) if x > 0.0 => Value::Double(match name {
                "ln" => x.ln(),
                "log10" => x.log10(),
                _ => x.log2(),
            }),
            _ => Value::Null,
        },
        "log1p" => match x {
            Some(x) if x > -1.0 => Value::Double(x.ln_1p()),
            _ => Value::Null,
        },
        "log" => {
            // log(x) is ln(x); log(base, x).
            let (base, v) = if args.len() == 1 { (std::f64::consts::E, x) } else { (x.unwrap_or(f64::NAN), num(arg(args, 1))) };
            match v {
                Some(v) if v > 0.0 && base > 0.0 => Value::Double(if args.len() == 1 { v.ln() } else { v.ln() / base.ln() }),
                _ => Value::Null,
            }
        }
        "pow" | "power" => two(args, f64::powf),
        "atan2" => two(args, f64::atan2),
        "hypot" => two(args, f64::hypot),
        "ceil" | "ceiling" => x.map_or(Value::Null, |x| Value::Long(x.ceil() as i64)),
        "floor" => x.map_or(Value::Null, |x| Value::Long(x.floor() as i64)),
        "round" | "bround" => {
            let scale = args.get(1).and_then(int).unwrap_or(0).clamp(-18, 18) as i32;
            let r = |x: f64| if name == "round" { round_half_up(x, scale) } else { round_half_even(x, scale) };
            match first {
                Value::Double(x) => Value::Double(r(*x)),
                Value::Int(_) | Value::Long(_) if scale >= 0 => first.clone(),
                Value::Int(x) => Value::Int(r(f64::from(*x)) as i32),
                other => other.as_f64().map_or(Value::Null, |x| Value::Long(r(x) as i64)),
            }
        }
        // n! for 0 ≤ n ≤ 20, else NULL (`Factorial`).
        "factorial" => match int(first) {
            Some(n) if (0..=20).contains(&n) => Value::Long((1..=n).product()),
            _ => Value::Null,
        },
        "pmod" => pmod(first, arg(args, 1), cx),
        "bin" => int(first).map_or(Value::Null, |v| Value::str(&format!("{v:b}"))),
        "hex" => match first {
            Value::Str(s) => Value::str(&s.bytes().map(|b| format!("{b:02X}")).collect::<String>()),
            Value::Binary(b) => Value::str(&b.iter().map(|b| format!("{b:02X}")).collect::<String>()),
            other => int(other).map_or(Value::Null, |v| Value::str(&format!("{v:X}"))),
        },
        "unhex" => unhex(&to_text(first, cx)).map_or(Value::Null, |b| Value::Binary(b.into())),
        "conv" => conv(&to_text(first, cx), int(arg(args, 1)), int(arg(args, 2))),
        "width_bucket" => width_bucket(x, num(arg(args, 1)), num(arg(args, 2)), int(arg(args, 3))),
        "try_add" | "try_subtract" | "try_multiply" | "try_mod" => try_arith(name, first, arg(args, 1)),
        "try_divide" => match (x, num(arg(args, 1))) {
            (Some(a), Some(b)) if b != 0.0 => Value::Double(a / b),
            _ => Value::Null,
        },
        "bit_count" => match first {
            // An int is widened to a long first (`java.lang.Long.bitCount`).
            Value::Int(v) => Value::Int(i64::from(*v).count_ones() as i32),
            Value::Long(v) => Value::Int(v.count_ones() as i32),
            Value::Bool(b) => Value::Int(i32::from(*b)),
            _ => Value::Null,
        },
        "bitwise_not" => match first {
            Value::Int(v) => Value::Int(!v),
            Value::Long(v) => Value::Long(!v),
            _ => Value::Null,
        },
        "shiftleft" | "shiftright" | "shiftrightunsigned" => {
            let n = int(arg(args, 1)).unwrap_or(0);
            match first {
                // Java masks the shift to the width (`n & 31`, `n & 63`).
                Value::Int(v) => {
                    let k = (n & 31) as u32;
                    Value::Int(match name {
                        "shiftleft" => v.wrapping_shl(k),
                        "shiftright" => v.wrapping_shr(k),
                        _ => ((*v as u32) >> k) as i32,
                    })
                }
                Value::Long(v) => {
                    let k = (n & 63) as u32;
                    Value::Long(match name {
                        "shiftleft" => v.wrapping_shl(k),
                        "shiftright" => v.wrapping_shr(k),
                        _ => ((*v as u64) >> k) as i64,
                    })
                }
                _ => Value::Null,
            }
        }
        _ => return None,
    })
}

fn is_math(name: &str) -> bool {
    matches!(
        name,
        "abs" | "negative" | "negate" | "positive" | "sqrt" | "cbrt" | "exp" | "expm1" | "sin" | "cos" | "tan" | "asin" | "acos" | "atan" | "sinh" | "cosh" | "tanh"
            | "asinh" | "acosh" | "atanh" | "cot" | "csc" | "sec" | "degrees" | "radians" | "rint" | "signum" | "sign" | "ln" | "log10" | "log2" | "log1p" | "log"
            | "pow" | "power" | "atan2" | "hypot" | "ceil" | "ceiling" | "floor" | "round" | "bround" | "factorial" | "pmod" | "bin" | "hex" | "unhex" | "conv"
            | "width_bucket" | "try_add" | "try_subtract" | "try_multiply" | "try_mod" | "try_divide" | "bit_count" | "bitwise_not" | "shiftleft" | "shiftright"
            | "shiftrightunsigned"
    )
}

fn two(args: &[Value], f: fn(f64, f64) -> f64) -> Value {
    match (num(arg(args, 0)), num(arg(args, 1))) {
        (Some(a), Some(b)) => Value::Double(f(a, b)),
        _ => Value::Null,
    }
}

/// ANSI mode: an integer result that overflows fails the batch.
fn overflow(function: &str, cx: &EvalContext) -> Value {
    let _ = function;
    cx.raise(
        "ARITHMETIC_OVERFLOW",
        "integer overflow. Use 'try_add' to tolerate overflow and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.".into(),
    );
    Value::Null
}

/// Spark's `round` is HALF_UP on the decimal value.
fn round_half_up(x: f64, scale: i32) -> f64 {
    let f = 10f64.powi(scale);
    let y = (x * f).abs();
    let r = (y + 0.5).floor();
    // Guard against representation error such as 2.675 * 100 = 267.49999...
    let r = if (y - y.floor() - 0.5).abs() < 1e-9 { y.floor() + 1.0 } else { r };
    (r / f).copysign(x)
}

/// HALF_EVEN to `scale` decimals (`bround`).
pub(super) fn round_half_even(x: f64, scale: i32) -> f64 {
    let f = 10f64.powi(scale);
    let y = x * f;
    if !y.is_finite() {
        return x;
    }
    round_half_even_int(y) / f
}

/// `Math.rint`: the nearest whole number, ties to even, the sign kept (`rint(-0.5)` = -0.0).
fn round_half_even_int(y: f64) -> f64 {
    y.round_ties_even()
}

/// `pmod(a, b)`: the non-negative remainder; `b = 0` fails in ANSI mode.
fn pmod(a: &Value, b: &Value, cx: &EvalContext) -> Value {
    match (a, b) {
        (Value::Int(_) | Value::Long(_), Value::Int(_) | Value::Long(_)) => {
            let (x, y) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            if y == 0 {
                return divide_by_zero(cx);
            }
            let r = x.wrapping_rem(y);
            let r = if r < 0 { r.wrapping_add(y).wrapping_rem(y) } else { r };
            if matches!((a, b), (Value::Int(_), Value::Int(_))) { Value::Int(r as i32) } else { Value::Long(r) }
        }
        _ => match (num(a), num(b)) {
            (Some(_), Some(0.0)) => divide_by_zero(cx),
            (Some(x), Some(y)) => {
                let r = x % y;
                Value::Double(if r < 0.0 { (r + y) % y } else { r })
            }
            _ => Value::Null,
        },
    }
}

fn divide_by_zero(cx: &EvalContext) -> Value {
    cx.raise(
        "DIVIDE_BY_ZERO",
        "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.".into(),
    );
    Value::Null
}

/// `try_add` & co.: the arithmetic, NULL on overflow or a zero divisor.
fn try_arith(name: &str, a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => {
            let r = match name {
                "try_add" => x.checked_add(*y),
                "try_subtract" => x.checked_sub(*y),
                "try_multiply" => x.checked_mul(*y),
                _ => x.checked_rem(*y),
            };
            r.map_or(Value::Null, Value::Int)
        }
        (Value::Int(_) | Value::Long(_), Value::Int(_) | Value::Long(_)) => {
            let (x, y) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            let r = match name {
                "try_add" => x.checked_add(y),
                "try_subtract" => x.checked_sub(y),
                "try_multiply" => x.checked_mul(y),
                _ => x.checked_rem(y),
            };
            r.map_or(Value::Null, Value::Long)
        }
        (Value::Date(d), _) if name == "try_add" => int(b).and_then(|n| i64::from(*d).checked_add(n)).and_then(|x| i32::try_from(x).ok()).map_or(Value::Null, Value::Date),
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => match name {
                "try_add" => Value::Double(x + y),
                "try_subtract" => Value::Double(x - y),
                "try_multiply" => Value::Double(x * y),
                _ if y == 0.0 => Value::Null,
                _ => Value::Double(x % y),
            },
            _ => Value::Null,
        },
    }
}

/// Hex digits as bytes (an odd count gets a leading 0); `None` for a non-hex character.
pub(super) fn unhex(s: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = s.bytes().map(|c| (c as char).to_digit(16).map(|d| d as u8)).collect::<Option<_>>()?;
    let mut out = Vec::with_capacity(digits.len().div_ceil(2));
    let mut it = digits.iter();
    if digits.len() % 2 == 1 {
        out.push(*it.next()?);
    }
    while let (Some(h), Some(l)) = (it.next(), it.next()) {
        out.push(h * 16 + l);
    }
    Some(out)
}

/// `conv(num, from, to)` (`NumberConverter`): the leading valid digits of `num` in base
/// `from` (2..36), written in base `to` (negative: signed); a negative input without a signed
/// target is read as unsigned 64 bits. NULL for a bad base or no digits.
fn conv(s: &str, from: Option<i64>, to: Option<i64>) -> Value {
    let (Some(from), Some(to)) = (from, to) else { return Value::Null };
    if !(2..=36).contains(&from) || !(2..=36).contains(&to.unsigned_abs()) {
        return Value::Null;
    }
    let s = s.trim();
    let (neg, body) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
    if body.is_empty() {
        return Value::Null;
    }
    // Reading stops at the first character that is not a digit of the base: `zz` is 0.
    let digits: Vec<u32> = body.chars().map_while(|c| c.to_digit(from as u32)).collect();
    let mut v: u64 = 0;
    for d in digits {
        v = v.wrapping_mul(from as u64).wrapping_add(u64::from(d));
    }
    let (neg_out, mag) = if neg {
        if to < 0 { (true, v) } else { (false, v.wrapping_neg()) }
    } else if to < 0 && (v as i64) < 0 {
        (true, (v as i64).unsigned_abs())
    } else {
        (false, v)
    };
    let base = to.unsigned_abs();
    let mut out = Vec::new();
    let mut m = mag;
    loop {
        out.push(std::char::from_digit((m % base) as u32, base as u32).unwrap_or('0').to_ascii_uppercase());
        m /= base;
        if m == 0 {
            break;
        }
    }
    if neg_out {
        out.push('-');
    }
    Value::str(&out.into_iter().rev().collect::<String>())
}

/// `width_bucket(v, min, max, n)`: the 1-based bucket of `v` among n equal buckets; 0 below,
/// n + 1 above; NULL for n ≤ 0 or min = max.
fn width_bucket(v: Option<f64>, min: Option<f64>, max: Option<f64>, n: Option<i64>) -> Value {
    let (Some(v), Some(lo), Some(hi), Some(n)) = (v, min, max, n) else { return Value::Null };
    if n <= 0 || lo == hi || !v.is_finite() || !lo.is_finite() || !hi.is_finite() || n == i64::MAX {
        return Value::Null;
    }
    let b = if lo < hi {
        if v < lo {
            0
        } else if v >= hi {
            n + 1
        } else {
            ((n as f64) * (v - lo) / (hi - lo)) as i64 + 1
        }
    } else if v > lo {
        0
    } else if v <= hi {
        n + 1
    } else {
        ((n as f64) * (lo - v) / (lo - hi)) as i64 + 1
    };
    Value::Long(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_examples() {
        // conv('100', 2, 10) = 4; conv(-10, 16, -10) = -16; bround(2.5) = 2, bround(3.5) = 4.
        assert_eq!(conv("100", Some(2), Some(10)), Value::str("4"));
        assert_eq!(conv("-10", Some(16), Some(-10)), Value::str("-16"));
        assert_eq!(conv("-1", Some(10), Some(16)), Value::str("FFFFFFFFFFFFFFFF"));
        assert_eq!(round_half_even(2.5, 0), 2.0);
        assert_eq!(round_half_even(3.5, 0), 4.0);
        assert_eq!(width_bucket(Some(5.3), Some(0.2), Some(10.6), Some(5)), Value::Long(3));
        assert_eq!(unhex("4A7"), Some(vec![0x04, 0xA7]));
    }

    #[test]
    fn round_is_half_up() {
        assert_eq!(round_half_up(2.5, 0), 3.0);
        assert_eq!(round_half_up(-2.5, 0), -3.0);
        assert_eq!(round_half_up(2.675, 2), 2.68);
    }
}
