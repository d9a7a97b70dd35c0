//! The public API of PySpark 4.3.0 — `DataFrame`, `GroupedData`, `Column`, the functions of
//! `pyspark.sql.functions`, `DataStreamWriter`/`Reader`, `StreamingQuery`, `SparkSession`,
//! `Window` — with each method's parameters (`pyspark_signatures.rs`, generated from
//! PySpark's sources by `scripts/gen_pyspark_api.py`), and Python's binding of a call's arguments to them ([`bind`]).
//!
//! A call Streamlab does not model is told apart from a name PySpark does not have: the first
//! is reported as a feature not modelled yet (the conformance runner's `unsupported:
//! <feature>`), the second as the error Python would raise.

/// Which PySpark object a method is called on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiKind {
    /// `pyspark.sql.DataFrame`: a stream or a table, and what its transformations return.
    DataFrame,
    /// What `DataFrame.groupBy(...)` returns (`agg`, `count`, `applyInPandasWithState`, ...).
    GroupedData,
    /// `pyspark.sql.Column`.
    Column,
    /// `pyspark.sql.functions` (`F.*`).
    Functions,
    /// `DataFrame.writeStream`.
    DataStreamWriter,
    /// `spark.readStream`.
    DataStreamReader,
    /// What `DataStreamWriter.start()` returns.
    StreamingQuery,
    /// `spark.streams`.
    StreamingQueryManager,
    /// `spark.*`.
    SparkSession,
    /// `pyspark.sql.Window`.
    Window,
    /// What `Window.partitionBy(...)` returns.
    WindowSpec,
}

impl ApiKind {
    /// How the feature is named in reports: `DataFrame`, `GroupedData`, `F`, ...
    pub fn prefix(self) -> &'static str {
        match self {
            ApiKind::DataFrame => "DataFrame",
            ApiKind::GroupedData => "GroupedData",
            ApiKind::Column => "Column",
            ApiKind::Functions => "F",
            ApiKind::DataStreamWriter => "DataStreamWriter",
            ApiKind::DataStreamReader => "DataStreamReader",
            ApiKind::StreamingQuery => "StreamingQuery",
            ApiKind::StreamingQueryManager => "StreamingQueryManager",
            ApiKind::SparkSession => "spark",
            ApiKind::Window => "Window",
            ApiKind::WindowSpec => "WindowSpec",
        }
    }

    /// Every kind, for tests and tables.
    pub const ALL: [ApiKind; 11] = [
        ApiKind::DataFrame,
        ApiKind::GroupedData,
        ApiKind::Column,
        ApiKind::Functions,
        ApiKind::DataStreamWriter,
        ApiKind::DataStreamReader,
        ApiKind::StreamingQuery,
        ApiKind::StreamingQueryManager,
        ApiKind::SparkSession,
        ApiKind::Window,
        ApiKind::WindowSpec,
    ];

    /// The generated rows (`pyspark_signatures`), sorted by name.
    pub fn rows(self) -> &'static [Api] {
        match self {
            ApiKind::DataFrame => DATAFRAME,
            ApiKind::GroupedData => GROUPED_DATA,
            ApiKind::Column => COLUMN,
            ApiKind::Functions => FUNCTIONS,
            ApiKind::DataStreamWriter => DATA_STREAM_WRITER,
            ApiKind::DataStreamReader => DATA_STREAM_READER,
            ApiKind::StreamingQuery => STREAMING_QUERY,
            ApiKind::StreamingQueryManager => STREAMING_QUERY_MANAGER,
            ApiKind::SparkSession => SPARK_SESSION,
            ApiKind::Window => WINDOW,
            ApiKind::WindowSpec => WINDOW_SPEC,
        }
    }
}

/// How a parameter takes its argument (Python's `inspect.Parameter.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// Positional or keyword (`def f(a, b=1)`).
    Pos,
    /// `*cols`: every further positional argument.
    VarPos,
    /// Keyword-only (after `*`): `trigger(*, processingTime=None, once=None, ...)`.
    KwOnly,
    /// `**options`: every further keyword argument.
    VarKw,
}

