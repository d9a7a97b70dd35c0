//! Parses the PySpark program subset into a small Python AST, with byte spans for every node.
//!
//! A program is statements — `name = expr` and expression statements (`query.awaitTermination()`)
//! — one per line or separated by `;`, as in Python. [`layout`] first blanks comments, newlines
//! inside brackets and backslash continuations, keeping every byte offset, so that the grammar
//! (`python.pest`, a `pest` PEG) sees a newline only where Python ends a statement. Operator
//! precedence comes from pest's `PrattParser` and follows Python's table, so
//! `F.col('a') == 1 & F.col('b') == 2` parses as it does in Python (`1 & F.col('b')` first).
//! Python's literal forms are read as Python reads them: single, double and triple quotes, raw
//! strings, adjacent strings joined, escapes, `1_000`, `0x1F`, `.5`.

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use pest_derive::Parser;

use super::{ParseError, Span};

#[derive(Parser)]
#[grammar = "frontend/python.pest"]
struct PythonParser;

/// A Python binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyBinOp {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `|`: bitwise or; on Columns, PySpark's logical OR.
    Or,
    /// `^`: bitwise exclusive or.
    Xor,
    /// `&`: bitwise and; on Columns, PySpark's logical AND.
    And,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`: true division.
    Div,
    /// `//`: floor division.
    FloorDiv,
    /// `%`: modulo.
    Mod,
    /// `**`: power (right-associative).
    Pow,
    /// `and`, `or`: Python's boolean operators (on Columns, PySpark refuses them).
    BoolAnd,
    /// `or`: Python's boolean or (on Columns, PySpark refuses it).
    BoolOr,
    /// `in`: membership.
    In,
    /// `not in`.
    NotIn,
    /// `is`: identity.
    Is,
    /// `is not`.
    IsNot,
}

impl PyBinOp {
    /// The operator as Python writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            PyBinOp::Eq => "==",
            PyBinOp::Ne => "!=",
            PyBinOp::Lt => "<",
            PyBinOp::Le => "<=",
            PyBinOp::Gt => ">",
            PyBinOp::Ge => ">=",
            PyBinOp::Or => "|",
            PyBinOp::Xor => "^",
            PyBinOp::And => "&",
            PyBinOp::Add => "+",
            PyBinOp::Sub => "-",
            PyBinOp::Mul => "*",
            PyBinOp::Div => "/",
            PyBinOp::FloorDiv => "//",
            PyBinOp::Mod => "%",
            PyBinOp::Pow => "**",
            PyBinOp::BoolAnd => "and",
            PyBinOp::BoolOr => "or",
            PyBinOp::In => "in",
            PyBinOp::NotIn => "not in",
            PyBinOp::Is => "is",
            PyBinOp::IsNot => "is not",
        }
    }
}

/// A Python unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyUnOp {
    /// `-x` (a minus before a number literal is folded into the literal instead).
    Neg,
    /// `+x`.
    Pos,
    /// `~x`: bitwise invert; on a Column, PySpark's logical NOT.
    Invert,
    /// `not x`.
    Not,
}

/// How an argument is passed.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgKind {
    /// A plain `value`.
    Positional,
    /// `name=value`.
    Keyword(String),
    /// `*values`: every item of a list or tuple, as positional arguments.
    Star,
    /// `**options`: every entry of a dict, as keyword arguments.
    DoubleStar,
}

/// A call argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// How it is passed (positional, keyword, `*`, `**`).
    pub kind: ArgKind,
    /// The argument's expression (after `name=`, `*` or `**`).
    pub value: PyNode,
}

impl Arg {
    /// The keyword, for `name=value`.
    pub fn name(&self) -> Option<&str> {
        match &self.kind {
            ArgKind::Keyword(n) => Some(n),
            _ => None,
        }
    }
}

/// One node of the Python syntax tree (the query text as parsed, before `interpret.rs` builds
/// a `LogicalPlan` from it), with its source span. Not the analyzed plan's
/// `analysis::plan::Node`.
#[derive(Debug, Clone, PartialEq)]
pub struct PyNode {
    /// What the node is, with its children.
    pub kind: PyNodeKind,
    /// The node's byte range in the program text.
    pub span: Span,
}

