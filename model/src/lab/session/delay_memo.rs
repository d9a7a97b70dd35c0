//! The delay slider's replays, kept and made ahead: a slider step whose delay has been replayed
//! already is a swap, not a replay of every batch.
//!
//! Moving the slider changes only the query text's delay; every other input of the replay
//! (the scenario, the action log, the mode, the trigger, the sink, the checkpoint setting) stays.
//! So the session each delay gives can be kept, by its query text, for as long as nothing else
//! changes: [`LabSession::rebuild`] and [`LabSession::apply`] empty the memo, and only
//! [`LabSession::set_delay`] and [`LabSession::prepare_delay`] fill it. The page asks for the
//! stops around the slider's while the browser is idle, so the learner's next steps find their
//! replay made. The engine is deterministic: a kept session is the one a replay would make
//! (`tests/delay_memo.rs` checks every stop against a fresh replay).

use super::timeline::{delay_stop_index, DELAY_STOPS};
use super::{Action, LabSession};

/// At most this many sessions are kept: every stop of the slider
/// ([`super::timeline::DELAY_STOPS`]) and the one the learner typed; the oldest goes first.
const MEMO_CAP: usize = 24;

/// Sessions are kept only while the learner's log adds at most this many rows in all: each
/// kept session holds its own state and results, and a replay over more rows is too long to
/// make in one idle moment of the browser.
pub const MEMO_MAX_ROWS: usize = 5_000;

/// Sessions replayed with another delay, by their query text ([`LabSession::set_query`]'s).
/// A copy of a session keeps none of them (`Clone` gives an empty memo): the copies that
/// [`LabSession::view_as_of`] and [`LabSession::prepare_delay`] make need none.
#[derive(Default)]
pub(super) struct DelayMemo(Vec<(String, LabSession)>);

impl std::fmt::Debug for DelayMemo {
    /// How many are kept: each is a whole session.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DelayMemo({} kept)", self.0.len())
    }
}

impl Clone for DelayMemo {
    fn clone(&self) -> Self {
        DelayMemo::default()
    }
}

impl DelayMemo {
    /// Takes out the session kept for `text`, if one is.
    fn take(&mut self, text: &str) -> Option<LabSession> {
        let i = self.0.iter().position(|(t, _)| t == text)?;
        Some(self.0.remove(i).1)
    }

    fn holds(&self, text: &str) -> bool {
        self.0.iter().any(|(t, _)| t == text)
    }

    /// Keeps `session` under its query text when it is what [`LabSession::set_query`] with that
    /// text would make: no restart in its log runs a text of its own (`set_query` makes every
    /// run the edited text). The oldest kept session goes when the memo is full.
    fn keep(&mut self, mut session: LabSession) {
        let own_texts = session.actions.iter().any(|a| matches!(a, Action::Restart { query: Some(_) }));
        if own_texts || session.query_text != session.base_text || self.holds(&session.base_text) {
            return;
        }
        session.delay_memo = DelayMemo::default();
        if self.0.len() >= MEMO_CAP {
            self.0.remove(0);
        }
        self.0.push((session.base_text.clone(), session));
    }

    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}

impl LabSession {
    /// The query text with its `index`-th `withWatermark` delay set to `delay`.
    ///
    /// # Errors
    /// `delay` is not an interval, the scenario's sources make no catalog, or the query has no
    /// such `withWatermark`.
    pub(super) fn text_with_delay(&self, index: usize, delay: &str) -> Result<String, String> {
        streamlab_engine::types::CalendarInterval::parse(delay).map_err(|e| e.to_string())?;
        // The spans come from compiling the text against the catalog, so without a catalog
        // there are none, and that is the error to give (built only then: the slider's idle
        // work asks for every stop's text).
        let Some(span) = self.delay_spans.get(index).copied() else {
            self.scenario.catalog().map_err(|e| e.to_string())?;
            return Err("the query has no such withWatermark".into());
        };
        // As the text field shows it: no spaces around it, no quotes in it.
        let quoted = format!("'{}'", delay.trim().replace(['\'', '"', '\\'], ""));
        let mut text = self.query_text.clone();
        text.replace_range(span.start..span.end, &quoted);
        Ok(text)
    }

