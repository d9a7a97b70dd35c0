//! Native tests of `web::session`, the lab's boundary to the engine: the page does exactly
//! these calls. Expected values come from the conformance corpus (real Spark 4.3) or are
//! worked out by hand in the comments.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::collections::BTreeMap;

use streamlab_engine::streaming::OutputMode;
use streamlab_model::lab::session::{RowStatus, LabSession};

mod support;
use support::{corpus, corpus_lab, lab, run_all};

#[test]
fn next_step_reproduces_spark_batch_by_batch() {
    let case = corpus("window-sliding-classic-append");
    let expected = case.expected.clone().expect("expected");
    let mut s = LabSession::from_scenario(case);
    run_all(&mut s);
    let v = s.view();
    let got: Vec<(u64, usize)> = v.batches.iter().map(|b| (b.id, b.rows.len())).collect();
    let want: Vec<(u64, usize)> = expected.batches.iter().map(|b| (b.batch_id, b.rows.len())).collect();
    assert_eq!(got, want);
    // Every rendered row, cell by cell, is Spark's row as the lab shows it: the window, the
    // post and the count of each emitted row in each batch (the corpus lists them).
    for (b, want_batch) in v.batches.iter().zip(&expected.batches) {
        let mut got_rows: Vec<String> = b.rows.iter().map(|r| r.join(" | ")).collect();
        let mut want_rows: Vec<String> = want_batch
            .rows
            .iter()
            .map(|r| {
                let w = &r.0[0].1;
                let window = format!("[{}, {})", &w["start"].as_str().unwrap()[11..16], &w["end"].as_str().unwrap()[11..16]);
                format!("{window} | {} | {}", r.0[1].1, r.0[2].1)
            })
            .collect();
        got_rows.sort();
        want_rows.sort();
        assert_eq!(got_rows, want_rows, "batch {}", b.id);
    }
    let steps: Vec<Option<usize>> = v.batches.iter().map(|b| b.step).collect();
    let want_steps: Vec<Option<usize>> = expected.batches.iter().map(|b| Some(b.step)).collect();
    assert_eq!(steps, want_steps);
    // Batch 6 dropped the 12:04 event in two windows (corpus: num_rows_dropped_by_watermark=2).
    assert_eq!(v.batches[6].metrics[0].dropped, 2);
    // Windows show compactly on the scenario's day.
    assert_eq!(v.batches[5].rows[0][0], "[12:00, 12:10)");
    assert_eq!(v.steps_done, v.steps_total);
}

#[test]
fn invalid_mode_shows_sparks_error_and_keeps_the_input() {
    let case = corpus("stateless-filter-select-append");
    let mut s = LabSession::from_scenario(case);
    s.run_step();
    let rows_before = s.view().batches[0].rows.len();
    s.set_mode(OutputMode::Complete);
    let e = s.view().error.expect("complete without aggregation is rejected");
    assert_eq!(e.error_class.as_deref(), Some("STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION"));
    assert!(e.message.contains("no streaming aggregations"), "{}", e.message);
    assert!(s.view().batches.is_empty());
    // Back to append: the same input replays to the same output (corpus b0: e1, e3).
    s.set_mode(OutputMode::Append);
    assert!(s.view().error.is_none());
    assert_eq!(s.view().batches[0].rows.len(), rows_before);
    assert_eq!(rows_before, 2);
}

#[test]
fn delay_change_rewrites_the_query_and_replays() {
    let mut s = corpus_lab("window-sliding-classic-append");
    s.run_step();
    // Step 0 has events at 12:07, 12:08, 12:14; with a 10-minute delay the watermark is 12:04.
    assert_eq!(s.view().watermark.as_deref(), Some("2026-01-01T12:04:00Z"));
    s.set_delay(0, "0 seconds").unwrap();
    assert!(s.query_text().contains("withWatermark('event_time', '0 seconds')"), "{}", s.query_text());
    // With no delay it is the max event time itself.
    assert_eq!(s.view().watermark.as_deref(), Some("2026-01-01T12:14:00Z"));
    assert_eq!(s.view().delays, vec!["0 seconds".to_string()]);
    assert!(s.set_delay(0, "ten minutes").is_err());
    // Typed with spaces around it, the delay goes into the query as the field shows it.
    s.set_delay(0, "  12 minutes ").unwrap();
    assert!(s.query_text().contains("withWatermark('event_time', '12 minutes')"), "{}", s.query_text());
}

#[test]
fn bad_event_fields_are_reported_and_nothing_is_lost() {
    let mut s = corpus_lab("window-sliding-classic-append");
    let mut f = BTreeMap::new();
    f.insert("event_id".to_string(), "x1".to_string());
    f.insert("post_id".to_string(), "seven".to_string());
    f.insert("event_time".to_string(), "12:07".to_string());
    // Spark's JSON reader reads "seven" in a long column as NULL: the event is kept with a
    // NULL post_id and the note says why.
    let notes = s.push_event("clicks", &f).unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("post_id:") && notes[0].contains("NULL"), "{notes:?}");
    assert_eq!(s.view().pending.len(), 1);
    s.trigger();
    f.insert("post_id".to_string(), "7".to_string());
    f.insert("event_time".to_string(), "25:99".to_string());
    assert!(s.push_event("clicks", &f).unwrap_err().starts_with("event_time:"));
    f.insert("event_time".to_string(), "12:07".to_string());
    assert!(s.push_event("clicks", &f).unwrap().is_empty());
    assert_eq!(s.view().pending.len(), 1);
    s.trigger();
    let v = s.view();
    assert_eq!(v.pending.len(), 0);
    assert_eq!(v.batches.len(), 2);
    // The NULL-post event and the 12:07 event fall in the same two windows (10 minutes
    // sliding 5: [12:00, 12:10) and [12:05, 12:15)), but their keys differ (post NULL and 7):
    // 2 windows × 2 keys = four rows in state, all open.
    assert_eq!(v.state[0].rows.len(), 4);
    assert!(v.state[0].rows.iter().all(|(_, st)| *st == RowStatus::Open));
}

/// The heading above an error is the exception a learner meets in real PySpark, or says that
/// the rule is the lab's own.
#[test]
fn an_error_is_named_by_who_raises_it() {
    let mut s = corpus_lab("window-sliding-classic-append");
    let kind = |s: &mut LabSession, q: &str| {
        s.set_query(q);
        s.view().error.map(|e| e.kind).unwrap_or_default()
    };
    // Spark's SQL parser: a keyword missing in `spark.sql` text (PARSE_SYNTAX_ERROR).
    assert_eq!(kind(&mut s, "spark.sql('SELECT event_id FROM clicks WHERE')"), "ParseException");
    // Python's: a string that never closes, a leading zero (Python 3 forbids `007`).
    assert_eq!(kind(&mut s, "clicks.select('event_id)"), "SyntaxError");
    assert_eq!(kind(&mut s, "clicks.filter(clicks.post == 007)"), "SyntaxError");
    // Neither: Python runs an empty program or one that only assigns; the lab needs a query.
    assert_eq!(kind(&mut s, "# nothing yet"), "Streamlab");
    assert_eq!(kind(&mut s, "q = clicks.select('event_id')"), "Streamlab");
    // A PySpark API Streamlab does not model is said to be that, not a parse error.
    assert_eq!(kind(&mut s, "clicks.groupBy('post_id').pivot('user_id').count()"), "not modelled yet");
}

/// A run error in the first batch: no batch completed, and the view names the batch that failed
/// (logged in the offset log, never committed) for the batch list to say so.
#[test]
fn a_first_batch_that_fails_is_named() {
    let mut s = corpus_lab("window-sliding-classic-append");
    // `user_id` holds `u1`, ...: not an int, so the ANSI cast fails batch 0.
    s.set_query("clicks.select(F.col('user_id').cast('int'))");
    s.run_step();
    let v = s.view();
    assert_eq!(v.error.as_ref().and_then(|e| e.stage.as_deref()), Some("run"));
    assert!(v.batches.is_empty());
    assert_eq!(v.failed_batch, Some(0));
    // A query that runs has none.
    s.set_query("clicks.select('user_id')");
    s.run_step();
    assert_eq!(s.view().failed_batch, None);
}

