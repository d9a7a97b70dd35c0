//! The time picture's words: each batch narrated and each row's fate told, in English and
//! Korean, from the engine's explanations (never decided here). Times on the scenario's day.

use streamlab_engine::execution::explain::{BatchReason, FateKind, JoinSide, RowFate};
use streamlab_engine::types::{Row, Value};

use crate::lab::cells::display_cell;
use crate::text::i18n::{count_en, particles, was_en};
use crate::text::Lang;

use super::{row_text, Band, KeyColumns};

fn t(day_us: i64, us: i64) -> String {
    display_cell(&Value::Timestamp(us), day_us)
}

fn wm(day_us: i64, ms: i64) -> String {
    t(day_us, ms.saturating_mul(1000))
}

fn win(day_us: i64, w: (i64, i64)) -> String {
    format!("[{}, {})", t(day_us, w.0), t(day_us, w.1))
}

/// A key with its column names, `user_id = u3, post_id = 1` (the values alone when the names
/// are unknown or do not fit).
fn key_text(key: &Row, names: Option<&Vec<String>>, day_us: i64) -> String {
    match names.filter(|n| n.len() == key.len()) {
        Some(names) => names.iter().zip(key).map(|(n, v)| format!("{n} = {}", display_cell(v, day_us))).collect::<Vec<_>>().join(", "),
        None => row_text(key, day_us),
    }
}

/// One fate as a sentence, with the rule that decided it; `keys` names the key values of
/// each operator ([`Picture::key_columns`](super::Picture::key_columns)).
pub fn fate_text(f: &RowFate, lang: Lang, day_us: i64, keys: &KeyColumns) -> String {
    let text = fate_text_with_particles_open(f, lang, day_us, keys);
    if lang == Lang::Ko { particles(&text) } else { text }
}

/// [`fate_text`] with the Korean particles after values still written for either case.
fn fate_text_with_particles_open(f: &RowFate, lang: Lang, day_us: i64, keys: &KeyColumns) -> String {
    let ko = lang == Lang::Ko;
    match f {
        RowFate::Filtered { predicate } => {
            if ko {
                format!("걸러짐: 조건 {predicate}을(를) 만족하지 않음")
            } else {
                format!("filtered: it does not satisfy {predicate}")
            }
        }
        RowFate::Late { operator, event_time_us, watermark_ms, window, .. } => match window {
            Some(w) => {
                if ko {
                    format!("늦은 데이터: 윈도우 {}의 끝 ≤ 이전 배치의 워터마크 {}, 그래서 {operator}에서 버림 (eventTimeWatermarkForLateEvents)", win(day_us, *w), wm(day_us, *watermark_ms))
                } else {
                    format!("late: {operator} dropped it because its window {} ends at or before the previous batch's watermark {} (eventTimeWatermarkForLateEvents)", win(day_us, *w), wm(day_us, *watermark_ms))
                }
            }
            None => {
                if ko {
                    format!("늦은 데이터: 이벤트 시간 {} ≤ 이전 배치의 워터마크 {}, 그래서 {operator}에서 버림 (eventTimeWatermarkForLateEvents)", t(day_us, *event_time_us), wm(day_us, *watermark_ms))
                } else {
                    format!("late: {operator} dropped it because its event time {} is at or before the previous batch's watermark {} (eventTimeWatermarkForLateEvents)", t(day_us, *event_time_us), wm(day_us, *watermark_ms))
                }
            }
        },
        RowFate::Aggregated { op_id, key, window } => {
            let empty = key.is_empty();
            let key = key_text(key, keys.get(op_id), day_us);
            match (window, ko) {
                (Some(w), false) if empty => format!("aggregated into window {} (no grouping column besides the window)", win(day_us, *w)),
                (Some(w), true) if empty => format!("윈도우 {}에 집계됨 (윈도우 말고 그룹 열 없음)", win(day_us, *w)),
                (Some(w), false) => format!("aggregated into window {} (group {key})", win(day_us, *w)),
                (Some(w), true) => format!("윈도우 {}에 집계됨 (그룹 {key})", win(day_us, *w)),
                (None, false) if empty => "aggregated into the one group (no grouping column)".to_string(),
                (None, true) if empty => "하나뿐인 그룹에 집계됨 (그룹 열 없음)".to_string(),
                (None, false) => format!("aggregated into group {key}"),
                (None, true) => format!("그룹 {key}에 집계됨"),
            }
        }
        RowFate::Deduplicated { op_id, key, in_batch, expires_at_us } => {
            let key = key_text(key, keys.get(op_id), day_us);
            let until = expires_at_us.map(|e| t(day_us, e));
            match ko {
                false => format!(
                    "deduplicated: key {key} was already seen {}; the key is kept {}",
                    if *in_batch { "earlier in this batch" } else { "in the state store" },
                    until.map_or("forever (no watermark)".to_string(), |u| format!("until the watermark passes {u}"))
                ),
                true => format!(
                    "중복 제거: 키 {key}, 이미 {} 봤음; 키는 {}",
                    if *in_batch { "이번 배치 앞부분에서" } else { "상태 저장소에서" },
                    until.map_or("영원히 남음 (워터마크 없음)".to_string(), |u| format!("워터마크가 {u}을(를) 지날 때까지 남음"))
                ),
            }
        }
        RowFate::FirstOfKey { op_id, key, expires_at_us } => {
            let key = key_text(key, keys.get(op_id), day_us);
            let until = expires_at_us.map(|e| t(day_us, e));
            match ko {
                false => format!("kept: the first row of key {key}; the key is kept {}", until.map_or("forever (no watermark)".to_string(), |u| format!("until the watermark passes {u}"))),
                true => format!("유지: 키 {key}의 첫 행; 키는 {}", until.map_or("영원히 남음 (워터마크 없음)".to_string(), |u| format!("워터마크가 {u}을(를) 지날 때까지 남음"))),
            }
        }
        RowFate::Joined { side, partners, evicts_at_us, .. } => {
            let side_en = if *side == JoinSide::Left { "left" } else { "right" };
            let until = evicts_at_us.map(|e| t(day_us, e));
            match ko {
                false => format!(
                    "buffered on the {side_en} side, matched with {} of the other side; {}",
                    count_en(*partners as u64, "row"),
                    until.map_or("kept forever (no state watermark on this side)".to_string(), |u| format!("removed from state when the state watermark passes {u}"))
                ),
                true => format!(
                    "{side_en} 쪽 상태에 보관, 반대쪽 행 {partners}개와 조인됨; {}",
                    until.map_or("영원히 남음 (이쪽에 상태 워터마크 없음)".to_string(), |u| format!("상태 워터마크가 {u}을(를) 지나면 상태에서 제거"))
                ),
            }
        }
        RowFate::NoStaticMatch => if ko { "걸러짐: 정적 테이블에 맞는 행이 없음 (inner 조인)".into() } else { "filtered: no static row matches it (inner join)".into() },
        RowFate::OverLimit { .. } => if ko { "출력 안 됨: limit이 이미 행 수를 모두 채움 (조건으로 걸러진 것이 아님)".into() } else { "not emitted: the limit had already emitted all its rows (not filtered by a condition)".into() },
        RowFate::Emitted { index } => if ko { format!("싱크로 출력됨 (배치의 {}번째 행)", index + 1) } else { format!("emitted to the sink (row {} of the batch)", index + 1) },
    }
}

