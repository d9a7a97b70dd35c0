//! The one test driver of the engine's integration tests, after Spark's
//! `StreamTest.testStream` (`sql/core/src/test/scala/org/apache/spark/sql/streaming/StreamTest.scala`):
//! a query, an output mode and a list of actions — `AddData`, `ProcessAllAvailable`,
//! `RunBatch`, `Fire`, `CrashNext`, `StopStream`, `StartStream`, `AdvanceClock`,
//! `CheckNewAnswer`, `CheckAnswer`, `CheckLastBatch`, `ExpectFailure`, `AssertOnQuery`, ... —
//! run in order. The first action whose expectation does not hold panics with its index,
//! what was expected and what happened, and Spark's `== Progress ==` listing of the script
//! (the failing action marked `=>`), the stream's state and every batch that ran.
//!
//! Every engine call that starts, feeds, triggers, crashes, stops or restarts a
//! `StreamingQuery` goes through this module, so a change of the engine's API (sources and
//! sinks behind traits, time newtypes) is adapted here once. Two front ends share one
//! implementation: the scripted [`StreamTest::run`] for tests with hand-worked values, and the
//! imperative [`Stream`] methods ([`StreamTest::start`]) for loops over random input
//! (property tests, the fuzzer, the checkpoint sweeps), which have no fixed script.
//!
//! # Who uses it
//! - Scripts: `recovery.rs` (crash injection per sink), `triggers.rs`, `kafka.rs` (the
//!   restart test), `joins.rs`, `query_changes.rs`, `group_state.rs`, `explain.rs`,
//!   `state_rows.rs`, `limits.rs` (the queries that run), `ansi_and_batch_time.rs`,
//!   `properties.rs` (a script built from the random split) and `support_driver.rs`, which
//!   shows that a wrong expectation is reported.
//! - Step by step: `checkpoint.rs`, `fuzz.rs`, the crash proptest of `recovery.rs`, the
//!   small-stack runs of `limits.rs`, and `explain_corpus.rs` (it starts a query only to read
//!   its plan).
//! - Not at all, because they drive no `StreamingQuery`: `conformance.rs`, `corpus_copy.rs`,
//!   `judge_mutations.rs` and `layers.rs` check the corpus, the judge and the module layers;
//!   `parser_snapshots.rs`, `optimizer.rs` and `unsupported.rs` compile, resolve and check
//!   plans without running them; `json_source.rs` and the scenario tests of `kafka.rs` test
//!   the scenario format through `scenario::run`, the conformance harness's own loop.
//!
//! # Semantics
//! Unlike Spark, where the query runs on its own thread and `CheckAnswer` first waits for it,
//! nothing runs here unless an action runs it (`ProcessAllAvailable`, `RunBatch`, `Fire`,
//! `ExpectFailure`): a check sees what the batches so far did. So that `AddData` followed by a
//! check cannot pass by looking at nothing, `CheckNewAnswer` and `CheckLastBatch` fail while a
//! live query has input no batch has read. A query that fails in a batch must be followed by
//! `ExpectFailure`, else the action that ran the batch fails.
#![allow(dead_code)] // each test binary uses a part of the driver

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use streamlab_engine::error::Error;
use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::{BatchResult, Checkpoint, CrashPoint, OutputMode, Sink, SinkKind, Source, SourceKind, StreamingConf, StreamingQuery};
use streamlab_engine::types::{parse_timestamp_us, DataType, Row, Value};

// ------------------------------------------------------------------------------------------
// Rows

/// A value a test writes as a literal: `&str` is a string, `i64` a long, `f64` a double.
pub trait IntoValue {
    fn into_value(self) -> Value;
}

impl IntoValue for Value {
    fn into_value(self) -> Value {
        self
    }
}
impl IntoValue for &str {
    fn into_value(self) -> Value {
        Value::str(self)
    }
}
impl IntoValue for String {
    fn into_value(self) -> Value {
        Value::str(&self)
    }
}
impl IntoValue for i64 {
    fn into_value(self) -> Value {
        Value::Long(self)
    }
}
impl IntoValue for f64 {
    fn into_value(self) -> Value {
        Value::Double(self)
    }
}
impl IntoValue for bool {
    fn into_value(self) -> Value {
        Value::Bool(self)
    }
}

/// A row from literals: `row!["a", 1, ts_s(10)]` is `[Str("a"), Long(1), Timestamp(10 s)]`.
#[allow(unused_macros)] // not every test binary writes rows
macro_rules! row {
    ($($v:expr),* $(,)?) => { vec![$($crate::support::IntoValue::into_value($v)),*] };
}
#[allow(unused_imports)]
pub(crate) use row;

pub const SEC_US: i64 = 1_000_000;
pub const MIN_US: i64 = 60 * SEC_US;

/// A timestamp `us` µs past the epoch.
pub fn ts_us(us: i64) -> Value {
    Value::Timestamp(us)
}

/// A timestamp `s` seconds past the epoch.
pub fn ts_s(s: i64) -> Value {
    Value::Timestamp(s * SEC_US)
}

/// A timestamp `m` minutes past the epoch.
pub fn ts_min(m: i64) -> Value {
    Value::Timestamp(m * MIN_US)
}

/// A timestamp from its ISO-8601 text (`2026-01-01T12:00:00Z`).
pub fn ts_at(text: &str) -> Value {
    Value::Timestamp(parse_timestamp_us(text).unwrap_or_else(|e| panic!("timestamp {text}: {e}")))
}

