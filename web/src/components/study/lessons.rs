//! The study path (every lesson with its progress) and one lesson beside the live lab: its
//! text, what to watch, where the guide and Spark 4.3 differ, the guided steps one at a
//! time (checked against the lab after every change) and its questions.

use std::collections::BTreeSet;

use leptos::prelude::*;

use super::question::QuestionCard;
use crate::components::markup::{render_spans, render_text};
use super::{Study, TopicScores};
use crate::components::context::BankState;
use streamlab_model::study::lesson::Lesson;
use streamlab_model::study::progress::Progress;
use crate::route::Route;
use crate::Lab;

/// Where the learner is in a lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonState {
    NotStarted,
    /// On guided step `k` (0-based) of `n`.
    Step(usize, usize),
    /// Every step done, the questions are next.
    Questions,
    Done,
}

/// The state of `lesson` in `p`.
pub fn lesson_state(p: &Progress, lesson: &Lesson) -> LessonState {
    if p.lessons_done.contains(&lesson.id) {
        LessonState::Done
    } else if p.lesson.as_deref() == Some(lesson.id.as_str()) {
        if p.lesson_step >= lesson.steps.len() {
            LessonState::Questions
        } else {
            LessonState::Step(p.lesson_step, lesson.steps.len())
        }
    } else {
        LessonState::NotStarted
    }
}

/// The page the app opens on: the lessons in order, each with its progress, and the scores.
#[component]
pub fn LessonList() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    view! {
        <main class="study-page">
            // A link that named no page opened this list: say so, naming it.
            {crate::route::Route::unknown_path(&super::current_hash()).map(|path| view! {
                <p class="notice" role="status" data-testid="route-unknown">{move || lab.t("route.unknown")}" "<code>{format!("#/{path}")}</code></p>
            })}
            <h2>{move || lab.t("lessons.title")}</h2>
            <p class="help">{move || lab.t("lessons.intro")}</p>
            <super::WithStudyData boot=".boot-page nav.boot-lesson ol">
            <ol class="lesson-list" data-testid="lesson-list">
                {study.lessons.get_value().into_iter().map(|l| {
                    let l2 = l.clone();
                    let l2 = StoredValue::new(l2);
                    let state = move || study.progress.with(|p| l2.with_value(|l| lesson_state(p, l)));
                    let status = move || match state() {
                        LessonState::NotStarted => lab.t("lesson.not_started").to_string(),
                        LessonState::Step(k, n) => lab.t_with("lesson.step_of", &[("k", &(k + 1)), ("n", &n)]),
                        LessonState::Questions => lab.t("lesson.questions_next").to_string(),
                        LessonState::Done => lab.t("lesson.done").to_string(),
                    };
                    let kind = move || match state() {
                        LessonState::NotStarted => "not-started",
                        LessonState::Step(..) | LessonState::Questions => "started",
                        LessonState::Done => "done",
                    };
                    let title = { let l = l.clone(); move || l.text(lab.lang.get()).title.clone() };
                    view! {
                        <li class="lesson-item" data-testid="lesson-item" data-lesson=l.id.clone() data-state=kind>
                            <a href=Route::Lesson(l.id.clone()).to_hash() data-testid=format!("lesson-link-{}", l.id)>
                                <span class="num">{l.number}"."</span>{title}
                            </a>
                            <span class="status" data-testid="lesson-status">{status}</span>
                        </li>
                    }
                }).collect_view()}
            </ol>
            </super::WithStudyData>
            <h3>{move || lab.t("score.title")}</h3>
            <TopicScores/>
        </main>
    }
}

