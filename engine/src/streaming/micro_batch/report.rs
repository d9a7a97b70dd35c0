//! What a batch reports, as Spark's `ProgressReporter` does: its `StreamingQueryProgress` and, for the lab, its `BatchExplanation` (why it ran, each input row's fate).

use std::collections::BTreeMap;

use super::{EventTimeSummary, StreamingQuery};
use crate::execution::explain::{self, BatchExplanation, BatchReason, OperatorSummary, RowExplanation};
use crate::execution::BatchContext;
use crate::streaming::progress::{SinkProgress, SourceProgress, StateOperatorProgress, StreamingQueryProgress};
use crate::streaming::source::batch_to_rows;
use crate::types::{format_progress_ms, Row};

impl StreamingQuery {
    /// The batch's [`BatchExplanation`]: the traced fates with each source row as the source
    /// holds it, and one [`OperatorSummary`] per stateful operator from its progress.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn explanation(
        &self,
        batch_id: u64,
        reason: BatchReason,
        trace: explain::Trace,
        input_by_source: &BTreeMap<String, Vec<arrow_array::RecordBatch>>,
        watermark_ms: Option<i64>,
        ctx: &BatchContext,
        state: &[StateOperatorProgress],
        emitted: usize,
    ) -> BatchExplanation {
        let mut fates = trace.fates.into_iter();
        let mut times = trace.event_time_us.into_iter();
        let mut rows = Vec::with_capacity(fates.len());
        for (i, s) in self.sources.iter().enumerate() {
            let first = s.first_row_index(self.committed[i]);
            let source_rows = input_by_source.get(s.name()).map(|b| b.iter().flat_map(batch_to_rows).collect::<Vec<Row>>()).unwrap_or_default();
            for (k, row) in source_rows.into_iter().enumerate() {
                rows.push(RowExplanation {
                    source: s.name().to_string(),
                    offset: first + k,
                    row,
                    event_time_us: times.next().flatten(),
                    fates: fates.next().unwrap_or_default(),
                });
            }
        }
        let reason = match reason {
            BatchReason::NewData { .. } => BatchReason::NewData { rows: rows.len() as u64 },
            other => other,
        };
        let sampled = crate::execution::sort::sampled_in(&self.plan, self.conf.shuffle_partitions);
        let operators = self
            .plan
            .stateful_operators()
            .into_iter()
            .zip(state)
            .map(|((op_id, name), p)| {
                let (late, evict) = ctx.watermarks(op_id);
                OperatorSummary {
                    op_id,
                    operator: name.to_string(),
                    wm_for_late_events_ms: late.ms(),
                    wm_for_eviction_ms: evict.ms(),
                    num_rows_dropped_by_watermark: p.num_rows_dropped_by_watermark,
                    num_rows_updated: p.num_rows_updated,
                    num_rows_removed: p.num_rows_removed,
                    num_rows_total: p.num_rows_total,
                    runs: if sampled.contains(&op_id) { 2 } else { 1 },
                }
            })
            .collect();
        BatchExplanation {
            batch_id,
            reason,
            watermark_ms,
            next_watermark_ms: watermark_ms.map(|_| self.tracker.current().ms()),
            rows,
            emitted_rows: emitted as u64,
            operators,
        }
    }

    pub(super) fn progress(
        &self,
        batch_id: u64,
        inputs: &[u64],
        end: &[Option<i64>],
        et: &EventTimeSummary,
        state: &[StateOperatorProgress],
        output_rows: usize,
    ) -> StreamingQueryProgress {
        let mut event_time = BTreeMap::new();
        if let (Some(min), Some(max), Some(avg)) = (et.min, et.max, et.avg) {
            event_time.insert("avg".into(), format_progress_ms(avg));
            event_time.insert("max".into(), format_progress_ms(max));
            event_time.insert("min".into(), format_progress_ms(min));
        }
        if let Some(w) = et.watermark {
            event_time.insert("watermark".into(), format_progress_ms(w));
        }
        let duration_ms: BTreeMap<String, u64> =
            ["addBatch", "commitOffsets", "getBatch", "latestOffset", "queryPlanning", "triggerExecution", "walCommit"]
                .iter()
                .map(|k| (k.to_string(), 0))
                .collect();
        let sources: Vec<SourceProgress> = self
            .sources
            .iter()
            .enumerate()
            .map(|(i, s)| SourceProgress {
                description: s.description(),
                start_offset: s.offset_json(self.committed[i]),
                end_offset: s.offset_json(end[i]),
                latest_offset: s.offset_json(end[i]),
                num_input_rows: inputs[i],
                input_rows_per_second: 0.0,
                processed_rows_per_second: 0.0,
            })
            .collect();
        let num_input_rows = inputs.iter().sum();
        StreamingQueryProgress {
            id: self.id.clone(),
            run_id: self.run_id.clone(),
            name: self.name.clone(),
            timestamp: format_progress_ms(self.clock_ms),
            batch_id,
            batch_duration: 0,
            num_input_rows,
            input_rows_per_second: 0.0,
            processed_rows_per_second: 0.0,
            duration_ms,
            event_time,
            state_operators: state.to_vec(),
            sources,
            sink: SinkProgress {
                description: self.sink.progress_description().into(),
                // V1 sinks (file, foreachBatch) report -1.
                num_output_rows: if self.sink.reports_output_rows() { output_rows as i64 } else { -1 },
            },
        }
    }
}
