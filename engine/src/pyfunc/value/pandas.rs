//! The pandas subset state functions use: `DataFrame`, `Series` (with their index labels),
//! the groupby objects, the `.str` / `.dt` accessors, `Timestamp` and `Timedelta`, and the
//! `pd.*` functions that build them.
//!
//! What is modelled is chosen from what the PySpark documentation's and tests'
//! `applyInPandasWithState` / `transformWithStateInPandas` functions and the pandas user guide's
//! "10 minutes to pandas" call: building frames, selecting columns and rows (`[]`, `loc`,
//! `iloc`, `at`, boolean masks), element-wise arithmetic and comparisons, reductions (`sum`,
//! `count`, `mean`, `min`, `max`, `nunique`, ...), `groupby(...).agg/sum/count/size`,
//! `value_counts`, `fillna`, `isin`, `apply` with a lambda, `assign`, `rename`, `drop`,
//! `merge`, `concat`, `sort_values`, `reset_index`, and `Timestamp` arithmetic. Values keep
//! pandas' semantics where a learner can see them: an index label survives filtering and
//! sorting, reductions skip missing values (None or NaN), `groupby` sorts its keys and drops
//! missing ones.
//!
//! A real pandas name the subset lacks (`pandas_names.rs`, generated from pandas' own
//! `dir()`) stops the batch as not modelled — `unsupported: pandas DataFrame.pivot_table()` —
//! instead of failing it with a Python error the learner did not make; any other name is
//! Python's `AttributeError`, as in pandas. Frames are values: `df['c'] = ...` rebinds the
//! name (or `self.` attribute) it was read from, so another name bound to the same frame does
//! not see the change.

use std::rc::Rc;

use super::{iterate_plain, key_cmp, py_eq, Val};
use crate::pyfunc::pandas_names as names;
use crate::pyfunc::PyError;

pub(in crate::pyfunc) type R<T> = Result<T, PyError>;

/// Index labels of a `Series` or the rows of a `DataFrame`: one label per row (a tuple per
/// row for a multi-level index) and one name per level. A missing index is the default
/// `RangeIndex` (labels 0, 1, 2, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    /// One label per row, in row order (a tuple per row for a multi-level index).
    pub labels: Vec<Val>,
    /// One name per level (`None`: unnamed), as `index.names` gives them.
    pub names: Vec<Option<String>>,
}

/// A pandas `Series`: a name, its values and its index.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// `series.name` (`None`: unnamed).
    pub name: Option<String>,
    /// The values in row order; a missing value is `None` or NaN, as in pandas.
    pub values: Vec<Val>,
    /// The row labels; `None`: the default `RangeIndex`.
    pub index: Option<Rc<Index>>,
}

/// A pandas `DataFrame`: named columns of equal length, and the row index.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// (name, values) per column, in column order; every column has `len` values.
    pub columns: Vec<(String, Vec<Val>)>,
    /// The number of rows (kept apart so a frame without columns still has a length).
    pub len: usize,
    /// The row labels; `None`: the default `RangeIndex`.
    pub index: Option<Rc<Index>>,
}

/// `df.groupby(by)` (and `df.groupby(by)[cols]`): the frame, the key columns, the selected
/// value columns (`None`: every other column) and whether one column was selected by name
/// (a `SeriesGroupBy`).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupBy {
    /// The grouped frame.
    pub frame: Rc<Frame>,
    /// The key columns' names (`by`).
    pub keys: Vec<String>,
    /// The value columns selected with `[...]`; `None`: every non-key column.
    pub selection: Option<Vec<String>>,
    /// One column was selected by name (`groupby(by)['c']`): results are `Series`.
    pub series: bool,
    /// `as_index` (default True): the keys become the result's index; with False they stay
    /// columns.
    pub as_index: bool,
}

/// Which indexer `obj.loc` / `.iloc` / `.at` / `.iat` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexerKind {
    /// `.loc[...]`: by label (or boolean mask).
    Loc,
    /// `.iloc[...]`: by integer position.
    ILoc,
    /// `.at[...]`: one value by label.
    At,
    /// `.iat[...]`: one value by integer position.
    IAt,
}

