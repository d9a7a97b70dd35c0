//! The instructor's tools, through the calls the page makes: step back (undo) replays the
//! log without its last action and gives back the earlier view exactly; a share link made by
//! the Share button opens, from the page's address, the same lab.

#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use streamlab_model::lab::session::LabSession;
use streamlab_model::lab::share::{from_location_hash, link_for, ShareError};

mod support;
use support::{corpus, corpus_lab, lab};

#[test]
fn undo_of_a_step_gives_the_view_before_it() {
    let case = corpus("window-sliding-classic-append");
    let expected = case.expected.clone().expect("expected");
    let mut s = LabSession::from_scenario(case);
    s.run_step();
    s.run_step();
    let before = s.view();
    // Real Spark ran batches 0..=3 for steps 0 and 1 (corpus), none emitting rows.
    assert_eq!(before.batches.len(), expected.batches.iter().filter(|b| b.step <= 1).count());
    assert_eq!(before.batches.len(), 4);
    s.run_step();
    // Step 2 ran batches 4 and 5; batch 5 emitted 3 rows (corpus).
    assert_eq!(s.view().batches.len(), 6);
    assert_eq!(s.view().batches[5].rows.len(), 3);
    assert!(s.undo());
    let after = s.view();
    assert_eq!(after, before, "undo gives back exactly the view before the step");
    assert_eq!(after.steps_done, 2);
    assert!(after.pending.is_empty(), "the step's events go back with its run");
    // The step runs again to the same batches (deterministic replay).
    s.run_step();
    assert_eq!(s.view().batches[5].rows.len(), 3);
}

#[test]
fn undo_takes_back_one_action_at_a_time() {
    let mut s = corpus_lab("window-sliding-classic-append");
    assert!(!s.undo(), "nothing to undo on a fresh lab");
    // An event at 12:21 and a run: the first undo takes the run back (the event is pending
    // again), the second the event.
    s.advance_with_event("clicks", "12:21").unwrap();
    assert_eq!(s.action_count(), 2);
    let ran = s.view();
    // Batch 0 reads the event; it moves the watermark (max event time − 10 min = 12:11), so
    // a no-data batch 1 follows (spec: a batch runs when the watermark would evict state).
    assert_eq!(ran.batches.len(), 2);
    assert_eq!(ran.batches[0].input_rows, 1);
    assert!(ran.batches[1].no_data);
    assert!(s.undo());
    let v = s.view();
    assert!(v.batches.is_empty());
    assert_eq!(v.pending.len(), 1);
    assert!(s.undo());
    assert_eq!(s.view().pending.len(), 0);
    assert_eq!(s.action_count(), 0);
    assert!(!s.undo());
}

#[test]
fn undo_of_events_added_by_play_moves_the_step_counter_back() {
    let mut s = corpus_lab("window-sliding-classic-append");
    s.run_step();
    // Play adds the next step's events, then triggers: each is one step back.
    assert!(s.push_step());
    s.trigger();
    assert_eq!(s.view().steps_done, 2);
    assert!(s.undo()); // the trigger
    assert_eq!(s.view().steps_done, 2);
    assert!(!s.view().pending.is_empty());
    assert!(s.undo()); // the step's events
    let v = s.view();
    assert_eq!(v.steps_done, 1);
    assert!(v.pending.is_empty());
    // Step 0 ran batches 0 and 1 (corpus).
    assert_eq!(v.batches.len(), 2);
}

#[test]
fn the_step_marks_survive_saving() {
    let mut s = corpus_lab("window-sliding-classic-append");
    s.run_step();
    s.push_step();
    let mut back = LabSession::from_saved_json(&s.to_saved_json()).unwrap();
    assert_eq!(back.view(), s.view());
    assert!(back.undo());
    assert_eq!(back.view().steps_done, 1);
    assert!(back.view().pending.is_empty());
}

