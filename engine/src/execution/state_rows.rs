//! What each stateful operator holds, row by row, and what will happen to each row: the
//! state store panel of the lab (Spark UI's state metrics, one level down). Each operator's
//! state answers through [`StatefulOperator`], so the app renders these tables and never
//! decides a row's fate itself.
//!
//! A row is `Open` until its operator's eviction watermark reaches the time it carries (a
//! window's or session's end, a dedup expiry, a join row's event time plus its state bound),
//! `Closing` once the watermark has passed that time (the next batch evicts it), `Evicted` when
//! the last batch removed it, and `Kept` forever when nothing can evict it (complete mode, no
//! watermark, a limit's counter).

use std::collections::BTreeSet;

use super::aggregate::AggregateState;
use super::dedup::DedupState;
use super::group_state::GroupStateStore;
use super::limit::LimitState;
use super::session_window::SessionState;
use super::stream_join::StreamJoinState;
use super::OperatorState;
use crate::analysis::{Node, Plan, StateWatermark};
use crate::plan::OutputMode;
use crate::types::{EventTime, Row, Value, WatermarkMs};

/// Why a row is never evicted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeptReason {
    /// Complete mode re-emits the whole result every batch, so it keeps every row.
    CompleteMode,
    /// The operator's input has no watermark (or the row no event time to compare).
    NoWatermark,
    /// A streaming limit's single counter row.
    Counter,
    /// An `applyInPandasWithState` key with no timeout set: kept until the function removes it.
    NoTimeout,
}

/// What will happen to one state row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateRowLabel {
    /// The watermark has not reached the row's eviction time, if it has one.
    Open {
        /// The event time (µs) the eviction watermark must reach for the row to go; `None`
        /// when the row carries no time to compare.
        evicts_at_us: Option<EventTime>,
    },
    /// The operator's eviction watermark has passed the row's eviction time: the next
    /// batch emits (append) or drops (update) it.
    Closing {
        /// The row's eviction time (µs), at or below the eviction watermark.
        evicts_at_us: EventTime,
    },
    /// The last batch removed it (shown once).
    Evicted,
    /// Never evicted, and why.
    Kept(KeptReason),
}

/// One cell of a state table.
#[derive(Debug, Clone, PartialEq)]
pub enum StateCell {
    /// A value the store holds: a key column, an aggregate's current result, a state field.
    Value(Value),
    /// A value the store no longer holds (an evicted row's aggregates).
    Gone,
    /// An evicted session, known by its start (µs).
    SessionFrom(i64),
    /// A join row's matched flag.
    Matched(bool),
    /// Why the last batch called the state function for this key (`None`: not called).
    Called(Option<super::group_state::CallReason>),
    /// A processing-time timeout (`GroupStateTimeout.ProcessingTimeTimeout`): ms on the
    /// query's processing-time clock (`StreamingQuery::clock_ms`), not an event time — the lab's
    /// clock starts at 0, so it reads as time since the start, not as a date in 1970.
    ProcessingDeadline(i64),
    /// Nothing to show.
    Blank,
}

/// One state row.
#[derive(Debug, Clone, PartialEq)]
pub struct StateRow {
    /// One cell per column of its [`StateTable`].
    pub cells: Vec<StateCell>,
    /// What will happen to the row.
    pub label: StateRowLabel,
    /// True if the last batch wrote this row's store key (it is in that version's delta).
    pub updated_this_batch: bool,
}

/// How a join side's state is cleaned, for the table's note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateNote {
    /// A join side without a state watermark: rows stay forever.
    NoStateWatermark,
    /// The watermark is on a join key: a key at or below it goes.
    KeyWatermark,
    /// A range condition: rows whose event time is at or below watermark + offset go (ms).
    ValueWatermark {
        /// The offset the range condition puts between the watermark and this side's event
        /// time, ms (may be negative).
        offset_ms: i64,
    },
}

