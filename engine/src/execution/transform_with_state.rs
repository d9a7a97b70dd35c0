//! `TransformWithStateInPySparkExec` (`transformWithStateInPandas`, `transformWithState`):
//! per batch, late rows dropped (only with `timeMode='EventTime'`), the processor's
//! `handleInputRows` called once per key with data (keys in order), then `handleExpiredTimer`
//! once per timer at or before the batch's timer threshold (the eviction watermark for
//! EventTime, the batch timestamp for ProcessingTime), each fired timer deleted; `init` runs
//! before the first call of a batch and `close` after the last. State variables live in one
//! store keyed by (grouping key, variable name, map key); timers are rows of the same store
//! that Spark keeps in internal column families and leaves out of `numRowsTotal`.
//!
//! Metrics as Spark 4.3 reports them (RocksDB state store, recorded in
//! `engine/tests/cases/tws-*.json`): `numRowsTotal` counts a key's value, its non-empty list
//! (one row however long) and each map entry; `numRowsUpdated` counts each `update`, each
//! value put or appended to a list, each `updateValue`; `numRowsRemoved` each value `clear`,
//! each element of a cleared list, each removed map entry. Timers count in none.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::group_state::{frames_to_rows, group_rows, python_failure, tuple_to_row, val_of, CallError, MAX_RECORDS_PER_BATCH};
use super::OperatorMetrics;
use crate::analysis::BoundExpr;
use crate::pyfunc::interp::Frame;
use crate::pyfunc::{Backend, GroupStateTimeout, ProcVal, ProcessorBackend, PyError, PythonProcessor, TimeMode, Tuple, Val, VarKind};
use crate::state::StateStore;
use crate::types::{DataType, Row, Value, WatermarkMs};

/// The store tag of a timer row (Spark's internal `$procTimers`/`$eventTimers` families).
const TIMER_TAG: &str = "$timer";

/// One row of the operator's store.
#[derive(Debug, Clone, PartialEq)]
pub enum TwsEntry {
    /// A `ValueState`'s tuple.
    Value(Row),
    /// A `ListState`'s elements, in order.
    List(Vec<Row>),
    /// One `MapState` entry's value (its user key is in the store key).
    MapValue(Row),
    /// A registered timer (its time is in the store key).
    Timer,
}

/// The operator's state: store key = grouping key ++ [variable name] ++ map key (or
/// `TIMER_TAG` ++ [expiry ms] for a timer).
#[derive(Debug, Clone, Default)]
pub struct TwsStore {
    /// Every state variable's rows and every timer of the operator, in one ordered store.
    pub store: StateStore<TwsEntry>,
}

impl TwsStore {
    /// The (grouping key, expiry ms) of every timer, by time then key.
    pub fn timers(&self, key_len: usize) -> Vec<(Row, i64)> {
        timers_of(&self.store, key_len)
    }
}

/// The (grouping key, expiry ms) of every timer in `store`, by time then key.
fn timers_of(store: &StateStore<TwsEntry>, key_len: usize) -> Vec<(Row, i64)> {
    let mut out: Vec<(Row, i64)> = store
        .iter()
        .filter(|(_, e)| matches!(e, TwsEntry::Timer))
        .filter_map(|(k, _)| Some((k[..key_len].to_vec(), k.get(key_len + 1).and_then(Value::as_i64)?)))
        .collect();
    out.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// What one operator needs besides its state.
pub struct TwsSpec<'a> {
    /// The grouping expressions over the input row.
    pub keys: &'a [BoundExpr],
    /// The Python `StatefulProcessor` whose `init`, `handleInputRows`, `handleExpiredTimer`
    /// and `close` the operator calls.
    pub processor: &'a PythonProcessor,
    /// The input's column names and types (the DataFrame's columns, the Rows' fields).
    pub input: &'a [(String, DataType)],
    /// The output schema (`outputStructType`) the yielded rows are read into.
    pub output: &'a [(String, DataType)],
    /// The `timeMode`: which clock timers fire against (`None`, `ProcessingTime`,
    /// `EventTime`).
    pub time_mode: TimeMode,
    /// The input's watermarked column, if any.
    pub event_time_col: Option<usize>,
}

