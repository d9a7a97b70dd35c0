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
    /// A `window(...)` struct (`start`, `end`) from a tumbling or sliding time window.
    Time,
    /// A `session_window(...)` struct (`start`, `end`) from a session window.
    Session,
}

/// A resolved column: name, type and the metadata Spark keeps on attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    /// The column's name as Spark shows it in the schema: a source column's name, an
    /// alias, or an unaliased expression's SQL text.
    pub name: String,
    /// The column's type, as an Arrow data type (timestamps in µs).
    pub data_type: DataType,
    /// `spark.watermarkDelayMs`: set on the event-time column (and on windows over it).
    pub watermark_delay_ms: Option<DelayMs>,
    /// Set when the column is a window struct (Spark's `spark.timeWindow` /
    /// `spark.sessionWindow` metadata); `None` for every other column.
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
    /// The input row's column at this index (a resolved `AttributeReference`).
    Col(usize),
    /// A constant (`Literal`).
    Lit(Value),
    /// An interval literal (`INTERVAL '10 minutes'`), mostly the right operand of a
    /// timestamp `+` / `-`.
    Interval(CalendarInterval),
    /// `left op right`, with Spark's NULL semantics (three-valued `AND` / `OR`).
    Binary(BinOp, Box<BoundExpr>, Box<BoundExpr>),
    /// `NOT e`.
    Not(Box<BoundExpr>),
    /// `-e` (`UnaryMinus`).
    Negate(Box<BoundExpr>),
    /// `e IS NULL`, or `e IS NOT NULL` when the flag is true (`IsNull` / `IsNotNull`).
    IsNull(Box<BoundExpr>, bool),
    /// `CASE WHEN ... THEN ... ELSE ... END` (`CaseWhen`); every value is already cast to
    /// the common result type.
    Case {
        /// (condition, value) pairs, tried in order; the first true condition wins.
        branches: Vec<(BoundExpr, BoundExpr)>,
        /// The `ELSE` value; `None` gives NULL when no condition holds.
        otherwise: Option<Box<BoundExpr>>,
    },
    /// `CAST(e AS type)` (`Cast`), also inserted by type coercion.
    Cast(Box<BoundExpr>, DataType),
    /// A scalar function by lower-case name (`upper`, `coalesce`, `struct`, ...) over its
    /// bound arguments; a higher-order function has a [`BoundExpr::Lambda`] among them.
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
    /// Which aggregate function this is.
    pub func: AggFunc,
    /// `None` for `count(*)`.
    pub arg: Option<BoundExpr>,
    /// The ordering of `max_by`/`min_by`.
    pub by: Option<BoundExpr>,
    /// The argument's type (`DataType::Null` for `count(*)`).
    pub input_type: DataType,
    /// `count(distinct x)`: rejected by `UnsupportedOperationChecker`, never executed.
    pub distinct: bool,
}

/// How a time window is assigned (`TimeWindow`), all in µs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSpec {
    /// The window length (`windowDuration`), µs.
    pub duration_us: i64,
    /// The distance between window starts (`slideDuration`), µs; equal to the duration for
    /// a tumbling window.
    pub slide_us: i64,
    /// The offset of window starts from the epoch (`startTime`), µs.
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
    /// The join type (`how` of `join`, or SQL's join type).
    pub join_type: JoinType,
    /// Pairs of (left column, right column) equal in the join.
    pub keys: Vec<(usize, usize)>,
    /// Extra condition over the concatenated row.
    pub condition: Option<BoundExpr>,
    /// Output columns as indices into `left ++ right`.
    pub output: Vec<usize>,
    /// Right-side column count, for null padding.
    pub right_width: usize,
    /// Columns (indices into `left ++ right`) the condition reads from a DataFrame below its
    /// `withWatermark` (`clicks.clickTime` after `clicks.withWatermark(...)`): as in Spark's
    /// analyzed plan, such a reference carries no event-time tag, so the start check
    /// (`UnsupportedOperationChecker`) finds no watermark through it and refuses an outer join
    /// (recorded: `sw3-min-ss-join-df-attr-left-outer-error`). Execution reads the inputs' own
    /// tags, as Spark's optimized plan does.
    /// Boxed, and `None` when there are none: the plan's nodes stay small.
    pub unwatermarked: Option<Box<std::collections::BTreeSet<usize>>>,
}

