//! Sinks and their delivery guarantees: the [`Sink`] trait
//! `MicroBatchExecution` writes through (Spark's `Sink.addBatch(batchId, data)`), one type per
//! sink, and [`SinkKind`], the registry that names them and builds them. What each one does
//! when Spark hands it batch N, and again when a batch re-runs after a crash:
//!
//! - `memory.rs`, [`MemorySink`]: skips a batch id it has already seen — exactly-once.
//! - `console.rs`, [`ConsoleSink`]: prints every call — a re-run batch prints again
//!   (at-least-once).
//! - `file.rs`, [`FileStreamSink`] (+ `ManifestFileCommitProtocol`): writes part files, then
//!   adds entry N to `_spark_metadata`; a batch id already in the log is skipped and readers
//!   only see files the log lists — exactly-once.
//! - `kafka.rs`, [`KafkaSink`]: appends every record it is given — at-least-once: a re-run
//!   batch appends again.
//! - `foreach_batch.rs`, [`ForeachBatchSink`]: calls the user function with (DataFrame, batch
//!   id); a naive writer appends every call (at-least-once), an idempotent one skips a batch
//!   id it has seen (exactly-once).
//! - `foreach.rs`, [`ForeachSink`]: open/process/close per partition and epoch —
//!   at-least-once.
//!
//! Every sink also answers the start checks ([`crate::analysis::SinkCapabilities`]).
//!
//! Adding a sink: one file here with a type implementing [`Sink`] and `SinkCapabilities`,
//! one variant of [`SinkKind`] and its lines in the registry (`SinkKind::ALL`,
//! `SinkKind::id`, `SinkKind::create`).

mod console;
mod file;
mod foreach;
mod foreach_batch;
mod kafka;
mod memory;

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::SinkCapabilities;
use crate::plan::OutputMode;
use crate::types::Row;

pub use console::ConsoleSink;
pub use file::FileStreamSink;
pub use foreach::ForeachSink;
pub use foreach_batch::{BatchWriter, ForeachBatchSink};
pub use kafka::KafkaSink;
pub use memory::MemorySink;

/// Which sink a query writes to: the registry of sinks (ids, the lab's list, the one
/// constructor). Every other fact about a kind comes from its [`Sink`] type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SinkKind {
    /// `format("memory")` ([`MemorySink`]): a batch id already seen is skipped; exactly-once.
    Memory,
    /// `format("console")` ([`ConsoleSink`]): prints every call; at-least-once.
    Console,
    /// A file format such as `format("parquet")` ([`FileStreamSink`]): `_spark_metadata`
    /// lists the committed batches; exactly-once, append mode only.
    File,
    /// `format("kafka")` ([`KafkaSink`]): appends every record to the topic; at-least-once.
    Kafka,
    /// `foreachBatch(f)` whose `f` appends every call's rows ([`BatchWriter::Naive`]);
    /// at-least-once.
    ForeachBatchNaive,
    /// `foreachBatch(f)` whose `f` writes under the batch id, skipping a finished one
    /// ([`BatchWriter::Idempotent`]); exactly-once.
    ForeachBatchIdempotent,
    /// `foreach(writer)`: open/process/close per partition and epoch; at-least-once.
    Foreach,
}

impl SinkKind {
    /// Every kind, in the order the lab lists them.
    pub const ALL: [SinkKind; 7] = [
        SinkKind::Memory,
        SinkKind::Console,
        SinkKind::File,
        SinkKind::Kafka,
        SinkKind::ForeachBatchNaive,
        SinkKind::ForeachBatchIdempotent,
        SinkKind::Foreach,
    ];

