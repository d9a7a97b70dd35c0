//! Result-type rules computed from the argument types ([`TypeRule::Of`]), each after the
//! `dataType` of its Catalyst expression (`collectionOperations.scala`,
//! `complexTypeCreator.scala`, `mathExpressions.scala`, `arithmetic.scala`).
//!
//! [`TypeRule::Of`]: super::TypeRule::Of

use super::{wider_type, TypeError};
use crate::types::{array_type, map_key_value, map_type, struct_type, DataType};

type R = Result<DataType, TypeError>;

fn arg(types: &[DataType], i: usize) -> DataType {
    types.get(i).cloned().unwrap_or(DataType::Null)
}

fn element(types: &[DataType], i: usize) -> Result<DataType, TypeError> {
    match arg(types, i) {
        DataType::List(f) => Ok(f.data_type().clone()),
        DataType::Null => Ok(DataType::Null),
        _ => Err(TypeError::Param { param: i, requires: "\"ARRAY\"" }),
    }
}

fn map_kv(types: &[DataType], i: usize) -> Result<(DataType, DataType), TypeError> {
    match arg(types, i) {
        DataType::Null => Ok((DataType::Null, DataType::Null)),
        t => map_key_value(&t).map(|(k, v)| (k.clone(), v.clone())).ok_or(TypeError::Param { param: i, requires: "\"MAP\"" }),
    }
}

/// `ceil(x)`/`floor(x)`: `bigint` for a number; with a scale the result is a DECIMAL.
pub fn ceil_floor(types: &[DataType]) -> R {
    if types.len() > 1 {
        return Err(TypeError::Unsupported("ceil()/floor() with a scale (a DECIMAL result)"));
    }
    match arg(types, 0) {
        DataType::Int32 | DataType::Int64 | DataType::Float64 | DataType::Null | DataType::Utf8 => Ok(DataType::Int64),
        _ => Err(TypeError::Param { param: 0, requires: "(\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\")" }),
    }
}

/// `try_add(a, b)` and friends: the arithmetic's result type (the wider of two numbers).
pub fn try_arithmetic(types: &[DataType]) -> R {
    let (a, b) = (arg(types, 0), arg(types, 1));
    match (&a, &b) {
        (DataType::Date32, DataType::Int32 | DataType::Int64) => Ok(DataType::Date32),
        (DataType::Timestamp(..), _) => Ok(a),
        _ => match wider_type(&a, &b) {
            Some(DataType::Null) => Ok(DataType::Int32),
            Some(DataType::Utf8) => Ok(DataType::Float64),
            Some(t @ (DataType::Int32 | DataType::Int64 | DataType::Float64)) => Ok(t),
            _ => Err(TypeError::Param { param: 1, requires: "\"NUMERIC\"" }),
        },
    }
}

/// `shiftleft(x, n)`, `bitwise_not(x)`: `int` or `bigint` as the first argument.
pub fn integral0(types: &[DataType]) -> R {
    match arg(types, 0) {
        t @ (DataType::Int32 | DataType::Int64) => Ok(t),
        DataType::Null => Ok(DataType::Int32),
        _ => Err(TypeError::Param { param: 0, requires: "(\"INT\" or \"BIGINT\")" }),
    }
}

/// `zeroifnull(x)`: the argument's type (`int` for a NULL literal).
pub fn zeroifnull(types: &[DataType]) -> R {
    match arg(types, 0) {
        DataType::Null => Ok(DataType::Int32),
        t => Ok(t),
    }
}

/// `date_part(field, source)`: an int for every field but `SECOND` (a DECIMAL(8,6)).
pub fn date_part(_types: &[DataType]) -> R {
    Ok(DataType::Int32)
}

/// `concat(...)`: a string, or an array when every argument is an array.
pub fn concat(types: &[DataType]) -> R {
    if !types.is_empty() && types.iter().all(|t| matches!(t, DataType::List(_) | DataType::Null)) && types.iter().any(|t| matches!(t, DataType::List(_))) {
        let mut e = DataType::Null;
        for t in types {
            if let DataType::List(f) = t {
                e = wider_type(&e, f.data_type()).ok_or(TypeError::Param { param: 0, requires: "\"ARRAY\"" })?;
            }
        }
        return Ok(array_type(e));
    }
    Ok(DataType::Utf8)
}

/// `element_at(array, i)` → the element type; `element_at(map, k)` → the value type.
pub fn element_at(types: &[DataType]) -> R {
    match arg(types, 0) {
        DataType::List(f) => Ok(f.data_type().clone()),
        t @ DataType::Map(..) => Ok(map_key_value(&t).map(|(_, v)| v.clone()).unwrap_or(DataType::Null)),
        DataType::Null => Ok(DataType::Null),
        _ => Err(TypeError::Param { param: 0, requires: "(\"ARRAY\" or \"MAP\")" }),
    }
}