/// A `window` struct value [start, end), in µs.
pub fn window_us(start: i64, end: i64) -> Value {
    let w: Rc<[Value]> = Rc::from(vec![Value::Timestamp(start), Value::Timestamp(end)]);
    Value::Struct(w)
}

/// A `window` struct value [start, end), in minutes.
pub fn window_min(start: i64, end: i64) -> Value {
    window_us(start * MIN_US, end * MIN_US)
}

/// A catalog of streams, each with its (column, type) schema.
pub fn streams(list: &[(&str, &[(&str, DataType)])]) -> Catalog {
    let mut c = Catalog::default();
    for (name, schema) in list {
        c.streams.insert((*name).into(), schema.iter().map(|(n, t)| ((*n).to_string(), t.clone())).collect());
    }
    c
}

/// The multiset of `rows`: sorted.
pub fn sorted<T: Ord + Clone>(rows: &[T]) -> Vec<T> {
    let mut v = rows.to_vec();
    v.sort();
    v
}

/// A row as `[a, 1, 2026-01-01T12:00:00Z]`.
pub fn show_row(row: &[Value]) -> String {
    format!("[{}]", row.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))
}

fn show_rows(rows: &[Row]) -> String {
    format!("{{{}}}", rows.iter().map(|r| show_row(r)).collect::<Vec<_>>().join(", "))
}

/// The first rows of a script's action, for the progress listing (the script is described
/// before it runs, so a long `AddData` costs little).
fn show_some_rows(rows: &[Row]) -> String {
    const SHOWN: usize = 5;
    if rows.len() <= SHOWN {
        show_rows(rows)
    } else {
        format!("{} … ({} rows)", show_rows(&rows[..SHOWN]).trim_end_matches('}'), rows.len()) + "}"
    }
}

// ------------------------------------------------------------------------------------------
// The test's setup

/// A query to test: its text, output mode, catalog and everything set before it starts.
pub struct StreamTest {
    query: String,
    mode: OutputMode,
    catalog: Catalog,
    conf: StreamingConf,
    sink: Option<SinkKind>,
    source_kinds: Vec<(String, SourceKind)>,
    payloads: Vec<(String, Vec<(String, DataType)>)>,
    explaining: bool,
}

/// `testStream(query, mode)` over `catalog`: set up with the builder methods, then
/// [`StreamTest::run`] a script or [`StreamTest::start`] the query by hand.
pub fn test_stream(query: &str, mode: OutputMode, catalog: Catalog) -> StreamTest {
    StreamTest {
        query: query.to_string(),
        mode,
        catalog,
        conf: StreamingConf::default(),
        sink: None,
        source_kinds: Vec::new(),
        payloads: Vec::new(),
        explaining: false,
    }
}

impl StreamTest {
    /// The session confs (default: `StreamingConf::default()`).
    pub fn conf(mut self, conf: StreamingConf) -> StreamTest {
        self.conf = conf;
        self
    }

    /// Writes to a fresh sink of `kind` instead of the one the query names (memory by default).
    pub fn sink(mut self, kind: SinkKind) -> StreamTest {
        self.sink = Some(kind);
        self
    }

    /// Source `name` stands for a file, socket, Kafka or rate source.
    pub fn source_kind(mut self, name: &str, kind: SourceKind) -> StreamTest {
        self.source_kinds.push((name.to_string(), kind));
        self
    }

    /// For a Kafka source: the schema of the events written into `value`.
    pub fn payload_schema(mut self, name: &str, schema: Vec<(String, DataType)>) -> StreamTest {
        self.payloads.push((name.to_string(), schema));
        self
    }

    /// Batches explain themselves (`StreamingQuery::set_explaining`), in every run.
    pub fn explaining(mut self, on: bool) -> StreamTest {
        self.explaining = on;
        self
    }

    /// Starts the query for a test that drives it step by step.
    ///
    /// # Errors
    /// The start's error.
    pub fn start(self) -> Result<Stream, Error> {
        let mut s = Stream::new(self);
        match s.start_error.take() {
            Some(e) => Err(e),
            None => Ok(s),
        }
    }

