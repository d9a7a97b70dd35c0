//! [`MemorySink`]: Spark's `MemorySink` (`memory.scala`): the rows of each batch collected
//! and appended in one step, a batch id it has already seen skipped — exactly-once. Its rows
//! become the view named by `queryName(...)`.

use super::{DeliveryGuarantee, Sink, SinkKind, SinkLog};
use crate::analysis::SinkCapabilities;
use crate::plan::OutputMode;
use crate::types::Row;

/// The memory sink. A crash mid-batch leaves nothing (the batch is appended at once); in
/// complete mode each batch replaces the rows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemorySink {
    log: SinkLog,
}

impl SinkCapabilities for MemorySink {
    fn data_source_name(&self) -> &'static str {
        "memory"
    }

    /// Its rows become a view named by `queryName(...)`.
    fn requires_query_name(&self) -> bool {
        true
    }
}

impl Sink for MemorySink {
    fn kind(&self) -> SinkKind {
        SinkKind::Memory
    }


    fn guarantee(&self) -> DeliveryGuarantee {
        DeliveryGuarantee::ExactlyOnce
    }

    fn formats(&self) -> &'static [&'static str] {
        &["memory"]
    }

    fn progress_description(&self) -> &'static str {
        "MemorySink"
    }

    /// Only in complete mode (`recoverFromCheckpointLocation`): in the other modes the sink's
    /// rows would not match the resumed state.
    fn recovers_from_checkpoint(&self, mode: OutputMode) -> bool {
        mode == OutputMode::Complete
    }

    fn add_batch(&mut self, batch_id: u64, rows: &[Row], complete_mode: bool, crash_after: Option<usize>) {
        let attempt = self.log.begin(batch_id, rows.len());
        // Collects the batch, then appends it in one step: a crash leaves nothing.
        if crash_after.is_some() || self.log.is_committed(batch_id) {
            return;
        }
        if complete_mode {
            self.log.written.clear();
        }
        self.log.append(batch_id, attempt, rows, true);
        self.log.mark_committed(batch_id);
    }

    fn log(&self) -> &SinkLog {
        &self.log
    }

    fn clone_box(&self) -> Box<dyn Sink> {
        Box::new(self.clone())
    }
}
