//! The page's panels. Each reads the [`Lab`] context and reports what the learner does
//! through `Lab::act`; none calls the engine directly.

pub mod bench;
mod clock;
pub mod context;
mod controls;
pub mod markup;
mod picture_draw;
pub mod presenter; // teach
mod progress_import;
mod query;
mod recovery;
mod results;
mod scenario_io;
pub mod time_picture;
mod timeline; // screen
pub mod share; // teach
pub mod study;
pub mod tabs; // present

use leptos::prelude::*;

use streamlab_model::text::Lang;
use crate::route::Route;
use crate::Lab;
use context::Study;

const LANG_KEY: &str = "streamlab.lang";

/// The language remembered across reloads (English when nothing is stored).
pub fn stored_lang() -> Lang {
    use gloo_storage::Storage;
    gloo_storage::LocalStorage::get::<String>(LANG_KEY).ok().as_deref().and_then(Lang::from_code).unwrap_or_default()
}

fn set_document_lang(lang: Lang) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = el.set_attribute("lang", lang.code());
    }
}

/// Provides the page's one play/auto-run state; call once in the root, before anything that
/// may stop it ([`stop_playing`]).
pub fn provide_player() {
    let _ = context::Player::get();
}

/// Stops playing (the lab is about to be replaced: a tick must not run on the new one).
pub fn stop_playing() {
    if let Some(p) = use_context::<context::Player>() {
        p.stop();
    }
}

/// The page layout.
#[component]
pub fn App() -> impl IntoView {
    let lab = expect_context::<Lab>();
    presenter::provide(); // teach
    // Sync the language with storage and `<html lang>` (the outside world).
    Effect::new(move |_| {
        use gloo_storage::Storage;
        let lang = lab.lang.get();
        let _ = gloo_storage::LocalStorage::set(LANG_KEY, lang.code());
        set_document_lang(lang);
    });
    // Save the session after every change (browser storage is the lab's checkpoint store);
    // a refusal (storage full or disabled) is said on the page.
    let tabs = tabs::provide(lab); // present: two tabs notice each other
    let saver = Saver::new(lab, tabs);
    Effect::new(move |_| {
        lab.track_session();
        saver.changed();
    });
    let study = expect_context::<Study>();
    view! {
        <header class="topbar">
            <div class="brand">
                <h1><a href=Route::Lessons.to_hash()>"Streamlab"</a></h1>
                <p class="subtitle">{move || lab.t("app.subtitle")}</p>
            </div>
            <study::StudyNav/>
            {move || (study.route.get() == Route::Lab).then(|| view! { <scenario_io::PresetPicker/> })}
            {move || study.route.with(Route::shows_lab).then(|| view! { <share::ShareButton/><presenter::PresenterToggle/> })}
            <button class="lang" data-testid="lang-toggle"
                on:click=move |_| lab.lang.update(|l| *l = l.next())>
                {move || lab.lang.get().next().native_name()}
            </button>
        </header>
        <StorageBanner/>
        <tabs::TabsBanner keep=Callback::new(move |_| saver.save())/>
        <share::ShareBanner/>
        <study::StudyBanners/>
        {move || match study.route.get() {
            Route::Lessons => view! { <study::LessonList/> }.into_any(),
            Route::Lesson(id) => view! { <study::LessonPage id=id/> }.into_any(),
            Route::Lab => LabPanels().into_any(),
            Route::Quiz => view! { <study::QuizPage/> }.into_any(),
            Route::Exam => view! { <study::ExamPage/> }.into_any(),
            Route::Review => view! { <study::ReviewPage/> }.into_any(),
            Route::Glossary => view! { <study::GlossaryPage/> }.into_any(),
            Route::CheatSheet => view! { <study::CheatSheetPage/> }.into_any(),
            Route::ExamTrack => view! { <study::ExamTrackPage/> }.into_any(),
        }}
    }
}

