//! Every label of the page in English and Korean. Spark's own terms (output mode names,
//! API names, error conditions) stay in English in both, as learners meet them in Spark.

use crate::quiz::Lang;

/// (key, English, Korean).
const LABELS: &[(&str, &str, &str)] = &[
    ("app.subtitle", "Spark Structured Streaming, micro-batch by micro-batch", "Spark 구조적 스트리밍을 마이크로 배치 단위로"),
    ("lang.switch", "한국어", "English"),
    ("preset", "Example", "예제"),
    ("query", "Query (PySpark)", "쿼리 (PySpark)"),
    ("query.help", "Each source is a streaming DataFrame; F is pyspark.sql.functions. Edits re-run every batch at once.", "각 소스는 스트리밍 DataFrame이고 F는 pyspark.sql.functions입니다. 고치면 모든 배치가 바로 다시 실행됩니다."),
    ("mode", "Output mode", "출력 모드"),
    ("mode.append", "append: only rows that can no longer change", "append: 더 이상 바뀌지 않는 행만"),
    ("mode.update", "update: rows that changed in this batch", "update: 이번 배치에서 바뀐 행"),
    ("mode.complete", "complete: the whole result table every batch", "complete: 매 배치마다 결과 테이블 전체"),
    ("error.at", "at line {line}, column {col}", "{line}행 {col}열"),
    ("error.hint", "What to do", "해결 방법"),
    ("storage.set_aside", "Your saved session was set aside and the lab started fresh", "저장된 세션을 따로 보관하고 실습을 새로 시작했습니다"),
    ("storage.retry", "Try the saved session again", "저장된 세션 다시 열기"),
    ("storage.discard", "Discard it", "버리기"),
    ("input", "Input", "입력"),
    ("push", "Add event", "이벤트 추가"),
    ("push.help", "Times: 12:07, 12:07:30, 2026-01-01T12:07:00Z (UTC) or epoch seconds. Empty = NULL; a value Spark's JSON reader cannot read (\"seven\" in a long column) is NULL too.", "시간: 12:07, 12:07:30, 2026-01-01T12:07:00Z (UTC) 또는 epoch 초. 비우면 NULL이며, Spark의 JSON 리더가 읽지 못하는 값(long 열의 \"seven\")도 NULL이 됩니다."),
    ("pending", "Pending input (not yet read by a batch)", "대기 중인 입력 (아직 배치가 읽지 않음)"),
    ("pending.none", "No pending rows.", "대기 중인 행이 없습니다."),
    ("controls", "Run", "실행"),
    ("run.step", "Next step ▶", "다음 단계 ▶"),
    ("run.step.help", "adds the example's next events and runs every micro-batch Spark would run", "예제의 다음 이벤트를 넣고 Spark가 실행할 마이크로 배치를 모두 실행"),
    ("trigger", "Trigger one batch", "배치 하나 실행"),
    ("push.step", "Add next step's events", "다음 단계 이벤트 넣기"),
    ("push.step.help", "adds the example's next events as pending input, without running a batch", "배치를 실행하지 않고 예제의 다음 이벤트를 대기 입력으로 넣기"),
    ("play", "Play", "자동 실행"),
    ("pause", "Pause", "일시 정지"),
    ("reset", "Reset", "처음부터"),
    ("steps", "Steps", "단계"),
    ("nodata.due", "A no-data batch is due: the watermark moved and state may be evicted.", "데이터 없는 배치가 대기 중입니다: 워터마크가 움직여 상태가 정리될 수 있습니다."),
    ("watermark", "Watermark", "워터마크"),
    ("watermark.none", "none (no withWatermark)", "없음 (withWatermark 없음)"),
    ("watermark.help", "max event time seen − delay; used from the next batch; never goes back", "지금까지 본 최대 이벤트 시간 − 지연; 다음 배치부터 적용; 절대 뒤로 가지 않음"),
    ("delay", "Delay", "지연"),
    ("delay.apply", "Re-run with this delay", "이 지연으로 다시 실행"),
    ("advance", "Advance with an event at", "이 시간의 이벤트로 전진"),
    ("advance.go", "Push & run", "추가 후 실행"),
    ("batches", "Micro-batches", "마이크로 배치"),
    ("batches.none", "No batch has run yet. Press “Next step ▶” or add an event and trigger.", "아직 실행된 배치가 없습니다. “다음 단계 ▶”를 누르거나 이벤트를 추가하고 실행하세요."),
    ("batch.id", "Batch", "배치"),
    ("batch.step", "Step", "단계"),
    ("batch.input", "Input rows", "입력 행"),
    ("batch.wm", "Watermark used", "사용한 워터마크"),
    ("batch.out", "Emitted", "출력"),
    ("batch.dropped", "Late rows dropped", "늦어서 버린 행"),
    ("batch.nodata", "no-data batch", "데이터 없는 배치"),
    ("sink", "Sink: rows emitted, batch by batch", "싱크: 배치별로 내보낸 행"),
    ("sink.none", "Nothing emitted yet.", "아직 내보낸 행이 없습니다."),
    ("state", "State store", "상태 저장소"),
    ("state.none", "This query keeps no state (stateless).", "이 쿼리는 상태를 저장하지 않습니다 (stateless)."),
    ("state.empty", "empty", "비어 있음"),
    ("status", "Status", "상태"),
    ("status.open", "open", "열림"),
    ("status.closing", "closes in the next batch", "다음 배치에서 닫힘"),
    ("status.kept", "kept (complete mode)", "유지 (complete 모드)"),
    ("status.evicted", "removed by the last batch (evicted or merged)", "직전 배치에서 제거됨 (만료 또는 병합)"),
    ("status.nowm", "kept forever (no event-time key)", "영원히 유지 (이벤트 시간 키 없음)"),
    ("metrics", "State metrics of the last batch", "직전 배치의 상태 지표"),
    ("progress", "Last StreamingQueryProgress (JSON)", "마지막 StreamingQueryProgress (JSON)"),
    ("plan", "Analyzed plan", "분석된 플랜"),
    ("scenario", "Scenario file", "시나리오 파일"),
    ("scenario.help", "Paste a scenario in the conformance format and open it, save this session as a scenario, or export it as a PySpark script that runs it on real Spark.", "conformance 형식의 시나리오를 붙여 넣어 열거나, 이 세션을 시나리오로 저장하거나, 실제 Spark에서 실행하는 PySpark 스크립트로 내보내세요."),
    ("scenario.open", "Open", "열기"),
    ("scenario.save", "Save as JSON", "JSON으로 저장"),
    ("import", "Spark's progress reports", "Spark 진행 보고서"),
    ("import.help", "Paste what print(query.lastProgress) or print(query.recentProgress) showed on real Spark, and read it the way the lab shows its own batches.", "실제 Spark에서 print(query.lastProgress)나 print(query.recentProgress)가 보여 준 내용을 붙여 넣으면, 랩이 자기 배치를 보여 주는 방식으로 펼쳐 보여 줍니다."),
    ("import.show", "Show", "보기"),
    ("import.day", "Trigger times are UTC on", "트리거 시각 (UTC) 날짜:"),
    ("import.idle", "no batch ran", "실행된 배치 없음"),
    ("scenario.export", "Export to PySpark", "PySpark 스크립트로 내보내기"),
    ("scenario.export.help", "Downloads a Python script that runs this session on real Spark 4.3 (python script.py) and prints every micro-batch as the lab shows it.", "이 세션을 실제 Spark 4.3에서 실행하는 파이썬 스크립트를 내려받습니다 (python script.py). 마이크로 배치마다 랩과 같은 형태로 출력합니다."),
    ("static", "Static tables", "정적 테이블"),
    ("quiz", "Quiz", "퀴즈"),
    ("quiz.check", "Check", "정답 확인"),
    ("quiz.try", "Try it in the lab", "실습에서 해 보기"),
    ("quiz.correct", "Correct!", "정답입니다!"),
    ("quiz.wrong", "Not quite.", "아쉽네요."),
    ("quiz.next", "Next question", "다음 문제"),
    ("quiz.prev", "Previous", "이전"),
    ("quiz.of", "of", "/"),
    ("output.schema", "Output columns", "출력 컬럼"),
    ("late.wm", "Late rows in this batch were judged against the previous batch's watermark, wm(N-1) =", "이 배치의 늦은 행은 이전 배치의 워터마크 wm(N-1) 기준으로 판단했습니다:"),
    ("recovery", "Checkpoint, sink and crashes", "체크포인트, 싱크, 장애"),
    ("recovery.help", "End-to-end exactly-once needs three things: a replayable source, offsets in the checkpoint (written before a batch runs), and an idempotent sink. Crash a batch, restart on the same checkpoint, and compare the sinks.", "종단 간 exactly-once에는 세 가지가 필요합니다: 다시 읽을 수 있는 소스, 배치 실행 전에 체크포인트에 기록되는 오프셋, 그리고 멱등적인 싱크. 배치를 중간에 죽이고 같은 체크포인트로 재시작한 뒤 싱크를 비교해 보세요."),
    ("sink.kind", "Sink", "싱크"),
    ("guarantee.exactly", "exactly-once: a re-run batch is not written twice", "exactly-once: 다시 실행된 배치가 두 번 기록되지 않음"),
    ("guarantee.atleast", "at-least-once: a re-run batch is written again", "at-least-once: 다시 실행된 배치가 또 기록됨"),
    ("crash.point", "Crash point", "장애 지점"),
    ("crash.after-offset-log", "after the offset log, before running", "오프셋 로그 기록 후, 실행 전"),
    ("crash.mid-sink", "in the middle of the sink write", "싱크에 쓰는 도중"),
    ("crash.before-commit", "after the sink, before the commit log", "싱크 기록 후, 커밋 로그 전"),
    ("crash.go", "Crash the next batch", "다음 배치를 장애로 중단"),
    ("restart", "Restart on the same checkpoint", "같은 체크포인트로 재시작"),
    ("runs", "runs:", "실행 횟수:"),
    ("sink.contents", "What the sink holds", "싱크에 저장된 내용"),
    ("sink.dups", "rows a reader sees twice", "독자가 두 번 보는 행"),
    ("sink.orphan", "part file not in _spark_metadata: readers ignore it", "_spark_metadata에 없는 파일: 읽을 때 무시됨"),
    ("sink.duplicate", "duplicate from the re-run", "재실행으로 생긴 중복"),
    ("attempt", "Attempt", "시도"),
    ("row", "Row", "행"),
    ("trigger.kind", "Trigger", "트리거"),
    ("trigger.help", "“Trigger one batch” fires this trigger: default/processingTime run one batch; once runs one batch with all data and stops (no trailing no-data batch); availableNow runs every batch, no-data ones too, then stops; continuous allows only select/filter queries.", "“배치 하나 실행”은 이 트리거를 한 번 실행합니다: default/processingTime은 배치 하나, once는 모든 데이터로 배치 하나를 실행하고 멈춤(뒤따르는 데이터 없는 배치 없음), availableNow는 데이터 없는 배치까지 모두 실행하고 멈춤, continuous는 select/filter 쿼리만 허용."),
    ("listener", "StreamingQueryListener events", "StreamingQueryListener 이벤트"),
    ("checkpoint.set", "checkpointLocation is set (option or spark.sql.streaming.checkpointLocation)", "checkpointLocation 지정됨 (option 또는 spark.sql.streaming.checkpointLocation)"),
    ("checkpoint.temp", "No checkpoint location: this sink runs on a temporary checkpoint, which the next start does not reuse — a restart begins again at batch 0.", "체크포인트 위치 없음: 이 싱크는 임시 체크포인트로 실행되며 다음 시작 때 재사용되지 않습니다 — 재시작하면 배치 0부터 다시 시작합니다."),
    ("memory.table", "The memory sink's rows are a temporary view named after the query:", "memory 싱크의 행은 쿼리 이름의 임시 뷰입니다:"),
    ("sink.log", "What the sink printed or was called with", "싱크가 출력하거나 호출된 내용"),
    ("realtime", "Real-time mode (trigger(realTime='5 minutes'), Spark 4.1+) is not simulated: each batch is a long-running job that processes records continuously for the duration, in update mode only, with millisecond latency; offsets are written at the end of the batch.", "실시간 모드(trigger(realTime='5 minutes'), Spark 4.1+)는 시뮬레이션하지 않습니다: 각 배치가 지정한 시간 동안 레코드를 계속 처리하는 장기 실행 작업이며, update 모드만 가능하고 지연은 밀리초 단위이며, 오프셋은 배치 끝에 기록됩니다."),
    ("nextrun", "Restart with a changed query", "쿼리를 바꿔서 재시작"),
    ("nextrun.help", "Spark allows filters, projections and a new watermark delay between runs; other grouping keys or added/removed stateful operators do not fit the saved state.", "Spark는 실행 사이에 필터, 프로젝션, 워터마크 지연 변경을 허용합니다. 그룹 키를 바꾸거나 상태 연산자를 추가/제거하면 저장된 상태와 맞지 않습니다."),
    ("nextrun.go", "Restart with this query", "이 쿼리로 재시작"),
    ("source.kind", "Source kind", "소스 종류"),
    ("src.memory", "memory (replayable)", "memory (다시 읽을 수 있는 소스)"),
    ("src.file", "file, maxFilesPerTrigger=1", "file, maxFilesPerTrigger=1"),
    ("src.socket", "socket (not replayable)", "socket (다시 읽을 수 없는 소스)"),
    ("src.kafka", "kafka (key/value bytes, partitions, offsets)", "kafka (key/value 바이트, 파티션, 오프셋)"),
    ("src.rate", "rate (rowsPerSecond from the clock)", "rate (시계 기준 초당 행 수)"),
    ("trig.default", "default (back to back)", "기본 (연달아 실행)"),
    ("times.day", "Times are UTC on", "시간은 UTC 기준, 날짜:"),
    ("share.err.notalink", "This link does not open a lab (it has no lab= part).", "이 링크는 실습을 여는 링크가 아닙니다 (lab= 부분이 없음)."),
    ("share.err.version", "This link was made by another version of Streamlab (link version {v}); this one reads version 1.", "이 링크는 다른 버전의 Streamlab에서 만들어졌습니다 (링크 버전 {v}). 이 버전은 버전 1만 읽습니다."),
    ("share.err.toolong", "This link is {n} characters long; at most {max} fit. Save the session as a JSON file instead.", "이 링크는 {n}자로, 최대 {max}자를 넘습니다. 대신 세션을 JSON 파일로 저장하세요."),
    ("share.err.damaged", "This link is damaged or cut short: copy the whole link again.", "링크가 손상되었거나 잘렸습니다. 링크 전체를 다시 복사하세요."),
    ("share.err.toolarge", "This link unpacks to more than {max} KB, more than a lab session can be.", "이 링크를 풀면 {max} KB를 넘어 실습 세션이 될 수 없습니다."),
    ("share.err.session", "This link does not hold a lab session this version can open.", "이 링크에는 이 버전이 열 수 있는 실습 세션이 없습니다."),
];

/// Every label: (key, English, Korean).
pub fn labels() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    LABELS.iter().copied()
}

/// The label `key` in `lang`; the key itself if missing (so a gap shows, never panics).
pub fn tr(lang: Lang, key: &str) -> &'static str {
    LABELS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, en, ko)| if lang == Lang::Ko { *ko } else { *en })
        .unwrap_or("⟨missing label⟩")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_has_both_languages_and_unique_keys() {
        let mut keys = std::collections::BTreeSet::new();
        for (k, en, ko) in LABELS {
            assert!(keys.insert(*k), "duplicate key {k}");
            assert!(!en.is_empty() && !ko.is_empty(), "{k}");
        }
        assert_eq!(tr(Lang::Ko, "state"), "상태 저장소");
        assert_eq!(tr(Lang::En, "no-such-key"), "⟨missing label⟩");
    }
}
