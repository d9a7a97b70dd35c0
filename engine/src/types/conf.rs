//! Session confs that more than one layer reads (the checkpoint persists them, the
//! streaming loop applies them): `SQLConf`'s streaming entries as types.

/// `spark.sql.streaming.multipleWatermarkPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MultipleWatermarkPolicy {
    /// The slowest input decides (default).
    #[default]
    Min,
    /// The fastest input decides; slower inputs' late rows are dropped.
    Max,
}

impl MultipleWatermarkPolicy {
    /// Parses the conf value.
    ///
    /// # Errors
    /// Spark's message for an unknown policy.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "min" => Ok(Self::Min),
            "max" => Ok(Self::Max),
            _ => Err(format!("Could not recognize watermark policy '{s}'")),
        }
    }
}