    /// Runs `actions` in order; panics at the first whose expectation does not hold. Returns
    /// the stream as the script left it. A query that fails to start must be followed by
    /// `ExpectFailure`.
    pub fn run(self, actions: Vec<Action<'_>>) -> Stream {
        let descriptions: Vec<String> = actions.iter().map(Action::describe).collect();
        let mut s = Stream::new(self);
        let n = actions.len();
        let mut actions = actions.into_iter().enumerate().peekable();
        while let Some((i, action)) = actions.next() {
            let next_expects_failure = matches!(actions.peek(), Some((_, Action::ExpectFailure(_))));
            if let Some(e) = &s.start_error {
                if !matches!(action, Action::ExpectFailure(_)) {
                    let e = e.to_string();
                    s.fail(i, &descriptions, &format!("the query did not start: {e}"));
                }
            }
            let outcome = catch_unwind(AssertUnwindSafe(|| s.act(action)));
            let outcome = match outcome {
                Ok(r) => r,
                Err(p) => Err(panic_text(&*p)),
            };
            if let Err(why) = outcome {
                s.fail(i, &descriptions, &why);
            }
            if let Some(e) = s.unexpected_failure() {
                if !next_expects_failure {
                    s.fail(i, &descriptions, &format!("the query failed: {e}"));
                }
            }
        }
        if let Some(e) = &s.start_error {
            let e = e.to_string();
            s.fail(n, &descriptions, &format!("the query did not start: {e}"));
        }
        s
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic without a message".into())
}

// ------------------------------------------------------------------------------------------
// Actions

/// One step of a script (Spark's `StreamAction`).
pub enum Action<'a> {
    /// Adds rows to a source as one block; works while the query runs, is dead or is stopped.
    AddData(&'a str, Vec<Row>),
    /// `processAllAvailable`: batches until a trigger finds nothing to do.
    ProcessAllAvailable,
    /// One trigger (`run_next_batch`): `Some((batch id, input rows))` is the batch it must
    /// run, `None` means it must run none (idle, or the batch failed: then `ExpectFailure`).
    RunBatch(Option<(u64, u64)>),
    /// One firing of the query's own trigger (`fire`): the (batch id, input rows) of the
    /// batches it must run.
    Fire(Vec<(u64, u64)>),
    /// The next trigger runs a batch and dies at this point; the query stays dead (no batch
    /// runs, the sink is untouched) until `StartStream`.
    CrashNext(CrashPoint),
    /// `stop()` on a live (or dead) query; its checkpoint, sources and sink remain.
    StopStream,
    /// A new run on the checkpoint, sources and sink of a stopped or dead query, with the
    /// same or a changed query ([`Start`]). A refused start must be followed by `ExpectFailure`.
    StartStream(Start),
    /// Moves the query's clock forward by this many ms (Spark's `AdvanceManualClock`).
    AdvanceClock(i64),
    /// Sets the query's clock to this many ms since the epoch.
    SetClock(i64),
    /// The rows the batches since the previous `CheckNewAnswer` (or the start) emitted, as a
    /// multiset.
    CheckNewAnswer(Vec<Row>),
    /// The rows of the last batch that ran, as a multiset.
    CheckLastBatch(Vec<Row>),
    /// The rows of the last batch that ran, in order.
    CheckLastBatchInOrder(Vec<Row>),
    /// The multiset of rows a reader of the sink sees.
    CheckAnswer(Vec<Row>),
    /// The multiset of (batch id, row) a reader of the sink sees.
    CheckAnswerByBatch(Vec<(u64, Row)>),
    /// Rows a reader of the sink sees more than once.
    CheckDuplicates(usize),
    /// The batch ids in the commit log, in order.
    CheckCommits(Vec<u64>),
    /// The number of runs so far; all share one query id and each has its own run id.
    CheckRuns(usize),
    /// The watermark the next batch runs with (ms).
    CheckWatermark(i64),
    /// State metrics of one stateful operator in the last batch.
    CheckState(StateMetrics),
    /// The query failed (running what is available until it does) or did not start.
    ExpectFailure(Fail<'a>),
    /// A check of anything else: the closure asserts (`assert!`, `assert_eq!`); its panic is
    /// reported as this action's failure, with the message.
    AssertOnQuery(Box<dyn FnOnce(&mut Stream) + 'a>, &'a str),
}

pub use Action::*;

/// `AssertOnQuery(f, message)` without the `Box`.
pub fn assert_on<'a>(message: &'a str, f: impl FnOnce(&mut Stream) + 'a) -> Action<'a> {
    AssertOnQuery(Box::new(f), message)
}

impl Action<'_> {
    fn describe(&self) -> String {
        match self {
            AddData(src, rows) => format!("AddData({src}: {})", show_some_rows(rows)),
            ProcessAllAvailable => "ProcessAllAvailable".into(),
            RunBatch(Some((id, n))) => format!("RunBatch(batch {id} with {n} input rows)"),
            RunBatch(None) => "RunBatch(no batch)".into(),
            Fire(b) => format!("Fire(batches {b:?})"),
            CrashNext(p) => format!("CrashNext({})", p.id()),
            StopStream => "StopStream".into(),
            StartStream(s) => format!("StartStream({})", s.describe()),
            AdvanceClock(ms) => format!("AdvanceClock({ms} ms)"),
            SetClock(ms) => format!("SetClock({ms} ms)"),
            CheckNewAnswer(rows) => format!("CheckNewAnswer({})", show_rows(rows)),
            CheckLastBatch(rows) => format!("CheckLastBatch({})", show_rows(rows)),
            CheckLastBatchInOrder(rows) => format!("CheckLastBatchInOrder({})", show_rows(rows)),
            CheckAnswer(rows) => format!("CheckAnswer({})", show_rows(rows)),
            CheckAnswerByBatch(rows) => {
                format!("CheckAnswerByBatch({})", rows.iter().map(|(b, r)| format!("{b}: {}", show_row(r))).collect::<Vec<_>>().join(", "))
            }
            CheckDuplicates(n) => format!("CheckDuplicates({n})"),
            CheckCommits(ids) => format!("CheckCommits({ids:?})"),
            CheckRuns(n) => format!("CheckRuns({n})"),
            CheckWatermark(ms) => format!("CheckWatermark({ms} ms)"),
            CheckState(m) => format!("CheckState({m:?})"),
            ExpectFailure(f) => format!("ExpectFailure({})", f.describe()),
            AssertOnQuery(_, msg) => format!("AssertOnQuery({msg})"),
        }
    }
}

/// What `StartStream` starts: the same query, or a changed one, on the same checkpoint.
#[derive(Clone, Debug, Default)]
pub struct Start {
    query: Option<String>,
    mode: Option<OutputMode>,
    conf: Option<StreamingConf>,
    new_checkpoint: Option<SinkKind>,
}

impl Start {
    /// The query as it last ran.
    pub fn same() -> Start {
        Start::default()
    }

    /// Another query text (a changed trigger is a changed text: `.writeStream.trigger(...)`).
    pub fn query(text: &str) -> Start {
        Start { query: Some(text.to_string()), ..Start::default() }
    }