/// One lesson beside the lab (`#/lesson/<id>`). Its lab opens at once (the lesson's preset is
/// compiled in); its text, tasks and questions come with the lessons (`prerendered/study.json`),
/// and until then the column shows the lesson as the loading screen did.
#[component]
pub fn LessonPage(id: String) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let Some(lesson_ref) = streamlab_model::study::lesson::lesson_ref(&id) else {
        return view! {
            <main class="study-page" data-testid="lesson-unknown">
                <p>{move || lab.t("lesson.unknown")}" "<code>{id.clone()}</code></p>
                <a href=Route::Lessons.to_hash()>{move || lab.t("nav.lessons")}</a>
            </main>
        }
        .into_any();
    };
    // Opening a lesson opens its own lab (kept as it is when it already is: a reload, or back
    // from a question page); the free lab's session waits aside until the free lab is opened.
    let replaced = study.enter_lesson(lab, &lesson_ref);
    // A lesson opens at its title, wherever the page was scrolled to ("Next lesson" sits at the
    // foot of the previous lesson).
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
    // Presenter mode's speaker notes follow the open lesson, and go back to the preset's when
    // the lesson page goes away.
    if let Some(p) = use_context::<crate::components::context::Presenter>() {
        p.lesson.set(Some(id.clone()));
        on_cleanup(move || p.lesson.set(None));
    }
    let id2 = id.clone();
    let loaded = Memo::new(move |_| {
        study.study_data.track();
        study.lessons.with_value(|ls| ls.iter().find(|l| l.id == id2).cloned())
    });
    let step = Memo::new(move |_| study.progress.with(|p| p.lesson_step));
    // When the lesson is there, the learner is on it: at its first task, or at its questions
    // when it is done (kept as it was when the lab was its own already).
    let started = StoredValue::new(false);
    Effect::new(move |_| {
        loaded.with(|l| {
            let Some(l) = l else { return };
            if started.get_value() {
                return;
            }
            started.set_value(true);
            if replaced || study.progress.with_untracked(|p| p.lesson.as_deref() != Some(l.id.as_str())) {
                let done = study.progress.with_untracked(|p| p.lessons_done.contains(&l.id));
                let step = if done { l.steps.len() } else { 0 };
                study.progress.update(|p| p.reach_lesson(&l.id, step));
            }
        });
    });
    // After every lab change, move past the steps whose condition now holds.
    Effect::new(move |_| {
        lab.view.track();
        // Not while a slider is dragged: only where it is let go counts.
        if lab.adjusting.get() {
            return;
        }
        loaded.with(|l| {
            // Only the lesson's own lab moves its tasks on (the free lab comes back under a
            // lesson page for a moment when a question opens its example in the free lab).
            let Some(l) = l else { return };
            if !started.get_value() || !lab.read(|s| study.owner.with_value(|o| o.owns(&l.id, &l.preset, s))) {
                return;
            }
            let at = lab.view.with(|v| l.advance(step.get_untracked(), v));
            if at != step.get_untracked() {
                study.progress.update(|p| p.reach_lesson(&l.id, at));
            }
        });
    });
    // While the lessons are on their way the column shows the lesson as the loading screen did:
    // its page, or (when the app came first) the same prerendered file, fetched.
    let boot = RwSignal::new(super::boot_html(&format!(".boot-page .boot-lesson[data-lesson=\"{id}\"]")));
    if boot.with_untracked(String::is_empty) && !streamlab_model::data::is_installed() {
        let file = format!("prerendered/lesson-{id}.{}.html", lab.lang.get_untracked().code());
        leptos::task::spawn_local(async move {
            if let Ok(html) = crate::storage::fetch_text(&file).await {
                let _ = boot.try_set(html);
            }
        });
    }
    let id3 = id.clone();
    view! {
        <div class="lesson-page" data-testid="lesson-page" data-lesson=id3>
            {move || match (loaded.get(), study.study_data.get()) {
                (Some(l), _) => view! { <LessonText lesson=l/> }.into_any(),
                (None, BankState::Failed(why)) => view! { <aside class="lesson-text panel"><super::StudyDataFailed why=why/></aside> }.into_any(),
                (None, _) => view! {
                    <aside class="lesson-text panel" data-testid="lesson-text-loading" inner_html=move || boot.get()></aside>
                }
                .into_any(),
            }}
            // The tasks head the lab, beside the lesson text: on screen with the run controls at
            // 1280×800, and between the text and the lab when the page is one column. The lab is
            // there at once; the tasks come with the lessons.
            <div class="lesson-lab">
                // Where the tasks will be, a line says they are coming.
                {move || match loaded.get() {
                    Some(l) => view! { <Steps lesson=StoredValue::new(l) step=step/> }.into_any(),
                    None => (study.study_data.get() == BankState::Loading)
                        .then(|| view! { <p class="muted steps-wait" role="status" data-testid="lesson-steps-loading">{move || lab.t("lesson.loading")}</p> })
                        .into_any(),
                }}
                {crate::components::LabPanels()}
            </div>
            {move || loaded.get().map(|l| view! { <LessonQuestions lesson=StoredValue::new(l) step=step/> })}
        </div>
    }
    .into_any()
}

