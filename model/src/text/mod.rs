//! The leaf layer: languages and text. Nothing here reads the engine, a lab or a question.
//! - [`lang`]: [`Lang`], the two languages.
//! - [`i18n`]: every label and engine message in English and Korean, Korean particles,
//!   English plurals.
//! - [`markup`]: the lesson texts' small markup (code, emphasis, lists).

pub mod i18n;
pub mod lang;
pub mod markup;

pub use lang::Lang;
