//! Time in the lab: the session *as of* a past batch (scrubbing), and the delay slider's scale.
//!
//! # As of batch N
//! The session does not keep a copy of the state store per batch. To show batch N, a copy of
//! the session replays its action log and stops as soon as batch N has run
//! ([`LabSession::view_as_of`]): the engine is deterministic, so the copy's state store, sink,
//! metrics and watermark are exactly what the lab showed right after batch N. A "next step"
//! (`processAllAvailable`) runs its batches one at a time here, so replay can stop between two
//! batches of one step. This costs one replay per change while a past batch is shown (the same
//! as one delay change) and nothing while the lab is live.

use streamlab_engine::streaming::{BatchResult, StreamingQuery, Trigger};
use streamlab_engine::types::CalendarInterval;

use super::{LabView, LabSession};

/// True once replay has run batch `stop_after` (or any later one).
pub(super) fn reached(stop_after: Option<u64>, batches: &[(Option<usize>, BatchResult)]) -> bool {
    match (stop_after, batches.last()) {
        (Some(n), Some((_, b))) => b.batch_id >= n,
        _ => false,
    }
}

/// `processAllAvailable`, one batch at a time, stopping after batch `stop_after` if given.
///
/// A query whose trigger is `once` or `availableNow` runs a step as that trigger does (one
/// batch, or every batch for what is there) and then stops, as the scheduled job it stands
/// for: later steps run nothing until it is restarted on its checkpoint. (Replayed up to a past
/// batch, `availableNow` runs batch by batch and is not stopped: that view is of a batch, not
/// of the query's end.)
pub(super) fn run_all(q: &mut StreamingQuery, stop_after: Option<u64>) -> Vec<BatchResult> {
    if matches!(q.trigger, Trigger::Once) || (matches!(q.trigger, Trigger::AvailableNow) && stop_after.is_none()) {
        return q.fire();
    }
    let mut out: Vec<BatchResult> = Vec::new();
    while out.last().is_none_or(|b| stop_after.is_none_or(|n| b.batch_id < n)) {
        match q.run_next_batch() {
            Some(b) => out.push(b),
            None => break,
        }
    }
    out
}

impl LabSession {
    /// What the page showed right after batch `batch_id` ran: the state store, the sink's
    /// rows, the metrics and the watermark as of that batch, and the batches up to it. A
    /// batch id past the last batch gives the live view.
    pub fn view_as_of(&self, batch_id: u64) -> LabView {
        if self
            .batches
            .last()
            .is_none_or(|(_, b)| b.batch_id <= batch_id)
        {
            return self.view();
        }
        let mut past = self.clone();
        past.stop_after = Some(batch_id);
        past.rebuild();
        past.view()
    }

    /// The time picture as of batch `batch_id` (the same replay as [`LabSession::view_as_of`]):
    /// only the batches up to it, its watermark steps and the state after it.
    pub fn picture_as_of(&self, batch_id: u64) -> crate::lab::picture::Picture {
        if self.batches.last().is_none_or(|(_, b)| b.batch_id <= batch_id) {
            return self.picture();
        }
        let mut past = self.clone();
        past.stop_after = Some(batch_id);
        past.rebuild();
        past.picture()
    }
}

/// The delay slider's stops, as `withWatermark` text: seconds, then minutes, then hours.
/// Finer where delays are usually set (a few minutes), coarser further out.
pub const DELAY_STOPS: &[&str] = &[
    "0 seconds",
    "1 second",
    "5 seconds",
    "10 seconds",
    "30 seconds",
    "1 minute",
    "2 minutes",
    "3 minutes",
    "5 minutes",
    "7 minutes",
    "10 minutes",
    "15 minutes",
    "20 minutes",
    "30 minutes",
    "45 minutes",
    "1 hour",
    "2 hours",
    "3 hours",
    "6 hours",
    "12 hours",
    "24 hours",
];

/// The delay in ms that `text` means to a watermark (months count 31 days), or `None` when it
/// is not an interval.
pub fn delay_ms(text: &str) -> Option<i64> {
    CalendarInterval::parse(text).ok()?.delay_ms().ok()
}

/// The stop of [`DELAY_STOPS`] nearest to `text` (the first one for text that is not an
/// interval), so the slider sits where the typed delay is.
pub fn delay_stop_index(text: &str) -> usize {
    let Some(ms) = delay_ms(text) else { return 0 };
    DELAY_STOPS
        .iter()
        .enumerate()
        .min_by_key(|(_, s)| {
            delay_ms(s).map_or(i64::MAX, |d| d.abs_diff(ms).min(i64::MAX as u64) as i64)
        })
        .map_or(0, |(i, _)| i)
}

