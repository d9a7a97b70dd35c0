//! Python text → statements: the layout pass (indentation to INDENT/DEDENT marks, bracketed
//! lines joined, as Python's tokenizer does), then the pest grammar `pyfunc.pest`, then a
//! syntax tree whose every node knows its source line.

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use pest_derive::Parser;

use super::PyError;

#[derive(Parser)]
#[grammar = "pyfunc/pyfunc.pest"]
struct PyFuncParser;

const INDENT: char = '\u{2}';
const DEDENT: char = '\u{3}';

/// The longest function text read, in bytes.
pub const MAX_SOURCE_BYTES: usize = 50_000;
/// The deepest bracket nesting read.
pub const MAX_BRACKETS: usize = 30;
/// The deepest block nesting read.
pub const MAX_BLOCKS: usize = 30;

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    BitOr,
    BitXor,
    BitAnd,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Is,
    IsNot,
    And,
    Or,
}

impl BinOp {
    /// The operator as Python writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::Is => "is",
            BinOp::IsNot => "is not",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
    Pos,
    Invert,
}

/// An expression with the source line it starts on (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub line: usize,
    pub kind: ExprKind,
}

/// An expression's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Name(String),
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    /// `[elt for targets in iter if cond…]`.
    ListComp { elt: Box<Expr>, target: Box<Target>, iter: Box<Expr>, conds: Vec<Expr> },
    Attr(Box<Expr>, String),
    Call { func: Box<Expr>, args: Vec<Expr>, kwargs: Vec<(String, Expr)> },
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `body if test else orelse`.
    IfElse { body: Box<Expr>, test: Box<Expr>, orelse: Box<Expr> },
    /// `lambda params: body`: a function whose body returns one expression.
    Lambda(std::rc::Rc<FuncDef>),
    /// `f"text {expr!r:spec} text"`.
    FString(Vec<FPart>),
}

/// A piece of an f-string.
#[derive(Debug, Clone, PartialEq)]
pub enum FPart {
    Text(String),
    /// `{expr}`, with its conversion (`!r`, `!s`) and format spec (`.2f`), if any.
    Value { expr: Expr, conversion: Option<char>, spec: String },
}

/// Where an assignment or a `for` loop stores.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Name(String),
    Index(Expr, Expr),
    Attr(Expr, String),
    Tuple(Vec<Target>),
}

/// A statement with its source line (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub line: usize,
    pub kind: StmtKind,
}

/// A function definition.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncDef {
    pub name: String,
    pub params: Vec<(String, Option<Expr>)>,
    pub body: Vec<Stmt>,
    /// True if the body holds a `yield` (a generator: calling it collects what it yields).
    pub generator: bool,
    pub line: usize,
}

/// A statement's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Def(std::rc::Rc<FuncDef>),
    /// `class Name(Base, ...):` with its body (methods, class attributes).
    Class { name: String, bases: Vec<Expr>, body: Vec<Stmt> },
    If { branches: Vec<(Expr, Vec<Stmt>)>, orelse: Vec<Stmt> },
    For { target: Target, iter: Expr, body: Vec<Stmt> },
    While { test: Expr, body: Vec<Stmt> },
    Pass,
    Break,
    Continue,
    Return(Option<Expr>),
    Yield(Option<Expr>),
    /// `assert test[, message]`.
    Assert(Expr, Option<Expr>),
    /// `import pandas as pd`: (module, bound name).
    Import(Vec<(String, String)>),
    /// `from m import a as b`: (module, [(name, bound name)]); `from m import *` is
    /// `[("*", "*")]`.
    FromImport(String, Vec<(String, String)>),
    Assign { targets: Vec<Target>, value: Expr },
    AugAssign { target: Target, op: BinOp, value: Expr },
    Expr(Expr),
}

