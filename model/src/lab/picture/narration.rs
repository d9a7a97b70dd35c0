//! The time picture's words: each batch narrated and each row's fate told in the learner's
//! language (the label tables' `fate.text.*` and `narr.*` sentences), from the engine's
//! explanations (never decided here). Times on the scenario's day.

use streamlab_engine::execution::explain::{BatchReason, FateKind, JoinSide, RowFate};
use streamlab_engine::types::{Row, Value};

use crate::lab::cells::display_cell;
use crate::text::i18n::{tr, tr_with};
use crate::text::Lang;

use super::{row_text, Band, KeyColumns};

fn t(day_us: i64, us: i64) -> String {
    display_cell(&Value::Timestamp(us), day_us)
}

/// A watermark as the lab writes times; Spark's 0 before any event time is seen is
/// "0 (none yet)", not 1970-01-01T00:00:00Z.
fn wm(lang: Lang, day_us: i64, ms: i64) -> String {
    if ms == 0 {
        return tr(lang, "cond.wm_zero").to_string();
    }
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
    // How long a key stays in the state store, a part of the dedup sentences.
    let kept = |until: Option<String>| match until {
        Some(t) => tr_with(lang, "fate.text.kept_until", &[("t", &t)]),
        None => tr(lang, "fate.text.kept_forever").to_string(),
    };
    match f {
        RowFate::Filtered { predicate } => tr_with(lang, "fate.text.filtered", &[("predicate", predicate)]),
        RowFate::Late { operator, event_time_us, watermark_ms, window, .. } => match window {
            Some(w) => tr_with(lang, "fate.text.late_window", &[("op", operator), ("w", &win(day_us, *w)), ("wm", &wm(lang, day_us, *watermark_ms))]),
            None => tr_with(lang, "fate.text.late", &[("op", operator), ("t", &t(day_us, *event_time_us)), ("wm", &wm(lang, day_us, *watermark_ms))]),
        },
        RowFate::Aggregated { op_id, key, window } => {
            let empty = key.is_empty();
            let key = key_text(key, keys.get(op_id), day_us);
            match window {
                Some(w) if empty => tr_with(lang, "fate.text.aggregated_window_only", &[("w", &win(day_us, *w))]),
                Some(w) => tr_with(lang, "fate.text.aggregated_window", &[("w", &win(day_us, *w)), ("key", &key)]),
                None if empty => tr(lang, "fate.text.aggregated_one_group").to_string(),
                None => tr_with(lang, "fate.text.aggregated_group", &[("key", &key)]),
            }
        }
        RowFate::Deduplicated { op_id, key, in_batch, expires_at_us } => {
            let key = key_text(key, keys.get(op_id), day_us);
            let seen = tr(lang, if *in_batch { "fate.text.seen_in_batch" } else { "fate.text.seen_in_state" });
            let until = kept(expires_at_us.map(|e| t(day_us, e)));
            tr_with(lang, "fate.text.deduplicated", &[("key", &key), ("seen", &seen), ("until", &until)])
        }
        RowFate::FirstOfKey { op_id, key, expires_at_us } => {
            let key = key_text(key, keys.get(op_id), day_us);
            let until = kept(expires_at_us.map(|e| t(day_us, e)));
            tr_with(lang, "fate.text.first_of_key", &[("key", &key), ("until", &until)])
        }
        RowFate::Joined { side, partners, evicts_at_us, .. } => {
            // Spark's names for the sides, in every language.
            let side = if *side == JoinSide::Left { "left" } else { "right" };
            let until = match evicts_at_us {
                Some(e) => tr_with(lang, "fate.text.joined_until", &[("t", &t(day_us, *e))]),
                None => tr(lang, "fate.text.joined_forever").to_string(),
            };
            tr_with(lang, "fate.text.joined", &[("side", &side), ("n", partners), ("until", &until)])
        }
        RowFate::NoStaticMatch => tr(lang, "fate.text.no_static_match").to_string(),
        RowFate::OverLimit { .. } => tr(lang, "fate.text.over_limit").to_string(),
        RowFate::Emitted { index } => tr_with(lang, "fate.text.emitted", &[("n", &(index + 1))]),
    }
}

/// One paragraph saying why the batch ran, what it emitted, dropped and evicted, and where
/// the watermark went, built from the engine's explanation (or, without one, from the batch's
/// numbers alone).
pub fn narrate(band: &Band, next_watermark_ms: Option<i64>, lang: Lang, day_us: i64) -> String {
    let id = band.batch_id;
    let mut out = Vec::new();
    let reason = band.explanation.as_ref().map(|e| e.reason.clone());
    out.push(match reason {
        Some(BatchReason::WatermarkMoved { from_ms, to_ms, operator, .. }) => {
            tr_with(lang, "narr.watermark_moved", &[("id", &id), ("from", &wm(lang, day_us, from_ms)), ("to", &wm(lang, day_us, to_ms)), ("op", &operator)])
        }
        Some(BatchReason::ProcessingTimeTimeout { operator, clock_ms, .. }) => tr_with(lang, "narr.timeout", &[("id", &id), ("s", &(clock_ms / 1000)), ("op", &operator)]),
        Some(BatchReason::Recovered) => tr_with(lang, "narr.recovered", &[("id", &id)]),
        Some(BatchReason::NewData { rows }) => tr_with(lang, "narr.new_data", &[("id", &id), ("n", &rows)]),
        None if band.no_data => tr_with(lang, "narr.no_data", &[("id", &id)]),
        None => tr_with(lang, "narr.new_data", &[("id", &id), ("n", &band.input_rows)]),
    });
    match band.watermark_ms {
        // Spark's initial watermark: 0, the epoch, until a batch with data sets one.
        Some(0) => out.push(tr(lang, "narr.no_watermark_yet").to_string()),
        Some(w) => out.push(tr_with(lang, "narr.ran_with_watermark", &[("wm", &wm(lang, day_us, w))])),
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
            out.push(tr_with(lang, "narr.dropped_late", &[("n", &late), ("metric", &band.dropped_rows)]));
            // The metric counts the state operator's input rows: after a partial aggregation,
            // one per late group (window and key), and a row in two sliding windows twice
            // — so it need not equal the late input rows.
            if late as u64 != band.dropped_rows {
                out.push(tr(lang, "narr.dropped_metric_counts").to_string());
            }
        }
        if filtered > 0 {
            out.push(tr_with(lang, "narr.filtered", &[("n", &filtered)]));
        }
        if over_limit > 0 {
            out.push(tr_with(lang, "narr.over_limit", &[("n", &over_limit)]));
        }
        if dedup > 0 {
            out.push(tr_with(lang, "narr.deduplicated", &[("n", &dedup)]));
        }
    } else if band.dropped_rows > 0 {
        out.push(tr_with(lang, "narr.dropped_late_metric", &[("n", &band.dropped_rows)]));
    }
    out.push(tr_with(lang, "narr.emitted_removed", &[("n", &band.emitted_rows), ("removed", &band.removed_rows)]));
    let after = band.explanation.as_ref().and_then(|e| e.next_watermark_ms).or(next_watermark_ms);
    if let Some(n) = after.filter(|n| Some(*n) != band.watermark_ms) {
        out.push(tr_with(lang, "narr.watermark_next", &[("wm", &wm(lang, day_us, n))]));
    }
    out.join(" ")
}
