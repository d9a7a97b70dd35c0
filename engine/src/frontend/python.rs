//! Parses the PySpark subset into a small Python AST, with byte spans for every node.
//!
//! The grammar is `python.pest` (a `pest` PEG); operator precedence comes from pest's
//! `PrattParser` and follows Python's table, so `F.col('a') == 1 & F.col('b') == 2` parses
//! as it does in Python (`1 & F.col('b')` first).

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
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Or,
    Xor,
    And,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// A Python unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyUnOp {
    Neg,
    Invert,
}

/// A call argument: positional or `name=value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub name: Option<String>,
    pub value: PyNode,
}

/// One node of the Python syntax tree (the query text as parsed, before `interpret.rs` builds
/// a `LogicalPlan` from it), with its source span. Not the analyzed plan's
/// `analysis::plan::Node`.
#[derive(Debug, Clone, PartialEq)]
pub struct PyNode {
    pub kind: PyNodeKind,
    pub span: Span,
}

/// The kinds of Python syntax-tree node in the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum PyNodeKind {
    Name(String),
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    NoneLit,
    List(Vec<PyNode>),
    Tuple(Vec<PyNode>),
    Attr(Box<PyNode>, String),
    Call(Box<PyNode>, Vec<Arg>),
    Index(Box<PyNode>, Box<PyNode>),
    Binary(PyBinOp, Box<PyNode>, Box<PyNode>),
    Unary(PyUnOp, Box<PyNode>),
}

/// A parsed program: `name = expr` statements, then the query expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub assignments: Vec<(String, PyNode)>,
    pub query: PyNode,
}

fn pratt() -> PrattParser<Rule> {
    // Python precedence, loosest first: comparisons, |, ^, &, + -, * / %, unary, postfix.
    PrattParser::new()
        .op(Op::infix(Rule::eq, Assoc::Left)
            | Op::infix(Rule::ne, Assoc::Left)
            | Op::infix(Rule::lt, Assoc::Left)
            | Op::infix(Rule::le, Assoc::Left)
            | Op::infix(Rule::gt, Assoc::Left)
            | Op::infix(Rule::ge, Assoc::Left))
        .op(Op::infix(Rule::or, Assoc::Left))
        .op(Op::infix(Rule::xor, Assoc::Left))
        .op(Op::infix(Rule::and, Assoc::Left))
        .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
        .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::modulo, Assoc::Left))
        .op(Op::prefix(Rule::neg) | Op::prefix(Rule::invert))
        .op(Op::postfix(Rule::attr) | Op::postfix(Rule::call) | Op::postfix(Rule::index))
}

/// The longest query text the parser reads, in bytes.
pub const MAX_QUERY_BYTES: usize = 100_000;

/// The deepest nesting of brackets (`(`, `[`) the parser reads. Python's own tokenizer stops
/// at 200 ("too many nested parentheses"); the lab stops earlier so that no later phase
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

/// Parses query text into a [`Program`].
///
/// Runs in time linear in the text: the grammar never parses the same text twice, brackets
/// are counted before parsing and the tree is built bottom-up with its depth checked.
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
    let scan = scan_brackets(text);
    if let Some(at) = scan.too_deep {
        return Err(ParseError::new(
            format!("brackets are nested more than {MAX_NESTING} levels deep here; Streamlab reads up to {MAX_NESTING} (split the query with assignments such as w = ...)"),
            Span::new(at, at + 1),
        ));
    }
    let mut pairs = PythonParser::parse(Rule::program, text).map_err(|e| pest_error(text, e, scan.unclosed))?;
    let program = pairs.next().ok_or_else(|| ParseError::new("the query is empty", Span::new(0, text.len())))?;
    let pratt = pratt();
    let mut assignments = Vec::new();
    let mut query = None;
    for p in program.into_inner() {
        match p.as_rule() {
            Rule::statement => {
                let mut inner = p.into_inner();
                let name = inner.next().expect("grammar: statement name").as_str().to_string();
                let (value, _) = build_expr(&pratt, inner.next().expect("grammar: statement value"))?;
                assignments.push((name, value));
            }
            Rule::expr => query = Some(build_expr(&pratt, p)?.0),
            _ => {}
        }
    }
    let query = query.ok_or_else(|| ParseError::new("the query is empty: write a DataFrame expression such as clicks.select('event_id')", Span::new(0, text.len())))?;
    Ok(Program { assignments, query })
}

