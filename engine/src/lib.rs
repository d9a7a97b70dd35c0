//! Streamlab's engine: a deterministic re-implementation of Spark Structured Streaming's
//! micro-batch semantics, for the browser (wasm32) and natively.
//!
//! # Layout
//! - [`types`]: values, rows, Arrow data types, timestamps (µs) and Spark interval strings.
//! - [`frontend`]: PySpark text (and SQL strings in it) → [`plan::LogicalPlan`].
//! - [`plan`]: unresolved expressions and logical operators.
//! - [`analysis`]: the Analyzer and `UnsupportedOperationChecker` — the only place a query
//!   is rejected.
//! - [`execution`]: the `*Exec` operators that run one micro-batch.
//! - [`state`]: the versioned `StateStore`.
//! - [`streaming`]: `OutputMode`, `Source` (+ `MemoryStream`), `Sink`, `WatermarkTracker`,
//!   `MicroBatchExecution` (`StreamingQuery`) and `StreamingQueryProgress`.
//! - [`scenario`]: the conformance scenario format, a runner and the comparison with Spark.
//! - [`workloads`]: the benchmarks' synthetic queries and events (native and in the browser).
//! - [`export`]: a scenario as a runnable PySpark script (the path from the lab to real Spark).
//!
//! The engine never reads the wall clock, spawns threads or touches the filesystem; the
//! same inputs give the same batches, outputs, state and progress.
#![warn(missing_docs)]

pub mod analysis;
pub mod checkpoint;
pub mod error;
pub mod execution;
pub mod export;
pub mod frontend;
pub mod plan;
pub mod pyfunc;
pub mod scenario;
pub mod state;
pub mod streaming;
pub mod types;
pub mod workloads;

pub use error::{AnalysisError, Error, ParseError, Span, Stage};
