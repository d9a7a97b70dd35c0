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

use crate::route::Route;
use crate::Lab;
use context::Study;

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

/// Scrolls the first element matching `selector` just into view, once the page has drawn what
/// the current change adds (30 ms later): an answer revealed, a verdict shown.
pub fn bring_into_view(selector: &'static str) {
    gloo_timers::callback::Timeout::new(30, move || {
        let el = web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(selector).ok().flatten());
        if let Some(el) = el {
            let opts = web_sys::ScrollIntoViewOptions::new();
            opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&opts);
        }
    })
    .forget();
}

/// The page layout.
#[component]
pub fn App() -> impl IntoView {
    let lab = expect_context::<Lab>();
    presenter::provide(); // teach
    // Sync the language with storage and `<html lang>` (the outside world).
    Effect::new(move |_| crate::storage::keep_lang(lab.lang.get()));
    // Save the session after every change (browser storage is the lab's checkpoint store);
    // a refusal (storage full or disabled) is said on the page.
    let tabs = tabs::provide(lab); // present: two tabs notice each other
    let saver = crate::storage::Saver::new(lab, tabs.conflict);
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
            <button class="lang lang-toggle" data-testid="lang-toggle"
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
            // These pages are made of the question bank, which arrives after the app is up.
            Route::Quiz => view! { <study::WithQuestions><study::QuizPage/></study::WithQuestions> }.into_any(),
            Route::Exam => view! { <study::WithQuestions><study::ExamPage/></study::WithQuestions> }.into_any(),
            Route::Review => view! { <study::WithQuestions><study::ReviewPage/></study::WithQuestions> }.into_any(),
            // These are made of the lessons, the exam lens and the glossary, which arrive too.
            Route::Glossary => view! { <study::WithStudyData><study::GlossaryPage/></study::WithStudyData> }.into_any(),
            Route::CheatSheet => view! { <study::WithStudyData><study::CheatSheetPage/></study::WithStudyData> }.into_any(),
            Route::ExamTrack => view! { <study::WithStudyData><study::ExamTrackPage/></study::WithStudyData> }.into_any(),
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
    // Which lab this is, so a lab an example replaced comes back only where it was.
    let lab = expect_context::<crate::Lab>();
    lab.place.set(study.route.with_untracked(|r| match r {
        Route::Lesson(id) => format!("lesson/{id}"),
        _ => "lab".to_string(),
    }));
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
