//! The analyzed plan: every name resolved to a column index, every expression typed, every
//! column tagged with Spark's event-time metadata (`spark.watermarkDelayMs`).
//!
//! This is what `execution` runs. Stateful nodes carry an operator id assigned root-first
//! (pre-order), as Spark's `IncrementalExecution` does, so `stateOperators[i]` in progress
//! lists the most downstream operator first.

use std::fmt;
use std::rc::Rc;

use crate::plan::{AggFunc, BinOp, JoinType, OutputMode};
use crate::types::{spark_type_name, CalendarInterval, DataType, DelayMs, Row, Value};

/// Which window struct a column is, if any (`spark.timeWindow` / `spark.sessionWindow`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowKind {
    Time,
    Session,
}

/// A resolved column: name, type and the metadata Spark keeps on attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    pub name: String,
    pub data_type: DataType,
    /// `spark.watermarkDelayMs`: set on the event-time column (and on windows over it).
    pub watermark_delay_ms: Option<DelayMs>,
    pub window: Option<WindowKind>,
    /// The names the column can be qualified by (`clicks.post_id`, `c.post_id` after
    /// `alias('c')`): its relation and the aliases above it. Empty for computed columns.
    pub qualifiers: Vec<String>,
    /// The qualifier Spark's attribute carries: the innermost `SubqueryAlias` above it (a SQL
    /// view or alias, `df.alias('c')`); `None` for a DataFrame's own columns. Spark's messages
    /// write a column with it (`` `c`.`post_id` ``).
    pub sql_qualifier: Option<String>,
}

impl Attr {
    /// A plain column without metadata.
    pub fn new(name: impl Into<String>, data_type: DataType) -> Attr {
        Attr { name: name.into(), data_type, watermark_delay_ms: None, window: None, qualifiers: Vec::new(), sql_qualifier: None }
    }

    /// True if this column carries the watermark tag.
    pub fn is_event_time(&self) -> bool {
        self.watermark_delay_ms.is_some()
    }
}

/// A typed expression over the input row (column indices).
#[derive(Debug, Clone, PartialEq)]
pub enum BoundExpr {
    Col(usize),
    Lit(Value),
    Interval(CalendarInterval),
    Binary(BinOp, Box<BoundExpr>, Box<BoundExpr>),
    Not(Box<BoundExpr>),
    Negate(Box<BoundExpr>),
    IsNull(Box<BoundExpr>, bool),
    Case { branches: Vec<(BoundExpr, BoundExpr)>, otherwise: Option<Box<BoundExpr>> },
    Cast(Box<BoundExpr>, DataType),
    Function(String, Vec<BoundExpr>),
    /// `window_time(w)` = `w.end - 1 µs`.
    WindowTime(Box<BoundExpr>),
    /// A field of a struct by position (`window.start` = 0, `window.end` = 1).
    Field(Box<BoundExpr>, usize),
    /// `from_json(text, schema)`: a value of the schema's type (a struct of fields, an array
    /// or a map).
    FromJson(Box<BoundExpr>, DataType),
    /// `to_json(x)`: JSON text of a struct, map or array of type `DataType` (field names
    /// come from the type).
    ToJson(Box<BoundExpr>, DataType),
    /// A lambda function argument of a higher-order function (`x -> x + 1`): its parameter
    /// names and body (`LambdaFunction`).
    Lambda(Vec<std::rc::Rc<str>>, Box<BoundExpr>),
    /// A lambda parameter, read from the innermost binding of that name
    /// (`NamedLambdaVariable`).
    LambdaVar(std::rc::Rc<str>),
}

/// One aggregate of an `Aggregate` node.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundAgg {
    pub func: AggFunc,
    /// `None` for `count(*)`.
    pub arg: Option<BoundExpr>,
    /// The ordering of `max_by`/`min_by`.
    pub by: Option<BoundExpr>,
    pub input_type: DataType,
    /// `count(distinct x)`: rejected by `UnsupportedOperationChecker`, never executed.
    pub distinct: bool,
}

