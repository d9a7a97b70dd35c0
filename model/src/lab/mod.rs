//! The lab: what a learner runs, sees and keeps. Uses [`crate::text`]; never [`crate::study`].
//! - [`session`]: the one boundary to the engine; hands out [`session::LabView`] snapshots.
//! - [`picture`]: the time picture's model (batches as bands, rows by event time and fate, the
//!   watermark staircase, windows) and the narration of each batch.
//! - [`persist`] and [`share`]: a session saved as JSON and packed into a URL fragment;
//!   [`script`]: lab actions written as text.
//! - [`presets`]: the preset scenarios; [`generate`]: a preset's rows made from a rule;
//!   [`rng`]: the seeded hash and PRNG.
//! - [`progress_import`]: real Spark's progress reports, pasted in, as the lab's batch views.
//! - [`cells`]: one value as the lab shows it (a cell, a time on the scenario's day).
//! - [`mod@bench`]: the `?bench` page's measurements of the engine in the browser.

pub mod bench;
pub mod cells;
pub mod generate;
pub mod persist;
pub mod picture;
pub mod presets;
pub mod progress_import;
pub mod rng;
pub mod script;
pub mod session;
pub mod share;
