//! pandas reductions over one column of values, shared by `Series`, `DataFrame` (column by
//! column) and `groupby` (group by group): `sum`, `mean`, `median`, `min`, `max`, `count`,
//! `nunique`, `size`, `first`, `last`, `std`, `var`, `prod`, `any`, `all`. Missing values
//! (None, NaN) are skipped, as pandas' `skipna=True` does: an empty `sum` is 0, an empty
//! `mean`/`min`/`max` is NaN, `std`/`var` divide by n - 1.

use super::interp::{key_cmp, py_eq, Interpreter, Val};
use super::value::pandas::{is_na, R};
use super::parse::BinOp;
use super::PyError;

/// The reductions modelled, by pandas name.
pub const REDUCTIONS: &[&str] = &["sum", "mean", "median", "min", "max", "count", "nunique", "size", "first", "last", "std", "var", "prod", "any", "all"];

fn nan() -> Val {
    Val::Float(f64::NAN)
}

fn floats(values: &[&Val], op: &str, line: usize) -> R<Vec<f64>> {
    values
        .iter()
        .map(|v| match v {
            Val::Int(_) | Val::Bool(_) | Val::Float(_) => Ok(v.as_f64().unwrap_or(f64::NAN)),
            other => Err(PyError::runtime(format!("TypeError: Could not convert {} to numeric (in {op})", other.repr()), line)),
        })
        .collect()
}

impl Interpreter {
    /// `op` over `values` (pandas' name: `sum`, `mean`, ...).
    ///
    /// # Errors
    /// Python's `TypeError` for a reduction the values' type does not support.
    pub(super) fn reduce(&mut self, values: &[Val], op: &str, line: usize) -> R<Val> {
        let present: Vec<&Val> = values.iter().filter(|v| !is_na(v)).collect();
        Ok(match op {
            "size" => Val::Int(values.len() as i64),
            "count" => Val::Int(present.len() as i64),
            "nunique" => {
                let mut seen: Vec<&Val> = Vec::new();
                for v in present {
                    if !seen.iter().any(|x| py_eq(x, v)) {
                        seen.push(v);
                    }
                }
                Val::Int(seen.len() as i64)
            }
            "first" => present.first().map_or_else(nan, |v| (*v).clone()),
            "last" => present.last().map_or_else(nan, |v| (*v).clone()),
            "min" | "max" => {
                let mut best: Option<&Val> = None;
                for v in present {
                    let better = match best {
                        None => true,
                        Some(b) => {
                            let o = key_cmp(v, b);
                            (op == "min" && o == std::cmp::Ordering::Less) || (op == "max" && o == std::cmp::Ordering::Greater)
                        }
                    };
                    if better {
                        best = Some(v);
                    }
                }
                best.cloned().unwrap_or_else(nan)
            }
            "sum" | "prod" => {
                let mut acc = if op == "sum" { Val::Int(0) } else { Val::Int(1) };
                let bop = if op == "sum" { BinOp::Add } else { BinOp::Mul };
                for (i, v) in present.into_iter().enumerate() {
                    acc = if i == 0 && op == "sum" && !matches!(v, Val::Int(_) | Val::Bool(_) | Val::Float(_)) { v.clone() } else { self.binary(bop, acc, v.clone(), line)? };
                }
                acc
            }
            "mean" => {
                let xs = floats(&present, op, line)?;
                if xs.is_empty() {
                    nan()
                } else {
                    Val::Float(xs.iter().sum::<f64>() / xs.len() as f64)
                }
            }
            "median" => {
                let mut xs = floats(&present, op, line)?;
                xs.sort_by(f64::total_cmp);
                match xs.len() {
                    0 => nan(),
                    n if n % 2 == 1 => Val::Float(xs[n / 2]),
                    n => Val::Float((xs[n / 2 - 1] + xs[n / 2]) / 2.0),
                }
            }
            "std" | "var" => {
                let xs = floats(&present, op, line)?;
                if xs.len() < 2 {
                    nan()
                } else {
                    let m = xs.iter().sum::<f64>() / xs.len() as f64;
                    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64;
                    Val::Float(if op == "std" { var.sqrt() } else { var })
                }
            }
            "any" | "all" => {
                let mut t = Vec::with_capacity(present.len());
                for v in present {
                    t.push(v.truthy(line)?);
                }
                Val::Bool(if op == "any" { t.iter().any(|b| *b) } else { t.iter().all(|b| *b) })
            }
            other => return Err(PyError::not_modelled(format!("pandas Series.{other}()"), line)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red(values: Vec<Val>, op: &str) -> Val {
        let mut it = Interpreter::new(&[]).unwrap();
        it.reduce(&values, op, 1).unwrap()
    }

    // Expected values from pandas 2.3.3: pd.Series([1, None, 3]).sum() == 4.0 (the None makes
    // the column float; the sum of the present values is the same number), .count() == 2,
    // .mean() == 2.0, .std() == 1.4142135623730951, pd.Series([], dtype=float).sum() == 0.0.
    #[test]
    fn missing_values_are_skipped() {
        let v = vec![Val::Int(1), Val::None, Val::Int(3)];
        assert_eq!(red(v.clone(), "sum"), Val::Int(4));
        assert_eq!(red(v.clone(), "count"), Val::Int(2));
        assert_eq!(red(v.clone(), "size"), Val::Int(3));
        assert_eq!(red(v.clone(), "mean"), Val::Float(2.0));
        assert_eq!(red(v, "std"), Val::Float(std::f64::consts::SQRT_2));
        assert_eq!(red(vec![], "sum"), Val::Int(0));
        assert!(matches!(red(vec![], "max"), Val::Float(f) if f.is_nan()));
    }
}