/// A parameter's default value as PySpark's signature writes it, when it is a literal PySpark
/// passes on to Spark (`split(str, pattern, limit=-1)` sends `-1`, which shows in Spark's column
/// name `split(s, ,, -1)`). `None` also stands for `=None`, which PySpark functions treat as
/// "not given".
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Default {
    /// No literal default: `=None`, a required parameter, or a default PySpark does not
    /// pass on.
    None,
    /// `=True` / `=False`.
    Bool(bool),
    /// An integer default (`limit=-1`).
    Int(i64),
    /// A float default.
    Float(f64),
    /// A string default.
    Str(&'static str),
}

/// One parameter of a PySpark function or method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The parameter's Python name (a call's keyword for it).
    pub name: &'static str,
    /// How it takes its argument.
    pub kind: ParamKind,
    /// No default value.
    pub required: bool,
    /// A `str` passed here names a column (PySpark's `ColumnOrName`); elsewhere it is a
    /// literal (`F.regexp_extract('s', pattern, 1)`: the pattern is text).
    pub names_column: bool,
    /// Its default value, when a literal PySpark passes on.
    pub default: Default,
}

/// A public name of a PySpark class or module: a method or function with its parameters, or an
/// attribute (`params` is `None`: `DataFrame.isStreaming`, `DataFrame.writeStream`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Api {
    /// The method, function or attribute name as PySpark spells it (`withWatermark`).
    pub name: &'static str,
    /// The parameters in order; `None` for an attribute.
    pub params: Option<&'static [Param]>,
}

/// The row for `name` on `kind`, if PySpark 4.3 has it (functions: also any case, as SQL
/// function names are case-insensitive).
pub fn lookup(kind: ApiKind, name: &str) -> Option<&'static Api> {
    let rows = kind.rows();
    let find = |n: &str| rows.binary_search_by(|a| a.name.cmp(n)).ok().map(|i| &rows[i]);
    find(name).or_else(|| if kind == ApiKind::Functions { find(&name.to_ascii_lowercase()) } else { None })
}

/// True if PySpark 4.3 has `name` on `kind` (functions: also in SQL, any case).
pub fn exists(kind: ApiKind, name: &str) -> bool {
    lookup(kind, name).is_some()
}

/// Arguments bound to parameters the way Python binds a call: `slots[i]` holds what the call
/// gave parameter `i` (by position or by keyword), `var_pos` the extra positional arguments
/// (`*cols`), `var_kw` the extra keywords (`**options`), in the order written.
#[derive(Debug, Clone)]
pub struct Bound<T> {
    /// The signature bound against.
    pub params: &'static [Param],
    /// Per parameter of `params` (same index): the argument and its span, `None` if not
    /// given.
    pub slots: Vec<Option<(T, crate::error::Span)>>,
    /// The extra positional arguments with their spans, for a `*args` parameter.
    pub var_pos: Vec<(T, crate::error::Span)>,
    /// The extra keyword arguments (keyword, value, span), for a `**kwargs` parameter.
    pub var_kw: Vec<(String, T, crate::error::Span)>,
}

impl<T> Bound<T> {
    /// The argument given for parameter `name`, if any.
    pub fn get(&self, name: &str) -> Option<&(T, crate::error::Span)> {
        let i = self.params.iter().position(|p| p.name == name)?;
        self.slots[i].as_ref()
    }

    /// Takes the argument given for parameter `name`, if any.
    pub fn take(&mut self, name: &str) -> Option<(T, crate::error::Span)> {
        let i = self.params.iter().position(|p| p.name == name)?;
        self.slots[i].take()
    }