impl JoinSpec {
    /// The two inputs' columns as the condition sees them: those it reads from below
    /// `withWatermark` ([`JoinSpec::unwatermarked`]) without their event-time tag.
    pub fn condition_inputs(&self, left: &[super::Attr], right: &[super::Attr]) -> (Vec<super::Attr>, Vec<super::Attr>) {
        let lw = left.len();
        let strip = |i: usize, a: &super::Attr| {
            let mut a = a.clone();
            if self.unwatermarked.as_ref().is_some_and(|s| s.contains(&i)) {
                a.watermark_delay_ms = None;
            }
            a
        };
        (left.iter().enumerate().map(|(i, a)| strip(i, a)).collect(), right.iter().enumerate().map(|(i, a)| strip(lw + i, a)).collect())
    }
}

/// Which buffered rows of one side of a stream-stream join the watermark lets go
/// (`getStateWatermarkPredicates`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateWatermark {
    /// This side's state is never cleaned.
    None,
    /// The `key_index`-th equi-join key carries the watermark: rows whose key (a window's
    /// end) is `<= W` go.
    Key {
        /// The position of that key among the join's equi-join key pairs.
        key_index: usize,
    },
    /// A range condition bounds this side's time from below: rows whose event time is
    /// `<= W + offset_ms` go.
    Value {
        /// The constant `c` of the bound `this time > other time + c`, ms (1 ms less for a
        /// non-strict bound); negative when this side may lag behind the other.
        offset_ms: i64,
    },
}

