"""Records what Spark does with a memory sink in update mode (the oracle harness writes through
foreachBatch, so a sink's own output-mode rule needs a probe of its own).

Run: PYSPARK_PYTHON=<venv>/bin/python <venv>/bin/python memory-sink-update.py > memory-sink-update.json
Prints one JSON object: the Spark version, the memory table after each micro-batch, and whether
start() accepted the mode. Nothing in it is edited by hand.
"""
import json
import os
import tempfile

from pyspark.sql import SparkSession
from pyspark.sql.types import LongType, StructField, StructType

spark = (SparkSession.builder.master("local[2]")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.sql.session.timeZone", "UTC").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
folder = tempfile.mkdtemp()


def write(i, rows):
    with open(os.path.join(folder, "part-%d.json" % i), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def table():
    return [r.asDict() for r in spark.table("counts").orderBy("post_id", "count").collect()]


out = {"spark_version": spark.version, "id": "memory-sink-update",
       "query": "clicks.groupBy('post_id').count()  # .writeStream.format('memory').queryName('counts').outputMode('update').start()"}
write(0, [{"post_id": 1}, {"post_id": 1}, {"post_id": 2}])
clicks = spark.readStream.schema(StructType([StructField("post_id", LongType())])).json(folder)
try:
    q = (clicks.groupBy("post_id").count().writeStream.format("memory")
         .queryName("counts").outputMode("update").start())
    out["start"] = "accepted"
    q.processAllAvailable()
    out["table_after_batch_0"] = table()
    write(1, [{"post_id": 1}])
    q.processAllAvailable()
    out["table_after_batch_1"] = table()
    q.stop()
except Exception as e:  # noqa: BLE001 - the probe records whatever Spark raises
    out["start"] = "rejected: %s: %s" % (type(e).__name__, str(e)[:400])
print(json.dumps(out, indent=1, sort_keys=True))
