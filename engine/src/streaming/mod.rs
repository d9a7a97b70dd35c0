//! Streaming: `OutputMode`, sources, `WatermarkTracker`, `MicroBatchExecution` and
//! `StreamingQueryProgress`.

pub mod conf;
pub mod micro_batch;
pub mod progress;
pub mod sink;
pub mod source;
pub mod state_view;
pub mod trigger;
pub mod watermark_propagator;
pub mod watermark_tracker;

pub use micro_batch::{BatchResult, Checkpoint, CommitLogEntry, EventTimeSummary, OffsetLogEntry, StartOptions, StreamingConf, StreamingQuery, first_start_ids, run_id_for, uuid_from_seed};
pub use crate::plan::OutputMode;

pub use progress::{parse_progress, StateOperatorProgress, StreamingQueryProgress};
pub use sink::{CrashPoint, DeliveryGuarantee, Sink, SinkKind};
pub use source::{kafka_schema, rate_schema, MemoryStream, Source, SourceKind};
pub use trigger::{Trigger, TriggerArg};
pub use watermark_tracker::{MultipleWatermarkPolicy, WatermarkTracker};
