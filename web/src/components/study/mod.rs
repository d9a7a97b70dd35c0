//! The study pages: the lesson list, a lesson beside the lab, the question bank, the review
//! queue, exam mode (with the mock exam), the exam track, the cheat sheet and the glossary, plus the navigation between them and "predict the next
//! batch" in the lab. The [`Study`] context holds the route and the learner's [`Progress`]
//! (saved in browser storage after every change); the lab stays in the [`Lab`] context.

mod exam_lens;
mod exam_page;
mod exam_track;
mod glossary_page;
pub(crate) mod lessons;
mod predict_panel;
mod question;
mod quiz_page;

pub use exam_lens::{CheatSheetPage, ExamLensPanel};
pub use exam_page::ExamPage;
pub use exam_track::ExamTrackPage;
pub use glossary_page::GlossaryPage;
pub use lessons::{LessonList, LessonPage};
pub use predict_panel::{PredictPanel, QuizLink};
pub use quiz_page::{QuizPage, ReviewPage};

use leptos::prelude::*;

use streamlab_model::study::lesson::{LabOwner, LessonRef};
use streamlab_model::study::progress::{Day, Progress};
use streamlab_model::text::Lang;
use streamlab_model::study::quiz::Question;
use crate::route::Route;
use streamlab_model::lab::session::LabSession;
use super::context::{BankState, Opening, Study};
use crate::Lab;

/// Where the learner's progress record lives in browser storage (raw JSON text).
pub const PROGRESS_KEY: &str = "streamlab.progress";

/// Where the lab's owner (a lesson, or the free lab) and the free lab's session kept aside
/// while a lesson has the lab live in browser storage ([`LabOwner::to_json`]).
pub const OWNER_KEY: &str = "streamlab.lab.owner";

