//! `LogicalPlan`: the query as the frontend builds it, before analysis.
//!
//! Mirrors Catalyst's logical operators (`StreamingRelation`, `Project`, `Filter`,
//! `EventTimeWatermark`, `Aggregate`, `Deduplicate`, `DeduplicateWithinWatermark`, `Join`,
//! `Union`, `Sort`, `GlobalLimit`). `Display` prints an indented tree like Spark's
//! `explain(extended=True)` "Parsed Logical Plan".

use std::fmt;
use std::rc::Rc;

use super::expr::Expr;
use crate::types::{DataType, DelayMs, Row};

/// Join types of `DataFrame.join(other, on, how)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinType {
    Inner,
    LeftOuter,
    RightOuter,
    FullOuter,
    LeftSemi,
    LeftAnti,
    Cross,
}

impl JoinType {
    /// Parses PySpark's `how` strings (`inner`, `left`, `left_outer`, `leftOuter`, `full`,
    /// `outer`, `right`, `semi`, `left_semi`, `anti`, `left_anti`, `cross`).
    pub fn parse(how: &str) -> Option<JoinType> {
        let k = how.to_ascii_lowercase().replace('_', "");
        Some(match k.as_str() {
            "inner" => JoinType::Inner,
            "left" | "leftouter" => JoinType::LeftOuter,
            "right" | "rightouter" => JoinType::RightOuter,
            "full" | "outer" | "fullouter" => JoinType::FullOuter,
            "semi" | "leftsemi" => JoinType::LeftSemi,
            "anti" | "leftanti" => JoinType::LeftAnti,
            "cross" => JoinType::Cross,
            _ => return None,
        })
    }

    /// Spark's spelling in messages: `Inner`, `LeftOuter`, `RightOuter`, `FullOuter`, ...
    pub fn spark_name(self) -> &'static str {
        match self {
            JoinType::Inner => "Inner",
            JoinType::LeftOuter => "LeftOuter",
            JoinType::RightOuter => "RightOuter",
            JoinType::FullOuter => "FullOuter",
            JoinType::LeftSemi => "LeftSemi",
            JoinType::LeftAnti => "LeftAnti",
            JoinType::Cross => "Cross",
        }
    }
}

/// The join condition: `on='post_id'` / `['a','b']` (using columns) or a boolean expression.
#[derive(Debug, Clone, PartialEq)]
pub enum JoinOn {
    Using(Vec<String>),
    Condition(Expr),
    None,
}

