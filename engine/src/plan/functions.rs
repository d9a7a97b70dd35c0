//! The function table: every Spark SQL function Streamlab models, with its Spark name, its
//! arity, which PySpark arguments name columns, and its result-type rule
//! (`FunctionRegistry.scala`, `functions.py`). The frontends check names and arity here,
//! `analysis` types each call with its [`TypeRule`] (inserting the casts Spark's type coercion
//! adds), and `execution::functions` evaluates it. Aggregate functions are in [`AGGREGATES`].

use super::{AggFunc, Expr};
use crate::types::{array_type, timestamp_type, DataType, Value};

/// A fixed result type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    String,
    Int,
    Long,
    Double,
    Boolean,
    Timestamp,
    Date,
    StringArray,
}

impl Ty {
    /// The Arrow type.
    pub fn data_type(self) -> DataType {
        match self {
            Ty::String => DataType::Utf8,
            Ty::Int => DataType::Int32,
            Ty::Long => DataType::Int64,
            Ty::Double => DataType::Float64,
            Ty::Boolean => DataType::Boolean,
            Ty::Timestamp => timestamp_type(),
            Ty::Date => DataType::Date32,
            Ty::StringArray => array_type(DataType::Utf8),
        }
    }
}

/// How a call's result type follows from its arguments' types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeRule {
    /// Always this type.
    Fixed(Ty),
    /// The type of argument `i`.
    Arg(usize),
    /// The wider type of the arguments from `i` on; each of them is cast to it
    /// (`coalesce`, `nvl`, `greatest`: `TypeCoercion.findWiderCommonType`).
    Wider(usize),
    /// `int` for an int argument, else `bigint`... as `abs`/`negative`: the argument's type.
    Numeric(usize),
    /// The element type of the array argument `i` (`element_at`).
    Element(usize),
    /// `array<element>` of argument `i`'s type is argument `i`'s own type (`array_sort`,
    /// `reverse` on arrays keep it).
    SameArray(usize),
    /// `array(a, b, ...)`: an array of the arguments' wider type; each is cast to it.
    WiderArray,
}

/// Which arguments a PySpark call reads as column names when given a string
/// (`F.upper('name')`), the others being literals (`F.substring('s', 1, 2)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColArgs {
    /// Every argument.
    All,
    /// Only these positions.
    Only(&'static [usize]),
    /// This position and every later one (`concat_ws(sep, *cols)`).
    From(usize),
}

impl ColArgs {
    /// True if a string at `pos` names a column.
    pub fn is_col(self, pos: usize) -> bool {
        match self {
            ColArgs::All => true,
            ColArgs::Only(p) => p.contains(&pos),
            ColArgs::From(i) => pos >= i,
        }
    }
}

/// One scalar function.
#[derive(Debug, Clone, Copy)]
pub struct FunctionDef {
    /// Spark's name (lower case).
    pub name: &'static str,
    pub min_args: usize,
    /// `usize::MAX` for variadic functions.
    pub max_args: usize,
    pub col_args: ColArgs,
    pub rule: TypeRule,
}

const fn f(name: &'static str, min_args: usize, max_args: usize, col_args: ColArgs, rule: TypeRule) -> FunctionDef {
    FunctionDef { name, min_args, max_args, col_args, rule }
}

const FIRST: ColArgs = ColArgs::Only(&[0]);
const NONE: ColArgs = ColArgs::Only(&[]);
const S: TypeRule = TypeRule::Fixed(Ty::String);
const I: TypeRule = TypeRule::Fixed(Ty::Int);
const L: TypeRule = TypeRule::Fixed(Ty::Long);
const TS: TypeRule = TypeRule::Fixed(Ty::Timestamp);
const B: TypeRule = TypeRule::Fixed(Ty::Boolean);
const D: TypeRule = TypeRule::Fixed(Ty::Double);
const V: usize = usize::MAX;

