//! The schema Spark reports for a DataFrame (`df.schema`, `df.printSchema()`): each column's
//! type with its nullability, as the analyzed plan's `output` carries it.
//!
//! Spark derives `nullable` bottom up (`Expression.nullable`, `LogicalPlan.output`); the rules
//! here are the ones a streaming query meets, each checked on PySpark 4.3.0 (the cases in
//! `tests/pyspark_programs.rs`):
//! - a source's columns are nullable: a streaming file source reads its schema as nullable
//!   (`DataSource.sourceSchema`), and so do the rate, socket and Kafka sources and the lab's
//!   static tables (read from JSON);
//! - a stateful operator's output is nullable through and through (`asNullable`): streaming
//!   `Aggregate` (even `count`, which a batch query reports as not nullable), deduplication,
//!   `limit` and a stream-stream join;
//! - a projection keeps Spark's per-expression rule (below); a filter, a watermark and a sort
//!   pass their input's through; an outer join makes the padded side's columns nullable; a
//!   union's column is nullable where any input's is; a tumbling `window` is not nullable and a
//!   sliding one is (it is made by `Expand`).

use arrow_schema::{DataType, Field, Fields};
use std::sync::Arc;

use super::plan::{BoundExpr, Node, Plan};
use crate::plan::{BinOp, JoinType};
use crate::types::map_key_value;

/// The plan's output columns as Spark's `StructField`s: name, type (with the nullability of
/// nested fields, array elements and map values) and `nullable`.
pub fn output_fields(plan: &Plan) -> Vec<Field> {
    let named = |fields: Vec<Field>| -> Vec<Field> { fields.into_iter().zip(&plan.output).map(|(f, a)| f.with_name(a.name.clone())).collect() };
    match &plan.node {
        Node::Source { .. } | Node::Static { .. } => plan.output.iter().map(|a| Field::new(a.name.clone(), as_nullable(&a.data_type), true)).collect(),
        // An aggregation's result expressions: part of Spark's `Aggregate`, nullable as its
        // output is.
        Node::Project { aggregate_result: true, .. } => plan.output.iter().map(|a| Field::new(a.name.clone(), as_nullable(&a.data_type), true)).collect(),
        Node::Project { input, exprs, .. } => {
            let inputs = output_fields(input);
            exprs.iter().zip(&plan.output).map(|(e, a)| Field::new(a.name.clone(), shape(e, &a.data_type, &inputs), nullable(e, &inputs))).collect()
        }
        Node::Filter { input, .. } | Node::Watermark { input, .. } | Node::Sort { input, .. } | Node::CollectLimit { input, .. } => named(output_fields(input)),
        Node::TimeWindow { input, spec, .. } => {
            let mut fields = output_fields(input);
            // `TimeWindowing`: a tumbling window is a non-null struct (a projection); a sliding
            // one comes out of `Expand`, whose output is nullable.
            let sliding = spec.duration_us != spec.slide_us;
            if let Some(a) = plan.output.last() {
                fields.push(Field::new(a.name.clone(), as_nullable(&a.data_type), sliding));
            }
            named(fields)
        }
        Node::Aggregate { .. }
        | Node::Dedup { .. }
        | Node::Limit { .. }
        | Node::StreamJoin { .. }
        | Node::FlatMapGroupsWithState { .. }
        | Node::TransformWithState { .. }
        | Node::Window { .. } => plan.output.iter().map(|a| Field::new(a.name.clone(), as_nullable(&a.data_type), true)).collect(),
        Node::StaticJoin { left, right, join } => {
            let pad = |fields: Vec<Field>, padded: bool| -> Vec<Field> { fields.into_iter().map(|f| if padded { f.with_nullable(true) } else { f }).collect() };
            let left_padded = matches!(join.join_type, JoinType::RightOuter | JoinType::FullOuter);
            let right_padded = matches!(join.join_type, JoinType::LeftOuter | JoinType::FullOuter);
            let mut all = pad(output_fields(left), left_padded);
            all.extend(pad(output_fields(right), right_padded));
            named(join.output.iter().filter_map(|i| all.get(*i).cloned()).collect())
        }
        Node::Union { inputs } => {
            let each: Vec<Vec<Field>> = inputs.iter().map(output_fields).collect();
            let first = each.first().cloned().unwrap_or_default();
            named(first.into_iter().enumerate().map(|(i, f)| {
                let any = each.iter().any(|fields| fields.get(i).is_none_or(|g| g.is_nullable()));
                f.with_nullable(any)
            }).collect())
        }
        Node::Generate { input, generator, outer, position } => {
            let mut fields = output_fields(input);
            let width = fields.len();
            let generated = &plan.output[width.min(plan.output.len())..];
            let mut made = generated.iter();
            if *position {
                if let Some(a) = made.next() {
                    fields.push(Field::new(a.name.clone(), a.data_type.clone(), false));
                }
            }
            // `ExplodeBase.elementSchema`: an array's element is nullable as the array's
            // elements are; a map's key never is; `explode_outer` pads with NULL.
            let array_type = shape(generator, &DataType::List(Arc::new(Field::new("element", DataType::Null, true))), &fields[..width]);
            let element_nullable = match &array_type {
                DataType::List(f) => f.is_nullable(),
                _ => true,
            };
            let rest: Vec<&crate::analysis::Attr> = made.collect();
            match rest.as_slice() {
                [key, value] => {
                    fields.push(Field::new(key.name.clone(), key.data_type.clone(), *outer));
                    fields.push(Field::new(value.name.clone(), as_nullable(&value.data_type), true));
                }
                [element] => fields.push(Field::new(element.name.clone(), as_nullable(&element.data_type), element_nullable || *outer)),
                _ => {}
            }
            named(fields)
        }
    }
}

