//! Scalar function calls by name, shared by the PySpark interpreter (`F.*`) and SQL strings
//! (`F.expr`, `selectExpr`), checked against the function table
//! ([`crate::plan::functions`]) as Spark's `FunctionRegistry` lookup is.

use super::pyspark_api::{self, ApiKind};
use super::{ParseError, Span};
use crate::plan::Expr;

/// A scalar function call checked against the function table
/// ([`crate::plan::functions::FUNCTIONS`]), shared by PySpark `F.*` and SQL strings.
///
/// # Errors
/// [`ParseError`] naming an unknown function or a wrong number of arguments.
pub fn scalar_function(name: &str, args: Vec<Expr>, span: Span) -> Result<Expr, ParseError> {
    let lower = name.to_ascii_lowercase();
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
