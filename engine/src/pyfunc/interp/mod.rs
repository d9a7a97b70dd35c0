//! Runs parsed Python: the `Interpreter` (a module's globals, calls, the step budget), as
//! CPython's eval loop does in miniature. Statements are in `exec.rs`, expressions in `expr.rs`,
//! operators in `ops.rs`, attributes and methods in `attrs.rs`, subscripts in `subscript.rs`,
//! the builtins in `builtins.rs`. Values are in [`super::value`], `GroupState` in
//! [`super::value::group_state`], the pandas subset in [`super::value::pandas`].

mod attrs;
mod builtins;
mod exec;
mod expr;
mod ops;
mod subscript;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

pub use super::value::pandas::{Frame, Series};
pub use super::value::group_state::{GroupState, GroupStateTimeout};
pub use super::value::{ClassDef, Object, Val};
pub(super) use super::value::{iterate_plain, key_cmp, py_eq};
use super::parse::{FuncDef, Stmt, StmtKind};
use super::PyError;

/// How many statements and expressions one call may evaluate before it is stopped (an
/// infinite loop ends with a clear error instead of hanging the page).
pub const STEP_BUDGET: u64 = 2_000_000;
/// The longest list, string or DataFrame a function may build.
pub const MAX_ITEMS: usize = 1_000_000;
/// The deepest chain of Python calls.
pub const MAX_CALL_DEPTH: usize = 50;

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Val),
}

/// Runs the functions of one module. Holds the module's globals and a step counter per call.
#[derive(Debug, Clone)]
pub struct Interpreter {
    globals: BTreeMap<String, Val>,
    steps: u64,
    depth: usize,
    /// The query clock (ms since the epoch) that `time.time()` reads: the batch's
    /// processing time, set by the operator before it calls the function
    /// ([`Interpreter::set_clock_ms`]).
    clock_ms: i64,
}

pub(super) type R<T> = Result<T, PyError>;

struct Scope {
    locals: BTreeMap<String, Val>,
    yielded: Option<Vec<Val>>,
}

impl Interpreter {
    /// Runs a module's top level (imports, definitions, constants).
    ///
    /// # Errors
    /// What the top level raised (for example an unknown module in an `import`).
    pub fn new(module: &[Stmt]) -> R<Interpreter> {
        let mut it = Interpreter { globals: BTreeMap::new(), steps: 0, depth: 0, clock_ms: 0 };
        let mut frame = Scope { locals: BTreeMap::new(), yielded: None };
        for s in module {
            match it.exec(s, &mut frame)? {
                Flow::Normal => {}
                _ => return Err(PyError::runtime("SyntaxError: 'return' outside function", s.line)),
            }
        }
        it.globals = frame.locals;
        Ok(it)
    }

    /// The function named `name` defined at the top level, if any.
    pub fn function(&self, name: &str) -> Option<Rc<FuncDef>> {
        match self.globals.get(name) {
            Some(Val::Func(f)) => Some(Rc::clone(f)),
            _ => None,
        }
    }

    /// The value of the top-level name `name`, if the module defines it.
    pub fn global(&self, name: &str) -> Option<Val> {
        self.globals.get(name).cloned()
    }

    /// Calls the method `name` of the instance `obj` with `args` (after `self`), with a fresh
    /// step budget; `Ok(None)` when the class does not define it.
    ///
    /// # Errors
    /// What the method raised, with its line.
    pub fn call_method(&mut self, obj: &Rc<Object>, name: &str, args: Vec<Val>) -> R<Option<Val>> {
        let Some(Val::Func(f)) = obj.class.attrs.get(name).cloned() else { return Ok(None) };
        self.steps = 0;
        let mut all = vec![Val::Object(Rc::clone(obj))];
        all.extend(args);
        self.call_func(&f, all, Vec::new(), f.line).map(Some)
    }

    /// Evaluates the expression text `src` (for example `CountProc()`) against the module's
    /// globals.
    ///
    /// # Errors
    /// Its syntax error or what it raised.
    pub fn eval_text(&mut self, src: &str) -> R<Val> {
        let module = super::parse::parse_module(src)?;
        let mut frame = Scope { locals: BTreeMap::new(), yielded: None };
        let mut last = Val::None;
        for s in &module {
            if let StmtKind::Expr(e) = &s.kind {
                self.steps = 0;
                last = self.eval(e, &mut frame)?;
            } else {
                return Err(PyError::syntax("SyntaxError: expected an expression", s.line));
            }
        }
        Ok(last)
    }

