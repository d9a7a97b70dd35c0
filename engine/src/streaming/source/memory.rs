//! [`MemoryStream`]: Spark's `MemoryStream` (`MemoryStream.scala`), the source tests and the
//! lab push rows into. Replayable: its blocks stay, so a restarted query reads the same data
//! again; a batch takes everything new (no read limit).

use arrow_schema::DataType;

use super::{Blocks, Source, SourceKind};

/// An append-only in-memory source; each `add_rows` call is one block (`addData`), its
/// offset the block's index (`LongOffset`).
#[derive(Debug, Clone)]
pub struct MemoryStream {
    name: String,
    blocks: Blocks,
}

impl MemoryStream {
    /// An empty stream named `name` with `schema` (names and Arrow types).
    ///
    /// # Examples
    /// ```
    /// use streamlab_engine::streaming::{MemoryStream, Source};
    /// use streamlab_engine::types::{DataType, Value};
    /// let mut s = MemoryStream::new("clicks", &[("n".into(), DataType::Int64)]);
    /// assert_eq!(s.add_rows(&[vec![Value::Long(1)]]), Ok(0));
    /// assert_eq!(s.latest_offset(), Some(0));
    /// ```
    pub fn new(name: &str, schema: &[(String, DataType)]) -> MemoryStream {
        MemoryStream { name: name.to_string(), blocks: Blocks::new(schema) }
    }
}

impl Source for MemoryStream {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> SourceKind {
        SourceKind::Memory
    }

    fn blocks(&self) -> &Blocks {
        &self.blocks
    }

    fn blocks_mut(&mut self) -> &mut Blocks {
        &mut self.blocks
    }

    fn clone_box(&self) -> Box<dyn Source> {
        Box::new(self.clone())
    }
}