/// A declared state variable.
#[derive(Debug, Clone)]
struct VarDef {
    kind: VarKind,
    /// Value schema (the value's fields); a map's key schema in `key_schema`.
    schema: Vec<(String, DataType)>,
    key_schema: Vec<(String, DataType)>,
}

/// The store as the processor's handle sees it during one batch.
#[derive(Debug)]
struct Session {
    store: StateStore<TwsEntry>,
    vars: BTreeMap<String, VarDef>,
    key: Row,
    /// Number of grouping key columns (the store key's prefix).
    key_len: usize,
    time_mode: TimeMode,
    updated: u64,
    removed: u64,
}

fn err(condition: &str, message: String) -> PyError {
    PyError { message: format!("PySparkRuntimeError: [{condition}] {message}"), line: 0, condition: Some(condition.to_string()) }
}

fn plain(message: String) -> PyError {
    PyError::runtime(message, 0)
}

impl Session {
    fn var(&self, name: &str, kind: VarKind) -> Result<&VarDef, PyError> {
        match self.vars.get(name) {
            Some(v) if v.kind == kind => Ok(v),
            Some(v) => Err(plain(format!("TypeError: state '{name}' is a {}, not a {}", v.kind.class_name(), kind.class_name()))),
            None => Err(plain(format!("state '{name}' was not declared in init()"))),
        }
    }

    fn skey(&self, name: &str, extra: &[Value]) -> Row {
        let mut k = self.key.clone();
        k.push(Value::Str(Rc::from(name)));
        k.extend_from_slice(extra);
        k
    }

    fn to_row(&self, t: &[Val], schema: &[(String, DataType)]) -> Result<Row, PyError> {
        tuple_to_row(t, schema).map_err(plain)
    }

    fn prefix_entries(&self, name: &str) -> Vec<(Row, TwsEntry)> {
        let p = self.skey(name, &[]);
        self.store.iter().filter(|(k, _)| k.len() > p.len() && k[..p.len()] == p[..]).map(|(k, v)| (k.clone(), v.clone())).collect()
    }
}

fn tuple(r: &Row) -> Tuple {
    r.iter().map(val_of).collect()
}

fn ddl(s: &str) -> Result<Vec<(String, DataType)>, PyError> {
    crate::analysis::parse_ddl_schema(s).map_err(|m| plain(format!("ParseException: {m}")))
}

impl ProcessorBackend for Session {
    fn declare(&mut self, name: &str, kind: VarKind, schemas: Vec<String>, ttl_ms: Option<i64>) -> Result<(), PyError> {
        // TTL runs on processing time: Spark refuses it in any other time mode
        // (`tws-ttl-in-none-mode-error`, `tws-ttl-in-event-time-mode-error`).
        if ttl_ms.is_some() && self.time_mode != TimeMode::ProcessingTime {
            return Err(err(
                "STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                format!("Cannot use TTL for state={name} in timeMode={}, use TimeMode.ProcessingTime() instead.", self.time_mode.name()),
            ));
        }
        if ttl_ms.is_some() {
            return Err(plain("state TTL (ttlDurationMs) is not supported by Streamlab yet".into()));
        }
        let (key_schema, schema) = match kind {
            VarKind::Map => (ddl(&schemas[0])?, ddl(&schemas[1])?),
            _ => (Vec::new(), ddl(&schemas[0])?),
        };
        self.vars.insert(name.to_string(), VarDef { kind, schema, key_schema });
        Ok(())
    }

    fn value_get(&mut self, name: &str) -> Result<Option<Tuple>, PyError> {
        self.var(name, VarKind::Value)?;
        Ok(match self.store.get(&self.skey(name, &[])) {
            Some(TwsEntry::Value(r)) => Some(tuple(r)),
            _ => None,
        })
    }

    fn value_set(&mut self, name: &str, v: Tuple) -> Result<(), PyError> {
        let row = self.to_row(&v, &self.var(name, VarKind::Value)?.schema.clone())?;
        let k = self.skey(name, &[]);
        self.store.put(k, TwsEntry::Value(row));
        self.updated += 1;
        Ok(())
    }

