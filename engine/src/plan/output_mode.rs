//! `OutputMode`: what a streaming query writes to the sink each batch
//! (`org.apache.spark.sql.streaming.OutputMode`, programming guide "Output Modes").

use crate::error::{AnalysisError, Stage};

/// Append: only rows that will never change. Update: rows changed in this batch.
/// Complete: the whole result table every batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputMode {
    /// `OutputMode.Append`: each result row is written once, when it can no longer change
    /// (after an aggregation: once the watermark has passed its window).
    Append,
    /// `OutputMode.Update`: the result rows that changed in this batch.
    Update,
    /// `OutputMode.Complete`: the whole result table, every batch.
    Complete,
}

impl OutputMode {
    /// All modes, in Spark's order.
    pub const ALL: [OutputMode; 3] = [OutputMode::Append, OutputMode::Update, OutputMode::Complete];

    /// Parses a mode name, case-insensitively (`DataStreamWriter.outputMode`).
    ///
    /// # Errors
    /// Spark's `STREAMING_OUTPUT_MODE.INVALID`.
    pub fn parse(s: &str) -> Result<OutputMode, AnalysisError> {
        match s.to_ascii_lowercase().as_str() {
            "append" => Ok(OutputMode::Append),
            "update" => Ok(OutputMode::Update),
            "complete" => Ok(OutputMode::Complete),
            _ => Err(AnalysisError::new(
                Stage::Start,
                "STREAMING_OUTPUT_MODE.INVALID",
                format!("Invalid streaming output mode: {s}. Accepted output modes are 'Append', 'Complete', 'Update'."),
            )
            .with_sqlstate("42KDE")),
        }
    }

    /// The lower-case name Spark prints in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputMode::Append => "append",
            OutputMode::Update => "update",
            OutputMode::Complete => "complete",
        }
    }
}