    /// True while the lab keeps the sessions other delays give ([`MEMO_MAX_ROWS`]).
    fn memo_fits(&self) -> bool {
        let rows: usize = self.actions.iter().map(|a| if let Action::Add { rows, .. } = a { rows.len() } else { 0 }).sum();
        rows <= MEMO_MAX_ROWS
    }

    /// Becomes the session kept for `text`, keeping this one in its place; false (and nothing
    /// changed) when none is kept for it.
    pub(super) fn swap_in_kept(&mut self, text: &str) -> bool {
        let mut memo = std::mem::take(&mut self.delay_memo);
        let Some(mut kept) = memo.take(text) else {
            self.delay_memo = memo;
            return false;
        };
        std::mem::swap(self, &mut kept);
        memo.keep(kept);
        self.delay_memo = memo;
        true
    }

    /// Compiles `text` for the replay that follows ([`LabSession::set_query`] takes it from
    /// `compiled_next`): one compile per slider step instead of four.
    ///
    /// # Errors
    /// Spark's error when the text does not compile (a delay `withWatermark` refuses).
    pub(super) fn compile_for_delay(&mut self, text: &str) -> Result<(), String> {
        let catalog = self.scenario.catalog().map_err(|e| e.to_string())?;
        let (compiled, traced) = streamlab_engine::frontend::compile_traced(text, &catalog);
        if let Err(e) = &compiled {
            return Err(super::error_view(e, text).message);
        }
        self.compiled_next = Some((text.to_string(), super::CompiledText { catalog_ok: true, compiled, traced }));
        Ok(())
    }

    /// Replays `text` (compiled by [`LabSession::compile_for_delay`]), keeping the session it
    /// replaces for a later step back to its delay.
    pub(super) fn replay_keeping(&mut self, text: &str) {
        let memo = std::mem::take(&mut self.delay_memo);
        let before = self.memo_fits().then(|| self.clone());
        self.set_query(text);
        self.delay_memo = memo;
        if let Some(before) = before {
            self.delay_memo.keep(before);
        }
    }

    /// Replays the query with its `index`-th `withWatermark` delay set to `delay` and keeps the
    /// result, so that [`LabSession::set_delay`] to it later is a swap. What the page shows does
    /// not change. The page calls it while the browser is idle, for the slider's stops nearest
    /// the current one. Returns true when it replayed; false when there was nothing to do: that
    /// delay is kept already or is the current one, the delay or the query is refused, or the
    /// log adds more than [`MEMO_MAX_ROWS`] rows.
    pub fn prepare_delay(&mut self, index: usize, delay: &str) -> bool {
        let Ok(text) = self.text_with_delay(index, delay) else { return false };
        if text == self.base_text || self.delay_memo.holds(&text) || !self.memo_fits() {
            return false;
        }
        let mut other = self.clone();
        if other.compile_for_delay(&text).is_err() {
            return false;
        }
        other.set_query(&text);
        self.delay_memo.keep(other);
        true
    }

    /// Prepares the slider stop nearest its current one that is not kept yet
    /// ([`LabSession::prepare_delay`]), for each `withWatermark` in turn; false when there is
    /// none left to prepare (or the log is too long to keep them).
    pub fn prepare_next_stop(&mut self) -> bool {
        if !self.memo_fits() {
            return false;
        }
        for index in 0..self.delays.len() {
            let at = delay_stop_index(&self.delays[index]);
            let mut stops: Vec<usize> = (0..DELAY_STOPS.len()).collect();
            // Nearest first; of two as near, the one below (a drag goes either way).
            stops.sort_by_key(|&k| (k.abs_diff(at), k > at));
            if stops.into_iter().any(|k| self.prepare_delay(index, DELAY_STOPS[k])) {
                return true;
            }
        }
        false
    }

    /// How many sessions with other delays are kept (for tests and the profile).
    pub fn kept_delays(&self) -> usize {
        self.delay_memo.0.len()
    }
}