    fn list_get(&mut self, name: &str) -> Result<Vec<Tuple>, PyError> {
        self.var(name, VarKind::List)?;
        Ok(match self.store.get(&self.skey(name, &[])) {
            Some(TwsEntry::List(rs)) => rs.iter().map(tuple).collect(),
            _ => Vec::new(),
        })
    }

    fn list_write(&mut self, name: &str, items: Vec<Tuple>, replace: bool) -> Result<(), PyError> {
        let schema = self.var(name, VarKind::List)?.schema.clone();
        let rows = items.iter().map(|t| self.to_row(t, &schema)).collect::<Result<Vec<Row>, PyError>>()?;
        let k = self.skey(name, &[]);
        let mut list = match (replace, self.store.get(&k)) {
            (false, Some(TwsEntry::List(rs))) => rs.clone(),
            _ => Vec::new(),
        };
        self.updated += rows.len() as u64;
        list.extend(rows);
        if list.is_empty() {
            self.store.remove(&k);
        } else {
            self.store.put(k, TwsEntry::List(list));
        }
        Ok(())
    }

    fn map_entries(&mut self, name: &str) -> Result<Vec<(Tuple, Tuple)>, PyError> {
        self.var(name, VarKind::Map)?;
        let n = self.skey(name, &[]).len();
        Ok(self
            .prefix_entries(name)
            .into_iter()
            .filter_map(|(k, v)| match v {
                TwsEntry::MapValue(r) => Some((tuple(&k[n..].to_vec()), tuple(&r))),
                _ => None,
            })
            .collect())
    }

    fn map_set(&mut self, name: &str, key: Tuple, value: Option<Tuple>) -> Result<(), PyError> {
        let def = self.var(name, VarKind::Map)?.clone();
        let user_key = self.to_row(&key, &def.key_schema)?;
        let k = self.skey(name, &user_key);
        match value {
            Some(v) => {
                let row = self.to_row(&v, &def.schema)?;
                self.store.put(k, TwsEntry::MapValue(row));
                self.updated += 1;
            }
            None => {
                self.store.remove(&k);
                self.removed += 1;
            }
        }
        Ok(())
    }

    fn clear(&mut self, name: &str) -> Result<(), PyError> {
        let kind = self.vars.get(name).map(|v| v.kind).ok_or_else(|| plain(format!("state '{name}' was not declared in init()")))?;
        match kind {
            VarKind::Value => {
                self.store.remove(&self.skey(name, &[]));
                self.removed += 1;
            }
            VarKind::List => {
                if let Some(TwsEntry::List(rs)) = self.store.remove(&self.skey(name, &[])) {
                    self.removed += rs.len() as u64;
                }
            }
            VarKind::Map => {
                for (k, _) in self.prefix_entries(name) {
                    self.store.remove(&k);
                    self.removed += 1;
                }
            }
        }
        Ok(())
    }

    /// Drops the variable for every key (Spark removes its column family), without counting
    /// removed rows.
    fn delete_var(&mut self, name: &str) -> Result<(), PyError> {
        let n = self.key_len;
        let gone: Vec<Row> = self.store.iter().filter(|(k, e)| !matches!(e, TwsEntry::Timer) && k.get(n).is_some_and(|v| matches!(v, Value::Str(s) if &**s == name))).map(|(k, _)| k.clone()).collect();
        for k in gone {
            self.store.remove(&k);
        }
        self.vars.remove(name);
        Ok(())
    }

    fn timers(&mut self) -> Result<Vec<i64>, PyError> {
        self.no_timers_in_none_mode("list_timers")?;
        let mut out: Vec<i64> = self.prefix_entries(TIMER_TAG).into_iter().filter_map(|(k, _)| k.last().and_then(Value::as_i64)).collect();
        out.sort_unstable();
        Ok(out)
    }

    fn register_timer(&mut self, ms: i64) -> Result<(), PyError> {
        self.no_timers_in_none_mode("register_timer")?;
        let k = self.skey(TIMER_TAG, &[Value::Long(ms)]);
        self.store.put(k, TwsEntry::Timer);
        Ok(())
    }

