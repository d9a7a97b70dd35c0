//! The names a query can refer to (Spark's `SessionCatalog`, reduced to what the lab needs).

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::types::{DataType, Row};

/// The names a query can refer to: streaming sources and static tables, with schemas.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Streaming sources by name (`clicks`), each with its schema as (column, type) pairs.
    pub streams: BTreeMap<String, Vec<(String, DataType)>>,
    /// Static (batch) tables by name: the schema as (column, type) pairs, and every row.
    pub statics: BTreeMap<String, (Vec<(String, DataType)>, Rc<Vec<Row>>)>,
    /// Names a scenario's Python `prelude` defines (functions, classes, imported modules):
    /// the query may pass them around.
    pub python_names: std::collections::BTreeSet<String>,
    /// The prelude's text: the Python functions `applyInPandasWithState` runs
    /// ([`crate::pyfunc`]).
    pub prelude: Rc<str>,
}
