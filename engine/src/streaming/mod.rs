//! Streaming: `OutputMode`, sources, `WatermarkTracker`, `MicroBatchExecution` and
//! `StreamingQueryProgress`.

pub mod micro_batch;
pub mod output_mode;
pub mod progress;
pub mod sink;
pub mod source;
pub mod trigger;
pub mod watermark_propagator;
pub mod watermark_tracker;

pub use micro_batch::{sink_accepts, BatchResult, Checkpoint, CommitLogEntry, EventTimeSummary, OffsetLogEntry, StreamingConf, StreamingQuery};
pub use output_mode::OutputMode;

/// Where a query's checkpoint lives: [`crate::checkpoint::checkpoint_location`] for `sink`
/// (true = a temporary checkpoint).
///
/// # Errors
/// Spark's `_LEGACY_ERROR_TEMP_1298` for a file or Kafka sink without a location.
pub fn checkpoint_location(sink: SinkKind, has_location: bool) -> Result<bool, crate::error::Error> {
    crate::checkpoint::checkpoint_location(sink.allows_temporary_checkpoint(), has_location)
}
pub use progress::{parse_progress, StateOperatorProgress, StreamingQueryProgress};
pub use sink::{CrashPoint, Sink, SinkKind};
pub use source::{kafka_schema, rate_schema, MemoryStream, SourceKind};
pub use trigger::{Trigger, TriggerArg};
pub use watermark_tracker::{MultipleWatermarkPolicy, WatermarkTracker};
