//! The data files under `quizzes/`, as the JSON `build.rs` made of their TOML: questions,
//! lessons and the glossary. `data!("exam-track")` is the text of `quizzes/exam-track.toml` as
//! JSON, read with `serde_json` (see [`parse`]).
//!
//! The lessons, the exam lens and the glossary are not compiled into the wasm: the app fetches
//! them as one bundle (`prerendered/study.json`, [`bundle`]) once it is up, so the lab the
//! learner waits for is that much smaller, and [`install_bundle`] hands it over. Native builds
//! (tests, the prerenderer) compile the bundle in and always have it. [`fetched`] reads a file
//! of it either way; until the bundle is there it says [`LOADING`].

use std::cell::RefCell;
use std::rc::Rc;

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

/// What [`fetched`] says while the browser has not received `prerendered/study.json` yet.
pub const LOADING: &str = "the lessons are still downloading";

/// The bundle's files by path (`lessons/05-watermarks`, `exam-lens`, `glossary`).
type Files = serde_json::Map<String, serde_json::Value>;

/// The bundle as `build.rs` wrote it: `{"<path>": <file JSON>, ...}`.
#[cfg(not(target_arch = "wasm32"))]
const COMPILED: &str = data!("study");

thread_local! {
    /// The installed bundle (the app is single-threaded; natively each test thread reads the
    /// compiled one on first use).
    static INSTALLED: RefCell<Option<Rc<Files>>> = const { RefCell::new(None) };
    /// Set by [`hide_on_this_thread`]: this thread's [`fetched`] acts as the browser's before
    /// the bundle came.
    #[cfg(not(target_arch = "wasm32"))]
    static HIDDEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The bundle the app fetches as `prerendered/study.json` (written into `assets/prerendered/`
/// by `crate::study::prerender`).
#[cfg(not(target_arch = "wasm32"))]
pub fn bundle() -> &'static str {
    COMPILED
}

/// Reads a bundle fetched from `prerendered/study.json` and makes its files what [`fetched`]
/// reads from now on.
///
/// # Errors
/// The text is not a JSON object, or its files are not the ones this build of the app reads
/// (a bundle from another version: every lesson of the compiled index, the exam lens and the
/// glossary, and nothing else). Nothing is installed then.
pub fn install_bundle(json: &str) -> Result<(), String> {
    let files: Files = serde_json::from_str(json).map_err(|e| format!("prerendered/study.json: {e}"))?;
    let want: Vec<String> = ["exam-lens".to_string(), "glossary".to_string()]
        .into_iter()
        .chain(lesson_files().into_iter().map(|f| format!("lessons/{f}")))
        .collect();
    if files.len() != want.len() || want.iter().any(|p| !files.contains_key(p)) {
        return Err("prerendered/study.json is not the one this version of the app was built with".into());
    }
    INSTALLED.with(|c| *c.borrow_mut() = Some(Rc::new(files)));
    Ok(())
}

/// The lessons' file names (`05-watermarks`), in path order, from the compiled index.
fn lesson_files() -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Entry {
        file: String,
    }
    parse::<Vec<Entry>>("lessons (index)", data!("lesson-index")).unwrap_or_default().into_iter().map(|e| e.file).collect()
}

/// True once the bundle is there (always, natively).
pub fn is_installed() -> bool {
    files().is_some()
}

fn files() -> Option<Rc<Files>> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        if HIDDEN.with(std::cell::Cell::get) {
            return INSTALLED.with(|c| c.borrow().clone());
        }
        if INSTALLED.with(|c| c.borrow().is_none()) {
            let files: Files = serde_json::from_str(COMPILED).expect("build.rs writes a JSON object");
            INSTALLED.with(|c| *c.borrow_mut() = Some(Rc::new(files)));
        }
    }
    INSTALLED.with(|c| c.borrow().clone())
}

/// `quizzes/<path>.toml` (`lessons/05-watermarks`, `exam-lens`, `glossary`) as `T`, from the
/// bundle.
///
/// # Errors
/// [`LOADING`] before the bundle is there; a message naming the file when it is missing or
/// does not fit `T`.
pub fn fetched<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, String> {
    let files = files().ok_or_else(|| LOADING.to_string())?;
    let value = files.get(path).ok_or_else(|| format!("prerendered/study.json has no quizzes/{path}.toml"))?;
    // Read from its text, as `parse` reads a compiled file (one reader of each type in the wasm).
    parse(&format!("{path}.toml"), &value.to_string())
}

/// For tests of what the app does before the bundle comes: `true` makes this thread act as
/// the browser's before [`install_bundle`] (and forgets what was installed); `false` gives the
/// compiled bundle back.
#[cfg(not(target_arch = "wasm32"))]
pub fn hide_on_this_thread(hidden: bool) {
    HIDDEN.with(|h| h.set(hidden));
    INSTALLED.with(|c| *c.borrow_mut() = None);
}
