//! PySpark programs as learners paste them: keyword arguments, imports, several statements, and
//! the errors Python and PySpark raise while the DataFrame is built. Every expected message below
//! was printed by PySpark 4.3.0 (Python 3.11) for the same call on a streaming DataFrame.

use streamlab_engine::error::Error;
use streamlab_engine::frontend::{compile, compile_traced, Catalog};
use streamlab_engine::types::{timestamp_type, DataType};

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert(
        "clicks".into(),
        vec![("event_id".into(), DataType::Utf8), ("user_id".into(), DataType::Utf8), ("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())],
    );
    c
}

fn plan(text: &str) -> String {
    match compile(text, &catalog()) {
        Ok(e) => e.plan.to_string(),
        Err(e) => panic!("{text}\n  failed: {e:?}"),
    }
}

/// (exception class, error condition, message) of a define-time error.
fn error(text: &str) -> (String, String, String) {
    match compile(text, &catalog()) {
        Err(Error::Analysis(a)) => (a.exception_class().to_string(), a.error_class.clone(), a.message.clone()),
        Err(other) => panic!("{text}\n  gave another error: {other:?}"),
        Ok(_) => panic!("{text}\n  compiled"),
    }
}

fn python(exception: &str, message: &str) -> (String, String, String) {
    (exception.into(), String::new(), message.into())
}

/// What the program's `print(...)` calls wrote; the program must compile.
fn printed(program: &str) -> Vec<String> {
    let (result, traced) = compile_traced(program, &catalog());
    assert!(result.is_ok(), "{program}\n  failed: {result:?}");
    traced.printed
}

#[test]
fn keyword_arguments_build_the_same_plan_as_positional_ones() {
    let pairs = [
        (
            "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()",
            "clicks.withWatermark(eventTime='event_time', delayThreshold='10 minutes').groupBy(F.window(timeColumn='event_time', slideDuration='5 minutes', windowDuration='10 minutes'), 'post_id').count()",
        ),
        ("clicks.join(clicks.alias('o'), 'post_id', 'left_outer')", "clicks.join(other=clicks.alias('o'), how='left_outer', on='post_id')"),
        ("clicks.dropDuplicates(['event_id'])", "clicks.dropDuplicates(subset=['event_id'])"),
        ("clicks.select(F.split('event_id', '-').alias('parts'))", "clicks.select(F.split(str='event_id', pattern='-', limit=-1).alias('parts'))"),
        ("clicks.filter(F.col('post_id') > 1)", "clicks.where(condition=F.col('post_id') > 1)"),
    ];
    for (positional, keywords) in pairs {
        assert_eq!(plan(positional), plan(keywords), "{keywords}");
    }
}

#[test]
fn python_type_errors_say_what_python_says() {
    assert_eq!(error("clicks.dropDuplicates('a', 'b')"), python("TypeError", "DataFrame.dropDuplicates() takes from 1 to 2 positional arguments but 3 were given"));
    assert_eq!(error("clicks.withWatermark(eventTime='event_time', delay='1 minute')"), python("TypeError", "DataFrame.withWatermark() got an unexpected keyword argument 'delay'"));
    assert_eq!(error("clicks.withWatermark('event_time')"), python("TypeError", "DataFrame.withWatermark() missing 1 required positional argument: 'delayThreshold'"));
    assert_eq!(error("clicks.isStreaming()"), python("TypeError", "'bool' object is not callable"));
    assert_eq!(error("clicks.select(F.col('post_id').foo())"), python("TypeError", "'Column' object is not callable"));
}

#[test]
fn pyspark_argument_checks_keep_their_conditions() {
    let e = |cls: &str, cond: &str, msg: &str| (cls.to_string(), cond.to_string(), msg.to_string());
    assert_eq!(error("clicks.dropDuplicates('event_id')"), e("PySparkTypeError", "NOT_EXPECTED_TYPE", "Argument `subset` should be list or tuple, got str."));
    assert_eq!(error("clicks.withColumn('x', 'post_id')"), e("PySparkTypeError", "NOT_EXPECTED_TYPE", "Argument `col` should be Column, got str."));
    assert_eq!(error("clicks.filter(5)"), e("PySparkTypeError", "NOT_EXPECTED_TYPE", "Argument `condition` should be Column or str, got int."));
    assert_eq!(error("clicks.select(F.col('post_id').cast(5))"), e("PySparkTypeError", "NOT_EXPECTED_TYPE", "Argument `dataType` should be DataType or str, got int."));
    assert_eq!(error("clicks.groupBy('user_id').sum(F.col('post_id'))"), e("PySparkTypeError", "NOT_ITERABLE", "Column is not iterable."));
    assert_eq!(error("clicks.explode"), e("PySparkAttributeError", "ATTRIBUTE_NOT_SUPPORTED", "Attribute `explode` is not supported."));
    assert_eq!(error("clicks.groupBy('user_id').foo()"), python("AttributeError", "'GroupedData' object has no attribute 'foo'"));
    assert_eq!(error("F.foo('x')"), python("AttributeError", "module 'pyspark.sql.functions' has no attribute 'foo'"));
    assert_eq!(error("clicks.writeStream.foo()"), python("AttributeError", "'DataStreamWriter' object has no attribute 'foo'"));
}

#[test]
fn python_truth_values_of_columns_are_refused_as_pyspark_does() {
    let bool_error = |column: &str| {
        (
            "PySparkValueError".to_string(),
            "CANNOT_CONVERT_COLUMN_INTO_BOOL".to_string(),
            format!("Cannot convert column into bool (offending column: {column}): please use '&' for 'and', '|' for 'or', '~' for 'not' when building DataFrame boolean expressions."),
        )
    };
    assert_eq!(error("clicks.filter((F.col('post_id') > 1) and (F.col('user_id') == 'u1'))"), bool_error(">(post_id, 1)"));
    assert_eq!(error("clicks.filter(not F.col('post_id'))"), bool_error("post_id"));
    // A column taken from the DataFrame prints as its name (PySpark 4.3 printed `value` for
    // `df.value`).
    assert_eq!(error("clicks.filter((clicks.post_id > 1) and (clicks.user_id == 'u1'))"), bool_error(">(post_id, 1)"));
    assert_eq!(error("clicks.filter(F.col('post_id') or F.col('user_id'))"), bool_error("post_id"));
    assert_eq!(error("clicks.filter(F.col('post_id') in [1, 2])"), bool_error("=(post_id, 1)"));
    assert_eq!(
        error("clicks.filter(1 in F.col('post_id'))"),
        (
            "PySparkValueError".to_string(),
            "CANNOT_APPLY_IN_FOR_COLUMN".to_string(),
            "Cannot apply 'in' operator against a column: please use 'contains' in a string column or 'array_contains' function for an array column.".to_string()
        )
    );
}

#[test]
fn a_program_runs_the_query_it_starts() {
    let program = "from pyspark.sql import SparkSession\n\
                   from pyspark.sql.functions import window, col\n\
                   import pyspark.sql.functions as sf\n\
                   spark = SparkSession.builder.appName('x').getOrCreate()\n\
                   spark.conf.set('spark.sql.shuffle.partitions', 2)\n\
                   size = '{} minutes'.format(10)\n\
                   counts = (clicks\n\
                       .withWatermark('event_time', size)\n\
                       .groupBy(window(col('event_time'), size), sf.col('post_id'))\n\
                       .count())\n\
                   query = counts.writeStream.outputMode('update').format('console').start()\n\
                   query.awaitTermination()\n";
    let e = compile(program, &catalog()).unwrap();
    assert_eq!(e.plan.to_string(), plan("clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()"));
    assert_eq!(e.output_mode, Some(streamlab_engine::plan::OutputMode::Update));
    assert_eq!(e.confs, vec![("spark.sql.shuffle.partitions".to_string(), "2".to_string())]);
    // Without start(), the last expression is the query; a program that ends with an
    // assignment names the DataFrame to run.
    assert!(compile("counts = clicks.groupBy('post_id').count()\ncounts", &catalog()).is_ok());
    let Err(Error::Parse(p)) = compile("counts = clicks.groupBy('post_id').count()", &catalog()) else { panic!("compiled") };
    assert_eq!(
        p.message,
        "the program defines no query to run: add a last line with counts (the DataFrame to run), or start it: counts.writeStream.format('console').start()"
    );
    // A script's entry point: the body of `if __name__ == "__main__":` is what it runs (the
    // imports before it stay imports).
    let script = "from pyspark.sql import SparkSession\nimport pyspark.sql.functions as F\n\nif __name__ == '__main__':\n    spark = SparkSession.builder.getOrCreate()\n    counts = clicks.groupBy('post_id').count()\n    counts.writeStream.outputMode('complete').format('console').start().awaitTermination()\n";
    let e = compile(script, &catalog()).unwrap();
    assert_eq!(e.plan.to_string(), plan("clicks.groupBy('post_id').count()"));
    assert_eq!(e.output_mode, Some(streamlab_engine::plan::OutputMode::Complete));
    // Two started queries: the lab runs one.
    let Err(Error::Parse(p)) = compile("a = clicks.writeStream.start()\nb = clicks.writeStream.start()", &catalog()) else { panic!("compiled") };
    assert!(p.unsupported.is_some(), "{p:?}");
}

#[test]
fn constants_types_and_imports_are_pysparks() {
    // `from pyspark.sql.functions import *` makes every function a bare name.
    assert_eq!(plan("from pyspark.sql.functions import *\nclicks.select(upper(col('user_id')))"), plan("clicks.select(F.upper(F.col('user_id')))"));
    // A StructType schema and a DDL string are the same schema.
    assert_eq!(
        plan("from pyspark.sql.types import StructType, StructField, LongType, StringType\nclicks.select(F.from_json('event_id', StructType([StructField('n', LongType()), StructField('s', StringType())])).alias('j'))"),
        plan("clicks.select(F.from_json('event_id', 'n BIGINT, s STRING').alias('j'))")
    );
    assert_eq!(plan("clicks.select(F.col('post_id').cast(LongType()))".replace("LongType()", "'long'").as_str()), plan("from pyspark.sql.types import LongType\nclicks.select(F.col('post_id').cast(LongType()))"));
    // `from pyspark.sql.types import *` binds every type class, as the study documents write it
    // (`StructType().add(...)` chained over backslash continuations). `from_json` reads every
    // field as nullable (`JsonToStructs` takes `schema.asNullable`), so `False` shows nowhere.
    assert_eq!(
        plan("from pyspark.sql.types import *\nschema = StructType() \\\n    .add('n', LongType(), False) \\\n    .add('s', StringType())\nclicks.select(F.from_json('event_id', schema).alias('j'), F.col('post_id').cast(StringType()))"),
        plan("clicks.select(F.from_json('event_id', 'n BIGINT, s STRING').alias('j'), F.col('post_id').cast('string'))")
    );
    assert_eq!(plan("from pyspark.sql import *\nfrom pyspark.sql.functions import *\nclicks.select(col('post_id'))"), plan("clicks.select('post_id')"));
    // Python's literal forms.
    assert_eq!(plan("clicks.filter(\"\"\"\n  post_id > 1 AND\n  user_id = 'u1'\n\"\"\")"), plan("clicks.filter(\"post_id > 1 AND user_id = 'u1'\")"));
    assert_eq!(plan("clicks.filter('post_id ' '> 1')"), plan("clicks.filter('post_id > 1')"));
}

#[test]
fn readers_read_the_labs_streams_and_tables() {
    let mut c = catalog();
    c.statics.insert("posts".into(), (vec![("post_id".into(), DataType::Int64), ("board".into(), DataType::Utf8)], std::rc::Rc::new(vec![])));
    let plan_with = |text: &str| compile(text, &c).map(|e| e.plan.to_string()).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    // The study documents' form: a file source with a schema, and a static table read with
    // spark.read; the lab has one of each, so they are the lab's `clicks` and `posts`.
    let program = "clicks = (spark.readStream\n  .schema('event_id STRING, user_id STRING, post_id BIGINT, event_time TIMESTAMP')\n  .option('maxFilesPerTrigger', 10)\n  .json('/stream/clicks'))\n\
                   posts = spark.read.parquet('/data/posts')\n\
                   clicks.join(posts, 'post_id')";
    assert_eq!(plan_with(program), plan_with("clicks.join(posts, 'post_id')"));
    assert_eq!(plan_with("spark.readStream.table('clicks').select('post_id')"), plan_with("clicks.select('post_id')"));
}

/// `spark.conf.set` in the program is the session's conf for the query it starts: the recorded
/// case sets one shuffle partition in its `conf` block (so the global sort samples nothing and
/// each key is counted once); the same case with the conf written in the program instead must
/// give the same batches, and without it the metrics differ (two partitions: counted twice).
#[test]
fn spark_conf_set_in_the_program_is_the_query_s_conf() {
    use streamlab_engine::scenario::{check, Scenario, Verdict};
    #[allow(clippy::disallowed_methods)] // a test may read files
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/orderby-one-shuffle-partition-complete.json")).expect("the recorded case");
    let recorded: Scenario = serde_json::from_str(&text).expect("a scenario");
    assert!(matches!(check(&recorded), Verdict::Pass), "the recorded case passes as recorded");
    let mut in_program = recorded.clone();
    let partitions = in_program.conf.remove("spark.sql.shuffle.partitions").expect("the case sets the partitions");
    assert_eq!(partitions, serde_json::json!("1"));
    in_program.query = format!("spark.conf.set('spark.sql.shuffle.partitions', 1)\n{}", recorded.query);
    assert!(matches!(check(&in_program), Verdict::Pass), "{:?}", check(&in_program));
    let mut without = recorded.clone();
    without.conf.clear();
    assert!(matches!(check(&without), Verdict::Fail(_)), "two partitions count the sorted aggregation twice");
}

#[test]
fn spark_conf_set_refuses_what_spark_refuses() {
    let e = |t: &str| match compile(t, &catalog()) {
        Err(Error::Analysis(a)) => (a.exception_class().to_string(), a.error_class.clone(), a.message.clone()),
        other => panic!("{t}: {other:?}"),
    };
    // Printed by PySpark 4.3.0 for the same calls.
    assert_eq!(
        e("spark.conf.set('spark.sql.shuffle.partitions', 'x')\nclicks"),
        ("IllegalArgumentException".into(), "INVALID_CONF_VALUE.TYPE_MISMATCH".into(), "The value 'x' in the config \"spark.sql.shuffle.partitions\" is invalid. It should be a/an 'int' value.".into())
    );
    assert_eq!(
        e("spark.conf.set('spark.sql.streaming.noDataMicroBatches.enabled', 'maybe')\nclicks"),
        ("IllegalArgumentException".into(), "INVALID_CONF_VALUE.TYPE_MISMATCH".into(), "The value 'maybe' in the config \"spark.sql.streaming.noDataMicroBatches.enabled\" is invalid. It should be a/an 'boolean' value.".into())
    );
    assert_eq!(
        e("spark.conf.set('spark.sql.session.timeZone', 'Mars/Base')\nclicks"),
        ("IllegalArgumentException".into(), "INVALID_CONF_VALUE.TIME_ZONE".into(), "The value 'Mars/Base' in the config \"spark.sql.session.timeZone\" is invalid. Cannot resolve the given timezone.".into())
    );
}

/// In the browser the zone database comes after the app is up (`types::tzdb`): until then a
/// region id is the lab's "still downloading", not Spark's "cannot resolve" (the value may be
/// right), and an offset needs no database.
#[test]
fn a_region_before_the_zone_database_has_arrived_is_not_called_invalid() {
    use streamlab_engine::types::tzdb;
    tzdb::hide_on_this_thread(true);
    let seoul = compile("spark.conf.set('spark.sql.session.timeZone', 'Asia/Seoul')\nclicks", &catalog());
    let offset = compile("spark.conf.set('spark.sql.session.timeZone', '+09:00')\nclicks", &catalog());
    tzdb::hide_on_this_thread(false);
    let Err(Error::Analysis(a)) = seoul else { panic!("compiled without the database") };
    assert_eq!((a.exception_class(), a.error_class.as_str()), ("Streamlab", tzdb::LOADING));
    assert_eq!(a.message, "The time zone 'Asia/Seoul' is a region of the time zone database, which is still downloading: the query runs again as soon as it arrives.");
    assert!(offset.is_ok(), "{offset:?}");
    // Once it is there, the same program compiles.
    assert!(compile("spark.conf.set('spark.sql.session.timeZone', 'Asia/Seoul')\nclicks", &catalog()).is_ok());
}

/// Code from the docs uses what its own page set up: `window` imported by name, a DataFrame
/// called `df`. Python's NameError stays as Python says it; the hint names the way in the lab.
#[test]
fn a_name_the_docs_set_up_elsewhere_says_how_to_write_it_here() {
    let hint = |text: &str| match compile(text, &catalog()) {
        Err(Error::Analysis(a)) => (a.message.clone(), a.hint.clone().unwrap_or_default()),
        other => panic!("{text}\n  gave {other:?}"),
    };
    let (message, h) = hint("clicks.groupBy(window(clicks.event_time, '10 minutes')).count()");
    assert_eq!(message, "name 'window' is not defined (known names: clicks, F, spark)");
    assert_eq!(h, "window is a function of pyspark.sql.functions: write F.window(...), or import it first: from pyspark.sql.functions import window");
    // Imported, it runs.
    plan("from pyspark.sql.functions import window\nclicks.groupBy(window(clicks.event_time, '10 minutes')).count()");
    let (message, h) = hint("df.withWatermark('event_time', '10 minutes')");
    assert_eq!(message, "name 'df' is not defined (known names: clicks, F, spark)");
    assert_eq!(h, "the lab's streams are named by its example (clicks): write that name where the code you copied has its own (df, lines, events), or assign it first: df = clicks");
    plan("df = clicks\ndf.withWatermark('event_time', '10 minutes')");
}

/// A streaming file source needs a schema: `spark.readStream.json(path)` (and `csv`, `parquet`,
/// `orc`, `xml`, `format('json').load(path)`, a bare `load()` whose default format is parquet)
/// raises `_LEGACY_ERROR_TEMP_2048` at the reader call. Printed by PySpark 4.3.0 for each of
/// these on an empty directory. `text` has its fixed schema (`value string`), a schema given or
/// `spark.sql.streaming.schemaInference=true` lets the read through (it then reads the lab's
/// stream), and a rate source has its own schema.
#[test]
fn a_streaming_file_source_needs_a_schema() {
    let msg = "Schema must be specified when creating a streaming source DataFrame. If some files already exist in the directory, then depending on the file format you may be able to create a static DataFrame on that directory with 'spark.read.load(directory)' and infer schema from it.";
    let want = ("IllegalArgumentException".to_string(), "_LEGACY_ERROR_TEMP_2048".to_string(), msg.to_string());
    for read in ["json('/data/in')", "csv('/data/in')", "parquet('/data/in')", "orc('/data/in')", "xml('/data/in')", "format('json').load('/data/in')", "load('/data/in')"] {
        assert_eq!(error(&format!("spark.readStream.{read}")), want, "{read}");
    }
    for ok in [
        "spark.readStream.text('/data/in')",
        "spark.readStream.schema('event_id STRING').json('/data/in')",
        "spark.conf.set('spark.sql.streaming.schemaInference', 'true')\nspark.readStream.json('/data/in')",
        "spark.readStream.format('rate').load()",
        // The schema (and the format) as arguments, as the API reference's examples pass them.
        "spark.readStream.json('/data/in', schema='event_id STRING')",
        "spark.readStream.csv('/data/in', 'event_id STRING', header=True)",
        "spark.readStream.load('/data/in', format='json', schema='event_id STRING')",
        "spark.readStream.format('json').schema('event_id STRING').option('path', '/data/in').load()",
        "spark.readStream.options(path='/data/in').format('text').load()",
    ] {
        assert!(compile(ok, &catalog()).is_ok(), "{ok}: {:?}", compile(ok, &catalog()).err());
    }
    // `load()` with no path asks for it before the schema, text too (recorded:
    // reader-load-without-path-define-error).
    let no_path = ("IllegalArgumentException".to_string(), "_LEGACY_ERROR_TEMP_2047".to_string(), "'path' is not specified.".to_string());
    for read in ["format('json').load()", "format('json').schema('event_id STRING').load()", "format('text').load()", "load()", "load(format='csv')"] {
        assert_eq!(error(&format!("spark.readStream.{read}")), no_path, "{read}");
    }
    // `format=` given to load() is the format read: text needs no schema, csv does.
    assert!(compile("spark.readStream.load('/data/in', format='text')", &catalog()).is_ok());
    assert_eq!(error("spark.readStream.format('text').load('/data/in', format='csv')"), want);
}

/// The programming guide leaves out how a DataFrame is made: `words = ...  # streaming
/// DataFrame of schema { timestamp: Timestamp, word: String }`. `...` is Python's `Ellipsis`,
/// a valid value, so the assignment runs and the first use fails as Python 3.11 printed it:
/// `AttributeError: 'ellipsis' object has no attribute 'groupBy'`. The hint names the lab's
/// streams that can take its place.
#[test]
fn the_guides_placeholder_is_pythons_ellipsis() {
    let program = "from pyspark.sql.functions import window\n\
                   words = ...  # streaming DataFrame of schema { timestamp: Timestamp, word: String }\n\
                   windowedCounts = words.groupBy(window(words.timestamp, '10 minutes', '5 minutes'), words.word).count()\n";
    let Err(Error::Analysis(a)) = compile(program, &catalog()) else { panic!("compiled") };
    assert_eq!((a.exception_class().to_string(), a.message.clone()), ("AttributeError".to_string(), "'ellipsis' object has no attribute 'groupBy'".to_string()));
    assert_eq!(a.hint.as_deref(), Some("the programming guide writes ... for a streaming DataFrame it does not show: write words = clicks (this lab's streams: clicks)"));
    // The span is `words.groupBy`, where Python stops.
    let at = program.find("words.groupBy").unwrap();
    assert_eq!(a.span.map(|s| (s.start, s.end)), Some((at, at + "words.groupBy".len())));
    // With the placeholder replaced as the hint says, the guide's line compiles.
    let fixed = program.replacen("...", "clicks.withColumnRenamed('event_time', 'timestamp').withColumnRenamed('user_id', 'word')", 1) + "windowedCounts\n";
    if let Err(e) = compile(&fixed, &catalog()) {
        panic!("{fixed}\n  failed: {e:?}");
    }
    // Done as the hint says, the guide's `words.timestamp` is a column `clicks` lacks: the
    // hint names the ones it has.
    let Err(Error::Analysis(a)) = compile("words = clicks\nwords.timestamp", &catalog()) else { panic!("compiled") };
    assert_eq!((a.error_class.as_str(), a.message.as_str()), ("ATTRIBUTE_NOT_SUPPORTED", "Attribute `timestamp` is not supported."));
    assert_eq!(a.hint.as_deref(), Some("this DataFrame's columns are event_id, user_id, post_id, event_time"));
    // The guide's `query = ...` stands for a started query.
    let Err(Error::Analysis(a)) = compile("query = ...\nquery.lastProgress\nclicks", &catalog()) else { panic!("compiled") };
    assert_eq!(a.message, "'ellipsis' object has no attribute 'lastProgress'");
    assert_eq!(a.hint.as_deref(), Some("the programming guide writes ... for a StreamingQuery it does not show: start one, query = df.writeStream.format('console').start()"));
    // `...` alone is a value, not a DataFrame.
    let Err(Error::Parse(p)) = compile("...", &catalog()) else { panic!("compiled") };
    assert!(p.message.starts_with("the query must be a DataFrame"), "{p:?}");
}

/// The program's query handle as PySpark 4.3 answered it (local[1], a rate stream into a
/// memory sink): `awaitTermination(1)` on a running query returned `False`,
/// `spark.streams.active` listed the query, and after `stop()` `isActive` was `False`,
/// `awaitTermination(1)` `True`, the status message `'Stopped'` and `spark.streams.active` `[]`. The lab itself still runs the
/// query (its batches are what it shows); these are what the program reads at its line.
#[test]
fn the_query_handle_reads_as_pyspark_returns_it() {
    let program = "q = clicks.writeStream.format('memory').queryName('c').start()\n\
                   print(spark.streams.active, q.awaitTermination(5), q.awaitTermination(timeout=1))\n\
                   print(len(q.recentProgress), len(q.status), len(spark.streams.active))\n\
                   print(spark.streams.get(q.id).name, spark.streams.get('no-such-id'), q.id == spark.streams.active[0].id, len(q.id), len(q.runId))\n\
                   q.stop()\n\
                   print(q.isActive, q.status['message'], spark.streams.active, q.awaitTermination(1))\n\
                   clicks";
    assert_eq!(
        printed(program),
        vec![
            "[<pyspark.sql.streaming.query.StreamingQuery object at 0x…>] False False".to_string(),
            // Python's len(): no progress yet, the status dict's three keys, one active query.
            "0 3 1".to_string(),
            // The query by its id (a UUID's 36 characters, as PySpark's `query.id`), None for
            // an id no active query has.
            "c None True 36 36".to_string(),
            "False Stopped [] True".to_string(),
        ]
    );
    // `lastProgress` is None before the first batch: indexing it is Python's TypeError.
    let program = "q = clicks.writeStream.format('memory').start()\nq.lastProgress['numInputRows']\nclicks";
    let Err(Error::Analysis(a)) = compile(program, &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("TypeError"), "'NoneType' object is not subscriptable"));
    // len() of a value without a length is Python's TypeError, at the argument.
    let Err(Error::Analysis(a)) = compile("len(5)\nclicks", &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("TypeError"), "object of type 'int' has no len()"));
}