/// The slider's next stop above `text`'s delay (`up`) or below it, as `+` and `−` walk the
/// slider in presenter mode: from a typed delay between two stops (8 minutes) `+` goes to the
/// stop above (10 minutes) and `−` to the one below (7 minutes). `None` at either end, or when
/// `text` is not an interval.
pub fn delay_stop_step(text: &str, up: bool) -> Option<&'static str> {
    let ms = delay_ms(text)?;
    let stops = DELAY_STOPS.iter().filter_map(|s| Some((*s, delay_ms(s)?))).collect::<Vec<_>>();
    if up {
        stops.into_iter().find(|&(_, d)| d > ms).map(|(s, _)| s)
    } else {
        stops.into_iter().rev().find(|&(_, d)| d < ms).map(|(s, _)| s)
    }
}

/// The delay a slider move to stop `index` sets when the delay is `current`: that stop, except
/// for a move of one notch from the thumb's stop ([`delay_stop_index`]), which goes to the
/// stop next to `current` on that side ([`delay_stop_step`]). A typed delay between two stops
/// (8 minutes) shows the thumb on the nearer one (7 minutes), and the arrow key down must
/// still give 7 minutes, not the notch below the thumb. `None` for an index past the stops.
pub fn slider_stop(current: &str, index: usize) -> Option<&'static str> {
    let stop = DELAY_STOPS.get(index).copied()?;
    let at = delay_stop_index(current);
    if index.abs_diff(at) == 1 {
        return delay_stop_step(current, index > at).or(Some(stop));
    }
    Some(stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_notch_move_from_a_typed_delay_goes_to_its_neighbour() {
        // 8 minutes sits on the 7-minute notch (9): one notch down is 7 minutes, not 5; one
        // up is 10 minutes.
        assert_eq!(delay_stop_index("8 minutes"), 9);
        assert_eq!(slider_stop("8 minutes", 8), Some("7 minutes"));
        assert_eq!(slider_stop("8 minutes", 10), Some("10 minutes"));
        // 12 minutes sits on 10 (10): down is 10 minutes, up is 15.
        assert_eq!(slider_stop("12 minutes", 9), Some("10 minutes"));
        assert_eq!(slider_stop("12 minutes", 11), Some("15 minutes"));
        // 90 seconds sits on 1 minute (5) or 2 minutes: down from it is 1 minute.
        assert_eq!(slider_stop("90 seconds", delay_stop_index("90 seconds") - 1), Some("1 minute"));
        // 25 hours sits on 24 hours (20): down is 24 hours.
        assert_eq!(slider_stop("25 hours", 19), Some("24 hours"));
        // On a stop, a move is to the stop moved to; a drag further is to that stop.
        assert_eq!(slider_stop("10 minutes", 9), Some("7 minutes"));
        assert_eq!(slider_stop("8 minutes", 4), Some("30 seconds"));
        assert_eq!(slider_stop("8 minutes", 9), Some("7 minutes"));
        assert_eq!(slider_stop("8 minutes", 21), None);
    }

    #[test]
    fn plus_and_minus_walk_the_slider_stops() {
        assert_eq!(delay_stop_step("10 minutes", true), Some("15 minutes"));
        assert_eq!(delay_stop_step("'10 minutes'".trim_matches('\''), false), Some("7 minutes"));
        // Between stops: to the neighbour on that side.
        assert_eq!(delay_stop_step("8 minutes", true), Some("10 minutes"));
        assert_eq!(delay_stop_step("8 minutes", false), Some("7 minutes"));
        assert_eq!(delay_stop_step("interval 1 hour", true), Some("2 hours"));
        assert_eq!(delay_stop_step("30 seconds", true), Some("1 minute"));
        // The ends stay put.
        assert_eq!(delay_stop_step("0 seconds", false), None);
        assert_eq!(delay_stop_step("24 hours", true), None);
        assert_eq!(delay_stop_step("3 days", true), None);
        assert_eq!(delay_stop_step("3 days", false), Some("24 hours"));
        assert_eq!(delay_stop_step("ten minutes", true), None);
    }

    #[test]
    fn stops_are_increasing_intervals() {
        let ms: Vec<i64> = DELAY_STOPS
            .iter()
            .map(|s| delay_ms(s).expect("every stop parses"))
            .collect();
        assert!(ms.windows(2).all(|w| w[0] < w[1]), "{ms:?}");
        // 0 s to 24 h.
        assert_eq!((ms[0], *ms.last().unwrap()), (0, 86_400_000));
    }

    #[test]
    fn a_typed_delay_sits_on_the_nearest_stop() {
        assert_eq!(DELAY_STOPS[delay_stop_index("10 minutes")], "10 minutes");
        // 8 minutes: 7 minutes is 1 min away, 10 minutes 2 min away.
        assert_eq!(DELAY_STOPS[delay_stop_index("8 minutes")], "7 minutes");
        assert_eq!(DELAY_STOPS[delay_stop_index("interval 1 hour")], "1 hour");
        // 3 days is past the last stop.
        assert_eq!(DELAY_STOPS[delay_stop_index("3 days")], "24 hours");
        assert_eq!(delay_stop_index("ten minutes"), 0);
    }
}