/// `series.str` / `series.dt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessorKind {
    /// `series.str`: vectorised string methods.
    Str,
    /// `series.dt`: datetime fields and methods of a `Timestamp` series.
    Dt,
}

impl Series {
    /// A series with the default index.
    pub fn new(name: Option<String>, values: Vec<Val>) -> Series {
        Series { name, values, index: None }
    }

    /// The index labels (0, 1, ... for the default index).
    pub fn labels(&self) -> Vec<Val> {
        labels(&self.index, self.values.len())
    }

    /// The rows `idx`, keeping their labels.
    pub fn take(&self, idx: &[usize]) -> Series {
        Series { name: self.name.clone(), values: idx.iter().map(|&i| self.values[i].clone()).collect(), index: take_index(&self.index, self.values.len(), idx) }
    }

    /// The same labels with new values.
    pub fn with_values(&self, values: Vec<Val>) -> Series {
        Series { name: self.name.clone(), values, index: self.index.clone() }
    }
}

impl Frame {
    /// A frame with the default index; its length is the first column's.
    pub fn new(columns: Vec<(String, Vec<Val>)>) -> Frame {
        let len = columns.first().map_or(0, |c| c.1.len());
        Frame { columns, len, index: None }
    }

    /// A frame of columns of plain values, each read as pandas infers a column's type
    /// ([`infer_column`]): how PySpark's Arrow batches and `pd.DataFrame(...)` arrive.
    pub fn from_columns(columns: Vec<(String, Vec<Val>)>) -> Frame {
        Frame::new(columns.into_iter().map(|(n, v)| (n, infer_column(v))).collect())
    }