/// The kinds of Python syntax-tree node in the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum PyNodeKind {
    /// An identifier (`clicks`, `F`, `window`).
    Name(String),
    /// A string literal's value: quotes removed, escapes decoded, adjacent literals joined.
    Str(String),
    /// An integer literal (`42`, `1_000`, `0x1F`, a negated one folded in).
    Int(i64),
    /// A float literal (`2.5`, `.5`, `1e3`).
    Float(f64),
    /// `True` or `False`.
    Bool(bool),
    /// `None`.
    NoneLit,
    /// `[a, b, ...]`.
    List(Vec<PyNode>),
    /// `(a, b, ...)`, `(a,)` or `()`; parentheses around one expression make no tuple.
    Tuple(Vec<PyNode>),
    /// `{k: v, ...}`.
    Dict(Vec<(PyNode, PyNode)>),
    /// `lambda x, y: body`.
    Lambda(Vec<String>, Box<PyNode>),
    /// `obj.name`: an attribute of an expression.
    Attr(Box<PyNode>, String),
    /// `f(args)`: the callee and its arguments in order.
    Call(Box<PyNode>, Vec<Arg>),
    /// `obj[index]` (`df['col']`, `row[0]`).
    Index(Box<PyNode>, Box<PyNode>),
    /// `left op right`.
    Binary(PyBinOp, Box<PyNode>, Box<PyNode>),
    /// `op operand`.
    Unary(PyUnOp, Box<PyNode>),
}

/// One statement of a program.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// `a = expr` (or `a = b = expr`): the names bound, in order.
    Assign(Vec<String>, PyNode),
    /// An expression on its own line: a DataFrame, or a call made for its effect
    /// (`clicks.createOrReplaceTempView('clicks')`, `query.awaitTermination()`).
    Expr(PyNode),
}

/// A parsed program: its statements in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The statements, in program order.
    pub statements: Vec<Statement>,
}

fn pratt() -> PrattParser<Rule> {
    // Python precedence, loosest first: or, and, not, comparisons (in, is, ==, ...), |, ^, &,
    // + -, * / // %, unary - + ~, **, postfix.
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
        .op(Op::infix(Rule::or, Assoc::Left))
        .op(Op::infix(Rule::xor, Assoc::Left))
        .op(Op::infix(Rule::and, Assoc::Left))
        .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
        .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::floordiv, Assoc::Left) | Op::infix(Rule::modulo, Assoc::Left))
        .op(Op::prefix(Rule::neg) | Op::prefix(Rule::pos) | Op::prefix(Rule::invert))
        .op(Op::infix(Rule::pow, Assoc::Right))
        .op(Op::postfix(Rule::attr) | Op::postfix(Rule::call) | Op::postfix(Rule::index))
}

/// The longest query text the parser reads, in bytes.
pub const MAX_QUERY_BYTES: usize = 100_000;

/// The deepest nesting of brackets (`(`, `[`, `{`) the parser reads. Python's own tokenizer
/// stops at 200 ("too many nested parentheses"); the lab stops earlier so that no later phase
/// (evaluator, analyzer, execution: they all recurse over the tree) can run out of stack.
/// Measured in the lab (wasm32 release build, 1 MiB stack, limits lifted): about 825 nested
/// brackets overflow the stack.
pub const MAX_NESTING: usize = 100;

/// The deepest syntax tree the parser builds: every call, attribute and operator adds a level
/// (`clicks.filter(c).select(d)` is 4 levels above `clicks`). Deeper text is rejected with a
/// positioned message instead of risking the wasm stack in the evaluator (measured: a chain of
/// about 990 levels overflows it); what the tree evaluates to is bounded again by
/// `plan::limits`.
pub const MAX_DEPTH: usize = 200;

