//! Unresolved expressions, as the frontend builds them from PySpark or SQL text.
//!
//! Mirrors Catalyst's `Expression` tree before analysis (`UnresolvedAttribute`, `Literal`,
//! `Alias`, `CaseWhen`, `Cast`, `TimeWindow`, `SessionWindow`, `AggregateExpression`).
//! Column names are resolved against a schema in `analysis`.

use std::fmt;

use crate::types::{format_duration_us, CalendarInterval, DataType, Value};

/// Binary operators of Spark SQL / PySpark `Column`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+` (`Add`; a timestamp plus an interval is `TimestampAddInterval`).
    Add,
    /// `-` (`Subtract`).
    Sub,
    /// `*` (`Multiply`).
    Mul,
    /// `/` (`Divide`): always a double; a zero divisor fails the batch (`DIVIDE_BY_ZERO`,
    /// ANSI mode).
    Div,
    /// `%` (`Remainder`).
    Mod,
    /// `=` / `==` (`EqualTo`).
    Eq,
    /// `!=` / `<>`: Spark's plan has it as `NOT (a = b)`.
    NotEq,
    /// `<=>` / `eqNullSafe`.
    EqNullSafe,
    /// `<` (`LessThan`).
    Lt,
    /// `<=` (`LessThanOrEqual`).
    LtEq,
    /// `>` (`GreaterThan`).
    Gt,
    /// `>=` (`GreaterThanOrEqual`).
    GtEq,
    /// `AND` / `&`, three-valued.
    And,
    /// `OR` / `|`, three-valued.
    Or,
}

impl BinOp {
    /// The SQL spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Eq => "=",
            BinOp::NotEq => "!=",
            BinOp::EqNullSafe => "<=>",
            BinOp::Lt => "<",
            BinOp::LtEq => "<=",
            BinOp::Gt => ">",
            BinOp::GtEq => ">=",
            BinOp::And => "AND",
            BinOp::Or => "OR",
        }
    }

    /// True for comparisons (result type boolean).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::NotEq | BinOp::EqNullSafe | BinOp::Lt | BinOp::LtEq | BinOp::Gt | BinOp::GtEq
        )
    }
}

/// Aggregate functions of `pyspark.sql.functions` (Spark's `AggregateFunction`s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggFunc {
    /// `count(x)`: rows where `x` is not NULL; `count(*)` counts every row. A `bigint`.
    Count,
    /// `sum(x)`: a `bigint` over integers, a `double` over doubles.
    Sum,
    /// `avg(x)` / `mean(x)`: a `double`.
    Avg,
    /// `min(x)`, of the input's type.
    Min,
    /// `max(x)`, of the input's type.
    Max,
    /// `first(x[, ignorenulls])`: the first value in arrival order (`First.scala`).
    First {
        /// `ignorenulls=True`: the first non-NULL value.
        ignore_nulls: bool,
    },
    /// `last(x[, ignorenulls])`: the last value in arrival order (`Last.scala`).
    Last {
        /// `ignorenulls=True`: the last non-NULL value.
        ignore_nulls: bool,
    },
    /// `max_by(x, ord)`: `x` of the row with the largest non-null `ord` (`MaxByAndMinBy.scala`).
    MaxBy,
    /// `min_by(x, ord)`.
    MinBy,
    /// `collect_list(x)`: the non-null values in arrival order.
    CollectList,
    /// `collect_set(x)`: the distinct non-null values.
    CollectSet,
    /// `stddev`/`stddev_samp`, `stddev_pop`, `variance`/`var_samp`, `var_pop`: central moments
    /// (`CentralMomentAgg`); `sample` divides by n - 1 (NULL for one row).
    Stddev {
        /// True for the sample standard deviation (`stddev`, `stddev_samp`), false for the
        /// population one (`stddev_pop`).
        sample: bool,
    },
    /// `variance`/`var_samp` and `var_pop`, as [`AggFunc::Stddev`] without the square root.
    Variance {
        /// True for the sample variance (`variance`, `var_samp`), false for `var_pop`.
        sample: bool,
    },
    /// `count_if(cond)`: rows where `cond` is true.
    CountIf,
    /// `approx_count_distinct(x[, rsd])`: HyperLogLog++ with `p` index bits
    /// (`p = ceil(2·log2(1.106 / rsd))`, 9 for the default rsd 0.05).
    ApproxCountDistinct {
        /// The register index bits (4 to 18), from [`AggFunc::hll_precision`].
        p: u8,
    },
}

