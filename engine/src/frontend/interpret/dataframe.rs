//! `DataFrame` and `GroupedData` methods (`pyspark/sql/classic/dataframe.py`,
//! `pyspark/sql/group.py`, `pyspark/sql/pandas/group_ops.py`), each after its arguments are
//! bound to PySpark 4.3's signature, with the checks PySpark makes before Spark sees the call.

use std::rc::Rc;

use super::modules::schema_arg;
use super::{not_expected, perr, Evaluator, Py, R};
use crate::error::{AnalysisError, Error, Span, Stage};
use crate::frontend::args;
use crate::frontend::pyspark_api::{ApiKind, Bound};
use crate::frontend::sql::{parse_select_item, parse_sql_expr};
use crate::plan::{AggFunc, BinOp, Expr, JoinOn, JoinType, LogicalPlan};
use crate::streaming::OutputMode;
use crate::types::{DataType, Value};

/// What `df.explain()` and `query.explain()` print in the lab: Spark prints its physical plan
/// (`== Physical Plan ==`), which the lab does not build; its analyzed plan is on the page.
pub(super) const EXPLAIN_NOTE: &str = "(explain(): Spark prints its physical plan here. The lab builds no physical plan: the query's analyzed plan is under \"Analyzed plan\", beside the state metrics)";

type Args = Bound<Py>;

fn df(p: LogicalPlan) -> R<Py> {
    Ok(Py::Df(Rc::new(p)))
}

