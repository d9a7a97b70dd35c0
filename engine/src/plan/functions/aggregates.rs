//! The aggregate functions Streamlab models and how a call to one is built
//! ([`AggFunc`](crate::plan::AggFunc)); `execution::aggregate` evaluates them.

use crate::plan::{AggFunc, Expr};
use crate::types::Value;

/// The aggregate functions: (Spark name, min args, max args). Built into
/// [`AggFunc`](crate::plan::AggFunc) by the frontends.
pub static AGGREGATES: &[(&str, usize, usize)] = &[
    ("count", 1, 1),
    ("sum", 1, 1),
    ("avg", 1, 1),
    ("mean", 1, 1),
    ("min", 1, 1),
    ("max", 1, 1),
    ("first", 1, 2),
    ("first_value", 1, 2),
    ("last", 1, 2),
    ("last_value", 1, 2),
    ("max_by", 2, 2),
    ("min_by", 2, 2),
    ("collect_list", 1, 1),
    ("collect_set", 1, 1),
    ("approx_count_distinct", 1, 2),
    ("stddev", 1, 1),
    ("stddev_samp", 1, 1),
    ("std", 1, 1),
    ("stddev_pop", 1, 1),
    ("variance", 1, 1),
    ("var_samp", 1, 1),
    ("var_pop", 1, 1),
    ("count_if", 1, 1),
    ("count_distinct", 1, 1),
    ("countdistinct", 1, 1),
];

/// Builds an aggregate call from its Spark name and arguments: column expressions, and
/// literals for `first`/`last`'s `ignorenulls` and `approx_count_distinct`'s `rsd`.
/// `count(1)` / `count(*)` count rows. `Ok(None)` if `name` is not an aggregate.
///
/// # Errors
/// A message for a wrong number of arguments or a bad literal argument.
pub fn build_aggregate(name: &str, args: Vec<Expr>, distinct: bool) -> Result<Option<Expr>, String> {
    let lower = name.to_ascii_lowercase();
    let Some((spark_name, lo, hi)) = AGGREGATES.iter().find(|a| a.0 == lower) else { return Ok(None) };
    if args.len() < *lo || args.len() > *hi {
        return Err(format!("{spark_name}() takes {lo}..{hi} arguments, got {}", args.len()));
    }
    let mut it = args.into_iter();
    let arg = it.next().expect("arity checked");
    let second = it.next();
    let flag = |e: &Option<Expr>| -> Result<bool, String> {
        match e {
            None => Ok(false),
            Some(Expr::Literal(Value::Bool(b))) => Ok(*b),
            Some(other) => Err(format!("{spark_name}(): ignorenulls must be True or False, got {other}")),
        }
    };
    let (func, distinct) = match *spark_name {
        "count" => (AggFunc::Count, distinct),
        "count_distinct" | "countdistinct" => (AggFunc::Count, true),
        "sum" => (AggFunc::Sum, distinct),
        "avg" | "mean" => (AggFunc::Avg, distinct),
        "min" => (AggFunc::Min, false),
        "max" => (AggFunc::Max, false),
        "first" | "first_value" => (AggFunc::First { ignore_nulls: flag(&second)? }, false),
        "last" | "last_value" => (AggFunc::Last { ignore_nulls: flag(&second)? }, false),
        "max_by" => (AggFunc::MaxBy, false),
        "min_by" => (AggFunc::MinBy, false),
        "collect_list" => (AggFunc::CollectList, false),
        "collect_set" => (AggFunc::CollectSet, false),
        "stddev" | "stddev_samp" | "std" => (AggFunc::Stddev { sample: true }, false),
        "stddev_pop" => (AggFunc::Stddev { sample: false }, false),
        "variance" | "var_samp" => (AggFunc::Variance { sample: true }, false),
        "var_pop" => (AggFunc::Variance { sample: false }, false),
        "count_if" => (AggFunc::CountIf, false),
        _ => {
            let rsd = match &second {
                None => 0.05,
                Some(Expr::Literal(v)) => v.as_f64().ok_or_else(|| format!("approx_count_distinct(): rsd must be a number, got {v}"))?,
                Some(other) => return Err(format!("approx_count_distinct(): rsd must be a number, got {other}")),
            };
            (AggFunc::ApproxCountDistinct { p: AggFunc::hll_precision(rsd)? }, false)
        }
    };
    // `count(1)`, `count('*')`: every row.
    let arg = match arg {
        Expr::Literal(v) if func == AggFunc::Count && !v.is_null() && !distinct => Expr::Star,
        a => a,
    };
    let by = if matches!(func, AggFunc::MaxBy | AggFunc::MinBy) { second.map(Box::new) } else { None };
    Ok(Some(Expr::Agg { func, arg: Box::new(arg), by, distinct }))
}

