//! The function table: every Spark SQL function Streamlab models, with its Spark name, its
//! arity, which PySpark arguments name columns, and its result-type rule
//! (`FunctionRegistry.scala`, `functions.py`). The frontends check names and arity here,
//! `analysis` types each call with its [`TypeRule`] (inserting the casts Spark's type coercion
//! adds), and `execution::functions` evaluates it. Aggregate functions are in [`AGGREGATES`].

mod aggregates;
pub mod families;
pub mod names;
mod rules;
mod table;

pub use aggregates::{build_aggregate, AGGREGATES};
pub use table::FAMILIES;

use crate::types::{array_type, timestamp_type, DataType};

/// A fixed result type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// `string` (Arrow `Utf8`).
    String,
    /// `int`, 32-bit.
    Int,
    /// `bigint`, 64-bit.
    Long,
    /// `double`, 64-bit float.
    Double,
    /// `boolean`.
    Boolean,
    /// `timestamp`: µs since the epoch, shown in the session time zone (`TimestampType`).
    Timestamp,
    /// `timestamp_ntz`: a wall-clock time with no zone (`TimestampNTZType`).
    TimestampNtz,
    /// `date`: days since the epoch (Arrow `Date32`).
    Date,
    /// `binary`: bytes.
    Binary,
    /// `array<string>` (`split`, `regexp_extract_all`).
    StringArray,
    /// `map<string,string>` (`str_to_map`).
    StringMap,
    /// `void`: the type of `NULL`, `assert_true`'s and `raise_error`'s result.
    Void,
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
            Ty::TimestampNtz => crate::types::timestamp_ntz_type(),
            Ty::Date => DataType::Date32,
            Ty::Binary => DataType::Binary,
            Ty::StringArray => array_type(DataType::Utf8),
            Ty::StringMap => crate::types::map_type(DataType::Utf8, DataType::Utf8),
            Ty::Void => DataType::Null,
        }
    }
}

/// Why an argument's type does not fit a function (`DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE`),
/// or a type the engine does not model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeError {
    /// Parameter `param` (0-based) requires `requires` (Spark's words: `"ARRAY"`, `"MAP"`,
    /// `"NUMERIC"`, `("INT" or "BIGINT")`).
    Param {
        /// The parameter's position, 0-based.
        param: usize,
        /// The type it requires, in Spark's words.
        requires: &'static str,
    },
    /// The call would need a type Streamlab does not model (a DECIMAL result).
    Unsupported(&'static str),
}

/// How a call's result type follows from its arguments' types.
#[derive(Debug, Clone, Copy)]
pub enum TypeRule {
    /// Always this type.
    Fixed(Ty),
    /// The type of argument `i`.
    Arg(usize),
    /// The wider type of the arguments from `i` on; each of them is cast to it
    /// (`coalesce`, `nvl`, `greatest`: `TypeCoercion.findWiderCommonType`).
    Wider(usize),
    /// The type of numeric argument `i`, unchanged (`abs`, `negative`, `positive`: Spark's
    /// `UnaryMinus`/`Abs` keep their input's type); typed as [`TypeRule::Arg`].
    Numeric(usize),
    /// The element type of the array argument `i` (`element_at`).
    Element(usize),
    /// `array<element>` of argument `i`'s type is argument `i`'s own type (`array_sort`,
    /// `reverse` on arrays keep it).
    SameArray(usize),
    /// `array(a, b, ...)`: an array of the arguments' wider type; each is cast to it.
    WiderArray,
    /// Computed from the argument types by a rule of `rules` (the map, array and
    /// higher-order families, `pmod`, `shiftleft`, ...).
    Of(fn(&[DataType]) -> Result<DataType, TypeError>),
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
    /// The fewest arguments the function takes (`WRONG_NUM_ARGS` below it).
    pub min_args: usize,
    /// The most arguments the function takes; `usize::MAX` for variadic functions.
    pub max_args: usize,
    /// Which PySpark arguments are read as column names when given a string.
    pub col_args: ColArgs,
    /// How the result type follows from the argument types.
    pub rule: TypeRule,
}

/// Every scalar function row, family by family.
pub fn all_functions() -> impl Iterator<Item = &'static FunctionDef> {
    FAMILIES.iter().flat_map(|(_, rows)| rows.iter())
}

/// True for the generator functions (`explode`, ...), which `analysis` turns into a
/// `Generate` node.
pub fn is_generator(name: &str) -> bool {
    matches!(name.to_ascii_lowercase().as_str(), "explode" | "explode_outer" | "posexplode" | "posexplode_outer")
}

/// The definition of scalar function `name` (case-insensitive).
pub fn lookup(name: &str) -> Option<&'static FunctionDef> {
    all_functions().find(|d| d.name.eq_ignore_ascii_case(name))
}

/// Edit distance in chars (Spark's `LevenshteinDistance`, `UTF8String.levenshteinDistance`):
/// the `levenshtein` SQL function, and the closest names Spark's messages suggest.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The modelled functions closest to `name` (by edit distance, at most three), for
/// "not supported" messages.
pub fn similar_names(name: &str) -> Vec<&'static str> {
    let lower = name.to_ascii_lowercase();
    let mut all: Vec<(usize, &'static str)> = all_functions()
        .map(|d| d.name)
        .chain(AGGREGATES.iter().map(|a| a.0))
        .filter(|n| !n.starts_with("get_") && *n != "in")
        .map(|n| (levenshtein(&lower, n), n))
        // One name inside the other counts when the inner one has three letters or more: `e`
        // (Euler's number) is inside most names and says nothing about `percentile_approx`.
        .filter(|(d, n)| *d <= 2.max(n.len() / 3) || (lower.len() >= 3 && n.contains(lower.as_str())) || (n.len() >= 3 && lower.contains(n)))
        .collect();
    all.sort();
    all.into_iter().take(3).map(|(_, n)| n).collect()
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
        (Map(..), Map(..)) => {
            let ((k1, v1), (k2, v2)) = (crate::types::map_key_value(a)?, crate::types::map_key_value(b)?);
            crate::types::map_type(wider_type(k1, k2)?, wider_type(v1, v2)?)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A near name is suggested (`uper` → `upper`); a one-letter function inside a long name
    /// (`e` in `percentile_approx`) is not.
    #[test]
    fn similar_names_are_near_ones() {
        assert!(similar_names("uper").contains(&"upper"));
        assert!(!similar_names("percentile_approx").contains(&"e"), "{:?}", similar_names("percentile_approx"));
    }

    #[test]
    fn every_function_is_listed_once() {
        let mut names: Vec<&str> = all_functions().map(|d| d.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
        assert!(all_functions().all(|d| d.min_args <= d.max_args));
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