    /// A short id (`memory`, `console`, `file`, `kafka`, `foreachBatch-naive`, ...).
    pub fn id(self) -> &'static str {
        match self {
            SinkKind::Memory => "memory",
            SinkKind::Console => "console",
            SinkKind::File => "file",
            SinkKind::Kafka => "kafka",
            SinkKind::ForeachBatchNaive => "foreachBatch-naive",
            SinkKind::ForeachBatchIdempotent => "foreachBatch-idempotent",
            SinkKind::Foreach => "foreach",
        }
    }

    /// Parses [`SinkKind::id`].
    pub fn parse(s: &str) -> Option<SinkKind> {
        SinkKind::ALL.into_iter().find(|k| k.id() == s)
    }

    /// A new sink of this kind with the writer's options (`.option(key, value)`, values as
    /// text) it reads: the console sink's `numRows` and `truncate` (`ConsoleSinkProvider`);
    /// the others take none of them here.
    pub fn create_with(self, options: &[(String, String)]) -> Box<dyn Sink> {
        match self {
            SinkKind::Console => Box::new(ConsoleSink::with_options(options)),
            other => other.create(),
        }
    }

    /// A new, empty sink of this kind.
    ///
    /// # Examples
    /// ```
    /// use streamlab_engine::streaming::{Sink, SinkKind};
    /// let mut sink = SinkKind::File.create();
    /// sink.add_batch(0, &[vec![streamlab_engine::types::Value::Long(1)]], false, None);
    /// assert_eq!((sink.kind(), sink.visible_rows().len()), (SinkKind::File, 1));
    /// ```
    pub fn create(self) -> Box<dyn Sink> {
        match self {
            SinkKind::Memory => Box::new(MemorySink::default()),
            SinkKind::Console => Box::new(ConsoleSink::default()),
            SinkKind::File => Box::new(FileStreamSink::default()),
            SinkKind::Kafka => Box::new(KafkaSink::default()),
            SinkKind::ForeachBatchNaive => Box::new(ForeachBatchSink::new(BatchWriter::Naive)),
            SinkKind::ForeachBatchIdempotent => Box::new(ForeachBatchSink::new(BatchWriter::Idempotent)),
            SinkKind::Foreach => Box::new(ForeachSink::default()),
        }
    }

    /// The kind `.writeStream.format(name)` writes to (case-insensitive): the kind whose
    /// [`Sink::formats`] lists it.
    pub fn from_format(name: &str) -> Option<SinkKind> {
        let name = name.to_ascii_lowercase();
        SinkKind::ALL.into_iter().find(|k| k.create().formats().contains(&name.as_str()))
    }

    /// The sink's [`Sink::guarantee`].
    pub fn guarantee(self) -> DeliveryGuarantee {
        self.create().guarantee()
    }

    /// True where a re-run batch cannot show up twice in the sink's output.
    pub fn exactly_once(self) -> bool {
        self.guarantee() == DeliveryGuarantee::ExactlyOnce
    }

    /// Whether a query writing to this sink may resume from a used checkpoint
    /// ([`Sink::recovers_from_checkpoint`]).
    pub fn recovers_from_checkpoint(self, mode: OutputMode) -> bool {
        self.create().recovers_from_checkpoint(mode)
    }
}

/// What a reader of a sink sees when a batch runs again after a crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeliveryGuarantee {
    /// Idempotent per batch id: a re-run batch id is skipped or replaces its earlier, partial
    /// write, so every row shows up once.
    ExactlyOnce,
    /// Every call writes: rows a crashed attempt wrote show up again when the batch re-runs.
    AtLeastOnce,
}

/// A sink with what it has received so far. Lives outside the query, like the external
/// system it stands for, so it survives restarts (`StreamingQuery::stop` hands it back).
pub trait Sink: SinkCapabilities + std::fmt::Debug {
    /// Its id in the registry.
    fn kind(&self) -> SinkKind;

    /// What a reader sees when a batch re-runs.
    fn guarantee(&self) -> DeliveryGuarantee;

