//! [`TextSocketSource`]: Spark's socket source (`TextSocketSourceProvider`,
//! `TextSocketMicroBatchStream`). Not replayable: it keeps lines only in memory, so what it
//! received but no batch committed is gone after a restart (a new connection) — no
//! exactly-once, whatever the sink.

use arrow_array::RecordBatch;
use arrow_schema::{DataType, SchemaRef};

use super::{Blocks, Source, SourceKind};
use crate::types::Row;

/// Lines read from a TCP socket; each `add_rows` call is one block of lines. Offsets count
/// blocks from the start of the query's first run; a restart skips to what arrives after it.
#[derive(Debug, Clone)]
pub struct TextSocketSource {
    name: String,
    blocks: Blocks,
}

impl TextSocketSource {
    /// A socket named `name` whose lines are read as `schema`.
    pub fn new(name: &str, schema: &[(String, DataType)]) -> TextSocketSource {
        TextSocketSource { name: name.to_string(), blocks: Blocks::new(schema) }
    }
}

impl Source for TextSocketSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> SourceKind {
        SourceKind::Socket
    }

    fn schema(&self) -> SchemaRef {
        self.blocks.schema()
    }

    fn add_rows(&mut self, rows: &[Row]) -> Result<i64, String> {
        self.blocks.push_rows(rows)
    }

    fn latest_offset(&self) -> Option<i64> {
        self.blocks.latest_offset()
    }

    fn get_batch(&self, start: Option<i64>, end: Option<i64>) -> Vec<RecordBatch> {
        self.blocks.get_batch(start, end)
    }

    fn first_row_index(&self, start: Option<i64>) -> usize {
        self.blocks.first_row_index(start)
    }

    /// The new connection does not see what the old one received.
    fn on_restart(&mut self) {
        self.blocks.lose_all();
    }

    fn replayable(&self) -> bool {
        false
    }

    fn export_note(&self) -> Option<&'static str> {
        Some("a socket source: its lines are written as files; spark.readStream.format(\"socket\") reads a TCP socket and cannot replay after a restart")
    }

    fn clone_box(&self) -> Box<dyn Source> {
        Box::new(self.clone())
    }
}