/// Parses program text into a [`Program`].
///
/// Runs in time linear in the text: the layout pass and the bracket count are single scans, the
/// grammar never parses the same text twice, and the tree is built bottom-up with its depth
/// checked.
///
/// # Errors
/// [`ParseError`] with the position pest stopped at and what it expected there; a text longer
/// than [`MAX_QUERY_BYTES`], brackets nested deeper than [`MAX_NESTING`] or a tree deeper than
/// [`MAX_DEPTH`] get a message saying so, pointing at where the limit was crossed.
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    if text.len() > MAX_QUERY_BYTES {
        return Err(ParseError::new(
            format!("the query is {} bytes long; Streamlab reads queries up to {MAX_QUERY_BYTES} bytes", text.len()),
            Span::new(MAX_QUERY_BYTES, text.len()),
        ));
    }
    let scan = layout(text);
    if let Some(at) = scan.too_deep {
        return Err(ParseError::new(
            format!("brackets are nested more than {MAX_NESTING} levels deep here; Streamlab reads up to {MAX_NESTING} (split the query with assignments such as w = ...)"),
            Span::new(at, at + 1),
        ));
    }
    let laid = scan.text;
    let mut pairs = PythonParser::parse(Rule::program, &laid).map_err(|e| pest_error(&laid, e, scan.unclosed, scan.unclosed_string))?;
    let program = pairs.next().ok_or_else(|| ParseError::new(EMPTY, Span::new(0, text.len())))?;
    let pratt = pratt();
    let mut statements = Vec::new();
    for p in program.into_inner() {
        match p.as_rule() {
            Rule::assign => {
                let mut names = Vec::new();
                let mut value = None;
                for inner in p.into_inner() {
                    match inner.as_rule() {
                        Rule::ident => names.push(inner.as_str().to_string()),
                        _ => value = Some(build_expr(&pratt, inner)?.0),
                    }
                }
                statements.push(Statement::Assign(names, value.expect("grammar: an assignment has a value")));
            }
            Rule::expr_stmt => {
                let e = p.into_inner().next().expect("grammar: expression statement");
                statements.push(Statement::Expr(build_expr(&pratt, e)?.0));
            }
            _ => {}
        }
    }
    if statements.is_empty() {
        return Err(ParseError::new(EMPTY, Span::new(0, text.len())));
    }
    Ok(Program { statements })
}

const EMPTY: &str = "the query is empty: write a DataFrame expression such as clicks.select('event_id')";

fn pest_error(text: &str, e: pest::error::Error<Rule>, unclosed: Option<usize>, unclosed_string: Option<usize>) -> ParseError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let pos = floor_char_boundary(text, pos);
    if let Some(open) = unclosed_string.filter(|&o| o <= pos) {
        let quote: String = text[open..].chars().take_while(|c| matches!(c, '\'' | '"')).take(3).collect();
        let what = if quote.len() == 3 { format!("this {quote} string is never closed") } else { "this string is not closed".to_string() };
        return ParseError::new(what, Span::new(open, (open + quote.len().max(1)).min(text.len())));
    }
    let rest = &text[pos..];
    let found = rest.chars().next();
    if found.is_none() {
        if let Some(open) = unclosed {
            let c = text[open..].chars().next().unwrap_or('(');
            return ParseError::new(format!("this '{c}' is never closed"), Span::new(open, open + c.len_utf8()));
        }
    }
    // Nothing but blanks (comments are blanked by the layout pass): not a cut-off query, an
    // empty one.
    let blank = text.trim().is_empty();
    let message = match found {
        None if blank => EMPTY.to_string(),
        None => "the query ends too early: a bracket or quote is not closed".to_string(),
        Some('\n') => "this line ends too early: an expression is missing here".to_string(),
        Some(c) if c == '"' || c == '\'' => "this string is not closed".to_string(),
        Some(c) => format!("unexpected '{c}': expected a name, a string, a number or an operator here"),
    };
    let end = (pos + found.map_or(0, char::len_utf8)).min(text.len());
    ParseError::new(message, Span::new(pos, end))
}

/// The largest char boundary at or before `i` (pest reports byte offsets; keep them slicable).
fn floor_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// What the layout pass made of the text, and what its scan of the brackets found.
struct Layout {
    /// The text with comments, newlines inside brackets, backslash continuations and the
    /// newlines before a line that starts with `.` blanked: the same length, every byte offset
    /// unchanged.
    text: String,
    /// The byte position of the first bracket opened deeper than [`MAX_NESTING`].
    too_deep: Option<usize>,
    /// The innermost bracket left open at the end of the text.
    unclosed: Option<usize>,
    /// Where a string that is never closed starts.
    unclosed_string: Option<usize>,
}

