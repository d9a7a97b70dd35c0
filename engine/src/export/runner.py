
# ------------------------------------------------------------------------------------------------
# The runner (the same in every exported script). Nothing below needs editing to run the
# scenario; to use your own data, change SCENARIO above or replace read_stream() with a real
# source (spark.readStream.format("kafka")..., .format("socket")...).
# ------------------------------------------------------------------------------------------------
import argparse
import ast
import datetime
import decimal
import json
import os
import re
import shutil
import sys
import tempfile
import time

# Timestamps are shown in UTC, as in the lab: pin the Python side before pyspark starts.
os.environ["TZ"] = "UTC"
if hasattr(time, "tzset"):
    time.tzset()

from pyspark.sql import DataFrame, SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql import types as T  # noqa: E402
from pyspark.sql import Row, Window  # noqa: E402
from pyspark.sql.streaming import DataStreamReader, DataStreamWriter  # noqa: E402

# Session settings the lab assumes. Spark's JSON reader would otherwise skip rows that a
# pushed-down filter rejects while parsing, and numInputRows would count fewer rows than the lab.
SPARK_CONF = {
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.shuffle.partitions": "2",
    "spark.sql.json.filterPushdown.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.extraJavaOptions": "-Duser.timezone=UTC",
    "spark.executor.extraJavaOptions": "-Duser.timezone=UTC",
}
SCHEMA_TYPES = {
    "string": T.StringType(), "long": T.LongType(), "int": T.IntegerType(), "double": T.DoubleType(),
    "boolean": T.BooleanType(), "timestamp": T.TimestampType(),
    # Binary columns (a Kafka record's key and value) travel through the JSON files as text.
    "binary": T.StringType(),
}
STEP_TIMEOUT_S = 300


class ExportError(Exception):
    """The scenario itself cannot be run (not something Spark did)."""


class StepSplit(Exception):
    """One step's files reached Spark in two micro-batches (the file source listed one
    source's folder before another's file landed); the run is repeated."""


def make_spark():
    b = SparkSession.builder.master("local[2]").appName("streamlab-" + SCENARIO["id"])
    for k, v in SPARK_CONF.items():
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    return spark


# ---- values ----------------------------------------------------------------------------------
def fmt_ts(dt):
    """'YYYY-MM-DDTHH:MM:SS[.ffffff]Z' in UTC, the fraction only when it is not zero."""
    if dt.tzinfo is not None:
        dt = dt.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    s = "%04d-%02d-%02dT%02d:%02d:%02d" % (dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second)
    return s + (".%06d" % dt.microsecond if dt.microsecond else "") + "Z"


def fmt_progress_ts(s):
    """lastProgress writes '2026-01-01T12:04:00.000Z'; shown like every other timestamp."""
    if s is None:
        return None
    return fmt_ts(datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ"))


def to_json_value(v):
    if isinstance(v, Row):
        return {k: to_json_value(x) for k, x in zip(v.__fields__, v)}
    if isinstance(v, datetime.datetime):
        return fmt_ts(v)
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("utf-8", "replace")
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return [to_json_value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): to_json_value(x) for k, x in v.items()}
    return v


def struct_of(schema):
    fields = []
    for name, typ in schema:
        if typ not in SCHEMA_TYPES:
            raise ExportError("column %r has type %r; the script reads %s" % (name, typ, ", ".join(SCHEMA_TYPES)))
        fields.append(T.StructField(name, SCHEMA_TYPES[typ], True))
    return T.StructType(fields)


# ---- sources ---------------------------------------------------------------------------------
def source_schema(name):
    feed = FEEDS.get(name)
    return feed["schema"] if feed else SCENARIO["sources"][name]["schema"]


def step_rows(name, k):
    """The rows source `name` receives at step k: the lab's rows, or for a Kafka topic or the
    rate source the records the lab's source made of them (FEEDS)."""
    feed = FEEDS.get(name)
    if feed:
        steps = feed["steps"]
        return steps[k] if k < len(steps) else []
    return SCENARIO["steps"][k].get(name) or []


