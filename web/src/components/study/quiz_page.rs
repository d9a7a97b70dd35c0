//! The question bank, one question at a time (the position is kept in the progress record,
//! so it survives a reload), and the review queue of missed questions due today.

use leptos::prelude::*;

use super::question::QuestionCard;
use super::{today, Study, TopicScores};
use crate::Lab;

/// The question bank page (`#/quiz`).
#[component]
pub fn QuizPage() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let total = study.bank.with_value(Vec::len);
    let position = Memo::new(move |_| study.progress.with(|p| p.quiz_position.min(total.saturating_sub(1))));
    let go = move |delta: isize| {
        if total > 0 {
            study.progress.update(|p| p.quiz_position = (p.quiz_position as isize + delta).rem_euclid(total as isize) as usize);
        }
    };
    let topics = study.topics.get_value();
    let jump = move |ev: leptos::ev::Event| {
        let topic = event_target_value(&ev);
        if let Some(i) = study.bank.with_value(|b| b.iter().position(|q| q.topic == topic)) {
            study.progress.update(|p| p.quiz_position = i);
        }
    };
    view! {
        <main class="study-page quiz-page" data-testid="quiz-page">
            <h2>{move || lab.t("nav.quiz")}" "<small data-testid="quiz-position">{move || format!("{} {} {total}", position.get() + 1, lab.t("quiz.of"))}</small></h2>
            <label class="row">{move || lab.t("score.topic")}" "
                <select data-testid="quiz-topic" on:change=jump>
                    {topics.into_iter().map(|t| {
                        let id = t.id.clone();
                        let id2 = t.id.clone();
                        let current = move || study.bank.with_value(|b| b.get(position.get()).is_some_and(|q| q.topic == id2));
                        view! { <option value=id selected=current>{move || t.name(lab.lang.get()).to_string()}</option> }
                    }).collect_view()}
                </select>
            </label>
            <div class="panel">
                {move || {
                    let q = study.bank.with_value(|b| b.get(position.get()).cloned());
                    q.map(|q| view! { <QuestionCard q=q/> })
                }}
                <div class="buttons">
                    <button data-testid="quiz-prev" on:click=move |_| go(-1)>{move || lab.t("quiz.prev")}</button>
                    <button data-testid="quiz-next" on:click=move |_| go(1)>{move || lab.t("quiz.next")}</button>
                </div>
            </div>
            <h3>{move || lab.t("score.title")}</h3>
            <TopicScores/>
        </main>
    }
}

/// The review queue (`#/review`): questions missed earlier and due again today, longest
/// overdue first. The list is taken when the page opens, so answering one does not move the
/// others under the learner's hand.
#[component]
pub fn ReviewPage() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let due: Vec<String> = study.progress.with_untracked(|p| p.due(today()));
    let waiting = study.progress.with_untracked(|p| p.review.len());
    // Missed questions not due yet can be reviewed now, on the learner's request.
    let later: Vec<String> = study.progress.with_untracked(|p| p.review.keys().filter(|id| !due.contains(id)).cloned().collect());
    let early = RwSignal::new(false);
    let n = due.len();
    view! {
        <main class="study-page" data-testid="review-page">
            <h2>{move || lab.t("review.title")}" "<small data-testid="review-count">{n}</small></h2>
            <p class="help">{move || lab.t("review.help")}</p>
            {(n == 0).then(|| view! {
                <p class="muted" data-testid="review-empty">{move || lab.t_with("review.none", &[("n", &waiting)])}</p>
            })}
            {due.into_iter().filter_map(|id| study.question(&id)).map(|q| view! {
                <div class="panel"><QuestionCard q=q/></div>
            }).collect_view()}
            {(!later.is_empty()).then(|| {
                let count = later.len();
                view! {
                    <button data-testid="review-early" hidden=move || early.get() on:click=move |_| early.set(true)>
                        {move || lab.t_with("review.early", &[("n", &count)])}
                    </button>
                }
            })}
            {move || early.get().then(|| later.iter().filter_map(|id| study.question(id)).map(|q| view! {
                <div class="panel"><QuestionCard q=q/></div>
            }).collect_view())}
        </main>
    }
}