/// Python's logical lines, as its tokenizer joins them: a newline inside `(`, `[` or `{`, or
/// after a backslash, does not end a statement. A line whose first character is `.` continues
/// the line before it (Python would refuse it; a chain broken before its dots is what learners
/// paste from notebooks and slides, and no other reading of it exists). Comments are blanked.
/// Strings are kept as written, triple-quoted ones with their newlines.
fn layout(text: &str) -> Layout {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let bytes = text.as_bytes();
    let mut stack: Vec<usize> = Vec::new();
    let mut too_deep = None;
    let mut unclosed_string = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\'' | b'"' => {
                let triple = bytes.len() >= i + 3 && bytes[i + 1] == c && bytes[i + 2] == c;
                let start = i;
                i += if triple { 3 } else { 1 };
                let mut closed = false;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'\n' if !triple => break,
                        q if q == c && (!triple || (bytes.len() >= i + 3 && bytes[i + 1] == c && bytes[i + 2] == c)) => {
                            i += if triple { 3 } else { 1 };
                            closed = true;
                            break;
                        }
                        _ => i += 1,
                    }
                }
                if !closed && unclosed_string.is_none() {
                    unclosed_string = Some(start);
                }
                continue;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            b'\\' if bytes.get(i + 1) == Some(&b'\n') || (bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                out[i] = b' ';
            }
            b'(' | b'[' | b'{' => {
                stack.push(i);
                if stack.len() > MAX_NESTING && too_deep.is_none() {
                    too_deep = Some(i);
                }
            }
            b')' | b']' | b'}' => {
                stack.pop();
            }
            b'\n' if !stack.is_empty() => out[i] = b' ',
            b'\n' if continues_with_dot(bytes, i + 1) => out[i] = b' ',
            _ => {}
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by ASCII spaces, and whole comments (whatever their
    // characters) by spaces: the text is still UTF-8.
    let text = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Layout { text, too_deep, unclosed: stack.pop(), unclosed_string }
}

/// True if the next line that is not blank or a comment starts with `.` followed by a name.
fn continues_with_dot(bytes: &[u8], mut i: usize) -> bool {
    loop {
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r') {
            i += 1;
        }
        match bytes.get(i) {
            Some(b'.') => return bytes.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_'),
            Some(b'\n') => i += 1,
            Some(b'#') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => return false,
        }
    }
}

fn span_of(p: &Pair<Rule>) -> Span {
    Span::new(p.as_span().start(), p.as_span().end())
}

/// A node and the depth of the tree under it (a leaf is 1).
type Built = Result<(PyNode, usize), ParseError>;

/// Wraps a new node over children of depth `below`, refusing to go past [`MAX_DEPTH`].
fn node(kind: PyNodeKind, span: Span, below: usize) -> Built {
    let depth = below + 1;
    if depth > MAX_DEPTH {
        return Err(ParseError::new(
            format!("the query nests calls, operators and brackets more than {MAX_DEPTH} levels deep here; Streamlab reads up to {MAX_DEPTH} (split it with assignments such as w = ...)"),
            span,
        ));
    }
    Ok((PyNode { kind, span }, depth))
}

fn build_expr(pratt: &PrattParser<Rule>, pair: Pair<Rule>) -> Built {
    build_pairs(pratt, pair.into_inner())
}

