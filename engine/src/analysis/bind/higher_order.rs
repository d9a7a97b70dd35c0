//! Higher-order functions (`higherOrderFunctions.scala`): `transform`, `filter`, `exists`,
//! `forall`, `aggregate`/`reduce`, `zip_with`, `array_sort` with a comparator, `map_filter`,
//! `map_zip_with`, `transform_keys`, `transform_values`. Their lambda arguments are bound
//! once the other arguments' types are known: each parameter becomes a typed
//! [`Expr::LambdaVar`] in the body (an inner lambda's parameter of the same name shadows it),
//! then the body is bound like any expression.

use crate::analysis::plan::{Attr, BoundExpr};
use super::{bind, define_error, unexpected_type, R};
use crate::plan::Expr;
use crate::types::{array_type, map_key_value, map_type, spark_type_name, DataType};

/// Binds a higher-order call `name(args)` whose arguments include a lambda.
pub(super) fn bind_higher_order(name: &str, args: &[Expr], e: &Expr, input: &[Attr]) -> R<(BoundExpr, Attr)> {
    let mut bound: Vec<Option<(BoundExpr, DataType)>> = Vec::new();
    for a in args {
        bound.push(match a {
            Expr::Lambda { .. } => None,
            other => {
                let (b, at) = bind(other, input)?;
                Some((b, at.data_type))
            }
        });
    }
    let types: Vec<DataType> = bound.iter().map(|b| b.as_ref().map_or(DataType::Null, |b| b.1.clone())).collect();
    let ty = |i: usize| types.get(i).cloned().unwrap_or(DataType::Null);
    let element = |i: usize| -> R<DataType> {
        match ty(i) {
            DataType::List(f) => Ok(f.data_type().clone()),
            DataType::Null => Ok(DataType::Null),
            other => Err(unexpected_type(e, i, "\"ARRAY\"", &other)),
        }
    };
    let key_value = |i: usize| -> R<(DataType, DataType)> {
        let t = ty(i);
        map_key_value(&t).map(|(k, v)| (k.clone(), v.clone())).ok_or_else(|| unexpected_type(e, i, "\"MAP\"", &t))
    };
    // The parameter types of the lambda at each position, by function.
    let param_types: Vec<Vec<DataType>> = match name {
        "transform" | "filter" | "exists" | "forall" => vec![vec![element(0)?, DataType::Int32]],
        "array_sort" => vec![vec![element(0)?, element(0)?]],
        "zip_with" => vec![vec![element(0)?, element(1)?]],
        "aggregate" | "reduce" => vec![vec![ty(1), element(0)?]],
        "map_filter" | "transform_keys" | "transform_values" => {
            let (k, v) = key_value(0)?;
            vec![vec![k, v]]
        }
        "map_zip_with" => {
            let ((k, v1), (_, v2)) = (key_value(0)?, key_value(1)?);
            vec![vec![k, v1, v2]]
        }
        _ => return Err(define_error("UNSUPPORTED_EXPR", format!("The function {name}() does not take a lambda function: {e}"))),
    };
    let mut out = Vec::new();
    let mut lambda_types: Vec<DataType> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        match a {
            Expr::Lambda { params, body } => {
                // `aggregate`'s second lambda (finish) takes the accumulator.
                let types = if lambda_types.is_empty() { param_types[0].clone() } else { vec![lambda_types[0].clone()] };
                if params.len() > types.len() || (params.len() < types.len() && !matches!(name, "transform" | "filter" | "exists" | "forall")) {
                    return Err(define_error(
                        "INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH",
                        format!("Invalid lambda function call. A higher order function expects {} arguments, but got {}.", types.len(), params.len()),
                    ));
                }
                let vars: Vec<(String, DataType)> = params.iter().cloned().zip(types).collect();
                let (b, at) = bind(&substitute(body, &vars), input)?;
                lambda_types.push(at.data_type);
                out.push(BoundExpr::Lambda(params.iter().map(|p| std::rc::Rc::from(p.as_str())).collect(), Box::new(b)));
            }
            _ => out.push(bound[i].take().map(|b| b.0).expect("bound above")),
        }
    }
    let body = lambda_types.first().cloned().unwrap_or(DataType::Null);
    let result = match name {
        "transform" | "zip_with" => array_type(body),
        "filter" | "array_sort" | "map_filter" => ty(0),
        "exists" | "forall" => DataType::Boolean,
        "aggregate" | "reduce" => {
            // `ArrayAggregate.checkInputDataTypes`: the merge must give the accumulator's type.
            let zero = ty(1);
            if zero != DataType::Null && body != zero {
                return Err(define_error(
                    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    format!(
                        "Cannot resolve \"{}\" due to data type mismatch: The third parameter requires the \"{}\" type, however \"{}\" has the type \"{}\".",
                        e.pretty_name(),
                        spark_type_name(&zero).to_uppercase(),
                        args[2].pretty_name(),
                        spark_type_name(&body).to_uppercase()
                    ),
                ));
            }
            lambda_types.get(1).cloned().unwrap_or(body)
        }
        "transform_keys" => map_type(body, key_value(0)?.1),
        "transform_values" | "map_zip_with" => map_type(key_value(0)?.0, body),
        _ => unreachable!("checked above"),
    };
    Ok((BoundExpr::Function(name.to_string(), out), Attr::new(crate::analysis::naming::pretty_name(e, input), result)))
}

/// `body` with each column named like a parameter in `vars` replaced by that typed lambda
/// variable, except inside an inner lambda that declares the same name.
fn substitute(body: &Expr, vars: &[(String, DataType)]) -> Expr {
    body.transform(&|x| match x {
        Expr::Column(n) => vars.iter().rev().find(|(p, _)| p.eq_ignore_ascii_case(n)).map(|(p, t)| Expr::LambdaVar(p.clone(), t.clone())),
        Expr::Lambda { params, body } => {
            let outer: Vec<(String, DataType)> = vars.iter().filter(|(p, _)| !params.iter().any(|q| q.eq_ignore_ascii_case(p))).cloned().collect();
            Some(Expr::Lambda { params: params.clone(), body: Box::new(substitute(body, &outer)) })
        }
        _ => None,
    })
}
