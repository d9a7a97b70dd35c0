//! Streaming sources: the [`Source`] trait `MicroBatchExecution` reads through
//! (Spark's `Source` / `SparkDataStream` + `SupportsAdmissionControl`), one type per source
//! kind, and [`SourceKind`], the registry that names the kinds and builds them.
//!
//! # Layout
//! - `memory.rs`: [`MemoryStream`] (`MemoryStream.scala`): replayable, a batch takes all.
//! - `file.rs`: [`FileStreamSource`] (`FileStreamSource.scala`): replayable,
//!   `maxFilesPerTrigger` caps the files per batch.
//! - `socket.rs`: [`TextSocketSource`] (`TextSocketMicroBatchStream`): not replayable.
//! - `kafka.rs`: [`KafkaSource`] (`KafkaSource.scala` / `KafkaMicroBatchStream`): records with
//!   partitions and offsets, `startingOffsets`.
//! - `rate.rs`: [`RateStreamSource`] (`RateStreamMicroBatchStream`): rows from the query's clock.
//!
//! Every kind stores what it received as Arrow blocks ([`Blocks`]) with a `LongOffset`-style
//! offset: the index of the last block, `None` while empty; a batch `(start, end]` is the
//! blocks after `start` up to and including `end`.
//!
//! Adding a source: one file here with a type implementing [`Source`], one variant of
//! [`SourceKind`] and its lines in the registry (`SourceKind::ALL_IDS`, `SourceKind::id`,
//! `SourceKind::from_options`, `SourceKind::create`).

mod file;
mod kafka;
mod memory;
mod rate;
mod socket;

use std::collections::BTreeMap;

use arrow_array::RecordBatch;
use arrow_schema::{DataType, SchemaRef};
use serde_json::Value as Json;

use crate::types::Row;

pub use file::FileStreamSource;
pub use kafka::{kafka_schema, KafkaSource};
pub use memory::MemoryStream;
pub use rate::{rate_schema, RateStreamSource};
pub use crate::types::arrow::{batch_to_rows, batch_to_rows_pruned, rows_to_batch};
pub use socket::TextSocketSource;

/// What `MicroBatchExecution` needs from a source. Offsets are `LongOffset`s: the index of
/// the source's last block, `None` before the first; batch `(start, end]` is exclusive of
/// `start`, inclusive of `end`.
pub trait Source: std::fmt::Debug {
    /// The name the query reads it by (`spark.readStream...` / the catalog's stream name).
    fn name(&self) -> &str;

    /// The kind, with its options, as the registry names it.
    fn kind(&self) -> SourceKind;

    /// The Arrow blocks the source has received or made (every kind keeps its data so).
    fn blocks(&self) -> &Blocks;

    /// The blocks, to add to or drop from.
    fn blocks_mut(&mut self) -> &mut Blocks;

    /// The schema the query reads (for Kafka and rate: Spark's fixed schema).
    fn schema(&self) -> SchemaRef {
        self.blocks().schema()
    }

    /// The schema as (column, Arrow type) pairs.
    fn columns(&self) -> Vec<(String, DataType)> {
        self.schema().fields().iter().map(|f| (f.name().clone(), f.data_type().clone())).collect()
    }

    /// Adds one block of rows (each row in the order of the rows' own schema, values typed)
    /// and returns the new latest offset (`MemoryStream.addData`; for Kafka the rows are
    /// events, written as records).
    ///
    /// # Errors
    /// A message naming the row and column whose value does not fit the column type.
    fn add_rows(&mut self, rows: &[Row]) -> Result<i64, String> {
        self.blocks_mut().push_rows(rows)
    }

    /// The latest offset (`latestOffset` without limits): the last block, `None` when empty.
    fn latest_offset(&self) -> Option<i64> {
        self.blocks().latest_offset()
    }

    /// The end offset of the next batch after `start` (`latestOffset(start, ReadLimit)`): the
    /// latest, or less for a source with a rate limit. `ignore_limits` is `trigger(once=True)`,
    /// which reads everything available (`ReadLimit.allAvailable`).
    fn next_end(&self, start: Option<i64>, ignore_limits: bool) -> Option<i64> {
        let _ = (start, ignore_limits);
        self.latest_offset()
    }

