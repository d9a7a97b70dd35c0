//! Triggers through the public API (spec §1.6 and §8.3), values worked out by hand.

use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::{OutputMode, SinkKind, StreamingConf, StreamingQuery, Trigger};
use streamlab_engine::types::{timestamp_type, DataType, Row, Value};
use streamlab_engine::Error;

const S: i64 = 1_000_000;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert("s".into(), vec![("k".into(), DataType::Utf8), ("ts".into(), timestamp_type())]);
    c
}

fn rows(ts: &[i64]) -> Vec<Row> {
    ts.iter().map(|t| vec![Value::str("a"), Value::Timestamp(t * S)]).collect()
}

const WINDOWED: &str = "s.withWatermark('ts', '0 seconds').groupBy(F.window('ts', '10 seconds')).count()";

fn start(text: &str) -> Result<StreamingQuery, Error> {
    StreamingQuery::start(text, &catalog(), OutputMode::Append, StreamingConf::default())
}

#[test]
fn once_runs_one_batch_without_the_trailing_no_data_batch() {
    // Spec T17: 3 rows (10, 20, 30 s) in one batch; the watermark moves to 30 s, but `once`
    // runs no no-data batch, so [10,20) and [20,30) stay in state unemitted; then it stops.
    let mut q = start(&format!("{WINDOWED}.writeStream.trigger(once=True)")).unwrap();
    assert_eq!(q.trigger, Trigger::Once);
    q.add_data("s", &rows(&[10, 20, 30])).unwrap();
    let batches = q.fire();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].input_rows, 3);
    assert!(batches[0].rows.is_empty());
    assert!(!q.is_active());
    assert!(q.fire().is_empty(), "a finished once query runs nothing more");
}

#[test]
fn available_now_runs_the_no_data_batch_then_stops() {
    // Same data with availableNow: batch 0 (data), then batch 1 (no-data, watermark 30 s)
    // emits [10,20) and [20,30); [30,40) stays in state.
    let mut q = start(&format!("{WINDOWED}.writeStream.trigger(availableNow=True)")).unwrap();
    q.add_data("s", &rows(&[10, 20, 30])).unwrap();
    let batches = q.fire();
    assert_eq!(batches.iter().map(|b| b.batch_id).collect::<Vec<_>>(), vec![0, 1]);
    assert_eq!(batches[1].rows.len(), 2);
    assert!(!q.is_active());
}

#[test]
fn processing_time_runs_at_most_one_batch_per_trigger() {
    let mut q = start(&format!("{WINDOWED}.writeStream.trigger(processingTime='5 seconds')")).unwrap();
    assert_eq!(q.trigger, Trigger::ProcessingTime { interval_ms: 5000 });
    q.add_data("s", &rows(&[10, 20, 30])).unwrap();
    assert_eq!(q.fire().len(), 1);
    // The next trigger runs the no-data batch.
    assert!(q.fire()[0].no_data);
    assert!(q.fire().is_empty());
    assert!(q.is_active());
}

#[test]
fn continuous_accepts_map_like_queries_only() {
    let ok = start("s.filter(\"k = 'a'\").select('k').writeStream.trigger(continuous='1 second')");
    assert!(ok.is_ok());
    let Err(Error::Analysis(e)) = start("s.withWatermark('ts', '0 seconds').select('k').writeStream.trigger(continuous='1 second')") else {
        panic!("a watermark is not map-like")
    };
    assert_eq!(e.message, "Continuous processing does not support EventTimeWatermark operations.");
    let Err(Error::Analysis(e)) = start("s.select('k').writeStream.foreachBatch(f).trigger(continuous='1 second')") else {
        panic!("foreachBatch with continuous")
    };
    assert_eq!(e.message, "'foreachBatch' is not supported with continuous trigger.");
}

#[test]
fn the_sink_can_be_written_in_the_query() {
    let q = start("s.select('k').writeStream.format('kafka').option('topic', 't')").unwrap();
    assert_eq!(q.sink.kind(), SinkKind::Kafka);
    let Err(Error::Analysis(e)) = start("s.select('k').writeStream.trigger(once=True, availableNow=True)") else { panic!("two triggers") };
    assert_eq!(e.error_class, "ONLY_ALLOW_SINGLE_TRIGGER");
}

