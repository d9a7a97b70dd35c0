//! Python's binary operators (`+`, `==`, `in`, `&`, …) on values, element-wise over a pandas Series as pandas broadcasts them.

use std::cell::RefCell;
use std::rc::Rc;

use super::{key_cmp, py_eq, Interpreter, Val, R, MAX_ITEMS};
use crate::pyfunc::parse::BinOp;
use crate::pyfunc::value::arith;
use crate::pyfunc::PyError;

impl Interpreter {
    pub(in crate::pyfunc) fn binary(&self, op: BinOp, x: Val, y: Val, line: usize) -> R<Val> {
        // Element-wise over a Series (with a scalar or a Series of the same length); a
        // missing value gives NaN (False for a comparison, True for `!=`), as in pandas.
        let element = |me: &Self, p: &Val, q: &Val| -> R<Val> {
            if crate::pyfunc::value::pandas::is_na(p) || crate::pyfunc::value::pandas::is_na(q) {
                return Ok(match op {
                    BinOp::Ne => Val::Bool(true),
                    BinOp::Eq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::BitAnd => Val::Bool(false),
                    BinOp::BitOr => Val::Bool(p.truthy(line).unwrap_or(false) && !crate::pyfunc::value::pandas::is_na(p) || q.truthy(line).unwrap_or(false) && !crate::pyfunc::value::pandas::is_na(q)),
                    _ => Val::Float(f64::NAN),
                });
            }
            me.binary(op, p.clone(), q.clone(), line)
        };
        match (&x, &y) {
            (Val::Series(a), Val::Series(b)) => {
                if a.values.len() != b.values.len() {
                    return Err(PyError::runtime("ValueError: Can only compare identically-labeled Series objects", line));
                }
                let values = a.values.iter().zip(&b.values).map(|(p, q)| element(self, p, q)).collect::<R<Vec<_>>>()?;
                return Ok(Val::Series(Rc::new(a.with_values(values))));
            }
            (Val::Series(a), _) if !matches!(op, BinOp::In | BinOp::NotIn | BinOp::Is | BinOp::IsNot) => {
                let values = a.values.iter().map(|p| element(self, p, &y)).collect::<R<Vec<_>>>()?;
                return Ok(Val::Series(Rc::new(a.with_values(values))));
            }
            (_, Val::Series(b)) if !matches!(op, BinOp::In | BinOp::NotIn | BinOp::Is | BinOp::IsNot) => {
                let values = b.values.iter().map(|q| element(self, &x, q)).collect::<R<Vec<_>>>()?;
                return Ok(Val::Series(Rc::new(b.with_values(values))));
            }
            _ => {}
        }
        let unsupported = || PyError::runtime(format!("TypeError: unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), x.type_name(), y.type_name()), line);
        Ok(match op {
            BinOp::Eq => Val::Bool(py_eq(&x, &y)),
            BinOp::Ne => Val::Bool(!py_eq(&x, &y)),
            BinOp::Is => Val::Bool(matches!((&x, &y), (Val::None, Val::None)) || (matches!((&x, &y), (Val::Bool(_), Val::Bool(_))) && x == y)),
            BinOp::IsNot => Val::Bool(!(matches!((&x, &y), (Val::None, Val::None)) || (matches!((&x, &y), (Val::Bool(_), Val::Bool(_))) && x == y))),
            BinOp::In | BinOp::NotIn => {
                let found = match &y {
                    Val::Str(s) => match &x {
                        Val::Str(n) => s.contains(n.as_ref()),
                        _ => return Err(PyError::runtime("TypeError: 'in <string>' requires string as left operand", line)),
                    },
                    Val::Dict(d) => d.borrow().iter().any(|(k, _)| py_eq(k, &x)),
                    Val::Frame(f) => f.columns.iter().any(|(n, _)| matches!(&x, Val::Str(s) if s.as_ref() == n)),
                    other => self.iterate(other, line)?.iter().any(|v| py_eq(v, &x)),
                };
                Val::Bool(if op == BinOp::In { found } else { !found })
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let ord = match (&x, &y) {
                    (Val::Str(a), Val::Str(b)) => a.cmp(b),
                    (Val::Timestamp(a), Val::Timestamp(b)) | (Val::Timedelta(a), Val::Timedelta(b)) => a.cmp(b),
                    (Val::Tuple(_), Val::Tuple(_)) => key_cmp(&x, &y),
                    _ => match (x.as_f64(), y.as_f64()) {
                        (Some(a), Some(b)) => match a.partial_cmp(&b) {
                            Some(o) => o,
                            None => return Ok(Val::Bool(false)),
                        },
                        _ => {
                            return Err(PyError::runtime(
                                format!("TypeError: '{}' not supported between instances of '{}' and '{}'", op.symbol(), x.type_name(), y.type_name()),
                                line,
                            ))
                        }
                    },
                };
                use std::cmp::Ordering::*;
                Val::Bool(match op {
                    BinOp::Lt => ord == Less,
                    BinOp::Le => ord != Greater,
                    BinOp::Gt => ord == Greater,
                    _ => ord != Less,
                })
            }
            BinOp::Add => match (&x, &y) {
                (Val::Str(a), Val::Str(b)) => Val::Str(Rc::from(format!("{a}{b}"))),
                (Val::List(a), Val::List(b)) => {
                    let mut v = a.borrow().clone();
                    v.extend(b.borrow().iter().cloned());
                    Val::List(Rc::new(RefCell::new(v)))
                }
                (Val::Tuple(a), Val::Tuple(b)) => {
                    let mut v = a.as_ref().clone();
                    v.extend(b.iter().cloned());
                    Val::Tuple(Rc::new(v))
                }
                _ => arith(op, &x, &y, line).ok_or_else(unsupported)??,
            },
            BinOp::Mul => match (&x, &y) {
                (Val::List(a), n) | (n, Val::List(a)) if n.as_int().is_some() => {
                    let n = n.as_int().unwrap_or(0).max(0) as usize;
                    let a = a.borrow();
                    if a.len().saturating_mul(n) > MAX_ITEMS {
                        return Err(PyError::runtime("the list grew past the lab's limit", line));
                    }
                    Val::List(Rc::new(RefCell::new(a.iter().cloned().cycle().take(a.len() * n).collect())))
                }
                (Val::Str(s), n) | (n, Val::Str(s)) if n.as_int().is_some() => {
                    let n = n.as_int().unwrap_or(0).max(0) as usize;
                    if s.len().saturating_mul(n) > MAX_ITEMS {
                        return Err(PyError::runtime("the string grew past the lab's limit", line));
                    }
                    Val::Str(Rc::from(s.repeat(n)))
                }
                _ => arith(op, &x, &y, line).ok_or_else(unsupported)??,
            },
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => match (&x, &y) {
                (Val::Bool(a), Val::Bool(b)) => Val::Bool(match op {
                    BinOp::BitAnd => a & b,
                    BinOp::BitOr => a | b,
                    _ => a ^ b,
                }),
                _ => match (x.as_int(), y.as_int()) {
                    (Some(a), Some(b)) => Val::Int(match op {
                        BinOp::BitAnd => a & b,
                        BinOp::BitOr => a | b,
                        _ => a ^ b,
                    }),
                    _ => return Err(unsupported()),
                },
            },
            BinOp::Mod if matches!(x, Val::Str(_)) => return Err(PyError::runtime("'%' string formatting is not supported here: use + and str()", line)),
            _ => arith(op, &x, &y, line).ok_or_else(unsupported)??,
        })
    }
}
