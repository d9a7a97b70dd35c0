//! Every label of the page in English and Korean. Spark's own terms (output mode names,
//! API names, error conditions) stay in English in both, as learners meet them in Spark.

use crate::text::Lang;

/// (key, English, Korean).
const LABELS: &[(&str, &str, &str)] = &[
    ("app.subtitle", "Spark Structured Streaming, micro-batch by micro-batch", "Spark Structured Streaming을 마이크로 배치 단위로"),
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
    ("steps", "Example steps", "예제 단계"),
    ("run.stopped", "The query is stopped: Next step only adds its events to the source, and no batch runs until you restart the query on the same checkpoint (panel “Checkpoint, sink and crashes”).", "쿼리가 멈춰 있습니다: 다음 단계는 이벤트를 소스에 더하기만 하고, 같은 체크포인트로 쿼리를 재시작하기 전까지 배치는 실행되지 않습니다(‘체크포인트, 싱크, 장애’ 패널)."),
    ("nodata.due", "A no-data batch is due: the watermark moved and state may be evicted.", "데이터 없는 배치가 대기 중입니다: 워터마크가 움직여 상태가 정리될 수 있습니다."),
    ("watermark", "Watermark", "워터마크"),
    ("watermark.none", "none (no withWatermark)", "없음 (withWatermark 없음)"),
    ("watermark.help", "max event time seen − delay; used from the next batch; never goes back", "지금까지 본 최대 이벤트 시간 − 지연; 다음 배치부터 적용; 절대 뒤로 가지 않음"),
    ("delay", "Delay", "지연"),
    ("delay.apply", "Re-run with this delay", "이 지연으로 다시 실행"),
    ("delay.text", "Watermark delay, as withWatermark's text", "워터마크 지연 (withWatermark에 쓰는 텍스트)"),
    ("delay.refused", "Not applied (the query keeps its last delay):", "적용하지 않았습니다 (쿼리는 이전 허용 지연을 유지합니다):"),
    ("scrub.label", "Show the lab as of batch", "이 배치 시점의 실습 보기"),
    ("scrub.as_of", "As of batch {n} (last: {last})", "배치 {n} 시점 (마지막: {last})"),
    ("scrub.live", "Live", "최신"),
    ("scrub.help", "Drag, or press ← / →: the state store, the sink, the metrics and the watermark show that batch.", "끌거나 ← / →를 누르세요: 상태 저장소, 싱크, 지표, 워터마크가 그 배치 시점을 보여 줍니다."),
    ("sink.current", "Emitted by batch {n}: {k}", "배치 {n}이(가) 내보낸 행: {k}개"),
    ("table.shown", "Showing {shown} of {total} rows", "{total}개 행 중 {shown}개 표시"),
    ("table.more", "Show more", "더 보기"),
    ("compare.modes", "Compare output modes", "출력 모드 비교"),
    ("compare.current", "current", "현재"),
    ("advance", "Advance with an event at", "이 시간의 이벤트로 전진"),
    ("advance.go", "Push & run", "추가 후 실행"),
    ("picture", "Time picture: event time × micro-batches", "시간 그림: 이벤트 시간 × 마이크로 배치"),
    ("picture.help", "Each row sits at its event time, in the band of the batch that read it (batch 0 at the bottom). Hover or focus a mark for its fate and the rule; click a late mark to see the watermark step that made it late; click the time axis to add an event at that time (whole seconds, a new event id); drag a mark, or focus it and press Alt or Shift + ← / →, to change its event time.", "각 행은 이벤트 시간 위치에, 그 행을 읽은 배치의 띠에 놓입니다 (배치 0이 맨 아래). 표시에 마우스를 올리거나 포커스하면 행의 결과와 규칙이 보이고, 늦은 행을 누르면 그 행을 늦게 만든 워터마크 단계가 강조됩니다. 시간 축을 누르면 그 시간의 이벤트가 추가되고 (초 단위, 새 이벤트 id), 표시를 끌거나 포커스한 뒤 Alt 또는 Shift + ← / →를 누르면 이벤트 시간이 바뀝니다."),
    ("fate.kept", "kept", "유지"),
    ("fate.late", "late (dropped)", "늦은 데이터 (버림)"),
    ("fate.filtered", "filtered", "걸러짐"),
    ("fate.deduplicated", "duplicate (dropped)", "중복 제거됨"),
    ("fate.joined", "joined", "조인됨"),
    ("fate.pending", "pending", "대기 중"),
    ("picture.wm", "watermark (moves at batch ends)", "워터마크 (배치가 끝날 때 움직임)"),
    ("picture.win.open", "window open", "열린 윈도우"),
    ("picture.win.updated", "updated this batch", "이번 배치에서 갱신"),
    ("picture.win.closing", "closing (watermark passed its end)", "닫히는 중 (워터마크가 끝을 지남)"),
    ("picture.win.emitted", "emitted", "출력됨"),
    ("picture.win.evicted", "evicted", "상태에서 제거됨"),
    ("picture.axis", "Click to add an event at this time", "눌러서 이 시간의 이벤트 추가"),
    ("picture.card.pending", "pending: no batch has read it yet", "대기 중: 아직 어떤 배치도 읽지 않음"),
    ("picture.card.nofate", "read by this batch (the engine gave no explanation)", "이 배치가 읽음 (엔진의 설명 없음)"),
    ("picture.card.batch", "Batch", "배치"),
    ("picture.card.covers", "{n} more rows sit under this mark, a few pixels apart: the picture is too dense to point at each one.", "이 표시 아래에 몇 픽셀 간격으로 행 {n}개가 더 있습니다. 그림이 너무 촘촘해서 하나씩 가리킬 수 없습니다."),
    ("picture.card.move", "Drag it, or press Alt or Shift + ← / →, to change its event time; ◀ Step back undoes the move.", "끌거나 Alt 또는 Shift + ← / →를 눌러 이벤트 시간을 바꿉니다. ◀ 한 단계 뒤로를 누르면 되돌아갑니다."),
    ("watermark.not_yet", "no watermark yet", "아직 워터마크 없음"),
    ("watermark.not_yet.help", "Spark reports 0 (the epoch) until the first batch with data sets the watermark.", "데이터가 있는 첫 배치가 워터마크를 정하기 전까지 Spark는 0(에포크)을 보고합니다."),
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
    ("query.broken", "The query has an error (see the query box): no batch runs until it is fixed; Next step only adds its events to the source.", "쿼리에 오류가 있습니다(쿼리 상자 참고): 고칠 때까지 배치는 실행되지 않고, 다음 단계는 이벤트를 소스에 더하기만 합니다."),
    ("watermark.broken", "— (the query has an error)", "— (쿼리에 오류가 있음)"),
    ("preset.own", "Your scenario: {title}", "직접 연 시나리오: {title}"),
    ("state.none", "This query keeps no state (stateless).", "이 쿼리는 상태를 저장하지 않습니다 (stateless)."),
    ("state.empty", "empty", "비어 있음"),
    ("status", "Status", "상태"),
    ("status.open", "open", "열림"),
    ("status.closing", "closes in the next batch", "다음 배치에서 닫힘"),
    ("status.kept", "kept (complete mode)", "유지 (complete 모드)"),
    ("status.evicted", "removed by the last batch (evicted or merged)", "직전 배치에서 제거됨 (만료 또는 병합)"),
    ("status.nowm", "kept forever (no event-time key)", "영원히 유지 (이벤트 시간 키 없음)"),
    ("picture.help.summary", "How to read the picture", "그림 읽는 법"),
    ("clock.title", "Processing-time clock", "처리 시간 시계"),
    ("clock.help", "is when the next trigger runs. This is the lab's clock, where Spark reads the wall clock: each trigger runs one second after the one before, adding events takes no time, and Wait moves the clock on by its time. A ProcessingTimeTimeout fires in the first batch whose clock is strictly past the timeout, so wait, then press “Trigger one batch”.", "에 다음 트리거가 실행됩니다. Spark라면 실제 시계를 읽는 자리의 실습 시계입니다. 트리거마다 앞의 트리거보다 1초 뒤에 실행되고, 이벤트 추가에는 시간이 들지 않으며, 기다리기는 그 시간만큼 시계를 움직입니다. ProcessingTimeTimeout은 시계가 타임아웃을 엄격히 넘은 첫 배치에서 발생하므로, 기다린 뒤 “배치 하나 실행”을 누르세요."),
    ("clock.wait10s", "Wait 10 s", "10초 기다리기"),
    ("clock.wait1m", "Wait 1 min", "1분 기다리기"),
    ("status.notimeout", "kept until the function removes it (no timeout set)", "함수가 지울 때까지 유지 (타임아웃 없음)"),
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
    ("scenario.export.ipynb", "Jupyter notebook", "Jupyter 노트북"),
    ("scenario.export.ipynb.help", "Downloads a Jupyter notebook (.ipynb): the setup, the query, then one cell per step that prints that step's micro-batches on real Spark 4.3.", "Jupyter 노트북(.ipynb)을 내려받습니다. 준비와 쿼리 다음에 단계마다 셀이 하나씩 있어, 실제 Spark 4.3에서 그 단계의 마이크로 배치를 출력합니다."),
    ("scenario.export.databricks", "Databricks notebook", "Databricks 노트북"),
    ("scenario.export.databricks.help", "Downloads a Databricks notebook in source format (.py): import it into a workspace; it runs on the cluster's spark, one cell per step.", "Databricks 소스 형식 노트북(.py)을 내려받습니다. 워크스페이스로 가져오면 클러스터의 spark에서 단계마다 셀 하나씩 실행됩니다."),
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
    ("sink.from-query", "the query text chooses this sink (writeStream.format, foreachBatch or foreach) and wins over the picker: edit the query to change it", "쿼리 텍스트가 이 싱크를 고릅니다 (writeStream.format, foreachBatch, foreach). 선택 상자보다 우선하므로 바꾸려면 쿼리를 고치세요"),
    ("guarantee.exactly", "exactly-once: a re-run batch is not written twice", "exactly-once: 다시 실행된 배치가 두 번 기록되지 않음"),
    ("guarantee.atleast", "at-least-once: a re-run batch is written again", "at-least-once: 다시 실행된 배치가 또 기록됨"),
    ("crash.point", "Crash point", "장애 지점"),
    ("crash.after-offset-log", "after the offset log, before running", "오프셋 로그 기록 후, 실행 전"),
    ("crash.mid-sink", "in the middle of the sink write", "싱크에 쓰는 도중"),
    ("crash.before-commit", "after the sink, before the commit log", "싱크 기록 후, 커밋 로그 전"),
    ("crash.go", "Crash the next batch", "다음 배치를 장애로 중단"),
    ("restart", "Restart on the same checkpoint", "같은 체크포인트로 재시작"),
    ("restart.temporary", "Start again (a new query on a new temporary checkpoint)", "다시 시작 (새 임시 체크포인트의 새 쿼리)"),
    ("runs", "runs:", "실행 횟수:"),
    ("sink.contents", "What the sink holds", "싱크에 저장된 내용"),
    ("sink.dups", "rows a reader sees twice", "읽는 쪽이 두 번 보는 행"),
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
    // teach: presenter mode, step back, play speed, share links, preset notes
    ("undo", "◀ Step back", "◀ 한 단계 뒤로"),
    ("undo.help", "takes back the last action (the lab replays everything before it)", "마지막 동작을 되돌립니다 (그 전까지의 모든 동작을 다시 실행)"),
    ("play.speed", "Play speed", "자동 실행 속도"),
    ("play.per_step", "{s} s per step", "단계당 {s}초"),
    ("presenter", "Present", "발표 모드"),
    ("presenter.leave", "Leave presenter mode", "발표 모드 끝내기"),
    ("presenter.help", "large type for a projector; key p", "프로젝터용 큰 글씨; 단축키 p"),
    ("presenter.notes", "Speaker notes", "발표자 노트"),
    ("presenter.keys", "→ next step · ← step back · space play/pause · 1 2 3 append/update/complete · + − delay (slider stops) · r answers · Esc leave", "→ 다음 단계 · ← 한 단계 뒤로 · 스페이스 자동 실행/정지 · 1 2 3 append/update/complete · + − 지연 (슬라이더 눈금) · r 정답 · Esc 끝내기"),
    ("presenter.reveal", "Reveal the answers (r)", "정답 보이기 (r)"),
    ("presenter.hide", "Hide the answers (r)", "정답 숨기기 (r)"),
    // present: two tabs, a session over the storage quota
    ("tabs.other", "Streamlab is open in another tab too. Both tabs save the lab in the same place; if one saves over the other, this page asks first.", "Streamlab이 다른 탭에도 열려 있습니다. 두 탭은 실습을 같은 곳에 저장합니다. 한쪽이 다른 쪽 위에 저장하면 먼저 물어봅니다."),
    ("tabs.conflict", "Another tab saved its lab over this one's. This tab has stopped saving, so neither is lost: choose which to keep.", "다른 탭이 이 탭의 실습 위에 자기 실습을 저장했습니다. 어느 쪽도 잃지 않도록 이 탭은 저장을 멈췄습니다. 남길 쪽을 고르세요."),
    ("tabs.load_other", "Open the other tab's lab", "다른 탭의 실습 열기"),
    ("tabs.keep_mine", "Keep this tab's lab (replaces the other's)", "이 탭의 실습 유지 (다른 탭의 것을 대체)"),
    ("save.failed", "Not saved in the browser:", "브라우저에 저장되지 않았습니다:"),
    ("save.download", "Save as file", "파일로 저장"),
    ("presenter.now", "Now: delay {d} · watermark for the next batch: {wm} · {n} batches run", "지금: 지연 {d} · 다음 배치의 워터마크: {wm} · 실행된 배치 {n}개"),
    ("presenter.now.nodelay", "Now: no withWatermark · watermark for the next batch: {wm} · {n} batches run", "지금: withWatermark 없음 · 다음 배치의 워터마크: {wm} · 실행된 배치 {n}개"),
    ("presenter.no_delay", "This query has no withWatermark delay to change.", "이 쿼리에는 바꿀 withWatermark 지연이 없습니다."),
    ("share", "Share", "공유"),
    ("share.help", "a link that holds this whole lab (scenario, settings and actions); it opens offline", "이 실습 전체(시나리오, 설정, 동작)를 담은 링크; 오프라인에서도 열립니다"),
    ("share.made", "Link to this lab (also in the address bar): ", "이 실습의 링크 (주소창에도 있음): "),
    ("share.close", "Close", "닫기"),
    ("share.offer", "This link holds a shared lab. Open it? Your own session is kept and can be restored.", "이 링크에는 공유된 실습이 들어 있습니다. 열까요? 내 세션은 보관되며 되돌릴 수 있습니다."),
    ("share.open", "Open the shared lab", "공유된 실습 열기"),
    ("share.holds", "from “{title}”: {query} ({mode} mode, {n} micro-batches run)", "“{title}”에서 시작: {query} ({mode} 모드, 실행된 마이크로 배치 {n}개)"),
    ("share.ignore", "Ignore", "무시"),
    ("share.kept", "A shared lab is open; your own session is kept.", "공유된 실습이 열려 있습니다. 내 세션은 보관되어 있습니다."),
    ("share.restore", "Restore my session", "내 세션 되돌리기"),
    ("share.forget", "Keep this one", "이 실습 유지"),
    ("preset.watch", "What to watch", "눈여겨볼 점"),
    ("quiz.try.ask", "This replaces your lab (its events and batches) with the question's scenario. You can get yours back only by redoing it.", "이 질문의 시나리오로 지금 실습(이벤트와 배치)을 바꿉니다. 지금 실습은 다시 해야만 되돌릴 수 있습니다."),
    ("quiz.try.yes", "Replace my lab", "실습 바꾸기"),
    ("quiz.try.no", "Keep my lab", "지금 실습 유지"),
    ("sink.memory", "memory", "memory"),
    ("sink.console", "console", "console"),
    ("sink.file", "file (_spark_metadata)", "file (_spark_metadata)"),
    ("sink.kafka", "kafka", "kafka"),
    ("sink.fb-naive", "foreachBatch: naive append", "foreachBatch: 그냥 덧붙이기"),
    ("sink.fb-idempotent", "foreachBatch: skips a seen batch id", "foreachBatch: 이미 본 batch id는 건너뜀"),
    ("sink.foreach", "foreach (ForeachWriter)", "foreach (ForeachWriter)"),
    // study: the study path, question bank, review queue, exam mode and glossary pages
    ("nav.label", "Study pages", "학습 페이지"),
    ("nav.lessons", "Lessons", "레슨"),
    ("nav.lab", "Free lab", "자유 실습"),
    ("nav.quiz", "Question bank", "문제 은행"),
    ("nav.exam", "Exam", "시험"),
    ("nav.review", "Review", "복습"),
    ("nav.glossary", "Glossary", "용어집"),
    ("nav.exam_track", "Exam track", "시험 트랙"),
    ("nav.cheatsheet", "Cheat sheet", "요약표"),
    ("lens.title", "Exam lens", "시험 렌즈"),
    ("lens.help", "This query meets a rule where the programming guide, which the certification exam follows, and Spark 4.3 differ.", "이 쿼리는 자격증 시험이 따르는 프로그래밍 가이드와 Spark 4.3이 다르게 말하는 규칙에 해당합니다."),
    ("lens.guide", "The guide says", "가이드"),
    ("lens.study", "The study documents say", "교재"),
    ("lens.spark", "Spark 4.3 does", "Spark 4.3"),
    ("lens.exam", "On the exam", "시험에서는"),
    ("lens.more", "What the guide says and what Spark 4.3 does", "가이드의 설명과 Spark 4.3의 실제 동작"),
    ("lens.cases", "Checked against {n} runs recorded on Spark 4.3.0.", "Spark 4.3.0에서 기록한 실행 {n}개와 대조했습니다."),
    ("cheat.title", "Cheat sheet: the exam vs Spark 4.3", "요약표: 시험과 Spark 4.3"),
    ("cheat.help", "Every rule where the programming guide (what the exam marks) or the study documents and Spark 4.3 differ, with the answer to give on the exam. Print it: the page prints without the navigation.", "프로그래밍 가이드(시험이 채점하는 기준)나 교재와 Spark 4.3이 다른 규칙을 모두 모았고, 시험에서 고를 답을 적었습니다. 인쇄하면 탐색 막대 없이 이 표만 나옵니다."),
    ("cheat.print", "Print", "인쇄"),
    ("cheat.rule", "Rule", "규칙"),
    ("track.title", "Exam track", "시험 트랙"),
    ("track.help", "The lessons the Databricks Spark developer exam needs, in order, one week at about an hour a day; the others go beyond the exam. Then the mock exam: 10 exam-style items, scenario and code, 4 options, no batch ids.", "Databricks Spark 개발자 시험에 필요한 레슨을 순서대로, 하루 약 한 시간씩 일주일 분량으로 모았습니다. 나머지는 시험 범위 밖입니다. 마지막은 모의시험입니다: 시나리오와 코드, 선택지 4개, 배치 id 없는 시험형 문항 10개."),
    ("track.beyond", "Beyond the exam", "시험 범위 밖"),
    ("track.mock", "Start the mock exam (10 items)", "모의시험 시작 (10문항)"),
    ("track.review", "Mixed review across topics (20 items)", "주제를 섞은 복습 (20문항)"),
    ("exam.mock", "Mock exam: 10 exam-style items", "모의시험: 시험형 10문항"),
    ("study.dismiss", "Dismiss", "닫기"),
    ("study.replace.ask", "This replaces your lab (you ran batches or changed it) with “{title}”. Replace it?", "지금 실습(배치를 실행했거나 바꾼 상태)을 “{title}”(으)로 바꿉니다. 바꿀까요?"),
    ("study.replace.yes", "Replace my lab", "실습 바꾸기"),
    ("study.replace.no", "Keep my lab", "지금 실습 유지"),
    ("lessons.title", "Study path", "학습 경로"),
    ("lessons.intro", "Go through the lessons in order. Each one opens its own lab: read, do its tasks in the lab, then answer its questions.", "레슨을 순서대로 진행하세요. 레슨마다 자기 실습이 열립니다. 읽고, 실습에서 과제를 해 보고, 문제를 푸세요."),
    ("lesson.not_started", "not started", "시작 전"),
    ("lesson.step_of", "task {k} of {n}", "과제 {n}개 중 {k}번째"),
    ("lesson.questions_next", "questions next", "문제 풀 차례"),
    ("lesson.done", "done", "완료"),
    ("lesson.to_sink", "See what the sink received ↓", "싱크가 받은 행 보기 ↓"),
    ("lesson.number", "Lesson {n}", "레슨 {n}"),
    ("lesson.unknown", "There is no lesson with this id:", "이 id의 레슨이 없습니다:"),
    ("lesson.exam", "Programming guide, exam and Spark 4.3", "프로그래밍 가이드, 시험, Spark 4.3"),
    ("lesson.watch", "What to watch in the lab", "실습에서 볼 것"),
    ("lesson.steps", "Lesson tasks", "레슨 과제"),
    ("lesson.waiting", "Still waiting for:", "아직 기다리는 것:"),
    ("lesson.waiting_generic", "The lab does not show this yet: do what the task says.", "실습에 아직 이 상태가 보이지 않습니다. 과제의 안내대로 해 보세요."),
    ("lesson.start_over", "Start the lesson's lab over", "레슨 실습 처음부터"),
    ("lesson.start_over.help", "opens the lesson's lab as it was when the lesson began (its example, query, output mode and trigger) and goes back to the first task", "레슨을 시작할 때의 실습(예제, 쿼리, 출력 모드, 트리거)을 다시 열고 첫 과제로 돌아갑니다"),
    ("lesson.do_it", "Do it for me", "대신 해 주기"),
    ("lesson.steps_done", "All tasks done. Now the questions.", "과제를 모두 마쳤습니다. 이제 문제를 푸세요."),
    ("lesson.questions", "Questions", "문제"),
    ("lesson.next", "Next lesson →", "다음 레슨 →"),
    ("score.title", "Scores per topic", "주제별 점수"),
    ("score.topic", "Topic", "주제"),
    ("score.right", "Right", "정답"),
    ("score.none", "No answers yet.", "아직 답한 문제가 없습니다."),
    ("quiz.again", "Try again", "다시 풀기"),
    ("quiz.expected", "The answer is", "정답은"),
    ("quiz.value.placeholder", "type the value (09:03, or a number)", "값을 입력 (09:03 또는 숫자)"),
    ("quiz.value.time", "Type a time such as 09:03 (UTC), or 1970-01-01T00:00:00Z for a zero watermark.", "09:03 (UTC) 같은 시간을 입력하세요. 워터마크가 0이면 1970-01-01T00:00:00Z입니다."),
    ("quiz.value.number", "Type a whole number such as 3.", "3 같은 정수를 입력하세요."),
    ("quiz.link.help", "Practise with the whole question bank, take an exam, or review the questions you missed.", "문제 은행 전체로 연습하거나, 시험을 보거나, 틀린 문제를 복습하세요."),
    ("review.title", "Review queue", "복습 목록"),
    ("review.help", "Questions you missed come back after 1, 3 and 7 days.", "틀린 문제는 1일, 3일, 7일 뒤에 다시 나옵니다."),
    ("review.none", "Nothing is due today ({n} waiting for a later day).", "오늘 복습할 문제가 없습니다 (나중에 나올 문제 {n}개)."),
    ("review.early", "Review the {n} waiting questions now", "기다리는 문제 {n}개를 지금 복습하기"),
    ("exam.title", "Exam mode", "시험 모드"),
    ("exam.help", "Questions drawn across every topic, with a clock. No explanations until the end; then your score per topic and every answer with its explanation, wrong ones first.", "모든 주제에서 뽑은 문제를 시간을 재며 풉니다. 끝날 때까지 해설은 없고, 끝나면 주제별 점수와 모든 답의 해설을 (틀린 답부터) 보여 줍니다."),
    ("exam.start", "{n} questions", "{n}문제"),
    ("exam.finish", "Finish the exam", "시험 끝내기"),
    ("exam.score", "{c} of {n} right ({p}%) in {t}", "{n}문제 중 {c}문제 정답 ({p}%), 걸린 시간 {t}"),
    ("exam.wrong", "Wrong answers", "틀린 답"),
    ("exam.given", "Your answer:", "내 답:"),
    ("exam.right", "Right answer:", "정답:"),
    ("exam.skipped", "(skipped)", "(건너뜀)"),
    ("exam.try_batch", "Try it in the lab at batch {b}", "실습에서 배치 {b} 보기"),
    ("exam.again", "Another exam", "다른 시험"),
    ("exam.limit", "time limit {m} min (2 minutes a question, the certification exam's pace)", "제한 시간 {m}분 (문제당 2분, 자격시험과 같은 속도)"),
    ("exam.over", "over the time limit", "제한 시간을 넘었습니다"),
    ("exam.right_list", "Right answers: check the reasoning too", "맞힌 답: 풀이도 확인하세요"),
    ("glossary.title", "Glossary", "용어집"),
    ("glossary.help", "One Korean term for each concept, used in every lesson, question and label.", "개념마다 한국어 용어 하나를 정해 모든 레슨, 문제, 화면에 씁니다."),
    ("glossary.filter", "Filter terms", "용어 찾기"),
    ("glossary.def", "Meaning", "뜻"),
    ("predict.title", "Predict the next batch", "다음 배치 예측"),
    ("predict.open", "Ask me about the next batch", "다음 배치에 대해 묻기"),
    ("predict.none", "Nothing to predict: no batch can run next (or the query has an error).", "예측할 것이 없습니다. 다음에 실행될 배치가 없거나 쿼리에 오류가 있습니다."),
    ("predict.run.trigger", "Pick an answer, then press “Trigger one batch” and see.", "답을 고른 뒤 “배치 하나 실행”을 눌러 확인하세요."),
    ("predict.run.step", "Pick an answer, then press “Next step ▶” and see.", "답을 고른 뒤 “다음 단계 ▶”를 눌러 확인하세요."),
    ("predict.unanswered", "The batch ran.", "배치가 실행되었습니다."),
];

