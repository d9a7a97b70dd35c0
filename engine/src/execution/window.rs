//! Time-window assignment, as pure functions (`TimeWindowing` in `ResolveTimeWindows.scala`,
//! spec §3.2). All values in µs; start inclusive, end exclusive.

use crate::analysis::WindowSpec;

/// The windows `[start, end)` that contain `ts`, latest first (Spark's generation order).
///
/// # Examples
/// ```
/// use streamlab_engine::analysis::WindowSpec;
/// use streamlab_engine::execution::window::assign_windows;
/// // window(ts, '10 s', '4 s', '2 s') at ts = 13 s → [10,20), [6,16)
/// let s = 1_000_000;
/// let spec = WindowSpec { duration_us: 10 * s, slide_us: 4 * s, start_us: 2 * s };
/// assert_eq!(assign_windows(13 * s, &spec), vec![(10 * s, 20 * s), (6 * s, 16 * s)]);
/// ```
pub fn assign_windows(ts: i64, spec: &WindowSpec) -> Vec<(i64, i64)> {
    let WindowSpec { duration_us, slide_us, start_us } = *spec;
    let rem = (ts - start_us) % slide_us;
    let last_start = ts - if rem < 0 { rem + slide_us } else { rem };
    let n = (duration_us + slide_us - 1) / slide_us;
    (0..n)
        .map(|i| {
            let start = last_start - i * slide_us;
            (start, start + duration_us)
        })
        .filter(|(start, end)| *start <= ts && ts < *end)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: i64 = 1_000_000;

    fn spec(d: i64, s: i64, st: i64) -> WindowSpec {
        WindowSpec { duration_us: d * S, slide_us: s * S, start_us: st * S }
    }

    fn secs(v: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
        v.into_iter().map(|(a, b)| (a / S, b / S)).collect()
    }

    #[test]
    fn spec_examples() {
        // spec §3.2, verified against Spark 4.3.0.
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
        assert_eq!(assign_windows(5 * m, &w), vec![(5 * m, 10 * m)]);
        assert_eq!(assign_windows(5 * m - 1, &w), vec![(0, 5 * m)]);
    }
}
