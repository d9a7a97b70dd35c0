//! The Analyzer: resolves names and types of a [`LogicalPlan`] into an analyzed [`Plan`].
//!
//! Mirrors Catalyst's `Analyzer` rules that matter here: `ResolveReferences`, the
//! `TimeWindowing` rewrite (`window(...)` in a grouping or projection becomes a node that
//! appends a `window` column, `ResolveTimeWindows.scala`), and `EventTimeWatermark`'s
//! metadata propagation (`spark.watermarkDelayMs` on the event-time column only).
//! Errors here are raised when the DataFrame is defined, as in PySpark.

use std::collections::BTreeMap;

use super::join_helper::{equi_keys, stream_join_spec};
use super::plan::{Attr, BoundAgg, BoundExpr, JoinSpec, Node, Plan, SessionSpec, WindowKind, WindowSpec};
use crate::error::{AnalysisError, Error, Stage};
use crate::plan::{AggFunc, BinOp, Expr, JoinOn, JoinType, LogicalPlan};
use crate::types::{spark_type_name, timestamp_type, window_type, DataType, Value};

type R<T> = Result<T, Error>;

/// Resolves `plan`. Sources are numbered in order of first appearance.
///
/// # Errors
/// [`Error::Analysis`] at [`Stage::Define`] (unresolved columns, wrong types, invalid window
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

fn define_error(class: &str, msg: String) -> Error {
    Error::Analysis(AnalysisError::new(Stage::Define, class, msg))
}

fn unresolved(name: &str, input: &[Attr]) -> Error {
    let names: Vec<String> = input.iter().map(|a| format!("`{}`", a.name)).collect();
    Error::Analysis(
        AnalysisError::new(
            Stage::Define,
            "UNRESOLVED_COLUMN.WITH_SUGGESTION",
            format!(
                "A column, variable, or function parameter with name `{name}` cannot be resolved. Did you mean one of the following? [{}].",
                names.join(", ")
            ),
        )
        .with_sqlstate("42703")
        .with_hint(format!("the input columns here are {}", names.join(", "))),
    )
}

/// Finds a column by name (case-insensitive, as `spark.sql.caseSensitive=false`).
pub fn find_column(name: &str, input: &[Attr]) -> R<usize> {
    let matches: Vec<usize> = input
        .iter()
        .enumerate()
        .filter(|(_, a)| a.name.eq_ignore_ascii_case(name))
        .map(|(i, _)| i)
        .collect();
    match matches.as_slice() {
        [i] => Ok(*i),
        // `clicks.post_id`: the qualifier only matters inside a join condition.
        [] if name.contains('.') => find_column(name.rsplit('.').next().unwrap_or(name), input),
        [] => Err(unresolved(name, input)),
        _ => Err(define_error(
            "AMBIGUOUS_REFERENCE",
            format!("Reference `{name}` is ambiguous, could be: [{}].", matches.iter().map(|i| format!("`{}`", input[*i].name)).collect::<Vec<_>>().join(", ")),
        )),
    }
}

