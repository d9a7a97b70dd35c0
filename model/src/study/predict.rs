//! "Predict the next batch": before a batch runs, a question about it — the watermark it
//! will run with, the rows it will emit, or how many rows it will drop as late — built for
//! any scenario and any lab state by running the engine ahead on a copy of the session.
//! The wrong choices are the classic mistakes: using the batch's own max event time, the
//! minimum event time, forgetting the delay, judging lateness by the event time instead of
//! the window end, expecting another output mode's rows.
//!
//! Plain Rust: [`predictions`] takes the `LabSession` and a seed; the page shows one,
//! then the learner presses [`NextAction`] and sees the answer in the lab.

use std::collections::BTreeSet;

use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::{format_timestamp_us, CalendarInterval, Value};

use crate::text::i18n::{text, tr, tr_with};
use crate::text::Text;
use crate::lab::rng::permutation;
use crate::lab::session::{display_cell, BatchView, LabSession};

/// What the prediction asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredictKind {
    /// The watermark the next batch runs with.
    Watermark,
    /// The rows the next batch emits.
    Rows,
    /// `numRowsDroppedByWatermark` of the next batch's first state operator.
    Dropped,
}

/// What the learner presses to run the predicted batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextAction {
    /// A batch is due now: "Trigger one batch".
    Trigger,
    /// Nothing is due: "Next step ▶" (the scenario's next events, then the batch).
    NextStep,
}

/// A question about the next batch, with its answer worked out by the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prediction {
    /// What the question asks about: the watermark, the emitted rows or the dropped rows.
    pub kind: PredictKind,
    /// What the learner presses to run the predicted batch.
    pub action: NextAction,
    /// The id the predicted batch will get.
    pub batch_id: u64,
    /// The question, in every language.
    pub prompt: Text,
    /// Already in the order to show (seeded), each in every language (the same text when it
    /// is only a time or a number).
    pub choices: Vec<Text>,
    /// Index into `choices`.
    pub answer: usize,
    /// Why the answer is right, in every language: the rule and the numbers.
    pub explanation: Text,
}

/// The copy of the session one batch ahead.
struct Ahead {
    action: NextAction,
    /// The session before the batch (after pushing the next step, if needed).
    before: LabSession,
    batch: BatchView,
    /// Event times (ms) of the rows the batch reads, when their source has a timestamp column.
    input_times: Vec<i64>,
}

fn run_ahead(session: &LabSession) -> Result<Ahead, String> {
    if let Some(e) = session.view().error {
        return Err(format!("the query does not run: {}", e.message));
    }
    let mut before = session.clone();
    let action = if before.batch_due() {
        NextAction::Trigger
    } else if before.push_step() {
        NextAction::NextStep
    } else {
        return Err("no batch is due and every step has run".into());
    };
    if !before.batch_due() {
        return Err("the next step brings no data and no batch is due".into());
    }
    let sources = before.sources();
    let input_times = before
        .pending_rows()
        .iter()
        .filter_map(|(src, row)| {
            let s = sources.iter().find(|s| &s.name == src)?;
            let col = s.time_column.as_ref()?;
            let i = s.columns.iter().position(|(c, _)| c == col)?;
            match row.get(i) {
                Some(Value::Timestamp(us)) => Some(us.div_euclid(1000)),
                _ => None,
            }
        })
        .collect();
    let mut after = before.clone();
    let n = after.view().batches.len();
    after.trigger();
    let batch = after.view().batches.get(n).map(|b| (**b).clone()).ok_or("the trigger runs no batch (the query has stopped)")?;
    Ok(Ahead { action, before, batch, input_times })
}

fn delays_ms(s: &LabSession) -> Vec<i64> {
    s.view().delays.iter().filter_map(|d| CalendarInterval::parse(d).ok()?.delay_ms().ok()).collect()
}

/// One day in µs: [`display_cell`] writes a time on the scenario's day as `09:03`.
const DAY_US: i64 = 86_400_000_000;

fn time_text(ms: i64, day: i64) -> String {
    display_cell(&Value::Timestamp(ms * 1000), day)
}

