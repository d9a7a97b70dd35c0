//! Python text → statements: the layout pass (`layout.rs`: indentation to INDENT/DEDENT
//! marks, bracketed lines joined, as Python's tokenizer does), then the pest grammar
//! `pyfunc.pest`, then a syntax tree (`ast.rs`, built by `build.rs`; string literals and
//! f-strings in `strings.rs`) whose every node knows its source line.

mod ast;
mod build;
mod layout;
mod strings;

pub use ast::{BinOp, Expr, ExprKind, FPart, FuncDef, Stmt, StmtKind, Target, UnOp};
pub use strings::unescape;

use pest::Parser;
use pest_derive::Parser;

use build::{pratt, Builder};
use layout::layout;
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

type R<T> = Result<T, PyError>;

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