/// A logical plan node. Children are `Rc` so the frontend can share sub-plans cheaply.
#[derive(Debug, Clone, PartialEq)]
pub enum LogicalPlan {
    /// A streaming source by name (`clicks`), with its schema.
    StreamingRelation { source: String, schema: Vec<(String, DataType)> },
    /// A static (batch) table by name, with its rows.
    LocalRelation { name: String, schema: Vec<(String, DataType)>, rows: Rc<Vec<Row>> },
    Project { input: Rc<LogicalPlan>, exprs: Vec<Expr> },
    /// `withColumn(name, expr)`: all input columns, `name` replaced or appended.
    WithColumn { input: Rc<LogicalPlan>, name: String, expr: Expr },
    /// `withColumnRenamed(old, new)`.
    RenameColumn { input: Rc<LogicalPlan>, old: String, new: String },
    /// `drop(cols...)`.
    DropColumns { input: Rc<LogicalPlan>, names: Vec<String> },
    Filter { input: Rc<LogicalPlan>, predicate: Expr },
    /// `withWatermark(column, delay)`; `delay_ms` per `EventTimeWatermark.getDelayMs`.
    EventTimeWatermark { input: Rc<LogicalPlan>, column: String, delay_ms: DelayMs },
    Aggregate { input: Rc<LogicalPlan>, grouping: Vec<Expr>, aggregates: Vec<Expr> },
    /// SQL's `SELECT DISTINCT` and `UNION` (Spark's `Distinct`): the input's rows without
    /// repeats. Spark runs it as an aggregation grouping by every column
    /// (`ReplaceDistinctWithAggregate`) and the streaming checker treats it as one, except
    /// where its rules name `Aggregate` alone (sorting in complete mode). Not
    /// `DataFrame.distinct()`, which is `Deduplicate`.
    Distinct { input: Rc<LogicalPlan> },
    /// `dropDuplicates(keys)`; `None` = all columns (`distinct()`).
    Deduplicate { input: Rc<LogicalPlan>, keys: Option<Vec<String>> },
    DeduplicateWithinWatermark { input: Rc<LogicalPlan>, keys: Option<Vec<String>> },
    Join { left: Rc<LogicalPlan>, right: Rc<LogicalPlan>, join_type: JoinType, on: JoinOn },
    /// `union` / `unionByName` (`by_name`), with `allowMissingColumns` (a column one side
    /// lacks becomes NULL there).
    Union { inputs: Vec<Rc<LogicalPlan>>, by_name: bool, allow_missing_columns: bool },
    /// `orderBy`: (expression, ascending).
    Sort { input: Rc<LogicalPlan>, order: Vec<(Expr, bool)> },
    Limit { input: Rc<LogicalPlan>, n: usize },
    /// `df.alias('c')`: its columns can be named `c.col` (`SubqueryAlias`).
    SubqueryAlias { input: Rc<LogicalPlan>, alias: String },
    /// `groupBy(grouping).applyInPandasWithState(func, outputStructType, stateStructType,
    /// outputMode, timeoutConf)` (Spark's `FlatMapGroupsInPandasWithState`): `output` and
    /// `state` are the two DDL schemas, `mode` the operator's own output mode (append or
    /// update).
    FlatMapGroupsInPandasWithState {
        input: Rc<LogicalPlan>,
        grouping: Vec<Expr>,
        udf: Rc<crate::pyfunc::PythonUdf>,
        output: Vec<(String, DataType)>,
        state: Vec<(String, DataType)>,
        mode: super::OutputMode,
        timeout: crate::pyfunc::GroupStateTimeout,
    },
    /// `groupBy(grouping).transformWithStateInPandas(statefulProcessor, outputStructType,
    /// outputMode, timeMode)` and the row-based `transformWithState` (Spark's
    /// `TransformWithStateInPySpark`): the processor instance, the output DDL schema, the
    /// operator's output mode (append or update) and time mode.
    TransformWithState {
        input: Rc<LogicalPlan>,
        grouping: Vec<Expr>,
        processor: Rc<crate::pyfunc::PythonProcessor>,
        output: Vec<(String, DataType)>,
        mode: super::OutputMode,
        time_mode: crate::pyfunc::TimeMode,
    },
}

impl LogicalPlan {
    /// The node's children, left to right.
    pub fn children(&self) -> Vec<&Rc<LogicalPlan>> {
        match self {
            LogicalPlan::StreamingRelation { .. } | LogicalPlan::LocalRelation { .. } => vec![],
            LogicalPlan::Project { input, .. }
            | LogicalPlan::WithColumn { input, .. }
            | LogicalPlan::RenameColumn { input, .. }
            | LogicalPlan::DropColumns { input, .. }
            | LogicalPlan::Filter { input, .. }
            | LogicalPlan::EventTimeWatermark { input, .. }
            | LogicalPlan::Aggregate { input, .. }
            | LogicalPlan::Distinct { input }
            | LogicalPlan::Deduplicate { input, .. }
            | LogicalPlan::DeduplicateWithinWatermark { input, .. }
            | LogicalPlan::Sort { input, .. }
            | LogicalPlan::Limit { input, .. }
            | LogicalPlan::SubqueryAlias { input, .. }
            | LogicalPlan::FlatMapGroupsInPandasWithState { input, .. }
            | LogicalPlan::TransformWithState { input, .. } => vec![input],
            LogicalPlan::Join { left, right, .. } => vec![left, right],
            LogicalPlan::Union { inputs, .. } => inputs.iter().collect(),
        }
    }

    /// True if any leaf is a streaming source (Spark's `isStreaming`).
    pub fn is_streaming(&self) -> bool {
        matches!(self, LogicalPlan::StreamingRelation { .. }) || self.children().iter().any(|c| c.is_streaming())
    }

