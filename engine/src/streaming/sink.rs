//! Sinks and their delivery guarantees (spec §10): what each one does when Spark hands it
//! batch N, and again when a batch re-runs after a crash.
//!
//! - `memory` (`MemorySink`): skips a batch id it has already seen — exactly-once.
//! - `console` (`ConsoleSink`): prints every call — a re-run batch prints again.
//! - `file` (`FileStreamSink` + `ManifestFileCommitProtocol`): writes part files, then adds
//!   entry N to `_spark_metadata`; a batch id already in the log is skipped and readers only
//!   see files the log lists — exactly-once.
//! - `kafka` (`KafkaSink`): appends every record it is given — at-least-once: a re-run batch
//!   appends again.
//! - `foreachBatch`: calls the user function with (DataFrame, batch id); a naive writer
//!   appends every call (at-least-once), an idempotent one skips a batch id it has seen.

use std::collections::BTreeMap;

use crate::types::Row;

/// Which sink a query writes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SinkKind {
    Memory,
    Console,
    File,
    Kafka,
    ForeachBatchNaive,
    ForeachBatchIdempotent,
    /// `foreach(writer)`: open/process/close per partition and epoch; at-least-once.
    Foreach,
}

impl SinkKind {
    /// Whether a query writing to this sink may resume from a used checkpoint
    /// (`DataStreamWriter`'s `recoverFromCheckpointLocation`: the memory sink only in complete
    /// mode, every other sink always).
    pub fn recovers_from_checkpoint(self, mode: super::OutputMode) -> bool {
        self != SinkKind::Memory || mode == super::OutputMode::Complete
    }

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

    /// True where a re-run batch cannot show up twice in the sink's output.
    pub fn exactly_once(self) -> bool {
        matches!(self, SinkKind::Memory | SinkKind::File | SinkKind::ForeachBatchIdempotent)
    }
}

impl crate::analysis::SinkCapabilities for SinkKind {
    fn data_source_name(&self) -> &'static str {
        match self {
            SinkKind::Memory => "memory",
            SinkKind::Console => "console",
            SinkKind::File => "parquet",
            SinkKind::Kafka => "kafka",
            SinkKind::ForeachBatchNaive | SinkKind::ForeachBatchIdempotent => "foreachBatch",
            SinkKind::Foreach => "foreach",
        }
    }

    fn requires_query_name(&self) -> bool {
        *self == SinkKind::Memory
    }

    /// The file sink takes append only (spec §10.1).
    fn accepts_output_mode(&self, mode: super::OutputMode) -> bool {
        *self != SinkKind::File || mode == super::OutputMode::Append
    }

    /// Memory, console, foreach, foreachBatch; file and Kafka need a real location.
    fn allows_temporary_checkpoint(&self) -> bool {
        !matches!(self, SinkKind::File | SinkKind::Kafka)
    }

    fn continuous_unsupported(&self) -> Option<&'static str> {
        matches!(self, SinkKind::ForeachBatchNaive | SinkKind::ForeachBatchIdempotent).then_some("'foreachBatch' is not supported with continuous trigger.")
    }
}

/// One unit the sink wrote: a record, a printed row, a part file's row, ...
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    pub batch_id: u64,
    /// Which call of `add_batch` for this batch id (0 the first time, 1 on a re-run, ...).
    pub attempt: u32,
    pub row: Row,
    /// For the file sink: whether `_spark_metadata` lists this row's file (readers see it).
    pub visible: bool,
}

/// A sink with what it has received so far. Lives outside the query, like the external
/// system it stands for, so it survives restarts.
#[derive(Debug, Clone, PartialEq)]
pub struct Sink {
    pub kind: SinkKind,
    /// Everything written, in order.
    pub written: Vec<Written>,
    /// `_spark_metadata` (file sink) or the seen batch ids (memory, idempotent foreachBatch).
    pub committed_batches: Vec<u64>,
    attempts: BTreeMap<u64, u32>,
}

impl Sink {
    /// An empty sink of `kind`.
    pub fn new(kind: SinkKind) -> Sink {
        Sink { kind, written: Vec::new(), committed_batches: Vec::new(), attempts: BTreeMap::new() }
    }

    /// Hands batch `batch_id` to the sink. With `crash_after = Some(n)` the process dies after
    /// the sink wrote `n` rows (the rest, and any commit step, never happen).
    pub fn add_batch(&mut self, batch_id: u64, rows: &[Row], complete_mode: bool, crash_after: Option<usize>) {
        let attempt = {
            let a = self.attempts.entry(batch_id).or_insert(0);
            let cur = *a;
            *a += 1;
            cur
        };
        let n = crash_after.unwrap_or(rows.len()).min(rows.len());
        let crashed = crash_after.is_some();
        let write = |this: &mut Sink, count: usize, visible: bool| {
            this.written.extend(rows[..count].iter().map(|r| Written { batch_id, attempt, row: r.clone(), visible }));
        };
        match self.kind {
            SinkKind::Memory => {
                // Collects the batch, then appends it in one step: a crash leaves nothing.
                if crashed || self.committed_batches.contains(&batch_id) {
                    return;
                }
                if complete_mode {
                    self.written.clear();
                }
                write(self, rows.len(), true);
                self.committed_batches.push(batch_id);
            }
            SinkKind::File => {
                if self.committed_batches.contains(&batch_id) {
                    return;
                }
                // Part files first (invisible), then entry N in `_spark_metadata`.
                write(self, n, false);
                if crashed {
                    return;
                }
                for w in self.written.iter_mut().filter(|w| w.batch_id == batch_id && w.attempt == attempt) {
                    w.visible = true;
                }
                self.committed_batches.push(batch_id);
            }
            SinkKind::ForeachBatchIdempotent => {
                // The writer overwrites what it stored under this batch id, and skips a batch
                // id it already finished.
                if self.committed_batches.contains(&batch_id) {
                    return;
                }
                self.written.retain(|w| w.batch_id != batch_id);
                write(self, n, true);
                if !crashed {
                    self.committed_batches.push(batch_id);
                }
            }
            SinkKind::Console | SinkKind::Kafka | SinkKind::ForeachBatchNaive | SinkKind::Foreach => write(self, n, true),
        }
    }

