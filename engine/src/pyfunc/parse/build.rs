//! From the grammar's parse tree to the syntax tree: statements, targets and expressions (Python's precedence through a Pratt parser), as CPython's AST builder does.

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::{unescape, BinOp, Expr, ExprKind, FPart, FuncDef, Rule, Stmt, StmtKind, Target, UnOp, R};
use crate::pyfunc::PyError;

pub(super) fn pratt() -> PrattParser<Rule> {
    // Python's precedence, loosest first.
    PrattParser::new()
        .op(Op::infix(Rule::or_op, Assoc::Left))
        .op(Op::infix(Rule::and_op, Assoc::Left))
        .op(Op::prefix(Rule::not_op))
        .op(Op::infix(Rule::eq, Assoc::Left)
            | Op::infix(Rule::ne, Assoc::Left)
            | Op::infix(Rule::lt, Assoc::Left)
            | Op::infix(Rule::le, Assoc::Left)
            | Op::infix(Rule::gt, Assoc::Left)
            | Op::infix(Rule::ge, Assoc::Left)
            | Op::infix(Rule::in_op, Assoc::Left)
            | Op::infix(Rule::not_in, Assoc::Left)
            | Op::infix(Rule::is_op, Assoc::Left)
            | Op::infix(Rule::is_not, Assoc::Left))
        .op(Op::infix(Rule::bor, Assoc::Left))
        .op(Op::infix(Rule::bxor, Assoc::Left))
        .op(Op::infix(Rule::band, Assoc::Left))
        .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
        .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::floordiv, Assoc::Left) | Op::infix(Rule::modulo, Assoc::Left))
        .op(Op::prefix(Rule::neg) | Op::prefix(Rule::pos) | Op::prefix(Rule::invert))
        .op(Op::infix(Rule::pow, Assoc::Right))
        .op(Op::postfix(Rule::attribute) | Op::postfix(Rule::call) | Op::postfix(Rule::subscript))
}

pub(super) struct Builder<'a> {
    pub(super) lines: &'a [usize],
    pub(super) pratt: PrattParser<Rule>,
}