    fn delete_timer(&mut self, ms: i64) -> Result<(), PyError> {
        self.no_timers_in_none_mode("delete_timer")?;
        self.store.remove(&self.skey(TIMER_TAG, &[Value::Long(ms)]));
        Ok(())
    }
}

impl Session {
    /// Timers need a time: PySpark's handle refuses them with `timeMode='None'`.
    fn no_timers_in_none_mode(&self, operation: &str) -> Result<(), PyError> {
        if self.time_mode == TimeMode::None {
            return Err(err(
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                format!("Failed to perform stateful processor operation={operation} with invalid timeMode=NoTime"),
            ));
        }
        Ok(())
    }
}

/// The late-row rule of this operator in `GroupStateTimeout` terms (`EventTime` drops late
/// rows as `EventTimeTimeout` does).
pub fn as_timeout(mode: TimeMode) -> GroupStateTimeout {
    match mode {
        TimeMode::None => GroupStateTimeout::NoTimeout,
        TimeMode::ProcessingTime => GroupStateTimeout::ProcessingTimeTimeout,
        TimeMode::EventTime => GroupStateTimeout::EventTimeTimeout,
    }
}

/// Runs one batch of the operator.
///
/// `late_ms`/`evict_ms` are the operator's watermarks for late rows and for timers;
/// `has_watermark` says whether its input has one; `cx` holds the batch's timestamp.
///
/// # Errors
/// The first failure of the processor (a Python error, a PySpark error, output rows that do
/// not fit the output schema): the batch fails with it.
pub fn run_transform_with_state(
    state: &mut TwsStore,
    input: Vec<Row>,
    spec: &TwsSpec<'_>,
    late_ms: WatermarkMs,
    evict_ms: WatermarkMs,
    has_watermark: bool,
    cx: &super::context::EvalContext,
) -> Result<(Vec<Row>, OperatorMetrics), CallError> {
    let batch_ts_ms = cx.batch_timestamp_ms;
    let (groups, dropped) = group_rows(input, spec.keys, spec.event_time_col, as_timeout(spec.time_mode), late_ms, cx);
    let session = Rc::new(RefCell::new(Session {
        store: std::mem::take(&mut state.store),
        vars: BTreeMap::new(),
        key: Vec::new(),
        key_len: spec.keys.len(),
        time_mode: spec.time_mode,
        updated: 0,
        removed: 0,
    }));
    let result = run_calls(&session, groups, spec, evict_ms, has_watermark, batch_ts_ms);
    let s = Rc::try_unwrap(session).map(RefCell::into_inner);
    let mut s = match s {
        Ok(s) => s,
        // The processor kept the handle somewhere past the batch: take the store out anyway.
        Err(rc) => {
            let mut b = rc.borrow_mut();
            Session { store: std::mem::take(&mut b.store), vars: BTreeMap::new(), key: Vec::new(), key_len: b.key_len, time_mode: b.time_mode, updated: b.updated, removed: b.removed }
        }
    };
    state.store = std::mem::take(&mut s.store);
    let out = result?;
    let key_len = spec.keys.len();
    state.store.commit();
    let total = state.store.iter().filter(|(k, e)| !matches!(e, TwsEntry::Timer) && k.len() > key_len).count() as u64;
    Ok((out, OperatorMetrics { num_rows_total: total, num_rows_updated: s.updated, num_rows_removed: s.removed, num_rows_dropped_by_watermark: dropped }))
}

