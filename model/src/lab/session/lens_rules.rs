//! Which rules of the exam lens a query meets, as the engine judges them (the lens's entries,
//! what the guide, the exam and Spark 4.3 each say, are study content: `crate::study::lens`).

/// The exam-lens rule ids (`LensRule::id`) the engine reports for `query` over `catalog`,
/// started in `mode` (unless the text sets `.outputMode(...)`) writing to the sink the text
/// names, else `picked_sink`: the plan is compiled and analyzed exactly as the lab does, and
/// a query that cannot be defined is judged by its error (see
/// `streamlab_engine::analysis::exam_lens`). Never matches the query's text.
pub fn engine_rules(query: &str, catalog: &streamlab_engine::frontend::Catalog, mode: streamlab_engine::streaming::OutputMode, picked_sink: Option<streamlab_engine::streaming::SinkKind>) -> Vec<&'static str> {
    rules_of(&streamlab_engine::frontend::compile(query, catalog), mode, picked_sink)
}

/// [`engine_rules`] for a query already compiled (the lab compiles the text once per replay).
pub(super) fn rules_of(
    compiled: &Result<streamlab_engine::frontend::Evaluated, streamlab_engine::error::Error>,
    mode: streamlab_engine::streaming::OutputMode,
    picked_sink: Option<streamlab_engine::streaming::SinkKind>,
) -> Vec<&'static str> {
    use streamlab_engine::analysis::exam_lens::{rules, LensQuery};
    use streamlab_engine::analysis::{resolve, SinkCapabilities};
    let (text_mode, text_sink) = compiled.as_ref().map_or((None, None), |c| (c.output_mode, c.sink));
    let analyzed = match compiled {
        Ok(c) => resolve(&c.plan),
        Err(e) => Err(e.clone()),
    };
    let (plan, error) = match &analyzed {
        Ok(p) => (Some(p), None),
        Err(e) => (None, Some(e)),
    };
    let sink = text_sink.or(picked_sink).map(|k| k.create());
    let sink: Option<&dyn SinkCapabilities> = sink.as_deref().map(|s| s as &dyn SinkCapabilities);
    rules(&LensQuery { plan, mode: text_mode.unwrap_or(mode), sink, error }).into_iter().map(|r| r.id()).collect()
}