/// One paragraph saying why the batch ran, what it emitted, dropped and evicted, and where
/// the watermark went, built from the engine's explanation (or, without one, from the batch's
/// numbers alone).
pub fn narrate(band: &Band, next_watermark_ms: Option<i64>, lang: Lang, day_us: i64) -> String {
    let ko = lang == Lang::Ko;
    let id = band.batch_id;
    let mut out = Vec::new();
    let reason = band.explanation.as_ref().map(|e| e.reason.clone());
    out.push(match (reason, ko) {
        (Some(BatchReason::WatermarkMoved { from_ms, to_ms, operator, .. }), false) => {
            format!("Batch {id} ran without new data because the watermark moved from {} to {}, and {operator} uses it (shouldRunAnotherBatch).", wm(day_us, from_ms), wm(day_us, to_ms))
        }
        (Some(BatchReason::WatermarkMoved { from_ms, to_ms, operator, .. }), true) => {
            format!("배치 {id}: 데이터 없는 배치입니다. 워터마크가 {}에서 {}(으)로 움직였고 {operator}이(가) 워터마크를 쓰기 때문에 실행되었습니다(shouldRunAnotherBatch).", wm(day_us, from_ms), wm(day_us, to_ms))
        }
        (Some(BatchReason::ProcessingTimeTimeout { operator, clock_ms, .. }), false) => {
            format!("Batch {id} ran without new data because the processing-time clock ({} s) passed a key's timeout in {operator}.", clock_ms / 1000)
        }
        (Some(BatchReason::ProcessingTimeTimeout { operator, clock_ms, .. }), true) => {
            format!("배치 {id}: 데이터 없는 배치입니다. 처리 시간 시계({}초)가 {operator}의 키 타임아웃을 지나서 실행되었습니다.", clock_ms / 1000)
        }
        (Some(BatchReason::Recovered), false) => format!("Batch {id} ran again exactly as logged before the restart."),
        (Some(BatchReason::Recovered), true) => format!("배치 {id}: 재시작 전에 기록된 그대로 다시 실행되었습니다."),
        (Some(BatchReason::NewData { rows }), false) => format!("Batch {id} ran because {} arrived.", count_en(rows, "new row")),
        (Some(BatchReason::NewData { rows }), true) => format!("배치 {id}: 새 행 {rows}개가 들어와서 실행되었습니다."),
        (None, false) if band.no_data => format!("Batch {id} ran without new data because the watermark moved."),
        (None, true) if band.no_data => format!("배치 {id}: 워터마크가 움직여서 실행된 데이터 없는 배치입니다."),
        (None, false) => format!("Batch {id} ran because {} arrived.", count_en(band.input_rows, "new row")),
        (None, true) => format!("배치 {id}: 새 행 {}개가 들어와서 실행되었습니다.", band.input_rows),
    });
    match band.watermark_ms {
        // Spark's initial watermark: 0, the epoch, until a batch with data sets one.
        Some(0) => out.push(if ko { "아직 워터마크 없이 실행되었습니다 (Spark는 0, 즉 1970-01-01T00:00:00Z로 보고).".to_string() } else { "It ran with no watermark yet (Spark reports 0, 1970-01-01T00:00:00Z).".to_string() }),
        Some(w) => out.push(if ko { format!("실행 시 워터마크: {}.", wm(day_us, w)) } else { format!("It ran with the watermark at {}.", wm(day_us, w)) }),
        None => {}
    }
    if let Some(ex) = &band.explanation {
        let count = |k: FateKind| ex.rows.iter().filter(|r| r.kind() == k).count();
        // Rows a limit turned away share the "filtered" mark in the picture, but the narration
        // says what stopped them: the limit's count, not a condition.
        let over_limit = ex
            .rows
            .iter()
            .filter(|r| r.kind() == FateKind::Filtered && r.fates.iter().filter(|f| f.kind() == FateKind::Filtered).all(|f| matches!(f, RowFate::OverLimit { .. })))
            .count();
        let (late, dedup) = (count(FateKind::Late), count(FateKind::Deduplicated));
        let filtered = count(FateKind::Filtered) - over_limit;
        if late > 0 {
            out.push(if ko {
                format!("늦은 행 {late}개를 버렸습니다 (numRowsDroppedByWatermark {}).", band.dropped_rows)
            } else {
                format!("It dropped {} (numRowsDroppedByWatermark {}).", count_en(late as u64, "late row"), band.dropped_rows)
            });
            // The metric counts the state operator's input rows: after a partial aggregation,
            // one per late group (window and key), and a row in two sliding windows twice
            // — so it need not equal the late input rows.
            if late as u64 != band.dropped_rows {
                out.push(if ko {
                    "numRowsDroppedByWatermark는 입력 행이 아니라 상태 연산자에 들어가는 행을 셉니다: 부분 집계 뒤라 늦은 그룹(윈도우와 키)마다 하나이고, 슬라이딩 윈도우 두 개에 든 행은 두 번 셉니다.".to_string()
                } else {
                    "numRowsDroppedByWatermark counts the rows reaching the state operator, not input rows: after the partial aggregation there is one per late group (window and key), and a row in two sliding windows counts twice.".to_string()
                });
            }
        }
        if filtered > 0 {
            out.push(if ko { format!("행 {filtered}개가 걸러졌습니다.") } else { format!("{} {} filtered out.", count_en(filtered as u64, "row"), was_en(filtered as u64)) });
        }
        if over_limit > 0 {
            out.push(if ko {
                format!("limit이 이미 행 수를 채워서 행 {over_limit}개는 출력되지 않았습니다.")
            } else {
                format!("{} {} not emitted: the limit had already emitted all its rows.", count_en(over_limit as u64, "row"), was_en(over_limit as u64))
            });
        }
        if dedup > 0 {
            out.push(if ko { format!("중복 행 {dedup}개를 버렸습니다.") } else { format!("{} {} dropped.", count_en(dedup as u64, "duplicate row"), was_en(dedup as u64)) });
        }
    } else if band.dropped_rows > 0 {
        out.push(if ko { format!("늦은 행 {}개를 버렸습니다 (numRowsDroppedByWatermark).", band.dropped_rows) } else { format!("It dropped {} (numRowsDroppedByWatermark).", count_en(band.dropped_rows, "late row")) });
    }
    out.push(if ko {
        format!("행 {}개를 출력하고 상태 행 {}개를 상태에서 제거했습니다.", band.emitted_rows, band.removed_rows)
    } else {
        format!("It emitted {} and removed {}.", count_en(band.emitted_rows, "row"), count_en(band.removed_rows, "state row"))
    });
    let after = band.explanation.as_ref().and_then(|e| e.next_watermark_ms).or(next_watermark_ms);
    if let Some(n) = after.filter(|n| Some(*n) != band.watermark_ms) {
        out.push(if ko { format!("이 배치가 끝나면 워터마크가 올라갑니다: {}.", wm(day_us, n)) } else { format!("After it, the watermark moves to {}.", wm(day_us, n)) });
    }
    let text = out.join(" ");
    if ko { particles(&text) } else { text }
}