/// `print(...)` writes what Python would: `str()` of each argument joined by `sep`, a
/// DataFrame as PySpark's `DataFrame.__repr__` (`DataFrame[name: simpleString type, ...]`),
/// floats as Python's `repr`. Kept, in order, also when the program then fails.
#[test]
fn print_writes_what_python_prints() {
    let program = "counts = clicks.groupBy('post_id').count()\n\
                   print(clicks.isStreaming, counts)\n\
                   print('rows:', 3, 0.5, 1e20, 1e-05, None, [1, 'a'], sep=' | ')\n\
                   print(F.col('post_id') > 1, F.window('event_time', '10 minutes'))\n\
                   print(clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes')).count())\n\
                   print(counts.columns)\n\
                   q = counts.writeStream.queryName('c').outputMode('complete').format('memory').start()\n\
                   print(q.isActive, q.name, q.recentProgress, q.lastProgress)\n\
                   print(q.status)\n\
                   print(q.status['message'], q.status['isTriggerActive'])\n\
                   counts.nope\n";
    let (result, traced) = compile_traced(program, &catalog());
    assert!(result.is_err(), "counts.nope fails");
    assert_eq!(
        traced.printed,
        vec![
            // PySpark 4.3 classic: `count` is a bigint named `count`.
            "True DataFrame[post_id: bigint, count: bigint]".to_string(),
            "rows: | 3 | 0.5 | 1e+20 | 1e-05 | None | [1, 'a']".to_string(),
            // PySpark 4.3 printed `Column<'>(post_id, 1)'>`; the window's text (Spark's
            // `Column<'window(event_time, '10 minutes', '10 minutes', '0 second')'>`) is not
            // written by the lab.
            "Column<'>(post_id, 1)'> Column<'…'>".to_string(),
            "DataFrame[window: struct<start:timestamp,end:timestamp>, count: bigint]".to_string(),
            "['post_id', 'count']".to_string(),
            // Right after start(): active, no progress yet (PySpark 4.3 printed `None` for
            // lastProgress before the first batch).
            "True c [] None".to_string(),
            // `query.status` right after start(): a dict, never None. PySpark 4.3 (local[1],
            // a rate stream into a memory sink, read three times right after start())
            // printed this each time; after stop() its message is 'Stopped'.
            "{'message': 'Initializing sources', 'isDataAvailable': False, 'isTriggerActive': False}".to_string(),
            "Initializing sources False".to_string(),
        ]
    );
    // A keyword print() does not take is Python's TypeError.
    let Err(Error::Analysis(a)) = compile("print('x', colour='red')\nclicks", &catalog()) else { panic!("compiled") };
    assert_eq!(a.message, "'colour' is an invalid keyword argument for print()");
    // A key the dict does not hold is Python's `KeyError: 'isDataAvaliable'` (the typo is the
    // learner's), at the subscript.
    let program = "q = clicks.writeStream.format('memory').queryName('c').start()\nq.status['isDataAvaliable']\nclicks";
    let Err(Error::Analysis(a)) = compile(program, &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("KeyError"), "'isDataAvaliable'"));
    assert_eq!(a.span.map(|s| &program[s.start..s.end]), Some("q.status['isDataAvaliable']"));
}

