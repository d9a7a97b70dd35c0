//! Array, map and struct functions (`collectionOperations.scala`, `complexTypeCreator.scala`,
//! `complexTypeExtractors.scala`): 1-based positions where Spark's are, elements compared as
//! SQL values, maps as entries in insertion order whose keys are distinct and never NULL
//! (`DUPLICATED_MAP_KEY`, `NULL_MAP_KEY` under the default `spark.sql.mapKeyDedupPolicy`).

use std::cmp::Ordering;
use std::rc::Rc;

use super::super::context::EvalContext;
use super::super::compare::compare;
use super::{arg, int, to_text};
use crate::types::Value;

/// The most elements `sequence` and `array_repeat` build (Spark's limit is 2^31 - 15).
const MAX_ELEMENTS: i64 = 1_000_000;

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    let first = arg(args, 0);
    let second = arg(args, 1);
    // Constructors and functions with their own NULL rules.
    match name {
        "array" => return Some(Value::Array(args.iter().cloned().collect())),
        "struct" => return Some(Value::Struct(args.iter().cloned().collect())),
        "map" | "create_map" => return Some(build_map(args.chunks(2).map(|p| (p[0].clone(), p.get(1).cloned().unwrap_or(Value::Null))), cx)),
        "array_append" | "array_prepend" => {
            let Value::Array(a) = first else { return Some(Value::Null) };
            let mut v = a.to_vec();
            if name == "array_append" { v.push(second.clone()) } else { v.insert(0, second.clone()) }
            return Some(Value::Array(v.into()));
        }
        "array_insert" => return Some(array_insert(first, arg(args, 1), arg(args, 2), cx)),
        "array_contains" => {
            let Value::Array(a) = first else { return Some(Value::Null) };
            if second.is_null() {
                return Some(Value::Null);
            }
            let found = a.iter().any(|x| eq(x, second));
            return Some(if found { Value::Bool(true) } else if a.iter().any(Value::is_null) { Value::Null } else { Value::Bool(false) });
        }
        "array_remove" => {
            let Value::Array(a) = first else { return Some(Value::Null) };
            if second.is_null() {
                return Some(Value::Null);
            }
            return Some(Value::Array(a.iter().filter(|x| !eq(x, second)).cloned().collect()));
        }
        "array_join" => {
            let (Value::Array(a), false) = (first, second.is_null()) else { return Some(Value::Null) };
            let replacement = args.get(2).filter(|r| !r.is_null()).map(|r| to_text(r, cx));
            let parts: Vec<String> = a.iter().filter_map(|x| if x.is_null() { replacement.clone() } else { Some(to_text(x, cx)) }).collect();
            return Some(Value::str(&parts.join(&to_text(second, cx))));
        }
        "arrays_zip" => {
            let arrays: Vec<Option<&Rc<[Value]>>> = args.iter().map(|a| if let Value::Array(x) = a { Some(x) } else { None }).collect();
            if arrays.iter().any(Option::is_none) {
                return Some(Value::Null);
            }
            let n = arrays.iter().flatten().map(|a| a.len()).max().unwrap_or(0);
            return Some(Value::Array((0..n).map(|i| Value::Struct(arrays.iter().flatten().map(|a| a.get(i).cloned().unwrap_or(Value::Null)).collect())).collect()));
        }
        "size" | "cardinality" | "array_size" => {
            return Some(match first {
                Value::Array(a) => Value::Int(a.len() as i32),
                Value::Map(m) if name != "array_size" => Value::Int(m.len() as i32),
                _ => Value::Null,
            })
        }
        "concat" => return None,
        _ => {}
    }
    if !is_collection(name) {
        return None;
    }
    if args.iter().any(Value::is_null) {
        return Some(Value::Null);
    }
    Some(match (name, first) {
        ("element_at" | "try_element_at", Value::Array(a)) => {
            let Some(i) = int(second) else { return Some(Value::Null) };
            if i == 0 {
                cx.raise("INVALID_INDEX_OF_ZERO", "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).".into());
                return Some(Value::Null);
            }
            let k = if i > 0 { i - 1 } else { a.len() as i64 + i };
            match usize::try_from(k).ok().and_then(|k| a.get(k)) {
                Some(v) => v.clone(),
                None if name == "element_at" => {
                    cx.raise(
                        "INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
                        format!("The index {i} is out of bounds. The array has {} elements. Use `try_element_at` to tolerate accessing element at invalid index and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.", a.len()),
                    );
                    Value::Null
                }
                None => Value::Null,
            }
        }
        ("element_at" | "try_element_at" | "get_item", Value::Map(m)) => m.iter().find(|(k, _)| eq(k, second)).map_or(Value::Null, |(_, v)| v.clone()),
        // `arr[i]` / `getItem(i)` (`GetArrayItem`, 0-based): ANSI mode fails the batch on an
        // index out of bounds; `get(arr, i)` gives NULL.
        ("get_item", Value::Array(a)) => match int(second) {
            Some(i) => match usize::try_from(i).ok().and_then(|k| a.get(k)) {
                Some(v) => v.clone(),
                None => {
                    cx.raise(
                        "INVALID_ARRAY_INDEX",
                        format!("The index {i} is out of bounds. The array has {} elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead.", a.len()),
                    );
                    Value::Null
                }
            },
            None => Value::Null,
        },
        ("get", Value::Array(a)) => int(second).and_then(|i| usize::try_from(i).ok()).and_then(|i| a.get(i)).cloned().unwrap_or(Value::Null),
        ("array_compact", Value::Array(a)) => Value::Array(a.iter().filter(|x| !x.is_null()).cloned().collect()),
        ("array_distinct", Value::Array(a)) => Value::Array(distinct(a.iter()).into()),
        ("array_union", Value::Array(a)) => match second {
            Value::Array(b) => Value::Array(distinct(a.iter().chain(b.iter())).into()),
            _ => Value::Null,
        },
        ("array_intersect", Value::Array(a)) => match second {
            Value::Array(b) => Value::Array(distinct(a.iter().filter(|x| b.iter().any(|y| same(x, y)))).into()),
            _ => Value::Null,
        },
        ("array_except", Value::Array(a)) => match second {
            Value::Array(b) => Value::Array(distinct(a.iter().filter(|x| !b.iter().any(|y| same(x, y)))).into()),
            _ => Value::Null,
        },
        ("arrays_overlap", Value::Array(a)) => match second {
            Value::Array(b) => {
                if a.iter().any(|x| !x.is_null() && b.iter().any(|y| eq(x, y))) {
                    Value::Bool(true)
                } else if !a.is_empty() && !b.is_empty() && (a.iter().any(Value::is_null) || b.iter().any(Value::is_null)) {
                    Value::Null
                } else {
                    Value::Bool(false)
                }
            }
            _ => Value::Null,
        },
        ("array_max" | "array_min", Value::Array(a)) => {
            let want = if name == "array_max" { Ordering::Greater } else { Ordering::Less };
            a.iter().filter(|x| !x.is_null()).fold(None::<&Value>, |best, x| match best {
                Some(b) if compare(x, b) != Some(want) => Some(b),
                _ => Some(x),
            }).cloned().unwrap_or(Value::Null)
        }
        ("array_position", Value::Array(a)) => Value::Long(a.iter().position(|x| eq(x, second)).map_or(0, |i| i as i64 + 1)),
        ("array_repeat", x) => {
            let k = int(second).unwrap_or(0).clamp(0, MAX_ELEMENTS) as usize;
            Value::Array(std::iter::repeat_n(x.clone(), k).collect())
        }
        ("sort_array", Value::Array(a)) => {
            let asc = !matches!(args.get(1), Some(Value::Bool(false)));
            let mut v = a.to_vec();
            // NULLs first ascending, last descending.
            v.sort_by(sql_order);
            if !asc {
                v.reverse();
            }
            Value::Array(v.into())
        }
        ("array_sort", Value::Array(a)) => {
            let mut v = a.to_vec();
            // NULLs last.
            v.sort_by(|x, y| match (x.is_null(), y.is_null()) {
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ => sql_order(x, y),
            });
            Value::Array(v.into())
        }
        ("slice", Value::Array(a)) => {
            let (Some(start), Some(len)) = (int(second), int(arg(args, 2))) else { return Some(Value::Null) };
            if start == 0 {
                cx.raise("INVALID_PARAMETER_VALUE.START", "The value of parameter(s) `start` in `slice` is invalid: Expects a positive or a negative value for `start`, but got 0.".into());
                return Some(Value::Null);
            }
            if len < 0 {
                cx.raise("INVALID_PARAMETER_VALUE.LENGTH", format!("The value of parameter(s) `length` in `slice` is invalid: Expects `length` greater than or equal to 0, but got {len}."));
                return Some(Value::Null);
            }
            let s = if start > 0 { start - 1 } else { a.len() as i64 + start };
            if s < 0 || s >= a.len() as i64 {
                return Some(super::empty_array());
            }
            let e = s.saturating_add(len).min(a.len() as i64);
            Value::Array(a[s as usize..e as usize].to_vec().into())
        }
        ("flatten", Value::Array(a)) => {
            let mut out = Vec::new();
            for inner in a.iter() {
                match inner {
                    Value::Array(x) => out.extend(x.iter().cloned()),
                    _ => return Some(Value::Null),
                }
            }
            Value::Array(out.into())
        }
        ("sequence", start) => sequence(start, second, args.get(2), cx),
        ("map_keys", Value::Map(m)) => Value::Array(m.iter().map(|(k, _)| k.clone()).collect()),
        ("map_values", Value::Map(m)) => Value::Array(m.iter().map(|(_, v)| v.clone()).collect()),
        ("map_entries", Value::Map(m)) => Value::Array(m.iter().map(|(k, v)| Value::Struct(Rc::from(vec![k.clone(), v.clone()]))).collect()),
        ("map_contains_key", Value::Map(m)) => Value::Bool(m.iter().any(|(k, _)| eq(k, second))),
        ("map_from_arrays", Value::Array(keys)) => match second {
            Value::Array(values) if values.len() == keys.len() => build_map(keys.iter().cloned().zip(values.iter().cloned()), cx),
            Value::Array(_) => {
                cx.raise("INVALID_PARAMETER_VALUE.MAP_FROM_ARRAYS_LENGTH", "The value of parameter(s) `keys, values` in `map_from_arrays` is invalid: The key array and value array should have the same length.".into());
                Value::Null
            }
            _ => Value::Null,
        },
        ("map_from_entries", Value::Array(entries)) => {
            let mut pairs = Vec::new();
            for e in entries.iter() {
                match e {
                    Value::Struct(f) if f.len() == 2 => pairs.push((f[0].clone(), f[1].clone())),
                    _ => return Some(Value::Null),
                }
            }
            build_map(pairs.into_iter(), cx)
        }
        ("map_concat", _) => {
            let mut pairs = Vec::new();
            for m in args {
                if let Value::Map(m) = m {
                    pairs.extend(m.iter().cloned());
                }
            }
            build_map(pairs.into_iter(), cx)
        }
        ("str_to_map", _) => {
            let text = to_text(first, cx);
            let pair_delim = args.get(1).map_or(",".to_string(), |v| to_text(v, cx));
            let kv_delim = args.get(2).map_or(":".to_string(), |v| to_text(v, cx));
            let (Some(pr), Some(kr)) = (super::super::like::compiled(&pair_delim), super::super::like::compiled(&kv_delim)) else { return Some(Value::Null) };
            let pairs = pr.split(&text).map(|p| {
                let mut kv = kr.splitn(p, 2);
                (Value::str(kv.next().unwrap_or("")), kv.next().map_or(Value::Null, Value::str))
            });
            build_map(pairs.collect::<Vec<_>>().into_iter(), cx)
        }
        _ => Value::Null,
    })
}

