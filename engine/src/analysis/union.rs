//! Resolving a `Union`: `union` / `unionAll` by position and `unionByName` (with
//! `allowMissingColumns`).
//!
//! Mirrors three pieces of Catalyst: `ResolveUnion` (`unionByName` reorders the second input's
//! columns by name; with `allowMissingColumns` a column one side lacks becomes a NULL of the
//! other side's type, the second input's extra columns going last),
//! `WidenSetOperationTypes` (each column becomes the wider type of its inputs, ANSI rules:
//! an `int` next to a `bigint` is a `bigint`, a `string` next to a number that number widened
//! to at least `bigint`; an input whose column differs gets a projection
//! `Alias(Cast(col, wider), name)`) and `Union.output` (`basicLogicalOperators.scala`: the
//! output attributes are the *first* input's, so only the first input's metadata — the
//! event-time watermark tag `spark.watermarkDelayMs` — reaches the operators above, and a
//! widened column, being an `Alias` of a `Cast`, carries none).

use super::plan::{Attr, BoundExpr, Node, Plan};
use crate::error::{AnalysisError, Error, Stage};
use crate::plan::functions::wider_type;
use crate::types::{sql_type_name, DataType, Value};

type R<T> = Result<T, Error>;

/// Resolves the union of `plans` (at least one): by name first when `by_name`, then by
/// position with every column widened to its inputs' wider type.
///
/// # Errors
/// Spark's define-time errors: `COLUMN_ALREADY_EXISTS`, `UNRESOLVED_COLUMN_AMONG_FIELD_NAMES`
/// (by name), `NUM_COLUMNS_MISMATCH`, `INCOMPATIBLE_COLUMN_TYPE`.
pub fn union(plans: Vec<Plan>, by_name: bool, allow_missing_columns: bool) -> R<Plan> {
    if !by_name {
        return by_position(plans);
    }
    let mut it = plans.into_iter();
    let mut acc = it.next().expect("a union has inputs");
    for right in it {
        let (l, r) = align_by_name(acc, right, allow_missing_columns)?;
        acc = by_position(vec![l, r])?;
    }
    Ok(acc)
}

fn error(class: &str, sqlstate: &'static str, msg: String) -> Error {
    Error::Analysis(AnalysisError::new(Stage::Define, class, msg).with_sqlstate(sqlstate))
}

/// `ordinalNumber`: `first`, `second`, `third`, then `4th`, `5th`, ...
fn ordinal(i: usize) -> String {
    match i {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        n => format!("{}th", n + 1),
    }
}

/// A projection of `input` computing `items` (expression, output column).
fn project(input: Plan, items: Vec<(BoundExpr, Attr)>) -> Plan {
    let (exprs, output): (Vec<_>, Vec<_>) = items.into_iter().unzip();
    let streaming = input.streaming;
    Plan { node: Node::Project { input: Box::new(input), exprs, aggregate_result: false }, output, streaming }
}

/// `SchemaUtils.checkColumnNameDuplication` (case-insensitive).
fn check_duplicates(p: &Plan) -> R<()> {
    for (i, a) in p.output.iter().enumerate() {
        if p.output[..i].iter().any(|b| b.name.eq_ignore_ascii_case(&a.name)) {
            return Err(error(
                "COLUMN_ALREADY_EXISTS",
                "42711",
                format!("The column `{}` already exists. Choose another name or rename the existing column.", a.name.to_lowercase()),
            ));
        }
    }
    Ok(())
}

/// `ResolveUnion` for `unionByName`: the right input's columns in the left input's order.
/// With `allow_missing`, a left column the right lacks is a NULL on the right, and a right
/// column the left lacks is appended to both (a NULL on the left).
fn align_by_name(left: Plan, right: Plan, allow_missing: bool) -> R<(Plan, Plan)> {
    check_duplicates(&left)?;
    check_duplicates(&right)?;
    let null = |a: &Attr| (BoundExpr::Lit(Value::Null), Attr::new(a.name.clone(), a.data_type.clone()));
    let mut right_items = Vec::new();
    for a in &left.output {
        match right.output.iter().position(|b| b.name.eq_ignore_ascii_case(&a.name)) {
            Some(j) => right_items.push((BoundExpr::Col(j), right.output[j].clone())),
            None if allow_missing => right_items.push(null(a)),
            None => {
                let names: Vec<&str> = right.output.iter().map(|b| b.name.as_str()).collect();
                return Err(error(
                    "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES",
                    "42703",
                    format!("Cannot resolve column name \"{}\" among ({}).", a.name, names.join(", ")),
                ));
            }
        }
    }
    let extra: Vec<usize> = (0..right.output.len()).filter(|&j| !left.output.iter().any(|a| a.name.eq_ignore_ascii_case(&right.output[j].name))).collect();
    right_items.extend(extra.iter().map(|&j| (BoundExpr::Col(j), right.output[j].clone())));
    let left = if allow_missing && !extra.is_empty() {
        let mut items: Vec<(BoundExpr, Attr)> = left.output.iter().enumerate().map(|(i, a)| (BoundExpr::Col(i), a.clone())).collect();
        items.extend(extra.iter().map(|&j| null(&right.output[j])));
        project(left, items)
    } else {
        left
    };
    Ok((left, project(right, right_items)))
}

