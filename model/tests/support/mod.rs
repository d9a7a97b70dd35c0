//! The one driver of the model's tests, in the style of the engine's (`engine/tests/support`,
//! after Spark's `StreamTest.testStream`): a lab opened from a preset or a recorded Spark case,
//! the learner's actions written as the lab's script lines (`lab::script`, the same lines lessons
//! and question claims use), and checks that fail with the actions run so far.
//!
//! Every test that opens a lab, reads a recorded case or looks up a question goes through here,
//! so a change of `LabSession`'s API or of the bank's loading is adapted once.
//!
//! # Who uses it
//! - Labs: `support_driver.rs` (the driver's own checks fail), `session.rs`, `teach.rs`,
//!   `timeline.rs`, `share.rs`, `predict.rs`,
//!   `kafka_restart.rs`, `lessons.rs`, `glossary.rs`.
//! - Questions: `progress.rs`, `quiz_recovery.rs`.
//! - Not at all, because they open no lab and look up no question by id: `layers.rs` (the source
//!   tree), `prerender.rs` (the lesson pages), `quiz_bank.rs`, `exam_lens.rs`, `exam_track.rs`,
//!   `exam_resume.rs` and `progress_import.rs` (whole files of data, read through the model's own loaders),
//!   `saved_format.rs` (a literal saved session and its own small scenario).
#![allow(dead_code)] // each test binary uses a part of the driver
#![allow(clippy::disallowed_methods)] // a test reads the recorded corpus from files

use std::sync::OnceLock;

use streamlab_engine::scenario::Scenario;
use streamlab_model::lab::presets;
use streamlab_model::lab::script;
use streamlab_model::lab::session::{LabSession, LabView};
use streamlab_model::study::quiz::{bank, Question};

/// A recorded Spark 4.3 case of the engine's corpus (`engine/tests/spark/cases/<id>.json`),
/// with its `expected` block: the values a test compares with.
pub fn corpus(id: &str) -> Scenario {
    let path = format!("{}/../engine/tests/spark/cases/{id}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus case {path}: {e}"));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("corpus case {id}: {e}"))
}

/// A lab as the page opens preset `id`.
pub fn lab(id: &str) -> LabSession {
    LabSession::from_scenario(presets::preset(id).unwrap_or_else(|| panic!("no preset '{id}'")))
}

/// A lab over the recorded Spark case `id`, as the page opens a case file.
pub fn corpus_lab(id: &str) -> LabSession {
    LabSession::from_scenario(corpus(id))
}

/// Runs every step of the lab's example, one micro-batch per step, as "run all" does.
pub fn run_all(s: &mut LabSession) {
    while s.run_step() {}
}

/// A lab and the script lines run on it so far.
pub struct LabTest {
    /// The session the page would hold.
    pub session: LabSession,
    done: Vec<String>,
}

/// A [`LabTest`] over preset `id`.
pub fn lab_test(id: &str) -> LabTest {
    LabTest { session: lab(id), done: Vec::new() }
}

/// A [`LabTest`] over the recorded Spark case `id`.
pub fn corpus_test(id: &str) -> LabTest {
    LabTest { session: LabSession::from_scenario(corpus(id)), done: Vec::new() }
}

impl LabTest {
    /// Runs script lines (`next_step`, `mode update`, `delay 0 10 minutes`, …) in order; a line
    /// the script refuses or the lab cannot do fails the test, naming it and the lines before.
    pub fn run(mut self, lines: &[&str]) -> LabTest {
        for line in lines {
            if let Err(e) = script::run(&mut self.session, &[line.to_string()]) {
                panic!("line {:?} failed: {e}\n{}", line, self.listing());
            }
            self.done.push(line.to_string());
        }
        self
    }

    /// The view the page shows now.
    pub fn view(&self) -> LabView {
        self.session.view()
    }

    /// Fails with `what` and the lines run so far unless `holds`.
    pub fn check(&self, what: &str, holds: bool) -> &LabTest {
        assert!(holds, "{what}\n{}", self.listing());
        self
    }

    /// The lines run so far, one per line, for a failure's message.
    pub fn listing(&self) -> String {
        let mut out = String::from("== Script ==\n");
        for l in &self.done {
            out.push_str("  ");
            out.push_str(l);
            out.push('\n');
        }
        out
    }
}

/// The question bank, parsed once per test binary.
pub fn questions() -> &'static [Question] {
    static BANK: OnceLock<Vec<Question>> = OnceLock::new();
    BANK.get_or_init(|| bank().unwrap_or_else(|e| panic!("the bank: {e}")))
}

/// The bank's question `id`.
pub fn question(id: &str) -> Question {
    questions().iter().find(|q| q.id == id).cloned().unwrap_or_else(|| panic!("no question '{id}'"))
}