/// The browser's first seconds, before the zone database has come (`types::tzdb`): a region
/// in `from_utc_timestamp` is the lab's note that it is on its way (no Spark condition, no
/// "What to do"), and once it is there the same session runs again clean. A zone that does not
/// exist is Spark's `INVALID_TIMEZONE`, whose "What to do" is not the ANSI-mode one (the value is
/// not a cast, an overflow or a division).
#[test]
fn a_region_zone_waits_for_the_database_and_then_runs() {
    use streamlab_engine::types::tzdb;
    let mut s = corpus_lab("window-sliding-classic-append");
    tzdb::hide_on_this_thread(true);
    s.set_query("clicks.select('event_id', F.from_utc_timestamp('event_time', 'Asia/Seoul').alias('local'))");
    run_all(&mut s);
    let waiting = s.view().error;
    tzdb::hide_on_this_thread(false);
    let e = waiting.expect("a note while the database is away");
    assert_eq!((e.kind.as_str(), e.error_class.as_deref(), e.hint.as_deref()), ("Streamlab", None, None));
    assert_eq!(e.message, "The time zone 'Asia/Seoul' is a region of the time zone database, which is still downloading: the query runs again as soon as it arrives.");
    // The database arrives: the app replays the session as it is.
    s.replay_all();
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert!(!v.batches.is_empty());
    s.set_query("clicks.select('event_id', F.from_utc_timestamp('event_time', 'Mars/Olympus').alias('local'))");
    run_all(&mut s);
    let e = s.view().error.expect("INVALID_TIMEZONE");
    assert!(e.message.contains("[INVALID_TIMEZONE] The timezone: Mars/Olympus is invalid."), "{}", e.message);
    assert_eq!(e.hint.as_deref(), Some("fix the value the error names; the batch is run again when the query changes"));
}

/// The view names the session zone when the query sets one other than UTC (the batch list says
/// the lab's times stay UTC where Spark's `show()` would print them in it).
#[test]
fn the_view_names_a_session_zone_other_than_utc() {
    let mut s = corpus_lab("window-sliding-classic-append");
    assert_eq!(s.view().session_time_zone, None);
    s.set_query("spark.conf.set('spark.sql.session.timeZone', 'Asia/Seoul')\nclicks.select('event_id')");
    assert_eq!(s.view().session_time_zone.as_deref(), Some("Asia/Seoul"));
    // `+00:00` is UTC at every instant: nothing to say.
    s.set_query("spark.conf.set('spark.sql.session.timeZone', '+00:00')\nclicks.select('event_id')");
    assert_eq!(s.view().session_time_zone, None);
}

/// A batch's watermark that is not the one a lesson task asks for is written as the batch list
/// writes it; the wanted one is not written (the task asks the learner to find it). Classic preset: step 0's latest click is 09:13, so batch 1 runs
/// with 09:13 - 10 min = 09:03; the task here asks for 09:19 (as a lesson file writes it).
#[test]
fn a_wrong_batch_watermark_is_told_in_the_batch_list_s_times() {
    use streamlab_model::study::lesson::Condition;
    use streamlab_model::text::Lang;
    let mut s = LabSession::from_scenario(streamlab_model::lab::presets::preset("classic").expect("classic"));
    run_all(&mut s);
    let c = Condition { batch: Some(1), batch_watermark: Some("2026-03-02T09:19:00Z".into()), ..Condition::default() };
    let m = c.check(&s.view()).expect_err("09:03 is not 09:19");
    // The wanted 09:19 is not written: the task asks the learner to find it.
    assert_eq!(m.text(Lang::En), "batch 1 ran with watermark 09:03, not the one this task expects");
    assert_eq!(m.text(Lang::Ko), "배치 1의 워터마크는 09:03입니다. 이 과제가 기대하는 값이 아닙니다");
}

#[test]
fn a_query_typo_points_at_its_position() {
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_query("clicks.select('event_id'");
    let e = s.view().error.expect("unclosed call");
    // Python refuses this before PySpark runs a line: `SyntaxError: '(' was never closed`.
    assert_eq!(e.kind, "SyntaxError");
    // The unclosed call is reported at its open bracket: byte 13, column 14.
    assert_eq!(e.position, Some((1, 14)));
    s.set_query("clicks.select('nope')");
    let e = s.view().error.expect("unknown column");
    assert_eq!(e.error_class.as_deref(), Some("UNRESOLVED_COLUMN.WITH_SUGGESTION"));
    // The hint names Spark's nearest suggestion before the columns, in either language:
    // `post_idd` is one letter from `post_id` (Spark's list starts with it).
    s.set_query("clicks.select('post_idd')");
    let hint = s.view().error.expect("a typo").hint.expect("a hint");
    assert!(hint.starts_with("the nearest name is `post_id`; the input columns here are `event_id`"), "{hint}");
    // A curly quote pasted from a document is named, and what to type instead, in Korean too.
    let curly = streamlab_model::text::i18n::localize(streamlab_model::text::Lang::Ko, "invalid character '\u{2018}' (U+2018); curly quotes come from documents and PDFs: type a straight ' or \" instead");
    assert!(curly.starts_with("쓸 수 없는 문자 '\u{2018}' (U+2018); 둥근 따옴표는"), "{curly}");
    let ko = streamlab_model::text::i18n::localize(streamlab_model::text::Lang::Ko, &hint);
    assert!(ko.starts_with("가장 가까운 이름은 `post_id`입니다; 여기서 입력 컬럼은 `event_id`"), "{ko}");
    // Code the lab does not read says what it is, in Korean too, every part of it (no English
    // left but the code): a comprehension, Scala, SQL, an `if` at the top, a name after a name.
    for (text, want) in [
        ("[F.col(c) for c in cols]", "'for'(반복문"),
        ("val df = clicks", "잘못된 구문: 'val'은 Scala입니다; 실습은 PySpark"),
        ("SELECT * FROM clicks", "잘못된 구문: SQL로 보입니다; PySpark에서는"),
        ("if ready:\n    clicks", "'if'는 여기서 실습이 실행하지 않는 Python입니다; 프로그램은"),
        ("clicks counts", "잘못된 구문: 'counts'는 앞의 내용 뒤에 올 수 없습니다; 연산자"),
    ] {
        s.set_query(text);
        let e = s.view().error.expect("a syntax error");
        let ko = streamlab_model::text::i18n::localize(streamlab_model::text::Lang::Ko, &e.message);
        assert!(ko.starts_with(want), "{text}: {ko}");
    }
    // A function the code calls that PySpark does not have, and PySpark's nearest name.
    s.set_query("from pyspark.sql.functions import *\nclicks.groupBy(windw(col('event_time'), '10 minutes')).count()");
    let hint = s.view().error.and_then(|e| e.hint).expect("a hint");
    let ko = streamlab_model::text::i18n::localize(streamlab_model::text::Lang::Ko, &hint);
    assert_eq!(ko, "windw(...): 함수로 호출했지만 Python에도 pyspark.sql.functions에도 그런 이름의 함수가 없습니다; window를 쓰려던 것인가요?");
}

#[test]
fn a_saved_session_reopens_to_the_same_batches() {
    let mut s = corpus_lab("window-tumbling-append-basic");
    run_all(&mut s);
    let saved = s.to_scenario().to_json();
    let mut again = LabSession::from_json(&saved).unwrap();
    run_all(&mut again);
    let ids = |s: &LabSession| s.view().batches.iter().map(|b| (b.id, b.rows_json.clone())).collect::<Vec<_>>();
    assert_eq!(ids(&s), ids(&again));
    assert!(LabSession::from_json("{not json").is_err());
}

#[test]
fn advancing_the_watermark_with_an_event_closes_windows() {
    let mut s = corpus_lab("window-tumbling-append-basic");
    s.run_step();
    let emitted_before: usize = s.view().batches.iter().map(|b| b.rows.len()).sum();
    assert_eq!(emitted_before, 0);
    // An event at 13:00 with a 5-minute delay moves the watermark to 12:55: the one
    // 10-minute window of step 0's events (12:01, 12:03, 12:08) ends by then and is emitted in
    // the no-data batch, with its 3 events; the 13:00 event's window stays open.
    s.advance_with_event("clicks", "13:00").unwrap();
    let v = s.view();
    assert_eq!(v.watermark.as_deref(), Some("2026-01-01T12:55:00Z"));
    assert!(v.batches.last().unwrap().no_data);
    assert_eq!(v.batches.last().unwrap().rows, vec![vec!["[12:00, 12:10)".to_string(), "3".to_string()]]);
}

