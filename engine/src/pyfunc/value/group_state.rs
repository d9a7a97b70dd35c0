//! `GroupState` as an `applyInPandasWithState` function sees it (`state.get`, `update`,
//! `setTimeoutDuration`, ...) and the `GroupStateTimeout` it was started with.

use std::rc::Rc;

use super::Val;
use crate::pyfunc::PyError;
use crate::types::time::NANOS_PER_MILLI;

/// `GroupStateTimeout` (`timeoutConf`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupStateTimeout {
    /// `GroupStateTimeout.NoTimeout`: keys never time out; setting a timeout raises.
    NoTimeout,
    /// `GroupStateTimeout.ProcessingTimeTimeout`: `setTimeoutDuration(ms)` from the batch
    /// timestamp, compared with the query's processing-time clock.
    ProcessingTimeTimeout,
    /// `GroupStateTimeout.EventTimeTimeout`: `setTimeoutTimestamp(ms)`, compared with the
    /// event-time watermark; late rows are dropped.
    EventTimeTimeout,
}

impl GroupStateTimeout {
    /// Parses PySpark's `timeoutConf` string.
    pub fn parse(s: &str) -> Option<GroupStateTimeout> {
        match s {
            "NoTimeout" => Some(GroupStateTimeout::NoTimeout),
            "ProcessingTimeTimeout" => Some(GroupStateTimeout::ProcessingTimeTimeout),
            "EventTimeTimeout" => Some(GroupStateTimeout::EventTimeTimeout),
            _ => None,
        }
    }

    /// The name as Spark prints it.
    pub fn name(self) -> &'static str {
        match self {
            GroupStateTimeout::NoTimeout => "NoTimeout",
            GroupStateTimeout::ProcessingTimeTimeout => "ProcessingTimeTimeout",
            GroupStateTimeout::EventTimeTimeout => "EventTimeTimeout",
        }
    }
}

/// PySpark's `GroupState` for one call (`pyspark/sql/streaming/state.py`): the stored value,
/// what the call did to it, and the timeout it set. Times in ms.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupState {
    /// The state tuple, if one is defined.
    pub value: Option<Vec<Val>>,
    /// The call ran `state.update(...)` at least once.
    pub updated: bool,
    /// The call ran `state.remove()` and no `update` after it.
    pub removed: bool,
    /// The timeout set during this call (ms); every call starts without one.
    pub timeout_ms: Option<i64>,
    /// `state.hasTimedOut`: the function is called because the key's timeout passed, with
    /// no rows.
    pub has_timed_out: bool,
    /// The operator's `timeoutConf`, which decides which `setTimeout*` method is allowed.
    pub conf: GroupStateTimeout,
    /// The batch's eviction watermark (ms), `None` when the input has no watermark.
    pub watermark_ms: Option<i64>,
    /// The batch's timestamp (ms).
    pub batch_ts_ms: i64,
}

impl GroupState {
    fn pyspark_error(class: &str, condition: &str, message: String, line: usize) -> PyError {
        PyError { message: format!("{class}: [{condition}] {message}"), line, condition: Some(condition.to_string()) }
    }

    pub(in crate::pyfunc) fn attr(&self, name: &str, line: usize) -> Result<Val, PyError> {
        Ok(match name {
            "exists" => Val::Bool(self.value.is_some()),
            "hasTimedOut" => Val::Bool(self.has_timed_out),
            "get" => match &self.value {
                Some(v) => Val::Tuple(Rc::new(v.clone())),
                None => return Err(Self::pyspark_error("PySparkValueError", "STATE_NOT_EXISTS", "State is either not defined or has already been removed.".into(), line)),
            },
            "getOption" => self.value.as_ref().map(|v| Val::Tuple(Rc::new(v.clone()))).unwrap_or(Val::None),
            "oldTimeoutTimestamp" => Val::Int(-1),
            _ => return Err(PyError::runtime(format!("AttributeError: 'GroupState' object has no attribute '{name}'"), line)),
        })
    }