    /// Another output mode.
    pub fn mode(mut self, mode: OutputMode) -> Start {
        self.mode = Some(mode);
        self
    }

    /// Other session confs.
    pub fn conf(mut self, conf: StreamingConf) -> Start {
        self.conf = Some(conf);
        self
    }

    /// A new query on the same sources: an empty checkpoint and a fresh sink of `kind`.
    pub fn new_checkpoint(mut self, kind: SinkKind) -> Start {
        self.new_checkpoint = Some(kind);
        self
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(q) = &self.query {
            parts.push(format!("query {q}"));
        }
        if let Some(m) = self.mode {
            parts.push(format!("mode {m:?}"));
        }
        if self.conf.is_some() {
            parts.push("other confs".into());
        }
        if let Some(k) = self.new_checkpoint {
            parts.push(format!("new checkpoint, sink {k:?}"));
        }
        if parts.is_empty() {
            "same query".into()
        } else {
            parts.join(", ")
        }
    }
}

/// State metrics expected of operator `op` (its index in the batch's `stateOperators`).
#[derive(Clone, Copy, Debug, Default)]
pub struct StateMetrics {
    pub op: usize,
    pub total: Option<u64>,
    pub updated: Option<u64>,
    pub removed: Option<u64>,
    pub dropped_by_watermark: Option<u64>,
}

/// The metrics of stateful operator `op` to check; set the ones that matter.
pub fn state(op: usize) -> StateMetrics {
    StateMetrics { op, ..StateMetrics::default() }
}

impl StateMetrics {
    pub fn total(mut self, n: u64) -> StateMetrics {
        self.total = Some(n);
        self
    }
    pub fn updated(mut self, n: u64) -> StateMetrics {
        self.updated = Some(n);
        self
    }
    pub fn removed(mut self, n: u64) -> StateMetrics {
        self.removed = Some(n);
        self
    }
    pub fn dropped_by_watermark(mut self, n: u64) -> StateMetrics {
        self.dropped_by_watermark = Some(n);
        self
    }
}

/// What a failure must look like (Spark's `ExpectFailure[T](assertFailure)`).
pub struct Fail<'a> {
    expects: Vec<(String, Box<dyn Fn(&Error) -> bool + 'a>)>,
    custom: Option<Box<dyn FnOnce(&Error) + 'a>>,
}

/// The message of an error: Spark's text of an analysis or parse error, else its display.
pub fn message_of(e: &Error) -> String {
    match e {
        Error::Analysis(a) => a.message.clone(),
        Error::Parse(p) => p.message.clone(),
        Error::Unsupported(what) => what.clone(),
        other => other.to_string(),
    }
}

fn class_of(e: &Error) -> Option<&str> {
    match e {
        Error::Analysis(a) => Some(&a.error_class),
        _ => None,
    }
}

fn cause_of(e: &Error) -> Option<&(String, String)> {
    match e {
        Error::Analysis(a) => a.cause.as_ref(),
        _ => None,
    }
}

impl<'a> Fail<'a> {
    /// Any error.
    pub fn any() -> Fail<'a> {
        Fail { expects: Vec::new(), custom: None }
    }