/// The memory sink's table, read back with `spark.sql` as the guide does: a batch query over
/// the sink that the lab does not run (its Sink panel shows the table). The program runs its
/// query, and its output says where the table is; another name is still Spark's
/// TABLE_OR_VIEW_NOT_FOUND.
#[test]
fn a_batch_query_over_the_memory_sinks_table_points_at_the_sink_panel() {
    let program = "q = clicks.groupBy('post_id').count().writeStream.queryName('counts').outputMode('complete').format('memory').start()\n\
                   spark.sql('select * from counts').show()\n";
    let (result, traced) = compile_traced(program, &catalog());
    assert!(result.is_ok(), "{:?}", result.err());
    assert_eq!(traced.printed, vec!["(the memory sink's table counts: what the query wrote is in the lab's Sink panel, batch by batch)".to_string()]);
    let Err(Error::Analysis(a)) = compile(&program.replace("from counts", "from other"), &catalog()) else { panic!("compiled") };
    assert_eq!(a.error_class, "TABLE_OR_VIEW_NOT_FOUND");
}

/// A Databricks notebook habit, `display(df)`: Python's NameError (PySpark has no `display`),
/// with a hint that it is the notebook's, not advice to assign a stream to `display`.
#[test]
fn a_notebooks_display_is_named_as_such() {
    let Err(Error::Analysis(a)) = compile("display(clicks)", &catalog()) else { panic!("compiled") };
    assert_eq!(a.exception_class(), "NameError");
    assert!(a.message.starts_with("name 'display' is not defined"), "{}", a.message);
    assert_eq!(a.hint.as_deref(), Some("display is a Databricks notebook name, not PySpark's. The lab shows the query's results itself: write the DataFrame (or .writeStream.format('console').start()) instead"));
}