/// How a time window is assigned (`TimeWindow`), all in µs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSpec {
    pub duration_us: i64,
    pub slide_us: i64,
    pub start_us: i64,
}

/// The session window of a session-window aggregation (`SessionWindowing`).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSpec {
    /// Where the `session_window` column stands among the grouping columns.
    pub position: usize,
    /// The event time, over the input row.
    pub time: BoundExpr,
    /// The gap: an interval literal, or an expression giving an interval string per row.
    pub gap: BoundExpr,
    /// A filter the optimizer moved below the aggregation that reads the session window: it
    /// sees each row's own session `[t, t + gap)` before sessions merge, over the input row
    /// with that session appended as one more column (Spark pushes it below the aggregate,
    /// above `SessionWindowing`'s per-row session).
    pub row_filter: Option<BoundExpr>,
}

/// A join between a stream and a static table (`broadcast` style, no state).
#[derive(Debug, Clone, PartialEq)]
pub struct JoinSpec {
    pub join_type: JoinType,
    /// Pairs of (left column, right column) equal in the join.
    pub keys: Vec<(usize, usize)>,
    /// Extra condition over the concatenated row.
    pub condition: Option<BoundExpr>,
    /// Output columns as indices into `left ++ right`.
    pub output: Vec<usize>,
    /// Right-side column count, for null padding.
    pub right_width: usize,
}

/// Which buffered rows of one side of a stream-stream join the watermark lets go
/// (`getStateWatermarkPredicates`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateWatermark {
    /// This side's state is never cleaned.
    None,
    /// The `key_index`-th equi-join key carries the watermark: rows whose key (a window's
    /// end) is `<= W` go.
    Key { key_index: usize },
    /// A range condition bounds this side's time from below: rows whose event time is
    /// `<= W + offset_ms` go.
    Value { offset_ms: i64 },
}

/// What a stream-stream join needs besides [`JoinSpec`] (`StreamingSymmetricHashJoinHelper`).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamJoinSpec {
    /// The event-time column of each side's input (index in that side's output).
    pub left_time: Option<usize>,
    pub right_time: Option<usize>,
    pub left_state: StateWatermark,
    pub right_state: StateWatermark,
    /// The condition's conjuncts that read only the left row (over the left row): a left row
    /// failing them is never stored (left/full outer: it is null-padded at once).
    pub left_only: Option<BoundExpr>,
    /// The same for the right row (over the right row alone).
    pub right_only: Option<BoundExpr>,
    /// True when every equi-join key pair has one type on both sides whose equality is the
    /// state store's key order (strings, integers, timestamps, dates, booleans, bytes, and
    /// structs of them — not doubles, where `-0.0 = 0.0`, nor mixed types, where a string is
    /// compared as a number or a time): a row's partners are then found with one lookup of
    /// its key instead of a scan of every buffered key.
    pub exact_keys: bool,
    /// How a right row bounds the event times of the left rows it can match (the condition's
    /// range conjuncts), so a probe of the left buffer visits only that time range.
    pub left_probe: Option<ProbeRange>,
    /// How a left row bounds the right rows it can match.
    pub right_probe: Option<ProbeRange>,
}

/// The range conjuncts of a stream-stream join condition that bound one time column of a
/// buffered side by a time column of the probing row: a buffered row outside
/// `[max(lower), min(upper)]` cannot pass the condition, so the join's time index skips it
/// (the whole condition is still evaluated on the rows inside).
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeRange {
    /// The buffered side's timestamp column the bounds are on (index in that side's row).
    pub column: usize,
    /// `buffered[column] + buffered_us >= probe[probe_col] + probe_interval` conjuncts.
    pub lower: Vec<ProbeBound>,
    /// `buffered[column] + buffered_us <= probe[probe_col] + probe_interval` conjuncts.
    pub upper: Vec<ProbeBound>,
}