/// The lab's panels. In the free lab, three columns: run controls and the watermark on the
/// left, the time picture, the batch slider and the shown batch's rows in the middle, the state
/// store and the metrics on the right. Beside a lesson (whose text takes a column), two: the
/// left and right columns' first panels share one side column. Either way the run controls,
/// the picture, the emitted rows and the state store are on screen at 1280×720 without
/// scrolling; less used panels come after them.
#[component]
pub fn LabPanels() -> impl IntoView {
    let study = expect_context::<Study>();
    let beside_lesson = study
        .route
        .with_untracked(|r| matches!(r, Route::Lesson(_)));
    if beside_lesson {
        view! {
            <main class="lab beside-lesson">
                <section class="col col-left col-side">
                    <controls::RunPanel/>
                    <clock::ProcessingClock/>
                    <results::StatePanel/>
                    <controls::WatermarkPanel/>
                    <results::MetricsPanel/>
                    <query::QueryPanel/>
                    <controls::InputPanel/>
                    <study::PredictPanel/>
                    <study::QuizLink/>
                    <scenario_io::ScenarioPanel/>
                    <progress_import::ProgressImportPanel/>
                </section>
                {mid_column()}
                <presenter::PresenterMode/>
            </main>
        }
        .into_any()
    } else {
        view! {
            <main class="lab">
                <section class="col col-left">
                    <controls::RunPanel/>
                    <clock::ProcessingClock/>
                    <controls::WatermarkPanel/>
                    <query::QueryPanel/>
                    <controls::InputPanel/>
                </section>
                {mid_column()}
                <section class="col col-right">
                    <results::StatePanel/>
                    <results::MetricsPanel/>
                    <study::PredictPanel/>
                    <study::QuizLink/>
                    <scenario_io::ScenarioPanel/>
                    <progress_import::ProgressImportPanel/>
                </section>
                <presenter::PresenterMode/>
            </main>
        }
        .into_any()
    }
}

/// The middle column (the same in both layouts): the time picture first, then the shown
/// batch's emitted rows, the batch slider and the batch list, then the exam lens (folded
/// entries, so the batches stay on screen at 1280×720).
fn mid_column() -> impl IntoView {
    view! {
        <section class="col col-mid">
            <time_picture::TimePicture/>
            <results::SinkPanel/>
            <timeline::BatchScrubber/>
            <timeline::CompareModes/>
            <results::BatchList/>
            <study::ExamLensPanel/>
            <scenario_io::PresetNotes/>
            <recovery::RecoveryPanel/>
        </section>
    }
}

/// Says when the saved session was set aside (it crashed the lab or could not be read) and
/// when saving fails, with what the learner can do about it.
#[component]
fn StorageBanner() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let reload = || {
        if let Some(w) = web_sys::window() {
            let _ = w.location().reload();
        }
    };
    view! {
        {move || lab.storage_notice.get().map(|reason| view! {
            <div class="banner" role="alert" data-testid="storage-notice">
                <p>{move || lab.t("storage.set_aside")}" ("{move || streamlab_model::text::i18n::localize(lab.lang.get(), &reason)}")"</p>
                <button data-testid="storage-retry" on:click=move |_| { crate::crash::restore_set_aside(); reload(); }>
                    {move || lab.t("storage.retry")}
                </button>
                <button data-testid="storage-discard" on:click=move |_| { crate::crash::discard_set_aside(); lab.storage_notice.set(None); }>
                    {move || lab.t("storage.discard")}
                </button>
            </div>
        })}
        // Over the storage quota the session stays in memory (every action keeps working) and
        // this notice stays while saving fails, with the one click that keeps the work: a file.
        {move || lab.save_error.get().map(|e| view! {
            <div class="banner" role="alert" data-testid="save-error">
                <p><strong>{move || lab.t("save.failed")}</strong>" "{move || streamlab_model::text::i18n::localize(lab.lang.get(), &e)}</p>
                <button class="primary" data-testid="save-error-download" on:click=move |_| scenario_io::save_as_file(lab)>{move || lab.t("save.download")}</button>
            </div>
        })}
    }
}

