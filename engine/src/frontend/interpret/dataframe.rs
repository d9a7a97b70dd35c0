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

type Args = Bound<Py>;

fn df(p: LogicalPlan) -> R<Py> {
    Ok(Py::Df(Rc::new(p)))
}

impl Evaluator<'_> {
    pub(super) fn df_method(&mut self, plan: Rc<LogicalPlan>, name: &str, mut b: Args, span: Span) -> R<Py> {
        match name {
            "createOrReplaceTempView" | "createTempView" | "createOrReplaceGlobalTempView" | "createGlobalTempView" => self.create_view(plan, name, b, span),
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
            "cache" | "persist" | "hint" | "repartition" | "coalesce" | "repartitionByRange" | "sortWithinPartitions" | "unpersist" | "localCheckpoint" | "checkpoint" => Ok(Py::Df(plan)),
            // Allowed on a streaming DataFrame: they print, and build nothing.
            "printSchema" | "explain" => Ok(Py::NoneVal),
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
