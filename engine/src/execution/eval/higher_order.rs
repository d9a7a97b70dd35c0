//! Evaluates the higher-order functions (`higherOrderFunctions.scala`): each lambda is run
//! once per element (or entry) with its parameters bound in the [`EvalContext`]'s lambda
//! scope. NULL collections give NULL; `exists`/`forall` follow three-valued logic.

use std::cmp::Ordering;
use std::rc::Rc;

use super::super::context::EvalContext;
use super::eval;
use crate::analysis::BoundExpr;
use crate::types::{Row, Value};

/// The value of higher-order function `name` over `args` (lambdas among them) for `row`.
pub fn call(name: &str, args: &[BoundExpr], row: &Row, cx: &EvalContext) -> Value {
    let lambdas: Vec<(&[Rc<str>], &BoundExpr)> = args
        .iter()
        .filter_map(|a| match a {
            BoundExpr::Lambda(p, body) => Some((p.as_slice(), body.as_ref())),
            _ => None,
        })
        .collect();
    let values: Vec<Value> = args.iter().filter(|a| !matches!(a, BoundExpr::Lambda(..))).map(|a| eval(a, row, cx)).collect();
    let Some(&(params, body)) = lambdas.first() else { return Value::Null };
    let apply = |vals: Vec<Value>| cx.with_lambda(params, vals, || eval(body, row, cx));
    let first = values.first().cloned().unwrap_or(Value::Null);
    match (name, first) {
        ("transform", Value::Array(items)) => Value::Array(items.iter().enumerate().map(|(i, x)| apply(vec![x.clone(), Value::Int(i as i32)])).collect()),
        ("filter", Value::Array(items)) => {
            Value::Array(items.iter().enumerate().filter(|(i, x)| matches!(apply(vec![(*x).clone(), Value::Int(*i as i32)]), Value::Bool(true))).map(|(_, x)| x.clone()).collect())
        }
        ("exists", Value::Array(items)) => {
            // TRUE if any is TRUE; else NULL if any is NULL; else FALSE.
            let mut saw_null = false;
            for x in items.iter() {
                match apply(vec![x.clone()]) {
                    Value::Bool(true) => return Value::Bool(true),
                    Value::Null => saw_null = true,
                    _ => {}
                }
            }
            if saw_null { Value::Null } else { Value::Bool(false) }
        }
        ("forall", Value::Array(items)) => {
            let mut saw_null = false;
            for x in items.iter() {
                match apply(vec![x.clone()]) {
                    Value::Bool(false) => return Value::Bool(false),
                    Value::Null => saw_null = true,
                    _ => {}
                }
            }
            if saw_null { Value::Null } else { Value::Bool(true) }
        }
        ("aggregate" | "reduce", Value::Array(items)) => {
            let mut acc = values.get(1).cloned().unwrap_or(Value::Null);
            for x in items.iter() {
                acc = apply(vec![acc, x.clone()]);
            }
            match lambdas.get(1) {
                Some(&(p, finish)) => cx.with_lambda(p, vec![acc], || eval(finish, row, cx)),
                None => acc,
            }
        }
        ("zip_with", Value::Array(a)) => match values.get(1) {
            Some(Value::Array(b)) => {
                let n = a.len().max(b.len());
                Value::Array((0..n).map(|i| apply(vec![a.get(i).cloned().unwrap_or(Value::Null), b.get(i).cloned().unwrap_or(Value::Null)])).collect())
            }
            _ => Value::Null,
        },
        ("array_sort", Value::Array(items)) => {
            // The comparator's int: negative, zero, positive (`ArraySort` with a function);
            // a NULL result fails in Spark, taken as equal here.
            let mut v = items.to_vec();
            v.sort_by(|x, y| match apply(vec![x.clone(), y.clone()]) {
                Value::Int(c) => c.cmp(&0),
                Value::Long(c) => c.cmp(&0),
                _ => Ordering::Equal,
            });
            Value::Array(v.into())
        }
        ("map_filter", Value::Map(m)) => Value::Map(m.iter().filter(|(k, v)| matches!(apply(vec![k.clone(), v.clone()]), Value::Bool(true))).cloned().collect()),
        ("transform_values", Value::Map(m)) => Value::Map(m.iter().map(|(k, v)| (k.clone(), apply(vec![k.clone(), v.clone()]))).collect()),
        ("transform_keys", Value::Map(m)) => {
            let mut out: Vec<(Value, Value)> = Vec::with_capacity(m.len());
            for (k, v) in m.iter() {
                let nk = apply(vec![k.clone(), v.clone()]);
                if nk.is_null() {
                    cx.raise("NULL_MAP_KEY", "Cannot use null as map key.".into());
                    return Value::Null;
                }
                if out.iter().any(|(x, _)| *x == nk) {
                    cx.raise(
                        "DUPLICATED_MAP_KEY",
                        format!("Duplicate map key {nk} was found, please check the input data. If you want to remove the duplicated keys, you can set \"spark.sql.mapKeyDedupPolicy\" to \"LAST_WIN\" so that the key inserted at last takes precedence."),
                    );
                    return Value::Null;
                }
                out.push((nk, v.clone()));
            }
            Value::Map(out.into())
        }
        ("map_zip_with", Value::Map(a)) => match values.get(1) {
            Some(Value::Map(b)) => {
                let mut keys: Vec<Value> = a.iter().map(|(k, _)| k.clone()).collect();
                keys.extend(b.iter().map(|(k, _)| k.clone()).filter(|k| !a.iter().any(|(x, _)| x == k)));
                let get = |m: &[(Value, Value)], k: &Value| m.iter().find(|(x, _)| x == k).map_or(Value::Null, |(_, v)| v.clone());
                Value::Map(keys.into_iter().map(|k| (k.clone(), apply(vec![k.clone(), get(&a, &k), get(b, &k)]))).collect())
            }
            _ => Value::Null,
        },
        _ => Value::Null,
    }
}
