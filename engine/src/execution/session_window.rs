//! `SessionWindowStateStoreSaveExec` (with `MergingSessionsExec`): session-window
//! aggregation in a stream (`statefulOperators.scala`,
//! `MergingSessionsIterator.scala`).
//!
//! State per grouping key: the key's open sessions, each `[start, end)` with its
//! aggregation buffers. Each batch, a key's new rows are merged with its stored sessions
//! (a row starting at or before a session's end joins it), then all of that key's sessions
//! are written back: each written session counts as an update, each old session whose start
//! disappeared counts as a removal.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::aggregate::AggBuffer;
use super::eval::eval;
use super::OperatorMetrics;
use crate::analysis::{BoundAgg, BoundExpr, SessionSpec};
use crate::state::StateStore;
use crate::plan::OutputMode;
use crate::types::{CalendarInterval, EventTime, Row, Value, WatermarkMs};

/// One session of a key.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionWindow {
    /// The session's start (inclusive), µs since the epoch: its earliest row's event time.
    pub start: i64,
    /// The session's end (exclusive), µs since the epoch: its latest row's event time plus
    /// the gap.
    pub end: i64,
    /// One aggregation buffer per aggregate over the session's rows.
    pub buffers: Vec<AggBuffer>,
}

/// The state of a session-window aggregation: grouping key (without the session) → sessions
/// sorted by start.
#[derive(Debug, Clone, Default)]
pub struct SessionState {
    /// Grouping key → its open sessions, sorted by start.
    pub store: StateStore<Vec<SessionWindow>>,
}

impl SessionState {
    /// Number of stored sessions (Spark's `numRowsTotal`).
    pub fn session_count(&self) -> u64 {
        self.store.iter().map(|(_, s)| s.len() as u64).sum()
    }
}

/// The gap of one row in µs (None: NULL or not an interval).
fn gap_us(gap: &BoundExpr, row: &Row, cache: &mut GapCache, cx: &super::context::EvalContext) -> Option<CalendarInterval> {
    if let BoundExpr::Interval(iv) = gap {
        return Some(*iv);
    }
    match eval(gap, row, cx) {
        Value::Str(s) => *cache.entry(s.clone()).or_insert_with(|| CalendarInterval::parse(&s).ok()),
        Value::Long(us) => Some(CalendarInterval { months: 0, days: 0, micros: us }),
        _ => None,
    }
}

/// Parsed gap strings, by text, for one batch.
pub type GapCache = BTreeMap<Rc<str>, Option<CalendarInterval>>;

/// What `SessionWindowing` makes of one input row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowSession {
    /// The row's own session `[t, t + gap)`, µs.
    Session {
        /// The row's event time, µs.
        start: i64,
        /// The event time plus the row's gap, µs.
        end: i64,
    },
    /// No session: the time is NULL, or the gap NULL, zero or negative (an empty session);
    /// Spark's `SessionWindowing` filters these out with
    /// `isnotnull(session_window) AND (session_window.end > session_window.start)`.
    Empty,
    /// The filter the optimizer pushed below the aggregation ([`SessionSpec::row_filter`])
    /// rejects the row's own session.
    FilteredOut,
}

/// The session one row opens (`SessionWindowing`), before sessions merge.
pub fn row_session(spec: &SessionSpec, row: &Row, cache: &mut GapCache, cx: &super::context::EvalContext) -> RowSession {
    let Value::Timestamp(t) = eval(&spec.time, row, cx) else { return RowSession::Empty };
    let Some(gap) = gap_us(&spec.gap, row, cache, cx) else { return RowSession::Empty };
    let end = gap.add_to(t);
    if end <= t {
        return RowSession::Empty;
    }
    if let Some(f) = &spec.row_filter {
        let mut with_session = row.clone();
        with_session.push(Value::Struct(std::rc::Rc::from(vec![Value::Timestamp(t), Value::Timestamp(end)])));
        if !super::eval::eval_predicate(f, &with_session, cx) {
            return RowSession::FilteredOut;
        }
    }
    RowSession::Session { start: t, end }
}

/// The late and eviction rule of a session window (`SessionWindowStateStoreSaveExec`'s
/// `watermarkPredicateForData`): a session ending at `end_us` (µs) is past watermark `wm`
/// when its end is at or below it ([`EventTime::is_past`]). With `eventTimeWatermarkForLateEvents` a row's own
/// session is late (dropped, counted per row); with `eventTimeWatermarkForEviction` a stored
/// session is emitted (append) and removed.
pub fn session_is_past(end_us: i64, wm: WatermarkMs) -> bool {
    EventTime::from_micros(end_us).is_past(wm)
}

/// The merge rule (`MergingSessionsIterator`): a session starting at `start` (µs) joins the
/// session ending at `current_end` when it starts at or before that end (inclusive).
pub fn joins_session(current_end: i64, start: i64) -> bool {
    start <= current_end
}

