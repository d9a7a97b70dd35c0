//! Frontend: PySpark DataFrame text (and SQL expression strings inside it) to a
//! [`LogicalPlan`](crate::plan::LogicalPlan).
//!
//! # Layout
//! - `python.pest` / [`python`]: the Python expression subset, parsed with `pest`.
//! - [`args`]: Spark's checks on interval and window arguments.
//! - [`interpret`]: interprets the Python AST the way PySpark builds a DataFrame.
//! - [`sql`]: SQL strings (`filter("a > 1")`, `F.expr`, `selectExpr`) through `sqlparser`.
//! - [`functions`]: scalar function calls by name, shared by [`interpret`] and [`sql`].
//! - [`start`]: `StreamingQuery::start` / `restart` from query text.

pub mod args;
pub mod interpret;
pub mod functions;
pub mod pyspark_api;
pub mod python;
pub mod sql;
pub mod sql_dialect;
pub mod sql_query;
pub mod sql_select;
pub mod start;

pub use crate::error::{ParseError, Span};
use crate::error::Error;
pub use interpret::{Evaluated, NotRun, SourceRead, Traced};

pub use crate::plan::Catalog;

/// The top-level names a Python prelude defines: `def f(`, `class C`, and what its imports
/// bind that is not PySpark's (`import pandas as pd` binds `pd`). Read with the state
/// functions' Python parser ([`crate::pyfunc::parse_module`]), the one reader of Python text;
/// text that does not parse defines nothing.
pub fn prelude_names(prelude: &str) -> std::collections::BTreeSet<String> {
    crate::pyfunc::parse_module(prelude).map(|m| interpret::python_module_names(&m)).unwrap_or_default()
}

/// Parses and evaluates program text into a logical plan: the Python code in it (`import`,
/// `def`, `class` blocks, [`split_python_blocks`]) binds its names first, then its statements
/// run in order; the query is the one `start()` starts, or the last expression's DataFrame.
///
/// # Examples
/// ```
/// use streamlab_engine::frontend::{compile, Catalog};
/// use streamlab_engine::types::{DataType, timestamp_type};
/// let mut catalog = Catalog::default();
/// catalog.streams.insert("clicks".into(), vec![("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())]);
/// let q = compile("clicks.withWatermark('event_time', '10 minutes').groupBy('post_id').count()", &catalog).unwrap();
/// assert!(q.plan.to_string().starts_with("Aggregate [post_id]"));
/// let program = "from pyspark.sql.functions import window\n\
///                counts = clicks.groupBy(window('event_time', '5 minutes')).count()\n\
///                query = counts.writeStream.outputMode('update').start()\n\
///                query.awaitTermination()";
/// assert!(compile(program, &catalog).unwrap().plan.to_string().starts_with("Aggregate [window"));
/// ```
///
/// # Errors
/// [`Error::Parse`] with a span for syntax and unsupported constructs; [`Error::Analysis`]
/// at [`crate::error::Stage::Define`] for batch actions on a stream (`clicks.count()`) and for
/// what Python or PySpark raise while the DataFrame is built (`TypeError`, `NOT_EXPECTED_TYPE`).
pub fn compile(text: &str, catalog: &Catalog) -> Result<Evaluated, Error> {
    compile_traced(text, catalog).0
}

/// As [`compile`], with what the program did before it ended or failed ([`Traced`]): the
/// reader calls (`spark.readStream.format("rate").load()`), each answered with one of the
/// lab's streams — when the program fails on what that stream lacks (`lines.value`), the lab
/// can say which stream it read — and what its `print(...)` calls wrote.
pub fn compile_traced(text: &str, catalog: &Catalog) -> (Result<Evaluated, Error>, Traced) {
    let program_text = doctest_as_program(text);
    let (query, python) = split_python_blocks(&program_text);
    // Python written above the query (`import`, `def`): its names join the catalog's, its text
    // goes first in the prelude so that its line numbers are the editor's.
    // A syntax error in the Python is reported at its own line, before the query is read.
    let module = match crate::pyfunc::parse_module(&python) {
        Ok(m) => m,
        Err(e) => {
            let start: usize = text.split_inclusive('\n').take(e.line.saturating_sub(1)).map(str::len).sum::<usize>().min(text.len());
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i).max(start);
            return (Err(Error::Parse(ParseError::python_syntax(format!("in the Python code above the query, line {}: {}", e.line, e.message.trim_start_matches("SyntaxError: ")), Span::new(start, end)))), Traced::default());
        }
    };
    let program = match python::parse_program(&query) {
        Ok(p) => p,
        Err(e) => return (Err(e.into()), Traced::default()),
    };
    let mut with_python = catalog.clone();
    with_python.prelude = std::rc::Rc::from(format!("{python}\n{}{}", literal_globals(&program, &query), catalog.prelude));
    interpret::Evaluator::new(&with_python).with_source(&query).with_python(&module).run_traced(&program)
}