/// The API reference's examples are doctests: `>>> ` and `... ` prompts, printed output
/// between them, and a `with tempfile.TemporaryDirectory() as d:` block around the stream.
/// Pasted as they are, the prompts and outputs are not code, the imports are Python, and the
/// `with` binds its name to a stand-in path, so the example's query is what runs; an error
/// still points into the text as pasted.
#[test]
fn the_api_references_doctest_examples_run_as_pasted() {
    let doctest = ">>> import tempfile\n\
                   >>> with tempfile.TemporaryDirectory(prefix=\"text\") as d:\n\
                   ...     df = spark.readStream.schema(\"event_id STRING\").json(d)\n\
                   ...     df.isStreaming\n\
                   True\n\
                   >>> df.select('event_id')\n\
                   DataFrame[event_id: string]\n";
    let e = compile(doctest, &catalog()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(e.plan.to_string(), plan("clicks.select('event_id')"));
    // Without a schema, Spark's error points at the reader call where it was pasted.
    let bad = doctest.replace("schema(\"event_id STRING\").json(d)", "json(d)");
    let Err(Error::Analysis(a)) = compile(&bad, &catalog()) else { panic!("compiled") };
    assert_eq!(a.error_class, "_LEGACY_ERROR_TEMP_2048");
    let at = bad.find("spark.readStream.json(d)").unwrap();
    assert_eq!(a.span.map(|s| s.start), Some(at));
    // `...` alone outside a doctest is still Python's Ellipsis.
    assert!(compile("x = ...\nclicks", &catalog()).is_ok());
}

/// The analyzer resolves the whole plan, so an unresolved column has no place of its own; the
/// error is placed on the string literal that names it, so the editor points at the typo.
#[test]
fn a_misspelt_column_is_placed_on_the_literal_that_names_it() {
    use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
    let placed = |text: &str| match StreamingQuery::start(text, &catalog(), OutputMode::Append, StreamingConf::default()) {
        Err(Error::Analysis(a)) => {
            assert!(a.error_class.starts_with("UNRESOLVED_COLUMN"), "{text}: {}", a.error_class);
            a.span.map(|s| (text[s.start..s.end].to_string(), s.start))
        }
        other => panic!("{text}\n  gave {:?}", other.map(|_| "a query")),
    };
    // In a window's column: the second line's `'event_tme'`, not the watermark's `event_time`.
    let text = "w = clicks.withWatermark('event_time', '10 minutes')\nw.groupBy(F.window('event_tme', '10 minutes'), 'post_id').count()";
    assert_eq!(placed(text), Some(("event_tme".to_string(), text.find("event_tme").unwrap())));
    // Inside an expression string: the word, not the whole literal; `post_idx` does not match
    // inside `post_idxy`.
    // `clicks.select(F.col('` is 7 + 7 + 7 bytes.
    let text = "clicks.select(F.col('post_idxy'), F.expr('post_idx + 1'))";
    assert_eq!(placed(text), Some(("post_idxy".to_string(), 21)));
    // `clicks.select(F.expr('` is 7 + 7 + 8 bytes.
    let text = "clicks.select(F.expr('post_idx + 1'))";
    assert_eq!(placed(text), Some(("post_idx".to_string(), 22)));
    // In a helper def's body: its literal, at its own line (the def's name `event_tme_fix`
    // and a comment's word are not literals).
    let text = "def event_tme_fix(df):\n    # event_tme\n    return df.withColumn('h', F.hour(\"event_tme\"))\n\nevent_tme_fix(clicks)";
    assert_eq!(placed(text), Some(("event_tme".to_string(), text.find("\"event_tme").unwrap() + 1)));
}

/// `fillna`/`dropna` and `df.na.fill`/`df.na.drop` (`DataFrameNaFunctions`) are the same calls,
/// with PySpark's own argument checks; their batches are judged against real Spark by the
/// study corpus (`tests/study`: `sweep-cert-na-fill-zero-append`, `sweep-min-fillna-dict-append`,
/// `sweep-cert-dropna-subset-append`, ...).
#[test]
fn missing_values_are_filled_and_dropped_as_pyspark_does() {
    assert_eq!(plan("clicks.na.fill(0)"), plan("clicks.fillna(0)"));
    assert_eq!(plan("clicks.na.fill('?', subset=['user_id'])"), plan("clicks.fillna('?', 'user_id')"));
    assert_eq!(plan("clicks.na.drop(how='all', subset=['user_id', 'post_id'])"), plan("clicks.dropna('all', None, ('user_id', 'post_id'))"));
    // `fillna(0)` fills the numeric column only (PySpark passes 0 as 0.0), cast to its type;
    // the string columns stay as they are.
    let filled = plan("clicks.fillna(0)");
    assert!(filled.contains("coalesce(post_id, CAST(0.0 AS BIGINT)) AS post_id") && filled.contains("user_id,"), "{filled}");
    let typed = |cond: &str, class: &str, msg: &str| (class.to_string(), cond.to_string(), msg.to_string());
    // PySpark 4.3's own checks, as it raised them on a batch DataFrame.
    assert_eq!(error("clicks.fillna([0])"), typed("NOT_EXPECTED_TYPE", "PySparkTypeError", "Argument `value` should be bool, dict, float, int or str, got list."));
    assert_eq!(error("clicks.fillna(0, subset=1)"), typed("NOT_EXPECTED_TYPE", "PySparkTypeError", "Argument `subset` should be list or tuple, got int."));
    assert_eq!(error("clicks.dropna(subset=1)"), typed("NOT_EXPECTED_TYPE", "PySparkTypeError", "Argument `subset` should be list, str or tuple, got int."));
    assert_eq!(error("clicks.dropna(how='some')"), typed("VALUE_NOT_ALLOWED", "PySparkValueError", "Value for `how` has to be amongst the following values: ['any', 'all']."));
    assert_eq!(error("clicks.na.fll(0)"), python("AttributeError", "'DataFrameNaFunctions' object has no attribute 'fll'"));
    // A column the DataFrame does not have: the analyzer's error, as `df.resolve(name)` gives.
    assert!(error("clicks.dropna(subset=['user'])").1.starts_with("UNRESOLVED_COLUMN"));
}

/// A view `spark.sql` cannot find is pointed at by its name inside the SQL string, not the
/// whole string; a misspelt column in the SQL text too.
#[test]
fn a_missing_view_in_spark_sql_is_placed_on_its_name() {
    let placed = |text: &str, class: &str| match compile(text, &catalog()) {
        Err(Error::Analysis(a)) => {
            assert_eq!(a.error_class, class, "{text}");
            a.span.map(|s| (text[s.start..s.end].to_string(), s.start))
        }
        other => panic!("{text}\n  gave {:?}", other.map(|_| "a plan")),
    };
    let text = "clicks.createOrReplaceTempView('clicks')\nspark.sql(\"SELECT post_id, count(*) AS n FROM clickz GROUP BY post_id\")";
    assert_eq!(placed(text, "TABLE_OR_VIEW_NOT_FOUND"), Some(("clickz".to_string(), text.find("clickz").unwrap())));
    // The hint names the view one letter away.
    let Err(Error::Analysis(a)) = compile(text, &catalog()) else { panic!("compiled") };
    assert_eq!(a.hint.as_deref(), Some("the nearest name is `clicks`; the temporary views are clicks"));
    // In a triple-quoted string over several lines, the name on its own line.
    let text = "clicks.createOrReplaceTempView('clicks')\nspark.sql(\"\"\"\n  SELECT *\n  FROM global_temp.clicks\n\"\"\")";
    assert_eq!(placed(text, "TABLE_OR_VIEW_NOT_FOUND"), Some(("clicks".to_string(), text.find("temp.clicks").unwrap() + 5)));
}

/// Python's refusal of a misspelt keyword points at the keyword with its value, where the
/// learner has to change it.
#[test]
fn an_unexpected_keyword_is_placed_on_its_name_and_value() {
    let text = "clicks.groupBy(F.window(timeColumn=\"event_time\", windowDuraton = \"10 minutes\")).count()";
    match compile(text, &catalog()) {
        Err(Error::Analysis(a)) => {
            assert_eq!(a.message, "window() got an unexpected keyword argument 'windowDuraton'");
            let s = a.span.expect("a place");
            assert_eq!(&text[s.start..s.end], "windowDuraton = \"10 minutes\"");
        }
        other => panic!("gave {:?}", other.map(|_| "a plan")),
    }
}

/// An unknown name that is called is a function the code expects (`tumble(...)` after `from
/// pyspark.sql.functions import *`), not a DataFrame the lab's example names otherwise: the
/// hint says so, with PySpark's nearest function names when there are; an unknown name that is
/// not called keeps the streams hint. `spark.read` in a lab without static tables says that
/// (it listed an empty set of names).
#[test]
fn unknown_names_and_missing_tables_say_what_is_missing() {
    let hint = |text: &str| match compile(text, &catalog()) {
        Err(Error::Analysis(a)) => a.hint.unwrap_or_default(),
        other => panic!("{text}: {other:?}"),
    };
    let star = "from pyspark.sql.functions import *\n";
    assert_eq!(hint(&format!("{star}clicks.groupBy(tumble(col('event_time'), '10 minutes')).count()")), "tumble(...) is called as a function, and neither Python nor pyspark.sql.functions has one by that name");
    assert_eq!(
        hint(&format!("{star}clicks.groupBy(windw(col('event_time'), '10 minutes')).count()")),
        "tumble(...) is called as a function, and neither Python nor pyspark.sql.functions has one by that name; did you mean window?".replace("tumble", "windw")
    );
    assert!(hint("df.select('a')").ends_with("or assign it first: df = clicks"));
    // A helper def with an `if` the program calls: the lab does not run it, and says what it runs.
    let Err(Error::Parse(p)) = compile("def build_query(df):\n    if df.isStreaming:\n        return df.groupBy('post_id').count()\n    return df\n\nbuild_query(clicks)", &catalog()) else { panic!("compiled") };
    assert!(p.message.starts_with("build_query() is a Python function this text defines or imports that the lab does not run when the program calls it: it runs a def whose body assigns names and ends with return"), "{}", p.message);
    let Err(Error::Parse(p)) = compile("static = spark.read.format('csv').load('/x.csv')\nclicks.join(static, 'post_id')", &catalog()) else { panic!("compiled") };
    assert_eq!(p.message, "this lab has no static tables: spark.read….load() reads one of the scenario's static tables by name, and this scenario has none (a stream-static join needs an example with one)");
}

/// The programming guide writes `socketDF.isStreaming()` (Scala's method); in PySpark 4.3 it is a
/// property, and the call raised `TypeError: 'bool' object is not callable`. The lab raises the
/// same, and its hint says which the guide wrote.
#[test]
fn the_guides_is_streaming_call_is_pythons_type_error_with_why() {
    let program = "socketDF = spark.readStream.format('socket').option('host', 'localhost').option('port', 9999).load()\nsocketDF.isStreaming()\nsocketDF";
    let Err(Error::Analysis(a)) = compile(program, &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("TypeError"), "'bool' object is not callable"));
    assert!(a.hint.as_deref().is_some_and(|h| h.starts_with("isStreaming is a property in PySpark")), "{:?}", a.hint);
    // Without the parentheses it is PySpark's True.
    assert!(compile("socketDF = spark.readStream.format('socket').option('host', 'localhost').option('port', 9999).load()\nprint(socketDF.isStreaming)\nsocketDF", &catalog()).is_ok());
}