/// One stateful operator's state (a join gives one table per side).
#[derive(Debug, Clone, PartialEq)]
pub struct StateTable {
    /// The stateful operator's id (root-first, as in progress).
    pub op_id: usize,
    /// Spark's operator name, with ` · left` / ` · right` for a join side.
    pub operator: String,
    /// The column headers: the key columns, then the operator's values (aggregates, session
    /// window, `expires at`, `matched`, the state tuple's fields, ...).
    pub columns: Vec<String>,
    /// The stored rows in key order, then the rows the last batch evicted.
    pub rows: Vec<StateRow>,
    /// How a join side's state is cleaned; `None` for the other operators.
    pub note: Option<StateNote>,
}

/// What labelling needs besides the state.
pub struct LabelContext<'a> {
    /// The query's output mode (complete mode keeps every aggregation row).
    pub mode: OutputMode,
    /// The operator's eviction watermark for the next batch.
    pub wm_for_eviction_ms: WatermarkMs,
    /// Row ids ([`StatefulOperator::row_ids`]) the last batch removed.
    pub evicted: &'a [Row],
    /// Store keys the last batch wrote (`None` for a join: per side).
    pub updated: &'a BTreeSet<Row>,
    /// A join's right side's written keys.
    pub updated_right: &'a BTreeSet<Row>,
}

impl LabelContext<'_> {
    fn label(&self, evicts_at_us: Option<EventTime>, watermarked: bool) -> StateRowLabel {
        if self.mode == OutputMode::Complete {
            return StateRowLabel::Kept(KeptReason::CompleteMode);
        }
        if !watermarked {
            return StateRowLabel::Kept(KeptReason::NoWatermark);
        }
        match evicts_at_us {
            Some(t) if t.is_past(self.wm_for_eviction_ms) => StateRowLabel::Closing { evicts_at_us: t },
            t => StateRowLabel::Open { evicts_at_us: t },
        }
    }
}

/// A stateful operator's state, described row by row.
pub trait StatefulOperator {
    /// One id per state row (a store key, or a key plus a session start / a buffered row plus
    /// its side), to find the rows a batch removed.
    fn row_ids(&self) -> Vec<Row>;
    /// The operator's tables: its rows with their labels; `node` is the operator's plan node.
    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable>;
}

fn values(r: &[Value]) -> Vec<StateCell> {
    r.iter().cloned().map(StateCell::Value).collect()
}

impl StatefulOperator for AggregateState {
    fn row_ids(&self) -> Vec<Row> {
        self.store.iter().map(|(k, _)| k.clone()).collect()
    }

    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable> {
        let Node::Aggregate { keys, event_time_key, .. } = &node.node else { return vec![] };
        let columns: Vec<String> = node.output.iter().map(|a| a.name.clone()).collect();
        let mut rows: Vec<StateRow> = self
            .store
            .iter()
            .map(|(k, bufs)| {
                let mut cells = values(k);
                cells.extend(bufs.iter().map(|b| StateCell::Value(b.result())));
                let t = event_time_key.and_then(|i| k.get(i)).and_then(Value::event_time);
                StateRow { cells, label: ctx.label(t, event_time_key.is_some()), updated_this_batch: ctx.updated.contains(k) }
            })
            .collect();
        rows.extend(ctx.evicted.iter().map(|k| {
            let mut cells = values(k);
            cells.extend(std::iter::repeat_n(StateCell::Gone, columns.len().saturating_sub(keys.len())));
            StateRow { cells, label: StateRowLabel::Evicted, updated_this_batch: true }
        }));
        vec![StateTable { op_id, operator: name.into(), columns, rows, note: None }]
    }
}

impl StatefulOperator for DedupState {
    fn row_ids(&self) -> Vec<Row> {
        self.store.iter().map(|(k, _)| k.to_vec()).collect()
    }

    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable> {
        let Node::Dedup { input, keys, within_watermark, event_time_col, event_time_in_key, .. } = &node.node else { return vec![] };
        let mut columns: Vec<String> = keys.iter().map(|i| input.output[*i].name.clone()).collect();
        if *within_watermark {
            columns.push("expires at".into());
        }
        let time_pos = keys.iter().position(|k| Some(*k) == *event_time_col);
        // Dedup keeps rows in every output mode: only the watermark lets them go.
        let ctx_any_mode = LabelContext { mode: OutputMode::Append, ..*ctx };
        let mut rows: Vec<StateRow> = self
            .store
            .iter()
            .map(|(k, expiry)| {
                let mut cells = values(k);
                let label = if *within_watermark {
                    cells.push(expiry.map_or(StateCell::Gone, |e| StateCell::Value(Value::Timestamp(e))));
                    ctx_any_mode.label(expiry.map(EventTime::from_micros), true)
                } else if *event_time_in_key {
                    ctx_any_mode.label(time_pos.and_then(|p| k.get(p)).and_then(Value::event_time), true)
                } else {
                    StateRowLabel::Kept(KeptReason::NoWatermark)
                };
                StateRow { cells, label, updated_this_batch: ctx.updated.contains(k) }
            })
            .collect();
        rows.extend(ctx.evicted.iter().map(|k| StateRow { cells: values(k), label: StateRowLabel::Evicted, updated_this_batch: true }));
        vec![StateTable { op_id, operator: name.into(), columns, rows, note: None }]
    }
}