impl Builder<'_> {
    fn line(&self, p: &Pair<'_, Rule>) -> usize {
        self.lines.get(p.as_span().start()).copied().unwrap_or(1)
    }

    fn block(&self, p: Pair<'_, Rule>) -> R<Vec<Stmt>> {
        // `suite`: statements, or one simple line after the colon.
        let mut out = Vec::new();
        for s in p.into_inner() {
            if s.as_rule() == Rule::simple_line {
                for small in s.into_inner() {
                    out.push(self.stmt(small)?);
                }
            } else {
                out.push(self.stmt(s)?);
            }
        }
        Ok(out)
    }

    pub(super) fn stmt(&self, p: Pair<'_, Rule>) -> R<Stmt> {
        let line = self.line(&p);
        let rule = p.as_rule();
        let mut inner = p.into_inner();
        let kind = match rule {
            Rule::class_stmt => {
                inner.next(); // k_class
                let name = inner.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                let mut bases = Vec::new();
                let mut body = Vec::new();
                for q in inner {
                    match q.as_rule() {
                        Rule::suite => body = self.block(q)?,
                        _ => bases.push(self.test(q)?),
                    }
                }
                StmtKind::Class { name, bases, body }
            }
            Rule::def_stmt => {
                inner.next(); // k_def
                let name = inner.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                let mut params = Vec::new();
                let mut body = Vec::new();
                for q in inner {
                    match q.as_rule() {
                        Rule::params => {
                            for param in q.into_inner() {
                                let mut pi = param.into_inner();
                                let pname = pi.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                                let mut default = None;
                                for q in pi {
                                    if q.as_rule() == Rule::default {
                                        if let Some(t) = q.into_inner().next() {
                                            default = Some(self.test(t)?);
                                        }
                                    }
                                }
                                params.push((pname, default));
                            }
                        }
                        Rule::suite => body = self.block(q)?,
                        _ => {} // a return annotation
                    }
                }
                let generator = contains_yield(&body);
                StmtKind::Def(std::rc::Rc::new(FuncDef { name, params, body, generator, line, decorators: Vec::new() }))
            }
            Rule::decorated => {
                let mut decorators = Vec::new();
                let mut stmt = None;
                for q in inner {
                    match q.as_rule() {
                        Rule::decorator => decorators.push(q.as_str().trim().trim_start_matches('@').trim().to_string()),
                        _ => stmt = Some(self.stmt(q)?),
                    }
                }
                let stmt = stmt.ok_or_else(|| PyError::syntax("a decorator must be followed by a def or a class", line))?;
                match stmt.kind {
                    StmtKind::Def(f) => {
                        let mut f = std::rc::Rc::unwrap_or_clone(f);
                        f.decorators = decorators;
                        StmtKind::Def(std::rc::Rc::new(f))
                    }
                    other => other,
                }
            }
            Rule::if_stmt => {
                inner.next(); // k_if
                let test = self.test(inner.next().ok_or_else(|| PyError::syntax("if without a condition", line))?)?;
                let body = self.block(inner.next().ok_or_else(|| PyError::syntax("if without a body", line))?)?;
                let mut branches = vec![(test, body)];
                let mut orelse = Vec::new();
                for q in inner {
                    match q.as_rule() {
                        Rule::elif_clause => {
                            let mut qi = q.into_inner();
                            qi.next();
                            let t = self.test(qi.next().ok_or_else(|| PyError::syntax("elif without a condition", line))?)?;
                            let b = self.block(qi.next().ok_or_else(|| PyError::syntax("elif without a body", line))?)?;
                            branches.push((t, b));
                        }
                        Rule::else_clause => {
                            let mut qi = q.into_inner();
                            qi.next();
                            orelse = self.block(qi.next().ok_or_else(|| PyError::syntax("else without a body", line))?)?;
                        }
                        _ => {}
                    }
                }
                StmtKind::If { branches, orelse }
            }
            Rule::for_stmt => {
                inner.next();
                let target = self.targets(inner.next().ok_or_else(|| PyError::syntax("for without a target", line))?)?;
                inner.next(); // k_in
                let iter = self.testlist(inner.next().ok_or_else(|| PyError::syntax("for without an iterable", line))?)?;
                let body = self.block(inner.next().ok_or_else(|| PyError::syntax("for without a body", line))?)?;
                StmtKind::For { target, iter, body }
            }
            Rule::while_stmt => {
                inner.next();
                let test = self.test(inner.next().ok_or_else(|| PyError::syntax("while without a condition", line))?)?;
                let body = self.block(inner.next().ok_or_else(|| PyError::syntax("while without a body", line))?)?;
                StmtKind::While { test, body }
            }
            Rule::pass_stmt => StmtKind::Pass,
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::return_stmt => {
                inner.next();
                StmtKind::Return(inner.next().map(|t| self.testlist(t)).transpose()?)
            }
            Rule::yield_stmt => {
                inner.next();
                StmtKind::Yield(inner.next().map(|t| self.testlist(t)).transpose()?)
            }
            Rule::assert_stmt => {
                inner.next();
                let test = self.test(inner.next().ok_or_else(|| PyError::syntax("assert without a condition", line))?)?;
                StmtKind::Assert(test, inner.next().map(|m| self.test(m)).transpose()?)
            }
            Rule::import_stmt => {
                let mut names = Vec::new();
                for ia in inner.filter(|q| q.as_rule() == Rule::import_as) {
                    let mut qi = ia.into_inner().filter(|x| x.as_rule() != Rule::k_as);
                    let module = qi.next().map(|m| m.as_str().to_string()).unwrap_or_default();
                    let bound = qi.next().map(|m| m.as_str().to_string()).unwrap_or_else(|| module.split('.').next().unwrap_or("").to_string());
                    names.push((module, bound));
                }
                StmtKind::Import(names)
            }
            Rule::from_stmt => {
                let mut module = String::new();
                let mut names = Vec::new();
                for q in inner {
                    match q.as_rule() {
                        Rule::dotted => module = q.as_str().to_string(),
                        // `from m import *`: every public name of `m`.
                        Rule::star_import => names.push(("*".to_string(), "*".to_string())),
                        Rule::name_as => {
                            let mut qi = q.into_inner().filter(|x| x.as_rule() != Rule::k_as);
                            let n = qi.next().map(|m| m.as_str().to_string()).unwrap_or_default();
                            let b = qi.next().map(|m| m.as_str().to_string()).unwrap_or_else(|| n.clone());
                            names.push((n, b));
                        }
                        _ => {}
                    }
                }
                StmtKind::FromImport(module, names)
            }
            Rule::aug_assign => {
                let target = self.target(inner.next().ok_or_else(|| PyError::syntax("missing target", line))?)?;
                let op = match inner.next().map(|o| o.as_str()).unwrap_or("") {
                    "+=" => BinOp::Add,
                    "-=" => BinOp::Sub,
                    "*=" => BinOp::Mul,
                    "/=" => BinOp::Div,
                    "//=" => BinOp::FloorDiv,
                    _ => BinOp::Mod,
                };
                let value = self.testlist(inner.next().ok_or_else(|| PyError::syntax("missing value", line))?)?;
                StmtKind::AugAssign { target, op, value }
            }
            Rule::assign => {
                let parts: Vec<Pair<'_, Rule>> = inner.collect();
                let n = parts.len();
                let mut targets = Vec::new();
                let mut value = None;
                for (i, q) in parts.into_iter().enumerate() {
                    if i + 1 == n {
                        value = Some(self.testlist(q)?);
                    } else {
                        targets.push(self.targets(q)?);
                    }
                }
                StmtKind::Assign { targets, value: value.ok_or_else(|| PyError::syntax("missing value", line))? }
            }
            Rule::expr_stmt => StmtKind::Expr(self.testlist(inner.next().ok_or_else(|| PyError::syntax("empty statement", line))?)?),
            other => return Err(PyError::syntax(format!("unexpected {other:?}"), line)),
        };
        Ok(Stmt { line, kind })
    }

    fn targets(&self, p: Pair<'_, Rule>) -> R<Target> {
        let line = self.line(&p);
        let mut items = Vec::new();
        let mut comma = false;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::target => items.push(self.target(q)?),
                Rule::comma => comma = true,
                _ => {}
            }
        }
        if items.len() == 1 && !comma {
            return items.pop().ok_or_else(|| PyError::syntax("missing target", line));
        }
        Ok(Target::Tuple(items))
    }

    fn target(&self, p: Pair<'_, Rule>) -> R<Target> {
        let line = self.line(&p);
        let q = p.into_inner().next().ok_or_else(|| PyError::syntax("missing target", line))?;
        match q.as_rule() {
            Rule::targets => self.targets(q).map(|t| match t {
                Target::Tuple(v) => Target::Tuple(v),
                one => Target::Tuple(vec![one]),
            }),
            Rule::target_expr => {
                let mut qi = q.into_inner();
                let name = qi.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                let mut e = Expr { line, kind: ExprKind::Name(name.clone()) };
                let posts: Vec<Pair<'_, Rule>> = qi.collect();
                if posts.is_empty() {
                    return Ok(Target::Name(name));
                }
                let n = posts.len();
                for (i, post) in posts.into_iter().enumerate() {
                    if i + 1 == n {
                        return match post.as_rule() {
                            Rule::subscript => Ok(Target::Index(e, self.subscript(post)?)),
                            Rule::attribute => Ok(Target::Attr(e, post.into_inner().next().map(|x| x.as_str().to_string()).unwrap_or_default())),
                            _ => Err(PyError::syntax("SyntaxError: cannot assign to function call", line)),
                        };
                    }
                    e = self.postfix(e, post)?;
                }
                Err(PyError::syntax("missing target", line))
            }
            _ => Err(PyError::syntax("SyntaxError: cannot assign to this expression", line)),
        }
    }

    fn testlist(&self, p: Pair<'_, Rule>) -> R<Expr> {
        let line = self.line(&p);
        let mut items = Vec::new();
        let mut comma = false;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::test => items.push(self.test(q)?),
                Rule::comma => comma = true,
                _ => {}
            }
        }
        if items.len() == 1 && !comma {
            return items.pop().ok_or_else(|| PyError::syntax("missing expression", line));
        }
        Ok(Expr { line, kind: ExprKind::Tuple(items) })
    }

    pub(super) fn test(&self, p: Pair<'_, Rule>) -> R<Expr> {
        let line = self.line(&p);
        if let Some(l) = p.clone().into_inner().next().filter(|q| q.as_rule() == Rule::lambda_def) {
            return self.lambda(l);
        }
        let parts: Vec<Pair<'_, Rule>> = p.into_inner().filter(|q| !matches!(q.as_rule(), Rule::k_if | Rule::k_else)).collect();
        let mut it = parts.into_iter();
        let body = self.expr(it.next().ok_or_else(|| PyError::syntax("missing expression", line))?)?;
        match (it.next(), it.next()) {
            (Some(test), Some(orelse)) => Ok(Expr {
                line,
                kind: ExprKind::IfElse { body: Box::new(body), test: Box::new(self.expr(test)?), orelse: Box::new(self.test(orelse)?) },
            }),
            _ => Ok(body),
        }
    }

    fn expr(&self, p: Pair<'_, Rule>) -> R<Expr> {
        let line = self.line(&p);
        self.pratt
            .map_primary(|q| self.primary(q))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let u = match op.as_rule() {
                    Rule::not_op => UnOp::Not,
                    Rule::neg => UnOp::Neg,
                    Rule::pos => UnOp::Pos,
                    _ => UnOp::Invert,
                };
                Ok(Expr { line: rhs.line, kind: ExprKind::Unary(u, Box::new(rhs)) })
            })
            .map_postfix(|lhs, op| self.postfix(lhs?, op))
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let b = match op.as_rule() {
                    Rule::or_op => BinOp::Or,
                    Rule::and_op => BinOp::And,
                    Rule::not_in => BinOp::NotIn,
                    Rule::is_not => BinOp::IsNot,
                    Rule::in_op => BinOp::In,
                    Rule::is_op => BinOp::Is,
                    Rule::eq => BinOp::Eq,
                    Rule::ne => BinOp::Ne,
                    Rule::le => BinOp::Le,
                    Rule::ge => BinOp::Ge,
                    Rule::lt => BinOp::Lt,
                    Rule::gt => BinOp::Gt,
                    Rule::bor => BinOp::BitOr,
                    Rule::bxor => BinOp::BitXor,
                    Rule::band => BinOp::BitAnd,
                    Rule::floordiv => BinOp::FloorDiv,
                    Rule::div => BinOp::Div,
                    Rule::pow => BinOp::Pow,
                    Rule::mul => BinOp::Mul,
                    Rule::modulo => BinOp::Mod,
                    Rule::add => BinOp::Add,
                    _ => BinOp::Sub,
                };
                Ok(Expr { line: lhs.line, kind: ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)) })
            })
            .parse(p.into_inner())
            .map_err(|e: PyError| if e.line == 0 { PyError { line, ..e } } else { e })
    }

    fn postfix(&self, lhs: Expr, op: Pair<'_, Rule>) -> R<Expr> {
        let line = lhs.line;
        Ok(match op.as_rule() {
            Rule::attribute => Expr { line, kind: ExprKind::Attr(Box::new(lhs), op.into_inner().next().map(|n| n.as_str().to_string()).unwrap_or_default()) },
            Rule::subscript => Expr { line, kind: ExprKind::Index(Box::new(lhs), Box::new(self.subscript(op)?)) },
            _ => {
                let mut args = Vec::new();
                let mut kwargs = Vec::new();
                for a in op.into_inner() {
                    if a.as_rule() == Rule::genexp_arg {
                        // Evaluated eagerly, as a list (as a bracketed generator expression is).
                        let mut qi = a.into_inner();
                        let item = qi.next().map(|t| self.test(t)).transpose()?;
                        let comp = qi.next().ok_or_else(|| PyError::syntax("a generator expression without its for", line))?;
                        args.push(self.comprehension(item, comp, line)?);
                        continue;
                    }
                    let q = a.into_inner().next().ok_or_else(|| PyError::syntax("empty argument", line))?;
                    match q.as_rule() {
                        Rule::kwarg => {
                            let mut qi = q.into_inner();
                            let n = qi.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                            kwargs.push((n, self.test(qi.next().ok_or_else(|| PyError::syntax("missing value", line))?)?));
                        }
                        Rule::star_arg => return Err(PyError::syntax("*args in a call is not supported here", line)),
                        _ => args.push(self.test(q)?),
                    }
                }
                Expr { line, kind: ExprKind::Call { func: Box::new(lhs), args, kwargs } }
            }
        })
    }

    fn subscript(&self, p: Pair<'_, Rule>) -> R<Expr> {
        let line = self.line(&p);
        let items: Vec<Pair<'_, Rule>> = p.into_inner().collect();
        let comma = items.iter().any(|q| q.as_rule() == Rule::comma);
        let items: Vec<Pair<'_, Rule>> = items.into_iter().filter(|q| q.as_rule() != Rule::comma).collect();
        if items.len() > 1 || comma {
            // `df.loc[rows, cols]`: a tuple key, a slice in it a slice value.
            let parts = items.into_iter().map(|q| self.subscript_item(q)).collect::<R<Vec<_>>>()?;
            return Ok(Expr { line, kind: ExprKind::Tuple(parts) });
        }
        let q = items.into_iter().next().ok_or_else(|| PyError::syntax("empty subscript", line))?;
        self.subscript_item(q)
    }

    fn subscript_item(&self, q: Pair<'_, Rule>) -> R<Expr> {
        let line = self.line(&q);
        if q.as_rule() == Rule::slice {
            let text = q.as_str();
            let colon = text.find(':').unwrap_or(0);
            let start = q.as_span().start();
            let mut lo = None;
            let mut hi = None;
            for t in q.into_inner() {
                let e = Box::new(self.test(t.clone())?);
                if t.as_span().start() - start < colon {
                    lo = Some(e);
                } else {
                    hi = Some(e);
                }
            }
            return Ok(Expr { line, kind: ExprKind::Slice(Box::new(Expr { line, kind: ExprKind::None }), lo, hi) });
        }
        self.test(q)
    }

    fn primary(&self, p: Pair<'_, Rule>) -> R<Expr> {
        let line = self.line(&p);
        let kind = match p.as_rule() {
            Rule::k_none => ExprKind::None,
            Rule::k_true => ExprKind::Bool(true),
            Rule::k_false => ExprKind::Bool(false),
            Rule::name => ExprKind::Name(p.as_str().to_string()),
            Rule::number => {
                let t = p.as_str().replace('_', "");
                if t.contains(['.', 'e', 'E']) {
                    ExprKind::Float(t.parse().map_err(|_| PyError::syntax(format!("bad number {t}"), line))?)
                } else {
                    match t.parse::<i64>() {
                        Ok(i) => ExprKind::Int(i),
                        Err(_) => return Err(PyError::syntax(format!("the integer {t} is too large (Streamlab's Python uses 64-bit integers)"), line)),
                    }
                }
            }
            Rule::strings => {
                // Adjacent literals join; one `f` literal makes the whole an f-string.
                let mut parts: Vec<FPart> = Vec::new();
                let mut formatted = false;
                for part in p.into_inner() {
                    let mut prefix = String::new();
                    let mut body = "";
                    for q in part.into_inner() {
                        match q.as_rule() {
                            Rule::str_prefix => prefix = q.as_str().to_ascii_lowercase(),
                            _ => body = q.as_str(),
                        }
                    }
                    let text = if prefix.contains('r') { body.to_string() } else { unescape(body) };
                    if prefix.contains('f') {
                        formatted = true;
                        parts.extend(self.fstring(&text, line)?);
                    } else {
                        parts.push(FPart::Text(text));
                    }
                }
                if formatted {
                    ExprKind::FString(parts)
                } else {
                    ExprKind::Str(parts.into_iter().map(|p| if let FPart::Text(t) = p { t } else { String::new() }).collect())
                }
            }
            Rule::group => {
                let mut items = Vec::new();
                let mut comma = false;
                let mut comp = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::test => items.push(self.test(q)?),
                        Rule::comma => comma = true,
                        Rule::comp_for => comp = Some(q),
                        _ => {}
                    }
                }
                if let Some(c) = comp {
                    // A generator expression: evaluated eagerly, as a list.
                    return self.comprehension(items.pop(), c, line);
                }
                if items.len() == 1 && !comma {
                    return items.pop().ok_or_else(|| PyError::syntax("empty brackets", line));
                }
                ExprKind::Tuple(items)
            }
            Rule::list_disp => {
                let mut items = Vec::new();
                let mut comp = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::test => items.push(self.test(q)?),
                        Rule::comp_for => comp = Some(q),
                        _ => {}
                    }
                }
                if let Some(c) = comp {
                    return self.comprehension(items.pop(), c, line);
                }
                ExprKind::List(items)
            }
            Rule::dict_disp => {
                let mut items = Vec::new();
                for kv in p.into_inner() {
                    let mut qi = kv.into_inner();
                    let k = self.test(qi.next().ok_or_else(|| PyError::syntax("missing key", line))?)?;
                    let v = self.test(qi.next().ok_or_else(|| PyError::syntax("missing value", line))?)?;
                    items.push((k, v));
                }
                ExprKind::Dict(items)
            }
            other => return Err(PyError::syntax(format!("unexpected {other:?}"), line)),
        };
        Ok(Expr { line, kind })
    }

    fn lambda(&self, p: Pair<'_, Rule>) -> R<Expr> {
        let line = self.line(&p);
        let mut params = Vec::new();
        let mut body = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::lambda_params => {
                    for param in q.into_inner() {
                        let mut pi = param.into_inner();
                        let pname = pi.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                        let default = pi.next().and_then(|d| d.into_inner().next()).map(|t| self.test(t)).transpose()?;
                        params.push((pname, default));
                    }
                }
                Rule::test => body = Some(self.test(q)?),
                _ => {}
            }
        }
        let body = body.ok_or_else(|| PyError::syntax("SyntaxError: lambda without a body", line))?;
        let def = FuncDef { name: "<lambda>".into(), params, body: vec![Stmt { line, kind: StmtKind::Return(Some(body)) }], generator: false, line, decorators: Vec::new() };
        Ok(Expr { line, kind: ExprKind::Lambda(std::rc::Rc::new(def)) })
    }

    fn comprehension(&self, elt: Option<Expr>, c: Pair<'_, Rule>, line: usize) -> R<Expr> {
        let elt = elt.ok_or_else(|| PyError::syntax("empty comprehension", line))?;
        let mut qi = c.into_inner().filter(|q| !matches!(q.as_rule(), Rule::k_for | Rule::k_in | Rule::k_if));
        let target = self.targets(qi.next().ok_or_else(|| PyError::syntax("missing target", line))?)?;
        let iter = self.expr(qi.next().ok_or_else(|| PyError::syntax("missing iterable", line))?)?;
        let conds = qi.map(|q| self.expr(q)).collect::<R<Vec<_>>>()?;
        Ok(Expr { line, kind: ExprKind::ListComp { elt: Box::new(elt), target: Box::new(target), iter: Box::new(iter), conds } })
    }
}

fn contains_yield(body: &[Stmt]) -> bool {
    body.iter().any(|s| match &s.kind {
        StmtKind::Yield(_) => true,
        StmtKind::If { branches, orelse } => branches.iter().any(|(_, b)| contains_yield(b)) || contains_yield(orelse),
        StmtKind::For { body, .. } | StmtKind::While { body, .. } => contains_yield(body),
        _ => false,
    })
}