    /// The blocks after `start` up to and including `end` (`getBatch(start, end)`).
    fn get_batch(&self, start: Option<i64>, end: Option<i64>) -> Vec<RecordBatch> {
        self.blocks().get_batch(start, end)
    }

    /// The stream-wide index (0-based, over every row ever added) of the first row that
    /// `get_batch(start, _)` returns.
    fn first_row_index(&self, start: Option<i64>) -> usize {
        self.blocks().first_row_index(start)
    }

    /// Where a new query (one without checkpoint offsets) starts reading: `None` from the
    /// beginning; Kafka with `startingOffsets = "latest"` at the current end of the topic.
    fn initial_offset(&self) -> Option<i64> {
        None
    }

    /// A restart of the query. Replayable sources keep everything; a socket loses what it
    /// had received (a new connection).
    fn on_restart(&mut self) {}

    /// The query's clock moved to `now_ms` (ms since the epoch). Only the rate source, driven
    /// by processing time, makes rows here.
    fn tick(&mut self, now_ms: i64) {
        let _ = now_ms;
    }

    /// True if a restarted query can read the same data again (every kind but the socket).
    fn replayable(&self) -> bool {
        true
    }

    /// Kafka only: the schema of the events written as JSON into `value`. Others ignore it.
    fn set_payload_schema(&mut self, schema: Vec<(String, DataType)>) {
        let _ = schema;
    }

    /// For the PySpark export, which stands in for every kind with a file source: what this
    /// kind is on a cluster, or `None` when a file source is what it is (memory, file).
    fn export_note(&self) -> Option<&'static str> {
        None
    }

    /// For the PySpark export: true if the rows this source made (Kafka records, rate rows)
    /// are written out as the stand-in's input, since Spark cannot make them from the
    /// scenario's events.
    fn exports_made_rows(&self) -> bool {
        false
    }

    /// The offset as Spark writes it in the offset log and in `StreamingQueryProgress`
    /// (`Offset.json`): a `LongOffset` is its number (`None` before the first block); Kafka
    /// writes the next offset of every partition.
    fn offset_json(&self, offset: Option<i64>) -> Option<serde_json::Value> {
        offset.map(serde_json::Value::from)
    }

    /// The source as `StreamingQueryProgress.sources[].description` names it.
    fn description(&self) -> String {
        format!("MemoryStream[{}]", self.schema().fields().iter().map(|f| f.name().as_str()).collect::<Vec<_>>().join(","))
    }

    /// A boxed copy (sources are cloned with the query, e.g. for a prediction run ahead).
    fn clone_box(&self) -> Box<dyn Source>;
}

impl Clone for Box<dyn Source> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// What kind of source a stream stands for, with its options: the registry of source
/// kinds. [`SourceKind::create`] builds the one type per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourceKind {
    /// [`MemoryStream`].
    #[default]
    Memory,
    /// [`FileStreamSource`]: each block is one file; `maxFilesPerTrigger` caps the files per
    /// batch (ignored by `trigger(once=True)`).
    File {
        /// The `maxFilesPerTrigger` option; `None`: every new file in one batch.
        max_files_per_trigger: Option<usize>,
    },
    /// [`TextSocketSource`]: not replayable.
    Socket,
    /// [`KafkaSource`]: `partitions` (1 to 64); `starting_latest` is
    /// `startingOffsets = "latest"` (Spark's default for streams).
    Kafka {
        /// The topic's partition count (1 to 64).
        partitions: u32,
        /// `startingOffsets = "latest"` rather than `"earliest"`.
        starting_latest: bool,
    },
    /// [`RateStreamSource`]: `rowsPerSecond` (1 to 1000).
    Rate {
        /// The `rowsPerSecond` option (1 to 1000).
        rows_per_second: u32,
    },
}

