//! Data types, values, rows and time: the vocabulary every other module speaks.
//!
//! Schemas use Arrow's [`DataType`]; [`spark_type_name`] prints them the way Spark's
//! `DataType.simpleString` does (`bigint`, `struct<start:timestamp,end:timestamp>`).

pub mod ansi_interval;
pub mod arrow;
pub mod conf;
pub mod datetime;
pub mod ddl;
pub mod interval;
pub mod json;
pub mod text;
pub mod time;
pub mod timezone;
pub mod tzdb;
pub mod value;

use std::sync::Arc;

pub use conf::MultipleWatermarkPolicy;
pub use arrow_schema::{DataType, Field, Fields, TimeUnit};
pub use interval::{CalendarInterval, IntervalError, IntervalOverflow, WindowArgError};
pub use time::{format_duration_us, format_progress_ms, format_timestamp_us, parse_timestamp_us, BatchId, DelayMs, EventTime, TimeOverflow, WatermarkMs};
pub use value::{format_double, Row, Value};

/// The timestamp type every event-time column has: µs, UTC (Spark's `TimestampType`).
pub fn timestamp_type() -> DataType {
    DataType::Timestamp(TimeUnit::Microsecond, Some(Arc::from("UTC")))
}

/// `timestamp_ntz` (`TimestampNTZType`): µs of a wall-clock time, no zone.
pub fn timestamp_ntz_type() -> DataType {
    DataType::Timestamp(TimeUnit::Microsecond, None)
}

/// `map<k,v>`: Spark's `MapType(k, v, valueContainsNull = true)` as Arrow's map of
/// `entries: struct<key, value>`.
pub fn map_type(key: DataType, value: DataType) -> DataType {
    let entries = Field::new("entries", DataType::Struct(Fields::from(vec![Field::new("key", key, false), Field::new("value", value, true)])), false);
    DataType::Map(Arc::new(entries), false)
}

/// The key and value types of a map type.
pub fn map_key_value(dt: &DataType) -> Option<(&DataType, &DataType)> {
    let DataType::Map(entries, _) = dt else { return None };
    let DataType::Struct(kv) = entries.data_type() else { return None };
    Some((kv.first()?.data_type(), kv.get(1)?.data_type()))
}

/// A struct type of named fields (all nullable).
pub fn struct_type(fields: Vec<(String, DataType)>) -> DataType {
    DataType::Struct(fields.into_iter().map(|(n, t)| Field::new(n, t, true)).collect())
}

/// The type of a `window` / `session_window` column: `struct<start:timestamp,end:timestamp>`.
pub fn window_type() -> DataType {
    DataType::Struct(Fields::from(vec![
        Field::new("start", timestamp_type(), true),
        Field::new("end", timestamp_type(), true),
    ]))
}

/// Reads a scenario type name (`string`, `long`, `int`, `double`, `boolean`, `timestamp`;
/// also Spark's `bigint`, `integer`).
///
/// # Errors
/// A message naming the unknown type and the accepted ones.
pub fn parse_type_name(name: &str) -> Result<DataType, String> {
    Ok(match name.trim().to_ascii_lowercase().as_str() {
        "string" => DataType::Utf8,
        "long" | "bigint" => DataType::Int64,
        "int" | "integer" => DataType::Int32,
        "double" => DataType::Float64,
        "boolean" | "bool" => DataType::Boolean,
        "timestamp" => timestamp_type(),
        "binary" => DataType::Binary,
        "date" => DataType::Date32,
        "timestamp_ntz" => timestamp_ntz_type(),
        "timestamp_ltz" => timestamp_type(),
        other if other.contains('<') => return ddl::parse_data_type(name),
        other => {
            return Err(format!(
                "unknown column type '{other}': use string, long, int, double, boolean or timestamp"
            ))
        }
    })
}

/// Spark's `simpleString` of a type: `string`, `bigint`, `int`, `double`, `boolean`,
/// `timestamp`, `struct<start:timestamp,end:timestamp>`.
pub fn spark_type_name(dt: &DataType) -> String {
    match dt {
        DataType::Utf8 => "string".into(),
        DataType::Int64 => "bigint".into(),
        DataType::Int32 => "int".into(),
        DataType::Float64 => "double".into(),
        DataType::Boolean => "boolean".into(),
        DataType::Timestamp(_, None) => "timestamp_ntz".into(),
        DataType::Timestamp(..) => "timestamp".into(),
        DataType::Null => "void".into(),
        DataType::Binary => "binary".into(),
        DataType::Date32 => "date".into(),
        DataType::List(f) => format!("array<{}>", spark_type_name(f.data_type())),
        DataType::Map(..) => match map_key_value(dt) {
            Some((k, v)) => format!("map<{},{}>", spark_type_name(k), spark_type_name(v)),
            None => "map".into(),
        },
        DataType::Struct(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|f| format!("{}:{}", f.name(), spark_type_name(f.data_type())))
                .collect();
            format!("struct<{}>", inner.join(","))
        }
        other => format!("{other}").to_ascii_lowercase(),
    }
}

/// Spark's `DataType.sql`, the type text its error messages quote (`toSQLType`): `BIGINT`,
/// `ARRAY<INT>`, `STRUCT<start: TIMESTAMP, end: TIMESTAMP>` (a field name in back-ticks
/// unless it is letters, digits and `_`).
pub fn sql_type_name(dt: &DataType) -> String {
    match dt {
        DataType::List(f) => format!("ARRAY<{}>", sql_type_name(f.data_type())),
        DataType::Struct(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|f| {
                    let n = f.name();
                    let plain = !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !n.chars().all(|c| c.is_ascii_digit());
                    let n = if plain { n.clone() } else { format!("`{}`", n.replace('`', "``")) };
                    format!("{n}: {}", sql_type_name(f.data_type()))
                })
                .collect();
            format!("STRUCT<{}>", inner.join(", "))
        }
        other => spark_type_name(other).to_uppercase(),
    }
}

/// Fields as a DDL field list, as `DataType.toDDL` writes a struct's: `event_id STRING,
/// post_id BIGINT`.
pub fn ddl_fields<'a>(fields: impl Iterator<Item = (&'a str, &'a DataType)>) -> String {
    // `sql_type_name` keeps a nested struct's field names as they are (`STRUCT<name: STRING>`);
    // upper-casing the whole type text renamed them (`d.user.name` became a column `NAME`).
    fields.map(|(n, t)| format!("{n} {}", sql_type_name(t))).collect::<Vec<_>>().join(", ")
}

/// `array<t>`: Spark's `ArrayType(t, containsNull = true)`.
pub fn array_type(element: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("element", element, true)))
}

/// True for the numeric types arithmetic accepts.
pub fn is_numeric(dt: &DataType) -> bool {
    matches!(dt, DataType::Int32 | DataType::Int64 | DataType::Float64)
}
