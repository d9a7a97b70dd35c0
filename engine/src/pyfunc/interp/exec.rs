//! Python statements run in a scope (`exec`: `if`/`for`/`while`, assignment and unpacking, `import`), as CPython's eval loop runs a code block.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::{ClassDef, Flow, Interpreter, Scope, Val, R, MAX_ITEMS};
use crate::pyfunc::value::pandas::IndexerKind;
use crate::pyfunc::parse::{ExprKind, Stmt, StmtKind, Target};
use crate::pyfunc::PyError;

impl Interpreter {
    pub(super) fn exec_block(&mut self, body: &[Stmt], frame: &mut Scope) -> R<Flow> {
        for s in body {
            match self.exec(s, frame)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    pub(super) fn assign(&mut self, target: &Target, v: Val, frame: &mut Scope, line: usize) -> R<()> {
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
                    // read from (frames are values here; see `value/pandas.rs`).
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

    pub(super) fn exec(&mut self, s: &Stmt, frame: &mut Scope) -> R<Flow> {
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
                        crate::pyfunc::value::spark_types::class(imported).unwrap_or(Val::Module("typing"))
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