/// One range conjunct of a [`ProbeRange`] (strict comparisons are kept as non-strict: the
/// range may hold a row more, never one less).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbeBound {
    /// The probing row's timestamp column (index in that side's row).
    pub probe_col: usize,
    /// The interval added to it (zero when none), evaluated as the condition does
    /// ([`CalendarInterval::add_to`]).
    pub probe_interval: CalendarInterval,
    /// The µs added to the buffered column (an interval with no months).
    pub buffered_us: i64,
}

/// A node of the analyzed plan.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A streaming source; `index` is its position among the query's sources.
    Source { name: String, index: usize },
    /// A static table.
    Static { name: String, rows: Rc<Vec<Row>> },
    Project { input: Box<Plan>, exprs: Vec<BoundExpr> },
    Filter { input: Box<Plan>, predicate: BoundExpr },
    /// `EventTimeWatermarkExec`: records event-time stats; `watermark_index` numbers the
    /// watermark operators for `WatermarkTracker`.
    Watermark { input: Box<Plan>, column: usize, delay_ms: DelayMs, watermark_index: usize },
    /// Appends a `window` column, one output row per window a row falls in (`TimeWindowing`).
    TimeWindow { input: Box<Plan>, time: BoundExpr, spec: WindowSpec },
    /// A streaming aggregation (`StateStoreRestoreExec` + `StateStoreSaveExec`), or with
    /// `session` a session-window aggregation (`SessionWindowStateStoreSaveExec`).
    /// Output: the grouping columns (the session window at its position), then one column
    /// per aggregate. `keys` excludes the session window.
    /// `distinct`: Spark's `Distinct` (SQL `SELECT DISTINCT`, `UNION`) run as this aggregation.
    Aggregate { input: Box<Plan>, keys: Vec<BoundExpr>, aggs: Vec<BoundAgg>, event_time_key: Option<usize>, session: Option<SessionSpec>, op_id: usize, distinct: bool },
    /// `StreamingDeduplicateExec` (`within_watermark: false`) or
    /// `StreamingDeduplicateWithinWatermarkExec`.
    Dedup { input: Box<Plan>, keys: Vec<usize>, event_time_col: Option<usize>, event_time_in_key: bool, within_watermark: bool, op_id: usize },
    /// A stream-static join.
    StaticJoin { left: Box<Plan>, right: Box<Plan>, join: JoinSpec },
    /// A stream-stream join (`StreamingSymmetricHashJoinExec`).
    StreamJoin { left: Box<Plan>, right: Box<Plan>, join: JoinSpec, spec: StreamJoinSpec, op_id: usize },
    Union { inputs: Vec<Plan> },
    /// A streaming `GlobalLimit` (`StreamingGlobalLimitExec`).
    Limit { input: Box<Plan>, n: usize, op_id: usize },
    /// A limit without state (`CollectLimitExec`, or `TakeOrderedAndProjectExec` over a
    /// sort): the first n rows of each batch's result, as in complete mode after an
    /// aggregation.
    CollectLimit { input: Box<Plan>, n: usize },
    /// `Sort`, only over a Complete-mode aggregation.
    Sort { input: Box<Plan>, order: Vec<(BoundExpr, bool)> },
    /// `GenerateExec` for `explode(array)`: appends the element (and with `position` its
    /// 0-based index first), one output row per element; `outer` keeps a row with NULLs for
    /// a NULL or empty array.
    Generate { input: Box<Plan>, generator: BoundExpr, outer: bool, position: bool },
    /// Non-time window functions (`Window`): one appended column per function. Rejected
    /// on a stream by `UnsupportedOperationChecker`, never executed.
    Window { input: Box<Plan>, functions: Vec<WindowFunctionText> },
    /// `FlatMapGroupsInPandasWithStateExec` (`applyInPandasWithState`): calls the Python
    /// function once per key with data, then once per timed-out key. `keys` are the grouping
    /// expressions over the input, `event_time_col` the input's watermarked column (late rows
    /// are dropped only with `EventTimeTimeout`), `state_schema` the state tuple's fields.
    /// Output: the function's output schema, with no watermark.
    FlatMapGroupsWithState {
        input: Box<Plan>,
        keys: Vec<BoundExpr>,
        udf: Rc<crate::pyfunc::PythonUdf>,
        state_schema: Vec<(String, crate::types::DataType)>,
        mode: OutputMode,
        timeout: crate::pyfunc::GroupStateTimeout,
        event_time_col: Option<usize>,
        op_id: usize,
    },
    /// `TransformWithStateInPySparkExec` (`transformWithStateInPandas`,
    /// `transformWithState`): calls the processor's `handleInputRows` once per key with data,
    /// then `handleExpiredTimer` once per due timer. `keys` are the grouping expressions over
    /// the input, `event_time_col` the input's watermarked column (late rows are dropped only
    /// with `EventTime`). Output: the processor's output schema, with no watermark.
    TransformWithState {
        input: Box<Plan>,
        keys: Vec<BoundExpr>,
        processor: Rc<crate::pyfunc::PythonProcessor>,
        mode: OutputMode,
        time_mode: crate::pyfunc::TimeMode,
        event_time_col: Option<usize>,
        op_id: usize,
    },
}

