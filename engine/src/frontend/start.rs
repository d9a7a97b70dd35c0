//! `StreamingQuery::start` and `restart` from query text: what `writeStream...start()` does —
//! compile the PySpark text ([`super::compile`]), resolve it, run every start-time check
//! ([`crate::analysis::check_start`]), optimize, and hand the plan to the streaming loop.
//! These constructors live here, above `streaming`, so the streaming loop never reads text.

use crate::analysis::{check_start, resolve, SinkCapabilities, StartRequest};
use crate::error::Error;
use crate::plan::{Catalog, OutputMode};
use crate::streaming::{Checkpoint, Sink, Source, StartOptions, StreamingConf, StreamingQuery, Trigger};

use super::compile;

impl StreamingQuery {
    /// Compiles, analyzes and checks `text` (what `writeStream...start()` does), ready to run.
    ///
    /// # Errors
    /// Parse errors; analysis errors at `define` (resolution) or `start`
    /// (`UnsupportedOperationChecker`); [`Error::Unsupported`] for features not modelled.
    pub fn start(text: &str, catalog: &Catalog, mode: OutputMode, conf: StreamingConf) -> Result<StreamingQuery, Error> {
        StreamingQuery::start_with(text, catalog, mode, conf, StartOptions::default())
    }

    /// [`StreamingQuery::start`] with the lab's choices: the sink used when the text names
    /// none, and whether a checkpoint location is set. Every start-time check runs in
    /// [`crate::analysis::check_start`].
    ///
    /// # Errors
    /// As [`StreamingQuery::start`], plus the sink's and the checkpoint location's checks.
    pub fn start_with(text: &str, catalog: &Catalog, mode: OutputMode, conf: StreamingConf, options: StartOptions) -> Result<StreamingQuery, Error> {
        StreamingQuery::start_evaluated(compile(text, catalog)?, text, catalog, mode, conf, options)
    }

    /// [`StreamingQuery::start_with`] on `text` already compiled ([`super::compile_traced`]):
    /// the lab compiles the text once for the start and for what it reads off the text (the
    /// delays, the sink, the reader calls).
    ///
    /// # Errors
    /// As [`StreamingQuery::start_with`], less the parse errors; the positions are in `text`.
    pub fn start_evaluated(compiled: super::interpret::Evaluated, text: &str, catalog: &Catalog, mode: OutputMode, conf: StreamingConf, options: StartOptions) -> Result<StreamingQuery, Error> {
        let conf = with_program_confs(conf, &compiled.confs);
        StreamingQuery::start_compiled(compiled, mode, conf, options, catalog).map_err(|e| super::place_in_text(e, text))
    }

    fn start_compiled(compiled: super::interpret::Evaluated, mode: OutputMode, conf: StreamingConf, options: StartOptions, catalog: &Catalog) -> Result<StreamingQuery, Error> {
        let plan = resolve(&compiled.plan)?;
        let mode = compiled.output_mode.unwrap_or(mode);
        let trigger = compiled.trigger.or(options.default_trigger).unwrap_or_default();
        let sink = compiled.sink.or(options.default_sink).map(|k| k.create_with(&compiled.sink_options));
        // The text's own sink has the location the program gives it (`_LEGACY_ERROR_TEMP_1298`
        // when it gives none); the lab's switch stands in for the picked sink's.
        let in_text = compiled.sets_checkpoint_location() || options.session_checkpoint_location;
        let has_location = options.checkpoint_location.map(|switch| in_text || (switch && compiled.sink.is_none()));
        let outcome = check_start(&StartRequest {
            plan: &plan,
            mode,
            continuous: matches!(trigger, Trigger::Continuous { .. }),
            sink: sink.as_deref().map(|s| s as &dyn SinkCapabilities),
            query_name: compiled.query_name.as_deref(),
            sink_named_in_query: compiled.sink.is_some(),
            checkpoint_location: has_location,
        })?;
        let plan = crate::execution::optimizer::optimize(plan, mode);
        let mut q = StreamingQuery::from_plan(plan, catalog, mode, conf);
        q.set_trigger_from_text(trigger, compiled.trigger.is_some());
        q.checkpoint_location = compiled.checkpoint_location;
        q.name = compiled.query_name;
        q.set_start_outcome(compiled.sink.is_some(), compiled.output_mode.is_some(), outcome.temporary_checkpoint);
        if let Some(sink) = sink {
            q.sink = sink;
        }
        Ok(q)
    }

    /// Starts `text` again on `checkpoint` with the same sources: the query id is
    /// kept and a new run id made; the watermark, batch id, source offsets and state come
    /// from the logs; a batch with an offset entry and no commit entry runs again with its
    /// logged offsets, watermark and timestamp. The confs Spark persists (watermark policy,
    /// shuffle partitions) come from the last offset entry. Per-input watermarks are not
    /// restored, as in Spark: an input counts as 0 until it has data in this run.
    ///
    /// # Errors
    /// As [`StreamingQuery::start`].
    pub fn restart(
        text: &str,
        catalog: &Catalog,
        mode: OutputMode,
        conf: StreamingConf,
        checkpoint: Checkpoint,
        sources: Vec<Box<dyn Source>>,
        sink: Box<dyn Sink>,
    ) -> Result<StreamingQuery, Error> {
        // The program's `spark.conf.set` comes first; the confs the offset log persists win
        // over it on restart, as in Spark.
        let compiled = compile(text, catalog)?;
        let conf = StreamingQuery::restored_conf(with_program_confs(conf, &compiled.confs), &checkpoint);
        let mut q = StreamingQuery::start_compiled(compiled, mode, conf, StartOptions::default(), catalog).map_err(|e| super::place_in_text(e, text))?;
        q.resume_on(mode, checkpoint, sources, sink)?;
        Ok(q)
    }
}

/// `conf` with the program's own `spark.conf.set(key, value)` calls applied in order (each was
/// checked when the program ran, so none fails here).
fn with_program_confs(mut conf: StreamingConf, confs: &[(String, String)]) -> StreamingConf {
    for (k, v) in confs {
        let _ = conf.set(k, v);
    }
    conf
}
