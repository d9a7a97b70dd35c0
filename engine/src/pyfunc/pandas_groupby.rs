//! `DataFrame.groupby(by)` of the pandas subset: the groups (keys sorted, rows with a missing
//! key dropped, as pandas' `sort=True, dropna=True` defaults do), iteration as
//! `(key, frame)` pairs, column selection (`g['v']`, `g[['v', 'w']]`), the reductions
//! (`sum`, `count`, `size`, `mean`, `min`, `max`, `first`, `last`, `nunique`, ...) and
//! `agg` / `aggregate` with a function name, a list of names (one column selected), a dict of
//! column → name, or named aggregations (`total=('v', 'sum')`). The result is indexed by the
//! group keys (`reset_index()` turns them back into columns), or keeps them as columns with
//! `as_index=False`.

use std::rc::Rc;

use super::interp::{py_eq, Interpreter, Val};
use super::value::pandas::{arg, flag, frame_val, groups, key_label, missing, name_list, series_val, Frame, GroupBy, Index, Series, R};
use super::pandas_reduce::REDUCTIONS;
use super::PyError;

impl Interpreter {
    /// `df.groupby(by, as_index=True, sort=True, dropna=True)`.
    pub(super) fn groupby(&mut self, f: &Rc<Frame>, args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
        let by = arg(args, kwargs, 0, "by").ok_or_else(|| PyError::runtime("TypeError: You have to supply one of 'by' and 'level'", line))?;
        if matches!(by, Val::Series(_) | Val::Func(_) | Val::Lambda(..) | Val::Dict(_)) {
            return Err(PyError::not_modelled(format!("pandas DataFrame.groupby(<a {}>)", by.type_name()), line));
        }
        if !flag(kwargs, "sort", true) || !flag(kwargs, "dropna", true) {
            return Err(PyError::not_modelled("pandas DataFrame.groupby(sort=False or dropna=False)", line));
        }
        let keys = name_list(by, line)?;
        for k in &keys {
            if f.column(k).is_none() {
                return Err(PyError::runtime(format!("KeyError: '{k}'"), line));
            }
        }
        Ok(Val::GroupBy(Rc::new(GroupBy { frame: Rc::clone(f), keys, selection: None, series: false, as_index: flag(kwargs, "as_index", true) })))
    }

    /// The value columns of `g`.
    fn value_columns(g: &GroupBy) -> Vec<String> {
        match &g.selection {
            Some(s) => s.clone(),
            None => g.frame.columns.iter().map(|(n, _)| n.clone()).filter(|n| !g.keys.contains(n)).collect(),
        }
    }

    /// One row per group: the result columns, indexed by the keys (or with the keys as
    /// columns for `as_index=False`).
    fn group_result(g: &GroupBy, groups: &[(Vec<Val>, Vec<usize>)], columns: Vec<(String, Vec<Val>)>) -> Frame {
        if g.as_index {
            let index = Index { labels: groups.iter().map(|(k, _)| key_label(k)).collect(), names: g.keys.iter().map(|k| Some(k.clone())).collect() };
            Frame { len: groups.len(), columns, index: Some(Rc::new(index)) }
        } else {
            let mut all: Vec<(String, Vec<Val>)> = g.keys.iter().enumerate().map(|(i, k)| (k.clone(), groups.iter().map(|(key, _)| key[i].clone()).collect())).collect();
            all.extend(columns);
            Frame::new(all)
        }
    }

    /// `g.name`: a column selection by attribute, or a method.
    pub(super) fn groupby_attr(&mut self, g: &Rc<GroupBy>, this: &Val, name: &str, line: usize) -> R<Val> {
        if REDUCTIONS.contains(&name) || matches!(name, "agg" | "aggregate" | "get_group") {
            return Ok(Val::Method(Box::new(this.clone()), Rc::from(name)));
        }
        if name == "ngroups" {
            return Ok(Val::Int(groups(g).len() as i64));
        }
        if !g.series && g.frame.column(name).is_some() {
            return self.groupby_index(g, &Val::Str(Rc::from(name)), line);
        }
        Err(missing(this, name, line))
    }

    /// `g['v']` (a SeriesGroupBy) or `g[['v', 'w']]`.
    pub(super) fn groupby_index(&mut self, g: &Rc<GroupBy>, key: &Val, line: usize) -> R<Val> {
        let cols = name_list(key, line)?;
        for c in &cols {
            if g.frame.column(c).is_none() {
                return Err(PyError::runtime(format!("KeyError: 'Column not found: {c}'"), line));
            }
        }
        Ok(Val::GroupBy(Rc::new(GroupBy { selection: Some(cols), series: matches!(key, Val::Str(_)), ..(**g).clone() })))
    }

