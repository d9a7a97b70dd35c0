//! The `StreamingQuery` handle's API: a query built from a checked plan (with the checks Spark makes when it plans the first batch), fed rows and a clock, and read (watermarks, state, sources, `exception`, `isActive`).

use std::collections::BTreeMap;

use super::{first_start_ids, Checkpoint, StreamingConf, StreamingQuery};
use crate::analysis::{Node, Plan};
use crate::checkpoint as cp;
use crate::error::Error;
use crate::execution::OperatorState;
use crate::plan::Catalog;
use crate::streaming::sink::SinkKind;
use crate::streaming::source::{MemoryStream, Source, SourceKind};
use crate::streaming::trigger::Trigger;
use crate::streaming::watermark_tracker::WatermarkTracker;
use crate::streaming::OutputMode;
use crate::types::{BatchId, DataType, DelayMs, Row, WatermarkMs};

impl StreamingQuery {
    /// Turns per-batch explanations ([`BatchResult::explanation`](super::BatchResult::explanation)) on or off (off by default:
    /// they cost a pass over every input row).
    pub fn set_explaining(&mut self, on: bool) {
        self.explaining = on;
    }

    /// True if the query text chose the sink (`.writeStream.format('kafka')`,
    /// `foreachBatch(...)`): the lab's picker did not apply.
    pub fn sink_named_in_query(&self) -> bool {
        self.sink_named_in_query
    }

    /// True when the query text set the output mode (`writeStream.outputMode("update")`),
    /// which wins over the mode the query was started in ([`Self::output_mode`] is the text's).
    pub fn mode_set_in_query(&self) -> bool {
        self.mode_set_in_query
    }

    /// True if the query text set `.trigger(...)`: it wins over a trigger chosen outside the
    /// text (the lab's menu), as the text's sink and output mode do.
    pub fn trigger_set_in_query(&self) -> bool {
        self.trigger_set_in_query
    }

    /// True if the query runs on a temporary checkpoint (no location was given and the sink
    /// allows it): a restart starts over instead of resuming.
    pub fn temporary_checkpoint(&self) -> bool {
        self.temporary_checkpoint
    }

    /// A query over an already checked and optimized plan
    /// ([`crate::execution::optimizer::optimize`]).
    pub fn from_plan(plan: Plan, catalog: &Catalog, mode: OutputMode, conf: StreamingConf) -> StreamingQuery {
        let mut sources: Vec<(usize, Box<dyn Source>)> = Vec::new();
        let mut delays: BTreeMap<usize, DelayMs> = BTreeMap::new();
        plan.walk(&mut |p| match &p.node {
            Node::Source { name, index } if !sources.iter().any(|(i, _)| i == index) => {
                let schema: Vec<(String, DataType)> = catalog.streams.get(name).cloned().unwrap_or_default();
                sources.push((*index, Box::new(MemoryStream::new(name, &schema))));
            }
            Node::Watermark { delay_ms, watermark_index, .. } => {
                delays.insert(*watermark_index, *delay_ms);
            }
            _ => {}
        });
        sources.sort_by_key(|(i, _)| *i);
        let plan_source_columns = plan.source_columns();
        let mut first_watermark: Option<usize> = None;
        plan.walk(&mut |p| {
            if let (None, Node::Watermark { watermark_index, .. }) = (first_watermark, &p.node) {
                first_watermark = Some(*watermark_index);
            }
        });
        let sources: Vec<Box<dyn Source>> = sources.into_iter().map(|(_, s)| s).collect();
        let n = sources.len();
        let tracker = WatermarkTracker::new(conf.watermark_policy, delays.into_values().collect());
        let (id, run_id) = first_start_ids();
        let checkpoint = Checkpoint { query_id: Some(id.clone()), runs: 1, ..Checkpoint::new(conf.min_deltas_for_snapshot, conf.min_batches_to_retain) };
        StreamingQuery {
            id,
            run_id,
            name: None,
            plan,
            mode,
            conf,
            sources,
            committed: vec![None; n],
            next_batch_id: BatchId::FIRST,
            tracker,
            prev_batch_wm_ms: WatermarkMs::ZERO,
            last_executed: false,
            states: BTreeMap::new(),
            clock_ms: 0,
            checkpoint,
            rerun: None,
            source_columns: plan_source_columns,
            first_watermark,
            sink: SinkKind::Memory.create(),
            trigger: Trigger::Default,
            checkpoint_location: None,
            terminated: false,
            sink_named_in_query: false,
            mode_set_in_query: false,
            trigger_set_in_query: false,
            temporary_checkpoint: false,
            deferred_failure: None,
            failure: None,
            explaining: false,
        }
        .with_planning_checks()
        .with_operator_metadata()
    }

