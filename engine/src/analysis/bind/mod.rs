//! Expression binding and type coercion: an [`Expr`] against its input's attributes becomes
//! a [`BoundExpr`] with its result [`Attr`] (`ResolveReferences` for expressions, Spark's
//! `TypeCoercion` and `ImplicitTypeCasts` for arithmetic, functions and aggregates), and the
//! DDL schema strings that `from_json` and state schemas take.

mod higher_order;
mod special;

use super::naming::{pretty_name, struct_path};
use super::plan::{Attr, BoundAgg, BoundExpr};
use crate::error::{AnalysisError, Error, Stage};
use crate::plan::{AggFunc, BinOp, Expr};
use crate::types::{spark_type_name, timestamp_type, window_type, DataType, Value};

pub(super) type R<T> = Result<T, Error>;

/// An analysis error raised where the DataFrame is defined (`AnalysisException` in PySpark).
pub(crate) fn define_error(class: &str, msg: String) -> Error {
    Error::Analysis(AnalysisError::new(Stage::Define, class, msg))
}

pub(super) fn unresolved(name: &str, input: &[Attr]) -> Error {
    crate::analysis::suggest::unresolved_column(name, input)
}

/// Finds a column by name (case-insensitive, as `spark.sql.caseSensitive=false`).
pub fn find_column(name: &str, input: &[Attr]) -> R<usize> {
    let name = crate::plan::unmarked(name);
    let matches: Vec<usize> = input
        .iter()
        .enumerate()
        .filter(|(_, a)| a.name.eq_ignore_ascii_case(name))
        .map(|(i, _)| i)
        .collect();
    match matches.as_slice() {
        [i] => Ok(*i),
        // `c.post_id` / `clicks.post_id`: the column of that relation or alias.
        [] if name.contains('.') => {
            let (q, c) = name.rsplit_once('.').unwrap_or(("", name));
            let q = q.rsplit('.').next().unwrap_or(q);
            let qualified: Vec<usize> = input
                .iter()
                .enumerate()
                .filter(|(_, a)| a.name.eq_ignore_ascii_case(c) && a.qualifiers.iter().any(|x| x.eq_ignore_ascii_case(q)))
                .map(|(i, _)| i)
                .collect();
            match qualified.as_slice() {
                [i] => Ok(*i),
                // Not found under the qualifier: the column alone, else the error names what
                // was written (`` `c`.`usr_id` ``).
                _ => match find_column(c, input) {
                    Err(Error::Analysis(a)) if a.error_class.starts_with("UNRESOLVED_COLUMN") => Err(unresolved(name, input)),
                    other => other,
                },
            }
        }
        [] => Err(unresolved(name, input)),
        _ => Err(crate::analysis::suggest::ambiguous_reference(name, &matches.iter().map(|i| &input[*i]).collect::<Vec<_>>())),
    }
}

