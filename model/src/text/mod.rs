//! The leaf layer: languages and text. Nothing here reads the engine, a lab or a question.
//! - [`lang`]: [`Lang`], the two languages.
//! - [`i18n`]: labels and engine messages in the learner's language, read from one table per
//!   language (`en.rs`, `ko.rs`: the same keys; Korean particles, English plurals).
//! - [`markup`]: the lesson texts' small markup (code, emphasis, lists).

mod en;
pub mod i18n;
mod ko;
pub mod lang;
pub mod markup;

pub use lang::{Lang, Text};