/// Merges sessions sorted by start into disjoint sessions ([`joins_session`]): each item's
/// span is given by `span`, and `absorb(into, item)` folds a joining item into the current one
/// (its span already widened to cover both).
pub fn merge_sessions<T>(sorted: Vec<T>, span: impl Fn(&T) -> (i64, i64), mut set_end: impl FnMut(&mut T, i64), mut absorb: impl FnMut(&mut T, &T)) -> Vec<T> {
    let mut merged: Vec<T> = Vec::new();
    for s in sorted {
        let (start, end) = span(&s);
        match merged.last_mut() {
            Some(cur) if joins_session(span(cur).1, start) => {
                let e = span(cur).1.max(end);
                set_end(cur, e);
                absorb(cur, &s);
            }
            _ => merged.push(s),
        }
    }
    merged
}

/// Runs one batch of a session-window aggregation. `watermarked` is true if the session's
/// time column carries the watermark tag.
#[allow(clippy::too_many_arguments)]
pub fn run_session_aggregate(
    state: &mut SessionState,
    input: &[Row],
    keys: &[BoundExpr],
    aggs: &[BoundAgg],
    spec: &SessionSpec,
    watermarked: bool,
    mode: OutputMode,
    wm_for_late_events_ms: WatermarkMs,
    wm_for_eviction_ms: WatermarkMs,
    cx: &super::context::EvalContext,
) -> (Vec<Row>, OperatorMetrics) {
    let mut dropped = 0;
    let mut cache = BTreeMap::new();
    let mut new_rows: BTreeMap<Row, Vec<SessionWindow>> = BTreeMap::new();
    for row in input {
        let RowSession::Session { start: t, end } = row_session(spec, row, &mut cache, cx) else { continue };
        if watermarked && session_is_past(end, wm_for_late_events_ms) {
            dropped += 1;
            continue;
        }
        let key: Row = keys.iter().map(|k| eval(k, row, cx)).collect();
        let mut buffers: Vec<AggBuffer> = aggs.iter().map(|a| AggBuffer::new(a.func)).collect();
        for (b, a) in buffers.iter_mut().zip(aggs) {
            super::aggregate::feed(b, a, row, cx);
        }
        new_rows.entry(key).or_default().push(SessionWindow { start: t, end, buffers });
    }
    let mut updated = 0u64;
    let mut removed = 0u64;
    for (key, rows) in new_rows {
        let old = state.store.get(&key).cloned().unwrap_or_default();
        let old_starts: Vec<i64> = old.iter().map(|s| s.start).collect();
        let mut all: Vec<SessionWindow> = old.into_iter().chain(rows).collect();
        all.sort_by_key(|s| s.start);
        let merged = merge_sessions(
            all,
            |s| (s.start, s.end),
            |s, end| s.end = end,
            |cur, s| {
                for (a, b) in cur.buffers.iter_mut().zip(&s.buffers) {
                    a.merge(b, cx);
                }
            },
        );
        updated += merged.len() as u64;
        removed += old_starts.iter().filter(|st| !merged.iter().any(|m| m.start == **st)).count() as u64;
        state.store.put(key, merged);
    }
    let row_of = |key: &Row, s: &SessionWindow| -> Row {
        let mut r: Row = key.clone();
        r.insert(spec.position, Value::Struct(Rc::from(vec![Value::Timestamp(s.start), Value::Timestamp(s.end)])));
        r.extend(s.buffers.iter().map(AggBuffer::result));
        r
    };
    let mut out = Vec::new();
    match mode {
        OutputMode::Complete => {
            for (k, sessions) in state.store.iter() {
                out.extend(sessions.iter().map(|s| row_of(k, s)));
            }
        }
        _ => {
            if watermarked {
                let past = |s: &SessionWindow| session_is_past(s.end, wm_for_eviction_ms);
                let keys: Vec<Row> = state.store.iter().filter(|(_, ss)| ss.iter().any(past)).map(|(k, _)| k.clone()).collect();
                for k in keys {
                    let Some(sessions) = state.store.get_mut(&k) else { continue };
                    let (gone, keep): (Vec<SessionWindow>, Vec<SessionWindow>) = std::mem::take(sessions).into_iter().partition(past);
                    removed += gone.len() as u64;
                    out.extend(gone.iter().map(|s| row_of(&k, s)));
                    if keep.is_empty() {
                        state.store.remove(&k);
                    } else {
                        *sessions = keep;
                    }
                }
            }
        }
    }
    state.store.commit();
    (
        out,
        OperatorMetrics { num_rows_total: state.session_count(), num_rows_updated: updated, num_rows_removed: removed, num_rows_dropped_by_watermark: dropped },
    )
}