impl SourceKind {
    /// Every kind's id (a scenario's `kind`), in the order error messages list them.
    pub const ALL_IDS: [&'static str; 5] = ["memory", "file", "socket", "kafka", "rate"];

    /// The kind's id (`memory`, `file`, `socket`, `kafka`, `rate`).
    pub fn id(self) -> &'static str {
        match self {
            SourceKind::Memory => "memory",
            SourceKind::File { .. } => "file",
            SourceKind::Socket => "socket",
            SourceKind::Kafka { .. } => "kafka",
            SourceKind::Rate { .. } => "rate",
        }
    }

    /// The reader options the kind `id` takes from a scenario's source definition, with the
    /// value Spark uses when none is given (`rate`: `rowsPerSecond` 1; `file`:
    /// `maxFilesPerTrigger`, no limit; `kafka`: `startingOffsets` `latest`).
    pub fn reader_options(id: &str) -> &'static [(&'static str, &'static str)] {
        match id {
            "rate" => &[("rowsPerSecond", "1")],
            "file" => &[("maxFilesPerTrigger", "none")],
            "kafka" => &[("startingOffsets", "latest")],
            _ => &[],
        }
    }

    /// The kind named `id` with the reader options given (`maxFilesPerTrigger`, `partitions`,
    /// `startingOffsets`, `rowsPerSecond`; numbers as JSON numbers or numeric strings).
    ///
    /// # Errors
    /// An unknown id, or an option out of its range, as a message naming it.
    pub fn from_options(id: &str, options: &BTreeMap<String, Json>) -> Result<SourceKind, String> {
        match id {
            "memory" => Ok(SourceKind::Memory),
            "file" => FileStreamSource::kind_from_options(options),
            "socket" => Ok(SourceKind::Socket),
            "kafka" => KafkaSource::kind_from_options(options),
            "rate" => RateStreamSource::kind_from_options(options),
            other => {
                let (last, rest) = SourceKind::ALL_IDS.split_last().unwrap_or((&"memory", &[]));
                Err(format!("unknown source kind '{other}': use {} or {last}", rest.join(", ")))
            }
        }
    }

    /// A new, empty source of this kind named `name` over `schema` (for Kafka and rate the
    /// catalog gives Spark's fixed schema, [`kafka_schema`] / [`rate_schema`]).
    pub fn create(self, name: &str, schema: &[(String, DataType)]) -> Box<dyn Source> {
        match self {
            SourceKind::Memory => Box::new(MemoryStream::new(name, schema)),
            SourceKind::File { max_files_per_trigger } => Box::new(FileStreamSource::new(name, schema, max_files_per_trigger)),
            SourceKind::Socket => Box::new(TextSocketSource::new(name, schema)),
            SourceKind::Kafka { partitions, starting_latest } => Box::new(KafkaSource::new(name, schema, partitions, starting_latest)),
            SourceKind::Rate { rows_per_second } => Box::new(RateStreamSource::new(name, schema, rows_per_second)),
        }
    }

    /// The schema a query reading this kind sees, given the scenario's declared event schema:
    /// Kafka's record schema, the rate source's `(timestamp, value)`, else `declared`.
    pub fn read_schema(self, declared: &[(String, DataType)]) -> Vec<(String, DataType)> {
        self.create("", declared).columns()
    }

    /// True if a restarted query can read the same data again ([`Source::replayable`]).
    pub fn replayable(self) -> bool {
        self.create("", &[]).replayable()
    }
}

/// A whole-number reader option in `lo..=hi` (a JSON number or a numeric string), if given.
///
/// # Errors
/// A message naming the option and its range.
pub(crate) fn whole_option(options: &BTreeMap<String, Json>, name: &str, lo: u32, hi: u32) -> Result<Option<u32>, String> {
    let Some(v) = options.get(name) else { return Ok(None) };
    v.as_u64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (lo..=hi).contains(n))
        .map(Some)
        .ok_or_else(|| format!("{name} must be a whole number from {lo} to {hi}, got {v}"))
}

/// The Arrow blocks a source received, with `LongOffset` offsets (block indexes). Shared by
/// every kind; `lost_before` is where a socket's new connection starts after a restart.
#[derive(Debug, Clone)]
pub struct Blocks {
    schema: SchemaRef,
    blocks: Vec<RecordBatch>,
    /// Blocks before this index are gone (a socket after a restart).
    lost_before: usize,
}