impl Resolver {
    fn plan(&mut self, plan: &LogicalPlan) -> R<Plan> {
        match plan {
            LogicalPlan::StreamingRelation { source, schema } => {
                let next = self.sources.len();
                let index = *self.sources.entry(source.clone()).or_insert(next);
                Ok(Plan {
                    node: Node::Source { name: source.clone(), index },
                    output: schema.iter().map(|(n, t)| Attr::new(n.clone(), t.clone())).collect(),
                    streaming: true,
                })
            }
            LogicalPlan::LocalRelation { name, schema, rows } => Ok(Plan {
                node: Node::Static { name: name.clone(), rows: rows.clone() },
                output: schema.iter().map(|(n, t)| Attr::new(n.clone(), t.clone())).collect(),
                streaming: false,
            }),
            LogicalPlan::Project { input, exprs } => {
                let input = self.plan(input)?;
                let mut items = Vec::new();
                for e in exprs {
                    match e {
                        Expr::Star => items.extend(input.output.iter().map(|a| Expr::Column(a.name.clone()))),
                        // `select('o.*')`: every field of the struct column `o`.
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
            LogicalPlan::Filter { input, predicate } => {
                let input = self.plan(input)?;
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
                self.aggregate(input, grouping, aggregates)
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
            LogicalPlan::Join { left, right, join_type, on } => {
                let l = self.plan(left)?;
                let r = self.plan(right)?;
                self.join(l, r, *join_type, on)
            }
            LogicalPlan::Union { inputs, by_name } => {
                let mut plans = Vec::new();
                for i in inputs {
                    plans.push(self.plan(i)?);
                }
                let first = plans[0].output.clone();
                for p in plans.iter_mut().skip(1) {
                    if p.output.len() != first.len() {
                        return Err(define_error(
                            "NUM_COLUMNS_MISMATCH",
                            format!(
                                "UNION can only be performed on inputs with the same number of columns, but the first input has {} columns and the second input has {} columns.",
                                first.len(),
                                p.output.len()
                            ),
                        ));
                    }
                    if *by_name {
                        let items: Vec<Expr> = first.iter().map(|a| Expr::Column(a.name.clone())).collect();
                        let taken = std::mem::replace(p, Plan { node: Node::Union { inputs: vec![] }, output: vec![], streaming: false });
                        *p = self.project(taken, &items)?;
                    }
                }
                let output = first
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let delay = plans.iter().find_map(|p| p.output[i].watermark_delay_ms);
                        Attr { watermark_delay_ms: delay, ..a.clone() }
                    })
                    .collect();
                let streaming = plans.iter().any(|p| p.streaming);
                Ok(Plan { node: Node::Union { inputs: plans }, output, streaming })
            }
            LogicalPlan::Sort { input, order } => {
                let input = self.plan(input)?;
                let order = order.iter().map(|(e, asc)| Ok((bind(e, &input.output)?.0, *asc))).collect::<R<Vec<_>>>()?;
                let output = input.output.clone();
                let streaming = input.streaming;
                Ok(Plan { node: Node::Sort { input: Box::new(input), order }, output, streaming })
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
        // `window(w, ...)` over a window column uses `window_time(w)` (§3.4).
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

    fn project(&mut self, input: Plan, items: &[Expr]) -> R<Plan> {
        let (input, items) = self.extract_window(input, items)?;
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
        Ok(Plan { node: Node::Project { input: Box::new(input), exprs }, output, streaming })
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
            session_attr = Some(Attr { name, data_type: window_type(), watermark_delay_ms: time_a.watermark_delay_ms, window: Some(WindowKind::Session) });
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
        let mut aggs = Vec::new();
        for e in aggregates {
            let (inner, alias) = match e {
                Expr::Alias(inner, n) => (inner.as_ref(), Some(n.clone())),
                other => (other, None),
            };
            let Expr::Agg { func, arg, distinct } = inner else {
                return Err(define_error(
                    "MISSING_AGGREGATION",
                    format!("The non-aggregating expression \"{inner}\" is based on columns which are not participating in the GROUP BY clause."),
                ));
            };
            let (arg_b, input_type) = match arg.as_ref() {
                Expr::Star => (None, DataType::Null),
                a => {
                    let (b, at) = bind(a, &input.output)?;
                    (Some(b), at.data_type)
                }
            };
            let result_type = match func {
                AggFunc::Count | AggFunc::ApproxCountDistinct => DataType::Int64,
                AggFunc::Avg => DataType::Float64,
                AggFunc::Sum => match input_type {
                    DataType::Float64 => DataType::Float64,
                    DataType::Int32 | DataType::Int64 => DataType::Int64,
                    ref other => {
                        return Err(define_error(
                            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                            format!("Cannot resolve \"{inner}\" due to data type mismatch: The first parameter requires the \"NUMERIC\" type, however it has the type \"{}\".", spark_type_name(other).to_uppercase()),
                        ))
                    }
                },
                AggFunc::Min | AggFunc::Max => input_type.clone(),
            };
            let name = alias.unwrap_or_else(|| inner.output_name());
            output.push(Attr::new(name, result_type));
            aggs.push(BoundAgg { func: *func, arg: arg_b, input_type, distinct: *distinct });
        }
        // The grouping column that carries the watermark tag decides lateness and eviction.
        let group_width = keys.len() + usize::from(session.is_some());
        let event_time_key = output.iter().take(group_width).position(Attr::is_event_time);
        let streaming = input.streaming;
        Ok(Plan { node: Node::Aggregate { input: Box::new(input), keys, aggs, event_time_key, session, op_id: 0 }, output, streaming })
    }

    fn join(&mut self, l: Plan, r: Plan, join_type: JoinType, on: &JoinOn) -> R<Plan> {
        let lw = l.output.len();
        let mut all = l.output.clone();
        all.extend(r.output.iter().cloned());
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
                let e = e.transform(&|x| match x {
                    Expr::Column(n) if n.contains('.') && !n.starts_with('\u{0}') => {
                        let (q, c) = n.rsplit_once('.')?;
                        let idx = if lrel.iter().any(|x| x == q) {
                            find_column(c, &l.output).ok()?
                        } else if rrel.iter().any(|x| x == q) {
                            lw + find_column(c, &r.output).ok()?
                        } else {
                            return None;
                        };
                        Some(Expr::Column(format!("\u{0}col{idx}")))
                    }
                    _ => None,
                });
                let (b, _) = bind(&e, &all)?;
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
            let spec = stream_join_spec(&l.output, &r.output, &keys, condition.as_ref());
            return Ok(Plan {
                node: Node::StreamJoin {
                    left: Box::new(l),
                    right: Box::new(r),
                    join: JoinSpec { join_type, keys, condition, output: output_idx, right_width },
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
                join: JoinSpec { join_type, keys, condition, output: output_idx, right_width },
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

/// `TimeWindow.checkInputDataTypes` on the durations in µs (spec §3.1), then Streamlab's
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

/// Binds an expression to `input`, returning it with its output column (name, type, metadata).
///
/// # Errors
/// Unresolved columns, and window/session expressions outside a projection or grouping.
pub fn bind(e: &Expr, input: &[Attr]) -> R<(BoundExpr, Attr)> {
    Ok(match e {
        Expr::Column(n) if n.contains('.') && !n.starts_with('\u{0}') && !input.iter().any(|a| a.name.eq_ignore_ascii_case(n)) && struct_field(n, input).is_some() => {
            let (idx, fi, f) = struct_field(n, input).expect("checked");
            (BoundExpr::Field(Box::new(BoundExpr::Col(idx)), fi), Attr::new(f.name().clone(), f.data_type().clone()))
        }
        Expr::Column(n) => {
            let idx = if let Some(i) = n.strip_prefix("\u{0}col") {
                i.parse::<usize>().map_err(|_| unresolved(n, input))?
            } else {
                find_column(n, input)?
            };
            (BoundExpr::Col(idx), input[idx].clone())
        }
        Expr::Star => return Err(define_error("INVALID_USAGE_OF_STAR_OR_REGEX", "Invalid usage of '*' in expression.".into())),
        Expr::Literal(v) => {
            let t = match v {
                Value::Null => DataType::Null,
                Value::Bool(_) => DataType::Boolean,
                Value::Int(_) => DataType::Int32,
                Value::Long(_) => DataType::Int64,
                Value::Double(_) => DataType::Float64,
                Value::Str(_) => DataType::Utf8,
                Value::Timestamp(_) => timestamp_type(),
                Value::Struct(_) => window_type(),
                Value::Binary(_) => DataType::Binary,
            };
            (BoundExpr::Lit(v.clone()), Attr::new(e.to_string(), t))
        }
        Expr::Interval(i) => (BoundExpr::Interval(*i), Attr::new(e.to_string(), DataType::Interval(arrow_schema::IntervalUnit::MonthDayNano))),
        Expr::Alias(inner, name) => {
            let (b, a) = bind(inner, input)?;
            // An alias of a column keeps its metadata (it is the same attribute to Spark).
            (b, Attr { name: name.clone(), ..a })
        }
        Expr::Binary(op, l, r) => {
            let (lb, la) = bind(l, input)?;
            let (rb, ra) = bind(r, input)?;
            let t = if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) {
                DataType::Boolean
            } else {
                arithmetic_type(*op, &la.data_type, &ra.data_type)
            };
            (BoundExpr::Binary(*op, Box::new(lb), Box::new(rb)), Attr::new(e.to_string(), t))
        }
        Expr::Not(inner) => (BoundExpr::Not(Box::new(bind(inner, input)?.0)), Attr::new(e.to_string(), DataType::Boolean)),
        Expr::Negate(inner) => {
            let (b, a) = bind(inner, input)?;
            (BoundExpr::Negate(Box::new(b)), Attr::new(e.to_string(), a.data_type))
        }
        Expr::IsNull(inner, neg) => {
            (BoundExpr::IsNull(Box::new(bind(inner, input)?.0), *neg), Attr::new(e.to_string(), DataType::Boolean))
        }
        Expr::Case { branches, otherwise } => {
            let mut bb = Vec::new();
            let mut t = DataType::Null;
            for (c, v) in branches {
                let (cb, _) = bind(c, input)?;
                let (vb, va) = bind(v, input)?;
                if t == DataType::Null {
                    t = va.data_type.clone();
                }
                bb.push((cb, vb));
            }
            let ob = match otherwise {
                Some(o) => {
                    let (b, a) = bind(o, input)?;
                    if t == DataType::Null {
                        t = a.data_type;
                    }
                    Some(Box::new(b))
                }
                None => None,
            };
            (BoundExpr::Case { branches: bb, otherwise: ob }, Attr::new(e.to_string(), t))
        }
        Expr::Cast(inner, t) => (BoundExpr::Cast(Box::new(bind(inner, input)?.0), t.clone()), Attr::new(e.to_string(), t.clone())),
        Expr::Function(name, _) if crate::plan::WINDOW_ONLY_FUNCTIONS.contains(&name.as_str()) => {
            return Err(define_error("WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE", format!("Window function \"{name}\" requires an OVER clause.")));
        }
        Expr::Function(name, args) => {
            let mut bargs = Vec::new();
            let mut types = Vec::new();
            for a in args {
                let (b, at) = bind(a, input)?;
                bargs.push(b);
                types.push(at.data_type);
            }
            let t = match name.as_str() {
                "upper" | "lower" | "concat" => DataType::Utf8,
                "length" => DataType::Int32,
                "ceil" | "floor" => DataType::Int64,
                "contains" | "startswith" | "endswith" | "like" | "rlike" => DataType::Boolean,
                "get_field" => timestamp_type(),
                "__desc" | "__asc" => return Err(define_error("UNSUPPORTED_EXPR", "asc()/desc() only make sense inside orderBy()".into())),
                _ => types.first().cloned().unwrap_or(DataType::Null),
            };
            if name == "from_json" {
                let Some(BoundExpr::Lit(Value::Str(ddl))) = bargs.get(1) else {
                    return Err(define_error("INVALID_SCHEMA.NON_STRING_LITERAL", "from_json needs the schema as a string such as 'order_id STRING, amount DOUBLE'.".into()));
                };
                if types.first() == Some(&DataType::Binary) {
                    return Err(Error::Analysis(
                        AnalysisError::new(
                            Stage::Define,
                            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                            format!("Cannot resolve \"{e}\" due to data type mismatch: The first parameter requires the \"STRING\" type, however \"{}\" has the type \"BINARY\".", args[0]),
                        )
                        .with_sqlstate("42K09")
                        .with_hint("Kafka's value is bytes: write F.from_json(F.col('value').cast('string'), ...) or CAST(value AS STRING)"),
                    ));
                }
                let fields = parse_ddl(ddl)?;
                let dt = DataType::Struct(fields.iter().map(|(n, t)| arrow_schema::Field::new(n, t.clone(), true)).collect());
                let arg = bargs.into_iter().next().expect("two args");
                return Ok((BoundExpr::FromJson(Box::new(arg), fields), Attr::new(e.to_string(), dt)));
            }
            if name == "get_field" {
                let field = match bargs.get(1) {
                    Some(BoundExpr::Lit(Value::Str(s))) if &**s == "start" => 0,
                    Some(BoundExpr::Lit(Value::Str(s))) if &**s == "end" => 1,
                    _ => return Err(define_error("FIELD_NOT_FOUND", "Only window['start'] and window['end'] are supported.".into())),
                };
                let inner = bargs.into_iter().next().expect("two args");
                return Ok((BoundExpr::Field(Box::new(inner), field), Attr::new(e.to_string(), t)));
            }
            (BoundExpr::Function(name.clone(), bargs), Attr::new(e.to_string(), t))
        }
        Expr::WindowTime(inner) => {
            let (b, a) = bind(inner, input)?;
            if a.window.is_none() {
                return Err(define_error("_LEGACY_ERROR_TEMP_3101", format!("The input is not a correct window column: {e}")));
            }
            (
                BoundExpr::WindowTime(Box::new(b)),
                Attr { name: e.output_name(), data_type: timestamp_type(), watermark_delay_ms: a.watermark_delay_ms, window: None },
            )
        }
        Expr::TimeWindow { .. } | Expr::SessionWindow { .. } => {
            return Err(Error::Unsupported("a window(...) outside select() or groupBy()".into()))
        }
        Expr::Agg { .. } => return Err(Error::Unsupported("an aggregate function outside groupBy().agg()".into())),
        Expr::Over(_) => return Err(Error::Unsupported("a window function (OVER ...) outside select() or withColumn()".into())),
    })
}

/// `o.amount` where `o` is a struct column: (column index, field index, field).
fn struct_field<'a>(name: &str, input: &'a [Attr]) -> Option<(usize, usize, &'a arrow_schema::Field)> {
    let (prefix, field) = name.rsplit_once('.')?;
    let prefix = prefix.rsplit('.').next().unwrap_or(prefix);
    let idx = input.iter().position(|a| a.name.eq_ignore_ascii_case(prefix))?;
    let DataType::Struct(fields) = &input[idx].data_type else { return None };
    let fi = fields.iter().position(|f| f.name().eq_ignore_ascii_case(field))?;
    Some((idx, fi, fields[fi].as_ref()))
}

/// A DDL schema string: `'order_id STRING, amount DOUBLE, order_time TIMESTAMP'`.
fn parse_ddl(ddl: &str) -> R<Vec<(String, DataType)>> {
    ddl.split(',')
        .map(|part| {
            let mut it = part.split_whitespace();
            match (it.next(), it.next(), it.next()) {
                (Some(name), Some(ty), None) => Ok((name.trim_matches('`').to_string(), crate::types::parse_type_name(ty).map_err(|m| define_error("PARSE_SYNTAX_ERROR", format!("in the schema '{ddl}': {m}")))?)),
                _ => Err(define_error("PARSE_SYNTAX_ERROR", format!("Syntax error in the schema '{ddl}': write 'name TYPE, name TYPE'."))),
            }
        })
        .collect()
}

fn arithmetic_type(op: BinOp, l: &DataType, r: &DataType) -> DataType {
    use DataType::*;
    match (l, r) {
        (Timestamp(..), Interval(_)) | (Interval(_), Timestamp(..)) => timestamp_type(),
        _ if op == BinOp::Div => Float64,
        (Float64, _) | (_, Float64) => Float64,
        (Int64, _) | (_, Int64) => Int64,
        (Int32, Int32) => Int32,
        (Utf8, _) | (_, Utf8) => Float64,
        _ => l.clone(),
    }
}

/// Numbers the stateful operators root-first (pre-order), as `IncrementalExecution` does.
pub(crate) fn number_stateful_operators(plan: &mut Plan, next: &mut usize) {
    match &mut plan.node {
        Node::Aggregate { op_id, .. } | Node::Dedup { op_id, .. } | Node::Limit { op_id, .. } | Node::StreamJoin { op_id, .. } => {
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
        | Node::Sort { input, .. } => number_stateful_operators(input, next),
        Node::StaticJoin { left, right, .. } | Node::StreamJoin { left, right, .. } => {
            number_stateful_operators(left, next);
            number_stateful_operators(right, next);
        }
        Node::Union { inputs } => inputs.iter_mut().for_each(|i| number_stateful_operators(i, next)),
    }
}