/// How long the lab waits after a change that follows a save closely before saving again, ms.
const SAVE_QUIET_MS: u32 = 400;

/// The latest a save after a quiet spell waits for the browser to be idle, ms.
const SAVE_IDLE_MS: u32 = 200;

/// Saves the session in browser storage as it changes, without saving it on every step of a
/// dragged slider. A change after a quiet spell is saved as soon as the browser is idle after
/// drawing it (`requestIdleCallback`, within [`SAVE_IDLE_MS`]; at once where there is none),
/// so a crash right after one action loses nothing and the step is on screen before its save
/// runs; changes within [`SAVE_QUIET_MS`] of a save (a slider being dragged, play) are saved
/// once, that long after the last of them. A save still due is done at once if the page is
/// hidden or closed first (`pagehide`, `visibilitychange`). Serialising a 1,000-event session
/// and writing it to storage takes longer than the replay it follows, so saving each slider
/// step would cost more than the step; a 10,000-event session's save took about 14 ms of a
/// step's frame in Chromium.
#[derive(Clone, Copy)]
struct Saver {
    lab: Lab,
    /// While another tab saved over this one's lab, this tab does not save ([`tabs`]).
    tabs: tabs::Tabs,
    /// The trailing save, while one is due.
    due: StoredValue<Option<gloo_timers::callback::Timeout>, LocalStorage>,
    /// True while a save waits for the browser to be idle.
    idle_due: StoredValue<bool>,
    /// When the last save ran (`performance.now()`, ms).
    last: StoredValue<f64>,
}

impl Saver {
    fn new(lab: Lab, tabs: tabs::Tabs) -> Saver {
        let saver = Saver { lab, tabs, due: StoredValue::new_local(None), idle_due: StoredValue::new(false), last: StoredValue::new(f64::NEG_INFINITY) };
        saver.flush_when_hidden();
        saver
    }

    fn changed(self) {
        let quiet = now_ms() - self.last.get_value() >= f64::from(SAVE_QUIET_MS);
        if quiet && self.due.with_value(Option::is_none) {
            self.save_when_idle();
            return;
        }
        // Dropping the timer that was due cancels it: the save waits for the last change.
        let timer = gloo_timers::callback::Timeout::new(SAVE_QUIET_MS, move || {
            self.due.set_value(None);
            self.save();
        });
        self.due.set_value(Some(timer));
    }

    /// Saves once the browser is idle (the save reads the session then, so changes made
    /// meanwhile are in it).
    fn save_when_idle(self) {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        if self.idle_due.get_value() {
            return;
        }
        let Some(window) = web_sys::window() else { return self.save() };
        self.idle_due.set_value(true);
        let run = Closure::once_into_js(move || {
            if self.idle_due.get_value() {
                self.save();
            }
        });
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(SAVE_IDLE_MS);
        if window.request_idle_callback_with_options(run.unchecked_ref(), &options).is_err() {
            self.save();
        }
    }

    fn save(self) {
        self.idle_due.set_value(false);
        if self.tabs.conflict.get_untracked() {
            // The learner has not chosen between this tab's lab and the other's yet.
            return;
        }
        self.last.set_value(now_ms());
        let json = self.lab.read(streamlab_model::lab::session::LabSession::to_saved_json);
        self.lab.save_error.set(crate::crash::save_session(&json).err());
    }

    /// A save still due when the page goes away is done then.
    fn flush_when_hidden(self) {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        let Some(window) = web_sys::window() else { return };
        let flush = Closure::<dyn Fn()>::new(move || {
            if let Some(Some(timer)) = self.due.try_update_value(Option::take) {
                timer.cancel();
                self.save();
            } else if self.idle_due.get_value() {
                self.save();
            }
        });
        for event in ["pagehide", "visibilitychange"] {
            let _ = window.add_event_listener_with_callback(event, flush.as_ref().unchecked_ref());
        }
        // The listener lives as long as the page.
        flush.forget();
    }
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}
