//! Recovery: the sink, crashes, restarts and the checkpoint location, and the recovery
//! panel's view of the checkpoint, the sink's rows and the query handle.

use streamlab_engine::streaming::{CrashPoint, SinkKind, StreamingQuery, Trigger};
use streamlab_engine::types::Value;

use super::{display_cell, Action, RecoveryView, LabSession, SinkRowView};

impl LabSession {
    /// Gives the query a checkpoint location, or not, and replays.
    pub fn set_checkpoint_location(&mut self, set: bool) {
        self.checkpoint_set = set;
        self.rebuild();
    }

    /// Stops the query and starts `text` on the same checkpoint (changing a query between
    /// restarts): Spark's error if the change does not fit the state.
    pub fn restart_with(&mut self, text: &str) {
        self.apply(Action::Restart { query: Some(text.to_string()) });
    }

    /// One trigger whose batch crashes at `point`; the query stops until [`LabSession::restart`].
    ///
    /// # Errors
    /// When no batch is due (nothing would run, so nothing can crash).
    pub fn crash(&mut self, point: CrashPoint) -> Result<(), String> {
        self.perform(Action::Crash { at: point })
    }

    /// Stops the query and starts it again on the same checkpoint: a batch that was logged
    /// but not committed runs again.
    pub fn restart(&mut self) {
        self.apply(Action::Restart { query: None });
    }

    /// Picks the sink and replays everything into it.
    pub fn set_sink(&mut self, kind: SinkKind) {
        self.sink_kind = kind;
        self.rebuild();
    }

    /// The recovery panel: `q`'s checkpoint logs, the sink's rows with their duplicate flags,
    /// and the query handle (status, trigger, listener events), times on the scenario's `day`.
    pub(super) fn recovery_view(&self, q: &StreamingQuery, day: i64) -> RecoveryView {
        let wm = |ms: i64| display_cell(&Value::Timestamp(ms * 1000), day);
        let cp = &q.checkpoint;
        let duplicate_flags = q.sink.duplicate_flags();
        let duplicates = duplicate_flags.iter().filter(|d| **d).count();
        let sink_rows = q
            .sink
            .written()
            .iter()
            .zip(duplicate_flags)
            .map(|(w, duplicate)| {
                SinkRowView {
                    batch_id: w.batch_id,
                    attempt: w.attempt,
                    cells: w.row.iter().map(|v| display_cell(v, day)).collect(),
                    visible: w.visible,
                    duplicate,
                }
            })
            .collect::<Vec<_>>()
            .into();
        RecoveryView {
            sink: q.sink.kind(),
            sink_from_query: q.sink_named_in_query(),
            query_id: q.id.clone(),
            run_id: q.run_id.clone(),
            runs: cp.runs,
            offset_log: cp
                .offsets
                .iter()
                .map(|o| {
                    // As Spark's offset log writes each source's offset: a number, or
                    // Kafka's next offset per partition.
                    let offs: Vec<String> = o.offsets.iter().enumerate().map(|(i, x)| q.offset_json(i, *x).map_or("-".into(), |v| v.to_string())).collect();
                    (o.batch_id, offs.join(", "), wm(o.batch_watermark_ms))
                })
                .collect(),
            commit_log: cp.commits.iter().map(|c| (c.batch_id, wm(c.next_batch_watermark_ms))).collect(),
            sink_rows,
            duplicates,
            crashed: self.crash.clone(),
            crashed_after_state: match q.exception() {
                Some(streamlab_engine::error::Error::Execution(streamlab_engine::error::ExecutionError::Crash { batch_id, point, .. }))
                    if *point != CrashPoint::AfterOffsetLog.id() && !q.states().is_empty() =>
                {
                    Some(*batch_id)
                }
                _ => None,
            },
            active: q.is_active(),
            status: if !q.is_active() {
                "Stopped".into()
            } else if q.has_new_data() {
                "Waiting for next trigger (new data available)".into()
            } else if q.wants_no_data_batch() {
                "Waiting for next trigger (a no-data batch is due)".into()
            } else {
                "Waiting for data to arrive".into()
            },
            trigger: q.trigger.describe(),
            // `recentProgress` belongs to the query object: a restart's `start()` gives a new
            // one, empty until its first batch; Spark keeps the last 100
            // (`spark.sql.streaming.numRecentProgressUpdates`).
            recent_progress: self.events.iter().rev().take_while(|e| !e.starts_with("onQueryStarted")).filter(|e| e.starts_with("onQueryProgress")).count().min(100),
            events: self.events.clone(),
            name: q.name.clone(),
            checkpoint_set: self.checkpoint_set,
            temporary: self.temporary,
            trigger_finished: !q.is_active() && q.exception().is_none() && matches!(q.trigger, Trigger::Once | Trigger::AvailableNow),
            sink_recovers: q.sink.recovers_from_checkpoint(q.output_mode()),
            rerun_due: cp.offsets.last().map(|o| o.batch_id).filter(|b| q.is_active() && cp.commits.last().is_none_or(|c| c.batch_id < *b)),
            sink_log: q.sink.log_text(&q.plan().output.iter().map(|a| a.name.clone()).collect::<Vec<_>>()),
        }
    }
}
