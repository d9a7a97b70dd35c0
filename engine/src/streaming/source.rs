//! `MemoryStream`: a replayable in-memory source handing out Arrow `RecordBatch`es
//! (`MemoryStream.scala`). Its offset is the index of the last block added (`LongOffset`),
//! `None` while empty.

use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{Array, ArrayRef, BinaryArray, BooleanArray, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray, TimestampMicrosecondArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use crate::types::{Row, Value};

/// What kind of source a stream stands for (spec §18): how it limits a batch and whether it
/// can replay after a restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourceKind {
    /// `MemoryStream`: replayable; a batch takes everything new.
    #[default]
    Memory,
    /// A file source: each block is one file; `maxFilesPerTrigger` caps the files per batch
    /// (ignored by `trigger(once=True)`). Replayable: its files stay.
    File { max_files_per_trigger: Option<usize> },
    /// A socket source: not replayable. What it received but no batch committed is gone after
    /// a restart, so no exactly-once.
    Socket,
    /// A Kafka topic with partitions: records have Kafka's schema (`key` and `value` as
    /// bytes, `topic`, `partition`, `offset`, `timestamp`, `timestampType`); an event's JSON
    /// becomes the record's `value`. Replayable from its offsets.
    /// `starting_latest`: `startingOffsets = "latest"` (Spark's default for streams) — a new
    /// query (one without checkpoint offsets) skips what the topic already holds.
    Kafka { partitions: u32, starting_latest: bool },
    /// The `rate` source: `rowsPerSecond` rows for every second of (processing) time since
    /// the query started, as `(timestamp, value)` with `value` counting up from 0. Driven by the
    /// query's clock, so its batch boundaries depend on when triggers fire.
    Rate { rows_per_second: u32 },
}

/// The schema of the `rate` source.
pub fn rate_schema() -> Vec<(String, DataType)> {
    vec![("timestamp".into(), crate::types::timestamp_type()), ("value".into(), DataType::Int64)]
}

/// The schema of a Kafka source (`KafkaSource`/`KafkaRecordToRowConverter`).
pub fn kafka_schema() -> Vec<(String, DataType)> {
    vec![
        ("key".into(), DataType::Binary),
        ("value".into(), DataType::Binary),
        ("topic".into(), DataType::Utf8),
        ("partition".into(), DataType::Int32),
        ("offset".into(), DataType::Int64),
        ("timestamp".into(), crate::types::timestamp_type()),
        ("timestampType".into(), DataType::Int32),
    ]
}

impl SourceKind {
    /// True if a restarted query can read the same data again.
    pub fn replayable(self) -> bool {
        self != SourceKind::Socket
    }
}

/// An append-only source of blocks; each `add_rows` call is one block.
#[derive(Debug, Clone)]
pub struct MemoryStream {
    pub name: String,
    pub kind: SourceKind,
    schema: SchemaRef,
    blocks: Vec<RecordBatch>,
    /// Socket only: blocks before this index were lost by a restart.
    lost_before: usize,
    /// Kafka only: the event schema written into `value`, and the next offset per partition.
    pub payload_schema: Vec<(String, DataType)>,
    next_offsets: Vec<i64>,
    records: u64,
    /// Rate only: the clock (ms) when the source started, and rows generated so far.
    rate_start_ms: Option<i64>,
    rate_rows: i64,
}

impl MemoryStream {
    /// An empty stream with `schema` (names and Arrow types).
    pub fn new(name: &str, schema: &[(String, DataType)]) -> MemoryStream {
        let fields: Vec<Field> = schema.iter().map(|(n, t)| Field::new(n, t.clone(), true)).collect();
        MemoryStream {
            name: name.to_string(),
            kind: SourceKind::Memory,
            schema: Arc::new(Schema::new(fields)),
            blocks: Vec::new(),
            lost_before: 0,
            payload_schema: Vec::new(),
            next_offsets: Vec::new(),
            records: 0,
            rate_start_ms: None,
            rate_rows: 0,
        }
    }

    /// The source's Arrow schema.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Adds one block of rows (each row in schema order, values already typed) and returns
    /// the new latest offset.
    ///
    /// # Errors
    /// A message naming the row and column whose value does not fit the column type.
    pub fn add_rows(&mut self, rows: &[Row]) -> Result<i64, String> {
        let records;
        let rows = if let SourceKind::Kafka { partitions, .. } = self.kind {
            records = self.encode_kafka_records(rows, partitions.max(1));
            &records[..]
        } else {
            rows
        };
        let batch = rows_to_batch(&self.schema, rows)?;
        self.blocks.push(batch);
        Ok(self.blocks.len() as i64 - 1)
    }