/// `df.dtypes`, `df.schema.names`, `fieldNames()` and `df.columns` of a windowed count: what
/// PySpark 4.3 printed for the same program (the dtypes are `simpleString`s, in tuples).
#[test]
fn a_dataframes_dtypes_and_field_names_print_as_pyspark_prints_them() {
    let program = "df = clicks.groupBy(F.window('event_time', '10 minutes'), 'post_id').count()\n\
                   print(df.dtypes)\n\
                   print(df.dtypes[0], df.dtypes[0][1], len(df.dtypes))\n\
                   print(df.schema.names, df.schema.fieldNames())\n\
                   print(df.columns)\n\
                   print(clicks.select(F.lit('a').alias('x')).dtypes[0])\n\
                   df";
    assert_eq!(
        printed(program),
        vec![
            "[('window', 'struct<start:timestamp,end:timestamp>'), ('post_id', 'bigint'), ('count', 'bigint')]",
            "('window', 'struct<start:timestamp,end:timestamp>') struct<start:timestamp,end:timestamp> 3",
            "['window', 'post_id', 'count'] ['window', 'post_id', 'count']",
            "['window', 'post_id', 'count']",
            "('x', 'string')",
        ]
    );
    // Past the end: the list's IndexError.
    assert_eq!(error("df = clicks.groupBy('post_id').count()\ndf.dtypes[5]\ndf"), python("IndexError", "list index out of range"));
}

