//! `DataFrame` and `Series` attributes, methods and indexing (`df[...]`, `.loc`, `.iloc`,
//! `.at`, `.iat`) of the pandas subset (`value/pandas.rs` says what is modelled and why).

use std::rc::Rc;

use super::interp::{key_cmp, py_eq, Interpreter, Val};
use super::value::pandas::{arg, flag, frame_val, is_na, list_val, missing, name_list, position, series_val, str_val, AccessorKind, Frame, Index, IndexerKind, Series, R};
use super::pandas_reduce::REDUCTIONS;
use super::PyError;

/// The `DataFrame` attributes read without a call.
const FRAME_PROPS: &[&str] = &["empty", "shape", "columns", "index", "size", "ndim", "loc", "iloc", "at", "iat"];
/// The `DataFrame` methods modelled.
const FRAME_METHODS: &[&str] = &[
    "head", "tail", "sort_values", "iterrows", "itertuples", "groupby", "assign", "rename", "drop", "fillna", "dropna", "drop_duplicates", "reset_index", "set_index",
    "merge", "apply", "to_dict", "copy", "astype", "get", "isna", "isnull", "notna", "notnull", "agg", "aggregate",
];
/// The `Series` attributes read without a call.
const SERIES_PROPS: &[&str] = &["empty", "values", "size", "shape", "name", "index", "str", "dt", "loc", "iloc", "at", "iat", "ndim"];
/// The `Series` methods modelled.
const SERIES_METHODS: &[&str] = &[
    "tolist", "to_list", "unique", "isin", "astype", "sort_values", "head", "tail", "fillna", "isna", "isnull", "notna", "notnull", "apply", "map", "value_counts",
    "to_dict", "items", "get", "idxmax", "idxmin", "round", "abs", "cumsum", "diff", "between", "drop_duplicates", "reset_index", "copy", "dropna", "agg", "aggregate",
];

fn key_error(v: &Val, line: usize) -> PyError {
    PyError::runtime(format!("KeyError: {}", v.repr()), line)
}

fn method(this: &Val, name: &str) -> Val {
    Val::Method(Box::new(this.clone()), Rc::from(name))
}

impl Interpreter {
    /// `df.name`: a property, a method, or a column read as an attribute.
    pub(super) fn frame_attr(&mut self, f: &Rc<Frame>, this: &Val, name: &str, line: usize) -> R<Val> {
        Ok(match name {
            "empty" => Val::Bool(f.len == 0 || f.columns.is_empty()),
            "shape" => Val::Tuple(Rc::new(vec![Val::Int(f.len as i64), Val::Int(f.columns.len() as i64)])),
            "columns" => series_val(Series::new(None, f.columns.iter().map(|(n, _)| str_val(n)).collect())),
            "index" => series_val(Series::new(None, f.labels())),
            "size" => Val::Int((f.len * f.columns.len()) as i64),
            "ndim" => Val::Int(2),
            "loc" => Val::Indexer(IndexerKind::Loc, Box::new(this.clone())),
            "iloc" => Val::Indexer(IndexerKind::ILoc, Box::new(this.clone())),
            "at" => Val::Indexer(IndexerKind::At, Box::new(this.clone())),
            "iat" => Val::Indexer(IndexerKind::IAt, Box::new(this.clone())),
            n if FRAME_METHODS.contains(&n) || REDUCTIONS.contains(&n) && n != "size" => method(this, n),
            n if f.column(n).is_some() => series_val(f.series(n).expect("checked")),
            n => return Err(missing(this, n, line)),
        })
    }

    /// `s.name`.
    pub(super) fn series_attr(&mut self, s: &Rc<Series>, this: &Val, name: &str, line: usize) -> R<Val> {
        let _ = FRAME_PROPS;
        Ok(match name {
            "empty" => Val::Bool(s.values.is_empty()),
            "values" => list_val(s.values.clone()),
            "size" => Val::Int(s.values.len() as i64),
            "shape" => Val::Tuple(Rc::new(vec![Val::Int(s.values.len() as i64)])),
            "ndim" => Val::Int(1),
            "name" => s.name.as_deref().map_or(Val::None, str_val),
            "index" => series_val(Series::new(None, s.labels())),
            "str" => Val::Accessor(AccessorKind::Str, Rc::clone(s)),
            "dt" => Val::Accessor(AccessorKind::Dt, Rc::clone(s)),
            "loc" => Val::Indexer(IndexerKind::Loc, Box::new(this.clone())),
            "iloc" => Val::Indexer(IndexerKind::ILoc, Box::new(this.clone())),
            "at" => Val::Indexer(IndexerKind::At, Box::new(this.clone())),
            "iat" => Val::Indexer(IndexerKind::IAt, Box::new(this.clone())),
            n if SERIES_METHODS.contains(&n) || REDUCTIONS.contains(&n) && n != "size" => method(this, n),
            // `row.col` of a row from `iterrows()` / `df.iloc[i]`: a label read as an attribute.
            n if s.index.as_ref().is_some_and(|ix| ix.labels.iter().any(|l| matches!(l, Val::Str(x) if &**x == n))) => {
                s.values[position(&s.index, s.values.len(), &str_val(n)).expect("a label")].clone()
            }
            n => {
                let _ = SERIES_PROPS;
                return Err(missing(this, n, line));
            }
        })
    }

