//! Frontend: PySpark DataFrame text (and SQL expression strings inside it) to a
//! [`LogicalPlan`].
//!
//! # Layout
//! - `python.pest` / [`python`]: the Python expression subset, parsed with `pest`.
//! - [`args`]: Spark's checks on interval and window arguments.
//! - [`eval`]: interprets the Python AST the way PySpark builds a DataFrame.
//! - [`sql`]: SQL strings (`filter("a > 1")`, `F.expr`, `selectExpr`) through `sqlparser`.

pub mod args;
pub mod eval;
pub mod python;
pub mod sql;

use std::collections::BTreeMap;
use std::rc::Rc;

pub use crate::error::{ParseError, Span};
use crate::error::Error;
pub use eval::Evaluated;
use crate::types::{DataType, Row};

/// The names a query can refer to: streaming sources and static tables, with schemas.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub streams: BTreeMap<String, Vec<(String, DataType)>>,
    pub statics: BTreeMap<String, (Vec<(String, DataType)>, Rc<Vec<Row>>)>,
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
    let program = python::parse_program(text)?;
    eval::Evaluator::new(catalog).run(&program)
}
