#!/usr/bin/env python3
"""Validates exported Jupyter notebooks with nbformat and runs one on real PySpark with nbclient.

    python scripts/notebook_check.py <notebook.ipynb> <recorded.json>

The notebook's last cell is changed to `lab.finish(record=<recorded.json>)`, every cell runs in
a fresh Python kernel (the one this Python has), and the recorded scenario is then checked
against the engine by the conformance runner (scripts/spark-check.sh). Exit 1 on an invalid
notebook or a cell that raised.
"""
import sys

import nbformat
from nbclient import NotebookClient


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    path, record = argv
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)  # raises nbformat.ValidationError
    code = [c for c in nb.cells if c.cell_type == "code"]
    if not code or code[-1].source.strip() != "expected = lab.finish()":
        sys.exit("%s: the last code cell is not `expected = lab.finish()`" % path)
    code[-1].source = "expected = lab.finish(record=%r)" % record
    NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    steps = [c for c in code if c.source.startswith("lab.step(")]
    printed = sum(1 for c in steps for o in c.get("outputs", []) if "-- Batch" in o.get("text", ""))
    print("notebook-check: %s is valid nbformat %d.%d and ran %d cells on Spark; %d step cells printed micro-batches"
          % (path, nb.nbformat, nb.nbformat_minor, len(code), printed))


if __name__ == "__main__":
    main(sys.argv[1:])
