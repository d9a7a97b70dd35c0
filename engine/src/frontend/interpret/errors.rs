//! The errors the evaluator raises as Python and PySpark word them: `TypeError`, `PySparkTypeError [NOT_EXPECTED_TYPE]`, `AttributeError` with the nearest names, `Column.__bool__`'s refusal.

use super::Py;
use crate::frontend::pyspark_api::{self, ApiKind};
use crate::frontend::{Catalog, ParseError, Span};
use crate::error::{AnalysisError, Error};
use crate::plan::{BinOp, Expr};
use crate::types::Value;

/// Gives an analysis error that has no place yet the place of the call that raised it: for
/// an unresolved column, the string literal among the call's arguments that names it
/// ([`crate::frontend::literal_naming`]); otherwise the call itself.
pub(super) fn placed(e: Error, source: &str, args: &[crate::frontend::python::Arg], call: Span) -> Error {
    let Error::Analysis(mut a) = e else { return e };
    if a.span.is_none() {
        let found = crate::frontend::unresolved_name(&a).and_then(|name| args.iter().find_map(|arg| crate::frontend::literal_naming(&arg.value, source, name)));
        a.span = Some(found.unwrap_or(call));
    }
    Error::Analysis(a)
}

pub(super) fn perr(msg: impl Into<String>, span: Span) -> Error {
    Error::Parse(ParseError::new(msg, span))
}

/// A Python `TypeError` (no Spark condition), as Python words it.
pub(super) fn type_error(msg: impl Into<String>, span: Span) -> Error {
    Error::Analysis(AnalysisError::python("TypeError", msg, span))
}

/// PySpark's own argument check, raised as `PySparkTypeError` before Spark sees the call:
/// `[NOT_EXPECTED_TYPE] Argument `subset` should be a list or tuple, got str.`
/// (`pyspark/errors/error-conditions.json`).
pub(super) fn not_expected(arg: &str, expected: &str, got: &Py, span: Span) -> Error {
    Error::Analysis(AnalysisError::new(crate::error::Stage::Define, "NOT_EXPECTED_TYPE", format!("Argument `{arg}` should be {expected}, got {}.", got.type_name())).with_span(span))
}

/// A method or function Streamlab does not handle: a PySpark API it does not model yet
/// (reported as such), or a name PySpark does not have either (Python's `AttributeError`,
/// with the nearest names PySpark has).
pub(super) fn unknown_api(kind: ApiKind, name: &str, span: Span) -> Error {
    let owner = match kind {
        ApiKind::Functions => "module 'pyspark.sql.functions'".to_string(),
        ApiKind::SparkSession => "'SparkSession' object".to_string(),
        ApiKind::Window => "type object 'Window'".to_string(),
        other => format!("'{}' object", other.prefix()),
    };
    if pyspark_api::exists(kind, name) {
        let feature = match kind {
            ApiKind::Functions => format!("the function {}()", name.to_ascii_lowercase()),
            other => format!("{}.{name}()", other.prefix()),
        };
        return Error::Parse(ParseError::not_modelled(feature.clone(), format!("{feature} is not modelled in Streamlab yet"), span));
    }
    let close = similar(kind, name);
    let hint = (!close.is_empty()).then(|| format!("did you mean {}?", close.join(", ")));
    // A DataFrame's unknown attribute is a column it does not have (`DataFrame.__getattr__`).
    let error = if kind == ApiKind::DataFrame {
        AnalysisError::pyspark("PySparkAttributeError", "ATTRIBUTE_NOT_SUPPORTED", format!("Attribute `{name}` is not supported."), span).with_sqlstate("0A000")
    } else {
        AnalysisError::python("AttributeError", format!("{owner} has no attribute '{name}'"), span)
    };
    Error::Analysis(match hint {
        Some(h) => error.with_hint(h),
        None => error,
    })
}

/// Names of `kind` close to `name` (same letters in another case, or one edit away).
pub(super) fn similar(kind: ApiKind, name: &str) -> Vec<&'static str> {
    let lower = name.to_ascii_lowercase();
    let mut out: Vec<&'static str> = kind.rows().iter().map(|a| a.name).filter(|n| n.to_ascii_lowercase() == lower || edit_distance_at_most_one(n, name)).collect();
    out.truncate(3);
    out
}

