//! Time-window assignment, as pure functions (`TimeWindowing` in `ResolveTimeWindows.scala`).
//! All values in µs; start inclusive, end exclusive.

use crate::analysis::WindowSpec;

/// The windows `[start, end)` that contain `ts`, latest first (Spark's generation order).
///
/// Every step is checked like Spark's ANSI arithmetic on the `TimeWindowing` expressions
/// (`ts - startTime`, the remainder's `+ slide`, `ts - rem`, `- i * slide`, `start + duration`):
/// a step that overflows a long for any candidate window fails the batch in Spark with
/// `ARITHMETIC_OVERFLOW` (`Use 'try_subtract' ...`); here it is [`WindowOverflow`] naming the
/// operation. The number of candidates is bounded by `MAX_WINDOWS_PER_ROW` at analysis.
///
/// # Examples
/// ```
/// use streamlab_engine::analysis::WindowSpec;
/// use streamlab_engine::execution::window::assign_windows;
/// // window(ts, '10 s', '4 s', '2 s') at ts = 13 s → [10,20), [6,16)
/// let s = streamlab_engine::types::time::MICROS_PER_SECOND;
/// let spec = WindowSpec { duration_us: 10 * s, slide_us: 4 * s, start_us: 2 * s };
/// assert_eq!(assign_windows(13 * s, &spec), Ok(vec![(10 * s, 20 * s), (6 * s, 16 * s)]));
/// ```
///
/// # Errors
/// [`WindowOverflow`] with the Spark function that would have tolerated the overflow.
pub fn assign_windows(ts: i64, spec: &WindowSpec) -> Result<Vec<(i64, i64)>, WindowOverflow> {
    let mut out = Vec::new();
    assign_windows_into(ts, spec, &mut out)?;
    Ok(out)
}

/// [`assign_windows`] into `out` (cleared first), so a caller looping over rows reuses one
/// buffer. On an overflow `out` holds the windows before it.
///
/// # Errors
/// [`WindowOverflow`], as [`assign_windows`].
pub fn assign_windows_into(ts: i64, spec: &WindowSpec, out: &mut Vec<(i64, i64)>) -> Result<(), WindowOverflow> {
    out.clear();
    let WindowSpec { duration_us, slide_us, start_us } = *spec;
    let sub = |a: i64, b: i64| a.checked_sub(b).ok_or(WindowOverflow("try_subtract"));
    let add = |a: i64, b: i64| a.checked_add(b).ok_or(WindowOverflow("try_add"));
    let rem = sub(ts, start_us)? % slide_us;
    let rem = if rem < 0 { add(rem, slide_us)? } else { rem };
    let last_start = sub(ts, rem)?;
    let n = duration_us / slide_us + i64::from(duration_us % slide_us != 0);
    for i in 0..n {
        let offset = i.checked_mul(slide_us).ok_or(WindowOverflow("try_multiply"))?;
        let start = sub(last_start, offset)?;
        let end = add(start, duration_us)?;
        if start <= ts && ts < end {
            out.push((start, end));
        }
    }
    Ok(())
}

/// A window bound that does not fit a long; the field is the ANSI `try_*` function Spark's
/// `ARITHMETIC_OVERFLOW` message suggests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowOverflow(pub &'static str);

impl WindowOverflow {
    /// Spark's error condition.
    pub const CONDITION: &'static str = "ARITHMETIC_OVERFLOW";

    /// Fails the running batch with this error, as Spark's task does
    /// (`EvalContext::raise`: the query stops with `STREAM_FAILED`).
    pub fn raise(self, cx: &super::context::EvalContext) {
        cx.raise(Self::CONDITION, self.message());
    }

    /// Spark's message, without the `[ARITHMETIC_OVERFLOW]` prefix and the SQLSTATE (22003).
    pub fn message(&self) -> String {
        crate::types::TimeOverflow(self.0).message()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: i64 = crate::types::time::MICROS_PER_SECOND;

    fn spec(d: i64, s: i64, st: i64) -> WindowSpec {
        WindowSpec { duration_us: d * S, slide_us: s * S, start_us: st * S }
    }

    fn secs(v: Result<Vec<(i64, i64)>, WindowOverflow>) -> Vec<(i64, i64)> {
        v.unwrap().into_iter().map(|(a, b)| (a / S, b / S)).collect()
    }

    #[test]
    fn spec_examples() {
        // Verified against Spark 4.3.0.
        assert_eq!(secs(assign_windows(-3 * S, &spec(10, 4, 2))), vec![(-6, 4), (-10, 0)]);
        assert_eq!(secs(assign_windows(2 * S, &spec(10, 4, 2))), vec![(2, 12), (-2, 8), (-6, 4)]);
        assert_eq!(secs(assign_windows(0, &spec(10, 10, -3))), vec![(-3, 7)]);
        assert_eq!(secs(assign_windows(-13 * S, &spec(10, 10, -3))), vec![(-13, -3)]);
        assert_eq!(secs(assign_windows(10 * S, &spec(10, 3, 0))), vec![(9, 19), (6, 16), (3, 13)]);
    }

    #[test]
    fn boundaries_are_start_inclusive() {
        // 12:05 is in [12:05,12:10), not [12:00,12:05).
        let m = 60 * S;
        let w = WindowSpec { duration_us: 5 * m, slide_us: 5 * m, start_us: 0 };
        assert_eq!(assign_windows(5 * m, &w), Ok(vec![(5 * m, 10 * m)]));
        assert_eq!(assign_windows(5 * m - 1, &w), Ok(vec![(0, 5 * m)]));
    }

    #[test]
    fn bounds_that_overflow_are_errors_not_panics() {
        // window('106751991 days', same, '-106751990 days') at 2026-01-01: ts - startTime
        // overflows a long (Spark 4.3: ARITHMETIC_OVERFLOW, "Use 'try_subtract'").
        let day = 86_400 * S;
        let w = WindowSpec { duration_us: 106_751_991 * day, slide_us: 106_751_991 * day, start_us: -106_751_990 * day };
        assert_eq!(assign_windows(1_767_225_600 * S, &w), Err(WindowOverflow("try_subtract")));
        // The largest window starts at the epoch for a 2026 event and ends in range.
        let big = WindowSpec { duration_us: i64::MAX, slide_us: i64::MAX, start_us: 0 };
        assert_eq!(assign_windows(1_767_225_600 * S, &big), Ok(vec![(0, i64::MAX)]));
        // An event near the end of time whose window end overflows.
        let ten = WindowSpec { duration_us: 10 * S, slide_us: 10 * S, start_us: 0 };
        assert_eq!(assign_windows(i64::MAX - 1, &ten), Err(WindowOverflow("try_add")));
    }
}
