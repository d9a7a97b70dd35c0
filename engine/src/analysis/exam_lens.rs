//! The exam lens's rules: where a query written in the lab meets a rule that the Structured
//! Streaming programming guide (which the Databricks Spark developer exam marks) or the Korean
//! study documents state differently from what Spark 4.3 does.
//!
//! [`rules`] looks at what the engine decided — the analyzed [`Plan`], the output mode, the
//! sink, and, when the query could not be defined, the engine's own error condition — never at
//! the query's text: `clicks.distinct()` and `clicks.dropDuplicates()` are one plan and hit the
//! same rule; a `limit` in a comment hits nothing. The web app maps each [`LensRule`] to its
//! entry in `quizzes/exam-lens.toml` (what the guide says, what 4.3 does with the recorded case,
//! what to answer on the exam).
//!
//! Sources of the rules: what the programming guide says, and the recorded Spark 4.3 cases
//! each entry cites (`own-limit-update-error`, `own-distinct-append`, `own-ss-join-inner-update`,
//! `docs-guide-dedup-guid-string-subset-error`, `lens-watermark-delay-1-min-error`, ...).

use super::{Node, Plan, SinkCapabilities, StateWatermark};
use crate::error::{Error, Stage};
use crate::plan::{JoinType, OutputMode};

/// A rule of the exam lens the query hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LensRule {
    /// `limit(n)` on a stream (a stateful `GlobalLimit`, or a per-batch limit after an
    /// aggregation), or an action (`take`, `show`, `count`, ...) called on a streaming
    /// DataFrame: the guide says limit and take are not supported.
    Limit,
    /// Deduplication on every column, which is what `distinct()` is: the guide says distinct is
    /// not supported.
    Distinct,
    /// A stream-stream join in update mode: the guide says joins take append only
    /// (4.3 runs an inner join, rejects outer and semi joins).
    StreamJoinUpdate,
    /// The memory sink in update mode: the guide lists append and complete.
    MemorySinkUpdate,
    /// `dropDuplicates("col")` with one string: PySpark's `NOT_EXPECTED_TYPE` while defining,
    /// where the guide's Python tab writes exactly that.
    DedupStringSubset,
    /// An interval string Spark cannot read (`CANNOT_PARSE_INTERVAL`), such as a study
    /// document's `'1 min'`.
    IntervalUnparsed,
    /// A watermarked aggregation in append or update mode: lateness is judged per window (or
    /// session), not per row as the study documents say.
    WindowWatermark,
    /// A session window as the only grouping key: rejected in the first micro-batch, not at
    /// `start()`.
    SessionWindowOnlyKey,
    /// Deduplication on keys without the event-time column, on a watermarked input: late rows
    /// are dropped, but state is never evicted.
    DedupWithoutEventTime,
    /// A stream-stream inner join neither of whose sides can ever clean its state (no
    /// watermark with a time condition): it runs, unlike "a stream join requires a watermark".
    StreamJoinUnbounded,
    /// A window (or session window) over a column that does not carry the query's watermark,
    /// under a `withWatermark`: the guide's own Python example, `window(words.timestamp, ...)`
    /// after `words.withWatermark(...)`, takes the column from the DataFrame below the
    /// watermark, so the aggregation has no watermark (append mode is refused, update mode
    /// never evicts).
    WindowMissesWatermark,
}

impl LensRule {
    /// Every rule, in the order [`rules`] reports them.
    pub const ALL: [LensRule; 11] = [
        LensRule::Limit,
        LensRule::Distinct,
        LensRule::StreamJoinUpdate,
        LensRule::MemorySinkUpdate,
        LensRule::DedupStringSubset,
        LensRule::IntervalUnparsed,
        LensRule::WindowWatermark,
        LensRule::SessionWindowOnlyKey,
        LensRule::DedupWithoutEventTime,
        LensRule::StreamJoinUnbounded,
        LensRule::WindowMissesWatermark,
    ];

