//! PySpark 4.3's `StatefulProcessorHandle`, `ValueState`, `ListState`, `MapState`,
//! `TimerValues` and `ExpiredTimerInfo` (`python/pyspark/sql/streaming/stateful_processor.py`)
//! as the sandboxed interpreter sees them, for `transformWithStateInPandas` and
//! `transformWithState`. The state itself lives behind a [`ProcessorBackend`] that the
//! operator (`execution::transform_with_state`) implements for the current grouping key (the
//! "implicit key"), so this module knows Python values only.

use std::cell::RefCell;
use std::rc::Rc;

use super::Val;
use crate::pyfunc::PyError;

/// The kind of a state variable (`getValueState` / `getListState` / `getMapState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VarKind {
    /// `ValueState`: one tuple per grouping key.
    Value,
    /// `ListState`: an ordered list of tuples per grouping key.
    List,
    /// `MapState`: user key tuple → value tuple, per grouping key.
    Map,
}

impl VarKind {
    /// The PySpark class name.
    pub fn class_name(self) -> &'static str {
        match self {
            VarKind::Value => "ValueState",
            VarKind::List => "ListState",
            VarKind::Map => "MapState",
        }
    }
}

/// `timeMode` of `transformWithStateInPandas` (Spark's `TimeMode`): what timers and TTL
/// measure against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimeMode {
    /// `timeMode='None'` (Spark's `NoTime`): no timers.
    None,
    /// `timeMode='ProcessingTime'`: timers fire against the batch timestamp.
    ProcessingTime,
    /// `timeMode='EventTime'`: timers fire against the eviction watermark; late rows are
    /// dropped.
    EventTime,
}

impl TimeMode {
    /// Parses `timeMode` as Spark does (case-insensitive `none`, `processingTime`, `eventTime`).
    pub fn parse(s: &str) -> Option<TimeMode> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Some(TimeMode::None),
            "processingtime" => Some(TimeMode::ProcessingTime),
            "eventtime" => Some(TimeMode::EventTime),
            _ => None,
        }
    }

    /// The name as Spark prints it (`NoTime`, `ProcessingTime`, `EventTime`).
    pub fn name(self) -> &'static str {
        match self {
            TimeMode::None => "NoTime",
            TimeMode::ProcessingTime => "ProcessingTime",
            TimeMode::EventTime => "EventTime",
        }
    }
}

/// A state tuple: one value per field of the variable's schema.
pub type Tuple = Vec<Val>;

/// The operator's state, as one call of the processor reads and writes it. Every method acts on
/// the current grouping key; a variable is named as `init` declared it. Errors are PySpark's
/// (their line is filled in by the caller).
pub trait ProcessorBackend: std::fmt::Debug {
    /// `getValueState` / `getListState` / `getMapState`: declares `name` with its schema texts
    /// (one; two for a map: key then value) and TTL in ms.
    fn declare(&mut self, name: &str, kind: VarKind, schemas: Vec<String>, ttl_ms: Option<i64>) -> Result<(), PyError>;
    /// `ValueState.get()` (and `exists()`): the stored tuple, `None` if unset.
    fn value_get(&mut self, name: &str) -> Result<Option<Tuple>, PyError>;
    /// `ValueState.update(v)`: stores `v`, checked against the variable's schema.
    fn value_set(&mut self, name: &str, v: Tuple) -> Result<(), PyError>;
    /// `ListState.get()` (and `exists()`): the elements in order, empty if none.
    fn list_get(&mut self, name: &str) -> Result<Vec<Tuple>, PyError>;
    /// Appends `items` (`appendValue`, `appendList`), or replaces the list with them (`put`).
    fn list_write(&mut self, name: &str, items: Vec<Tuple>, replace: bool) -> Result<(), PyError>;
    /// Every (user key, value) entry of a `MapState`, in key order: what `getValue`,
    /// `containsKey`, `iterator`, `keys`, `values` and `exists` read.
    fn map_entries(&mut self, name: &str) -> Result<Vec<(Tuple, Tuple)>, PyError>;
    /// `updateValue` (`Some`) or `removeKey` (`None`).
    fn map_set(&mut self, name: &str, key: Tuple, value: Option<Tuple>) -> Result<(), PyError>;
    /// `clear()` of any kind of variable.
    fn clear(&mut self, name: &str) -> Result<(), PyError>;
    /// `deleteIfExists`.
    fn delete_var(&mut self, name: &str) -> Result<(), PyError>;
    /// The key's timers (ms), ascending.
    fn timers(&mut self) -> Result<Vec<i64>, PyError>;
    /// `registerTimer(expiryTimestampMs)`: a timer for the current key at `ms` (ms since the
    /// epoch).
    fn register_timer(&mut self, ms: i64) -> Result<(), PyError>;
    /// `deleteTimer(expiryTimestampMs)`: drops the current key's timer at `ms`, if any.
    fn delete_timer(&mut self, ms: i64) -> Result<(), PyError>;
}