#[test]
fn a_share_link_from_the_page_opens_the_same_lab() {
    let mut s = lab("classic");
    s.run_step();
    s.run_step();
    s.run_step();
    let link = link_for("http://localhost:8080/index.html#/lab", &s).unwrap();
    assert!(link.starts_with("http://localhost:8080/index.html#lab=1."), "{link}");
    let hash = &link[link.find('#').unwrap()..];
    let opened = from_location_hash(hash).expect("a share link").expect("opens");
    let (a, b) = (s.view(), opened.view());
    assert_eq!(a.batches.len(), b.batches.len());
    assert_eq!(a.watermark, b.watermark);
    assert_eq!(a.batches.iter().map(|x| x.rows.clone()).collect::<Vec<_>>(), b.batches.iter().map(|x| x.rows.clone()).collect::<Vec<_>>());
    assert_eq!(a, b);
}

#[test]
fn page_fragments_are_not_share_links_and_bad_links_say_why() {
    assert!(from_location_hash("").is_none());
    assert!(from_location_hash("#/lab").is_none());
    assert!(from_location_hash("#/lesson/watermarks").is_none());
    assert!(matches!(from_location_hash("#lab=1.%%%%"), Some(Err(ShareError::Encoding(_)))));
    assert!(matches!(from_location_hash("#lab=9.abc"), Some(Err(ShareError::Version(_)))));
    let long = format!("#lab=1.{}", "A".repeat(20_000));
    assert!(matches!(from_location_hash(&long), Some(Err(ShareError::TooLong { .. }))));
}

#[test]
fn query_error_hints_have_korean() {
    use streamlab_engine::streaming::OutputMode;
    use streamlab_model::text::i18n::localize;
    use streamlab_model::text::Lang;
    // Complete mode without an aggregation: Spark's error, and the engine's hint in Korean.
    let mut s = corpus_lab("stateless-filter-select-append");
    s.set_mode(OutputMode::Complete);
    let hint = s.view().error.and_then(|e| e.hint).expect("a hint");
    let ko = localize(Lang::Ko, &hint);
    assert_eq!(ko, "complete 모드는 매 배치마다 결과 테이블 전체를 다시 내보내므로 쿼리에 집계(groupBy)가 필요합니다");
    // A bad event time, as the event form reports it.
    let mut s = corpus_lab("window-sliding-classic-append");
    let fields = [("event_time".to_string(), "25:00".to_string())].into_iter().collect();
    let e = s.push_event("clicks", &fields).unwrap_err();
    assert_eq!(localize(Lang::Ko, &e), "event_time: '25:00'은 시각이 아닙니다. 12:07 또는 12:07:30처럼 쓰세요");
}

/// The NameError hints for code copied from the docs (a function imported by name, a `df` the
/// lab calls `clicks`) read in Korean too, with the names left as written.
#[test]
fn name_error_hints_have_korean() {
    use streamlab_model::text::i18n::localize;
    use streamlab_model::text::Lang;
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_query("clicks.groupBy(window(clicks.event_time, '10 minutes')).count()");
    let hint = s.view().error.and_then(|e| e.hint).expect("a hint");
    // "window" is read ending in 우 (no final consonant): 는.
    assert_eq!(localize(Lang::Ko, &hint), "window는 pyspark.sql.functions의 함수입니다: F.window(...)로 쓰거나, 먼저 임포트하세요: from pyspark.sql.functions import window");
    s.set_query("df.groupBy('post_id').count()");
    let hint = s.view().error.and_then(|e| e.hint).expect("a hint");
    assert_eq!(localize(Lang::Ko, &hint), "실습의 스트림 이름은 예제가 정합니다(clicks). 복사한 코드의 자기 이름(df, lines, events) 자리에 그 이름을 쓰거나, 먼저 대입하세요: df = clicks");
}

