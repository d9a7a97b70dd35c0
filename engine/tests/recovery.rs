//! Crash recovery through the public API (spec §1.3 and §10): a `testStream` script per
//! scenario (`support`), with the expected sink contents worked out by hand, and a property
//! test that crashes a random batch at a random point and compares the sink with a run
//! that never crashed.

mod support;

use proptest::prelude::*;
use streamlab_engine::streaming::{CrashPoint, OutputMode, SinkKind};
use streamlab_engine::types::{timestamp_type, DataType, Row, Value};
use support::*;

// ---------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------

fn catalog() -> streamlab_engine::frontend::Catalog {
    streams(&[("clicks", &[("event_id", DataType::Utf8), ("post_id", DataType::Int64), ("event_time", timestamp_type())])])
}

/// A click `id` on `post` at `minute` minutes past the epoch.
fn click(id: &str, post: i64, minute: i64) -> Row {
    row![id, post, ts_min(minute)]
}

/// A row of the windowed count: window [start, end) in minutes, post, count.
fn wcount(start_min: i64, end_min: i64, post: i64, count: i64) -> Row {
    row![window_min(start_min, end_min), post, count]
}

const FILTER: &str = "clicks.filter(F.col('post_id') >= 2)";
const WINDOWED: &str =
    "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes'), 'post_id').count()";

// ---------------------------------------------------------------------------------------
// The script
// ---------------------------------------------------------------------------------------

/// The sinks a query can resume into in append mode: every one but memory, which Spark
/// refuses to recover from a checkpoint unless the mode is complete.
const RESUMABLE: [SinkKind; 5] = [
    SinkKind::Console,
    SinkKind::File,
    SinkKind::Kafka,
    SinkKind::ForeachBatchNaive,
    SinkKind::ForeachBatchIdempotent,
];

/// Runs `actions` against `query` writing to a fresh `sink` (the driver panics at the first
/// action whose expectation does not hold, naming its index).
fn check(query: &str, mode: OutputMode, sink: SinkKind, actions: Vec<Action<'_>>) {
    test_stream(query, mode, catalog()).sink(sink).run(actions);
}


// ---------------------------------------------------------------------------------------
// Scripted scenarios
// ---------------------------------------------------------------------------------------

