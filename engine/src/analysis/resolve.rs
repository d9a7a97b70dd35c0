//! The Analyzer: resolves names and types of a [`LogicalPlan`] into an analyzed [`Plan`].
//!
//! Mirrors Catalyst's `Analyzer` rules that matter here: `ResolveReferences`, the
//! `TimeWindowing` rewrite (`window(...)` in a grouping or projection becomes a node that
//! appends a `window` column, `ResolveTimeWindows.scala`), and `EventTimeWatermark`'s
//! metadata propagation (`spark.watermarkDelayMs` on the event-time column only).
//! Errors here are raised when the DataFrame is defined, as in PySpark.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::join_helper::{equi_keys, stream_join_spec};
use super::naming::{output_name, pretty_name};
use super::plan::{Attr, BoundAgg, BoundExpr, JoinSpec, Node, Plan, SessionSpec, WindowKind, WindowSpec};
use crate::error::Error;
use crate::plan::{Expr, JoinOn, JoinType, LogicalPlan};
use crate::types::{spark_type_name, window_type, DataType};

pub use super::bind::{bind, find_column, parse_ddl_schema};
pub(super) use super::bind::{define_error, R};
use super::bind::{bind_agg, implicit_timestamp};

/// Resolves `plan`. Sources are numbered in order of first appearance.
///
/// # Errors
/// [`Error::Analysis`] at [`Stage::Define`](crate::error::Stage::Define) (unresolved columns, wrong types, invalid window
/// parameters); [`Error::Unsupported`] for operators the engine does not model yet.
pub fn resolve(plan: &LogicalPlan) -> R<Plan> {
    let mut r = Resolver { sources: BTreeMap::new(), watermarks: 0 };
    let mut out = r.plan(plan)?;
    number_stateful_operators(&mut out, &mut 0);
    Ok(out)
}

struct Resolver {
    sources: BTreeMap<String, usize>,
    watermarks: usize,
}


impl Resolver {
    /// `ResolveMissingReferences`: a filter over a projection may name a column the
    /// projection dropped but its input has (`df.select("device").where("signal > 10")`).
    /// Spark adds the missing columns to the projection, filters, and projects them away
    /// again: `Project(out, Filter(p, Project(exprs ++ missing, g)))`. `None` when the
    /// predicate resolves as written (or the missing columns are not below either).
    fn missing_references(&mut self, input: &Rc<LogicalPlan>, predicate: &Expr) -> R<Option<LogicalPlan>> {
        let LogicalPlan::Project { input: below, exprs } = input.as_ref() else { return Ok(None) };
        let mut names = Vec::new();
        predicate.visit(&mut |e| {
            if let Expr::Column(n) = e {
                names.push(n.clone());
            }
        });
        if names.is_empty() {
            return Ok(None);
        }
        // The trial resolutions below must not count a source or a watermark twice.
        let saved = (self.sources.clone(), self.watermarks);
        let trial = self.widened_filter(input, below, exprs, predicate, names);
        (self.sources, self.watermarks) = saved;
        trial
    }

    fn widened_filter(&mut self, input: &Rc<LogicalPlan>, below: &Rc<LogicalPlan>, exprs: &[Expr], predicate: &Expr, names: Vec<String>) -> R<Option<LogicalPlan>> {
        let projected = self.plan(input)?;
        let missing: Vec<String> = names.into_iter().filter(|n| find_column(n, &projected.output).is_err()).collect();
        if missing.is_empty() {
            return Ok(None);
        }
        let grand = self.plan(below)?;
        if missing.iter().any(|n| find_column(n, &grand.output).is_err()) {
            return Ok(None);
        }
        let mut widened = exprs.to_vec();
        widened.extend(missing.iter().map(|n| Expr::Column(n.clone())));
        let filtered = LogicalPlan::Filter { input: Rc::new(LogicalPlan::Project { input: below.clone(), exprs: widened }), predicate: predicate.clone() };
        let out = (0..projected.output.len()).map(|i| Expr::Column(format!("\u{0}col{i}"))).collect();
        Ok(Some(LogicalPlan::Project { input: Rc::new(filtered), exprs: out }))
    }

