//! A guided step's condition on the lab ([`Condition`]) and what it still waits for
//! ([`Missing`]), said in both languages: the hint under an unfinished step names the thing
//! that is missing, in the learner's language. A hint says what the lab shows now; it never
//! prints a count or a row the task asks the learner to find (those are the task's answer).

use serde::Deserialize;
use streamlab_engine::types::parse_timestamp_us;

use crate::lab::persist::parse_trigger;
use crate::text::Lang;
use crate::lab::session::LabView;

/// What a step's condition still waits for: the first key that does not hold, in English and
/// Korean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// What is missing, in English.
    pub en: String,
    /// What is missing, in Korean (with its particles fitted).
    pub ko: String,
}

impl Missing {
    fn new(en: impl Into<String>, ko: impl Into<String>) -> Missing {
        Missing { en: en.into(), ko: crate::text::i18n::particles(&ko.into()) }
    }

    /// The text in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        if lang == Lang::Ko { &self.ko } else { &self.en }
    }
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en)
    }
}

/// A condition on the lab's state; every key given must hold.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// At least this many batches have run.
    pub batches_at_least: Option<usize>,
    /// At least this many no-data batches have run.
    pub no_data_batches_at_least: Option<usize>,
    /// At least this many of the scenario's steps are done.
    pub steps_done_at_least: Option<usize>,
    /// At least this many rows are pending (added, not read by a batch).
    pub pending_at_least: Option<usize>,
    /// The current watermark (the one the next batch runs with), ISO text.
    pub watermark: Option<String>,
    /// The output mode (`append`, `update`, `complete`).
    pub mode: Option<String>,
    /// The sink id (`file`, `kafka`, ...).
    pub sink: Option<String>,
    /// The trigger, as `trigger_kind` in a script (`availableNow`, `processingTime:5000`).
    pub trigger: Option<String>,
    /// The query text contains this.
    pub query_contains: Option<String>,
    /// The lab shows an error with this condition.
    pub error_class: Option<String>,
    /// The lab shows no error.
    pub no_error: Option<bool>,
    /// A row some batch emitted has these cells (in this order, others may sit between).
    pub emitted_row: Option<Vec<String>>,
    /// Rows dropped as late so far (first state operator, all batches).
    pub dropped_at_least: Option<u64>,
    /// The query is active (false after `once`/`availableNow` finished or a crash).
    pub active: Option<bool>,
    /// The checkpoint has been started at least this many times.
    pub runs_at_least: Option<u64>,
    /// Rows a reader of the sink sees twice.
    pub duplicates: Option<usize>,
    /// A source has this kind: `<source> <kind>` (`clicks file`).
    pub source_kind: Option<String>,
    /// The batch the `batch_*` keys talk about.
    pub batch: Option<u64>,
    /// That batch ran with this watermark (ISO text).
    pub batch_watermark: Option<String>,
    /// That batch emitted this many rows.
    pub batch_rows: Option<usize>,
    /// That batch was (not) a no-data batch.
    pub batch_no_data: Option<bool>,
    /// `numRowsDroppedByWatermark` of that batch's first state operator.
    pub batch_dropped: Option<u64>,
    /// `numRowsTotal` of that batch's first state operator.
    pub batch_state_total: Option<u64>,
}

impl Condition {
    /// True when no key is given (a condition that always holds).
    pub fn is_empty(&self) -> bool {
        *self == Condition::default()
    }