/// One window function of a `Window` node, as Spark's error names it (upper case):
/// `LAG(POST_ID#2L, -1, NULL)`, the column `` `prev_post` `` and the specification
/// `(PARTITION BY USER_ID ORDER BY EVENT_TIME ASC NULLS FIRST ROWS BETWEEN ...)`.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowFunctionText {
    pub function: String,
    pub column: String,
    pub spec: String,
}

/// An analyzed plan node with its output columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub node: Node,
    pub output: Vec<Attr>,
    /// True if a streaming source is below.
    pub streaming: bool,
}

impl Node {
    /// This node's stateful operator, if it is one: `(op_id, progress name)`.
    pub fn stateful_operator(&self) -> Option<(usize, &'static str)> {
        Some(match self {
            Node::Aggregate { op_id, session: None, .. } => (*op_id, "stateStoreSave"),
            Node::Aggregate { op_id, session: Some(_), .. } => (*op_id, "sessionWindowStateStoreSaveExec"),
            Node::Dedup { op_id, within_watermark: false, .. } => (*op_id, "dedupe"),
            Node::Dedup { op_id, within_watermark: true, .. } => (*op_id, "dedupeWithinWatermark"),
            Node::Limit { op_id, .. } => (*op_id, "globalLimit"),
            Node::StreamJoin { op_id, .. } => (*op_id, "symmetricHashJoin"),
            Node::FlatMapGroupsWithState { op_id, .. } => (*op_id, "applyInPandasWithState"),
            Node::TransformWithState { op_id, processor, .. } => {
                (*op_id, if processor.use_pandas { "transformWithStateInPandasExec" } else { "transformWithStateInPySparkExec" })
            }
            _ => return None,
        })
    }
}

impl Plan {
    /// Children, left to right.
    pub fn children(&self) -> Vec<&Plan> {
        match &self.node {
            Node::Source { .. } | Node::Static { .. } => vec![],
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
            | Node::TransformWithState { input, .. } => vec![input],
            Node::StaticJoin { left, right, .. } | Node::StreamJoin { left, right, .. } => vec![left, right],
            Node::Union { inputs } => inputs.iter().collect(),
        }
    }

    /// Visits nodes root-first (pre-order), the order Spark numbers stateful operators in.
    pub fn walk(&self, f: &mut dyn FnMut(&Plan)) {
        f(self);
        for c in self.children() {
            c.walk(f);
        }
    }

    /// The stateful operators, root-first: `(op_id, progress name)`.
    pub fn stateful_operators(&self) -> Vec<(usize, &'static str)> {
        let mut out = Vec::new();
        self.walk(&mut |p| out.extend(p.node.stateful_operator()));
        out
    }

