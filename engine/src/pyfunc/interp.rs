//! Runs parsed Python: names, statements, calls and the builtins. Values are in
//! [`super::value`], `GroupState` in [`super::group_state`], the pandas subset in
//! [`super::pandas`].

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::pandas::IndexerKind;
pub use super::pandas::{Frame, Series};
pub use super::group_state::{GroupState, GroupStateTimeout};
pub use super::value::{ClassDef, Object, Val};
pub(super) use super::value::{iterate_plain, key_cmp, py_eq};
use super::value::{arith, overflow, parse_ts};
use super::parse::{BinOp, Expr, ExprKind, FuncDef, Stmt, StmtKind, Target, UnOp};
use super::PyError;
use crate::types::time::{NANOS_PER_MICRO, NANOS_PER_MILLI, NANOS_PER_SECOND};

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

    fn exec_block(&mut self, body: &[Stmt], frame: &mut Scope) -> R<Flow> {
        for s in body {
            match self.exec(s, frame)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn lookup(&self, name: &str, frame: &Scope, line: usize) -> R<Val> {
        if let Some(v) = frame.locals.get(name).or_else(|| self.globals.get(name)) {
            return Ok(v.clone());
        }
        let builtin = match name {
            "len" => "len",
            "min" => "min",
            "max" => "max",
            "sum" => "sum",
            "int" => "int",
            "float" => "float",
            "str" => "str",
            "bool" => "bool",
            "abs" => "abs",
            "range" => "range",
            "list" => "list",
            "tuple" => "tuple",
            "sorted" => "sorted",
            "enumerate" => "enumerate",
            "zip" => "zip",
            "round" => "round",
            "print" => "print",
            "isinstance" => "isinstance",
            "dict" => "dict",
            "any" => "any",
            "all" => "all",
            "iter" => "iter",
            "object" => "object",
            _ => return Err(PyError::runtime(format!("NameError: name '{name}' is not defined"), line)),
        };
        Ok(Val::Builtin(builtin))
    }

    fn assign(&mut self, target: &Target, v: Val, frame: &mut Scope, line: usize) -> R<()> {
        match target {
            Target::Name(n) => {
                frame.locals.insert(n.clone(), v);
            }
            Target::Tuple(ts) => {
                let items = self.iterate(&v, line)?;
                if items.len() != ts.len() {
                    return Err(PyError::runtime(
                        if items.len() > ts.len() {
                            format!("ValueError: too many values to unpack (expected {})", ts.len())
                        } else {
                            format!("ValueError: not enough values to unpack (expected {}, got {})", ts.len(), items.len())
                        },
                        line,
                    ));
                }
                for (t, item) in ts.iter().zip(items) {
                    self.assign(t, item, frame, line)?;
                }
            }
            Target::Index(obj, idx) => {
                let o = self.eval(obj, frame)?;
                let i = self.eval(idx, frame)?;
                match o {
                    Val::List(l) => {
                        let mut l = l.borrow_mut();
                        let n = l.len() as i64;
                        let k = i.as_int().ok_or_else(|| PyError::runtime("TypeError: list indices must be integers", line))?;
                        let k = if k < 0 { k + n } else { k };
                        if k < 0 || k >= n {
                            return Err(PyError::runtime("IndexError: list assignment index out of range", line));
                        }
                        l[k as usize] = v;
                    }
                    Val::Dict(d) => {
                        let mut d = d.borrow_mut();
                        match d.iter_mut().find(|(k, _)| *k == i) {
                            Some(slot) => slot.1 = v,
                            None => d.push((i, v)),
                        }
                    }
                    // `df['c'] = ...`: the frame with the column set, stored back where it was
                    // read from (frames are values here; see `pandas.rs`).
                    Val::Frame(f) => {
                        let new = Val::Frame(Rc::new(self.with_column(&f, &i, v, line)?));
                        match &obj.kind {
                            ExprKind::Name(n) => {
                                frame.locals.insert(n.clone(), new);
                            }
                            ExprKind::Attr(owner, attr) => self.assign(&Target::Attr((**owner).clone(), attr.clone()), new, frame, line)?,
                            _ => return Err(PyError::not_modelled("pandas: setting a column of a DataFrame that is not held by a name", line)),
                        }
                    }
                    Val::Indexer(kind, inner) => {
                        let what = if matches!(*inner, Val::Series(_)) { "Series" } else { "DataFrame" };
                        let how = match kind {
                            IndexerKind::Loc => "loc",
                            IndexerKind::ILoc => "iloc",
                            IndexerKind::At => "at",
                            IndexerKind::IAt => "iat",
                        };
                        return Err(PyError::not_modelled(format!("pandas {what}.{how}[...] = ..."), line));
                    }
                    Val::Series(_) => return Err(PyError::not_modelled("pandas Series[...] = ...", line)),
                    other => return Err(PyError::runtime(format!("TypeError: '{}' object does not support item assignment", other.type_name()), line)),
                }
            }
            Target::Attr(obj, name) => match self.eval(obj, frame)? {
                Val::Object(o) => {
                    o.attrs.borrow_mut().insert(name.clone(), v);
                }
                other => return Err(PyError::runtime(format!("AttributeError: '{}' object attribute '{name}' is read-only", other.type_name()), line)),
            },
        }
        Ok(())
    }

    fn exec(&mut self, s: &Stmt, frame: &mut Scope) -> R<Flow> {
        self.step(s.line)?;
        let line = s.line;
        match &s.kind {
            StmtKind::Def(f) => {
                frame.locals.insert(f.name.clone(), Val::Func(Rc::clone(f)));
            }
            StmtKind::Class { name, bases, body } => {
                let mut attrs = BTreeMap::new();
                for b in bases {
                    match self.eval(b, frame)? {
                        Val::Class(c) => attrs.extend(c.attrs.iter().map(|(k, v)| (k.clone(), v.clone()))),
                        // `StatefulProcessor`, `object`, typing names: nothing to inherit.
                        Val::Module(_) | Val::Builtin("object") => {}
                        other => return Err(PyError::runtime(format!("TypeError: a class may not inherit from a {}", other.type_name()), line)),
                    }
                }
                let mut scope = Scope { locals: BTreeMap::new(), yielded: None };
                match self.exec_block(body, &mut scope)? {
                    Flow::Normal => {}
                    _ => return Err(PyError::runtime("SyntaxError: 'return' outside function", line)),
                }
                attrs.extend(scope.locals);
                frame.locals.insert(name.clone(), Val::Class(Rc::new(ClassDef { name: name.clone(), attrs })));
            }
            StmtKind::If { branches, orelse } => {
                for (test, body) in branches {
                    if self.eval(test, frame)?.truthy(line)? {
                        return self.exec_block(body, frame);
                    }
                }
                return self.exec_block(orelse, frame);
            }
            StmtKind::For { target, iter, body } => {
                let it = self.eval(iter, frame)?;
                for item in self.iterate(&it, line)? {
                    self.assign(target, item, frame, line)?;
                    match self.exec_block(body, frame)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::While { test, body } => {
                while self.eval(test, frame)?.truthy(line)? {
                    self.step(line)?;
                    match self.exec_block(body, frame)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::Pass => {}
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Return(v) => {
                let v = match v {
                    Some(e) => self.eval(e, frame)?,
                    None => Val::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Yield(v) => {
                let v = match v {
                    Some(e) => self.eval(e, frame)?,
                    None => Val::None,
                };
                match frame.yielded.as_mut() {
                    Some(items) => {
                        if items.len() >= MAX_ITEMS {
                            return Err(PyError::runtime("the function yielded too many values", line));
                        }
                        items.push(v)
                    }
                    None => return Err(PyError::runtime("SyntaxError: 'yield' outside function", line)),
                }
            }
            StmtKind::Import(names) => {
                for (module, bound) in names {
                    let m = known_module(module).ok_or_else(|| PyError::runtime(format!("ModuleNotFoundError: No module named '{module}' (Streamlab's Python knows pandas, numpy, datetime, time, typing and pyspark)"), line))?;
                    frame.locals.insert(bound.clone(), Val::Module(m));
                }
            }
            StmtKind::FromImport(module, names) => {
                known_module(module).ok_or_else(|| PyError::runtime(format!("ModuleNotFoundError: No module named '{module}'"), line))?;
                for (imported, bound) in names.iter().filter(|(n, _)| n != "*") {
                    // `Row` is a value; other names (StatefulProcessor, type names) only matter in
                    // class bases and annotations.
                    let v = if imported == "Row" && module.starts_with("pyspark") {
                        Val::Builtin("Row")
                    } else if module == "pyspark.sql.types" {
                        super::spark_types::class(imported).unwrap_or(Val::Module("typing"))
                    } else if module == "datetime" && imported == "datetime" {
                        Val::Module("datetime.datetime")
                    } else if module == "pyspark.sql" && imported == "types" {
                        Val::Module("pyspark.sql.types")
                    } else {
                        Val::Module("typing")
                    };
                    frame.locals.insert(bound.clone(), v);
                }
            }
            StmtKind::Assign { targets, value } => {
                let v = self.eval(value, frame)?;
                for t in targets {
                    self.assign(t, v.clone(), frame, line)?;
                }
            }
            StmtKind::AugAssign { target, op, value } => {
                let current = match target {
                    Target::Name(n) => self.lookup(n, frame, line)?,
                    Target::Index(o, i) => {
                        let o = self.eval(o, frame)?;
                        let i = self.eval(i, frame)?;
                        self.index(&o, &i, line)?
                    }
                    Target::Attr(o, name) => {
                        let o = self.eval(o, frame)?;
                        self.attr(o, name, line)?
                    }
                    _ => return Err(PyError::runtime("SyntaxError: illegal expression for augmented assignment", line)),
                };
                let rhs = self.eval(value, frame)?;
                let v = self.binary(*op, current, rhs, line)?;
                self.assign(target, v, frame, line)?;
            }
            StmtKind::Assert(test, message) => {
                if !self.eval(test, frame)?.truthy(line)? {
                    let m = match message {
                        Some(m) => format!("AssertionError: {}", self.eval(m, frame)?.str_value()),
                        None => "AssertionError".to_string(),
                    };
                    return Err(PyError::runtime(m, line));
                }
            }
            StmtKind::Expr(e) => {
                self.eval(e, frame)?;
            }
        }
        Ok(Flow::Normal)
    }

    pub(super) fn iterate(&self, v: &Val, line: usize) -> R<Vec<Val>> {
        iterate_plain(v, line)
    }

    /// Calls a Python callable value (a function, a lambda, a builtin, a bound method).
    pub(super) fn apply_value(&mut self, f: Val, args: Vec<Val>, line: usize) -> R<Val> {
        self.apply(f, args, Vec::new(), line)
    }

    /// Calls the builtin `name` (`int`, `float`, `pd.Timestamp`, ...).
    /// Sets the clock `time.time()` reads: the batch's processing time (ms since the epoch), so
    /// a state function's "now" is the lab's deterministic clock.
    pub fn set_clock_ms(&mut self, ms: i64) {
        self.clock_ms = ms;
    }

    pub(super) fn call_builtin(&mut self, name: &str, args: Vec<Val>, line: usize) -> R<Val> {
        self.builtin(name, args, Vec::new(), line)
    }

    fn eval(&mut self, e: &Expr, frame: &mut Scope) -> R<Val> {
        self.step(e.line)?;
        let line = e.line;
        Ok(match &e.kind {
            ExprKind::None => Val::None,
            ExprKind::Bool(b) => Val::Bool(*b),
            ExprKind::Int(i) => Val::Int(*i),
            ExprKind::Float(f) => Val::Float(*f),
            ExprKind::Str(s) => Val::Str(Rc::from(s.as_str())),
            ExprKind::Name(n) => self.lookup(n, frame, line)?,
            ExprKind::Tuple(items) => Val::Tuple(Rc::new(items.iter().map(|i| self.eval(i, frame)).collect::<R<Vec<_>>>()?)),
            ExprKind::List(items) => Val::List(Rc::new(RefCell::new(items.iter().map(|i| self.eval(i, frame)).collect::<R<Vec<_>>>()?))),
            ExprKind::Dict(items) => {
                let mut out: Vec<(Val, Val)> = Vec::new();
                for (k, v) in items {
                    let k = self.eval(k, frame)?;
                    let v = self.eval(v, frame)?;
                    match out.iter_mut().find(|(x, _)| *x == k) {
                        Some(slot) => slot.1 = v,
                        None => out.push((k, v)),
                    }
                }
                Val::Dict(Rc::new(RefCell::new(out)))
            }
            ExprKind::ListComp { elt, target, iter, conds } => {
                let it = self.eval(iter, frame)?;
                let mut out = Vec::new();
                'items: for item in self.iterate(&it, line)? {
                    self.assign(target, item, frame, line)?;
                    for c in conds {
                        if !self.eval(c, frame)?.truthy(line)? {
                            continue 'items;
                        }
                    }
                    out.push(self.eval(elt, frame)?);
                    if out.len() > MAX_ITEMS {
                        return Err(PyError::runtime("the list grew past the lab's limit", line));
                    }
                }
                Val::List(Rc::new(RefCell::new(out)))
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj, frame)?;
                self.attr(o, name, line)?
            }
            ExprKind::Call { func, args, kwargs } => {
                let f = self.eval(func, frame)?;
                let args = args.iter().map(|a| self.eval(a, frame)).collect::<R<Vec<_>>>()?;
                let kwargs = kwargs.iter().map(|(k, v)| Ok((k.clone(), self.eval(v, frame)?))).collect::<R<Vec<_>>>()?;
                self.apply(f, args, kwargs, line)?
            }
            ExprKind::Index(obj, idx) => {
                let o = self.eval(obj, frame)?;
                if let ExprKind::Slice(_, lo, hi) = &idx.kind {
                    let lo = lo.as_ref().map(|x| self.eval(x, frame)).transpose()?;
                    let hi = hi.as_ref().map(|x| self.eval(x, frame)).transpose()?;
                    return self.slice(&o, lo, hi, line);
                }
                let i = self.eval(idx, frame)?;
                self.index(&o, &i, line)?
            }
            // A slice inside a tuple key (`df.loc[:, 'c']`).
            ExprKind::Slice(_, lo, hi) => {
                let lo = lo.as_ref().map(|x| self.eval(x, frame)).transpose()?.map(Box::new);
                let hi = hi.as_ref().map(|x| self.eval(x, frame)).transpose()?.map(Box::new);
                Val::Slice(lo, hi)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x, frame)?;
                match op {
                    UnOp::Not => Val::Bool(!v.truthy(line)?),
                    UnOp::Pos => v,
                    UnOp::Neg => match v {
                        Val::Int(i) => Val::Int(i.checked_neg().ok_or_else(|| overflow(line))?),
                        Val::Bool(b) => Val::Int(-i64::from(b)),
                        Val::Float(f) => Val::Float(-f),
                        Val::Series(s) => self.map_series(&s, line, |x| match x {
                            Val::Int(i) => Ok(Val::Int(i.checked_neg().ok_or_else(|| overflow(line))?)),
                            Val::Float(f) => Ok(Val::Float(-f)),
                            other => Err(PyError::runtime(format!("TypeError: bad operand type for unary -: '{}'", other.type_name()), line)),
                        })?,
                        other => return Err(PyError::runtime(format!("TypeError: bad operand type for unary -: '{}'", other.type_name()), line)),
                    },
                    UnOp::Invert => match v {
                        Val::Int(i) => Val::Int(!i),
                        Val::Series(s) => self.map_series(&s, line, |x| match x {
                            Val::Bool(b) => Ok(Val::Bool(!b)),
                            other => Err(PyError::runtime(format!("TypeError: bad operand type for unary ~: '{}'", other.type_name()), line)),
                        })?,
                        other => return Err(PyError::runtime(format!("TypeError: bad operand type for unary ~: '{}'", other.type_name()), line)),
                    },
                }
            }
            ExprKind::Binary(BinOp::And, a, b) => {
                let x = self.eval(a, frame)?;
                if x.truthy(line)? {
                    self.eval(b, frame)?
                } else {
                    x
                }
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                let x = self.eval(a, frame)?;
                if x.truthy(line)? {
                    x
                } else {
                    self.eval(b, frame)?
                }
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, frame)?;
                let y = self.eval(b, frame)?;
                self.binary(*op, x, y, line)?
            }
            ExprKind::Lambda(def) => Val::Lambda(Rc::clone(def), Rc::new(frame.locals.clone())),
            ExprKind::FString(parts) => {
                let mut out = String::new();
                for part in parts {
                    match part {
                        super::parse::FPart::Text(t) => out.push_str(t),
                        super::parse::FPart::Value { expr, conversion, spec } => {
                            let v = self.eval(expr, frame)?;
                            let text = if *conversion == Some('r') { v.repr() } else { v.str_value() };
                            out.push_str(&super::format::format_value(&v, &text, spec, line)?);
                        }
                    }
                    if out.len() > MAX_ITEMS {
                        return Err(PyError::runtime("the string grew past the lab's limit", line));
                    }
                }
                Val::Str(Rc::from(out))
            }
            ExprKind::IfElse { body, test, orelse } => {
                if self.eval(test, frame)?.truthy(line)? {
                    self.eval(body, frame)?
                } else {
                    self.eval(orelse, frame)?
                }
            }
        })
    }

    fn map_series(&self, s: &Series, line: usize, f: impl Fn(&Val) -> R<Val>) -> R<Val> {
        let _ = line;
        Ok(Val::Series(Rc::new(s.with_values(s.values.iter().map(f).collect::<R<Vec<_>>>()?))))
    }

    pub(super) fn binary(&self, op: BinOp, x: Val, y: Val, line: usize) -> R<Val> {
        // Element-wise over a Series (with a scalar or a Series of the same length); a
        // missing value gives NaN (False for a comparison, True for `!=`), as in pandas.
        let element = |me: &Self, p: &Val, q: &Val| -> R<Val> {
            if super::pandas::is_na(p) || super::pandas::is_na(q) {
                return Ok(match op {
                    BinOp::Ne => Val::Bool(true),
                    BinOp::Eq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::BitAnd => Val::Bool(false),
                    BinOp::BitOr => Val::Bool(p.truthy(line).unwrap_or(false) && !super::pandas::is_na(p) || q.truthy(line).unwrap_or(false) && !super::pandas::is_na(q)),
                    _ => Val::Float(f64::NAN),
                });
            }
            me.binary(op, p.clone(), q.clone(), line)
        };
        match (&x, &y) {
            (Val::Series(a), Val::Series(b)) => {
                if a.values.len() != b.values.len() {
                    return Err(PyError::runtime("ValueError: Can only compare identically-labeled Series objects", line));
                }
                let values = a.values.iter().zip(&b.values).map(|(p, q)| element(self, p, q)).collect::<R<Vec<_>>>()?;
                return Ok(Val::Series(Rc::new(a.with_values(values))));
            }
            (Val::Series(a), _) if !matches!(op, BinOp::In | BinOp::NotIn | BinOp::Is | BinOp::IsNot) => {
                let values = a.values.iter().map(|p| element(self, p, &y)).collect::<R<Vec<_>>>()?;
                return Ok(Val::Series(Rc::new(a.with_values(values))));
            }
            (_, Val::Series(b)) if !matches!(op, BinOp::In | BinOp::NotIn | BinOp::Is | BinOp::IsNot) => {
                let values = b.values.iter().map(|q| element(self, &x, q)).collect::<R<Vec<_>>>()?;
                return Ok(Val::Series(Rc::new(b.with_values(values))));
            }
            _ => {}
        }
        let unsupported = || PyError::runtime(format!("TypeError: unsupported operand type(s) for {}: '{}' and '{}'", op.symbol(), x.type_name(), y.type_name()), line);
        Ok(match op {
            BinOp::Eq => Val::Bool(py_eq(&x, &y)),
            BinOp::Ne => Val::Bool(!py_eq(&x, &y)),
            BinOp::Is => Val::Bool(matches!((&x, &y), (Val::None, Val::None)) || (matches!((&x, &y), (Val::Bool(_), Val::Bool(_))) && x == y)),
            BinOp::IsNot => Val::Bool(!(matches!((&x, &y), (Val::None, Val::None)) || (matches!((&x, &y), (Val::Bool(_), Val::Bool(_))) && x == y))),
            BinOp::In | BinOp::NotIn => {
                let found = match &y {
                    Val::Str(s) => match &x {
                        Val::Str(n) => s.contains(n.as_ref()),
                        _ => return Err(PyError::runtime("TypeError: 'in <string>' requires string as left operand", line)),
                    },
                    Val::Dict(d) => d.borrow().iter().any(|(k, _)| py_eq(k, &x)),
                    Val::Frame(f) => f.columns.iter().any(|(n, _)| matches!(&x, Val::Str(s) if s.as_ref() == n)),
                    other => self.iterate(other, line)?.iter().any(|v| py_eq(v, &x)),
                };
                Val::Bool(if op == BinOp::In { found } else { !found })
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let ord = match (&x, &y) {
                    (Val::Str(a), Val::Str(b)) => a.cmp(b),
                    (Val::Timestamp(a), Val::Timestamp(b)) | (Val::Timedelta(a), Val::Timedelta(b)) => a.cmp(b),
                    (Val::Tuple(_), Val::Tuple(_)) => key_cmp(&x, &y),
                    _ => match (x.as_f64(), y.as_f64()) {
                        (Some(a), Some(b)) => match a.partial_cmp(&b) {
                            Some(o) => o,
                            None => return Ok(Val::Bool(false)),
                        },
                        _ => {
                            return Err(PyError::runtime(
                                format!("TypeError: '{}' not supported between instances of '{}' and '{}'", op.symbol(), x.type_name(), y.type_name()),
                                line,
                            ))
                        }
                    },
                };
                use std::cmp::Ordering::*;
                Val::Bool(match op {
                    BinOp::Lt => ord == Less,
                    BinOp::Le => ord != Greater,
                    BinOp::Gt => ord == Greater,
                    _ => ord != Less,
                })
            }
            BinOp::Add => match (&x, &y) {
                (Val::Str(a), Val::Str(b)) => Val::Str(Rc::from(format!("{a}{b}"))),
                (Val::List(a), Val::List(b)) => {
                    let mut v = a.borrow().clone();
                    v.extend(b.borrow().iter().cloned());
                    Val::List(Rc::new(RefCell::new(v)))
                }
                (Val::Tuple(a), Val::Tuple(b)) => {
                    let mut v = a.as_ref().clone();
                    v.extend(b.iter().cloned());
                    Val::Tuple(Rc::new(v))
                }
                _ => arith(op, &x, &y, line).ok_or_else(unsupported)??,
            },
            BinOp::Mul => match (&x, &y) {
                (Val::List(a), n) | (n, Val::List(a)) if n.as_int().is_some() => {
                    let n = n.as_int().unwrap_or(0).max(0) as usize;
                    let a = a.borrow();
                    if a.len().saturating_mul(n) > MAX_ITEMS {
                        return Err(PyError::runtime("the list grew past the lab's limit", line));
                    }
                    Val::List(Rc::new(RefCell::new(a.iter().cloned().cycle().take(a.len() * n).collect())))
                }
                (Val::Str(s), n) | (n, Val::Str(s)) if n.as_int().is_some() => {
                    let n = n.as_int().unwrap_or(0).max(0) as usize;
                    if s.len().saturating_mul(n) > MAX_ITEMS {
                        return Err(PyError::runtime("the string grew past the lab's limit", line));
                    }
                    Val::Str(Rc::from(s.repeat(n)))
                }
                _ => arith(op, &x, &y, line).ok_or_else(unsupported)??,
            },
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => match (&x, &y) {
                (Val::Bool(a), Val::Bool(b)) => Val::Bool(match op {
                    BinOp::BitAnd => a & b,
                    BinOp::BitOr => a | b,
                    _ => a ^ b,
                }),
                _ => match (x.as_int(), y.as_int()) {
                    (Some(a), Some(b)) => Val::Int(match op {
                        BinOp::BitAnd => a & b,
                        BinOp::BitOr => a | b,
                        _ => a ^ b,
                    }),
                    _ => return Err(unsupported()),
                },
            },
            BinOp::Mod if matches!(x, Val::Str(_)) => return Err(PyError::runtime("'%' string formatting is not supported here: use + and str()", line)),
            _ => arith(op, &x, &y, line).ok_or_else(unsupported)??,
        })
    }

    fn attr(&mut self, o: Val, name: &str, line: usize) -> R<Val> {
        Ok(match (&o, name) {
            (Val::Object(obj), _) => {
                if let Some(v) = obj.attrs.borrow().get(name) {
                    return Ok(v.clone());
                }
                match obj.class.attrs.get(name) {
                    Some(Val::Func(_)) => Val::Method(Box::new(o.clone()), Rc::from(name)),
                    Some(v) => v.clone(),
                    None => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", obj.class.name), line)),
                }
            }
            (Val::Class(c), _) => c.attrs.get(name).cloned().ok_or_else(|| PyError::runtime(format!("AttributeError: type object '{}' has no attribute '{name}'", c.name), line))?,
            (Val::Row(fields), _) => match fields.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None if name == "asDict" => Val::Method(Box::new(o.clone()), Rc::from(name)),
                None => return Err(PyError::runtime(format!("AttributeError: {name}"), line)),
            },
            (Val::Processor(p), _) => p.attr(&o, name, line)?,
            (Val::Spark(t), _) => super::spark_types::SparkType::attr(t, name, line)?,
            (Val::State(s), _) => {
                let is_method = matches!(name, "update" | "remove" | "setTimeoutDuration" | "setTimeoutTimestamp" | "getCurrentWatermarkMs" | "getCurrentProcessingTimeMs");
                if is_method {
                    Val::Method(Box::new(o.clone()), Rc::from(name))
                } else {
                    s.borrow().attr(name, line)?
                }
            }
            (Val::Frame(f), _) => self.frame_attr(f, &o, name, line)?,
            (Val::Series(s), _) => self.series_attr(s, &o, name, line)?,
            (Val::GroupBy(g), _) => self.groupby_attr(g, &o, name, line)?,
            (Val::Accessor(kind, s), _) => self.accessor_attr(*kind, s, &o, name, line)?,
            (Val::Timestamp(ns), _) => super::pandas_time::timestamp_attr(&o, *ns, name, line)?,
            (Val::Timedelta(ns), _) => super::pandas_time::timedelta_attr(&o, *ns, name, line)?,
            (Val::Module(m), _) => match (*m, name) {
                ("pandas", n) if super::pandas::MODULE_FUNCTIONS.contains(&n) => Val::Builtin(pandas_fn(name)),
                ("pandas", n) => return Err(super::pandas::missing_module_fn(n, line)),
                ("time", "time") => Val::Builtin("time.time"),
                ("datetime", "datetime") => Val::Module("datetime.datetime"),
                ("datetime.datetime", "fromtimestamp" | "utcfromtimestamp") => Val::Builtin("datetime.fromtimestamp"),
                ("datetime.datetime", "now" | "utcnow") => Val::Builtin("datetime.now"),
                ("datetime.datetime", _) => Val::Module("typing"),
                ("numpy", "int64" | "float64") => Val::Builtin(if name == "int64" { "int" } else { "float" }),
                ("pyspark.sql.types", _) => super::spark_types::class(name).unwrap_or(Val::Module("typing")),
                ("typing", _) | ("pyspark", _) | ("datetime", _) => Val::Module("typing"),
                _ => return Err(PyError::runtime(format!("AttributeError: module '{m}' has no attribute '{name}' (not in Streamlab's Python)"), line)),
            },
            (Val::List(_) | Val::Dict(_) | Val::Str(_), _) => Val::Method(Box::new(o.clone()), Rc::from(name)),
            _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", o.type_name()), line)),
        })
    }

    fn index(&mut self, o: &Val, i: &Val, line: usize) -> R<Val> {
        let seq_index = |n: usize| -> R<usize> {
            let k = i.as_int().ok_or_else(|| PyError::runtime(format!("TypeError: indices must be integers, not {}", i.type_name()), line))?;
            let k = if k < 0 { k + n as i64 } else { k };
            if k < 0 || k >= n as i64 {
                return Err(PyError::runtime(format!("IndexError: {} index out of range", o.type_name()), line));
            }
            Ok(k as usize)
        };
        Ok(match o {
            Val::Tuple(t) => t[seq_index(t.len())?].clone(),
            Val::Row(fields) => match i {
                Val::Str(n) => fields.iter().find(|(f, _)| f.as_str() == &**n).map(|(_, v)| v.clone()).ok_or_else(|| PyError::runtime(format!("ValueError: {n}"), line))?,
                _ => fields[seq_index(fields.len())?].1.clone(),
            },
            Val::List(l) => {
                let l = l.borrow();
                l[seq_index(l.len())?].clone()
            }
            Val::Str(s) => {
                let chars: Vec<char> = s.chars().collect();
                Val::Str(Rc::from(chars[seq_index(chars.len())?].to_string()))
            }
            Val::Dict(d) => d.borrow().iter().find(|(k, _)| py_eq(k, i)).map(|(_, v)| v.clone()).ok_or_else(|| PyError::runtime(format!("KeyError: {}", i.repr()), line))?,
            Val::Frame(f) => self.frame_index(f, i, line)?,
            Val::Series(s) => self.series_index(s, i, line)?,
            Val::Indexer(kind, inner) => self.indexer_get(*kind, inner, i, line)?,
            Val::GroupBy(g) => self.groupby_index(g, i, line)?,
            other => return Err(PyError::runtime(format!("TypeError: '{}' object is not subscriptable", other.type_name()), line)),
        })
    }

    fn slice(&mut self, o: &Val, lo: Option<Val>, hi: Option<Val>, line: usize) -> R<Val> {
        let bounds = |n: usize| -> R<(usize, usize)> {
            let fix = |v: Option<Val>, default: usize| -> R<usize> {
                match v {
                    None | Some(Val::None) => Ok(default),
                    Some(v) => {
                        let k = v.as_int().ok_or_else(|| PyError::runtime("TypeError: slice indices must be integers or None", line))?;
                        let k = if k < 0 { (k + n as i64).max(0) } else { k.min(n as i64) };
                        Ok(k as usize)
                    }
                }
            };
            let a = fix(lo.clone(), 0)?;
            let b = fix(hi.clone(), n)?;
            Ok((a, b.max(a)))
        };
        Ok(match o {
            Val::List(l) => {
                let l = l.borrow();
                let (a, b) = bounds(l.len())?;
                Val::List(Rc::new(RefCell::new(l[a..b].to_vec())))
            }
            Val::Tuple(t) => {
                let (a, b) = bounds(t.len())?;
                Val::Tuple(Rc::new(t[a..b].to_vec()))
            }
            Val::Str(s) => {
                let chars: Vec<char> = s.chars().collect();
                let (a, b) = bounds(chars.len())?;
                Val::Str(Rc::from(chars[a..b].iter().collect::<String>()))
            }
            Val::Series(s) => {
                let (a, b) = bounds(s.values.len())?;
                Val::Series(Rc::new(s.take(&(a..b).collect::<Vec<_>>())))
            }
            Val::Frame(f) => {
                let (a, b) = bounds(f.len)?;
                Val::Frame(Rc::new(f.take(&(a..b).collect::<Vec<_>>())))
            }
            Val::Indexer(kind, inner) => return self.indexer_get(*kind, inner, &Val::Slice(lo.map(Box::new), hi.map(Box::new)), line),
            other => return Err(PyError::runtime(format!("TypeError: '{}' object is not subscriptable", other.type_name()), line)),
        })
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

    fn builtin(&mut self, name: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        let kw = |k: &str| kwargs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let one = || args.first().cloned().ok_or_else(|| PyError::runtime(format!("TypeError: {name}() takes at least 1 argument (0 given)"), line));
        Ok(match name {
            // `time.time()`: seconds since the epoch on the query clock.
            "time.time" => Val::Float(self.clock_ms as f64 / 1000.0),
            // `datetime.fromtimestamp(s)`: a naive datetime in the session time zone (UTC in
            // the lab), which compares with pandas' Timestamps; `datetime.now()` is the clock.
            "datetime.fromtimestamp" => match one()? {
                Val::Int(secs) => Val::Timestamp(secs.saturating_mul(1_000_000_000)),
                Val::Float(secs) if secs.is_finite() => Val::Timestamp((secs * 1e9) as i64),
                other => return Err(PyError::runtime(format!("TypeError: 'datetime.datetime.fromtimestamp' needs a number, not '{}'", other.type_name()), line)),
            },
            "datetime.now" => Val::Timestamp(self.clock_ms.saturating_mul(1_000_000)),
            "len" => Val::Int(match one()? {
                Val::Str(s) => s.chars().count(),
                Val::Tuple(t) => t.len(),
                Val::List(l) => l.borrow().len(),
                Val::Dict(d) => d.borrow().len(),
                Val::Frame(f) => f.len,
                Val::Series(s) => s.values.len(),
                Val::GroupBy(g) => Interpreter::groupby_iter(&g).len(),
                Val::Spark(t) => t.fields().map_or(0, <[_]>::len),
                Val::Row(fields) => fields.len(),
                other => return Err(PyError::runtime(format!("TypeError: object of type '{}' has no len()", other.type_name()), line)),
            } as i64),
            "min" | "max" => {
                let items = if args.len() == 1 { self.iterate(&args[0], line)? } else { args };
                if items.is_empty() {
                    return Err(PyError::runtime(format!("ValueError: {name}() arg is an empty sequence"), line));
                }
                let mut best = items[0].clone();
                for v in items.into_iter().skip(1) {
                    let o = key_cmp(&v, &best);
                    if (name == "min" && o == std::cmp::Ordering::Less) || (name == "max" && o == std::cmp::Ordering::Greater) {
                        best = v;
                    }
                }
                best
            }
            "sum" => {
                let mut acc = Val::Int(0);
                for v in self.iterate(&one()?, line)? {
                    acc = self.binary(BinOp::Add, acc, v, line)?;
                }
                acc
            }
            "int" => match args.first().cloned().unwrap_or(Val::Int(0)) {
                Val::Int(i) => Val::Int(i),
                Val::Bool(b) => Val::Int(i64::from(b)),
                Val::Float(f) if f.is_finite() && f.abs() < 9.2e18 => Val::Int(f.trunc() as i64),
                Val::Float(_) => return Err(PyError::runtime("OverflowError: cannot convert float to integer", line)),
                Val::Str(s) => Val::Int(s.trim().parse().map_err(|_| PyError::runtime(format!("ValueError: invalid literal for int() with base 10: '{s}'"), line))?),
                Val::Timestamp(ns) => Val::Int(ns),
                other => return Err(PyError::runtime(format!("TypeError: int() argument must be a string or a number, not '{}'", other.type_name()), line)),
            },
            "float" => match args.first().cloned().unwrap_or(Val::Float(0.0)) {
                Val::Str(s) => Val::Float(s.trim().parse().map_err(|_| PyError::runtime(format!("ValueError: could not convert string to float: '{s}'"), line))?),
                v => Val::Float(v.as_f64().ok_or_else(|| PyError::runtime(format!("TypeError: float() argument must be a string or a number, not '{}'", v.type_name()), line))?),
            },
            "str" => Val::Str(Rc::from(args.first().map(Val::str_value).unwrap_or_default())),
            "bool" => Val::Bool(args.first().map(|v| v.truthy(line)).transpose()?.unwrap_or(false)),
            "abs" => match one()? {
                Val::Int(i) => Val::Int(i.checked_abs().ok_or_else(|| overflow(line))?),
                Val::Float(f) => Val::Float(f.abs()),
                other => return Err(PyError::runtime(format!("TypeError: bad operand type for abs(): '{}'", other.type_name()), line)),
            },
            "round" => match one()? {
                Val::Float(f) => Val::Int(f.round_ties_even() as i64),
                v => v,
            },
            "range" => {
                let ints: Vec<i64> = args.iter().map(|a| a.as_int().ok_or_else(|| PyError::runtime("TypeError: range() takes integers", line))).collect::<R<_>>()?;
                let (a, b, s) = match ints.as_slice() {
                    [b] => (0, *b, 1),
                    [a, b] => (*a, *b, 1),
                    [a, b, s] if *s != 0 => (*a, *b, *s),
                    _ => return Err(PyError::runtime("ValueError: range() arg 3 must not be zero", line)),
                };
                let n = if s > 0 { (b - a + s - 1) / s } else { (a - b - s - 1) / -s }.max(0);
                if n as usize > MAX_ITEMS {
                    return Err(PyError::runtime("the range is past the lab's limit", line));
                }
                Val::List(Rc::new(RefCell::new((0..n).map(|k| Val::Int(a + k * s)).collect())))
            }
            "list" => Val::List(Rc::new(RefCell::new(match args.first() {
                Some(v) => self.iterate(v, line)?,
                None => Vec::new(),
            }))),
            "tuple" => Val::Tuple(Rc::new(match args.first() {
                Some(v) => self.iterate(v, line)?,
                None => Vec::new(),
            })),
            "dict" => Val::Dict(Rc::new(RefCell::new(kwargs.iter().map(|(k, v)| (Val::Str(Rc::from(k.as_str())), v.clone())).collect()))),
            "sorted" => {
                let mut items = self.iterate(&one()?, line)?;
                items.sort_by(key_cmp);
                if kw("reverse").is_some_and(|r| matches!(r, Val::Bool(true))) {
                    items.reverse();
                }
                Val::List(Rc::new(RefCell::new(items)))
            }
            "enumerate" => Val::List(Rc::new(RefCell::new(
                self.iterate(&one()?, line)?.into_iter().enumerate().map(|(i, v)| Val::Tuple(Rc::new(vec![Val::Int(i as i64), v]))).collect(),
            ))),
            "zip" => {
                let lists = args.iter().map(|a| self.iterate(a, line)).collect::<R<Vec<_>>>()?;
                let n = lists.iter().map(Vec::len).min().unwrap_or(0);
                Val::List(Rc::new(RefCell::new((0..n).map(|i| Val::Tuple(Rc::new(lists.iter().map(|l| l[i].clone()).collect()))).collect())))
            }
            "any" | "all" => {
                let items = self.iterate(&one()?, line)?;
                let mut t = Vec::with_capacity(items.len());
                for v in &items {
                    t.push(v.truthy(line)?);
                }
                Val::Bool(if name == "any" { t.iter().any(|b| *b) } else { t.iter().all(|b| *b) })
            }
            "print" => Val::None,
            "isinstance" => {
                let (Some(v), Some(cls)) = (args.first(), args.get(1)) else {
                    return Err(PyError::runtime(format!("TypeError: isinstance expected 2 arguments, got {}", args.len()), line));
                };
                let classes = match cls {
                    Val::Tuple(t) => t.as_ref().clone(),
                    other => vec![other.clone()],
                };
                Val::Bool(classes.iter().any(|c| is_instance(v, c)))
            }
            "iter" => Val::List(Rc::new(RefCell::new(self.iterate(&one()?, line)?))),
            "object" => return Err(PyError::runtime("TypeError: object() is not supported in Streamlab's Python", line)),
            "Row" => {
                if !args.is_empty() {
                    return Err(PyError::runtime("TypeError: Row(...) takes named fields in Streamlab's Python: Row(name=value, ...)", line));
                }
                Val::Row(Rc::new(kwargs))
            }
            t if super::spark_types::is_class(t) => super::spark_types::construct(t, &args, &kwargs, line)?,
            "pd.DataFrame" => super::pandas::frame_from(&args, &kwargs, line)?,
            "pd.Series" => super::pandas::series_from(&args, &kwargs, line)?,
            "pd.concat" => super::pandas::concat(&args, &kwargs, line)?,
            "pd.merge" => match (args.first(), args.get(1)) {
                (Some(Val::Frame(l)), Some(Val::Frame(r))) => super::pandas::merge(l, r, &kwargs, line)?,
                _ => return Err(PyError::runtime("TypeError: merge() takes two DataFrames", line)),
            },
            "pd.Timedelta" => super::pandas_time::make_timedelta(&args, &kwargs, line)?,
            "pd.Timestamp" | "pd.to_datetime" => {
                let unit = kw("unit").map(|u| u.str_value());
                match one()? {
                    Val::Timestamp(ns) => Val::Timestamp(ns),
                    Val::Series(s) if name == "pd.to_datetime" => {
                        let mut out = Vec::with_capacity(s.values.len());
                        for v in &s.values {
                            out.push(if super::pandas::is_na(v) { Val::None } else { self.builtin("pd.Timestamp", vec![v.clone()], kwargs.clone(), line)? });
                        }
                        Val::Series(Rc::new(s.with_values(out)))
                    }
                    Val::Str(s) => Val::Timestamp(parse_ts(&s).ok_or_else(|| PyError::runtime(format!("ValueError: could not convert string to Timestamp: '{s}'"), line))?),
                    v => {
                        let mult: i64 = match unit.as_deref() {
                            Some("ms") => NANOS_PER_MILLI,
                            Some("s") => NANOS_PER_SECOND,
                            Some("us") => NANOS_PER_MICRO,
                            None | Some("ns") => 1,
                            Some(u) => return Err(PyError::runtime(format!("ValueError: unit '{u}' is not supported here (use 's', 'ms', 'us' or 'ns')"), line)),
                        };
                        match v {
                            Val::Int(i) => Val::Timestamp(i.checked_mul(mult).ok_or_else(|| PyError::runtime("OutOfBoundsDatetime: Out of bounds nanosecond timestamp", line))?),
                            Val::Float(f) => Val::Timestamp((f * mult as f64) as i64),
                            Val::None => Val::None,
                            other => return Err(PyError::runtime(format!("TypeError: Cannot convert input of type {} to Timestamp", other.type_name()), line)),
                        }
                    }
                }
            }
            "pd.isna" | "pd.notna" => match one()? {
                Val::Series(s) => Val::Series(Rc::new(s.with_values(s.values.iter().map(|v| Val::Bool(super::pandas::is_na(v) == (name == "pd.isna"))).collect()))),
                v => Val::Bool(super::pandas::is_na(&v) == (name == "pd.isna")),
            },
            other => return Err(PyError::runtime(format!("NameError: name '{other}' is not defined"), line)),
        })
    }

    fn method(&mut self, obj: Val, name: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        Ok(match (&obj, name) {
            (Val::State(s), _) => s.borrow_mut().call(name, &args, line)?,
            (Val::Object(o), _) => match o.class.attrs.get(name) {
                Some(Val::Func(f)) => {
                    let f = Rc::clone(f);
                    let mut all = vec![obj.clone()];
                    all.extend(args);
                    self.call_func(&f, all, kwargs, line)?
                }
                _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", o.class.name), line)),
            },
            (Val::Row(fields), "asDict") => Val::Dict(Rc::new(RefCell::new(fields.iter().map(|(n, v)| (Val::Str(Rc::from(n.as_str())), v.clone())).collect()))),
            (Val::Processor(p), _) => p.call(name, args, line)?,
            (Val::Spark(t), _) => super::spark_types::SparkType::call(t, name, &args, &kwargs, line)?,
            (Val::Frame(f), _) => self.frame_method(f, &obj, name, args, kwargs, line)?,
            (Val::Series(s), _) => self.series_method(s, &obj, name, args, kwargs, line)?,
            (Val::GroupBy(g), _) => self.groupby_method(g, &obj, name, args, kwargs, line)?,
            (Val::Accessor(kind, s), _) => self.accessor_call(*kind, s, name, &args, &kwargs, line)?,
            (Val::Timestamp(ns), _) => super::pandas_time::timestamp_call(&obj, *ns, name, &args, line)?,
            (Val::Timedelta(ns), "total_seconds") => Val::Float(*ns as f64 / 1e9),
            (Val::List(l), "append") => {
                let mut l = l.borrow_mut();
                if l.len() >= MAX_ITEMS {
                    return Err(PyError::runtime("the list grew past the lab's limit", line));
                }
                l.push(args.into_iter().next().unwrap_or(Val::None));
                Val::None
            }
            (Val::List(l), "extend") => {
                let items = self.iterate(args.first().unwrap_or(&Val::None), line)?;
                let mut l = l.borrow_mut();
                if l.len() + items.len() > MAX_ITEMS {
                    return Err(PyError::runtime("the list grew past the lab's limit", line));
                }
                l.extend(items);
                Val::None
            }
            (Val::List(l), "pop") => l.borrow_mut().pop().ok_or_else(|| PyError::runtime("IndexError: pop from empty list", line))?,
            (Val::Dict(d), "get") => {
                let k = args.first().cloned().unwrap_or(Val::None);
                d.borrow().iter().find(|(x, _)| py_eq(x, &k)).map(|(_, v)| v.clone()).unwrap_or_else(|| args.get(1).cloned().unwrap_or(Val::None))
            }
            (Val::Dict(d), "keys") => Val::List(Rc::new(RefCell::new(d.borrow().iter().map(|(k, _)| k.clone()).collect()))),
            (Val::Dict(d), "values") => Val::List(Rc::new(RefCell::new(d.borrow().iter().map(|(_, v)| v.clone()).collect()))),
            (Val::Dict(d), "items") => Val::List(Rc::new(RefCell::new(d.borrow().iter().map(|(k, v)| Val::Tuple(Rc::new(vec![k.clone(), v.clone()]))).collect()))),
            (Val::Str(s), "upper") => Val::Str(Rc::from(s.to_uppercase())),
            (Val::Str(s), "lower") => Val::Str(Rc::from(s.to_lowercase())),
            (Val::Str(s), "startswith") => Val::Bool(s.starts_with(&args.first().map(Val::str_value).unwrap_or_default())),
            (Val::Str(s), "join") => {
                let items = self.iterate(args.first().unwrap_or(&Val::None), line)?;
                Val::Str(Rc::from(items.iter().map(Val::str_value).collect::<Vec<_>>().join(s)))
            }
            _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", obj.type_name()), line)),
        })
    }
}

fn pandas_fn(name: &str) -> &'static str {
    match name {
        "DataFrame" => "pd.DataFrame",
        "Timestamp" => "pd.Timestamp",
        "Timedelta" => "pd.Timedelta",
        "concat" => "pd.concat",
        "Series" => "pd.Series",
        "isna" | "isnull" => "pd.isna",
        "notna" | "notnull" => "pd.notna",
        "merge" => "pd.merge",
        _ => "pd.to_datetime",
    }
}

fn known_module(m: &str) -> Option<&'static str> {
    match m {
        "pandas" => Some("pandas"),
        "numpy" => Some("numpy"),
        "datetime" => Some("datetime"),
        "time" => Some("time"),
        "typing" | "collections.abc" => Some("typing"),
        "pyspark.sql.types" => Some("pyspark.sql.types"),
        m if m == "pyspark" || m.starts_with("pyspark.") => Some("pyspark"),
        _ => None,
    }
}

/// `isinstance(v, cls)` for the classes a state function names: the builtin types, pandas'
/// `DataFrame` / `Series` / `Timestamp`, the learner's own classes; a name imported from
/// PySpark (`GroupState`, `StatefulProcessorHandle`, ...) matches the value PySpark passes.
fn is_instance(v: &Val, cls: &Val) -> bool {
    match cls {
        Val::Builtin(b) => match *b {
            "int" => matches!(v, Val::Int(_) | Val::Bool(_)),
            "float" => matches!(v, Val::Float(_)),
            "str" => matches!(v, Val::Str(_)),
            "bool" => matches!(v, Val::Bool(_)),
            "list" => matches!(v, Val::List(_)),
            "tuple" => matches!(v, Val::Tuple(_) | Val::Row(_)),
            "dict" => matches!(v, Val::Dict(_)),
            "object" => true,
            "pd.DataFrame" => matches!(v, Val::Frame(_)),
            "pd.Series" => matches!(v, Val::Series(_)),
            "pd.Timestamp" => matches!(v, Val::Timestamp(_)),
            "pd.Timedelta" => matches!(v, Val::Timedelta(_)),
            "Row" => matches!(v, Val::Row(_)),
            _ => false,
        },
        Val::Class(c) => matches!(v, Val::Object(o) if o.class.name == c.name || o.class.attrs.len() >= c.attrs.len() && c.attrs.keys().all(|k| o.class.attrs.contains_key(k))),
        Val::Module("typing") => matches!(v, Val::State(_) | Val::Processor(_) | Val::Object(_)),
        _ => false,
    }
}