    /// The column `name`, if the frame has it.
    pub fn column(&self, name: &str) -> Option<&Vec<Val>> {
        self.columns.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The column `name` as a series sharing the frame's index.
    pub fn series(&self, name: &str) -> Option<Series> {
        self.column(name).map(|v| Series { name: Some(name.to_string()), values: v.clone(), index: self.index.clone() })
    }

    /// The rows `idx`, keeping their labels.
    pub fn take(&self, idx: &[usize]) -> Frame {
        Frame {
            columns: self.columns.iter().map(|(n, v)| (n.clone(), idx.iter().map(|&i| v[i].clone()).collect())).collect(),
            len: idx.len(),
            index: take_index(&self.index, self.len, idx),
        }
    }

    /// The row labels (0, 1, ... for the default index).
    pub fn labels(&self) -> Vec<Val> {
        labels(&self.index, self.len)
    }

    /// Row `r` as a series indexed by the column names (`df.iloc[r]`, `iterrows`).
    pub fn row(&self, r: usize) -> Series {
        Series {
            name: self.labels().get(r).map(Val::str_value),
            values: self.columns.iter().map(|(_, v)| v[r].clone()).collect(),
            index: Some(Rc::new(Index { labels: self.columns.iter().map(|(n, _)| str_val(n)).collect(), names: vec![None] })),
        }
    }
}

/// The groups of `g`: (key, the rows), keys ascending, rows with a missing key dropped
/// (pandas' `sort=True, dropna=True`).
pub(in crate::pyfunc) fn groups(g: &GroupBy) -> Vec<(Vec<Val>, Vec<usize>)> {
    let f = &g.frame;
    let cols: Vec<&Vec<Val>> = g.keys.iter().map(|k| f.column(k).expect("checked by groupby")).collect();
    let mut groups: Vec<(Vec<Val>, Vec<usize>)> = Vec::new();
    for r in 0..f.len {
        let key: Vec<Val> = cols.iter().map(|c| c[r].clone()).collect();
        if key.iter().any(is_na) {
            continue;
        }
        match groups.iter_mut().find(|(k, _)| k.iter().zip(&key).all(|(a, b)| py_eq(a, b))) {
            Some((_, rows)) => rows.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    groups.sort_by(|(a, _), (b, _)| a.iter().zip(b).map(|(x, y)| key_cmp(x, y)).find(|o| *o != std::cmp::Ordering::Equal).unwrap_or(std::cmp::Ordering::Equal));
    groups
}

/// The group key as pandas gives it: the value for one key column, a tuple for several.
pub(in crate::pyfunc) fn key_label(key: &[Val]) -> Val {
    if key.len() == 1 {
        key[0].clone()
    } else {
        Val::Tuple(Rc::new(key.to_vec()))
    }
}

/// `for key, group in df.groupby(...)`.
pub(in crate::pyfunc) fn groupby_iter(g: &GroupBy) -> Vec<Val> {
    groups(g).into_iter().map(|(k, rows)| Val::Tuple(Rc::new(vec![key_label(&k), frame_val(g.frame.take(&rows))]))).collect()
}

/// A Python string value.
pub fn str_val(s: &str) -> Val {
    Val::Str(Rc::from(s))
}

/// A Python list value.
pub fn list_val(items: Vec<Val>) -> Val {
    Val::List(Rc::new(std::cell::RefCell::new(items)))
}

/// A `Series` value.
pub fn series_val(s: Series) -> Val {
    Val::Series(Rc::new(s))
}

/// A `DataFrame` value.
pub fn frame_val(f: Frame) -> Val {
    Val::Frame(Rc::new(f))
}

/// The labels of `index` for `n` rows.
pub fn labels(index: &Option<Rc<Index>>, n: usize) -> Vec<Val> {
    match index {
        Some(i) => i.labels.clone(),
        None => (0..n as i64).map(Val::Int).collect(),
    }
}

/// The index of the rows `idx` of a frame or series of `n` rows.
pub fn take_index(index: &Option<Rc<Index>>, n: usize, idx: &[usize]) -> Option<Rc<Index>> {
    let all = labels(index, n);
    let names = index.as_ref().map_or_else(|| vec![None], |i| i.names.clone());
    Some(Rc::new(Index { labels: idx.iter().map(|&i| all[i].clone()).collect(), names }))
}

/// The position of the first row labelled `label`.
pub fn position(index: &Option<Rc<Index>>, n: usize, label: &Val) -> Option<usize> {
    match index {
        None => label.as_int().filter(|i| !matches!(label, Val::Bool(_)) && *i >= 0 && (*i as usize) < n).map(|i| i as usize),
        Some(ix) => ix.labels.iter().position(|l| py_eq(l, label)),
    }
}

/// A column as pandas stores it: numbers with a missing value become a float column, the
/// missing values NaN (`[1, None, 3]` is `[1.0, NaN, 3.0]`, as Arrow's nullable integers
/// arrive in pandas too); other columns keep `None`.
pub fn infer_column(values: Vec<Val>) -> Vec<Val> {
    let has_none = values.iter().any(|v| matches!(v, Val::None));
    let numeric = values.iter().any(|v| matches!(v, Val::Int(_) | Val::Float(_))) && values.iter().all(|v| matches!(v, Val::None | Val::Int(_) | Val::Float(_)));
    if !(has_none && numeric) {
        return values;
    }
    values
        .into_iter()
        .map(|v| match v {
            Val::None => Val::Float(f64::NAN),
            Val::Int(i) => Val::Float(i as f64),
            other => other,
        })
        .collect()
}

/// pandas' missing value: `None`, NaN or `NaT`.
pub fn is_na(v: &Val) -> bool {
    matches!(v, Val::None) || matches!(v, Val::Float(f) if f.is_nan())
}

/// The pandas type name of a value for messages (`DataFrame`, `Series`, `DataFrameGroupBy`).
pub fn type_label(v: &Val) -> &'static str {
    match v {
        Val::GroupBy(g) if g.series => "SeriesGroupBy",
        Val::GroupBy(_) => "DataFrameGroupBy",
        Val::Accessor(AccessorKind::Str, _) => "Series.str",
        Val::Accessor(AccessorKind::Dt, _) => "Series.dt",
        other => other.type_name(),
    }
}

/// The real pandas names of `v`'s class (`pandas_names.rs`).
fn real_names(v: &Val) -> &'static [(&'static str, bool)] {
    match v {
        Val::Frame(_) => names::DATAFRAME,
        Val::Series(_) | Val::Indexer(..) => names::SERIES,
        Val::GroupBy(g) if g.series => names::SERIES_GROUPBY,
        Val::GroupBy(_) => names::DATAFRAME_GROUPBY,
        Val::Timestamp(_) => names::TIMESTAMP,
        Val::Timedelta(_) => names::TIMEDELTA,
        Val::Accessor(AccessorKind::Str, _) => names::STRING_METHODS,
        Val::Accessor(AccessorKind::Dt, _) => names::DATETIME_PROPERTIES,
        _ => &[],
    }
}

