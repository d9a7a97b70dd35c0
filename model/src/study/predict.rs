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
use streamlab_engine::types::{CalendarInterval, Value};

use crate::text::i18n::rows_en;
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

/// One choice, in both languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PredictChoice {
    /// The choice in English.
    pub en: String,
    /// The choice in Korean (the same text when it is only a time or a number).
    pub ko: String,
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
    /// The question in English.
    pub prompt_en: String,
    /// The question in Korean.
    pub prompt_ko: String,
    /// Already in the order to show (seeded).
    pub choices: Vec<PredictChoice>,
    /// Index into `choices`.
    pub answer: usize,
    /// Why the answer is right, in English: the rule and the numbers.
    pub explanation_en: String,
    /// Why the answer is right, in Korean.
    pub explanation_ko: String,
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

fn time_text(ms: i64, day: i64) -> String {
    display_cell(&Value::Timestamp(ms * 1000), day)
}

/// Shuffles `right` among `wrong` (deduplicated, at most 3 kept) by `seed`.
fn assemble(right: PredictChoice, wrong: Vec<PredictChoice>, seed: u64) -> Result<(Vec<PredictChoice>, usize), String> {
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

fn same(text: String) -> PredictChoice {
    PredictChoice { en: text.clone(), ko: text }
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
    let right = same(time_text(wm, day));
    let wrong: Vec<PredictChoice> = wrong_ms.into_iter().filter(|m| *m != wm && *m >= 0).map(|m| same(time_text(m, day))).collect();
    let (choices, answer) = assemble(right, wrong, seed)?;
    let id = a.batch.id;
    let w = time_text(wm, day);
    let (explanation_en, explanation_ko) = if wm == 0 {
        (
            format!("Batch {id} runs with the watermark computed after the batches before it. No event time has moved it yet, so it is still 0 (1970-01-01T00:00:00Z); the events this batch reads move it only from batch {} on.", id + 1),
            format!("배치 {id}는 그 앞 배치들이 끝난 뒤 계산된 워터마크로 실행됩니다. 아직 워터마크를 움직인 이벤트 시간이 없으므로 0(1970-01-01T00:00:00Z) 그대로이고, 이 배치가 읽는 이벤트는 배치 {}부터 워터마크를 움직입니다.", id + 1),
        )
    } else if delays.len() > 1 {
        (
            format!("Batch {id} runs with the global watermark {w}, computed after the previous batch: each input's max event time − its delay, combined by spark.sql.streaming.multipleWatermarkPolicy (min by default). The events this batch reads count only from batch {} on.", id + 1),
            format!("배치 {id}는 직전 배치가 끝난 뒤 계산된 전역 워터마크 {w}로 실행됩니다. 입력마다 최대 이벤트 시간 − 허용 지연을 구하고 spark.sql.streaming.multipleWatermarkPolicy(기본 min)로 합칩니다. 이 배치가 읽는 이벤트는 배치 {}부터 반영됩니다.", id + 1),
        )
    } else {
        let max_seen = time_text(wm + delay, day);
        (
            format!("watermark = max event time seen before this batch − delay = {max_seen} − {} min = {w}. It was computed after the previous batch; the events batch {id} reads move it only from batch {} on, and it never goes back.", delay / 60_000, id + 1),
            format!("워터마크 = 이 배치 전까지 본 최대 이벤트 시간 − 허용 지연 = {max_seen} − {}분 = {w}. 직전 배치가 끝난 뒤 계산된 값이며, 배치 {id}가 읽는 이벤트는 배치 {}부터 워터마크를 움직이고 워터마크는 뒤로 가지 않습니다.", delay / 60_000, id + 1),
        )
    };
    Ok(Prediction {
        kind: PredictKind::Watermark,
        action: a.action,
        batch_id: id,
        prompt_en: format!("Which watermark will batch {id} run with?"),
        prompt_ko: format!("배치 {id}는 어떤 워터마크로 실행될까요?"),
        choices,
        answer,
        explanation_en,
        explanation_ko,
    })
}

fn rows_choice(rows: &[String]) -> PredictChoice {
    if rows.is_empty() {
        return PredictChoice { en: "(no rows)".into(), ko: "(행 없음)".into() };
    }
    let mut sorted = rows.to_vec();
    sorted.sort();
    same(sorted.join("\n"))
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
    let (rule_en, rule_ko) = match mode {
        OutputMode::Append => (
            "append emits a row once, when it can no longer change: a window or session when its end <= the watermark the batch runs with",
            "append는 더 이상 바뀌지 않는 행을 한 번만 출력합니다. 윈도우나 세션은 배치가 쓰는 워터마크가 끝 시각 이상일 때(끝 <= 워터마크) 출력됩니다",
        ),
        OutputMode::Update => ("update emits the rows this batch changed, with their new values; closed windows leave state silently", "update는 이번 배치에서 바뀐 행만 새 값으로 출력하고, 닫힌 윈도우는 조용히 상태에서 제거합니다"),
        OutputMode::Complete => ("complete emits the whole result table after every batch with data", "complete는 데이터가 있는 배치마다 결과 테이블 전체를 출력합니다"),
    };
    Ok(Prediction {
        kind: PredictKind::Rows,
        action: a.action,
        batch_id: id,
        prompt_en: format!("Which rows will batch {id} send to the sink?"),
        prompt_ko: format!("배치 {id}는 싱크로 어떤 행을 보낼까요?"),
        choices,
        answer,
        explanation_en: format!("The {} mode rule: {rule_en}. Batch {id} reads {}, runs with watermark {wm} and emits {}.", mode.as_str(), rows_en(a.batch.input_rows), rows_en(n as u64)),
        explanation_ko: format!("{} 모드 규칙: {rule_ko}. 배치 {id}는 {}개 행을 읽고 워터마크 {wm}로 실행되어 {n}개 행을 출력합니다.", mode.as_str(), a.batch.input_rows),
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
    let label = |n: u64| PredictChoice { en: n.to_string(), ko: n.to_string() };
    let wrong: Vec<PredictChoice> = wrong_n.into_iter().filter(|n| *n != right).map(label).collect();
    let (choices, answer) = assemble(label(right), wrong, seed)?;
    let id = a.batch.id;
    let day = a.before.day_us();
    let l = time_text(late, day);
    Ok(Prediction {
        kind: PredictKind::Dropped,
        action: a.action,
        batch_id: id,
        prompt_en: format!("Batch {id} reads {}. How many will its state operator drop as late (numRowsDroppedByWatermark)?", rows_en(a.input_times.len() as u64)),
        prompt_ko: format!("배치 {id}는 {}개 행을 읽습니다. 상태 연산자가 늦은 데이터로 버리는 행(numRowsDroppedByWatermark)은 몇 개일까요?", a.input_times.len()),
        choices,
        answer,
        explanation_en: format!("Late rows are judged against wm(N-1) = {l}, the watermark of the batch before, not against the watermark this batch's own events make. A row is late when its window end (its session end, or its event time for dropDuplicates and groupBy on the time column) <= {l}; a sliding-window row counts once per window. Here {} dropped.", if right == 1 { "1 row is".to_string() } else { format!("{right} rows are") }),
        explanation_ko: format!("늦은 데이터는 이 배치의 이벤트로 만든 워터마크가 아니라 앞 배치의 워터마크 wm(N-1) = {l} 기준으로 판단합니다. 윈도우 끝(세션 끝, dropDuplicates나 시간 컬럼 groupBy에서는 이벤트 시간) <= {l}이면 늦은 행이고, 슬라이딩 윈도우에서는 윈도우마다 한 번씩 셉니다. 여기서는 {right}개 행이 버려집니다."),
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
