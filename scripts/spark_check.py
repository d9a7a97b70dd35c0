#!/usr/bin/env python3
"""Runs exported Streamlab scripts on real PySpark in ONE Python process with ONE SparkSession.

    python scripts/spark_check.py <folder of exported .py scripts> <folder for recorded .json>

Each script is loaded as a module and its run(spark=..., record=...) writes the scenario with
Spark's `expected` block; the engine is then checked against those files by the conformance
runner (scripts/spark-check.sh). One line per script; exit 1 if a script could not run.
"""
import io
import os
import re
import runpy
import sys
import time
import traceback


def uses_wall_clock(scenario):
    """True if the query's state function times out on processing time (applyInPandasWithState
    with ProcessingTimeTimeout, or transformWithState with timeMode ProcessingTime): Spark then
    runs a batch on every trigger and fires timeouts by its wall clock."""
    text = (scenario.get("prelude") or "") + scenario["query"]
    return "ProcessingTimeTimeout" in text or re.search(r"""timeMode\s*=\s*['"]ProcessingTime['"]""", text) is not None


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    scripts, out = argv
    os.makedirs(out, exist_ok=True)
    paths = sorted(os.path.join(scripts, p) for p in os.listdir(scripts) if p.endswith(".py"))
    t0 = time.time()
    # The scripts pin TZ=UTC before pyspark starts; loading the first one does that here too.
    first = runpy.run_path(paths[0], run_name="streamlab_export")
    from pyspark.sql import SparkSession

    b = SparkSession.builder.master("local[2]").appName("streamlab-spark-check")
    for k, v in dict(first["SPARK_CONF"], **{"spark.ui.enabled": "false"}).items():
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    print("spark %s started in %.1fs; %d scripts" % (spark.version, time.time() - t0, len(paths)), flush=True)
    failures = 0
    for path in paths:
        t = time.time()
        name = os.path.splitext(os.path.basename(path))[0]
        log = io.StringIO()
        try:
            module = runpy.run_path(path, run_name="streamlab_export")
            if uses_wall_clock(module["SCENARIO"]):
                print("%-32s not compared with Spark: its timeouts follow Spark's wall clock, which the lab "
                      "replaces with one second per trigger, so the batches cannot match one for one" % name, flush=True)
                continue
            expected = module["run"](spark=spark, record=os.path.join(out, name + ".json"), out=log)
            err = expected["error"]
            status = "Spark error %s %s" % (err["stage"], err.get("cause_error_class") or err["error_class"]) if err else "ok"
            print("%-32s %3d batches  %-60s %5.1fs" % (name, len(expected["batches"]), status, time.time() - t), flush=True)
        except Exception:  # noqa: BLE001  the script itself failed: report and go on
            failures += 1
            print("SCRIPT FAILED %s\n%s\n%s" % (name, log.getvalue(), traceback.format_exc()), flush=True)
    spark.stop()
    print("%d scripts ran on Spark, %d failed to run, in %.1fs" % (len(paths) - failures, failures, time.time() - t0), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