/// Places an analysis error that has none (the analyzer resolves the whole plan, with no
/// position in the text): an unresolved column goes to the first string literal of `text`'s
/// program that names it (`'event_tme'` in `F.window('event_tme', ...)`), so the editor can
/// point at the typo. Other errors are returned as they are.
pub fn place_in_text(e: Error, text: &str) -> Error {
    let Error::Analysis(mut a) = e else { return e };
    if a.span.is_none() {
        if let Some(name) = unresolved_name(&a).map(str::to_string) {
            let name = name.as_str();
            let program_text = doctest_as_program(text);
            let (query, _) = split_python_blocks(&program_text);
            if let Ok(program) = python::parse_program(&query) {
                a.span = program.statements.iter().find_map(|s| match s {
                    python::Statement::Assign(_, n) | python::Statement::Expr(n) => literal_naming(n, &query, name),
                });
            }
            // A name written in a helper def's body (which the query's statements do not hold):
            // the first string literal of the program's text that names it.
            if a.span.is_none() && program_text.len() == text.len() {
                a.span = quoted_word(&program_text, name);
            }
        }
    }
    Error::Analysis(a)
}

/// The span of `word` where `text` first writes it as a whole word inside a string literal
/// (an odd number of the line's quotes of one kind before it): `"event_tme"` in
/// `F.hour("event_tme")`.
fn quoted_word(text: &str, word: &str) -> Option<Span> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).find_map(|(at, _)| {
        let end = at + word.len();
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..at];
        let whole = !before.chars().next_back().is_some_and(is_word) && !text[end..].chars().next().is_some_and(is_word);
        let quoted = before.matches('\'').count() % 2 == 1 || before.matches('"').count() % 2 == 1;
        (whole && quoted).then(|| Span::new(at, end))
    })
}

/// The column an `UNRESOLVED_COLUMN.*` error names (the first back-quoted name of Spark's
/// message, without its quotes).
pub(crate) fn unresolved_name(a: &crate::error::AnalysisError) -> Option<&str> {
    a.error_class.starts_with("UNRESOLVED_COLUMN").then(|| a.message.split('`').nth(1)).flatten().filter(|n| !n.is_empty())
}

/// The span of `name` as a whole word inside the first string literal of `node` (depth
/// first) whose source text holds it: `'event_tme'`, `F.expr('event_tme + 1')`.
pub(crate) fn literal_naming(node: &python::PyNode, source: &str, name: &str) -> Option<Span> {
    use python::PyNodeKind as K;
    match &node.kind {
        K::Str(_) => word_in(source, node.span, name),
        K::List(items) | K::Tuple(items) => items.iter().find_map(|n| literal_naming(n, source, name)),
        K::Dict(pairs) => pairs.iter().find_map(|(k, v)| literal_naming(k, source, name).or_else(|| literal_naming(v, source, name))),
        K::Call(f, args) => literal_naming(f, source, name).or_else(|| args.iter().find_map(|a| literal_naming(&a.value, source, name))),
        K::Attr(obj, _) | K::Unary(_, obj) | K::Lambda(_, obj) => literal_naming(obj, source, name),
        K::Index(a, b) | K::Binary(_, a, b) => literal_naming(a, source, name).or_else(|| literal_naming(b, source, name)),
        _ => None,
    }
}

/// The span of the first place `name` stands as a whole word (not inside a longer name) in
/// `source[within]`: a column or view name inside a string literal.
pub(crate) fn word_in(source: &str, within: Span, name: &str) -> Option<Span> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let text = source.get(within.start..within.end)?;
    if name.is_empty() {
        return None;
    }
    text.match_indices(name).find_map(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        (!before.is_some_and(word) && !after.is_some_and(word)).then(|| Span::new(within.start + at, within.start + at + name.len()))
    })
}