/// Batch 0: e1 (post 1) and e2 (post 2) → the filter keeps e2.
/// Batch 1: e3 (post 2), e4 (post 3), e5 (post 1) → output [e3, e4]; the crash mid-sink
/// writes the first half (1 row: e3), then the restart re-runs batch 1 with [e3, e4].
fn filter_mid_sink_script(after_restart: Vec<Action<'static>>) -> Vec<Action<'static>> {
    let mut v = vec![
        AddData("clicks", vec![click("e1", 1, 0), click("e2", 2, 1)]),
        ProcessAllAvailable,
        CheckAnswer(vec![click("e2", 2, 1)]),
        AddData(
            "clicks",
            vec![click("e3", 2, 2), click("e4", 3, 3), click("e5", 1, 4)],
        ),
        CrashNext(CrashPoint::MidSink),
        // Batch 1 has an offset entry and no commit entry.
        CheckCommits(vec![0]),
        StartStream(Start::same()),
        RunBatch(Some((1, 3))),
        RunBatch(None),
        CheckCommits(vec![0, 1]),
    ];
    v.extend(after_restart);
    v
}

#[test]
fn file_sink_mid_sink_crash_each_row_seen_once() {
    // The orphan part file with e3 from the crashed attempt is not in `_spark_metadata`;
    // the re-run lists [e3, e4]. A reader sees e2, e3, e4 once each.
    check(
        FILTER,
        OutputMode::Append,
        SinkKind::File,
        filter_mid_sink_script(vec![
            CheckAnswerByBatch(vec![
                (0, click("e2", 2, 1)),
                (1, click("e3", 2, 2)),
                (1, click("e4", 3, 3)),
            ]),
            CheckDuplicates(0),
        ]),
    );
}

#[test]
fn kafka_sink_mid_sink_crash_duplicates_the_rows_written_before_the_crash() {
    // Kafka keeps e3 from the crashed attempt and the re-run appends [e3, e4]: e3 twice.
    check(
        FILTER,
        OutputMode::Append,
        SinkKind::Kafka,
        filter_mid_sink_script(vec![
            CheckAnswerByBatch(vec![
                (0, click("e2", 2, 1)),
                (1, click("e3", 2, 2)),
                (1, click("e3", 2, 2)),
                (1, click("e4", 3, 3)),
            ]),
            CheckDuplicates(1),
        ]),
    );
}

#[test]
fn mid_sink_crash_per_sink() {
    // Memory collects then appends atomically (nothing from the crash), idempotent
    // foreachBatch overwrites batch 1: both exactly once. Console and naive foreachBatch
    // keep e3 from the crashed attempt, like Kafka.
    for kind in RESUMABLE {
        let mut expect = vec![click("e2", 2, 1), click("e3", 2, 2), click("e4", 3, 3)];
        if !kind.exactly_once() {
            expect.push(click("e3", 2, 2));
        }
        let dups = usize::from(!kind.exactly_once());
        check(
            FILTER,
            OutputMode::Append,
            kind,
            filter_mid_sink_script(vec![CheckAnswer(expect), CheckDuplicates(dups)]),
        );
    }
}

#[test]
fn crash_after_offset_log_reruns_the_logged_input_and_new_data_goes_to_the_next_batch() {
    // Batch 0: e1 (post 1), e2 (post 2) → e2.
    // e3 (post 2) arrives; batch 1 logs offsets covering e3 and dies before running.
    // e4 (post 3) arrives while the query is down. The restart re-runs batch 1 with the
    // logged range (only e3: 1 input row), and e4 goes to batch 2 (spec §1.3).
    for kind in RESUMABLE {
        check(
            FILTER,
            OutputMode::Append,
            kind,
            vec![
                AddData("clicks", vec![click("e1", 1, 0), click("e2", 2, 1)]),
                RunBatch(Some((0, 2))),
                AddData("clicks", vec![click("e3", 2, 2)]),
                CrashNext(CrashPoint::AfterOffsetLog),
                AddData("clicks", vec![click("e4", 3, 3)]),
                CheckAnswer(vec![click("e2", 2, 1)]),
                StartStream(Start::same()),
                RunBatch(Some((1, 1))),
                CheckAnswerByBatch(vec![(0, click("e2", 2, 1)), (1, click("e3", 2, 2))]),
                RunBatch(Some((2, 1))),
                RunBatch(None),
                // Nothing was written by the crashed attempt, so no sink has duplicates.
                CheckAnswerByBatch(vec![
                    (0, click("e2", 2, 1)),
                    (1, click("e3", 2, 2)),
                    (2, click("e4", 3, 3)),
                ]),
                CheckDuplicates(0),
                CheckCommits(vec![0, 1, 2]),
                CheckRuns(2),
            ],
        );
    }
}

/// The classic windowed count (10 min windows, 10 min delay, append):
/// - batch 0: c1 (post 1, 00:01), c2 (post 1, 00:05); runs with wm 0, emits nothing;
///   max 00:05 − 10 min < 0, so the watermark stays 0.
/// - batch 1: c3 (post 2, 00:25); runs with wm 0, emits nothing; wm → 00:15.
/// - batch 2: no-data batch (wm moved past the end of [00:00, 00:10)): emits
///   ([00:00, 00:10), post 1, 2). It crashes before its commit entry.
/// - restart: batch 2 re-runs with its logged wm 00:15 and the state of version 2, and
///   emits the same row again to the sink.
/// - then c4 (post 2, 00:40): batch 3 (wm 00:15) emits nothing, wm → 00:30; no-data
///   batch 4 emits ([00:20, 00:30), post 2, 1).
fn windowed_before_commit_script(expect_sink: Vec<(u64, Row)>, dups: usize) -> Vec<Action<'static>> {
    vec![
        AddData("clicks", vec![click("c1", 1, 1), click("c2", 1, 5)]),
        ProcessAllAvailable,
        CheckCommits(vec![0]),
        AddData("clicks", vec![click("c3", 2, 25)]),
        RunBatch(Some((1, 1))),
        CheckAnswer(vec![]),
        CrashNext(CrashPoint::BeforeCommit),
        CheckCommits(vec![0, 1]),
        StartStream(Start::same()),
        RunBatch(Some((2, 0))),
        RunBatch(None),
        AddData("clicks", vec![click("c4", 2, 40)]),
        ProcessAllAvailable,
        CheckCommits(vec![0, 1, 2, 3, 4]),
        CheckAnswerByBatch(expect_sink),
        CheckDuplicates(dups),
        CheckRuns(2),
    ]
}

