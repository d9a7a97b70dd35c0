//! The time picture's model: every micro-batch as a horizontal band (batch 0 at the bottom),
//! every input row a mark at (its event time, the batch that read it) with its fate, the
//! watermark each batch ran with (a staircase that moves only at batch ends), and windows as
//! bars along event time. Plain Rust, built by [`crate::lab::session::LabSession::picture`] from the
//! batches' results and the engine's explanations ([`BatchExplanation`]); the component
//! (`components::time_picture`) only draws it.
//!
//! Nothing here decides a row's fate: a mark's kind is [`RowExplanation::kind`], and a batch
//! without an explanation shows its input rows as `Kept`. Times are µs since the epoch,
//! watermarks ms (as the engine holds them).

use std::collections::BTreeMap;
use std::rc::Rc;

use streamlab_engine::execution::explain::{BatchExplanation, FateKind, RowExplanation, RowFate};
use streamlab_engine::execution::state_rows::{StateCell, StateRowLabel, StateTable};
use streamlab_engine::types::{Row, Value};

use crate::lab::cells::{display_cell, state_cell_text};

mod axis;
mod narration;

pub use axis::{key_step, kind_id, snap, snap_step, step_from, ticks};
pub use narration::{fate_text, narrate};

/// One micro-batch's band.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The micro-batch id (`batchId`).
    pub batch_id: u64,
    /// True for a no-data micro-batch: it ran only because the watermark moved.
    pub no_data: bool,
    /// Rows the batch read.
    pub input_rows: u64,
    /// The global watermark the batch ran with, ms (`None` without a watermark).
    pub watermark_ms: Option<i64>,
    /// Rows the sink received.
    pub emitted_rows: u64,
    /// Late rows dropped, summed over the stateful operators (`numRowsDroppedByWatermark`).
    pub dropped_rows: u64,
    /// State rows removed, summed over the stateful operators (`numRowsRemoved`).
    pub removed_rows: u64,
    /// The engine's explanation, when it gave one (shared with the batch's result).
    pub explanation: Option<std::rc::Rc<BatchExplanation>>,
}

/// One input row on the picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Index into [`Picture::bands`]; `None` for a pending row (not read by a batch yet).
    pub band: Option<usize>,
    /// Position among its band's rows of the same lane (for spreading marks vertically).
    pub slot: usize,
    /// Its event time, µs (`None`: no event-time column or NULL).
    pub event_time_us: Option<i64>,
    /// The source's column names (shared by its marks): [`Mark::cells`] pairs them with the
    /// row's values.
    pub columns: Rc<[String]>,
    /// The scenario's day, µs: the row's times show as on it ([`Mark::cells`]).
    pub day_us: i64,
    /// The row's values (strings are shared, not copied): how the session matches the row to
    /// its log cheaply.
    pub row: Row,
    /// `None` for a pending row.
    pub kind: Option<FateKind>,
    /// The engine's fates, upstream first (empty without an explanation).
    pub fates: Vec<RowFate>,
    /// For a late row: the band whose watermark made it late (the first batch that ran with
    /// the watermark it was judged against).
    pub late_band: Option<usize>,
    /// Its offset in its source (from the engine's explanation), or, for a pending row, its
    /// index among the pending rows: how the session finds the row in its log.
    pub offset: Option<usize>,
    /// Where the row sits in the session's action log, (action index, row index), when the
    /// session could tell (filled by [`crate::lab::session::LabSession::picture`]): a mark with an
    /// origin can be dragged along event time.
    pub origin: Option<(usize, usize)>,
}

impl Mark {
    /// The row's cells as the lab shows them, with their column names (written when asked
    /// for: a picture has a mark per row, and the page shows a few of them as text).
    pub fn cells(&self) -> Vec<(String, String)> {
        self.columns.iter().cloned().zip(self.row.iter().map(|v| display_cell(v, self.day_us))).collect()
    }
}

/// What a window bar shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WindowStatus {
    /// In state, the watermark has not reached its end.
    Open,
    /// Written by the batch (an input row was aggregated into it).
    Updated,
    /// The eviction watermark passed its end: the next batch emits or drops it.
    Closing,
    /// In the batch's output.
    Emitted,
    /// Removed from state by the last batch.
    Evicted,
    /// Kept forever (complete mode, no watermark).
    Kept,
}

/// A window (or a single time, for a join or dedup state row) along event time.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowBar {
    /// The band it belongs to; `None` for the state as it is now (the strip above the bands).
    pub band: Option<usize>,
    /// Where the bar starts along event time, µs since the epoch (a window's start).
    pub start_us: i64,
    /// Where the bar ends along event time, µs since the epoch (a window's exclusive end; equal to
    /// [`WindowBar::start_us`] for a single time).
    pub end_us: i64,
    /// What the bar shows: written, closing, emitted, evicted, ...
    pub status: WindowStatus,
    /// Its row (stacking) inside the band's window strip; overlapping bars get different rows.
    pub row: usize,
    /// The state row or output row, as text.
    pub label: String,
}

