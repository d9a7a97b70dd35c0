//! Engine values as the lab shows them: cells on the scenario's day, batches, the labelled
//! state tables and errors, turned into the text of the view types.

use streamlab_engine::analysis::Attr;
use streamlab_engine::execution::state_rows::{KeptReason, StateCell, StateNote, StateRowLabel};
use streamlab_engine::scenario::row_to_json;
use streamlab_engine::streaming::{BatchResult, StreamingQuery};
use streamlab_engine::types::{Row, Value};
use streamlab_engine::Error;

use crate::lab::cells::{display_cell, state_cell_text};

use super::{BatchView, ErrorView, MetricView, RowStatus, StateTableView};

/// An engine error as the page shows it, with its position in the query `text`.
pub(super) fn error_view(e: &Error, text: &str) -> ErrorView {
    match e {
        Error::Parse(p) => ErrorView {
            kind: p.exception().into(),
            error_class: None,
            message: p.message.clone(),
            hint: None,
            stage: Some("define".into()),
            position: Some(p.span.line_col(text)),
            span: Some((p.span.start, p.span.end)),
        },
        // The browser's zone database is still on its way (`tzdb::LOADING`): the lab's note,
        // without a condition, as the query runs again when it comes.
        Error::Analysis(a) if a.error_class == streamlab_engine::types::tzdb::LOADING => ErrorView {
            kind: a.exception_class().into(),
            error_class: None,
            message: a.message.clone(),
            hint: None,
            stage: None,
            position: a.span.map(|s| s.line_col(text)),
            span: a.span.map(|s| (s.start, s.end)),
        },
        Error::Analysis(a) => ErrorView {
            // The exception PySpark raises (`StreamingQueryException` for a query that died
            // while running, `AnalysisException` for most, ...), checked against the corpus.
            kind: a.exception_class().into(),
            error_class: Some(a.error_class.clone()),
            message: a.spark_text(),
            hint: a.hint.clone(),
            stage: Some(
                match a.stage {
                    streamlab_engine::Stage::Define => "define",
                    streamlab_engine::Stage::Start => "start",
                    streamlab_engine::Stage::Run => "run",
                }
                .into(),
            ),
            position: a.span.map(|s| s.line_col(text)),
            span: a.span.map(|s| (s.start, s.end)),
        },
        Error::Unsupported(f) => ErrorView {
            kind: "not modelled yet".into(),
            error_class: None,
            message: format!("{f} is not modelled by Streamlab yet."),
            hint: Some("the lab runs tumbling, sliding and session windows, watermarks, aggregations, dedup, limit, union, stream-static and stream-stream joins, applyInPandasWithState and transformWithState".into()),
            stage: None,
            position: None,
            span: None,
        },
        other => ErrorView {
            kind: "Error".into(),
            error_class: None,
            message: other.to_string(),
            hint: None,
            stage: None,
            position: None,
            span: None,
        },
    }
}

/// One batch's result as the batch list shows it, cells on the scenario's `day`.
pub(super) fn batch_view(step: Option<usize>, b: &BatchResult, output: &[Attr], day: i64) -> BatchView {
    BatchView {
        id: b.batch_id,
        step,
        input_rows: b.input_rows,
        watermark: b.watermark_ms.map(|w| display_cell(&Value::Timestamp(w * 1000), day)),
        watermark_ms: b.watermark_ms,
        late_watermark: display_cell(&Value::Timestamp(b.late_watermark_ms * 1000), day),
        late_watermark_ms: b.late_watermark_ms,
        no_data: b.no_data,
        rows: b.rows.iter().map(|r| r.iter().map(|v| display_cell(v, day)).collect()).collect(),
        rows_json: b.rows.iter().map(|r| row_to_json(r, output).to_string()).collect(),
        metrics: b
            .state
            .iter()
            .map(MetricView::of)
            .collect(),
        sampled_operators: b.explanation.as_ref().map(|e| e.operators.iter().filter(|o| o.runs > 1).map(|o| o.operator.clone()).collect()).unwrap_or_default(),
    }
}

/// The engine's labelled state tables as text: cells displayed on the scenario's day, labels
/// as the panel's row styles, the join notes in both languages.
pub(super) fn state_tables(q: &StreamingQuery, evicted: &[(usize, Row)], day: i64) -> Vec<StateTableView> {
    let cell = |c: &StateCell| state_cell_text(c, day);
    let status = |l: StateRowLabel| match l {
        StateRowLabel::Open { .. } => RowStatus::Open,
        StateRowLabel::Closing { .. } => RowStatus::Closing,
        StateRowLabel::Evicted => RowStatus::Evicted,
        StateRowLabel::Kept(KeptReason::CompleteMode) => RowStatus::Kept,
        StateRowLabel::Kept(KeptReason::NoWatermark | KeptReason::Counter) => RowStatus::NoWatermark,
        StateRowLabel::Kept(KeptReason::NoTimeout) => RowStatus::NoTimeout,
    };
    let note = |n: Option<StateNote>| match n {
        None => None,
        Some(StateNote::NoStateWatermark) => Some(crate::text::i18n::text("state.note.none", &[])),
        Some(StateNote::KeyWatermark) => Some(crate::text::i18n::text("state.note.key", &[])),
        Some(StateNote::ValueWatermark { offset_ms }) => {
            let sign = if offset_ms < 0 { "−" } else { "+" };
            let d = streamlab_engine::types::format_duration_us(offset_ms.unsigned_abs().saturating_mul(1000).min(i64::MAX as u64) as i64);
            Some(crate::text::i18n::text("state.note.value", &[("sign", &sign), ("d", &d)]))
        }
    };
    q.state_tables(evicted)
        .into_iter()
        .map(|t| StateTableView {
            operator: t.operator,
            columns: t.columns,
            rows: t.rows.iter().map(|r| (r.cells.iter().map(cell).collect(), status(r.label))).collect(),
            note: note(t.note),
        })
        .collect()
}
