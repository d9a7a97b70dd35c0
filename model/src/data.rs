//! The data files under `quizzes/`, as the JSON `build.rs` made of their TOML: questions,
//! lessons and the glossary. `data!("lessons/01-input-table")` is the text of
//! `quizzes/lessons/01-input-table.toml` as JSON, read with `serde_json` (see [`parse`]).

/// The JSON text of `quizzes/<path>.toml` (a string literal without `.toml`).
macro_rules! data {
    ($path:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/quizzes/", $path, ".json"))
    };
}
pub(crate) use data;

/// One data file's value: `file` is its path under `quizzes/` for the message.
///
/// # Errors
/// A message naming the file when the JSON does not fit `T` (a field missing or unknown).
pub fn parse<T: serde::de::DeserializeOwned>(file: &str, json: &str) -> Result<T, String> {
    serde_json::from_str(json).map_err(|e| format!("quizzes/{file}: {e}"))
}