    /// `df[key]`: a column by name, columns by a list of names, rows by a boolean mask, rows by
    /// a slice (`df[1:3]`).
    pub(super) fn frame_index(&mut self, f: &Rc<Frame>, key: &Val, line: usize) -> R<Val> {
        Ok(match key {
            Val::Str(c) => series_val(f.series(c).ok_or_else(|| key_error(key, line))?),
            Val::List(_) | Val::Tuple(_) => {
                let mut columns = Vec::new();
                for name in name_list(key, line)? {
                    let v = f.column(&name).cloned().ok_or_else(|| PyError::runtime(format!("KeyError: \"['{name}'] not in index\""), line))?;
                    columns.push((name, v));
                }
                frame_val(Frame { columns, len: f.len, index: f.index.clone() })
            }
            Val::Series(mask) => frame_val(f.take(&mask_rows(mask, f.len, line)?)),
            other => return Err(key_error(other, line)),
        })
    }

    /// `s[key]`: a value by label (by position on the default index), or values by a mask.
    pub(super) fn series_index(&mut self, s: &Rc<Series>, key: &Val, line: usize) -> R<Val> {
        Ok(match key {
            Val::Series(mask) if mask.values.iter().all(|v| matches!(v, Val::Bool(_))) => series_val(s.take(&mask_rows(mask, s.values.len(), line)?)),
            Val::List(_) => {
                let mut idx = Vec::new();
                for label in super::interp::iterate_plain(key, line)? {
                    idx.push(position(&s.index, s.values.len(), &label).ok_or_else(|| key_error(&label, line))?);
                }
                series_val(s.take(&idx))
            }
            label => s.values[position(&s.index, s.values.len(), label).ok_or_else(|| key_error(label, line))?].clone(),
        })
    }

    /// `obj.loc[key]`, `.iloc[key]`, `.at[key]`, `.iat[key]` of a frame or a series; `key` may
    /// be a `(rows, columns)` tuple for a frame.
    pub(super) fn indexer_get(&mut self, kind: IndexerKind, obj: &Val, key: &Val, line: usize) -> R<Val> {
        let by_position = matches!(kind, IndexerKind::ILoc | IndexerKind::IAt);
        match obj {
            Val::Series(s) => {
                let n = s.values.len();
                Ok(match key {
                    Val::Series(mask) => series_val(s.take(&mask_rows(mask, n, line)?)),
                    Val::Slice(lo, hi) if by_position => series_val(s.take(&slice_rows(lo, hi, n, line)?)),
                    Val::List(_) => {
                        let idx = self.rows_of(&s.index, n, key, by_position, line)?;
                        series_val(s.take(&idx))
                    }
                    one => s.values[self.row_of(&s.index, n, one, by_position, line)?].clone(),
                })
            }
            Val::Frame(f) => {
                let (rows, cols) = match key {
                    Val::Tuple(t) if t.len() == 2 => (t[0].clone(), Some(t[1].clone())),
                    other => (other.clone(), None),
                };
                // Rows: one (a Series per row, or a scalar with one column), or many.
                let many = !matches!(rows, Val::Int(_) | Val::Str(_) | Val::Float(_) | Val::Timestamp(_) | Val::Bool(_)) || matches!(rows, Val::Slice(..));
                let idx: Vec<usize> = match &rows {
                    Val::Series(mask) => mask_rows(mask, f.len, line)?,
                    Val::Slice(lo, hi) if by_position || (lo.is_none() && hi.is_none()) => slice_rows(lo, hi, f.len, line)?,
                    // `.loc[a:b]`: labels a through b, both included.
                    Val::Slice(lo, hi) => label_slice(&f.index, f.len, lo, hi, line)?,
                    Val::List(_) => self.rows_of(&f.index, f.len, &rows, by_position, line)?,
                    one => vec![self.row_of(&f.index, f.len, one, by_position, line)?],
                };
                let col_names: Option<(Vec<String>, bool)> = match &cols {
                    None => None,
                    Some(Val::Slice(None, None)) => Some((f.columns.iter().map(|(n, _)| n.clone()).collect(), true)),
                    Some(Val::Int(i)) if by_position => {
                        let c = usize::try_from(if *i < 0 { *i + f.columns.len() as i64 } else { *i }).ok().filter(|c| *c < f.columns.len()).ok_or_else(|| PyError::runtime("IndexError: single positional indexer is out-of-bounds", line))?;
                        Some((vec![f.columns[c].0.clone()], false))
                    }
                    Some(Val::Str(c)) if !by_position => Some((vec![c.to_string()], false)),
                    Some(c @ (Val::List(_) | Val::Tuple(_))) if !by_position => Some((name_list(c, line)?, true)),
                    Some(other) => return Err(PyError::not_modelled(format!("pandas DataFrame.{}[rows, {}]", if by_position { "iloc" } else { "loc" }, other.type_name()), line)),
                };
                let picked = f.take(&idx);
                let picked = match &col_names {
                    None => picked,
                    Some((names, _)) => {
                        let mut columns = Vec::new();
                        for n in names {
                            columns.push((n.clone(), picked.column(n).cloned().ok_or_else(|| key_error(&str_val(n), line))?));
                        }
                        Frame { columns, len: picked.len, index: picked.index.clone() }
                    }
                };
                Ok(match (many, &col_names) {
                    (true, Some((names, false))) => series_val(picked.series(&names[0]).expect("picked")),
                    (true, _) => frame_val(picked),
                    (false, Some((_, false))) => picked.columns[0].1[0].clone(),
                    (false, _) => series_val(picked.row(0)),
                })
            }
            other => Err(PyError::runtime(format!("TypeError: '{}' object is not subscriptable", other.type_name()), line)),
        }
    }

