//! Stopping a query and restarting it on its checkpoint, as `MicroBatchExecution.populateStartOffsets` resumes: after the last committed batch, or re-running a batch logged but not committed.

use super::{run_id_for, uuid_from_seed, Checkpoint, StreamingConf, StreamingQuery};
use crate::checkpoint as cp;
use crate::error::Error;
use crate::streaming::sink::Sink;
use crate::streaming::source::Source;
use crate::streaming::OutputMode;
use crate::types::{BatchId, WatermarkMs};

impl StreamingQuery {
    /// Stops the query; what survives is its checkpoint, its (replayable) sources and its
    /// sink.
    pub fn stop(self) -> (Checkpoint, Vec<Box<dyn Source>>, Box<dyn Sink>) {
        (self.checkpoint, self.sources, self.sink)
    }

    /// The confs Spark persists in the offset log and restores on restart (watermark
    /// policy, shuffle partitions), from `checkpoint`'s last entry.
    pub fn restored_conf(mut conf: StreamingConf, checkpoint: &Checkpoint) -> StreamingConf {
        if let Some(last) = checkpoint.latest_offset() {
            conf.watermark_policy = last.watermark_policy;
            conf.shuffle_partitions = last.shuffle_partitions;
        }
        conf
    }

    /// Continues this freshly started query on `checkpoint` with the sources and sink of the
    /// previous run ([`StreamingQuery::restart`]).
    ///
    /// # Errors
    /// The checkpoint checks ([`crate::checkpoint::check_recoverable`],
    /// [`crate::checkpoint::check_compatible`]).
    pub fn resume_on(&mut self, mode: OutputMode, checkpoint: Checkpoint, sources: Vec<Box<dyn Source>>, sink: Box<dyn Sink>) -> Result<(), Error> {
        cp::check_recoverable(&checkpoint, sink.recovers_from_checkpoint(mode))?;
        cp::check_compatible(&checkpoint, &self.plan, self.sources.len())?;
        for mut s in sources {
            s.on_restart();
            if let Some(slot) = self.sources.iter_mut().find(|x| x.name() == s.name()) {
                *slot = s;
            }
        }
        self.sink = sink;
        self.resume(checkpoint);
        Ok(())
    }

    fn resume(&mut self, mut checkpoint: Checkpoint) {
        checkpoint.runs += 1;
        let id = checkpoint.query_id.get_or_insert_with(|| uuid_from_seed(1)).clone();
        self.run_id = run_id_for(&id, checkpoint.runs);
        self.id = id;
        let latest = checkpoint.latest_offset().cloned();
        let committed = checkpoint.latest_commit().copied();
        match latest {
            // A new query: a Kafka source with startingOffsets = latest starts at the end of
            // the topic, skipping what it already holds.
            None => {
                for (i, s) in self.sources.iter().enumerate() {
                    if let Some(start) = s.initial_offset() {
                        self.committed[i] = Some(start);
                    }
                }
            }
            Some(l) if committed.is_some_and(|c| c.batch_id == l.batch_id) => {
                // Batch L is complete: continue with L+1.
                let c = committed.expect("checked");
                let done = BatchId::new(l.batch_id);
                self.next_batch_id = done.next().unwrap_or(done);
                self.committed = l.offsets.clone();
                self.tracker.set_current(WatermarkMs::from_ms(l.batch_watermark_ms.max(c.next_batch_watermark_ms)));
                self.prev_batch_wm_ms = WatermarkMs::from_ms(l.batch_watermark_ms);
                self.states = checkpoint.state.load(l.batch_id + 1).unwrap_or_default();
            }
            Some(l) => {
                // Batch L was planned but not committed: run it again as logged.
                self.next_batch_id = BatchId::new(l.batch_id);
                let prev = l.batch_id.checked_sub(1).and_then(|p| checkpoint.offset(p)).cloned();
                self.committed = prev.as_ref().map_or_else(|| vec![None; self.sources.len()], |p| p.offsets.clone());
                self.prev_batch_wm_ms = prev.map_or(WatermarkMs::ZERO, |p| WatermarkMs::from_ms(p.batch_watermark_ms));
                self.tracker.set_current(WatermarkMs::from_ms(l.batch_watermark_ms));
                self.states = checkpoint.state.load(l.batch_id).unwrap_or_default();
                self.rerun = Some(l);
            }
        }
        self.checkpoint = checkpoint;
    }
}
