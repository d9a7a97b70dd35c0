//! A lesson owns its lab. Entering a lesson (by "Next lesson", the lesson list, a link, back or
//! forward) opens the lesson's own lab — its preset with the preset's query, output mode,
//! trigger, delays and events, nothing carried over from the lab before — unless the live lab
//! already is that lesson's (a reload, or back from a question page). The free lab's session is
//! kept aside meanwhile and comes back when the learner returns to the free lab.
//!
//! Plain Rust: the page keeps one [`LabOwner`] (saved beside the session in browser storage)
//! and calls [`LabOwner::enter_lesson`] / [`LabOwner::enter_free_lab`] on a route change;
//! [`Lesson::do_step`] is "Do it for me".

use serde::{Deserialize, Serialize};

use super::Lesson;
use crate::lab::session::LabSession;

/// Whose the live lab is, and the free lab's session while a lesson has the lab.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabOwner {
    /// The lesson whose lab is live (its id); `None` while the free lab is live.
    pub lesson: Option<String>,
    /// The free lab's session ([`LabSession::to_saved_json`]) kept aside while a lesson has
    /// the lab.
    pub free: Option<String>,
}

impl LabOwner {
    /// Reads the saved owner; anything unreadable is the free lab with nothing kept aside.
    pub fn from_json(text: &str) -> LabOwner {
        serde_json::from_str(text).unwrap_or_default()
    }

    /// The owner as JSON for browser storage.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// True when `live` is the own lab of the lesson `id`, whose preset is `preset` (a
    /// [`Lesson`]'s `id` and `preset`, or a [`super::LessonRef`]'s, known before the lessons
    /// arrive).
    pub fn owns(&self, id: &str, preset: &str, live: &LabSession) -> bool {
        self.lesson.as_deref() == Some(id) && live.scenario().id == preset
    }

    /// Makes `live` the own lab of the lesson `id` (preset `preset`): kept as it is when it
    /// already is ([`LabOwner::owns`]), else replaced by a fresh session over the preset — the
    /// free lab's session is kept aside first when the free lab was live. Returns true when the
    /// lab was replaced.
    pub fn enter_lesson(&mut self, live: &mut LabSession, id: &str, preset: &str) -> bool {
        if self.owns(id, preset, live) {
            return false;
        }
        let Some(fresh) = crate::lab::presets::preset(preset).map(LabSession::from_scenario) else { return false };
        if self.lesson.is_none() {
            self.free = Some(live.to_saved_json());
        }
        self.lesson = Some(id.to_string());
        *live = fresh;
        true
    }

    /// Gives the lab back to the free lab: the session kept aside comes back (`fallback()` when
    /// none was kept or it cannot be read; the lab stays as it is when that is `None` too).
    /// Returns true when the lab was replaced; a live free lab is left as it is.
    pub fn enter_free_lab(&mut self, live: &mut LabSession, fallback: impl FnOnce() -> Option<LabSession>) -> bool {
        if self.lesson.take().is_none() {
            return false;
        }
        match self.free.take().and_then(|t| LabSession::from_saved_json(&t).ok()).or_else(fallback) {
            Some(s) => {
                *live = s;
                true
            }
            None => false,
        }
    }
}

impl Lesson {
    /// "Do it for me" on guided step `index`: its actions on the live lab. When they do not
    /// bring the step's condition about (the learner took the lab somewhere else: another
    /// query, a reset, a later step's setting), the lesson's lab is built again from its preset
    /// with every step up to `index` done, which always reaches it (`tests/lessons.rs` walks
    /// every lesson so). Returns true when the lab was built again.
    ///
    /// # Errors
    /// No such step, or a step's actions fail on the lesson's own lab (a broken lesson file).
    pub fn do_step(&self, index: usize, live: &mut LabSession) -> Result<bool, String> {
        let step = self.steps.get(index).ok_or_else(|| format!("lesson {} has no step {index}", self.id))?;
        let mut tried = live.clone();
        if crate::lab::script::run(&mut tried, &step.actions).is_ok() && step.expect.holds(&tried.view()) {
            *live = tried;
            return Ok(false);
        }
        let mut fresh = self.session().ok_or_else(|| format!("lesson {}: unknown preset {}", self.id, self.preset))?;
        for s in &self.steps[..=index] {
            crate::lab::script::run(&mut fresh, &s.actions)?;
        }
        *live = fresh;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_free_lab_is_kept_aside_while_a_lesson_has_the_lab_and_comes_back() {
        let ls = crate::study::lesson::lessons().expect("lessons parse");
        let (triggers, windows) = (ls.iter().find(|l| l.id == "triggers").unwrap(), ls.iter().find(|l| l.id == "windows").unwrap());
        let mut live = LabSession::from_scenario(crate::lab::presets::preset("classic").unwrap());
        live.set_query("clicks.select('event_id')");
        live.run_step();
        let free_json = live.to_saved_json();
        let mut owner = LabOwner::default();
        assert!(owner.enter_lesson(&mut live, &triggers.id, &triggers.preset));
        assert_eq!(live.scenario().id, triggers.preset);
        assert_eq!(owner.free.as_deref(), Some(free_json.as_str()));
        // The lesson's lab is changed (lesson 3 ends on trigger once); entering it again keeps it.
        live.set_trigger(crate::lab::session::Trigger::Once);
        assert!(!owner.enter_lesson(&mut live, &triggers.id, &triggers.preset));
        assert!(live.view().recovery.unwrap().trigger.contains("once"));
        // The next lesson starts on its own preset with the default trigger, and the free lab
        // kept aside is still the learner's, not lesson 3's.
        assert!(owner.enter_lesson(&mut live, &windows.id, &windows.preset));
        assert_eq!(live.scenario().id, windows.preset);
        assert!(live.view().recovery.unwrap().trigger.starts_with("default"));
        assert_eq!(owner.free.as_deref(), Some(free_json.as_str()));
        assert!(owner.enter_free_lab(&mut live, || None));
        assert_eq!(live.to_saved_json(), free_json);
        assert_eq!(owner, LabOwner::default());
        // A live free lab stays as it is.
        assert!(!owner.enter_free_lab(&mut live, || None));
        assert_eq!(LabOwner::from_json(&owner.to_json()), owner);
        assert_eq!(LabOwner::from_json("not json"), LabOwner::default());
    }

    #[test]
    fn do_it_for_me_rebuilds_the_lessons_lab_when_the_learner_took_it_elsewhere() {
        let ls = crate::study::lesson::lessons().expect("lessons parse");
        let l = ls.iter().find(|l| l.id == "triggers").unwrap();
        let mut live = l.session().unwrap();
        // Step 0 on the lab as it is: no rebuild.
        assert_eq!(l.do_step(0, &mut live), Ok(false));
        assert_eq!(l.advance(0, &live.view()), 1);
        // The learner breaks the query; step 1's own actions (reset, availableNow, three
        // files) cannot bring a working query back, so the lab is built again.
        live.set_query("clicks.nosuchmethod()");
        assert_eq!(l.do_step(1, &mut live), Ok(true));
        assert_eq!(l.advance(1, &live.view()), 2);
        assert!(l.do_step(99, &mut live).is_err());
    }
}