/// Binds an expression to `input`, returning it with its output column (name, type, metadata).
///
/// # Errors
/// Unresolved columns, and window/session expressions outside a projection or grouping.
pub fn bind(e: &Expr, input: &[Attr]) -> R<(BoundExpr, Attr)> {
    Ok(match e {
        // `o.amount`, `j.user.name`: `GetStructField` over each field of the path.
        Expr::Column(n) if struct_path(n, input).is_some() => {
            let (idx, fields, f) = struct_path(n, input).expect("checked");
            let bound = fields.into_iter().fold(BoundExpr::Col(idx), |inner, fi| BoundExpr::Field(Box::new(inner), fi));
            (bound, Attr::new(f.name().clone(), f.data_type().clone()))
        }
        Expr::Column(n) => {
            let idx = if let Some(i) = n.strip_prefix("\u{0}col") {
                i.parse::<usize>().map_err(|_| unresolved(n, input))?
            } else {
                find_column(n, input)?
            };
            let mut attr = input[idx].clone();
            // A DataFrame's own column from below `withWatermark` has no event-time tag.
            if n.starts_with(crate::plan::UNWATERMARKED) {
                attr.watermark_delay_ms = None;
            }
            (BoundExpr::Col(idx), attr)
        }
        Expr::Star => return Err(define_error("INVALID_USAGE_OF_STAR_OR_REGEX", "Invalid usage of '*' in expression.".into())),
        Expr::Literal(v) => {
            let t = match v {
                Value::Null => DataType::Null,
                Value::Bool(_) => DataType::Boolean,
                Value::Int(_) => DataType::Int32,
                Value::Long(_) => DataType::Int64,
                Value::Double(_) => DataType::Float64,
                Value::Str(_) => DataType::Utf8,
                Value::Timestamp(_) => timestamp_type(),
                Value::Struct(_) => window_type(),
                Value::Binary(_) => DataType::Binary,
                Value::Date(_) => DataType::Date32,
                Value::Array(_) => crate::types::array_type(DataType::Null),
                Value::Map(_) => crate::types::map_type(DataType::Null, DataType::Null),
            };
            (BoundExpr::Lit(v.clone()), Attr::new(pretty_name(e, input), t))
        }
        Expr::Interval(i) => (BoundExpr::Interval(*i), Attr::new(pretty_name(e, input), DataType::Interval(arrow_schema::IntervalUnit::MonthDayNano))),
        Expr::Alias(inner, name) => {
            let (b, a) = bind(inner, input)?;
            // An alias of a column keeps its event-time metadata; the new name has no
            // qualifier.
            (b, Attr { name: name.clone(), qualifiers: Vec::new(), sql_qualifier: None, ..a })
        }
        Expr::Binary(op, l, r) => {
            let (lb, la) = bind(l, input)?;
            let (rb, ra) = bind(r, input)?;
            let t = if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) {
                DataType::Boolean
            } else {
                arithmetic_type(*op, &la.data_type, &ra.data_type)
            };
            (BoundExpr::Binary(*op, Box::new(lb), Box::new(rb)), Attr::new(pretty_name(e, input), t))
        }
        Expr::Not(inner) => (BoundExpr::Not(Box::new(bind(inner, input)?.0)), Attr::new(pretty_name(e, input), DataType::Boolean)),
        Expr::Negate(inner) => {
            let (b, a) = bind(inner, input)?;
            (BoundExpr::Negate(Box::new(b)), Attr::new(pretty_name(e, input), a.data_type))
        }
        Expr::IsNull(inner, neg) => {
            (BoundExpr::IsNull(Box::new(bind(inner, input)?.0), *neg), Attr::new(pretty_name(e, input), DataType::Boolean))
        }
        Expr::Case { branches, otherwise } => {
            // The result type is the wider type of every branch value (`TypeCoercion`'s
            // `CaseWhenCoercion`); each value is cast to it.
            let mut conds = Vec::new();
            let mut values = Vec::new();
            for (c, v) in branches {
                conds.push(bind(c, input)?.0);
                values.push(bind(v, input)?);
            }
            if let Some(o) = otherwise {
                values.push(bind(o, input)?);
            }
            let types: Vec<DataType> = values.iter().map(|(_, a)| a.data_type.clone()).collect();
            let t = common_type(&types).ok_or_else(|| {
                define_error(
                    "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                    format!(
                        "Cannot resolve \"{e}\" due to data type mismatch: Input to `casewhen` should all be the same type, but it's [{}].",
                        types.iter().map(|t| format!("\"{}\"", spark_type_name(t).to_uppercase())).collect::<Vec<_>>().join(", ")
                    ),
                )
            })?;
            let mut values: Vec<BoundExpr> = values.into_iter().map(|(b, a)| coerce(b, &a.data_type, &t)).collect();
            let ob = otherwise.as_ref().map(|_| Box::new(values.pop().expect("otherwise bound")));
            let bb = conds.into_iter().zip(values).collect();
            (BoundExpr::Case { branches: bb, otherwise: ob }, Attr::new(pretty_name(e, input), t))
        }
        Expr::Cast(inner, t) => {
            let (b, a) = bind(inner, input)?;
            // A cast of a column keeps the column's name (`Column.cast` / `CAST(c AS INT)` in
            // selectExpr); a cast of anything else, a struct field included, is named by its
            // SQL text, `CAST(window.start AS BIGINT)`.
            let name = match b {
                BoundExpr::Col(_) => a.name,
                _ => pretty_name(e, input),
            };
            (BoundExpr::Cast(Box::new(b), t.clone()), Attr::new(name, t.clone()))
        }
        Expr::Function(name, _) if crate::plan::WINDOW_ONLY_FUNCTIONS.contains(&name.as_str()) => {
            return Err(define_error("WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE", format!("Window function \"{name}\" requires an OVER clause.")));
        }
        Expr::Function(name, args) if args.iter().any(|a| matches!(a, Expr::Lambda { .. })) => higher_order::bind_higher_order(name, args, e, input)?,
        Expr::Function(name, args) if name == "struct" && args.iter().any(|a| matches!(a, Expr::Star)) => {
            // `struct(*)`: every input column, by position.
            let mut expanded = Vec::new();
            for a in args {
                match a {
                    Expr::Star => expanded.extend((0..input.len()).map(|i| Expr::Column(format!("\u{0}col{i}")))),
                    other => expanded.push(other.clone()),
                }
            }
            let (b, at) = bind(&Expr::Function(name.clone(), expanded), input)?;
            (b, Attr::new(pretty_name(e, input), at.data_type))
        }
        Expr::Function(name, args) => {
            let mut bargs = Vec::new();
            let mut attrs = Vec::new();
            for a in args {
                let (b, at) = bind(a, input)?;
                bargs.push(b);
                attrs.push(at);
            }
            let types: Vec<DataType> = attrs.iter().map(|a| a.data_type.clone()).collect();
            if matches!(name.as_str(), "__desc" | "__asc") {
                return Err(define_error("UNSUPPORTED_EXPR", "asc()/desc() only make sense inside orderBy()".into()));
            }
            if let Some(bound) = special::bind_special(name, args, e, bargs.clone(), &attrs, input)? {
                return Ok(bound);
            }
            let t = function_type(name, e, &mut bargs, &types)?;
            (BoundExpr::Function(name.clone(), bargs), Attr::new(pretty_name(e, input), t))
        }
        Expr::WindowTime(inner) => {
            let (b, a) = bind(inner, input)?;
            if a.window.is_none() {
                return Err(define_error("_LEGACY_ERROR_TEMP_3101", format!("The input is not a correct window column: {e}")));
            }
            (
                BoundExpr::WindowTime(Box::new(b)),
                Attr { name: e.output_name(), data_type: timestamp_type(), watermark_delay_ms: a.watermark_delay_ms, window: None, qualifiers: Vec::new(), sql_qualifier: None },
            )
        }
        Expr::TimeWindow { .. } | Expr::SessionWindow { .. } => {
            return Err(Error::Unsupported("a window(...) outside select() or groupBy()".into()))
        }
        Expr::Agg { .. } => return Err(Error::Unsupported("an aggregate function outside groupBy().agg()".into())),
        Expr::Lambda { .. } => return Err(define_error("UNSUPPORTED_EXPR", format!("A lambda function ({e}) is an argument of a higher-order function such as transform or filter."))),
        Expr::LambdaVar(n, t) => (BoundExpr::LambdaVar(std::rc::Rc::from(n.as_str())), Attr::new(n.clone(), t.clone())),
        Expr::Over(_) => return Err(Error::Unsupported("a window function (OVER ...) outside select() or withColumn()".into())),
    })
}

