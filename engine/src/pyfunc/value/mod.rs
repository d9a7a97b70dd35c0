//! Python values ([`Val`]) and what Python does with them regardless of where they came from:
//! ordering, equality, iteration, arithmetic. The types a `Val` holds, which hold `Val`s in
//! turn, live here too: the pandas subset ([`pandas`], dates in [`pandas_time`]),
//! [`group_state`], the processor's handles ([`processor`]) and [`spark_types`].

pub mod group_state;
pub mod pandas;
pub mod pandas_time;
pub mod processor;
pub mod spark_types;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use group_state::GroupState;
use pandas::{groupby_iter, AccessorKind, GroupBy, IndexerKind};
pub use pandas::{Frame, Series};
use super::parse::{BinOp, FuncDef};
use super::PyError;
use crate::types::time::NANOS_PER_SECOND;

type R<T> = Result<T, PyError>;

/// A Python value.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// A Python `int` (64-bit here).
    Int(i64),
    /// A Python `float`.
    Float(f64),
    /// A Python `str`.
    Str(Rc<str>),
    /// A tuple (immutable, shared).
    Tuple(Rc<Vec<Val>>),
    /// A list (mutable and shared between the names bound to it, as in Python).
    List(Rc<RefCell<Vec<Val>>>),
    /// A dict: (key, value) entries in insertion order, mutable and shared.
    Dict(Rc<RefCell<Vec<(Val, Val)>>>),
    /// A pandas `Timestamp` (UTC), ns since the epoch (pandas' own unit).
    Timestamp(i64),
    /// A pandas `DataFrame`.
    Frame(Rc<Frame>),
    /// A pandas `Series`.
    Series(Rc<Series>),
    /// A function a `def` statement defined.
    Func(Rc<FuncDef>),
    /// A `lambda`, with the names of the scope it was written in (read when it runs).
    Lambda(Rc<FuncDef>, Rc<BTreeMap<String, Val>>),
    /// A built-in function or constructor, by name (`len`, `Row`, a `pd.*` function,
    /// `datetime.now`).
    Builtin(&'static str),
    /// An imported module, by name (`pandas`, `numpy`, `datetime.datetime`; `typing` for
    /// names that only matter in annotations and class bases).
    Module(&'static str),
    /// `obj.name`, not yet called.
    Method(Box<Val>, Rc<str>),
    /// `state` (shared so the operator reads what the call did).
    State(Rc<RefCell<GroupState>>),
    /// `obj.loc` / `.iloc` / `.at` / `.iat` of a frame or a series.
    Indexer(IndexerKind, Box<Val>),
    /// `df.groupby(...)`.
    GroupBy(Rc<GroupBy>),
    /// `series.str` / `series.dt`.
    Accessor(AccessorKind, Rc<Series>),
    /// A pandas `Timedelta`, ns.
    Timedelta(i64),
    /// A slice inside a tuple subscript (`df.loc[:, 'c']`): its bounds.
    Slice(Option<Box<Val>>, Option<Box<Val>>),
    /// A `class` statement's value: its name and attributes (methods, class constants).
    Class(Rc<ClassDef>),
    /// An instance of a [`Val::Class`]: `self`.
    Object(Rc<Object>),
    /// `pyspark.sql.Row(name=value, ...)`: named fields in order.
    Row(Rc<Vec<(String, Val)>>),
    /// `transformWithState`'s handle, state variables, timer values ([`processor`]).
    Processor(processor::ProcVal),
    /// A `pyspark.sql.types` type or field ([`spark_types`]).
    Spark(Rc<spark_types::SparkType>),
}

/// What a `class` statement defines: methods and class attributes, with those of its bases
/// (user classes only; `StatefulProcessor` and `object` add nothing).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassDef {
    /// The class's name.
    pub name: String,
    /// Its methods and class attributes by name, its bases' included.
    pub attrs: BTreeMap<String, Val>,
}

/// An instance: its class and its own attributes (`self.x = ...`).
#[derive(Debug, PartialEq)]
pub struct Object {
    /// The instance's class.
    pub class: Rc<ClassDef>,
    /// The instance's own attributes by name (`self.x = ...`).
    pub attrs: RefCell<BTreeMap<String, Val>>,
}

