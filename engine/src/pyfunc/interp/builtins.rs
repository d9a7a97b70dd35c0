//! Python's builtins (`len`, `int`, `sorted`, `isinstance`, …) and the module functions reached through them (`pd.DataFrame`, `time.time`), as CPython's `builtins` module.

use std::cell::RefCell;
use std::rc::Rc;

use super::{key_cmp, Interpreter, Scope, Val, R, MAX_ITEMS};
use crate::pyfunc::value::pandas::groupby_iter;
use crate::pyfunc::parse::BinOp;
use crate::pyfunc::value::{overflow, parse_ts};
use crate::pyfunc::PyError;
use crate::types::time::{NANOS_PER_MICRO, NANOS_PER_MILLI, NANOS_PER_SECOND};

impl Interpreter {
    pub(super) fn lookup(&self, name: &str, frame: &Scope, line: usize) -> R<Val> {
        if let Some(v) = frame.locals.get(name).or_else(|| self.globals.get(name)) {
            return Ok(v.clone());
        }
        let builtin = match name {
            "len" => "len",
            "min" => "min",
            "max" => "max",
            "sum" => "sum",
            "int" => "int",
            "float" => "float",
            "str" => "str",
            "bool" => "bool",
            "abs" => "abs",
            "range" => "range",
            "list" => "list",
            "tuple" => "tuple",
            "sorted" => "sorted",
            "enumerate" => "enumerate",
            "zip" => "zip",
            "round" => "round",
            "print" => "print",
            "isinstance" => "isinstance",
            "dict" => "dict",
            "any" => "any",
            "all" => "all",
            "iter" => "iter",
            "object" => "object",
            _ => return Err(PyError::runtime(format!("NameError: name '{name}' is not defined"), line)),
        };
        Ok(Val::Builtin(builtin))
    }

    /// What `key=` gives for each item of `sorted`, `min` or `max` (the items themselves
    /// without one, or with `key=None`).
    fn sort_keys(&mut self, items: &[Val], key: Option<Val>, line: usize) -> R<Vec<Val>> {
        match key {
            None | Some(Val::None) => Ok(items.to_vec()),
            Some(f) => items.iter().map(|v| self.apply_value(f.clone(), vec![v.clone()], line)).collect(),
        }
    }

