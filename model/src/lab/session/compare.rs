//! The same input under the three output modes, side by side: each mode is a copy of the
//! session replayed with that mode, so each column is exactly what the lab would show after
//! switching to it.

use streamlab_engine::streaming::OutputMode;

use super::{BatchView, ErrorView, LabSession};

/// One output mode's run of the session's input.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeRun {
    /// The output mode this run used.
    pub mode: OutputMode,
    /// Spark's error when it rejects the query in this mode (then `batches` is empty).
    pub error: Option<ErrorView>,
    /// Every batch that ran, with its emitted rows.
    pub batches: Vec<BatchView>,
    /// True for the mode the session runs in (the query text's, when it sets one).
    pub current: bool,
}

impl LabSession {
    /// The session's actions replayed in append, update and complete mode (Spark's order).
    /// Costs three replays: the page computes it only while the comparison is open.
    pub fn compare_modes(&self) -> Vec<ModeRun> {
        OutputMode::ALL
            .iter()
            .map(|&mode| {
                let v = if mode == self.mode {
                    self.view()
                } else {
                    let mut other = self.clone();
                    other.set_mode(mode);
                    other.view()
                };
                ModeRun {
                    mode,
                    batches: if v.error.is_some() {
                        Vec::new()
                    } else {
                        v.batches.iter().map(|b| (**b).clone()).collect()
                    },
                    error: v.error,
                    current: mode == self.text_mode.unwrap_or(self.mode),
                }
            })
            .collect()
    }
}