// teach: messages the session and the engine write in English, with their Korean. Each
// pattern's `{}` holes match any text, which is itself put through [`localize`] (so
// `the string "seven"` inside a sentence becomes `문자열 "seven"`). Spark's own error
// conditions and wording are not here: they stay as Spark writes them.
const MESSAGES: &[(&str, &str)] = &[
    ("the state function raised an error: fix it at the line named (Streamlab runs it in a sandboxed subset of Python and pandas); the batch is run again when the query changes", "상태 함수가 오류를 냈습니다. 알려 준 줄을 고치세요 (Streamlab은 파이썬과 pandas의 일부만 갖춘 샌드박스에서 실행합니다). 쿼리를 바꾸면 배치를 다시 실행합니다"),
    ("cannot wait {} ms: give a positive time that keeps the clock before year 9999", "{} ms를 기다릴 수 없습니다. 시계가 9999년을 넘지 않는 양의 시간을 주세요"),
    ("in the Python code above the query, line {}: {}", "쿼리 위의 파이썬 코드 {}번째 줄: {}"),
    ("in the Python code above the query: {}", "쿼리 위의 파이썬 코드: {}"),
    ("{}() is Python code from the prelude; Streamlab runs Python only as an applyInPandasWithState state function, not as a UDF", "{}()은(는) 앞부분의 파이썬 코드입니다. Streamlab은 파이썬을 UDF가 아니라 applyInPandasWithState의 상태 함수로만 실행합니다"),
    // The crash points, as the crash message names them (the Crash point menu's words).
    ("after-offset-log", "오프셋 로그 기록 후, 실행 전"),
    ("mid-sink", "싱크에 쓰는 도중"),
    ("before-commit", "싱크 기록 후, 커밋 로그 전"),
    ("simulated crash in batch {} ({}): the query stopped; restart it on the same checkpoint", "모의 장애, 배치 {} ({}): 쿼리가 멈췄습니다. 같은 체크포인트로 재시작하세요"),
    ("No batch is due, so there is nothing to crash: add events (or wait for a no-data batch) first.", "실행할 배치가 없어 중단시킬 것이 없습니다. 먼저 이벤트를 추가하세요 (또는 데이터 없는 배치를 기다리세요)."),
    ("no source named '{}'", "'{}'라는 소스가 없습니다"),
    ("the lesson's lab was built again from its start, with every task up to this one done for you", "이 과제에 닿을 수 없는 실습이어서, 레슨 실습을 처음부터 다시 만들고 이 과제까지 모두 대신 했습니다"),
    ("this source has no timestamp column", "이 소스에는 timestamp 열이 없습니다"),
    ("the query has no such withWatermark", "쿼리에 그런 withWatermark가 없습니다"),
    ("'{}' is not a time of day: write 12:07 or 12:07:30", "'{}'은(는) 시각이 아닙니다. 12:07 또는 12:07:30처럼 쓰세요"),
    ("{} is not a whole number that fits a long: Spark reads NULL", "{}은(는) long에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다"),
    ("{} is not a whole number that fits an int: Spark reads NULL", "{}은(는) int에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다"),
    ("{} does not fit a double", "{}은(는) double에 들어가지 않습니다"),
    ("{} is not a JSON number: Spark reads NULL", "{}은(는) JSON 숫자가 아니므로 Spark는 NULL로 읽습니다"),
    ("{} is not a number: Spark reads NULL", "{}은(는) 숫자가 아니므로 Spark는 NULL로 읽습니다"),
    ("{} is not true or false: Spark reads NULL", "{}은(는) true나 false가 아니므로 Spark는 NULL로 읽습니다"),
    ("{} is not a timestamp Spark can read (write 2026-01-01T12:07:00Z): Spark reads NULL", "{}은(는) Spark가 읽을 수 있는 타임스탬프가 아니므로 (2026-01-01T12:07:00Z처럼 쓰세요) Spark는 NULL로 읽습니다"),
    ("{} does not fit a long: Spark reads NULL", "{}은(는) long에 들어가지 않으므로 Spark는 NULL로 읽습니다"),
    ("{} is not a timestamp: Spark reads a string such as \"2026-01-01T12:07:00Z\" or whole epoch seconds, and NULL here", "{}은(는) 타임스탬프가 아닙니다. Spark는 \"2026-01-01T12:07:00Z\" 같은 문자열이나 epoch 초(정수)를 읽으며, 여기서는 NULL로 읽습니다"),
    ("unsupported column type {}", "지원하지 않는 열 타입 {}"),
    ("{} is not modelled by Streamlab yet.", "{}은(는) 아직 Streamlab이 재현하지 않습니다."),
    // The PySpark front end's own words (Python's and Spark's messages stay as they print them).
    ("{} is not modelled in Streamlab yet", "{}은(는) 아직 Streamlab이 재현하지 않습니다"),
    ("did you mean {}?", "{}을(를) 쓰려던 것인가요?"),
    ("dropDuplicates takes a list of column names: write {}", "dropDuplicates는 열 이름의 리스트를 받습니다. {}처럼 쓰세요"),
    ("write {}(['column', ...])", "{}(['column', ...])처럼 쓰세요"),
    ("Python's and/or/not/in ask a Column for True or False, which it cannot give: combine conditions with &, | and ~, each side in brackets: (F.col('a') > 1) & (F.col('b') < 2)", "파이썬의 and/or/not/in은 Column에 True나 False를 묻지만 Column은 답할 수 없습니다. 조건은 &, |, ~로 묶고 양쪽을 괄호로 감싸세요: (F.col('a') > 1) & (F.col('b') < 2)"),
    ("use .isin(...) for 'in'", "'in' 대신 .isin(...)을 쓰세요"),
    ("the program defines no query to run: {}", "프로그램에 실행할 쿼리가 없습니다: {}"),
    ("add a last line with {} (the DataFrame to run), or start it: {}", "마지막 줄에 실행할 DataFrame {}을(를) 쓰거나, 쿼리를 시작하세요: {}"),
    ("end it with the DataFrame to run, e.g. clicks.select('event_id')", "실행할 DataFrame으로 끝내세요. 예: clicks.select('event_id')"),
    ("this lab feeds its {} by name ({}): write one of them instead of {}….{}() (a {} source)", "이 실습은 {}을(를) 이름으로 넣습니다 ({}). {}….{}() ({} 소스) 대신 그 이름 중 하나를 쓰세요"),
    ("streams", "스트림"),
    ("static tables", "정적 테이블"),
    ("this program starts a second streaming query (the first starts at {}..{})", "이 프로그램은 두 번째 스트리밍 쿼리를 시작합니다 (첫 번째는 {}..{}에서 시작)"),
    ("the lab runs one query: keep one start()", "실습은 쿼리 하나만 실행합니다. start()는 하나만 남기세요"),
    ("there is no stream named '{}' in this lab", "이 실습에는 '{}'라는 스트림이 없습니다"),
    ("F.{}() runs Python code per row; Streamlab runs Python only in applyInPandasWithState and transformWithState state functions", "F.{}()은(는) 행마다 파이썬 코드를 실행합니다. Streamlab은 applyInPandasWithState와 transformWithState의 상태 함수에서만 파이썬을 실행합니다"),
    ("a bytes literal (b'...') is not read here", "바이트 리터럴(b'...')은 여기서 읽지 않습니다"),
    ("write a str", "str로 쓰세요"),
    ("an f-string with {...} is not read here", "{...}가 든 f-문자열은 여기서 읽지 않습니다"),
    ("write the text out, or join strings with +", "글자를 그대로 쓰거나 +로 문자열을 이으세요"),
    ("this line ends too early: an expression is missing here", "이 줄이 너무 일찍 끝납니다. 여기에 식이 빠졌습니다"),
    ("this {} string is never closed", "이 {} 문자열이 닫히지 않았습니다"),
    ("timeoutConf must be GroupStateTimeout.NoTimeout, .ProcessingTimeTimeout or .EventTimeTimeout (or their names), not '{}'", "timeoutConf는 GroupStateTimeout.NoTimeout, .ProcessingTimeTimeout, .EventTimeTimeout (또는 그 이름)이어야 하며 '{}'은(는) 안 됩니다"),
    ("{} should be a StructType or a DDL string such as 'user_id string, clicks long', got {}", "{}은(는) StructType이나 'user_id string, clicks long' 같은 DDL 문자열이어야 하는데 {}이(가) 왔습니다"),
    ("{}'s {} is not modelled in Streamlab yet", "{}의 {}은(는) 아직 Streamlab이 재현하지 않습니다"),
    ("unionByName with allowMissingColumns=True is not modelled in Streamlab yet", "allowMissingColumns=True인 unionByName은 아직 Streamlab이 재현하지 않습니다"),
    ("{} is not modelled in Streamlab: its columns use string, long, int, double, boolean, timestamp, date, binary, arrays and structs", "{}은(는) Streamlab이 재현하지 않습니다. 열 타입은 string, long, int, double, boolean, timestamp, date, binary, 배열, 구조체를 씁니다"),
    ("Row(...) is read in Python state functions", "Row(...)는 파이썬 상태 함수 안에서 읽습니다"),
    ("in the query, build a struct with F.struct(...)", "쿼리에서는 F.struct(...)로 구조체를 만드세요"),
    ("an alias with several names (for a generator's columns) is not modelled in Streamlab", "이름이 여럿인 별칭(생성 함수의 열)은 Streamlab이 재현하지 않습니다"),
    ("try_cast is not modelled in Streamlab yet: use cast", "try_cast는 아직 Streamlab이 재현하지 않습니다. cast를 쓰세요"),
    ("the lab can run windows, watermarks, aggregations, dedup, limit, union and stream-static joins", "실습에서는 윈도우, 워터마크, 집계, 중복 제거, limit, union, 스트림-정적 조인을 실행할 수 있습니다"),
    ("the string \"{}\"", "문자열 \"{}\""),
    ("the number {} (with a fraction)", "소수가 있는 숫자 {}"),
    ("the number {} (not written as a whole number)", "정수로 쓰지 않은 숫자 {}"),
    ("this '{}' is never closed", "이 '{}'이(가) 닫히지 않았습니다"),
    ("the query ends too early: a bracket or quote is not closed", "쿼리가 너무 일찍 끝납니다: 닫히지 않은 괄호나 따옴표가 있습니다"),
    ("this string is not closed", "이 문자열이 닫히지 않았습니다"),
    ("unexpected '{}': expected a name, a string, a number or an operator here", "예상하지 못한 '{}': 여기에는 이름, 문자열, 숫자 또는 연산자가 와야 합니다"),
    ("the query is empty", "쿼리가 비어 있습니다"),
    ("the query is empty: write a DataFrame expression such as clicks.select('event_id')", "쿼리가 비어 있습니다: clicks.select('event_id')처럼 DataFrame 식을 쓰세요"),
    ("without an aggregation, the function's outputMode must be the query's output mode", "집계가 없으면 함수의 outputMode가 쿼리의 출력 모드와 같아야 합니다"),
    ("the number {} (too large for 64 bits)", "64비트를 넘는 숫자 {}"),
    ("{} is read as seconds since the epoch, which is {}: if it is milliseconds, divide it by 1000", "{}은(는) 에포크 이후 초로 읽혀 {}이(가) 됩니다: 밀리초라면 1000으로 나누세요"),
    ("{} seconds since the epoch is past what a timestamp holds (about ±292,000 years): Spark multiplies it into µs in a 64-bit long, which wraps around, and reads {}", "에포크 이후 {}초는 타임스탬프가 담을 수 있는 범위(약 ±292,000년)를 넘습니다: Spark는 이 값을 64비트 long 안에서 µs로 곱하고, 값이 한 바퀴 돌아 {}로 읽습니다"),
    ("the number {}", "숫자 {}"),
    ("the boolean {}", "불리언 {}"),
    ("an empty string", "빈 문자열"),
    ("an object", "객체"),
    ("an array", "배열"),
    ("The delay was not applied: {}", "지연을 적용하지 않았습니다: {}"),
    ("not modelled yet", "아직 재현하지 않음"),
    // Browser storage (crash.rs, lib.rs).
    ("the stored text is not a saved session ({})", "저장된 텍스트가 저장된 세션이 아닙니다 ({})"),
    ("the lab did not finish loading this session last time", "지난번에 실습이 이 세션을 끝까지 불러오지 못했습니다"),
    ("it could not be read: {}", "읽을 수 없습니다: {}"),
    ("this session ({} KB) could not be saved in the browser ({}); it stays open in this tab, but a reload would bring back the last session that was saved: save it as a file to keep it", "이 세션({} KB)을 브라우저에 저장하지 못했습니다 ({}). 이 탭에는 그대로 열려 있지만 새로 고침하면 마지막으로 저장된 세션이 돌아옵니다. 남기려면 파일로 저장하세요"),
    // The engine's hints (`with_hint`, the checker's), in the order of their files.
    ("a stream never ends, so it cannot be sorted; sort the result of an aggregation in complete mode, or sort each batch in foreachBatch", "스트림은 끝나지 않으므로 정렬할 수 없습니다. complete 모드에서 집계 결과를 정렬하거나, foreachBatch에서 배치마다 정렬하세요"),
    ("add withWatermark before dropDuplicatesWithinWatermark: the watermark delay is how long a key is remembered", "dropDuplicatesWithinWatermark 앞에 withWatermark를 넣으세요. 워터마크 지연이 키를 기억하는 기간입니다"),
    ("add withWatermark on both streams and a time-range condition such as order_time >= event_time AND order_time <= event_time + interval 15 minutes, so Spark knows when an unmatched row can no longer match", "두 스트림 모두에 withWatermark를 넣고 order_time >= event_time AND order_time <= event_time + interval 15 minutes 같은 시간 범위 조건을 쓰세요. 그래야 Spark가 매칭되지 않은 행이 언제 더 이상 매칭될 수 없는지 압니다"),
    ("an anti join would have to wait forever to know a row never matches", "anti 조인은 어떤 행이 절대 매칭되지 않는다는 것을 알기 위해 영원히 기다려야 합니다"),
    ("an exact distinct count would need every value ever seen in state; F.approx_count_distinct keeps a small sketch per group", "정확한 distinct count는 지금까지 본 모든 값을 상태에 두어야 합니다. F.approx_count_distinct는 그룹마다 작은 스케치만 유지합니다"),
    ("an outer join's null rows are final only when the watermark evicts the unmatched row: use append mode", "outer 조인의 null 행은 워터마크가 매칭되지 않은 행을 정리할 때에만 확정됩니다. append 모드를 쓰세요"),
    ("continuous mode runs one long task per partition with no shuffle or state: only select/filter-like queries; use a micro-batch trigger", "continuous 모드는 파티션마다 오래 실행되는 태스크 하나로 셔플과 상태 없이 동작합니다. select/filter 같은 쿼리만 가능하니 마이크로 배치 트리거를 쓰세요"),
    ("in update and complete mode the first aggregation re-emits old groups, which the second would treat as late; chain aggregations in append mode with a watermark", "update와 complete 모드에서는 첫 번째 집계가 예전 그룹을 다시 내보내고, 두 번째 집계는 그것을 늦은 데이터로 취급합니다. 집계를 이어 쓰려면 워터마크와 함께 append 모드를 쓰세요"),
    ("the outer side of a stream-static join must be the stream: the static table cannot know which rows of a never-ending stream will never match", "스트림-정적 조인의 outer 쪽은 스트림이어야 합니다. 정적 테이블은 끝나지 않는 스트림의 어떤 행이 절대 매칭되지 않을지 알 수 없습니다"),
    ("the query must read at least one streaming source", "쿼리는 스트리밍 소스를 하나 이상 읽어야 합니다"),
    ("union two streams, or join the stream with the static table", "두 스트림을 union하거나, 스트림을 정적 테이블과 조인하세요"),
    ("use append or complete mode with limit", "limit에는 append 또는 complete 모드를 쓰세요"),
    ("the query has withWatermark, but no grouping column carries the watermark: a column taken from the DataFrame before withWatermark (clicks.event_time) has none; name the column as a string (F.window('event_time', ...)) or take it from the watermarked DataFrame, or use update/complete mode", "쿼리에 withWatermark가 있지만 워터마크를 가진 그룹 컬럼이 없습니다. withWatermark 전의 DataFrame에서 가져온 컬럼(clicks.event_time)에는 워터마크가 없습니다. 컬럼을 문자열로 쓰거나(F.window('event_time', ...)) 워터마크를 적용한 DataFrame에서 가져오거나, update/complete 모드를 쓰세요"),
    ("append emits a group only once it can never change, so it needs a watermark on a grouping column: add withWatermark on the event-time column before groupBy and group by F.window(...) or that column, or use update/complete mode", "append는 더 이상 바뀔 수 없는 그룹만 한 번 내보내므로 그룹 컬럼에 워터마크가 필요합니다. groupBy 앞에 이벤트 시간 컬럼으로 withWatermark를 넣고 F.window(...)나 그 컬럼으로 그룹화하거나, update/complete 모드를 쓰세요"),
    ("complete mode re-emits the whole result table every batch, so the query needs an aggregation (groupBy)", "complete 모드는 매 배치마다 결과 테이블 전체를 다시 내보내므로 쿼리에 집계(groupBy)가 필요합니다"),
    ("session windows can be emitted in append or complete mode only", "세션 윈도우는 append 또는 complete 모드로만 내보낼 수 있습니다"),
    ("define withWatermark once per input, before the first stateful operator; later operators use the watermark that flows to them", "withWatermark는 입력마다 한 번, 첫 상태 연산자 앞에 정의하세요. 뒤의 연산자는 흘러온 워터마크를 씁니다"),
    ("each stateful operator needs a single event-time column in its input: drop or rename one (a join's output keeps both sides' watermarked columns)", "상태 연산자마다 입력에 이벤트 시간 컬럼이 하나여야 합니다. 하나를 버리거나 이름을 바꾸세요 (조인 결과에는 양쪽의 워터마크 컬럼이 모두 남습니다)"),
    ("group by the session window and at least one key, e.g. groupBy(F.session_window(...), 'user_id')", "세션 윈도우와 키를 하나 이상 함께 그룹화하세요. 예: groupBy(F.session_window(...), 'user_id')"),
    ("Kafka's value is bytes: write F.from_json(F.col('value').cast('string'), ...) or CAST(value AS STRING)", "Kafka의 value는 바이트입니다. F.from_json(F.col('value').cast('string'), ...) 또는 CAST(value AS STRING)로 쓰세요"),
    ("Spark 4 runs in ANSI mode: a bad cast, an overflow or a division by zero fails the micro-batch; use try_cast / try_divide, or fix the input", "Spark 4는 ANSI 모드로 실행됩니다. 잘못된 캐스트, 오버플로, 0으로 나누기는 마이크로 배치를 실패시킵니다. try_cast / try_divide를 쓰거나 입력을 고치세요"),
    ("a stream has no end, so a function over the rows before or after each row (lag, row_number, a running sum) cannot be computed; group by F.window(...) instead, or compute it per batch in foreachBatch", "스트림은 끝이 없으므로 각 행의 앞뒤 행에 대한 함수(lag, row_number, 누적 합)는 계산할 수 없습니다. 대신 F.window(...)로 그룹화하거나 foreachBatch에서 배치마다 계산하세요"),
    ("adding, removing or reordering stateful operators (aggregations, dedup, joins, limit) needs a new checkpoint", "상태 연산자(집계, 중복 제거, 조인, limit)를 추가, 제거하거나 순서를 바꾸려면 새 체크포인트가 필요합니다"),
    ("file and Kafka sinks need a checkpoint that survives the query: without one there is no exactly-once and no restart", "file과 Kafka 싱크에는 쿼리가 끝나도 남는 체크포인트가 필요합니다. 없으면 exactly-once도 재시작도 없습니다"),
    ("files are written once and never changed, so a file sink takes append mode only", "파일은 한 번 쓰이고 바뀌지 않으므로 file 싱크는 append 모드만 받습니다"),
    ("offsets are stored per source position; a query with other sources needs a new checkpoint", "오프셋은 소스 위치별로 저장됩니다. 다른 소스를 읽는 쿼리에는 새 체크포인트가 필요합니다"),
    ("the memory sink keeps its rows only in this process, so Spark will not resume it from a checkpoint in append or update mode; use a file or foreachBatch sink to see recovery", "memory 싱크는 행을 이 프로세스에만 두므로, Spark는 append나 update 모드에서 체크포인트로 재개하지 않습니다. 복구를 보려면 file 또는 foreachBatch 싱크를 쓰세요"),
    ("the memory sink's rows become a temporary view named after the query: add .queryName('my_view')", "memory 싱크의 행은 쿼리 이름의 임시 뷰가 됩니다. .queryName('my_view')를 넣으세요"),
    ("the state is keyed by the grouping (or dedup/join) columns: changing them needs a new checkpoint", "상태는 그룹화(또는 중복 제거/조인) 열을 키로 저장됩니다. 그 열을 바꾸려면 새 체크포인트가 필요합니다"),
    ("{}() is a batch action: it runs a job at once, but a stream has no end. Drop .{}() and start the query with writeStream (here: pick an output mode and trigger batches)", "{}()는 배치 액션이라 잡을 바로 실행하지만, 스트림에는 끝이 없습니다. .{}()를 지우고 writeStream으로 쿼리를 시작하세요 (여기서는 출력 모드를 고르고 배치를 실행하세요)"),
    ("the input columns here are {}", "여기서 입력 열은 {}입니다"),
    // spark.sql: temporary views and SQL queries.
    ("no temporary view is registered: register the DataFrame first, e.g. clicks.createOrReplaceTempView('clicks')", "등록된 임시 뷰가 없습니다. 먼저 DataFrame을 등록하세요. 예: clicks.createOrReplaceTempView('clicks')"),
    ("the temporary views are {}", "임시 뷰는 {}입니다"),
    ("qualify the column with its relation's name or alias (c.post_id)", "열 앞에 테이블 이름이나 별칭을 붙이세요 (c.post_id)"),
    ("write the window length as a string: window(event_time, '10 minutes')", "윈도우 길이는 문자열로 쓰세요: window(event_time, '10 minutes')"),
    ("query parameters (args=...) are not modelled: write the values into the query", "쿼리 매개변수(args=...)는 재현하지 않습니다. 값을 쿼리에 직접 쓰세요"),
];