#[test]
fn a_crash_mid_sink_duplicates_in_kafka_but_not_in_the_file_sink() {
    use streamlab_engine::streaming::{CrashPoint, SinkKind};
    // Classic case: batch 5 (no-data, watermark 12:11) emits the three [12:00,12:10) windows.
    let run = |kind: SinkKind| {
        let mut s = corpus_lab("window-sliding-classic-append");
        s.set_sink(kind);
        s.run_step();
        s.run_step();
        s.push_step();
        s.trigger(); // batch 4: step 2's data
        s.crash(CrashPoint::MidSink).unwrap(); // batch 5 dies after writing 1 of its 3 rows
        let crashed = s.view().recovery.unwrap();
        assert!(crashed.crashed.is_some());
        // Its aggregation had committed state version 6 before the sink's write: the state
        // shown is that version, which the commit log (last entry: batch 4) does not cover.
        assert_eq!(crashed.crashed_after_state, Some(5));
        assert_eq!(crashed.commit_log.last().map(|(b, _)| *b), Some(4));
        // Stopped: nothing runs again until a restart.
        assert_eq!(crashed.rerun_due, None);
        s.restart(); // batch 5 has an offset entry and no commit entry: it runs again
        assert_eq!(s.view().recovery.unwrap().rerun_due, Some(5));
        assert_eq!(s.view().recovery.unwrap().crashed_after_state, None, "a restart reloads version 5");
        s.trigger();
        assert_eq!(s.view().recovery.unwrap().rerun_due, None, "batch 5 ran again and is committed");
        s.view().recovery.unwrap()
    };
    let file = run(SinkKind::File);
    // Readers see 3 rows once; the crashed attempt's part file is not in _spark_metadata.
    assert_eq!(file.sink_rows.iter().filter(|r| r.visible).count(), 3);
    assert_eq!(file.sink_rows.iter().filter(|r| !r.visible).count(), 1);
    assert_eq!(file.duplicates, 0);
    let kafka = run(SinkKind::Kafka);
    // 1 record from the crashed attempt + 3 from the re-run: one duplicate.
    assert_eq!(kafka.sink_rows.len(), 4);
    assert_eq!(kafka.duplicates, 1);
    // The query id survives the restart; the run id does not.
    assert_eq!(kafka.runs, 2);
    assert_eq!(kafka.offset_log.iter().filter(|(b, _, _)| *b == 5).count(), 1);
    assert_eq!(kafka.commit_log.last().map(|(b, _)| *b), Some(5));
}