#[test]
fn windowed_append_crash_before_commit_emits_the_window_once_or_twice() {
    // Note: real Spark refuses to restart a memory sink in Append mode on a checkpoint
    // that has offsets (spec §8.5, §10.1); the engine lets the sink survive the restart.
    let once = vec![(2, wcount(0, 10, 1, 2)), (4, wcount(20, 30, 2, 1))];
    let twice = vec![
        (2, wcount(0, 10, 1, 2)),
        (2, wcount(0, 10, 1, 2)),
        (4, wcount(20, 30, 2, 1)),
    ];
    // File skips batch 2 (entry 2 in `_spark_metadata`); the idempotent writer skips a
    // finished batch id. (The memory sink cannot resume in append mode at all, see below.)
    for kind in [
        SinkKind::File,
        SinkKind::ForeachBatchIdempotent,
    ] {
        check(
            WINDOWED,
            OutputMode::Append,
            kind,
            windowed_before_commit_script(once.clone(), 0),
        );
    }
    // Console prints batch 2 again, Kafka re-sends it, naive foreachBatch appends again.
    for kind in [
        SinkKind::Console,
        SinkKind::Kafka,
        SinkKind::ForeachBatchNaive,
    ] {
        check(
            WINDOWED,
            OutputMode::Append,
            kind,
            windowed_before_commit_script(twice.clone(), 1),
        );
    }
}

#[test]
fn stop_and_start_keeps_the_query_id_and_makes_a_new_run_id() {
    // A clean stop/start (no crash) resumes at the next batch id, loses nothing, and
    // duplicates nothing even in at-least-once sinks; data added while stopped goes to
    // the first batch of the new run.
    for kind in RESUMABLE {
        check(
            FILTER,
            OutputMode::Append,
            kind,
            vec![
                AddData("clicks", vec![click("e1", 2, 0)]),
                ProcessAllAvailable,
                CheckRuns(1),
                StopStream,
                AddData("clicks", vec![click("e2", 3, 1), click("e3", 1, 2)]),
                StartStream(Start::same()),
                CheckRuns(2),
                RunBatch(Some((1, 2))),
                StopStream,
                StartStream(Start::same()),
                RunBatch(None),
                CheckRuns(3),
                CheckAnswerByBatch(vec![(0, click("e1", 2, 0)), (1, click("e2", 3, 1))]),
                CheckCommits(vec![0, 1]),
            ],
        );
    }
}

#[test]
fn crash_run_ids_differ_and_query_id_is_kept() {
    // Two crashes in a row on the same batch: three runs, one query id; batch 0 runs
    // three times (after-offset-log writes nothing; before-commit writes e1 to the sink).
    check(
        FILTER,
        OutputMode::Append,
        SinkKind::Kafka,
        vec![
            AddData("clicks", vec![click("e1", 2, 0)]),
            CrashNext(CrashPoint::AfterOffsetLog),
            StartStream(Start::same()),
            CrashNext(CrashPoint::BeforeCommit),
            CheckAnswer(vec![click("e1", 2, 0)]),
            CheckCommits(vec![]),
            StartStream(Start::same()),
            RunBatch(Some((0, 1))),
            CheckRuns(3),
            CheckAnswer(vec![click("e1", 2, 0), click("e1", 2, 0)]),
            CheckCommits(vec![0]),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Property: a crash anywhere, then a restart, loses nothing; exactly-once sinks match a
// run without a crash, at-least-once sinks only repeat rows of the crashed batch.
// ---------------------------------------------------------------------------------------

fn fresh(query: &str, kind: SinkKind) -> Stream {
    test_stream(query, OutputMode::Append, catalog()).sink(kind).start().expect("starts")
}

/// What a run without a crash leaves: visible sink rows, rows per batch id, commit ids.
type CleanRun = (Vec<(u64, Row)>, Vec<Vec<Row>>, Vec<u64>);

/// Runs the steps without a crash.
fn run_clean(query: &str, kind: SinkKind, steps: &[Vec<Row>]) -> CleanRun {
    let mut q = fresh(query, kind);
    let mut per_batch = Vec::new();
    for step in steps {
        q.add_data("clicks", step).expect("rows fit");
        for b in q.process_all_available() {
            assert_eq!(b.batch_id as usize, per_batch.len());
            per_batch.push(b.rows.clone());
        }
    }
    (q.visible(), per_batch, q.commits())
}

/// Runs the steps, crashing batch `crash_batch` at `point`, restarting right away and
/// continuing: (visible sink rows, commit ids, whether the crash happened).
fn run_crashing(
    query: &str,
    kind: SinkKind,
    steps: &[Vec<Row>],
    crash_batch: u64,
    point: CrashPoint,
) -> (Vec<(u64, Row)>, Vec<u64>, bool) {
    let mut q = fresh(query, kind);
    let first_id = q.query().id.clone();
    let mut ran = 0u64;
    let mut crashed = false;
    for step in steps {
        q.add_data("clicks", step).expect("rows fit");
        loop {
            if !crashed && ran == crash_batch {
                let r = q.run_batch_crashing(point);
                assert!(r.is_none(), "a crashing batch returns nothing");
                if q.exception().is_none() {
                    break; // idle trigger: the batch comes with a later step
                }
                crashed = true;
                q.stop();
                q.start_again(Start::same()).expect("restarts");
                assert_eq!(q.query().id, first_id);
                continue;
            }
            match q.run_batch() {
                Some(b) => {
                    assert_eq!(b.batch_id, ran, "batch ids continue across the restart");
                    ran += 1;
                }
                None => break,
            }
        }
        assert!(q.exception().is_none(), "{:?}", q.exception());
    }
    (q.visible(), q.commits(), crashed)
}

/// Removes `sub` from `all` as a multiset; `None` if some element of `sub` is missing.
fn multiset_minus<T: PartialEq + Clone>(all: &[T], sub: &[T]) -> Option<Vec<T>> {
    let mut rest = all.to_vec();
    for x in sub {
        let i = rest.iter().position(|y| y == x)?;
        rest.remove(i);
    }
    Some(rest)
}

fn events() -> impl Strategy<Value = Vec<Row>> {
    // post 1..=4, event time within two hours (second granularity), ids e0, e1, ... unique.
    prop::collection::vec((1i64..5, 0i64..7200), 1..16).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (post, sec))| {
                vec![
                    Value::str(&format!("e{i}")),
                    Value::Long(post),
                    Value::Timestamp(sec * 1_000_000),
                ]
            })
            .collect()
    })
}