/// The scalar functions, by Spark name. Aliases (`substr`, `ifnull`, `day`) are separate rows.
pub static FUNCTIONS: &[FunctionDef] = &[
    // strings
    f("upper", 1, 1, FIRST, S),
    f("ucase", 1, 1, FIRST, S),
    f("lower", 1, 1, FIRST, S),
    f("lcase", 1, 1, FIRST, S),
    f("length", 1, 1, FIRST, I),
    f("char_length", 1, 1, FIRST, I),
    f("trim", 1, 1, FIRST, S),
    f("ltrim", 1, 1, FIRST, S),
    f("rtrim", 1, 1, FIRST, S),
    f("initcap", 1, 1, FIRST, S),
    f("reverse", 1, 1, FIRST, TypeRule::SameArray(0)),
    f("concat", 1, V, ColArgs::All, S),
    f("concat_ws", 1, V, ColArgs::From(1), S),
    f("substring", 2, 3, FIRST, S),
    f("substr", 2, 3, FIRST, S),
    f("left", 2, 2, FIRST, S),
    f("right", 2, 2, FIRST, S),
    f("split", 2, 3, FIRST, TypeRule::Fixed(Ty::StringArray)),
    f("regexp_extract", 2, 3, FIRST, S),
    f("regexp_replace", 3, 3, FIRST, S),
    f("lpad", 2, 3, FIRST, S),
    f("rpad", 2, 3, FIRST, S),
    f("instr", 2, 2, FIRST, I),
    f("repeat", 2, 2, FIRST, S),
    f("contains", 2, 2, ColArgs::All, B),
    f("startswith", 2, 2, ColArgs::All, B),
    f("endswith", 2, 2, ColArgs::All, B),
    f("like", 2, 2, FIRST, B),
    f("rlike", 2, 2, FIRST, B),
    // `x IN (a, b)` / `isin`, printed as Spark does.
    f("in", 2, V, ColArgs::All, B),
    // numbers
    f("abs", 1, 1, FIRST, TypeRule::Numeric(0)),
    f("negative", 1, 1, FIRST, TypeRule::Numeric(0)),
    f("round", 1, 2, FIRST, TypeRule::Arg(0)),
    f("ceil", 1, 1, FIRST, L),
    f("floor", 1, 1, FIRST, L),
    f("greatest", 2, V, ColArgs::All, TypeRule::Wider(0)),
    f("sqrt", 1, 1, FIRST, D),
    f("cbrt", 1, 1, FIRST, D),
    f("exp", 1, 1, FIRST, D),
    f("ln", 1, 1, FIRST, D),
    f("log", 1, 2, ColArgs::All, D),
    f("log10", 1, 1, FIRST, D),
    f("log2", 1, 1, FIRST, D),
    f("pow", 2, 2, ColArgs::All, D),
    f("power", 2, 2, ColArgs::All, D),
    f("signum", 1, 1, FIRST, D),
    f("xxhash64", 1, V, ColArgs::All, L),
    f("least", 2, V, ColArgs::All, TypeRule::Wider(0)),
    // conditionals
    f("coalesce", 1, V, ColArgs::All, TypeRule::Wider(0)),
    f("nvl", 2, 2, ColArgs::All, TypeRule::Wider(0)),
    f("ifnull", 2, 2, ColArgs::All, TypeRule::Wider(0)),
    f("if", 3, 3, ColArgs::All, TypeRule::Wider(1)),
    f("nullif", 2, 2, ColArgs::All, TypeRule::Arg(0)),
    // dates and times (session time zone UTC)
    f("date_format", 2, 2, FIRST, S),
    f("to_date", 1, 2, FIRST, TypeRule::Fixed(Ty::Date)),
    f("to_timestamp", 1, 2, FIRST, TS),
    f("unix_timestamp", 0, 2, FIRST, L),
    f("from_unixtime", 1, 2, FIRST, S),
    f("timestamp_seconds", 1, 1, FIRST, TS),
    f("date_trunc", 2, 2, ColArgs::Only(&[1]), TS),
    f("year", 1, 1, FIRST, I),
    f("month", 1, 1, FIRST, I),
    f("dayofmonth", 1, 1, FIRST, I),
    f("day", 1, 1, FIRST, I),
    f("dayofweek", 1, 1, FIRST, I),
    f("dayofyear", 1, 1, FIRST, I),
    f("hour", 1, 1, FIRST, I),
    f("minute", 1, 1, FIRST, I),
    f("second", 1, 1, FIRST, I),
    f("date_add", 2, 2, FIRST, TypeRule::Fixed(Ty::Date)),
    f("date_sub", 2, 2, FIRST, TypeRule::Fixed(Ty::Date)),
    f("datediff", 2, 2, ColArgs::All, I),
    f("current_date", 0, 0, NONE, TypeRule::Fixed(Ty::Date)),
    f("current_timestamp", 0, 0, NONE, TS),
    f("now", 0, 0, NONE, TS),
    // arrays
    f("array", 0, V, ColArgs::All, TypeRule::WiderArray),
    f("size", 1, 1, FIRST, I),
    f("array_sort", 1, 1, FIRST, TypeRule::SameArray(0)),
    f("array_contains", 2, 2, FIRST, B),
    f("element_at", 2, 2, FIRST, TypeRule::Element(0)),
    // generators: one output row per element, only at the top of a select (`Generate`)
    f("explode", 1, 1, FIRST, TypeRule::Element(0)),
    f("explode_outer", 1, 1, FIRST, TypeRule::Element(0)),
    f("posexplode", 1, 1, FIRST, TypeRule::Element(0)),
    f("posexplode_outer", 1, 1, FIRST, TypeRule::Element(0)),
    // structs and JSON (typed in `analysis::resolve`)
    f("from_json", 2, 2, FIRST, TypeRule::Arg(0)),
    f("get_field", 2, 2, FIRST, TypeRule::Arg(0)),
    f("get_item", 2, 2, FIRST, TypeRule::Element(0)),
];