/// Shuffles `right` among `wrong` (deduplicated, at most 3 kept) by `seed`.
fn assemble(right: Text, wrong: Vec<Text>, seed: u64) -> Result<(Vec<Text>, usize), String> {
    let mut seen = BTreeSet::from([right.en.clone()]);
    let mut all = vec![right];
    for w in wrong {
        if all.len() == 4 {
            break;
        }
        if seen.insert(w.en.clone()) {
            all.push(w);
        }
    }
    if all.len() < 3 {
        return Err("fewer than two distinct wrong choices".into());
    }
    let order = permutation(all.len(), seed ^ 0x5eed);
    let answer = order.iter().position(|&i| i == 0).unwrap_or(0);
    let choices = order.into_iter().map(|i| all[i].clone()).collect();
    Ok((choices, answer))
}

fn predict_watermark(a: &Ahead, seed: u64) -> Result<Prediction, String> {
    let wm = a.batch.watermark_ms.ok_or("the query has no watermark")?;
    let day = a.before.day_us();
    let delays = delays_ms(&a.before);
    let delay = delays.first().copied().unwrap_or(0);
    let own_max = a.input_times.iter().max().copied();
    let own_min = a.input_times.iter().min().copied();
    let mut wrong_ms: Vec<i64> = Vec::new();
    if let Some(m) = own_max {
        wrong_ms.push(m - delay); // this batch's own max − delay: using the new watermark too early
    }
    if wm > 0 {
        wrong_ms.push(wm + delay); // forgetting the delay: the max event time seen so far
    }
    if let Some(m) = own_min {
        wrong_ms.push(m - delay); // the minimum event time instead of the maximum
    }
    if let Some(m) = own_max {
        wrong_ms.push(m); // this batch's max, without the delay
    }
    if wm > 0 {
        wrong_ms.push(0); // "nothing has closed yet"
        wrong_ms.push(wm - delay); // the delay taken off twice
    }
    for step in [1, -1, 2] {
        wrong_ms.push(wm + step * delay.max(300_000));
    }
    // The right choice is written as the batch list writes it: `09:03` on the scenario's day,
    // in full off it (the first batch's `1970-01-01T00:00:00Z`). Off the day, every choice is
    // written in full too, so that the answer is not the one choice written differently.
    let in_full = (wm * 1000).div_euclid(DAY_US) * DAY_US != day;
    let choice = |m: i64| if in_full { format_timestamp_us(m * 1000) } else { time_text(m, day) };
    let right = Text::same(choice(wm));
    let wrong: Vec<Text> = wrong_ms.into_iter().filter(|m| *m != wm && *m >= 0).map(|m| Text::same(choice(m))).collect();
    let (choices, answer) = assemble(right, wrong, seed)?;
    let id = a.batch.id;
    let w = time_text(wm, day);
    let next = id + 1;
    let explanation = if wm == 0 {
        text("predict.watermark.initial", &[("id", &id), ("next", &next)])
    } else if delays.len() > 1 {
        text("predict.watermark.multiple", &[("id", &id), ("w", &w), ("next", &next)])
    } else {
        let max_seen = time_text(wm + delay, day);
        text("predict.watermark.one", &[("max_seen", &max_seen), ("min", &(delay / 60_000)), ("w", &w), ("id", &id), ("next", &next)])
    };
    Ok(Prediction {
        kind: PredictKind::Watermark,
        action: a.action,
        batch_id: id,
        prompt: text("predict.watermark.prompt", &[("id", &id)]),
        choices,
        answer,
        explanation,
    })
}

fn rows_choice(rows: &[String]) -> Text {
    if rows.is_empty() {
        return text("predict.rows.none", &[]);
    }
    let mut sorted = rows.to_vec();
    sorted.sort();
    Text::same(sorted.join("\n"))
}

fn joined(rows: &[Vec<String>]) -> Vec<String> {
    rows.iter().map(|r| r.join(" | ")).collect()
}