fn split(rows: &[Row], cuts: &[usize]) -> Vec<Vec<Row>> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (rows.len() + 1)).collect();
    cuts.sort_unstable();
    let mut steps = Vec::new();
    let mut from = 0;
    for c in cuts.into_iter().chain([rows.len()]) {
        steps.push(rows[from..c].to_vec());
        from = c;
    }
    steps
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_crash_and_restart_loses_nothing_and_duplicates_only_the_crashed_batch(
        rows in events(),
        cuts in prop::collection::vec(0usize..64, 0..5),
        crash_pick in 0u64..1000,
        point_pick in 0usize..3,
    ) {
        let steps = split(&rows, &cuts);
        let point = CrashPoint::ALL[point_pick];
        for query in [FILTER, WINDOWED] {
            for kind in RESUMABLE {
                let (clean, per_batch, clean_commits) = run_clean(query, kind, &steps);
                prop_assert!(!per_batch.is_empty());
                let crash_batch = crash_pick % per_batch.len() as u64;
                let (got, commits, crashed) = run_crashing(query, kind, &steps, crash_batch, point);
                let ctx = format!("{query} / {kind:?} / crash {} in batch {crash_batch}", point.id());
                prop_assert!(crashed, "{}: the crash never happened", ctx);
                prop_assert_eq!(&commits, &clean_commits, "{}: commit log", ctx);
                if kind.exactly_once() {
                    prop_assert_eq!(&got, &clean, "{}: exactly-once sink differs from the run without a crash", ctx);
                } else {
                    let extra = multiset_minus(&got, &clean);
                    prop_assert!(extra.is_some(), "{}: rows lost: clean {:?}, got {:?}", ctx, clean, got);
                    let extra = extra.unwrap_or_default();
                    // The crashed attempt wrote nothing (after the offset log), half the
                    // batch (mid-sink) or all of it (before the commit).
                    let batch_rows = &per_batch[crash_batch as usize];
                    let written = match point {
                        CrashPoint::AfterOffsetLog => 0,
                        CrashPoint::MidSink => batch_rows.len() / 2,
                        CrashPoint::BeforeCommit => batch_rows.len(),
                    };
                    prop_assert_eq!(extra.len(), written, "{}: extra rows {:?}", ctx, extra);
                    let crashed_rows: Vec<(u64, Row)> = batch_rows.iter().map(|r| (crash_batch, r.clone())).collect();
                    prop_assert!(
                        multiset_minus(&crashed_rows, &extra).is_some(),
                        "{}: extras {:?} are not rows of the crashed batch {:?}", ctx, extra, crashed_rows
                    );
                }
            }
        }
    }
}

#[test]
fn the_memory_sink_cannot_resume_in_append_mode() {
    // DataStreamWriter: recoverFromCheckpointLocation = (outputMode == Complete) for memory.
    test_stream("clicks.filter(F.col('post_id') >= 2)", OutputMode::Append, catalog()).run(vec![
        AddData("clicks", vec![click("e1", 2, 0)]),
        RunBatch(Some((0, 1))),
        StopStream,
        assert_on("the default sink is memory", |t| assert_eq!(t.sink().kind(), SinkKind::Memory)),
        StartStream(Start::same()),
        ExpectFailure(Fail::any().text_starts_with("This query does not support recovering from checkpoint location.")),
    ]);
}
