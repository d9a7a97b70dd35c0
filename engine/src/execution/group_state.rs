//! `FlatMapGroupsInPandasWithStateExec` (`applyInPandasWithState`), with the rules of
//! `FlatMapGroupsWithStateExec` it shares: per batch, late rows dropped
//! (only with `EventTimeTimeout`), the function called once per key with data (keys in
//! order), then once per stored key whose timeout has passed, each call's `GroupState`
//! persisted as Spark does.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::eval;
use super::OperatorMetrics;
use crate::analysis::BoundExpr;
use crate::pyfunc::interp::Frame;
use crate::pyfunc::{GroupState, GroupStateTimeout, PyError, PythonUdf, Val};
use crate::state::StateStore;
use crate::types::{DataType, EventTime, Row, Value, WatermarkMs};

/// Rows per pandas DataFrame handed to the function (`spark.sql.execution.arrow.maxRecordsPerBatch`).
pub const MAX_RECORDS_PER_BATCH: usize = 10_000;

/// One key's stored state: the state tuple (`None` for a removed key kept only for its
/// timeout) and its timeout in ms (`None`: Spark's `NO_TIMESTAMP`).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyState {
    /// The state tuple as a row in `stateStructType`'s field order; `None` after
    /// `state.remove()` when a timeout is still set.
    pub value: Option<Row>,
    /// The timeout timestamp, ms since the epoch (`setTimeoutDuration` adds to the batch
    /// timestamp, `setTimeoutTimestamp` gives it); `None`: no timeout set.
    pub timeout_ms: Option<i64>,
}

/// Why the function was called for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallReason {
    /// The key had rows in the batch.
    Data,
    /// The key's timeout passed (`hasTimedOut`).
    TimedOut,
}

/// The operator's state: grouping key → [`KeyState`], and the calls the last batch made.
#[derive(Debug, Clone, Default)]
pub struct GroupStateStore {
    /// Grouping key (the key expressions' values) → its stored `GroupState`.
    pub store: StateStore<KeyState>,
    /// (key, why) for every call of the last batch, in call order.
    pub last_calls: Vec<(Row, CallReason)>,
}

impl GroupStateStore {
    /// True if a stored key's timeout is strictly before `threshold_ms` (its next batch would
    /// call the function with `hasTimedOut`).
    pub fn has_timeout_before(&self, threshold_ms: i64) -> bool {
        self.store.iter().any(|(_, s)| s.timeout_ms.is_some_and(|t| t < threshold_ms))
    }
}

/// What one operator needs besides its state.
pub struct GroupStateSpec<'a> {
    /// The grouping expressions over the input row.
    pub keys: &'a [BoundExpr],
    /// The Python function `applyInPandasWithState` calls as `func(key, pdfs, state)`.
    pub udf: &'a PythonUdf,
    /// The input's column names and types (the DataFrame's columns).
    pub input: &'a [(String, DataType)],
    /// The output schema (`outputStructType`): the yielded DataFrames' columns are read into
    /// it by name, or by position when the names do not all match.
    pub output: &'a [(String, DataType)],
    /// The state tuple's fields (`stateStructType`).
    pub state_schema: &'a [(String, DataType)],
    /// The `timeoutConf`: which clock a key's timeout is read against.
    pub timeout: GroupStateTimeout,
    /// The input's watermarked column, if any.
    pub event_time_col: Option<usize>,
}

/// True if an input row with event time `event_time_us` is dropped as late: only with
/// `EventTimeTimeout`, when it is at or below `late_ms` (`eventTimeWatermarkForLateEvents`;
/// `FlatMapGroupsWithStateExecBase`'s `watermarkPredicateForDataForLateEvents`).
pub fn row_is_late(timeout: GroupStateTimeout, event_time_us: Option<i64>, late_ms: WatermarkMs) -> bool {
    timeout == GroupStateTimeout::EventTimeTimeout && event_time_us.is_some_and(|t| EventTime::from_micros(t).is_past(late_ms))
}

/// The batch's input rows by grouping key (keys in order, rows in input order), without the
/// rows [`row_is_late`] drops, and how many it dropped (`numRowsDroppedByWatermark`). Shared by
/// `applyInPandasWithState` and `transformWithState` (whose `EventTime` mode drops as
/// `EventTimeTimeout` does).
pub(crate) fn group_rows(input: Vec<Row>, keys: &[BoundExpr], event_time_col: Option<usize>, timeout: GroupStateTimeout, late_ms: WatermarkMs, cx: &super::context::EvalContext) -> (BTreeMap<Row, Vec<Row>>, u64) {
    let mut dropped = 0u64;
    let mut groups: BTreeMap<Row, Vec<Row>> = BTreeMap::new();
    for row in input {
        let t = event_time_col.and_then(|c| row.get(c)).and_then(Value::event_time_us);
        if row_is_late(timeout, t, late_ms) {
            dropped += 1;
            continue;
        }
        let key: Row = keys.iter().map(|k| eval::eval(k, &row, cx)).collect();
        groups.entry(key).or_default().push(row);
    }
    (groups, dropped)
}