/// The error for `v.name` when the subset does not have it: not modelled when pandas has the
/// name (`pandas DataFrame.pivot_table()`), Python's `AttributeError` otherwise.
pub fn missing(v: &Val, name: &str, line: usize) -> PyError {
    match real_names(v).iter().find(|(n, _)| *n == name) {
        Some((_, method)) => PyError::not_modelled(format!("pandas {}.{name}{}", type_label(v), if *method { "()" } else { "" }), line),
        None => PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", type_label(v)), line),
    }
}

/// The error for `pd.name` when the subset does not have it.
pub fn missing_module_fn(name: &str, line: usize) -> PyError {
    match names::MODULE.iter().find(|(n, _)| *n == name) {
        Some((_, method)) => PyError::not_modelled(format!("pandas pd.{name}{}", if *method { "()" } else { "" }), line),
        None => PyError::runtime(format!("AttributeError: module 'pandas' has no attribute '{name}'"), line),
    }
}

/// The `pd.*` names the subset models.
pub const MODULE_FUNCTIONS: &[&str] = &["DataFrame", "Series", "Timestamp", "Timedelta", "to_datetime", "concat", "isna", "isnull", "notna", "notnull", "merge"];

/// Keyword argument `name`, or positional argument `i`.
pub fn arg<'a>(args: &'a [Val], kwargs: &'a [(String, Val)], i: usize, name: &str) -> Option<&'a Val> {
    kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| v).or_else(|| args.get(i))
}

/// A keyword flag (`ascending=False`, `drop=True`), `default` when absent.
pub fn flag(kwargs: &[(String, Val)], name: &str, default: bool) -> bool {
    match kwargs.iter().find(|(k, _)| k == name) {
        Some((_, Val::Bool(b))) => *b,
        Some((_, v)) => v.as_int().map_or(default, |i| i != 0),
        None => default,
    }
}

/// Column names given as one name or a list of names.
pub fn name_list(v: &Val, line: usize) -> R<Vec<String>> {
    match v {
        Val::Str(s) => Ok(vec![s.to_string()]),
        Val::List(l) => Ok(l.borrow().iter().map(Val::str_value).collect()),
        Val::Tuple(t) => Ok(t.iter().map(Val::str_value).collect()),
        Val::Series(s) => Ok(s.values.iter().map(Val::str_value).collect()),
        other => Err(PyError::runtime(format!("TypeError: expected a column name or a list of names, got {}", other.type_name()), line)),
    }
}