    /// Calls `f` with `args`; a generator function returns what it yielded, as a list.
    ///
    /// # Errors
    /// What the function raised, with its line; more than [`STEP_BUDGET`] steps is an error.
    pub fn call(&mut self, f: &Rc<FuncDef>, args: Vec<Val>) -> R<Val> {
        self.steps = 0;
        self.call_func(f, args, Vec::new(), f.line)
    }

    fn step(&mut self, line: usize) -> R<()> {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return Err(PyError::runtime(
                format!("the function ran more than {STEP_BUDGET} steps and was stopped (an endless loop?)"),
                line,
            ));
        }
        Ok(())
    }

    fn call_func(&mut self, f: &Rc<FuncDef>, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        self.call_func_in(f, args, kwargs, line, None)
    }

    /// Calls `f`; a lambda also sees `env`, the names of the scope it was written in.
    fn call_func_in(&mut self, f: &Rc<FuncDef>, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize, env: Option<&BTreeMap<String, Val>>) -> R<Val> {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(PyError::runtime("RecursionError: maximum recursion depth exceeded", line));
        }
        let mut locals = env.cloned().unwrap_or_default();
        let n = f.params.len();
        if args.len() > n {
            return Err(PyError::runtime(format!("TypeError: {}() takes {n} positional arguments but {} were given", f.name, args.len()), line));
        }
        let mut args = args.into_iter();
        for (pname, default) in &f.params {
            let v = match args.next() {
                Some(v) => v,
                None => match kwargs.iter().find(|(k, _)| k == pname) {
                    Some((_, v)) => v.clone(),
                    None => match default {
                        Some(d) => {
                            let mut tmp = Scope { locals: BTreeMap::new(), yielded: None };
                            self.eval(d, &mut tmp)?
                        }
                        None => return Err(PyError::runtime(format!("TypeError: {}() missing 1 required positional argument: '{pname}'", f.name), line)),
                    },
                },
            };
            locals.insert(pname.clone(), v);
        }
        let mut frame = Scope { locals, yielded: f.generator.then(Vec::new) };
        self.depth += 1;
        let r = self.exec_block(&f.body, &mut frame);
        self.depth -= 1;
        let flow = r?;
        if let Some(items) = frame.yielded {
            return Ok(Val::List(Rc::new(RefCell::new(items))));
        }
        Ok(match flow {
            Flow::Return(v) => v,
            _ => Val::None,
        })
    }

    pub(super) fn iterate(&self, v: &Val, line: usize) -> R<Vec<Val>> {
        iterate_plain(v, line)
    }

    /// Calls a Python callable value (a function, a lambda, a builtin, a bound method).
    pub(super) fn apply_value(&mut self, f: Val, args: Vec<Val>, line: usize) -> R<Val> {
        self.apply(f, args, Vec::new(), line)
    }

    /// Sets the clock `time.time()` reads: the batch's processing time (ms since the epoch), so
    /// a state function's "now" is the lab's deterministic clock.
    pub fn set_clock_ms(&mut self, ms: i64) {
        self.clock_ms = ms;
    }

    /// Calls the builtin `name` (`int`, `float`, `pd.Timestamp`, ...).
    pub(super) fn call_builtin(&mut self, name: &str, args: Vec<Val>, line: usize) -> R<Val> {
        self.builtin(name, args, Vec::new(), line)
    }

    fn apply(&mut self, f: Val, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        match f {
            Val::Func(def) => self.call_func(&def, args, kwargs, line),
            Val::Lambda(def, env) => self.call_func_in(&def, args, kwargs, line, Some(&env)),
            Val::Builtin(name) => self.builtin(name, args, kwargs, line),
            Val::Method(obj, name) => self.method(*obj, &name, args, kwargs, line),
            Val::Class(c) => {
                let obj = Rc::new(Object { class: Rc::clone(&c), attrs: RefCell::new(BTreeMap::new()) });
                match c.attrs.get("__init__") {
                    Some(Val::Func(init)) => {
                        let mut all = vec![Val::Object(Rc::clone(&obj))];
                        all.extend(args);
                        self.call_func(init, all, kwargs, line)?;
                    }
                    _ if !args.is_empty() || !kwargs.is_empty() => return Err(PyError::runtime(format!("TypeError: {}() takes no arguments", c.name), line)),
                    _ => {}
                }
                Ok(Val::Object(obj))
            }
            Val::Module("typing") => Ok(Val::None),
            other => Err(PyError::runtime(format!("TypeError: '{}' object is not callable", other.type_name()), line)),
        }
    }
}