/// `NAME = <literal>` lines for the program's top-level assignments of plain literals
/// (numbers, strings, tuples and lists of them): module globals the Python code (a state
/// function) may read, as it would in one Python module.
fn literal_globals(program: &python::Program, text: &str) -> String {
    use python::{PyNodeKind as K, Statement};
    fn literal(n: &python::PyNode) -> bool {
        match &n.kind {
            K::Str(_) | K::Int(_) | K::Float(_) | K::Bool(_) | K::NoneLit => true,
            K::List(items) | K::Tuple(items) => items.iter().all(literal),
            _ => false,
        }
    }
    let mut out = String::new();
    for stmt in &program.statements {
        if let Statement::Assign(names, value) = stmt {
            if literal(value) {
                let src = text.get(value.span.start..value.span.end).unwrap_or_default();
                for n in names {
                    out.push_str(&format!("{n} = {src}\n"));
                }
            }
        }
    }
    out
}

/// The API reference's examples as pasted, with their doctest prompts: when a line starts
/// `>>>`, each `>>> ` and `... ` prompt is blanked and every line without one (what the
/// example printed) is blanked whole; and a `with EXPR as NAME:` line (the reference's
/// `with tempfile.TemporaryDirectory() as d:`) becomes `NAME=''`, a stand-in path, its body
/// read as the statements it holds; a script's `if __name__ == "__main__":` line becomes
/// `__name__='__main__'`, its body read the same way. The result has the text's byte offsets and line numbers.
pub fn doctest_as_program(text: &str) -> String {
    let doctest = text.lines().any(|l| l.trim_start().starts_with(">>>"));
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let mut code: String = body.to_string();
        if doctest {
            let indent = body.len() - body.trim_start().len();
            let rest = &body[indent..];
            let prompt = [">>> ", "... "].iter().find(|p| rest.starts_with(**p)).map(|p| p.len()).or_else(|| (rest == ">>>" || rest == "...").then_some(3));
            code = match prompt {
                Some(n) => format!("{}{}", " ".repeat(indent + n), &rest[n..]),
                None => " ".repeat(body.len()),
            };
        }
        // `with EXPR as NAME:` → `NAME=''` (same length: the line is longer than what replaces it).
        let trimmed = code.trim_start();
        if let Some(head) = trimmed.strip_prefix("with ").and_then(|h| h.trim_end().strip_suffix(':')) {
            let at = code.len() - trimmed.len();
            let name = head.rsplit_once(" as ").map(|(_, n)| n.trim()).filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
            let stand_in = name.map_or(String::new(), |n| format!("{n}=''"));
            code = format!("{}{stand_in}{}", " ".repeat(at), " ".repeat(code.len().saturating_sub(at + stand_in.len())));
        }
        // `if __name__ == "__main__":` (a script's entry point) → `__name__='__main__'` (as
        // Python sets it; a statement at the line's margin, so the imports before it end
        // there): its body is what the script runs, read as the statements it holds.
        let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        if compact == "if__name__==\"__main__\":" || compact == "if__name__=='__main__':" {
            let at = code.len() - code.trim_start().len();
            let stand_in = "__name__='__main__'";
            code = format!("{}{stand_in}{}", &code[..at], " ".repeat(code.len().saturating_sub(at + stand_in.len())));
        }
        out.push_str(&code);
        out.push_str(&line[body.len()..]);
    }
    out
}

/// Splits editor text into the query and the Python written around it: a line at the text's
/// own left margin (column 0, or the indentation every line shares, as in a pasted doctest)
/// that starts `def `, `import `, `from `, `class ` or `@`, with the more indented and blank
/// lines after it, is Python. Both texts keep the editor's byte offsets and line numbers: what
/// belongs to the other is blanked (spaces; newlines kept).
pub fn split_python_blocks(text: &str) -> (String, String) {
    let mut query = String::with_capacity(text.len());
    let mut python = String::with_capacity(text.len());
    let mut in_block = false;
    let margin = text.lines().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    for line in text.split_inclusive('\n') {
        let full = line.trim_end_matches(['\n', '\r']);
        let body = if full.len() >= margin && full.is_char_boundary(margin) && full[..margin].trim().is_empty() { &full[margin..] } else { full.trim_start() };
        let starts_block = ["def ", "import ", "from ", "class ", "@"].iter().any(|p| body.starts_with(p));
        let continues = in_block && (body.trim().is_empty() || body.starts_with([' ', '\t']) || body.trim_start().starts_with('#'));
        in_block = starts_block || continues;
        let blank: String = line.chars().map(|c| if c == '\n' || c == '\r' { c.to_string() } else { " ".repeat(c.len_utf8()) }).collect();
        if in_block {
            // Python's own lines start at its left margin (line numbers are what its errors give).
            python.push_str(&line[full.len() - body.len()..]);
            query.push_str(&blank);
        } else {
            query.push_str(line);
            python.push_str(&line.chars().filter(|c| *c == '\n').collect::<String>());
        }
    }
    (query, python)
}