/// The hints that name the learner's own columns read in Korean too: the watermarked column of
/// an append refusal, and the sides of an ambiguous join column.
#[test]
fn watermark_and_ambiguity_hints_name_the_columns_in_korean() {
    use streamlab_model::text::i18n::localize;
    use streamlab_model::text::Lang;
    let mut s = corpus_lab("window-sliding-classic-append");
    s.set_query("clicks.withWatermark('event_time', '10 minutes').groupBy(F.window(clicks.event_time, '10 minutes')).count()");
    let hint = s.view().error.and_then(|e| e.hint).expect("a hint");
    assert_eq!(
        localize(Lang::Ko, &hint),
        "쿼리에 withWatermark('event_time', ...)가 있지만 워터마크를 가진 그룹 컬럼이 없습니다. withWatermark 전의 DataFrame에서 가져온 컬럼(df.event_time)에는 워터마크가 없습니다. 컬럼을 문자열로 쓰거나(F.window('event_time', ...)) 워터마크를 적용한 DataFrame에서 가져오거나, update/complete 모드를 쓰세요"
    );
    s.set_query("clicks.join(clicks, F.expr('post_id = post_id'))");
    let hint = s.view().error.and_then(|e| e.hint).expect("a hint");
    assert_eq!(localize(Lang::Ko, &hint), "먼저 양쪽에 이름을 붙이고(clicks.alias('c'), clicks.alias('c2')) 그 이름을 컬럼 앞에 붙이세요 (c.post_id = c2.post_id)");
}

/// The hints for code pasted from the API reference and the programming guide read in Korean,
/// with the code in them left as written.
#[test]
fn pasted_code_hints_read_in_korean() {
    use streamlab_model::text::i18n::localize;
    use streamlab_model::text::Lang;
    let mut s = corpus_lab("window-sliding-classic-append");
    let cases = [
        // A streaming file source without a schema (Spark's _LEGACY_ERROR_TEMP_2048): the hint
        // gives the lab's stream's own schema, so the schema added fits the rows.
        ("spark.readStream.json('/data/in')", "먼저 리더에 스키마를 주세요. DDL 문자열이나 StructType으로 씁니다. 이 실습의 스트림 clicks의 스키마는 .schema('event_id STRING, user_id STRING, post_id BIGINT, event_time TIMESTAMP')입니다. 또는 spark.sql.streaming.schemaInference를 true로 설정해 Spark가 추론하게 하세요"),
        // The guide's placeholders (`words = ...`, `query = ...`).
        ("words = ...\nwords.groupBy('word').count()", "프로그래밍 가이드는 보여 주지 않는 스트리밍 DataFrame 자리에 ...을 씁니다. words = clicks처럼 쓰세요 (이 실습의 스트림: clicks)"),
        ("query = ...\nquery.awaitTermination()\nclicks", "프로그래밍 가이드는 보여 주지 않는 StreamingQuery 자리에 ...을 씁니다. 쿼리를 시작하세요: query = df.writeStream.format('console').start()"),
        // A Databricks notebook habit.
        ("display(clicks)", "display는 PySpark가 아니라 Databricks 노트북의 이름입니다. 실습은 쿼리 결과를 직접 보여 주므로 DataFrame(또는 .writeStream.format('console').start())을 쓰세요"),
        // A file source's load() without a path (Spark's _LEGACY_ERROR_TEMP_2047).
        ("spark.readStream.format('json').load()", "load()에 읽을 폴더를 주세요: .load('/data/in'). 또는 그 앞에 .option('path', '/data/in')을 쓰세요"),
    ];
    for (query, want) in cases {
        s.set_query(query);
        let hint = s.view().error.and_then(|e| e.hint).unwrap_or_else(|| panic!("no hint for {query}"));
        assert_eq!(localize(Lang::Ko, &hint), want, "{query}");
    }
}

#[test]
fn the_advance_box_suggests_a_time_past_the_events_on_the_scenarios_day() {
    let mut s = lab("classic");
    // Step 0 of the preset has events at 09:02, 09:06 and 09:13: the latest + 10 min is
    // 09:23, rounded up to the next whole five minutes, 09:25 — before the step runs (read
    // from the scenario) and after (read from the events added).
    assert_eq!(s.advance_hint("clicks").as_deref(), Some("09:25"));
    s.run_step();
    assert_eq!(s.advance_hint("clicks").as_deref(), Some("09:25"));
    // An empty time is refused: an event with a NULL time would not move the watermark.
    let actions = s.action_count();
    assert!(s.advance_with_event("clicks", "  ").is_err());
    assert_eq!(s.action_count(), actions);
    // On a five-minute mark it stays: an event at 09:30 suggests 09:40.
    s.advance_with_event("clicks", "09:30").unwrap();
    assert_eq!(s.advance_hint("clicks").as_deref(), Some("09:40"));
    assert_eq!(s.advance_hint("no-such-source"), None);
}