// `Study` itself, and `reset_lab` (the run panel's), are in `context.rs`.
impl Study {
    /// Reads the route from the URL and the progress from browser storage (a record that
    /// cannot be read is reset with a notice, never a panic), and keeps both in sync.
    pub fn provide() -> Study {
        // The progress record is read against the bank's index (ids and topics, compiled in);
        // the questions themselves are fetched below.
        let refs = streamlab_model::study::quiz::question_refs().unwrap_or_default();
        // So are the lessons' ids and presets; the lessons themselves are fetched below.
        let ids = streamlab_model::study::lesson::lesson_ids();
        let stored = local_storage().and_then(|s| s.get_item(PROGRESS_KEY).ok().flatten()).unwrap_or_default();
        let loaded = Progress::load(&stored, &refs, &ids);
        let study = Study {
            route: RwSignal::new(Route::from_hash(&current_hash())),
            progress: RwSignal::new(loaded.progress),
            notice: RwSignal::new(loaded.notice),
            bank: StoredValue::new(Vec::new()),
            questions: RwSignal::new(BankState::Loading),
            lessons: StoredValue::new(Vec::new()),
            study_data: RwSignal::new(BankState::Loading),
            topics: StoredValue::new(streamlab_model::study::quiz::topics().unwrap_or_default()),
            ask: RwSignal::new(None),
            last_exam: StoredValue::new(None),
            owner: StoredValue::new(LabOwner::from_json(&local_storage().and_then(|s| s.get_item(OWNER_KEY).ok().flatten()).unwrap_or_default())),
        };
        // The saved owner names a lesson whose lab is not the session that came back (it was
        // set aside, or the page closed before the session was saved): the free lab is live.
        let lab = expect_context::<Lab>();
        let stale = study.owner.with_value(|o| {
            o.lesson.as_deref().is_some_and(|id| streamlab_model::study::lesson::lesson_ref(id).is_none_or(|l| !lab.read(|s| o.owns(l.id(), &l.preset, s))))
        });
        if stale {
            study.to_free_lab(lab);
        }
        // The free lab is the free lab's own session, never a lesson's.
        Effect::new(move |_| {
            if study.route.get() == Route::Lab {
                study.to_free_lab(lab);
            }
        });
        let route = study.route;
        let handle = window_event_listener(leptos::ev::hashchange, move |_| {
            let hash = current_hash();
            // A share link pasted into the address bar of an open lab changes only the
            // fragment (no page load); load the page so the link is read and offered as on a
            // fresh open (share::Incoming), never ignored.
            if streamlab_model::lab::share::from_location_hash(&hash).is_some() {
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
                return;
            }
            route.set(Route::from_hash(&hash));
        });
        // A question asking before it replaces the lab shows its banner at the top of the
        // page: bring it into view (the learner clicked far below it).
        let ask = study.ask;
        Effect::new(move |_| {
            if ask.with(Option::is_some) {
                if let Some(w) = web_sys::window() {
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        });
        on_cleanup(move || handle.remove());
        // Browser storage is the outside world: save after every change.
        Effect::new(move |_| {
            let json = study.progress.with(Progress::to_json);
            if let Some(s) = local_storage() {
                let _ = s.set_item(PROGRESS_KEY, &json);
            }
        });
        provide_context(study);
        fetch_study_data(study, Some(lab));
        study
    }

    /// Makes the live lab the own lab of the lesson `lesson` ([`LabOwner::enter_lesson`]);
    /// true when it was replaced (the lesson starts on its own lab), false when it already was
    /// the lesson's.
    pub fn enter_lesson(&self, lab: Lab, lesson: &LessonRef) -> bool {
        let mut owner = self.owner.get_value();
        if lab.read(|s| owner.owns(lesson.id(), &lesson.preset, s)) {
            return false;
        }
        crate::components::stop_playing();
        lab.act(|s| owner.enter_lesson(s, lesson.id(), &lesson.preset));
        self.set_owner(owner);
        lab.selected_batch.set(None);
        lab.notice.set(None);
        // The lab was the free lab's, or another lesson's: nothing is asked about it.
        self.ask.set(None);
        true
    }

    /// Gives the lab back to the free lab, with the session kept aside
    /// ([`LabOwner::enter_free_lab`]); nothing happens while the free lab is live.
    pub fn to_free_lab(&self, lab: Lab) {
        if self.owner.with_value(|o| o.lesson.is_none()) {
            return;
        }
        let mut owner = self.owner.get_value();
        crate::components::stop_playing();
        lab.act(|s| owner.enter_free_lab(s, || streamlab_model::lab::presets::preset("classic").map(LabSession::from_scenario)));
        self.set_owner(owner);
        lab.selected_batch.set(None);
        lab.notice.set(None);
    }

    fn set_owner(&self, owner: LabOwner) {
        if let Some(s) = local_storage() {
            let _ = s.set_item(OWNER_KEY, &owner.to_json());
        }
        self.owner.set_value(owner);
    }

    /// The question `id`, if it is in the bank.
    pub fn question(&self, id: &str) -> Option<Question> {
        self.bank.with_value(|b| b.iter().find(|q| q.id == id).cloned())
    }

    /// The name of topic `id` in `lang` (the id itself for an unknown topic).
    pub fn topic_name(&self, id: &str, lang: Lang) -> String {
        self.topics.with_value(|ts| ts.iter().find(|t| t.id == id).map_or_else(|| id.to_string(), |t| t.name(lang).to_string()))
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

pub(crate) fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Shows `route` (a new history entry, so back and forward work).
pub fn go(route: &Route) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_hash(&route.to_hash());
    }
}

/// Today, from the browser's clock (read here, in the page, never in the engine or the
/// progress record).
pub fn today() -> Day {
    Day::from_unix_ms(js_sys::Date::now() as i64)
}

/// True when the learner has done something in the lab that replacing it would lose
/// ([`LabSession::has_own_work`]).
pub fn lab_changed(lab: Lab) -> bool {
    lab.read(LabSession::has_own_work)
}

/// Replaces the lab with `o` now.
pub fn do_open(lab: Lab, o: Opening) {
    let mut session = LabSession::from_scenario(o.scenario);
    let mut problem = None;
    if let Some(script) = &o.script {
        problem = streamlab_model::lab::script::run(&mut session, script).err();
    } else if let Some(b) = o.batch {
        while !session.view().batches.iter().any(|x| x.id == b) && session.run_step() {}
    }
    // Kept for Step back if it is the learner's (they were asked first).
    lab.replace(session);
    lab.selected_batch.set(o.batch);
    if problem.is_some() {
        lab.notice.set(problem);
    }
    if o.then.shows_lab() {
        scroll_to_batch(o.batch);
    }
    go(&o.then);
}

/// Opens `o` in the free lab, asking first when that would replace a lab the learner changed
/// (the free lab's own session comes back first when a lesson has the lab).
pub fn open_in_lab(lab: Lab, study: Study, o: Opening) {
    study.to_free_lab(lab);
    if lab_changed(lab) {
        study.ask.set(Some(o));
        // The question is about the free lab: it is asked there, never beside a lesson.
        if study.route.with_untracked(|r| matches!(r, Route::Lesson(_))) {
            go(&Route::Lab);
        }
    } else {
        study.ask.set(None);
        do_open(lab, o);
    }
}

/// Brings the named batch's row into view once the page has drawn it; with no batch named, the
/// lab opens at its top (its query and run controls), wherever the question page was scrolled.
fn scroll_to_batch(batch: Option<u64>) {
    gloo_timers::callback::Timeout::new(50, move || {
        let Some(w) = web_sys::window() else { return };
        let row = batch.and_then(|b| w.document()?.query_selector(&format!("[data-testid=\"batch-row\"][data-batch-id=\"{b}\"]")).ok().flatten());
        match row {
            Some(el) => {
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_block(web_sys::ScrollLogicalPosition::Center);
                el.scroll_into_view_with_scroll_into_view_options(&opts);
            }
            None => w.scroll_to_with_x_and_y(0.0, 0.0),
        }
    })
    .forget();
}

/// The links to every study page, on every page.
#[component]
pub fn StudyNav() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let due = move || study.progress.with(|p| p.due(today()).len());
    let link = move |route: Route, id: &'static str, key: &'static str| {
        let href = route.to_hash();
        let r2 = route.clone();
        let current = move || {
            let now = study.route.get();
            let same = match (&now, &r2) {
                (Route::Lesson(_), Route::Lessons) => true,
                (a, b) => a == b,
            };
            same.then_some("page")
        };
        view! { <a href=href data-testid=id aria-current=current>{move || lab.t(key)}</a> }
    };
    // On a phone the links are one row that scrolls sideways: bring the current page's link
    // into the row's view when the page changes.
    Effect::new(move |_| {
        study.route.track();
        gloo_timers::callback::Timeout::new(0, || {
            use wasm_bindgen::JsCast;
            let doc = web_sys::window().and_then(|w| w.document());
            let find = |sel: &str| doc.as_ref().and_then(|d| d.query_selector(sel).ok().flatten()).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            if let (Some(nav), Some(link)) = (find(".study-nav"), find(".study-nav a[aria-current=page]")) {
                let at = link.offset_left() - nav.offset_left();
                let shown = at >= nav.scroll_left() && at + link.offset_width() <= nav.scroll_left() + nav.client_width();
                if !shown {
                    nav.set_scroll_left((at - 16).max(0));
                }
            }
        })
        .forget();
    });
    view! {
        <nav class="study-nav" aria-label=move || lab.t("nav.label")>
            {link(Route::Lessons, "nav-lessons", "nav.lessons")}
            {link(Route::Lab, "nav-lab", "nav.lab")}
            {link(Route::Quiz, "nav-quiz", "nav.quiz")}
            {link(Route::ExamTrack, "nav-exam-track", "nav.exam_track")}
            {link(Route::Exam, "nav-exam", "nav.exam")}
            <a href=Route::Review.to_hash() data-testid="nav-review"
                aria-current=move || (study.route.get() == Route::Review).then_some("page")>
                {move || lab.t("nav.review")}
                {move || (due() > 0).then(|| view! { " "<span class="badge" data-testid="review-due">{due()}</span> })}
            </a>
            {link(Route::Glossary, "nav-glossary", "nav.glossary")}
            {link(Route::CheatSheet, "nav-cheatsheet", "nav.cheatsheet")}
        </nav>
    }
}

/// The progress notice from loading, and the question before replacing a changed lab.
#[component]
pub fn StudyBanners() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    view! {
        {move || study.notice.get().map(|n| view! {
            <div class="banner" role="alert" data-testid="progress-notice">
                <p>{move || n.text(lab.lang.get()).to_string()}</p>
                <button data-testid="progress-notice-dismiss" on:click=move |_| study.notice.set(None)>{move || lab.t("study.dismiss")}</button>
            </div>
        })}
        {move || study.ask.get().map(|o| {
            // The example by its name in the page's language.
            let titles = streamlab_model::lab::presets::scenario_title(&o.scenario);
            let title = move || titles.get(lab.lang.get()).clone();
            view! {
                <div class="banner ask" role="alertdialog" data-testid="replace-ask">
                    <p>{move || lab.t_with("study.replace.ask", &[("title", &title())])}</p>
                    <button class="primary" data-testid="replace-yes" on:click={
                        let o = o.clone();
                        move |_| { study.ask.set(None); do_open(lab, o.clone()); }
                    }>{move || lab.t("study.replace.yes")}</button>
                    <button data-testid="replace-no" on:click=move |_| study.ask.set(None)>{move || lab.t("study.replace.no")}</button>
                </div>
            }
        })}
    }
}