/// A lesson's text: what it teaches, what to watch in the lab, and where the guide and Spark
/// 4.3 differ.
#[component]
fn LessonText(lesson: Lesson) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let number = lesson.number.to_string();
    let lesson = StoredValue::new(lesson);
    let text = move || lesson.with_value(|l| l.text(lab.lang.get()).clone());
    view! {
        <aside class="lesson-text panel">
            <p class="muted">{move || lab.t_with("lesson.number", &[("n", &number)])}</p>
            <h2 data-testid="lesson-title">{move || text().title}</h2>
            <div class="prose">{move || render_text(&text().text)}</div>
            <div class="watch" data-testid="lesson-watch"><h3>{move || lab.t("lesson.watch")}</h3><div class="prose">{move || render_text(&text().watch)}</div></div>
            {move || text().exam.map(|e| view! {
                <div class="exam-note" data-testid="lesson-exam"><h3>{move || lab.t("lesson.exam")}</h3><div class="prose">{render_text(&e)}</div></div>
            })}
        </aside>
    }
}

/// The lesson's questions, when its tasks are done: under the lesson text beside the lab, and
/// after the lab when the page is one column (never above the tasks the learner was just
/// working on). Answering them all finishes the lesson.
#[component]
fn LessonQuestions(lesson: StoredValue<Lesson>, step: Memo<usize>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let answered = RwSignal::new(BTreeSet::<String>::new());
    let n_questions = lesson.with_value(|l| l.questions.len());
    let on_answered = move |qid: String| {
        answered.update(|a| {
            a.insert(qid);
        });
        if answered.with(BTreeSet::len) >= n_questions {
            lesson.with_value(|l| study.progress.update(|p| p.finish_lesson(&l.id)));
        }
    };
    let next = lesson.with_value(|l| study.lessons.with_value(|ls| l.next(ls).map(|n| n.id.clone())));
    move || {
        (step.get() >= lesson.with_value(|l| l.steps.len())).then(|| {
            let next = next.clone();
            view! {
                <section class="lesson-questions panel" data-testid="lesson-questions">
                    <h3>{move || lab.t("lesson.questions")}</h3>
                    <super::WithQuestions>
                        {move || lesson.with_value(|l| l.questions.clone()).into_iter().filter_map(|qid| study.question(&qid)).map(|q| {
                            let qid = q.id.clone();
                            view! { <QuestionCard q=q on_answered=Callback::new(move |_| on_answered(qid.clone()))/> }
                        }).collect_view()}
                    </super::WithQuestions>
                    <TopicScores topics=lesson.with_value(|l| l.topics.clone())/>
                    {next.map(|n| view! {
                        <a class="button primary" data-testid="lesson-next" href=Route::Lesson(n).to_hash()>{move || lab.t("lesson.next")}</a>
                    })}
                    <a class="button" href=Route::Lessons.to_hash()>{move || lab.t("nav.lessons")}</a>
                </section>
            }
        })
    }
}

/// The notice after "Do it for me" had to build the lesson's lab again (a sentence
/// `i18n::localize` knows).
const REBUILT: &str = "the lesson's lab was built again from its start, with every task up to this one done for you";