fn is_collection(name: &str) -> bool {
    matches!(
        name,
        "element_at" | "try_element_at" | "get_item" | "get" | "array_compact" | "array_distinct" | "array_union" | "array_intersect" | "array_except"
            | "arrays_overlap" | "array_max" | "array_min" | "array_position" | "array_repeat" | "sort_array" | "array_sort" | "slice" | "flatten" | "sequence"
            | "map_keys" | "map_values" | "map_entries" | "map_contains_key" | "map_from_arrays" | "map_from_entries" | "map_concat" | "str_to_map"
    )
}

/// SQL equality of two values (NULL equals nothing).
fn eq(a: &Value, b: &Value) -> bool {
    !a.is_null() && !b.is_null() && compare(a, b) == Some(Ordering::Equal)
}

/// Equality for set operations: NULL is one value.
fn same(a: &Value, b: &Value) -> bool {
    (a.is_null() && b.is_null()) || eq(a, b)
}

fn distinct<'a>(items: impl Iterator<Item = &'a Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for x in items {
        if !out.iter().any(|y| same(x, y)) {
            out.push(x.clone());
        }
    }
    out
}

/// Spark's ordering of values: NULL first, numbers by value, NaN largest.
fn sql_order(a: &Value, b: &Value) -> Ordering {
    match (a.is_null(), b.is_null()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => compare(a, b).unwrap_or_else(|| a.cmp(b)),
    }
}