    fn row_of(&mut self, index: &Option<Rc<Index>>, n: usize, key: &Val, by_position: bool, line: usize) -> R<usize> {
        if by_position {
            let k = key.as_int().filter(|_| !matches!(key, Val::Bool(_))).ok_or_else(|| PyError::runtime(format!("TypeError: Cannot index by location index with a non-integer key ({})", key.repr()), line))?;
            let k = if k < 0 { k + n as i64 } else { k };
            return usize::try_from(k).ok().filter(|k| *k < n).ok_or_else(|| PyError::runtime("IndexError: single positional indexer is out-of-bounds", line));
        }
        position(index, n, key).ok_or_else(|| key_error(key, line))
    }

    fn rows_of(&mut self, index: &Option<Rc<Index>>, n: usize, keys: &Val, by_position: bool, line: usize) -> R<Vec<usize>> {
        let keys = super::interp::iterate_plain(keys, line)?;
        if keys.iter().all(|k| matches!(k, Val::Bool(_))) && keys.len() == n {
            return Ok(keys.iter().enumerate().filter(|(_, k)| matches!(k, Val::Bool(true))).map(|(i, _)| i).collect());
        }
        keys.iter().map(|k| self.row_of(index, n, k, by_position, line)).collect()
    }

    /// `df[name] = value`: a frame with the column set (replaced in place, or appended): a
    /// series of the same length, a list of the same length, or a scalar repeated.
    pub(super) fn with_column(&mut self, f: &Frame, key: &Val, value: Val, line: usize) -> R<Frame> {
        let name = match key {
            Val::Str(s) => s.to_string(),
            other => return Err(PyError::not_modelled(format!("pandas DataFrame[{}] = ...", other.type_name()), line)),
        };
        let values = self.column_values(value, f.len, line)?;
        let mut out = f.clone();
        match out.columns.iter_mut().find(|(n, _)| *n == name) {
            Some((_, col)) => *col = values,
            None => out.columns.push((name, values)),
        }
        if out.columns.len() == 1 {
            out.len = out.columns[0].1.len();
        }
        Ok(out)
    }

    /// The values of a new column for a frame of `n` rows.
    fn column_values(&mut self, value: Val, n: usize, line: usize) -> R<Vec<Val>> {
        match value {
            Val::Series(s) => check_len(s.values.clone(), n, line),
            v @ (Val::List(_) | Val::Tuple(_)) => check_len(super::interp::iterate_plain(&v, line)?, n, line),
            scalar => Ok(vec![scalar; n]),
        }
    }