impl Object {
    /// A copy with its own attribute map (each batch's processor starts from the one the query
    /// was built with, as PySpark unpickles a fresh copy per task).
    pub fn fresh_copy(&self) -> Rc<Object> {
        Rc::new(Object { class: Rc::clone(&self.class), attrs: RefCell::new(self.attrs.borrow().clone()) })
    }
}

impl Val {
    /// Python's `type(x).__name__`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::None => "NoneType",
            Val::Bool(_) => "bool",
            Val::Int(_) => "int",
            Val::Float(_) => "float",
            Val::Str(_) => "str",
            Val::Tuple(_) => "tuple",
            Val::List(_) => "list",
            Val::Dict(_) => "dict",
            Val::Timestamp(_) => "Timestamp",
            Val::Frame(_) => "DataFrame",
            Val::Series(_) => "Series",
            Val::Func(_) | Val::Lambda(..) => "function",
            Val::Builtin(_) => "builtin_function_or_method",
            Val::Module(_) => "module",
            Val::Method(..) => "method",
            Val::State(_) => "GroupState",
            Val::Indexer(IndexerKind::Loc, _) => "_LocIndexer",
            Val::Indexer(IndexerKind::ILoc, _) => "_iLocIndexer",
            Val::Indexer(IndexerKind::At, _) => "_AtIndexer",
            Val::Indexer(IndexerKind::IAt, _) => "_iAtIndexer",
            Val::GroupBy(g) if g.series => "SeriesGroupBy",
            Val::GroupBy(_) => "DataFrameGroupBy",
            Val::Accessor(AccessorKind::Str, _) => "StringMethods",
            Val::Accessor(AccessorKind::Dt, _) => "DatetimeProperties",
            Val::Timedelta(_) => "Timedelta",
            Val::Slice(..) => "slice",
            Val::Class(_) => "type",
            Val::Object(_) => "object",
            Val::Row(_) => "Row",
            Val::Processor(p) => p.type_name(),
            Val::Spark(t) => t.class_name(),
        }
    }

    /// The value as an integer (bools count, as in Python).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            Val::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }

    pub(super) fn as_f64(&self) -> Option<f64> {
        match self {
            Val::Int(i) => Some(*i as f64),
            Val::Bool(b) => Some(f64::from(u8::from(*b))),
            Val::Float(f) => Some(*f),
            _ => None,
        }
    }

    pub(super) fn truthy(&self, line: usize) -> Result<bool, PyError> {
        Ok(match self {
            Val::None => false,
            Val::Bool(b) => *b,
            Val::Int(i) => *i != 0,
            Val::Float(f) => *f != 0.0,
            Val::Str(s) => !s.is_empty(),
            Val::Tuple(t) => !t.is_empty(),
            Val::List(l) => !l.borrow().is_empty(),
            Val::Dict(d) => !d.borrow().is_empty(),
            Val::Frame(_) | Val::Series(_) => {
                return Err(PyError::runtime(
                    format!("ValueError: The truth value of a {} is ambiguous. Use a.empty, a.bool(), a.item(), a.any() or a.all().", self.type_name()),
                    line,
                ))
            }
            _ => true,
        })
    }

    pub(super) fn repr(&self) -> String {
        match self {
            Val::None => "None".into(),
            Val::Bool(b) => if *b { "True" } else { "False" }.into(),
            Val::Int(i) => i.to_string(),
            Val::Float(f) => {
                if f.fract() == 0.0 && f.is_finite() && f.abs() < 1e16 {
                    format!("{f:.1}")
                } else {
                    f.to_string()
                }
            }
            Val::Str(s) => format!("'{s}'"),
            Val::Tuple(t) => {
                let items: Vec<String> = t.iter().map(Val::repr).collect();
                if items.len() == 1 {
                    format!("({},)", items[0])
                } else {
                    format!("({})", items.join(", "))
                }
            }
            Val::List(l) => format!("[{}]", l.borrow().iter().map(Val::repr).collect::<Vec<_>>().join(", ")),
            Val::Dict(d) => format!("{{{}}}", d.borrow().iter().map(|(k, v)| format!("{}: {}", k.repr(), v.repr())).collect::<Vec<_>>().join(", ")),
            Val::Timestamp(ns) => format!("Timestamp('{}')", format_ns(*ns)),
            Val::Timedelta(ns) => format!("Timedelta('{}')", pandas_time::timedelta_text(*ns)),
            Val::Row(fields) => format!("Row({})", fields.iter().map(|(n, v)| format!("{n}={}", v.repr())).collect::<Vec<_>>().join(", ")),
            Val::Object(o) => format!("<{} object>", o.class.name),
            Val::Class(c) => format!("<class '{}'>", c.name),
            Val::Spark(t) => t.repr(),
            other => format!("<{}>", other.type_name()),
        }
    }

    pub(super) fn str_value(&self) -> String {
        match self {
            Val::Str(s) => s.to_string(),
            Val::Timestamp(ns) => format_ns(*ns),
            Val::Timedelta(ns) => pandas_time::timedelta_text(*ns),
            other => other.repr(),
        }
    }
}