/// One source's half of the picture (a join shows its two sides side by side).
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// The source's name; the lane holds its input rows.
    pub source: String,
    /// The event-time column (the first timestamp column of the source).
    pub time_column: Option<String>,
    /// The event-time range shown, µs, [from, to).
    pub range_us: (i64, i64),
    /// The source's input rows, pending ones included.
    pub marks: Vec<Mark>,
    /// The window and state bars drawn along this lane's event time.
    pub windows: Vec<WindowBar>,
}

/// The whole picture.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Picture {
    /// Every micro-batch's band, batch 0 first.
    pub bands: Vec<Band>,
    /// One lane per source, in the sources' order.
    pub lanes: Vec<Lane>,
    /// The watermark the next batch runs with, ms.
    pub next_watermark_ms: Option<i64>,
    /// The scenario's day (µs at 00:00 UTC), for showing times as `12:07`.
    pub day_us: i64,
    /// True if some row is pending (a band above the last batch holds them).
    pub has_pending: bool,
    /// The names of each stateful operator's key values (`explain::key_columns`), so a card
    /// says `post_id = 1` rather than `1`.
    pub key_columns: KeyColumns,
    /// The first event time the scenario's steps bring (µs), where an empty lane's axis
    /// starts (so the axis shows the times the example is about to bring, not a made-up hour).
    pub first_event_us: Option<i64>,
}

/// Key column names by stateful operator id.
pub type KeyColumns = BTreeMap<usize, Vec<String>>;

/// A source as the picture needs it: name, column names, event-time column index.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceInfo {
    /// The source's name in the scenario.
    pub name: String,
    /// The source's column names, in schema order (shared with its marks).
    pub columns: Rc<[String]>,
    /// The index in [`SourceInfo::columns`] of the event-time column (the first timestamp column);
    /// `None` when it has none.
    pub time_index: Option<usize>,
}

/// One batch as the picture needs it (from a `BatchResult`).
#[derive(Debug, Clone, PartialEq)]
pub struct BatchInput {
    /// The batch's band (its numbers and the engine's explanation).
    pub band: Band,
    /// The rows read, per source, in offset order (used when there is no explanation).
    pub input: Vec<(String, Vec<Row>)>,
    /// The rows the sink received.
    pub output: Vec<Row>,
}

const MINUTE_US: i64 = 60_000_000;

