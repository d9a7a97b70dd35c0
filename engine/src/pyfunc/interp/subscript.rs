//! Subscription and slicing (`o[i]`, `o[a:b]`, Python's `__getitem__`) on sequences, dicts, rows and pandas values.

use std::cell::RefCell;
use std::rc::Rc;

use super::{py_eq, Interpreter, Val, R};
use crate::pyfunc::PyError;

impl Interpreter {
    pub(super) fn index(&mut self, o: &Val, i: &Val, line: usize) -> R<Val> {
        let seq_index = |n: usize| -> R<usize> {
            let k = i.as_int().ok_or_else(|| PyError::runtime(format!("TypeError: indices must be integers, not {}", i.type_name()), line))?;
            let k = if k < 0 { k + n as i64 } else { k };
            if k < 0 || k >= n as i64 {
                return Err(PyError::runtime(format!("IndexError: {} index out of range", o.type_name()), line));
            }
            Ok(k as usize)
        };
        Ok(match o {
            Val::Tuple(t) => t[seq_index(t.len())?].clone(),
            Val::Row(fields) => match i {
                Val::Str(n) => fields.iter().find(|(f, _)| f.as_str() == &**n).map(|(_, v)| v.clone()).ok_or_else(|| PyError::runtime(format!("ValueError: {n}"), line))?,
                _ => fields[seq_index(fields.len())?].1.clone(),
            },
            Val::List(l) => {
                let l = l.borrow();
                l[seq_index(l.len())?].clone()
            }
            Val::Str(s) => {
                let chars: Vec<char> = s.chars().collect();
                Val::Str(Rc::from(chars[seq_index(chars.len())?].to_string()))
            }
            Val::Dict(d) => d.borrow().iter().find(|(k, _)| py_eq(k, i)).map(|(_, v)| v.clone()).ok_or_else(|| PyError::runtime(format!("KeyError: {}", i.repr()), line))?,
            Val::Frame(f) => self.frame_index(f, i, line)?,
            Val::Series(s) => self.series_index(s, i, line)?,
            Val::Indexer(kind, inner) => self.indexer_get(*kind, inner, i, line)?,
            Val::GroupBy(g) => self.groupby_index(g, i, line)?,
            other => return Err(PyError::runtime(format!("TypeError: '{}' object is not subscriptable", other.type_name()), line)),
        })
    }

    pub(super) fn slice(&mut self, o: &Val, lo: Option<Val>, hi: Option<Val>, line: usize) -> R<Val> {
        let bounds = |n: usize| -> R<(usize, usize)> {
            let fix = |v: Option<Val>, default: usize| -> R<usize> {
                match v {
                    None | Some(Val::None) => Ok(default),
                    Some(v) => {
                        let k = v.as_int().ok_or_else(|| PyError::runtime("TypeError: slice indices must be integers or None", line))?;
                        let k = if k < 0 { (k + n as i64).max(0) } else { k.min(n as i64) };
                        Ok(k as usize)
                    }
                }
            };
            let a = fix(lo.clone(), 0)?;
            let b = fix(hi.clone(), n)?;
            Ok((a, b.max(a)))
        };
        Ok(match o {
            Val::List(l) => {
                let l = l.borrow();
                let (a, b) = bounds(l.len())?;
                Val::List(Rc::new(RefCell::new(l[a..b].to_vec())))
            }
            Val::Tuple(t) => {
                let (a, b) = bounds(t.len())?;
                Val::Tuple(Rc::new(t[a..b].to_vec()))
            }
            Val::Str(s) => {
                let chars: Vec<char> = s.chars().collect();
                let (a, b) = bounds(chars.len())?;
                Val::Str(Rc::from(chars[a..b].iter().collect::<String>()))
            }
            Val::Series(s) => {
                let (a, b) = bounds(s.values.len())?;
                Val::Series(Rc::new(s.take(&(a..b).collect::<Vec<_>>())))
            }
            Val::Frame(f) => {
                let (a, b) = bounds(f.len)?;
                Val::Frame(Rc::new(f.take(&(a..b).collect::<Vec<_>>())))
            }
            Val::Indexer(kind, inner) => return self.indexer_get(*kind, inner, &Val::Slice(lo.map(Box::new), hi.map(Box::new)), line),
            other => return Err(PyError::runtime(format!("TypeError: '{}' object is not subscriptable", other.type_name()), line)),
        })
    }
}