    /// A `DataFrame` method call.
    pub(super) fn frame_method(&mut self, f: &Rc<Frame>, this: &Val, name: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        Ok(match name {
            "head" | "tail" => {
                let n = arg(&args, &kwargs, 0, "n").and_then(Val::as_int).unwrap_or(5);
                let k = if n < 0 { (f.len as i64 + n).max(0) } else { n.min(f.len as i64) } as usize;
                let idx: Vec<usize> = if name == "head" { (0..k).collect() } else { (f.len - k..f.len).collect() };
                frame_val(f.take(&idx))
            }
            "sort_values" => {
                let by = name_list(arg(&args, &kwargs, 0, "by").unwrap_or(&Val::None), line)?;
                let mut keys = Vec::new();
                for c in &by {
                    keys.push(f.column(c).ok_or_else(|| key_error(&str_val(c), line))?.clone());
                }
                let idx = sorted_rows(f.len, &keys, &ascending(&args, &kwargs, by.len(), 1, line)?);
                frame_val(f.take(&idx))
            }
            "iterrows" => list_val((0..f.len).map(|r| Val::Tuple(Rc::new(vec![f.labels()[r].clone(), series_val(f.row(r))]))).collect()),
            "itertuples" => {
                let with_index = flag(&kwargs, "index", true);
                list_val(
                    (0..f.len)
                        .map(|r| {
                            let mut fields = Vec::new();
                            if with_index {
                                fields.push(("Index".to_string(), f.labels()[r].clone()));
                            }
                            fields.extend(f.columns.iter().map(|(n, v)| (n.clone(), v[r].clone())));
                            Val::Row(Rc::new(fields))
                        })
                        .collect(),
                )
            }
            "groupby" => self.groupby(f, &args, &kwargs, line)?,
            "assign" => {
                let mut out = (**f).clone();
                for (k, v) in kwargs {
                    let v = if matches!(v, Val::Func(_) | Val::Lambda(..)) { self.apply_value(v, vec![frame_val(out.clone())], line)? } else { v };
                    out = self.with_column(&out, &str_val(&k), v, line)?;
                }
                frame_val(out)
            }
            "rename" => {
                let map = match arg(&args, &kwargs, 99, "columns") {
                    Some(Val::Dict(d)) => d.borrow().clone(),
                    Some(_) => return Err(PyError::not_modelled("pandas DataFrame.rename(columns=<a function>)", line)),
                    None => return Err(PyError::not_modelled("pandas DataFrame.rename(<index>)", line)),
                };
                let columns = f.columns.iter().map(|(n, v)| (map.iter().find(|(k, _)| k.str_value() == *n).map_or_else(|| n.clone(), |(_, to)| to.str_value()), v.clone())).collect();
                frame_val(Frame { columns, len: f.len, index: f.index.clone() })
            }
            "drop" => {
                let axis_cols = kwargs.iter().any(|(k, v)| k == "axis" && (v.as_int() == Some(1) || v.str_value() == "columns"));
                let cols = match (kwargs.iter().find(|(k, _)| k == "columns"), args.first()) {
                    (Some((_, c)), _) => name_list(c, line)?,
                    (None, Some(c)) if axis_cols => name_list(c, line)?,
                    (None, Some(_)) | (None, None) => return Err(PyError::not_modelled("pandas DataFrame.drop(<index labels>)", line)),
                };
                for c in &cols {
                    if f.column(c).is_none() {
                        return Err(PyError::runtime(format!("KeyError: \"['{c}'] not found in axis\""), line));
                    }
                }
                frame_val(Frame { columns: f.columns.iter().filter(|(n, _)| !cols.contains(n)).cloned().collect(), len: f.len, index: f.index.clone() })
            }
            "fillna" => {
                let value = arg(&args, &kwargs, 0, "value").cloned().unwrap_or(Val::None);
                let columns = f
                    .columns
                    .iter()
                    .map(|(n, v)| {
                        let fill = match &value {
                            Val::Dict(d) => d.borrow().iter().find(|(k, _)| k.str_value() == *n).map(|(_, x)| x.clone()),
                            other => Some(other.clone()),
                        };
                        (n.clone(), v.iter().map(|x| if is_na(x) { fill.clone().unwrap_or_else(|| x.clone()) } else { x.clone() }).collect())
                    })
                    .collect();
                frame_val(Frame { columns, len: f.len, index: f.index.clone() })
            }
            "dropna" => {
                let subset = match kwargs.iter().find(|(k, _)| k == "subset") {
                    Some((_, s)) => name_list(s, line)?,
                    None => f.columns.iter().map(|(n, _)| n.clone()).collect(),
                };
                let all = kwargs.iter().any(|(k, v)| k == "how" && v.str_value() == "all");
                let keep: Vec<usize> = (0..f.len)
                    .filter(|&r| {
                        let na = subset.iter().filter_map(|c| f.column(c)).map(|v| is_na(&v[r]));
                        if all {
                            !na.clone().all(|x| x)
                        } else {
                            !na.clone().any(|x| x)
                        }
                    })
                    .collect();
                frame_val(f.take(&keep))
            }
            "drop_duplicates" => {
                let subset = match arg(&args, &kwargs, 0, "subset") {
                    Some(s) if !matches!(s, Val::None) => name_list(s, line)?,
                    _ => f.columns.iter().map(|(n, _)| n.clone()).collect(),
                };
                let cols: Vec<&Vec<Val>> = subset.iter().map(|c| f.column(c).ok_or_else(|| key_error(&str_val(c), line))).collect::<R<_>>()?;
                let keep = first_or_last(f.len, |r| cols.iter().map(|c| c[r].clone()).collect(), &kwargs, line)?;
                frame_val(f.take(&keep))
            }
            "reset_index" => {
                let drop = flag(&kwargs, "drop", false);
                let mut columns = Vec::new();
                if !drop {
                    match &f.index {
                        None => columns.push(("index".to_string(), f.labels())),
                        Some(ix) if ix.names.len() > 1 => {
                            for (level, n) in ix.names.iter().enumerate() {
                                let values = ix.labels.iter().map(|l| match l {
                                    Val::Tuple(t) => t.get(level).cloned().unwrap_or(Val::None),
                                    other => other.clone(),
                                });
                                columns.push((n.clone().unwrap_or_else(|| format!("level_{level}")), values.collect()));
                            }
                        }
                        Some(ix) => columns.push((ix.names[0].clone().unwrap_or_else(|| "index".into()), ix.labels.clone())),
                    }
                }
                columns.extend(f.columns.iter().cloned());
                frame_val(Frame { columns, len: f.len, index: None })
            }
            "set_index" => {
                let keys = name_list(arg(&args, &kwargs, 0, "keys").unwrap_or(&Val::None), line)?;
                if keys.len() != 1 {
                    return Err(PyError::not_modelled("pandas DataFrame.set_index(<several columns>)", line));
                }
                let labels = f.column(&keys[0]).cloned().ok_or_else(|| key_error(&str_val(&keys[0]), line))?;
                let columns = f.columns.iter().filter(|(n, _)| *n != keys[0]).cloned().collect();
                frame_val(Frame { columns, len: f.len, index: Some(Rc::new(Index { labels, names: vec![Some(keys[0].clone())] })) })
            }
            "merge" => match args.first() {
                Some(Val::Frame(right)) => super::value::pandas::merge(f, right, &kwargs, line)?,
                _ => return Err(PyError::runtime("TypeError: merge() takes a DataFrame", line)),
            },
            "apply" => {
                let func = args.first().cloned().ok_or_else(|| PyError::runtime("TypeError: apply() missing 1 required positional argument: 'func'", line))?;
                let by_row = kwargs.iter().any(|(k, v)| k == "axis" && (v.as_int() == Some(1) || v.str_value() == "columns"));
                if by_row {
                    let mut out = Vec::with_capacity(f.len);
                    for r in 0..f.len {
                        out.push(self.apply_value(func.clone(), vec![series_val(f.row(r))], line)?);
                    }
                    if out.iter().any(|v| matches!(v, Val::Series(_) | Val::Frame(_))) {
                        return Err(PyError::not_modelled("pandas DataFrame.apply(axis=1) returning a Series", line));
                    }
                    series_val(Series { name: None, values: out, index: f.index.clone() })
                } else {
                    let mut out = Vec::new();
                    for (n, _) in &f.columns {
                        out.push(self.apply_value(func.clone(), vec![series_val(f.series(n).expect("a column"))], line)?);
                    }
                    series_val(Series { name: None, values: out, index: Some(Rc::new(Index { labels: f.columns.iter().map(|(n, _)| str_val(n)).collect(), names: vec![None] })) })
                }
            }
            "to_dict" => {
                let orient = arg(&args, &kwargs, 0, "orient").map_or("dict".to_string(), Val::str_value);
                let labels = f.labels();
                let dict = |pairs: Vec<(Val, Val)>| Val::Dict(Rc::new(std::cell::RefCell::new(pairs)));
                match orient.as_str() {
                    "records" => list_val((0..f.len).map(|r| dict(f.columns.iter().map(|(n, v)| (str_val(n), v[r].clone())).collect())).collect()),
                    "list" => dict(f.columns.iter().map(|(n, v)| (str_val(n), list_val(v.clone()))).collect()),
                    "dict" => dict(f.columns.iter().map(|(n, v)| (str_val(n), dict(labels.iter().cloned().zip(v.iter().cloned()).collect()))).collect()),
                    other => return Err(PyError::not_modelled(format!("pandas DataFrame.to_dict(orient='{other}')"), line)),
                }
            }
            "copy" => frame_val((**f).clone()),
            "astype" => {
                let columns = f
                    .columns
                    .iter()
                    .map(|(n, v)| {
                        let t = match args.first() {
                            Some(Val::Dict(d)) => d.borrow().iter().find(|(k, _)| k.str_value() == *n).map(|(_, t)| t.clone()),
                            Some(t) => Some(t.clone()),
                            None => None,
                        };
                        match t {
                            Some(t) => v.iter().map(|x| self.astype(x, &t, line)).collect::<R<Vec<_>>>().map(|v| (n.clone(), v)),
                            None => Ok((n.clone(), v.clone())),
                        }
                    })
                    .collect::<R<Vec<_>>>()?;
                frame_val(Frame { columns, len: f.len, index: f.index.clone() })
            }
            "get" => {
                let key = args.first().cloned().unwrap_or(Val::None);
                match &key {
                    Val::Str(c) if f.column(c).is_none() => args.get(1).cloned().unwrap_or(Val::None),
                    _ => self.frame_index(f, &key, line)?,
                }
            }
            "isna" | "isnull" | "notna" | "notnull" => {
                let want = name.starts_with("is");
                frame_val(Frame { columns: f.columns.iter().map(|(n, v)| (n.clone(), v.iter().map(|x| Val::Bool(is_na(x) == want)).collect())).collect(), len: f.len, index: f.index.clone() })
            }
            "agg" | "aggregate" => return Err(PyError::not_modelled("pandas DataFrame.agg()", line)),
            op if REDUCTIONS.contains(&op) => {
                let mut values = Vec::new();
                for (_, v) in &f.columns {
                    values.push(self.reduce(v, op, line)?);
                }
                series_val(Series { name: None, values, index: Some(Rc::new(Index { labels: f.columns.iter().map(|(n, _)| str_val(n)).collect(), names: vec![None] })) })
            }
            other => return Err(missing(this, other, line)),
        })
    }

