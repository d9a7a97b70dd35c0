#!/usr/bin/env python3
"""Writes engine/tests/fixtures/print_schema.json: streaming DataFrames built the way learners
build them, each with what PySpark 4.3.0 (in .venv-spark/) prints for `df.printSchema()` and
`print(df.schema)`. The engine's test `print_schema.rs` builds every program in the lab and
compares, so the nullability it reports is Spark's, operator by operator.

    .venv-spark/bin/python scripts/gen_schema_fixture.py

The sources are the lab's: `clicks`, a streaming JSON file source with a schema (as the
conformance harness reads it), and `posts`, a static table read from JSON.
"""
import json
import os
import tempfile

from pyspark.sql import SparkSession, functions as F, types as T

OUT = os.path.join(os.path.dirname(__file__), "..", "engine", "tests", "fixtures", "print_schema.json")

# Each a Python expression over `clicks`, `posts`, `F`; printed as the program
# `df = <expr>` then `df.printSchema()` and `print(df.schema)`.
NESTED = "clicks.groupBy(F.window('event_time', '10 minutes'), 'post_id').agg(F.collect_list(F.struct('user_id', F.split('event_id', ',').alias('parts'))).alias('l'))"
# (expression, level): `df.printSchema(level)`, fields down to that depth.
LEVELS = [(NESTED, 1), (NESTED, 2), (NESTED, 3), (NESTED, -1)]
CASES = [
    NESTED,
    "clicks",
    "clicks.groupBy('post_id').count()",
    "clicks.withWatermark('event_time', '10 minutes').groupBy(F.window('event_time', '10 minutes', '5 minutes'), 'post_id').count()",
    "clicks.groupBy(F.session_window('event_time', '5 minutes'), 'user_id').agg(F.count('*').alias('n'), F.collect_list('event_id'), F.avg('post_id'))",
    "clicks.groupBy(F.lit(1).alias('k')).agg(F.count('*').alias('c'), F.lit(2).alias('two'))",
    "clicks.select('event_id', (F.col('post_id') + 1).alias('p1'), F.lit(1).alias('one'), F.lit(None).alias('nul'), F.current_timestamp().alias('now'), F.coalesce('user_id', F.lit('x')).alias('c'))",
    "clicks.select(F.when(F.col('post_id') > 1, 'a').otherwise('b').alias('w'), F.when(F.col('post_id') > 1, 'a').alias('w2'), (F.lit(1) / F.lit(2)).alias('d'), (F.lit(1) + F.lit(2)).alias('s'), F.col('user_id').isNull().alias('n'))",
    "clicks.select(F.struct('event_id', F.lit(1).alias('one')).alias('st'), F.array('post_id', F.lit(2)).alias('ar'), F.array(F.lit(1), F.lit(2)).alias('ar2'), F.split('user_id', ',').alias('sp'))",
    "clicks.select(F.explode(F.split('user_id', ',')).alias('word'))",
    "clicks.select(F.explode(F.split('user_id', ',')).alias('word')).groupBy('word').count()",
    "clicks.select(F.posexplode(F.array('post_id', F.lit(2))))",
    "clicks.select(F.explode_outer(F.split('user_id', ',')).alias('w'))",
    "clicks.select(F.window('event_time', '10 minutes'))",
    "clicks.select(F.window('event_time', '10 minutes', '5 minutes'))",
    "clicks.select(F.concat_ws('-', 'user_id', 'event_id').alias('cw'), F.concat('user_id', F.lit('x')).alias('cc'), F.hash('user_id').alias('h'), F.upper(F.lit('a')).alias('u'))",
    "clicks.select(F.to_json(F.struct('post_id')).alias('j'), F.size(F.split('user_id', ',')).alias('sz'), F.lit('1').cast('int').alias('ci'), F.length(F.lit('abc')).alias('len'))",
    "clicks.withColumn('k', F.lit(7)).withWatermark('event_time', '1 minute').where('post_id > 1')",
    "clicks.withColumn('k', F.lit(7)).dropDuplicates(['event_id'])",
    "clicks.withColumn('k', F.lit(7)).withWatermark('event_time', '1 minute').dropDuplicatesWithinWatermark(['event_id'])",
    "clicks.withColumn('k', F.lit(7)).limit(3)",
    "clicks.withColumn('k', F.lit(7)).join(posts.withColumn('s', F.lit(1)), 'post_id')",
    "clicks.withColumn('k', F.lit(7)).join(posts.withColumn('s', F.lit(1)), 'post_id', 'left')",
    "clicks.withColumn('k', F.lit(7)).alias('a').withWatermark('event_time', '1 minute').join(clicks.alias('b').withWatermark('event_time', '1 minute'), F.expr('a.post_id = b.post_id AND a.event_time BETWEEN b.event_time AND b.event_time + interval 1 minute'))",
    "clicks.select(F.lit(1).alias('a')).union(clicks.select(F.col('post_id').cast('int').alias('a')))",
    "clicks.select(F.lit(1).alias('a')).union(clicks.select(F.lit(2).alias('a')))",
]


def main():
    spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    d = tempfile.mkdtemp()
    schema = T.StructType([T.StructField("event_id", T.StringType()), T.StructField("user_id", T.StringType()),
                           T.StructField("post_id", T.LongType()), T.StructField("event_time", T.TimestampType())])
    ns = {
        "F": F,
        "clicks": spark.readStream.schema(schema).json(d),
        "posts": spark.read.schema("post_id long, board string").json(d),
    }
    out = []
    for expr in CASES:
        df = eval(expr, ns)
        out.append({"query": expr, "print_schema": df._jdf.schema().treeString(), "schema_repr": repr(df.schema)})
    for expr, level in LEVELS:
        df = eval(expr, ns)
        # What `df.printSchema(level)` prints (PySpark 4.3 passes a non-zero level on).
        out.append({"query": expr, "level": level, "print_schema": df._jdf.schema().treeString(level), "schema_repr": repr(df.schema)})
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(out)} cases written to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