    /// An analysis error (`Error::Analysis`).
    pub fn analysis() -> Fail<'a> {
        Fail::any().expect("an analysis error".into(), |e| matches!(e, Error::Analysis(_)))
    }

    /// A parse error (`Error::Parse`).
    pub fn parse() -> Fail<'a> {
        Fail::any().expect("a parse error".into(), |e| matches!(e, Error::Parse(_)))
    }

    /// A feature the engine does not model (`Error::Unsupported`).
    pub fn unsupported() -> Fail<'a> {
        Fail::any().expect("an unsupported feature".into(), |e| matches!(e, Error::Unsupported(_)))
    }

    /// An analysis error of this condition (`STREAM_FAILED`, `STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE`, ...).
    pub fn class(class: &'a str) -> Fail<'a> {
        Fail::any().expect(format!("condition {class}"), move |e| class_of(e) == Some(class))
    }

    fn expect(mut self, what: String, f: impl Fn(&Error) -> bool + 'a) -> Fail<'a> {
        self.expects.push((what, Box::new(f)));
        self
    }

    /// The message ([`message_of`]) is exactly `text`.
    pub fn message(self, text: &'a str) -> Fail<'a> {
        self.expect(format!("message {text:?}"), move |e| message_of(e) == text)
    }

    pub fn message_contains(self, text: &'a str) -> Fail<'a> {
        self.expect(format!("message containing {text:?}"), move |e| message_of(e).contains(text))
    }

    pub fn message_starts_with(self, text: &'a str) -> Fail<'a> {
        self.expect(format!("message starting {text:?}"), move |e| message_of(e).starts_with(text))
    }

    /// The error's whole display text contains `text`.
    pub fn text_contains(self, text: &'a str) -> Fail<'a> {
        self.expect(format!("text containing {text:?}"), move |e| e.to_string().contains(text))
    }

    pub fn text_starts_with(self, text: &'a str) -> Fail<'a> {
        self.expect(format!("text starting {text:?}"), move |e| e.to_string().starts_with(text))
    }

    /// A `STREAM_FAILED` cause of this condition.
    pub fn cause(self, class: &'a str) -> Fail<'a> {
        self.expect(format!("cause {class}"), move |e| cause_of(e).is_some_and(|c| c.0 == class))
    }

    /// The cause's message starts with `text`.
    pub fn cause_message_starts_with(self, text: &'a str) -> Fail<'a> {
        self.expect(format!("cause message starting {text:?}"), move |e| cause_of(e).is_some_and(|c| c.1.starts_with(text)))
    }

    /// No `STREAM_FAILED` cause.
    pub fn no_cause(self) -> Fail<'a> {
        self.expect("no cause".into(), move |e| cause_of(e).is_none())
    }

    pub fn hint_contains(self, text: &'a str) -> Fail<'a> {
        self.expect(format!("hint containing {text:?}"), move |e| matches!(e, Error::Analysis(a) if a.hint.as_deref().is_some_and(|h| h.contains(text))))
    }

    /// Anything else, asserted by the closure.
    pub fn check(mut self, f: impl FnOnce(&Error) + 'a) -> Fail<'a> {
        self.custom = Some(Box::new(f));
        self
    }

    fn describe(&self) -> String {
        let mut parts: Vec<String> = self.expects.iter().map(|(w, _)| w.clone()).collect();
        if self.custom.is_some() {
            parts.push("a custom check".into());
        }
        if parts.is_empty() {
            "any error".into()
        } else {
            parts.join(", ")
        }
    }

    fn verify(self, e: &Error) -> Result<(), String> {
        for (what, ok) in &self.expects {
            if !ok(e) {
                return Err(format!("expected a failure with {what}, got: {e:?}"));
            }
        }
        if let Some(f) = self.custom {
            f(e);
        }
        Ok(())
    }
}

// ------------------------------------------------------------------------------------------
// The stream under test

enum Phase {
    Live(StreamingQuery),
    /// Failed or crashed: no batch runs until a restart.
    Dead(StreamingQuery),
    Stopped(Checkpoint, Vec<Box<dyn Source>>, Box<dyn Sink>),
    /// The query never started.
    None,
}

/// The stream a script drives: the query (live, dead or stopped), every batch that ran in
/// any run, and the runs' ids.
pub struct Stream {
    setup: StreamTest,
    phase: Phase,
    /// A start refused and not yet checked by `ExpectFailure`.
    start_error: Option<Error>,
    /// A batch failure already checked (or expected, a crash).
    failure_seen: bool,
    batches: Vec<BatchResult>,
    /// `batches[last_run..]` ran in the last action that ran batches.
    last_run: usize,
    /// `batches[answered..]` are the new answer.
    answered: usize,
    runs: Vec<(String, String)>,
    clock_ms: Option<i64>,
}

impl Stream {
    fn new(setup: StreamTest) -> Stream {
        let mut s = Stream {
            phase: Phase::None,
            start_error: None,
            failure_seen: false,
            batches: Vec::new(),
            last_run: 0,
            answered: 0,
            runs: Vec::new(),
            clock_ms: None,
            setup,
        };
        match StreamingQuery::start(&s.setup.query, &s.setup.catalog, s.setup.mode, s.setup.conf.clone()) {
            Ok(mut q) => {
                if let Some(kind) = s.setup.sink {
                    q.sink = kind.create();
                }
                for (name, kind) in &s.setup.source_kinds {
                    q.set_source_kind(name, *kind);
                }
                for (name, schema) in &s.setup.payloads {
                    q.set_payload_schema(name, schema.clone());
                }
                q.set_explaining(s.setup.explaining);
                s.runs.push((q.id.clone(), q.run_id.clone()));
                s.phase = Phase::Live(q);
            }
            Err(e) => s.start_error = Some(e),
        }
        s
    }

    // -- reading ------------------------------------------------------------------------

    /// The query (live or dead).
    pub fn query(&self) -> &StreamingQuery {
        match &self.phase {
            Phase::Live(q) | Phase::Dead(q) => q,
            Phase::Stopped(..) => panic!("the query is stopped"),
            Phase::None => panic!("the query did not start"),
        }
    }

    pub fn query_mut(&mut self) -> &mut StreamingQuery {
        match &mut self.phase {
            Phase::Live(q) | Phase::Dead(q) => q,
            Phase::Stopped(..) => panic!("the query is stopped"),
            Phase::None => panic!("the query did not start"),
        }
    }

    /// True while a query runs (it may have failed in its last batch).
    pub fn is_live(&self) -> bool {
        matches!(self.phase, Phase::Live(_))
    }

    /// Every batch that ran, in every run, in order.
    pub fn batches(&self) -> &[BatchResult] {
        &self.batches
    }

    /// The batches the last action that ran batches ran.
    pub fn last_run(&self) -> &[BatchResult] {
        &self.batches[self.last_run..]
    }

    /// The last batch that ran.
    pub fn last_batch(&self) -> &BatchResult {
        self.batches.last().expect("no batch has run")
    }

    /// The sink, in any phase.
    pub fn sink(&self) -> &dyn Sink {
        match &self.phase {
            Phase::Live(q) | Phase::Dead(q) => q.sink.as_ref(),
            Phase::Stopped(_, _, s) => s.as_ref(),
            Phase::None => panic!("the query did not start"),
        }
    }

    /// The (batch id, row) a reader of the sink sees, sorted.
    pub fn visible(&self) -> Vec<(u64, Row)> {
        sorted(&self.sink().visible_rows().into_iter().map(|w| (w.batch_id, w.row.clone())).collect::<Vec<_>>())
    }

    /// The checkpoint, in any phase.
    pub fn checkpoint(&self) -> &Checkpoint {
        match &self.phase {
            Phase::Live(q) | Phase::Dead(q) => &q.checkpoint,
            Phase::Stopped(c, _, _) => c,
            Phase::None => panic!("the query did not start"),
        }
    }

    /// The batch ids of the commit log.
    pub fn commits(&self) -> Vec<u64> {
        self.checkpoint().commits.iter().map(|c| c.batch_id).collect()
    }

    /// The error that terminated the query, if any.
    pub fn exception(&self) -> Option<&Error> {
        match &self.phase {
            Phase::Live(q) | Phase::Dead(q) => q.exception(),
            _ => None,
        }
    }

    /// (query id, run id) of every run.
    pub fn runs(&self) -> &[(String, String)] {
        &self.runs
    }

    /// The query (if one was started and not stopped) and every batch that ran.
    pub fn into_parts(self) -> (Option<StreamingQuery>, Vec<BatchResult>) {
        let q = match self.phase {
            Phase::Live(q) | Phase::Dead(q) => Some(q),
            _ => None,
        };
        (q, self.batches)
    }

    fn unexpected_failure(&mut self) -> Option<String> {
        if self.failure_seen {
            return None;
        }
        let e = self.exception()?.to_string();
        // Dead from now on; `ExpectFailure` (the next action) reads the error.
        self.failure_seen = true;
        if let Phase::Live(_) = self.phase {
            let Phase::Live(q) = std::mem::replace(&mut self.phase, Phase::None) else { unreachable!() };
            self.phase = Phase::Dead(q);
        }
        Some(e)
    }

    // -- driving ------------------------------------------------------------------------

    fn live(&mut self) -> Result<&mut StreamingQuery, String> {
        match &mut self.phase {
            Phase::Live(q) => Ok(q),
            Phase::Dead(_) => Err("the query is dead (failed or crashed); StartStream restarts it".into()),
            Phase::Stopped(..) => Err("the query is stopped; StartStream restarts it".into()),
            Phase::None => Err("the query did not start".into()),
        }
    }

    fn record(&mut self, ran: Vec<BatchResult>) -> &[BatchResult] {
        self.last_run = self.batches.len();
        self.batches.extend(ran);
        &self.batches[self.last_run..]
    }

    /// Adds rows to source `src` as one block, in any phase.
    ///
    /// # Errors
    /// A row that does not fit the source's schema.
    pub fn add_data(&mut self, src: &str, rows: &[Row]) -> Result<(), Error> {
        match &mut self.phase {
            Phase::Live(q) | Phase::Dead(q) => q.add_data(src, rows),
            Phase::Stopped(_, sources, _) => {
                let m = sources.iter_mut().find(|m| m.name() == src).unwrap_or_else(|| panic!("no source {src}"));
                m.add_rows(rows).map(|_| ()).map_err(|e| Error::Scenario(format!("rows of {src}: {e}")))
            }
            Phase::None => panic!("the query did not start"),
        }
    }

    /// `processAllAvailable` on the live query: the batches it ran.
    pub fn process_all_available(&mut self) -> &[BatchResult] {
        let ran = self.live().map(|q| q.process_all_available()).unwrap_or_else(|e| panic!("{e}"));
        self.record(ran)
    }

    /// One trigger on the live query (`run_next_batch`).
    pub fn run_batch(&mut self) -> Option<&BatchResult> {
        let ran = self.live().map(|q| q.run_next_batch()).unwrap_or_else(|e| panic!("{e}"));
        self.record(ran.into_iter().collect()).last()
    }

    /// One trigger on the live query that dies at `point` if it runs a batch
    /// (`run_next_batch_crashing`); the query is left as the crash left it.
    pub fn run_batch_crashing(&mut self, point: CrashPoint) -> Option<&BatchResult> {
        let ran = self.live().map(|q| q.run_next_batch_crashing(Some(point))).unwrap_or_else(|e| panic!("{e}"));
        self.record(ran.into_iter().collect()).last()
    }

    /// One firing of the query's trigger.
    pub fn fire(&mut self) -> &[BatchResult] {
        let ran = self.live().map(|q| q.fire()).unwrap_or_else(|e| panic!("{e}"));
        self.record(ran)
    }

    /// Sets the clock the next trigger reads, ms since the epoch; kept across restarts.
    pub fn set_clock(&mut self, ms: i64) {
        self.clock_ms = Some(ms);
        if let Phase::Live(q) | Phase::Dead(q) = &mut self.phase {
            q.set_clock_ms(ms);
        }
    }

    /// Stops a live or dead query.
    pub fn stop(&mut self) {
        self.phase = match std::mem::replace(&mut self.phase, Phase::None) {
            Phase::Live(q) | Phase::Dead(q) => {
                let (c, sources, sink) = q.stop();
                Phase::Stopped(c, sources, sink)
            }
            other => {
                self.phase = other;
                panic!("StopStream needs a live or dead query")
            }
        };
    }

    /// A new run of a stopped or dead query on its checkpoint, sources and sink (or, with
    /// [`Start::new_checkpoint`], an empty checkpoint and a fresh sink). A refused start
    /// leaves the query stopped.
    ///
    /// # Errors
    /// The restart's error.
    pub fn start_again(&mut self, start: Start) -> Result<(), Error> {
        if matches!(self.phase, Phase::Dead(_)) {
            self.stop();
        }
        let Phase::Stopped(c, sources, sink) = &self.phase else { panic!("StartStream needs a stopped or dead query") };
        if let Some(q) = start.query {
            self.setup.query = q;
        }
        if let Some(m) = start.mode {
            self.setup.mode = m;
        }
        if let Some(conf) = start.conf {
            self.setup.conf = conf;
        }
        let (c, sink) = match start.new_checkpoint {
            Some(kind) => (Checkpoint::default(), kind.create()),
            None => (c.clone(), sink.clone()),
        };
        let t = &self.setup;
        let mut q = StreamingQuery::restart(&t.query, &t.catalog, t.mode, t.conf.clone(), c, sources.clone(), sink)?;
        q.set_explaining(t.explaining);
        if let Some(ms) = self.clock_ms {
            q.set_clock_ms(ms);
        }
        self.runs.push((q.id.clone(), q.run_id.clone()));
        self.failure_seen = false;
        self.phase = Phase::Live(q);
        Ok(())
    }

    fn unread_input(&self, what: &str) -> Result<(), String> {
        if let Phase::Live(q) = &self.phase {
            if q.has_new_data() {
                return Err(format!("{what}: the query has input no batch has read; run it first (ProcessAllAvailable, RunBatch, Fire)"));
            }
        }
        Ok(())
    }

    fn act(&mut self, action: Action<'_>) -> Result<(), String> {
        match action {
            AddData(src, rows) => self.add_data(src, &rows).map_err(|e| format!("rows do not fit: {e}")),
            ProcessAllAvailable => {
                self.live()?;
                self.process_all_available();
                Ok(())
            }
            RunBatch(expect) => {
                self.live()?;
                let got = self.run_batch().map(|b| (b.batch_id, b.input_rows));
                same(&got, &expect, "(batch id, input rows) of the trigger")
            }
            Fire(expect) => {
                self.live()?;
                let got: Vec<(u64, u64)> = self.fire().iter().map(|b| (b.batch_id, b.input_rows)).collect();
                same(&got, &expect, "(batch id, input rows) of the batches the trigger ran")
            }
            CrashNext(point) => self.crash_next(point),
            StopStream => {
                if !matches!(self.phase, Phase::Live(_) | Phase::Dead(_)) {
                    return Err("StopStream needs a live or dead query".into());
                }
                self.stop();
                Ok(())
            }
            StartStream(start) => {
                if !matches!(self.phase, Phase::Stopped(..) | Phase::Dead(_)) {
                    return Err("StartStream needs a stopped or dead query".into());
                }
                let kind = self.sink().kind();
                let fresh = start.new_checkpoint;
                if let Err(e) = self.start_again(start) {
                    self.start_error = Some(e);
                    return Ok(());
                }
                match fresh {
                    Some(k) => same(&self.sink().kind(), &k, "the new sink"),
                    None => same(&self.sink().kind(), &kind, "the sink survives the restart"),
                }
            }
            AdvanceClock(ms) => {
                let now = self.clock_ms.unwrap_or_else(|| self.query().clock_ms());
                self.set_clock(now + ms);
                Ok(())
            }
            SetClock(ms) => {
                self.set_clock(ms);
                Ok(())
            }
            CheckNewAnswer(rows) => {
                self.unread_input("CheckNewAnswer")?;
                let got: Vec<Row> = self.batches[self.answered..].iter().flat_map(|b| b.rows.iter().cloned()).collect();
                self.answered = self.batches.len();
                same_rows(&got, &rows, "new rows since the last CheckNewAnswer")
            }
            CheckLastBatch(rows) => {
                self.unread_input("CheckLastBatch")?;
                let b = self.batches.last().ok_or("no batch has run")?;
                same_rows(&b.rows, &rows, &format!("rows of the last batch ({})", b.batch_id))
            }
            CheckLastBatchInOrder(rows) => {
                self.unread_input("CheckLastBatchInOrder")?;
                let b = self.batches.last().ok_or("no batch has run")?;
                if b.rows == rows {
                    Ok(())
                } else {
                    Err(format!("rows of the last batch ({}), in order\n  expected: {}\n  actual:   {}", b.batch_id, show_rows(&rows), show_rows(&b.rows)))
                }
            }
            CheckAnswer(rows) => {
                let got: Vec<Row> = self.sink().visible_rows().into_iter().map(|w| w.row.clone()).collect();
                same_rows(&got, &rows, "rows a reader of the sink sees")
            }
            CheckAnswerByBatch(rows) => {
                let got = self.visible();
                same(&got, &sorted(&rows), "(batch id, row) a reader of the sink sees")
            }
            CheckDuplicates(n) => same(&self.sink().duplicates(), &n, "rows a reader sees twice"),
            CheckCommits(ids) => same(&self.commits(), &ids, "commit log batch ids"),
            CheckRuns(n) => self.check_runs(n),
            CheckWatermark(ms) => same(&self.query().current_watermark_ms(), &ms, "the watermark (ms)"),
            CheckState(m) => {
                let b = self.batches.last().ok_or("no batch has run")?;
                let s = b.state.get(m.op).ok_or_else(|| format!("batch {} has {} stateful operators", b.batch_id, b.state.len()))?;
                let got = StateMetrics {
                    op: m.op,
                    total: m.total.map(|_| s.num_rows_total),
                    updated: m.updated.map(|_| s.num_rows_updated),
                    removed: m.removed.map(|_| s.num_rows_removed),
                    dropped_by_watermark: m.dropped_by_watermark.map(|_| s.num_rows_dropped_by_watermark),
                };
                same(&format!("{got:?}"), &format!("{m:?}"), &format!("state metrics of operator {} in batch {}", m.op, b.batch_id))
            }
            ExpectFailure(fail) => self.expect_failure(fail),
            AssertOnQuery(f, _) => {
                f(self);
                Ok(())
            }
        }
    }

    fn crash_next(&mut self, point: CrashPoint) -> Result<(), String> {
        let q = self.live()?;
        let before = q.sink.clone();
        if q.run_next_batch_crashing(Some(point)).is_some() {
            return Err("a crashing batch returned a result".into());
        }
        match q.exception() {
            Some(Error::Execution(e)) if format!("{e:?}").contains(point.id()) => {}
            other => return Err(format!("expected a crash at {}, got {other:?}", point.id())),
        }
        // Dead: a further trigger does nothing, the sink is unchanged by it.
        let after_crash = q.sink.clone();
        if q.run_next_batch().is_some() {
            return Err("a dead query ran a batch".into());
        }
        if q.sink.log() != after_crash.log() {
            return Err("a dead query wrote to the sink".into());
        }
        if point == CrashPoint::AfterOffsetLog && q.sink.log() != before.log() {
            return Err("something reached the sink before the batch ran".into());
        }
        self.failure_seen = true;
        let Phase::Live(q) = std::mem::replace(&mut self.phase, Phase::None) else { unreachable!() };
        self.phase = Phase::Dead(q);
        Ok(())
    }

    fn check_runs(&self, n: usize) -> Result<(), String> {
        let ids = &self.runs;
        same(&ids.len(), &n, "runs")?;
        if !ids.iter().all(|(id, _)| *id == ids[0].0) {
            return Err(format!("the query id changed: {ids:?}"));
        }
        let mut runs: Vec<&String> = ids.iter().map(|(_, r)| r).collect();
        runs.sort();
        runs.dedup();
        same(&runs.len(), &n, &format!("distinct run ids (a new one per run): {ids:?}"))?;
        same(&self.checkpoint().query_id.as_ref(), &Some(&ids[0].0), "the checkpoint's query id")
    }

    fn expect_failure(&mut self, fail: Fail<'_>) -> Result<(), String> {
        if let Some(e) = self.start_error.take() {
            return fail.verify(&e);
        }
        if let Phase::Live(q) = &mut self.phase {
            if q.exception().is_none() {
                let ran = q.process_all_available();
                self.record(ran);
            }
        }
        self.failure_seen = true;
        let e = match &self.phase {
            Phase::Live(q) | Phase::Dead(q) => q.exception().cloned(),
            _ => None,
        };
        let Some(e) = e else { return Err(format!("expected a failure ({}), but the query has not failed", fail.describe())) };
        if let Phase::Live(_) = self.phase {
            let Phase::Live(q) = std::mem::replace(&mut self.phase, Phase::None) else { unreachable!() };
            self.phase = Phase::Dead(q);
        }
        fail.verify(&e)
    }

    // -- reporting ----------------------------------------------------------------------

    /// Panics with what failed at action `at`, the script with `at` marked, the stream's
    /// state and the batches (Spark's `failTest`).
    fn fail(&self, at: usize, actions: &[String], why: &str) -> ! {
        let name = actions.get(at).map_or("the end of the script", |a| a.split('(').next().unwrap_or(a));
        let mut out = format!("action {at} ({name}) failed: {why}\n\n== Progress ==\n");
        for (i, a) in actions.iter().enumerate() {
            out.push_str(if i == at { "=> " } else { "   " });
            out.push_str(&shorten(a, 300));
            out.push('\n');
        }
        out.push_str("\n== Stream ==\n");
        out.push_str(&format!("query: {}\nmode: {:?}\n", self.setup.query, self.setup.mode));
        let phase = match &self.phase {
            Phase::Live(_) => "live",
            Phase::Dead(_) => "dead",
            Phase::Stopped(..) => "stopped",
            Phase::None => "not started",
        };
        out.push_str(&format!("state: {phase}, {} run(s)\n", self.runs.len()));
        if let Phase::Live(q) | Phase::Dead(q) = &self.phase {
            out.push_str(&format!("watermark: {} ms, clock: {} ms, sink: {:?}\n", q.current_watermark_ms(), q.clock_ms(), q.sink.kind()));
            if let Some(e) = q.exception() {
                out.push_str(&format!("exception: {e}\n"));
            }
        }
        if let Some(e) = &self.start_error {
            out.push_str(&format!("start error: {e}\n"));
        }
        out.push_str("\n== Batches ==\n");
        for b in &self.batches {
            out.push_str(&format!(
                "batch {}: {} input rows{}, watermark {:?}, output {}\n",
                b.batch_id,
                b.input_rows,
                if b.no_data { " (no data)" } else { "" },
                b.watermark_ms,
                shorten(&show_rows(&b.rows), 300)
            ));
        }
        panic!("{out}")
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

fn same<T: PartialEq + std::fmt::Debug>(got: &T, want: &T, what: &str) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}\n  expected: {want:?}\n  actual:   {got:?}"))
    }
}

fn same_rows(got: &[Row], want: &[Row], what: &str) -> Result<(), String> {
    let (g, w) = (sorted(got), sorted(want));
    if g == w {
        return Ok(());
    }
    let missing: Vec<Row> = multiset_minus(&w, &g);
    let extra: Vec<Row> = multiset_minus(&g, &w);
    Err(format!(
        "{what} (as a multiset)\n  expected: {}\n  actual:   {}\n  missing:  {}\n  extra:    {}",
        show_rows(&w),
        show_rows(&g),
        show_rows(&missing),
        show_rows(&extra)
    ))
}

/// `all` without one copy of each element of `sub` that it holds.
pub fn multiset_minus<T: PartialEq + Clone>(all: &[T], sub: &[T]) -> Vec<T> {
    let mut rest = all.to_vec();
    for x in sub {
        if let Some(i) = rest.iter().position(|y| y == x) {
            rest.remove(i);
        }
    }
    rest
}