    /// A `Series` method call.
    pub(super) fn series_method(&mut self, s: &Rc<Series>, this: &Val, name: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        let n = s.values.len();
        Ok(match name {
            "tolist" | "to_list" => list_val(s.values.clone()),
            "unique" => {
                let mut seen: Vec<Val> = Vec::new();
                for v in &s.values {
                    if !seen.iter().any(|x| py_eq(x, v) || (is_na(x) && is_na(v))) {
                        seen.push(v.clone());
                    }
                }
                list_val(seen)
            }
            "isin" => {
                let set = super::interp::iterate_plain(args.first().unwrap_or(&Val::None), line)?;
                series_val(Series { name: s.name.clone(), values: s.values.iter().map(|v| Val::Bool(set.iter().any(|x| py_eq(x, v)))).collect(), index: s.index.clone() })
            }
            "astype" => {
                let t = args.first().cloned().unwrap_or(Val::None);
                let values = s.values.iter().map(|v| self.astype(v, &t, line)).collect::<R<Vec<_>>>()?;
                series_val(s.with_values(values))
            }
            "sort_values" => {
                let idx = sorted_rows(n, std::slice::from_ref(&s.values), &ascending(&args, &kwargs, 1, 99, line)?);
                series_val(s.take(&idx))
            }
            "head" | "tail" => {
                let k = arg(&args, &kwargs, 0, "n").and_then(Val::as_int).unwrap_or(5);
                let k = if k < 0 { (n as i64 + k).max(0) } else { k.min(n as i64) } as usize;
                let idx: Vec<usize> = if name == "head" { (0..k).collect() } else { (n - k..n).collect() };
                series_val(s.take(&idx))
            }
            "fillna" => {
                let fill = arg(&args, &kwargs, 0, "value").cloned().unwrap_or(Val::None);
                series_val(s.with_values(s.values.iter().map(|x| if is_na(x) { fill.clone() } else { x.clone() }).collect()))
            }
            "isna" | "isnull" | "notna" | "notnull" => {
                let want = name.starts_with("is");
                series_val(s.with_values(s.values.iter().map(|x| Val::Bool(is_na(x) == want)).collect()))
            }
            "dropna" => {
                let keep: Vec<usize> = (0..n).filter(|&i| !is_na(&s.values[i])).collect();
                series_val(s.take(&keep))
            }
            "apply" | "map" => {
                let func = args.first().cloned().ok_or_else(|| PyError::runtime(format!("TypeError: {name}() missing 1 required positional argument"), line))?;
                let mut out = Vec::with_capacity(n);
                for v in &s.values {
                    out.push(match &func {
                        Val::Dict(d) => d.borrow().iter().find(|(k, _)| py_eq(k, v)).map_or(Val::Float(f64::NAN), |(_, x)| x.clone()),
                        Val::Series(m) => m.index.as_ref().and_then(|ix| ix.labels.iter().position(|l| py_eq(l, v))).map_or(Val::Float(f64::NAN), |p| m.values[p].clone()),
                        _ if name == "map" && is_na(v) && kwargs.iter().any(|(k, x)| k == "na_action" && x.str_value() == "ignore") => v.clone(),
                        f => self.apply_value(f.clone(), vec![v.clone()], line)?,
                    });
                }
                series_val(s.with_values(out))
            }
            "value_counts" => {
                // Distinct present values with their counts, most frequent first (ties in order
                // of first appearance: pandas sorts the counts with a stable sort).
                let normalize = flag(&kwargs, "normalize", false);
                let mut counts: Vec<(Val, i64)> = Vec::new();
                for v in s.values.iter().filter(|v| !is_na(v)) {
                    match counts.iter_mut().find(|(x, _)| py_eq(x, v)) {
                        Some((_, c)) => *c += 1,
                        None => counts.push((v.clone(), 1)),
                    }
                }
                if flag(&kwargs, "sort", true) {
                    if flag(&kwargs, "ascending", false) {
                        counts.sort_by_key(|(_, c)| *c);
                    } else {
                        counts.sort_by_key(|(_, c)| std::cmp::Reverse(*c));
                    }
                }
                let total: i64 = counts.iter().map(|(_, c)| c).sum();
                let values = counts.iter().map(|(_, c)| if normalize { Val::Float(*c as f64 / total as f64) } else { Val::Int(*c) }).collect();
                let index = Rc::new(Index { labels: counts.into_iter().map(|(v, _)| v).collect(), names: vec![s.name.clone()] });
                series_val(Series { name: Some(if normalize { "proportion" } else { "count" }.into()), values, index: Some(index) })
            }
            "to_dict" => Val::Dict(Rc::new(std::cell::RefCell::new(s.labels().into_iter().zip(s.values.iter().cloned()).collect()))),
            "items" => list_val(s.labels().into_iter().zip(s.values.iter().cloned()).map(|(l, v)| Val::Tuple(Rc::new(vec![l, v]))).collect()),
            "get" => {
                let key = args.first().cloned().unwrap_or(Val::None);
                match position(&s.index, n, &key) {
                    Some(p) => s.values[p].clone(),
                    None => arg(&args, &kwargs, 1, "default").cloned().unwrap_or(Val::None),
                }
            }
            "idxmax" | "idxmin" => {
                let best = self.reduce(&s.values, if name == "idxmax" { "max" } else { "min" }, line)?;
                let p = s.values.iter().position(|v| !is_na(v) && py_eq(v, &best)).ok_or_else(|| PyError::runtime(format!("ValueError: attempt to get {} of an empty sequence", &name[3..]), line))?;
                s.labels()[p].clone()
            }
            "round" => {
                let d = arg(&args, &kwargs, 0, "decimals").and_then(Val::as_int).unwrap_or(0) as i32;
                let scale = 10f64.powi(d);
                series_val(s.with_values(s.values.iter().map(|v| match v {
                    Val::Float(f) => Val::Float((f * scale).round_ties_even() / scale),
                    other => other.clone(),
                }).collect()))
            }
            "abs" => series_val(s.with_values(s.values.iter().map(|v| match v {
                Val::Int(i) => Val::Int(i.saturating_abs()),
                Val::Float(f) => Val::Float(f.abs()),
                other => other.clone(),
            }).collect())),
            "cumsum" => {
                let mut acc: Option<Val> = None;
                let mut out = Vec::with_capacity(n);
                for v in &s.values {
                    if is_na(v) {
                        out.push(Val::Float(f64::NAN));
                        continue;
                    }
                    let next = match acc.take() {
                        None => v.clone(),
                        Some(a) => self.binary(super::parse::BinOp::Add, a, v.clone(), line)?,
                    };
                    out.push(next.clone());
                    acc = Some(next);
                }
                series_val(s.with_values(out))
            }
            "diff" => {
                let mut out = vec![Val::Float(f64::NAN)];
                for w in s.values.windows(2) {
                    out.push(if is_na(&w[0]) || is_na(&w[1]) { Val::Float(f64::NAN) } else { self.binary(super::parse::BinOp::Sub, w[1].clone(), w[0].clone(), line)? });
                }
                out.truncate(n);
                series_val(s.with_values(out))
            }
            "between" => {
                let (lo, hi) = (args.first().cloned().unwrap_or(Val::None), args.get(1).cloned().unwrap_or(Val::None));
                series_val(s.with_values(s.values.iter().map(|v| Val::Bool(!is_na(v) && key_cmp(v, &lo) != std::cmp::Ordering::Less && key_cmp(v, &hi) != std::cmp::Ordering::Greater)).collect()))
            }
            "drop_duplicates" => {
                let keep = first_or_last(n, |r| vec![s.values[r].clone()], &kwargs, line)?;
                series_val(s.take(&keep))
            }
            "reset_index" => {
                if flag(&kwargs, "drop", false) {
                    series_val(Series::new(s.name.clone(), s.values.clone()))
                } else {
                    let as_frame = Frame { columns: vec![(s.name.clone().unwrap_or_else(|| "0".into()), s.values.clone())], len: n, index: s.index.clone() };
                    self.frame_method(&Rc::new(as_frame), this, "reset_index", Vec::new(), Vec::new(), line)?
                }
            }
            "copy" => series_val((**s).clone()),
            "agg" | "aggregate" => match args.first() {
                Some(Val::Str(op)) if REDUCTIONS.contains(&&**op) => self.reduce(&s.values, op, line)?,
                _ => return Err(PyError::not_modelled("pandas Series.agg(<a list or a function>)", line)),
            },
            op if REDUCTIONS.contains(&op) => self.reduce(&s.values, op, line)?,
            other => return Err(missing(this, other, line)),
        })
    }