/// Builds the picture from the batches (oldest first), the rows still pending, the state
/// tables as they are now, and the sources.
pub fn build(sources: &[SourceInfo], batches: &[BatchInput], pending: &[(String, Row)], state: &[StateTable], next_watermark_ms: Option<i64>, day_us: i64) -> Picture {
    let bands: Vec<Band> = batches.iter().map(|b| b.band.clone()).collect();
    let mut lanes: Vec<Lane> = sources
        .iter()
        .map(|s| Lane { source: s.name.clone(), time_column: s.time_index.and_then(|i| s.columns.get(i).cloned()), range_us: (0, 0), marks: Vec::new(), windows: Vec::new() })
        .collect();
    let lane_of = |name: &str| sources.iter().position(|s| s.name == name);
    for (bi, b) in batches.iter().enumerate() {
        let mut slots = vec![0usize; lanes.len()];
        // The windows the batch wrote, labelled by their first key (the label is written once
        // per window, after the duplicates are gone).
        let mut updated: Vec<(usize, i64, i64, &Row)> = Vec::new();
        match &b.band.explanation {
            Some(ex) => {
                for r in &ex.rows {
                    let Some(li) = lane_of(&r.source) else { continue };
                    let src = &sources[li];
                    for f in &r.fates {
                        if let RowFate::Aggregated { window: Some((s, e)), key, .. } = f {
                            updated.push((li, *s, *e, key));
                        }
                    }
                    lanes[li].marks.push(mark_from_explanation(r, src, bi, slots[li], &bands, day_us));
                    slots[li] += 1;
                }
            }
            None => {
                for (source, rows) in &b.input {
                    let Some(li) = lane_of(source) else { continue };
                    let src = &sources[li];
                    for row in rows {
                        lanes[li].marks.push(Mark {
                            band: Some(bi),
                            slot: slots[li],
                            event_time_us: row_time(src, row),
                            columns: src.columns.clone(),
                            day_us,
                            row: row.clone(),
                            kind: Some(FateKind::Kept),
                            fates: Vec::new(),
                            late_band: None,
                            offset: None,
                            origin: None,
                        });
                        slots[li] += 1;
                    }
                }
            }
        }
        updated.sort_by_key(|u| (u.0, u.1, u.2));
        updated.dedup_by_key(|u| (u.0, u.1, u.2));
        for (li, s, e, key) in updated {
            lanes[li].windows.push(WindowBar { band: Some(bi), start_us: s, end_us: e, status: WindowStatus::Updated, row: 0, label: row_text(key, day_us) });
        }
        // Windows in the output (a `[start, end)` column): emitted by this batch.
        if let Some(lane) = lanes.first_mut() {
            for row in &b.output {
                if let Some((s, e)) = row.iter().find_map(window_of) {
                    lane.windows.push(WindowBar { band: Some(bi), start_us: s, end_us: e, status: WindowStatus::Emitted, row: 0, label: row_text(row, day_us) });
                }
            }
        }
    }
    let mut pending_slots = vec![0usize; lanes.len()];
    for (pi, (source, row)) in pending.iter().enumerate() {
        let Some(li) = lane_of(source) else { continue };
        let src = &sources[li];
        lanes[li].marks.push(Mark {
            band: None,
            slot: pending_slots[li],
            event_time_us: row_time(src, row),
            columns: src.columns.clone(),
            day_us,
            row: row.clone(),
            kind: None,
            fates: Vec::new(),
            late_band: None,
            offset: Some(pi),
            origin: None,
        });
        pending_slots[li] += 1;
    }
    for table in state {
        let li = state_lane(table, sources);
        let Some(lane) = lanes.get_mut(li) else { continue };
        // An applyInPandasWithState key sits at its event-time timeout, if it has one (a
        // processing-time timeout is not on the event-time axis).
        let group_state = table.operator == "applyInPandasWithState";
        for r in &table.rows {
            let timeout = match r.label {
                StateRowLabel::Open { evicts_at_us: Some(t) } | StateRowLabel::Closing { evicts_at_us: t } => Some((t.micros(), t.micros())),
                _ => None,
            };
            let Some((s, e)) = (if group_state { timeout } else { None }).or_else(|| if group_state { None } else { r.cells.iter().find_map(|c| match c {
                StateCell::Value(v) => window_of(v).or(match v {
                    Value::Timestamp(t) => Some((*t, *t)),
                    _ => None,
                }),
                StateCell::SessionFrom(t) => Some((*t, *t)),
                _ => None,
            }) }) else {
                continue;
            };
            let status = match r.label {
                StateRowLabel::Evicted => WindowStatus::Evicted,
                StateRowLabel::Closing { .. } => WindowStatus::Closing,
                _ if r.updated_this_batch => WindowStatus::Updated,
                StateRowLabel::Open { .. } => WindowStatus::Open,
                StateRowLabel::Kept(_) => WindowStatus::Kept,
            };
            let label = r
                .cells
                .iter()
                // As the state table shows it; a key not called this batch is just left out.
                .map(|c| if *c == StateCell::Called(None) { String::new() } else { state_cell_text(c, day_us) })
                .collect::<Vec<_>>()
                .join(", ");
            lane.windows.push(WindowBar { band: None, start_us: s, end_us: e, status, row: 0, label });
        }
    }
    for lane in &mut lanes {
        stack_bars(&mut lane.windows);
        lane.range_us = range_of(lane);
    }
    // A lane with nothing in it (the other side of a union before any row) still shows.
    Picture { has_pending: !pending.is_empty(), bands, lanes, next_watermark_ms, day_us, key_columns: KeyColumns::new(), first_event_us: None }
}

/// The row's event time (µs) in its source's time column, if it has one and it is set.
fn row_time(src: &SourceInfo, row: &Row) -> Option<i64> {
    match src.time_index.and_then(|i| row.get(i)) {
        Some(Value::Timestamp(t)) => Some(*t),
        _ => None,
    }
}

fn mark_from_explanation(r: &RowExplanation, src: &SourceInfo, band: usize, slot: usize, bands: &[Band], day_us: i64) -> Mark {
    let late_band = r.fates.iter().find_map(|f| match f {
        RowFate::Late { watermark_ms, .. } => bands.iter().position(|b| b.watermark_ms == Some(*watermark_ms)),
        _ => None,
    });
    Mark {
        band: Some(band),
        slot,
        // Without a watermark the engine traces no event time; the source's time column
        // still places the row on the axis (as it does for a batch without a trace).
        event_time_us: r.event_time_us.or_else(|| row_time(src, &r.row)),
        columns: src.columns.clone(),
        day_us,
        row: r.row.clone(),
        kind: Some(r.kind()),
        fates: r.fates.clone(),
        late_band,
        offset: Some(r.offset),
        origin: None,
    }
}

/// The lane a state table belongs to: a join side's table goes to the source whose columns it
/// shares most; any other table to the first lane.
fn state_lane(table: &StateTable, sources: &[SourceInfo]) -> usize {
    if !(table.operator.ends_with(" · left") || table.operator.ends_with(" · right")) {
        return 0;
    }
    let score = |s: &SourceInfo| table.columns.iter().filter(|c| s.columns.contains(c)).count();
    let best = sources.iter().map(score).max().unwrap_or(0);
    let candidates: Vec<usize> = (0..sources.len()).filter(|i| score(&sources[*i]) == best).collect();
    // Equal scores (both sides have the same columns): left is the first, right the second.
    if candidates.len() > 1 {
        return if table.operator.ends_with(" · right") { candidates[1] } else { candidates[0] };
    }
    candidates.first().copied().unwrap_or(0)
}