/// `type(x)`: the classes PySpark 4.3 (classic) printed for the same values.
#[test]
fn type_of_a_value_is_pysparks_class() {
    let program = "df = clicks.select('event_id')\n\
                   q = df.writeStream.format('memory').queryName('x').start()\n\
                   print(type(df))\n\
                   print(type(df.event_id), type(df.groupBy('event_id')))\n\
                   print(type(df.writeStream), type(q), type(spark))\n\
                   print(type('a'), type(1), type(None), type([1]), type(df.dtypes[0]), type(df.schema))";
    assert_eq!(
        printed(program),
        vec![
            "<class 'pyspark.sql.classic.dataframe.DataFrame'>",
            "<class 'pyspark.sql.classic.column.Column'> <class 'pyspark.sql.group.GroupedData'>",
            "<class 'pyspark.sql.streaming.readwriter.DataStreamWriter'> <class 'pyspark.sql.streaming.query.StreamingQuery'> <class 'pyspark.sql.session.SparkSession'>",
            "<class 'str'> <class 'int'> <class 'NoneType'> <class 'list'> <class 'tuple'> <class 'pyspark.sql.types.StructType'>",
        ]
    );
}

/// A NameError lists each known name once, also when a variable shares a stream's name
/// (`clicks = clicks.select(...)`): it listed `clicks, clicks`.
#[test]
fn a_name_errors_known_names_are_listed_once() {
    let (_, _, message) = error("clicks = clicks.select('event_id')\nnope");
    assert_eq!(message, "name 'nope' is not defined (known names: clicks, F, spark)");
}