/// A shared [`ProcessorBackend`]; two handles are equal when they are the same backend.
#[derive(Clone)]
pub struct Backend(pub Rc<RefCell<dyn ProcessorBackend>>);

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StatefulProcessorHandle")
    }
}

impl PartialEq for Backend {
    fn eq(&self, other: &Backend) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The processor-side Python values.
#[derive(Debug, Clone, PartialEq)]
pub enum ProcVal {
    /// `StatefulProcessorHandle`.
    Handle(Backend),
    /// A state variable returned by the handle.
    Var(Backend, VarKind, Rc<str>),
    /// `TimerValues(currentProcessingTimeInMs, currentWatermarkInMs)`; -1 where the time mode
    /// gives none.
    TimerValues(i64, i64),
    /// `ExpiredTimerInfo(expiryTimeInMs)`.
    ExpiredTimerInfo(i64),
}

type R<T> = Result<T, PyError>;

fn at(mut e: PyError, line: usize) -> PyError {
    if e.line == 0 {
        e.line = line;
    }
    e
}

fn tuple_arg(v: Option<&Val>, what: &str, line: usize) -> R<Tuple> {
    match v {
        Some(Val::Tuple(t)) => Ok(t.as_ref().clone()),
        Some(Val::Row(r)) => Ok(r.iter().map(|(_, v)| v.clone()).collect()),
        Some(other) => Err(PyError::runtime(format!("TypeError: {what} should be a tuple, got {}", other.type_name()), line)),
        None => Err(PyError::runtime(format!("TypeError: missing {what}"), line)),
    }
}

fn tuple_list(v: Option<&Val>, what: &str, line: usize) -> R<Vec<Tuple>> {
    let items = match v {
        Some(Val::List(l)) => l.borrow().clone(),
        Some(Val::Tuple(t)) => t.as_ref().clone(),
        Some(other) => return Err(PyError::runtime(format!("TypeError: {what} should be a list of tuples, got {}", other.type_name()), line)),
        None => return Err(PyError::runtime(format!("TypeError: missing {what}"), line)),
    };
    items.iter().map(|i| tuple_arg(Some(i), "each element", line)).collect()
}

fn tup(t: Tuple) -> Val {
    Val::Tuple(Rc::new(t))
}

fn list(items: Vec<Val>) -> Val {
    Val::List(Rc::new(RefCell::new(items)))
}

fn int_arg(v: Option<&Val>, what: &str, line: usize) -> R<i64> {
    v.and_then(Val::as_int).ok_or_else(|| PyError::runtime(format!("TypeError: {what} should be an int"), line))
}


impl ProcVal {
    /// Python's type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            ProcVal::Handle(_) => "StatefulProcessorHandle",
            ProcVal::Var(_, k, _) => k.class_name(),
            ProcVal::TimerValues(..) => "TimerValues",
            ProcVal::ExpiredTimerInfo(_) => "ExpiredTimerInfo",
        }
    }

    /// `obj.name`: every attribute is a method.
    pub(in crate::pyfunc) fn attr(&self, this: &Val, name: &str, line: usize) -> R<Val> {
        let known: &[&str] = match self {
            ProcVal::Handle(_) => &["getValueState", "getListState", "getMapState", "registerTimer", "deleteTimer", "listTimers", "deleteIfExists"],
            ProcVal::Var(_, VarKind::Value, _) => &["exists", "get", "update", "clear"],
            ProcVal::Var(_, VarKind::List, _) => &["exists", "get", "put", "appendValue", "appendList", "clear"],
            ProcVal::Var(_, VarKind::Map, _) => &["exists", "getValue", "containsKey", "updateValue", "iterator", "keys", "values", "removeKey", "clear"],
            ProcVal::TimerValues(..) => &["getCurrentProcessingTimeInMs", "getCurrentWatermarkInMs"],
            ProcVal::ExpiredTimerInfo(_) => &["getExpiryTimeInMs"],
        };
        if known.contains(&name) {
            Ok(Val::Method(Box::new(this.clone()), Rc::from(name)))
        } else {
            Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", self.type_name()), line))
        }
    }

    /// `iter(x)` of a processor value: none is iterable.
    pub(in crate::pyfunc) fn iterate(&self, line: usize) -> R<Vec<Val>> {
        Err(PyError::runtime(format!("TypeError: '{}' object is not iterable", self.type_name()), line))
    }

    /// `obj.name(*args)`.
    pub(in crate::pyfunc) fn call(&self, name: &str, args: Vec<Val>, line: usize) -> R<Val> {
        match self {
            ProcVal::TimerValues(pt, wm) => Ok(Val::Int(if name == "getCurrentProcessingTimeInMs" { *pt } else { *wm })),
            ProcVal::ExpiredTimerInfo(t) => Ok(Val::Int(*t)),
            ProcVal::Handle(b) => {
                let mut be = b.0.borrow_mut();
                match name {
                    "getValueState" | "getListState" | "getMapState" => {
                        let var = match args.first() {
                            Some(Val::Str(s)) => Rc::clone(s),
                            _ => return Err(PyError::runtime(format!("TypeError: {name}() takes the state name first"), line)),
                        };
                        let (kind, nschemas) = match name {
                            "getValueState" => (VarKind::Value, 1),
                            "getListState" => (VarKind::List, 1),
                            _ => (VarKind::Map, 2),
                        };
                        let schemas = (1..=nschemas).map(|i| super::spark_types::schema_text(args.get(i), line)).collect::<R<Vec<_>>>()?;
                        let ttl = match args.get(nschemas + 1) {
                            None | Some(Val::None) => None,
                            Some(v) => Some(int_arg(Some(v), "ttlDurationMs", line)?),
                        };
                        be.declare(&var, kind, schemas, ttl).map_err(|e| at(e, line))?;
                        Ok(Val::Processor(ProcVal::Var(b.clone(), kind, var)))
                    }
                    "registerTimer" => be.register_timer(int_arg(args.first(), "expiryTimestampMs", line)?).map(|()| Val::None).map_err(|e| at(e, line)),
                    "deleteTimer" => be.delete_timer(int_arg(args.first(), "expiryTimestampMs", line)?).map(|()| Val::None).map_err(|e| at(e, line)),
                    "listTimers" => Ok(list(be.timers().map_err(|e| at(e, line))?.into_iter().map(Val::Int).collect())),
                    _ => {
                        let var = args.first().map(|v| v.type_name());
                        match args.first() {
                            Some(Val::Str(s)) => be.delete_var(s).map(|()| Val::None).map_err(|e| at(e, line)),
                            _ => Err(PyError::runtime(format!("TypeError: deleteIfExists() takes a state name, not {}", var.unwrap_or("nothing")), line)),
                        }
                    }
                }
            }
            ProcVal::Var(b, kind, var) => {
                let mut be = b.0.borrow_mut();
                let r = match (kind, name) {
                    (_, "clear") => be.clear(var).map(|()| Val::None),
                    (VarKind::Value, "exists") => be.value_get(var).map(|v| Val::Bool(v.is_some())),
                    (VarKind::Value, "get") => be.value_get(var).map(|v| v.map(tup).unwrap_or(Val::None)),
                    (VarKind::Value, _) => be.value_set(var, tuple_arg(args.first(), "newValue", line)?).map(|()| Val::None),
                    (VarKind::List, "exists") => be.list_get(var).map(|v| Val::Bool(!v.is_empty())),
                    (VarKind::List, "get") => be.list_get(var).map(|v| list(v.into_iter().map(tup).collect())),
                    (VarKind::List, "appendValue") => be.list_write(var, vec![tuple_arg(args.first(), "newState", line)?], false).map(|()| Val::None),
                    (VarKind::List, _) => be.list_write(var, tuple_list(args.first(), "newState", line)?, name == "put").map(|()| Val::None),
                    (VarKind::Map, "exists") => be.map_entries(var).map(|v| Val::Bool(!v.is_empty())),
                    (VarKind::Map, "getValue" | "containsKey") => {
                        let key = tuple_arg(args.first(), "key", line)?;
                        be.map_entries(var).map(|es| {
                            let found = es.into_iter().find(|(k, _)| k == &key).map(|(_, v)| v);
                            if name == "containsKey" {
                                Val::Bool(found.is_some())
                            } else {
                                found.map(tup).unwrap_or(Val::None)
                            }
                        })
                    }
                    (VarKind::Map, "updateValue") => {
                        let key = tuple_arg(args.first(), "key", line)?;
                        let value = tuple_arg(args.get(1), "value", line)?;
                        be.map_set(var, key, Some(value)).map(|()| Val::None)
                    }
                    (VarKind::Map, "removeKey") => be.map_set(var, tuple_arg(args.first(), "key", line)?, None).map(|()| Val::None),
                    (VarKind::Map, _) => be.map_entries(var).map(|es| {
                        list(
                            es.into_iter()
                                .map(|(k, v)| match name {
                                    "keys" => tup(k),
                                    "values" => tup(v),
                                    _ => tup(vec![tup(k), tup(v)]),
                                })
                                .collect(),
                        )
                    }),
                };
                r.map_err(|e| at(e, line))
            }
        }
    }
}
