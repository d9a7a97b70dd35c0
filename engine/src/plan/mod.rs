//! The query as data: unresolved expressions ([`Expr`]) and logical operators ([`LogicalPlan`]),
//! and the bounds on their size ([`limits`]).

pub mod catalog;
pub mod expr;
pub mod functions;
pub mod limits;
pub mod logical;
pub mod output_mode;
pub mod tree;

pub use catalog::Catalog;
pub use expr::{unmarked, AggFunc, BinOp, Expr, FrameBound, WindowFrame, WindowOver, JOINED_DATASET_COLUMN, UNWATERMARKED, WINDOW_ONLY_FUNCTIONS};
pub use logical::{JoinOn, JoinType, LogicalPlan};
pub use output_mode::OutputMode;