/// Turns indentation into INDENT/DEDENT marks and joins lines inside brackets; `lines[i]` is
/// the source line (1-based) of output byte `i`.
fn layout(src: &str) -> Result<(String, Vec<usize>), PyError> {
    let mut out = String::with_capacity(src.len() + 16);
    let mut lines: Vec<usize> = Vec::with_capacity(src.len() + 16);
    let push = |out: &mut String, lines: &mut Vec<usize>, c: char, line: usize| {
        out.push(c);
        lines.extend(std::iter::repeat_n(line, c.len_utf8()));
    };
    let mut stack: Vec<usize> = vec![0];
    let mut depth = 0usize;
    let mut line = 1usize;
    let mut at_line_start = true;
    let mut chars = src.char_indices().peekable();
    while let Some((_, c)) = chars.peek().copied() {
        if at_line_start && depth == 0 {
            // Measure the indentation of this line; blank and comment-only lines do not count.
            let mut width = 0usize;
            while let Some(&(_, c)) = chars.peek() {
                match c {
                    ' ' => width += 1,
                    '\t' => width = (width / 8 + 1) * 8,
                    _ => break,
                }
                chars.next();
            }
            match chars.peek().map(|&(_, c)| c) {
                None => break,
                Some('\n') | Some('\r') | Some('#') => {
                    // Skip to the end of the line.
                    for (_, c) in chars.by_ref() {
                        if c == '\n' {
                            line += 1;
                            break;
                        }
                    }
                    continue;
                }
                _ => {}
            }
            let top = *stack.last().unwrap_or(&0);
            if width > top {
                if stack.len() > MAX_BLOCKS {
                    return Err(PyError::syntax(format!("blocks are nested more than {MAX_BLOCKS} levels deep"), line));
                }
                stack.push(width);
                push(&mut out, &mut lines, INDENT, line);
            } else if width < top {
                while stack.last().is_some_and(|&t| t > width) {
                    stack.pop();
                    push(&mut out, &mut lines, DEDENT, line);
                }
                if stack.last() != Some(&width) {
                    return Err(PyError::syntax("IndentationError: unindent does not match any outer indentation level", line));
                }
            }
            at_line_start = false;
            continue;
        }
        chars.next();
        match c {
            '\n' => {
                if depth == 0 {
                    push(&mut out, &mut lines, '\n', line);
                    at_line_start = true;
                } else {
                    push(&mut out, &mut lines, ' ', line);
                }
                line += 1;
            }
            '\r' => {}
            '\\' if chars.peek().map(|&(_, c)| c) == Some('\n') => {
                chars.next();
                push(&mut out, &mut lines, ' ', line);
                line += 1;
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_BRACKETS {
                    return Err(PyError::syntax(format!("brackets are nested more than {MAX_BRACKETS} levels deep"), line));
                }
                push(&mut out, &mut lines, c, line);
            }
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                push(&mut out, &mut lines, c, line);
            }
            '#' => {
                // A comment runs to the end of the line (kept out of the output).
                while let Some(&(_, c)) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                }
            }
            '\'' | '"' => {
                push(&mut out, &mut lines, c, line);
                let triple = {
                    let mut look = chars.clone();
                    look.next().map(|(_, a)| a) == Some(c) && look.next().map(|(_, b)| b) == Some(c)
                };
                if triple {
                    for _ in 0..2 {
                        chars.next();
                        push(&mut out, &mut lines, c, line);
                    }
                }
                let mut run = 0usize;
                let mut closed = false;
                while let Some((_, d)) = chars.next() {
                    push(&mut out, &mut lines, d, line);
                    if d == '\n' {
                        if !triple {
                            return Err(PyError::syntax("SyntaxError: unterminated string literal", line));
                        }
                        line += 1;
                    }
                    if d == '\\' {
                        if let Some((_, e)) = chars.next() {
                            push(&mut out, &mut lines, e, line);
                            if e == '\n' {
                                line += 1;
                            }
                        }
                        run = 0;
                        continue;
                    }
                    if d == c {
                        run += 1;
                        if !triple || run == 3 {
                            closed = true;
                            break;
                        }
                    } else {
                        run = 0;
                    }
                }
                if !closed {
                    return Err(PyError::syntax("SyntaxError: unterminated string literal", line));
                }
            }
            c => push(&mut out, &mut lines, c, line),
        }
    }
    if depth > 0 {
        return Err(PyError::syntax("SyntaxError: a bracket is never closed", line.saturating_sub(1).max(1)));
    }
    if !out.ends_with('\n') {
        push(&mut out, &mut lines, '\n', line);
    }
    while stack.len() > 1 {
        stack.pop();
        push(&mut out, &mut lines, DEDENT, line);
    }
    Ok((out, lines))
}

