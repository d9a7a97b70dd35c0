#!/usr/bin/env python3
"""Writes engine/src/frontend/pyspark_signatures.rs: the signatures of PySpark 4.3.0's public
API that a streaming query is written with, read with `inspect.signature` from the PySpark
installed in .venv-spark/ (scripts/spark-check.sh installs it).

    .venv-spark/bin/python scripts/gen_pyspark_api.py

Each method or function becomes one row: its name and its parameters in order, each with its
kind (positional, *args, keyword-only, **kwargs), whether it has a default, and whether a `str`
passed there names a column (PySpark's `ColumnOrName` annotation) or is a literal. The engine
binds a call's positional and keyword arguments with these rows the way Python does, and raises
Python's own TypeError text when they do not fit.
"""
import inspect
import os
import sys

import pyspark
import pyspark.sql.functions as F
from pyspark.sql.classic.column import Column
from pyspark.sql.classic.dataframe import DataFrame
from pyspark.sql.group import GroupedData
from pyspark.sql.session import SparkSession
from pyspark.sql.streaming.query import StreamingQuery, StreamingQueryManager
from pyspark.sql.streaming.readwriter import DataStreamReader, DataStreamWriter
from pyspark.sql.window import Window, WindowSpec

assert pyspark.__version__ == "4.3.0", pyspark.__version__

OUT = os.path.join(os.path.dirname(__file__), "..", "engine", "src", "frontend", "pyspark_signatures.rs")

KIND = {
    inspect.Parameter.POSITIONAL_ONLY: "Pos",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "Pos",
    inspect.Parameter.VAR_POSITIONAL: "VarPos",
    inspect.Parameter.KEYWORD_ONLY: "KwOnly",
    inspect.Parameter.VAR_KEYWORD: "VarKw",
}


def names_column(annotation) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return "ColumnOrName" in text


def params_of(fn, is_method):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    out = []
    for i, p in enumerate(sig.parameters.values()):
        if is_method and i == 0 and p.name in ("self", "cls"):
            continue
        required = p.default is inspect.Parameter.empty and p.kind not in (
            inspect.Parameter.VAR_POSITIONAL,
            inspect.Parameter.VAR_KEYWORD,
        )
        default = None if p.default is inspect.Parameter.empty else p.default
        out.append((p.name, KIND[p.kind], required, names_column(p.annotation), default))
    return out


def members(cls):
    rows = []
    for name in sorted(set(dir(cls))):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(cls, name)
        if isinstance(attr, property):
            rows.append((name, None))  # an attribute, not a method
            continue
        if isinstance(attr, (staticmethod, classmethod)):
            fn = attr.__func__
            rows.append((name, params_of(fn, isinstance(attr, classmethod))))
            continue
        if callable(attr):
            rows.append((name, params_of(attr, True)))
        else:
            rows.append((name, None))
    return rows


def public_functions():
    """`__all__`, and the deprecated camel-case aliases PySpark still defines outside it
    (`countDistinct`, `sumDistinct`, `approxCountDistinct`, `shiftLeft`, ...)."""
    listed = [n for n in F.__all__ if inspect.isfunction(getattr(F, n))]
    extra = [
        n
        for n in dir(F)
        if not n.startswith("_")
        and n not in F.__all__
        and inspect.isfunction(getattr(F, n))
        and getattr(F, n).__module__.startswith("pyspark.sql.functions")
    ]
    return listed, extra


def functions():
    listed, extra = public_functions()
    return [(name, params_of(getattr(F, name), False)) for name in sorted(listed + extra)]


def default_of(d):
    """A default as a Rust `Default`: a literal PySpark passes on to Spark, or `None` (no default,
    or a default the function treats as absent: `None`, or an object that is not a literal)."""
    if d is None or d is inspect.Parameter.empty:
        return "D::None"
    if isinstance(d, bool):
        return f"D::Bool({'true' if d else 'false'})"
    if isinstance(d, int):
        return f"D::Int({d})"
    if isinstance(d, float):
        return f"D::Float({d!r})"
    if isinstance(d, str):
        escaped = d.replace("\\", "\\\\").replace('"', '\\"')
        return f'D::Str("{escaped}")'
    return "D::None"


def rust_rows(const, doc, rows):
    lines = [f"/// {doc}", f"pub static {const}: &[Api] = &["]
    for name, params in rows:
        if params is None:
            lines.append(f'    Api {{ name: "{name}", params: None }},')
            continue
        ps = ", ".join(
            f'p("{n}", {k}, {"true" if r else "false"}, {"true" if c else "false"}, {default_of(d)})'
            for n, k, r, c, d in params
        )
        lines.append(f'    Api {{ name: "{name}", params: Some(&[{ps}]) }},')
    lines.append("];")
    return "\n".join(lines)


def main():
    tables = [
        ("DATAFRAME", "`pyspark.sql.DataFrame` (classic): methods, and attributes with no parameters.", members(DataFrame)),
        ("GROUPED_DATA", "`pyspark.sql.GroupedData`, with the pandas mixin's methods.", members(GroupedData)),
        ("COLUMN", "`pyspark.sql.Column` (classic).", members(Column)),
        ("FUNCTIONS", "`pyspark.sql.functions` (`__all__`, functions only).", functions()),
        ("DATA_STREAM_WRITER", "`pyspark.sql.streaming.DataStreamWriter`.", members(DataStreamWriter)),
        ("DATA_STREAM_READER", "`pyspark.sql.streaming.DataStreamReader`.", members(DataStreamReader)),
        ("STREAMING_QUERY", "`pyspark.sql.streaming.StreamingQuery`.", members(StreamingQuery)),
        ("STREAMING_QUERY_MANAGER", "`pyspark.sql.streaming.StreamingQueryManager` (`spark.streams`).", members(StreamingQueryManager)),
        ("SPARK_SESSION", "`pyspark.sql.SparkSession` (`spark`).", members(SparkSession)),
        ("WINDOW", "`pyspark.sql.Window` (static methods and constants).", members(Window)),
        ("WINDOW_SPEC", "`pyspark.sql.WindowSpec`.", members(WindowSpec)),
    ]
    body = [
        "// @generated by scripts/gen_pyspark_api.py from PySpark 4.3.0; do not edit by hand.",
        "// The signatures of PySpark 4.3.0's public API, generated from its sources with",
        "// `inspect.signature`: every method and function a streaming query is written with, its",
        "// parameters in order, their kinds, and whether a `str` given there names a column",
        "// (`ColumnOrName`). Included into `pyspark_api.rs`.",
        "",
        "use self::Default as D;",
        "use self::ParamKind::{KwOnly, Pos, VarKw, VarPos};",
        "",
        "const fn p(name: &'static str, kind: ParamKind, required: bool, names_column: bool, default: D) -> Param {",
        "    Param { name, kind, required, names_column, default }",
        "}",
        "",
    ]
    for const, doc, rows in tables:
        body.append(rust_rows(const, doc, rows))
        body.append("")
    _, extra = public_functions()
    body.append("/// Functions of `pyspark.sql.functions` outside its `__all__`: deprecated aliases.")
    body.append("pub static FUNCTIONS_NOT_IN_ALL: &[&str] = &[" + ", ".join(f'"{n}"' for n in sorted(extra)) + "];")
    body.append("")
    with open(OUT, "w") as f:
        f.write("\n".join(body))
    print(f"wrote {OUT}: " + ", ".join(f"{c} {len(r)}" for c, _, r in tables), file=sys.stderr)


if __name__ == "__main__":
    main()