/// Right answers per topic, for `topics` (every topic with an answer when `None`).
#[component]
pub fn TopicScores(
    /// The topic ids to show, in this order; `None` shows every topic with an answer.
    #[prop(optional)]
    topics: Option<Vec<String>>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let rows = move || {
        let lang = lab.lang.get();
        study.progress.with(|p| {
            let ids: Vec<String> = match &topics {
                Some(t) => t.clone(),
                None => study.topics.with_value(|ts| ts.iter().map(|t| t.id.clone()).filter(|id| p.score(id).answered > 0).collect()),
            };
            ids.into_iter().map(|id| (study.topic_name(&id, lang), p.score(&id), id)).collect::<Vec<_>>()
        })
    };
    view! {
        <table class="grid scores" data-testid="topic-scores">
            <thead><tr><th>{move || lab.t("score.topic")}</th><th>{move || lab.t("score.right")}</th><th>"%"</th></tr></thead>
            <tbody>
                {move || {
                    let r = rows();
                    if r.is_empty() {
                        view! { <tr><td colspan="3" class="muted">{lab.t("score.none")}</td></tr> }.into_any()
                    } else {
                        r.into_iter().map(|(name, s, id)| view! {
                            <tr data-testid="topic-score" data-topic=id data-answered=s.answered data-correct=s.correct>
                                <td>{name}</td><td>{format!("{} / {}", s.correct, s.answered)}</td><td>{s.percent()}</td>
                            </tr>
                        }).collect_view().into_any()
                    }
                }}
            </tbody>
        </table>
    }
}

