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
    /// `inner`: matching pairs only.
    Inner,
    /// `left` / `left_outer`: every left row, NULL-padded when nothing matches.
    LeftOuter,
    /// `right` / `right_outer`: every right row, NULL-padded when nothing matches.
    RightOuter,
    /// `full` / `outer` / `full_outer`: both sides, NULL-padded.
    FullOuter,
    /// `semi` / `left_semi`: left rows that have a match, left columns only.
    LeftSemi,
    /// `anti` / `left_anti`: left rows that have no match, left columns only.
    LeftAnti,
    /// `cross`: every pair (a condition, if any, filters them).
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
    /// `on='post_id'` / `on=['a', 'b']`: equal columns of these names, each kept once in
    /// the output (`USING`).
    Using(Vec<String>),
    /// `on=<boolean Column>` or SQL `ON ...`: both sides' columns are kept.
    Condition(Expr),
    /// No condition (`join(other)` with no `on`, SQL `FROM a, b` or a `JOIN` without `ON`).
    None,
}

/// A logical plan node. Children are `Rc` so the frontend can share sub-plans cheaply.
#[derive(Debug, Clone, PartialEq)]
pub enum LogicalPlan {
    /// A streaming source by name (`clicks`), with its schema.
    StreamingRelation {
        /// The source's name.
        source: String,
        /// Its columns, as (name, type) pairs.
        schema: Vec<(String, DataType)>,
    },
    /// A static (batch) table by name, with its rows.
    LocalRelation {
        /// The table's name.
        name: String,
        /// Its columns, as (name, type) pairs.
        schema: Vec<(String, DataType)>,
        /// Every row of the table.
        rows: Rc<Vec<Row>>,
    },
    /// `select(...)` / `selectExpr(...)` / SQL `SELECT` (`Project`).
    Project {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The output columns, aliased or not.
        exprs: Vec<Expr>,
    },
    /// `withColumn(name, expr)`: all input columns, `name` replaced or appended.
    WithColumn {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The column to replace (case-insensitive match) or append.
        name: String,
        /// Its new value.
        expr: Expr,
    },
    /// `withColumnRenamed(old, new)`.
    RenameColumn {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The current name.
        old: String,
        /// The new name.
        new: String,
    },
    /// `drop(cols...)`.
    DropColumns {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The columns to drop.
        names: Vec<String>,
    },
    /// `filter(...)` / `where(...)` / SQL `WHERE` (`Filter`).
    Filter {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The boolean condition rows must meet.
        predicate: Expr,
    },
    /// `withWatermark(column, delay)`; `delay_ms` per `EventTimeWatermark.getDelayMs`.
    EventTimeWatermark {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The event-time column's name.
        column: String,
        /// The delay threshold, ms.
        delay_ms: DelayMs,
    },
    /// `groupBy(...).agg(...)` / SQL `GROUP BY` (`Aggregate`).
    Aggregate {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The grouping expressions (columns, `window(...)`, `session_window(...)`).
        grouping: Vec<Expr>,
        /// The output columns: aggregate calls, or expressions over them and the grouping.
        aggregates: Vec<Expr>,
    },
    /// SQL's `SELECT DISTINCT` and `UNION` (Spark's `Distinct`): the input's rows without
    /// repeats. Spark runs it as an aggregation grouping by every column
    /// (`ReplaceDistinctWithAggregate`) and the streaming checker treats it as one, except
    /// where its rules name `Aggregate` alone (sorting in complete mode). Not
    /// `DataFrame.distinct()`, which is `Deduplicate`.
    Distinct {
        /// The child plan.
        input: Rc<LogicalPlan>,
    },
    /// `dropDuplicates(keys)`; `None` = all columns (`distinct()`).
    Deduplicate {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The column names that make rows duplicates; `None` for every column.
        keys: Option<Vec<String>>,
    },
    /// `dropDuplicatesWithinWatermark(keys)`: a key's duplicates are dropped until the
    /// watermark passes its first row's event time plus the delay.
    DeduplicateWithinWatermark {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The column names that make rows duplicates; `None` for every column.
        keys: Option<Vec<String>>,
    },
    /// `join(other, on, how)` / SQL `JOIN` (`Join`).
    Join {
        /// The left input (the DataFrame `join` is called on).
        left: Rc<LogicalPlan>,
        /// The right input (`other`).
        right: Rc<LogicalPlan>,
        /// The `how` argument.
        join_type: JoinType,
        /// The `on` argument.
        on: JoinOn,
    },
    /// `union` / `unionByName` (`by_name`), with `allowMissingColumns` (a column one side
    /// lacks becomes NULL there).
    Union {
        /// The inputs, in order.
        inputs: Vec<Rc<LogicalPlan>>,
        /// True for `unionByName`: columns matched by name, not position.
        by_name: bool,
        /// `unionByName(..., allowMissingColumns=True)`.
        allow_missing_columns: bool,
    },
    /// `orderBy`: (expression, ascending).
    Sort {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// (expression, ascending) pairs, the first deciding first.
        order: Vec<(Expr, bool)>,
    },
    /// `limit(n)` / SQL `LIMIT` (`GlobalLimit`).
    Limit {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The row count.
        n: usize,
    },
    /// `df.alias('c')`: its columns can be named `c.col` (`SubqueryAlias`).
    SubqueryAlias {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The alias (`c`).
        alias: String,
    },
    /// `groupBy(grouping).applyInPandasWithState(func, outputStructType, stateStructType,
    /// outputMode, timeoutConf)` (Spark's `FlatMapGroupsInPandasWithState`): `output` and
    /// `state` are the two DDL schemas, `mode` the operator's own output mode (append or
    /// update).
    FlatMapGroupsInPandasWithState {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The `groupBy` expressions.
        grouping: Vec<Expr>,
        /// The Python function (`func`).
        udf: Rc<crate::pyfunc::PythonUdf>,
        /// `outputStructType`, as (name, type) pairs.
        output: Vec<(String, DataType)>,
        /// `stateStructType`, as (name, type) pairs.
        state: Vec<(String, DataType)>,
        /// `outputMode` (append or update).
        mode: super::OutputMode,
        /// `timeoutConf` (`GroupStateTimeout`).
        timeout: crate::pyfunc::GroupStateTimeout,
    },
    /// `groupBy(grouping).transformWithStateInPandas(statefulProcessor, outputStructType,
    /// outputMode, timeMode)` and the row-based `transformWithState` (Spark's
    /// `TransformWithStateInPySpark`): the processor instance, the output DDL schema, the
    /// operator's output mode (append or update) and time mode.
    TransformWithState {
        /// The child plan.
        input: Rc<LogicalPlan>,
        /// The `groupBy` expressions.
        grouping: Vec<Expr>,
        /// The `statefulProcessor` instance.
        processor: Rc<crate::pyfunc::PythonProcessor>,
        /// `outputStructType`, as (name, type) pairs.
        output: Vec<(String, DataType)>,
        /// `outputMode` (append or update).
        mode: super::OutputMode,
        /// `timeMode` (`None`, `ProcessingTime` or `EventTime`).
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
