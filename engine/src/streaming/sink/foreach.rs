//! [`ForeachSink`]: Spark's `foreach(writer)` (`ForeachWriterTable`): `open(partitionId,
//! epochId)`, `process(row)` per row, `close(error)` per partition and epoch. Every call
//! writes: at-least-once (a writer may use `epochId` to skip, the sink itself does not).

use super::{DeliveryGuarantee, Sink, SinkKind, SinkLog};
use crate::analysis::SinkCapabilities;
use crate::types::Row;

/// The foreach sink: one partition, the writer's calls logged.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ForeachSink {
    log: SinkLog,
}

impl SinkCapabilities for ForeachSink {
    fn data_source_name(&self) -> &'static str {
        "foreach"
    }
}

impl Sink for ForeachSink {
    fn kind(&self) -> SinkKind {
        SinkKind::Foreach
    }


    fn guarantee(&self) -> DeliveryGuarantee {
        DeliveryGuarantee::AtLeastOnce
    }

    fn progress_description(&self) -> &'static str {
        "ForeachWriterTable"
    }

    fn add_batch(&mut self, batch_id: u64, rows: &[Row], _complete_mode: bool, crash_after: Option<usize>) {
        let attempt = self.log.begin(batch_id, rows.len());
        self.log.append(batch_id, attempt, super::rows_before_crash(rows, crash_after), true);
    }

    fn log(&self) -> &SinkLog {
        &self.log
    }

    /// The writer's open/process/close calls, as a `ForeachWriter` receives them.
    fn log_text(&self, _columns: &[String]) -> Option<String> {
        let mut out = String::new();
        for (call, rows) in &self.log.calls() {
            out.push_str(&format!("open(partitionId=0, epochId={}) -> true\n", call.batch_id));
            for r in rows {
                out.push_str(&format!("process({})\n", r.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")));
            }
            out.push_str("close(None)\n");
        }
        Some(out)
    }

    fn clone_box(&self) -> Box<dyn Sink> {
        Box::new(self.clone())
    }
}