    /// True if the plan has an `EventTimeWatermark` node.
    pub fn has_watermark(&self) -> bool {
        let mut found = false;
        self.walk(&mut |p| found |= matches!(p.node, Node::Watermark { .. }));
        found
    }

    /// Number of watermark operators.
    pub fn watermark_count(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |p| n += usize::from(matches!(p.node, Node::Watermark { .. })));
        n
    }

    /// The output schema as (name, Spark type name) pairs.
    pub fn output_schema(&self) -> Vec<(String, String)> {
        self.output.iter().map(|a| (a.name.clone(), spark_type_name(&a.data_type))).collect()
    }

    fn line(&self) -> String {
        let names = |p: &Plan| p.output.iter().map(|a| a.name.clone()).collect::<Vec<_>>().join(", ");
        match &self.node {
            Node::Source { name, .. } => format!("StreamingRelation {name}, [{}]", names(self)),
            Node::Static { name, rows } => format!("LocalRelation {name}, [{}], {} rows", names(self), rows.len()),
            Node::Project { .. } => format!("Project [{}]", names(self)),
            Node::Filter { predicate, input } => format!("Filter {}", show_expr(predicate, &input.output)),
            Node::Watermark { input, column, delay_ms, .. } => format!("EventTimeWatermark {}, {delay_ms}", input.output[*column].name),
            Node::TimeWindow { input, time, spec } => format!(
                "TimeWindow {}, {}, {}, {}",
                show_expr(time, &input.output),
                crate::types::format_duration_us(spec.duration_us),
                crate::types::format_duration_us(spec.slide_us),
                crate::types::format_duration_us(spec.start_us)
            ),
            Node::Aggregate { input, keys, op_id, .. } => {
                let k: Vec<String> = keys.iter().map(|e| show_expr(e, &input.output)).collect();
                format!("StateStoreSave [{}] -> [{}], operator {op_id}", k.join(", "), names(self))
            }
            Node::Dedup { input, keys, within_watermark, op_id, .. } => {
                let k: Vec<&str> = keys.iter().map(|i| input.output[*i].name.as_str()).collect();
                let n = if *within_watermark { "DeduplicateWithinWatermark" } else { "Deduplicate" };
                format!("{n} [{}], operator {op_id}", k.join(", "))
            }
            Node::StaticJoin { join, .. } => format!("Join {} (stream-static), [{}]", join.join_type.spark_name(), names(self)),
            Node::StreamJoin { join, spec, op_id, .. } => format!(
                "StreamingSymmetricHashJoin {}, left state: {:?}, right state: {:?}, operator {op_id}",
                join.join_type.spark_name(),
                spec.left_state,
                spec.right_state
            ),
            Node::Union { .. } => "Union".into(),
            Node::Limit { n, op_id, .. } => format!("StreamingGlobalLimit {n}, operator {op_id}"),
            Node::CollectLimit { input, n } if matches!(input.node, Node::Sort { .. }) => format!("TakeOrderedAndProject {n}"),
            Node::CollectLimit { n, .. } => format!("CollectLimit {n}"),
            Node::Sort { .. } => "Sort".into(),
            Node::Generate { input, generator, outer, .. } => {
                format!("Generate {}({}), [{}]", if *outer { "explode_outer" } else { "explode" }, show_expr(generator, &input.output), names(self))
            }
            Node::Window { functions, .. } => format!("Window [{}]", functions.iter().map(|f| f.function.as_str()).collect::<Vec<_>>().join(", ")),
            Node::FlatMapGroupsWithState { input, keys, udf, mode, timeout, op_id, .. } => format!(
                "FlatMapGroupsInPandasWithState {}, [{}], [{}], {}, {}, operator {op_id}",
                udf.name,
                keys.iter().map(|k| show_expr(k, &input.output)).collect::<Vec<_>>().join(", "),
                names(self),
                mode.as_str(),
                timeout.name()
            ),
            Node::TransformWithState { input, keys, processor, mode, time_mode, op_id, .. } => format!(
                "TransformWithStateInPySpark {}, [{}], [{}], {}, {}, operator {op_id}",
                processor.ctor,
                keys.iter().map(|k| show_expr(k, &input.output)).collect::<Vec<_>>().join(", "),
                names(self),
                mode.as_str(),
                time_mode.name()
            ),
        }
    }
}