    fn with_operator_metadata(mut self) -> Self {
        self.checkpoint.operators = cp::operator_metadata(&self.plan);
        self.checkpoint.source_count = self.sources.len();
        self
    }

    /// Checks Spark makes when it plans the first batch, not at `start()`: a session window
    /// as the only grouping key (`_LEGACY_ERROR_TEMP_3068`), and a stateful operator whose
    /// input carries two different event-time columns (`MULTIPLE_EVENT_TIME_COLUMNS`,
    /// `WatermarkSupport.findEventTimeColumn`); both surface as `STREAM_FAILED`.
    fn with_planning_checks(mut self) -> Self {
        let mut global_session = false;
        self.plan.walk(&mut |p| {
            global_session |= matches!(&p.node, Node::Aggregate { keys, session: Some(_), .. } if keys.is_empty());
        });
        if global_session {
            let cause = "Global aggregation with session window in streaming query is not supported.";
            self.deferred_failure = Some(self.stream_failed(
                "_LEGACY_ERROR_TEMP_3068",
                cause,
                "group by the session window and at least one key, e.g. groupBy(F.session_window(...), 'user_id')",
            ));
        } else if let Some(cols) = multiple_event_time_columns(&self.plan) {
            let cause = format!(
                "[MULTIPLE_EVENT_TIME_COLUMNS] More than one event time columns are available. Please ensure there is at most one event time column per stream. event time columns: ({cols}) SQLSTATE: 42K09"
            );
            self.deferred_failure = Some(self.stream_failed(
                "MULTIPLE_EVENT_TIME_COLUMNS",
                &cause,
                "each stateful operator needs a single event-time column in its input: drop or rename one (a join's output keeps both sides' watermarked columns)",
            ));
        }
        self
    }

    /// The error that terminated the query, if any (`StreamingQuery.exception`).
    pub fn exception(&self) -> Option<&Error> {
        self.failure.as_ref()
    }

    /// The analyzed plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// `spark.sql.session.timeZone` as the query runs with it (the scenario's conf, then the
    /// program's `spark.conf.set`).
    pub fn session_time_zone(&self) -> &crate::types::timezone::SessionTimeZone {
        &self.conf.session_time_zone
    }

    /// The output mode.
    pub fn output_mode(&self) -> OutputMode {
        self.mode
    }

    /// The current global watermark in ms since the epoch: what the next batch will run with
    /// ([`Self::current_watermark`] as a number).
    pub fn current_watermark_ms(&self) -> i64 {
        self.tracker.current().ms()
    }

    /// The current global watermark: what the next batch will run with.
    pub fn current_watermark(&self) -> WatermarkMs {
        self.tracker.current()
    }

    /// The watermark stateful operator `op_id` evicts with in the next batch: the
    /// current global watermark propagated through the plan (a join lowers it for the
    /// operators after it); 0 when the operator's input has no watermark.
    pub fn operator_eviction_watermark_ms(&self, op_id: usize) -> WatermarkMs {
        self.propagated(self.tracker.current()).ok().and_then(|m| m.get(&op_id).copied()).unwrap_or(WatermarkMs::ZERO)
    }

    /// Each watermark operator's own watermark, `None` until its input had data.
    pub fn operator_watermarks(&self) -> &[Option<WatermarkMs>] {
        self.tracker.operator_watermarks()
    }

    /// The state of every stateful operator, by operator id.
    pub fn states(&self) -> &BTreeMap<usize, OperatorState> {
        &self.states
    }

    /// Source `index`'s offset as Spark writes it in the offset log (see
    /// [`Source::offset_json`]): `{"orders":{"0":2,"1":1}}` for Kafka, the number for the
    /// others, `None` for no offset or no such source.
    pub fn offset_json(&self, index: usize, offset: Option<i64>) -> Option<serde_json::Value> {
        self.sources.get(index).and_then(|s| s.offset_json(offset))
    }

    /// Names of the streaming sources the query reads, in source-index order.
    pub fn source_names(&self) -> Vec<String> {
        self.sources.iter().map(|s| s.name().to_string()).collect()
    }

    /// Sets the clock the next trigger reads (`batchTimestampMs`), ms since the epoch.
    pub fn set_clock_ms(&mut self, ms: i64) {
        self.clock_ms = ms;
        for s in &mut self.sources {
            s.tick(ms);
        }
    }