impl StatefulOperator for SessionState {
    /// A session is known by its key and its start.
    fn row_ids(&self) -> Vec<Row> {
        let mut out = Vec::new();
        for (k, sessions) in self.store.iter() {
            for s in sessions {
                let mut id = k.clone();
                id.push(Value::Timestamp(s.start));
                out.push(id);
            }
        }
        out
    }

    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable> {
        let Node::Aggregate { keys, session: Some(spec), .. } = &node.node else { return vec![] };
        let columns: Vec<String> = node.output.iter().map(|a| a.name.clone()).collect();
        let mut rows = Vec::new();
        for (k, sessions) in self.store.iter() {
            for s in sessions {
                let mut cells = values(k);
                let window = Value::Struct(std::rc::Rc::from(vec![Value::Timestamp(s.start), Value::Timestamp(s.end)]));
                cells.insert(spec.position.min(cells.len()), StateCell::Value(window));
                cells.extend(s.buffers.iter().map(|b| StateCell::Value(b.result())));
                rows.push(StateRow { cells, label: ctx.label(Some(EventTime::from_micros(s.end)), true), updated_this_batch: ctx.updated.contains(k) });
            }
        }
        rows.extend(ctx.evicted.iter().map(|id| {
            let (start, key) = id.split_last().map_or((None, &id[..]), |(s, rest)| (s.event_time_us(), rest));
            let mut cells = values(key);
            cells.insert(spec.position.min(cells.len()), start.map_or(StateCell::Gone, StateCell::SessionFrom));
            cells.extend(std::iter::repeat_n(StateCell::Gone, columns.len().saturating_sub(keys.len() + 1)));
            StateRow { cells, label: StateRowLabel::Evicted, updated_this_batch: true }
        }));
        vec![StateTable { op_id, operator: name.into(), columns, rows, note: None }]
    }
}

impl StatefulOperator for StreamJoinState {
    /// A buffered row and its side (0 left, 1 right).
    fn row_ids(&self) -> Vec<Row> {
        let mut out = Vec::new();
        for (side, store) in [(0, &self.left), (1, &self.right)] {
            for (_, bucket) in store.iter() {
                for b in bucket {
                    let mut id = b.row.clone();
                    id.push(Value::Int(side));
                    out.push(id);
                }
            }
        }
        out
    }

    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable> {
        let Node::StreamJoin { left, right, spec, .. } = &node.node else { return vec![] };
        let mut out = Vec::new();
        for (side, tag, store, input, state_wm, time, updated) in [
            ("left", 0, &self.left, left, spec.left_state, spec.left_time, ctx.updated),
            ("right", 1, &self.right, right, spec.right_state, spec.right_time, ctx.updated_right),
        ] {
            let mut columns: Vec<String> = input.output.iter().map(|a| a.name.clone()).collect();
            columns.push("matched".into());
            // Join buffers are cleaned by the state watermark in every output mode.
            let label = |key: &Row, row: &Row| match state_wm {
                StateWatermark::None => StateRowLabel::Kept(KeptReason::NoWatermark),
                StateWatermark::Key { key_index } => {
                    LabelContext { mode: OutputMode::Append, ..*ctx }.label(key.get(key_index).and_then(Value::event_time), true)
                }
                StateWatermark::Value { offset_ms } => {
                    // Evicted when t <= W + offset, i.e. once W >= t - offset.
                    let t = time.and_then(|c| row.get(c)).and_then(Value::event_time);
                    LabelContext { mode: OutputMode::Append, ..*ctx }.label(t.map(|t| t.saturating_sub_millis(offset_ms)), true)
                }
            };
            let mut rows = Vec::new();
            for (key, bucket) in store.iter() {
                for b in bucket {
                    let mut cells = values(&b.row);
                    cells.push(StateCell::Matched(b.matched));
                    rows.push(StateRow { cells, label: label(key, &b.row), updated_this_batch: updated.contains(key) });
                }
            }
            let side_tag = Value::Int(tag);
            rows.extend(ctx.evicted.iter().filter(|id| id.last() == Some(&side_tag)).map(|id| {
                let mut cells = values(&id[..id.len() - 1]);
                cells.push(StateCell::Blank);
                StateRow { cells, label: StateRowLabel::Evicted, updated_this_batch: true }
            }));
            let note = match state_wm {
                StateWatermark::None => StateNote::NoStateWatermark,
                StateWatermark::Key { .. } => StateNote::KeyWatermark,
                StateWatermark::Value { offset_ms } => StateNote::ValueWatermark { offset_ms },
            };
            out.push(StateTable { op_id, operator: format!("{name} · {side}"), columns, rows, note: Some(note) });
        }
        out
    }
}

