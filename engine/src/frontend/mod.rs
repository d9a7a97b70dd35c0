//! Frontend: PySpark DataFrame text (and SQL expression strings inside it) to a
//! [`LogicalPlan`].
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
pub mod start;

pub use crate::error::{ParseError, Span};
use crate::error::Error;
pub use interpret::Evaluated;

pub use crate::plan::Catalog;

/// The top-level names a Python prelude defines: `def f(`, `class C`, `x = ...`,
/// `import m [as n]`, `from m import a [as b], c`. Names the frontend provides itself
/// (`F`, `Window`, `spark`) are left out.
pub fn prelude_names(prelude: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let ident = |s: &str| -> Option<String> {
        let s = s.trim();
        let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
        (end > 0).then(|| s[..end].to_string())
    };
    for line in prelude.lines() {
        if line.starts_with(char::is_whitespace) || line.trim_start().starts_with('#') {
            continue;
        }
        let line = line.trim();
        let names: Vec<String> = if let Some(rest) = line.strip_prefix("def ").or_else(|| line.strip_prefix("class ")) {
            ident(rest).into_iter().collect()
        } else if let Some(rest) = line.strip_prefix("import ") {
            rest.split(',').filter_map(|part| ident(part.rsplit(" as ").next().unwrap_or(part).split('.').next().unwrap_or(part))).collect()
        } else if let (Some(rest), true) = (line.strip_prefix("from "), line.contains(" import ")) {
            let imported = rest.split(" import ").nth(1).unwrap_or_default();
            imported.trim_matches(|c| c == '(' || c == ')').split(',').filter_map(|part| ident(part.rsplit(" as ").next().unwrap_or(part))).collect()
        } else if let Some((lhs, _)) = line.split_once('=').filter(|(l, r)| !l.ends_with(['=', '!', '<', '>']) && !r.starts_with('=')) {
            ident(lhs).filter(|n| n.len() == lhs.trim().len()).into_iter().collect()
        } else {
            Vec::new()
        };
        out.extend(names.into_iter().filter(|n| !matches!(n.as_str(), "F" | "Window" | "spark" | "functions")));
    }
    out
}

/// Parses and evaluates query text into a logical plan.
///
/// # Examples
/// ```
/// use streamlab_engine::frontend::{compile, Catalog};
/// use streamlab_engine::types::{DataType, timestamp_type};
/// let mut catalog = Catalog::default();
/// catalog.streams.insert("clicks".into(), vec![("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())]);
/// let q = compile("clicks.withWatermark('event_time', '10 minutes').groupBy('post_id').count()", &catalog).unwrap();
/// assert!(q.plan.to_string().starts_with("Aggregate [post_id]"));
/// ```
///
/// # Errors
/// [`Error::Parse`] with a span for syntax and unsupported constructs; [`Error::Analysis`]
/// at [`crate::error::Stage::Define`] for batch actions on a stream (`clicks.count()`).
pub fn compile(text: &str, catalog: &Catalog) -> Result<Evaluated, Error> {
    let (query, python) = split_python_blocks(text);
    if python.trim().is_empty() {
        let program = python::parse_program(text)?;
        return interpret::Evaluator::new(catalog).run(&program);
    }
    // Python written above the query (`import`, `def`): its names join the catalog's, its text
    // goes first in the prelude so that its line numbers are the editor's.
    // A syntax error in the Python is reported at its own line, before the query is read.
    if let Err(e) = crate::pyfunc::parse_module(&python) {
        let start: usize = text.split_inclusive('\n').take(e.line.saturating_sub(1)).map(str::len).sum::<usize>().min(text.len());
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i).max(start);
        return Err(Error::Parse(ParseError::new(format!("in the Python code above the query, line {}: {}", e.line, e.message), Span::new(start, end))));
    }
    let mut with_python = catalog.clone();
    with_python.python_names.extend(prelude_names(&python));
    with_python.prelude = std::rc::Rc::from(format!("{python}\n{}", catalog.prelude));
    let program = python::parse_program(&query)?;
    interpret::Evaluator::new(&with_python).run(&program)
}

/// Splits editor text into the query and the Python written around it: a line at column 0
/// that starts `def `, `import `, `from `, `class ` or `@`, with the indented and blank lines
/// after it, is Python. Both texts keep the editor's byte offsets and line numbers: what
/// belongs to the other is blanked (spaces; newlines kept).
pub fn split_python_blocks(text: &str) -> (String, String) {
    let mut query = String::with_capacity(text.len());
    let mut python = String::with_capacity(text.len());
    let mut in_block = false;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let starts_block = ["def ", "import ", "from ", "class ", "@"].iter().any(|p| body.starts_with(p));
        let continues = in_block && (body.trim().is_empty() || body.starts_with([' ', '\t']) || body.trim_start().starts_with('#'));
        in_block = starts_block || continues;
        let blank: String = line.chars().map(|c| if c == '\n' || c == '\r' { c.to_string() } else { " ".repeat(c.len_utf8()) }).collect();
        if in_block {
            python.push_str(line);
            query.push_str(&blank);
        } else {
            query.push_str(line);
            python.push_str(&line.chars().filter(|c| *c == '\n').collect::<String>());
        }
    }
    (query, python)
}