    /// The id the exam-lens file names the rule by (`rule = "limit"`).
    pub fn id(self) -> &'static str {
        match self {
            LensRule::Limit => "limit",
            LensRule::Distinct => "distinct",
            LensRule::StreamJoinUpdate => "stream-join-update",
            LensRule::MemorySinkUpdate => "memory-sink-update",
            LensRule::DedupStringSubset => "dedup-string-subset",
            LensRule::IntervalUnparsed => "interval-unparsed",
            LensRule::WindowWatermark => "window-watermark",
            LensRule::SessionWindowOnlyKey => "session-window-only-key",
            LensRule::DedupWithoutEventTime => "dedup-without-event-time",
            LensRule::StreamJoinUnbounded => "stream-join-unbounded",
            LensRule::WindowMissesWatermark => "window-misses-watermark",
        }
    }
}

/// What the lens looks at: what the engine made of the learner's query and settings.
#[derive(Clone, Copy)]
pub struct LensQuery<'a> {
    /// The analyzed plan; `None` when the DataFrame could not be defined.
    pub plan: Option<&'a Plan>,
    /// The query's output mode (`outputMode(...)`).
    pub mode: OutputMode,
    /// The sink the query writes to, when known.
    pub sink: Option<&'a dyn SinkCapabilities>,
    /// The error the query ended with (define, start or run), if any.
    pub error: Option<&'a Error>,
}

/// The exam-lens rules `q` hits, each once, in [`LensRule::ALL`]'s order.
pub fn rules(q: &LensQuery<'_>) -> Vec<LensRule> {
    let mut hit = Vec::new();
    if let Some(plan) = q.plan {
        plan.walk(&mut |p| hit.extend(node_rules(p, q.mode)));
    }
    if q.mode == OutputMode::Update && q.sink.is_some_and(|s| s.data_source_name() == "memory") {
        hit.push(LensRule::MemorySinkUpdate);
    }
    if let Some(Error::Analysis(a)) = q.error {
        match a.error_class.as_str() {
            // PySpark's message names the argument: `Argument `subset` should be list or tuple`.
            "NOT_EXPECTED_TYPE" if a.stage == Stage::Define && a.message.starts_with("Argument `subset`") => hit.push(LensRule::DedupStringSubset),
            "CANNOT_PARSE_INTERVAL" => hit.push(LensRule::IntervalUnparsed),
            // The only define-time `_LEGACY_ERROR_TEMP_3102`: an action on a streaming
            // DataFrame ("Queries with streaming sources must be executed with
            // writeStream.start()").
            "_LEGACY_ERROR_TEMP_3102" if a.stage == Stage::Define => hit.push(LensRule::Limit),
            _ => {}
        }
    }
    hit.sort_unstable();
    hit.dedup();
    hit
}

