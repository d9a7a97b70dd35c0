//! Functions whose result type depends on more than their arguments' types, bound here
//! rather than by the function table's rule: `struct` and `arrays_zip` (field names from the
//! argument names, `CreateStruct`, `ArraysZip`), `named_struct` (names from literals),
//! `from_json` (the schema argument), `to_json` (field names at run time), `typeof`
//! (a constant), `schema_of_json` (folded), `get_field` (a struct field).

use crate::analysis::plan::{Attr, BoundExpr};
use super::{define_error, parse_ddl, unexpected_type, R};
use crate::error::{AnalysisError, Error, Stage};
use crate::plan::Expr;
use crate::types::{array_type, spark_type_name, struct_type, DataType, Value};

/// Binds `name(args)` if it is one of this module's functions (`Ok(None)` otherwise). `bargs`
/// and `attrs` are the bound arguments and their columns; `input` is the operator's input (for
/// the derived column name, [`crate::analysis::naming::pretty_name`]).
pub(super) fn bind_special(name: &str, args: &[Expr], e: &Expr, bargs: Vec<BoundExpr>, attrs: &[Attr], input: &[Attr]) -> R<Option<(BoundExpr, Attr)>> {
    let out = |b: BoundExpr, t: DataType| Ok(Some((b, Attr::new(crate::analysis::naming::pretty_name(e, input), t))));
    match name {
        // `TRY_CAST(x AS t)`: the cast's own type, and its name as a cast's (a cast of a column
        // keeps the column's name: Spark 4.3 names `try_cast(code AS INT)` `code`).
        "try_cast" if matches!(args, [Expr::Cast(..)]) => {
            let name = match bargs.first() {
                Some(BoundExpr::Cast(child, _)) if matches!(**child, BoundExpr::Col(_)) => attrs[0].name.clone(),
                _ => crate::analysis::naming::pretty_name(e, input),
            };
            let t = attrs[0].data_type.clone();
            Ok(Some((BoundExpr::Function("try_cast".into(), bargs), Attr::new(name, t))))
        }
        "struct" => {
            // `CreateStruct`: a named argument (a column, an alias) names its field, anything
            // else is `col1`, `col2`, ... by position.
            let fields = args.iter().zip(attrs).enumerate().map(|(i, (a, at))| (field_name(a, at).unwrap_or_else(|| format!("col{}", i + 1)), at.data_type.clone())).collect();
            out(BoundExpr::Function("struct".into(), bargs), struct_type(fields))
        }
        "named_struct" => {
            if !args.len().is_multiple_of(2) {
                return Err(define_error(
                    "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                    format!("The `named_struct` requires 2n (n > 0) parameters but the actual number is {}. Please, refer to 'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.", args.len()),
                ));
            }
            let mut fields = Vec::new();
            let mut values = Vec::new();
            for (k, pair) in bargs.into_iter().zip(attrs).collect::<Vec<_>>().chunks(2).enumerate() {
                let BoundExpr::Lit(Value::Str(n)) = &pair[0].0 else {
                    return Err(define_error(
                        "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING",
                        format!("Cannot resolve \"{}\" due to data type mismatch: Only foldable `STRING` expressions are allowed to appear at odd position, but they are [\"{}\"].", e.pretty_name(), args[2 * k].pretty_name()),
                    ));
                };
                fields.push((n.to_string(), pair[1].1.data_type.clone()));
                values.push(pair[1].0.clone());
            }
            out(BoundExpr::Function("struct".into(), values), struct_type(fields))
        }
        "arrays_zip" => {
            // `ArraysZip`: fields named after named arguments, else by position "0", "1", ...
            let mut fields = Vec::new();
            for (i, (a, at)) in args.iter().zip(attrs).enumerate() {
                let DataType::List(el) = &at.data_type else { return Err(unexpected_type(e, i, "\"ARRAY\"", &at.data_type)) };
                fields.push((field_name(a, at).unwrap_or_else(|| i.to_string()), el.data_type().clone()));
            }
            out(BoundExpr::Function("arrays_zip".into(), bargs), array_type(struct_type(fields)))
        }
        // `assert_true(c)`: Spark's message names the condition.
        "assert_true" if bargs.len() == 1 => {
            let mut b = bargs;
            b.push(BoundExpr::Lit(Value::str(&format!("'{}' is not true!", args[0]))));
            out(BoundExpr::Function("assert_true".into(), b), DataType::Null)
        }
        // `Murmur3Hash`/`XxHash64` refuse maps (`spark.sql.legacy.allowHashOnMapType` false).
        "hash" | "xxhash64" if attrs.iter().any(|a| contains_map(&a.data_type)) => Err(mismatch(
            "DATATYPE_MISMATCH.HASH_MAP_TYPE",
            format!(
                "Cannot resolve \"{}\" due to data type mismatch: Input to the function `{name}` cannot contain elements of the \"MAP\" type. In Spark, same maps may have different hashcode, thus hash expressions are prohibited on \"MAP\" elements. To restore previous behavior set \"spark.sql.legacy.allowHashOnMapType\" to \"true\".",
                e.pretty_name()
            ),
        )),
        // `UnixDate` expects a DATE and casts nothing but a string to it.
        "unix_date" if !matches!(attrs[0].data_type, DataType::Date32 | DataType::Utf8 | DataType::Null) => Err(unexpected_type(e, 0, "\"DATE\"", &attrs[0].data_type)),
        "typeof" => out(BoundExpr::Lit(Value::str(&spark_type_name(&attrs[0].data_type))), DataType::Utf8),
        "from_json" => {
            let Some(BoundExpr::Lit(Value::Str(schema))) = bargs.get(1) else {
                return Err(Error::Analysis(
                    AnalysisError::new(
                        Stage::Define,
                        "INVALID_SCHEMA.NON_STRING_LITERAL",
                        format!("The input schema \"{}\" is not a valid schema string. The input expression must be string literal and not null.", args.get(1).map(Expr::pretty_name).unwrap_or_default()),
                    )
                    .with_sqlstate("42K07")
                    .with_hint("write the schema as a string such as 'order_id STRING, amount DOUBLE'"),
                ));
            };
            if attrs[0].data_type == DataType::Binary {
                return Err(Error::Analysis(
                    AnalysisError::new(
                        Stage::Define,
                        "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                        format!("Cannot resolve \"{e}\" due to data type mismatch: The first parameter requires the \"STRING\" type, however \"{}\" has the type \"BINARY\".", args[0]),
                    )
                    .with_sqlstate("42K09")
                    .with_hint("Kafka's value is bytes: write F.from_json(F.col('value').cast('string'), ...) or CAST(value AS STRING)"),
                ));
            }
            // A data type (`array<string>`, `map<string,int>`) or a schema of fields.
            let dt = match crate::types::ddl::parse_data_type(schema) {
                Ok(t @ (DataType::List(_) | DataType::Map(..) | DataType::Struct(_))) => t,
                _ => struct_type(parse_ddl(schema)?),
            };
            let arg = bargs.into_iter().next().expect("two args");
            out(BoundExpr::FromJson(Box::new(arg), dt.clone()), dt)
        }
        "to_json" => {
            let t = attrs[0].data_type.clone();
            if !matches!(t, DataType::Struct(_) | DataType::Map(..) | DataType::List(_)) {
                return Err(mismatch(
                    "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA",
                    format!("Cannot resolve \"{}\" due to data type mismatch: Input schema \"{}\" must be a struct, an array, a map or a variant.", e.pretty_name(), spark_type_name(&t).to_uppercase()),
                ));
            }
            let arg = bargs.into_iter().next().expect("one arg");
            out(BoundExpr::ToJson(Box::new(arg), t), DataType::Utf8)
        }
        "schema_of_json" => match bargs.first() {
            Some(BoundExpr::Lit(Value::Str(json))) => {
                let schema = crate::types::json::schema_of_json(json).ok_or_else(|| {
                    define_error("INVALID_JSON_SCHEMA", format!("Cannot infer a schema from the JSON text '{json}'."))
                })?;
                out(BoundExpr::Lit(Value::str(&schema)), DataType::Utf8)
            }
            _ => Err(define_error(
                "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                format!("Cannot resolve \"{}\" due to data type mismatch: the input `json` should be a foldable \"STRING\" expression; however, got \"{}\".", e.pretty_name(), args[0].pretty_name()),
            )),
        },
        "get_field" => {
            let field = match bargs.get(1) {
                Some(BoundExpr::Lit(Value::Str(f))) => f.to_string(),
                _ => return Err(define_error("FIELD_NOT_FOUND", "getField() takes a field name.".into())),
            };
            let DataType::Struct(fields) = &attrs[0].data_type else {
                return Err(define_error(
                    "INVALID_EXTRACT_BASE_FIELD_TYPE",
                    format!("Can't extract a value from \"{}\". Need a complex type [STRUCT, ARRAY, MAP] but got \"{}\".", args[0], spark_type_name(&attrs[0].data_type).to_uppercase()),
                ));
            };
            let Some(fi) = fields.iter().position(|f| f.name().eq_ignore_ascii_case(&field)) else {
                return Err(define_error(
                    "FIELD_NOT_FOUND",
                    format!("No such struct field `{field}` in {}.", fields.iter().map(|f| format!("`{}`", f.name())).collect::<Vec<_>>().join(", ")),
                ));
            };
            let ft = fields[fi].data_type().clone();
            let inner = bargs.into_iter().next().expect("two args");
            out(BoundExpr::Field(Box::new(inner), fi), ft)
        }
        _ => Ok(None),
    }
}

/// A define-time type error with Spark's SQLSTATE for data type mismatches.
fn mismatch(class: &str, message: String) -> Error {
    Error::Analysis(AnalysisError::new(Stage::Define, class, message).with_sqlstate("42K09"))
}

/// True if `t` is or holds a map.
fn contains_map(t: &DataType) -> bool {
    match t {
        DataType::Map(..) => true,
        DataType::List(f) => contains_map(f.data_type()),
        DataType::Struct(fields) => fields.iter().any(|f| contains_map(f.data_type())),
        _ => false,
    }
}

/// The name a named argument gives a struct field: a column's name or an alias.
fn field_name(a: &Expr, at: &Attr) -> Option<String> {
    match a {
        Expr::Column(_) | Expr::Alias(..) => Some(at.name.clone()),
        _ => None,
    }
}
