//! The query as data: unresolved expressions ([`Expr`]) and logical operators ([`LogicalPlan`]).

pub mod expr;
pub mod functions;
pub mod logical;

pub use expr::{AggFunc, BinOp, Expr};
pub use logical::{JoinOn, JoinType, LogicalPlan};
