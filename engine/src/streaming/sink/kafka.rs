//! [`KafkaSink`]: Spark's Kafka sink (`KafkaSourceProvider`'s `KafkaTable`, `KafkaWriter`):
//! every record it is given is appended to the topic — at-least-once: a re-run batch appends
//! again, and a crash mid-batch leaves the records already sent.

use super::{DeliveryGuarantee, Sink, SinkKind, SinkLog};
use crate::analysis::SinkCapabilities;
use crate::types::Row;

/// The Kafka sink: a topic the rows are appended to.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KafkaSink {
    log: SinkLog,
}

impl SinkCapabilities for KafkaSink {
    fn data_source_name(&self) -> &'static str {
        "kafka"
    }

    /// It needs a real checkpoint location.
    fn allows_temporary_checkpoint(&self) -> bool {
        false
    }
}

impl Sink for KafkaSink {
    fn kind(&self) -> SinkKind {
        SinkKind::Kafka
    }


    fn guarantee(&self) -> DeliveryGuarantee {
        DeliveryGuarantee::AtLeastOnce
    }

    fn formats(&self) -> &'static [&'static str] {
        &["kafka"]
    }

    fn progress_description(&self) -> &'static str {
        "KafkaTable"
    }

    fn add_batch(&mut self, batch_id: u64, rows: &[Row], _complete_mode: bool, crash_after: Option<usize>) {
        let attempt = self.log.begin(batch_id, rows.len());
        self.log.append(batch_id, attempt, super::rows_before_crash(rows, crash_after), true);
    }

    fn log(&self) -> &SinkLog {
        &self.log
    }

    fn clone_box(&self) -> Box<dyn Sink> {
        Box::new(self.clone())
    }
}
