//! Typed rows ↔ Arrow `RecordBatch`es: how every source stores its blocks, how the row-wise
//! operators read them back and how the columnar path (`execution::columnar`) reads one cell.
//! Timestamps are µs since the epoch (UTC).

use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{Array, ArrayRef, BinaryArray, BooleanArray, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray, TimestampMicrosecondArray};
use arrow_schema::{DataType, SchemaRef};

use crate::types::{Row, Value};

/// Builds a `RecordBatch` from typed rows.
///
/// # Errors
/// A message for a value that does not match its column's type.
pub fn rows_to_batch(schema: &SchemaRef, rows: &[Row]) -> Result<RecordBatch, String> {
    let mut columns: Vec<ArrayRef> = Vec::new();
    for (ci, field) in schema.fields().iter().enumerate() {
        let cell = |ri: usize| rows[ri].get(ci).cloned().unwrap_or(Value::Null);
        let bad = |ri: usize, v: &Value| format!("row {}: column '{}' expects {}, got {v}", ri + 1, field.name(), crate::types::spark_type_name(field.data_type()));
        let array: ArrayRef = match field.data_type() {
            DataType::Utf8 => {
                let mut b = StringBuilder::new();
                for ri in 0..rows.len() {
                    match cell(ri) {
                        Value::Null => b.append_null(),
                        Value::Str(s) => b.append_value(&*s),
                        v => return Err(bad(ri, &v)),
                    }
                }
                Arc::new(b.finish())
            }
            DataType::Int64 => {
                let mut b = Int64Builder::new();
                for ri in 0..rows.len() {
                    match cell(ri) {
                        Value::Null => b.append_null(),
                        Value::Long(v) => b.append_value(v),
                        Value::Int(v) => b.append_value(i64::from(v)),
                        v => return Err(bad(ri, &v)),
                    }
                }
                Arc::new(b.finish())
            }
            DataType::Int32 => {
                let mut b = Int32Builder::new();
                for ri in 0..rows.len() {
                    match cell(ri) {
                        Value::Null => b.append_null(),
                        Value::Int(v) => b.append_value(v),
                        v => return Err(bad(ri, &v)),
                    }
                }
                Arc::new(b.finish())
            }
            DataType::Float64 => {
                let mut b = Float64Builder::new();
                for ri in 0..rows.len() {
                    match cell(ri) {
                        Value::Null => b.append_null(),
                        v => match v.as_f64() {
                            Some(x) => b.append_value(x),
                            None => return Err(bad(ri, &v)),
                        },
                    }
                }
                Arc::new(b.finish())
            }
            DataType::Boolean => {
                let mut b = BooleanBuilder::new();
                for ri in 0..rows.len() {
                    match cell(ri) {
                        Value::Null => b.append_null(),
                        Value::Bool(v) => b.append_value(v),
                        v => return Err(bad(ri, &v)),
                    }
                }
                Arc::new(b.finish())
            }
            DataType::Timestamp(..) => {
                let mut b = TimestampMicrosecondBuilder::new().with_timezone("UTC");
                for ri in 0..rows.len() {
                    match cell(ri) {
                        Value::Null => b.append_null(),
                        Value::Timestamp(v) => b.append_value(v),
                        v => return Err(bad(ri, &v)),
                    }
                }
                Arc::new(b.finish())
            }
            DataType::Binary => {
                let mut b = BinaryBuilder::new();
                for ri in 0..rows.len() {
                    match cell(ri) {
                        Value::Null => b.append_null(),
                        Value::Binary(v) => b.append_value(&*v),
                        Value::Str(v) => b.append_value(v.as_bytes()),
                        v => return Err(bad(ri, &v)),
                    }
                }
                Arc::new(b.finish())
            }
            other => return Err(format!("column '{}' has an unsupported type {other}", field.name())),
        };
        columns.push(array);
    }
    RecordBatch::try_new_with_options(schema.clone(), columns, &arrow_array::RecordBatchOptions::new().with_row_count(Some(rows.len())))
        .map_err(|e| e.to_string())
}

/// Row `i` of `column` as a value (NULL for a type the engine does not read from sources),
/// as [`batch_to_rows`] decodes it.
pub fn cell_value(column: &dyn Array, i: usize) -> Value {
    if column.is_null(i) {
        return Value::Null;
    }
    let any = column.as_any();
    macro_rules! read {
        ($ty:ty, $f:expr) => {
            any.downcast_ref::<$ty>().map_or(Value::Null, |a| $f(a.value(i)))
        };
    }
    match column.data_type() {
        DataType::Utf8 => read!(StringArray, Value::str),
        DataType::Int64 => read!(Int64Array, Value::Long),
        DataType::Int32 => read!(Int32Array, Value::Int),
        DataType::Float64 => read!(Float64Array, Value::Double),
        DataType::Boolean => read!(BooleanArray, Value::Bool),
        DataType::Timestamp(..) => read!(TimestampMicrosecondArray, Value::Timestamp),
        DataType::Binary => read!(BinaryArray, |b: &[u8]| Value::Binary(std::rc::Rc::from(b))),
        _ => Value::Null,
    }
}

/// Reads a `RecordBatch` back into rows (the row-wise operators read them).
pub fn batch_to_rows(batch: &RecordBatch) -> Vec<Row> {
    batch_to_rows_pruned(batch, None)
}

/// [`batch_to_rows`] decoding only the columns flagged in `used` (others are NULL).
pub fn batch_to_rows_pruned(batch: &RecordBatch, used: Option<&[bool]>) -> Vec<Row> {
    let n = batch.num_rows();
    let mut rows: Vec<Row> = (0..n).map(|_| Vec::with_capacity(batch.num_columns())).collect();
    for (ci, col) in batch.columns().iter().enumerate() {
        if used.is_some_and(|u| !u.get(ci).copied().unwrap_or(true)) {
            rows.iter_mut().for_each(|r| r.push(Value::Null));
            continue;
        }
        let any = col.as_any();
        macro_rules! fill {
            ($ty:ty, $f:expr) => {{
                let a = any.downcast_ref::<$ty>().expect("column type matches schema");
                for (i, row) in rows.iter_mut().enumerate() {
                    row.push(if a.is_null(i) { Value::Null } else { $f(a.value(i)) });
                }
            }};
        }
        match col.data_type() {
            DataType::Utf8 => fill!(StringArray, Value::str),
            DataType::Int64 => fill!(Int64Array, Value::Long),
            DataType::Int32 => fill!(Int32Array, Value::Int),
            DataType::Float64 => fill!(Float64Array, Value::Double),
            DataType::Boolean => fill!(BooleanArray, Value::Bool),
            DataType::Timestamp(..) => fill!(TimestampMicrosecondArray, Value::Timestamp),
            DataType::Binary => fill!(BinaryArray, |b: &[u8]| Value::Binary(std::rc::Rc::from(b))),
            _ => rows.iter_mut().for_each(|r| r.push(Value::Null)),
        }
    }
    rows
}