    /// What the sink printed or called, as text: the console sink's `Batch: N` blocks in
    /// `show()` layout (spec §10.6), `foreach`'s open/process/close calls (spec §10.4), or
    /// `foreachBatch`'s calls. `None` for sinks that print nothing.
    pub fn log_text(&self, columns: &[String]) -> Option<String> {
        let mut by_call: Vec<(u64, u32, Vec<&Row>)> = Vec::new();
        for w in &self.written {
            match by_call.last_mut() {
                Some((b, a, rows)) if *b == w.batch_id && *a == w.attempt => rows.push(&w.row),
                _ => by_call.push((w.batch_id, w.attempt, vec![&w.row])),
            }
        }
        let mut out = String::new();
        match self.kind {
            SinkKind::Console => {
                for (b, _, rows) in &by_call {
                    out.push_str(&format!("-------------------------------------------\nBatch: {b}\n-------------------------------------------\n"));
                    out.push_str(&show_table(columns, rows));
                    out.push('\n');
                }
            }
            SinkKind::Foreach => {
                for (b, _, rows) in &by_call {
                    out.push_str(&format!("open(partitionId=0, epochId={b}) -> true\n"));
                    for r in rows {
                        out.push_str(&format!("process({})\n", r.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")));
                    }
                    out.push_str("close(None)\n");
                }
            }
            SinkKind::ForeachBatchNaive | SinkKind::ForeachBatchIdempotent => {
                for (b, _, rows) in &by_call {
                    out.push_str(&format!("f(batch_df with {} rows, batch_id={b})\n", rows.len()));
                }
            }
            _ => return None,
        }
        Some(out)
    }

    /// What a reader of the sink sees: every visible row, with duplicates.
    pub fn visible_rows(&self) -> Vec<&Written> {
        self.written.iter().filter(|w| w.visible).collect()
    }

    /// Rows a reader sees more than once (same batch, same row, a later attempt).
    pub fn duplicates(&self) -> usize {
        self.duplicate_flags().into_iter().filter(|d| *d).count()
    }

    /// For each entry of [`Sink::written`]: true if a reader sees it a second time (it is
    /// visible, and an earlier attempt of the same batch wrote the same row visibly).
    /// One pass over the rows with the first visible attempt of each (batch id, row), so a
    /// sink of 10,000 rows costs 10,000 look-ups, not 10,000².
    pub fn duplicate_flags(&self) -> Vec<bool> {
        let mut first: BTreeMap<(u64, &Row), u32> = BTreeMap::new();
        for p in self.written.iter().filter(|w| w.visible) {
            first.entry((p.batch_id, &p.row)).and_modify(|a| *a = (*a).min(p.attempt)).or_insert(p.attempt);
        }
        self.written.iter().map(|w| w.visible && first.get(&(w.batch_id, &w.row)).is_some_and(|&a| a < w.attempt)).collect()
    }
}

/// `df.show()`'s table: `+---+` borders, values right-aligned, 20 characters at most.
pub fn show_table(columns: &[String], rows: &[&Row]) -> String {
    let cell = |v: &crate::types::Value| {
        let t = match v {
            crate::types::Value::Null => "NULL".to_string(),
            other => other.to_string(),
        };
        if t.chars().count() > 20 { format!("{}...", t.chars().take(17).collect::<String>()) } else { t }
    };
    let body: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(cell).collect()).collect();
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        // Spark's showString: columns are at least 3 wide.
        .map(|(i, c)| body.iter().map(|r| r.get(i).map_or(0, |x| x.chars().count())).max().unwrap_or(0).max(c.chars().count()).max(3))
        .collect();
    let line = format!("+{}+\n", widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("+"));
    let fmt_row = |cells: &[String]| {
        let parts: Vec<String> = widths.iter().enumerate().map(|(i, w)| format!("{:>w$}", cells.get(i).map_or("", String::as_str), w = *w)).collect();
        format!("|{}|\n", parts.join("|"))
    };
    let mut out = line.clone();
    out.push_str(&fmt_row(columns));
    out.push_str(&line);
    for r in &body {
        out.push_str(&fmt_row(r));
    }
    out.push_str(&line);
    out
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
            let mut s = Sink::new(kind);
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
        let mut s = Sink::new(SinkKind::Console);
        s.add_batch(3, &rows(2), false, None);
        let text = s.log_text(&["n".to_string()]).unwrap();
        assert_eq!(text, "-------------------------------------------\nBatch: 3\n-------------------------------------------\n+---+\n|  n|\n+---+\n|  0|\n|  1|\n+---+\n\n");
        let mut f = Sink::new(SinkKind::Foreach);
        f.add_batch(7, &rows(1), false, None);
        assert_eq!(f.log_text(&["n".to_string()]).unwrap(), "open(partitionId=0, epochId=7) -> true\nprocess(0)\nclose(None)\n");
    }

    #[test]
    fn a_batch_that_ran_fully_twice_is_skipped_by_idempotent_sinks() {
        for kind in SinkKind::ALL {
            let mut s = Sink::new(kind);
            s.add_batch(5, &rows(3), false, None);
            s.add_batch(5, &rows(3), false, None);
            let expect = if kind.exactly_once() { 3 } else { 6 };
            assert_eq!(s.visible_rows().len(), expect, "{kind:?}");
        }
    }
}
