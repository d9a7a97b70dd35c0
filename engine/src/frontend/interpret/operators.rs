//! Python's unary and binary operators on evaluated values: Column expressions (`Column.__add__`, `__eq__`, `__invert__`, …) and the plain arithmetic programs do on constants.

use super::{type_error, Evaluator, Py, R};
use super::errors::{cannot_apply_in_for_column, cannot_convert_column_into_bool};
use crate::frontend::python::{PyBinOp, PyUnOp};
use crate::frontend::Span;
use crate::error::{AnalysisError, Error};
use crate::plan::{BinOp, Expr};

impl Evaluator<'_> {
    pub(super) fn unary(&mut self, op: PyUnOp, v: Py, span: Span) -> R<Py> {
        let v = self.as_col_if_column(v);
        Ok(match (op, v) {
            (PyUnOp::Invert, Py::Col(e)) => Py::Col(Expr::Not(Box::new(e))),
            (PyUnOp::Neg, Py::Col(e)) => Py::Col(Expr::Negate(Box::new(e))),
            (PyUnOp::Pos, v @ (Py::Col(_) | Py::Int(_) | Py::Float(_))) => v,
            (PyUnOp::Neg, Py::Int(i)) => Py::Int(i.wrapping_neg()),
            (PyUnOp::Neg, Py::Float(f)) => Py::Float(-f),
            (PyUnOp::Not, Py::Col(e)) => return Err(cannot_convert_column_into_bool(&e, self.catalog, span)),
            (PyUnOp::Not, v) => Py::Bool(!truthy(&v)),
            (_, v) => return Err(type_error(format!("bad operand type for unary {}: '{}'", unary_symbol(op), v.type_name()), span)),
        })
    }

    pub(super) fn binary(&mut self, op: PyBinOp, l: Py, r: Py, span: Span) -> R<Py> {
        let (l, r) = (self.as_col_if_column(l), self.as_col_if_column(r));
        let has_col = matches!(l, Py::Col(_)) || matches!(r, Py::Col(_));
        let bop = match op {
            PyBinOp::Eq => BinOp::Eq,
            PyBinOp::Ne => BinOp::NotEq,
            PyBinOp::Lt => BinOp::Lt,
            PyBinOp::Le => BinOp::LtEq,
            PyBinOp::Gt => BinOp::Gt,
            PyBinOp::Ge => BinOp::GtEq,
            PyBinOp::Or => BinOp::Or,
            PyBinOp::And => BinOp::And,
            PyBinOp::Add => BinOp::Add,
            PyBinOp::Sub => BinOp::Sub,
            PyBinOp::Mul => BinOp::Mul,
            PyBinOp::Div => BinOp::Div,
            PyBinOp::Mod => BinOp::Mod,
            // `col ** 2` is `pow(col, 2)` (`Column.__pow__`).
            PyBinOp::Pow if has_col => {
                let le = self.literal_or_col(l, span)?;
                let re = self.literal_or_col(r, span)?;
                return Ok(Py::Col(crate::frontend::functions::scalar_function("pow", vec![le, re], span)?));
            }
            // Python's `and`/`or`/`not`/`in` ask a Column for its truth value, which PySpark
            // refuses: the classic slip for `&`, `|`, `~`. Python asks the left side first.
            PyBinOp::BoolAnd | PyBinOp::BoolOr if matches!(l, Py::Col(_)) => {
                let Py::Col(e) = &l else { unreachable!("matched") };
                return Err(cannot_convert_column_into_bool(e, self.catalog, span));
            }
            // `1 in col` asks the Column (`Column.__contains__`); `col in [1, 2]` compares
            // `col == 1` and asks that for its truth value.
            PyBinOp::In | PyBinOp::NotIn if matches!(r, Py::Col(_)) => return Err(cannot_apply_in_for_column(span)),
            PyBinOp::In | PyBinOp::NotIn if has_col => {
                let first = match &r {
                    Py::List(items) => items.first().cloned(),
                    _ => None,
                };
                let Some(first) = first else { return Ok(Py::Bool(op == PyBinOp::NotIn)) };
                let eq = Expr::Binary(BinOp::Eq, Box::new(self.literal_or_col(l, span)?), Box::new(self.literal_or_col(first, span)?));
                return Err(cannot_convert_column_into_bool(&eq, self.catalog, span));
            }
            PyBinOp::BoolAnd => return Ok(if truthy(&l) { r } else { l }),
            PyBinOp::BoolOr => return Ok(if truthy(&l) { l } else { r }),
            PyBinOp::Is | PyBinOp::IsNot => {
                let same = matches!((&l, &r), (Py::NoneVal, Py::NoneVal)) || matches!((&l, &r), (Py::Bool(a), Py::Bool(b)) if a == b);
                return Ok(Py::Bool(same == (op == PyBinOp::Is)));
            }
            _ => {
                return match (&l, &r, op) {
                    (Py::Int(a), Py::Int(b), PyBinOp::FloorDiv) if *b != 0 => Ok(Py::Int(a.div_euclid(*b))),
                    (Py::Int(a), Py::Int(b), PyBinOp::Pow) if *b >= 0 => Ok(Py::Int(a.saturating_pow(u32::try_from(*b).unwrap_or(u32::MAX)))),
                    _ => Err(type_error(format!("unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), l.type_name(), r.type_name()), span)),
                };
            }
        };
        if has_col {
            let le = self.literal_or_col(l, span)?;
            let re = self.literal_or_col(r, span)?;
            return Ok(Py::Col(Expr::Binary(bop, Box::new(le), Box::new(re))));
        }
        // Plain Python values: the arithmetic and comparisons programs do on constants
        // (`60 * 1000`, `'a' + 'b'`, `10 > 3`).
        match (&l, &r) {
            (Py::Int(a), Py::Int(b)) => Ok(match bop {
                BinOp::Add => Py::Int(a.saturating_add(*b)),
                BinOp::Sub => Py::Int(a.saturating_sub(*b)),
                BinOp::Mul => Py::Int(a.saturating_mul(*b)),
                BinOp::Div if *b != 0 => Py::Float(*a as f64 / *b as f64),
                BinOp::Mod if *b != 0 => Py::Int(a.rem_euclid(*b)),
                BinOp::Eq => Py::Bool(a == b),
                BinOp::NotEq => Py::Bool(a != b),
                BinOp::Lt => Py::Bool(a < b),
                BinOp::LtEq => Py::Bool(a <= b),
                BinOp::Gt => Py::Bool(a > b),
                BinOp::GtEq => Py::Bool(a >= b),
                BinOp::And => Py::Int(a & b),
                BinOp::Or => Py::Int(a | b),
                _ => return Err(Error::Analysis(AnalysisError::python("ZeroDivisionError", "division by zero", span))),
            }),
            (Py::Int(_) | Py::Float(_), Py::Int(_) | Py::Float(_)) => {
                let (a, b) = (as_f64(&l), as_f64(&r));
                Ok(match bop {
                    BinOp::Add => Py::Float(a + b),
                    BinOp::Sub => Py::Float(a - b),
                    BinOp::Mul => Py::Float(a * b),
                    BinOp::Div if b != 0.0 => Py::Float(a / b),
                    BinOp::Lt => Py::Bool(a < b),
                    BinOp::Gt => Py::Bool(a > b),
                    BinOp::Eq => Py::Bool(a == b),
                    _ => return Err(type_error(format!("unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), l.type_name(), r.type_name()), span)),
                })
            }
            (Py::Str(a), Py::Str(b)) if bop == BinOp::Add => Ok(Py::Str(format!("{a}{b}"))),
            (Py::Str(a), Py::Str(b)) if bop == BinOp::Eq => Ok(Py::Bool(a == b)),
            (Py::List(a), Py::List(b)) if bop == BinOp::Add => Ok(Py::List(a.iter().chain(b).cloned().collect())),
            _ => Err(type_error(format!("unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), l.type_name(), r.type_name()), span)),
        }
    }
}

fn unary_symbol(op: PyUnOp) -> &'static str {
    match op {
        PyUnOp::Neg => "-",
        PyUnOp::Pos => "+",
        PyUnOp::Invert => "~",
        PyUnOp::Not => "not",
    }
}

/// Python's truth value of a plain value.
pub(super) fn truthy(v: &Py) -> bool {
    match v {
        Py::Bool(b) => *b,
        Py::Int(i) => *i != 0,
        Py::Float(f) => *f != 0.0,
        Py::Str(s) => !s.is_empty(),
        Py::NoneVal => false,
        Py::List(l) | Py::Tuple(l) => !l.is_empty(),
        Py::Dict(d) => !d.is_empty(),
        _ => true,
    }
}

fn as_f64(v: &Py) -> f64 {
    match v {
        Py::Int(i) => *i as f64,
        Py::Float(f) => *f,
        _ => f64::NAN,
    }
}