/// A pandas `Timestamp` as `str` writes it. The state function's timestamps are tz-naive
/// (Spark hands pandas the session-local wall time), so no offset: `2026-01-01 12:07:00`, with
/// `.500000` (or nine digits) when it has a fraction (recorded:
/// `sw3-apws-py-max-genexp-timestamp`, `str(pdf['event_time'].max())`).
pub(super) fn format_ns(ns: i64) -> String {
    let secs = ns.div_euclid(NANOS_PER_SECOND);
    let sub = ns.rem_euclid(NANOS_PER_SECOND);
    let pattern = match sub {
        0 => "%Y-%m-%d %H:%M:%S",
        s if s % 1000 == 0 => "%Y-%m-%d %H:%M:%S%.6f",
        _ => "%Y-%m-%d %H:%M:%S%.9f",
    };
    match chrono::DateTime::from_timestamp(secs, sub as u32) {
        Some(t) => t.format(pattern).to_string(),
        None => ns.to_string(),
    }
}

/// Python's ordering of two values for `sorted`, `min` and `max` (None last).
pub(super) fn key_cmp(a: &Val, b: &Val) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Val::None, Val::None) => Ordering::Equal,
        (Val::None, _) => Ordering::Greater,
        (_, Val::None) => Ordering::Less,
        (Val::Str(x), Val::Str(y)) => x.cmp(y),
        (Val::Timestamp(x), Val::Timestamp(y)) | (Val::Timedelta(x), Val::Timedelta(y)) => x.cmp(y),
        (Val::Tuple(x), Val::Tuple(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                let o = key_cmp(p, q);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            _ => Ordering::Equal,
        },
    }
}

/// `iter(v)` of a value as a list.
///
/// # Errors
/// `TypeError` for a value that is not iterable.
pub(super) fn iterate_plain(v: &Val, line: usize) -> R<Vec<Val>> {
    Ok(match v {
        Val::Tuple(t) => t.as_ref().clone(),
        Val::List(l) => l.borrow().clone(),
        Val::Dict(d) => d.borrow().iter().map(|(k, _)| k.clone()).collect(),
        Val::Str(s) => s.chars().map(|c| Val::Str(Rc::from(c.to_string()))).collect(),
        Val::Series(s) => s.values.clone(),
        Val::Frame(f) => f.columns.iter().map(|(n, _)| Val::Str(Rc::from(n.as_str()))).collect(),
        Val::GroupBy(g) => groupby_iter(g),
        Val::Row(fields) => fields.iter().map(|(_, v)| v.clone()).collect(),
        Val::Processor(p) => p.iterate(line)?,
        Val::Spark(t) if t.fields().is_some() => t.fields().unwrap_or_default().iter().map(|f| Val::Spark(Rc::new(spark_types::SparkType::Field(f.clone())))).collect(),
        other => return Err(PyError::runtime(format!("TypeError: '{}' object is not iterable", other.type_name()), line)),
    })
}

pub(super) fn overflow(line: usize) -> PyError {
    PyError::runtime("OverflowError: the integer is past 64 bits (Streamlab's Python uses 64-bit integers)", line)
}