fn build_pairs(pratt: &PrattParser<Rule>, pairs: Pairs<Rule>) -> Built {
    // Pest's Pratt parser recurses once per prefix operator: refuse long runs of them before
    // it starts (`- - - ... x`).
    let mut run = 0;
    for p in pairs.clone() {
        if matches!(p.as_rule(), Rule::neg | Rule::pos | Rule::invert | Rule::not_op) {
            run += 1;
            if run >= MAX_DEPTH {
                return node(PyNodeKind::NoneLit, span_of(&p), MAX_DEPTH);
            }
        } else {
            run = 0;
        }
    }
    pratt
        .map_primary(|p| build_primary(pratt, p))
        .map_prefix(|op, rhs| {
            let (rhs, depth) = rhs?;
            let span = Span::new(op.as_span().start(), rhs.span.end);
            match op.as_rule() {
                Rule::neg => match rhs.kind {
                    PyNodeKind::Int(v) => Ok((PyNode { kind: PyNodeKind::Int(v.wrapping_neg()), span }, depth)),
                    PyNodeKind::Float(v) => Ok((PyNode { kind: PyNodeKind::Float(-v), span }, depth)),
                    k => node(PyNodeKind::Unary(PyUnOp::Neg, Box::new(PyNode { kind: k, span: rhs.span })), span, depth),
                },
                Rule::pos => node(PyNodeKind::Unary(PyUnOp::Pos, Box::new(rhs)), span, depth),
                Rule::not_op => node(PyNodeKind::Unary(PyUnOp::Not, Box::new(rhs)), span, depth),
                _ => node(PyNodeKind::Unary(PyUnOp::Invert, Box::new(rhs)), span, depth),
            }
        })
        .map_postfix(|lhs, op| {
            let (lhs, depth) = lhs?;
            let span = Span::new(lhs.span.start, op.as_span().end());
            match op.as_rule() {
                Rule::attr => {
                    let name = op.into_inner().next().expect("grammar: attr name").as_str().to_string();
                    node(PyNodeKind::Attr(Box::new(lhs), name), span, depth)
                }
                Rule::call => {
                    let mut args = Vec::new();
                    let mut deepest = depth;
                    for a in op.into_inner() {
                        let inner = a.into_inner().next().expect("grammar: arg");
                        let (kind, value) = match inner.as_rule() {
                            Rule::kwarg => {
                                let mut kv = inner.into_inner();
                                let name = kv.next().expect("grammar: kwarg name").as_str().to_string();
                                (ArgKind::Keyword(name), build_expr(pratt, kv.next().expect("grammar: kwarg value"))?)
                            }
                            Rule::star => (ArgKind::Star, build_expr(pratt, inner.into_inner().next().expect("grammar: *value"))?),
                            Rule::double_star => (ArgKind::DoubleStar, build_expr(pratt, inner.into_inner().next().expect("grammar: **value"))?),
                            _ => (ArgKind::Positional, build_expr(pratt, inner)?),
                        };
                        deepest = deepest.max(value.1);
                        args.push(Arg { kind, value: value.0 });
                    }
                    node(PyNodeKind::Call(Box::new(lhs), args), span, deepest)
                }
                _ => {
                    let (idx, d) = build_expr(pratt, op.into_inner().next().expect("grammar: index"))?;
                    node(PyNodeKind::Index(Box::new(lhs), Box::new(idx)), span, depth.max(d))
                }
            }
        })
        .map_infix(|lhs, op, rhs| {
            let ((lhs, ld), (rhs, rd)) = (lhs?, rhs?);
            let bop = match op.as_rule() {
                Rule::eq => PyBinOp::Eq,
                Rule::ne => PyBinOp::Ne,
                Rule::lt => PyBinOp::Lt,
                Rule::le => PyBinOp::Le,
                Rule::gt => PyBinOp::Gt,
                Rule::ge => PyBinOp::Ge,
                Rule::or => PyBinOp::Or,
                Rule::xor => PyBinOp::Xor,
                Rule::and => PyBinOp::And,
                Rule::add => PyBinOp::Add,
                Rule::sub => PyBinOp::Sub,
                Rule::mul => PyBinOp::Mul,
                Rule::div => PyBinOp::Div,
                Rule::floordiv => PyBinOp::FloorDiv,
                Rule::pow => PyBinOp::Pow,
                Rule::or_op => PyBinOp::BoolOr,
                Rule::and_op => PyBinOp::BoolAnd,
                Rule::in_op => PyBinOp::In,
                Rule::not_in => PyBinOp::NotIn,
                Rule::is_op => PyBinOp::Is,
                Rule::is_not => PyBinOp::IsNot,
                _ => PyBinOp::Mod,
            };
            let span = Span::new(lhs.span.start, rhs.span.end);
            node(PyNodeKind::Binary(bop, Box::new(lhs), Box::new(rhs)), span, ld.max(rd))
        })
        .parse(pairs)
}

