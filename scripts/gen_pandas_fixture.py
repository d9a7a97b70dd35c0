#!/usr/bin/env python3
"""Writes engine/tests/fixtures/pandas_subset.json: small Python functions written the way state
functions use pandas, each run with the real pandas in .venv-spark/ (the version PySpark 4.3.0's
workers use), with the value each returned in a canonical JSON form. The engine's test
`pandas_subset.rs` runs every function in Streamlab's sandbox and compares.

    .venv-spark/bin/python scripts/gen_pandas_fixture.py

Canonical form: a DataFrame is {"frame": {"columns", "index", "index_names", "data"}}, a Series
{"series": {"name", "index", "values"}}, a Timestamp {"ts": ns}, a Timedelta {"td": ns}, NaN and
NaT "NaN", tuples and lists lists, a dict {"dict": [[k, v], ...]}, numpy scalars Python ones.
"""
import json
import math
import os

import numpy as np
import pandas as pd

OUT = os.path.join(os.path.dirname(__file__), "..", "engine", "tests", "fixtures", "pandas_subset.json")

PRELUDE = """import pandas as pd
"""

# (name, source defining f() -> value)
CASES = [
    ("pyspark-docstring-count-and-loc", """
def f():
    pdf = pd.DataFrame({'id': ['a', 'a', 'b'], 'temperature': [50, 120, 101]})
    count = pdf.count().get('temperature')
    violations = pdf.loc[pdf['temperature'] > 100]
    return (count, violations.count().get('temperature'), list(violations.index))
"""),
    ("frame-from-tuple-key-and-scalars", """
def f():
    key = ('u1',)
    return pd.DataFrame({'id': key, 'count': 3, 'label': str(7)})
"""),
    ("groupby-sum-reset-index", """
def f():
    df = pd.DataFrame({'k': ['b', 'a', 'b', None], 'v': [1, 2, 3, 4], 'w': [1.5, 2.5, 3.5, 4.5]})
    return df.groupby('k').sum().reset_index()
"""),
    ("groupby-named-agg", """
def f():
    df = pd.DataFrame({'k': ['b', 'a', 'b'], 'v': [1, 2, 3]})
    return df.groupby('k').agg(total=('v', 'sum'), n=('v', 'count'), top=('v', 'max')).reset_index()
"""),
    ("groupby-size-and-count", """
def f():
    df = pd.DataFrame({'k': ['b', 'a', 'b'], 'v': [1, None, 3]})
    return (df.groupby('k').size(), df.groupby('k')['v'].count(), df.groupby('k', as_index=False)['v'].sum())
"""),
    ("groupby-two-keys-series", """
def f():
    df = pd.DataFrame({'k': ['x', 'x', 'y', 'x'], 'j': [2, 1, 1, 2], 'v': [10, 20, 30, 40]})
    return df.groupby(['k', 'j'])['v'].sum().reset_index()
"""),
    ("groupby-agg-dict-and-mean", """
def f():
    df = pd.DataFrame({'k': ['a', 'b', 'a'], 'v': [1, 2, 4], 'w': [3, 4, 5]})
    return (df.groupby('k').agg({'v': 'mean', 'w': 'min'}), df.groupby('k')['v'].agg(['sum', 'max']))
"""),
    ("groupby-iteration", """
def f():
    df = pd.DataFrame({'k': ['b', 'a', 'b'], 'v': [1, 2, 3]})
    return [(k, len(g), int(g['v'].sum()), list(g.index)) for k, g in df.groupby('k')]
"""),
    ("value-counts-ties-and-normalize", """
def f():
    s = pd.Series(['x', 'y', 'y', 'z', 'x', None], name='c')
    return (s.value_counts(), s.value_counts(normalize=True))
"""),
    ("fillna-isin-apply-map", """
def f():
    s = pd.Series([1.0, None, 3.0])
    t = pd.Series(['a', 'b', 'c'])
    return (s.fillna(0), t.isin(['a', 'c']), s.apply(lambda x: x * 2), t.map({'a': 1, 'b': 2}), s.isna())
"""),
    ("iloc-loc-at", """
def f():
    df = pd.DataFrame({'a': [10, 20, 30], 'b': ['x', 'y', 'z']})
    sub = df[df['a'] > 10]
    return (df.iloc[0]['b'], df.iloc[-1]['a'], sub.iloc[0]['a'], sub.loc[2, 'b'], df.at[1, 'a'], df.iat[2, 1], sub['a'][1], df.loc[df['a'] >= 20, 'b'], df.iloc[1:3])
"""),
    ("unique-nunique-tolist-shape-empty", """
def f():
    df = pd.DataFrame({'a': [3, 1, 3, 2]})
    return (list(df['a'].unique()), df['a'].nunique(), df['a'].to_list(), df.shape, df.empty, df[df['a'] > 5].empty, len(df))
"""),
    ("assign-rename-drop", """
def f():
    df = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})
    out = df.assign(c=lambda d: d['a'] + d['b'], d=5).rename(columns={'a': 'x'}).drop(columns=['b'])
    return (out, list(out.columns))
"""),
    ("merge-inner-and-left", """
def f():
    left = pd.DataFrame({'k': [1, 2, 3], 'v': ['a', 'b', 'c']})
    right = pd.DataFrame({'k': [3, 1, 1], 'w': [30, 10, 11]})
    return (left.merge(right, on='k'), pd.merge(left, right, on='k', how='left'))
"""),
    ("concat-ignore-index", """
def f():
    a = pd.DataFrame({'x': [1, 2]})
    b = pd.DataFrame({'x': [3], 'y': ['z']})
    return (pd.concat([a, b], ignore_index=True), list(pd.concat([a, b]).index))
"""),
    ("timestamp-arithmetic", """
def f():
    t = pd.Timestamp('2026-01-01 12:00:00')
    later = t + pd.Timedelta(minutes=10)
    s = pd.Series([pd.Timestamp('2026-01-01 12:07:30'), pd.Timestamp('2026-01-01 12:01:00')])
    return (later, (later - t).total_seconds(), s.max(), s.min(), s.dt.hour, s.dt.floor('5min'), (s.max() - s.min()) // pd.Timedelta(seconds=1), t.floor('h'), later.minute)
"""),
    ("timestamps-as-int64", """
def f():
    s = pd.Series([pd.Timestamp('2026-01-01 12:00:00'), pd.Timestamp('2026-01-01 12:00:05')])
    return (s.astype('int64') // 10**9).tolist()
"""),
    ("sort-values-two-keys-head-tail", """
def f():
    df = pd.DataFrame({'a': [2, 1, 2, 1], 'b': [1, 2, 3, 4]})
    s = df.sort_values(['a', 'b'], ascending=[True, False])
    return (s, s.head(2), s.tail(1), list(df.sort_values('b', ascending=False).index))
"""),
    ("drop-duplicates-keep-last", """
def f():
    df = pd.DataFrame({'u': ['a', 'b', 'a'], 'n': [1, 2, 3]})
    return (df.drop_duplicates(subset=['u'], keep='last'), df.drop_duplicates(subset='u'))
"""),
    ("fstrings-and-formats", """
def f():
    x, n, name = 3.14159, 42, 'ab'
    return [f'{x:.2f}', f'{n:>5}', f'{n:05d}', f'{name!r}', f'{1234567:,}', f'{name}-{n}', f'{{literal}}', f'{0.25:.0%}']
"""),
    ("iterrows-itertuples", """
def f():
    df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})
    rows = [(i, r['a'], r.b) for i, r in df.iterrows()]
    tups = [(t.Index, t.a, t.b) for t in df.itertuples()]
    return (rows, tups)
"""),
    ("str-accessor", """
def f():
    s = pd.Series(['Apple pie', 'banana', None])
    return (s.str.upper(), s.str.contains('an'), s.str.len(), s.str.startswith('A'))
"""),
    ("set-column-and-frame-reductions", """
def f():
    df = pd.DataFrame({'a': [1, 2, 3], 'b': [4.0, None, 6.0]})
    df['c'] = df['a'] * 2
    df['d'] = 'x'
    return (df, df[['a', 'b', 'c']].sum(), df['b'].mean(), df[['a', 'c']].max())
"""),
    ("series-labels-and-get", """
def f():
    s = pd.Series([10, 20, 30], index=['x', 'y', 'z'])
    return (s['y'], s.get('w', -1), s.idxmax(), s.to_dict(), list(s.items()))
"""),
    ("lambda-closure-and-assert", """
def f():
    limit = 15
    s = pd.Series([10, 20, 30])
    big = s[s.apply(lambda v: v > limit)]
    assert len(big) == 2, 'two values'
    return big.tolist()
"""),
    ("ten-minutes-selection", """
def f():
    df = pd.DataFrame({'A': [1, -2, 3, 4], 'B': [0.5, 1.5, 2.5, 3.5], 'E': ['one', 'two', 'three', 'four']})
    return (df.loc[:, ['A', 'B']], df[df['A'] > 0], df[df['E'].isin(['two', 'four'])], df.iloc[1:3], df.loc[1:2], df.loc[2, 'E'])
"""),
    ("ten-minutes-operations", """
def f():
    df = pd.DataFrame({'A': [1, 2, 3], 'B': [10, 20, 40]})
    return (df.mean(), df.apply(lambda x: x.max() - x.min()), df['B'].cumsum(), df['B'].diff(), df['A'].between(2, 3))
"""),
    ("ten-minutes-grouping", """
def f():
    df = pd.DataFrame({'A': ['foo', 'bar', 'foo', 'bar', 'foo'], 'B': ['one', 'one', 'two', 'three', 'two'], 'C': [1, 2, 3, 4, 5], 'D': [1.0, 2.0, 3.0, 4.0, 5.0]})
    return (df.groupby('A')[['C', 'D']].sum(), df.groupby(['A', 'B']).sum().reset_index(), df.groupby('A').C.max())
"""),
    ("state-function-idioms", """
def f():
    pdf = pd.DataFrame({'user': ['u1', 'u1', 'u1'], 'amount': [5, 15, 10], 'ts': [pd.Timestamp('2026-01-01 12:00:00'), pd.Timestamp('2026-01-01 12:02:00'), pd.Timestamp('2026-01-01 12:01:00')]})
    last = pdf.sort_values('ts').iloc[-1]
    recs = pdf.to_dict('records')
    big = pdf[pdf.amount >= 10]
    return (pdf.shape[0], last['amount'], recs[0]['user'], int(pdf['amount'].sum()), big['amount'].tolist(), pdf['ts'].max(), pd.Timestamp(1767268800000, unit='ms'), isinstance(pdf, pd.DataFrame))
"""),
]