    /// A groupby method call.
    pub(super) fn groupby_method(&mut self, g: &Rc<GroupBy>, this: &Val, name: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        let groups = groups(g);
        match name {
            "size" => {
                let values = groups.iter().map(|(_, rows)| Val::Int(rows.len() as i64)).collect();
                let out = Self::group_result(g, &groups, vec![("size".into(), values)]);
                Ok(if g.as_index { series_val(Series { name: None, values: out.columns[0].1.clone(), index: out.index.clone() }) } else { frame_val(out) })
            }
            "get_group" => {
                let want = args.first().cloned().unwrap_or(Val::None);
                let rows = groups.iter().find(|(k, _)| py_eq(&key_label(k), &want)).map(|(_, r)| r.clone()).ok_or_else(|| PyError::runtime(format!("KeyError: {}", want.repr()), line))?;
                Ok(frame_val(g.frame.take(&rows)))
            }
            op if REDUCTIONS.contains(&op) => self.group_agg(g, &groups, &Self::value_columns(g).into_iter().map(|c| (c.clone(), c, op.to_string())).collect::<Vec<_>>(), line),
            "agg" | "aggregate" => {
                // (output column, input column, reduction)
                let mut specs: Vec<(String, String, String)> = Vec::new();
                if !kwargs.is_empty() {
                    for (out, spec) in &kwargs {
                        let parts = super::interp::iterate_plain(spec, line)?;
                        match parts.as_slice() {
                            [Val::Str(col), Val::Str(op)] => specs.push((out.clone(), col.to_string(), op.to_string())),
                            [op @ Val::Str(_)] | [op @ Val::Str(_), ..] if g.series => specs.push((out.clone(), Self::value_columns(g)[0].clone(), op.str_value())),
                            _ => return Err(PyError::not_modelled("pandas DataFrameGroupBy.agg(<a named aggregation with a function>)", line)),
                        }
                    }
                } else {
                    match args.first() {
                        Some(Val::Str(op)) => specs.extend(Self::value_columns(g).into_iter().map(|c| (c.clone(), c, op.to_string()))),
                        Some(Val::Dict(d)) => {
                            for (col, op) in d.borrow().iter() {
                                match op {
                                    Val::Str(op) => specs.push((col.str_value(), col.str_value(), op.to_string())),
                                    _ => return Err(PyError::not_modelled("pandas DataFrameGroupBy.agg({column: [several functions]})", line)),
                                }
                            }
                        }
                        Some(Val::List(ops)) if g.series => {
                            let col = Self::value_columns(g)[0].clone();
                            for op in ops.borrow().iter() {
                                specs.push((op.str_value(), col.clone(), op.str_value()));
                            }
                            let r = self.group_agg(&GroupBy { series: false, ..(**g).clone() }, &groups, &specs, line)?;
                            return Ok(r);
                        }
                        Some(other) => return Err(PyError::not_modelled(format!("pandas DataFrameGroupBy.agg(<a {}>)", other.type_name()), line)),
                        None => return Err(PyError::runtime("TypeError: Must provide 'func' or tuples of '(column, aggfunc).", line)),
                    }
                }
                if !kwargs.is_empty() {
                    return self.group_agg(&GroupBy { series: false, ..(**g).clone() }, &groups, &specs, line);
                }
                self.group_agg(g, &groups, &specs, line)
            }
            other => Err(missing(this, other, line)),
        }
    }

    fn group_agg(&mut self, g: &GroupBy, groups: &[(Vec<Val>, Vec<usize>)], specs: &[(String, String, String)], line: usize) -> R<Val> {
        let mut columns = Vec::new();
        for (out, col, op) in specs {
            if !REDUCTIONS.contains(&op.as_str()) {
                return Err(PyError::not_modelled(format!("pandas DataFrameGroupBy.agg('{op}')"), line));
            }
            let values = g.frame.column(col).ok_or_else(|| PyError::runtime(format!("KeyError: \"Column(s) ['{col}'] do not exist\""), line))?;
            let mut results = Vec::with_capacity(groups.len());
            for (_, rows) in groups {
                let part: Vec<Val> = rows.iter().map(|&r| values[r].clone()).collect();
                results.push(self.reduce(&part, op, line)?);
            }
            columns.push((out.clone(), results));
        }
        let out = Self::group_result(g, groups, columns);
        Ok(if g.series && g.as_index {
            series_val(Series { name: specs.first().map(|s| s.0.clone()), values: out.columns.first().map(|c| c.1.clone()).unwrap_or_default(), index: out.index.clone() })
        } else {
            frame_val(out)
        })
    }
}