def read_stream(spark, name, folder):
    """A file source over `folder`, one JSON file per step: one step is one micro-batch.
    Stands in for every source kind of the lab, so the script runs anywhere."""
    spec = SCENARIO["sources"][name]
    schema = source_schema(name)
    per_trigger = (spec.get("options") or {}).get("maxFilesPerTrigger", 1) if spec.get("kind") == "file" else 1
    df = spark.readStream.schema(struct_of(schema)).option("maxFilesPerTrigger", int(per_trigger)).json(folder)
    for col, typ in schema:
        if typ == "binary":
            df = df.withColumn(col, F.col(col).cast("binary"))
    return df


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def write_step(folders, k):
    """Every source's file for step k, written under a hidden name (the file source ignores
    names starting with '.') and then renamed into place back to back."""
    staged = []
    for name, folder in folders.items():
        rows = step_rows(name, k)
        if rows:
            tmp = os.path.join(folder, ".%06d.json.tmp" % k)
            write_jsonl(tmp, rows)
            staged.append((tmp, os.path.join(folder, "%06d.json" % k)))
    for tmp, final in staged:
        os.rename(tmp, final)


# ---- the query -------------------------------------------------------------------------------
def python_source(text):
    """The lab reads a program's statements as Python does, and also reads a line that starts with
    `.name` as the continuation of the line before it (a chain broken before its dots, as slides
    and notebooks write it). Such lines are joined with a backslash; if the text still does not
    parse, each top-level statement (`name = expr` lines, then the query) is parenthesised."""
    try:
        ast.parse(text)
        return text
    except SyntaxError:
        pass
    lines = text.splitlines()
    joined = []
    for line in lines:
        if re.match(r"^\s*\.[A-Za-z_]", line) and joined:
            k = len(joined) - 1
            while k > 0 and (not joined[k].strip() or joined[k].lstrip().startswith("#")):
                k -= 1
            if "#" not in joined[k]:
                joined[k] = joined[k] + " \\"
                joined = joined[: k + 1] + [l for l in joined[k + 1 :] if l.strip() and not l.lstrip().startswith("#")]
        joined.append(line)
    candidate = "\n".join(joined)
    try:
        ast.parse(candidate)
        return candidate
    except SyntaxError:
        pass
    # Split at lines that start a new `name = ...` statement, then parenthesise each part.
    parts, current = [], []
    for line in lines:
        if re.match(r"^[A-Za-z_][A-Za-z_0-9]*\s*=[^=]", line) and current:
            parts.append("\n".join(current))
            current = []
        current.append(line)
    parts.append("\n".join(current))
    out = []
    for p in parts:
        m = re.match(r"^([A-Za-z_][A-Za-z_0-9]*)\s*=(?!=)(.*)$", p, re.S)
        out.append("%s = (%s\n)" % (m.group(1), m.group(2)) if m else "(%s\n)" % p)
    return "\n".join(out)


class _StartedQuery:
    """What `.start()` returns while the script builds the query: the script starts the query
    itself (with foreachBatch), so `query.awaitTermination()`, `query.stop()` and friends in the
    lab's program do nothing here. What the program reads of it is what a query reads right
    after `start()`, as in the lab: active, no progress yet, initializing its sources."""

    isActive = True
    lastProgress = None
    recentProgress = []
    status = {"message": "Initializing sources", "isDataAvailable": False, "isTriggerActive": False}

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def build_query(spark, namespace):
    """Evaluates the program the way the lab does: its statements in order; the query is the
    DataFrame whose `.writeStream....start()` the program calls, or else the last expression. A
    `.writeStream...` written in the text is read for its DataFrame (the script writes with
    foreachBatch so that it can print every batch)."""
    tree = ast.parse(python_source(SCENARIO["query"]))
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    started = []
    start = DataStreamWriter.start

    def record_start(self, *args, **kwargs):
        started.append(self)
        return _StartedQuery()

    # A reader call in the text (`spark.readStream.format("socket")....load()`, `.json(path)`)
    # reads the scenario's stream, as in the lab, which feeds its streams by name.
    streams = [namespace[n] for n in SCENARIO["sources"] if n in namespace]
    readers = {m: getattr(DataStreamReader, m) for m in ("load", "json", "csv", "parquet", "text", "orc", "xml") if hasattr(DataStreamReader, m)}

    def lab_stream(self, *args, **kwargs):
        if len(streams) == 1:
            return streams[0]
        raise ExportError("spark.readStream with several streams: write one of them by name (%s)" % ", ".join(SCENARIO["sources"]))

    DataStreamWriter.start = record_start  # a `.start()` in the text must not start a query
    for m in readers:
        setattr(DataStreamReader, m, lab_stream)
    # The program runs as a script does: its main block (guarded by the module name) runs.
    namespace.setdefault("__name__", "__main__")
    try:
        if SCENARIO.get("prelude"):
            exec(SCENARIO["prelude"], namespace)  # noqa: S102
        exec(compile(tree, "<query>", "exec"), namespace)  # noqa: S102
        result = eval(compile(last, "<query>", "eval"), namespace) if last is not None else None  # noqa: S307
    finally:
        DataStreamWriter.start = start
        for m, f in readers.items():
            setattr(DataStreamReader, m, f)
    if started:
        result = started[-1]
    if result is None:
        raise ExportError("the program defines no query: end it with a DataFrame or start one with .writeStream...start()")
    if isinstance(result, DataStreamWriter):
        result = result._df
    if not isinstance(result, DataFrame):
        raise TypeError("the query evaluated to %s, not a DataFrame" % type(result).__name__)
    return result