/// Fetches the lessons, the exam lens and the glossary (`prerendered/study.json`, written from
/// `quizzes/` at build time) and hands them to the model (`streamlab_model::data`);
/// `study.study_data` says how it went. The question bank and the time-zone database are
/// fetched once it is done (on the first fetch, which passes the `lab` for the time zones; a
/// retry passes `None`), so the lesson beside the lab comes first on a slow connection. The
/// service worker caches the file with the rest of the app, so it also arrives offline.
pub fn fetch_study_data(study: Study, first: Option<Lab>) {
    study.study_data.set(BankState::Loading);
    leptos::task::spawn_local(async move {
        let result = crate::storage::fetch_text("prerendered/study.json")
            .await
            .and_then(|text| streamlab_model::data::install_bundle(&text))
            .and_then(|()| streamlab_model::study::lesson::lessons());
        match result {
            Ok(lessons) => {
                study.lessons.set_value(lessons);
                study.study_data.set(BankState::Ready);
            }
            Err(e) => study.study_data.set(BankState::Failed(e)),
        }
        if let Some(lab) = first {
            fetch_bank(study);
            crate::fetch_time_zones(lab);
        }
    });
}

/// `children` once the lessons, the exam lens and the glossary have arrived; until then a line
/// saying they are on their way (under it, what the loading screen showed that `boot` selects,
/// if anything), or why they did not come, with a button to try again.
#[component]
pub fn WithStudyData(
    children: ChildrenFn,
    /// A selector of the loading screen's page (`.boot-page …`) to keep showing meanwhile.
    #[prop(optional)]
    boot: &'static str,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    move || match study.study_data.get() {
        BankState::Ready => children().into_any(),
        BankState::Loading => view! {
            <p class="muted questions-wait" role="status" data-testid="study-loading">{move || lab.t("study.loading")}</p>
            <div inner_html=boot_html(boot)></div>
        }
        .into_any(),
        BankState::Failed(why) => view! { <StudyDataFailed why=why/> }.into_any(),
    }
}