impl AggFunc {
    /// Spark's function name, used for default output names (`count`, `sum(amount)`).
    pub fn name(self) -> &'static str {
        match self {
            AggFunc::Count => "count",
            AggFunc::Sum => "sum",
            AggFunc::Avg => "avg",
            AggFunc::Min => "min",
            AggFunc::Max => "max",
            AggFunc::First { .. } => "first",
            AggFunc::Last { .. } => "last",
            AggFunc::MaxBy => "max_by",
            AggFunc::MinBy => "min_by",
            AggFunc::CollectList => "collect_list",
            AggFunc::CollectSet => "collect_set",
            AggFunc::Stddev { sample: true } => "stddev",
            AggFunc::Stddev { sample: false } => "stddev_pop",
            AggFunc::Variance { sample: true } => "variance",
            AggFunc::Variance { sample: false } => "var_pop",
            AggFunc::CountIf => "count_if",
            AggFunc::ApproxCountDistinct { .. } => "approx_count_distinct",
        }
    }

    /// HyperLogLog++'s index bits for a relative standard deviation
    /// (`HyperLogLogPlusPlusHelper`: `ceil(2·log2(1.106 / rsd))`).
    ///
    /// # Errors
    /// Spark's message when fewer than 4 bits would do (rsd above 0.39).
    pub fn hll_precision(rsd: f64) -> Result<u8, String> {
        let p = (2.0 * (1.106 / rsd).log2()).ceil();
        if !p.is_finite() || p < 4.0 {
            return Err("HLL++ requires at least 4 bits for addressing. Use a lower error, at most 39%.".into());
        }
        // Past 18 bits (a 256 KiB register array) the estimate of any cardinality a lab
        // session reaches is the same; larger arrays would only cost memory.
        Ok(p.min(18.0) as u8)
    }
}

/// An expression before name resolution.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A column by name (`F.col('post_id')`, `'post_id'`, `df.post_id`).
    Column(String),
    /// `*` (in `count('*')`, `select('*')`).
    Star,
    /// A typed literal.
    Literal(Value),
    /// An interval literal (`interval 15 minutes`), in µs/days/months.
    Interval(CalendarInterval),
    /// `expr AS name`.
    Alias(Box<Expr>, String),
    /// `left op right`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `NOT e` / `~e`.
    Not(Box<Expr>),
    /// `-e`.
    Negate(Box<Expr>),
    /// `e IS NULL` (`negated`: `IS NOT NULL`).
    IsNull(Box<Expr>, bool),
    /// `CASE WHEN c THEN v ... ELSE o END` / `F.when(...).otherwise(...)`.
    Case {
        /// (condition, value) pairs, tried in order.
        branches: Vec<(Expr, Expr)>,
        /// The `ELSE` / `otherwise` value; `None` gives NULL.
        otherwise: Option<Box<Expr>>,
    },
    /// `CAST(e AS type)`.
    Cast(Box<Expr>, DataType),
    /// A scalar function by lower-case name (`upper`, `round`, `coalesce`, ...).
    Function(String, Vec<Expr>),
    /// `window(time, duration[, slide[, start]])`, durations in µs.
    TimeWindow {
        /// The time column the windows are assigned by.
        time: Box<Expr>,
        /// The window length (`windowDuration`), µs.
        duration_us: i64,
        /// The slide (`slideDuration`), µs; the duration when not given.
        slide_us: i64,
        /// The offset of window starts (`startTime`), µs; 0 when not given.
        start_us: i64,
    },
    /// `session_window(time, gap)`; the gap is an expression giving an interval.
    SessionWindow {
        /// The time column the sessions are built over.
        time: Box<Expr>,
        /// The gap duration: an interval literal or string, or an expression giving one per
        /// row.
        gap: Box<Expr>,
    },
    /// `window_time(w)` = `w.end - 1 µs`.
    WindowTime(Box<Expr>),
    /// An aggregate function call; `by` is the ordering of `max_by`/`min_by`.
    Agg {
        /// Which aggregate function.
        func: AggFunc,
        /// The argument; [`Expr::Star`] for `count(*)`.
        arg: Box<Expr>,
        /// The ordering argument of `max_by` / `min_by`.
        by: Option<Box<Expr>>,
        /// `count(DISTINCT x)` / `countDistinct`: accepted here, rejected on a stream by
        /// `UnsupportedOperationChecker`.
        distinct: bool,
    },
    /// `f OVER (PARTITION BY ... ORDER BY ... [frame])`: a non-time window function
    /// (`WindowExpression`); `func` is an aggregate or a ranking/offset function such as
    /// `lag(col, 1, NULL)`.
    Over(Box<WindowOver>),
    /// A lambda function, the argument of a higher-order function (`x -> x + 1`,
    /// `(acc, x) -> acc + x`; `LambdaFunction`). In the body, a parameter is an `Expr::Column`
    /// of its name until analysis binds it.
    Lambda {
        /// The parameter names, in order (`acc`, `x`).
        params: Vec<String>,
        /// The function body.
        body: Box<Expr>,
    },
    /// A lambda parameter bound by analysis, with its type (`NamedLambdaVariable`).
    LambdaVar(String, DataType),
}

