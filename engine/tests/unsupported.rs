//! Constructs Streamlab does not run: window functions fail at `start()` as in Spark
//! (`NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING`), and a real PySpark API the engine does not
//! model is reported as unsupported — never as a made-up error — while a name PySpark does
//! not have is still an error.

use serde_json::json;
use streamlab_engine::analysis::{resolve, UnsupportedOperationChecker};
use streamlab_engine::frontend::{compile, prelude_names, Catalog};
use streamlab_engine::scenario::{check, Scenario, Verdict};
use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::{timestamp_type, DataType};
use streamlab_engine::Error;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    let clicks = vec![("event_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())];
    c.streams.insert("clicks".into(), clicks);
    c
}

/// The start() error of `query` in append mode.
fn start_error(query: &str) -> String {
    let compiled = compile(query, &catalog()).expect("compiles");
    let plan = resolve(&compiled.plan).expect("a window function is accepted when the DataFrame is defined");
    match UnsupportedOperationChecker::check_for_streaming(&plan, OutputMode::Append) {
        Err(Error::Analysis(a)) => format!("[{}] {}", a.error_class, a.message),
        other => panic!("expected a start error, got {other:?}"),
    }
}

#[test]
fn window_functions_name_the_function_column_and_default_frame() {
    let e = start_error("clicks.withColumn('prev', F.lag('post_id', 2).over(Window.partitionBy('user_id').orderBy('event_time')))");
    assert_eq!(
        e,
        "[NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING] Window function is not supported in LAG(POST_ID#2L, -2, NULL) (as column `prev`) on streaming DataFrames/Datasets.\n\
         Structured Streaming only supports time-window aggregation using the WINDOW function. (window specification: (PARTITION BY USER_ID ORDER BY EVENT_TIME ASC NULLS FIRST ROWS BETWEEN -2 FOLLOWING AND -2 FOLLOWING))"
    );
    // An aggregate with an ordering and no frame: RANGE up to the current row; an explicit
    // frame is printed as written.
    let e = start_error("clicks.select(F.max('post_id').over(Window.partitionBy('user_id').orderBy(F.desc('event_time'))).alias('m'))");
    assert!(e.contains("MAX(POST_ID#2L) (as column `m`)") && e.contains("ORDER BY EVENT_TIME DESC NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))"), "{e}");
    let e = start_error("clicks.select(F.count('*').over(Window.partitionBy('user_id').orderBy('event_time').rowsBetween(-2, Window.currentRow)).alias('n'))");
    assert!(e.contains("COUNT(1)") && e.contains("ROWS BETWEEN 2 PRECEDING AND CURRENT ROW))"), "{e}");
    let e = start_error("clicks.selectExpr('event_id', 'dense_rank() OVER (ORDER BY event_time) AS r')");
    assert!(e.contains("DENSE_RANK(EVENT_TIME#3) (as column `r`)") && e.contains("(ORDER BY EVENT_TIME ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"), "{e}");
}

#[test]
fn a_ranking_function_without_over_fails_when_defined() {
    let compiled = compile("clicks.select(F.row_number())", &catalog()).expect("compiles");
    match resolve(&compiled.plan) {
        Err(Error::Analysis(a)) => assert_eq!(a.error_class, "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn prelude_names_are_the_top_level_definitions_and_imports() {
    let names = prelude_names(
        "import pandas as pd\nfrom pyspark.sql import Window\nfrom x.y import a, b as c\n\ndef count_state(key, pdfs, state):\n    n = 0\n    return n\nclass Proc:\n    pass\nLIMIT = 3\nif LIMIT == 3:\n    pass\n",
    );
    let got: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(got, vec!["LIMIT", "Proc", "a", "c", "count_state", "pd"]);
}

fn scenario(query: &str, prelude: &str) -> Scenario {
    Scenario::from_json(
        &json!({
            "id": "t",
            "sources": {"clicks": {"schema": [["event_id", "string"], ["user_id", "string"], ["post_id", "long"], ["event_time", "timestamp"]]}},
            "steps": [{"clicks": [{"event_id": "e1", "user_id": "u1", "post_id": 1, "event_time": "2026-01-01T12:00:00Z"}]}],
            "prelude": prelude,
            "query": query,
            "output_mode": "update",
            "expected": {"spark_version": "4.3.0", "error": null, "output_schema": null, "batches": []}
        })
        .to_string(),
    )
    .expect("valid scenario")
}

#[test]
fn a_pyspark_api_not_modelled_is_unsupported_and_a_typo_is_a_failure() {
    let s = scenario(
        "clicks.groupBy('user_id').applyInPandas(per_user, 'user_id STRING, n LONG')",
        "def per_user(pdf):\n    return pdf\n",
    );
    assert_eq!(check(&s), Verdict::Unsupported("GroupedData.applyInPandas()".into()));
    // Calling a prelude function whose body is more than assignments and a return (here an
    // `if`): Streamlab does not run it where the program calls it.
    let s = scenario("clicks.select(my_udf('user_id'))", "def my_udf(x):\n    if x:\n        return x\n    return None\n");
    assert!(matches!(check(&s), Verdict::Unsupported(f) if f.contains("my_udf")));
    // A real SQL function Streamlab has not implemented.
    let s = scenario("clicks.filter(\"sentences(user_id)[0][0] = 'u1'\")", "");
    assert_eq!(check(&s), Verdict::Unsupported("the function sentences()".into()));
    // Not a PySpark method at all: Python's AttributeError, a plain failure of the case.
    let s = scenario("clicks.groupBy('user_id').mapGroupsWithState('x')", "");
    assert!(matches!(check(&s), Verdict::Fail(_)));
}

/// The append-mode refusal names what is missing. With no withWatermark at all it says to add
/// one; with a withWatermark whose column the grouping does not carry (the programming guide's
/// Python form, `F.window(clicks.event_time, ...)`: that column comes from the DataFrame before
/// the watermark) it says so, instead of asking for the withWatermark already there. Spark's
/// condition and message are the same in both cases.
#[test]
fn append_without_a_watermark_hints_at_the_column_from_before_the_watermark() {
    let hint = |query: &str| {
        let compiled = compile(query, &catalog()).expect("compiles");
        let plan = resolve(&compiled.plan).expect("resolves");
        match UnsupportedOperationChecker::check_for_streaming(&plan, OutputMode::Append) {
            Err(Error::Analysis(a)) => {
                assert_eq!(a.error_class, "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION");
                a.hint.clone().unwrap_or_default()
            }
            other => panic!("expected a start error, got {other:?}"),
        }
    };
    let none = hint("clicks.groupBy(F.window('event_time', '10 minutes')).count()");
    assert!(none.starts_with("append emits a group only once it can never change"), "{none}");
    let guide = hint("clicks.withWatermark('event_time', '10 minutes').groupBy(F.window(clicks.event_time, '10 minutes'), clicks.post_id).count()");
    assert!(guide.starts_with("the query has withWatermark('event_time', ...), but no grouping column carries the watermark: a column taken from the DataFrame before withWatermark (df.event_time) has none; name the column as a string (F.window('event_time', ...))"), "{guide}");
    // The hint names the column the query's withWatermark tags, not the example's: the
    // guide's `words.timestamp` over a select that renames event_time.
    let renamed = hint("words = clicks.select(F.col('event_time').alias('timestamp'), F.col('user_id').alias('word'))\nwords.withWatermark('timestamp', '10 minutes').groupBy(F.window(words.timestamp, '10 minutes'), words.word).count()");
    assert!(renamed.contains("(df.timestamp) has none; name the column as a string (F.window('timestamp', ...))"), "{renamed}");
}

/// An ambiguous column's hint names what tells the candidates apart: the aliases the sides
/// have (`c.user_id or o.user_id`), or, when the sides are DataFrames read as they are (the
/// helper's `c.join(o, F.expr("user_id = user_id ..."))` with no alias), a name to give each
/// first, from the relation it reads. Spark's condition and message are unchanged.
#[test]
fn an_ambiguous_column_s_hint_names_the_sides() {
    let mut cat = catalog();
    cat.streams.insert("orders".into(), vec![("order_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("order_time".into(), timestamp_type())]);
    let hint = |query: &str| {
        let compiled = compile(query, &cat).expect("compiles");
        match resolve(&compiled.plan) {
            Err(Error::Analysis(a)) => {
                assert_eq!(a.error_class, "AMBIGUOUS_REFERENCE");
                a.hint.clone().unwrap_or_default()
            }
            other => panic!("expected an ambiguous reference, got {other:?}"),
        }
    };
    let bare = hint("clicks.join(orders, F.expr('user_id = user_id'))");
    assert_eq!(bare, "give each side a name first (clicks.alias('c'), orders.alias('o')), then qualify the column with it (c.user_id = o.user_id)");
    let aliased = hint("clicks.alias('c').join(orders.alias('o'), F.expr('c.user_id = o.user_id')).select('user_id')");
    assert_eq!(aliased, "qualify the column with its relation's name or alias (c.user_id or o.user_id)");
}