    /// Adds rows to a source as one block (`MemoryStream.addData`). Rows of a source the
    /// query does not read are ignored, as Spark ignores data in an unused stream.
    ///
    /// # Errors
    /// A row whose values do not fit the source schema.
    pub fn add_data(&mut self, source: &str, rows: &[Row]) -> Result<(), Error> {
        if rows.is_empty() {
            return Ok(());
        }
        let Some(s) = self.sources.iter_mut().find(|s| s.name() == source) else {
            return Ok(());
        };
        s.add_rows(rows).map_err(|message| {
            Error::Execution(crate::error::ExecutionError::BadRow { source_name: source.to_string(), row: 0, message })
        })?;
        Ok(())
    }

    /// Sets what kind of source `name` stands for (file with `maxFilesPerTrigger`, socket, ...):
    /// a new source of that kind over the same schema ([`SourceKind::create`]), set before
    /// any data is added. A source already of `kind` is kept as it is.
    pub fn set_source_kind(&mut self, name: &str, kind: SourceKind) {
        if let Some(s) = self.sources.iter_mut().find(|s| s.name() == name) {
            if s.kind() != kind {
                *s = kind.create(name, &s.columns());
            }
        }
    }

    /// For a Kafka source: the schema of the events written into `value`.
    pub fn set_payload_schema(&mut self, name: &str, schema: Vec<(String, DataType)>) {
        if let Some(s) = self.sources.iter_mut().find(|s| s.name() == name) {
            s.set_payload_schema(schema);
        }
    }

    /// True if the query holds an `applyInPandasWithState` with `ProcessingTimeTimeout` or a
    /// `transformWithState` with `timeMode='ProcessingTime'` (the lab shows its clock).
    pub fn uses_processing_time_timeout(&self) -> bool {
        let mut found = false;
        self.plan.walk(&mut |p| {
            found |= matches!(
                p.node,
                Node::FlatMapGroupsWithState { timeout: crate::pyfunc::GroupStateTimeout::ProcessingTimeTimeout, .. }
                    | Node::TransformWithState { time_mode: crate::pyfunc::TimeMode::ProcessingTime, .. }
            )
        });
        found
    }

    /// The query's clock (ms): what `current_timestamp()`, the next batch's timestamp and
    /// processing-time timeouts read.
    pub fn clock_ms(&self) -> i64 {
        self.clock_ms
    }

    /// Records what the start decided: whether the text named the sink, and whether the
    /// checkpoint is temporary.
    /// The trigger the query starts with, and whether the text set it.
    pub(crate) fn set_trigger_from_text(&mut self, trigger: Trigger, in_text: bool) {
        self.trigger = trigger;
        self.trigger_set_in_query = in_text;
    }

    pub(crate) fn set_start_outcome(&mut self, sink_named_in_query: bool, mode_set_in_query: bool, temporary_checkpoint: bool) {
        self.sink_named_in_query = sink_named_in_query;
        self.mode_set_in_query = mode_set_in_query;
        self.temporary_checkpoint = temporary_checkpoint;
    }

    /// True while the query runs: not failed and not finished by a `once` / `availableNow`
    /// trigger (`StreamingQuery.isActive`).
    pub fn is_active(&self) -> bool {
        self.failure.is_none() && !self.terminated
    }
}

/// The watermarked columns of the first stateful operator input that has more than one, as
/// Spark prints them (`event_time#3-T600000ms,order_time#7-T600000ms`): a join's side, a
/// deduplication's input or an aggregation's grouping columns.
fn multiple_event_time_columns(plan: &Plan) -> Option<String> {
    let show = |attrs: &[crate::analysis::Attr]| -> Option<String> {
        let tagged: Vec<String> = attrs
            .iter()
            .enumerate()
            .filter_map(|(i, a)| a.watermark_delay_ms.map(|d| format!("{}#{i}-T{}ms", a.name, d.ms())))
            .collect();
        (tagged.len() > 1).then(|| tagged.join(","))
    };
    let mut found = None;
    plan.walk(&mut |p| {
        if found.is_some() {
            return;
        }
        found = match &p.node {
            Node::StreamJoin { left, right, .. } => show(&left.output).or_else(|| show(&right.output)),
            Node::Dedup { input, .. } => show(&input.output),
            Node::Aggregate { keys, session, .. } => show(&p.output[..(keys.len() + usize::from(session.is_some())).min(p.output.len())]),
            _ => None,
        };
    });
    found
}