    fn plan(&mut self, plan: &LogicalPlan) -> R<Plan> {
        match plan {
            LogicalPlan::StreamingRelation { source, schema } => {
                let next = self.sources.len();
                let index = *self.sources.entry(source.clone()).or_insert(next);
                Ok(Plan {
                    node: Node::Source { name: source.clone(), index },
                    output: schema.iter().map(|(n, t)| Attr { qualifiers: vec![source.clone()], ..Attr::new(n.clone(), t.clone()) }).collect(),
                    streaming: true,
                })
            }
            LogicalPlan::LocalRelation { name, schema, rows } => Ok(Plan {
                node: Node::Static { name: name.clone(), rows: rows.clone() },
                output: schema.iter().map(|(n, t)| Attr { qualifiers: vec![name.clone()], ..Attr::new(n.clone(), t.clone()) }).collect(),
                streaming: false,
            }),
            LogicalPlan::Project { input, exprs } => {
                let input = self.plan(input)?;
                let mut items = Vec::new();
                for e in exprs {
                    match e {
                        // By position: `*` after a join keeps both same-named columns.
                        Expr::Star => items.extend((0..input.output.len()).map(|i| Expr::Column(format!("\u{0}col{i}")))),
                        // `select('o.*')`: every field of the struct column `o`.
                        // `select('j.user.*')`: every field of the nested struct `j.user`.
                        Expr::Column(n) if n.ends_with(".*") && crate::analysis::naming::struct_path(n.trim_end_matches(".*"), &input.output).is_some_and(|(_, _, f)| matches!(f.data_type(), DataType::Struct(_))) => {
                            let path = n.trim_end_matches(".*");
                            let (_, _, f) = crate::analysis::naming::struct_path(path, &input.output).expect("checked");
                            let DataType::Struct(fields) = f.data_type() else { unreachable!("checked: a struct") };
                            items.extend(fields.iter().map(|f| Expr::Alias(Box::new(Expr::Column(format!("{path}.{}", f.name()))), f.name().clone())));
                        }
                        Expr::Column(n) if n.ends_with(".*") => {
                            let prefix = n.trim_end_matches(".*").rsplit('.').next().unwrap_or_default();
                            let idx = find_column(prefix, &input.output)?;
                            let DataType::Struct(fields) = &input.output[idx].data_type else {
                                return Err(define_error(
                                    "CANNOT_RESOLVE_STAR_EXPAND",
                                    format!("Cannot resolve `{prefix}`.* given input columns: the column `{prefix}` is not a struct."),
                                ));
                            };
                            items.extend(fields.iter().map(|f| Expr::Alias(Box::new(Expr::Column(format!("{prefix}.{}", f.name()))), f.name().clone())));
                        }
                        other => items.push(other.clone()),
                    }
                }
                self.project(input, &items)
            }
            LogicalPlan::WithColumn { input, name, expr } => {
                let input = self.plan(input)?;
                let mut items: Vec<Expr> = Vec::new();
                let mut replaced = false;
                for a in &input.output {
                    if a.name.eq_ignore_ascii_case(name) {
                        items.push(Expr::Alias(Box::new(expr.clone()), name.clone()));
                        replaced = true;
                    } else {
                        items.push(Expr::Column(a.name.clone()));
                    }
                }
                if !replaced {
                    items.push(Expr::Alias(Box::new(expr.clone()), name.clone()));
                }
                self.project(input, &items)
            }
            LogicalPlan::RenameColumn { input, old, new } => {
                let input = self.plan(input)?;
                let items: Vec<Expr> = input
                    .output
                    .iter()
                    .map(|a| {
                        let c = Expr::Column(a.name.clone());
                        if a.name.eq_ignore_ascii_case(old) {
                            Expr::Alias(Box::new(c), new.clone())
                        } else {
                            c
                        }
                    })
                    .collect();
                self.project(input, &items)
            }
            LogicalPlan::DropColumns { input, names } => {
                let input = self.plan(input)?;
                let items: Vec<Expr> = input
                    .output
                    .iter()
                    .filter(|a| !names.iter().any(|n| n.eq_ignore_ascii_case(&a.name)))
                    .map(|a| Expr::Column(a.name.clone()))
                    .collect();
                self.project(input, &items)
            }
            LogicalPlan::Filter { input: logical_input, predicate } => {
                if let Some(rewritten) = self.missing_references(logical_input, predicate)? {
                    return self.plan(&rewritten);
                }
                let input = self.plan(logical_input)?;
                if predicate.contains_agg() {
                    return Err(define_error(
                        "INVALID_WHERE_CONDITION",
                        format!("The WHERE condition {predicate} contains invalid expressions: an aggregate function."),
                    ));
                }
                let (predicate, attr) = bind(predicate, &input.output)?;
                if !matches!(attr.data_type, DataType::Boolean | DataType::Null) {
                    return Err(define_error(
                        "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                        format!("Cannot resolve \"{}\" due to data type mismatch: Filter expression \"{}\" of type \"{}\" is not a boolean.", attr.name, attr.name, spark_type_name(&attr.data_type).to_uppercase()),
                    ));
                }
                let output = input.output.clone();
                let streaming = input.streaming;
                Ok(Plan { node: Node::Filter { input: Box::new(input), predicate }, output, streaming })
            }
            LogicalPlan::EventTimeWatermark { input, column, delay_ms } => {
                let input = self.plan(input)?;
                let idx = find_column(column, &input.output)?;
                let attr = &input.output[idx];
                let is_window = attr.window.is_some();
                if !matches!(attr.data_type, DataType::Timestamp(..)) && !is_window {
                    return Err(define_error(
                        "EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
                        format!(
                            "The event time `{}` has the invalid type \"{}\", but expected \"TIMESTAMP\".",
                            attr.name,
                            spark_type_name(&attr.data_type).to_uppercase()
                        ),
                    ));
                }
                // The tag moves: set on this column, removed from every other one.
                let output = input
                    .output
                    .iter()
                    .enumerate()
                    .map(|(i, a)| Attr { watermark_delay_ms: (i == idx).then_some(*delay_ms), ..a.clone() })
                    .collect();
                let watermark_index = self.watermarks;
                self.watermarks += 1;
                let streaming = input.streaming;
                Ok(Plan {
                    node: Node::Watermark { input: Box::new(input), column: idx, delay_ms: *delay_ms, watermark_index },
                    output,
                    streaming,
                })
            }
            LogicalPlan::Aggregate { input, grouping, aggregates } => {
                let input = self.plan(input)?;
                ambiguous_window_of_joined_column(grouping, &input)?;
                self.aggregate(input, grouping, aggregates)
            }
            LogicalPlan::Distinct { input } => {
                let input = self.plan(input)?;
                let every: Vec<Expr> = (0..input.output.len()).map(|i| Expr::Column(format!("\u{0}col{i}"))).collect();
                let mut plan = self.aggregate(input, &every, &[])?;
                if let Node::Aggregate { distinct, .. } = &mut plan.node {
                    *distinct = true;
                }
                Ok(plan)
            }
            LogicalPlan::Deduplicate { input, keys } | LogicalPlan::DeduplicateWithinWatermark { input, keys } => {
                let within = matches!(plan, LogicalPlan::DeduplicateWithinWatermark { .. });
                let input = self.plan(input)?;
                let keys: Vec<usize> = match keys {
                    Some(k) => k.iter().map(|n| find_column(n, &input.output)).collect::<R<_>>()?,
                    None => (0..input.output.len()).collect(),
                };
                let event_time_col = input.output.iter().position(Attr::is_event_time);
                let event_time_in_key = keys.iter().any(|k| input.output[*k].is_event_time());
                let output = input.output.clone();
                let streaming = input.streaming;
                Ok(Plan {
                    node: Node::Dedup { input: Box::new(input), keys, event_time_col, event_time_in_key, within_watermark: within, op_id: 0 },
                    output,
                    streaming,
                })
            }
            LogicalPlan::FlatMapGroupsInPandasWithState { input, grouping, udf, output, state, mode, timeout } => {
                let input = self.plan(input)?;
                let keys = grouping.iter().map(|g| Ok(bind(g, &input.output)?.0)).collect::<R<Vec<_>>>()?;
                let event_time_col = input.output.iter().position(Attr::is_event_time);
                // The function's rows carry no event-time tag: operators after it see no
                // watermark.
                let out = output.iter().map(|(n, t)| Attr::new(n, t.clone())).collect();
                let streaming = input.streaming;
                Ok(Plan {
                    node: Node::FlatMapGroupsWithState {
                        input: Box::new(input),
                        keys,
                        udf: Rc::clone(udf),
                        state_schema: state.clone(),
                        mode: *mode,
                        timeout: *timeout,
                        event_time_col,
                        op_id: 0,
                    },
                    output: out,
                    streaming,
                })
            }
            LogicalPlan::TransformWithState { input, grouping, processor, output, mode, time_mode } => {
                let input = self.plan(input)?;
                let keys = grouping.iter().map(|g| Ok(bind(g, &input.output)?.0)).collect::<R<Vec<_>>>()?;
                let event_time_col = input.output.iter().position(Attr::is_event_time);
                let out = output.iter().map(|(n, t)| Attr::new(n, t.clone())).collect();
                let streaming = input.streaming;
                Ok(Plan {
                    node: Node::TransformWithState {
                        input: Box::new(input),
                        keys,
                        processor: Rc::clone(processor),
                        mode: *mode,
                        time_mode: *time_mode,
                        event_time_col,
                        op_id: 0,
                    },
                    output: out,
                    streaming,
                })
            }
            LogicalPlan::Join { left, right, join_type, on } => {
                let l = self.plan(left)?;
                let r = self.plan(right)?;
                self.join(l, r, *join_type, on)
            }
            LogicalPlan::Union { inputs, by_name, allow_missing_columns } => {
                let mut plans = Vec::new();
                for i in inputs {
                    plans.push(self.plan(i)?);
                }
                super::union::union(plans, *by_name, *allow_missing_columns)
            }
            LogicalPlan::Sort { input, order } => {
                let input = self.plan(input)?;
                let order = order.iter().map(|(e, asc)| Ok((bind(e, &input.output)?.0, *asc))).collect::<R<Vec<_>>>()?;
                let output = input.output.clone();
                let streaming = input.streaming;
                Ok(Plan { node: Node::Sort { input: Box::new(input), order }, output, streaming })
            }
            LogicalPlan::SubqueryAlias { input, alias } => {
                let mut p = self.plan(input)?;
                for a in &mut p.output {
                    if !a.qualifiers.iter().any(|q| q.eq_ignore_ascii_case(alias)) {
                        a.qualifiers.push(alias.clone());
                    }
                    a.sql_qualifier = Some(alias.clone());
                }
                Ok(p)
            }
            LogicalPlan::Limit { input, n } => {
                let input = self.plan(input)?;
                let output = input.output.clone();
                let streaming = input.streaming;
                Ok(Plan { node: Node::Limit { input: Box::new(input), n: *n, op_id: 0 }, output, streaming })
            }
        }
    }

    /// Pulls a top-level `window(...)` out of `items` into a `TimeWindow` node under them.
    fn extract_window(&mut self, input: Plan, items: &[Expr]) -> R<(Plan, Vec<Expr>)> {
        let mut found: Option<(usize, Expr)> = None;
        for (i, e) in items.iter().enumerate() {
            let inner = match e {
                Expr::Alias(inner, _) => inner.as_ref(),
                other => other,
            };
            let mut nested_window = false;
            e.visit(&mut |x| nested_window |= matches!(x, Expr::TimeWindow { .. } | Expr::SessionWindow { .. }));
            match inner {
                Expr::TimeWindow { .. } => {
                    if found.is_some() {
                        return Err(define_error(
                            "_LEGACY_ERROR_TEMP_1039",
                            "Multiple time/session window expressions would result in a cartesian product of rows, therefore they are currently not supported.".into(),
                        ));
                    }
                    found = Some((i, inner.clone()));
                }
                Expr::SessionWindow { .. } => return Err(Error::Unsupported("session_window(...) outside groupBy()".into())),
                _ if nested_window => {
                    return Err(Error::Unsupported("a window(...) nested inside another expression".into()))
                }
                _ => {}
            }
        }
        let Some((pos, Expr::TimeWindow { time, duration_us, slide_us, start_us })) = found else {
            return Ok((input, items.to_vec()));
        };
        // `TimeWindow.checkInputDataTypes` checks the durations before the time column's
        // type (a string column is cast to a timestamp implicitly in Spark).
        let spec = validate_window(&time.to_string(), duration_us, slide_us, start_us)?;
        let (time, time_attr) = bind(&time, &input.output)?;
        let (time, time_attr) = implicit_timestamp(time, time_attr);
        // `window(w, ...)` over a window column uses `window_time(w)`.
        let time = if time_attr.window.is_some() { BoundExpr::WindowTime(Box::new(time)) } else { time };
        if !matches!(time_attr.data_type, DataType::Timestamp(..)) && time_attr.window.is_none() {
            return Err(define_error(
                "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                format!(
                    "Cannot resolve \"window({})\" due to data type mismatch: The first parameter requires the \"TIMESTAMP\" type, however \"{}\" has the type \"{}\".",
                    time_attr.name,
                    time_attr.name,
                    spark_type_name(&time_attr.data_type).to_uppercase()
                ),
            ));
        }
        let mut output = input.output.clone();
        output.push(Attr {
            name: "window".into(),
            data_type: window_type(),
            watermark_delay_ms: time_attr.watermark_delay_ms,
            window: Some(WindowKind::Time),
            qualifiers: Vec::new(),
            sql_qualifier: None,
        });
        let col = output.len() - 1;
        let streaming = input.streaming;
        let windowed = Plan { node: Node::TimeWindow { input: Box::new(input), time, spec }, output, streaming };
        let mut items = items.to_vec();
        // Refer to the appended column by position through a reserved name.
        let reference = Expr::Column(format!("\u{0}col{col}"));
        items[pos] = match &items[pos] {
            Expr::Alias(_, n) => Expr::Alias(Box::new(reference), n.clone()),
            _ => reference,
        };
        Ok((windowed, items))
    }

    /// Pulls a top-level generator (`explode(array)`, aliased or not) out of `items` into a
    /// `Generate` node under them (`ExtractGenerator`). Its column is named `col` (and `pos`)
    /// unless aliased.
    fn extract_generator(&mut self, input: Plan, items: &[Expr]) -> R<(Plan, Vec<Expr>)> {
        use crate::plan::functions::is_generator;
        let mut found: Option<usize> = None;
        for (i, e) in items.iter().enumerate() {
            let inner = match e {
                Expr::Alias(inner, _) => inner.as_ref(),
                other => other,
            };
            if matches!(inner, Expr::Function(n, _) if is_generator(n)) {
                if found.is_some() {
                    return Err(define_error(
                        "UNSUPPORTED_GENERATOR.MULTI_GENERATOR",
                        "The generator is not supported: only one generator allowed per SELECT clause but found 2.".into(),
                    ));
                }
                found = Some(i);
            }
        }
        let Some(pos) = found else { return Ok((input, items.to_vec())) };
        let (inner, alias) = match &items[pos] {
            Expr::Alias(inner, n) => (inner.as_ref().clone(), Some(n.clone())),
            other => (other.clone(), None),
        };
        let Expr::Function(fname, args) = &inner else { unreachable!("checked above") };
        let arg = args.first().ok_or_else(|| define_error("WRONG_NUM_ARGS", format!("{fname}() takes one array")))?;
        let (gen, ga) = bind(arg, &input.output)?;
        // The columns it adds (`ExplodeBase.elementSchema`): an array's element (`col`, or the
        // alias), a map's `key` and `value`; `pos` before them for `posexplode`.
        let position = fname.starts_with("pos");
        let mut columns: Vec<(String, DataType)> = if position { vec![("pos".into(), DataType::Int32)] } else { Vec::new() };
        match (crate::types::map_key_value(&ga.data_type), &ga.data_type) {
            (Some(_), _) if alias.is_some() => return Err(Error::Unsupported(format!("{fname}() of a map with an alias (it gives two columns, key and value)"))),
            (Some((k, v)), _) => columns.extend([("key".into(), k.clone()), ("value".into(), v.clone())]),
            (None, DataType::List(elem)) => columns.push((alias.unwrap_or_else(|| "col".into()), elem.data_type().clone())),
            _ => {
                return Err(define_error(
                    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    format!(
                        "Cannot resolve \"{inner}\" due to data type mismatch: The first parameter requires the (\"ARRAY\" or \"MAP\") type, however \"{arg}\" has the type \"{}\".",
                        spark_type_name(&ga.data_type).to_uppercase()
                    ),
                ))
            }
        }
        let mut output = input.output.clone();
        let mut refs = Vec::new();
        for (name, t) in columns {
            output.push(Attr::new(name.clone(), t));
            refs.push(Expr::Alias(Box::new(Expr::Column(format!("\u{0}col{}", output.len() - 1))), name));
        }
        let streaming = input.streaming;
        let generated = Plan { node: Node::Generate { input: Box::new(input), generator: gen, outer: fname.ends_with("_outer"), position }, output, streaming };
        let mut items = items.to_vec();
        items.splice(pos..=pos, refs);
        Ok((generated, items))
    }

    fn project(&mut self, input: Plan, items: &[Expr]) -> R<Plan> {
        let (input, items) = self.extract_generator(input, items)?;
        let (input, items) = self.extract_window(input, &items)?;
        let (input, items) = super::window_function::extract(input, items)?;
        let mut exprs = Vec::new();
        let mut output = Vec::new();
        for e in &items {
            if e.contains_agg() {
                return Err(Error::Unsupported("aggregate functions in select() (use groupBy().agg())".into()));
            }
            let (b, a) = bind(e, &input.output)?;
            exprs.push(b);
            output.push(a);
        }
        let streaming = input.streaming;
        Ok(Plan { node: Node::Project { input: Box::new(input), exprs, aggregate_result: false }, output, streaming })
    }

    fn aggregate(&mut self, input: Plan, grouping: &[Expr], aggregates: &[Expr]) -> R<Plan> {
        // A session window is not a generator: it is resolved by the aggregation itself.
        let session_pos = grouping.iter().position(|g| {
            matches!(g, Expr::SessionWindow { .. }) || matches!(g, Expr::Alias(inner, _) if matches!(**inner, Expr::SessionWindow { .. }))
        });
        let mut session = None;
        let mut session_attr = None;
        let mut plain: Vec<Expr> = grouping.to_vec();
        if let Some(pos) = session_pos {
            let (expr, name) = match plain.remove(pos) {
                Expr::Alias(inner, n) => (*inner, n),
                e => (e, "session_window".to_string()),
            };
            let Expr::SessionWindow { time, gap } = expr else { unreachable!("checked above") };
            let (time_b, time_a) = bind(&time, &input.output)?;
            let (time_b, time_a) = implicit_timestamp(time_b, time_a);
            if !matches!(time_a.data_type, DataType::Timestamp(..)) {
                return Err(define_error(
                    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    format!("Cannot resolve \"session_window({})\" due to data type mismatch: The first parameter requires the \"TIMESTAMP\" type, however \"{}\" has the type \"{}\".", time_a.name, time_a.name, spark_type_name(&time_a.data_type).to_uppercase()),
                ));
            }
            let (gap_b, gap_a) = bind(&gap, &input.output)?;
            if !matches!(gap_a.data_type, DataType::Utf8 | DataType::Interval(_)) {
                return Err(define_error(
                    "_LEGACY_ERROR_TEMP_1040",
                    format!("Gap duration expression used in session window must be CalendarIntervalType, but got {}.", spark_type_name(&gap_a.data_type)),
                ));
            }
            session = Some(SessionSpec { position: pos, time: time_b, gap: gap_b, row_filter: None });
            session_attr = Some(Attr { name, data_type: window_type(), watermark_delay_ms: time_a.watermark_delay_ms, window: Some(WindowKind::Session), qualifiers: Vec::new(), sql_qualifier: None });
        }
        if plain.iter().any(|g| matches!(g, Expr::SessionWindow { .. })) {
            return Err(define_error(
                "_LEGACY_ERROR_TEMP_1039",
                "Multiple time/session window expressions would result in a cartesian product of rows, therefore they are currently not supported.".into(),
            ));
        }
        let (input, grouping) = self.extract_window(input, &plain)?;
        let mut keys = Vec::new();
        let mut output = Vec::new();
        for g in &grouping {
            let (b, a) = bind(g, &input.output)?;
            keys.push(b);
            output.push(a);
        }
        if let (Some(pos), Some(a)) = (session_pos, session_attr) {
            output.insert(pos, a);
        }
        // Each aggregate call becomes a buffer; an item that computes over aggregates
        // (`max(n) + 1`, `size(collect_list(x))`) is evaluated by a projection on top.
        let mut aggs: Vec<BoundAgg> = Vec::new();
        let mut agg_attrs: Vec<Attr> = Vec::new();
        let mut needs_projection = false;
        let mut projected: Vec<Expr> = Vec::new();
        let group_width_out = output.len();
        for e in aggregates {
            let (inner, alias) = match e {
                Expr::Alias(inner, n) => (inner.as_ref(), Some(n.clone())),
                other => (other, None),
            };
            if !inner.contains_agg() {
                // `checkValidAggregateExpression`: an item with no aggregate is valid when every
                // column it reads is a grouping column (`agg(F.lit(2))`, `agg(F.col('post_id'))`);
                // it is computed over the aggregate's output.
                let keys_out: Vec<String> = output[..group_width_out].iter().map(|a| a.name.clone()).collect();
                let mut grouped = true;
                inner.visit(&mut |x| {
                    if let Expr::Column(n) = x {
                        grouped &= keys_out.iter().any(|k| k.eq_ignore_ascii_case(n));
                    }
                });
                if grouped {
                    let name = alias.unwrap_or_else(|| output_name(inner, &input.output));
                    let rewritten = inner.transform(&|x| match x {
                        Expr::Column(n) => keys_out.iter().position(|k| k.eq_ignore_ascii_case(n)).map(|i| Expr::Column(format!("\u{0}col{i}"))),
                        _ => None,
                    });
                    needs_projection = true;
                    projected.push(Expr::Alias(Box::new(rewritten), name));
                    continue;
                }
                return Err(define_error(
                    "MISSING_AGGREGATION",
                    format!("The non-aggregating expression \"{inner}\" is based on columns which are not participating in the GROUP BY clause."),
                ));
            }
            let name = alias.unwrap_or_else(|| output_name(inner, &input.output));
            if let Expr::Agg { .. } = inner {
                let (b, t) = bind_agg(inner, &input.output)?;
                let col = Expr::Column(format!("\u{0}col{}", group_width_out + aggs.len()));
                aggs.push(b);
                agg_attrs.push(Attr::new(name.clone(), t));
                projected.push(Expr::Alias(Box::new(col), name));
                continue;
            }
            // Replace every aggregate call inside by a reference to its buffer's column.
            needs_projection = true;
            let rewritten = inner.transform(&|x| match x {
                Expr::Agg { .. } => Some(Expr::Column(format!("\u{0}agg:{x}"))),
                _ => None,
            });
            let mut calls = Vec::new();
            inner.visit(&mut |x| {
                if matches!(x, Expr::Agg { .. }) && !calls.contains(x) {
                    calls.push(x.clone());
                }
            });
            let mut refs = Vec::new();
            for call in calls {
                let (b, t) = bind_agg(&call, &input.output)?;
                refs.push((format!("\u{0}agg:{call}"), group_width_out + aggs.len()));
                aggs.push(b);
                agg_attrs.push(Attr::new(pretty_name(&call, &input.output), t));
            }
            let rewritten = rewritten.transform(&|x| match x {
                Expr::Column(n) => refs.iter().find(|(r, _)| r == n).map(|(_, i)| Expr::Column(format!("\u{0}col{i}"))),
                _ => None,
            });
            projected.push(Expr::Alias(Box::new(rewritten), name));
        }
        output.extend(agg_attrs);
        // The grouping column that carries the watermark tag decides lateness and eviction.
        let group_width = keys.len() + usize::from(session.is_some());
        let event_time_key = output.iter().take(group_width).position(Attr::is_event_time);
        let streaming = input.streaming;
        let plan = Plan { node: Node::Aggregate { input: Box::new(input), keys, aggs, event_time_key, session, op_id: 0, distinct: false }, output, streaming };
        if !needs_projection {
            return Ok(plan);
        }
        let mut proj: Vec<Expr> = (0..group_width_out).map(|i| Expr::Column(format!("\u{0}col{i}"))).collect();
        proj.extend(projected);
        // Key columns keep their own names.
        let key_names: Vec<String> = plan.output[..group_width_out].iter().map(|a| a.name.clone()).collect();
        for (i, n) in key_names.into_iter().enumerate() {
            proj[i] = Expr::Alias(Box::new(Expr::Column(format!("\u{0}col{i}"))), n);
        }
        let mut result = self.project(plan, &proj)?;
        if let Node::Project { aggregate_result, .. } = &mut result.node {
            *aggregate_result = true;
        }
        Ok(result)
    }

    fn join(&mut self, l: Plan, r: Plan, join_type: JoinType, on: &JoinOn) -> R<Plan> {
        let lw = l.output.len();
        let mut all = l.output.clone();
        all.extend(r.output.iter().cloned());
        let mut unwatermarked_cols = None;
        let (keys, condition, output_idx) = match on {
            JoinOn::Using(cols) => {
                let mut keys = Vec::new();
                for c in cols {
                    keys.push((find_column(c, &l.output)?, find_column(c, &r.output)?));
                }
                let mut out: Vec<usize> = keys
                    .iter()
                    .map(|(li, ri)| if join_type == JoinType::RightOuter { lw + ri } else { *li })
                    .collect();
                out.extend((0..lw).filter(|i| !keys.iter().any(|(li, _)| li == i)));
                if !matches!(join_type, JoinType::LeftSemi | JoinType::LeftAnti) {
                    out.extend((0..r.output.len()).filter(|i| !keys.iter().any(|(_, ri)| ri == i)).map(|i| lw + i));
                }
                (keys, None, out)
            }
            JoinOn::Condition(e) => {
                // `clicks.post_id == posts.post_id`: a qualified column belongs to the side
                // that reads that relation.
                let (lrel, rrel) = (relations(&l), relations(&r));
                // The columns read from a DataFrame below its `withWatermark` (marked by the
                // frontend), by index: they keep no event-time tag in the condition.
                let unwatermarked = std::cell::RefCell::new(std::collections::BTreeSet::new());
                let e = e.transform(&|x| match x {
                    Expr::Column(n) if n.contains('.') && !n.starts_with('\u{0}') => {
                        let marked = n.starts_with(crate::plan::UNWATERMARKED);
                        let (q, c) = crate::plan::unmarked(n).rsplit_once('.')?;
                        let idx = if lrel.iter().any(|x| x == q) {
                            find_column(c, &l.output).ok()?
                        } else if rrel.iter().any(|x| x == q) {
                            lw + find_column(c, &r.output).ok()?
                        } else {
                            return None;
                        };
                        if marked {
                            unwatermarked.borrow_mut().insert(idx);
                        }
                        Some(Expr::Column(format!("\u{0}col{idx}")))
                    }
                    _ => None,
                });
                let (b, _) = bind(&e, &all)?;
                let cols = unwatermarked.into_inner();
                unwatermarked_cols = (!cols.is_empty()).then(|| Box::new(cols));
                let mut out: Vec<usize> = (0..lw).collect();
                if !matches!(join_type, JoinType::LeftSemi | JoinType::LeftAnti) {
                    out.extend(lw..all.len());
                }
                (Vec::new(), Some(b), out)
            }
            JoinOn::None => {
                let mut out: Vec<usize> = (0..lw).collect();
                out.extend(lw..all.len());
                (Vec::new(), None, out)
            }
        };
        let output = output_idx.iter().map(|i| all[*i].clone()).collect();
        let streaming = l.streaming || r.streaming;
        let right_width = r.output.len();
        if l.streaming && r.streaming {
            let mut keys = keys;
            if let Some(c) = &condition {
                keys.extend(equi_keys(c, lw));
            }
            let join = JoinSpec { join_type, keys, condition, output: output_idx, right_width, unwatermarked: unwatermarked_cols };
            // Execution reads the inputs' own tags (Spark's optimized plan binds the condition
            // to the watermarked columns); only the start check sees the condition's own.
            let spec = stream_join_spec(&l.output, &r.output, &join.keys, join.condition.as_ref());
            return Ok(Plan {
                node: Node::StreamJoin {
                    left: Box::new(l),
                    right: Box::new(r),
                    join,
                    spec,
                    op_id: 0,
                },
                output,
                streaming,
            });
        }
        Ok(Plan {
            node: Node::StaticJoin {
                left: Box::new(l),
                right: Box::new(r),
                join: JoinSpec { join_type, keys, condition, output: output_idx, right_width, unwatermarked: unwatermarked_cols },
            },
            output,
            streaming,
        })
    }
}