/// A map from (key, value) pairs: a NULL key or a repeated key fails the batch.
fn build_map(pairs: impl Iterator<Item = (Value, Value)>, cx: &EvalContext) -> Value {
    let mut out: Vec<(Value, Value)> = Vec::new();
    for (k, v) in pairs {
        if k.is_null() {
            cx.raise("NULL_MAP_KEY", "Cannot use null as map key.".into());
            return Value::Null;
        }
        if out.iter().any(|(x, _)| eq(x, &k)) {
            cx.raise(
                "DUPLICATED_MAP_KEY",
                format!("Duplicate map key {} was found, please check the input data. If you want to remove the duplicated keys, you can set \"spark.sql.mapKeyDedupPolicy\" to \"LAST_WIN\" so that the key inserted at last takes precedence.", to_text(&k, cx)),
            );
            return Value::Null;
        }
        out.push((k, v));
    }
    Value::Map(out.into())
}

/// `array_insert(arr, pos, x)`: 1-based; negative counts from the end (-1 appends); past the
/// end pads with NULLs.
fn array_insert(a: &Value, pos: &Value, x: &Value, cx: &EvalContext) -> Value {
    let (Value::Array(a), Some(p)) = (a, int(pos)) else { return Value::Null };
    if p == 0 {
        cx.raise("INVALID_INDEX_OF_ZERO", "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).".into());
        return Value::Null;
    }
    let mut v = a.to_vec();
    let n = v.len() as i64;
    if p > 0 {
        let i = p - 1;
        if i > MAX_ELEMENTS {
            return Value::Null;
        }
        while (v.len() as i64) < i {
            v.push(Value::Null);
        }
        v.insert(i as usize, x.clone());
    } else {
        let i = n.saturating_add(p).saturating_add(1);
        if i >= 0 {
            v.insert(i as usize, x.clone());
        } else {
            if i < -MAX_ELEMENTS {
                return Value::Null;
            }
            let mut out = vec![x.clone()];
            out.extend(std::iter::repeat_n(Value::Null, (-i) as usize));
            out.extend(v);
            v = out;
        }
    }
    Value::Array(v.into())
}

