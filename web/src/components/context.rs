//! The context types several components share (`provide_context` / `use_context`), in a leaf
//! that imports no component, so that none imports another just for them: presenter mode's
//! state ([`Presenter`], provided by `presenter::provide`), the play/auto-run state ([`Player`])
//! and the study pages' ([`Study`], made by `Study::provide` in `study/`, whose other methods
//! live there too; [`Study::reset_lab`], which the run panel calls, lives here).

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use streamlab_model::lab::session::{LabSession, Scenario};
use streamlab_model::study::lesson::{LabOwner, Lesson};
use streamlab_model::study::progress::{Notice, Progress};
use streamlab_model::study::quiz::{Question, Topic};
use crate::route::Route;
use crate::Lab;

/// Presenter mode's state, provided at the page's root.
#[derive(Clone, Copy)]
pub struct Presenter {
    /// Presenter mode is on.
    pub on: RwSignal<bool>,
    /// The answers of the questions in the notes pane are shown.
    pub reveal: RwSignal<bool>,
    /// The lesson open on the page (its id, e.g. `watermarks`), whose speaker notes the pane
    /// shows; `None` shows the preset's notes. The lesson page sets it.
    pub lesson: RwSignal<Option<String>>,
}

/// The play/auto-run state, shared by the run panel and presenter mode's keys: one tick
/// every `period_ms` (0.5–5 s) triggers a batch when one is due, or adds the example's next
/// events; it stops by itself at the end of the example.
#[derive(Clone, Copy)]
pub struct Player {
    /// Playing (a timer ticks).
    pub playing: RwSignal<bool>,
    /// Milliseconds between two ticks.
    pub period_ms: RwSignal<u32>,
    timer: StoredValue<Option<Interval>, LocalStorage>,
}

/// The slowest and fastest play speeds, ms per step.
pub const PLAY_PERIODS_MS: [u32; 6] = [500, 1_000, 2_000, 3_000, 4_000, 5_000];

impl Player {
    /// The page's player (made once, on first use, in the page's root context).
    pub fn get() -> Player {
        use_context::<Player>().unwrap_or_else(|| {
            let p = Player { playing: RwSignal::new(false), period_ms: RwSignal::new(2_000), timer: StoredValue::new_local(None) };
            provide_context(p);
            p
        })
    }

    /// Stops playing.
    pub fn stop(&self) {
        self.timer.update_value(|t| *t = None);
        self.playing.set(false);
    }

    /// Starts playing (again, at the current speed).
    pub fn start(&self, lab: Lab) {
        let me = *self;
        let tick = move || {
            // A trigger when a batch is due; otherwise the example's next events arrive.
            let due = lab.read(|s| s.batch_due());
            let more = lab.act(|s| if due { s.trigger(); true } else { s.push_step() });
            lab.selected_batch.set(None);
            if !more {
                me.stop();
            }
        };
        self.playing.set(true);
        let period = self.period_ms.get_untracked().clamp(PLAY_PERIODS_MS[0], PLAY_PERIODS_MS[5]);
        self.timer.update_value(|t| *t = Some(Interval::new(period, tick)));
    }

    /// Play ⇄ pause.
    pub fn toggle(&self, lab: Lab) {
        if self.playing.get_untracked() { self.stop() } else { self.start(lab) }
    }

    /// A new speed; takes effect at once when playing.
    pub fn set_period(&self, lab: Lab, ms: u32) {
        self.period_ms.set(ms.clamp(PLAY_PERIODS_MS[0], PLAY_PERIODS_MS[5]));
        if self.playing.get_untracked() {
            self.start(lab);
        }
    }
}

/// A scenario waiting to replace the lab once the learner agrees.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// The scenario that replaces the lab's (a preset with a question's overrides, say).
    pub scenario: Scenario,
    /// Lab actions to run on it first ([`streamlab_model::lab::script`] lines), e.g. a question's script.
    pub script: Option<Vec<String>>,
    /// Run the scenario's steps until this batch has run, and select it.
    pub batch: Option<u64>,
    /// The page to show afterwards.
    pub then: Route,
}

/// Where the question bank is: the app fetches it (`prerendered/questions.json`) once it is up,
/// so the wasm the lab waits for does not carry the questions' text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BankState {
    /// On its way.
    Loading,
    /// In `Study::bank`.
    Ready,
    /// Not fetched or not readable: why.
    Failed(String),
}

/// The study pages' shared state, provided as context.
#[derive(Clone, Copy)]
pub struct Study {
    /// The page shown, read from the URL fragment and kept in step with it.
    pub route: RwSignal<Route>,
    /// The learner's answers, scores, lesson reached and review queue; saved in browser storage on
    /// every change.
    pub progress: RwSignal<Progress>,
    /// Why the stored progress was reset or migrated on load, until dismissed.
    pub notice: RwSignal<Option<Notice>>,
    /// The question bank, every quiz file's questions in file order: empty until it has been
    /// fetched (`questions` says when; pages that need it wait in `study::WithQuestions`).
    pub bank: StoredValue<Vec<Question>>,
    /// Whether the question bank has arrived.
    pub questions: RwSignal<BankState>,
    /// Every lesson, in the study path's order: empty until the lessons have been fetched
    /// (`study_data` says when; pages that need them wait in `study::WithStudyData`).
    pub lessons: StoredValue<Vec<Lesson>>,
    /// Whether the lessons, the exam lens and the glossary (`prerendered/study.json`) have
    /// arrived.
    pub study_data: RwSignal<BankState>,
    /// Every quiz topic, in display order.
    pub topics: StoredValue<Vec<Topic>>,
    /// A scenario that would replace a lab the learner changed: the page asks first.
    pub ask: RwSignal<Option<Opening>>,
    /// Whose the live lab is (a lesson's or the free lab's), with the free lab's session while
    /// a lesson has the lab; saved in browser storage on every change.
    pub owner: StoredValue<LabOwner>,
    /// The last exam finished in this visit, its report and its time (s): the results page
    /// comes back when the learner returns from "Try it in the lab" (memory only; a new exam
    /// or "Another exam" replaces it).
    pub last_exam: StoredValue<Option<(streamlab_model::study::exam::Exam, streamlab_model::study::exam::ExamReport, u64)>>,
}

impl Study {
    /// Reset: beside a lesson whose lab is live, the lesson's lab as it opened (its preset's
    /// query, output mode and trigger); in the free lab, the same lab with every action
    /// forgotten ([`LabSession::reset`]).
    pub fn reset_lab(&self, lab: Lab) {
        if let Route::Lesson(id) = self.route.get_untracked() {
            let lesson = streamlab_model::study::lesson::lesson_ref(&id);
            let own = lesson.filter(|l| lab.read(|s| self.owner.with_value(|o| o.owns(l.id(), &l.preset, s))));
            if let Some(fresh) = own.and_then(|l| streamlab_model::lab::presets::preset(&l.preset)).map(LabSession::from_scenario) {
                lab.act(|s| *s = fresh);
                return;
            }
        }
        lab.act(LabSession::reset);
    }
}