/// The names of the relations a plan reads.
fn relations(plan: &Plan) -> Vec<String> {
    let mut out = Vec::new();
    plan.walk(&mut |p| match &p.node {
        Node::Source { name, .. } | Node::Static { name, .. } => out.push(name.clone()),
        _ => {}
    });
    out
}

/// The most windows one row may fall into. Spark has no limit: it builds
/// `ceil(windowDuration / slideDuration)` copies of every row (an `Expand`), and real Spark 4.3
/// runs out of memory planning `window(t, '1 day', '1 microsecond')` (8.64e10 copies).
pub const MAX_WINDOWS_PER_ROW: i64 = 1_000;

/// `TimeWindow.checkInputDataTypes` on the durations in µs, then Streamlab's
/// [`MAX_WINDOWS_PER_ROW`]. `time` is the time column as written, for Spark's message.
fn validate_window(time: &str, duration_us: i64, slide_us: i64, start_us: i64) -> R<WindowSpec> {
    let mismatch = |class: &str, msg: String| {
        define_error(
            &format!("DATATYPE_MISMATCH.{class}"),
            format!("Cannot resolve \"window({time}, {duration_us}, {slide_us}, {start_us})\" due to data type mismatch: {msg}"),
        )
    };
    if duration_us <= 0 {
        return Err(mismatch("VALUE_OUT_OF_RANGE", format!("The `window_duration` must be between (0, 9223372036854775807] (current value = {duration_us}L).")));
    }
    if slide_us <= 0 {
        return Err(mismatch("VALUE_OUT_OF_RANGE", format!("The `slide_duration` must be between (0, 9223372036854775807] (current value = {slide_us}L).")));
    }
    if slide_us > duration_us {
        return Err(mismatch(
            "PARAMETER_CONSTRAINT_VIOLATION",
            format!("The `slide_duration`({slide_us}L) must be <= the `window_duration`({duration_us}L)."),
        ));
    }
    if start_us.unsigned_abs() >= slide_us.unsigned_abs() {
        return Err(mismatch(
            "PARAMETER_CONSTRAINT_VIOLATION",
            format!("The `abs(start_time)`({}L) must be < the `slide_duration`({slide_us}L).", start_us.unsigned_abs()),
        ));
    }
    // ceil(d / s) without overflow: 0 < s <= d.
    let per_row = duration_us / slide_us + i64::from(duration_us % slide_us != 0);
    if per_row > MAX_WINDOWS_PER_ROW {
        return Err(Error::Unsupported(format!(
            "a sliding window that puts every row into {per_row} windows (ceil({} / {}); Streamlab allows up to {MAX_WINDOWS_PER_ROW} windows per row, and real Spark builds {per_row} copies of every row)",
            crate::types::format_duration_us(duration_us),
            crate::types::format_duration_us(slide_us)
        )));
    }
    Ok(WindowSpec { duration_us, slide_us, start_us })
}