/// What a stream-stream join needs besides [`JoinSpec`] (`StreamingSymmetricHashJoinHelper`).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamJoinSpec {
    /// The event-time column of each side's input (index in that side's output).
    pub left_time: Option<usize>,
    /// The right side's event-time column (index in the right side's output), if any.
    pub right_time: Option<usize>,
    /// Which buffered left rows the watermark evicts from state.
    pub left_state: StateWatermark,
    /// Which buffered right rows the watermark evicts from state.
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
    /// What a pair of rows met by their keys must still pass: the condition without its
    /// equi-join key equalities when [`StreamJoinSpec::exact_keys`] (the key lookup decided
    /// them, NULLs included), else the whole condition; `None`: every pair passes. Spark's
    /// `JoinConditionSplitPredicates.bothSides` plays this part.
    pub pair_condition: Option<Box<BoundExpr>>,
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
    Source {
        /// The source's name (`clicks`), as the `StreamingRelation` carries it.
        name: String,
        /// Its position among the query's streaming sources.
        index: usize,
    },
    /// A static table.
    Static {
        /// The table's name.
        name: String,
        /// Every row of the table (`LocalRelation`), shared with the logical plan.
        rows: Rc<Vec<Row>>,
    },
    /// `Project`: one output column per expression.
    Project {
        /// The child plan.
        input: Box<Plan>,
        /// The output columns, over the input row.
        exprs: Vec<BoundExpr>,
        /// True for the projection that computes an aggregation's result expressions over its
        /// grouping columns and buffers (`max(n) + 1`, `agg(F.lit(2))`): Spark keeps these inside
        /// its `Aggregate`, so they share its output's nullability ([`super::schema`]).
        aggregate_result: bool,
    },
    /// `Filter`: keeps the rows where the predicate is true (NULL drops the row).
    Filter {
        /// The child plan.
        input: Box<Plan>,
        /// A boolean expression over the input row.
        predicate: BoundExpr,
    },
    /// `EventTimeWatermarkExec`: records event-time stats; `watermark_index` numbers the
    /// watermark operators for `WatermarkTracker`.
    Watermark {
        /// The child plan.
        input: Box<Plan>,
        /// The event-time column (index in the input), which gets the watermark tag.
        column: usize,
        /// The `withWatermark` delay threshold, ms.
        delay_ms: DelayMs,
        /// This operator's number among the plan's watermark operators, in analysis order
        /// (inputs first, left before right).
        watermark_index: usize,
    },
    /// Appends a `window` column, one output row per window a row falls in (`TimeWindowing`).
    TimeWindow {
        /// The child plan.
        input: Box<Plan>,
        /// The time the windows are assigned by (a timestamp, over the input row).
        time: BoundExpr,
        /// The window length, slide and start.
        spec: WindowSpec,
    },
    /// A streaming aggregation (`StateStoreRestoreExec` + `StateStoreSaveExec`), or with
    /// `session` a session-window aggregation (`SessionWindowStateStoreSaveExec`).
    /// Output: the grouping columns (the session window at its position), then one column
    /// per aggregate. `keys` excludes the session window.
    /// `distinct`: Spark's `Distinct` (SQL `SELECT DISTINCT`, `UNION`) run as this aggregation.
    Aggregate {
        /// The child plan.
        input: Box<Plan>,
        /// The grouping expressions over the input row.
        keys: Vec<BoundExpr>,
        /// The aggregate functions, one output column each.
        aggs: Vec<BoundAgg>,
        /// The grouping column (index in the output) that carries the watermark tag, if any:
        /// the key by which the watermark evicts state (and, in Append mode, emits rows).
        event_time_key: Option<usize>,
        /// The session window, for a `session_window` aggregation.
        session: Option<SessionSpec>,
        /// The stateful operator id (root-first numbering).
        op_id: usize,
        /// True for a `Distinct` run as this aggregation.
        distinct: bool,
    },
    /// `StreamingDeduplicateExec` (`within_watermark: false`) or
    /// `StreamingDeduplicateWithinWatermarkExec`.
    Dedup {
        /// The child plan.
        input: Box<Plan>,
        /// The columns (indices in the input) that make a row a duplicate; every column for
        /// `dropDuplicates()` with no subset.
        keys: Vec<usize>,
        /// The input's watermarked event-time column, if any.
        event_time_col: Option<usize>,
        /// True when that event-time column is one of `keys`, so the watermark can evict
        /// state (for `dropDuplicates`).
        event_time_in_key: bool,
        /// True for `dropDuplicatesWithinWatermark`.
        within_watermark: bool,
        /// The stateful operator id (root-first numbering).
        op_id: usize,
    },
    /// A stream-static join.
    StaticJoin {
        /// The left input, as written.
        left: Box<Plan>,
        /// The right input, as written.
        right: Box<Plan>,
        /// The join type, keys, condition and output columns.
        join: JoinSpec,
    },
    /// A stream-stream join (`StreamingSymmetricHashJoinExec`).
    StreamJoin {
        /// The left stream.
        left: Box<Plan>,
        /// The right stream.
        right: Box<Plan>,
        /// The join type, keys, condition and output columns.
        join: JoinSpec,
        /// Event-time columns, state eviction and probe ranges of both sides.
        spec: StreamJoinSpec,
        /// The stateful operator id (root-first numbering).
        op_id: usize,
    },
    /// `Union` (`union` / `unionByName` / SQL `UNION ALL`): the rows of every input; the
    /// output columns are the first input's.
    Union {
        /// The children, in order.
        inputs: Vec<Plan>,
    },
    /// A streaming `GlobalLimit` (`StreamingGlobalLimitExec`).
    Limit {
        /// The child plan.
        input: Box<Plan>,
        /// The most rows the query ever emits.
        n: usize,
        /// The stateful operator id (root-first numbering).
        op_id: usize,
    },
    /// A limit without state (`CollectLimitExec`, or `TakeOrderedAndProjectExec` over a
    /// sort): the first n rows of each batch's result, as in complete mode after an
    /// aggregation.
    CollectLimit {
        /// The child plan.
        input: Box<Plan>,
        /// The most rows of each batch's result kept.
        n: usize,
    },
    /// `Sort`, only over a Complete-mode aggregation.
    Sort {
        /// The child plan.
        input: Box<Plan>,
        /// (expression, ascending) pairs, the first deciding first.
        order: Vec<(BoundExpr, bool)>,
    },
    /// `GenerateExec` for `explode(array)`: appends the element (and with `position` its
    /// 0-based index first), one output row per element; `outer` keeps a row with NULLs for
    /// a NULL or empty array.
    Generate {
        /// The child plan.
        input: Box<Plan>,
        /// The array being exploded, over the input row.
        generator: BoundExpr,
        /// True for `explode_outer` / `posexplode_outer`.
        outer: bool,
        /// True for `posexplode`: the element's index comes first.
        position: bool,
    },
    /// Non-time window functions (`Window`): one appended column per function. Rejected
    /// on a stream by `UnsupportedOperationChecker`, never executed.
    Window {
        /// The child plan.
        input: Box<Plan>,
        /// The window functions, as Spark's error prints them.
        functions: Vec<WindowFunctionText>,
    },
    /// `FlatMapGroupsInPandasWithStateExec` (`applyInPandasWithState`): calls the Python
    /// function once per key with data, then once per timed-out key. `keys` are the grouping
    /// expressions over the input, `event_time_col` the input's watermarked column (late rows
    /// are dropped only with `EventTimeTimeout`), `state_schema` the state tuple's fields.
    /// Output: the function's output schema, with no watermark.
    FlatMapGroupsWithState {
        /// The child plan.
        input: Box<Plan>,
        /// The grouping expressions over the input row.
        keys: Vec<BoundExpr>,
        /// The Python function called per group.
        udf: Rc<crate::pyfunc::PythonUdf>,
        /// The state tuple's fields, (name, type), from the `stateStructType` argument.
        state_schema: Vec<(String, crate::types::DataType)>,
        /// The function's `outputMode` argument (Append or Update).
        mode: OutputMode,
        /// The `timeoutConf` argument (`GroupStateTimeout`).
        timeout: crate::pyfunc::GroupStateTimeout,
        /// The input's watermarked event-time column, if any.
        event_time_col: Option<usize>,
        /// The stateful operator id (root-first numbering).
        op_id: usize,
    },
    /// `TransformWithStateInPySparkExec` (`transformWithStateInPandas`,
    /// `transformWithState`): calls the processor's `handleInputRows` once per key with data,
    /// then `handleExpiredTimer` once per due timer. `keys` are the grouping expressions over
    /// the input, `event_time_col` the input's watermarked column (late rows are dropped only
    /// with `EventTime`). Output: the processor's output schema, with no watermark.
    TransformWithState {
        /// The child plan.
        input: Box<Plan>,
        /// The grouping expressions over the input row.
        keys: Vec<BoundExpr>,
        /// The Python `StatefulProcessor` instance.
        processor: Rc<crate::pyfunc::PythonProcessor>,
        /// The `outputMode` argument.
        mode: OutputMode,
        /// The `timeMode` argument (`None`, `ProcessingTime` or `EventTime`).
        time_mode: crate::pyfunc::TimeMode,
        /// The input's watermarked event-time column, if any.
        event_time_col: Option<usize>,
        /// The stateful operator id (root-first numbering).
        op_id: usize,
    },
}

/// One window function of a `Window` node, as Spark's error names it (upper case):
/// `LAG(POST_ID#2L, -1, NULL)`, the column `` `prev_post` `` and the specification
/// `(PARTITION BY USER_ID ORDER BY EVENT_TIME ASC NULLS FIRST ROWS BETWEEN ...)`.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowFunctionText {
    /// The function call (`LAG(POST_ID#2L, -1, NULL)`).
    pub function: String,
    /// The output column, in backquotes (`` `prev_post` ``).
    pub column: String,
    /// The window specification (`WindowSpecDefinition.sql`), with the default frame.
    pub spec: String,
}

/// An analyzed plan node with its output columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The operator and its children.
    pub node: Node,
    /// The node's output columns, in order.
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
            Node::Project { input, exprs, .. } => {
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