/// `pd.DataFrame({...})`, `pd.DataFrame([{...}, ...])`, `pd.DataFrame(rows, columns=[...])`,
/// `pd.DataFrame(columns=[...])`. A scalar in a dict of columns is repeated to the others'
/// length (a dict of only scalars needs an index, as in pandas).
pub fn frame_from(args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let columns_kw = kwargs.iter().find(|(k, _)| k == "columns").map(|(_, v)| v.clone());
    let index_kw = kwargs.iter().find(|(k, _)| k == "index").map(|(_, v)| v.clone());
    let mut columns: Vec<(String, Vec<Val>)> = Vec::new();
    match args.first() {
        None | Some(Val::None) => {
            if let Some(cols) = &columns_kw {
                columns = name_list(cols, line)?.into_iter().map(|c| (c, Vec::new())).collect();
            }
        }
        Some(Val::Dict(d)) => {
            let d = d.borrow();
            let mut len: Option<usize> = None;
            let mut scalars = 0;
            for (k, v) in d.iter() {
                let values = match v {
                    Val::List(l) => Some(l.borrow().clone()),
                    Val::Tuple(t) => Some(t.as_ref().clone()),
                    Val::Series(s) => Some(s.values.clone()),
                    _ => None,
                };
                if let Some(values) = &values {
                    if len.is_some_and(|n| n != values.len()) {
                        return Err(PyError::runtime("ValueError: All arrays must be of the same length", line));
                    }
                    len = Some(values.len());
                } else {
                    scalars += 1;
                }
                columns.push((k.str_value(), values.unwrap_or_else(|| vec![v.clone()])));
            }
            let n = match (len, &index_kw) {
                (Some(n), _) => n,
                (None, Some(ix)) => iterate_plain(ix, line)?.len(),
                (None, None) if scalars > 0 => return Err(PyError::runtime("ValueError: If using all scalar values, you must pass an index", line)),
                (None, None) => 0,
            };
            let listed: Vec<bool> = d.iter().map(|(_, v)| matches!(v, Val::List(_) | Val::Tuple(_) | Val::Series(_))).collect();
            for ((_, v), is_list) in columns.iter_mut().zip(listed) {
                if !is_list {
                    let x = v[0].clone();
                    *v = vec![x; n];
                }
            }
        }
        Some(Val::List(rows)) => {
            let names: Option<Vec<String>> = columns_kw.as_ref().map(|c| name_list(c, line)).transpose()?;
            for r in rows.borrow().iter() {
                match r {
                    Val::Dict(d) => {
                        let n = columns.first().map_or(0, |c| c.1.len());
                        for (k, v) in d.borrow().iter() {
                            let name = k.str_value();
                            match columns.iter_mut().find(|(c, _)| *c == name) {
                                Some((_, col)) => col.push(v.clone()),
                                None => {
                                    let mut col = vec![Val::Float(f64::NAN); n];
                                    col.push(v.clone());
                                    columns.push((name, col));
                                }
                            }
                        }
                        for (_, col) in columns.iter_mut() {
                            col.resize(n + 1, Val::Float(f64::NAN));
                        }
                    }
                    Val::Tuple(_) | Val::List(_) | Val::Row(_) => {
                        let items = iterate_plain(r, line)?;
                        if columns.is_empty() {
                            let names = match (&names, r) {
                                (Some(n), _) => n.clone(),
                                (None, Val::Row(fields)) => fields.iter().map(|(n, _)| n.clone()).collect(),
                                (None, _) => (0..items.len()).map(|i| i.to_string()).collect(),
                            };
                            columns = names.into_iter().map(|n| (n, Vec::new())).collect();
                        }
                        if items.len() != columns.len() {
                            return Err(PyError::runtime(format!("ValueError: {} columns passed, passed data had {} columns", columns.len(), items.len()), line));
                        }
                        for (c, v) in columns.iter_mut().zip(items) {
                            c.1.push(v);
                        }
                    }
                    other => return Err(PyError::runtime(format!("TypeError: cannot build a DataFrame row from {}", other.type_name()), line)),
                }
            }
        }
        Some(Val::Frame(f)) => return Ok(Val::Frame(Rc::clone(f))),
        Some(Val::Series(s)) => {
            return Ok(frame_val(Frame { columns: vec![(s.name.clone().unwrap_or_else(|| "0".into()), s.values.clone())], len: s.values.len(), index: s.index.clone() }));
        }
        Some(other) => return Err(PyError::runtime(format!("ValueError: DataFrame constructor not properly called with a {}", other.type_name()), line)),
    }
    let mut f = Frame::from_columns(columns);
    if let Some(ix) = index_kw.filter(|i| !matches!(i, Val::None)) {
        let labels = iterate_plain(&ix, line)?;
        if labels.len() != f.len {
            return Err(PyError::runtime(format!("ValueError: Length of values ({}) does not match length of index ({})", f.len, labels.len()), line));
        }
        f.index = Some(Rc::new(Index { labels, names: vec![None] }));
    }
    Ok(frame_val(f))
}