/// The parts of a window function call (`WindowSpecDefinition`).
#[derive(Debug, Clone, PartialEq)]
pub struct WindowOver {
    /// The window function (`lag(...)`, `row_number()`) or aggregate.
    pub func: Expr,
    /// The `PARTITION BY` expressions (`Window.partitionBy`).
    pub partition: Vec<Expr>,
    /// (expression, ascending).
    pub order: Vec<(Expr, bool)>,
    /// An explicit frame (`rowsBetween`, `ROWS BETWEEN ...`); `None` = the function's default.
    pub frame: Option<WindowFrame>,
}

/// `ROWS|RANGE BETWEEN lower AND upper`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowFrame {
    /// True for a `ROWS` frame (`rowsBetween`), false for `RANGE` (`rangeBetween`).
    pub rows: bool,
    /// The frame's start.
    pub lower: FrameBound,
    /// The frame's end.
    pub upper: FrameBound,
}

/// One end of a window frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameBound {
    /// `UNBOUNDED PRECEDING` (`Window.unboundedPreceding`): the partition's first row.
    UnboundedPreceding,
    /// `CURRENT ROW` (`Window.currentRow`).
    CurrentRow,
    /// `UNBOUNDED FOLLOWING` (`Window.unboundedFollowing`): the partition's last row.
    UnboundedFollowing,
    /// Rows (or range units) from the current row: negative = preceding.
    Offset(i64),
}

impl FrameBound {
    /// Spark's SQL text (`UNBOUNDED PRECEDING`, `CURRENT ROW`, `2 PRECEDING`, `1 FOLLOWING`).
    pub fn sql(self) -> String {
        match self {
            FrameBound::UnboundedPreceding => "UNBOUNDED PRECEDING".into(),
            FrameBound::CurrentRow => "CURRENT ROW".into(),
            FrameBound::UnboundedFollowing => "UNBOUNDED FOLLOWING".into(),
            FrameBound::Offset(n) if n < 0 => format!("{} PRECEDING", n.unsigned_abs()),
            FrameBound::Offset(n) => format!("{n} FOLLOWING"),
        }
    }
}

