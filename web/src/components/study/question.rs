//! One practice question: choices in a seeded order per attempt, or an input box for a
//! type-the-value question; the answer is judged as `quiz.rs` says, recorded in the
//! learner's progress, and followed by the explanation.

use leptos::prelude::*;

use crate::components::markup::render_spans;
use super::{open_in_lab, today, Opening, Study};
use streamlab_model::text::markup::spans;
use streamlab_model::study::quiz::{shuffled, Answer, Grade, Kind, Question};
use crate::route::Route;
use crate::Lab;

/// What the last answer was.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    correct: bool,
    /// The file index of the choice given (choice questions).
    given: Option<usize>,
    /// The right value as the lab shows it (value questions answered wrong).
    expected: Option<String>,
}

/// A question to answer; every answer is recorded (practice, not exam). `on_answered` hears
/// whether it was right.
#[component]
pub fn QuestionCard(q: Question, #[prop(optional)] on_answered: Option<Callback<bool>>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let q = StoredValue::new(q);
    // The attempt number seeds the shuffle: a new order for each attempt, the same one after
    // a reload until the question is answered.
    let attempt = RwSignal::new(study.progress.with_untracked(|p| q.with_value(|q| p.answers.iter().filter(|a| a.question == q.id).count())) as u64);
    let order = Memo::new(move |_| q.with_value(|q| shuffled(q, attempt.get())));
    let chosen = RwSignal::new(None::<usize>);
    let typed = RwSignal::new(String::new());
    let unreadable = RwSignal::new(false);
    let outcome = RwSignal::new(None::<Outcome>);
    let kind = q.with_value(|q| q.kind);
    let id = q.with_value(|q| q.id.clone());
    let check = move || {
        let answer = match kind {
            Kind::Choice => chosen.get_untracked().map(Answer::Choice),
            Kind::Value => Some(Answer::Typed(typed.get_untracked())),
        };
        let given = chosen.get_untracked().filter(|_| kind == Kind::Choice);
        let result = answer.and_then(|a| match q.with_value(|q| q.grade(&a)) {
            Grade::Right => Some(Outcome { correct: true, given, expected: None }),
            Grade::Wrong { expected } => Some(Outcome { correct: false, given, expected }),
            Grade::Unreadable(_) => None,
        });
        unreadable.set(result.is_none() && kind == Kind::Value);
        if let Some(o) = result {
            let today = today();
            study.progress.update(|p| q.with_value(|q| p.record(q, o.correct, today, false)));
            if let Some(cb) = on_answered {
                cb.run(o.correct);
            }
            outcome.set(Some(o));
        }
    };
    let again = move |_| {
        attempt.update(|a| *a += 1);
        chosen.set(None);
        typed.set(String::new());
        outcome.set(None);
    };
    let try_it = move |_| {
        let o = q.with_value(|q| q.scenario().map(|s| Opening { scenario: s, script: q.check.script.clone(), batch: q.batch(), then: Route::Lab }));
        match o {
            Ok(o) => open_in_lab(lab, study, o),
            Err(e) => lab.notice.set(Some(e)),
        }
    };
    let answered = move || outcome.with(Option::is_some);
    view! {
        <div class="question" data-testid="question" data-question=id.clone() data-kind=if kind == Kind::Value { "value" } else { "choice" }>
            <p class="prompt" data-testid="quiz-prompt">{move || q.with_value(|q| render_spans(spans(&q.text(lab.lang.get()).prompt)))}</p>
            {move || (kind == Kind::Choice).then(|| view! {
                <div class="choices" role="radiogroup">
                    {move || order.get().into_iter().map(|i| {
                        let right = move || outcome.with(|o| o.is_some()) && q.with_value(|q| q.is_correct(i));
                        let wrong = move || outcome.with(|o| o.as_ref().is_some_and(|o| o.given == Some(i) && !o.correct));
                        let name = format!("q-{}", q.with_value(|q| q.id.clone()));
                        view! {
                            <label class="choice" class:right=right class:wrong=wrong data-testid="choice" data-choice=i>
                                <input type="radio" name=name prop:checked=move || chosen.get() == Some(i) disabled=answered
                                    on:change=move |_| chosen.set(Some(i))/>
                                // One flex item: text and code side by side wrap as one line of text.
                                <span class="choice-text">{move || q.with_value(|q| render_spans(spans(&q.text(lab.lang.get()).choices.get(i).cloned().unwrap_or_default())))}</span>
                            </label>
                        }
                    }).collect_view()}
                </div>
            })}
            {move || (kind == Kind::Value).then(|| view! {
                <form class="row" on:submit=move |ev| { ev.prevent_default(); if !answered() { check(); } }>
                    <input type="text" data-testid="value-input" prop:value=move || typed.get() disabled=answered
                        placeholder=move || lab.t("quiz.value.placeholder")
                        on:input=move |ev| typed.set(event_target_value(&ev))/>
                </form>
                {move || unreadable.get().then(|| {
                    let key = q.with_value(|q| q.value_of.clone()).unwrap_or_default();
                    let msg = if key.contains("watermark") { "quiz.value.time" } else { "quiz.value.number" };
                    view! { <p class="notice" role="status" data-testid="value-unreadable">{move || lab.t(msg)}</p> }
                })}
            })}
            <div class="buttons">
                <button class="primary" data-testid="quiz-check" on:click=move |_| check()
                    disabled=move || answered() || (kind == Kind::Choice && chosen.get().is_none()) || (kind == Kind::Value && typed.get().trim().is_empty())>
                    {move || lab.t("quiz.check")}
                </button>
                {move || answered().then(|| view! { <button data-testid="quiz-again" on:click=again>{move || lab.t("quiz.again")}</button> })}
                <button data-testid="quiz-try" on:click=try_it>{move || lab.t("quiz.try")}</button>
            </div>
            {move || outcome.get().map(|o| view! {
                <div class="feedback" class:ok=o.correct role="status" data-testid="quiz-feedback" data-correct=o.correct.to_string()>
                    <strong>{move || if o.correct { lab.t("quiz.correct") } else { lab.t("quiz.wrong") }}</strong>
                    {o.expected.clone().map(|e| view! { " "{move || lab.t("quiz.expected")}" "<code data-testid="quiz-expected">{e.clone()}</code>"." })}
                    " "<span data-testid="quiz-explanation">{move || q.with_value(|q| render_spans(spans(&q.text(lab.lang.get()).explanation)))}</span>
                </div>
            })}
        </div>
    }
}