/// True for the generator functions (`explode`, ...), which `analysis` turns into a
/// `Generate` node.
pub fn is_generator(name: &str) -> bool {
    matches!(name.to_ascii_lowercase().as_str(), "explode" | "explode_outer" | "posexplode" | "posexplode_outer")
}

/// The definition of scalar function `name` (case-insensitive).
pub fn lookup(name: &str) -> Option<&'static FunctionDef> {
    FUNCTIONS.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}

/// The modelled functions closest to `name` (by edit distance, at most three), for
/// "not supported" messages.
pub fn similar_names(name: &str) -> Vec<&'static str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
            }
            prev = cur;
        }
        prev[b.len()]
    }
    let lower = name.to_ascii_lowercase();
    let mut all: Vec<(usize, &'static str)> = FUNCTIONS
        .iter()
        .map(|d| d.name)
        .chain(AGGREGATES.iter().map(|a| a.0))
        .filter(|n| !n.starts_with("get_") && *n != "in")
        .map(|n| (distance(&lower, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 3) || n.contains(lower.as_str()) || lower.contains(n))
        .collect();
    all.sort();
    all.into_iter().take(3).map(|(_, n)| n).collect()
}

/// The aggregate functions: (Spark name, min args, max args). Built into
/// [`AggFunc`](super::AggFunc) by the frontends.
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

/// Spark's wider common type of two types (`TypeCoercion.findWiderTypeForTwo` with ANSI mode,
/// the default in Spark 4): NULL gives way to anything, int < bigint < double, a timestamp
/// beats a date, and a string next to a number becomes that number's type widened to at
/// least bigint (the string is cast, and a malformed one fails the batch). `None` if the two
/// cannot meet.
pub fn wider_type(a: &DataType, b: &DataType) -> Option<DataType> {
    use DataType::*;
    if a == b {
        return Some(a.clone());
    }
    Some(match (a, b) {
        (Null, t) | (t, Null) => t.clone(),
        (Int32, Int64) | (Int64, Int32) => Int64,
        (Int32 | Int64, Float64) | (Float64, Int32 | Int64) => Float64,
        (Utf8, Int32 | Int64) | (Int32 | Int64, Utf8) => Int64,
        (Utf8, Float64) | (Float64, Utf8) => Float64,
        (Utf8, Boolean) | (Boolean, Utf8) => Boolean,
        (Timestamp(..), Date32) | (Date32, Timestamp(..)) | (Utf8, Timestamp(..)) | (Timestamp(..), Utf8) => timestamp_type(),
        (Utf8, Date32) | (Date32, Utf8) => Date32,
        (Timestamp(..), Timestamp(..)) => timestamp_type(),
        (List(x), List(y)) => array_type(wider_type(x.data_type(), y.data_type())?),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_is_listed_once() {
        let mut names: Vec<&str> = FUNCTIONS.iter().map(|d| d.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
        assert!(FUNCTIONS.iter().all(|d| d.min_args <= d.max_args));
    }

    #[test]
    fn wider_types_follow_spark() {
        // Recorded in fn-case-coalesce-coercion-append: int/double → double, int/bigint →
        // bigint, string/int → bigint (ANSI).
        assert_eq!(wider_type(&DataType::Int32, &DataType::Float64), Some(DataType::Float64));
        assert_eq!(wider_type(&DataType::Int32, &DataType::Int64), Some(DataType::Int64));
        assert_eq!(wider_type(&DataType::Utf8, &DataType::Int32), Some(DataType::Int64));
        assert_eq!(wider_type(&DataType::Null, &DataType::Utf8), Some(DataType::Utf8));
        assert_eq!(wider_type(&DataType::Boolean, &DataType::Int32), None);
    }
}