    /// Turns events (rows of `payload_schema`) into Kafka records: the event as JSON in
    /// `value`, partitions round-robin, offsets counting up per partition, the event's first
    /// timestamp as the record timestamp (CreateTime).
    fn encode_kafka_records(&mut self, rows: &[Row], partitions: u32) -> Vec<Row> {
        if self.next_offsets.len() != partitions as usize {
            self.next_offsets = vec![0; partitions as usize];
        }
        rows.iter()
            .map(|r| {
                // The JSON keeps the schema's field order, as a producer writes it.
                let fields: Vec<String> = self
                    .payload_schema
                    .iter()
                    .zip(r)
                    .map(|((n, _), v)| format!("{}:{}", serde_json::Value::String(n.clone()), crate::types::json::value_to_json(v)))
                    .collect();
                let text = format!("{{{}}}", fields.join(","));
                let p = (self.records % u64::from(partitions)) as usize;
                self.records += 1;
                let offset = self.next_offsets[p];
                self.next_offsets[p] += 1;
                let ts = r.iter().find_map(|v| if let Value::Timestamp(t) = v { Some(*t) } else { None }).unwrap_or(0);
                vec![
                    Value::Null,
                    Value::Binary(std::rc::Rc::from(text.as_bytes())),
                    Value::str(&self.name),
                    Value::Int(p as i32),
                    Value::Long(offset),
                    Value::Timestamp(ts),
                    Value::Int(0),
                ]
            })
            .collect()
    }

    /// The latest offset: index of the last block, `None` when nothing was added.
    pub fn latest_offset(&self) -> Option<i64> {
        (!self.blocks.is_empty()).then(|| self.blocks.len() as i64 - 1)
    }

    /// The end offset of the next batch after `start`: the latest, or for a file source with
    /// `maxFilesPerTrigger` at most that many files further (`ignore_limits` for `once`).
    pub fn next_end(&self, start: Option<i64>, ignore_limits: bool) -> Option<i64> {
        let latest = self.latest_offset();
        match (self.kind, ignore_limits) {
            (SourceKind::File { max_files_per_trigger: Some(n) }, false) => {
                let first = start.map_or(0, |s| s + 1);
                latest.map(|l| l.min(first + n.max(1) as i64 - 1))
            }
            _ => latest,
        }
    }

    /// Rate only: generates the rows due by `now_ms` (one block per call that adds rows).
    pub fn tick(&mut self, now_ms: i64) {
        let SourceKind::Rate { rows_per_second } = self.kind else { return };
        let start = *self.rate_start_ms.get_or_insert(now_ms);
        let elapsed_s = (now_ms - start).max(0) / 1000;
        let due = elapsed_s * i64::from(rows_per_second);
        if due <= self.rate_rows {
            return;
        }
        let rps = i64::from(rows_per_second.max(1));
        let rows: Vec<Row> = (self.rate_rows..due)
            .map(|v| vec![Value::Timestamp((start + (v / rps) * 1000) * 1000 + (v % rps) * 1_000_000 / rps), Value::Long(v)])
            .collect();
        self.rate_rows = due;
        if let Ok(batch) = rows_to_batch(&self.schema, &rows) {
            self.blocks.push(batch);
        }
    }

    /// A restart of the query: a socket source loses what it had received (a new
    /// connection), replayable sources keep everything.
    pub fn on_restart(&mut self) {
        if self.kind == SourceKind::Socket {
            self.lost_before = self.blocks.len();
        }
    }

    /// The stream-wide index (0-based, over every row ever added) of the first row that
    /// `get_batch(start, _)` returns.
    pub fn first_row_index(&self, start: Option<i64>) -> usize {
        let from = start.map_or(0, |s| (s + 1).max(0) as usize).max(self.lost_before).min(self.blocks.len());
        self.blocks[..from].iter().map(RecordBatch::num_rows).sum()
    }

    /// The blocks after `start` up to and including `end` (`getBatch(start, end)`).
    pub fn get_batch(&self, start: Option<i64>, end: Option<i64>) -> Vec<RecordBatch> {
        let from = start.map_or(0, |s| (s + 1).max(0) as usize).max(self.lost_before);
        let to = end.map_or(0, |e| (e + 1).max(0) as usize).min(self.blocks.len());
        self.blocks.get(from..to).map(<[RecordBatch]>::to_vec).unwrap_or_default()
    }
}

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

/// Reads a `RecordBatch` back into rows (the engine executes row by row).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::timestamp_type;

    #[test]
    fn blocks_and_offsets() {
        let mut s = MemoryStream::new("clicks", &[("id".into(), DataType::Utf8), ("t".into(), timestamp_type())]);
        assert_eq!(s.latest_offset(), None);
        assert_eq!(s.add_rows(&[vec![Value::str("a"), Value::Timestamp(5)]]).unwrap(), 0);
        assert_eq!(s.add_rows(&[vec![Value::str("b"), Value::Null], vec![Value::Null, Value::Timestamp(7)]]).unwrap(), 1);
        let batches = s.get_batch(Some(0), Some(1));
        assert_eq!(batches.len(), 1);
        let rows = batch_to_rows(&batches[0]);
        assert_eq!(rows, vec![vec![Value::str("b"), Value::Null], vec![Value::Null, Value::Timestamp(7)]]);
        assert_eq!(s.get_batch(None, Some(1)).len(), 2);
        assert!(s.add_rows(&[vec![Value::Long(1), Value::Null]]).unwrap_err().contains("column 'id'"));
    }
}