    /// The names `.writeStream.format(...)` accepts for it (none for `foreachBatch` and
    /// `foreach`, which are methods of their own).
    fn formats(&self) -> &'static [&'static str] {
        &[]
    }

    /// `sink.description` in `StreamingQueryProgress` (Spark's `toString` of the sink or
    /// table: `MemorySink`, `ForeachBatchSink`, ...).
    fn progress_description(&self) -> &'static str;

    /// False for Spark's V1 sinks (file, foreachBatch), whose progress reports
    /// `numOutputRows` as -1.
    fn reports_output_rows(&self) -> bool {
        true
    }

    /// Whether a query writing to this sink may resume from a used checkpoint
    /// (`DataStreamWriter`'s `recoverFromCheckpointLocation`: the memory sink only in complete
    /// mode, every other sink always).
    fn recovers_from_checkpoint(&self, mode: OutputMode) -> bool {
        let _ = mode;
        true
    }

    /// Hands batch `batch_id` to the sink (`addBatch`). `complete_mode` replaces what the
    /// sink holds where the sink does so (memory). With `crash_after = Some(n)` the process
    /// dies after the sink wrote `n` rows (the rest, and any commit step, never happen).
    fn add_batch(&mut self, batch_id: u64, rows: &[Row], complete_mode: bool, crash_after: Option<usize>);

    /// What the sink has received.
    fn log(&self) -> &SinkLog;

    /// What the sink printed or called, as text, for sinks that print (console, foreach,
    /// foreachBatch); `None` for the others. `columns` are the output's column names.
    fn log_text(&self, columns: &[String]) -> Option<String> {
        let _ = columns;
        None
    }

    /// A boxed copy (the lab clones sessions, e.g. to predict a batch ahead).
    fn clone_box(&self) -> Box<dyn Sink>;

    /// Everything written, in order.
    fn written(&self) -> &[Written] {
        &self.log().written
    }

    /// `_spark_metadata` (file sink) or the seen batch ids (memory, idempotent foreachBatch).
    fn committed_batches(&self) -> &[u64] {
        self.log().committed_batches()
    }

    /// True where a re-run batch cannot show up twice in the sink's output.
    fn exactly_once(&self) -> bool {
        self.guarantee() == DeliveryGuarantee::ExactlyOnce
    }

    /// What a reader of the sink sees: every visible row, with duplicates.
    fn visible_rows(&self) -> Vec<&Written> {
        self.written().iter().filter(|w| w.visible).collect()
    }

    /// Rows a reader sees more than once (same batch, same row, a later attempt).
    fn duplicates(&self) -> usize {
        self.duplicate_flags().into_iter().filter(|d| *d).count()
    }

    /// For each entry of [`Sink::written`]: true if a reader sees it a second time (it is
    /// visible, and an earlier attempt of the same batch wrote the same row visibly).
    /// One pass over the rows with the first visible attempt of each (batch id, row), so a
    /// sink of 10,000 rows costs 10,000 look-ups, not 10,000².
    fn duplicate_flags(&self) -> Vec<bool> {
        let written = self.written();
        // Only a later attempt of a batch can repeat a row.
        if written.iter().all(|w| w.attempt == 0) {
            return vec![false; written.len()];
        }
        let mut first: BTreeMap<(u64, &Row), u32> = BTreeMap::new();
        for p in written.iter().filter(|w| w.visible) {
            first.entry((p.batch_id, &p.row)).and_modify(|a| *a = (*a).min(p.attempt)).or_insert(p.attempt);
        }
        written.iter().map(|w| w.visible && first.get(&(w.batch_id, &w.row)).is_some_and(|&a| a < w.attempt)).collect()
    }
}

impl Clone for Box<dyn Sink> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// One unit the sink wrote: a record, a printed row, a part file's row, ...
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The micro-batch that wrote it.
    pub batch_id: u64,
    /// Which call of `add_batch` for this batch id (0 the first time, 1 on a re-run, ...).
    pub attempt: u32,
    /// The output row written.
    pub row: Row,
    /// For the file sink: whether `_spark_metadata` lists this row's file (readers see it).
    pub visible: bool,
}

/// What a sink has received: the bookkeeping every sink type shares.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SinkLog {
    /// Everything written, in order.
    pub written: Vec<Written>,
    /// `_spark_metadata` (file sink) or the seen batch ids (memory, idempotent foreachBatch),
    /// in the order they finished.
    committed_batches: Vec<u64>,
    /// The same ids as a set, so a batch's check costs O(log n) in the batches run, not O(n).
    committed: BTreeSet<u64>,
    /// Calls of `add_batch` so far, per batch id.
    attempts: BTreeMap<u64, u32>,
    /// Every call of `add_batch`, in order, an empty batch's included.
    started: Vec<SinkCall>,
}