/// The guided steps: the ones done (with their why), the current one with what it still
/// waits for and a "do it for me" button.
#[component]
fn Steps(lesson: StoredValue<Lesson>, step: Memo<usize>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let total = lesson.with_value(|l| l.steps.len());
    let waiting = move || lab.view.with(|v| lesson.with_value(|l| l.waiting_for(step.get(), v)));
    // "Do it for me" always works on the lesson's own lab: the step's actions, or the lab built
    // again from the lesson's start when they cannot reach the step from where the lab is.
    let do_it = move |_| {
        crate::components::stop_playing();
        let at = step.get_untracked();
        let r = lab.act(|s| lesson.with_value(|l| l.do_step(at, s)));
        lab.selected_batch.set(None);
        lab.notice.set(match r {
            Ok(false) => None,
            Ok(true) => Some(REBUILT.to_string()),
            Err(e) => Some(e),
        });
    };
    // The lesson's lab as it opened, the guided steps from the first.
    let start_over = move |_| {
        crate::components::stop_playing();
        lesson.with_value(|l| {
            if let Some(fresh) = l.session() {
                lab.act(|s| *s = fresh);
            }
            study.progress.update(|p| p.reach_lesson(&l.id, 0));
        });
        lab.selected_batch.set(None);
        lab.notice.set(None);
    };
    view! {
        <section class="steps-guide" data-testid="lesson-steps">
            <h3>{move || lab.t("lesson.steps")}" "<small data-testid="lesson-step-count">{move || format!("{} / {total}", step.get().min(total))}</small></h3>
            <ol>
                {move || {
                    let lang = lab.lang.get();
                    let at = step.get();
                    lesson.with_value(|l| l.steps.iter().enumerate().take(at + 1).map(|(i, s)| {
                        let t = s.text(lang).clone();
                        let done = i < at;
                        // The step's lab actions in script form (`script.rs`), for a curious
                        // learner's tooltip and for the end-to-end test.
                        let actions = serde_json::to_string(&s.actions).unwrap_or_default();
                        let title = s.actions.join("\n");
                        view! {
                            <li class="guided" class:done=done data-testid="lesson-step" data-step=i data-done=done.to_string() data-do=actions title=title>
                                <p>{render_spans(streamlab_model::text::markup::spans(&t.text))}</p>
                                {done.then(|| view! { <p class="why" data-testid="step-why">"✓ "{render_spans(streamlab_model::text::markup::spans(&t.why))}</p> })}
                            </li>
                        }
                    }).collect_view())
                }}
            </ol>
            {move || (step.get() < total).then(|| view! {
                <p class="help" data-testid="step-waiting">
                    {move || match waiting() {
                        Some(w) => format!("{} {}", lab.t("lesson.waiting"), w.text(lab.lang.get())),
                        None => lab.t("lesson.waiting_generic").to_string(),
                    }}
                </p>
                <button class="primary" data-testid="step-do" on:click=do_it>{move || lab.t("lesson.do_it")}</button>
            })}
            <button data-testid="lesson-start-over" title=move || lab.t("lesson.start_over.help") on:click=start_over>{move || lab.t("lesson.start_over")}</button>
            // On one column the sink's table is far below the tasks: one tap brings it up.
            <button class="to-sink" data-testid="lesson-to-sink" on:click=move |_| {
                if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(".lesson-lab .panel.sink").ok().flatten()) {
                    el.scroll_into_view();
                }
            }>{move || lab.t("lesson.to_sink")}</button>
            {move || (step.get() >= total).then(|| view! {
                <p class="ok" data-testid="steps-complete">{move || lab.t("lesson.steps_done")}" "
                    // The questions are after the lab on one column: one tap brings them up.
                    <button data-testid="lesson-to-questions" on:click=move |_| {
                        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector("[data-testid=lesson-questions]").ok().flatten()) {
                            el.scroll_into_view();
                        }
                    }>{move || lab.t("lesson.to_questions")}</button>
                </p>
            })}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_is_not_started_then_on_a_step_then_at_its_questions_then_done() {
        let lessons = streamlab_model::study::lesson::lessons().expect("lessons parse");
        let (a, b) = (&lessons[0], &lessons[1]);
        let n = a.steps.len();
        let mut p = Progress::default();
        assert_eq!(lesson_state(&p, a), LessonState::NotStarted);
        p.reach_lesson(&a.id, 1);
        assert_eq!(lesson_state(&p, a), LessonState::Step(1, n));
        // Another lesson is not started just because this one is.
        assert_eq!(lesson_state(&p, b), LessonState::NotStarted);
        p.reach_lesson(&a.id, n);
        assert_eq!(lesson_state(&p, a), LessonState::Questions);
        p.finish_lesson(&a.id);
        p.reach_lesson(&b.id, 0);
        // Done stays done when the learner moves on.
        assert_eq!(lesson_state(&p, a), LessonState::Done);
        assert_eq!(lesson_state(&p, b), LessonState::Step(0, b.steps.len()));
    }
}