/// `pd.Series(values, index=None, name=None)`.
pub fn series_from(args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let name = arg(args, kwargs, 2, "name").filter(|n| !matches!(n, Val::None)).map(Val::str_value);
    let (values, mut index) = match arg(args, kwargs, 0, "data") {
        None | Some(Val::None) => (Vec::new(), None),
        Some(Val::Dict(d)) => {
            let d = d.borrow();
            (d.iter().map(|(_, v)| v.clone()).collect(), Some(Rc::new(Index { labels: d.iter().map(|(k, _)| k.clone()).collect(), names: vec![None] })))
        }
        Some(Val::Series(s)) => (s.values.clone(), s.index.clone()),
        Some(v) => (iterate_plain(v, line)?, None),
    };
    let values = infer_column(values);
    if let Some(ix) = arg(args, kwargs, 1, "index").filter(|i| !matches!(i, Val::None)) {
        let labels = iterate_plain(ix, line)?;
        if labels.len() != values.len() {
            return Err(PyError::runtime(format!("ValueError: Length of values ({}) does not match length of index ({})", values.len(), labels.len()), line));
        }
        index = Some(Rc::new(Index { labels, names: vec![None] }));
    }
    Ok(series_val(Series { name, values, index }))
}

/// `pd.concat([frames or series], ignore_index=False)`: rows one after the other, columns by
/// name in order of first appearance, a column a piece lacks filled with NaN.
pub fn concat(args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let pieces = iterate_plain(arg(args, kwargs, 0, "objs").unwrap_or(&Val::None), line)?;
    if pieces.is_empty() {
        return Err(PyError::runtime("ValueError: No objects to concatenate", line));
    }
    if flag(kwargs, "axis", false) {
        return Err(PyError::not_modelled("pandas pd.concat(axis=1)", line));
    }
    let ignore_index = flag(kwargs, "ignore_index", false);
    if pieces.iter().all(|p| matches!(p, Val::Series(_))) {
        let mut values = Vec::new();
        let mut labels = Vec::new();
        let mut name = None;
        for (i, p) in pieces.iter().enumerate() {
            let Val::Series(s) = p else { unreachable!("checked above") };
            if i == 0 {
                name = s.name.clone();
            } else if name != s.name {
                name = None;
            }
            values.extend(s.values.iter().cloned());
            labels.extend(s.labels());
        }
        let index = (!ignore_index).then(|| Rc::new(Index { labels, names: vec![None] }));
        return Ok(series_val(Series { name, values, index }));
    }
    let mut columns: Vec<(String, Vec<Val>)> = Vec::new();
    let mut labels = Vec::new();
    let mut len = 0;
    for p in pieces {
        let f = match p {
            Val::Frame(f) => f,
            Val::None => continue,
            other => return Err(PyError::runtime(format!("TypeError: cannot concatenate object of type '{}'; only Series and DataFrame objs are valid", other.type_name()), line)),
        };
        for (n, v) in &f.columns {
            match columns.iter_mut().find(|(m, _)| m == n) {
                Some((_, col)) => col.extend(v.iter().cloned()),
                None => {
                    let mut col = vec![Val::Float(f64::NAN); len];
                    col.extend(v.iter().cloned());
                    columns.push((n.clone(), col));
                }
            }
        }
        len += f.len;
        labels.extend(f.labels());
        for (_, col) in columns.iter_mut() {
            col.resize(len, Val::Float(f64::NAN));
        }
    }
    let index = (!ignore_index).then(|| Rc::new(Index { labels, names: vec![None] }));
    Ok(frame_val(Frame { columns, len, index }))
}