#[test]
fn available_now_respects_max_files_per_trigger_and_once_ignores_it() {
    use streamlab_engine::streaming::SourceKind;
    // Spec T16: three files (10, 20, 30 s), maxFilesPerTrigger=1, window 10 s, delay 0:
    // b0 [], b1 [], b2 [[10,20) 1], b3 no-data [[20,30) 1]; [30,40) stays in state.
    let mut q = start(&format!("{WINDOWED}.writeStream.trigger(availableNow=True)")).unwrap();
    q.set_source_kind("s", SourceKind::File { max_files_per_trigger: Some(1) });
    for t in [10, 20, 30] {
        q.add_data("s", &rows(&[t])).unwrap();
    }
    let b = q.fire();
    assert_eq!(b.iter().map(|b| (b.batch_id, b.input_rows, b.rows.len())).collect::<Vec<_>>(), vec![(0, 1, 0), (1, 1, 0), (2, 1, 1), (3, 0, 1)]);
    // Spec T17: `once` reads all three files in one batch and emits nothing.
    let mut q = start(&format!("{WINDOWED}.writeStream.trigger(once=True)")).unwrap();
    q.set_source_kind("s", SourceKind::File { max_files_per_trigger: Some(1) });
    for t in [10, 20, 30] {
        q.add_data("s", &rows(&[t])).unwrap();
    }
    let b = q.fire();
    assert_eq!(b.iter().map(|b| (b.batch_id, b.input_rows, b.rows.len())).collect::<Vec<_>>(), vec![(0, 3, 0)]);
}

#[test]
fn a_socket_source_cannot_replay_after_a_crash() {
    use streamlab_engine::streaming::{CrashPoint, SinkKind, SourceKind};
    let text = "s.select('k', 'ts')";
    let mut q = start(text).unwrap();
    q.set_source_kind("s", SourceKind::Socket);
    q.sink = SinkKind::File.create();
    q.add_data("s", &rows(&[1, 2])).unwrap();
    // Batch 0 logs its offsets, then the process dies before running it.
    assert!(q.run_next_batch_crashing(Some(CrashPoint::AfterOffsetLog)).is_none());
    let (c, src, sink) = q.stop();
    let mut q = StreamingQuery::restart(text, &catalog(), OutputMode::Append, StreamingConf::default(), c, src, sink).unwrap();
    // The re-run of batch 0 finds nothing: the socket's lines were lost with the connection.
    let b = q.run_next_batch().unwrap();
    assert_eq!((b.batch_id, b.input_rows), (0, 0));
    assert!(q.sink.visible_rows().is_empty());
}

#[test]
fn the_rate_source_makes_rows_per_second_of_clock() {
    use streamlab_engine::streaming::{rate_schema, SourceKind};
    let mut c = Catalog::default();
    c.streams.insert("r".into(), rate_schema());
    let mut q = StreamingQuery::start("r.select('value')", &c, OutputMode::Append, StreamingConf::default()).unwrap();
    q.set_source_kind("r", SourceKind::Rate { rows_per_second: 2 });
    q.set_clock_ms(10_000); // the source starts
    assert!(q.run_next_batch().is_none(), "no second has passed yet");
    q.set_clock_ms(11_500); // 1 whole second: 2 rows
    let b = q.run_next_batch().unwrap();
    assert_eq!(b.rows, vec![vec![Value::Long(0)], vec![Value::Long(1)]]);
    q.set_clock_ms(13_000); // 3 seconds in all: rows 2..6
    assert_eq!(q.run_next_batch().unwrap().rows.len(), 4);
}

#[test]
fn the_memory_sink_needs_a_query_name_which_names_its_table() {
    let Err(Error::Analysis(e)) = start("s.select('k').writeStream.format('memory')") else { panic!("memory needs queryName") };
    assert_eq!(e.message, "queryName must be specified for memory sink.");
    let q = start("s.select('k').writeStream.format('memory').queryName('clicks_view')").unwrap();
    assert_eq!(q.name.as_deref(), Some("clicks_view"));
}

#[test]
fn the_file_sink_takes_append_only() {
    let Err(Error::Analysis(e)) =
        StreamingQuery::start(&format!("{WINDOWED}.writeStream.format('parquet')"), &catalog(), OutputMode::Update, StreamingConf::default())
    else {
        panic!("a file sink in update mode")
    };
    assert_eq!(e.error_class, "STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE");
    assert!(start(&format!("{WINDOWED}.writeStream.format('parquet')")).is_ok());
}