/// A DDL schema string (`'order_id STRING, amount DOUBLE'`) as (name, type) pairs.
///
/// # Errors
/// A message saying what is wrong in the string.
pub fn parse_ddl_schema(ddl: &str) -> Result<Vec<(String, DataType)>, String> {
    parse_ddl(ddl).map_err(|e| match e {
        Error::Analysis(a) => a.message,
        other => other.to_string(),
    })
}

/// A DDL schema string: `'order_id STRING, amount DOUBLE, tags ARRAY<STRING>'`.
pub(super) fn parse_ddl(ddl: &str) -> R<Vec<(String, DataType)>> {
    crate::types::ddl::parse_schema(ddl).map_err(|m| define_error("PARSE_SYNTAX_ERROR", m))
}

/// Binds one aggregate call: its buffer and result type (Spark's `AggregateFunction`
/// `dataType`: count → bigint, sum of an integer → bigint, avg → double, collect_list →
/// array of the input, first/last/min/max/max_by → the input's type).
pub(super) fn bind_agg(call: &Expr, input: &[Attr]) -> R<(BoundAgg, DataType)> {
    let Expr::Agg { func, arg, by, distinct } = call else { unreachable!("bind_agg takes an aggregate call") };
    let (arg_b, input_type) = match arg.as_ref() {
        Expr::Star => (None, DataType::Null),
        a => {
            let (b, at) = bind(a, input)?;
            (Some(b), at.data_type)
        }
    };
    let by_b = by.as_ref().map(|b| bind(b, input).map(|x| x.0)).transpose()?;
    let result_type = match func {
        AggFunc::Count | AggFunc::ApproxCountDistinct { .. } | AggFunc::CountIf => DataType::Int64,
        AggFunc::Avg | AggFunc::Stddev { .. } | AggFunc::Variance { .. } => DataType::Float64,
        AggFunc::Sum => match input_type {
            DataType::Float64 => DataType::Float64,
            DataType::Int32 | DataType::Int64 | DataType::Null => DataType::Int64,
            ref other => {
                return Err(define_error(
                    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    format!("Cannot resolve \"{call}\" due to data type mismatch: The first parameter requires the \"NUMERIC\" type, however it has the type \"{}\".", spark_type_name(other).to_uppercase()),
                ))
            }
        },
        AggFunc::CollectList | AggFunc::CollectSet => crate::types::array_type(input_type.clone()),
        AggFunc::Min | AggFunc::Max | AggFunc::First { .. } | AggFunc::Last { .. } | AggFunc::MaxBy | AggFunc::MinBy => input_type.clone(),
    };
    Ok((BoundAgg { func: *func, arg: arg_b, by: by_b, input_type, distinct: *distinct }, result_type))
}

