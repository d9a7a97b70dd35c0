//! `Column` methods (`pyspark/sql/classic/column.py`), the functions of
//! `pyspark.sql.functions`, and `Window` specifications, each after its arguments are bound
//! to PySpark 4.3's signature. A function without a rule of its own goes through the function
//! table ([`crate::frontend::functions::scalar_function`]) with its arguments in parameter
//! order: a `str` names a column where PySpark's annotation says `ColumnOrName` and is a
//! literal elsewhere, and a literal default is passed as PySpark passes it (`limit=-1`).

use super::modules::ddl_of;
use super::{not_expected, perr, type_error, Evaluator, Py, R};
use crate::error::{Error, Span};
use crate::frontend::args;
use crate::frontend::functions::scalar_function;
use crate::frontend::pyspark_api::{ApiKind, Bound, Default, ParamKind};
use crate::frontend::sql::parse_select_item;
use crate::frontend::ParseError;
use crate::plan::{BinOp, Expr};
use crate::types::{CalendarInterval, Value};

type Args = Bound<Py>;

impl Evaluator<'_> {
    pub(super) fn column_method(&mut self, e: Expr, name: &str, mut b: Args, span: Span) -> R<Py> {
        Ok(Py::Col(match name {
            "alias" | "name" => {
                let names: Vec<(Py, Span)> = b.var_pos;
                match names.as_slice() {
                    [(Py::Str(a), _)] => Expr::Alias(Box::new(e), a.clone()),
                    [(other, s)] => return Err(not_expected("alias", "str", other, *s)),
                    [] => return Err(perr("alias() needs a name", span)),
                    _ => return Err(Error::Parse(ParseError::not_modelled("Column.alias with several names", "an alias with several names (for a generator's columns) is not modelled in Streamlab", span))),
                }
            }
            "cast" | "astype" | "try_cast" => {
                let (t, s) = b.take("dataType").expect("bound: required");
                let dt = match t {
                    Py::Str(t) => crate::types::parse_type_name(&t).map_err(|m| perr(m, s))?,
                    Py::Type(dt) => dt,
                    other => return Err(not_expected("dataType", "DataType or str", &other, s)),
                };
                let cast = Expr::Cast(Box::new(e), dt);
                if name == "try_cast" {
                    Expr::Function("try_cast".into(), vec![cast])
                } else {
                    cast
                }
            }
            "getItem" => match b.take("key").expect("bound: required") {
                (Py::Int(i), _) => Expr::Function("get_item".into(), vec![e, Expr::Literal(Value::Int(i32::try_from(i).unwrap_or(i32::MAX)))]),
                (Py::Str(field), _) => Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))]),
                (other, s) => Expr::Function("get_item".into(), vec![e, self.literal_or_col(other, s)?]),
            },
            "getField" => match b.take("name").expect("bound: required") {
                (Py::Str(field), _) => Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))]),
                (other, s) => return Err(not_expected("name", "str", &other, s)),
            },
            "isNull" => Expr::IsNull(Box::new(e), false),
            "isNotNull" => Expr::IsNull(Box::new(e), true),
            "eqNullSafe" => {
                let (v, s) = b.take("other").expect("bound: required");
                Expr::Binary(BinOp::EqNullSafe, Box::new(e), Box::new(self.literal_or_col(v, s)?))
            }
            "isin" => {
                let mut values = Vec::new();
                for (v, s) in b.var_pos {
                    match v {
                        Py::List(items) => {
                            for i in items {
                                values.push(self.literal_or_col(i, s)?);
                            }
                        }
                        v => values.push(self.literal_or_col(v, s)?),
                    }
                }
                if values.is_empty() {
                    return Err(perr("isin() needs at least one value", span));
                }
                // `(x IN (1, 2))`, Spark's `In`: NULL when x is NULL, or when nothing matches
                // and the list holds a NULL.
                let mut args = vec![e];
                args.extend(values);
                Expr::Function("in".into(), args)
            }
            "between" => {
                let (lo, ls) = b.take("lowerBound").expect("bound: required");
                let (hi, hs) = b.take("upperBound").expect("bound: required");
                Expr::Binary(
                    BinOp::And,
                    Box::new(Expr::Binary(BinOp::GtEq, Box::new(e.clone()), Box::new(self.literal_or_col(lo, ls)?))),
                    Box::new(Expr::Binary(BinOp::LtEq, Box::new(e), Box::new(self.literal_or_col(hi, hs)?))),
                )
            }
            "over" => {
                let mut w = match b.take("window") {
                    Some((Py::WindowSpec(w), _)) => *w,
                    None | Some((Py::NoneVal, _)) => crate::plan::WindowOver { func: Expr::Star, partition: vec![], order: vec![], frame: None },
                    Some((other, s)) => return Err(perr(format!("over() takes a WindowSpec such as Window.partitionBy('user_id'), got a {}", other.type_name()), s)),
                };
                w.func = e;
                Expr::Over(Box::new(w))
            }
            "desc" | "desc_nulls_last" | "desc_nulls_first" => Expr::Function("__desc".into(), vec![e]),
            "asc" | "asc_nulls_first" | "asc_nulls_last" => Expr::Function("__asc".into(), vec![e]),
            "when" => match e {
                Expr::Case { mut branches, otherwise: None } => {
                    let (c, cs) = b.take("condition").expect("bound: required");
                    let (v, vs) = b.take("value").expect("bound: required");
                    branches.push((self.literal_or_col(c, cs)?, self.literal_or_col(v, vs)?));
                    Expr::Case { branches, otherwise: None }
                }
                _ => return Err(perr("when() can only follow F.when(...)", span)),
            },
            "otherwise" => match e {
                Expr::Case { branches, otherwise: None } => {
                    let (v, vs) = b.take("value").expect("bound: required");
                    Expr::Case { branches, otherwise: Some(Box::new(self.literal_or_col(v, vs)?)) }
                }
                _ => return Err(perr("otherwise() can only follow F.when(...)", span)),
            },
            "substr" => {
                let mut args = vec![e];
                for p in ["startPos", "length"] {
                    let (v, s) = b.take(p).expect("bound: required");
                    args.push(self.literal_or_col(v, s)?);
                }
                scalar_function("substr", args, span)?
            }
            "rlike" | "like" | "ilike" | "contains" | "startswith" | "endswith" => {
                let (v, s) = b.take("other").expect("bound: required");
                let f = if name == "ilike" { "ilike" } else { name };
                scalar_function(f, vec![e, self.literal_or_col(v, s)?], span)?
            }
            "isNaN" => scalar_function("isnan", vec![e], span)?,
            other => return Err(super::unknown_api(ApiKind::Column, other, span)),
        }))
    }

    /// `F.<name>(...)`: the functions with rules of their own (columns, literals, windows,
    /// `when`, aggregates, window functions), then the function table.
    pub(super) fn function(&mut self, name: &str, mut b: Args, span: Span) -> R<Py> {
        // A `F.window` duration: PySpark treats a falsy slide or start time as absent and
        // refuses anything else that is not a non-empty str (`NOT_EXPECTED_TYPE`).
        let duration = |v: Option<(Py, Span)>, arg: &str| -> R<Option<i64>> {
            match v {
                None | Some((Py::NoneVal, _)) => Ok(None),
                Some((Py::Str(s), _)) if s.is_empty() && arg != "windowDuration" => Ok(None),
                Some((Py::Int(0) | Py::Bool(false), _)) if arg != "windowDuration" => Ok(None),
                Some((Py::Str(s), sp)) if !s.is_empty() => Ok(Some(args::window_arg_us(&s, sp)?)),
                Some((other, sp)) => Err(args::not_str(arg, other.type_name(), sp)),
            }
        };
        match name {
            "col" | "column" => match b.take("col").expect("bound: required") {
                (Py::Str(c), _) => Ok(Py::Col(if c == "*" { Expr::Star } else { Expr::Column(c) })),
                (other, s) => Err(not_expected("col", "str", &other, s)),
            },
            "lit" => {
                let (v, s) = b.take("col").expect("bound: required");
                Ok(Py::Col(self.literal_or_col(v, s)?))
            }
            // `F.expr('sum(d) AS total')`: an alias is allowed, as in selectExpr.
            "expr" => match b.take("str").expect("bound: required") {
                (Py::Str(sql), s) => Ok(Py::Col(parse_select_item(&sql, s)?)),
                (other, s) => Err(not_expected("str", "str", &other, s)),
            },
            "broadcast" => match b.take("df").expect("bound: required") {
                (v @ Py::Df(_), _) => Ok(v),
                (other, s) => Err(perr(format!("broadcast() takes a DataFrame, got a {}", other.type_name()), s)),
            },
            "window" => {
                let (t, ts) = b.take("timeColumn").expect("bound: required");
                let time = self.col_ref(t, ts)?;
                let duration_us = duration(b.take("windowDuration"), "windowDuration")?.ok_or_else(|| perr("F.window() needs a window duration, e.g. '10 minutes'", span))?;
                let slide_us = duration(b.take("slideDuration"), "slideDuration")?.unwrap_or(duration_us);
                let start_us = duration(b.take("startTime"), "startTime")?.unwrap_or(0);
                Ok(Py::Col(Expr::TimeWindow { time: Box::new(time), duration_us, slide_us, start_us }))
            }
            "session_window" => {
                let (t, ts) = b.take("timeColumn").expect("bound: required");
                let time = self.col_ref(t, ts)?;
                let (g, gs) = b.take("gapDuration").expect("bound: required");
                let gap = match self.as_col_if_column(g) {
                    // Spark casts the gap string per row when the batch runs: text that is not
                    // an interval gives NULL and the row is dropped (recorded:
                    // iv-session-gap-unparsable-string), it is not refused here.
                    Py::Str(s) => CalendarInterval::parse(&s).map_or_else(|_| Expr::Literal(Value::str(&s)), Expr::Interval),
                    Py::Col(e) => e,
                    other => return Err(perr(format!("F.session_window(): the gap must be a string or a Column, got a {}", other.type_name()), gs)),
                };
                Ok(Py::Col(Expr::SessionWindow { time: Box::new(time), gap: Box::new(gap) }))
            }
            "window_time" => {
                let (w, ws) = b.take("windowColumn").expect("bound: required");
                Ok(Py::Col(Expr::WindowTime(Box::new(self.col_ref(w, ws)?))))
            }
            "when" => {
                let (c, cs) = b.take("condition").expect("bound: required");
                let (v, vs) = b.take("value").expect("bound: required");
                Ok(Py::Col(Expr::Case { branches: vec![(self.literal_or_col(c, cs)?, self.literal_or_col(v, vs)?)], otherwise: None }))
            }
            "desc" | "asc" | "desc_nulls_last" | "desc_nulls_first" | "asc_nulls_first" | "asc_nulls_last" => {
                let (v, s) = b.take("col").expect("bound: required");
                let dir = if name.starts_with("desc") { "__desc" } else { "__asc" };
                Ok(Py::Col(Expr::Function(dir.into(), vec![self.col_ref(v, s)?])))
            }
            // Window-only functions: a call to `.over(...)` must follow.
            "lag" | "lead" | "nth_value" => {
                let (v, s) = b.take("col").expect("bound: required");
                let mut args = vec![self.col_ref(v, s)?];
                args.push(match b.take("offset") {
                    Some((Py::Int(n), _)) => Expr::Literal(Value::Int(i32::try_from(n).unwrap_or(i32::MAX))),
                    None => Expr::Literal(Value::Int(1)),
                    Some((other, s)) => return Err(perr(format!("F.{name}(): the offset must be a whole number, got a {}", other.type_name()), s)),
                });
                if name != "nth_value" {
                    args.push(match b.take("default") {
                        Some((v, s)) => self.literal_or_col(v, s)?,
                        None => Expr::Literal(Value::Null),
                    });
                }
                Ok(Py::Col(Expr::Function(name.to_string(), args)))
            }
            "row_number" | "rank" | "dense_rank" | "percent_rank" | "cume_dist" => Ok(Py::Col(Expr::Function(name.to_string(), vec![]))),
            "ntile" => match b.take("n").expect("bound: required") {
                (Py::Int(n), _) => Ok(Py::Col(Expr::Function("ntile".into(), vec![Expr::Literal(Value::Int(i32::try_from(n).unwrap_or(i32::MAX)))]))),
                (other, s) => Err(perr(format!("F.ntile() takes a whole number, got a {}", other.type_name()), s)),
            },
            "call_function" => {
                let (f, fs) = b.take("funcName").expect("bound: required");
                let Py::Str(f) = f else {
                    return Err(not_expected("funcName", "str", &f, fs));
                };
                let args = b.var_pos.into_iter().map(|(v, s)| self.col_ref(v, s)).collect::<R<Vec<_>>>()?;
                self.function_call(&f, args, false, span)
            }
            "udf" | "pandas_udf" | "call_udf" | "udtf" | "arrow_udf" | "arrow_udtf" => Err(Error::Parse(ParseError::not_modelled(
                format!("the function {name}()"),
                format!("F.{name}() runs Python code per row; Streamlab runs Python only in applyInPandasWithState and transformWithState state functions"),
                span,
            ))),
            _ => {
                let distinct = matches!(name, "countDistinct" | "count_distinct" | "sum_distinct" | "sumDistinct");
                let aggregate = crate::plan::functions::AGGREGATES.iter().any(|a| a.0 == agg_name(name));
                let args = self.function_args(b, aggregate)?;
                self.function_call(name, args, distinct, span)
            }
        }
    }

    /// A function's arguments in PySpark's parameter order: a `str` names a column where the
    /// parameter is `ColumnOrName` (`'*'` is every column), a list given for `*cols` stands for
    /// its items, a dict is a `map(k1, v1, ...)` (`options=`), a `StructType` a DDL string
    /// (`from_json(col, schema)`), and a parameter not given takes PySpark's literal default
    /// when a scalar function has one (aggregates' defaults are their own).
    fn function_args(&mut self, b: Args, aggregate: bool) -> R<Vec<Expr>> {
        let params = b.params;
        let given: Vec<bool> = b.slots.iter().map(Option::is_some).collect();
        let last_given = given.iter().rposition(|g| *g).map_or(0, |i| i + 1);
        let mut slots = b.slots.into_iter();
        let mut var_pos = Some(b.var_pos);
        let mut out = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let slot = slots.next().flatten();
            if p.kind == ParamKind::VarPos {
                let items = var_pos.take().unwrap_or_default();
                let spread = matches!(items.as_slice(), [(Py::List(_), _)]);
                for (v, s) in items {
                    match v {
                        Py::List(list) if spread => {
                            for item in list {
                                out.push(self.argument(item, p.names_column, s)?);
                            }
                        }
                        v => out.push(self.argument(v, p.names_column, s)?),
                    }
                }
                continue;
            }
            match slot {
                Some((v, s)) => out.push(self.argument(v, p.names_column, s)?),
                None if p.kind != ParamKind::Pos => {}
                None => {
                    let default = match p.default {
                        Default::Bool(v) => Some(Expr::Literal(Value::Bool(v))),
                        Default::Int(v) => Some(Expr::Literal(i32::try_from(v).map_or(Value::Long(v), Value::Int))),
                        Default::Float(v) => Some(Expr::Literal(Value::Double(v))),
                        Default::Str(v) => Some(Expr::Literal(Value::str(v))),
                        Default::None => None,
                    };
                    match default {
                        Some(d) if !aggregate || i < last_given => out.push(d),
                        // A `None` default before a later argument: NULL, which the function
                        // reads as "not given".
                        None if i < last_given => out.push(Expr::Literal(Value::Null)),
                        _ => {}
                    }
                }
            }
        }
        if let Some((k, _, s)) = b.var_kw.first() {
            return Err(type_error(format!("got an unexpected keyword argument '{k}'"), *s));
        }
        Ok(out)
    }

    /// One argument of a function: a column name, a literal, or what else PySpark passes.
    fn argument(&mut self, v: Py, names_column: bool, span: Span) -> R<Expr> {
        match self.as_col_if_column(v) {
            Py::Str(c) if names_column => Ok(if c == "*" { Expr::Star } else { Expr::Column(c) }),
            Py::Dict(entries) => {
                let mut kvs = Vec::new();
                for (k, v) in entries {
                    kvs.push(self.literal_or_col(k, span)?);
                    kvs.push(self.literal_or_col(v, span)?);
                }
                Ok(scalar_function("map", kvs, span)?)
            }
            Py::Type(dt) => Ok(Expr::Literal(Value::str(&ddl_of(&dt)))),
            Py::List(items) => {
                let items = items.into_iter().map(|i| self.argument(i, names_column, span)).collect::<R<Vec<_>>>()?;
                Ok(scalar_function("array", items, span)?)
            }
            // `lambda x: x + 1` for a higher-order function: the body is evaluated with each
            // parameter bound to a column of that name, which analysis binds as the lambda's
            // variable (`LambdaFunction`; PySpark names them `namedlambdavariable()`).
            Py::Lambda(l) => {
                let (params, body) = (&l.0, &l.1);
                let bound = params.iter().map(|p| (p.clone(), Py::Col(Expr::Column(p.clone())))).collect();
                let value = self.scoped(bound, &[], |ev| ev.eval(body));
                let body = self.literal_or_col(value?, body.span)?;
                Ok(Expr::Lambda { params: params.clone(), body: Box::new(body) })
            }
            v => self.literal_or_col(v, span),
        }
    }

    /// A call of function `name` with bound arguments: an aggregate, or a scalar function of
    /// the function table.
    fn function_call(&mut self, name: &str, args: Vec<Expr>, distinct: bool, span: Span) -> R<Py> {
        let lower = agg_name(name);
        if crate::plan::functions::AGGREGATES.iter().any(|a| a.0 == lower) {
            if args.is_empty() {
                return Err(perr(format!("F.{name}() needs a column"), span));
            }
            let spark = if matches!(name, "sum_distinct" | "sumDistinct") { "sum".to_string() } else { lower };
            return match crate::plan::functions::build_aggregate(&spark, args, distinct).map_err(|m| perr(m, span))? {
                Some(e) => Ok(Py::Col(e)),
                None => Err(perr(format!("F.{name}() is not an aggregate"), span)),
            };
        }
        Ok(Py::Col(scalar_function(name, args, span)?))
    }

    /// `Window.partitionBy(...)`, `.orderBy(...)`, `.rowsBetween(a, b)`, `.rangeBetween(a, b)`
    /// (`pyspark.sql.Window` / `WindowSpec`).
    pub(super) fn window_spec(&mut self, mut w: crate::plan::WindowOver, name: &str, mut b: Args, span: Span) -> R<Py> {
        use crate::plan::{FrameBound, WindowFrame};
        match name {
            "partitionBy" => w.partition = self.col_refs(b.var_pos)?,
            "orderBy" => {
                w.order = self
                    .col_refs(b.var_pos)?
                    .into_iter()
                    .map(|e| match e {
                        Expr::Function(f, mut args) if f == "__desc" && args.len() == 1 => (args.remove(0), false),
                        Expr::Function(f, mut args) if f == "__asc" && args.len() == 1 => (args.remove(0), true),
                        e => (e, true),
                    })
                    .collect()
            }
            "rowsBetween" | "rangeBetween" => {
                let bound = |v: &Py, lower: bool| -> Option<FrameBound> {
                    Some(match v {
                        Py::Method(_, n) if n == "unboundedPreceding" => FrameBound::UnboundedPreceding,
                        Py::Method(_, n) if n == "unboundedFollowing" => FrameBound::UnboundedFollowing,
                        Py::Method(_, n) if n == "currentRow" => FrameBound::CurrentRow,
                        Py::Int(0) => FrameBound::CurrentRow,
                        Py::Int(n) if *n <= -(1i64 << 62) && lower => FrameBound::UnboundedPreceding,
                        Py::Int(n) if *n >= (1i64 << 62) && !lower => FrameBound::UnboundedFollowing,
                        Py::Int(n) => FrameBound::Offset(*n),
                        _ => return None,
                    })
                };
                let (a, _) = b.take("start").expect("bound: required");
                let (z, _) = b.take("end").expect("bound: required");
                let (Some(lower), Some(upper)) = (bound(&a, true), bound(&z, false)) else {
                    return Err(perr(format!("{name}() takes whole numbers or Window.unboundedPreceding / currentRow / unboundedFollowing"), span));
                };
                w.frame = Some(WindowFrame { rows: name == "rowsBetween", lower, upper });
            }
            other => return Err(super::unknown_api(ApiKind::WindowSpec, other, span)),
        }
        Ok(Py::WindowSpec(Box::new(w)))
    }
}

/// `F.countDistinct` → `countdistinct`, as listed in [`crate::plan::functions::AGGREGATES`].
fn agg_name(name: &str) -> String {
    match name {
        "approxCountDistinct" => "approx_count_distinct".into(),
        "sumDistinct" | "sum_distinct" => "sum".into(),
        "first" | "last" | "max_by" | "min_by" | "collect_list" | "collect_set" | "first_value" | "last_value" | "count_distinct" => name.into(),
        other => other.to_ascii_lowercase(),
    }
}