fn build_primary(pratt: &PrattParser<Rule>, p: Pair<Rule>) -> Built {
    let span = span_of(&p);
    let kind = match p.as_rule() {
        Rule::ident => PyNodeKind::Name(p.as_str().to_string()),
        Rule::keyword => match p.as_str() {
            "True" => PyNodeKind::Bool(true),
            "False" => PyNodeKind::Bool(false),
            _ => PyNodeKind::NoneLit,
        },
        Rule::number => number(p.as_str(), span)?,
        Rule::strings => {
            let mut text = String::new();
            for part in p.into_inner() {
                text.push_str(&string_literal(part)?);
            }
            PyNodeKind::Str(text)
        }
        Rule::list => {
            let (items, deepest) = build_items(pratt, p.into_inner())?;
            return node(PyNodeKind::List(items), span, deepest);
        }
        Rule::dict => {
            let mut entries = Vec::new();
            let mut deepest = 0;
            for pair in p.into_inner() {
                let mut kv = pair.into_inner();
                let (k, kd) = build_expr(pratt, kv.next().expect("grammar: dict key"))?;
                let (v, vd) = build_expr(pratt, kv.next().expect("grammar: dict value"))?;
                deepest = deepest.max(kd).max(vd);
                entries.push((k, v));
            }
            return node(PyNodeKind::Dict(entries), span, deepest);
        }
        Rule::lambda => {
            let mut params = Vec::new();
            let mut body = None;
            for inner in p.into_inner() {
                match inner.as_rule() {
                    Rule::ident => params.push(inner.as_str().to_string()),
                    Rule::k_lambda => {}
                    _ => body = Some(build_expr(pratt, inner)?),
                }
            }
            let (body, depth) = body.expect("grammar: a lambda has a body");
            return node(PyNodeKind::Lambda(params, Box::new(body)), span, depth);
        }
        Rule::group => {
            // `()` and anything with a comma is a tuple; one expression alone is parenthesised.
            let inner: Vec<Pair<Rule>> = p.into_inner().collect();
            let tuple = inner.is_empty() || inner.iter().any(|i| i.as_rule() == Rule::comma);
            let exprs = inner.into_iter().filter(|i| i.as_rule() == Rule::expr);
            let (mut items, deepest) = build_items(pratt, exprs)?;
            if !tuple {
                let only = items.pop().expect("grammar: a group without a comma holds one expression");
                return Ok((only, deepest));
            }
            return node(PyNodeKind::Tuple(items), span, deepest);
        }
        other => return Err(ParseError::new(format!("unsupported syntax ({other:?})"), span)),
    };
    Ok((PyNode { kind, span }, 1))
}

/// A Python number literal: `42`, `1_000`, `0x1F`, `0o17`, `0b101`, `2.5`, `.5`, `1e3`.
fn number(text: &str, span: Span) -> Result<PyNodeKind, ParseError> {
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    let radix = match digits.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => Some(16),
        Some("0o") => Some(8),
        Some("0b") => Some(2),
        _ => None,
    };
    if let Some(radix) = radix {
        return i64::from_str_radix(&digits[2..], radix).map(PyNodeKind::Int).map_err(|_| ParseError::new(format!("the number {text} is too large for 64 bits"), span));
    }
    if digits.contains(['.', 'e', 'E']) {
        return digits.parse().map(PyNodeKind::Float).map_err(|_| ParseError::new(format!("'{text}' is not a number"), span));
    }
    // Python reads `007` as an error; a leading zero on a whole number is refused the same way.
    if digits.len() > 1 && digits.starts_with('0') && digits.chars().any(|c| c != '0') {
        return Err(ParseError::new(
            format!("SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers ({text})"),
            span,
        ));
    }
    digits.parse().map(PyNodeKind::Int).map_err(|_| ParseError::new(format!("the number {text} is too large for 64 bits"), span))
}

/// One string literal's value: escapes read unless the prefix has `r`; `b'...'` and f-strings
/// are refused with a message.
fn string_literal(p: Pair<Rule>) -> Result<String, ParseError> {
    let span = span_of(&p);
    let mut prefix = String::new();
    let mut body = "";
    for inner in p.into_inner() {
        match inner.as_rule() {
            Rule::string_prefix => prefix = inner.as_str().to_ascii_lowercase(),
            _ => body = inner.as_str(),
        }
    }
    if prefix.contains('b') {
        return Err(ParseError::new("a bytes literal (b'...') is not read here; write a str", span));
    }
    // An f-string with nothing to substitute is its text.
    if prefix.contains('f') && body.contains('{') {
        return Err(ParseError::not_modelled("Python f-strings", "an f-string with {...} is not read here; write the text out, or join strings with +", span));
    }
    Ok(if prefix.contains('r') { body.to_string() } else { crate::pyfunc::unescape(body) })
}

