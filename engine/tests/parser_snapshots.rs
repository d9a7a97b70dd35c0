//! Snapshots of the frontend: each supported PySpark construct compiled against a small
//! catalog, snapshotting the `LogicalPlan` tree (`compiled.plan.to_string()`), and the error
//! (message and span) for a few broken or unsupported inputs.
//!
//! The query text is stored as each snapshot's description, so a `.snap` file can be read on
//! its own. To accept a deliberate change: `INSTA_UPDATE=always cargo test -p
//! streamlab-engine --test parser_snapshots`, then read the changed `.snap` files before
//! committing them.

use std::rc::Rc;

use streamlab_engine::frontend::{compile, Catalog};
use streamlab_engine::types::{timestamp_type, DataType, Value};
use streamlab_engine::Error;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![
            ("event_id".into(), DataType::Utf8),
            ("post_id".into(), DataType::Int64),
            ("user_id".into(), DataType::Utf8),
            ("event_time".into(), timestamp_type()),
        ],
    );
    c.streams.insert(
        "impressions".into(),
        vec![("imp_post_id".into(), DataType::Int64), ("imp_time".into(), timestamp_type())],
    );
    c.statics.insert(
        "posts".into(),
        (
            vec![("post_id".into(), DataType::Int64), ("author".into(), DataType::Utf8)],
            Rc::new(vec![vec![Value::Long(1), Value::str("ann")], vec![Value::Long(2), Value::str("bo")]]),
        ),
    );
    c
}

/// The plan tree of `query`, plus the output mode when the text sets one.
fn plan(query: &str) -> String {
    match compile(query, &catalog()) {
        Ok(c) => match c.output_mode {
            Some(m) => format!("{}outputMode: {}\n", c.plan, m.as_str()),
            None => c.plan.to_string(),
        },
        Err(e) => panic!("{query}\nshould compile, but: {e:?}"),
    }
}

/// The error `query` fails with: kind, message and span (with the text it covers).
fn error(query: &str) -> String {
    let err = match compile(query, &catalog()) {
        Ok(c) => panic!("{query}\nshould fail, but compiled to:\n{}", c.plan),
        Err(e) => e,
    };
    let covered = |start: usize, end: usize| query.get(start..end).map_or_else(|| "<out of range>".to_string(), |s| format!("{s:?}"));
    match err {
        Error::Parse(p) => format!(
            "ParseError: {}\nspan: {}..{} {}\n",
            p.message,
            p.span.start,
            p.span.end,
            covered(p.span.start, p.span.end)
        ),
        Error::Analysis(a) => {
            let span = a.span.map_or_else(|| "none".to_string(), |s| format!("{}..{} {}", s.start, s.end, covered(s.start, s.end)));
            format!("AnalysisError at {:?}: [{}] {}\nspan: {span}\n", a.stage, a.error_class, a.message)
        }
        other => format!("{other:?}\n"),
    }
}

/// Snapshots `$f(query)` under `name`, with the query as the snapshot's description.
macro_rules! snap {
    ($name:literal, $f:ident, $query:expr) => {{
        let query: &str = $query;
        insta::with_settings!({ description => query, omit_expression => true }, {
            insta::assert_snapshot!($name, $f(query));
        });
    }};
}

#[test]
fn watermark() {
    snap!("watermark", plan, "clicks.withWatermark('event_time', '10 minutes')");
    snap!("watermark_kwargs", plan, "clicks.withWatermark(eventTime='event_time', delayThreshold='1 hour 30 seconds')");
}

#[test]
fn select() {
    snap!(
        "select_strings_columns_alias",
        plan,
        "clicks.select('post_id', F.col('event_time'), clicks.user_id, clicks['event_id'].alias('id'), F.col('post_id').alias('pid'))"
    );
    snap!("select_star", plan, "clicks.select('*')");
}

#[test]
fn select_expr() {
    snap!("select_expr", plan, "clicks.selectExpr('post_id', 'upper(user_id) AS u', 'post_id + 1 AS next', '*')");
}

#[test]
fn filter_sql_string() {
    snap!("filter_sql_string", plan, "clicks.filter(\"post_id > 2 AND user_id = 'u1' OR post_id IS NULL\")");
    snap!("where_sql_string", plan, "clicks.where('post_id != 3')");
}

#[test]
fn filter_columns() {
    // Python precedence: & binds tighter than |, comparisons need their own parentheses.
    snap!(
        "filter_columns_and_or",
        plan,
        "clicks.filter((F.col('post_id') > 2) & (F.col('user_id') == 'u1') | (F.col('post_id') <= 1))"
    );
    snap!("filter_columns_not", plan, "clicks.filter(~(clicks.post_id >= 2) & F.col('user_id').isNotNull())");
}