/// A string time column of `window` / `session_window` is cast to a timestamp
/// (`TimeWindow` and `SessionWindow` are `ImplicitCastInputTypes` over `AnyTimestampType`:
/// `window(cast(user_id as timestamp), ...)` in Spark's plan); a cast column has no event-time
/// tag.
pub(super) fn implicit_timestamp(b: BoundExpr, a: Attr) -> (BoundExpr, Attr) {
    if a.data_type != DataType::Utf8 {
        return (b, a);
    }
    (BoundExpr::Cast(Box::new(b), timestamp_type()), Attr { data_type: timestamp_type(), watermark_delay_ms: None, ..a })
}

/// The wider type of all `types` (NULL gives way), or `None` if two cannot meet.
pub(super) fn common_type(types: &[DataType]) -> Option<DataType> {
    types.iter().try_fold(DataType::Null, |acc, t| crate::plan::functions::wider_type(&acc, t))
}

/// `b` (of type `from`) cast to `to` when they differ (a NULL literal stays).
pub(super) fn coerce(b: BoundExpr, from: &DataType, to: &DataType) -> BoundExpr {
    if from == to || *from == DataType::Null || *to == DataType::Null {
        b
    } else {
        BoundExpr::Cast(Box::new(b), to.clone())
    }
}

/// The result type of a call by the function table's [`TypeRule`], casting the arguments the
/// rule coerces (`coalesce(int, bigint)`: both bigint).
///
/// [`TypeRule`]: crate::plan::functions::TypeRule
fn function_type(name: &str, e: &Expr, bargs: &mut [BoundExpr], types: &[DataType]) -> R<DataType> {
    use crate::plan::functions::{lookup, TypeRule};
    let Some(def) = lookup(name) else {
        return Err(Error::Unsupported(format!("the function {name}()")));
    };
    if crate::plan::functions::is_generator(name) {
        return Err(define_error(
            "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS",
            format!("The generator is not supported: nested in expressions \"{e}\"."),
        ));
    }
    let arg_type = |i: usize| types.get(i).cloned().unwrap_or(DataType::Null);
    Ok(match def.rule {
        TypeRule::Fixed(t) => t.data_type(),
        TypeRule::Arg(i) | TypeRule::Numeric(i) | TypeRule::SameArray(i) => match (name, arg_type(i)) {
            ("reverse", t @ DataType::List(_)) => t,
            ("reverse", _) => DataType::Utf8,
            (_, t) => t,
        },
        TypeRule::Element(i) => match arg_type(i) {
            DataType::List(f) => f.data_type().clone(),
            _ => DataType::Null,
        },
        TypeRule::WiderArray => {
            let t = common_type(types).ok_or_else(|| {
                define_error(
                    "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                    format!("Cannot resolve \"{e}\" due to data type mismatch: Input to `array` should all be the same type."),
                )
            })?;
            for (b, at) in bargs.iter_mut().zip(types) {
                let taken = std::mem::replace(b, BoundExpr::Lit(Value::Null));
                *b = coerce(taken, at, &t);
            }
            crate::types::array_type(if t == DataType::Null { DataType::Null } else { t })
        }
        TypeRule::Of(rule) => rule(types).map_err(|err| match err {
            crate::plan::functions::TypeError::Unsupported(what) => Error::Unsupported(what.into()),
            crate::plan::functions::TypeError::Param { param, requires } => unexpected_type(e, param, requires, &arg_type(param)),
        })?,
        TypeRule::Wider(from) => {
            let t = common_type(&types[from.min(types.len())..]).ok_or_else(|| {
                define_error(
                    "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                    format!(
                        "Cannot resolve \"{e}\" due to data type mismatch: Input to `{name}` should all be the same type, but it's [{}].",
                        types[from.min(types.len())..].iter().map(|t| format!("\"{}\"", spark_type_name(t).to_uppercase())).collect::<Vec<_>>().join(", ")
                    ),
                )
            })?;
            for (b, at) in bargs.iter_mut().zip(types).skip(from) {
                let taken = std::mem::replace(b, BoundExpr::Lit(Value::Null));
                *b = coerce(taken, at, &t);
            }
            t
        }
    })
}

