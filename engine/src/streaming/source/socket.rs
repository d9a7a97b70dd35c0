//! [`TextSocketSource`]: Spark's socket source (`TextSocketSourceProvider`,
//! `TextSocketMicroBatchStream`). Not replayable: it keeps lines only in memory, so what it
//! received but no batch committed is gone after a restart (a new connection) — no
//! exactly-once, whatever the sink.

use arrow_schema::DataType;

use super::{Blocks, Source, SourceKind};

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

    fn blocks(&self) -> &Blocks {
        &self.blocks
    }

    fn blocks_mut(&mut self) -> &mut Blocks {
        &mut self.blocks
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
