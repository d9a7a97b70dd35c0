//! Python expressions evaluated to values (`eval`: displays, comprehensions, calls, lambdas, f-strings), as CPython evaluates an expression node.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Interpreter, Scope, Series, Val, R, MAX_ITEMS};
use crate::pyfunc::parse::{BinOp, Expr, ExprKind, UnOp};
use crate::pyfunc::value::overflow;
use crate::pyfunc::PyError;

impl Interpreter {
    pub(super) fn eval(&mut self, e: &Expr, frame: &mut Scope) -> R<Val> {
        self.step(e.line)?;
        let line = e.line;
        Ok(match &e.kind {
            ExprKind::None => Val::None,
            ExprKind::Bool(b) => Val::Bool(*b),
            ExprKind::Int(i) => Val::Int(*i),
            ExprKind::Float(f) => Val::Float(*f),
            ExprKind::Str(s) => Val::Str(Rc::from(s.as_str())),
            ExprKind::Name(n) => self.lookup(n, frame, line)?,
            ExprKind::Tuple(items) => Val::Tuple(Rc::new(items.iter().map(|i| self.eval(i, frame)).collect::<R<Vec<_>>>()?)),
            ExprKind::List(items) => Val::List(Rc::new(RefCell::new(items.iter().map(|i| self.eval(i, frame)).collect::<R<Vec<_>>>()?))),
            ExprKind::Dict(items) => {
                let mut out: Vec<(Val, Val)> = Vec::new();
                for (k, v) in items {
                    let k = self.eval(k, frame)?;
                    let v = self.eval(v, frame)?;
                    match out.iter_mut().find(|(x, _)| *x == k) {
                        Some(slot) => slot.1 = v,
                        None => out.push((k, v)),
                    }
                }
                Val::Dict(Rc::new(RefCell::new(out)))
            }
            ExprKind::ListComp { elt, target, iter, conds } => {
                let it = self.eval(iter, frame)?;
                let mut out = Vec::new();
                'items: for item in self.iterate(&it, line)? {
                    self.assign(target, item, frame, line)?;
                    for c in conds {
                        if !self.eval(c, frame)?.truthy(line)? {
                            continue 'items;
                        }
                    }
                    out.push(self.eval(elt, frame)?);
                    if out.len() > MAX_ITEMS {
                        return Err(PyError::runtime("the list grew past the lab's limit", line));
                    }
                }
                Val::List(Rc::new(RefCell::new(out)))
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj, frame)?;
                self.attr(o, name, line)?
            }
            ExprKind::Call { func, args, kwargs } => {
                let f = self.eval(func, frame)?;
                let args = args.iter().map(|a| self.eval(a, frame)).collect::<R<Vec<_>>>()?;
                let kwargs = kwargs.iter().map(|(k, v)| Ok((k.clone(), self.eval(v, frame)?))).collect::<R<Vec<_>>>()?;
                self.apply(f, args, kwargs, line)?
            }
            ExprKind::Index(obj, idx) => {
                let o = self.eval(obj, frame)?;
                if let ExprKind::Slice(_, lo, hi) = &idx.kind {
                    let lo = lo.as_ref().map(|x| self.eval(x, frame)).transpose()?;
                    let hi = hi.as_ref().map(|x| self.eval(x, frame)).transpose()?;
                    return self.slice(&o, lo, hi, line);
                }
                let i = self.eval(idx, frame)?;
                self.index(&o, &i, line)?
            }
            // A slice inside a tuple key (`df.loc[:, 'c']`).
            ExprKind::Slice(_, lo, hi) => {
                let lo = lo.as_ref().map(|x| self.eval(x, frame)).transpose()?.map(Box::new);
                let hi = hi.as_ref().map(|x| self.eval(x, frame)).transpose()?.map(Box::new);
                Val::Slice(lo, hi)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x, frame)?;
                match op {
                    UnOp::Not => Val::Bool(!v.truthy(line)?),
                    UnOp::Pos => v,
                    UnOp::Neg => match v {
                        Val::Int(i) => Val::Int(i.checked_neg().ok_or_else(|| overflow(line))?),
                        Val::Bool(b) => Val::Int(-i64::from(b)),
                        Val::Float(f) => Val::Float(-f),
                        Val::Series(s) => self.map_series(&s, line, |x| match x {
                            Val::Int(i) => Ok(Val::Int(i.checked_neg().ok_or_else(|| overflow(line))?)),
                            Val::Float(f) => Ok(Val::Float(-f)),
                            other => Err(PyError::runtime(format!("TypeError: bad operand type for unary -: '{}'", other.type_name()), line)),
                        })?,
                        other => return Err(PyError::runtime(format!("TypeError: bad operand type for unary -: '{}'", other.type_name()), line)),
                    },
                    UnOp::Invert => match v {
                        Val::Int(i) => Val::Int(!i),
                        Val::Series(s) => self.map_series(&s, line, |x| match x {
                            Val::Bool(b) => Ok(Val::Bool(!b)),
                            other => Err(PyError::runtime(format!("TypeError: bad operand type for unary ~: '{}'", other.type_name()), line)),
                        })?,
                        other => return Err(PyError::runtime(format!("TypeError: bad operand type for unary ~: '{}'", other.type_name()), line)),
                    },
                }
            }
            ExprKind::Binary(BinOp::And, a, b) => {
                let x = self.eval(a, frame)?;
                if x.truthy(line)? {
                    self.eval(b, frame)?
                } else {
                    x
                }
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                let x = self.eval(a, frame)?;
                if x.truthy(line)? {
                    x
                } else {
                    self.eval(b, frame)?
                }
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, frame)?;
                let y = self.eval(b, frame)?;
                self.binary(*op, x, y, line)?
            }
            ExprKind::Lambda(def) => Val::Lambda(Rc::clone(def), Rc::new(frame.locals.clone())),
            ExprKind::FString(parts) => {
                let mut out = String::new();
                for part in parts {
                    match part {
                        crate::pyfunc::parse::FPart::Text(t) => out.push_str(t),
                        crate::pyfunc::parse::FPart::Value { expr, conversion, spec } => {
                            let v = self.eval(expr, frame)?;
                            let text = if *conversion == Some('r') { v.repr() } else { v.str_value() };
                            out.push_str(&crate::pyfunc::format::format_value(&v, &text, spec, line)?);
                        }
                    }
                    if out.len() > MAX_ITEMS {
                        return Err(PyError::runtime("the string grew past the lab's limit", line));
                    }
                }
                Val::Str(Rc::from(out))
            }
            ExprKind::IfElse { body, test, orelse } => {
                if self.eval(test, frame)?.truthy(line)? {
                    self.eval(body, frame)?
                } else {
                    self.eval(orelse, frame)?
                }
            }
        })
    }

    fn map_series(&self, s: &Series, line: usize, f: impl Fn(&Val) -> R<Val>) -> R<Val> {
        let _ = line;
        Ok(Val::Series(Rc::new(s.with_values(s.values.iter().map(f).collect::<R<Vec<_>>>()?))))
    }
}
