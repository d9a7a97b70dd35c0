//! [`ForeachBatchSink`]: Spark's `ForeachBatchSink` (`foreachBatch(f)`): calls the user's
//! function with (DataFrame, batch id) on every batch, a re-run one included. What that
//! guarantees depends on the function ([`BatchWriter`]): a naive writer appends every call —
//! at-least-once; an idempotent one skips a batch id it finished and overwrites what a
//! crashed attempt of it left — exactly-once.

use super::{DeliveryGuarantee, Sink, SinkKind, SinkLog};
use crate::analysis::SinkCapabilities;
use crate::types::Row;

/// What the user's `foreachBatch` function does with a batch id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BatchWriter {
    /// Appends every call's rows.
    #[default]
    Naive,
    /// Writes under the batch id: skips a finished batch id, replaces a partial one.
    Idempotent,
}

/// The foreachBatch sink with one of the two writers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ForeachBatchSink {
    writer: BatchWriter,
    log: SinkLog,
}

impl ForeachBatchSink {
    /// An empty sink whose function is `writer`.
    pub fn new(writer: BatchWriter) -> ForeachBatchSink {
        ForeachBatchSink { writer, log: SinkLog::default() }
    }
}

impl SinkCapabilities for ForeachBatchSink {
    fn data_source_name(&self) -> &'static str {
        "foreachBatch"
    }

    /// `DataStreamWriter.start`'s check (a micro-batch-only sink).
    fn continuous_unsupported(&self) -> Option<&'static str> {
        Some("'foreachBatch' is not supported with continuous trigger.")
    }
}

impl Sink for ForeachBatchSink {
    fn kind(&self) -> SinkKind {
        match self.writer {
            BatchWriter::Naive => SinkKind::ForeachBatchNaive,
            BatchWriter::Idempotent => SinkKind::ForeachBatchIdempotent,
        }
    }


    fn guarantee(&self) -> DeliveryGuarantee {
        match self.writer {
            BatchWriter::Naive => DeliveryGuarantee::AtLeastOnce,
            BatchWriter::Idempotent => DeliveryGuarantee::ExactlyOnce,
        }
    }

    fn progress_description(&self) -> &'static str {
        "ForeachBatchSink"
    }

    /// A V1 sink: progress reports `numOutputRows` -1.
    fn reports_output_rows(&self) -> bool {
        false
    }

    fn add_batch(&mut self, batch_id: u64, rows: &[Row], _complete_mode: bool, crash_after: Option<usize>) {
        let attempt = self.log.begin(batch_id, rows.len());
        let rows = super::rows_before_crash(rows, crash_after);
        match self.writer {
            BatchWriter::Naive => self.log.append(batch_id, attempt, rows, true),
            BatchWriter::Idempotent => {
                // The writer overwrites what it stored under this batch id, and skips a batch
                // id it already finished.
                if self.log.is_committed(batch_id) {
                    return;
                }
                self.log.written.retain(|w| w.batch_id != batch_id);
                self.log.append(batch_id, attempt, rows, true);
                if crash_after.is_none() {
                    self.log.mark_committed(batch_id);
                }
            }
        }
    }

    fn log(&self) -> &SinkLog {
        &self.log
    }

    /// One line per call of the function, an empty batch's included: the DataFrame's rows,
    /// whatever the function then wrote.
    fn log_text(&self, _columns: &[String]) -> Option<String> {
        let mut out = String::new();
        for (call, _) in &self.log.calls() {
            out.push_str(&format!("f(batch_df with {} rows, batch_id={})\n", call.offered, call.batch_id));
        }
        Some(out)
    }

    fn clone_box(&self) -> Box<dyn Sink> {
        Box::new(self.clone())
    }
}