/// Matches `text` against `pattern` (`{}` holes match any text, shortest first); the holes'
/// texts when it matches.
fn holes<'a>(pattern: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let parts: Vec<&str> = pattern.split("{}").collect();
    let mut rest = text.strip_prefix(parts[0])?;
    let mut got = Vec::new();
    for (i, lit) in parts.iter().enumerate().skip(1) {
        let last = i == parts.len() - 1;
        let at = if last {
            if lit.is_empty() { Some(rest.len()) } else { rest.strip_suffix(lit).map(str::len) }
        } else if lit.is_empty() {
            None
        } else {
            rest.find(lit)
        }?;
        got.push(&rest[..at]);
        rest = &rest[at + lit.len()..];
    }
    (rest.is_empty()).then_some(got)
}

/// "1 row", "0 rows", "3 rows": an English count of rows (Korean needs no plural, `{n}개 행`).
pub fn rows_en(n: impl Into<u64>) -> String {
    count_en(n, "row")
}

/// An English count of `noun` (a word that takes `s` in the plural): "1 late row", "2 late rows".
pub fn count_en(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// "was" for one, "were" for any other count.
pub fn was_en(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 { "was" } else { "were" }
}

/// Korean text with its particles chosen: a particle written for either case after a value
/// put in at run time — `이(가)`, `은(는)`, `을(를)`, `과(와)`, `(으)로` — becomes the one the
/// word before it takes (`배치 6이`, `'25:99'는`, `09:25로`, `12:10으로`). The word's last sound
/// decides: a Hangul syllable by its final consonant; a digit as it is read (0 영, 1 일, 2 이,
/// ..., and 10 십, 100 백, 1000 천); a capital after a digit or a capital by its name (`Z` 지,
/// `L` 엘); another Latin letter as English is read in Korean (a vowel, `r`, `w`, `y`, `-rk`:
/// no final consonant; `l`: ㄹ; others: a final consonant). Quotes and brackets after the word
/// are looked through. Text without such a particle is returned as it is.
pub fn particles(text: &str) -> String {
    const MARKS: [(&str, &str, &str); 5] = [("이(가)", "이", "가"), ("은(는)", "은", "는"), ("을(를)", "을", "를"), ("과(와)", "과", "와"), ("(으)로", "으로", "로")];
    if !MARKS.iter().any(|(m, _, _)| text.contains(m)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let next = MARKS.iter().filter_map(|m| rest.find(m.0).map(|i| (i, m))).min_by_key(|(i, _)| *i);
        let Some((i, (mark, with, without))) = next else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..i]);
        let coda = final_sound(&out);
        // `(으)로`: 으로 after a final consonant other than ㄹ; the others after any.
        let takes = if *mark == "(으)로" { matches!(coda, Coda::Consonant) } else { !matches!(coda, Coda::None) };
        out.push_str(if takes { with } else { without });
        rest = &rest[i + mark.len()..];
    }
    out
}