impl Evaluator<'_> {
    pub(super) fn df_method(&mut self, plan: Rc<LogicalPlan>, name: &str, mut b: Args, span: Span) -> R<Py> {
        match name {
            "createOrReplaceTempView" | "createTempView" | "createOrReplaceGlobalTempView" | "createGlobalTempView" => self.create_view(plan, name, b, span),
            // `df.transform(func, *args, **kwargs)`: `func(df, *args, **kwargs)`, which must
            // return a DataFrame (PySpark's assertion).
            "transform" => {
                let (f, _) = b.take("func").expect("bound: required");
                let mut pos = vec![(Py::Df(plan), span)];
                pos.extend(b.var_pos);
                let result = self.call_function_value(f, pos, b.var_kw, span)?;
                match result {
                    Py::Df(_) => Ok(result),
                    other => Err(Error::Analysis(AnalysisError::python("AssertionError", format!("Func returned an instance of type [<class '{}'>], should have been DataFrame.", super::modules::class_of(&other)), span))),
                }
            }
            "withWatermark" => {
                // PySpark refuses an empty or non-str argument before the JVM sees it.
                let py_str = |v: Option<(Py, Span)>, arg: &str| -> R<(String, Span)> {
                    match v {
                        Some((Py::Str(s), sp)) if !s.is_empty() => Ok((s, sp)),
                        Some((other, sp)) => Err(args::not_str(arg, other.type_name(), sp)),
                        None => Err(perr(format!("withWatermark() needs {arg}"), span)),
                    }
                };
                let (column, _) = py_str(b.take("eventTime"), "eventTime")?;
                let (delay_text, dspan) = py_str(b.take("delayThreshold"), "delayThreshold")?;
                let delay_ms = args::watermark_delay_ms(&delay_text, dspan)?;
                df(LogicalPlan::EventTimeWatermark { input: plan, column, delay_ms })
            }
            "select" => {
                let exprs = self.col_refs(b.var_pos)?;
                if exprs.is_empty() {
                    return Err(perr("select() needs at least one column", span));
                }
                df(LogicalPlan::Project { input: plan, exprs })
            }
            "selectExpr" => {
                let mut exprs = Vec::new();
                for (v, s) in b.var_pos {
                    let items = match v {
                        Py::List(items) => items,
                        v => vec![v],
                    };
                    for i in items {
                        match i {
                            Py::Str(text) => exprs.push(parse_select_item(&text, s)?),
                            other => return Err(perr(format!("selectExpr() takes SQL strings, got a {}", other.type_name()), s)),
                        }
                    }
                }
                df(LogicalPlan::Project { input: plan, exprs })
            }
            "filter" | "where" => {
                let (cond, cspan) = b.take("condition").expect("bound: required");
                let predicate = match self.as_col_if_column(cond) {
                    Py::Str(sql) => parse_sql_expr(&sql, cspan)?,
                    Py::Col(e) => e,
                    other => return Err(not_expected("condition", "Column or str", &other, cspan)),
                };
                df(LogicalPlan::Filter { input: plan, predicate })
            }
            "withColumn" => {
                let (col_name, nspan) = b.take("colName").expect("bound: required");
                let Py::Str(col_name) = col_name else {
                    return Err(perr(format!("withColumn(): the new column's name must be a string, got a {}", col_name.type_name()), nspan));
                };
                let (v, s) = b.take("col").expect("bound: required");
                let expr = match self.as_col_if_column(v) {
                    Py::Col(e) => e,
                    other => return Err(not_expected("col", "Column", &other, s)),
                };
                df(LogicalPlan::WithColumn { input: plan, name: col_name, expr })
            }
            "withColumns" => {
                let mut plan = plan;
                for (map, s) in b.var_pos {
                    let Py::Dict(entries) = map else {
                        return Err(not_expected("colsMap", "dict", &map, s));
                    };
                    for (k, v) in entries {
                        let (Py::Str(k), Py::Col(e)) = (k, self.as_col_if_column(v)) else {
                            return Err(perr("withColumns() takes a dict of column names to Columns", s));
                        };
                        plan = Rc::new(LogicalPlan::WithColumn { input: plan, name: k, expr: e });
                    }
                }
                Ok(Py::Df(plan))
            }
            "withColumnRenamed" => {
                let mut names = Vec::new();
                for arg in ["existing", "new"] {
                    match b.take(arg).expect("bound: required") {
                        (Py::Str(s), _) => names.push(s),
                        (other, s) => return Err(perr(format!("withColumnRenamed(): {arg} must be a string, got a {}", other.type_name()), s)),
                    }
                }
                let new = names.pop().expect("two names");
                let old = names.pop().expect("two names");
                df(LogicalPlan::RenameColumn { input: plan, old, new })
            }
            "withColumnsRenamed" => {
                let (map, s) = b.take("colsMap").expect("bound: required");
                let Py::Dict(entries) = map else {
                    return Err(not_expected("colsMap", "dict", &map, s));
                };
                let mut plan = plan;
                for (k, v) in entries {
                    let (Py::Str(old), Py::Str(new)) = (k, v) else {
                        return Err(perr("withColumnsRenamed() takes a dict of old names to new names", s));
                    };
                    plan = Rc::new(LogicalPlan::RenameColumn { input: plan, old, new });
                }
                Ok(Py::Df(plan))
            }
            "drop" => {
                let mut names = Vec::new();
                for (v, s) in b.var_pos {
                    match self.as_col_if_column(v) {
                        Py::Str(n) | Py::Col(Expr::Column(n)) => names.push(n),
                        Py::Col(other) => return Err(perr(format!("drop() takes column names or column references, got {other}"), s)),
                        other => return Err(not_expected("col", "Column or str", &other, s)),
                    }
                }
                df(LogicalPlan::DropColumns { input: plan, names })
            }
            "groupBy" | "groupby" => {
                let grouping = self.col_refs(b.var_pos)?;
                Ok(Py::Grouped { input: plan, grouping })
            }
            "agg" => {
                let aggregates = self.agg_exprs(b.var_pos, span)?;
                df(LogicalPlan::Aggregate { input: plan, grouping: vec![], aggregates })
            }
            "dropDuplicates" | "drop_duplicates" | "dropDuplicatesWithinWatermark" => {
                let keys = match b.take("subset") {
                    None | Some((Py::NoneVal, _)) => None,
                    Some((Py::List(items), s)) => Some(
                        items
                            .into_iter()
                            .map(|i| match i {
                                Py::Str(c) => Ok(c),
                                other => Err(not_expected("subset", "str", &other, s)),
                            })
                            .collect::<R<Vec<_>>>()?,
                    ),
                    // PySpark: `dropDuplicates('eventId')` raises NOT_EXPECTED_TYPE (a str is
                    // iterable, but not a list of names).
                    Some((other, s)) => {
                        let hint = match &other {
                            Py::Str(c) => format!("dropDuplicates takes a list of column names: write {name}(['{c}'])"),
                            _ => format!("write {name}(['column', ...])"),
                        };
                        return Err(match not_expected("subset", "list or tuple", &other, s) {
                            Error::Analysis(a) => Error::Analysis(a.with_hint(hint)),
                            e => e,
                        });
                    }
                };
                if name == "dropDuplicatesWithinWatermark" {
                    df(LogicalPlan::DeduplicateWithinWatermark { input: plan, keys })
                } else {
                    df(LogicalPlan::Deduplicate { input: plan, keys })
                }
            }
            "distinct" => df(LogicalPlan::Deduplicate { input: plan, keys: None }),
            "join" => {
                let (other, ospan) = b.take("other").expect("bound: required");
                let Py::Df(right) = other else {
                    return Err(perr(format!("join() takes a DataFrame, got a {}", other.type_name()), ospan));
                };
                let on = match b.take("on").map(|(v, s)| (self.as_col_if_column(v), s)) {
                    None | Some((Py::NoneVal, _)) => JoinOn::None,
                    Some((Py::Str(c), _)) => JoinOn::Using(vec![c]),
                    Some((Py::List(items), s)) => {
                        let mut cols = Vec::new();
                        let mut conds = Vec::new();
                        for i in items {
                            match self.as_col_if_column(i) {
                                Py::Str(c) => cols.push(c),
                                Py::Col(e) => conds.push(e),
                                other => return Err(perr(format!("join(on=...) takes column names or Columns, got a {}", other.type_name()), s)),
                            }
                        }
                        if conds.is_empty() {
                            JoinOn::Using(cols)
                        } else if cols.is_empty() {
                            let mut it = conds.into_iter();
                            let first = it.next().expect("non-empty");
                            JoinOn::Condition(it.fold(first, |a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b))))
                        } else {
                            return Err(perr("join(on=...) cannot mix names and Columns", s));
                        }
                    }
                    Some((Py::Col(e), _)) => JoinOn::Condition(e),
                    Some((other, s)) => return Err(perr(format!("join(on=...) takes a column name, a list or a Column, got a {}", other.type_name()), s)),
                };
                let how = match b.take("how") {
                    None | Some((Py::NoneVal, _)) => JoinType::Inner,
                    Some((Py::Str(h), s)) => JoinType::parse(&h)
                        .ok_or_else(|| perr(format!("unsupported join type '{h}': use inner, left_outer, right_outer, full_outer, left_semi, left_anti or cross"), s))?,
                    Some((other, s)) => return Err(perr(format!("join(how=...) takes a string, got a {}", other.type_name()), s)),
                };
                df(LogicalPlan::Join { left: plan, right, join_type: how, on })
            }
            // `crossJoin(other)`: `join(other, how='cross')` with no condition.
            "crossJoin" => {
                let (other, ospan) = b.take("other").expect("bound: required");
                let Py::Df(right) = other else {
                    return Err(perr(format!("crossJoin() takes a DataFrame, got a {}", other.type_name()), ospan));
                };
                df(LogicalPlan::Join { left: plan, right, join_type: JoinType::Cross, on: JoinOn::None })
            }
            // `toDF('a', 'b', ...)`: every column renamed by position (`Dataset.toDF`).
            "toDF" => {
                let mut names = Vec::new();
                for (v, s) in b.var_pos {
                    match v {
                        Py::Str(n) => names.push(n),
                        other => return Err(not_expected("cols", "str", &other, s)),
                    }
                }
                let output = crate::analysis::resolve(&plan)?.output;
                if names.len() != output.len() {
                    let old: Vec<&str> = output.iter().map(|a| a.name.as_str()).collect();
                    return Err(Error::Analysis(AnalysisError::new(
                        Stage::Define,
                        "",
                        format!(
                            "requirement failed: The number of columns doesn't match.\nOld column names ({}): {}\nNew column names ({}): {}",
                            old.len(),
                            old.join(", "),
                            names.len(),
                            names.join(", ")
                        ),
                    ).with_span(span)));
                }
                let exprs = names.into_iter().enumerate().map(|(i, n)| Expr::Alias(Box::new(Expr::Column(format!("\u{0}col{i}"))), n)).collect();
                df(LogicalPlan::Project { input: plan, exprs })
            }
            "union" | "unionAll" | "unionByName" => {
                let (other, ospan) = b.take("other").expect("bound: required");
                let Py::Df(right) = other else {
                    return Err(perr(format!("{name}() takes a DataFrame, got a {}", other.type_name()), ospan));
                };
                let allow_missing_columns = match b.take("allowMissingColumns") {
                    None | Some((Py::Bool(false), _)) => false,
                    Some((Py::Bool(true), _)) => true,
                    Some((other, s)) => return Err(not_expected("allowMissingColumns", "bool", &other, s)),
                };
                df(LogicalPlan::Union { inputs: vec![plan, right], by_name: name == "unionByName", allow_missing_columns })
            }
            "orderBy" | "sort" => {
                let exprs = self.col_refs(b.var_pos)?;
                let ascending = match b.var_kw.iter().find(|(k, _, _)| k == "ascending") {
                    None => vec![true],
                    Some((_, Py::Bool(v), _)) => vec![*v],
                    Some((_, Py::Int(i), _)) => vec![*i != 0],
                    Some((_, Py::List(items), s)) => items
                        .iter()
                        .map(|v| match v {
                            Py::Bool(b) => Ok(*b),
                            Py::Int(i) => Ok(*i != 0),
                            other => Err(not_expected("ascending", "bool or list", other, *s)),
                        })
                        .collect::<R<Vec<_>>>()?,
                    Some((_, other, s)) => return Err(not_expected("ascending", "bool or list", other, *s)),
                };
                let order = exprs
                    .into_iter()
                    .enumerate()
                    .map(|(i, e)| match e {
                        Expr::Function(f, mut args) if f == "__desc" => (args.remove(0), false),
                        Expr::Function(f, mut args) if f == "__asc" => (args.remove(0), true),
                        e => (e, *ascending.get(i).or(ascending.last()).unwrap_or(&true)),
                    })
                    .collect();
                df(LogicalPlan::Sort { input: plan, order })
            }
            "limit" => match b.take("num").expect("bound: required") {
                (Py::Int(n), _) if n >= 0 => df(LogicalPlan::Limit { input: plan, n: usize::try_from(n).unwrap_or(usize::MAX) }),
                (_, s) => Err(perr("limit() takes a non-negative whole number", s)),
            },
            "alias" => match b.take("alias").expect("bound: required") {
                (Py::Str(a), _) => df(LogicalPlan::SubqueryAlias { input: plan, alias: a }),
                (_, s) => Err(perr("alias should be a string", s)),
            },
            "fillna" => {
                let (value, vspan) = b.take("value").expect("bound: required");
                let subset = na_subset(b.take("subset"), "list or tuple")?;
                self.fillna(plan, value, vspan, subset)
            }
            "dropna" => {
                let how = match b.take("how") {
                    None | Some((Py::NoneVal, _)) => "any".to_string(),
                    Some((Py::Str(h), _)) if h == "any" || h == "all" => h,
                    Some((_, s)) => {
                        return Err(Error::Analysis(AnalysisError::new(Stage::Define, "VALUE_NOT_ALLOWED", "Value for `how` has to be amongst the following values: ['any', 'all'].").with_span(s)));
                    }
                };
                let thresh = match b.take("thresh") {
                    None | Some((Py::NoneVal, _)) => None,
                    Some((Py::Int(n), _)) => Some(n),
                    Some((other, s)) => return Err(not_expected("thresh", "an int", &other, s)),
                };
                let subset = na_subset(b.take("subset"), "list, str or tuple")?;
                let output = crate::analysis::resolve(&plan)?.output;
                let cols = self.na_columns(&plan, &output, subset)?;
                let need = thresh.unwrap_or(if how == "any" { cols.len() as i64 } else { 1 });
                df(LogicalPlan::Filter { input: plan, predicate: at_least_n_non_nulls(need, &cols) })
            }
            "cache" | "persist" | "hint" | "repartition" | "coalesce" | "repartitionByRange" | "sortWithinPartitions" | "unpersist" | "localCheckpoint" | "checkpoint" => Ok(Py::Df(plan)),
            // Allowed on a streaming DataFrame: they print, and build nothing. `printSchema()`
            // prints Spark's tree of the columns; `explain()` Spark's physical plan, which the
            // lab does not build: the program's output says where its plan is.
            "printSchema" => {
                // `printSchema(level)`: fields down to that depth (PySpark passes no level on for
                // None or 0, and Spark prints every depth for a negative one).
                let level = match b.take("level") {
                    None | Some((Py::NoneVal | Py::Bool(false), _)) => None,
                    Some((Py::Int(n), _)) => usize::try_from(n).ok().filter(|n| *n > 0),
                    // Another value goes to the JVM as it is, which has no such method.
                    Some((other, s)) => {
                        let class = match other {
                            Py::Str(_) => "java.lang.String",
                            Py::Float(_) => "java.lang.Double",
                            Py::Bool(_) => "java.lang.Boolean",
                            Py::List(_) | Py::Tuple(_) => "java.util.ArrayList",
                            _ => "java.lang.Object",
                        };
                        return Err(Error::Analysis(AnalysisError::python(
                            "Py4JError",
                            format!("An error occurred while calling o…treeString. Trace:\npy4j.Py4JException: Method treeString([class {class}]) does not exist"),
                            s,
                        )));
                    }
                };
                self.printed.push(crate::analysis::schema::tree_string(&crate::analysis::schema::output_fields(&crate::analysis::resolve(&plan)?), level));
                Ok(Py::NoneVal)
            }
            "explain" => {
                self.printed.push(EXPLAIN_NOTE.to_string());
                Ok(Py::NoneVal)
            }
            _ if is_action(name) => {
                if plan.is_streaming() {
                    let source = first_source(&plan);
                    Err(Error::Analysis(
                        AnalysisError::new(
                            Stage::Define,
                            "_LEGACY_ERROR_TEMP_3102",
                            "Queries with streaming sources must be executed with writeStream.start(), or from a streaming table or flow definition within a Spark Declarative Pipeline.",
                        )
                        .with_plan(source)
                        .with_hint(format!(
                            "{name}() is a batch action: it runs a job at once, but a stream has no end. Drop .{name}() and start the query with writeStream (here: pick an output mode and trigger batches)"
                        ))
                        .with_span(span),
                    ))
                } else {
                    // A batch job on a static table (`posts.show()`): it prints in Spark; the lab
                    // shows the static tables beside the run, so the statement does nothing here.
                    Ok(Py::NoneVal)
                }
            }
            other => Err(super::unknown_api(ApiKind::DataFrame, other, span)),
        }
    }

    /// `fillna(value, subset)` / `na.fill(...)`, as `DataFrameNaFunctions.fill` builds it: each
    /// column the value applies to becomes `coalesce(col, CAST(value AS type)) AS col` (a float
    /// column's NaN counts as NULL: `nanvl(col, NULL)`), the others stay as they are. A number
    /// (PySpark passes an `int` as a `float`) fills the numeric columns, a `str` the string
    /// columns, a `bool` the boolean ones; a dict names each column and its value.
    ///
    /// # Errors
    /// PySpark's `NOT_EXPECTED_TYPE` for another value; Spark's error for a column name the
    /// DataFrame does not have.
    fn fillna(&mut self, plan: Rc<LogicalPlan>, value: Py, vspan: Span, subset: Option<Vec<String>>) -> R<Py> {
        let output = crate::analysis::resolve(&plan)?.output;
        let literal = |v: &Py| match v {
            Py::Bool(b) => Some(Value::Bool(*b)),
            Py::Int(i) => Some(Value::Long(*i)),
            Py::Float(f) => Some(Value::Double(*f)),
            Py::Str(s) => Some(Value::str(s)),
            _ => None,
        };
        let fill = |a: &crate::analysis::Attr, v: Value| {
            let col = Expr::Column(a.name.clone());
            let col = if matches!(a.data_type, DataType::Float64 | DataType::Float32) {
                Expr::Function("nanvl".into(), vec![col, Expr::Cast(Box::new(Expr::Literal(Value::Null)), a.data_type.clone())])
            } else {
                col
            };
            Expr::Alias(Box::new(Expr::Function("coalesce".into(), vec![col, Expr::Cast(Box::new(Expr::Literal(v)), a.data_type.clone())])), a.name.clone())
        };
        let mut values: Vec<(String, Value)> = Vec::new();
        let by_type = match &value {
            Py::Dict(entries) => {
                for (k, v) in entries {
                    let (Py::Str(name), Some(lit)) = (k, literal(v)) else {
                        return Err(perr("fillna() takes a dict of column names to a bool, int, float or str", vspan));
                    };
                    values.push((name.clone(), lit));
                }
                None
            }
            // `fillna(0)`: PySpark turns an int that is not a bool into a float first.
            Py::Int(i) => Some(Value::Double(*i as f64)),
            v => Some(literal(v).ok_or_else(|| {
                Error::Analysis(AnalysisError::new(Stage::Define, "NOT_EXPECTED_TYPE", format!("Argument `value` should be bool, dict, float, int or str, got {}.", v.type_name())).with_span(vspan))
            })?),
        };
        let exprs = match by_type {
            None => {
                let named: Vec<String> = values.iter().map(|(n, _)| n.clone()).collect();
                let attrs = self.na_columns(&plan, &output, Some(named))?;
                output
                    .iter()
                    .map(|a| match attrs.iter().position(|n| n == &a.name) {
                        Some(i) => fill(a, values[i].1.clone()),
                        None => Expr::Column(a.name.clone()),
                    })
                    .collect()
            }
            Some(v) => {
                let cols = self.na_columns(&plan, &output, subset)?;
                let applies = |t: &DataType| match &v {
                    Value::Double(_) => crate::types::is_numeric(t),
                    Value::Str(_) => matches!(t, DataType::Utf8),
                    _ => matches!(t, DataType::Boolean),
                };
                output.iter().map(|a| if cols.contains(&a.name) && applies(&a.data_type) { fill(a, v.clone()) } else { Expr::Column(a.name.clone()) }).collect()
            }
        };
        df(LogicalPlan::Project { input: plan, exprs })
    }

    /// The output columns `names` (all of them when `None`) name, as the DataFrame spells
    /// them; a name it does not have fails as Spark's `df.resolve(name)` does.
    fn na_columns(&self, plan: &Rc<LogicalPlan>, output: &[crate::analysis::Attr], names: Option<Vec<String>>) -> R<Vec<String>> {
        let Some(names) = names else { return Ok(output.iter().map(|a| a.name.clone()).collect()) };
        names
            .into_iter()
            .map(|n| match output.iter().find(|a| a.name.eq_ignore_ascii_case(&n)) {
                Some(a) => Ok(a.name.clone()),
                // The analyzer's own error for the name (`UNRESOLVED_COLUMN.WITH_SUGGESTION`).
                None => crate::analysis::resolve(&Rc::new(LogicalPlan::Project { input: Rc::clone(plan), exprs: vec![Expr::Column(n.clone())] })).map(|_| n),
            })
            .collect()
    }

    /// `agg(*exprs)`: Columns, or one dict of column name to aggregate name
    /// (`agg({'amount': 'sum'})`, named `sum(amount)` as Spark names it).
    pub(super) fn agg_exprs(&mut self, exprs: Vec<(Py, Span)>, span: Span) -> R<Vec<Expr>> {
        if let [(Py::Dict(entries), s)] = exprs.as_slice() {
            let mut out = Vec::new();
            for (k, v) in entries {
                let (Py::Str(col), Py::Str(func)) = (k, v) else {
                    return Err(perr("agg({...}) takes a dict of column names to aggregate names, e.g. {'amount': 'sum'}", *s));
                };
                let arg = if col == "*" { Expr::Star } else { Expr::Column(col.clone()) };
                let func = match func.to_ascii_lowercase().as_str() {
                    "mean" => "avg".to_string(),
                    f => f.to_string(),
                };
                match crate::plan::functions::build_aggregate(&func, vec![arg], false).map_err(|m| perr(m, *s))? {
                    Some(e) => out.push(e),
                    None => return Err(perr(format!("'{func}' is not an aggregate function"), *s)),
                }
            }
            return Ok(out);
        }
        let aggs = self.col_refs(exprs)?;
        if aggs.is_empty() {
            return Err(perr("agg() needs at least one aggregate, e.g. F.count('*')", span));
        }
        Ok(aggs)
    }

    pub(super) fn grouped_method(&mut self, input: Rc<LogicalPlan>, grouping: Vec<Expr>, name: &str, mut b: Args, span: Span) -> R<Py> {
        let aggregates = match name {
            "count" => vec![Expr::Alias(Box::new(Expr::Agg { func: AggFunc::Count, arg: Box::new(Expr::Star), by: None, distinct: false }), "count".into())],
            "agg" => self.agg_exprs(b.var_pos, span)?,
            "sum" | "avg" | "mean" | "min" | "max" => {
                let func = match name {
                    "sum" => AggFunc::Sum,
                    "avg" | "mean" => AggFunc::Avg,
                    "min" => AggFunc::Min,
                    _ => AggFunc::Max,
                };
                let mut cols = Vec::new();
                for (v, s) in b.var_pos {
                    match v {
                        Py::Str(c) => cols.push(Expr::Column(c)),
                        // PySpark hands the names to Java as a sequence: a Column is asked to
                        // iterate (`Column.__iter__`).
                        Py::Col(_) => return Err(Error::Analysis(AnalysisError::new(Stage::Define, "NOT_ITERABLE", "Column is not iterable.").with_span(s))),
                        other => return Err(not_expected("cols", "str", &other, s)),
                    }
                }
                cols.into_iter().map(|c| Expr::Agg { func, arg: Box::new(c), by: None, distinct: false }).collect()
            }
            "applyInPandasWithState" => return self.apply_in_pandas_with_state(input, grouping, b),
            "transformWithStateInPandas" | "transformWithState" => {
                let use_pandas = name == "transformWithStateInPandas";
                for arg in ["initialState", "eventTimeColumnName"] {
                    if let Some((v, s)) = b.take(arg).filter(|(v, _)| !matches!(v, Py::NoneVal) && !matches!(v, Py::Str(t) if t.is_empty())) {
                        let _ = v;
                        return Err(Error::Parse(crate::frontend::ParseError::not_modelled(format!("{name}({arg}=...)"), format!("{name}'s {arg} is not modelled in Streamlab yet"), s)));
                    }
                }
                return self.transform_with_state(input, grouping, use_pandas, b);
            }
            other => return Err(super::unknown_api(ApiKind::GroupedData, other, span)),
        };
        df(LogicalPlan::Aggregate { input, grouping, aggregates })
    }

    /// `applyInPandasWithState(func, outputStructType, stateStructType, outputMode,
    /// timeoutConf)` (PySpark's `GroupedData.applyInPandasWithState`): `func` names a function
    /// the program's Python code defines, run by [`crate::pyfunc`]; the schemas are
    /// `StructType`s or DDL strings; `timeoutConf` is a `GroupStateTimeout` constant or its
    /// string.
    fn apply_in_pandas_with_state(&mut self, input: Rc<LogicalPlan>, grouping: Vec<Expr>, mut b: Args) -> R<Py> {
        let (func, fspan) = b.take("func").expect("bound: required");
        let Py::Python(name) = func else {
            return Err(perr(format!("the first argument of applyInPandasWithState is a Python function defined above the query (def f(key, pdfs, state): ...), not a {}", func.type_name()), fspan));
        };
        let (out, ospan) = b.take("outputStructType").expect("bound: required");
        let (state, sspan) = b.take("stateStructType").expect("bound: required");
        let output = schema_arg(&out, ospan, "outputStructType")?;
        let state = schema_arg(&state, sspan, "stateStructType")?;
        let (mode, mspan) = self.str_arg(b.take("outputMode"), "outputMode")?;
        let (timeout, tspan) = self.str_arg(b.take("timeoutConf"), "timeoutConf")?;
        let udf = crate::pyfunc::PythonUdf::from_source(&self.catalog.prelude, &name).map_err(|e| python_code_error(&e, fspan))?;
        let mode = match mode.to_ascii_lowercase().as_str() {
            "append" => OutputMode::Append,
            "update" => OutputMode::Update,
            other => return Err(perr(format!("outputMode of applyInPandasWithState must be 'append' or 'update', not '{other}'"), mspan)),
        };
        let timeout = crate::pyfunc::GroupStateTimeout::parse(&timeout)
            .ok_or_else(|| perr(format!("timeoutConf must be GroupStateTimeout.NoTimeout, .ProcessingTimeTimeout or .EventTimeTimeout (or their names), not '{timeout}'"), tspan))?;
        df(LogicalPlan::FlatMapGroupsInPandasWithState { input, grouping, udf: Rc::new(udf), output, state, mode, timeout })
    }

    /// `transformWithStateInPandas(statefulProcessor, outputStructType, outputMode, timeMode)`
    /// and the row-based `transformWithState` (PySpark's `GroupedData`, 4.0/4.1):
    /// `statefulProcessor` builds an instance of a `StatefulProcessor` class the program's
    /// Python code defines (`CountProc()`), run by [`crate::pyfunc`].
    fn transform_with_state(&mut self, input: Rc<LogicalPlan>, grouping: Vec<Expr>, use_pandas: bool, mut b: Args) -> R<Py> {
        let api = if use_pandas { "transformWithStateInPandas" } else { "transformWithState" };
        let (proc, pspan) = b.take("statefulProcessor").expect("bound: required");
        // `MyProcessor()`, or a name the Python code bound to an instance.
        let (Py::PythonCall(ctor) | Py::Python(ctor)) = proc else {
            return Err(perr(format!("the first argument of {api} is an instance of a StatefulProcessor class defined above the query (MyProcessor()), not a {}", proc.type_name()), pspan));
        };
        let (out, ospan) = b.take("outputStructType").expect("bound: required");
        let output = schema_arg(&out, ospan, "outputStructType")?;
        let (mode, mspan) = self.str_arg(b.take("outputMode"), "outputMode")?;
        let (time_mode, tspan) = self.str_arg(b.take("timeMode"), "timeMode")?;
        let processor = crate::pyfunc::PythonProcessor::from_source(&self.catalog.prelude, &ctor, use_pandas).map_err(|e| python_code_error(&e, pspan))?;
        let mode = match mode.to_ascii_lowercase().as_str() {
            "append" => OutputMode::Append,
            "update" => OutputMode::Update,
            "complete" => OutputMode::Complete,
            other => return Err(perr(format!("outputMode of {api} must be 'append' or 'update', not '{other}'"), mspan)),
        };
        let time_mode = crate::pyfunc::TimeMode::parse(&time_mode).ok_or_else(|| {
            Error::Analysis(
                AnalysisError::new(Stage::Define, "STATEFUL_PROCESSOR_UNKNOWN_TIME_MODE", format!("Unknown time mode {time_mode}. Accepted timeMode modes are 'none', 'processingTime', 'eventTime'"))
                    .with_hint("timeMode is 'None', 'ProcessingTime' or 'EventTime'")
                    .with_span(tspan),
            )
        })?;
        df(LogicalPlan::TransformWithState { input, grouping, processor: Rc::new(processor), output, mode, time_mode })
    }

    /// A bound argument that must be a string.
    pub(super) fn str_arg(&self, v: Option<(Py, Span)>, arg: &str) -> R<(String, Span)> {
        match v {
            Some((Py::Str(s), sp)) => Ok((s, sp)),
            Some((other, sp)) => Err(not_expected(arg, "str", &other, sp)),
            None => Err(perr(format!("{arg} is missing"), Span::new(0, 0))),
        }
    }
}