    /// `value.astype(t)` for one value: `int`/`int64`/`float`/`str`/`bool` (a type or its
    /// name); a timestamp as `int64` is its nanoseconds.
    pub(super) fn astype(&mut self, v: &Val, t: &Val, line: usize) -> R<Val> {
        let t = match t {
            Val::Builtin(b) => b.to_string(),
            other => other.str_value(),
        };
        if is_na(v) {
            return match t.as_str() {
                "int64" | "int" | "int32" => Err(PyError::runtime("pandas.errors.IntCastingNaNError: Cannot convert non-finite values (NA or inf) to integer", line)),
                "str" | "string" | "object" => Ok(if matches!(v, Val::None) { Val::None } else { str_val("nan") }),
                _ => Ok(v.clone()),
            };
        }
        match (t.as_str(), v) {
            ("int64" | "int" | "Int64" | "int32", Val::Timestamp(ns)) => Ok(Val::Int(*ns)),
            ("int64" | "int" | "Int64" | "int32", other) => self.call_builtin("int", vec![other.clone()], line),
            ("float64" | "float" | "float32", other) => self.call_builtin("float", vec![other.clone()], line),
            ("str" | "string" | "object", other) => Ok(str_val(&other.str_value())),
            ("bool", other) => Ok(Val::Bool(other.truthy(line)?)),
            ("datetime64[ns]" | "datetime64[ns, UTC]", other) => self.call_builtin("pd.Timestamp", vec![other.clone()], line),
            (other, _) => Err(PyError::not_modelled(format!("pandas astype('{other}')"), line)),
        }
    }
}