/// `pd.merge(left, right, on=..., how='inner')` / `left.merge(right, ...)`: `inner`, `left`,
/// `right` and `outer` joins on equal key columns (`on`, or the columns both share), rows in
/// the left frame's order (for `inner` and `left`), a non-key column both have suffixed
/// `_x` / `_y`, the result with a fresh index.
pub fn merge(left: &Frame, right: &Frame, kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let how = kwargs.iter().find(|(k, _)| k == "how").map_or("inner".to_string(), |(_, v)| v.str_value());
    if kwargs.iter().any(|(k, _)| matches!(k.as_str(), "left_on" | "right_on" | "left_index" | "right_index")) {
        return Err(PyError::not_modelled("pandas DataFrame.merge(left_on=/right_on=/..._index=)", line));
    }
    let on: Vec<String> = match kwargs.iter().find(|(k, _)| k == "on") {
        Some((_, v)) => name_list(v, line)?,
        None => left.columns.iter().map(|(n, _)| n.clone()).filter(|n| right.column(n).is_some()).collect(),
    };
    if on.is_empty() {
        return Err(PyError::runtime("pandas.errors.MergeError: No common columns to perform merge on.", line));
    }
    for k in &on {
        if left.column(k).is_none() || right.column(k).is_none() {
            return Err(PyError::runtime(format!("KeyError: '{k}'"), line));
        }
    }
    let key = |f: &Frame, r: usize| -> Vec<Val> { on.iter().map(|k| f.column(k).expect("checked")[r].clone()).collect() };
    let same = |a: &[Val], b: &[Val]| a.iter().zip(b).all(|(x, y)| !is_na(x) && py_eq(x, y));
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    let mut right_used = vec![false; right.len];
    match how.as_str() {
        "inner" | "left" | "outer" => {
            for l in 0..left.len {
                let lk = key(left, l);
                let mut found = false;
                for (r, used) in right_used.iter_mut().enumerate() {
                    if same(&lk, &key(right, r)) {
                        pairs.push((Some(l), Some(r)));
                        *used = true;
                        found = true;
                    }
                }
                if !found && how != "inner" {
                    pairs.push((Some(l), None));
                }
            }
            if how == "outer" {
                pairs.extend((0..right.len).filter(|r| !right_used[*r]).map(|r| (None, Some(r))));
            }
        }
        "right" => {
            for r in 0..right.len {
                let rk = key(right, r);
                let matches: Vec<usize> = (0..left.len).filter(|l| same(&key(left, *l), &rk)).collect();
                if matches.is_empty() {
                    pairs.push((None, Some(r)));
                }
                pairs.extend(matches.into_iter().map(|l| (Some(l), Some(r))));
            }
        }
        other => return Err(PyError::not_modelled(format!("pandas DataFrame.merge(how='{other}')"), line)),
    }
    let nan = || Val::Float(f64::NAN);
    let mut columns: Vec<(String, Vec<Val>)> = Vec::new();
    for (n, v) in &left.columns {
        let name = if !on.contains(n) && right.column(n).is_some() { format!("{n}_x") } else { n.clone() };
        let rv = on.contains(n).then(|| right.column(n).expect("a key"));
        columns.push((name, pairs.iter().map(|(l, r)| l.map(|l| v[l].clone()).or_else(|| rv.zip(*r).map(|(rv, r)| rv[r].clone())).unwrap_or_else(nan)).collect()));
    }
    for (n, v) in right.columns.iter().filter(|(n, _)| !on.contains(n)) {
        let name = if left.column(n).is_some() { format!("{n}_y") } else { n.clone() };
        columns.push((name, pairs.iter().map(|(_, r)| r.map_or_else(nan, |r| v[r].clone())).collect()));
    }
    Ok(frame_val(Frame::new(columns)))
}
