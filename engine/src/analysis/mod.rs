//! Analysis: name and type resolution ([`resolve()`]), then [`UnsupportedOperationChecker`].
//!
//! Where a query is rejected while defined or at `start()`: past it, a violated assumption is
//! a bug.

mod bind;
pub mod checker;
pub mod exam_lens;
pub mod join_helper;
pub mod naming;
pub mod plan;
pub mod resolve;
pub mod schema;
pub mod start;
pub mod suggest;
pub mod union;
pub mod window_function;

pub use checker::UnsupportedOperationChecker;
pub use plan::{Attr, BoundAgg, BoundExpr, JoinSpec, Node, Plan, ProbeBound, ProbeRange, SessionSpec, StateWatermark, StreamJoinSpec, WindowFunctionText, WindowKind, WindowSpec};
pub use resolve::{parse_ddl_schema, resolve};
pub use start::{check_start, SinkCapabilities, StartOutcome, StartRequest};
