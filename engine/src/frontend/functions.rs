//! Scalar function calls by name, shared by the PySpark interpreter (`F.*`) and SQL strings
//! (`F.expr`, `selectExpr`), checked against the function table
//! ([`crate::plan::functions`]) as Spark's `FunctionRegistry` lookup is.

use super::pyspark_api::{self, ApiKind};
use super::{ParseError, Span};
use crate::plan::Expr;

/// What Streamlab does with a function of `pyspark.sql.functions` (`docs/functions.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionStatus {
    /// Modelled: a query may call it.
    Supported,
    /// Spark refuses it on a streaming DataFrame; the engine reports Spark's error.
    NotAllowedOnStreams(&'static str),
    /// Not modelled: the engine reports `unsupported: the function <name>()`.
    NotModelled,
}

/// Functions the PySpark frontend builds itself (not rows of the function table): column
/// references, literals, SQL text, time windows, `when`, NULL tests, sort orders.
pub const FRONTEND_FUNCTIONS: &[&str] = &["col", "column", "lit", "expr", "window", "session_window", "window_time", "when", "isnull", "isnotnull", "asc", "desc"];

/// Window functions (`lag`, `rank`, ...): Spark rejects them on a stream
/// (`UnsupportedOperationChecker`, "Non-time-based windows").
pub const WINDOW_FUNCTIONS_ERROR: &str = "Non-time-based windows are not supported on streaming DataFrames/Datasets";

/// Distinct aggregations: Spark rejects them on a stream (`UnsupportedOperationChecker`).
pub const DISTINCT_AGGREGATION_ERROR: &str = "Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using approx_count_distinct() instead.";

/// PySpark's deprecated camel-case aliases (`F.bitwiseNOT`, `F.toDegrees`) as the functions
/// they call.
fn canonical(lower: &str) -> &str {
    match lower {
        "bitwisenot" => "bitwise_not",
        "todegrees" => "degrees",
        "toradians" => "radians",
        "approxcountdistinct" => "approx_count_distinct",
        other => other,
    }
}

/// What Streamlab does with PySpark function `name`.
pub fn function_status(name: &str) -> FunctionStatus {
    let lower = canonical(&name.to_ascii_lowercase()).to_string();
    if crate::plan::WINDOW_ONLY_FUNCTIONS.contains(&lower.as_str()) {
        return FunctionStatus::NotAllowedOnStreams(WINDOW_FUNCTIONS_ERROR);
    }
    if matches!(lower.as_str(), "count_distinct" | "countdistinct" | "sum_distinct" | "sumdistinct") {
        return FunctionStatus::NotAllowedOnStreams(DISTINCT_AGGREGATION_ERROR);
    }
    let aggregate = crate::plan::functions::AGGREGATES.iter().any(|a| a.0 == lower || a.0 == lower.replace('_', ""));
    if FRONTEND_FUNCTIONS.contains(&name) || crate::plan::functions::lookup(&lower).is_some() || aggregate {
        FunctionStatus::Supported
    } else {
        FunctionStatus::NotModelled
    }
}

/// A scalar function call checked against the function table
/// ([`crate::plan::functions::FAMILIES`]), shared by PySpark `F.*` and SQL strings.
///
/// # Errors
/// [`ParseError`] naming an unknown function or a wrong number of arguments.
pub fn scalar_function(name: &str, args: Vec<Expr>, span: Span) -> Result<Expr, ParseError> {
    let lower = canonical(&name.to_ascii_lowercase()).to_string();
    match lower.as_str() {
        "window_time" => {
            let mut args = args;
            if args.len() != 1 {
                return Err(ParseError::new("window_time() takes one window column", span));
            }
            return Ok(Expr::WindowTime(Box::new(args.remove(0))));
        }
        "isnull" | "isnotnull" => {
            let mut args = args;
            if args.len() != 1 {
                return Err(ParseError::new(format!("{name}() takes 1 argument, got {}", args.len()), span));
            }
            return Ok(Expr::IsNull(Box::new(args.remove(0)), lower == "isnotnull"));
        }
        _ => {}
    }
    let Some(def) = crate::plan::functions::lookup(&lower) else {
        let similar = crate::plan::functions::similar_names(&lower);
        let hint = if similar.is_empty() { String::new() } else { format!("; did you mean {}?", similar.join(", ")) };
        let message = format!("the function {name}() is not supported in Streamlab{hint}");
        // A real PySpark function the engine does not model is reported as unsupported.
        return Err(match pyspark_api::exists(ApiKind::Functions, name) {
            true => ParseError::not_modelled(format!("the function {lower}()"), message, span),
            false => ParseError::new(message, span),
        });
    };
    if args.len() < def.min_args || args.len() > def.max_args {
        let most = if def.max_args == usize::MAX { "any number of".to_string() } else { def.max_args.to_string() };
        return Err(ParseError::new(
            format!("[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `{}` requires {} to {most} parameters but the actual number is {}.", def.name, def.min_args, args.len()),
            span,
        ));
    }
    Ok(Expr::Function(def.name.to_string(), args))
}
