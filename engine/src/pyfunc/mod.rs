//! The Python a learner writes for arbitrary stateful processing: `def func(key, pdfs, state)`
//! for `applyInPandasWithState` and `StatefulProcessor` classes for `transformWithState(InPandas)`,
//! run by a small sandboxed interpreter (no JavaScript eval, no file or network access, a step
//! budget). It reads the statement subset such code uses — `def`, `class`, `if/elif/else`, `for`,
//! `while`, assignment (with unpacking), `return`/`yield`, `assert`, `lambda`, f-strings and raw
//! strings, list/dict/tuple displays and comprehensions — and `pyspark.sql.types`
//! (`value/spark_types.rs`) and the part of pandas such functions touch (`value/pandas.rs` says
//! which and why; it is checked against real pandas by `tests/pandas_subset.rs`).
//!
//! Errors name the line (1-based, in the function text) and use Python's own wording where
//! Python has one (`NameError: name 'x' is not defined`, `IndentationError: …`); the
//! `GroupState` methods raise PySpark 4.3's errors (`python/pyspark/sql/streaming/state.py`).
//! Code real Python runs but the sandbox does not model (a pandas method outside the subset)
//! raises a [`PyError::not_modelled`] error, which stops the batch as unsupported instead of
//! failing it.

pub mod format;
pub mod interp;
mod pandas_frame;
mod pandas_groupby;
pub mod pandas_names;
mod pandas_reduce;
pub mod parse;
pub mod value;

pub use interp::{ClassDef, GroupState, GroupStateTimeout, Interpreter, Object, Val};
pub use value::processor::{Backend, ProcVal, ProcessorBackend, TimeMode, Tuple, VarKind};
pub use parse::{parse_module, unescape, FuncDef, Stmt};

/// How a batch that failed in a Python function says so (Spark's `PythonException`: "An
/// exception was thrown from the Python worker. Please see the stack trace below.").
pub const PYTHON_WORKER: &str = "An exception was thrown from the Python worker";

/// A Python function a query calls (`applyInPandasWithState(count_state, ...)`): its name,
/// its definition and the module it was defined in (its imports and other functions).
#[derive(Debug, Clone)]
pub struct PythonUdf {
    /// The function's name as the query passes it (`count_state`).
    pub name: String,
    /// The parsed `def` of the function.
    pub func: std::rc::Rc<FuncDef>,
    /// The module's globals after its top level ran; each call starts from a copy.
    pub module: Interpreter,
}

impl PartialEq for PythonUdf {
    fn eq(&self, other: &PythonUdf) -> bool {
        self.name == other.name && self.func == other.func
    }
}

impl PythonUdf {
    /// The function `name` of the Python text `source`.
    ///
    /// # Errors
    /// The module's syntax error, what its top level raised, or a `NameError` when it does not
    /// define `name`.
    pub fn from_source(source: &str, name: &str) -> Result<PythonUdf, PyError> {
        let module = parse_module(source)?;
        let interp = Interpreter::new(&module)?;
        let func = interp.function(name).ok_or_else(|| PyError::runtime(format!("NameError: name '{name}' is not defined"), 0))?;
        Ok(PythonUdf { name: name.to_string(), func, module: interp })
    }
}

/// The `StatefulProcessor` instance a query passes to `transformWithStateInPandas`
/// (`CountProc()`): its class, the expression that built it, the instance and its module.
#[derive(Debug, Clone)]
pub struct PythonProcessor {
    /// The name of the processor's class (`CountProc`).
    pub class_name: String,
    /// The call text, e.g. `CountProc()`.
    pub ctor: String,
    /// The instance the constructor built, whose methods (`init`, `handleInputRows`, ...)
    /// the operator calls.
    pub instance: std::rc::Rc<Object>,
    /// The module's globals after its top level and the constructor ran.
    pub module: Interpreter,
    /// `transformWithStateInPandas` (DataFrames in and out) rather than `transformWithState`
    /// (`Row`s).
    pub use_pandas: bool,
}