/// Python's `==` between two values.
pub(super) fn py_eq(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::None, Val::None) => true,
        (Val::None, _) | (_, Val::None) => false,
        (Val::Timestamp(x), Val::Timestamp(y)) | (Val::Timedelta(x), Val::Timedelta(y)) => x == y,
        (Val::Timestamp(_) | Val::Timedelta(_), _) | (_, Val::Timestamp(_) | Val::Timedelta(_)) => false,
        (Val::Tuple(x), Val::Tuple(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| py_eq(p, q)),
        (Val::List(x), Val::List(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| py_eq(p, q))
        }
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

/// Arithmetic on numbers and timestamps; `None` when the operand types do not apply.
pub(super) fn arith(op: BinOp, x: &Val, y: &Val, line: usize) -> Option<R<Val>> {
    let zero = || PyError::runtime("ZeroDivisionError: division by zero", line);
    match (x, y) {
        (Val::Timestamp(_) | Val::Timedelta(_), _) | (_, Val::Timestamp(_) | Val::Timedelta(_)) => pandas_time::time_arith(op, x, y, line),
        (Val::Int(_) | Val::Bool(_), Val::Int(_) | Val::Bool(_)) => {
            let (a, b) = (x.as_int()?, y.as_int()?);
            Some(match op {
                BinOp::Add => a.checked_add(b).map(Val::Int).ok_or_else(|| overflow(line)),
                BinOp::Sub => a.checked_sub(b).map(Val::Int).ok_or_else(|| overflow(line)),
                BinOp::Mul => a.checked_mul(b).map(Val::Int).ok_or_else(|| overflow(line)),
                BinOp::Div => {
                    if b == 0 {
                        Err(zero())
                    } else {
                        Ok(Val::Float(a as f64 / b as f64))
                    }
                }
                BinOp::FloorDiv => {
                    if b == 0 {
                        Err(PyError::runtime("ZeroDivisionError: integer division or modulo by zero", line))
                    } else {
                        a.checked_div(b).map(|_| Val::Int(floor_div(a, b))).ok_or_else(|| overflow(line))
                    }
                }
                BinOp::Mod => {
                    if b == 0 {
                        Err(PyError::runtime("ZeroDivisionError: integer division or modulo by zero", line))
                    } else {
                        Ok(Val::Int(a - b * floor_div(a, b)))
                    }
                }
                BinOp::Pow => {
                    if b < 0 {
                        Ok(Val::Float((a as f64).powf(b as f64)))
                    } else {
                        u32::try_from(b).ok().and_then(|e| a.checked_pow(e)).map(Val::Int).ok_or_else(|| overflow(line))
                    }
                }
                _ => return None,
            })
        }
        _ => {
            let (a, b) = (x.as_f64()?, y.as_f64()?);
            Some(match op {
                BinOp::Add => Ok(Val::Float(a + b)),
                BinOp::Sub => Ok(Val::Float(a - b)),
                BinOp::Mul => Ok(Val::Float(a * b)),
                BinOp::Div => {
                    if b == 0.0 {
                        Err(PyError::runtime("ZeroDivisionError: float division by zero", line))
                    } else {
                        Ok(Val::Float(a / b))
                    }
                }
                BinOp::FloorDiv => {
                    if b == 0.0 {
                        Err(PyError::runtime("ZeroDivisionError: float floor division by zero", line))
                    } else {
                        Ok(Val::Float((a / b).floor()))
                    }
                }
                BinOp::Mod => {
                    if b == 0.0 {
                        Err(PyError::runtime("ZeroDivisionError: float modulo", line))
                    } else {
                        Ok(Val::Float(a - b * (a / b).floor()))
                    }
                }
                BinOp::Pow => Ok(Val::Float(a.powf(b))),
                _ => return None,
            })
        }
    }
}

/// Python's `//` on integers (rounds toward negative infinity).
pub(super) fn floor_div(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

pub(super) fn parse_ts(s: &str) -> Option<i64> {
    let t = crate::types::parse_timestamp_us(s).ok()?;
    t.checked_mul(1000)
}