/// One call of a sink's `add_batch`: Spark calls it for every micro-batch that runs, a batch
/// with no rows (a no-data batch that only moves the watermark) included
/// (`MicroBatchExecution.runBatch`; the conformance corpus is recorded through `foreachBatch`
/// and holds such calls as batches with no rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinkCall {
    /// The micro-batch.
    pub batch_id: u64,
    /// Which call for this batch id (0 the first time, 1 on a re-run, ...).
    pub attempt: u32,
    /// The rows the batch's DataFrame held (all of them, even when the call crashed mid-write).
    pub offered: usize,
}

impl SinkLog {
    /// Counts a call of `add_batch` for `batch_id` with `offered` rows and returns its attempt
    /// number (0 first).
    pub fn begin(&mut self, batch_id: u64, offered: usize) -> u32 {
        let a = self.attempts.entry(batch_id).or_insert(0);
        let cur = *a;
        *a += 1;
        self.started.push(SinkCall { batch_id, attempt: cur, offered });
        cur
    }

    /// Appends `rows` as written by attempt `attempt` of `batch_id`.
    pub fn append(&mut self, batch_id: u64, attempt: u32, rows: &[Row], visible: bool) {
        self.written.extend(rows.iter().map(|r| Written { batch_id, attempt, row: r.clone(), visible }));
    }

    /// True if `batch_id` finished before (an idempotent sink skips it).
    pub fn is_committed(&self, batch_id: u64) -> bool {
        self.committed.contains(&batch_id)
    }

    /// Records that `batch_id` finished (a file sink's `_spark_metadata` entry).
    pub fn mark_committed(&mut self, batch_id: u64) {
        self.committed_batches.push(batch_id);
        self.committed.insert(batch_id);
    }

    /// The finished batch ids, in the order they finished.
    pub fn committed_batches(&self) -> &[u64] {
        &self.committed_batches
    }

    /// Every call of `add_batch` in order, with the rows it wrote (none for an empty batch, or
    /// for a call that skipped a batch id it had finished).
    pub fn calls(&self) -> Vec<(SinkCall, Vec<&Row>)> {
        let mut rows: BTreeMap<(u64, u32), Vec<&Row>> = BTreeMap::new();
        for w in &self.written {
            rows.entry((w.batch_id, w.attempt)).or_default().push(&w.row);
        }
        self.started.iter().map(|c| (*c, rows.remove(&(c.batch_id, c.attempt)).unwrap_or_default())).collect()
    }
}

/// The rows a call writes: all of them, or the first `crash_after` when the process dies
/// mid-write.
fn rows_before_crash(rows: &[Row], crash_after: Option<usize>) -> &[Row] {
    &rows[..crash_after.unwrap_or(rows.len()).min(rows.len())]
}

/// Where a simulated crash happens inside a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CrashPoint {
    /// After the offset log entry, before anything ran.
    AfterOffsetLog,
    /// In the middle of the sink write (half the rows written).
    MidSink,
    /// After the sink took the whole batch, before the commit log entry.
    BeforeCommit,
}

impl CrashPoint {
    /// All points, in batch order.
    pub const ALL: [CrashPoint; 3] = [CrashPoint::AfterOffsetLog, CrashPoint::MidSink, CrashPoint::BeforeCommit];

