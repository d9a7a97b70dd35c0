//! `df.printSchema()` and `print(df.schema)` against real Spark: every program of
//! `fixtures/print_schema.json` (recorded on PySpark 4.3.0 by `scripts/gen_schema_fixture.py`)
//! is built in the lab, which must print what Spark printed: each column's type and whether
//! Spark calls it nullable, through projections, windows, aggregations, deduplication,
//! `limit`, joins and unions.

#![allow(clippy::disallowed_methods)] // a test may read files

use std::path::PathBuf;

use streamlab_engine::frontend::{compile_traced, Catalog};
use streamlab_engine::types::{timestamp_type, DataType};

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![("event_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())],
    );
    c.statics.insert("posts".into(), (vec![("post_id".into(), DataType::Int64), ("board".into(), DataType::Utf8)], std::rc::Rc::new(vec![])));
    c
}

#[test]
fn print_schema_prints_what_spark_printed() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/print_schema.json");
    let cases: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(&path).expect("the fixture")).expect("JSON");
    assert!(cases.len() >= 30, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for case in &cases {
        let query = case["query"].as_str().expect("query");
        let level = case["level"].as_i64().map_or(String::new(), |l| l.to_string());
        let program = format!("df = {query}\ndf.printSchema({level})\nprint(df.schema)\ndf");
        let (result, traced) = compile_traced(&program, &catalog());
        if let Err(e) = result {
            wrong.push(format!("{query}\n  failed: {e:?}"));
            continue;
        }
        let want = vec![case["print_schema"].as_str().expect("tree").to_string(), case["schema_repr"].as_str().expect("repr").to_string()];
        if traced.printed != want {
            wrong.push(format!("{query} (level {level})\n  Spark printed:\n{}\n{}\n  the lab printed:\n{}", want[0], want[1], traced.printed.join("\n")));
        }
    }
    assert!(wrong.is_empty(), "{} of {} differ:\n\n{}", wrong.len(), cases.len(), wrong.join("\n\n"));
}

/// `explain()` prints Spark's physical plan, which the lab does not build: the program's output
/// says where the lab's plan is, for the DataFrame's and the query's alike.
#[test]
fn explain_says_where_the_labs_plan_is() {
    let program = "df = clicks.groupBy('post_id').count()\ndf.explain()\nq = df.writeStream.outputMode('update').format('console').start()\nq.explain()\ndf";
    let (result, traced) = compile_traced(program, &catalog());
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(traced.printed.len(), 2, "{:?}", traced.printed);
    assert!(traced.printed.iter().all(|l| l.starts_with("(explain(): Spark prints its physical plan here") && l.contains("\"Analyzed plan\"")), "{:?}", traced.printed);
}

/// `printSchema('x')`: PySpark 4.3 passed the string on to the JVM, which has no such method, and
/// raised `Py4JError` (`Method treeString([class java.lang.String]) does not exist`).
#[test]
fn a_level_that_is_no_int_is_the_jvms_error() {
    use streamlab_engine::error::Error;
    let (result, _) = compile_traced("clicks.printSchema('x')\nclicks", &catalog());
    let Err(Error::Analysis(a)) = result else { panic!("{result:?}") };
    assert_eq!(a.python_exception, Some("Py4JError"));
    assert!(a.message.ends_with("py4j.Py4JException: Method treeString([class java.lang.String]) does not exist"), "{}", a.message);
}