/// `df.printSchema()`'s text (`StructType.treeString`): `root`, then a line per field,
/// nested fields, array elements and map entries indented under theirs:
/// ```text
/// root
///  |-- window: struct (nullable = true)
///  |    |-- start: timestamp (nullable = true)
/// ```
/// With `max_depth` (`printSchema(level)`), the lines down to that depth (1: the top-level
/// fields only). Ends with a newline, as Spark's does (so Python's `print` leaves an empty line).
pub fn tree_string(fields: &[Field], max_depth: Option<usize>) -> String {
    let mut out = String::from("root\n");
    let lines = Lines { max_depth: max_depth.unwrap_or(usize::MAX) };
    for f in fields {
        lines.field(f, " |", 1, &mut out);
    }
    out
}

/// `StructField.buildFormattedString` and `DataType.buildFormattedString`, to a depth.
struct Lines {
    max_depth: usize,
}

impl Lines {
    fn field(&self, f: &Field, prefix: &str, depth: usize, out: &mut String) {
        if depth > self.max_depth {
            return;
        }
        out.push_str(&format!("{prefix}-- {}: {} (nullable = {})\n", f.name(), type_name(f.data_type()), f.is_nullable()));
        self.nested(f.data_type(), &format!("{prefix}    |"), depth + 1, out);
    }

    /// A struct's fields, an array's element, a map's key and value.
    fn nested(&self, dt: &DataType, prefix: &str, depth: usize, out: &mut String) {
        if depth > self.max_depth {
            return;
        }
        match dt {
            DataType::Struct(fields) => fields.iter().for_each(|f| self.field(f, prefix, depth, out)),
            DataType::List(e) => {
                out.push_str(&format!("{prefix}-- element: {} (containsNull = {})\n", type_name(e.data_type()), e.is_nullable()));
                self.nested(e.data_type(), &format!("{prefix}    |"), depth + 1, out);
            }
            DataType::Map(entries, _) => {
                if let (Some((k, v)), DataType::Struct(kv)) = (map_key_value(dt), entries.data_type()) {
                    out.push_str(&format!("{prefix}-- key: {}\n", type_name(k)));
                    self.nested(k, &format!("{prefix}    |"), depth + 1, out);
                    let value_nullable = kv.get(1).is_none_or(|f| f.is_nullable());
                    out.push_str(&format!("{prefix}-- value: {} (valueContainsNull = {value_nullable})\n", type_name(v)));
                    self.nested(v, &format!("{prefix}    |"), depth + 1, out);
                }
            }
            _ => {}
        }
    }
}

/// Spark's `DataType.typeName`, which `printSchema` writes: `long`, `integer`, `string`,
/// `struct` (not `simpleString`'s `bigint` / `int`).
fn type_name(dt: &DataType) -> String {
    match dt {
        DataType::Utf8 => "string".into(),
        DataType::Int64 => "long".into(),
        DataType::Int32 => "integer".into(),
        DataType::Int16 => "short".into(),
        DataType::Int8 => "byte".into(),
        DataType::Float32 => "float".into(),
        DataType::Float64 => "double".into(),
        DataType::Boolean => "boolean".into(),
        DataType::Timestamp(_, None) => "timestamp_ntz".into(),
        DataType::Timestamp(..) => "timestamp".into(),
        DataType::Date32 => "date".into(),
        DataType::Binary => "binary".into(),
        DataType::Null => "void".into(),
        DataType::Struct(_) => "struct".into(),
        DataType::List(_) => "array".into(),
        DataType::Map(..) => "map".into(),
        other => crate::types::spark_type_name(other),
    }
}

/// The type with every nested field, element and value nullable (`DataType.asNullable`).
fn as_nullable(dt: &DataType) -> DataType {
    match dt {
        DataType::Struct(fields) => DataType::Struct(fields.iter().map(|f| Field::new(f.name().clone(), as_nullable(f.data_type()), true)).collect::<Fields>()),
        DataType::List(e) => DataType::List(Arc::new(Field::new(e.name().clone(), as_nullable(e.data_type()), true))),
        DataType::Map(entries, sorted) => match entries.data_type() {
            DataType::Struct(kv) if kv.len() == 2 => {
                let key = Field::new(kv[0].name().clone(), as_nullable(kv[0].data_type()), false);
                let value = Field::new(kv[1].name().clone(), as_nullable(kv[1].data_type()), true);
                DataType::Map(Arc::new(Field::new(entries.name().clone(), DataType::Struct(Fields::from(vec![key, value])), false)), *sorted)
            }
            _ => dt.clone(),
        },
        other => other.clone(),
    }
}