fn edit_distance_at_most_one(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 1 || a == b {
        return false;
    }
    let (mut i, mut j, mut edits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        edits += 1;
        if edits > 1 {
            return false;
        }
        match a.len().cmp(&b.len()) {
            std::cmp::Ordering::Greater => i += 1,
            std::cmp::Ordering::Less => j += 1,
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    edits + (a.len() - i) + (b.len() - j) <= 1
}

/// PySpark's refusal to use a Column as a Python truth value (`Column.__bool__`), naming the
/// column as Spark 4 prints it.
pub(super) fn cannot_convert_column_into_bool(e: &Expr, catalog: &Catalog, span: Span) -> Error {
    Error::Analysis(
        AnalysisError::pyspark(
            "PySparkValueError",
            "CANNOT_CONVERT_COLUMN_INTO_BOOL",
            format!("Cannot convert column into bool (offending column: {}): please use '&' for 'and', '|' for 'or', '~' for 'not' when building DataFrame boolean expressions.", column_node_text(e, catalog)),
            span,
        )
        .with_hint("Python's and/or/not/in ask a Column for True or False, which it cannot give: combine conditions with &, | and ~, each side in brackets: (F.col('a') > 1) & (F.col('b') < 2); use .isin(...) for 'in'"),
    )
}

/// `x in col`: PySpark's `Column.__contains__`.
pub(super) fn cannot_apply_in_for_column(span: Span) -> Error {
    Error::Analysis(AnalysisError::pyspark(
        "PySparkValueError",
        "CANNOT_APPLY_IN_FOR_COLUMN",
        "Cannot apply 'in' operator against a column: please use 'contains' in a string column or 'array_contains' function for an array column.",
        span,
    ))
}

/// Whether [`column_node_text`] writes `e` as Spark does: every node in it is one it knows.
pub(super) fn column_node_text_known(e: &Expr) -> bool {
    match e {
        Expr::Column(_) | Expr::Star | Expr::Literal(_) => true,
        Expr::Binary(_, l, r) => column_node_text_known(l) && column_node_text_known(r),
        Expr::Not(x) | Expr::Negate(x) | Expr::IsNull(x, _) | Expr::Alias(x, _) | Expr::Cast(x, _) => column_node_text_known(x),
        Expr::Function(_, args) => args.iter().all(column_node_text_known),
        _ => false,
    }
}

/// A Column as Spark 4 prints it in PySpark's messages (its `ColumnNode`): `>(a, 1)`,
/// `and(>(a, 1), <(b, 2))`, `!(a)`, `upper(a)`, `a AS b`, `CAST(a AS BIGINT)`, `'x'`. A column
/// taken from a DataFrame (`clicks.post_id`) prints as its name alone.
pub(super) fn column_node_text(e: &Expr, catalog: &Catalog) -> String {
    let text = |x: &Expr| column_node_text(x, catalog);
    let list = |args: &[Expr]| args.iter().map(text).collect::<Vec<_>>().join(", ");
    match e {
        Expr::Column(n) => match crate::plan::unmarked(n).split_once('.') {
            Some((relation, name)) if catalog.streams.contains_key(relation) || catalog.statics.contains_key(relation) => name.to_string(),
            _ => n.clone(),
        },
        Expr::Star => "*".into(),
        Expr::Literal(Value::Str(s)) => format!("'{s}'"),
        Expr::Literal(Value::Null) => "NULL".into(),
        Expr::Literal(v) => v.to_string(),
        Expr::Binary(op, l, r) => {
            let (l, r) = (text(l), text(r));
            match op {
                BinOp::NotEq => format!("!(=({l}, {r}))"),
                BinOp::And => format!("and({l}, {r})"),
                BinOp::Or => format!("or({l}, {r})"),
                BinOp::EqNullSafe => format!("<=>({l}, {r})"),
                BinOp::Eq => format!("=({l}, {r})"),
                other => format!("{}({l}, {r})", other.symbol()),
            }
        }
        Expr::Not(x) => format!("!({})", text(x)),
        Expr::Negate(x) => format!("-({})", text(x)),
        Expr::IsNull(x, negated) => format!("{}({})", if *negated { "isNotNull" } else { "isNull" }, text(x)),
        Expr::Alias(x, n) => format!("{} AS {n}", text(x)),
        Expr::Cast(x, t) => format!("CAST({} AS {})", text(x), crate::types::spark_type_name(t).to_ascii_uppercase()),
        Expr::Function(f, args) => format!("{f}({})", list(args)),
        other => other.to_string(),
    }
}