/// The last sound of a word: none, ㄹ, or another final consonant.
enum Coda {
    None,
    Rieul,
    Consonant,
}

fn final_sound(before: &str) -> Coda {
    let word = before.trim_end_matches(|c: char| "'\"’”)]}>(".contains(c));
    let Some(last) = word.chars().last() else { return Coda::None };
    match last {
        '가'..='힣' => match (u32::from(last) - 0xAC00) % 28 {
            0 => Coda::None,
            8 => Coda::Rieul,
            _ => Coda::Consonant,
        },
        // As read: 영 (0, and 십 백 천 만 for 10, 100, ...) 일 이 삼 사 오 육 칠 팔 구.
        '0' | '3' | '6' => Coda::Consonant,
        '1' | '7' | '8' => Coda::Rieul,
        '2' | '4' | '5' | '9' => Coda::None,
        // A capital after a digit or another capital is read as its name (`…00Z` 지,
        // `SQL` 엘, `UTC` 씨): a final consonant only for L, R (ㄹ), M and N.
        c if c.is_ascii_uppercase() && word.chars().rev().nth(1).is_none_or(|p| !p.is_ascii_lowercase()) => match c {
            'L' | 'R' => Coda::Rieul,
            'M' | 'N' => Coda::Consonant,
            _ => Coda::None,
        },
        'l' | 'L' => Coda::Rieul,
        // `-rk` is read 크 (워터마크): no final consonant.
        'k' if word.ends_with("rk") => Coda::None,
        c if c.is_ascii_alphabetic() => {
            if "aeiouyrwAEIOUYRW".contains(c) {
                Coda::None
            } else {
                Coda::Consonant
            }
        }
        _ => Coda::None,
    }
}