/// A schema's fields by name and place, their attributes, `fields`, `treeString()`, and a
/// `StructField` written with `nullable=False`: what PySpark 4.3 printed for the same program,
/// and its errors for a name and a place the schema does not have.
#[test]
fn a_schemas_fields_read_as_pyspark_reads_them() {
    let program = "from pyspark.sql import types as T\n\
                   df = clicks.groupBy(F.window('event_time', '10 minutes'), 'post_id').count()\n\
                   print(df.schema['count']); print(df.schema[0]); print(df.schema.fields[1])\n\
                   print(repr(df.schema.treeString()))\n\
                   print(df.schema['post_id'].nullable, df.schema['post_id'].dataType, df.schema['post_id'].name)\n\
                   print(T.StructField('x', T.StringType(), False))\n\
                   print(T.StructType([T.StructField('x', T.StringType(), False)]))\n\
                   df";
    assert_eq!(
        printed(program),
        vec![
            "StructField('count', LongType(), True)",
            "StructField('window', StructType([StructField('start', TimestampType(), True), StructField('end', TimestampType(), True)]), True)",
            "StructField('post_id', LongType(), True)",
            "'root\\n |-- window: struct (nullable = true)\\n |    |-- start: timestamp (nullable = true)\\n |    |-- end: timestamp (nullable = true)\\n |-- post_id: long (nullable = true)\\n |-- count: long (nullable = true)\\n'",
            "True LongType() post_id",
            "StructField('x', StringType(), False)",
            "StructType([StructField('x', StringType(), False)])",
        ]
    );
    assert_eq!(error("clicks.schema['nope']\nclicks"), ("PySparkKeyError".to_string(), "KEY_NOT_EXISTS".to_string(), "Key `nope` does not exist.".to_string()));
    assert_eq!(error("clicks.schema[9]\nclicks"), ("PySparkIndexError".to_string(), "INDEX_OUT_OF_RANGE".to_string(), "StructType index out of range, got '9'.".to_string()));
}

/// `spark.readStream.table(name)` of a name that is neither a lab stream nor a view the program
/// registered: Spark's TABLE_OR_VIEW_NOT_FOUND (PySpark 4.3 raised it for the same call), not a
/// Python NameError (the name is a string); a registered view reads.
#[test]
fn read_stream_table_of_an_unknown_name_is_sparks_table_not_found() {
    let (class, condition, message) = error("spark.readStream.table('impressions')");
    assert_eq!((class.as_str(), condition.as_str()), ("AnalysisException", "TABLE_OR_VIEW_NOT_FOUND"));
    assert!(message.starts_with("The table or view `impressions` cannot be found."), "{message}");
    assert!(compile("clicks.createOrReplaceTempView('v')\nspark.readStream.table('v')", &catalog()).is_ok());
}

/// `str()` with nothing is Python's empty string; `repr()` needs its one argument (Python
/// 3.11's `TypeError: repr() takes exactly one argument (0 given)`).
#[test]
fn str_of_nothing_is_empty_and_repr_of_nothing_is_refused() {
    assert_eq!(printed("print(repr(str()), len(str()))\nclicks"), vec!["'' 0".to_string()]);
    let Err(Error::Analysis(a)) = compile("repr()\nclicks", &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("TypeError"), "repr() takes exactly one argument (0 given)"));
}

/// Python's slices of lists, tuples and strings (`df.columns[1:]`, `words[::-1]`): a part left
/// out, negative parts and steps, and one past the end, as CPython 3.11 gives them.
#[test]
fn slices_pick_what_python_picks() {
    let program = "cols = clicks.columns\n\
                   print(cols[1:], cols[:1], cols[-2:], cols[::-1], cols[::2], cols[1:100], cols[5:])\n\
                   print('streaming'[:6], 'streaming'[-3:], 'abc'[::-1], clicks.dtypes[0][1:], clicks.dtypes[0][:5], [0, 1, 2, 3, 4][4:0:-2])\n\
                   print([1, 2, 3][-100:2], [1, 2, 3][None:None:-1])\n\
                   clicks";
    // Worked in CPython 3.11 (clicks' columns: event_id, user_id, post_id, event_time; its
    // first dtype is ('event_id', 'string')).
    assert_eq!(
        printed(program),
        vec![
            "['user_id', 'post_id', 'event_time'] ['event_id'] ['post_id', 'event_time'] ['event_time', 'post_id', 'user_id', 'event_id'] ['event_id', 'post_id'] ['user_id', 'post_id', 'event_time'] []".to_string(),
            "stream ing cba ('string',) ('event_id', 'string') [4, 2]".to_string(),
            "[1, 2] [3, 2, 1]".to_string(),
        ]
    );
    // A step of 0 is Python's ValueError; an index that is not a number its TypeError.
    let Err(Error::Analysis(a)) = compile("clicks.columns[::0]\nclicks", &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("ValueError"), "slice step cannot be zero"));
    let Err(Error::Analysis(a)) = compile("clicks.columns['a':]\nclicks", &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("TypeError"), "slice indices must be integers or None or have an __index__ method, not str"));
    // A Column's slice is PySpark's `col.substr(start, stop)` (checked on PySpark 4.3:
    // `F.col('event_id')[1:3]` is `substr(event_id, 1, 3)`), with its refusals.
    assert_eq!(plan("clicks.select(F.col('event_id')[1:3])"), plan("clicks.select(F.col('event_id').substr(1, 3))"));
    for (program, class, message) in [
        ("clicks.select(F.col('event_id')[1:3:1])", "SLICE_WITH_STEP", "Slice with step is not supported."),
        ("clicks.select(F.col('event_id')[1:])", "NOT_SAME_TYPE", "Argument `startPos` and `length` should be the same type, got int and NoneType."),
        ("clicks.select(F.col('event_id')[:])", "NOT_EXPECTED_TYPE", "Argument `startPos` should be Column or int, got NoneType."),
    ] {
        let Err(Error::Analysis(a)) = compile(program, &catalog()) else { panic!("{program} compiled") };
        assert_eq!((a.error_class.as_str(), a.message.as_str()), (class, message), "{program}");
    }
    // A DataFrame takes no slice (PySpark's check); a number none (Python's).
    let Err(Error::Analysis(a)) = compile("clicks[1:2]", &catalog()) else { panic!("compiled") };
    assert_eq!((a.error_class.as_str(), a.message.as_str()), ("NOT_EXPECTED_TYPE", "Argument `item` should be Column, float, integer, list or string, got slice."));
    let Err(Error::Analysis(a)) = compile("x = 5\nx[1:2]\nclicks", &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("TypeError"), "'int' object is not subscriptable"));
    // `x[]` is Python's SyntaxError.
    assert!(matches!(compile("clicks.columns[]\nclicks", &catalog()), Err(Error::Parse(_))));
}