fn check_len(values: Vec<Val>, n: usize, line: usize) -> R<Vec<Val>> {
    if values.len() != n && n != 0 {
        return Err(PyError::runtime(format!("ValueError: Length of values ({}) does not match length of index ({n})", values.len()), line));
    }
    Ok(values)
}

/// The rows a boolean series selects.
fn mask_rows(mask: &Series, n: usize, line: usize) -> R<Vec<usize>> {
    if mask.values.len() != n {
        return Err(PyError::runtime(format!("IndexError: Boolean index has wrong length: {} instead of {n}", mask.values.len()), line));
    }
    Ok(mask.values.iter().enumerate().filter(|(_, v)| matches!(v, Val::Bool(true))).map(|(i, _)| i).collect())
}

/// The rows from label `lo` through label `hi` (both included; an open end runs to the edge).
fn label_slice(index: &Option<Rc<Index>>, n: usize, lo: &Option<Box<Val>>, hi: &Option<Box<Val>>, line: usize) -> R<Vec<usize>> {
    let find = |v: &Option<Box<Val>>, default: usize| -> R<usize> {
        match v.as_deref() {
            None | Some(Val::None) => Ok(default),
            Some(label) => position(index, n, label).ok_or_else(|| key_error(label, line)),
        }
    };
    let a = find(lo, 0)?;
    let b = if hi.as_deref().is_none_or(|h| matches!(h, Val::None)) { n } else { find(hi, 0)? + 1 };
    Ok((a..b.max(a)).collect())
}