impl StatefulOperator for LimitState {
    fn row_ids(&self) -> Vec<Row> {
        Vec::new()
    }

    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable> {
        let Node::Limit { n, .. } = &node.node else { return vec![] };
        let row = StateRow {
            cells: vec![StateCell::Value(Value::Long(self.emitted())), StateCell::Value(Value::Long(i64::try_from(*n).unwrap_or(i64::MAX)))],
            label: StateRowLabel::Kept(KeptReason::Counter),
            updated_this_batch: !ctx.updated.is_empty(),
        };
        vec![StateTable { op_id, operator: name.into(), columns: vec!["rows emitted".into(), "limit".into()], rows: vec![row], note: None }]
    }
}

impl StatefulOperator for GroupStateStore {
    fn row_ids(&self) -> Vec<Row> {
        self.store.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Key columns, the timeout, why the last batch called the function for the key (rows,
    /// `hasTimedOut`, or not called), then the state tuple's fields. A key whose timeout has passed
    /// (strictly before the eviction watermark, or the clock for processing time) is
    /// `Closing`: the next batch calls the function with `hasTimedOut`.
    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable> {
        let Node::FlatMapGroupsWithState { input, keys, state_schema, timeout, .. } = &node.node else { return vec![] };
        let mut columns: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| match k {
                crate::analysis::BoundExpr::Col(c) => input.output.get(*c).map_or_else(|| format!("key{i}"), |a| a.name.clone()),
                _ => format!("key{i}"),
            })
            .collect();
        columns.push("timeout".into());
        columns.push("called".into());
        columns.extend(state_schema.iter().map(|(n, _)| n.clone()));
        let called = |k: &Row| StateCell::Called(self.last_calls.iter().rev().find(|(c, _)| c == k).map(|(_, r)| *r));
        let threshold_us = match timeout {
            crate::pyfunc::GroupStateTimeout::EventTimeTimeout => Some(ctx.wm_for_eviction_ms.as_event_time()),
            _ => None,
        };
        let mut rows: Vec<StateRow> = self
            .store
            .iter()
            .map(|(k, s)| {
                let mut cells = values(k);
                let t_us = s.timeout_ms.map(EventTime::from_millis);
                cells.push(match (s.timeout_ms, timeout) {
                    (None, _) => StateCell::Blank,
                    (Some(ms), crate::pyfunc::GroupStateTimeout::ProcessingTimeTimeout) => StateCell::ProcessingDeadline(ms),
                    (Some(ms), _) => StateCell::Value(Value::Timestamp(EventTime::from_millis(ms).micros())),
                });
                cells.push(called(k));
                match &s.value {
                    Some(v) => cells.extend(v.iter().cloned().map(StateCell::Value)),
                    None => cells.extend(state_schema.iter().map(|_| StateCell::Gone)),
                }
                let label = match (t_us, threshold_us) {
                    (None, _) => StateRowLabel::Kept(KeptReason::NoTimeout),
                    (Some(t), Some(th)) if t < th => StateRowLabel::Closing { evicts_at_us: t },
                    (Some(t), Some(_)) => StateRowLabel::Open { evicts_at_us: Some(t) },
                    // A processing-time timeout: not an event time.
                    (Some(_), None) => StateRowLabel::Open { evicts_at_us: None },
                };
                StateRow { cells, label, updated_this_batch: ctx.updated.contains(k) }
            })
            .collect();
        rows.extend(ctx.evicted.iter().map(|id| {
            let mut cells = values(id);
            cells.push(StateCell::Blank);
            cells.push(called(id));
            cells.extend(state_schema.iter().map(|_| StateCell::Gone));
            StateRow { cells, label: StateRowLabel::Evicted, updated_this_batch: true }
        }));
        vec![StateTable { op_id, operator: name.into(), columns, rows, note: None }]
    }
}

impl OperatorState {
    /// The state as a [`StatefulOperator`].
    pub fn as_stateful(&self) -> &dyn StatefulOperator {
        match self {
            OperatorState::Aggregate(a) => a,
            OperatorState::Dedup(d) => d,
            OperatorState::Limit(l) => l,
            OperatorState::Session(s) => s,
            OperatorState::StreamJoin(j) => j,
            OperatorState::GroupState(g) => g,
            OperatorState::Tws(t) => t,
        }
    }
}

impl StatefulOperator for super::transform_with_state::TwsStore {
    fn row_ids(&self) -> Vec<Row> {
        self.store.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Key columns, then each state row of the key: the variable (with a map entry's user key,
    /// or `$timer`) and its value (a list's elements, a timer's expiry). Timers are open until
    /// their time; state variables are kept until the processor clears them.
    fn tables(&self, op_id: usize, name: &str, node: &Plan, ctx: &LabelContext<'_>) -> Vec<StateTable> {
        use super::transform_with_state::TwsEntry;
        let Node::TransformWithState { input, keys, time_mode, .. } = &node.node else { return vec![] };
        // An event-time timer is a point on the event-time axis (shown as a time, and placed on
        // the picture); a processing-time timer is the query clock's ms.
        let event_time = *time_mode == crate::pyfunc::TimeMode::EventTime;
        let mut columns: Vec<String> = keys
            .iter()
            .map(|k| match k {
                crate::analysis::BoundExpr::Col(c) => input.output[*c].name.clone(),
                _ => "key".to_string(),
            })
            .collect();
        columns.push("state".into());
        columns.push("value".into());
        let n = keys.len();
        let text = |r: &[Value]| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
        let rows = self
            .store
            .iter()
            .map(|(k, e)| {
                let mut cells = values(&k[..n.min(k.len())]);
                let var = k.get(n).map(|v| v.to_string()).unwrap_or_default();
                let str_value = |t: String| Value::Str(std::rc::Rc::from(t));
                let (what, value, label) = match e {
                    TwsEntry::Value(r) => (var, str_value(format!("({})", text(r))), StateRowLabel::Kept(KeptReason::NoTimeout)),
                    TwsEntry::List(rs) => (var, str_value(format!("[{}]", rs.iter().map(|r| format!("({})", text(r))).collect::<Vec<_>>().join(", "))), StateRowLabel::Kept(KeptReason::NoTimeout)),
                    TwsEntry::MapValue(r) => (format!("{var}[{}]", text(&k[n + 1..])), str_value(format!("({})", text(r))), StateRowLabel::Kept(KeptReason::NoTimeout)),
                    TwsEntry::Timer => {
                        let ms = k.get(n + 1).and_then(Value::as_i64).unwrap_or_default();
                        let us = ms.saturating_mul(1000);
                        let value = if event_time { Value::Timestamp(us) } else { str_value(ms.to_string()) };
                        (var, value, StateRowLabel::Open { evicts_at_us: Some(EventTime::from_micros(us)) })
                    }
                };
                cells.push(StateCell::Value(str_value(what)));
                cells.push(StateCell::Value(value));
                StateRow { cells, label, updated_this_batch: ctx.updated.contains(k) }
            })
            .collect();
        vec![StateTable { op_id, operator: name.into(), columns, rows, note: None }]
    }
}