    /// One line for this node, without children.
    pub fn node_line(&self) -> String {
        let list = |v: &[Expr]| v.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", ");
        match self {
            LogicalPlan::StreamingRelation { source, schema } => {
                let cols: Vec<&str> = schema.iter().map(|(n, _)| n.as_str()).collect();
                format!("StreamingRelation {source}, [{}]", cols.join(", "))
            }
            LogicalPlan::LocalRelation { name, schema, rows } => {
                let cols: Vec<&str> = schema.iter().map(|(n, _)| n.as_str()).collect();
                format!("LocalRelation {name}, [{}], {} rows", cols.join(", "), rows.len())
            }
            LogicalPlan::Project { exprs, .. } => format!("Project [{}]", list(exprs)),
            LogicalPlan::WithColumn { name, expr, .. } => format!("WithColumn {name} = {expr}"),
            LogicalPlan::RenameColumn { old, new, .. } => format!("RenameColumn {old} -> {new}"),
            LogicalPlan::DropColumns { names, .. } => format!("DropColumns [{}]", names.join(", ")),
            LogicalPlan::Filter { predicate, .. } => format!("Filter {predicate}"),
            LogicalPlan::EventTimeWatermark { column, delay_ms, .. } => {
                format!("EventTimeWatermark {column}, {delay_ms}")
            }
            LogicalPlan::Aggregate { grouping, aggregates, .. } => {
                format!("Aggregate [{}], [{}]", list(grouping), list(aggregates))
            }
            LogicalPlan::Distinct { .. } => "Distinct".into(),
            LogicalPlan::FlatMapGroupsInPandasWithState { grouping, udf, output, state, mode, timeout, .. } => {
                let schema = |s: &[(String, DataType)]| s.iter().map(|(n, t)| format!("{n}: {}", crate::types::spark_type_name(t))).collect::<Vec<_>>().join(", ");
                format!(
                    "FlatMapGroupsInPandasWithState {}, [{}], [{}], [{}], {}, {}",
                    udf.name,
                    list(grouping),
                    schema(output),
                    schema(state),
                    mode.as_str(),
                    timeout.name()
                )
            }
            LogicalPlan::TransformWithState { grouping, processor, output, mode, time_mode, .. } => {
                let schema = output.iter().map(|(n, t)| format!("{n}: {}", crate::types::spark_type_name(t))).collect::<Vec<_>>().join(", ");
                format!("TransformWithStateInPySpark {}, [{}], [{schema}], {}, {}", processor.ctor, list(grouping), mode.as_str(), time_mode.name())
            }
            LogicalPlan::Deduplicate { keys, .. } => match keys {
                Some(k) => format!("Deduplicate [{}]", k.join(", ")),
                None => "Deduplicate [*]".into(),
            },
            LogicalPlan::DeduplicateWithinWatermark { keys, .. } => match keys {
                Some(k) => format!("DeduplicateWithinWatermark [{}]", k.join(", ")),
                None => "DeduplicateWithinWatermark [*]".into(),
            },
            LogicalPlan::Join { join_type, on, .. } => match on {
                JoinOn::Using(cols) => format!("Join {}, using [{}]", join_type.spark_name(), cols.join(", ")),
                JoinOn::Condition(e) => format!("Join {}, {e}", join_type.spark_name()),
                JoinOn::None => format!("Join {}", join_type.spark_name()),
            },
            LogicalPlan::Union { by_name, allow_missing_columns, .. } => {
                if *allow_missing_columns {
                    "Union byName, allowMissingColumns".into()
                } else if *by_name {
                    "Union byName".into()
                } else {
                    "Union".into()
                }
            }
            LogicalPlan::Sort { order, .. } => {
                let o: Vec<String> = order
                    .iter()
                    .map(|(e, asc)| format!("{e} {}", if *asc { "ASC NULLS FIRST" } else { "DESC NULLS LAST" }))
                    .collect();
                format!("Sort [{}]", o.join(", "))
            }
            LogicalPlan::Limit { n, .. } => format!("GlobalLimit {n}"),
            LogicalPlan::SubqueryAlias { alias, .. } => format!("SubqueryAlias {alias}"),
        }
    }
}

impl fmt::Display for LogicalPlan {
    /// An indented tree in Spark's `explain` style (`+-` for the last child, `:-` otherwise).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::tree::write_tree(f, self, &LogicalPlan::node_line, &|p| p.children().into_iter().map(|c| c.as_ref()).collect())
    }
}