/// `array_append(arr, x)`: an array of the wider of the element and `x`.
pub fn array_with_element(types: &[DataType]) -> R {
    let e = element(types, 0)?;
    Ok(array_type(wider_type(&e, &arg(types, 1)).ok_or(TypeError::Param { param: 1, requires: "the array's element type" })?))
}

/// `array_insert(arr, pos, x)`.
pub fn array_insert(types: &[DataType]) -> R {
    let e = element(types, 0)?;
    Ok(array_type(wider_type(&e, &arg(types, 2)).ok_or(TypeError::Param { param: 2, requires: "the array's element type" })?))
}

/// `array_union(a, b)`: an array of the wider element type.
pub fn array_pair(types: &[DataType]) -> R {
    let (a, b) = (element(types, 0)?, element(types, 1)?);
    Ok(array_type(wider_type(&a, &b).ok_or(TypeError::Param { param: 1, requires: "an array of the first array's element type" })?))
}

/// `array_repeat(x, n)`: an array of `x`'s type.
pub fn array_of0(types: &[DataType]) -> R {
    Ok(array_type(arg(types, 0)))
}

/// `flatten(array<array<T>>)` → `array<T>`.
pub fn flatten(types: &[DataType]) -> R {
    match element(types, 0)? {
        inner @ DataType::List(_) => Ok(inner),
        DataType::Null => Ok(array_type(DataType::Null)),
        _ => Err(TypeError::Param { param: 0, requires: "\"ARRAY\" of \"ARRAY\"" }),
    }
}

/// `sequence(start, stop[, step])`: an array of the start's type (numbers, dates, timestamps).
pub fn sequence(types: &[DataType]) -> R {
    match wider_type(&arg(types, 0), &arg(types, 1)) {
        Some(t @ (DataType::Int32 | DataType::Int64 | DataType::Date32 | DataType::Timestamp(..))) => Ok(array_type(t)),
        _ => Err(TypeError::Param { param: 0, requires: "(\"INTEGRAL\" or \"TIMESTAMP\" or \"TIMESTAMP_NTZ\" or \"DATE\")" }),
    }
}

/// `map(k1, v1, k2, v2, ...)`: keys and values each of their wider type.
pub fn create_map(types: &[DataType]) -> R {
    let mut k = DataType::Null;
    let mut v = DataType::Null;
    for (i, t) in types.iter().enumerate() {
        let slot = if i % 2 == 0 { &mut k } else { &mut v };
        *slot = wider_type(slot, t).ok_or(TypeError::Param { param: i, requires: if i % 2 == 0 { "the same type as the other keys" } else { "the same type as the other values" } })?;
    }
    Ok(map_type(k, v))
}

/// `map_keys(m)` → `array<K>`.
pub fn map_keys(types: &[DataType]) -> R {
    Ok(array_type(map_kv(types, 0)?.0))
}

/// `map_values(m)` → `array<V>`.
pub fn map_values(types: &[DataType]) -> R {
    Ok(array_type(map_kv(types, 0)?.1))
}

/// `map_entries(m)` → `array<struct<key:K,value:V>>`.
pub fn map_entries(types: &[DataType]) -> R {
    let (k, v) = map_kv(types, 0)?;
    Ok(array_type(struct_type(vec![("key".into(), k), ("value".into(), v)])))
}

/// `map_from_arrays(keys, values)` → `map<K,V>`.
pub fn map_from_arrays(types: &[DataType]) -> R {
    Ok(map_type(element(types, 0)?, element(types, 1)?))
}

/// `map_from_entries(array<struct<k, v>>)` → `map<k,v>`.
pub fn map_from_entries(types: &[DataType]) -> R {
    match element(types, 0)? {
        DataType::Struct(f) if f.len() == 2 => Ok(map_type(f[0].data_type().clone(), f[1].data_type().clone())),
        _ => Err(TypeError::Param { param: 0, requires: "\"ARRAY\" of pair \"STRUCT\"" }),
    }
}

/// `map_concat(m1, m2, ...)`: the maps' wider key and value types.
pub fn map_concat(types: &[DataType]) -> R {
    let (mut k, mut v) = (DataType::Null, DataType::Null);
    for i in 0..types.len() {
        let (k2, v2) = map_kv(types, i)?;
        k = wider_type(&k, &k2).ok_or(TypeError::Param { param: i, requires: "\"MAP\" of the same key type" })?;
        v = wider_type(&v, &v2).ok_or(TypeError::Param { param: i, requires: "\"MAP\" of the same value type" })?;
    }
    Ok(map_type(k, v))
}