    pub(in crate::pyfunc) fn call(&mut self, method: &str, args: &[Val], line: usize) -> Result<Val, PyError> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Val::None);
        match method {
            "update" => {
                let v = match arg(0) {
                    Val::Tuple(t) => t.as_ref().clone(),
                    Val::List(l) => l.borrow().clone(),
                    Val::None => return Err(Self::pyspark_error("PySparkTypeError", "NOT_TUPLE", "Argument `newValue` should be a tuple, got NoneType.".into(), line)),
                    other => return Err(Self::pyspark_error("PySparkTypeError", "NOT_TUPLE", format!("Argument `newValue` should be a tuple, got {}.", other.type_name()), line)),
                };
                self.value = Some(v);
                self.updated = true;
                self.removed = false;
                Ok(Val::None)
            }
            "remove" => {
                self.value = None;
                self.removed = true;
                Ok(Val::None)
            }
            "setTimeoutDuration" => {
                if self.conf != GroupStateTimeout::ProcessingTimeTimeout {
                    return Err(Self::pyspark_error(
                        "PySparkRuntimeError",
                        "CANNOT_WITHOUT",
                        "Cannot set timeout duration without enabling processing time timeout in applyInPandasWithState.".into(),
                        line,
                    ));
                }
                let ms = arg(0);
                let Some(ms) = ms.as_int() else {
                    return Err(Self::pyspark_error("PySparkTypeError", "NOT_INT", format!("Argument `durationMs` should be an int, got {}.", ms.type_name()), line));
                };
                if ms <= 0 {
                    return Err(Self::pyspark_error("PySparkValueError", "VALUE_NOT_POSITIVE", "Value for `durationMs` must be positive, got 'int'.".into(), line));
                }
                self.timeout_ms = Some(self.batch_ts_ms.saturating_add(ms));
                Ok(Val::None)
            }
            "setTimeoutTimestamp" => {
                if self.conf != GroupStateTimeout::EventTimeTimeout {
                    return Err(Self::pyspark_error(
                        "PySparkRuntimeError",
                        "CANNOT_WITHOUT",
                        "Cannot set timeout timestamp without enabling event time timeout in applyInPandasWithState.".into(),
                        line,
                    ));
                }
                let ts = match arg(0) {
                    Val::Timestamp(ns) => ns.div_euclid(NANOS_PER_MILLI),
                    other => match other.as_int() {
                        Some(i) => i,
                        None => return Err(Self::pyspark_error("PySparkTypeError", "NOT_INT", format!("Argument `timestampMs` should be an int, got {}.", other.type_name()), line)),
                    },
                };
                if ts <= 0 {
                    return Err(Self::pyspark_error("PySparkValueError", "VALUE_NOT_POSITIVE", "Value for `timestampMs` must be positive, got 'int'.".into(), line));
                }
                if let Some(wm) = self.watermark_ms {
                    if ts < wm {
                        return Err(Self::pyspark_error(
                            "PySparkValueError",
                            "INVALID_TIMEOUT_TIMESTAMP",
                            format!("Timeout timestamp ({ts}) cannot be earlier than the current watermark ({wm})."),
                            line,
                        ));
                    }
                }
                self.timeout_ms = Some(ts);
                Ok(Val::None)
            }
            "getCurrentWatermarkMs" => match self.watermark_ms {
                Some(w) => Ok(Val::Int(w)),
                None => Err(Self::pyspark_error(
                    "PySparkRuntimeError",
                    "CANNOT_WITHOUT",
                    "Cannot get event time watermark timestamp without setting watermark before applyInPandasWithState.".into(),
                    line,
                )),
            },
            "getCurrentProcessingTimeMs" => Ok(Val::Int(self.batch_ts_ms)),
            _ => Err(PyError::runtime(format!("AttributeError: 'GroupState' object has no attribute '{method}'"), line)),
        }
    }
}