/// A `[start, end)` window value (a struct of two timestamps), µs.
fn window_of(v: &Value) -> Option<(i64, i64)> {
    match v {
        Value::Struct(f) if f.len() == 2 => match (&f[0], &f[1]) {
            (Value::Timestamp(s), Value::Timestamp(e)) => Some((*s, *e)),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn row_text(row: &Row, day_us: i64) -> String {
    row.iter().map(|v| display_cell(v, day_us)).collect::<Vec<_>>().join(", ")
}

/// Gives overlapping bars of the same band different rows (greedy, by start time), so
/// sliding windows overlap visibly instead of hiding each other.
pub fn stack_bars(bars: &mut [WindowBar]) {
    bars.sort_by_key(|b| (b.band, b.start_us, b.end_us, b.status));
    let mut i = 0;
    while i < bars.len() {
        let band = bars[i].band;
        let mut ends: Vec<i64> = Vec::new();
        while i < bars.len() && bars[i].band == band {
            let b = &mut bars[i];
            // A point (start == end) takes a minute-wide slot so points at the same time stack.
            let end = b.end_us.max(b.start_us + 1);
            let row = ends.iter().position(|e| *e <= b.start_us).unwrap_or(ends.len());
            if row == ends.len() {
                ends.push(end);
            } else {
                ends[row] = end;
            }
            b.row = row;
            i += 1;
        }
    }
}

fn range_of(lane: &Lane) -> (i64, i64) {
    let times = lane.marks.iter().filter_map(|m| m.event_time_us).chain(lane.windows.iter().flat_map(|w| [w.start_us, w.end_us]));
    let (lo, hi) = times.fold((i64::MAX, i64::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
    if lo > hi {
        return (0, 0);
    }
    // At least ten minutes wide, with a margin of a twentieth on each side.
    let span = (hi.saturating_sub(lo)).max(10 * MINUTE_US);
    let mid = lo / 2 + hi / 2;
    let (lo, hi) = (lo.min(mid.saturating_sub(span / 2)), hi.max(mid.saturating_add(span / 2)));
    let pad = span / 20;
    (lo.saturating_sub(pad), hi.saturating_add(pad))
}

impl Picture {
    /// The event-time range of lane `i`. A lane with no times at all falls back to half an
    /// hour from just before the scenario's first event time (the times its steps are about to
    /// bring), else to an hour of the scenario's day from noon.
    pub fn range(&self, i: usize) -> (i64, i64) {
        match (self.lanes.get(i).map(|l| l.range_us), self.first_event_us) {
            (Some((lo, hi)), _) if hi > lo => (lo, hi),
            (_, Some(t)) => (t - 3 * MINUTE_US, t + 27 * MINUTE_US),
            _ => (self.day_us + 12 * 60 * MINUTE_US, self.day_us + 13 * 60 * MINUTE_US),
        }
    }

    /// Marks of every lane, with their lane index.
    pub fn marks(&self) -> impl Iterator<Item = (usize, &Mark)> {
        self.lanes.iter().enumerate().flat_map(|(i, l)| l.marks.iter().map(move |m| (i, m)))
    }

    /// How many marks each fate kind has (pending rows not counted).
    pub fn count(&self, kind: FateKind) -> usize {
        self.marks().filter(|(_, m)| m.kind == Some(kind)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::session::LabSession;
    use crate::text::{Lang, Text};
    use streamlab_engine::execution::explain::BatchReason;
    use streamlab_engine::types::parse_timestamp_us;

    fn at(s: &str) -> i64 {
        parse_timestamp_us(s).unwrap()
    }

    fn classic_done() -> LabSession {
        let mut s = LabSession::from_scenario(crate::lab::presets::preset("classic").unwrap());
        while s.run_step() {}
        s
    }

    #[test]
    fn classic_bands_marks_and_staircase() {
        let p = classic_done().picture();
        // classic.json: 5 steps of clicks (3, 2, 2, 2, 1 rows) and an empty one; delay 10 min,
        // windows 10 min sliding by 5. After a data batch that moves the watermark, the
        // aggregation asks for a no-data batch (StateStoreSaveExec.shouldRunAnotherBatch: the
        // new watermark is past the eviction watermark): data 0 (max 09:13 → wm 09:03), no-data 1,
        // data 2 (09:16 → 09:06), no-data 3, data 4 (09:24 → 09:14), no-data 5, data 6 (max
        // stays 09:24: no no-data batch), data 7 (09:35 → 09:25), no-data 8.
        let ids: Vec<u64> = p.bands.iter().map(|b| b.batch_id).collect();
        assert_eq!(ids, (0..9).collect::<Vec<u64>>());
        let no_data: Vec<bool> = p.bands.iter().map(|b| b.no_data).collect();
        assert_eq!(no_data, vec![false, true, false, true, false, true, false, false, true]);
        // The watermark each batch ran with (batch 0: the initial 0).
        let wms: Vec<Option<i64>> = p.bands.iter().map(|b| b.watermark_ms).collect();
        let mut want: Vec<Option<i64>> = ["09:03", "09:03", "09:06", "09:06", "09:14", "09:14", "09:14", "09:25"].iter().map(|t| Some(at(&format!("2026-03-02T{t}:00Z")) / 1000)).collect();
        want.insert(0, Some(0));
        assert_eq!(wms, want);
        assert_eq!(p.next_watermark_ms, Some(at("2026-03-02T09:25:00Z") / 1000));
        // One lane (clicks), one mark per input row, in the band of the batch that read it.
        assert_eq!(p.lanes.len(), 1);
        let lane = &p.lanes[0];
        assert_eq!(lane.marks.len(), 10);
        let c8 = lane.marks.iter().find(|m| m.cells().iter().any(|(c, v)| c == "event_id" && v == "c8")).unwrap();
        assert_eq!(c8.band, Some(6));
        assert_eq!(c8.event_time_us, Some(at("2026-03-02T09:03:00Z")));
        // With the engine's explanations: c8 (09:03, read by batch 6) is late for both its
        // sliding windows ([08:55, 09:05) and [09:00, 09:10) end at or before wm 09:14); the
        // watermark first stood at 09:14 in batch 5, the step that made it late. Every other
        // row is kept.
        assert_eq!((c8.kind, c8.late_band, c8.fates.len()), (Some(FateKind::Late), Some(5), 2));
        assert_eq!((p.count(FateKind::Late), p.count(FateKind::Kept)), (1, 9));
        // Batch 0 updated c1's, c2's and c3's windows: 09:02 → [08:55, 09:05) [09:00, 09:10);
        // 09:06 → [09:00, 09:10) [09:05, 09:15); 09:13 → [09:05, 09:15) [09:10, 09:20): four.
        let b0: Vec<(i64, i64)> = lane.windows.iter().filter(|w| w.band == Some(0) && w.status == WindowStatus::Updated).map(|w| (w.start_us, w.end_us)).collect();
        let want: Vec<(i64, i64)> = [("08:55", "09:05"), ("09:00", "09:10"), ("09:05", "09:15"), ("09:10", "09:20")]
            .iter()
            .map(|(a, b)| (at(&format!("2026-03-02T{a}:00Z")), at(&format!("2026-03-02T{b}:00Z"))))
            .collect();
        assert_eq!(b0, want);
        // The range holds every mark and window with a margin.
        assert!(lane.range_us.0 < at("2026-03-02T08:55:00Z") && lane.range_us.1 > at("2026-03-02T09:40:00Z"));
    }

    #[test]
    fn classic_emitted_windows_sit_in_their_batch() {
        let p = classic_done().picture();
        let lane = &p.lanes[0];
        let emitted: Vec<(usize, i64, i64)> =
            lane.windows.iter().filter(|w| w.status == WindowStatus::Emitted).map(|w| (w.band.unwrap(), w.start_us, w.end_us)).collect();
        // Batch 3 (no-data, wm 09:06) emits the window [08:55, 09:05) of c1 (post 1): its only row.
        let b3: Vec<_> = emitted.iter().filter(|e| e.0 == 3).collect();
        assert_eq!(b3, vec![&(3, at("2026-03-02T08:55:00Z"), at("2026-03-02T09:05:00Z"))]);
        // Nothing is emitted by a batch whose output is empty (batch 0).
        assert!(emitted.iter().all(|e| e.0 != 0));
        let total: usize = p.bands.iter().map(|b| b.emitted_rows as usize).sum();
        assert_eq!(emitted.len(), total);
    }

    #[test]
    fn overlapping_bars_stack() {
        let bar = |s: i64, e: i64| WindowBar { band: Some(0), start_us: s, end_us: e, status: WindowStatus::Open, row: 9, label: String::new() };
        // Sliding windows [0,10) [5,15) [10,20): the second overlaps the first, the third fits
        // after the first.
        let mut bars = vec![bar(10, 20), bar(0, 10), bar(5, 15)];
        stack_bars(&mut bars);
        let rows: Vec<(i64, usize)> = bars.iter().map(|b| (b.start_us, b.row)).collect();
        assert_eq!(rows, vec![(0, 0), (5, 1), (10, 0)]);
    }

    #[test]
    fn ticks_are_round_and_bounded() {
        let lo = at("2026-03-02T08:53:00Z");
        let hi = at("2026-03-02T09:37:00Z");
        // 44 minutes with at most 6 labels: 10-minute steps (5 min would give 9).
        let got = ticks((lo, hi), 6);
        let want: Vec<i64> = ["09:00", "09:10", "09:20", "09:30"].iter().map(|t| at(&format!("2026-03-02T{t}:00Z"))).collect();
        assert_eq!(got, want);
        assert!(ticks((hi, lo), 6).is_empty());
        // A span of years (a year-9999 event) still gives few ticks.
        assert!(ticks((0, at("9999-01-01T00:00:00Z")), 6).len() <= 7);
    }

    #[test]
    fn pointer_and_keyboard_steps_are_whole_seconds() {
        let lo = at("2026-03-02T08:53:00Z");
        let hi = at("2026-03-02T09:43:00Z");
        // 50 minutes over 600 px: 5 s a pixel; an hour's keyboard step is a minute.
        assert_eq!(snap_step((lo, hi), 600), 5_000_000);
        assert_eq!(key_step((lo, hi)), 60_000_000);
        // Never below a second, even zoomed in; a span of years still gives a step.
        assert_eq!(snap_step((lo, lo + 1_000_000), 1000), 1_000_000);
        assert_eq!(snap_step((0, i64::MAX), 1), 86_400_000_000);
        let t = at("2026-03-02T09:23:10Z") + 140_845;
        assert_eq!(snap(t, 1_000_000), at("2026-03-02T09:23:10Z"));
        assert_eq!(snap(t, 5_000_000), at("2026-03-02T09:23:10Z"));
        assert_eq!(step_from(at("2026-03-02T09:03:00Z"), 60_000_000, true), at("2026-03-02T09:04:00Z"));
        assert_eq!(step_from(at("2026-03-02T09:03:00Z"), 60_000_000, false), at("2026-03-02T09:02:00Z"));
        assert_eq!(step_from(at("2026-03-02T09:03:10Z"), 60_000_000, false), at("2026-03-02T09:03:00Z"));
        assert_eq!(step_from(i64::MAX, 60_000_000, true), i64::MAX);
    }

    fn late_row(source: &str, w: i64) -> RowExplanation {
        RowExplanation {
            source: source.into(),
            offset: 7,
            row: vec![Value::str("c8"), Value::str("u6"), Value::Long(3), Value::Timestamp(at("2026-03-02T09:03:00Z"))],
            event_time_us: Some(at("2026-03-02T09:03:00Z")),
            fates: vec![
                RowFate::Late { op_id: 0, operator: "StateStoreSaveExec".into(), event_time_us: at("2026-03-02T09:03:00Z"), watermark_ms: w, window: Some((at("2026-03-02T08:55:00Z"), at("2026-03-02T09:05:00Z"))), key: None },
                RowFate::Late { op_id: 0, operator: "StateStoreSaveExec".into(), event_time_us: at("2026-03-02T09:03:00Z"), watermark_ms: w, window: Some((at("2026-03-02T09:00:00Z"), at("2026-03-02T09:10:00Z"))), key: None },
            ],
        }
    }

    fn band(id: u64, wm_ms: i64, ex: Option<BatchExplanation>) -> Band {
        Band { batch_id: id, no_data: false, input_rows: 1, watermark_ms: Some(wm_ms), emitted_rows: 0, dropped_rows: 2, removed_rows: 0, explanation: ex.map(std::rc::Rc::new) }
    }

    #[test]
    fn a_late_mark_points_at_the_step_that_made_it_late() {
        let w = at("2026-03-02T09:14:00Z") / 1000;
        let src = SourceInfo { name: "clicks".into(), columns: ["event_id", "user_id", "post_id", "event_time"].map(String::from).into(), time_index: Some(3) };
        let ex = BatchExplanation { batch_id: 2, reason: BatchReason::NewData { rows: 1 }, watermark_ms: Some(w), next_watermark_ms: Some(w), rows: vec![late_row("clicks", w)], emitted_rows: 0, operators: vec![] };
        // Bands 0 (wm 09:03), 1 (wm 09:14: the step up), 2 (wm 09:14, reads the late row).
        let batches: Vec<BatchInput> = [(0, at("2026-03-02T09:03:00Z") / 1000, None), (1, w, None), (2, w, Some(ex))]
            .into_iter()
            .map(|(id, wm, ex)| BatchInput { band: band(id, wm, ex), input: vec![], output: vec![] })
            .collect();
        let p = build(&[src], &batches, &[], &[], Some(w), at("2026-03-02T00:00:00Z"));
        let m = &p.lanes[0].marks[0];
        assert_eq!((m.band, m.kind, m.late_band), (Some(2), Some(FateKind::Late), Some(1)));
        assert_eq!(p.count(FateKind::Late), 1);
        let en = fate_text(&m.fates[0], Lang::En, p.day_us, &p.key_columns);
        assert_eq!(en, "late: StateStoreSaveExec dropped it because its window [08:55, 09:05) ends at or before the previous batch's watermark 09:14 (eventTimeWatermarkForLateEvents)");
    }

    #[test]
    fn narration_says_why_and_what() {
        let day = at("2026-03-02T00:00:00Z");
        let (from, to) = (at("2026-03-02T12:01:00Z") / 1000, at("2026-03-02T12:11:00Z") / 1000);
        let ex = BatchExplanation {
            batch_id: 5,
            reason: BatchReason::WatermarkMoved { op_id: 0, operator: "StateStoreSaveExec".into(), from_ms: from, to_ms: to },
            watermark_ms: Some(to),
            next_watermark_ms: Some(to),
            rows: vec![],
            emitted_rows: 3,
            operators: vec![],
        };
        let b = Band { batch_id: 5, no_data: true, input_rows: 0, watermark_ms: Some(to), emitted_rows: 3, dropped_rows: 0, removed_rows: 3, explanation: Some(std::rc::Rc::new(ex)) };
        assert_eq!(
            narrate(&b, Some(to), Lang::En, day),
            "Batch 5 ran without new data because the watermark moved from 12:01 to 12:11, and StateStoreSaveExec uses it (shouldRunAnotherBatch). It ran with the watermark at 12:11. It emitted 3 rows and removed 3 state rows."
        );
        assert_eq!(
            Text::from_fn(|l| narrate(&b, Some(to), l, day)).ko,
            "배치 5: 데이터 없는 배치입니다. 워터마크가 12:01에서 12:11로 움직였고 StateStoreSaveExec이 워터마크를 쓰기 때문에 실행되었습니다(shouldRunAnotherBatch). 실행 시 워터마크: 12:11. 행 3개를 출력하고 상태 행 3개를 상태에서 제거했습니다."
        );
    }

    /// One late input row in two sliding windows is two partial-aggregate rows dropped (the
    /// classic preset's c8: numRowsDroppedByWatermark 2): the narration says why the counts
    /// differ, and says nothing more when they agree.
    #[test]
    fn narration_explains_a_drop_metric_that_is_not_the_late_row_count() {
        let day = at("2026-03-02T00:00:00Z");
        let w = at("2026-03-02T09:14:00Z") / 1000;
        let ex = BatchExplanation { batch_id: 6, reason: BatchReason::NewData { rows: 1 }, watermark_ms: Some(w), next_watermark_ms: Some(w), rows: vec![late_row("clicks", w)], emitted_rows: 0, operators: vec![] };
        let ex = std::rc::Rc::new(ex);
        let band = |dropped| Band { batch_id: 6, no_data: false, input_rows: 1, watermark_ms: Some(w), emitted_rows: 0, dropped_rows: dropped, removed_rows: 0, explanation: Some(ex.clone()) };
        let two = narrate(&band(2), Some(w), Lang::En, day);
        assert!(two.contains("It dropped 1 late row (numRowsDroppedByWatermark 2). numRowsDroppedByWatermark counts the rows reaching the state operator"), "{two}");
        let one = narrate(&band(1), Some(w), Lang::En, day);
        assert!(one.contains("It dropped 1 late row (numRowsDroppedByWatermark 1).") && !one.contains("counts the rows reaching"), "{one}");
    }

    /// Before any step the lane is empty: its axis is half an hour from 3 minutes before the
    /// first click the example brings (classic.json's c1 at 09:02: 08:59 to 09:29), not the
    /// noon-to-one fallback.
    #[test]
    fn an_empty_picture_shows_the_times_the_example_brings() {
        let s = LabSession::from_scenario(crate::lab::presets::preset("classic").unwrap());
        let p = s.picture();
        assert_eq!(p.range(0), (at("2026-03-02T08:59:00Z"), at("2026-03-02T09:29:00Z")));
    }

    /// `clicks.limit(3)` over the limit preset: batch 0 emits c1 and c2, batch 1 emits c3 and
    /// the limit is then full, so c4 is not emitted (worked by hand: 2 + 1 = 3 rows). The
    /// narration says the limit stopped c4, never that a condition filtered it.
    #[test]
    fn narration_names_the_limit_not_a_filter() {
        let mut s = LabSession::from_scenario(crate::lab::presets::preset("limit").unwrap());
        while s.run_step() {}
        let p = s.picture();
        let b = p.bands.iter().find(|b| b.batch_id == 1).expect("batch 1 ran");
        let en = narrate(b, None, Lang::En, p.day_us);
        assert!(en.contains("It emitted 1 row") && en.contains("1 row was not emitted: the limit had already emitted all its rows."), "{en}");
        assert!(!en.contains("filtered"), "{en}");
        let in_korean = Text::from_fn(|l| narrate(b, None, l, p.day_us)).ko;
        assert!(in_korean.contains("limit이 이미 행 수를 채워서 행 1개는 출력되지 않았습니다.") && !in_korean.contains("걸러"), "{in_korean}");
    }

    #[test]
    fn a_click_on_the_axis_adds_a_pending_event_that_undo_takes_back() {
        let mut s = classic_done();
        let before = s.action_count();
        // A pixel of the axis is some fraction of a second: the event lands on a whole second.
        s.add_event_at("clicks", at("2026-03-02T09:30:00Z") + 140_845).unwrap();
        let p = s.picture();
        assert!(p.has_pending);
        let pending: Vec<_> = p.marks().filter(|(_, m)| m.band.is_none()).collect();
        assert_eq!(pending.len(), 1);
        // Other fields from the last event (c10, user u6, post 1), but a new event id:
        // classic.json uses c1 … c10.
        let cell = |c: &str| pending[0].1.cells().iter().find(|(n, _)| n == c).map(|(_, v)| v.clone());
        assert_eq!((cell("event_id"), cell("post_id")), (Some("c11".into()), Some("1".into())));
        assert_eq!(pending[0].1.event_time_us, Some(at("2026-03-02T09:30:00Z")));
        // The pending mark knows its row in the log, so it can be dragged.
        assert_eq!(pending[0].1.origin, Some((before, 0)));
        assert!(s.undo());
        assert_eq!(s.action_count(), before);
        assert!(!s.picture().has_pending);
        assert!(s.add_event_at("nope", 0).is_err());
    }

    #[test]
    fn an_axis_click_early_in_the_example_skips_the_ids_of_later_steps() {
        // After step 1 (c1, c2, c3) the example's later steps still hold c4 … c10: a click
        // gets c11, never an id the example will add.
        let mut s = LabSession::from_scenario(crate::lab::presets::preset("classic").unwrap());
        s.run_step();
        s.add_event_at("clicks", at("2026-03-02T09:20:00Z")).unwrap();
        s.add_event_at("clicks", at("2026-03-02T09:21:00Z")).unwrap();
        let ids: Vec<String> = s.pending_rows().iter().map(|(_, r)| display_cell(&r[0], 0)).collect();
        assert_eq!(ids, vec!["c11", "c12"]);
        assert_eq!(crate::lab::session::next_unused("", &[]), "e1");
        assert_eq!(crate::lab::session::next_unused("order", &["order-1".into()]), "order-2");
    }

    #[test]
    fn dragging_a_mark_moves_its_row_replays_and_undo_puts_it_back() {
        let mut s = classic_done();
        let before = (s.action_count(), s.view().batches, s.picture());
        // c8 (09:03, read by batch 6) is late; moved to 09:30 it is on time and counted.
        let c8 = before.2.lanes[0].marks.iter().find(|m| m.cells().iter().any(|(c, v)| c == "event_id" && v == "c8")).unwrap().clone();
        let (action, row) = c8.origin.expect("a read row has an origin");
        assert_eq!(s.move_event(action, row, at("2026-03-02T09:30:00Z") + 400_000), Ok(true));
        assert_eq!(s.action_count(), before.0 + 1);
        let p = s.picture();
        let moved = p.lanes[0].marks.iter().find(|m| m.origin == c8.origin).unwrap();
        assert_eq!((moved.event_time_us, moved.kind), (Some(at("2026-03-02T09:30:00Z")), Some(FateKind::Kept)));
        assert_eq!(p.count(FateKind::Late), 0);
        assert_ne!(s.view().batches, before.1);
        // The same time again is no action.
        assert_eq!(s.move_event(action, row, at("2026-03-02T09:30:00Z")), Ok(false));
        assert_eq!(s.action_count(), before.0 + 1);
        // One undo restores everything.
        assert!(s.undo());
        assert_eq!((s.action_count(), s.view().batches, s.picture()), before);
        // Nonsense targets are errors, not panics; a far time is clamped to Spark's range.
        assert!(s.move_event(1, 0, 0).is_err());
        assert!(s.move_event(0, 99, 0).is_err());
        assert!(s.move_event(usize::MAX, 0, 0).is_err());
        assert_eq!(s.move_event(action, row, i64::MAX), Ok(true));
        assert!(s.undo());
    }

    #[test]
    fn every_mark_of_every_preset_finds_its_row_and_keys_have_names() {
        for (id, _) in crate::lab::presets::presets() {
            let mut s = LabSession::from_scenario(crate::lab::presets::preset(id).unwrap());
            while s.run_step() {}
            let p = s.picture();
            for (li, m) in p.marks() {
                // Memory and file sources hold the rows as added (Kafka and rate rows are the
                // source's own).
                let kind = s.scenario().sources.get(&p.lanes[li].source).and_then(|d| d.kind.clone()).unwrap_or_default();
                if matches!(kind.as_str(), "" | "memory" | "file" | "socket") && m.event_time_us.is_some() {
                    assert!(m.origin.is_some(), "{id}: {:?}", m.cells());
                }
                for f in &m.fates {
                    if let RowFate::Aggregated { op_id, key, .. } | RowFate::FirstOfKey { op_id, key, .. } | RowFate::Deduplicated { op_id, key, .. } = f {
                        assert_eq!(p.key_columns.get(op_id).map(Vec::len), Some(key.len()), "{id}: {f:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_card_names_the_grouping_column() {
        let p = classic_done().picture();
        let c1 = p.lanes[0].marks.iter().find(|m| m.cells().iter().any(|(c, v)| c == "event_id" && v == "c1")).unwrap();
        let texts: Vec<String> = c1.fates.iter().map(|f| fate_text(f, Lang::En, p.day_us, &p.key_columns)).collect();
        // c1 (09:02, post 1) feeds two sliding windows.
        assert!(texts.contains(&"aggregated into window [08:55, 09:05) (group post_id = 1)".to_string()), "{texts:?}");
        assert!(texts.contains(&"aggregated into window [09:00, 09:10) (group post_id = 1)".to_string()), "{texts:?}");
        let in_korean: Vec<String> = c1.fates.iter().map(|f| Text::from_fn(|l| fate_text(f, l, p.day_us, &p.key_columns)).ko).collect();
        assert!(in_korean.contains(&"윈도우 [08:55, 09:05)에 집계됨 (그룹 post_id = 1)".to_string()), "{in_korean:?}");
    }
}
