//! `EventTimeWatermarkExec`: a pass-through that collects event-time statistics
//! (`EventTimeStats` in `EventTimeWatermarkExec.scala`).

/// Max, min, running average and count of event times in ms, exactly as Spark accumulates
/// them (the average is a running mean in `f64`, formatted truncated to a whole ms).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventTimeStats {
    /// The latest event time seen, ms since the epoch (`i64::MIN` before any).
    pub max: i64,
    /// The earliest event time seen, ms since the epoch (`i64::MAX` before any).
    pub min: i64,
    /// The running mean of the event times, ms since the epoch.
    pub avg: f64,
    /// Number of event times added.
    pub count: i64,
}

impl Default for EventTimeStats {
    fn default() -> Self {
        EventTimeStats { max: i64::MIN, min: i64::MAX, avg: 0.0, count: 0 }
    }
}

impl EventTimeStats {
    /// Adds one event time (ms, [`crate::types::EventTime::floor_millis`]). A NULL event time
    /// is recorded as 0, as in Spark.
    pub fn add(&mut self, event_time_ms: i64) {
        self.max = self.max.max(event_time_ms);
        self.min = self.min.min(event_time_ms);
        self.count += 1;
        self.avg += (event_time_ms as f64 - self.avg) / self.count as f64;
    }

    /// The average as Spark reports it: `avg.toLong` (truncated toward zero).
    pub fn avg_ms(&self) -> i64 {
        self.avg as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_average_of_three() {
        // 12:07, 12:08, 12:14 → mean 12:09:40 (the classic case's batch 0).
        let base = 1_767_268_800_000i64; // 2026-01-01T12:00:00Z in ms
        let mut s = EventTimeStats::default();
        for m in [7, 8, 14] {
            s.add(base + m * 60_000);
        }
        assert_eq!(s.avg_ms(), base + 9 * 60_000 + 40_000);
        assert_eq!((s.min, s.max, s.count), (base + 7 * 60_000, base + 14 * 60_000, 3));
    }
}