#[test]
fn restart_with_a_changed_query_checks_the_state() {
    use streamlab_engine::streaming::SinkKind;
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_sink(SinkKind::File);
    s.run_step();
    // Grouping by user_id instead of post_id does not fit the state of the first run.
    s.restart_with("clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'user_id').count()");
    let e = s.view().error.expect("incompatible state");
    assert_eq!(e.error_class.as_deref(), Some("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE"));
    // A filter is allowed: the second run continues with batch 2.
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_sink(SinkKind::File);
    s.run_step();
    s.restart_with("clicks.filter('post_id > 0').withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()");
    assert!(s.view().error.is_none());
    s.run_step();
    let v = s.view();
    assert_eq!(v.batches.iter().map(|b| b.id).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    let r = v.recovery.unwrap();
    assert_eq!(r.runs, 2);
    // Started, 2 progress, stopped, started, 2 progress.
    assert_eq!(r.events.iter().filter(|e| e.starts_with("onQueryStarted")).count(), 2);
    assert_eq!(r.events.iter().filter(|e| e.starts_with("onQueryProgress")).count(), 4);
    assert_eq!(r.events.iter().filter(|e| e.starts_with("onQueryTerminated")).count(), 1);
}

#[test]
fn a_once_trigger_runs_one_batch_and_stops() {
    use streamlab_engine::streaming::Trigger;
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_trigger(Trigger::Once);
    s.push_step();
    s.trigger();
    s.trigger();
    let v = s.view();
    // One batch with step 0's three events; no trailing no-data batch, and the query stopped.
    assert_eq!(v.batches.len(), 1);
    assert_eq!(v.batches[0].input_rows, 3);
    let r = v.recovery.unwrap();
    assert!(!r.active);
    assert_eq!(r.status, "Stopped");
}

/// A crash after the offset log, before the batch ran, leaves the state of the last committed
/// batch: nothing to say about a state version the commit log does not cover.
#[test]
fn a_crash_before_the_batch_runs_leaves_the_committed_state() {
    use streamlab_engine::streaming::CrashPoint;
    let mut s = corpus_lab("window-sliding-classic-append");
    s.run_step();
    s.push_step();
    s.crash(CrashPoint::AfterOffsetLog).unwrap();
    let r = s.view().recovery.unwrap();
    assert!(r.crashed.is_some());
    assert_eq!(r.crashed_after_state, None);
}

#[test]
fn the_socket_preset_loses_its_lines_after_a_crash() {
    use streamlab_engine::streaming::{CrashPoint, SinkKind};
    let preset = |kind: &str| {
        let mut s = lab("socket-source");
        s.set_source_kind("clicks", kind, None);
        s.set_sink(SinkKind::File);
        s.push_step();
        s.crash(CrashPoint::AfterOffsetLog).unwrap();
        s.restart();
        s.trigger();
        s.view().recovery.unwrap().sink_rows.len()
    };
    // c1 is the only post-1 click of step 0: a replayable source re-reads it after the restart,
    // the socket has lost it.
    assert_eq!(preset("memory"), 1);
    assert_eq!(preset("socket"), 0);
}

#[test]
fn the_rate_preset_makes_rows_from_the_clock() {
    let mut s = lab("rate-source");
    while s.run_step() {}
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    // 4 steps, one lab second apart: 3 seconds × 2 rows per second are read in all.
    assert_eq!(v.batches.iter().map(|b| b.input_rows).sum::<u64>(), 6);
    // The clock starts at the epoch, the rows' day: batch 0's window (rows at 0 s and 0.5 s, a
    // 2-second window) reads as short as the later ones, not in full.
    assert_eq!(v.batches[0].rows[0].join(" | "), "[00:00, 00:00:02) | 2");
}

#[test]
fn without_a_checkpoint_location_file_sinks_fail_and_others_start_over() {
    use streamlab_engine::streaming::SinkKind;
    let mut s = corpus_lab("stateless-filter-select-append");
    s.set_checkpoint_location(false);
    s.set_sink(SinkKind::File);
    let e = s.view().error.expect("a file sink needs a checkpoint location");
    assert_eq!(e.error_class.as_deref(), Some("_LEGACY_ERROR_TEMP_1298"));
    // The console sink may run on a temporary checkpoint; a restart starts again at batch 0
    // and prints step 0's two rows (e1, e3) a second time.
    s.set_sink(SinkKind::Console);
    assert!(s.view().error.is_none());
    s.run_step();
    s.restart();
    s.trigger();
    let v = s.view();
    assert_eq!(v.batches.iter().map(|b| b.id).collect::<Vec<_>>(), vec![0, 0]);
    assert_eq!(v.recovery.unwrap().sink_rows.len(), 4);
}

#[test]
fn a_restart_on_a_temporary_checkpoint_evicts_nothing_it_never_held() {
    // The session keeps the state's row ids after each batch as the next batch's "before"
    // (evicted = before − after). A restart on a temporary checkpoint starts from empty state:
    // here with 20-minute windows, whose keys the first run's 10-minute windows never share,
    // so the first batch after it evicts nothing though the old state held other rows.
    let mut s = lab("classic");
    s.set_checkpoint_location(false);
    s.run_step();
    s.run_step();
    assert!(s.view().state.iter().any(|t| !t.rows.is_empty()), "the first run holds windows");
    s.restart_with("clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '20 minutes'), 'post_id').count()");
    s.trigger();
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    // Batch 0 again, with no watermark yet: it evicted nothing (the windows it read are open,
    // or closing by the watermark the next batch will use).
    assert_eq!(v.batches.last().map(|b| b.id), Some(0));
    let statuses: Vec<RowStatus> = v.state.iter().flat_map(|t| t.rows.iter().map(|(_, st)| *st)).collect();
    assert!(!statuses.is_empty() && !statuses.contains(&RowStatus::Evicted), "{statuses:?}");
}

#[test]
fn a_saved_session_comes_back_with_its_checkpoint_and_sink() {
    use streamlab_engine::streaming::{CrashPoint, SinkKind};
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_sink(SinkKind::Kafka);
    s.run_step();
    s.run_step();
    s.push_step();
    s.trigger();
    s.crash(CrashPoint::MidSink).unwrap();
    s.restart();
    s.trigger();
    let saved = s.to_saved_json();
    let back = LabSession::from_saved_json(&saved).unwrap();
    // Replaying the saved actions rebuilds the same batches, logs and sink (1 duplicate).
    assert_eq!(back.view(), s.view());
    assert_eq!(back.view().recovery.unwrap().duplicates, 1);
}

#[test]
fn export_to_pyspark_carries_the_session_and_its_trigger() {
    use streamlab_engine::streaming::Trigger;
    let case = corpus("window-sliding-classic-append");
    let mut s = LabSession::from_scenario(case);
    // Two steps run in the lab: the script holds them as its first two steps, then the
    // corpus case's four steps not reached yet (6 in all).
    assert!(s.run_step());
    assert!(s.run_step());
    s.set_trigger(Trigger::AvailableNow);
    let (name, script) = s.to_pyspark().expect("script");
    assert_eq!(name, "window-sliding-classic-append.py");
    assert!(script.contains("clicks.withWatermark('event_time', '10 minutes')"), "the query is in the script");
    assert!(script.contains("TRIGGER = {\"availableNow\": True}"));
    let open = "SCENARIO = json.loads(r\"\"\"";
    let start = script.find(open).expect("embedded scenario") + open.len();
    let end = start + script[start..].find("\"\"\")").expect("end of the literal");
    let embedded: serde_json::Value = serde_json::from_str(&script[start..end]).expect("JSON");
    assert_eq!(embedded["steps"].as_array().map(Vec::len), Some(6));
    // A fresh session saves every step of its scenario (nothing run yet).
    let fresh = corpus_lab("window-sliding-classic-append");
    assert_eq!(fresh.to_scenario().steps, corpus("window-sliding-classic-append").steps);
    assert!(embedded.get("expected").is_none(), "Spark's answer is not part of the script");
}

#[test]
fn the_bench_page_measures_every_workload_and_the_replay() {
    use streamlab_model::lab::bench::{measure, plan};
    // A clock that moves 1 ms per reading: the figures are then worked out by hand.
    let ticks = std::cell::Cell::new(0.0);
    let now = move || {
        ticks.set(ticks.get() + 1.0);
        ticks.get()
    };
    let entries = plan();
    // Five workloads at four sizes, and the replay.
    assert_eq!(entries.len(), 5 * 4 + 1);
    // 10 events, 3 runs: one timed loop over the three queries reads the clock twice (1 ms
    // apart), so a run is 1/3 ms; each run reads its 10 events.
    let row = measure((Some(0), 10, 3), &now);
    assert_eq!((row.workload.as_str(), row.events, row.runs, row.input_rows), ("classic", 10, 3, 30));
    assert!((row.median_ms - 1.0 / 3.0).abs() < 1e-12, "{}", row.median_ms);
    // A large batch is timed run by run: 1 ms each, the median 1 ms.
    let big = measure((Some(0), 2_000, 2), &now);
    assert_eq!((big.median_ms, big.input_rows), (1.0, 4_000));
    let replay = measure(*entries.last().unwrap(), &now);
    assert!(replay.workload.starts_with("lab replay"));
    assert!(replay.input_rows > 0, "the replay read nothing");
}

#[test]
fn the_query_texts_own_sink_wins_over_the_picker_and_the_view_says_so() {
    use streamlab_engine::streaming::SinkKind;
    let mut s = corpus_lab("stateless-filter-select-append");
    s.set_sink(SinkKind::Console);
    let v = s.view().recovery.expect("a query");
    assert_eq!((v.sink, v.sink_from_query), (SinkKind::Console, false));
    // The text names Kafka: the picker's console does not apply. Kafka needs a checkpoint
    // location, and a sink the text names has only what the program gives it: the lab's switch
    // (on by default) stands in for the picked sink's, so this start fails as in Spark.
    assert!(v.checkpoint_set);
    let text = format!("{}.writeStream.format('kafka')", s.view().query_text.trim_end());
    s.set_query(&text);
    let v = s.view();
    assert_eq!(v.checkpoint_from_text, Some(false));
    // The view still names the text's sink though the query did not start.
    assert_eq!((v.sink, v.sink_from_text), (SinkKind::Kafka, true));
    assert_eq!(v.error.map(|e| e.error_class), Some(Some("_LEGACY_ERROR_TEMP_1298".to_string())));
    // Given in the text, it starts, whatever the switch says.
    s.set_query(&text.replace(".format('kafka')", ".format('kafka').option('checkpointLocation', '/chk/clicks')"));
    s.set_checkpoint_location(false);
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!(v.checkpoint_from_text, Some(true));
    let r = v.recovery.expect("a query");
    assert_eq!((r.sink, r.sink_from_query, r.temporary), (SinkKind::Kafka, true, false));
    // So does a session conf the program sets.
    s.set_query(&format!("spark.conf.set('spark.sql.streaming.checkpointLocation', '/chk')\n{text}"));
    assert!(s.view().error.is_none(), "{:?}", s.view().error);
    // A console sink the text names runs without one, on a temporary checkpoint.
    s.set_query(&text.replace("'kafka'", "'console'"));
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!(v.recovery.map(|r| r.temporary), Some(true));
    // Without a sink in the text the switch decides again, for the picked Kafka sink.
    s.set_query(&text.replace(".writeStream.format('kafka')", ""));
    s.set_sink(SinkKind::Kafka);
    assert_eq!(s.view().checkpoint_from_text, None);
    assert_eq!((s.view().sink, s.view().sink_from_text), (SinkKind::Kafka, false));
    let e = s.view().error.expect("kafka needs a checkpoint location");
    assert_eq!(e.error_class.as_deref(), Some("_LEGACY_ERROR_TEMP_1298"));
}

/// The device-silence preset on the lab's clock: each trigger one second after the one before,
/// so step k's batch runs at k s (as in `scenario::run`). Each reading sets its device's timeout
/// to that batch's clock + 3 s; a key times out in the first batch whose clock is strictly past
/// it (Spark's `timeoutTimestamp < batchTimestampMs`, spec §9.1):
/// - d2 reads last in step 1 (1 s, timeout 4 s): step 4 runs at exactly 4 s and does not fire
///   it; step 5 (5 s) does, alerting d2 (2 readings, max temp 30.4);
/// - d3 reads once in step 2 (2 s, timeout 5 s): alert in step 6's batch (6 s);
/// - d1 reads in every step, 1 s apart, so it never times out while the steps run; its last
///   reading (step 6, 6 s) sets 9 s. After 7 triggers the clock is 7 s; waiting 10 s makes it
///   17 s, and the trigger then runs a batch without data that alerts d1 (7 readings, 22.3).
#[test]
fn the_device_silence_preset_alerts_on_the_processing_time_clock() {
    let mut s = lab("device-silence-alert");
    assert_eq!(s.processing_clock_ms(), Some(0));
    while s.run_step() {}
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    let alerts = |v: &streamlab_model::lab::session::LabView| -> Vec<(Option<usize>, Vec<String>)> {
        v.batches.iter().flat_map(|b| b.rows.iter().map(move |r| (b.step, r.clone()))).collect()
    };
    let row = |d: &str, n: &str, t: &str| vec![d.to_string(), "silent".to_string(), n.to_string(), t.to_string()];
    assert_eq!(alerts(&v), vec![(Some(5), row("d2", "2", "30.4")), (Some(6), row("d3", "1", "18.2"))]);
    // Seven batches, one per step: no batch runs between steps on the lab's clock.
    assert_eq!(v.batches.len(), 7);
    // d1's last reading ran in the batch of step 6, at 6 s on the clock; setTimeoutDuration(3000)
    // puts its timeout at 6 s + 3 s = 0:00:09 on the same clock (not a 1970 date).
    let table = &v.state[0];
    let col = table.columns.iter().position(|c| c == "timeout").expect("a timeout column");
    let d1: Vec<&String> = table.rows.iter().filter(|(cells, _)| cells[0] == "d1").map(|(cells, _)| &cells[col]).collect();
    assert_eq!(d1, vec!["⏱ 0:00:09"]);
    // Without a watermark the picture still places each reading at its event time: 10
    // readings, the first (r1) at 2026-03-02T09:00:00Z = 1772442000 s.
    let p = s.picture();
    let times: Vec<Option<i64>> = p.lanes[0].marks.iter().map(|m| m.event_time_us).collect();
    assert_eq!(times.len(), 10);
    assert_eq!(times[0], Some(1_772_442_000_000_000));
    assert!(times.iter().all(Option::is_some), "{times:?}");
    assert_eq!(s.processing_clock_ms(), Some(7_000));
    s.wait(10_000).expect("a positive wait");
    assert_eq!(s.processing_clock_ms(), Some(17_000));
    s.trigger();
    let v = s.view();
    let last = v.batches.last().expect("a batch");
    assert_eq!((last.input_rows, last.rows.clone()), (0, vec![row("d1", "7", "22.3")]));
    // Every device has timed out and removed its state.
    assert_eq!(last.metrics[0].total, 0);
}

/// Every sink and delivery guarantee the engine has is named in the lab's labels, in both
/// languages (the engine names its sinks by id; the words are the page's).
#[test]
fn every_sink_and_guarantee_has_a_label() {
    use streamlab_engine::streaming::{DeliveryGuarantee, SinkKind};
    use streamlab_model::lab::session::{guarantee_label_key, sink_label_key};
    let keys: std::collections::BTreeSet<&str> = streamlab_model::text::i18n::labels_in(streamlab_model::text::Lang::En).map(|(k, _)| k).collect();
    let mut seen = std::collections::BTreeSet::new();
    for k in SinkKind::ALL {
        let key = sink_label_key(k);
        assert!(keys.contains(key), "{} has no label {key}", k.id());
        assert!(seen.insert(key), "two sinks share {key}");
    }
    for g in [DeliveryGuarantee::ExactlyOnce, DeliveryGuarantee::AtLeastOnce] {
        assert!(keys.contains(guarantee_label_key(g)));
    }
}

/// The guide's "Fault-tolerant" column is shown beside what the sink does, and where they differ
/// the guide's words agree with the engine's rule: the memory sink skips a seen batch id
/// (exactly-once within a run), yet the guide calls it not fault-tolerant, and only in complete
/// mode may a query on it restart from its checkpoint (`MemorySink` is not a recoverable sink
/// outside complete mode: `UnsupportedOperationChecker`'s checkpoint check). File is the one
/// exactly-once sink in the table; Kafka and foreach are at-least-once; the rest are not
/// fault-tolerant or depend on the code.
#[test]
fn the_sink_guide_line_says_the_guides_fault_tolerance_column() {
    use streamlab_engine::streaming::{DeliveryGuarantee, SinkKind};
    use streamlab_model::lab::session::sink_guide_key;
    use streamlab_model::text::{i18n::tr, Lang};
    assert_eq!(SinkKind::Memory.guarantee(), DeliveryGuarantee::ExactlyOnce);
    assert!(!SinkKind::Memory.recovers_from_checkpoint(OutputMode::Append));
    assert!(SinkKind::Memory.recovers_from_checkpoint(OutputMode::Complete));
    // What the sink does on a re-run says so too: outside complete mode the memory sink's
    // "exactly-once" holds within a run only, and a restart is refused.
    use streamlab_model::lab::session::sink_guarantee_key;
    assert_eq!(sink_guarantee_key(SinkKind::Memory, OutputMode::Append), "guarantee.no-restart");
    assert_eq!(sink_guarantee_key(SinkKind::Memory, OutputMode::Complete), "guarantee.exactly");
    assert_eq!(sink_guarantee_key(SinkKind::Kafka, OutputMode::Append), "guarantee.atleast");
    let memory = tr(Lang::En, sink_guide_key(SinkKind::Memory));
    assert!(memory.contains("not fault-tolerant") && memory.contains("complete mode"), "{memory}");
    assert!(tr(Lang::En, sink_guide_key(SinkKind::Console)).contains("not fault-tolerant"));
    assert!(tr(Lang::En, sink_guide_key(SinkKind::File)).contains("exactly-once"));
    for k in [SinkKind::Kafka, SinkKind::Foreach] {
        assert!(tr(Lang::En, sink_guide_key(k)).contains("at-least-once"), "{}", k.id());
    }
    for k in SinkKind::ALL {
        let key = sink_guide_key(k);
        assert_ne!(tr(Lang::Ko, key), tr(Lang::En, key), "{key} is not in Korean");
    }
}

#[test]
fn the_input_hint_writes_a_full_time_on_the_scenarios_day() {
    // classic's clicks are on 2026-03-02 (09:02, 09:06, ...): a full time the learner types
    // there is 2026-03-02T12:07:00Z, the same day a short 12:07 is on.
    let s = support::lab("classic");
    assert_eq!(streamlab_model::lab::cells::day_text(s.day_us()), "2026-03-02");
    let hint = streamlab_model::text::i18n::tr_with(streamlab_model::text::Lang::En, "push.help", &[("day", &"2026-03-02")]);
    assert!(hint.contains("2026-03-02T12:07:00Z"), "{hint}");
}

/// `writeStream.outputMode(...)` in the text wins over the lab's switch, as in Spark (the
/// builder's mode is the one `start()` uses): the view shows the mode the query runs in and that
/// the text set it, also when the start fails in that mode.
#[test]
fn an_output_mode_set_in_the_text_wins_over_the_switch_and_the_view_says_so() {
    let mut s = corpus_lab("window-sliding-classic-append");
    let query = s.view().query_text;
    run_all(&mut s);
    let append = s.view();
    assert_eq!((append.mode, append.mode_set_in_query), (OutputMode::Append, false));
    // The same input in update mode, chosen with the switch: what the text must give.
    s.set_mode(OutputMode::Update);
    let by_switch: Vec<Vec<Vec<String>>> = s.view().batches.iter().map(|b| b.rows.clone()).collect();
    assert_ne!(by_switch, append.batches.iter().map(|b| b.rows.clone()).collect::<Vec<_>>(), "update and append emit alike here");
    s.set_mode(OutputMode::Append);
    s.set_query(&format!("windowed = {}\nwindowed.writeStream.outputMode('update').format('console').start()", query.trim()));
    run_all(&mut s);
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!((v.mode, v.mode_set_in_query), (OutputMode::Update, true));
    assert_eq!(v.batches.iter().map(|b| b.rows.clone()).collect::<Vec<_>>(), by_switch);
    // The switch does not move it while the text sets it.
    s.set_mode(OutputMode::Complete);
    assert_eq!(s.view().mode, OutputMode::Update);
    // A start the text's mode fails: append over an aggregation without a watermark.
    s.set_query("clicks.groupBy('post_id').count().writeStream.outputMode('append').format('console').start()");
    let v = s.view();
    assert!(v.error.is_some());
    assert_eq!((v.mode, v.mode_set_in_query), (OutputMode::Append, true));
    // Without `.outputMode`, the switch is the mode again.
    s.set_query("clicks.groupBy('post_id').count()");
    let v = s.view();
    assert_eq!((v.mode, v.mode_set_in_query), (OutputMode::Complete, false));
    assert!(v.error.is_none(), "{:?}", v.error);
}

/// Before any batch the watermark is Spark's 0: a task's hint says "0 (none yet)", never
/// 1970-01-01T00:00:00Z. Classic preset, nothing run: the
/// task wants 09:03 (step 0's latest click 09:13 − 10 min); batch 0 then runs with 0.
#[test]
fn a_watermark_of_zero_is_told_as_none_yet_in_a_task_s_hint() {
    use streamlab_model::study::lesson::Condition;
    use streamlab_model::text::Lang;
    let mut s = LabSession::from_scenario(streamlab_model::lab::presets::preset("classic").expect("classic"));
    let c = Condition { watermark: Some("2026-03-02T09:03:00Z".into()), ..Condition::default() };
    let m = c.check(&s.view()).expect_err("no batch has run");
    assert_eq!(m.text(Lang::En), "the watermark is 0 (none yet), not the one this task expects");
    assert_eq!(m.text(Lang::Ko), "워터마크는 지금 0(아직 없음)입니다. 이 과제가 기대하는 값이 아닙니다");
    s.run_step();
    assert!(c.check(&s.view()).is_ok(), "after step 0 the watermark is 09:03");
    let b0 = Condition { batch: Some(0), batch_watermark: Some("2026-03-02T09:03:00Z".into()), ..Condition::default() };
    let m = b0.check(&s.view()).expect_err("batch 0 runs with 0");
    assert_eq!(m.text(Lang::En), "batch 0 ran with watermark 0 (none yet), not the one this task expects");
}

/// Code from the API reference reads a source by format (`DataStreamReader`'s docstring:
/// `spark.readStream.format("rate").load()`); the lab feeds its streams by name, so it reads
/// the classic preset's `clicks`, a memory stream, which has no `value` column. The view says
/// which stream the call read and that a rate source is one pick away; with clicks made a
/// rate source the same text runs on rows (timestamp, value) made from the lab's clock.
#[test]
fn a_reader_call_from_the_docs_says_which_lab_stream_it_reads() {
    let mut s = LabSession::from_scenario(streamlab_model::lab::presets::preset("classic").expect("classic"));
    s.set_query("df = spark.readStream.format(\"rate\").load()\ndf.selectExpr(\"value % 3 as v\")");
    let v = s.view();
    assert!(v.error.is_some(), "clicks has no `value`: the start fails");
    assert_eq!(v.reads.len(), 1, "{:?}", v.reads);
    let r = &v.reads[0];
    assert_eq!((r.stream.as_str(), r.format.as_str(), r.stream_kind.as_str(), r.kind), ("clicks", "rate", "memory", Some("rate")));
    assert_eq!(r.call, "spark.readStream.format(\"rate\").load()");
    assert_eq!(r.columns, ["event_id", "user_id", "post_id", "event_time"]);
    s.set_source_kind("clicks", "rate", None);
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert!(v.reads.is_empty(), "the stream is a rate source now: {:?}", v.reads);
    // Four triggers, a second apart on the lab's clock: the first starts the rate source's
    // clock (nothing due yet), each later one reads the one row (rowsPerSecond 1, Spark's
    // default) of the second since: values 0, 1, 2, so `value % 3` is 0, 1, 2.
    for _ in 0..4 {
        s.trigger();
    }
    let rows: Vec<Vec<String>> = s.view().batches.iter().flat_map(|b| b.rows.clone()).collect();
    assert_eq!(rows, [["0"], ["1"], ["2"]]);
    // A file format names the file source; a format the lab lacks names none.
    s.set_source_kind("clicks", "memory", None);
    s.set_query("spark.readStream.schema('event_id STRING').json('/data/clicks')");
    assert_eq!(s.view().reads.iter().map(|r| (r.format.as_str(), r.kind)).collect::<Vec<_>>(), [("json", Some("file"))]);
    s.set_query("spark.readStream.format('delta').load('/tables/clicks')");
    assert_eq!(s.view().reads.iter().map(|r| (r.format.as_str(), r.kind)).collect::<Vec<_>>(), [("delta", None)]);
    // The guide's word count fails on `lines.value` while the program is read (PySpark's
    // ATTRIBUTE_NOT_SUPPORTED: clicks has no `value`): the note still names the stream read.
    s.set_query("lines = spark.readStream.format(\"socket\").option(\"host\", \"localhost\").option(\"port\", 9999).load()\nwords = lines.select(F.explode(F.split(lines.value, \" \")).alias(\"word\"))\nwords.groupBy(\"word\").count()");
    let v = s.view();
    assert!(v.error.as_ref().is_some_and(|e| e.message.contains("ATTRIBUTE_NOT_SUPPORTED")), "{:?}", v.error);
    assert_eq!(v.reads.iter().map(|r| (r.stream.as_str(), r.format.as_str(), r.kind)).collect::<Vec<_>>(), [("clicks", "socket", Some("socket"))]);
    // A schema given to a reader of the stream's own kind is told too: the stream keeps its
    // columns (here clicks as a file source, read with the guide's csv reader).
    s.set_source_kind("clicks", "file", Some(1));
    s.set_query("spark.readStream.option('sep', ';').schema('name STRING, age INT').csv('/path/to/directory')");
    let v = s.view();
    assert_eq!(v.reads.iter().map(|r| (r.format.as_str(), r.kind, r.stream_kind.as_str(), r.schema_given)).collect::<Vec<_>>(), [("csv", Some("file"), "file", true)]);
    // Without a schema, Spark refuses a streaming file source at the reader call.
    s.set_query("spark.readStream.csv('/path/to/directory')");
    let v = s.view();
    assert_eq!(v.error.as_ref().map(|e| e.error_class.clone()), Some(Some("_LEGACY_ERROR_TEMP_2048".to_string())), "{:?}", v.error);
    assert!(v.reads.is_empty(), "the call failed before it read a stream");
    // The example's own name reads no reader call.
    s.set_source_kind("clicks", "memory", None);
    s.set_query("clicks.select('event_id')");
    assert!(s.view().reads.is_empty());
}

/// `trigger(once=True)` in the text: a step runs one batch over what has arrived and the query
/// stops, as the scheduled job it stands for; later steps only add their events, and a restart
/// on the same checkpoint reads them all in its one batch. The case's steps bring 3, 0, 2 and
/// 1 clicks (stateless-filter-select-append).
#[test]
fn a_once_trigger_runs_one_batch_and_stops_until_restarted() {
    let mut s = corpus_lab("stateless-filter-select-append");
    let query = "clicks.filter(F.col('post_id') == 1).select('event_id', 'user_id', 'event_time')";
    s.set_query(&format!("{query}.writeStream.trigger(once=True).format('console').option('checkpointLocation', '/chk/once').start()"));
    s.run_step();
    let v = s.view();
    assert_eq!(v.batches.iter().map(|b| (b.id, b.input_rows)).collect::<Vec<_>>(), vec![(0, 3)]);
    assert_eq!(v.recovery.as_ref().map(|r| (r.active, r.trigger_finished)), Some((false, true)));
    // Steps 1 and 2 run nothing: their 2 clicks wait in the source.
    s.run_step();
    s.run_step();
    assert_eq!(s.view().batches.len(), 1);
    // Restarted on its checkpoint, step 3's trigger reads steps 2 and 3 together (2 + 1
    // clicks) and stops again. (Without the checkpointLocation the console sink runs on a
    // temporary checkpoint, and the restart would begin again at batch 0 with all 6 clicks.)
    s.restart();
    s.run_step();
    let v = s.view();
    assert_eq!(v.batches.iter().map(|b| (b.id, b.input_rows)).collect::<Vec<_>>(), vec![(0, 3), (1, 3)]);
    assert_eq!(v.recovery.map(|r| r.active), Some(false));
    // The text's trigger wins over the lab's menu, as its sink and mode do.
    assert!(v.trigger_from_text);
    s.set_trigger(streamlab_engine::streaming::Trigger::Default);
    assert_eq!(s.trigger_choice(), "once");
    // availableNow stops the same way; the default trigger keeps running.
    for (trigger, active) in [("availableNow=True", false), ("processingTime='1 second'", true)] {
        let mut s = corpus_lab("stateless-filter-select-append");
        s.set_query(&format!("{query}.writeStream.trigger({trigger}).format('console').start()"));
        s.run_step();
        assert_eq!(s.view().recovery.map(|r| r.active), Some(active), "{trigger}");
    }
}

/// The lab's own sink is memory: after a once run stops the query, a restart on the same
/// checkpoint fails in append mode as in Spark (the memory sink resumes only in complete
/// mode), and the recovery view says so (`sink_recovers`), for the run note to say what works.
#[test]
fn a_memory_sink_outside_complete_mode_does_not_resume_and_the_view_says_so() {
    use streamlab_engine::streaming::{SinkKind, Trigger};
    let mut s = lab("classic");
    s.set_trigger(Trigger::Once);
    s.run_step();
    let r = s.view().recovery.expect("a started query");
    assert_eq!((r.sink, r.active, r.trigger_finished, r.sink_recovers), (SinkKind::Memory, false, true, false));
    s.restart();
    let e = s.view().error.expect("the restart is refused");
    assert!(e.message.starts_with("This query does not support recovering from checkpoint location"), "{}", e.message);
    // Another sink resumes: the console sink's restart reads on from the checkpoint.
    s.set_sink(SinkKind::Console);
    s.run_step();
    assert!(s.view().recovery.is_some_and(|r| r.sink_recovers && r.trigger_finished));
    s.restart();
    assert!(s.view().error.is_none());
}

/// What the program prints is shown beside it, in order, also when it then fails (PySpark 4.3
/// printed `True` and `DataFrame[event_id: string, user_id: string, event_time: timestamp]`).
#[test]
fn the_programs_print_output_is_in_the_view() {
    let mut s = corpus_lab("stateless-filter-select-append");
    s.set_query("df = clicks.select('event_id', 'user_id', 'event_time')\nprint(df.isStreaming)\nprint(df)\ndf");
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!(v.printed, vec!["True".to_string(), "DataFrame[event_id: string, user_id: string, event_time: timestamp]".to_string()]);
    s.set_query("print('before')\nclicks.nope");
    let v = s.view();
    assert!(v.error.is_some());
    assert_eq!(v.printed, vec!["before".to_string()]);
    // The programming guide's `printSchema()` on the stream it reads: PySpark 4.3 printed this
    // tree for the same schema read as a streaming JSON source (every column nullable; the
    // first case of engine/tests/fixtures/print_schema.json), then an empty line. `explain()` prints Spark's physical plan there, which the lab does not build:
    // its note says where the lab's plan is, in Korean too.
    s.set_query("clicks.printSchema()\nclicks.explain()\nclicks");
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!(v.printed[0], "root\n |-- event_id: string (nullable = true)\n |-- user_id: string (nullable = true)\n |-- post_id: long (nullable = true)\n |-- event_time: timestamp (nullable = true)\n");
    assert_eq!(
        streamlab_model::text::i18n::localize(streamlab_model::text::Lang::Ko, &v.printed[1]),
        "(explain(): Spark는 여기에 물리 플랜을 출력합니다. 실습은 물리 플랜을 만들지 않습니다: 쿼리의 분석된 플랜은 상태 메트릭 옆의 \"분석된 플랜\"에 있습니다)"
    );
}

/// A program that starts its query with no `.outputMode(...)` runs in Spark's default, append,
/// whatever the lab's buttons say: an aggregation without a watermark is then refused at
/// start() as Spark refuses it (the engine's start check, recorded in the conformance corpus),
/// and the view says the mode is the default. Writing the mode in the text runs it.
#[test]
fn a_started_query_without_an_output_mode_runs_in_append() {
    let mut s = corpus_lab("stateless-filter-select-append");
    s.set_mode(OutputMode::Complete);
    s.set_query("counts = clicks.groupBy('user_id').count()\nquery = counts.writeStream.format('console').start()");
    let v = s.view();
    assert_eq!((v.mode, v.mode_set_in_query, v.mode_default_in_query), (OutputMode::Append, true, true));
    let e = v.error.expect("append without a watermark is refused");
    assert!(e.message.contains("Invalid streaming output mode: append. This output mode is not supported for streaming aggregations without watermark"), "{}", e.message);
    s.set_query("counts = clicks.groupBy('user_id').count()\nquery = counts.writeStream.outputMode('complete').format('console').start()");
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!((v.mode, v.mode_set_in_query, v.mode_default_in_query), (OutputMode::Complete, true, false));
    // Without start(), the query is the lab's to run: the buttons choose the mode.
    s.set_query("clicks.groupBy('user_id').count()");
    let v = s.view();
    assert_eq!((v.mode, v.mode_set_in_query, v.mode_default_in_query), (OutputMode::Complete, false, false));
}

/// What opening another example would lose: a fresh preset has nothing of the learner's; a
/// step run, an edited query or another output mode is theirs (the page keeps such a session
/// for Step back), and taking the step back or setting the text back makes it fresh again.
#[test]
fn own_work_is_an_action_an_edited_query_or_another_mode() {
    let fresh = || LabSession::from_scenario(streamlab_model::lab::presets::preset("classic").expect("classic"));
    let mut s = fresh();
    assert!(!s.has_own_work());
    assert!(s.run_step());
    assert!(s.has_own_work());
    assert!(s.undo());
    assert!(!s.has_own_work());
    let original = s.view().query_text;
    s.set_query("clicks.groupBy('post_id').count()");
    assert!(s.has_own_work());
    s.set_query(&original);
    assert!(!s.has_own_work());
    s.set_mode(OutputMode::Update);
    assert!(s.has_own_work());
    s.set_mode(OutputMode::Append);
    assert!(!s.has_own_work());
}

/// `foreachBatch(f)`: the lab's sink records what each micro-batch hands `f`, but runs none of
/// its Python; the view names the call and the function as written, so the page can say so.
#[test]
fn a_foreach_batch_function_is_named_as_not_run() {
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_query(
        "def write_batch(batch_df, batch_id):\n    batch_df.groupBy('post_id').count().write.mode('append').saveAsTable('counts')\n\n\
         clicks.writeStream.foreachBatch(write_batch).start()\n",
    );
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!(v.not_run, vec![("foreachBatch".to_string(), "write_batch".to_string())]);
    // A query without one has none.
    s.set_query("clicks.select('event_id')");
    assert!(s.view().not_run.is_empty());
}

/// Code written for a socket, rate or Kafka source read in a lab whose stream is another kind:
/// the note names the example whose stream is that source as Spark reads it (the socket's
/// `value`, the rate's `timestamp, value`), and the code runs there as written — the guide's
/// socket word count, pasted into the classic lab, fails on `value`, and runs in the network
/// word count example.
#[test]
fn code_for_another_source_is_offered_the_example_that_has_it() {
    let guide = "from pyspark.sql.functions import explode, split\n\
                 lines = spark.readStream.format('socket').option('host', 'localhost').option('port', 9999).load()\n\
                 words = lines.select(explode(split(lines.value, ' ')).alias('word'))\n\
                 wordCounts = words.groupBy('word').count()\n\
                 query = wordCounts.writeStream.outputMode('complete').format('console').start()\n";
    let mut s = LabSession::from_scenario(streamlab_model::lab::presets::preset("classic").expect("classic"));
    s.set_query(guide);
    let v = s.view();
    assert!(v.error.is_some(), "clicks has no value column");
    assert_eq!(v.reads.iter().map(|r| r.example).collect::<Vec<_>>(), vec![Some("network-word-count")]);
    for (format, example) in [("rate", "rate-source"), ("kafka", "kafka-source")] {
        s.set_query(&format!("spark.readStream.format('{format}').load()"));
        assert_eq!(s.view().reads.iter().map(|r| r.example).collect::<Vec<_>>(), vec![Some(example)], "{format}");
    }
    // Spark's windowed word count reads `value, timestamp` (includeTimestamp): the example
    // whose socket stream has both columns.
    s.set_query("spark.readStream.format('socket').option('host', 'localhost').option('port', 9999).option('includeTimestamp', 'true').load()");
    assert_eq!(s.view().reads.iter().map(|r| r.example).collect::<Vec<_>>(), vec![Some("network-word-count-windowed")]);
    let mut there = LabSession::from_scenario(streamlab_model::lab::presets::preset("network-word-count").expect("preset"));
    there.set_query(guide);
    let v = there.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert!(v.reads.is_empty(), "the example's own stream is a socket source: nothing to note");
    // In the windowed example, a socket read without includeTimestamp gives `value` alone, as
    // Spark's reader does (PySpark 4.3's printSchema of such a read: root / value: string): the
    // guide's first program runs there too.
    let mut windowed = LabSession::from_scenario(streamlab_model::lab::presets::preset("network-word-count-windowed").expect("preset"));
    windowed.set_query(&format!("{guide}lines.printSchema()\n"));
    let v = windowed.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert_eq!(v.printed, vec!["root\n |-- value: string (nullable = true)\n".to_string()]);
}

/// The windowed network word count example runs Spark's own program (includeTimestamp, a
/// sliding window, orderBy in complete mode) and its last batch writes what Spark 4.3 wrote for
/// the same lines (the recorded case `socket-timestamp-window-wordcount-complete` in
/// engine/tests/cases: ten rows, ordered by window).
#[test]
fn the_windowed_network_word_count_runs_sparks_example() {
    let mut s = LabSession::from_scenario(streamlab_model::lab::presets::preset("network-word-count-windowed").expect("preset"));
    run_all(&mut s);
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert!(v.reads.is_empty(), "the example's own socket stream has the timestamp: nothing to note");
    // The program's console sink has `.option('truncate', 'false')`: windows are printed whole
    // and cells left-aligned, as Spark's console sink printed them (`|{2026-03-02 11:55:00,
    // 2026-03-02 12:05:00}|cat |1    |`).
    let log = v.recovery.as_ref().and_then(|r| r.sink_log.clone()).expect("the console sink's log");
    assert!(log.contains("|{2026-03-02 11:55:00, 2026-03-02 12:05:00}|cat |1    |"), "{log}");
    let last = v.batches.last().expect("batches");
    // Spark's metrics for the last batch: numRowsTotal 20 for the 10 state rows, the global
    // sort over 2 shuffle partitions having run the aggregation a second time to sample it
    // (the recorded case); the batch says which operator counts twice.
    assert_eq!((last.metrics[0].total, last.metrics[0].updated), (20, 8));
    assert_eq!(last.sampled_operators, vec!["stateStoreSave".to_string()]);
    // (window start, word, count) of the recorded last batch.
    let want = [("11:55", "cat", 1), ("11:55", "dog", 3), ("12:00", "cat", 2), ("12:00", "dog", 3), ("12:00", "owl", 1), ("12:05", "cat", 1), ("12:05", "dog", 1), ("12:05", "owl", 2), ("12:10", "dog", 1), ("12:10", "owl", 1)];
    assert_eq!(last.rows.len(), want.len(), "{:?}", last.rows);
    for (row, (start, word, count)) in last.rows.iter().zip(want) {
        let text = row.join(" ");
        assert!(text.contains(start) && text.contains(word) && text.ends_with(&count.to_string()), "{text} is not {start} {word} {count}");
    }
}

/// A reader option the lab's stream of that kind takes from its example instead (the rate
/// example makes 2 rows a second, its scenario's `rowsPerSecond`): the note names the code's
/// value and the lab's; the same value, or an option the lab does not model (`numPartitions`),
/// makes no note.
#[test]
fn a_reader_option_the_example_sets_is_named_when_the_code_differs() {
    let mut s = LabSession::from_scenario(streamlab_model::lab::presets::preset("rate-source").expect("rate-source"));
    let code = |rows: u32| format!("spark.readStream.format('rate').option('rowsPerSecond', {rows}).option('numPartitions', 4).load()");
    s.set_query(&code(10));
    let v = s.view();
    assert_eq!(v.reads.len(), 1);
    assert_eq!(v.reads[0].options_not_applied, vec![("rowsPerSecond".to_string(), "10".to_string(), "2".to_string())]);
    s.set_query(&code(2));
    assert!(s.view().reads.is_empty());
}

/// The error box shows the lines around the error, not the whole text: two lines each side of
/// the span's lines, `…` where lines were left out (worked out on a ten-line text, the error on
/// line 5's `bad`).
#[test]
fn an_error_shows_the_lines_around_it() {
    use streamlab_model::lab::session::error_excerpt;
    let text = "l1\nl2\nl3\nl4\nx = bad\nl6\nl7\nl8\nl9\nl10";
    let a = text.find("bad").unwrap();
    let (before, mid, after) = error_excerpt(text, a, a + 3, 2);
    assert_eq!((before.as_str(), mid.as_str(), after.as_str()), ("…\nl3\nl4\nx = ", "bad", "\nl6\nl7\n…"));
    // Near the start and the end nothing is left out there.
    let (before, _, after) = error_excerpt("x = bad\nl2", 4, 7, 2);
    assert_eq!((before.as_str(), after.as_str()), ("x = ", "\nl2"));
    // A span past the end of the text is clamped.
    assert_eq!(error_excerpt("abc", 5, 9, 2), ("abc".to_string(), String::new(), String::new()));
}

/// Each `withWatermark` delay comes with the event-time column it is for, so two sliders (a
/// join, a union) can say which is which: the join preset watermarks `event_time` then
/// `order_time`, 10 minutes each.
#[test]
fn each_delay_names_its_event_time_column() {
    let s = LabSession::from_scenario(streamlab_model::lab::presets::preset("stream-stream-inner-join").expect("preset"));
    let v = s.view();
    assert_eq!(v.delays, vec!["10 minutes".to_string(), "10 minutes".to_string()]);
    assert_eq!(v.delay_columns, vec!["event_time".to_string(), "order_time".to_string()]);
}

/// The trigger menu shows the text's own trigger when the text sets one: the engine's
/// description of it (10 seconds is 10,000 ms), not the menu's processingTime='2 seconds'.
#[test]
fn a_trigger_in_the_text_is_what_the_menu_shows() {
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_query("clicks.groupBy('post_id').count().writeStream.outputMode('update').trigger(processingTime='10 seconds').format('console').start()");
    let v = s.view();
    assert!(v.error.is_none(), "{:?}", v.error);
    assert!(v.trigger_from_text);
    assert_eq!(s.trigger_description(), "processingTime='10 seconds'");
}

/// The exported (and saved) scenario runs in the mode the query runs in: the text's
/// `.outputMode(...)`, or Spark's default append for a program that starts its query without
/// one, over the lab's buttons; a text that sets none runs in the buttons' mode. (A learner's
/// export ran an `.outputMode("update")` program in append and emitted nothing.)
#[test]
fn the_exported_scenario_runs_in_the_mode_the_text_sets() {
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_mode(OutputMode::Complete);
    s.set_query("clicks.groupBy('post_id').count().writeStream.outputMode('update').format('console').start()");
    assert_eq!(s.to_scenario().output_mode, "update");
    s.set_query("clicks.filter('post_id > 1').writeStream.format('console').start()");
    assert_eq!(s.to_scenario().output_mode, "append");
    s.set_query("clicks.groupBy('post_id').count()");
    assert_eq!(s.to_scenario().output_mode, "complete");
}

/// A trigger picked in the menu is checked at start as one written in the text is: continuous
/// processing refuses an aggregation (Spark's `UnsupportedOperationChecker.checkForContinuous`);
/// a learner's menu pick ran micro-batches instead.
#[test]
fn the_menus_continuous_trigger_is_checked_at_start() {
    use streamlab_engine::streaming::Trigger;
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_trigger(Trigger::Continuous { interval_ms: 1000 });
    let e = s.view().error.expect("refused at start");
    // Spark's message, then the plan (as Spark appends it).
    assert_eq!(e.stage.as_deref(), Some("start"));
    assert!(e.message.starts_with("Continuous processing does not support Aggregate operations.;\nStateStoreSave"), "{}", e.message);
    // The same text with the trigger written in it says the same.
    let mut t = corpus_lab("window-sliding-classic-append");
    let text = format!("{}.writeStream.trigger(continuous='1 second').format('console').start()", t.query_text().replace('\n', " ").replace('\\', ""));
    t.set_query(&text);
    assert_eq!(t.view().error.map(|e| e.message), Some(e.message));
    // A map-like query runs with it.
    s.set_query("clicks.filter('post_id > 1')");
    assert!(s.view().error.is_none(), "{:?}", s.view().error);
    assert_eq!(s.trigger_choice(), "continuous");
}
