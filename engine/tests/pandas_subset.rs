//! The pandas subset against real pandas: every function of `fixtures/pandas_subset.json`
//! (written as state functions use pandas, each run with the pandas PySpark 4.3.0's workers
//! use by `scripts/gen_pandas_fixture.py`) runs in Streamlab's sandbox and must return the
//! value pandas returned — frames with their columns, index labels and index names, series
//! with their name and labels. Numbers compare by value (pandas makes an int column with a
//! missing value float; the sandbox keeps ints where they are whole), within 1e-9.
#![allow(clippy::disallowed_methods)] // a test may read files

use std::path::PathBuf;

use serde_json::{json, Value as Json};
use streamlab_engine::pyfunc::value::pandas::Index;
use streamlab_engine::pyfunc::{parse_module, Interpreter, Val};

fn labels(index: &Option<std::rc::Rc<Index>>, n: usize) -> Vec<Json> {
    match index {
        Some(i) => i.labels.iter().map(canon).collect(),
        None => (0..n as i64).map(|i| json!(i)).collect(),
    }
}

/// The canonical JSON of a sandbox value, in the generator's shape.
fn canon(v: &Val) -> Json {
    match v {
        Val::None => Json::Null,
        Val::Bool(b) => json!(b),
        Val::Int(i) => json!(i),
        Val::Float(f) if f.is_nan() => json!("NaN"),
        Val::Float(f) => json!(f),
        Val::Str(s) => json!(s.as_ref()),
        Val::Tuple(t) => Json::Array(t.iter().map(canon).collect()),
        Val::List(l) => Json::Array(l.borrow().iter().map(canon).collect()),
        Val::Dict(d) => json!({ "dict": d.borrow().iter().map(|(k, x)| json!([canon(k), canon(x)])).collect::<Vec<_>>() }),
        Val::Timestamp(ns) => json!({ "ts": ns }),
        Val::Timedelta(ns) => json!({ "td": ns }),
        Val::Series(s) => json!({ "series": {
            "name": s.name,
            "index": labels(&s.index, s.values.len()),
            "values": s.values.iter().map(canon).collect::<Vec<_>>(),
        }}),
        Val::Frame(f) => json!({ "frame": {
            "columns": f.columns.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
            "index": labels(&f.index, f.len),
            "index_names": f.index.as_ref().map_or_else(|| vec![None], |i| i.names.clone()),
            "data": (0..f.len).map(|r| f.columns.iter().map(|(_, c)| canon(&c[r])).collect::<Vec<_>>()).collect::<Vec<_>>(),
        }}),
        other => json!(format!("<{}>", other.type_name())),
    }
}

/// Equal JSON, numbers by value within 1e-9 (relative).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
        }
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Json::Object(x), Json::Object(y)) => x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| same(p, q))),
        _ => a == b,
    }
}

#[test]
fn the_sandbox_returns_what_pandas_returns() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pandas_subset.json");
    let fixture: Json = serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("JSON");
    let prelude = fixture["prelude"].as_str().unwrap_or_default();
    let mut failures = Vec::new();
    let cases = fixture["cases"].as_array().expect("cases");
    for case in cases {
        let name = case["name"].as_str().unwrap_or_default();
        let src = format!("{prelude}{}", case["source"].as_str().unwrap_or_default());
        let got = parse_module(&src).and_then(|m| {
            let mut it = Interpreter::new(&m)?;
            let f = it.function("f").expect("the case defines f");
            it.call(&f, Vec::new())
        });
        match got {
            Ok(v) if same(&canon(&v), &case["expected"]) => {}
            Ok(v) => failures.push(format!("{name}:\n  pandas:  {}\n  sandbox: {}", case["expected"], canon(&v))),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ from pandas:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn pandas_the_sandbox_lacks_is_not_modelled_and_typos_are_python_errors() {
    let run = |body: &str| {
        let src = format!("import pandas as pd\ndef f():\n    df = pd.DataFrame({{'a': [1, 2]}})\n    return {body}\n");
        let m = parse_module(&src).expect("parses");
        let mut it = Interpreter::new(&m).expect("runs");
        let f = it.function("f").expect("defined");
        it.call(&f, Vec::new()).expect_err("fails")
    };
    // A real pandas method the subset does not have: not modelled, named as the runner says it.
    let e = run("df.pivot_table(index='a')");
    assert!(e.is_not_modelled(), "{e:?}");
    assert_eq!(e.message, "pandas DataFrame.pivot_table()");
    let e = run("df['a'].rolling(2)");
    assert_eq!((e.is_not_modelled(), e.message.as_str()), (true, "pandas Series.rolling()"));
    let e = run("pd.read_csv('x.csv')");
    assert_eq!((e.is_not_modelled(), e.message.as_str()), (true, "pandas pd.read_csv()"));
    // Not a pandas name at all: Python's AttributeError, as pandas raises it.
    let e = run("df.pivot_tabel()");
    assert!(!e.is_not_modelled());
    assert_eq!(e.message, "AttributeError: 'DataFrame' object has no attribute 'pivot_tabel'");
}

#[test]
fn time_and_datetime_read_the_query_clock() {
    let src = "import time\nfrom datetime import datetime\nimport pandas as pd\ndef f():\n    return (time.time(), datetime.fromtimestamp(0) < pd.Timestamp('2026-01-01 00:00:00'), datetime.now() == pd.Timestamp('2026-01-01 12:00:01.5'))\n";
    let m = parse_module(src).expect("parses");
    let mut it = Interpreter::new(&m).expect("runs");
    // 2026-01-01T12:00:01.5Z is 1_767_268_801_500 ms since the epoch (20_454 days of 86_400 s,
    // plus 12 h 0 min 1.5 s).
    it.set_clock_ms(1_767_268_801_500);
    let f = it.function("f").expect("defined");
    let got = canon(&it.call(&f, Vec::new()).expect("returns"));
    assert_eq!(got, json!([1_767_268_801.5, true, true]));
}