/// Builds a list of expressions, with the depth of the deepest.
fn build_items<'i>(pratt: &PrattParser<Rule>, pairs: impl Iterator<Item = Pair<'i, Rule>>) -> Result<(Vec<PyNode>, usize), ParseError> {
    let mut items = Vec::new();
    let mut deepest = 0;
    for e in pairs {
        let (n, d) = build_expr(pratt, e)?;
        deepest = deepest.max(d);
        items.push(n);
    }
    Ok((items, deepest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> PyNode {
        match parse_program(text).unwrap().statements.pop() {
            Some(Statement::Expr(n) | Statement::Assign(_, n)) => n,
            None => panic!("no statement"),
        }
    }

    fn s(text: &str) -> String {
        match q(text).kind {
            PyNodeKind::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    /// An empty query (blanks, comments) is called empty; a cut-off one is not.
    #[test]
    fn an_empty_query_is_not_called_unclosed() {
        let msg = |t: &str| parse_program(t).map(|_| ()).unwrap_err().message;
        let empty = "the query is empty: write a DataFrame expression such as clicks.select('event_id')";
        assert_eq!(msg(""), empty);
        assert_eq!(msg("  \n# only a comment\n"), empty);
        assert_eq!(msg("clicks.select('a',"), "this '(' is never closed");
    }

    #[test]
    fn python_precedence_comparisons_bind_loosest() {
        // Python: `a == 1 & b` is `a == (1 & b)`.
        let n = q("a == 1 & b");
        let PyNodeKind::Binary(PyBinOp::Eq, _, rhs) = n.kind else { panic!("{n:?}") };
        assert!(matches!(rhs.kind, PyNodeKind::Binary(PyBinOp::And, _, _)));
        // `not a == b` is `not (a == b)`; `a and b or c` is `(a and b) or c`; `-a ** 2` is `-(a ** 2)`.
        assert!(matches!(q("not a == b").kind, PyNodeKind::Unary(PyUnOp::Not, ref e) if matches!(e.kind, PyNodeKind::Binary(PyBinOp::Eq, _, _))));
        assert!(matches!(q("a and b or c").kind, PyNodeKind::Binary(PyBinOp::BoolOr, ref l, _) if matches!(l.kind, PyNodeKind::Binary(PyBinOp::BoolAnd, _, _))));
        assert!(matches!(q("-a ** 2").kind, PyNodeKind::Unary(PyUnOp::Neg, ref e) if matches!(e.kind, PyNodeKind::Binary(PyBinOp::Pow, _, _))));
    }

    #[test]
    fn call_chain_with_kwargs_and_lists() {
        let n = q("clicks.dropDuplicates(['a', \"b\"]).join(o, on='k', how='left')");
        let PyNodeKind::Call(f, args) = n.kind else { panic!() };
        // join(o, on='k', how='left'): one positional and two keyword arguments.
        assert_eq!(args.len(), 3);
        assert_eq!(args[0].kind, ArgKind::Positional);
        assert_eq!(args[2].name(), Some("how"));
        assert!(matches!(f.kind, PyNodeKind::Attr(_, ref m) if m == "join"));
        let PyNodeKind::Call(_, args) = q("F.struct(*cols, **opts)").kind else { panic!() };
        assert_eq!((args[0].kind.clone(), args[1].kind.clone()), (ArgKind::Star, ArgKind::DoubleStar));
    }

    #[test]
    fn statements_end_at_newlines_outside_brackets() {
        let p = parse_program("# windows\nw = clicks.select('a')  # first\nw.filter('a > 1')\nquery = w.writeStream.start(); query.awaitTermination()").unwrap();
        assert_eq!(p.statements.len(), 4);
        assert!(matches!(&p.statements[0], Statement::Assign(n, _) if n == &["w"]));
        assert!(matches!(&p.statements[3], Statement::Expr(_)));
        // A newline inside brackets, after a backslash, or before a line that starts with a
        // dot does not end the statement: one statement each.
        for text in ["x = (clicks\n  .select('a'))", "x = clicks \\\n  .select('a')", "clicks\n  .select('a')\n  # note\n  .filter('a > 1')", "clicks.select(\n  'a',\n  'b'\n)"] {
            assert_eq!(parse_program(text).unwrap().statements.len(), 1, "{text}");
        }
        // `(x)` on the next line is a new statement, not a call of the line before.
        let p = parse_program("counts = clicks.groupBy('a').count()\n(counts.writeStream.start())").unwrap();
        assert_eq!(p.statements.len(), 2);
        assert!(matches!(&p.statements[0], Statement::Assign(_, n) if matches!(n.kind, PyNodeKind::Call(..))));
        // `a = b = expr` binds both names.
        assert!(matches!(&parse_program("a = b = clicks").unwrap().statements[0], Statement::Assign(n, _) if n == &["a", "b"]));
    }

    #[test]
    fn python_string_literals() {
        assert_eq!(s("'a' \"b\"  'c'"), "abc");
        assert_eq!(s("('event_time '\n 'is late')"), "event_time is late");
        assert_eq!(s("\"\"\"\n  a = b AND\n  c > 1\n\"\"\""), "\n  a = b AND\n  c > 1\n");
        assert_eq!(s("'''it's'''"), "it's");
        assert_eq!(s(r"r'\d+'"), r"\d+");
        assert_eq!(s(r"'\d+\t'"), "\\d+\t");
        assert_eq!(s("f'plain'"), "plain");
        // A `#` inside a string is not a comment.
        assert_eq!(s("'a # b' # c"), "a # b");
        assert!(parse_program("f'{x}'").unwrap_err().unsupported.is_some());
        let e = parse_program("F.expr(\"\"\"a = b\n").unwrap_err();
        assert_eq!((e.message.as_str(), e.span.start), ("this \"\"\" string is never closed", 7));
    }

    #[test]
    fn python_numbers() {
        assert_eq!(q("1_000").kind, PyNodeKind::Int(1000));
        assert_eq!(q("0x1F").kind, PyNodeKind::Int(31));
        assert_eq!(q("0o17").kind, PyNodeKind::Int(15));
        assert_eq!(q("0b101").kind, PyNodeKind::Int(5));
        assert_eq!(q(".5").kind, PyNodeKind::Float(0.5));
        assert_eq!(q("1e3").kind, PyNodeKind::Float(1000.0));
        assert_eq!(q("2.").kind, PyNodeKind::Float(2.0));
        assert!(parse_program("007").unwrap_err().message.contains("leading zeros"));
    }

    #[test]
    fn dicts_and_lambdas() {
        assert!(matches!(q("{'a': 1, 'b': F.col('x')}").kind, PyNodeKind::Dict(ref e) if e.len() == 2));
        let PyNodeKind::Call(_, args) = q("F.transform('xs', lambda x: x + 1)").kind else { panic!() };
        assert!(matches!(args[1].value.kind, PyNodeKind::Lambda(ref p, _) if p == &["x"]));
        assert!(matches!(q("lambda k, v: v > 1").kind, PyNodeKind::Lambda(ref p, _) if p.len() == 2));
    }

    #[test]
    fn errors_point_at_the_problem() {
        // An unclosed call points at its open bracket.
        let e = parse_program("clicks.select('a'").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (13, 14));
        assert!(e.message.contains("'('"), "{}", e.message);
        let e = parse_program("clicks.select('a) ").unwrap_err();
        assert!(e.message.contains("string"), "{}", e.message);
        let e = parse_program("clicks.select(@)").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (14, 15));
        assert!(parse_program("   ").is_err());
        // Comments keep their offsets: the error after one points where it is.
        let text = "# ünïcode comment\nclicks.select(@)";
        let e = parse_program(text).unwrap_err();
        assert_eq!(&text[e.span.start..e.span.end], "@");
    }

    #[test]
    fn negative_numbers_and_tuples() {
        assert_eq!(q("-5").kind, PyNodeKind::Int(-5));
        assert!(matches!(q("('a', 'b')").kind, PyNodeKind::Tuple(ref v) if v.len() == 2));
        assert!(matches!(q("()").kind, PyNodeKind::Tuple(ref v) if v.is_empty()));
    }
}