fn pratt() -> PrattParser<Rule> {
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

struct Builder<'a> {
    lines: &'a [usize],
    pratt: PrattParser<Rule>,
}

type R<T> = Result<T, PyError>;

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

    fn stmt(&self, p: Pair<'_, Rule>) -> R<Stmt> {
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
                StmtKind::Def(std::rc::Rc::new(FuncDef { name, params, body, generator, line }))
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

    fn test(&self, p: Pair<'_, Rule>) -> R<Expr> {
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
        let def = FuncDef { name: "<lambda>".into(), params, body: vec![Stmt { line, kind: StmtKind::Return(Some(body)) }], generator: false, line };
        Ok(Expr { line, kind: ExprKind::Lambda(std::rc::Rc::new(def)) })
    }

    /// The parts of an f-string body (escapes already read): text, `{{`/`}}` as braces, and
    /// `{expr[!c][:spec]}` fields parsed as expressions.
    fn fstring(&self, body: &str, line: usize) -> R<Vec<FPart>> {
        let mut parts = Vec::new();
        let mut text = String::new();
        let chars: Vec<char> = body.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '{' if chars.get(i + 1) == Some(&'{') => {
                    text.push('{');
                    i += 2;
                }
                '}' if chars.get(i + 1) == Some(&'}') => {
                    text.push('}');
                    i += 2;
                }
                '}' => return Err(PyError::syntax("SyntaxError: f-string: single '}' is not allowed", line)),
                '{' => {
                    // The field runs to the matching `}`; `!c` and `:spec` end the expression at
                    // bracket depth 0, outside quotes.
                    let mut depth = 0usize;
                    let mut quote: Option<char> = None;
                    let mut j = i + 1;
                    let mut expr_end = None;
                    let mut conv_at = None;
                    while j < chars.len() {
                        let c = chars[j];
                        match quote {
                            Some(q) if c == q => quote = None,
                            Some(_) => {}
                            None => match c {
                                '\'' | '"' => quote = Some(c),
                                '(' | '[' | '{' => depth += 1,
                                ')' | ']' => depth = depth.saturating_sub(1),
                                '}' if depth > 0 => depth -= 1,
                                '}' => break,
                                '!' if depth == 0 && expr_end.is_none() && chars.get(j + 1) != Some(&'=') => {
                                    expr_end = Some(j);
                                    conv_at = Some(j + 1);
                                }
                                ':' if depth == 0 => {
                                    if expr_end.is_none() {
                                        expr_end = Some(j);
                                    }
                                    break;
                                }
                                _ => {}
                            },
                        }
                        j += 1;
                    }
                    // `j` is at the closing brace or at the spec's `:`.
                    let mut close = j;
                    while close < chars.len() && chars[close] != '}' {
                        close += 1;
                    }
                    if close >= chars.len() {
                        return Err(PyError::syntax("SyntaxError: f-string: expecting '}'", line));
                    }
                    let end = expr_end.unwrap_or(j);
                    let src: String = chars[i + 1..end].iter().collect();
                    let conversion = conv_at.and_then(|c| chars.get(c).copied()).filter(|c| *c != ':' && *c != '}');
                    let spec: String = if j < close && chars[j] == ':' { chars[j + 1..close].iter().collect() } else { String::new() };
                    if src.trim().is_empty() {
                        return Err(PyError::syntax("SyntaxError: f-string: empty expression not allowed", line));
                    }
                    if !text.is_empty() {
                        parts.push(FPart::Text(std::mem::take(&mut text)));
                    }
                    parts.push(FPart::Value { expr: self.expression_text(src.trim(), line)?, conversion, spec });
                    i = close + 1;
                }
                c => {
                    text.push(c);
                    i += 1;
                }
            }
        }
        if !text.is_empty() {
            parts.push(FPart::Text(text));
        }
        Ok(parts)
    }

    /// One expression written inside an f-string field, at `line`.
    fn expression_text(&self, src: &str, line: usize) -> R<Expr> {
        let mut pairs = PyFuncParser::parse(Rule::test, src).map_err(|_| PyError::syntax(format!("SyntaxError: f-string: invalid expression '{src}'"), line))?;
        if pairs.as_str().len() != src.len() {
            return Err(PyError::syntax(format!("SyntaxError: f-string: invalid expression '{src}'"), line));
        }
        let lines = vec![line; src.len() + 1];
        let b = Builder { lines: &lines, pratt: pratt() };
        b.test(pairs.next().ok_or_else(|| PyError::syntax("SyntaxError: f-string: empty expression not allowed", line))?)
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

/// The text of a Python string literal's body with its escapes read as Python reads them
/// (Python reference, "String and Bytes literals": `\\`, `\'`, `\"`, `\a`, `\b`, `\f`, `\n`, `\r`,
/// `\t`, `\v`, `\ooo` octal, `\xhh`, `\uxxxx`, `\Uxxxxxxxx`, backslash-newline joins lines).
/// An escape Python does not know keeps its backslash (`'\d'` is the two characters `\d`, as in
/// Python), so a regular expression written without `r''` means what it means in PySpark.
/// A malformed `\x`/`\u` (too few hex digits, not a character) is kept as written.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\n' => {}
            '\\' | '\'' | '"' => out.push(e),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '0'..='7' => {
                let mut n = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match it.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            n = n * 8 + d;
                            it.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(n).unwrap_or('\u{fffd}'));
            }
            'x' | 'u' | 'U' => {
                let len = match e { 'x' => 2, 'u' => 4, _ => 8 };
                let digits: String = it.clone().take(len).take_while(char::is_ascii_hexdigit).collect();
                match u32::from_str_radix(&digits, 16).ok().filter(|_| digits.len() == len).and_then(char::from_u32) {
                    Some(ch) => {
                        out.push(ch);
                        for _ in 0..len {
                            it.next();
                        }
                    }
                    None => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

/// Parses a module (the prelude: imports and function definitions).
///
/// # Errors
/// A [`PyError`] naming the line: Python's `SyntaxError` / `IndentationError` wording where
/// it applies; text over [`MAX_SOURCE_BYTES`], brackets over [`MAX_BRACKETS`] or blocks over
/// [`MAX_BLOCKS`] deep are refused.
pub fn parse_module(src: &str) -> Result<Vec<Stmt>, PyError> {
    if src.len() > MAX_SOURCE_BYTES {
        return Err(PyError::syntax(format!("the Python code is {} bytes long; Streamlab reads up to {MAX_SOURCE_BYTES}", src.len()), 1));
    }
    let (text, lines) = layout(src)?;
    let mut pairs = PyFuncParser::parse(Rule::module, &text).map_err(|e| {
        let pos = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        };
        let line = lines.get(pos.min(lines.len().saturating_sub(1))).copied().unwrap_or(1);
        let found: String = text[pos.min(text.len())..].chars().take_while(|c| *c != '\n').take(20).filter(|c| *c != INDENT && *c != DEDENT).collect();
        let what = if text[pos.min(text.len())..].starts_with(INDENT) {
            "IndentationError: unexpected indent".to_string()
        } else if found.trim().is_empty() {
            "SyntaxError: invalid syntax (a block or an expression ends too early)".to_string()
        } else {
            format!("SyntaxError: invalid syntax near '{}'", found.trim())
        };
        PyError::syntax(what, line)
    })?;
    let module = pairs.next().ok_or_else(|| PyError::syntax("empty module", 1))?;
    let b = Builder { lines: &lines, pratt: pratt() };
    module.into_inner().filter(|p| p.as_rule() != Rule::EOI).map(|p| b.stmt(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn escapes_read_as_python_reads_them() {
        // Python 3.11: '\d' is backslash + d (unknown escape kept), '\n' a newline, '\\' one
        // backslash, '\x41' 'A', '\101' (octal 65) 'A', '\u00e9' 'é', 'a\<newline>b' 'ab'.
        assert_eq!(unescape(r"^u\d+$"), "^u\\d+$");
        assert_eq!(unescape(r"a\nb"), "a\nb");
        assert_eq!(unescape(r"a\\b"), "a\\b");
        assert_eq!(unescape(r"\x41\101\u00e9"), "AAé");
        assert_eq!(unescape("a\\\nb"), "ab");
        assert_eq!(unescape(r"it\'s"), "it's");
        // Malformed hex escapes (a SyntaxError in Python) stay as written, never a panic.
        assert_eq!(unescape(r"\x4"), "\\x4");
        assert_eq!(unescape(r"\U0011FFFF"), "\\U0011FFFF");
        assert_eq!(unescape("end\\"), "end\\");
    }
}