/// A projected expression's type (`dt`, as resolved) with the nullability of what it nests:
/// a column's as its input has it; `split` gives non-null elements; `array(...)` and
/// `struct(...)` follow their arguments; anything else nests nullable values.
fn shape(e: &BoundExpr, dt: &DataType, inputs: &[Field]) -> DataType {
    match (e, dt) {
        (BoundExpr::Col(i), _) => inputs.get(*i).map_or_else(|| as_nullable(dt), |f| f.data_type().clone()),
        (BoundExpr::Function(name, args), DataType::List(element)) => {
            let contains_null = match name.as_str() {
                "split" => false,
                "array" => args.iter().any(|a| nullable(a, inputs)),
                _ => true,
            };
            DataType::List(Arc::new(Field::new(element.name().clone(), as_nullable(element.data_type()), contains_null)))
        }
        (BoundExpr::Function(name, args), DataType::Struct(fields)) if name == "struct" || name == "named_struct" => {
            // `named_struct(name1, value1, ...)`: the values at odd places.
            let values: Vec<&BoundExpr> = if name == "named_struct" { args.iter().skip(1).step_by(2).collect() } else { args.iter().collect() };
            DataType::Struct(
                fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| match values.get(i) {
                        Some(v) => Field::new(f.name().clone(), shape(v, f.data_type(), inputs), nullable(v, inputs)),
                        None => Field::new(f.name().clone(), as_nullable(f.data_type()), true),
                    })
                    .collect::<Fields>(),
            )
        }
        _ => as_nullable(dt),
    }
}

/// `Expression.nullable` for the expressions a projection holds.
fn nullable(e: &BoundExpr, inputs: &[Field]) -> bool {
    let n = |x: &BoundExpr| nullable(x, inputs);
    match e {
        BoundExpr::Col(i) => inputs.get(*i).is_none_or(|f| f.is_nullable()),
        BoundExpr::Lit(v) => v.is_null(),
        BoundExpr::Interval(_) => false,
        // `DivModLike.nullable`: a division by zero is NULL.
        BoundExpr::Binary(BinOp::Div | BinOp::Mod, ..) => true,
        BoundExpr::Binary(BinOp::EqNullSafe, ..) => false,
        BoundExpr::Binary(_, a, b) => n(a) || n(b),
        BoundExpr::Not(a) | BoundExpr::Negate(a) | BoundExpr::WindowTime(a) => n(a),
        BoundExpr::IsNull(..) => false,
        BoundExpr::Case { branches, otherwise } => branches.iter().any(|(_, v)| n(v)) || otherwise.as_ref().is_none_or(|o| n(o)),
        // `Cast.nullable`: text read as another type may not parse (`'x'` as an int is NULL).
        BoundExpr::Cast(a, to) => n(a) || (is_text(a, inputs) && *to != DataType::Utf8),
        BoundExpr::Field(a, i) => n(a) || field_of(a, *i, inputs).is_none_or(|f| f.is_nullable()),
        BoundExpr::FromJson(..) | BoundExpr::ToJson(..) | BoundExpr::Lambda(..) | BoundExpr::LambdaVar(_) => true,
        BoundExpr::Function(name, args) => match name.as_str() {
            // `Coalesce.nullable`: NULL only when every argument can be.
            "coalesce" | "nvl" | "ifnull" => args.iter().all(n),
            "current_timestamp" | "now" | "current_date" | "curdate" | "localtimestamp" | "current_timezone" | "monotonically_increasing_id" | "spark_partition_id" | "rand" | "randn" | "random" | "uuid" | "hash" | "xxhash64" | "struct" | "named_struct" | "array" | "map" | "create_map" | "concat_ws" | "isnan" | "input_file_name" => false,
            "to_json" | "from_json" | "get_json_object" | "json_tuple" | "element_at" | "to_date" | "to_timestamp" | "unix_timestamp" | "to_unix_timestamp" | "try_cast" | "try_divide" | "try_add" | "try_subtract" | "try_multiply" | "try_element_at" | "parse_url" | "from_unixtime" | "date_format" => true,
            _ => args.iter().any(n),
        },
    }
}

/// The field a struct expression's `i`th member has, where the struct is a column.
fn field_of(e: &BoundExpr, i: usize, inputs: &[Field]) -> Option<Field> {
    let BoundExpr::Col(c) = e else { return None };
    match inputs.get(*c)?.data_type() {
        DataType::Struct(fields) => fields.get(i).map(|f| f.as_ref().clone()),
        _ => None,
    }
}

/// The expression is text: a string literal or a string column.
fn is_text(e: &BoundExpr, inputs: &[Field]) -> bool {
    match e {
        BoundExpr::Lit(v) => matches!(v, crate::types::Value::Str(_)),
        BoundExpr::Col(i) => inputs.get(*i).is_some_and(|f| f.data_type() == &DataType::Utf8),
        _ => false,
    }
}