impl fmt::Display for Plan {
    /// An indented tree like Spark's physical plan in `explain()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::plan::tree::write_tree(f, self, &Plan::line, &Plan::children)
    }
}

impl BoundExpr {
    /// Adds every input column this expression reads to `out`.
    pub fn columns(&self, out: &mut std::collections::BTreeSet<usize>) {
        match self {
            BoundExpr::Col(i) => {
                out.insert(*i);
            }
            BoundExpr::Lit(_) | BoundExpr::Interval(_) | BoundExpr::LambdaVar(_) => {}
            BoundExpr::Lambda(_, x) | BoundExpr::ToJson(x, _) => x.columns(out),
            BoundExpr::Binary(_, a, b) => {
                a.columns(out);
                b.columns(out);
            }
            BoundExpr::Not(x) | BoundExpr::Negate(x) | BoundExpr::IsNull(x, _) | BoundExpr::Cast(x, _) | BoundExpr::WindowTime(x) | BoundExpr::Field(x, _) | BoundExpr::FromJson(x, _) => x.columns(out),
            BoundExpr::Case { branches, otherwise } => {
                for (c, v) in branches {
                    c.columns(out);
                    v.columns(out);
                }
                if let Some(o) = otherwise {
                    o.columns(out);
                }
            }
            BoundExpr::Function(_, args) => args.iter().for_each(|a| a.columns(out)),
        }
    }
}

impl Plan {
    /// Which columns of each streaming source the plan reads (`ColumnPruning` for the scan):
    /// source index → column flags. Columns no operator reads need not be decoded.
    pub fn source_columns(&self) -> std::collections::BTreeMap<usize, Vec<bool>> {
        let mut out = std::collections::BTreeMap::new();
        let all: std::collections::BTreeSet<usize> = (0..self.output.len()).collect();
        self.require(&all, &mut out);
        out
    }

    fn require(&self, needed: &std::collections::BTreeSet<usize>, out: &mut std::collections::BTreeMap<usize, Vec<bool>>) {
        use std::collections::BTreeSet;
        let child_all = |p: &Plan| -> BTreeSet<usize> { (0..p.output.len()).collect() };
        match &self.node {
            Node::Source { index, .. } => {
                let flags = out.entry(*index).or_insert_with(|| vec![false; self.output.len()]);
                for i in needed {
                    if let Some(f) = flags.get_mut(*i) {
                        *f = true;
                    }
                }
            }
            Node::Static { .. } => {}
            Node::Project { input, exprs } => {
                let mut n = BTreeSet::new();
                for (i, e) in exprs.iter().enumerate() {
                    if needed.contains(&i) {
                        e.columns(&mut n);
                    }
                }
                input.require(&n, out);
            }
            Node::Filter { input, predicate } => {
                let mut n = needed.clone();
                predicate.columns(&mut n);
                input.require(&n, out);
            }
            Node::Watermark { input, column, .. } => {
                let mut n = needed.clone();
                n.insert(*column);
                input.require(&n, out);
            }
            Node::TimeWindow { input, time, .. } => {
                let mut n: BTreeSet<usize> = needed.iter().copied().filter(|i| *i < input.output.len()).collect();
                time.columns(&mut n);
                input.require(&n, out);
            }
            Node::Aggregate { input, keys, aggs, session, .. } => {
                input.require(&aggregate_inputs(keys, aggs, session.as_ref()), out);
            }
            Node::Sort { input, order } => {
                let mut n = needed.clone();
                order.iter().for_each(|(e, _)| e.columns(&mut n));
                input.require(&n, out);
            }
            Node::Generate { input, generator, .. } => {
                let mut n: BTreeSet<usize> = needed.iter().copied().filter(|i| *i < input.output.len()).collect();
                generator.columns(&mut n);
                input.require(&n, out);
            }
            // Operators that keep whole rows in state, or combine inputs, read everything.
            Node::Dedup { input, .. }
            | Node::Limit { input, .. }
            | Node::CollectLimit { input, .. }
            | Node::Window { input, .. }
            | Node::FlatMapGroupsWithState { input, .. }
            | Node::TransformWithState { input, .. } => {
                input.require(&child_all(input), out)
            }
            Node::Union { inputs } => inputs.iter().for_each(|i| i.require(&child_all(i), out)),
            Node::StaticJoin { left, right, .. } | Node::StreamJoin { left, right, .. } => {
                left.require(&child_all(left), out);
                right.require(&child_all(right), out);
            }
        }
    }
}

