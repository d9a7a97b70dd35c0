//! [`FileStreamSink`]: Spark's `FileStreamSink` with `ManifestFileCommitProtocol`: a batch
//! writes part files, then adds entry N to `_spark_metadata`; a batch id already in the log
//! is skipped, and readers see only the files the log lists — exactly-once. Append mode only.

use super::{DeliveryGuarantee, Sink, SinkKind, SinkLog};
use crate::analysis::SinkCapabilities;
use crate::plan::OutputMode;
use crate::types::Row;

/// The file sink: [`SinkLog::committed_batches`] is its `_spark_metadata` log; a row of a
/// part file no log entry lists is written but not visible.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileStreamSink {
    log: SinkLog,
}

impl SinkCapabilities for FileStreamSink {
    /// The default file format's name, as Spark's messages print it.
    fn data_source_name(&self) -> &'static str {
        "parquet"
    }

    /// The file sink takes append mode only.
    fn accepts_output_mode(&self, mode: OutputMode) -> bool {
        mode == OutputMode::Append
    }

    /// It needs a real checkpoint location.
    fn allows_temporary_checkpoint(&self) -> bool {
        false
    }
}

impl Sink for FileStreamSink {
    fn kind(&self) -> SinkKind {
        SinkKind::File
    }


    fn guarantee(&self) -> DeliveryGuarantee {
        DeliveryGuarantee::ExactlyOnce
    }

    fn formats(&self) -> &'static [&'static str] {
        &["parquet", "json", "csv", "orc", "text", "delta"]
    }

    fn progress_description(&self) -> &'static str {
        "FileSink[<checkpoint>/out]"
    }

    /// A V1 sink: progress reports `numOutputRows` -1.
    fn reports_output_rows(&self) -> bool {
        false
    }

    fn add_batch(&mut self, batch_id: u64, rows: &[Row], _complete_mode: bool, crash_after: Option<usize>) {
        let attempt = self.log.begin(batch_id, rows.len());
        if self.log.is_committed(batch_id) {
            return;
        }
        // Part files first (invisible), then entry N in `_spark_metadata`.
        self.log.append(batch_id, attempt, super::rows_before_crash(rows, crash_after), false);
        if crash_after.is_some() {
            return;
        }
        for w in self.log.written.iter_mut().filter(|w| w.batch_id == batch_id && w.attempt == attempt) {
            w.visible = true;
        }
        self.log.mark_committed(batch_id);
    }

    fn log(&self) -> &SinkLog {
        &self.log
    }

    fn clone_box(&self) -> Box<dyn Sink> {
        Box::new(self.clone())
    }
}