/// A message from the session or the engine (e.g. a bad event field, a delay that is not an
/// interval) in `lang`. English is returned as it is; for Korean, each `; `-separated part,
/// after an optional `column: ` prefix, is matched against the known sentences; a part with
/// no Korean sentence stays English (so nothing is lost). Never panics.
pub fn localize(lang: Lang, message: &str) -> String {
    if lang == Lang::En {
        return message.to_string();
    }
    // Notes joined by `; ` are put into Korean one by one when each is known; else the whole
    // text may be one sentence that itself holds `; ` (the storage message); else each known
    // part is, and the others stay English.
    let parts: Vec<&str> = message.split("; ").collect();
    let each: Vec<Option<String>> = parts.iter().map(|p| localize_part(p)).collect();
    if parts.len() > 1 && each.iter().all(Option::is_some) {
        return particles(&each.into_iter().flatten().collect::<Vec<_>>().join("; "));
    }
    if let Some(ko) = localize_part(message) {
        return particles(&ko);
    }
    particles(&parts.iter().zip(each).map(|(p, k)| k.unwrap_or_else(|| p.to_string())).collect::<Vec<_>>().join("; "))
}

fn localize_part(part: &str) -> Option<String> {
    // `post_id: <sentence>`: a field name (or a path such as `steps[2].clicks[0].post_id`)
    // before the sentence.
    if let Some((field, rest)) = part.split_once(": ") {
        let is_name = !field.is_empty() && field.chars().all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c));
        if is_name {
            if let Some(ko) = localize_sentence(rest, 0) {
                return Some(format!("{field}: {ko}"));
            }
        }
    }
    localize_sentence(part, 0)
}