/// Prints a bound expression with column names from `input`.
pub fn show_expr(e: &BoundExpr, input: &[Attr]) -> String {
    match e {
        BoundExpr::Col(i) => input.get(*i).map_or_else(|| format!("#{i}"), |a| a.name.clone()),
        BoundExpr::Lit(Value::Str(s)) => format!("'{s}'"),
        BoundExpr::Lit(v) => v.to_string(),
        BoundExpr::Interval(i) => crate::plan::Expr::Interval(*i).to_string(),
        BoundExpr::Binary(op, l, r) => format!("({} {} {})", show_expr(l, input), op.symbol(), show_expr(r, input)),
        BoundExpr::Not(x) => format!("(NOT {})", show_expr(x, input)),
        BoundExpr::Negate(x) => format!("(- {})", show_expr(x, input)),
        BoundExpr::IsNull(x, false) => format!("({} IS NULL)", show_expr(x, input)),
        BoundExpr::IsNull(x, true) => format!("({} IS NOT NULL)", show_expr(x, input)),
        BoundExpr::Case { branches, otherwise } => {
            let mut s = "CASE".to_string();
            for (c, v) in branches {
                s.push_str(&format!(" WHEN {} THEN {}", show_expr(c, input), show_expr(v, input)));
            }
            if let Some(o) = otherwise {
                s.push_str(&format!(" ELSE {}", show_expr(o, input)));
            }
            s + " END"
        }
        BoundExpr::Cast(x, t) => format!("CAST({} AS {})", show_expr(x, input), spark_type_name(t).to_uppercase()),
        BoundExpr::Function(n, args) => {
            let a: Vec<String> = args.iter().map(|x| show_expr(x, input)).collect();
            format!("{n}({})", a.join(", "))
        }
        BoundExpr::WindowTime(x) => format!("window_time({})", show_expr(x, input)),
        BoundExpr::Field(x, i) => format!("{}.{}", show_expr(x, input), i),
        BoundExpr::ToJson(x, _) => format!("to_json({})", show_expr(x, input)),
        BoundExpr::Lambda(params, body) => format!("lambdafunction({}, {})", show_expr(body, input), params.join(", ")),
        BoundExpr::LambdaVar(n) => n.to_string(),
        BoundExpr::FromJson(x, t) => format!("from_json({}, '{}')", show_expr(x, input), spark_type_name(t)),
    }
}

/// The input columns an aggregation reads: its keys, its aggregates' arguments (and `max_by`'s
/// ordering), and a session window's time and gap.
pub fn aggregate_inputs(keys: &[BoundExpr], aggs: &[BoundAgg], session: Option<&SessionSpec>) -> std::collections::BTreeSet<usize> {
    let mut n = std::collections::BTreeSet::new();
    keys.iter().for_each(|k| k.columns(&mut n));
    aggs.iter().flat_map(|a| a.arg.iter().chain(a.by.iter())).for_each(|a| a.columns(&mut n));
    if let Some(s) = session {
        s.time.columns(&mut n);
        s.gap.columns(&mut n);
    }
    n
}
