#!/usr/bin/env python3
"""Times real Spark on the engine's classic benchmark batch (engine/benches/floor.rs).

    python scripts/bench_spark.py <events>     # prints "median_ms <ms>"

The same events as `streamlab_engine::workloads::clicks` (2026-01-01T12:00:00Z plus 90 ms per
event, 100 posts, 1,000 users) in one JSON file of a file source, the classic query
(10-minute windows sliding 5 minutes, 10-minute watermark, append) with a no-op foreachBatch,
`local[2]` with 2 shuffle partitions. One warm-up run, then the median of 5 runs of
`lastProgress.batchDuration` of the data batch (a fresh query and checkpoint each run).
"""
import datetime
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

os.environ["TZ"] = "UTC"
time.tzset()
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

BASE = datetime.datetime(2026, 1, 1, 12, 0, 0)


def events(n):
    for i in range(n):
        t = BASE + datetime.timedelta(microseconds=i * 90_000)
        yield {"event_id": "e%d" % i, "user_id": "u%d" % (i % 1000), "post_id": i % 100,
               "event_time": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}


def one_run(spark, n, work):
    src = os.path.join(work, "src")
    os.makedirs(src)
    with open(os.path.join(src, "events.json"), "w") as f:
        for e in events(n):
            f.write(json.dumps(e) + "\n")
    schema = T.StructType([T.StructField("event_id", T.StringType()), T.StructField("user_id", T.StringType()),
                           T.StructField("post_id", T.LongType()), T.StructField("event_time", T.TimestampType())])
    df = spark.readStream.schema(schema).json(src)
    q = (df.withWatermark("event_time", "10 minutes").groupBy(F.window("event_time", "10 minutes", "5 minutes"), "post_id").count()
         .writeStream.outputMode("append").option("checkpointLocation", os.path.join(work, "ckpt"))
         .foreachBatch(lambda d, i: d.count()).start())
    q.processAllAvailable()
    durations = [p["batchDuration"] for p in q.recentProgress if p["numInputRows"] > 0]
    q.stop()
    return durations[0]


def main():
    n = int(sys.argv[1])
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    times = []
    for k in range(6):
        work = tempfile.mkdtemp(prefix="streamlab-bench-spark-")
        try:
            ms = one_run(spark, n, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if k > 0:  # the first run warms the JVM up
            times.append(ms)
    spark.stop()
    print("median_ms %.1f" % statistics.median(times))


if __name__ == "__main__":
    main()