#[test]
fn with_column() {
    snap!("with_column", plan, "clicks.withColumn('score', F.col('post_id') * 2 + 1)");
}

#[test]
fn group_by_window() {
    snap!(
        "group_by_window_2_args",
        plan,
        "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()"
    );
    snap!(
        "group_by_window_3_args",
        plan,
        "clicks.groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()"
    );
    snap!(
        "group_by_window_4_args",
        plan,
        "clicks.groupBy(F.window(F.col('event_time'), '1 hour', '15 minutes', '5 minutes')).count()"
    );
}

#[test]
fn agg() {
    snap!(
        "agg_functions_alias",
        plan,
        "clicks.groupBy('post_id').agg(F.count('*').alias('n'), F.sum('post_id').alias('s'), F.avg('post_id'), \
         F.min('event_time'), F.max('event_time').alias('last'), F.approx_count_distinct('user_id').alias('users'))"
    );
    snap!("agg_global", plan, "clicks.agg(F.count('*'))");
}

#[test]
fn dedup() {
    snap!(
        "drop_duplicates_keys",
        plan,
        "clicks.withWatermark('event_time', '10 minutes').dropDuplicates(['event_id', 'event_time'])"
    );
    snap!("drop_duplicates_all", plan, "clicks.dropDuplicates()");
    snap!(
        "drop_duplicates_within_watermark",
        plan,
        "clicks.withWatermark('event_time', '10 minutes').dropDuplicatesWithinWatermark(['event_id'])"
    );
    snap!("distinct", plan, "clicks.select('user_id').distinct()");
}

#[test]
fn limit_union_order() {
    snap!("limit", plan, "clicks.limit(5)");
    snap!("union", plan, "clicks.select('post_id').union(impressions.select(F.col('imp_post_id').alias('post_id')))");
    snap!(
        "order_by",
        plan,
        "clicks.groupBy('post_id').count().orderBy(F.desc('count'), 'post_id')"
    );
    snap!("order_by_ascending_false", plan, "clicks.groupBy('post_id').count().orderBy('count', ascending=False)");
}

#[test]
fn join() {
    snap!("join_on_string", plan, "clicks.join(posts, 'post_id')");
    snap!("join_on_list_how", plan, "clicks.join(posts, ['post_id'], 'left_outer')");
    snap!(
        "join_on_expression_how_kwarg",
        plan,
        "clicks.join(impressions, (F.col('post_id') == F.col('imp_post_id')) & (F.col('imp_time') <= F.col('event_time')), how='left')"
    );
    snap!(
        "join_on_expr_interval",
        plan,
        "clicks.withWatermark('event_time', '10 minutes').join(\n  impressions.withWatermark('imp_time', '20 minutes'),\n  F.expr('post_id = imp_post_id AND event_time BETWEEN imp_time AND imp_time + INTERVAL 1 HOUR'),\n  'inner')"
    );
}

#[test]
fn when_otherwise() {
    snap!(
        "when_otherwise",
        plan,
        "clicks.withColumn('bucket', F.when(F.col('post_id') > 2, 'high').when(F.col('post_id') == 2, 'mid').otherwise('low'))"
    );
}

#[test]
fn expr_interval_and_cast() {
    snap!("expr_interval", plan, "clicks.withColumn('deadline', F.expr(\"event_time + INTERVAL 10 MINUTES\"))");
    snap!("filter_expr_interval", plan, "clicks.filter(F.expr(\"event_time - interval '1' hour < event_time\"))");
    snap!("cast_sql", plan, "clicks.selectExpr('CAST(post_id AS STRING) AS pid', 'CAST(event_time AS LONG)')");
    snap!("cast_column", plan, "clicks.select(F.col('post_id').cast('string').alias('pid'))");
}

#[test]
fn write_stream_output_mode() {
    snap!(
        "write_stream_output_mode",
        plan,
        "clicks.groupBy('post_id').count().writeStream.outputMode('update')"
    );
}

#[test]
fn assignments() {
    snap!(
        "assignments",
        plan,
        "c = clicks.withWatermark('event_time', '10 minutes')\ncounts = c.groupBy(F.window('event_time', '5 minutes'), 'post_id').count()\ncounts.writeStream.outputMode('append')"
    );
}

#[test]
fn errors() {
    snap!("error_unclosed_paren", error, "clicks.groupBy('post_id'.count()");
    snap!("error_unknown_method", error, "clicks.explode('x')");
    snap!("error_unknown_function", error, "clicks.select(F.nope('x'))");
    snap!("error_bad_interval", error, "clicks.withWatermark('event_time', '10 minuts')");
    snap!("error_bad_window_interval", error, "clicks.groupBy(F.window('event_time', '10 minuts')).count()");
    snap!("error_count_on_stream", error, "clicks.count()");
    snap!("error_unknown_name", error, "click.select('post_id')");
}