    /// Every argument in parameter order: the named slots given, with `*args` at its place.
    pub fn into_ordered(self) -> Vec<(&'static Param, T, crate::error::Span)> {
        let mut out = Vec::new();
        let mut var_pos = Some(self.var_pos);
        for (p, slot) in self.params.iter().zip(self.slots) {
            if p.kind == ParamKind::VarPos {
                out.extend(var_pos.take().unwrap_or_default().into_iter().map(|(v, s)| (p, v, s)));
            } else if let Some((v, s)) = slot {
                out.push((p, v, s));
            }
        }
        out
    }
}

/// Binds a call's positional and keyword arguments to `params` as Python does.
///
/// `qualname` is how Python names the callable in its messages: `col` for a function,
/// `DataFrame.withWatermark` for a method; `is_method` adds `self` to the positional counts,
/// as Python's own message does.
///
/// # Errors
/// Python's `TypeError` text (3.11): `col() takes 1 positional argument but 2 were given`,
/// `regexp_extract() missing 2 required positional arguments: 'pattern' and 'idx'`,
/// `window() got an unexpected keyword argument 'foo'`, `... got multiple values for argument
/// 'x'`. The span is the offending argument's, or `call_span`.
pub fn bind<T>(
    qualname: &str,
    is_method: bool,
    params: &'static [Param],
    pos: Vec<(T, crate::error::Span)>,
    kw: Vec<(String, T, crate::error::Span)>,
    call_span: crate::error::Span,
) -> Result<Bound<T>, (String, crate::error::Span)> {
    let mut slots: Vec<Option<(T, crate::error::Span)>> = params.iter().map(|_| None).collect();
    let positional: Vec<usize> = params.iter().enumerate().filter(|(_, p)| p.kind == ParamKind::Pos).map(|(i, _)| i).collect();
    let has_var_pos = params.iter().any(|p| p.kind == ParamKind::VarPos);
    let has_var_kw = params.iter().any(|p| p.kind == ParamKind::VarKw);
    let given = pos.len();
    let mut var_pos = Vec::new();
    for (k, (v, s)) in pos.into_iter().enumerate() {
        // Positional parameters after `*args` do not exist in Python; before it they fill in order.
        match positional.get(k) {
            Some(&i) if !has_var_pos || params[..i].iter().all(|p| p.kind != ParamKind::VarPos) => slots[i] = Some((v, s)),
            _ if has_var_pos => var_pos.push((v, s)),
            _ => {
                let extra = usize::from(is_method);
                let required = positional.iter().filter(|&&i| params[i].required).count() + extra;
                let most = positional.len() + extra;
                let takes = if required == most {
                    format!("{most} positional argument{}", if most == 1 { "" } else { "s" })
                } else {
                    format!("from {required} to {most} positional arguments")
                };
                let n = given + extra;
                return Err((format!("{qualname}() takes {takes} but {n} {} given", if n == 1 { "was" } else { "were" }), s));
            }
        }
    }
    let mut var_kw = Vec::new();
    for (name, v, s) in kw {
        match params.iter().position(|p| p.name == name && matches!(p.kind, ParamKind::Pos | ParamKind::KwOnly)) {
            Some(i) if slots[i].is_some() => return Err((format!("{qualname}() got multiple values for argument '{name}'"), s)),
            Some(i) => slots[i] = Some((v, s)),
            None if has_var_kw => var_kw.push((name, v, s)),
            None => return Err((format!("{qualname}() got an unexpected keyword argument '{name}'"), s)),
        }
    }
    for kind in [ParamKind::Pos, ParamKind::KwOnly] {
        let missing: Vec<String> = params.iter().zip(&slots).filter(|(p, s)| p.kind == kind && p.required && s.is_none()).map(|(p, _)| format!("'{}'", p.name)).collect();
        if !missing.is_empty() {
            let what = if kind == ParamKind::Pos { "positional" } else { "keyword-only" };
            let list = match missing.as_slice() {
                [one] => one.clone(),
                [a, b] => format!("{a} and {b}"),
                [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
                [] => unreachable!("missing is not empty"),
            };
            let n = missing.len();
            return Err((format!("{qualname}() missing {n} required {what} argument{}: {list}", if n == 1 { "" } else { "s" }), call_span));
        }
    }
    Ok(Bound { params, slots, var_pos, var_kw })
}

// The generated tables (`scripts/gen_pyspark_api.py`): `DATAFRAME`, `FUNCTIONS`, ...
include!("pyspark_signatures.rs");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_for_binary_search() {
        for kind in ApiKind::ALL {
            assert!(kind.rows().windows(2).all(|w| w[0].name < w[1].name), "{kind:?}");
        }
    }

    fn call(name: &str, pos: usize, kw: &[&str]) -> Result<Vec<(&'static str, usize)>, String> {
        let params = lookup(ApiKind::Functions, name).and_then(|a| a.params).expect("a function");
        let span = crate::error::Span::new(0, 0);
        let pos = (0..pos).map(|i| (i, span)).collect();
        let kw = kw.iter().enumerate().map(|(i, k)| (k.to_string(), 100 + i, span)).collect();
        bind(name, false, params, pos, kw, span).map(|b| b.into_ordered().into_iter().map(|(p, v, _)| (p.name, v)).collect()).map_err(|e| e.0)
    }

    /// The messages are the ones Python 3.11 printed for the same calls on PySpark 4.3.0
    /// (`F.col('a', 'b')`, `F.regexp_extract('a')`, `F.window('t', '1 minute', foo=1)`, ...).
    #[test]
    fn binds_as_python_does_and_says_what_python_says() {
        assert_eq!(call("col", 2, &[]).unwrap_err(), "col() takes 1 positional argument but 2 were given");
        assert_eq!(call("regexp_extract", 1, &[]).unwrap_err(), "regexp_extract() missing 2 required positional arguments: 'pattern' and 'idx'");
        assert_eq!(call("window", 2, &["foo"]).unwrap_err(), "window() got an unexpected keyword argument 'foo'");
        assert_eq!(call("regexp_extract", 4, &[]).unwrap_err(), "regexp_extract() takes 3 positional arguments but 4 were given");
        assert_eq!(call("split", 0, &[]).unwrap_err(), "split() missing 2 required positional arguments: 'str' and 'pattern'");
        assert_eq!(call("to_json", 3, &[]).unwrap_err(), "to_json() takes from 1 to 2 positional arguments but 3 were given");
        assert_eq!(call("window", 1, &["timeColumn"]).unwrap_err(), "window() got multiple values for argument 'timeColumn'");
        // Keywords fill their parameter wherever they are written; *cols keeps its order.
        assert_eq!(call("window", 1, &["startTime", "windowDuration"]).unwrap(), vec![("timeColumn", 0), ("windowDuration", 101), ("startTime", 100)]);
        assert_eq!(call("concat_ws", 3, &[]).unwrap(), vec![("sep", 0), ("cols", 1), ("cols", 2)]);
    }

    #[test]
    fn a_str_names_a_column_where_pyspark_says_column_or_name() {
        let params = lookup(ApiKind::Functions, "regexp_extract").and_then(|a| a.params).unwrap();
        assert_eq!(params.iter().map(|p| p.names_column).collect::<Vec<_>>(), [true, false, false]);
        let window = lookup(ApiKind::Functions, "window").and_then(|a| a.params).unwrap();
        assert!(window[0].names_column && !window[1].names_column);
    }

    #[test]
    fn knows_real_names_only() {
        assert!(exists(ApiKind::GroupedData, "applyInPandasWithState"));
        assert!(exists(ApiKind::DataFrame, "dropDuplicatesWithinWatermark"));
        assert!(exists(ApiKind::Functions, "lag"));
        assert!(exists(ApiKind::Functions, "LAST"));
        assert!(!exists(ApiKind::DataFrame, "mapGroupsWithState"));
        assert!(!exists(ApiKind::Functions, "no_such_function"));
    }
}