impl PartialEq for PythonProcessor {
    fn eq(&self, other: &PythonProcessor) -> bool {
        self.ctor == other.ctor && self.use_pandas == other.use_pandas && self.instance.class == other.instance.class
    }
}

impl PythonProcessor {
    /// Builds the processor `ctor` (a call of a class the Python text `source` defines).
    ///
    /// # Errors
    /// The module's syntax error, what its top level or the constructor raised, or a
    /// `TypeError` when `ctor` does not build a class instance.
    pub fn from_source(source: &str, ctor: &str, use_pandas: bool) -> Result<PythonProcessor, PyError> {
        let module = parse_module(source)?;
        let mut interp = Interpreter::new(&module)?;
        match interp.eval_text(ctor).map_err(|mut e| {
            e.line = 0;
            e
        })? {
            Val::Object(instance) => Ok(PythonProcessor { class_name: instance.class.name.clone(), ctor: ctor.to_string(), instance, module: interp, use_pandas }),
            other => Err(PyError::runtime(format!("TypeError: the stateful processor must be an instance of a StatefulProcessor class, not {}", other.type_name()), 0)),
        }
    }
}

/// An error in the Python code or raised while running it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (line {line})")]
pub struct PyError {
    /// Python's wording: `NameError: name 'x' is not defined`, `SyntaxError: …`, or a PySpark
    /// error `PySparkValueError: [INVALID_TIMEOUT_TIMESTAMP] …`.
    pub message: String,
    /// The line in the Python text (1-based); 0 when unknown.
    pub line: usize,
    /// PySpark's error condition when the error is PySpark's (`INVALID_TIMEOUT_TIMESTAMP`).
    pub condition: Option<String>,
}

impl PyError {
    /// A syntax error at `line`.
    pub fn syntax(message: impl Into<String>, line: usize) -> PyError {
        PyError { message: message.into(), line, condition: None }
    }

    /// A runtime error at `line`.
    pub fn runtime(message: impl Into<String>, line: usize) -> PyError {
        PyError { message: message.into(), line, condition: None }
    }

    /// Code that real Python (with pandas and PySpark) runs but Streamlab's sandbox does not
    /// model, named as the conformance runner reports it (`pandas DataFrame.pivot_table()`):
    /// the batch stops with `Error::Unsupported`, never as a Python error of the learner.
    pub fn not_modelled(feature: impl Into<String>, line: usize) -> PyError {
        PyError { message: feature.into(), line, condition: Some(NOT_MODELLED.to_string()) }
    }

    /// True for a [`PyError::not_modelled`] error.
    pub fn is_not_modelled(&self) -> bool {
        self.condition.as_deref() == Some(NOT_MODELLED)
    }
}

