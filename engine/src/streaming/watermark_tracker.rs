//! `WatermarkTracker`: advances the global event-time watermark after each batch
//! (`WatermarkTracker.scala`, spec §2.3).

use std::collections::BTreeMap;

use crate::execution::watermark::EventTimeStats;

pub use crate::types::conf::MultipleWatermarkPolicy;

/// Per-operator watermarks and the global one, all in ms.
#[derive(Debug, Clone)]
pub struct WatermarkTracker {
    policy: MultipleWatermarkPolicy,
    /// Delay of each watermark operator, by index.
    delays_ms: Vec<i64>,
    /// Each operator's own watermark; `None` until its input produced a row.
    operator_ms: Vec<Option<i64>>,
    global_ms: i64,
}

impl WatermarkTracker {
    /// A tracker for operators with these delays, starting at watermark 0.
    pub fn new(policy: MultipleWatermarkPolicy, delays_ms: Vec<i64>) -> Self {
        let n = delays_ms.len();
        WatermarkTracker { policy, delays_ms, operator_ms: vec![None; n], global_ms: 0 }
    }

    /// The global watermark in ms.
    pub fn current_ms(&self) -> i64 {
        self.global_ms
    }

    /// Each operator's own watermark (ms), `None` where its input has had no data.
    pub fn operator_watermarks(&self) -> &[Option<i64>] {
        &self.operator_ms
    }

    /// Restores the global value (restart from a checkpoint keeps only the global watermark).
    pub fn set_current_ms(&mut self, ms: i64) {
        self.global_ms = self.global_ms.max(ms);
    }

    /// Folds one batch's event-time stats in: each operator moves to `max - delay` if that
    /// is higher; the policy combines them (an input with no data yet counts as 0); the
    /// global value never decreases.
    ///
    /// # Examples
    /// ```
    /// use std::collections::BTreeMap;
    /// use streamlab_engine::execution::watermark::EventTimeStats;
    /// use streamlab_engine::streaming::{MultipleWatermarkPolicy, WatermarkTracker};
    /// let mut t = WatermarkTracker::new(MultipleWatermarkPolicy::Min, vec![5_000, 0]);
    /// let mut s = EventTimeStats::default();
    /// s.add(20_000);
    /// t.update(&BTreeMap::from([(0, s)]));
    /// assert_eq!(t.current_ms(), 0); // the second input has had no data: min holds at 0
    /// ```
    pub fn update(&mut self, stats: &BTreeMap<usize, EventTimeStats>) {
        for (i, s) in stats {
            if s.count == 0 {
                continue;
            }
            let Some(delay) = self.delays_ms.get(*i) else { continue };
            let candidate = s.max.saturating_sub(*delay);
            let slot = &mut self.operator_ms[*i];
            if slot.is_none_or(|cur| candidate > cur) {
                *slot = Some(candidate);
            }
        }
        let values = self.operator_ms.iter().map(|v| v.unwrap_or(0));
        let chosen = match self.policy {
            MultipleWatermarkPolicy::Min => values.min(),
            MultipleWatermarkPolicy::Max => values.max(),
        };
        if let Some(c) = chosen {
            if c > self.global_ms {
                self.global_ms = c;
            }
        }
    }
}