fn pest_error(text: &str, e: pest::error::Error<Rule>, unclosed: Option<usize>) -> ParseError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let pos = floor_char_boundary(text, pos);
    let rest = &text[pos..];
    let found = rest.chars().next();
    if found.is_none() {
        if let Some(open) = unclosed {
            let c = text[open..].chars().next().unwrap_or('(');
            return ParseError::new(format!("this '{c}' is never closed"), Span::new(open, open + c.len_utf8()));
        }
    }
    // Nothing but blanks and comments: not a cut-off query, an empty one.
    let blank = text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    let message = match found {
        None if blank => "the query is empty: write a DataFrame expression such as clicks.select('event_id')".to_string(),
        None => "the query ends too early: a bracket or quote is not closed".to_string(),
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

/// What one pass over the brackets found (strings and comments skipped).
struct BracketScan {
    /// The byte position of the first bracket opened deeper than [`MAX_NESTING`].
    too_deep: Option<usize>,
    /// The innermost bracket left open at the end of the text.
    unclosed: Option<usize>,
}

fn scan_brackets(text: &str) -> BracketScan {
    let mut stack = Vec::new();
    let mut too_deep = None;
    let mut quote: Option<char> = None;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(_), '\n') => quote = None,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            (None, '(' | '[') => {
                stack.push(i);
                if stack.len() > MAX_NESTING && too_deep.is_none() {
                    too_deep = Some(i);
                }
            }
            (None, ')' | ']') => {
                stack.pop();
            }
            _ => {}
        }
    }
    BracketScan { too_deep, unclosed: stack.pop() }
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
        if matches!(p.as_rule(), Rule::neg | Rule::invert) {
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
                        let (name, value) = match inner.as_rule() {
                            Rule::kwarg => {
                                let mut kv = inner.into_inner();
                                let name = kv.next().expect("grammar: kwarg name").as_str().to_string();
                                (Some(name), build_expr(pratt, kv.next().expect("grammar: kwarg value"))?)
                            }
                            _ => (None, build_expr(pratt, inner)?),
                        };
                        deepest = deepest.max(value.1);
                        args.push(Arg { name, value: value.0 });
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
        Rule::number => {
            let s = p.as_str();
            if s.contains(['.', 'e', 'E']) {
                PyNodeKind::Float(s.parse().map_err(|_| ParseError::new(format!("'{s}' is not a number"), span))?)
            } else {
                PyNodeKind::Int(s.parse().map_err(|_| ParseError::new(format!("the number {s} is too large"), span))?)
            }
        }
        Rule::string => {
            let mut raw = false;
            let mut body = "";
            for inner in p.into_inner() {
                match inner.as_rule() {
                    Rule::string_prefix => raw = true,
                    _ => body = inner.as_str(),
                }
            }
            PyNodeKind::Str(if raw { body.to_string() } else { crate::pyfunc::unescape(body) })
        }
        Rule::list => {
            let (items, deepest) = build_items(pratt, p.into_inner())?;
            return node(PyNodeKind::List(items), span, deepest);
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
        parse_program(text).unwrap().query
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
    }

    #[test]
    fn call_chain_with_kwargs_and_lists() {
        let n = q("clicks.dropDuplicates(['a', \"b\"]).join(o, on='k', how='left')");
        let PyNodeKind::Call(f, args) = n.kind else { panic!() };
        // join(o, on='k', how='left'): one positional and two keyword arguments.
        assert_eq!(args.len(), 3);
        assert_eq!(args[0].name, None);
        assert_eq!(args[2].name.as_deref(), Some("how"));
        assert!(matches!(f.kind, PyNodeKind::Attr(_, ref m) if m == "join"));
    }

    #[test]
    fn assignments_and_comments() {
        let p = parse_program("# windows\nw = clicks.select('a')  # first\nw.filter('a > 1')").unwrap();
        assert_eq!(p.assignments.len(), 1);
        assert_eq!(p.assignments[0].0, "w");
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
    }

    #[test]
    fn negative_numbers_and_tuples() {
        assert_eq!(q("-5").kind, PyNodeKind::Int(-5));
        assert!(matches!(q("('a', 'b')").kind, PyNodeKind::Tuple(ref v) if v.len() == 2));
        assert!(matches!(q("()").kind, PyNodeKind::Tuple(ref v) if v.is_empty()));
    }
}