    /// Checks every key against the lab's view.
    ///
    /// # Errors
    /// The first key that does not hold, in both languages (for the hint under the step and
    /// for a test message).
    pub fn check(&self, v: &LabView) -> Result<(), Missing> {
        // A count the task asks the learner to find (how many batches availableNow runs) is never
        // printed: the hint says how many there are now and that it is too few.
        let too_few = |en: &str, ko: &str, want: Option<usize>, got: usize| match want {
            Some(n) if got < n => Err(Missing::new(format!("{en}: {got}, fewer than this task needs"), format!("{ko}: {got}개로, 이 과제에 필요한 것보다 적습니다"))),
            _ => Ok(()),
        };
        too_few("batches run", "실행된 배치", self.batches_at_least, v.batches.len())?;
        too_few("no-data batches run", "실행된 데이터 없는 배치", self.no_data_batches_at_least, v.batches.iter().filter(|b| b.no_data).count())?;
        too_few("example steps done", "진행한 예제 단계", self.steps_done_at_least, v.steps_done)?;
        too_few("pending rows", "대기 중인 행", self.pending_at_least, v.pending.len())?;
        if let Some(wm) = &self.watermark {
            if v.watermark.as_deref() != Some(wm.as_str()) {
                let now = v.watermark.as_deref();
                return Err(Missing::new(
                    format!("the watermark is {}, not {wm}", now.unwrap_or("none")),
                    format!("워터마크가 {wm}이(가) 아니라 {}입니다", now.unwrap_or("없음")),
                ));
            }
        }
        if let Some(m) = &self.mode {
            if v.mode.as_str() != m {
                return Err(Missing::new(format!("the output mode is {}, not {m}", v.mode.as_str()), format!("출력 모드가 {m}이(가) 아니라 {}입니다", v.mode.as_str())));
            }
        }
        let rec = v.recovery.as_ref();
        if let Some(sink) = &self.sink {
            if rec.map(|r| r.sink.id()) != Some(sink.as_str()) {
                return Err(Missing::new(format!("the sink is not {sink}"), format!("싱크가 {sink}이(가) 아닙니다")));
            }
        }
        if let Some(t) = &self.trigger {
            let want = parse_trigger(t).map(|t| t.describe());
            if rec.map(|r| r.trigger.clone()) != want {
                let want = want.unwrap_or_else(|| t.clone());
                return Err(Missing::new(format!("the trigger is not {want}"), format!("트리거가 {want}이(가) 아닙니다")));
            }
        }
        if let Some(text) = &self.query_contains {
            if !v.query_text.contains(text.as_str()) {
                return Err(Missing::new(format!("the query does not contain {text}"), format!("쿼리에 {text}이(가) 없습니다")));
            }
        }
        if let Some(class) = &self.error_class {
            if v.error.as_ref().and_then(|e| e.error_class.as_deref()) != Some(class.as_str()) {
                // The error's name is what the task asks the learner to find.
                return Err(Missing::new("the lab does not show the error this task is about yet", "이 과제가 다루는 오류가 실습에 아직 보이지 않습니다"));
            }
        }
        if let Some(want) = self.no_error {
            if want == v.error.is_some() {
                return Err(if want {
                    Missing::new("the lab shows an error", "실습에 오류가 보입니다")
                } else {
                    Missing::new("the lab shows no error", "실습에 오류가 보이지 않습니다")
                });
            }
        }
        if let Some(cells) = &self.emitted_row {
            let found = v.batches.iter().flat_map(|b| &b.rows).any(|row| {
                let mut it = row.iter();
                cells.iter().all(|c| it.any(|x| x == c))
            });
            if !found {
                // The row's cells are the task's answer: the hint does not print them.
                return Err(Missing::new("no batch has emitted the row this task looks for yet", "이 과제가 찾는 행을 낸 배치가 아직 없습니다"));
            }
        }
        if let Some(n) = self.dropped_at_least {
            let got: u64 = v.batches.iter().filter_map(|b| b.metrics.first()).map(|m| m.dropped).sum();
            if got < n {
                return Err(Missing::new(format!("rows dropped as late: {got}, fewer than this task needs"), format!("늦어서 버려진 행: {got}개로, 이 과제에 필요한 것보다 적습니다")));
            }
        }
        if let Some(a) = self.active {
            if rec.map(|r| r.active) != Some(a) {
                return Err(if a {
                    Missing::new("the query is not active", "쿼리가 활성 상태가 아닙니다")
                } else {
                    Missing::new("the query is still active", "쿼리가 아직 활성 상태입니다")
                });
            }
        }
        if let Some(n) = self.runs_at_least {
            let runs = rec.map_or(0, |r| r.runs);
            if runs < n {
                return Err(Missing::new(format!("query runs on this checkpoint: {runs} of {n}"), format!("이 체크포인트로 쿼리를 실행한 횟수: {n}번 중 {runs}번")));
            }
        }
        if let Some(n) = self.duplicates {
            let d = rec.map_or(0, |r| r.duplicates);
            if d != n {
                return Err(Missing::new(format!("rows a reader of the sink sees twice: {d}, not the number this task expects"), format!("싱크를 읽는 쪽이 두 번 보는 행: {d}개로, 이 과제가 기대하는 수와 다릅니다")));
            }
        }
        if let Some(sk) = &self.source_kind {
            let (name, kind) = sk.split_once(' ').unwrap_or((sk.as_str(), ""));
            if !v.sources.iter().any(|s| s.name == name && s.kind == kind) {
                return Err(Missing::new(format!("source {name} is not a {kind} source"), format!("소스 {name}이(가) {kind} 소스가 아닙니다")));
            }
        }
        let batch_keys = self.batch_watermark.is_some() || self.batch_rows.is_some() || self.batch_no_data.is_some() || self.batch_dropped.is_some() || self.batch_state_total.is_some();
        if let Some(id) = self.batch {
            let b = v.batches.iter().rev().find(|b| b.id == id).ok_or_else(|| Missing::new(format!("batch {id} has not run"), format!("배치 {id}이(가) 아직 실행되지 않았습니다")))?;
            if let Some(wm) = &self.batch_watermark {
                let want = parse_timestamp_us(wm).ok().map(|us| us / 1000);
                if b.watermark_ms != want {
                    let got = b.watermark.as_deref();
                    return Err(Missing::new(
                        format!("batch {id} ran with watermark {}, not {wm}", got.unwrap_or("none")),
                        format!("배치 {id}의 워터마크가 {wm}이(가) 아니라 {}였습니다", got.unwrap_or("없음")),
                    ));
                }
            }
            if let Some(n) = self.batch_rows {
                let got = b.rows.len();
                if got != n {
                    return Err(Missing::new(format!("batch {id} emitted {got} rows, not the number this task expects"), format!("배치 {id}이(가) 낸 행은 {got}개로, 이 과제가 기대하는 수와 다릅니다")));
                }
            }
            if let Some(nd) = self.batch_no_data {
                if b.no_data != nd {
                    return Err(if nd {
                        Missing::new(format!("batch {id} read new data: it is not a no-data batch"), format!("배치 {id}은(는) 새 데이터를 읽었습니다. 데이터 없는 배치가 아닙니다"))
                    } else {
                        Missing::new(format!("batch {id} is a no-data batch"), format!("배치 {id}은(는) 데이터 없는 배치입니다"))
                    });
                }
            }
            if let Some(n) = self.batch_dropped {
                let got = b.metrics.first().map(|m| m.dropped);
                if got != Some(n) {
                    return Err(match got {
                        Some(g) => Missing::new(format!("batch {id} dropped {g} late rows, not the number this task expects"), format!("배치 {id}이(가) 버린 늦은 행은 {g}개로, 이 과제가 기대하는 수와 다릅니다")),
                        None => Missing::new(format!("batch {id} has no state operator to drop late rows"), format!("배치 {id}에는 늦은 행을 버릴 상태 연산자가 없습니다")),
                    });
                }
            }
            if let Some(n) = self.batch_state_total {
                let got = b.metrics.first().map(|m| m.total);
                if got != Some(n) {
                    return Err(match got {
                        Some(g) => Missing::new(format!("batch {id} left {g} rows in state, not the number this task expects"), format!("배치 {id} 뒤 상태의 행은 {g}개로, 이 과제가 기대하는 수와 다릅니다")),
                        None => Missing::new(format!("batch {id} has no state operator"), format!("배치 {id}에는 상태 연산자가 없습니다")),
                    });
                }
            }
        } else if batch_keys {
            return Err(Missing::new("batch_* keys need batch", "batch_* 키에는 batch가 필요합니다"));
        }
        Ok(())
    }

    /// True when every key holds.
    pub fn holds(&self, v: &LabView) -> bool {
        self.check(v).is_ok()
    }
}
