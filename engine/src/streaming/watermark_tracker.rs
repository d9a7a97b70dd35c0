//! `WatermarkTracker`: advances the global event-time watermark after each batch
//! (`WatermarkTracker.scala`).

use std::collections::BTreeMap;

use crate::execution::watermark::EventTimeStats;
use crate::types::{DelayMs, WatermarkMs};

pub use crate::types::conf::MultipleWatermarkPolicy;

/// Per-operator watermarks and the global one ([`WatermarkMs`], ms).
#[derive(Debug, Clone)]
pub struct WatermarkTracker {
    policy: MultipleWatermarkPolicy,
    /// Delay of each watermark operator, by index.
    delays: Vec<DelayMs>,
    /// Each operator's own watermark; `None` until its input produced a row.
    operator: Vec<Option<WatermarkMs>>,
    global: WatermarkMs,
}

impl WatermarkTracker {
    /// A tracker for operators with these delays, starting at watermark 0.
    pub fn new(policy: MultipleWatermarkPolicy, delays: Vec<DelayMs>) -> Self {
        let n = delays.len();
        WatermarkTracker { policy, delays, operator: vec![None; n], global: WatermarkMs::ZERO }
    }

    /// The global watermark.
    pub fn current(&self) -> WatermarkMs {
        self.global
    }

    /// Each operator's own watermark, `None` where its input has had no data.
    pub fn operator_watermarks(&self) -> &[Option<WatermarkMs>] {
        &self.operator
    }

    /// Restores the global value (restart from a checkpoint keeps only the global watermark).
    pub fn set_current(&mut self, wm: WatermarkMs) {
        self.global = self.global.max(wm);
    }

    /// Folds one batch's event-time stats in: each operator moves to `max - delay`
    /// ([`WatermarkMs::from_max`]) if that is higher; the policy combines them (an input with no data yet counts as 0); the
    /// global value never decreases.
    ///
    /// # Examples
    /// ```
    /// use std::collections::BTreeMap;
    /// use streamlab_engine::execution::watermark::EventTimeStats;
    /// use streamlab_engine::streaming::{MultipleWatermarkPolicy, WatermarkTracker};
    /// use streamlab_engine::types::{DelayMs, WatermarkMs};
    /// let mut t = WatermarkTracker::new(MultipleWatermarkPolicy::Min, vec![DelayMs::from_ms(5_000), DelayMs::from_ms(0)]);
    /// let mut s = EventTimeStats::default();
    /// s.add(20_000);
    /// t.update(&BTreeMap::from([(0, s)]));
    /// assert_eq!(t.current(), WatermarkMs::ZERO); // the second input has had no data: min holds at 0
    /// ```
    pub fn update(&mut self, stats: &BTreeMap<usize, EventTimeStats>) {
        for (i, s) in stats {
            if s.count == 0 {
                continue;
            }
            let Some(delay) = self.delays.get(*i) else { continue };
            let candidate = WatermarkMs::from_max(s.max, *delay);
            let slot = &mut self.operator[*i];
            if slot.is_none_or(|cur| candidate > cur) {
                *slot = Some(candidate);
            }
        }
        let values = self.operator.iter().map(|v| v.unwrap_or(WatermarkMs::ZERO));
        let chosen = match self.policy {
            MultipleWatermarkPolicy::Min => values.min(),
            MultipleWatermarkPolicy::Max => values.max(),
        };
        if let Some(c) = chosen {
            if c > self.global {
                self.global = c;
            }
        }
    }
}
