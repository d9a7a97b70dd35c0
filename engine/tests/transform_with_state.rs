//! `transformWithStateInPandas` from the lab's side, where the recorded corpus cannot go:
//! processing-time timers against the query's clock (Spark runs a batch on every trigger in
//! `ProcessingTime` mode, so its recordings have no fixed batch count), state and timers
//! across a restart on the checkpoint, and Python errors in a processor's method naming the
//! line. The queries run as `testStream` scripts (`support`).
#![allow(clippy::disallowed_methods)]

mod support;

use streamlab_engine::frontend::Catalog;
use streamlab_engine::plan::OutputMode;
use streamlab_engine::streaming::{SinkKind, StreamingConf};
use streamlab_engine::types::{timestamp_type, DataType, Value};
use support::*;

fn catalog() -> Catalog {
    streams(&[("clicks", &[("user_id", DataType::Utf8), ("event_time", timestamp_type())])])
}

fn ts(hm: &str) -> Value {
    ts_at(&format!("2026-01-01T{hm}:00Z"))
}

/// `transformWithState` needs the RocksDB provider, as in the recorded scenarios.
fn rocksdb() -> StreamingConf {
    StreamingConf { rocksdb_state_store: true, ..StreamingConf::default() }
}

fn check(text: &str, actions: Vec<Action<'_>>) {
    test_stream(text, OutputMode::Update, catalog()).conf(rocksdb()).run(actions);
}

/// A device alarm: each event (re)arms a processing-time timer one minute ahead; the timer
/// emits the key and the time it fired at, and clears the count.
const ALARM: &str = "import pandas as pd\nfrom pyspark.sql.streaming import StatefulProcessor\n\nclass Alarm(StatefulProcessor):\n    def init(self, handle):\n        self.handle = handle\n        self.n = handle.getValueState('n', 'n LONG')\n\n    def handleInputRows(self, key, rows, timerValues):\n        n = self.n.get()[0] if self.n.exists() else 0\n        for pdf in rows:\n            n += len(pdf)\n        self.n.update((n,))\n        for t in self.handle.listTimers():\n            self.handle.deleteTimer(t)\n        self.handle.registerTimer(timerValues.getCurrentProcessingTimeInMs() + 60000)\n        return iter([])\n\n    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):\n        n = self.n.get()[0]\n        self.n.clear()\n        yield pd.DataFrame({'user_id': [key[0]], 'n': [n], 'at': [timerValues.getCurrentProcessingTimeInMs()]})\n\n    def close(self):\n        pass\n\nclicks.groupBy('user_id').transformWithStateInPandas(Alarm(), 'user_id STRING, n LONG, at LONG', 'update', 'ProcessingTime')\n";

#[test]
fn a_processing_time_timer_fires_when_the_clock_reaches_it() {
    check(ALARM, vec![
        assert_on("the lab shows the clock", |t| assert!(t.query().uses_processing_time_timeout())),
        SetClock(1_000),
        AddData("clicks", vec![row!["u1", ts("12:00")], row!["u1", ts("12:01")]]),
        RunBatch(Some((0, 2))),
        CheckLastBatch(vec![]),
        // One value row; the timer (1 000 + 60 000) is not a counted row.
        CheckState(state(0).total(1).updated(1)),
        // Timers fire at or before the batch timestamp: not at 60 999, at 61 000.
        SetClock(60_999),
        Fire(vec![]),
        SetClock(61_000),
        Fire(vec![(1, 0)]),
        assert_on("a no-data batch", |t| assert!(t.last_batch().no_data)),
        CheckLastBatchInOrder(vec![row!["u1", 2, 61_000]]),
        CheckState(state(0).total(0).removed(1)),
        // The fired timer is gone: nothing more to fire.
        SetClock(200_000),
        Fire(vec![]),
    ]);
}

#[test]
fn state_and_timers_survive_a_restart_on_the_checkpoint() {
    // A foreachBatch sink: the memory sink refuses to resume in update mode.
    test_stream(ALARM, OutputMode::Update, catalog()).conf(rocksdb()).sink(SinkKind::ForeachBatchIdempotent).run(vec![
        SetClock(1_000),
        AddData("clicks", vec![row!["u1", ts("12:00")]]),
        RunBatch(Some((0, 1))),
        StopStream,
        StartStream(Start::same()),
        // The count (1) and the timer (61 000) come back from the checkpoint: a new event
        // makes 2 and re-arms the timer at 10 000 + 60 000.
        SetClock(10_000),
        AddData("clicks", vec![row!["u1", ts("12:05")]]),
        RunBatch(Some((1, 1))),
        SetClock(61_000),
        Fire(vec![]),
        SetClock(70_000),
        Fire(vec![(2, 0)]),
        CheckLastBatchInOrder(vec![row!["u1", 2, 70_000]]),
    ]);
}

#[test]
fn a_python_error_in_a_method_names_the_line_and_the_class() {
    // Line 13 of the editor text (`self.n.update(...)`) reads a name that does not exist.
    let text = ALARM.replace("        self.n.update((n,))", "        self.n.update((total,))");
    check(&text, vec![
        AddData("clicks", vec![row!["u1", ts("12:00")]]),
        RunBatch(None),
        ExpectFailure(Fail::class("STREAM_FAILED").message_contains("line 13 of the Python code, in Alarm").message_contains("NameError: name 'total' is not defined")),
    ]);
}

#[test]
fn an_endless_loop_in_handle_input_rows_stops_at_its_line() {
    // Line 17 is the `while True:` the budget runs out in.
    let text = ALARM.replace("        return iter([])", "        while True:\n            n += 1");
    check(&text, vec![
        AddData("clicks", vec![row!["u1", ts("12:00")]]),
        RunBatch(None),
        ExpectFailure(Fail::class("STREAM_FAILED").message_contains("line 17 of the Python code, in Alarm").message_contains("steps")),
    ]);
}

#[test]
fn delete_if_exists_drops_a_variable_for_every_key() {
    // `init` deletes 'old' (every batch: each starts from the instance the query built, with
    // wipe = True) before declaring it again: the list batch 0 wrote for u1 and u2 is gone in
    // batch 1 for both keys, though only u1 has data.
    let text = "import pandas as pd\nfrom pyspark.sql.streaming import StatefulProcessor\n\nclass P(StatefulProcessor):\n    def __init__(self, wipe):\n        self.wipe = wipe\n\n    def init(self, handle):\n        if self.wipe:\n            handle.deleteIfExists('old')\n        self.old = handle.getListState('old', 'a STRING')\n\n    def handleInputRows(self, key, rows, timerValues):\n        before = len(self.old.get())\n        self.old.appendValue(('x',))\n        yield pd.DataFrame({'user_id': [key[0]], 'before': [before]})\n\nclicks.groupBy('user_id').transformWithStateInPandas(P(True), 'user_id STRING, before LONG', 'update', 'None')\n";
    check(text, vec![
        AddData("clicks", vec![row!["u1", ts("12:00")], row!["u2", ts("12:00")]]),
        RunBatch(Some((0, 2))),
        CheckLastBatch(vec![row!["u1", 0], row!["u2", 0]]),
        CheckState(state(0).total(2)),
        AddData("clicks", vec![row!["u1", ts("12:01")]]),
        RunBatch(Some((1, 1))),
        CheckLastBatch(vec![row!["u1", 0]]),
        CheckState(state(0).total(1)),
    ]);
}