/// `DetectAmbiguousSelfJoin` (`spark.sql.analyzer.failAmbiguousSelfJoin`, on by default) over
/// a window taken on a joined DataFrame's own column: `joined.groupBy(window(joined.clickTime,
/// ...))`. The `window` column inherits the column's DataFrame id and position, the rule then
/// looks for it in that DataFrame's output, does not find it there, and calls it ambiguous
/// (`_LEGACY_ERROR_TEMP_1182`, with the attribute as Spark prints it: `window#N-T<delay>ms`).
/// `window("clickTime", ...)` by name carries no id and runs.
fn ambiguous_window_of_joined_column(grouping: &[Expr], input: &Plan) -> R<()> {
    for g in grouping {
        let g = match g {
            Expr::Alias(inner, _) => inner.as_ref(),
            other => other,
        };
        let (time, name) = match g {
            Expr::TimeWindow { time, .. } => (time, "window"),
            Expr::SessionWindow { time, .. } => (time, "session_window"),
            _ => continue,
        };
        let Expr::Column(c) = time.as_ref() else { continue };
        if !c.starts_with(crate::plan::JOINED_DATASET_COLUMN) {
            continue;
        }
        let delay = find_column(c, &input.output).ok().and_then(|i| input.output[i].watermark_delay_ms);
        let attr = match delay {
            Some(delay) => format!("{name}#N-T{}ms", delay.ms()),
            None => format!("{name}#N"),
        };
        return Err(define_error(
            "_LEGACY_ERROR_TEMP_1182",
            format!(
                "Column {attr} are ambiguous. It's probably because you joined several Datasets together, and some of these Datasets are the same. This column points to one of the Datasets but Spark is unable to figure out which one. Please alias the Datasets with different names via `Dataset.as` before joining them, and specify the column using qualified name, e.g. `df.as(\"a\").join(df.as(\"b\"), $\"a.id\" > $\"b.id\")`. You can also set spark.sql.analyzer.failAmbiguousSelfJoin to false to disable this check."
            ),
        ));
    }
    Ok(())
}

