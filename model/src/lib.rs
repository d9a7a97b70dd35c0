//! Everything the lab page shows, in plain Rust: no Leptos, no browser crates, tested natively.
//! `streamlab-web` renders it; this crate is the only one that calls `streamlab-engine`.
//!
//! Three layers that point one way (`tests/layers.rs` checks):
//! - [`text`]: a leaf. The languages, every label and message in English and Korean, Korean
//!   particles and English plurals, the lesson texts' small markup.
//! - [`lab`]: the lab session over the engine, its replay and views, the time picture and its
//!   narration, saving, share links, the action script, the presets. Uses `text`.
//! - [`study`]: the question bank and its claims and rules, lessons, predictions, the learner's
//!   progress, exam mode, the exam lens, the glossary. Uses `lab` and `text`.

#![warn(missing_docs)]

pub mod lab;
pub mod study;
pub mod text;

pub mod data;