/// The rules one plan node hits by itself.
fn node_rules(p: &Plan, mode: OutputMode) -> Vec<LensRule> {
    let mut hit = Vec::new();
    match &p.node {
        Node::Limit { .. } => hit.push(LensRule::Limit),
        Node::CollectLimit { input, .. } if input.streaming => hit.push(LensRule::Limit),
        Node::Dedup { input, keys, event_time_col, event_time_in_key, within_watermark, .. } => {
            if !within_watermark && keys.len() == input.output.len() && keys.iter().enumerate().all(|(i, k)| i == *k) {
                hit.push(LensRule::Distinct);
            }
            if !within_watermark && event_time_col.is_some() && !event_time_in_key {
                hit.push(LensRule::DedupWithoutEventTime);
            }
        }
        Node::StreamJoin { join, spec, .. } => {
            if mode == OutputMode::Update {
                hit.push(LensRule::StreamJoinUpdate);
            }
            if join.join_type == JoinType::Inner && spec.left_state == StateWatermark::None && spec.right_state == StateWatermark::None {
                hit.push(LensRule::StreamJoinUnbounded);
            }
        }
        Node::Aggregate { input, keys, event_time_key, session, .. } => {
            if session.is_some() && keys.is_empty() {
                hit.push(LensRule::SessionWindowOnlyKey);
            }
            let window_key = session.is_some() || p.output.iter().take(keys.len()).any(|a| a.window.is_some());
            if event_time_key.is_none() && window_key && input.has_watermark() {
                hit.push(LensRule::WindowMissesWatermark);
            }
            if event_time_key.is_some() && mode != OutputMode::Complete {
                hit.push(LensRule::WindowWatermark);
            }
        }
        _ => {}
    }
    hit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::resolve;
    use crate::frontend::{compile, Catalog};
    use crate::types::{timestamp_type, DataType};

    fn catalog() -> Catalog {
        let mut c = Catalog::default();
        let clicks = vec![("event_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())];
        c.streams.insert("clicks".into(), clicks.clone());
        c.streams.insert("orders".into(), clicks);
        c
    }

    struct Memory;
    impl SinkCapabilities for Memory {
        fn data_source_name(&self) -> &'static str {
            "memory"
        }
    }
    struct Console;
    impl SinkCapabilities for Console {
        fn data_source_name(&self) -> &'static str {
            "console"
        }
    }

    /// The rule ids `query` hits in `mode` writing to `sink`; a query that cannot be defined
    /// is looked at through its error, as the lab does.
    fn hits(query: &str, mode: OutputMode, sink: Option<&dyn SinkCapabilities>) -> Vec<&'static str> {
        let defined = compile(query, &catalog()).and_then(|c| resolve(&c.plan));
        let (plan, error) = match &defined {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e)),
        };
        rules(&LensQuery { plan, mode, sink, error }).into_iter().map(LensRule::id).collect()
    }

    fn append(query: &str) -> Vec<&'static str> {
        hits(query, OutputMode::Append, None)
    }

    #[test]
    fn limit_and_actions() {
        assert_eq!(append("clicks.limit(3)"), ["limit"]);
        assert_eq!(hits("clicks.limit(3)", OutputMode::Update, None), ["limit"]);
        // After an aggregation in complete mode the limit is per batch, still a limit.
        assert_eq!(hits("clicks.groupBy('post_id').count().orderBy('count').limit(2)", OutputMode::Complete, None), ["limit"]);
        // take() is an action: the define-time error (recorded: lens-take-on-stream-define-error).
        assert_eq!(append("clicks.take(2)"), ["limit"]);
        // A filter, and a limit's name in a string, hit nothing.
        assert!(append("clicks.filter(F.col('user_id') == 'limit(3)')").is_empty());
    }

    #[test]
    fn distinct_is_deduplication_on_every_column() {
        assert_eq!(append("clicks.distinct()"), ["distinct"]);
        assert_eq!(append("clicks.dropDuplicates()"), ["distinct"]);
        // A subset is the guide's supported dropDuplicates.
        assert!(append("clicks.dropDuplicates(['event_id'])").is_empty());
        // distinct() over a projection: every column of its input.
        assert_eq!(hits("clicks.select('user_id').distinct()", OutputMode::Update, None), ["distinct"]);
    }

    #[test]
    fn stream_joins_in_update_mode_and_without_watermarks() {
        let inner = "clicks.join(orders, 'post_id')";
        assert_eq!(append(inner), ["stream-join-unbounded"]);
        assert_eq!(hits(inner, OutputMode::Update, None), ["stream-join-update", "stream-join-unbounded"]);
        // Watermarks on both sides and a time range: state is bounded, append is the guide's mode.
        let bounded = "clicks.withWatermark('event_time', '10 minutes').alias('c').join(orders.withWatermark('event_time', '10 minutes').alias('o'), F.expr('c.post_id = o.post_id AND o.event_time BETWEEN c.event_time AND c.event_time + interval 15 minutes'))";
        assert!(append(bounded).is_empty(), "{:?}", append(bounded));
        assert_eq!(hits(bounded, OutputMode::Update, None), ["stream-join-update"]);
    }

    #[test]
    fn the_memory_sink_in_update_mode() {
        let q = "clicks.groupBy('post_id').count()";
        assert_eq!(hits(q, OutputMode::Update, Some(&Memory)), ["memory-sink-update"]);
        assert!(hits(q, OutputMode::Complete, Some(&Memory)).is_empty());
        assert!(hits(q, OutputMode::Update, Some(&Console)).is_empty());
        assert!(hits(q, OutputMode::Update, None).is_empty());
    }

    #[test]
    fn define_errors_the_study_documents_run_into() {
        // PySpark refuses a str subset (recorded: docs-guide-dedup-guid-string-subset-error).
        assert_eq!(append("clicks.dropDuplicates('event_id')"), ["dedup-string-subset"]);
        // '1 min' does not parse (recorded: lens-watermark-delay-1-min-error); '1 minute' does.
        let q = |delay: &str| format!("clicks.withWatermark('event_time', '{delay}').groupBy(F.window('event_time', '10 minutes')).count()");
        assert_eq!(append(&q("1 min")), ["interval-unparsed"]);
        assert_eq!(append(&q("1 minute")), ["window-watermark"]);
        // Another NOT_EXPECTED_TYPE is not the subset rule.
        assert!(!append("clicks.withWatermark(1, '10 minutes')").contains(&"dedup-string-subset"));
    }

    #[test]
    fn a_window_over_the_column_from_below_the_watermark() {
        // The guide's Python example: the window's column is taken from the DataFrame below
        // `withWatermark` (recorded: docs-guide-watermark-window-word-count-update, which never
        // evicts, and -append, which start() refuses).
        let guide = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window(clicks.event_time, '10 minutes'), clicks.post_id).count()";
        assert_eq!(hits(guide, OutputMode::Update, None), ["window-misses-watermark"]);
        let sessions = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.session_window(clicks.event_time, '5 minutes'), clicks.post_id).count()";
        assert_eq!(hits(sessions, OutputMode::Complete, None), ["window-misses-watermark"]);
        // By name, the column carries the watermark: the guide's rule applies as written.
        let by_name = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()";
        assert_eq!(hits(by_name, OutputMode::Update, None), ["window-watermark"]);
        // No watermark anywhere: nothing was missed.
        assert!(hits("clicks.groupBy(F.window(clicks.event_time, '10 minutes')).count()", OutputMode::Update, None).is_empty());
    }

    #[test]
    fn watermarked_aggregations_sessions_and_dedup_keys() {
        let window = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes')).count()";
        assert_eq!(hits(window, OutputMode::Update, None), ["window-watermark"]);
        // Complete mode ignores the watermark: nothing is judged late.
        assert!(hits(window, OutputMode::Complete, None).is_empty());
        // Without a watermark nothing is late either.
        assert!(hits("clicks.groupBy(F.window('event_time', '10 minutes')).count()", OutputMode::Update, None).is_empty());
        let session = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.session_window('event_time', '5 minutes')).count()";
        assert_eq!(append(session), ["window-watermark", "session-window-only-key"]);
        let per_user = "clicks.withWatermark('event_time', '10 minutes').groupBy(F.session_window('event_time', '5 minutes'), 'user_id').count()";
        assert_eq!(append(per_user), ["window-watermark"]);
        assert_eq!(append("clicks.withWatermark('event_time', '10 minutes').dropDuplicates(['event_id'])"), ["dedup-without-event-time"]);
        assert!(append("clicks.withWatermark('event_time', '10 minutes').dropDuplicates(['event_id', 'event_time'])").is_empty());
        assert!(append("clicks.withWatermark('event_time', '10 minutes').dropDuplicatesWithinWatermark(['event_id'])").is_empty());
        // distinct() on a watermarked stream keeps the event time in its key.
        assert_eq!(append("clicks.withWatermark('event_time', '10 minutes').distinct()"), ["distinct"]);
    }
}
