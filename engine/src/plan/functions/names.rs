//! How Spark names an unaliased function call's column (`toPrettySQL`): the expression's
//! `prettyName` (upper case for most math functions, `CEIL`, `SQRT`, `POWER`; the alias when
//! the function was registered with one shown, `sign`, `ceiling`), and the arguments its
//! constructor fills in shown as literals (`locate(b, s, 1)`, `split(s, ,, -1)`,
//! `mask(s, X, x, n, NULL)`). Recorded in the `fn-*-names-*` cases.

use crate::types::Value;

/// The name Spark prints for a call of `name` with `n` arguments.
pub fn printed_name(name: &str, n: usize) -> &str {
    match name {
        "ceil" => "CEIL",
        "floor" => "FLOOR",
        "sqrt" => "SQRT",
        "cbrt" => "CBRT",
        "exp" => "EXP",
        "expm1" => "EXPM1",
        "log10" => "LOG10",
        "log2" => "LOG2",
        "log1p" => "LOG1P",
        "log" if n == 1 => "ln",
        "log" => "LOG",
        "pow" | "power" => "POWER",
        "signum" => "SIGNUM",
        "sin" => "SIN",
        "cos" => "COS",
        "tan" => "TAN",
        "asin" => "ASIN",
        "acos" => "ACOS",
        "atan" => "ATAN",
        "sinh" => "SINH",
        "cosh" => "COSH",
        "tanh" => "TANH",
        "asinh" => "ASINH",
        "acosh" => "ACOSH",
        "atanh" => "ATANH",
        "cot" => "COT",
        "sec" => "SEC",
        "csc" => "CSC",
        "degrees" => "DEGREES",
        "radians" => "RADIANS",
        "atan2" => "ATAN2",
        "hypot" => "HYPOT",
        "negate" => "negative",
        "create_map" => "map",
        "timestamp_add" => "timestampadd",
        "timestamp_diff" => "timestampdiff",
        "e" => "E",
        "pi" => "PI",
        "rlike" => "RLIKE",
        "regexp" => "REGEXP",
        "regexp_like" => "REGEXP_LIKE",
        other => other,
    }
}

/// The literal arguments Spark's constructor adds to a call of `name` with `n` arguments.
pub fn filled_defaults(name: &str, n: usize) -> Vec<Value> {
    let s = Value::str;
    let all: Vec<Value> = match name {
        "split" => vec![s("?"), s("?"), Value::Int(-1)],
        "locate" | "position" => vec![s("?"), s("?"), Value::Int(1)],
        "mask" => vec![s("?"), s("X"), s("x"), s("n"), Value::Null],
        "overlay" => vec![s("?"), s("?"), s("?"), Value::Int(-1)],
        "regexp_instr" => vec![s("?"), s("?"), Value::Int(0)],
        "regexp_extract" | "regexp_extract_all" => vec![s("?"), s("?"), Value::Int(1)],
        "regexp_replace" => vec![s("?"), s("?"), s("?"), Value::Int(1)],
        "lpad" | "rpad" => vec![s("?"), s("?"), s(" ")],
        "round" | "bround" => vec![s("?"), Value::Int(0)],
        "sort_array" => vec![s("?"), Value::Bool(true)],
        "months_between" => vec![s("?"), s("?"), Value::Bool(true)],
        "from_unixtime" => vec![s("?"), s("yyyy-MM-dd HH:mm:ss")],
        "unix_timestamp" | "to_unix_timestamp" => vec![s("?"), s("yyyy-MM-dd HH:mm:ss")],
        "str_to_map" => vec![s("?"), s(","), s(":")],
        _ => return Vec::new(),
    };
    // `unix_timestamp()` takes the batch time: nothing is filled in.
    if n == 0 {
        return Vec::new();
    }
    all.into_iter().skip(n).collect()
}