/// Ranking and offset functions that exist only as window functions.
pub const WINDOW_ONLY_FUNCTIONS: &[&str] = &["lag", "lead", "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "nth_value"];

impl Expr {
    /// A column reference.
    pub fn col(name: &str) -> Expr {
        Expr::Column(name.to_string())
    }

    /// The name Spark gives this expression's output column when it has no alias
    /// (`count`, `window`, `upper(board)`, `(post_id + 1)`).
    pub fn output_name(&self) -> String {
        match self {
            Expr::Column(n) => unmarked(n).rsplit('.').next().unwrap_or(n).to_string(),
            Expr::Alias(_, n) => n.clone(),
            Expr::TimeWindow { .. } => "window".into(),
            Expr::SessionWindow { .. } => "session_window".into(),
            Expr::WindowTime(inner) => format!("window_time({})", inner.output_name()),
            Expr::Agg { func: AggFunc::Count, arg, distinct: false, .. } if matches!(**arg, Expr::Star) => {
                "count(1)".into()
            }
            other => other.pretty_name(),
        }
    }

    /// The SQL text Spark names an unaliased column by (`toPrettySQL`): like `Display`, but
    /// string literals without quotes (`concat(a, -)`, `F.lit('x')` is `x`) and defaults
    /// Spark fills in shown (`split(value, ,, -1)`).
    pub fn pretty_name(&self) -> String {
        self.pretty_text(true)
    }

    /// [`Self::pretty_name`], with lambda variables by name (`lambdafunction(x, x)`) when
    /// `resolved` is false, as Spark's analysis errors print the unresolved call.
    pub fn pretty_text(&self, resolved: bool) -> String {
        fn pretty(e: &Expr, resolved: bool) -> Expr {
            e.transform(&|x| match x {
                // A marker column prints its text as is (no qualifier cut).
                Expr::Literal(Value::Str(s)) => Some(Expr::Column(format!("\u{2}{s}"))),
                // `a != b` is `NOT (a = b)` in Spark's plan.
                Expr::Binary(BinOp::NotEq, l, r) => Some(Expr::Not(Box::new(Expr::Binary(BinOp::Eq, Box::new(pretty(l, resolved)), Box::new(pretty(r, resolved)))))),
                // A lambda's variables print as `namedlambdavariable()`.
                Expr::Lambda { params, body } if resolved => {
                    let var = || Expr::Column("\u{2}namedlambdavariable()".into());
                    let body = body.transform(&|x| match x {
                        Expr::Column(c) if params.iter().any(|p| p.eq_ignore_ascii_case(c)) => Some(var()),
                        _ => None,
                    });
                    Some(Expr::Lambda { params: params.iter().map(|_| "namedlambdavariable()".to_string()).collect(), body: Box::new(pretty(&body, resolved)) })
                }
                // `aggregate` without a finish gets the identity (`acc -> acc`).
                Expr::Function(n, args) if matches!(n.as_str(), "aggregate" | "reduce") && args.len() == 3 => {
                    let mut a = args.clone();
                    a.push(Expr::Lambda { params: vec!["acc".into()], body: Box::new(Expr::Column("acc".into())) });
                    Some(pretty(&Expr::Function(n.clone(), a), resolved))
                }
                // `extract(field FROM source)`.
                Expr::Function(n, args) if n == "extract" && args.len() == 2 => match &args[0] {
                    Expr::Literal(Value::Str(f)) => Some(Expr::Column(format!("\u{2}extract({f} FROM {})", pretty(&args[1], resolved)))),
                    _ => None,
                },
                // `assert_true(c)` carries its message: `'(c)' is not true!`.
                Expr::Function(n, args) if n == "assert_true" && args.len() == 1 => {
                    Some(pretty(&Expr::Function(n.clone(), vec![args[0].clone(), Expr::Literal(Value::str(&format!("'{}' is not true!", args[0])))]), resolved))
                }
                // `from_json(text, schema)` is named by its text alone.
                Expr::Function(n, args) if n == "from_json" && !args.is_empty() => Some(Expr::Function(n.clone(), vec![pretty(&args[0], resolved)])),
                // Spark's prefix forms of `positive` and `bitwise_not`.
                Expr::Function(n, args) if n == "positive" && args.len() == 1 => Some(Expr::Column(format!("\u{2}(+ {})", pretty(&args[0], resolved)))),
                Expr::Function(n, args) if n == "bitwise_not" && args.len() == 1 => Some(Expr::Column(format!("\u{2}~{}", pretty(&args[0], resolved)))),
                Expr::Function(n, args) if !matches!(n.as_str(), "get_field" | "get_item" | "like" | "in") => {
                    let mut a: Vec<Expr> = args.iter().map(|x| pretty(x, resolved)).collect();
                    a.extend(super::functions::names::filled_defaults(n, args.len()).into_iter().map(|v| pretty(&Expr::Literal(v), resolved)));
                    Some(Expr::Function(super::functions::names::printed_name(n, args.len()).to_string(), a))
                }
                _ => None,
            })
        }
        pretty(self, resolved).to_string()
    }

    /// True if the expression contains an aggregate function.
    pub fn contains_agg(&self) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= matches!(e, Expr::Agg { .. }));
        found
    }

    /// A copy with every sub-expression for which `f` returns `Some` replaced (parents first;
    /// a replaced node is not visited further).
    pub fn transform(&self, f: &dyn Fn(&Expr) -> Option<Expr>) -> Expr {
        if let Some(e) = f(self) {
            return e;
        }
        let t = |e: &Expr| Box::new(e.transform(f));
        match self {
            Expr::Alias(e, n) => Expr::Alias(t(e), n.clone()),
            Expr::Not(e) => Expr::Not(t(e)),
            Expr::Negate(e) => Expr::Negate(t(e)),
            Expr::IsNull(e, neg) => Expr::IsNull(t(e), *neg),
            Expr::Cast(e, ty) => Expr::Cast(t(e), ty.clone()),
            Expr::WindowTime(e) => Expr::WindowTime(t(e)),
            Expr::Lambda { params, body } => Expr::Lambda { params: params.clone(), body: t(body) },
            Expr::Binary(op, l, r) => Expr::Binary(*op, t(l), t(r)),
            Expr::Case { branches, otherwise } => Expr::Case {
                branches: branches.iter().map(|(c, v)| (c.transform(f), v.transform(f))).collect(),
                otherwise: otherwise.as_ref().map(|o| t(o)),
            },
            Expr::Function(n, args) => Expr::Function(n.clone(), args.iter().map(|a| a.transform(f)).collect()),
            Expr::TimeWindow { time, duration_us, slide_us, start_us } => {
                Expr::TimeWindow { time: t(time), duration_us: *duration_us, slide_us: *slide_us, start_us: *start_us }
            }
            Expr::SessionWindow { time, gap } => Expr::SessionWindow { time: t(time), gap: t(gap) },
            Expr::Agg { func, arg, by, distinct } => Expr::Agg { func: *func, arg: t(arg), by: by.as_ref().map(|b| t(b)), distinct: *distinct },
            Expr::Over(w) => Expr::Over(Box::new(WindowOver {
                func: w.func.transform(f),
                partition: w.partition.iter().map(|p| p.transform(f)).collect(),
                order: w.order.iter().map(|(o, asc)| (o.transform(f), *asc)).collect(),
                frame: w.frame,
            })),
            other => other.clone(),
        }
    }

    /// Calls `f` on this expression and every sub-expression, parents first.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Alias(e, _) | Expr::Not(e) | Expr::Negate(e) | Expr::IsNull(e, _) | Expr::Cast(e, _) => e.visit(f),
            Expr::WindowTime(e) | Expr::Lambda { body: e, .. } => e.visit(f),
            Expr::Binary(_, l, r) => {
                l.visit(f);
                r.visit(f);
            }
            Expr::Case { branches, otherwise } => {
                for (c, v) in branches {
                    c.visit(f);
                    v.visit(f);
                }
                if let Some(o) = otherwise {
                    o.visit(f);
                }
            }
            Expr::Function(_, args) => args.iter().for_each(|a| a.visit(f)),
            Expr::TimeWindow { time, .. } => time.visit(f),
            Expr::SessionWindow { time, gap } => {
                time.visit(f);
                gap.visit(f);
            }
            Expr::Agg { arg, by, .. } => {
                arg.visit(f);
                if let Some(b) = by {
                    b.visit(f);
                }
            }
            Expr::Over(w) => {
                w.func.visit(f);
                w.partition.iter().for_each(|p| p.visit(f));
                w.order.iter().for_each(|(o, _)| o.visit(f));
            }
            Expr::Column(_) | Expr::Star | Expr::Literal(_) | Expr::Interval(_) | Expr::LambdaVar(..) => {}
        }
    }
}

