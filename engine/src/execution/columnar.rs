//! Columnar execution where it pays: a streaming aggregation's partial phase read straight
//! from the source's Arrow blocks, without decoding them into rows.
//!
//! It applies to the shape of most streaming aggregations — a `groupBy` over an
//! `EventTimeWatermark` (or several) over a source, with `F.window(...)` as an optional key —
//! when every grouping key and aggregate argument is a plain column: the event-time stats of
//! each `EventTimeWatermark` are gathered from the time column's values, each row's windows
//! come from `window::assign_windows` on the time column, and grouping keys are the source's
//! key columns encoded by `arrow-row` (one byte string per row, compared and hashed as
//! bytes) next to the window's start. A key becomes a [`Row`] once, when the batch first meets
//! it, and buffers are fed in row order and window order, as the row-wise path feeds them.
//! What comes out is exactly [`aggregate::partial_aggregate`]'s result over the same input,
//! so the state phase ([`aggregate::run_aggregate`]) is shared; any other plan shape, key or
//! type (a computed key, a floating-point key, whose grouping Spark normalises) takes the
//! row-wise path. Spark's own partial aggregation is `HashAggregateExec` with
//! `UnsafeRow` keys (`sql/core/.../aggregate/HashAggregateExec.scala`).

use arrow_array::{Array, RecordBatch, TimestampMicrosecondArray};
use arrow_row::{RowConverter, SortField};
use arrow_schema::{DataType, TimeUnit};
use std::hash::Hasher;

use hashbrown::HashTable;
use rustc_hash::{FxHashMap as HashMap, FxHasher};

use super::aggregate::{self, AggBuffer};
use super::window;
use super::{BatchContext, BatchEffects};
use crate::analysis::{BoundAgg, BoundExpr, Node, Plan, WindowSpec};
use crate::types::arrow::cell_value;
use crate::types::{EventTime, Row, Value};

/// Where a grouping key or aggregate argument comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    /// A source column, by index.
    Source(usize),
    /// The window struct `TimeWindow` appends after the source's columns.
    Window,
}

/// The plan below an aggregation that the columnar path reads: `TimeWindow?` over
/// `EventTimeWatermark*` over a source.
struct Chain<'a> {
    source: usize,
    /// The source's column types.
    types: Vec<&'a DataType>,
    /// Each `EventTimeWatermark`: (its watermark index, its time column).
    watermarks: Vec<(usize, usize)>,
    /// The window assignment: (its time column, its spec).
    window: Option<(usize, &'a WindowSpec)>,
}

fn is_micros(t: &DataType) -> bool {
    matches!(t, DataType::Timestamp(TimeUnit::Microsecond, _))
}

impl<'a> Chain<'a> {
    fn of(input: &'a Plan) -> Option<Chain<'a>> {
        let (mut p, window) = match &input.node {
            Node::TimeWindow { input, time: BoundExpr::Col(c), spec } => (input.as_ref(), Some((*c, spec))),
            Node::TimeWindow { .. } => return None,
            _ => (input, None),
        };
        let mut watermarks = Vec::new();
        loop {
            match &p.node {
                Node::Watermark { input, column, watermark_index, .. } => {
                    watermarks.push((*watermark_index, *column));
                    p = input;
                }
                Node::Source { index, .. } => {
                    let types: Vec<&DataType> = p.output.iter().map(|a| &a.data_type).collect();
                    let times_ok = watermarks.iter().map(|w| w.1).chain(window.map(|w| w.0)).all(|c| types.get(c).is_some_and(|t| is_micros(t)));
                    return times_ok.then_some(Chain { source: *index, types, watermarks, window });
                }
                _ => return None,
            }
        }
    }

    /// A column `expr` reads, if it is a plain column of a type this path decodes (keys:
    /// not floating point).
    fn column(&self, expr: &BoundExpr, key: bool) -> Option<Column> {
        let BoundExpr::Col(i) = expr else { return None };
        if self.window.is_some() && *i == self.types.len() {
            return Some(Column::Window);
        }
        let t = self.types.get(*i)?;
        let decodable = matches!(t, DataType::Utf8 | DataType::Int64 | DataType::Int32 | DataType::Boolean | DataType::Binary) || is_micros(t);
        (decodable || (!key && matches!(t, DataType::Float64))).then_some(Column::Source(*i))
    }
}

/// An aggregate's argument and ordering columns (`None`: `count(*)`, or no ordering).
type AggColumns = (Option<Column>, Option<Column>);

/// The columns a columnar partial aggregation reads: the chain below, each key's column and
/// each aggregate's argument and ordering columns. `None` when the plan shape, a key or an
/// argument is not one this path reads.
fn layout<'a>(input: &'a Plan, keys: &[BoundExpr], aggs: &[BoundAgg]) -> Option<(Chain<'a>, Vec<Column>, Vec<AggColumns>)> {
    let chain = Chain::of(input)?;
    let key_columns: Vec<Column> = keys.iter().map(|k| chain.column(k, true)).collect::<Option<_>>()?;
    let agg_columns: Vec<AggColumns> = aggs
        .iter()
        .map(|a| {
            let arg = match &a.arg {
                Some(e) => Some(chain.column(e, false)?),
                None => None,
            };
            let by = match &a.by {
                Some(e) => Some(chain.column(e, false)?),
                None => None,
            };
            Some((arg, by))
        })
        .collect::<Option<_>>()?;
    Some((chain, key_columns, agg_columns))
}

