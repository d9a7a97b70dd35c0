//! The time picture's gathering: the session's batches, explanations, pending rows and
//! state handed to [`crate::lab::picture::build`].

use streamlab_engine::streaming::StreamingQuery;
use streamlab_engine::types::Row;

use super::{display_cell, LabSession};

impl LabSession {
    /// The time picture ([`crate::lab::picture`]): every batch so far with its input rows and the
    /// engine's explanation, the pending rows, and the state as it is now.
    pub fn picture(&self) -> crate::lab::picture::Picture {
        use crate::lab::picture::{build, Band, BatchInput, SourceInfo};
        let sources: Vec<SourceInfo> = self
            .sources()
            .into_iter()
            .map(|s| SourceInfo {
                time_index: s.time_column.as_ref().and_then(|t| s.columns.iter().position(|(c, _)| c == t)),
                columns: s.columns.into_iter().map(|(c, _)| c).collect(),
                name: s.name,
            })
            .collect();
        let batches: Vec<BatchInput> = self
            .batches
            .iter()
            .map(|(_, b)| BatchInput {
                band: Band {
                    batch_id: b.batch_id,
                    no_data: b.no_data,
                    input_rows: b.input_rows,
                    watermark_ms: b.watermark_ms,
                    emitted_rows: b.rows.len() as u64,
                    dropped_rows: b.state.iter().map(|s| s.num_rows_dropped_by_watermark).sum(),
                    removed_rows: b.state.iter().map(|s| s.num_rows_removed).sum(),
                    explanation: b.explanation.clone(),
                },
                input: if b.explanation.is_some() { Vec::new() } else { b.input_by_source().into_iter().collect() },
                output: b.rows.clone(),
            })
            .collect();
        let has_watermark = self.query.as_ref().is_some_and(|q| q.plan().has_watermark());
        let state = self.query.as_ref().map(|q| q.state_tables(&self.evicted)).unwrap_or_default();
        let next = self.query.as_ref().filter(|_| has_watermark).map(StreamingQuery::current_watermark_ms);
        let mut p = build(&sources, &batches, &self.pending, &state, next, self.base_day_us());
        p.key_columns = self.query.as_ref().map(|q| streamlab_engine::execution::explain::key_columns(q.plan())).unwrap_or_default();
        p.first_event_us = crate::lab::presets::scenario_first_time(&self.scenario);
        self.find_origins(&mut p);
        p
    }

    /// Finds each mark's row in the action log: a read row by its stream offset (the n-th row
    /// added to its source), a pending row by its place among the last rows added. A row is
    /// taken only if it shows the same cells as the log's row (a source that reshapes its
    /// rows, or an add the engine refused, leaves the mark without an origin: not draggable).
    fn find_origins(&self, p: &mut crate::lab::picture::Picture) {
        let day = self.base_day_us();
        let all = self.added_rows(None);
        let pending_from = all.len().saturating_sub(self.pending.len());
        for lane in &mut p.lanes {
            let own: Vec<&((usize, usize), String, Row)> = all.iter().filter(|(_, s, _)| *s == lane.source).collect();
            for m in &mut lane.marks {
                let Some(offset) = m.offset else { continue };
                let found = if m.band.is_some() { own.get(offset).copied() } else { all.get(pending_from + offset) };
                // The same values (of the same types) show the same cells; only rows that
                // differ are compared as shown.
                let same = found.is_some_and(|(_, s, row)| {
                    *s == lane.source
                        && row.len() == m.row.len()
                        && (same_values(row, &m.row) || row.iter().zip(&m.row).all(|(v, w)| display_cell(v, day) == display_cell(w, m.day_us)))
                });
                m.origin = if same { found.map(|(o, _, _)| *o) } else { None };
            }
        }
    }
}

/// True if the rows hold equal flat values of the same types, which show the same cells.
/// Nested values (a struct, array or map) and values of different types are left to the
/// comparison as shown: `Int(1)` equals `Long(1)` and `Double(1.0)` as a value, also inside
/// a struct.
fn same_values(a: &Row, b: &Row) -> bool {
    use streamlab_engine::types::Value;
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            std::mem::discriminant(x) == std::mem::discriminant(y) && !matches!(x, Value::Struct(_) | Value::Array(_) | Value::Map(_)) && x == y
        })
}