/// An error in the program's Python code, located by its line.
fn python_code_error(e: &crate::pyfunc::PyError, span: Span) -> Error {
    perr(if e.line > 0 { format!("in the Python code above the query, line {}: {}", e.line, e.message) } else { format!("in the Python code above the query: {}", e.message) }, span)
}

/// Batch actions: on a stream, Spark refuses them when the DataFrame is used.
fn is_action(name: &str) -> bool {
    matches!(name, "count" | "show" | "collect" | "take" | "head" | "first" | "toPandas" | "foreach" | "foreachPartition" | "toLocalIterator" | "tail" | "isEmpty" | "toArrow" | "toJSON" | "describe" | "summary")
}

fn first_source(plan: &LogicalPlan) -> String {
    match plan {
        LogicalPlan::StreamingRelation { source, .. } => format!("StreamingRelation {source}"),
        other => other.children().first().map(|c| first_source(c)).unwrap_or_default(),
    }
}

/// `subset` of `fillna`/`dropna`: a str is one column, a list or tuple of str the columns;
/// PySpark refuses anything else with `NOT_EXPECTED_TYPE`, saying `expected` ("list or tuple"
/// for `fillna`, "list, str or tuple" for `dropna`, as PySpark 4.3 words them).
fn na_subset(arg: Option<(Py, Span)>, expected: &str) -> R<Option<Vec<String>>> {
    let names = |items: Vec<Py>, s: Span| -> R<Vec<String>> {
        items.into_iter().map(|i| match i {
            Py::Str(n) => Ok(n),
            other => Err(perr(format!("subset takes column names (str), got {}", other.type_name()), s)),
        }).collect()
    };
    match arg {
        None | Some((Py::NoneVal, _)) => Ok(None),
        Some((Py::Str(n), _)) => Ok(Some(vec![n])),
        Some((Py::List(items), s)) => names(items, s).map(Some),
        Some((other, s)) => Err(Error::Analysis(AnalysisError::new(Stage::Define, "NOT_EXPECTED_TYPE", format!("Argument `subset` should be {expected}, got {}.", other.type_name())).with_span(s))),
    }
}

/// Spark's `AtLeastNNonNulls(n, cols)`, the filter `dropna` builds: a row stays when at least
/// `n` of `cols` are neither NULL nor NaN.
fn at_least_n_non_nulls(n: i64, cols: &[String]) -> Expr {
    let one = |c: &String| {
        let col = Expr::Column(c.clone());
        let present = Expr::Binary(
            BinOp::And,
            Box::new(Expr::IsNull(Box::new(col.clone()), true)),
            Box::new(Expr::Not(Box::new(Expr::Function("isnan".into(), vec![col])))),
        );
        Expr::Case { branches: vec![(present, Expr::Literal(Value::Int(1)))], otherwise: Some(Box::new(Expr::Literal(Value::Int(0)))) }
    };
    let count = cols.iter().map(one).reduce(|a, b| Expr::Binary(BinOp::Add, Box::new(a), Box::new(b))).unwrap_or(Expr::Literal(Value::Int(0)));
    Expr::Binary(BinOp::GtEq, Box::new(count), Box::new(Expr::Literal(Value::Long(n))))
}