fn localize_sentence(text: &str, depth: usize) -> Option<String> {
    if depth > 3 {
        return None;
    }
    MESSAGES.iter().find_map(|(en, ko)| {
        let got = holes(en, text)?;
        let mut out = String::new();
        let mut pieces = ko.split("{}");
        out.push_str(pieces.next().unwrap_or(""));
        for (hole, piece) in got.iter().zip(pieces) {
            out.push_str(&localize_sentence(hole, depth + 1).unwrap_or_else(|| hole.to_string()));
            out.push_str(piece);
        }
        Some(out)
    })
}

/// Every message [`localize`] knows: (English pattern, Korean pattern).
pub fn messages() -> impl Iterator<Item = (&'static str, &'static str)> {
    MESSAGES.iter().copied()
}

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

    /// Each particle after each kind of word, worked out by reading the word aloud.
    #[test]
    fn particles_follow_the_last_sound() {
        assert_eq!(particles("배치 6이(가) 내보낸 행"), "배치 6이 내보낸 행"); // 육
        assert_eq!(particles("배치 2이(가) 내보낸 행"), "배치 2가 내보낸 행"); // 이
        assert_eq!(particles("12:01에서 09:25(으)로"), "12:01에서 09:25로"); // 오
        assert_eq!(particles("12:11(으)로"), "12:11로"); // 일: ㄹ takes 로
        assert_eq!(particles("12:10(으)로"), "12:10으로"); // 십
        assert_eq!(particles("'25:99'은(는) 시각이 아닙니다"), "'25:99'는 시각이 아닙니다"); // 구, past the quote
        assert_eq!(particles("문자열 \"banana\"은(는)"), "문자열 \"banana\"는");
        assert_eq!(particles("빈 문자열은(는)"), "빈 문자열은"); // 열: ㄹ
        assert_eq!(particles("조건 post_id > 3을(를) 만족"), "조건 post_id > 3을 만족"); // 삼
        assert_eq!(particles("windw()은(는)"), "windw()는");
        assert_eq!(particles("sql은(는)"), "sql은");
        assert_eq!(particles("SQL은(는)"), "SQL은"); // 엘
        assert_eq!(particles("\"2026-13-45T00:00:00Z\"은(는)"), "\"2026-13-45T00:00:00Z\"는"); // 지
        assert_eq!(particles("dedupeWithinWatermark이(가)"), "dedupeWithinWatermark가"); // 마크
        assert_eq!(particles("StateStoreSaveExec이(가)"), "StateStoreSaveExec이"); // 섹
        assert_eq!(particles("키과(와) 값"), "키와 값");
        assert_eq!(particles("no particle here (가)"), "no particle here (가)");
    }

    #[test]
    fn one_row_is_singular() {
        assert_eq!(rows_en(0u64), "0 rows");
        assert_eq!(rows_en(1u64), "1 row");
        assert_eq!(rows_en(2u64), "2 rows");
        assert_eq!(count_en(1u64, "late row"), "1 late row");
        assert_eq!(format!("{} {} dropped", count_en(3u64, "duplicate row"), was_en(3u64)), "3 duplicate rows were dropped");
    }

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

    #[test]
    fn messages_are_put_into_korean_with_their_holes() {
        // A bad long field (engine text, behind the field name) and a time typo.
        let en = "post_id: the string \"seven\" is not a whole number that fits a long: Spark reads NULL; event_time: '25:00' is not a time of day: write 12:07 or 12:07:30";
        assert_eq!(localize(Lang::En, en), en);
        assert_eq!(
            localize(Lang::Ko, en),
            "post_id: 문자열 \"seven\"은 long에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다; event_time: '25:00'은 시각이 아닙니다. 12:07 또는 12:07:30처럼 쓰세요"
        );
        assert_eq!(localize(Lang::Ko, "no source named 'x'"), "'x'라는 소스가 없습니다");
        // A sentence that itself holds `; ` (the engine's crash message), with two holes.
        assert_eq!(
            localize(Lang::Ko, "simulated crash in batch 5 (mid-sink): the query stopped; restart it on the same checkpoint"),
            "모의 장애, 배치 5 (싱크에 쓰는 도중): 쿼리가 멈췄습니다. 같은 체크포인트로 재시작하세요"
        );
        // Two notes of the same kind stay two notes.
        assert_eq!(
            localize(Lang::Ko, "a: the number 1.5 (with a fraction) is not a whole number that fits a long: Spark reads NULL; b: an empty string is not a whole number that fits a long: Spark reads NULL"),
            "a: 소수가 있는 숫자 1.5는 long에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다; b: 빈 문자열은 long에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다"
        );
        // Two holes, the first one a number.
        assert_eq!(
            localize(Lang::Ko, "this session (12 KB) could not be saved in the browser (QuotaExceededError); it stays open in this tab, but a reload would bring back the last session that was saved: save it as a file to keep it"),
            "이 세션(12 KB)을 브라우저에 저장하지 못했습니다 (QuotaExceededError). 이 탭에는 그대로 열려 있지만 새로 고침하면 마지막으로 저장된 세션이 돌아옵니다. 남기려면 파일로 저장하세요"
        );
        // Unknown text stays as it is; odd text never panics.
        assert_eq!(localize(Lang::Ko, "something else"), "something else");
        for odd in ["", "{}", "; ;", ": :", "the string \"", "the number "] {
            let _ = localize(Lang::Ko, odd);
        }
        for (en, ko) in MESSAGES {
            assert_eq!(en.matches("{}").count(), ko.matches("{}").count(), "{en}");
        }
    }
}