    pub(super) fn builtin(&mut self, name: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        let kw = |k: &str| kwargs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let one = || args.first().cloned().ok_or_else(|| PyError::runtime(format!("TypeError: {name}() takes at least 1 argument (0 given)"), line));
        Ok(match name {
            // `time.time()`: seconds since the epoch on the query clock.
            "time.time" => Val::Float(self.clock_ms as f64 / 1000.0),
            // `datetime.fromtimestamp(s)`: a naive datetime in the session time zone (UTC in
            // the lab), which compares with pandas' Timestamps; `datetime.now()` is the clock.
            "datetime.fromtimestamp" => match one()? {
                Val::Int(secs) => Val::Timestamp(secs.saturating_mul(1_000_000_000)),
                Val::Float(secs) if secs.is_finite() => Val::Timestamp((secs * 1e9) as i64),
                other => return Err(PyError::runtime(format!("TypeError: 'datetime.datetime.fromtimestamp' needs a number, not '{}'", other.type_name()), line)),
            },
            "datetime.now" => Val::Timestamp(self.clock_ms.saturating_mul(1_000_000)),
            "len" => Val::Int(match one()? {
                Val::Str(s) => s.chars().count(),
                Val::Tuple(t) => t.len(),
                Val::List(l) => l.borrow().len(),
                Val::Dict(d) => d.borrow().len(),
                Val::Frame(f) => f.len,
                Val::Series(s) => s.values.len(),
                Val::GroupBy(g) => groupby_iter(&g).len(),
                Val::Spark(t) => t.fields().map_or(0, <[_]>::len),
                Val::Row(fields) => fields.len(),
                other => return Err(PyError::runtime(format!("TypeError: object of type '{}' has no len()", other.type_name()), line)),
            } as i64),
            "min" | "max" => {
                let items = if args.len() == 1 { self.iterate(&args[0], line)? } else { args };
                if items.is_empty() {
                    return Err(PyError::runtime(format!("ValueError: {name}() arg is an empty sequence"), line));
                }
                // With `key=`, items are compared by what it gives; the first of equals wins.
                let keys = self.sort_keys(&items, kw("key"), line)?;
                let mut best = 0;
                for i in 1..items.len() {
                    let o = key_cmp(&keys[i], &keys[best]);
                    if (name == "min" && o == std::cmp::Ordering::Less) || (name == "max" && o == std::cmp::Ordering::Greater) {
                        best = i;
                    }
                }
                items[best].clone()
            }
            "sum" => {
                let mut acc = Val::Int(0);
                for v in self.iterate(&one()?, line)? {
                    acc = self.binary(BinOp::Add, acc, v, line)?;
                }
                acc
            }
            "int" => match args.first().cloned().unwrap_or(Val::Int(0)) {
                Val::Int(i) => Val::Int(i),
                Val::Bool(b) => Val::Int(i64::from(b)),
                Val::Float(f) if f.is_finite() && f.abs() < 9.2e18 => Val::Int(f.trunc() as i64),
                Val::Float(_) => return Err(PyError::runtime("OverflowError: cannot convert float to integer", line)),
                Val::Str(s) => Val::Int(s.trim().parse().map_err(|_| PyError::runtime(format!("ValueError: invalid literal for int() with base 10: '{s}'"), line))?),
                Val::Timestamp(ns) => Val::Int(ns),
                other => return Err(PyError::runtime(format!("TypeError: int() argument must be a string or a number, not '{}'", other.type_name()), line)),
            },
            "float" => match args.first().cloned().unwrap_or(Val::Float(0.0)) {
                Val::Str(s) => Val::Float(s.trim().parse().map_err(|_| PyError::runtime(format!("ValueError: could not convert string to float: '{s}'"), line))?),
                v => Val::Float(v.as_f64().ok_or_else(|| PyError::runtime(format!("TypeError: float() argument must be a string or a number, not '{}'", v.type_name()), line))?),
            },
            "str" => Val::Str(Rc::from(args.first().map(Val::str_value).unwrap_or_default())),
            "bool" => Val::Bool(args.first().map(|v| v.truthy(line)).transpose()?.unwrap_or(false)),
            "abs" => match one()? {
                Val::Int(i) => Val::Int(i.checked_abs().ok_or_else(|| overflow(line))?),
                Val::Float(f) => Val::Float(f.abs()),
                other => return Err(PyError::runtime(format!("TypeError: bad operand type for abs(): '{}'", other.type_name()), line)),
            },
            "round" => match one()? {
                Val::Float(f) => Val::Int(f.round_ties_even() as i64),
                v => v,
            },
            "range" => {
                let ints: Vec<i64> = args.iter().map(|a| a.as_int().ok_or_else(|| PyError::runtime("TypeError: range() takes integers", line))).collect::<R<_>>()?;
                let (a, b, s) = match ints.as_slice() {
                    [b] => (0, *b, 1),
                    [a, b] => (*a, *b, 1),
                    [a, b, s] if *s != 0 => (*a, *b, *s),
                    _ => return Err(PyError::runtime("ValueError: range() arg 3 must not be zero", line)),
                };
                let n = if s > 0 { (b - a + s - 1) / s } else { (a - b - s - 1) / -s }.max(0);
                if n as usize > MAX_ITEMS {
                    return Err(PyError::runtime("the range is past the lab's limit", line));
                }
                Val::List(Rc::new(RefCell::new((0..n).map(|k| Val::Int(a + k * s)).collect())))
            }
            "list" => Val::List(Rc::new(RefCell::new(match args.first() {
                Some(v) => self.iterate(v, line)?,
                None => Vec::new(),
            }))),
            "tuple" => Val::Tuple(Rc::new(match args.first() {
                Some(v) => self.iterate(v, line)?,
                None => Vec::new(),
            })),
            "dict" => Val::Dict(Rc::new(RefCell::new(kwargs.iter().map(|(k, v)| (Val::Str(Rc::from(k.as_str())), v.clone())).collect()))),
            "sorted" => {
                let items = self.iterate(&one()?, line)?;
                let keys = self.sort_keys(&items, kw("key"), line)?;
                // A stable sort by key; `reverse=True` compares the other way round and keeps
                // equal items in their order, as Python's does.
                let reverse = kw("reverse").is_some_and(|r| matches!(r, Val::Bool(true)));
                let mut order: Vec<usize> = (0..items.len()).collect();
                order.sort_by(|&a, &b| if reverse { key_cmp(&keys[b], &keys[a]) } else { key_cmp(&keys[a], &keys[b]) });
                Val::List(Rc::new(RefCell::new(order.into_iter().map(|i| items[i].clone()).collect())))
            }
            "enumerate" => Val::List(Rc::new(RefCell::new(
                self.iterate(&one()?, line)?.into_iter().enumerate().map(|(i, v)| Val::Tuple(Rc::new(vec![Val::Int(i as i64), v]))).collect(),
            ))),
            "zip" => {
                let lists = args.iter().map(|a| self.iterate(a, line)).collect::<R<Vec<_>>>()?;
                let n = lists.iter().map(Vec::len).min().unwrap_or(0);
                Val::List(Rc::new(RefCell::new((0..n).map(|i| Val::Tuple(Rc::new(lists.iter().map(|l| l[i].clone()).collect()))).collect())))
            }
            "any" | "all" => {
                let items = self.iterate(&one()?, line)?;
                let mut t = Vec::with_capacity(items.len());
                for v in &items {
                    t.push(v.truthy(line)?);
                }
                Val::Bool(if name == "any" { t.iter().any(|b| *b) } else { t.iter().all(|b| *b) })
            }
            "print" => Val::None,
            "isinstance" => {
                let (Some(v), Some(cls)) = (args.first(), args.get(1)) else {
                    return Err(PyError::runtime(format!("TypeError: isinstance expected 2 arguments, got {}", args.len()), line));
                };
                let classes = match cls {
                    Val::Tuple(t) => t.as_ref().clone(),
                    other => vec![other.clone()],
                };
                Val::Bool(classes.iter().any(|c| is_instance(v, c)))
            }
            "iter" => Val::List(Rc::new(RefCell::new(self.iterate(&one()?, line)?))),
            "object" => return Err(PyError::runtime("TypeError: object() is not supported in Streamlab's Python", line)),
            "Row" => {
                if !args.is_empty() {
                    return Err(PyError::runtime("TypeError: Row(...) takes named fields in Streamlab's Python: Row(name=value, ...)", line));
                }
                Val::Row(Rc::new(kwargs))
            }
            t if crate::pyfunc::value::spark_types::is_class(t) => crate::pyfunc::value::spark_types::construct(t, &args, &kwargs, line)?,
            "pd.DataFrame" => crate::pyfunc::value::pandas::frame_from(&args, &kwargs, line)?,
            "pd.Series" => crate::pyfunc::value::pandas::series_from(&args, &kwargs, line)?,
            "pd.concat" => crate::pyfunc::value::pandas::concat(&args, &kwargs, line)?,
            "pd.merge" => match (args.first(), args.get(1)) {
                (Some(Val::Frame(l)), Some(Val::Frame(r))) => crate::pyfunc::value::pandas::merge(l, r, &kwargs, line)?,
                _ => return Err(PyError::runtime("TypeError: merge() takes two DataFrames", line)),
            },
            "pd.Timedelta" => crate::pyfunc::value::pandas_time::make_timedelta(&args, &kwargs, line)?,
            "pd.Timestamp" | "pd.to_datetime" => {
                let unit = kw("unit").map(|u| u.str_value());
                match one()? {
                    Val::Timestamp(ns) => Val::Timestamp(ns),
                    Val::Series(s) if name == "pd.to_datetime" => {
                        let mut out = Vec::with_capacity(s.values.len());
                        for v in &s.values {
                            out.push(if crate::pyfunc::value::pandas::is_na(v) { Val::None } else { self.builtin("pd.Timestamp", vec![v.clone()], kwargs.clone(), line)? });
                        }
                        Val::Series(Rc::new(s.with_values(out)))
                    }
                    Val::Str(s) => Val::Timestamp(parse_ts(&s).ok_or_else(|| PyError::runtime(format!("ValueError: could not convert string to Timestamp: '{s}'"), line))?),
                    v => {
                        let mult: i64 = match unit.as_deref() {
                            Some("ms") => NANOS_PER_MILLI,
                            Some("s") => NANOS_PER_SECOND,
                            Some("us") => NANOS_PER_MICRO,
                            None | Some("ns") => 1,
                            Some(u) => return Err(PyError::runtime(format!("ValueError: unit '{u}' is not supported here (use 's', 'ms', 'us' or 'ns')"), line)),
                        };
                        match v {
                            Val::Int(i) => Val::Timestamp(i.checked_mul(mult).ok_or_else(|| PyError::runtime("OutOfBoundsDatetime: Out of bounds nanosecond timestamp", line))?),
                            Val::Float(f) => Val::Timestamp((f * mult as f64) as i64),
                            Val::None => Val::None,
                            other => return Err(PyError::runtime(format!("TypeError: Cannot convert input of type {} to Timestamp", other.type_name()), line)),
                        }
                    }
                }
            }
            "pd.isna" | "pd.notna" => match one()? {
                Val::Series(s) => Val::Series(Rc::new(s.with_values(s.values.iter().map(|v| Val::Bool(crate::pyfunc::value::pandas::is_na(v) == (name == "pd.isna"))).collect()))),
                v => Val::Bool(crate::pyfunc::value::pandas::is_na(&v) == (name == "pd.isna")),
            },
            other => return Err(PyError::runtime(format!("NameError: name '{other}' is not defined"), line)),
        })
    }
}