/// A failure of the Python function: (error condition, message), as the batch reports it.
pub type CallError = (String, String);

pub(crate) fn val_of(v: &Value) -> Val {
    match v {
        Value::Null => Val::None,
        Value::Bool(b) => Val::Bool(*b),
        Value::Int(i) => Val::Int(i64::from(*i)),
        Value::Long(i) => Val::Int(*i),
        Value::Double(d) => Val::Float(*d),
        Value::Str(s) => Val::Str(Rc::clone(s)),
        Value::Timestamp(us) => Val::Timestamp(EventTime::from_micros(*us).as_nanos()),
        other => Val::Str(Rc::from(other.to_string())),
    }
}

fn value_of(v: &Val, t: &DataType, what: &str) -> Result<Value, String> {
    let bad = || format!("{what}: expected {}, got a Python {}", crate::types::spark_type_name(t), v.type_name());
    Ok(match (t, v) {
        // pandas' NaN / NaT arrive as null (PySpark builds the Arrow arrays with
        // `from_pandas`, whose mask is `isnull()`).
        (_, Val::None) => Value::Null,
        (_, Val::Float(f)) if f.is_nan() => Value::Null,
        (DataType::Utf8, Val::Str(s)) => Value::Str(Rc::clone(s)),
        (DataType::Int64, Val::Int(i)) => Value::Long(*i),
        (DataType::Int64, Val::Bool(b)) => Value::Long(i64::from(*b)),
        (DataType::Int64, Val::Float(f)) if f.fract() == 0.0 && f.abs() < 9.2e18 => Value::Long(*f as i64),
        (DataType::Int32, Val::Int(i)) => Value::Int(i32::try_from(*i).map_err(|_| format!("{what}: {i} does not fit an int"))?),
        (DataType::Float64, Val::Int(i)) => Value::Double(*i as f64),
        (DataType::Float64, Val::Float(f)) => Value::Double(*f),
        (DataType::Boolean, Val::Bool(b)) => Value::Bool(*b),
        (DataType::Timestamp(..), Val::Timestamp(ns)) => Value::Timestamp(EventTime::from_nanos(*ns).micros()),
        _ => return Err(bad()),
    })
}

pub(crate) fn tuple_to_row(v: &[Val], schema: &[(String, DataType)]) -> Result<Row, String> {
    if v.len() != schema.len() {
        return Err(format!("the state tuple has {} values but stateStructType has {} fields", v.len(), schema.len()));
    }
    v.iter().zip(schema).map(|(x, (n, t))| value_of(x, t, &format!("state field '{n}'"))).collect()
}

/// The rows of the DataFrames `yielded` (a list of frames), in the output schema: by column
/// name when every output field is a column, by position otherwise.
pub(crate) fn frames_to_rows(yielded: Val, output: &[(String, DataType)]) -> Result<Vec<Row>, String> {
    let frames = match yielded {
        Val::List(l) => l.borrow().clone(),
        Val::Tuple(t) => t.as_ref().clone(),
        Val::None => Vec::new(),
        Val::Frame(_) => return Err("Return type of the user-defined function should be iterator of pandas.DataFrame, but is DataFrame (use yield)".into()),
        other => return Err(format!("Return type of the user-defined function should be iterator of pandas.DataFrame, but is {}", other.type_name())),
    };
    let mut rows = Vec::new();
    for f in frames {
        let Val::Frame(f) = f else {
            return Err(format!("the function yielded a value of type {}; yield pandas.DataFrame objects", f.type_name()));
        };
        let cols: Vec<&Vec<Val>> = if output.iter().all(|(n, _)| f.columns.iter().any(|(c, _)| c == n)) {
            output.iter().map(|(n, _)| f.columns.iter().find(|(c, _)| c == n).map(|(_, v)| v).expect("checked above")).collect()
        } else if f.columns.len() == output.len() {
            f.columns.iter().map(|(_, v)| v).collect()
        } else {
            let missing: Vec<&str> = output.iter().filter(|(n, _)| !f.columns.iter().any(|(c, _)| c == n)).map(|(n, _)| n.as_str()).collect();
            return Err(format!(
                "[RESULT_COLUMNS_MISMATCH_FOR_PANDAS_UDF] Column names of the returned pandas.DataFrame do not match specified schema. Missing: {}.",
                missing.join(", ")
            ));
        };
        for r in 0..f.len {
            rows.push(cols.iter().zip(output).map(|(c, (n, t))| value_of(&c[r], t, &format!("output column '{n}'"))).collect::<Result<Row, String>>()?);
        }
    }
    Ok(rows)
}