fn arithmetic_type(op: BinOp, l: &DataType, r: &DataType) -> DataType {
    use DataType::*;
    match (l, r) {
        (Timestamp(..), Interval(_)) | (Interval(_), Timestamp(..)) => timestamp_type(),
        _ if op == BinOp::Div => Float64,
        (Float64, _) | (_, Float64) => Float64,
        (Int64, _) | (_, Int64) => Int64,
        (Int32, Int32) => Int32,
        (Utf8, _) | (_, Utf8) => Float64,
        _ => l.clone(),
    }
}

/// Spark's `DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE` for parameter `param` (0-based) of `call`.
pub(super) fn unexpected_type(call: &Expr, param: usize, requires: &str, got: &DataType) -> Error {
    let ordinal = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"].get(param).copied().unwrap_or("next");
    let arg = match call {
        Expr::Function(_, args) => args.get(param).map(|a| a.pretty_name()).unwrap_or_default(),
        _ => String::new(),
    };
    Error::Analysis(
        AnalysisError::new(
            Stage::Define,
            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
            format!(
                "Cannot resolve \"{}\" due to data type mismatch: The {ordinal} parameter requires the {requires} type, however \"{arg}\" has the type \"{}\".",
                call.pretty_text(false),
                spark_type_name(got).to_uppercase()
            ),
        )
        .with_sqlstate("42K09"),
    )
}