/// The condition of a [`PyError::not_modelled`] error, as the failed batch reports it to
/// `MicroBatchExecution` (which turns it into `Error::Unsupported`).
pub const NOT_MODELLED: &str = "STREAMLAB_NOT_MODELLED";

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::interp::{Frame, Series};
    use super::*;

    fn state(value: Option<Vec<Val>>, conf: GroupStateTimeout, wm: Option<i64>) -> Rc<RefCell<GroupState>> {
        Rc::new(RefCell::new(GroupState { value, updated: false, removed: false, timeout_ms: None, has_timed_out: false, conf, watermark_ms: wm, batch_ts_ms: 0 }))
    }

    fn frame(cols: Vec<(&str, Vec<Val>)>) -> Val {
        let len = cols.first().map_or(0, |c| c.1.len());
        Val::Frame(Rc::new(Frame { columns: cols.into_iter().map(|(n, v)| (n.to_string(), v)).collect(), len, index: None }))
    }

    fn run(src: &str, name: &str, args: Vec<Val>) -> Result<Val, PyError> {
        let module = parse_module(src)?;
        let mut it = Interpreter::new(&module)?;
        let f = it.function(name).expect("defined");
        it.call(&f, args)
    }

    const COUNT: &str = "import pandas as pd\ndef count_state(key, pdfs, state):\n    n = state.get[0] if state.exists else 0\n    for pdf in pdfs:\n        n += len(pdf)\n    state.update((n,))\n    yield pd.DataFrame({'user_id': [key[0]], 'n': [n]})\n";

    #[test]
    fn the_running_count_reads_state_counts_rows_and_yields_one_frame() {
        // Stored count 2, three new rows: the function stores and yields 2 + 3 = 5.
        let st = state(Some(vec![Val::Int(2)]), GroupStateTimeout::NoTimeout, None);
        let pdf = frame(vec![("user_id", vec![Val::Str("u1".into()); 3])]);
        let key = Val::Tuple(Rc::new(vec![Val::Str("u1".into())]));
        let out = run(COUNT, "count_state", vec![key, Val::List(Rc::new(RefCell::new(vec![pdf]))), Val::State(Rc::clone(&st))]).expect("runs");
        let Val::List(items) = out else { panic!("a generator yields a list") };
        let Val::Frame(f) = &items.borrow()[0] else { panic!("a DataFrame") };
        assert_eq!(f.columns, vec![("user_id".to_string(), vec![Val::Str("u1".into())]), ("n".to_string(), vec![Val::Int(5)])]);
        assert_eq!(st.borrow().value, Some(vec![Val::Int(5)]));
        assert!(st.borrow().updated);
    }

    /// A generator expression as a call's only argument (`sum(len(p) for p in pdfs)`, as the
    /// PySpark docs write it), and `str` of a tz-naive pandas Timestamp (Spark 4.3:
    /// `str(pdf['event_time'].max())` is `2026-01-01 12:07:00`).
    #[test]
    fn a_generator_argument_and_a_timestamps_text() {
        let src = "def f(pdfs):\n    n = sum(len(p) for p in pdfs)\n    last = max(p['t'].max() for p in pdfs)\n    return (n, str(last), any(x > 1 for x in [1, 2]))\n";
        let t0 = 1_767_268_800_000i64 * 1_000_000; // 2026-01-01T12:00:00Z in ns
        let a = frame(vec![("t", vec![Val::Timestamp(t0), Val::Timestamp(t0 + 420_000_000_000)])]);
        let b = frame(vec![("t", vec![Val::Timestamp(t0 + 60_000_000_000)])]);
        let out = run(src, "f", vec![Val::List(Rc::new(RefCell::new(vec![a, b])))]).expect("runs");
        assert_eq!(out, Val::Tuple(Rc::new(vec![Val::Int(3), Val::Str("2026-01-01 12:07:00".into()), Val::Bool(true)])));
    }

    #[test]
    fn series_arithmetic_unpacking_and_min_max() {
        // Two timestamps 12:00 and 12:02 on 2026-01-01 (1767268800000 ms): astype('int64') is
        // ns, // 1000000 gives ms; min and max are the first and the last.
        let src = "def f(pdf):\n    ms = pdf['t'].astype('int64') // 1000000\n    lo, hi = int(ms.min()), int(ms.max())\n    return (lo, hi, hi - lo)\n";
        let t0 = 1_767_268_800_000i64 * 1_000_000;
        let pdf = frame(vec![("t", vec![Val::Timestamp(t0 + 120_000_000_000), Val::Timestamp(t0)])]);
        let out = run(src, "f", vec![pdf]).expect("runs");
        assert_eq!(out, Val::Tuple(Rc::new(vec![Val::Int(1_767_268_800_000), Val::Int(1_767_268_920_000), Val::Int(120_000)])));
    }

    #[test]
    fn timeouts_follow_pyspark_rules() {
        let src = "def f(state, t):\n    state.setTimeoutTimestamp(t)\n";
        // Below the watermark: PySpark's INVALID_TIMEOUT_TIMESTAMP, on line 2.
        let st = state(None, GroupStateTimeout::EventTimeTimeout, Some(1000));
        let e = run(src, "f", vec![Val::State(st), Val::Int(999)]).expect_err("below the watermark");
        assert_eq!(e.condition.as_deref(), Some("INVALID_TIMEOUT_TIMESTAMP"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("Timeout timestamp (999) cannot be earlier than the current watermark (1000)."), "{}", e.message);
        // Without EventTimeTimeout: CANNOT_WITHOUT.
        let st = state(None, GroupStateTimeout::NoTimeout, None);
        let e = run(src, "f", vec![Val::State(st), Val::Int(5000)]).expect_err("no event-time timeout");
        assert_eq!(e.condition.as_deref(), Some("CANNOT_WITHOUT"));
        // Equal to the watermark is allowed.
        let st = state(None, GroupStateTimeout::EventTimeTimeout, Some(1000));
        run(src, "f", vec![Val::State(Rc::clone(&st)), Val::Int(1000)]).expect("at the watermark");
        assert_eq!(st.borrow().timeout_ms, Some(1000));
    }

    #[test]
    fn raw_strings_fstrings_lambdas_and_asserts_read_as_python() {
        // CPython 3.11: r'\d+' keeps its backslash; f'{a != b}' is 'True'; f"{'x'!r}" is "'x'";
        // a lambda reads the names of the scope it was written in.
        let src = "def f(a, b):\n    k = 10\n    add = lambda x, y=1: x + y + k\n    return (r'\\d+', f'{a != b}', f\"{'x'!r}\", add(a), add(a, b))\n";
        let out = run(src, "f", vec![Val::Int(1), Val::Int(2)]).expect("runs");
        let s = |x: &str| Val::Str(x.into());
        assert_eq!(out, Val::Tuple(Rc::new(vec![s("\\d+"), s("True"), s("'x'"), Val::Int(12), Val::Int(13)])));
        let e = run("def f(n):\n    assert n > 0, f'n is {n}'\n", "f", vec![Val::Int(-1)]).expect_err("fails");
        assert_eq!((e.message.as_str(), e.line), ("AssertionError: n is -1", 2));
    }

    #[test]
    fn an_endless_loop_stops_with_the_line() {
        let e = run("def f():\n    n = 0\n    while True:\n        n += 1\n", "f", vec![]).expect_err("stopped");
        assert!(e.message.contains("steps"), "{}", e.message);
        assert!(e.line >= 3, "{}", e.line);
    }

    #[test]
    fn syntax_and_name_errors_point_at_the_line() {
        let e = parse_module("def f(x):\n    y = (x +\n    return y\n").expect_err("unclosed");
        assert!(e.line >= 2, "{e:?}");
        let e = parse_module("def f(x):\n    y = 1\n      z = 2\n").expect_err("indent");
        assert_eq!((e.message.as_str(), e.line), ("IndentationError: unexpected indent", 3));
        // CPython 3.11's words for a header without its colon, and a body not indented (at the
        // body's line).
        let e = parse_module("def process(df, epoch_id)\n    df.show()\n").expect_err("colon");
        assert_eq!((e.message.as_str(), e.line), ("SyntaxError: expected ':'", 1));
        let e = parse_module("def process(df, epoch_id):\n\ndf.show()\n").expect_err("indent");
        assert_eq!((e.message.as_str(), e.line), ("IndentationError: expected an indented block after function definition on line 1", 3));
        let e = parse_module("def process(df, epoch_id):\n").expect_err("no body");
        assert_eq!((e.message.as_str(), e.line), ("IndentationError: expected an indented block after function definition on line 1", 2));
        let e = parse_module("def f(x):\n    if x > 1:\n    return 2\n").expect_err("indent");
        assert_eq!((e.message.as_str(), e.line), ("IndentationError: expected an indented block after 'if' statement on line 2", 3));
        // Well formed: a multi-line header, a one-line block, a colon in a string.
        assert!(parse_module("def f(a,\n      b):\n    if a: return b\n    return ':'\n").is_ok());
        assert!(parse_module("def f(a):\n    \"\"\"\n    for each key, count\n    \"\"\"\n    return a\n").is_ok(), "a docstring line is not a header");
        let e = run("def f():\n    return zz + 1\n", "f", vec![]).expect_err("name");
        assert_eq!((e.message.as_str(), e.line), ("NameError: name 'zz' is not defined", 2));
    }

    #[test]
    fn classes_have_methods_self_attributes_and_inherited_methods() {
        // `Counter(5).bump(2)` twice: 5 + 2 + 2 = 9; `Sub` inherits `bump` and adds `twice`.
        let src = "class Counter:\n    def __init__(self, start):\n        self.n = start\n    def bump(self, k):\n        self.n += k\n        return self.n\nclass Sub(Counter):\n    def twice(self):\n        return self.bump(1) + self.bump(1)\ndef f():\n    c = Counter(5)\n    c.bump(2)\n    s = Sub(0)\n    return (c.bump(2), s.twice(), s.n)\n";
        let out = run(src, "f", vec![]).expect("runs");
        assert_eq!(out, Val::Tuple(Rc::new(vec![Val::Int(9), Val::Int(3), Val::Int(2)])));
        // A missing attribute names the class and the line.
        let e = run("class A:\n    pass\ndef f():\n    a = A()\n    return a.zz\n", "f", vec![]).expect_err("no attribute");
        assert_eq!((e.message.as_str(), e.line), ("AttributeError: 'A' object has no attribute 'zz'", 5));
    }

    #[test]
    fn a_processor_instance_is_built_from_its_class() {
        let src = "from pyspark.sql.streaming import StatefulProcessor\nclass P(StatefulProcessor):\n    def init(self, handle):\n        self.h = handle\n";
        let p = PythonProcessor::from_source(src, "P()", true).expect("builds");
        assert_eq!(p.class_name, "P");
        let e = PythonProcessor::from_source(src, "Q()", true).expect_err("no class Q");
        assert_eq!(e.message, "NameError: name 'Q' is not defined");
    }

    #[test]
    fn comprehensions_conditionals_and_sorting() {
        let src = "def f(pdf):\n    acts = [a.upper() for a in pdf.sort_values('t')['a'] if a != 'x']\n    return acts if len(acts) > 1 else None\n";
        let pdf = frame(vec![("t", vec![Val::Int(3), Val::Int(1), Val::Int(2)]), ("a", vec![Val::Str("c".into()), Val::Str("a".into()), Val::Str("x".into())])]);
        let out = run(src, "f", vec![pdf]).expect("runs");
        assert_eq!(out, Val::List(Rc::new(RefCell::new(vec![Val::Str("A".into()), Val::Str("C".into())]))));
        let _ = Series::new(None, vec![]);
    }

    #[test]
    fn sorted_min_and_max_take_a_key_and_sorted_stays_stable_reversed() {
        // Worked in CPython 3.11: by key (the second item, then the first); reverse=True keeps
        // equal keys in their order; min/max give the first of equal keys.
        let src = "def f(rows):\n    by = sorted(rows, key=lambda r: (r[1], r[0]))\n    rev = sorted(rows, key=lambda r: r[1], reverse=True)\n    return [by, rev, min(rows, key=lambda r: r[1]), max(rows, key=lambda r: r[1]), sorted([3, 1, 2], key=None)]\n";
        let t = |a: &str, b: i64| Val::Tuple(Rc::new(vec![Val::Str(a.into()), Val::Int(b)]));
        let list = |v: Vec<Val>| Val::List(Rc::new(RefCell::new(v)));
        let rows = list(vec![t("b", 2), t("a", 1), t("c", 2), t("d", 1)]);
        let out = run(src, "f", vec![rows]).expect("runs");
        assert_eq!(
            out,
            list(vec![
                list(vec![t("a", 1), t("d", 1), t("b", 2), t("c", 2)]),
                list(vec![t("b", 2), t("c", 2), t("a", 1), t("d", 1)]),
                t("a", 1),
                t("b", 2),
                list(vec![Val::Int(1), Val::Int(2), Val::Int(3)]),
            ])
        );
    }
}
