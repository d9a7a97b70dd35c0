#!/usr/bin/env bash
# The path from the lab to real Spark, verified: exports every preset (assets/scenarios) as a
# PySpark script, runs all of them on real PySpark 4.3.0 in one Python process with one
# SparkSession (each script records what Spark did), then checks the engine against those
# recordings batch by batch with the conformance runner. Installs PySpark 4.3.0 into
# .venv-spark/ (ignored by git) and Java 17 from Debian when missing; fails with a clear
# message if it cannot.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$STREAMLAB_ROOT"
t0=$SECONDS

if ! java -version 2>&1 | grep -q 'version "17'; then
  echo "spark-check: installing Java 17 (openjdk-17-jre-headless)"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jre-headless \
    || { echo "spark-check: could not install Java 17, which PySpark needs" >&2; exit 1; }
fi

venv=.venv-spark
# pandas and pyarrow: the applyInPandasWithState presets run Python state functions;
# protobuf: transformWithStateInPandas talks to its Python worker through it; nbformat, nbclient
# and ipykernel: the exported Jupyter notebook is validated and run.
if ! "$venv/bin/python" -c 'import pyspark, pandas, pyarrow, google.protobuf, sys; sys.exit(pyspark.__version__ != "4.3.0")' 2>/dev/null; then
  echo "spark-check: installing PySpark 4.3.0, pandas, pyarrow and protobuf into $venv (about 400 MB)"
  rm -rf "$venv"
  python3 -m venv "$venv" && "$venv/bin/pip" install -q --no-cache-dir --disable-pip-version-check pyspark==4.3.0 'pandas<3' pyarrow protobuf \
    || { echo "spark-check: could not install PySpark 4.3.0, pandas, pyarrow and protobuf into $venv (pip failed; is PyPI reachable?)" >&2; exit 1; }
fi
if ! "$venv/bin/python" -c 'import nbformat, nbclient, ipykernel' 2>/dev/null; then
  "$venv/bin/pip" install -q --no-cache-dir --disable-pip-version-check nbformat nbclient ipykernel \
    || { echo "spark-check: could not install nbformat, nbclient and ipykernel into $venv" >&2; exit 1; }
fi
echo "spark-check: Java and PySpark ready after $((SECONDS - t0))s"

# `--workspace` on every cargo line: the engine is then built with the features `cargo test
# --workspace` already built it with, and not a second time (on a fresh clone, a second debug
# build of the engine and its dependencies is disk CI has run out of).
cargo build --offline --locked -q --workspace --example export
export="${CARGO_TARGET_DIR:-target}/debug/examples/export"
out=target/spark-check
rm -rf "$out"
mkdir -p "$out/scripts" "$out/recorded"
"$export" --all assets/scenarios -o "$out/scripts" >/dev/null
PYSPARK_PYTHON="$STREAMLAB_ROOT/$venv/bin/python" "$venv/bin/python" scripts/spark_check.py "$out/scripts" "$out/recorded"
# The classic preset as a Jupyter notebook: valid nbformat, every cell run on Spark, its record
# checked with the scripts' below.
"$export" assets/scenarios/classic.json --format ipynb -o "$out/classic.ipynb"
mkdir -p "$out/notebook"
PYSPARK_PYTHON="$STREAMLAB_ROOT/$venv/bin/python" "$venv/bin/python" scripts/notebook_check.py "$out/classic.ipynb" "$out/notebook/classic-notebook.json"
python3 -c "import json,sys; p=sys.argv[1]; d=json.load(open(p)); d['id']='classic-notebook'; json.dump(d, open(p,'w'), indent=1)" "$out/notebook/classic-notebook.json"
mv "$out/notebook/classic-notebook.json" "$out/recorded/"
STREAMLAB_CONFORMANCE_DIR="$STREAMLAB_ROOT/$out/recorded" cargo test --offline --locked -q --workspace --test conformance
echo "spark-check: every preset's exported script, and the classic preset's notebook, ran on Spark 4.3.0 and matched the engine (but those on the wall clock, named above), in $((SECONDS - t0))s"