/// `isinstance(v, cls)` for the classes a state function names: the builtin types, pandas'
/// `DataFrame` / `Series` / `Timestamp`, the learner's own classes; a name imported from
/// PySpark (`GroupState`, `StatefulProcessorHandle`, ...) matches the value PySpark passes.
fn is_instance(v: &Val, cls: &Val) -> bool {
    match cls {
        Val::Builtin(b) => match *b {
            "int" => matches!(v, Val::Int(_) | Val::Bool(_)),
            "float" => matches!(v, Val::Float(_)),
            "str" => matches!(v, Val::Str(_)),
            "bool" => matches!(v, Val::Bool(_)),
            "list" => matches!(v, Val::List(_)),
            "tuple" => matches!(v, Val::Tuple(_) | Val::Row(_)),
            "dict" => matches!(v, Val::Dict(_)),
            "object" => true,
            "pd.DataFrame" => matches!(v, Val::Frame(_)),
            "pd.Series" => matches!(v, Val::Series(_)),
            "pd.Timestamp" => matches!(v, Val::Timestamp(_)),
            "pd.Timedelta" => matches!(v, Val::Timedelta(_)),
            "Row" => matches!(v, Val::Row(_)),
            _ => false,
        },
        Val::Class(c) => matches!(v, Val::Object(o) if o.class.name == c.name || o.class.attrs.len() >= c.attrs.len() && c.attrs.keys().all(|k| o.class.attrs.contains_key(k))),
        Val::Module("typing") => matches!(v, Val::State(_) | Val::Processor(_) | Val::Object(_)),
        _ => false,
    }
}
