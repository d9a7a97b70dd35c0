//! `PropagateWatermarkSimulator`: the watermark each stateful operator of a plan gets from
//! the global one (`WatermarkPropagator.scala`).
//!
//! The global watermark `G` is what `EventTimeWatermarkExec` nodes output; it flows up the
//! plan: a stateless node passes on the minimum of its children's watermarks (children
//! without one are ignored), a stateful node takes that minimum as its *input* watermark and
//! outputs `produceOutputWatermark(input)`: the same value for aggregations, deduplication and
//! limits, and for a stream-stream join the minimum of its two state watermarks and its
//! input, so a window aggregation after a time-range join waits for the join's slack. A
//! batch uses the propagation of `wm(N)` for eviction and that of `wm(N-1)` for late rows.

use std::collections::BTreeMap;

use crate::analysis::{Node, Plan, StateWatermark};
use crate::types::WatermarkMs;

/// `_LEGACY_ERROR_TEMP_3076`: a watermark defined downstream of another one.
pub const REDEFINING_WATERMARK: &str = "Redefining watermark is disallowed. You can set the config 'spark.sql.streaming.statefulOperator.allowMultiple' to 'false' to restore the previous behavior. Note that multiple stateful operators will be disallowed.";

/// The input watermark of every stateful operator, by operator id, when the global
/// watermark is `origin`. An operator whose input carries no watermark gets 0. When the
/// origin is 0 Spark skips the simulation and every operator gets 0 (an empty map here).
///
/// # Errors
/// [`REDEFINING_WATERMARK`] when an `EventTimeWatermark` node sees a watermark coming from
/// below it; raised only for a non-zero origin, as in Spark.
///
/// # Examples
/// A plan without stateful operators yields an empty map; so does a zero origin.
/// ```
/// use streamlab_engine::analysis::{Node, Plan};
/// use streamlab_engine::streaming::watermark_propagator::propagate;
/// use streamlab_engine::types::WatermarkMs;
/// let src = Plan { node: Node::Source { name: "s".into(), index: 0 }, output: vec![], streaming: true };
/// assert!(propagate(&src, WatermarkMs::ZERO).unwrap().is_empty());
/// ```
pub fn propagate(plan: &Plan, origin: WatermarkMs) -> Result<BTreeMap<usize, WatermarkMs>, &'static str> {
    let mut inputs = BTreeMap::new();
    if origin == WatermarkMs::ZERO {
        return Ok(inputs);
    }
    output_watermark(plan, origin, &mut inputs)?;
    Ok(inputs)
}

/// The watermark `plan` outputs, recording each stateful operator's input watermark.
fn output_watermark(plan: &Plan, origin: WatermarkMs, inputs: &mut BTreeMap<usize, WatermarkMs>) -> Result<Option<WatermarkMs>, &'static str> {
    let mut children = Vec::new();
    for c in plan.children() {
        children.push(output_watermark(c, origin, inputs)?);
    }
    let input = children.iter().flatten().copied().min();
    Ok(match &plan.node {
        Node::Watermark { .. } => {
            if input.is_some() {
                return Err(REDEFINING_WATERMARK);
            }
            Some(origin)
        }
        Node::Aggregate { op_id, .. } | Node::Dedup { op_id, .. } | Node::Limit { op_id, .. } => {
            inputs.insert(*op_id, input.unwrap_or(WatermarkMs::ZERO).max(WatermarkMs::ZERO));
            input
        }
        // `applyInPandasWithState` outputs no watermark (`produceOutputWatermark`);
        // nor does `transformWithState` without `eventTimeColumnName` (not supported here).
        Node::FlatMapGroupsWithState { op_id, .. } | Node::TransformWithState { op_id, .. } => {
            inputs.insert(*op_id, input.unwrap_or(WatermarkMs::ZERO).max(WatermarkMs::ZERO));
            None
        }
        Node::StreamJoin { spec, op_id, .. } => {
            inputs.insert(*op_id, input.unwrap_or(WatermarkMs::ZERO).max(WatermarkMs::ZERO));
            input.map(|w| {
                let state = |s: StateWatermark| match s {
                    StateWatermark::None => None,
                    StateWatermark::Key { .. } => Some(w),
                    StateWatermark::Value { offset_ms } => Some(w.saturating_add_ms(offset_ms)),
                };
                [state(spec.left_state), state(spec.right_state), Some(w)].into_iter().flatten().min().unwrap_or(w)
            })
        }
        _ => input,
    })
}