/// True for the name [`crate::frontend`] gives a SQL interval literal's value.
fn is_interval_literal(e: &Expr, name: &str) -> bool {
    matches!(e, Expr::Interval(_)) && name.starts_with("INTERVAL '")
}

/// The mark at the start of a column's name that was taken from a DataFrame with no watermark
/// on it (`words.timestamp` with `words` below `withWatermark`): the attribute it binds to has
/// no event-time tag (`EventTimeWatermark.delayKey` metadata), as the DataFrame's own
/// attribute has none. Printed names never show it.
pub const UNWATERMARKED: char = '\u{3}';

/// The mark at the start of a timestamp column's name taken from a DataFrame that joins
/// streams (`joined.clickTime`): Spark's column carries the DataFrame's id
/// (`Dataset.DATASET_ID_KEY`), which a window over it passes on to the `window` column, and
/// `DetectAmbiguousSelfJoin` then cannot find that column in the DataFrame
/// (`_LEGACY_ERROR_TEMP_1182`). Printed names never show it.
pub const JOINED_DATASET_COLUMN: char = '\u{4}';

/// `name` without the column marks ([`UNWATERMARKED`], [`JOINED_DATASET_COLUMN`]).
pub fn unmarked(name: &str) -> &str {
    name.trim_start_matches([UNWATERMARKED, JOINED_DATASET_COLUMN])
}