/// Positions `lo..hi` of `n` rows (Python slice bounds).
fn slice_rows(lo: &Option<Box<Val>>, hi: &Option<Box<Val>>, n: usize, line: usize) -> R<Vec<usize>> {
    let fix = |v: &Option<Box<Val>>, default: usize| -> R<usize> {
        match v.as_deref() {
            None | Some(Val::None) => Ok(default),
            Some(v) => {
                let k = v.as_int().ok_or_else(|| PyError::runtime("TypeError: slice indices must be integers or None", line))?;
                Ok(if k < 0 { (k + n as i64).max(0) } else { k.min(n as i64) } as usize)
            }
        }
    };
    let (a, b) = (fix(lo, 0)?, fix(hi, n)?);
    Ok((a..b.max(a)).collect())
}

/// `ascending=` as one flag per key (`True`, `False`, or a list of flags).
fn ascending(args: &[Val], kwargs: &[(String, Val)], keys: usize, pos: usize, line: usize) -> R<Vec<bool>> {
    Ok(match arg(args, kwargs, pos, "ascending") {
        None => vec![true; keys],
        Some(Val::List(l)) => {
            let l = l.borrow();
            if l.len() != keys {
                return Err(PyError::runtime(format!("ValueError: Length of ascending ({}) != length of by ({keys})", l.len()), line));
            }
            l.iter().map(|v| v.truthy(line)).collect::<R<_>>()?
        }
        Some(v) => vec![v.truthy(line)?; keys],
    })
}

/// Row order by `keys` (a stable sort, missing values last whatever the direction).
fn sorted_rows(n: usize, keys: &[Vec<Val>], asc: &[bool]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| {
        for (k, up) in keys.iter().zip(asc) {
            let (x, y) = (&k[a], &k[b]);
            let o = match (is_na(x), is_na(y)) {
                (true, true) => std::cmp::Ordering::Equal,
                (true, false) => std::cmp::Ordering::Greater,
                (false, true) => std::cmp::Ordering::Less,
                _ if *up => key_cmp(x, y),
                _ => key_cmp(y, x),
            };
            if o != std::cmp::Ordering::Equal {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    });
    idx
}

/// The rows `drop_duplicates(keep=...)` keeps: the first (or last) of each key.
fn first_or_last(n: usize, key: impl Fn(usize) -> Vec<Val>, kwargs: &[(String, Val)], line: usize) -> R<Vec<usize>> {
    let keep = kwargs.iter().find(|(k, _)| k == "keep").map_or("first".to_string(), |(_, v)| if matches!(v, Val::Bool(false)) { "none".into() } else { v.str_value() });
    let keys: Vec<Vec<Val>> = (0..n).map(&key).collect();
    let same = |a: &[Val], b: &[Val]| a.iter().zip(b).all(|(x, y)| py_eq(x, y) || (is_na(x) && is_na(y)));
    Ok(match keep.as_str() {
        "first" => (0..n).filter(|&r| !(0..r).any(|q| same(&keys[q], &keys[r]))).collect(),
        "last" => (0..n).filter(|&r| !(r + 1..n).any(|q| same(&keys[q], &keys[r]))).collect(),
        "none" => (0..n).filter(|&r| !(0..n).any(|q| q != r && same(&keys[q], &keys[r]))).collect(),
        other => return Err(PyError::runtime(format!("ValueError: keep must be either \"first\", \"last\" or False, not '{other}'"), line)),
    })
}