/// The HTML of what `selector` selects on the page (the loading screen's, which stays in the
/// page hidden); empty for no selector or no match.
pub(crate) fn boot_html(selector: &str) -> String {
    if selector.is_empty() {
        return String::new();
    }
    let doc = web_sys::window().and_then(|w| w.document());
    doc.and_then(|d| d.query_selector(selector).ok().flatten()).map(|el| el.outer_html()).unwrap_or_default()
}

/// Why the lessons did not come, with a button to try again.
#[component]
pub fn StudyDataFailed(
    /// The reason, as the fetch or the model gave it.
    why: String,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    view! {
        <p class="error questions-wait" role="alert" data-testid="study-failed">
            {move || lab.t("study.failed")}" ("{why}") "
            <button on:click=move |_| fetch_study_data(study, None)>{move || lab.t("questions.retry")}</button>
        </p>
    }
}

/// Fetches the question bank (`prerendered/questions.json`, written from `quizzes/` at build
/// time) into `study.bank`; `study.questions` says how it went. The service worker caches the
/// file with the rest of the app, so it also arrives offline.
pub fn fetch_bank(study: Study) {
    study.questions.set(BankState::Loading);
    leptos::task::spawn_local(async move {
        let result = crate::storage::fetch_text("prerendered/questions.json").await.and_then(|text| streamlab_model::study::quiz::bank_from_bundle(&text));
        match result {
            Ok(bank) => {
                study.bank.set_value(bank);
                study.questions.set(BankState::Ready);
            }
            Err(e) => study.questions.set(BankState::Failed(e)),
        }
    });
}

/// `children` once the question bank has arrived; until then a line saying it is on its way,
/// or why it did not come, with a button to try again.
#[component]
pub fn WithQuestions(children: ChildrenFn) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    move || match study.questions.get() {
        BankState::Ready => children().into_any(),
        BankState::Loading => view! { <p class="muted questions-wait" role="status" data-testid="questions-loading">{move || lab.t("questions.loading")}</p> }.into_any(),
        BankState::Failed(why) => view! {
            <p class="error questions-wait" role="alert" data-testid="questions-failed">
                {move || lab.t("questions.failed")}" ("{why}") "
                <button on:click=move |_| fetch_bank(study)>{move || lab.t("questions.retry")}</button>
            </p>
        }
        .into_any(),
    }
}