fn run_calls(session: &Rc<RefCell<Session>>, groups: BTreeMap<Row, Vec<Row>>, spec: &TwsSpec<'_>, evict_ms: WatermarkMs, has_watermark: bool, batch_ts_ms: i64) -> Result<Vec<Row>, CallError> {
    let p = spec.processor;
    let fail = |e: PyError| python_failure(e, &p.class_name);
    let mut interp = p.module.clone();
    interp.set_clock_ms(batch_ts_ms);
    let obj = p.instance.fresh_copy();
    let backend: Rc<RefCell<dyn ProcessorBackend>> = session.clone();
    let handle = Val::Processor(ProcVal::Handle(Backend(backend)));
    // TimerValues: -1 where the time mode has no such time (PySpark's `get_timestamps`).
    let watermark_ms = if spec.time_mode == TimeMode::EventTime { if has_watermark { evict_ms.ms() } else { 0 } } else { -1 };
    let processing_ms = if spec.time_mode == TimeMode::None { -1 } else { batch_ts_ms };
    let timer_values = || Val::Processor(ProcVal::TimerValues(processing_ms, watermark_ms));
    interp.call_method(&obj, "init", vec![handle]).map_err(fail)?;
    let mut out = Vec::new();
    let key_val = |key: &Row| -> Val { Val::Tuple(Rc::new(key.iter().map(val_of).collect())) };
    for (key, rows) in groups {
        session.borrow_mut().key = key.clone();
        let batches: Vec<Val> = if p.use_pandas {
            rows.chunks(MAX_RECORDS_PER_BATCH)
                .map(|chunk| {
                    let columns = spec.input.iter().enumerate().map(|(i, (n, _))| (n.clone(), chunk.iter().map(|r| r.get(i).map(val_of).unwrap_or(Val::None)).collect())).collect();
                    Val::Frame(Rc::new(Frame::from_columns(columns)))
                })
                .collect()
        } else {
            rows.iter().map(|r| Val::Row(Rc::new(spec.input.iter().enumerate().map(|(i, (n, _))| (n.clone(), r.get(i).map(val_of).unwrap_or(Val::None))).collect()))).collect()
        };
        let got = interp
            .call_method(&obj, "handleInputRows", vec![key_val(&key), Val::List(Rc::new(RefCell::new(batches))), timer_values()])
            .map_err(fail)?
            .ok_or_else(|| fail(PyError::runtime(format!("TypeError: Can't instantiate abstract class {} without an implementation for abstract method 'handleInputRows'", p.class_name), 0)))?;
        out.extend(emitted(got, spec, p.use_pandas)?);
    }
    let threshold = match spec.time_mode {
        TimeMode::None => None,
        TimeMode::ProcessingTime => Some(batch_ts_ms),
        TimeMode::EventTime => has_watermark.then_some(evict_ms.ms()),
    };
    if let Some(threshold) = threshold {
        let due: Vec<(Row, i64)> = timers_of(&session.borrow().store, spec.keys.len()).into_iter().filter(|(_, t)| *t <= threshold).collect();
        for (key, t) in due {
            session.borrow_mut().key = key.clone();
            if let Some(got) = interp
                .call_method(&obj, "handleExpiredTimer", vec![key_val(&key), timer_values(), Val::Processor(ProcVal::ExpiredTimerInfo(t))])
                .map_err(fail)?
            {
                out.extend(emitted(got, spec, p.use_pandas)?);
            }
            let mut s = session.borrow_mut();
            let k = s.skey(TIMER_TAG, &[Value::Long(t)]);
            s.store.remove(&k);
        }
    }
    interp.call_method(&obj, "close", vec![]).map_err(fail)?;
    Ok(out)
}

/// The rows a handler returned: DataFrames (pandas) or `Row`s, in the output schema.
fn emitted(got: Val, spec: &TwsSpec<'_>, use_pandas: bool) -> Result<Vec<Row>, CallError> {
    if use_pandas {
        return frames_to_rows(got, spec.output).map_err(|m| ("PYTHON_EXCEPTION".to_string(), m));
    }
    let items = match got {
        Val::List(l) => l.borrow().clone(),
        Val::None => Vec::new(),
        other => return Err(("PYTHON_EXCEPTION".into(), format!("the handler returned a {}; yield Row(...) objects", other.type_name()))),
    };
    let mut rows = Vec::new();
    for it in items {
        let Val::Row(fields) = it else {
            return Err(("PYTHON_EXCEPTION".into(), format!("the handler yielded a {}; yield Row(...) objects", it.type_name())));
        };
        let mut row = Vec::new();
        for (n, t) in spec.output {
            let v = fields.iter().find(|(f, _)| f == n).map(|(_, v)| v.clone()).unwrap_or(Val::None);
            row.push(tuple_to_row(&[v], &[(n.clone(), t.clone())]).map_err(|m| ("PYTHON_EXCEPTION".to_string(), m))?.remove(0));
        }
        rows.push(row);
    }
    Ok(rows)
}