impl fmt::Display for Expr {
    /// SQL-like text, close to how Spark prints expressions in plans.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // `clicks.post_id` (a qualified `df.col`) prints as Spark names it: `post_id`.
            Expr::Column(n) if n.starts_with('\u{2}') => f.write_str(&n[1..]),
            Expr::Column(n) => f.write_str(unmarked(n).rsplit('.').next().unwrap_or(n)),
            Expr::Star => f.write_str("*"),
            Expr::Literal(Value::Str(s)) => write!(f, "'{s}'"),
            Expr::Literal(v) => write!(f, "{v}"),
            Expr::Interval(i) => {
                let us = i.micros + i64::from(i.days) * crate::types::time::MICROS_PER_DAY;
                if i.months != 0 {
                    write!(f, "INTERVAL '{} months {}'", i.months, format_duration_us(us))
                } else {
                    write!(f, "INTERVAL '{}'", format_duration_us(us))
                }
            }
            // A SQL interval literal named by Spark's text for it (`INTERVAL '02' HOUR`).
            Expr::Alias(e, n) if is_interval_literal(e, n) => f.write_str(n),
            Expr::Alias(e, n) => write!(f, "{e} AS {n}"),
            // `ts + INTERVAL ...`: Spark's `TimestampAddInterval` / `DatetimeSub` print without
            // brackets.
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) if matches!(&**r, Expr::Alias(e, n) if is_interval_literal(e, n)) => write!(f, "{l} {} {r}", op.symbol()),
            Expr::Binary(op, l, r) => write!(f, "({l} {} {r})", op.symbol()),
            Expr::Not(e) => write!(f, "(NOT {e})"),
            // Spark 4 prints `UnaryMinus` as `negative(n)`.
            Expr::Negate(e) => write!(f, "negative({e})"),
            Expr::IsNull(e, false) => write!(f, "({e} IS NULL)"),
            Expr::IsNull(e, true) => write!(f, "({e} IS NOT NULL)"),
            Expr::Case { branches, otherwise } => {
                f.write_str("CASE")?;
                for (c, v) in branches {
                    write!(f, " WHEN {c} THEN {v}")?;
                }
                if let Some(o) = otherwise {
                    write!(f, " ELSE {o}")?;
                }
                f.write_str(" END")
            }
            Expr::Cast(e, t) => write!(f, "CAST({e} AS {})", crate::types::spark_type_name(t).to_uppercase()),
            // `try_cast(x AS t)` / `Column.try_cast`: Spark's `Cast` with `EvalMode.TRY`, written
            // `TRY_CAST(x AS T)`; here a cast wrapped in the `try_cast` marker.
            Expr::Function(n, args) if n == "try_cast" && args.len() == 1 => match &args[0] {
                Expr::Cast(e, t) => write!(f, "TRY_CAST({e} AS {})", crate::types::spark_type_name(t).to_uppercase()),
                other => write!(f, "try_cast({other})"),
            },
            // `getField` / `col['field']` / `col.field`: Spark's SQL text is `window.start`.
            Expr::Function(n, args) if n == "get_field" && args.len() == 2 => match &args[1] {
                Expr::Literal(Value::Str(field)) => write!(f, "{}.{field}", args[0]),
                Expr::Column(field) if field.starts_with('\u{2}') => write!(f, "{}.{}", args[0], &field[1..]),
                other => write!(f, "{}[{other}]", args[0]),
            },
            Expr::Function(n, args) if n == "get_item" && args.len() == 2 => write!(f, "{}[{}]", args[0], args[1]),
            Expr::Function(n, args) if n == "like" && args.len() == 2 => write!(f, "{} LIKE {}", args[0], args[1]),
            // `StringTrim(src, trimStr)` and its sides print as SQL's `TRIM(BOTH x FROM s)`.
            Expr::Function(n, args) if matches!(n.as_str(), "trim" | "ltrim" | "rtrim") && args.len() == 2 => {
                let side = match n.as_str() {
                    "ltrim" => "LEADING",
                    "rtrim" => "TRAILING",
                    _ => "BOTH",
                };
                write!(f, "TRIM({side} {} FROM {})", args[1], args[0])
            }
            // `Extract(field, source)`: `extract(HOUR FROM t)`, the field as written.
            Expr::Function(n, args) if n == "extract" && args.len() == 2 => match &args[0] {
                Expr::Literal(Value::Str(field)) => write!(f, "extract({field} FROM {})", args[1]),
                Expr::Column(field) if field.starts_with('\u{2}') => write!(f, "extract({} FROM {})", &field[1..], args[1]),
                other => write!(f, "extract({other} FROM {})", args[1]),
            },
            Expr::Function(n, args) if n == "in" && !args.is_empty() => {
                write!(f, "({} IN (", args[0])?;
                for (i, a) in args[1..].iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str("))")
            }
            Expr::Function(n, args) => {
                write!(f, "{n}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Expr::TimeWindow { time, duration_us, slide_us, start_us } => {
                write!(f, "window({time}, {}", format_duration_us(*duration_us))?;
                if slide_us != duration_us || *start_us != 0 {
                    write!(f, ", {}", format_duration_us(*slide_us))?;
                }
                if *start_us != 0 {
                    write!(f, ", {}", format_duration_us(*start_us))?;
                }
                f.write_str(")")
            }
            Expr::SessionWindow { time, gap } => write!(f, "session_window({time}, {gap})"),
            Expr::WindowTime(e) => write!(f, "window_time({e})"),
            // Spark's SQL text of a `LambdaFunction`: `lambdafunction((x + 1), x)`.
            Expr::Lambda { params, body } => write!(f, "lambdafunction({body}, {})", params.join(", ")),
            Expr::LambdaVar(n, _) => f.write_str(n),
            Expr::Agg { func, arg, by, distinct } => {
                let arg = if matches!(**arg, Expr::Star) { "1".to_string() } else { arg.to_string() };
                let arg = match by {
                    Some(b) => format!("{arg}, {b}"),
                    None => arg,
                };
                if *distinct {
                    write!(f, "{}(DISTINCT {arg})", func.name())?;
                } else {
                    write!(f, "{}({arg})", func.name())?;
                }
                match func {
                    AggFunc::First { ignore_nulls: true } | AggFunc::Last { ignore_nulls: true } => f.write_str(" ignore nulls"),
                    _ => Ok(()),
                }
            }
            Expr::Over(w) => {
                write!(f, "{} OVER (", w.func)?;
                let mut parts = Vec::new();
                if !w.partition.is_empty() {
                    parts.push(format!("PARTITION BY {}", w.partition.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")));
                }
                if !w.order.is_empty() {
                    let o: Vec<String> = w.order.iter().map(|(e, asc)| format!("{e} {}", if *asc { "ASC" } else { "DESC" })).collect();
                    parts.push(format!("ORDER BY {}", o.join(", ")));
                }
                if let Some(fr) = w.frame {
                    parts.push(format!("{} BETWEEN {} AND {}", if fr.rows { "ROWS" } else { "RANGE" }, fr.lower.sql(), fr.upper.sql()));
                }
                write!(f, "{})", parts.join(" "))
            }
        }
    }
}
