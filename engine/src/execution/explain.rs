//! Why each row of a micro-batch ended where it did: the engine explaining itself, for the
//! lab's time picture and its narration. The explanation is computed by the engine from the
//! same plan, predicates, window assignment and late/eviction rules that [`super::execute`]
//! runs (no rule lives twice), before the batch changes any state.
//!
//! Shapes and units: event times are µs since the epoch (as [`crate::types::Value`] holds
//! timestamps), watermarks are ms (as Spark's `WatermarkTracker` holds them), batch ids are
//! Spark's (0-based). One input row can have several fates: a row feeding two sliding windows
//! has one fate per window, an exploded row one per element.
//!
//! Which watermark decides what (spec §2.4, `IncrementalExecution`'s state rule): a row is late
//! for a stateful operator when its event time (for a window: the window's end) is at or below
//! the operator's `eventTimeWatermarkForLateEvents` — batch N-1's watermark; state is evicted
//! against `eventTimeWatermarkForEviction` — batch N's watermark.

use crate::types::Row;

/// A join input's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JoinSide {
    Left,
    Right,
}

/// What happened to one input row (or one of its copies) at one operator.
#[derive(Debug, Clone, PartialEq)]
pub enum RowFate {
    /// A `Filter` dropped it; `predicate` is the condition as Spark prints it.
    Filtered { predicate: String },
    /// A stateful operator dropped it as late: its event time (`window`'s end for a window
    /// aggregation, the row's event time otherwise; µs) was at or below the operator's
    /// `eventTimeWatermarkForLateEvents` (`watermark_ms`). Counted in that operator's
    /// `numRowsDroppedByWatermark` (once per window: a row late for two sliding windows counts
    /// 2, as Spark counts partially aggregated rows).
    Late { op_id: usize, operator: String, event_time_us: i64, watermark_ms: i64, window: Option<(i64, i64)> },
    /// An aggregation took it into the group `key` (for a window aggregation, `window` is the
    /// window's [start, end) in µs; for a session window, the session it joined or started).
    Aggregated { op_id: usize, key: Row, window: Option<(i64, i64)> },
    /// `dropDuplicates` dropped it: its key was already in the state store (`in_batch` false)
    /// or came earlier in the same batch (`in_batch` true). `expires_at_us` is when the key's
    /// state row goes (`None`: kept forever).
    Deduplicated { op_id: usize, key: Row, in_batch: bool, expires_at_us: Option<i64> },
    /// `dropDuplicates` kept it as the first of its key; the key is kept until
    /// `expires_at_us` (`None`: forever).
    FirstOfKey { op_id: usize, key: Row, expires_at_us: Option<i64> },
    /// A stream-stream join buffered it on `side`, matched it with `partners` rows of the
    /// other side (in state or in this batch), and keeps it until the state watermark passes
    /// `evicts_at_us` (`None`: kept forever — no state watermark on this side).
    Joined { op_id: usize, side: JoinSide, partners: usize, evicts_at_us: Option<i64> },
    /// A stream-static join found no static row for it (inner join), so it goes no further.
    NoStaticMatch,
    /// A streaming `limit` had already emitted its `n` rows.
    OverLimit { op_id: usize },
    /// It reached the sink as output row `index` of the batch (stateless queries only: after
    /// an aggregation the output is the aggregation's, see `Aggregated`).
    Emitted { index: usize },
}

/// The coarse kind of a fate, for a mark's colour and shape on the time picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FateKind {
    /// Taken into state or emitted.
    Kept,
    Late,
    Filtered,
    Deduplicated,
    Joined,
}

impl RowFate {
    /// The fate's kind.
    pub fn kind(&self) -> FateKind {
        match self {
            RowFate::Filtered { .. } | RowFate::NoStaticMatch | RowFate::OverLimit { .. } => FateKind::Filtered,
            RowFate::Late { .. } => FateKind::Late,
            RowFate::Deduplicated { .. } => FateKind::Deduplicated,
            RowFate::Joined { partners, .. } if *partners > 0 => FateKind::Joined,
            RowFate::Aggregated { .. } | RowFate::FirstOfKey { .. } | RowFate::Joined { .. } | RowFate::Emitted { .. } => FateKind::Kept,
        }
    }
}

/// One input row of the batch and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct RowExplanation {
    /// The source it was read from (the `MemoryStream`'s name).
    pub source: String,
    /// Its offset in that source (0-based, over the whole stream).
    pub offset: usize,
    /// The row as the source holds it.
    pub row: Row,
    /// Its event time (the watermarked column), µs; `None` if the query has no watermark on
    /// this source or the value is null.
    pub event_time_us: Option<i64>,
    /// What happened to it, in plan order (upstream first); never empty.
    pub fates: Vec<RowFate>,
}

impl RowExplanation {
    /// The kind the picture shows: late beats filtered beats deduplicated beats joined beats
    /// kept (a row late for one sliding window and kept for the other is shown late).
    pub fn kind(&self) -> FateKind {
        let kinds: Vec<FateKind> = self.fates.iter().map(RowFate::kind).collect();
        [FateKind::Late, FateKind::Filtered, FateKind::Deduplicated, FateKind::Joined].into_iter().find(|k| kinds.contains(k)).unwrap_or(FateKind::Kept)
    }
}

/// Why a micro-batch ran (`MicroBatchExecution.constructNextBatch`).
#[derive(Debug, Clone, PartialEq)]
pub enum BatchReason {
    /// New rows arrived (`rows` in all).
    NewData { rows: u64 },
    /// No new rows, but `shouldRunAnotherBatch`: stateful operator `op_id`'s eviction
    /// watermark moved from `from_ms` to `to_ms`, past the deadline of some state row.
    WatermarkMoved { op_id: usize, operator: String, from_ms: i64, to_ms: i64 },
    /// A batch logged before a restart, run again exactly as logged.
    Recovered,
}

/// What a stateful operator did in the batch, for the narration; the numbers are the batch's
/// `StateOperatorProgress`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorSummary {
    pub op_id: usize,
    pub operator: String,
    /// `eventTimeWatermarkForLateEvents` / `…ForEviction` of the operator, ms.
    pub wm_for_late_events_ms: i64,
    pub wm_for_eviction_ms: i64,
    pub num_rows_dropped_by_watermark: u64,
    pub num_rows_updated: u64,
    pub num_rows_removed: u64,
    pub num_rows_total: u64,
}

/// Everything one micro-batch did, row by row.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchExplanation {
    pub batch_id: u64,
    pub reason: BatchReason,
    /// The global watermark the batch ran with (wm(N)), ms; `None` without a watermark.
    pub watermark_ms: Option<i64>,
    /// The global watermark after the batch (the next batch's), ms.
    pub next_watermark_ms: Option<i64>,
    /// Every input row, source by source, in offset order.
    pub rows: Vec<RowExplanation>,
    /// Rows the sink received.
    pub emitted_rows: u64,
    /// One per stateful operator, downstream first (as in progress).
    pub operators: Vec<OperatorSummary>,
}