# ---- errors ----------------------------------------------------------------------------------
def condition_of(e):
    for m in ("getCondition", "getErrorClass"):
        f = getattr(e, m, None)
        try:
            c = f() if f else None
        except Exception:  # noqa: BLE001
            c = None
        if c:
            return c
    return None


def error_record(e, stage, workdir):
    def clean(msg):
        msg = msg.replace("file:" + workdir, "<work>").replace(workdir, "<work>")
        msg = re.sub(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", "<uuid>", msg)
        return re.sub(r"#\d+", "#N", msg)[:400]

    rec = {"stage": stage, "class": type(e).__name__, "error_class": condition_of(e), "message": clean(str(e))}
    if stage == "run" and rec["error_class"] in (None, "STREAM_FAILED"):
        # A failure inside a batch: the first cause that carries a Spark error condition.
        origin = getattr(e, "_origin", None)
        cur, seen = (origin.getCause() if origin is not None else None), 0
        while cur is not None and seen < 10:
            seen += 1
            try:
                c = cur.getCondition()
            except Exception:  # noqa: BLE001
                c = None
            if c:
                rec.update(cause_error_class=c, cause_class=cur.getClass().getSimpleName(), cause_message=clean(cur.getMessage()))
                break
            cur = cur.getCause()
    return rec


# ---- progress --------------------------------------------------------------------------------
def executed_progress(q):
    """batchId -> lastProgress of every micro-batch that ran (a trigger that found nothing to do
    also reports progress, without an addBatch duration: skipped)."""
    return {p["batchId"]: p for p in q.recentProgress if "addBatch" in (p.get("durationMs") or {})}


def rows_per_source(p, folders):
    got = {}
    for s in p.get("sources") or []:
        for name, d in folders.items():
            if (s.get("description") or "").endswith(d + "]"):
                got[name] = got.get(name, 0) + (s.get("numInputRows") or 0)
    return got


def batch_entry(batch_id, step, rows, p):
    entry = {"batch_id": batch_id, "step": step, "input_rows": None, "watermark": None, "rows": rows, "state": []}
    if p is not None:
        et = p.get("eventTime") or {}
        entry["input_rows"] = p.get("numInputRows")
        entry["watermark"] = fmt_progress_ts(et.get("watermark"))
        entry["state"] = [{
            "operator": s.get("operatorName"),
            "num_rows_total": s.get("numRowsTotal"),
            "num_rows_updated": s.get("numRowsUpdated"),
            "num_rows_removed": s.get("numRowsRemoved"),
            "num_rows_dropped_by_watermark": s.get("numRowsDroppedByWatermark"),
        } for s in p.get("stateOperators") or []]
        entry["event_time"] = {k: fmt_progress_ts(et[k]) for k in ("min", "max", "avg", "watermark") if k in et}
    return entry


# ---- printing, the way the lab shows a batch -------------------------------------------------
def cell(v):
    if isinstance(v, dict):
        return "{" + ", ".join(cell(x) for x in v.values()) + "}"
    if v is None:
        return "null"
    return str(v)


def print_batch(b, out):
    n = b["input_rows"]
    kind = "no new data" if n == 0 else "%s input row%s" % (n, "" if n == 1 else "s")
    print("-- Batch %d (step %d, %s) %s" % (b["batch_id"], b["step"], kind, "-" * 30), file=out)
    print("   watermark: %s" % (b["watermark"] or "none (the query has no watermark)"), file=out)
    rows = b["rows"]
    print("   rows the sink received: %d" % len(rows), file=out)
    if rows:
        cols = list(rows[0].keys())
        table = [cols] + [[cell(r.get(c)) for c in cols] for r in rows]
        widths = [max(len(line[i]) for line in table) for i in range(len(cols))]
        for line in table:
            print("     " + "  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip(), file=out)
    for s in b["state"]:
        print("   state %s: total %s, updated %s, removed %s, dropped by watermark %s" % (
            s["operator"], s["num_rows_total"], s["num_rows_updated"], s["num_rows_removed"],
            s["num_rows_dropped_by_watermark"]), file=out)


# ---- running ---------------------------------------------------------------------------------
def collector(into):
    def on_batch(df, batch_id):
        rows = [to_json_value(r) for r in df.collect()]
        into.append((batch_id, sorted(rows, key=lambda r: json.dumps(r, ensure_ascii=False))))
    return on_batch


def spark_path(local):
    """A local folder as Spark reads it: the same path, but for Databricks' DBFS mount
    (`/dbfs/tmp/...` written by Python is `dbfs:/tmp/...` for Spark)."""
    return "dbfs:" + local[len("/dbfs"):] if local.startswith("/dbfs/") else local


def writer(qdf, ckpt, trigger, sink):
    w = qdf.writeStream.outputMode(SCENARIO["output_mode"]).option("checkpointLocation", spark_path(ckpt))
    if trigger:
        w = w.trigger(**trigger)
    return w.foreachBatch(sink)


def prepare(spark, workdir):
    """The scenario's sources, static tables and confs on `spark`, and its query: returns
    (expected, qdf, folders, ckpt, saved confs). qdf is None when Spark refused the query while
    it was built (the error is in expected)."""
    ckpt = os.path.join(workdir, "checkpoint")
    expected = {"spark_version": spark.version, "error": None, "output_schema": None, "batches": []}
    saved = {}
    for k, v in (SCENARIO.get("conf") or {}).items():
        saved[k] = spark.conf.get(k, None)
        spark.conf.set(k, str(v))
    namespace = {"F": F, "T": T, "Window": Window, "spark": spark}
    folders = {}
    for name in SCENARIO["sources"]:
        folders[name] = os.path.join(workdir, "sources", name)
        os.makedirs(folders[name])
        namespace[name] = read_stream(spark, name, spark_path(folders[name]))
    for name, spec in (SCENARIO.get("static") or {}).items():
        d = os.path.join(workdir, "static", name)
        os.makedirs(d)
        write_jsonl(os.path.join(d, "part-00000.json"), spec.get("rows", []))
        namespace[name] = spark.read.schema(struct_of(spec["schema"])).json(spark_path(d))
    qdf = None
    try:
        qdf = build_query(spark, namespace)
        expected["output_schema"] = [[f.name, f.dataType.simpleString()] for f in qdf.schema.fields]
    except ExportError:
        raise
    except Exception as e:  # noqa: BLE001
        expected["error"] = error_record(e, "define", workdir)
    return expected, qdf, folders, ckpt, saved


def restore(spark, saved):
    for k, v in saved.items():
        if v is None:
            spark.conf.unset(k)
        else:
            spark.conf.set(k, v)
    for q in spark.streams.active:
        q.stop()
    spark.streams.resetTerminated()


class Steps:
    """Runs the scenario one step at a time, printing each micro-batch as the lab shows it.

    With the default trigger (or processingTime) the query is one long-running query: step k
    writes the step's files, then waits until Spark has read them and is idle again
    (processAllAvailable), so every no-data batch the step causes runs before the next step's
    files appear. With trigger(availableNow=True) or trigger(once=True) each step is one run of
    the query on the same checkpoint, i.e. a query restart per step."""

    def __init__(self, spark, qdf, expected, ckpt, folders, workdir, trigger, out):
        self.spark, self.qdf, self.expected, self.ckpt = spark, qdf, expected, ckpt
        self.folders, self.workdir, self.trigger, self.out = folders, workdir, trigger, out
        self.per_step = bool(trigger) and ("availableNow" in trigger or "once" in trigger)
        self.stopped = qdf is None or expected["error"] is not None
        self.seen, self.n_seen, self.last_batch, self.q = [], 0, -1, None
        if self.stopped or self.per_step:
            return
        plan = qdf._jdf.queryExecution().analyzed().toString()
        self.used = {name: d for name, d in folders.items() if (spark_path(d) + "]") in plan}
        self.want = {name: 0 for name in self.used}
        try:
            self.q = writer(qdf, ckpt, trigger, collector(self.seen)).start()
        except Exception as e:  # noqa: BLE001
            expected["error"] = dict(error_record(e, "start", workdir), step=0)
            self.stopped = True

    def step(self, k):
        """Runs step k; returns False once the query has stopped (an error is in expected)."""
        if self.stopped:
            return False
        if self.per_step:
            return self._restart_step(k)
        written = {name: len(step_rows(name, k)) for name in self.used}
        write_step(self.folders, k)
        for name, n in written.items():
            self.want[name] += n
        run_error, progress = None, {}
        deadline = time.time() + STEP_TIMEOUT_S
        try:
            while True:
                self.q.processAllAvailable()
                progress = executed_progress(self.q)
                got = {name: 0 for name in self.used}
                for p in progress.values():
                    for name, n in rows_per_source(p, self.used).items():
                        got[name] += n
                if got == self.want:
                    break
                if any(got[n] > self.want[n] for n in self.want) or time.time() > deadline:
                    raise ExportError("step %d: Spark read %r rows, the files hold %r" % (k, got, self.want))
        except ExportError:
            raise
        except Exception as e:  # noqa: BLE001
            run_error = e
            progress = executed_progress(self.q)
        new = self.seen[self.n_seen:]
        self.n_seen = len(self.seen)
        if run_error is None:
            data = [b for b, p in progress.items() if b > self.last_batch and (p.get("numInputRows") or 0) > 0]
            if sum(written.values()) and (len(data) != 1 or
                                          {n: c for n, c in rows_per_source(progress[data[0]], self.used).items() if c} !=
                                          {n: c for n, c in written.items() if c}):
                raise StepSplit("step %d reached Spark in batches %r" % (k, data))
        for batch_id, rows in new:
            self.expected["batches"].append(batch_entry(batch_id, k, rows, progress.get(batch_id)))
            print_batch(self.expected["batches"][-1], self.out)
            self.last_batch = max(self.last_batch, batch_id)
        if run_error is not None:
            self.expected["error"] = dict(error_record(run_error, "run", self.workdir), step=k)
            self.stopped = True
        return not self.stopped

    def _restart_step(self, k):
        write_step(self.folders, k)
        seen = []
        try:
            q = writer(self.qdf, self.ckpt, self.trigger, collector(seen)).start()
        except Exception as e:  # noqa: BLE001
            self.expected["error"] = dict(error_record(e, "start", self.workdir), step=k)
            self.stopped = True
            return False
        run_error = None
        try:
            q.awaitTermination()
        except Exception as e:  # noqa: BLE001
            run_error = e
        progress = executed_progress(q)
        self.spark.streams.resetTerminated()
        for batch_id, rows in seen:
            self.expected["batches"].append(batch_entry(batch_id, k, rows, progress.get(batch_id)))
            print_batch(self.expected["batches"][-1], self.out)
        if run_error is not None:
            self.expected["error"] = dict(error_record(run_error, "run", self.workdir), step=k)
            self.stopped = True
        return not self.stopped

    def close(self):
        if self.q is not None:
            self.q.stop()
            self.q = None
        self.spark.streams.resetTerminated()


def run_once(spark, workdir, out):
    expected, qdf, folders, ckpt, saved = prepare(spark, workdir)
    try:
        steps = Steps(spark, qdf, expected, ckpt, folders, workdir, TRIGGER, out)
        try:
            for k in range(len(SCENARIO["steps"])):
                if not steps.step(k):
                    break
        finally:
            steps.close()
        return expected
    finally:
        restore(spark, saved)


def report(expected, record, out):
    """Prints how the run ended and, with `record`, writes the scenario with Spark's
    `expected` block to that path (the conformance format: open it in the lab)."""
    err = expected["error"]
    if err:
        print("Spark stopped the query (%s): [%s] %s" % (err["stage"], err.get("cause_error_class") or err["error_class"],
                                                         err.get("cause_message") or err["message"]), file=out)
    else:
        print("%d micro-batches." % len(expected["batches"]), file=out)
    if record:
        recorded = {k: v for k, v in SCENARIO.items() if k != "expected"}
        recorded["expected"] = expected
        with open(record, "w") as f:
            json.dump(recorded, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print("recorded to %s" % record, file=out)


def run(spark=None, record=None, out=sys.stdout, attempts=5):
    """Runs the scenario on `spark` (a new local session when None), prints every micro-batch,
    and with `record` writes the scenario with Spark's `expected` block to that path.
    Returns the `expected` dict."""
    own = spark is None
    spark = spark or make_spark()
    try:
        for attempt in range(1, attempts + 1):
            workdir = tempfile.mkdtemp(prefix="streamlab-%s-" % SCENARIO["id"])
            try:
                expected = run_once(spark, workdir, out)
                break
            except StepSplit as e:
                print("(%s; running the scenario again, attempt %d)" % (e, attempt + 1), file=out)
            finally:
                shutil.rmtree(workdir, ignore_errors=True)
        else:
            raise ExportError("the steps kept splitting over micro-batches")
        report(expected, record, out)
        return expected
    finally:
        if own:
            spark.stop()


class Notebook:
    """What a notebook's cells call: `lab = Notebook()` builds the sources and the query and
    starts it; `lab.step(k)` feeds step k's events and prints the micro-batches they cause;
    `lab.finish()` stops the query (`lab.finish(record='x.json')` also writes what Spark did).
    On Databricks the notebook's own `spark` is used and the files go to DBFS (WORKDIR_ROOT)."""

    def __init__(self, spark=None, out=sys.stdout, workdir_root=None):
        self.spark = spark or SparkSession.getActiveSession() or make_spark()
        self.out = out
        root = workdir_root or os.environ.get("STREAMLAB_WORKDIR_ROOT")
        if root:
            os.makedirs(root, exist_ok=True)
        self.workdir = tempfile.mkdtemp(prefix="streamlab-%s-" % SCENARIO["id"], dir=root)
        self.expected, qdf, folders, ckpt, self.saved = prepare(self.spark, self.workdir)
        self.steps = Steps(self.spark, qdf, self.expected, ckpt, folders, self.workdir, TRIGGER, out)
        if self.expected["error"]:
            err = self.expected["error"]
            print("Spark refused the query (%s): [%s] %s" % (err["stage"], err["error_class"], err["message"]), file=out)
        else:
            print("The query is running; feed it one step at a time.", file=out)

    def step(self, k):
        if not self.steps.step(k):
            err = self.expected["error"]
            if err:
                print("The query has stopped: [%s] %s" % (err.get("cause_error_class") or err["error_class"],
                                                          err.get("cause_message") or err["message"]), file=self.out)

    def finish(self, record=None):
        self.steps.close()
        restore(self.spark, self.saved)
        shutil.rmtree(self.workdir, ignore_errors=True)
        report(self.expected, record, self.out)
        return self.expected


def main(argv=None):
    ap = argparse.ArgumentParser(description="Runs the Streamlab scenario '%s' on real Spark." % SCENARIO["id"])
    ap.add_argument("--record", metavar="FILE.json",
                    help="also write the scenario with Spark's own `expected` block (open it in the lab)")
    args = ap.parse_args(argv)
    run(record=args.record)


if __name__ == "__main__":
    main()