def canon(v):
    if isinstance(v, pd.DataFrame):
        return {"frame": {
            "columns": [str(c) for c in v.columns],
            "index": [canon(i) for i in v.index],
            "index_names": [None if n is None else str(n) for n in v.index.names],
            "data": [[canon(x) for x in row] for row in v.itertuples(index=False, name=None)],
        }}
    if isinstance(v, pd.Series):
        return {"series": {
            "name": None if v.name is None else str(v.name),
            "index": [canon(i) for i in v.index],
            "values": [canon(x) for x in v.tolist()],
        }}
    if v is pd.NaT:
        return "NaN"
    if isinstance(v, pd.Timestamp):
        return {"ts": int(v.value)}
    if isinstance(v, pd.Timedelta):
        return {"td": int(v.value)}
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, (list, tuple)):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {"dict": [[canon(k), canon(x)] for k, x in v.items()]}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise TypeError("no canonical form for %r" % (v,))


def main():
    out = {"pandas_version": pd.__version__, "prelude": PRELUDE, "cases": []}
    for name, src in CASES:
        ns = {}
        exec(PRELUDE + src, ns)
        out["cases"].append({"name": name, "source": src.lstrip("\n"), "expected": canon(ns["f"]())})
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print("wrote", OUT, len(CASES), "cases")


if __name__ == "__main__":
    main()