/// True if some streaming aggregation in `plan` (not a session window's) runs its partial
/// phase here, on columns.
pub fn applies_to(plan: &Plan) -> bool {
    let mut found = false;
    plan.walk(&mut |p| {
        if let Node::Aggregate { input, keys, aggs, session: None, .. } = &p.node {
            found |= layout(input, keys, aggs).is_some();
        }
    });
    found
}

/// The partial aggregation of `Aggregate { input, keys, aggs }` read from the source's
/// blocks, or `None` when the plan shape, a key or an argument is not one this path reads
/// (nothing is consumed then; the caller runs the row-wise path). Records the event-time
/// stats of each `EventTimeWatermark` in `fx` as `execute` would; a window bound that
/// overflows raises `ARITHMETIC_OVERFLOW` and skips the row, as the row-wise path does.
pub fn partial_aggregate(input: &Plan, keys: &[BoundExpr], aggs: &[BoundAgg], ctx: &BatchContext, fx: &mut BatchEffects) -> Option<Vec<(Row, Vec<AggBuffer>)>> {
    let (chain, key_columns, agg_columns) = layout(input, keys, aggs)?;
    let source_keys: Vec<usize> = key_columns.iter().filter_map(|c| if let Column::Source(i) = c { Some(*i) } else { None }).collect();
    let converter = RowConverter::new(source_keys.iter().map(|&i| SortField::new(chain.types[i].clone())).collect()).ok()?;
    let blocks = ctx.inputs.borrow().get(chain.source).map(|s| s.blocks.clone())?;
    let mut encoded = Vec::with_capacity(blocks.len());
    for b in &blocks {
        let columns: Vec<_> = source_keys.iter().map(|&i| b.columns().get(i).cloned()).collect::<Option<_>>()?;
        encoded.push(if columns.is_empty() { None } else { Some(converter.convert_columns(&columns).ok()?) });
    }
    // From here on the blocks are this path's: the source has one reader fewer.
    ctx.release(chain.source);

    for &(index, column) in &chain.watermarks {
        let stats = fx.stats.entry(index).or_default();
        for b in &blocks {
            let times = timestamps(b, column)?;
            for i in 0..b.num_rows() {
                // A NULL event time counts as 0, as the row-wise `EventTimeWatermark` does.
                let t = if times.is_null(i) { EventTime::EPOCH } else { EventTime::from_micros(times.value(i)) };
                stats.add(t.floor_millis());
            }
        }
    }

    // (hash, window start, key bytes, index into `partial`): a row's key bytes are hashed
    // once, and each of its windows mixes its start into that hash.
    let mut groups: HashTable<(u64, i64, &[u8], usize)> = HashTable::new();
    let mut partial: Vec<(Row, Vec<AggBuffer>)> = Vec::new();
    let mut window_values: HashMap<i64, Value> = HashMap::default();
    let one_window = [(0i64, 0i64)];
    // One buffer for every row's windows.
    let mut windows: Vec<(i64, i64)> = Vec::new();
    for (b, rows) in blocks.iter().zip(&encoded) {
        let times = match chain.window {
            Some((c, _)) => Some(timestamps(b, c)?),
            None => None,
        };
        for i in 0..b.num_rows() {
            let key_bytes: &[u8] = rows.as_ref().map_or(&[], |r| r.row(i).data());
            let key_hash = {
                let mut h = FxHasher::default();
                h.write(key_bytes);
                h.finish()
            };
            let row_windows: &[(i64, i64)] = match (times, chain.window) {
                (Some(times), Some((_, spec))) => {
                    if times.is_null(i) {
                        continue;
                    }
                    if let Err(e) = window::assign_windows_into(times.value(i), spec, &mut windows) {
                        e.raise(&ctx.eval);
                        continue;
                    }
                    &windows
                }
                // No window: one group per key, whatever the placeholder start.
                _ => &one_window,
            };
            for &(start, end) in row_windows {
                let mut window_value = || window_values.entry(start).or_insert_with(|| Value::Struct(std::rc::Rc::from(vec![Value::Timestamp(start), Value::Timestamp(end)]))).clone();
                let hash = {
                    let mut h = FxHasher::default();
                    h.write_u64(key_hash);
                    h.write_i64(start);
                    h.finish()
                };
                let g = match groups.find(hash, |e| e.1 == start && e.2 == key_bytes) {
                    Some(e) => e.3,
                    None => {
                        let key: Row = key_columns.iter().map(|c| value_of(*c, b, i, &mut window_value)).collect();
                        partial.push((key, aggs.iter().map(|a| AggBuffer::new(a.func)).collect()));
                        groups.insert_unique(hash, (hash, start, key_bytes, partial.len() - 1), |e| e.0);
                        partial.len() - 1
                    }
                };
                for ((buf, agg), (arg, by)) in partial[g].1.iter_mut().zip(aggs).zip(&agg_columns) {
                    let arg = arg.map(|c| value_of(c, b, i, &mut window_value));
                    let by = by.map(|c| value_of(c, b, i, &mut window_value));
                    aggregate::feed_values(buf, agg, arg, by, &ctx.eval);
                }
            }
        }
    }
    Some(partial)
}

/// Column `column` of block `b` as µs timestamps, if it is one.
fn timestamps(b: &RecordBatch, column: usize) -> Option<&TimestampMicrosecondArray> {
    b.columns().get(column)?.as_any().downcast_ref::<TimestampMicrosecondArray>()
}

/// Row `i`'s value of `column` in block `b`.
fn value_of(column: Column, b: &RecordBatch, i: usize, window: &mut dyn FnMut() -> Value) -> Value {
    match column {
        Column::Window => window(),
        Column::Source(c) => b.columns().get(c).map_or(Value::Null, |a| cell_value(a.as_ref(), i)),
    }
}