/// `sequence(start, stop[, step])` for whole numbers and dates (step in days).
fn sequence(start: &Value, stop: &Value, step: Option<&Value>, cx: &EvalContext) -> Value {
    let (Some(a), Some(b)) = (int_or_day(start), int_or_day(stop)) else { return Value::Null };
    let step = match step {
        Some(s) => match int(s) {
            Some(s) => s,
            None => return Value::Null,
        },
        None => if a <= b { 1 } else { -1 },
    };
    if step == 0 || (step > 0 && a > b) || (step < 0 && a < b) {
        if a == b {
            return Value::Array(vec![start.clone()].into());
        }
        cx.raise(
            "INVALID_SEQUENCE_STEP",
            "Illegal sequence boundaries: The step must be positive for an ascending sequence or negative for a descending one, and non-zero.".into(),
        );
        return Value::Null;
    }
    let count = (i128::from(b) - i128::from(a)) / i128::from(step) + 1;
    if count > i128::from(MAX_ELEMENTS) {
        cx.raise("COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER", format!("Can't create array with {count} elements (Streamlab allows {MAX_ELEMENTS})."));
        return Value::Null;
    }
    let make = |x: i64| match start {
        Value::Int(_) => Value::Int(x as i32),
        Value::Date(_) => Value::Date(x as i32),
        _ => Value::Long(x),
    };
    Value::Array((0..count as i64).map(|k| make(a.saturating_add(k.saturating_mul(step)))).collect())
}

fn int_or_day(v: &Value) -> Option<i64> {
    match v {
        Value::Date(d) => Some(i64::from(*d)),
        other => int(other),
    }
}