fn predict_rows(session: &LabSession, a: &Ahead, seed: u64) -> Result<Prediction, String> {
    let right_rows = joined(&a.batch.rows);
    let mut wrong = Vec::new();
    if !right_rows.is_empty() {
        wrong.push(rows_choice(&[]));
    }
    // The same batch in another output mode: the classic mix-up between the modes.
    let mode = session.view().mode;
    for other in [OutputMode::Update, OutputMode::Append, OutputMode::Complete] {
        if other == mode {
            continue;
        }
        let mut s = session.clone();
        s.set_mode(other);
        if s.view().error.is_some() {
            continue;
        }
        if let Ok(b) = run_ahead(&s) {
            if b.batch.id == a.batch.id {
                wrong.push(rows_choice(&joined(&b.batch.rows)));
            }
        }
    }
    let before = a.before.view();
    if let Some(last) = before.batches.iter().rev().find(|b| !b.rows.is_empty()) {
        wrong.push(rows_choice(&joined(&last.rows)));
    }
    if right_rows.len() >= 2 {
        wrong.push(rows_choice(&right_rows[..right_rows.len() - 1]));
    }
    let pending: Vec<String> = before.pending.iter().map(|(_, cells)| cells.join(" | ")).collect();
    if !pending.is_empty() {
        wrong.push(rows_choice(&pending));
    }
    let right = rows_choice(&right_rows);
    let (choices, answer) = assemble(right, wrong, seed)?;
    let id = a.batch.id;
    let n = right_rows.len();
    let wm = a.batch.watermark.clone().unwrap_or_else(|| "none".into());
    let rule = match mode {
        OutputMode::Append => "predict.rule.append",
        OutputMode::Update => "predict.rule.update",
        OutputMode::Complete => "predict.rule.complete",
    };
    let explanation = Text::from_fn(|lang| {
        tr_with(lang, "predict.rows.explanation", &[("mode", &mode.as_str()), ("rule", &tr(lang, rule)), ("id", &id), ("read", &a.batch.input_rows), ("wm", &wm), ("n", &n)])
    });
    Ok(Prediction {
        kind: PredictKind::Rows,
        action: a.action,
        batch_id: id,
        // The columns by name, as the sink's table heads them (a choice is its rows' cells).
        prompt: text("predict.rows.prompt", &[("id", &id), ("cols", &before.output_columns.iter().map(|c| c.split(": ").next().unwrap_or(c)).collect::<Vec<_>>().join(" | "))]),
        choices,
        answer,
        explanation,
    })
}

fn predict_dropped(a: &Ahead, seed: u64) -> Result<Prediction, String> {
    let m = a.batch.metrics.first().ok_or("the query has no state operator")?;
    if a.batch.watermark_ms.is_none() {
        return Err("the query has no watermark".into());
    }
    if a.input_times.is_empty() {
        return Err("the batch reads no timestamped rows".into());
    }
    let right = m.dropped;
    let late = a.batch.late_watermark_ms;
    let delay = delays_ms(&a.before).first().copied().unwrap_or(0);
    let own_max = a.input_times.iter().max().copied().unwrap_or(late);
    let count = |limit: i64| a.input_times.iter().filter(|t| **t <= limit).count() as u64;
    // By event time rather than window end; against the batch's own watermark; nothing; all.
    let wrong_n = [count(late), count(own_max - delay), 0, a.input_times.len() as u64, right + 1, right + 2];
    let label = |n: u64| Text::same(n.to_string());
    let wrong: Vec<Text> = wrong_n.into_iter().filter(|n| *n != right).map(label).collect();
    let (choices, answer) = assemble(label(right), wrong, seed)?;
    let id = a.batch.id;
    let day = a.before.day_us();
    let l = time_text(late, day);
    Ok(Prediction {
        kind: PredictKind::Dropped,
        action: a.action,
        batch_id: id,
        prompt: text("predict.dropped.prompt", &[("id", &id), ("n", &a.input_times.len())]),
        choices,
        answer,
        explanation: text("predict.dropped.explanation", &[("l", &l), ("n", &right)]),
    })
}

/// One prediction of `kind` about the session's next batch.
///
/// # Errors
/// Why none can be built: the query does not run, nothing is left to run, the query has no
/// watermark (for `Watermark`, `Dropped`) or no state (for `Dropped`), or the mistakes do not
/// give two distinct wrong choices.
pub fn predict(session: &LabSession, kind: PredictKind, seed: u64) -> Result<Prediction, String> {
    let a = run_ahead(session)?;
    match kind {
        PredictKind::Watermark => predict_watermark(&a, seed),
        PredictKind::Rows => predict_rows(session, &a, seed),
        PredictKind::Dropped => predict_dropped(&a, seed),
    }
}

/// Every prediction that fits the session's next batch (watermark, rows, dropped), in that
/// order; empty when nothing can run.
pub fn predictions(session: &LabSession, seed: u64) -> Vec<Prediction> {
    [PredictKind::Watermark, PredictKind::Rows, PredictKind::Dropped].into_iter().filter_map(|k| predict(session, k, seed).ok()).collect()
}

/// Whether `choice` (an index into `p.choices`) is what the engine will do.
pub fn is_right(p: &Prediction, choice: usize) -> bool {
    choice == p.answer
}