/// A positional union: same column count, each column widened (`WidenSetOperationTypes`),
/// the output the first input's columns.
fn by_position(plans: Vec<Plan>) -> R<Plan> {
    let first: Vec<DataType> = plans[0].output.iter().map(|a| a.data_type.clone()).collect();
    for (ti, p) in plans.iter().enumerate().skip(1) {
        if p.output.len() != first.len() {
            return Err(error(
                "NUM_COLUMNS_MISMATCH",
                "42826",
                format!(
                    "UNION can only be performed on inputs with the same number of columns, but the first input has {} columns and the {} input has {} columns.",
                    first.len(),
                    ordinal(ti),
                    p.output.len()
                ),
            ));
        }
    }
    let widest: Option<Vec<DataType>> = (0..first.len())
        .map(|c| plans.iter().skip(1).try_fold(first[c].clone(), |acc, p| wider_type(&acc, &p.output[c].data_type)))
        .collect();
    let Some(widest) = widest else {
        // No cast is added when one column cannot be widened, so `CheckAnalysis` reports the
        // first column (input by input) whose type differs from the first input's at all.
        for (ti, p) in plans.iter().enumerate().skip(1) {
            for (ci, a) in p.output.iter().enumerate() {
                if !same_type(&a.data_type, &first[ci]) {
                    return Err(error(
                        "INCOMPATIBLE_COLUMN_TYPE",
                        "42825",
                        format!(
                            "UNION can only be performed on tables with compatible column types. The {} column of the {} table is \"{}\" type which is not compatible with \"{}\" at the same column of the first table..",
                            ordinal(ci),
                            ordinal(ti),
                            sql_type_name(&a.data_type),
                            sql_type_name(&first[ci])
                        ),
                    ));
                }
            }
        }
        unreachable!("wider_type meets equal types")
    };
    let plans: Vec<Plan> = plans.into_iter().map(|p| widen(p, &widest)).collect();
    let output = plans[0].output.clone();
    let streaming = plans.iter().any(|p| p.streaming);
    Ok(Plan { node: Node::Union { inputs: plans }, output, streaming })
}

/// Types equal but for nullability and field-name case (`DataType.equalsStructurally`).
fn same_type(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
        (DataType::List(x), DataType::List(y)) => same_type(x.data_type(), y.data_type()),
        (DataType::Struct(x), DataType::Struct(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(f, g)| same_type(f.data_type(), g.data_type())),
        (DataType::Timestamp(..), DataType::Timestamp(..)) => true,
        _ => a == b,
    }
}

/// `p` with each column whose type is not `types`' cast to it (`Alias(Cast(c, t), c.name)`:
/// no metadata, no qualifier), or `p` itself when every type already matches.
fn widen(p: Plan, types: &[DataType]) -> Plan {
    if p.output.iter().zip(types).all(|(a, t)| same_type(&a.data_type, t)) {
        return p;
    }
    let items = p
        .output
        .iter()
        .zip(types)
        .enumerate()
        .map(|(i, (a, t))| {
            if same_type(&a.data_type, t) {
                (BoundExpr::Col(i), a.clone())
            } else if a.data_type == DataType::Null {
                (BoundExpr::Lit(Value::Null), Attr::new(a.name.clone(), t.clone()))
            } else {
                (BoundExpr::Cast(Box::new(BoundExpr::Col(i)), t.clone()), Attr::new(a.name.clone(), t.clone()))
            }
        })
        .collect();
    project(p, items)
}