/// A helper `def` whose body assigns names and returns DataFrame code runs where the program
/// calls it, as Python would: positional and keyword arguments, locals that do not leak, and
/// `DataFrame.transform(func, *args, **kwargs)` over a def or a lambda. What it cannot run
/// (here, a function that calls itself) fails as Python does.
#[test]
fn helper_defs_and_transform_build_the_query_where_they_are_called() {
    let helpers = "def add_double(df, col):\n    \"\"\"Adds twice col.\"\"\"\n    doubled = F.col(col) * 2\n    return df.withColumn('doubled', doubled)\n\n\
                   def only_big(df, n):\n    return df.filter(F.col('doubled') > n)\n\n";
    let direct = "clicks.withColumn('doubled', F.col('post_id') * 2).filter(F.col('doubled') > 4)";
    // The same plan written out, through the helpers, and through transform.
    assert_eq!(plan(&format!("{helpers}only_big(add_double(clicks, col='post_id'), 4)")), plan(direct));
    assert_eq!(plan(&format!("{helpers}clicks.transform(add_double, 'post_id').transform(only_big, n=4)")), plan(direct));
    assert_eq!(plan(&format!("{helpers}clicks.transform(lambda d: add_double(d, 'post_id')).transform(only_big, 4)")), plan(direct));
    // The call's locals (`doubled`, `df`) are gone after it: Python's NameError.
    let Err(Error::Analysis(a)) = compile(&format!("{helpers}x = add_double(clicks, 'post_id')\ndoubled"), &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.error_class.as_str()), (Some("NameError"), ""), "{}", a.message);
    // Python's TypeErrors for the arguments (CPython 3.11's words).
    let err = |program: &str| match compile(&format!("{helpers}{program}"), &catalog()) {
        Err(Error::Analysis(a)) => (a.python_exception.unwrap_or_default().to_string(), a.message),
        other => panic!("{program}: {other:?}"),
    };
    assert_eq!(err("add_double(clicks)"), ("TypeError".into(), "add_double() missing 1 required positional argument: 'col'".into()));
    assert_eq!(err("add_double()"), ("TypeError".into(), "add_double() missing 2 required positional arguments: 'df' and 'col'".into()));
    assert_eq!(err("add_double(clicks, 'post_id', 3)"), ("TypeError".into(), "add_double() takes 2 positional arguments but 3 were given".into()));
    assert_eq!(err("add_double(clicks, column='post_id')"), ("TypeError".into(), "add_double() got an unexpected keyword argument 'column'".into()));
    // transform's func must return a DataFrame (PySpark's assertion).
    assert_eq!(err("clicks.transform(lambda d: 3)"), ("AssertionError".into(), "Func returned an instance of type [<class 'int'>], should have been DataFrame.".into()));
    // A script's `main()` with no return, run from `if __name__ == "__main__":`: the query it
    // starts is the program's, in the mode it sets.
    let script = "def main():\n    counts = clicks.groupBy('post_id').count()\n    q = counts.writeStream.outputMode('complete').format('console').start()\n    print(q.isActive)\n    q.awaitTermination()\n\nif __name__ == '__main__':\n    main()\n";
    let (result, traced) = compile_traced(script, &catalog());
    let e = result.expect("main() runs");
    // (It waits in awaitTermination(): the printed output says so.)
    assert_eq!(e.output_mode, Some(streamlab_engine::plan::OutputMode::Complete));
    assert_eq!(traced.printed[0], "True");
    assert!(traced.printed[1].starts_with("(awaitTermination(): Spark waits here"), "{:?}", traced.printed);
    assert_eq!(e.plan.to_string(), plan("clicks.groupBy('post_id').count()"));
    // A def that calls itself stops with Python's RecursionError, not a stack overflow.
    let Err(Error::Analysis(a)) = compile("def f(df):\n    return f(df)\n\nf(clicks)", &catalog()) else { panic!("compiled") };
    assert_eq!((a.python_exception, a.message.as_str()), (Some("RecursionError"), "maximum recursion depth exceeded"));
    // Eight helpers nested run; a ninth passes the lab's bound, with a message that says so.
    let mut chain = String::from("def h0(df):\n    return df\n\n");
    for i in 1..=8 {
        chain.push_str(&format!("def h{i}(df):\n    return h{}(df)\n\n", i - 1));
    }
    assert!(compile(&format!("{chain}h7(clicks)"), &catalog()).is_ok());
    let Err(Error::Parse(p)) = compile(&format!("{chain}h8(clicks)"), &catalog()) else { panic!("compiled") };
    assert_eq!(p.message, "h0() is called 8 helper functions deep; Streamlab runs helpers nested up to 8 deep");
}

/// `query.awaitTermination()` returns when the query stops: with the default or a
/// processing-time trigger, never by itself, so the statements after it do not run (on Spark
/// nor here) and the printed output says where the program waits; with `availableNow` (the
/// query stops when it has read what was there), or with a timeout, the program goes on. This
/// holds inside a script's `main()` too.
#[test]
fn a_program_waits_in_await_termination_for_a_query_that_never_stops() {
    let note = "(awaitTermination(): Spark waits here for as long as the query runs, and with this trigger it runs until it is stopped: the lines after this call do not run, on Spark or here)";
    let start = "q = clicks.writeStream.format('console').start()\nprint('started')\n";
    assert_eq!(printed(&format!("{start}q.awaitTermination()\nprint('done')")), vec!["started".to_string(), note.to_string()]);
    assert_eq!(printed(&format!("{start}q.awaitTermination(5)\nprint('done')")), vec!["started".to_string(), "done".to_string()]);
    assert_eq!(printed(&format!("{start}q.stop()\nq.awaitTermination()\nprint('done')")), vec!["started".to_string(), "done".to_string()]);
    let once = "q = clicks.writeStream.trigger(availableNow=True).format('console').start()\nq.awaitTermination()\nprint('done')";
    assert_eq!(printed(once), vec!["done".to_string()]);
    let script = "def main():\n    q = clicks.writeStream.format('console').start()\n    q.awaitTermination()\n    print('in main')\n\nmain()\nprint('after main')\n";
    assert_eq!(printed(script), vec![note.to_string()]);
}

