//! [`ConsoleSink`]: Spark's console sink (`ConsoleSinkProvider`, `ConsoleTable`), which prints
//! each batch as `Batch: N` and `show()`'s table. It prints every call: a re-run batch prints
//! again — at-least-once.

use super::{DeliveryGuarantee, Sink, SinkKind, SinkLog};
use crate::analysis::SinkCapabilities;
use crate::types::Row;

/// The console sink: every call is printed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConsoleSink {
    log: SinkLog,
    show: ShowOptions,
}

/// How `show()` prints a table: at most `num_rows` rows, and cells cut to 20 characters and
/// right-aligned when `truncate` (else whole and left-aligned), as `Dataset.showString`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShowOptions {
    /// Rows printed; past them, `only showing top N rows`.
    pub num_rows: usize,
    /// Cells longer than 20 characters end in `...`.
    pub truncate: bool,
}

impl Default for ShowOptions {
    /// The console sink's defaults: 20 rows, truncated.
    fn default() -> Self {
        ShowOptions { num_rows: 20, truncate: true }
    }
}

impl ConsoleSink {
    /// A console sink with the writer's `numRows` and `truncate` options
    /// (`ConsoleSinkProvider`: `numRows` an int, default 20; `truncate` a boolean, default
    /// true); a value that does not read as one keeps the default.
    pub fn with_options(options: &[(String, String)]) -> ConsoleSink {
        let get = |key: &str| options.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.trim());
        let mut show = ShowOptions::default();
        if let Some(n) = get("numRows").and_then(|v| v.parse::<usize>().ok()) {
            show.num_rows = n;
        }
        if let Some(t) = get("truncate").and_then(|v| v.to_ascii_lowercase().parse::<bool>().ok()) {
            show.truncate = t;
        }
        ConsoleSink { log: SinkLog::default(), show }
    }
}

impl SinkCapabilities for ConsoleSink {
    fn data_source_name(&self) -> &'static str {
        "console"
    }
}

impl Sink for ConsoleSink {
    fn kind(&self) -> SinkKind {
        SinkKind::Console
    }


    fn guarantee(&self) -> DeliveryGuarantee {
        DeliveryGuarantee::AtLeastOnce
    }

    fn formats(&self) -> &'static [&'static str] {
        &["console"]
    }

    fn progress_description(&self) -> &'static str {
        "org.apache.spark.sql.execution.streaming.ConsoleTable$@"
    }

    fn add_batch(&mut self, batch_id: u64, rows: &[Row], _complete_mode: bool, crash_after: Option<usize>) {
        let attempt = self.log.begin(batch_id, rows.len());
        self.log.append(batch_id, attempt, super::rows_before_crash(rows, crash_after), true);
    }

    fn log(&self) -> &SinkLog {
        &self.log
    }

    /// The `Batch: N` blocks in `show()` layout, one per call.
    fn log_text(&self, columns: &[String]) -> Option<String> {
        let mut out = String::new();
        for (call, rows) in &self.log.calls() {
            let b = call.batch_id;
            out.push_str(&format!("-------------------------------------------\nBatch: {b}\n-------------------------------------------\n"));
            out.push_str(&show_table(columns, rows, self.show));
        }
        Some(out)
    }

    fn clone_box(&self) -> Box<dyn Sink> {
        Box::new(self.clone())
    }
}

/// A value as `show()` writes it: a timestamp as Spark casts it to text (`2026-03-02
/// 08:55:00`, in UTC, the zone the lab shows times in), also inside a struct or an array (a
/// window is `{2026-03-02 08:55:00, 2026-03-02 09:05:00}`); NULL as `NULL`; the rest as the
/// lab writes values.
fn show_text(v: &crate::types::Value) -> String {
    use crate::types::Value;
    let inner = |items: &[Value]| items.iter().map(show_text).collect::<Vec<_>>().join(", ");
    match v {
        Value::Null => "NULL".to_string(),
        Value::Timestamp(_) => crate::types::text::to_text(v, &crate::types::timezone::SessionTimeZone::default()),
        Value::Struct(items) => format!("{{{}}}", inner(items)),
        Value::Array(items) => format!("[{}]", inner(items)),
        other => other.to_string(),
    }
}

/// A console sink's batch as Spark prints it (`println(showString(numRows, truncate))`):
/// `+---+` borders around the first `num_rows` rows, then `only showing top N rows` when there
/// are more, else an empty line.
fn show_table(columns: &[String], rows: &[&Row], show: ShowOptions) -> String {
    let cell = |v: &crate::types::Value| {
        let t = show_text(v);
        if show.truncate && t.chars().count() > 20 { format!("{}...", t.chars().take(17).collect::<String>()) } else { t }
    };
    let body: Vec<Vec<String>> = rows.iter().take(show.num_rows).map(|r| r.iter().map(cell).collect()).collect();
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        // Spark's showString: columns are at least 3 wide.
        .map(|(i, c)| body.iter().map(|r| r.get(i).map_or(0, |x| x.chars().count())).max().unwrap_or(0).max(c.chars().count()).max(3))
        .collect();
    let line = format!("+{}+\n", widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("+"));
    let fmt_row = |cells: &[String]| {
        // `showString`: right-aligned when truncating, left-aligned when not.
        let parts: Vec<String> = widths
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let c = cells.get(i).map_or("", String::as_str);
                if show.truncate { format!("{c:>w$}", w = *w) } else { format!("{c:<w$}", w = *w) }
            })
            .collect();
        format!("|{}|\n", parts.join("|"))
    };
    let mut out = line.clone();
    out.push_str(&fmt_row(columns));
    out.push_str(&line);
    for r in &body {
        out.push_str(&fmt_row(r));
    }
    out.push_str(&line);
    if rows.len() > show.num_rows {
        let n = show.num_rows;
        out.push_str(&format!("only showing top {n} {}\n", if n == 1 { "row" } else { "rows" }));
    } else {
        out.push('\n');
    }
    out
}

