//! The time picture's event-time axis: round steps (1 s … 1 day), ticks, snapping a time to
//! the step a click or a key moves by, and the marks' kind ids the drawing styles by. Times µs.

use streamlab_engine::execution::explain::FateKind;

/// The round steps of the event-time axis, seconds.
const STEPS_S: &[i64] = &[1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/// The smallest round step (µs, 1 s … 1 day) at least `span / n` long.
fn round_step(range: (i64, i64), n: i64) -> i64 {
    let per = (range.1 as i128 - range.0 as i128).max(0) / n.max(1) as i128;
    STEPS_S.iter().map(|s| s * 1_000_000).find(|s| *s as i128 >= per).unwrap_or(86_400_000_000)
}

/// The grain a pointer on the event-time axis snaps to (µs): the smallest round step of at
/// least one pixel of a `width_px`-wide axis over `range` — whole seconds at the finest, so a
/// click or a drag never makes a time like `09:23:10.140845`.
pub fn snap_step(range: (i64, i64), width_px: i32) -> i64 {
    round_step(range, i64::from(width_px.max(1)))
}

/// The step of a keyboard move of a mark (Alt or Shift + ← / →): a round step of about a
/// sixtieth of the axis (1 minute on an hour).
pub fn key_step(range: (i64, i64)) -> i64 {
    round_step(range, 60)
}

/// `t` rounded to the nearest multiple of `step` (µs).
pub fn snap(t: i64, step: i64) -> i64 {
    let step = step.max(1);
    t.saturating_add(step / 2).div_euclid(step).saturating_mul(step)
}

/// The next multiple of `step` after `t` (`forward`) or before it: where a keyboard move goes.
pub fn step_from(t: i64, step: i64, forward: bool) -> i64 {
    let step = step.max(1);
    let base = t.div_euclid(step).saturating_mul(step);
    if forward {
        base.saturating_add(step)
    } else if base < t {
        base
    } else {
        base.saturating_sub(step)
    }
}

/// Tick times for an axis over `range` (µs) with at most `max_ticks` labels: multiples of a
/// round step (1 s … 1 day).
pub fn ticks(range: (i64, i64), max_ticks: usize) -> Vec<i64> {
    let (lo, hi) = range;
    if hi <= lo || max_ticks == 0 {
        return Vec::new();
    }
    let span = (hi - lo) as i128;
    let step = STEPS_S.iter().map(|s| s * 1_000_000).find(|s| span / (*s as i128) < max_ticks as i128).unwrap_or_else(|| {
        // More than `max_ticks` days: whole days, as many as fit.
        let days = (span / (86_400_000_000i128 * max_ticks as i128) + 1) as i64;
        days.saturating_mul(86_400_000_000)
    });
    let first = lo.div_euclid(step).saturating_add(1).saturating_mul(step);
    let mut out = Vec::new();
    let mut t = first;
    while t < hi && out.len() <= max_ticks {
        out.push(t);
        t = t.saturating_add(step);
    }
    out
}

/// A fate kind's name in the page's contract (`data-fate`) and legend: `kept`, `late`,
/// `filtered`, `deduplicated`, `joined` (and `pending` for a row no batch read yet).
pub fn kind_id(kind: Option<FateKind>) -> &'static str {
    match kind {
        None => "pending",
        Some(FateKind::Kept) => "kept",
        Some(FateKind::Late) => "late",
        Some(FateKind::Filtered) => "filtered",
        Some(FateKind::Deduplicated) => "deduplicated",
        Some(FateKind::Joined) => "joined",
    }
}