pub(crate) fn python_failure(e: PyError, udf: &str) -> CallError {
    // Python the sandbox does not model is not the learner's error: the batch stops as
    // unsupported, naming the feature.
    if e.is_not_modelled() {
        return (crate::pyfunc::NOT_MODELLED.into(), e.message);
    }
    let condition = e.condition.clone().unwrap_or_else(|| "PYTHON_EXCEPTION".into());
    let at = if e.line > 0 { format!(" (line {} of the Python code, in {udf})", e.line) } else { format!(" (in {udf})") };
    (condition, format!("{}{at}: {}", crate::pyfunc::PYTHON_WORKER, e.message))
}

/// Runs one batch of the operator.
///
/// `late_ms`/`evict_ms` are the operator's watermarks for late rows and eviction;
/// `has_watermark` says whether its input has one at all; `cx` holds the batch's
/// timestamp.
///
/// # Errors
/// The first failure of the function (a Python error, a PySpark `GroupState` error, output
/// rows that do not fit the output schema): the batch fails with it.
#[allow(clippy::too_many_arguments)]
pub fn run_group_state(
    state: &mut GroupStateStore,
    input: Vec<Row>,
    spec: &GroupStateSpec<'_>,
    late_ms: WatermarkMs,
    evict_ms: WatermarkMs,
    has_watermark: bool,
    cx: &super::context::EvalContext,
) -> Result<(Vec<Row>, OperatorMetrics), CallError> {
    let batch_ts_ms = cx.batch_timestamp_ms;
    let (groups, dropped) = group_rows(input, spec.keys, spec.event_time_col, spec.timeout, late_ms, cx);
    state.last_calls.clear();
    let mut out = Vec::new();
    let mut updated = 0u64;
    let mut removed = 0u64;
    let watermark_ms = has_watermark.then_some(evict_ms.ms());
    let mut call = |state: &mut GroupStateStore, key: Row, rows: Vec<Row>, timed_out: bool| -> Result<(), CallError> {
        let stored = state.store.get(&key).cloned();
        let gs = Rc::new(RefCell::new(GroupState {
            value: stored.as_ref().and_then(|s| s.value.as_ref()).map(|r| r.iter().map(val_of).collect()),
            updated: false,
            removed: false,
            timeout_ms: None,
            has_timed_out: timed_out,
            conf: spec.timeout,
            watermark_ms,
            batch_ts_ms,
        }));
        let frames: Vec<Val> = rows
            .chunks(MAX_RECORDS_PER_BATCH)
            .map(|chunk| {
                let columns = spec.input.iter().enumerate().map(|(i, (n, _))| (n.clone(), chunk.iter().map(|r| r.get(i).map(val_of).unwrap_or(Val::None)).collect())).collect();
                Val::Frame(Rc::new(Frame::from_columns(columns)))
            })
            .collect();
        let key_tuple = Val::Tuple(Rc::new(key.iter().map(val_of).collect()));
        let mut interp = spec.udf.module.clone();
        interp.set_clock_ms(batch_ts_ms);
        let result = interp
            .call(&spec.udf.func, vec![key_tuple, Val::List(Rc::new(RefCell::new(frames))), Val::State(Rc::clone(&gs))])
            .map_err(|e| python_failure(e, &spec.udf.name))?;
        let rows = frames_to_rows(result, spec.output).map_err(|m| ("PYTHON_EXCEPTION".to_string(), m))?;
        out.extend(rows);
        // Persist the state as `FlatMapGroupsWithStateExec.onIteratorCompletion` does.
        let gs = gs.borrow();
        let stored_timeout = stored.as_ref().and_then(|s| s.timeout_ms);
        if gs.removed && gs.timeout_ms.is_none() {
            state.store.remove(&key);
            removed += 1;
        } else if gs.updated || gs.removed || gs.timeout_ms != stored_timeout {
            let value = match &gs.value {
                Some(v) => Some(tuple_to_row(v, spec.state_schema).map_err(|m| ("PYTHON_EXCEPTION".to_string(), m))?),
                None => None,
            };
            state.store.put(key.clone(), KeyState { value, timeout_ms: gs.timeout_ms });
            updated += 1;
        }
        state.last_calls.push((key, if timed_out { CallReason::TimedOut } else { CallReason::Data }));
        Ok(())
    };
    for (key, rows) in groups {
        call(state, key, rows, false)?;
    }
    let threshold = match spec.timeout {
        GroupStateTimeout::NoTimeout => None,
        GroupStateTimeout::ProcessingTimeTimeout => Some(batch_ts_ms),
        GroupStateTimeout::EventTimeTimeout => watermark_ms,
    };
    if let Some(threshold) = threshold {
        let expired: Vec<Row> = state.store.iter().filter(|(_, s)| s.timeout_ms.is_some_and(|t| t < threshold)).map(|(k, _)| k.clone()).collect();
        for key in expired {
            call(state, key, Vec::new(), true)?;
        }
    }
    let m = state.store.commit();
    Ok((out, OperatorMetrics { num_rows_total: m.num_rows_total, num_rows_updated: updated, num_rows_removed: removed, num_rows_dropped_by_watermark: dropped }))
}