/// Numbers the stateful operators root-first (pre-order), as `IncrementalExecution` does.
pub(crate) fn number_stateful_operators(plan: &mut Plan, next: &mut usize) {
    match &mut plan.node {
        Node::Aggregate { op_id, .. }
        | Node::Dedup { op_id, .. }
        | Node::Limit { op_id, .. }
        | Node::StreamJoin { op_id, .. }
        | Node::FlatMapGroupsWithState { op_id, .. }
        | Node::TransformWithState { op_id, .. } => {
            *op_id = *next;
            *next += 1;
        }
        _ => {}
    }
    match &mut plan.node {
        Node::Source { .. } | Node::Static { .. } => {}
        Node::Project { input, .. }
        | Node::Filter { input, .. }
        | Node::Watermark { input, .. }
        | Node::TimeWindow { input, .. }
        | Node::Aggregate { input, .. }
        | Node::Dedup { input, .. }
        | Node::Limit { input, .. }
        | Node::CollectLimit { input, .. }
        | Node::Window { input, .. }
        | Node::Sort { input, .. }
        | Node::Generate { input, .. }
        | Node::FlatMapGroupsWithState { input, .. }
        | Node::TransformWithState { input, .. } => number_stateful_operators(input, next),
        Node::StaticJoin { left, right, .. } | Node::StreamJoin { left, right, .. } => {
            number_stateful_operators(left, next);
            number_stateful_operators(right, next);
        }
        Node::Union { inputs } => inputs.iter_mut().for_each(|i| number_stateful_operators(i, next)),
    }
}