    /// A short id.
    pub fn id(self) -> &'static str {
        match self {
            CrashPoint::AfterOffsetLog => "after-offset-log",
            CrashPoint::MidSink => "mid-sink",
            CrashPoint::BeforeCommit => "before-commit",
        }
    }

    /// Where it is, in words (the crash error says it, so a learner reads where the batch
    /// stopped, not the id).
    pub fn describe(self) -> &'static str {
        match self {
            CrashPoint::AfterOffsetLog => "after the offset log, before running",
            CrashPoint::MidSink => "in the middle of the sink write",
            CrashPoint::BeforeCommit => "after the sink, before the commit log",
        }
    }

    /// Parses [`CrashPoint::id`].
    pub fn parse(s: &str) -> Option<CrashPoint> {
        CrashPoint::ALL.into_iter().find(|c| c.id() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Value;

    fn rows(n: i64) -> Vec<Row> {
        (0..n).map(|i| vec![Value::Long(i)]).collect()
    }

    #[test]
    fn a_rerun_duplicates_only_in_at_least_once_sinks() {
        for kind in SinkKind::ALL {
            let mut s = kind.create();
            assert_eq!(s.kind(), kind);
            // Batch 0 crashes after 1 of 2 rows, then re-runs in full.
            s.add_batch(0, &rows(2), false, Some(1));
            s.add_batch(0, &rows(2), false, None);
            let visible = s.visible_rows().len();
            if kind.exactly_once() {
                // Memory writes atomically, the file sink hides the orphan part file, the
                // idempotent writer overwrites batch 0: readers see rows 0 and 1 once.
                assert_eq!((visible, s.duplicates()), (2, 0), "{kind:?}");
            } else {
                // 1 row from the crashed attempt + 2 from the re-run: row 0 twice.
                assert_eq!((visible, s.duplicates()), (3, 1), "{kind:?}");
            }
        }
    }

    #[test]
    fn console_prints_batches_in_show_layout() {
        let mut s = SinkKind::Console.create();
        s.add_batch(3, &rows(2), false, None);
        let text = s.log_text(&["n".to_string()]).unwrap();
        assert_eq!(text, "-------------------------------------------\nBatch: 3\n-------------------------------------------\n+---+\n|  n|\n+---+\n|  0|\n|  1|\n+---+\n\n");
        // A window and a count: the window's bounds as Spark casts timestamps to text, the cell
        // cut to 17 characters and "..." (show()'s truncate=True), as Spark's console sink
        // prints `|{2026-03-02 08:55...|    2|`.
        let mut s = SinkKind::Console.create();
        let start = crate::types::parse_timestamp_us("2026-03-02T08:55:00Z").unwrap();
        let window = Value::Struct(std::rc::Rc::from(vec![Value::Timestamp(start), Value::Timestamp(start + 600_000_000)]));
        s.add_batch(0, &[vec![window, Value::Long(2)]], false, None);
        let text = s.log_text(&["window".to_string(), "count".to_string()]).unwrap();
        assert!(text.contains("|{2026-03-02 08:55...|    2|"), "{text}");
        let mut f = SinkKind::Foreach.create();
        f.add_batch(7, &rows(1), false, None);
        assert_eq!(f.log_text(&["n".to_string()]).unwrap(), "open(partitionId=0, epochId=7) -> true\nprocess(0)\nclose(None)\n");
    }

    /// The console sink's `numRows` and `truncate` options: what Spark 4.3's console sink
    /// printed for the same two rows (`value`, `timestamp`) with `numRows=1`, and with
    /// `truncate=false` (cells left-aligned, nothing cut).
    #[test]
    fn console_options_print_as_sparks_console_sink() {
        let at = |t: &str| Value::Timestamp(crate::types::parse_timestamp_us(t).unwrap());
        let rows = [vec![Value::str("cat dog"), at("2026-03-02T12:02:00Z")], vec![Value::str("dog owl"), at("2026-03-02T12:07:00Z")]];
        let columns = ["value".to_string(), "timestamp".to_string()];
        let print = |options: &[(&str, &str)]| {
            let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let mut s = SinkKind::Console.create_with(&options);
            s.add_batch(0, &rows, false, None);
            s.log_text(&columns).unwrap()
        };
        let head = "-------------------------------------------\nBatch: 0\n-------------------------------------------\n";
        assert_eq!(
            print(&[("numRows", "1")]),
            format!("{head}+-------+-------------------+\n|  value|          timestamp|\n+-------+-------------------+\n|cat dog|2026-03-02 12:02:00|\n+-------+-------------------+\nonly showing top 1 row\n")
        );
        assert_eq!(
            print(&[("truncate", "false")]),
            format!("{head}+-------+-------------------+\n|value  |timestamp          |\n+-------+-------------------+\n|cat dog|2026-03-02 12:02:00|\n|dog owl|2026-03-02 12:07:00|\n+-------+-------------------+\n\n")
        );
        // A window with truncate=false is printed whole: `{2026-03-02 11:55:00, 2026-03-02 12:05:00}`.
        let start = crate::types::parse_timestamp_us("2026-03-02T11:55:00Z").unwrap();
        let window = Value::Struct(std::rc::Rc::from(vec![Value::Timestamp(start), Value::Timestamp(start + 600_000_000)]));
        let mut s = SinkKind::Console.create_with(&[("truncate".to_string(), "false".to_string())]);
        s.add_batch(0, &[vec![window, Value::str("cat"), Value::Long(1)]], false, None);
        let text = s.log_text(&["window".to_string(), "word".to_string(), "count".to_string()]).unwrap();
        assert!(text.contains("|{2026-03-02 11:55:00, 2026-03-02 12:05:00}|cat |1    |"), "{text}");
    }

    #[test]
    fn every_call_is_logged_an_empty_batch_and_a_skipped_rerun_included() {
        // Spark calls the sink for every batch that runs; a no-data batch (it only moves the
        // watermark) brings an empty DataFrame, and the conformance corpus, recorded through
        // foreachBatch, holds such batches with no rows.
        let mut console = SinkKind::Console.create();
        console.add_batch(4, &[], false, None);
        assert_eq!(console.log_text(&["n".to_string()]).unwrap(), "-------------------------------------------\nBatch: 4\n-------------------------------------------\n+---+\n|  n|\n+---+\n+---+\n\n");
        // The idempotent writer: batch 0 (2 rows) crashes after 1 row, is re-run and finishes,
        // is re-run again (the function is called and skips it), then an empty batch 1. Four
        // calls, each with the DataFrame it was given.
        let mut f = SinkKind::ForeachBatchIdempotent.create();
        f.add_batch(0, &rows(2), false, Some(1));
        f.add_batch(0, &rows(2), false, None);
        f.add_batch(0, &rows(2), false, None);
        f.add_batch(1, &[], false, None);
        assert_eq!(
            f.log_text(&[]).unwrap(),
            "f(batch_df with 2 rows, batch_id=0)\nf(batch_df with 2 rows, batch_id=0)\nf(batch_df with 2 rows, batch_id=0)\nf(batch_df with 0 rows, batch_id=1)\n"
        );
        // What stayed written is the finished attempt's 2 rows.
        assert_eq!(f.visible_rows().len(), 2);
        let mut w = SinkKind::Foreach.create();
        w.add_batch(2, &[], false, None);
        assert_eq!(w.log_text(&[]).unwrap(), "open(partitionId=0, epochId=2) -> true\nclose(None)\n");
    }

    #[test]
    fn a_batch_that_ran_fully_twice_is_skipped_by_idempotent_sinks() {
        for kind in SinkKind::ALL {
            let mut s = kind.create();
            s.add_batch(5, &rows(3), false, None);
            s.add_batch(5, &rows(3), false, None);
            let expect = if kind.exactly_once() { 3 } else { 6 };
            assert_eq!(s.visible_rows().len(), expect, "{kind:?}");
        }
    }

    #[test]
    fn the_registry_holds_each_kind_once() {
        for kind in SinkKind::ALL {
            assert_eq!(SinkKind::parse(kind.id()), Some(kind));
            assert_eq!(kind.create().kind(), kind);
        }
        let exactly: Vec<&str> = SinkKind::ALL.into_iter().filter(|k| k.exactly_once()).map(SinkKind::id).collect();
        assert_eq!(exactly, ["memory", "file", "foreachBatch-idempotent"]);
        assert_eq!(SinkKind::from_format("Parquet"), Some(SinkKind::File));
        assert_eq!(SinkKind::from_format("foreachBatch"), None);
    }
}
