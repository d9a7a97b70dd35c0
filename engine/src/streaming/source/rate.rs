//! [`RateStreamSource`]: Spark's `rate` source (`RateStreamProvider`,
//! `RateStreamMicroBatchStream`): `rowsPerSecond` rows for every whole second of processing
//! time since the query started, as `(timestamp, value)` with `value` counting up from 0.
//! Driven by the query's clock ([`Source::tick`]), so its batch boundaries depend on when
//! triggers fire. Replayable: the rows for an offset range are always the same.

use std::collections::BTreeMap;

use arrow_schema::DataType;
use serde_json::Value as Json;

use super::{whole_option, Blocks, Source, SourceKind};
use crate::types::time::{floor_millis_to_seconds, millis_to_micros, MICROS_PER_SECOND, MILLIS_PER_SECOND};
use crate::types::{Row, Value};

/// The schema of the `rate` source: `timestamp` (µs) and `value` (long).
pub fn rate_schema() -> Vec<(String, DataType)> {
    vec![("timestamp".into(), crate::types::timestamp_type()), ("value".into(), DataType::Int64)]
}

/// Rows made from the clock: each tick that makes rows adds one block.
#[derive(Debug, Clone)]
pub struct RateStreamSource {
    name: String,
    blocks: Blocks,
    rows_per_second: u32,
    /// The clock (ms since the epoch) when the source started.
    start_ms: Option<i64>,
    /// Rows made so far.
    rows: i64,
}

impl RateStreamSource {
    /// A rate source named `name` making `rows_per_second` rows a second. Its rows have
    /// [`rate_schema`] whatever `declared` says.
    pub fn new(name: &str, declared: &[(String, DataType)], rows_per_second: u32) -> RateStreamSource {
        let _ = declared;
        RateStreamSource { name: name.to_string(), blocks: Blocks::new(&rate_schema()), rows_per_second, start_ms: None, rows: 0 }
    }

    /// The kind from the reader options: `rowsPerSecond` (1 to 1000, default 1).
    ///
    /// # Errors
    /// `rowsPerSecond` not a whole number in range.
    pub fn kind_from_options(options: &BTreeMap<String, Json>) -> Result<SourceKind, String> {
        Ok(SourceKind::Rate { rows_per_second: whole_option(options, "rowsPerSecond", 1, 1000)?.unwrap_or(1) })
    }
}

impl Source for RateStreamSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> SourceKind {
        SourceKind::Rate { rows_per_second: self.rows_per_second }
    }

    fn blocks(&self) -> &Blocks {
        &self.blocks
    }

    fn blocks_mut(&mut self) -> &mut Blocks {
        &mut self.blocks
    }

    /// Makes the rows due by `now_ms`: the first tick starts the clock; row `v` gets the
    /// timestamp `start + v / rowsPerSecond` seconds, spread evenly within its second.
    fn tick(&mut self, now_ms: i64) {
        let start = *self.start_ms.get_or_insert(now_ms);
        let elapsed_s = floor_millis_to_seconds(now_ms.saturating_sub(start).max(0));
        let due = elapsed_s * i64::from(self.rows_per_second);
        if due <= self.rows {
            return;
        }
        let rps = i64::from(self.rows_per_second.max(1));
        let rows: Vec<Row> = (self.rows..due)
            .map(|v| {
                let second_ms = start.saturating_add((v / rps).saturating_mul(MILLIS_PER_SECOND));
                vec![Value::Timestamp(millis_to_micros(second_ms).saturating_add((v % rps) * MICROS_PER_SECOND / rps)), Value::Long(v)]
            })
            .collect();
        self.rows = due;
        let _ = self.blocks.push_rows(&rows);
    }

    fn export_note(&self) -> Option<&'static str> {
        Some("the rate source: the rows it made at each of the lab's triggers are written as files; spark.readStream.format(\"rate\") makes them from the wall clock instead")
    }

    fn exports_made_rows(&self) -> bool {
        true
    }

    fn clone_box(&self) -> Box<dyn Source> {
        Box::new(self.clone())
    }
}
