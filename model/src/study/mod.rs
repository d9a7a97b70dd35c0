//! Study: questions, lessons, the learner's record. Uses [`crate::lab`] and [`crate::text`].
//! - [`quiz`]: the question bank (data in `quizzes/`); [`claim`] checks each question's claim
//!   by running the engine, [`rules`] holds the bank's quality rules.
//! - [`lesson`]: the study path (data in `quizzes/lessons/`), guided steps checked against the
//!   lab's view; [`predict`]: "predict the next batch" questions built by running ahead.
//! - [`progress`] and [`exam`]: the learner's record (answers, scores, review queue) and exam
//!   mode; [`track`] and [`strategy`]: the exam track and the answer-strategy check.
//! - [`lens`]: where the guide, the exam and Spark 4.3 differ; [`glossary`]: one Korean term
//!   per concept; [`prerender`] (native only): the lesson pages as static HTML.

pub mod claim;
pub mod exam;
pub mod glossary;
pub mod lens;
pub mod lesson;
pub mod predict;
#[cfg(not(target_arch = "wasm32"))]
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
pub mod progress;
pub mod quiz;
pub mod rules;
pub mod strategy;
pub mod track;