impl Blocks {
    /// No blocks, over `schema` (names and Arrow types; every column nullable).
    pub fn new(schema: &[(String, DataType)]) -> Blocks {
        let fields: Vec<arrow_schema::Field> = schema.iter().map(|(n, t)| arrow_schema::Field::new(n, t.clone(), true)).collect();
        Blocks { schema: std::sync::Arc::new(arrow_schema::Schema::new(fields)), blocks: Vec::new(), lost_before: 0 }
    }

    /// The blocks' Arrow schema.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Appends `rows` as one block and returns its offset.
    ///
    /// # Errors
    /// As [`rows_to_batch`].
    pub fn push_rows(&mut self, rows: &[Row]) -> Result<i64, String> {
        let batch = rows_to_batch(&self.schema, rows)?;
        self.blocks.push(batch);
        Ok(self.blocks.len() as i64 - 1)
    }

    /// The index of the last block, `None` when empty.
    pub fn latest_offset(&self) -> Option<i64> {
        (!self.blocks.is_empty()).then(|| self.blocks.len() as i64 - 1)
    }

    /// Forgets every block received so far for reading (a socket's lost connection).
    pub fn lose_all(&mut self) {
        self.lost_before = self.blocks.len();
    }

    /// See [`Source::first_row_index`].
    pub fn first_row_index(&self, start: Option<i64>) -> usize {
        let from = start.map_or(0, |s| (s + 1).max(0) as usize).max(self.lost_before).min(self.blocks.len());
        self.blocks[..from].iter().map(RecordBatch::num_rows).sum()
    }

    /// How many rows the blocks up to and including `offset` hold (lost blocks too: they
    /// were received).
    pub fn rows_through(&self, offset: i64) -> usize {
        let to = usize::try_from(offset.saturating_add(1)).unwrap_or(0).min(self.blocks.len());
        self.blocks[..to].iter().map(RecordBatch::num_rows).sum()
    }

    /// See [`Source::get_batch`].
    pub fn get_batch(&self, start: Option<i64>, end: Option<i64>) -> Vec<RecordBatch> {
        let from = start.map_or(0, |s| (s + 1).max(0) as usize).max(self.lost_before);
        let to = end.map_or(0, |e| (e + 1).max(0) as usize).min(self.blocks.len());
        self.blocks.get(from..to).map(<[RecordBatch]>::to_vec).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{timestamp_type, Value};

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

    #[test]
    fn every_id_parses_and_builds_its_kind() {
        for id in SourceKind::ALL_IDS {
            let kind = SourceKind::from_options(id, &BTreeMap::new()).unwrap();
            assert_eq!(kind.id(), id);
            let s = kind.create("s", &[("n".into(), DataType::Int64)]);
            assert_eq!((s.name(), s.kind()), ("s", kind));
            assert_eq!(s.replayable(), id != "socket", "{id}");
        }
        let e = SourceKind::from_options("jdbc", &BTreeMap::new()).unwrap_err();
        assert_eq!(e, "unknown source kind 'jdbc': use memory, file, socket, kafka or rate");
    }

    #[test]
    fn a_file_source_takes_at_most_max_files_per_trigger() {
        let mut s = SourceKind::File { max_files_per_trigger: Some(2) }.create("f", &[("n".into(), DataType::Int64)]);
        for i in 0..5 {
            s.add_rows(&[vec![Value::Long(i)]]).unwrap();
        }
        assert_eq!(s.next_end(None, false), Some(1));
        assert_eq!(s.next_end(Some(1), false), Some(3));
        assert_eq!(s.next_end(Some(1), true), Some(4));
    }

    #[test]
    fn a_socket_loses_what_it_received_on_restart() {
        let mut s = SourceKind::Socket.create("s", &[("n".into(), DataType::Int64)]);
        s.add_rows(&[vec![Value::Long(1)]]).unwrap();
        s.on_restart();
        assert!(s.get_batch(None, Some(0)).is_empty());
        s.add_rows(&[vec![Value::Long(2)]]).unwrap();
        assert_eq!(s.get_batch(None, Some(1)).len(), 1);
        assert_eq!(s.first_row_index(None), 1);
    }
}
