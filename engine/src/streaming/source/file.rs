//! [`FileStreamSource`]: Spark's file source (`FileStreamSource.scala`) with
//! `maxFilesPerTrigger`. Replayable: the files stay where they are, and the offset (here the
//! index of the last file, Spark's `FileStreamSourceOffset` log index) says which were read.

use std::collections::BTreeMap;

use arrow_schema::DataType;
use serde_json::Value as Json;

use super::{whole_option, Blocks, Source, SourceKind};

/// A directory of files; each `add_rows` call is one new file. A batch takes every new file,
/// or at most `maxFilesPerTrigger` of them (`ReadLimit.maxFiles`), except under
/// `trigger(once=True)`, which reads all that is available.
#[derive(Debug, Clone)]
pub struct FileStreamSource {
    name: String,
    blocks: Blocks,
    max_files_per_trigger: Option<usize>,
}

impl FileStreamSource {
    /// An empty directory named `name` whose files have `schema`; `max_files_per_trigger`
    /// as the `maxFilesPerTrigger` option (`Some(0)` reads as 1).
    pub fn new(name: &str, schema: &[(String, DataType)], max_files_per_trigger: Option<usize>) -> FileStreamSource {
        FileStreamSource { name: name.to_string(), blocks: Blocks::new(schema), max_files_per_trigger }
    }

    /// The kind from the reader options: `maxFilesPerTrigger` (1 to 2³²−1), if given.
    ///
    /// # Errors
    /// `maxFilesPerTrigger` not a whole number in range.
    pub fn kind_from_options(options: &BTreeMap<String, Json>) -> Result<SourceKind, String> {
        Ok(SourceKind::File { max_files_per_trigger: whole_option(options, "maxFilesPerTrigger", 1, u32::MAX)?.map(|n| n as usize) })
    }
}

impl Source for FileStreamSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> SourceKind {
        SourceKind::File { max_files_per_trigger: self.max_files_per_trigger }
    }

    fn blocks(&self) -> &Blocks {
        &self.blocks
    }

    fn blocks_mut(&mut self) -> &mut Blocks {
        &mut self.blocks
    }

    /// At most `maxFilesPerTrigger` files after `start` (all of them with `ignore_limits`).
    fn next_end(&self, start: Option<i64>, ignore_limits: bool) -> Option<i64> {
        let latest = self.latest_offset();
        match (self.max_files_per_trigger, ignore_limits) {
            (Some(n), false) => {
                let first = start.map_or(0, |s| s + 1);
                latest.map(|l| l.min(first + n.max(1) as i64 - 1))
            }
            _ => latest,
        }
    }

    fn clone_box(&self) -> Box<dyn Source> {
        Box::new(self.clone())
    }
}
