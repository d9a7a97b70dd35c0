//! "Predict the next batch" beside the lab: before the next batch runs, a question about it
//! (built by `predict.rs` from whatever the lab holds); once the learner runs the batch, what
//! was right. And a small panel linking to the question bank.

use leptos::prelude::*;

use streamlab_model::study::predict::{is_right, predictions, NextAction, Prediction};
use crate::route::Route;
use crate::Lab;

/// The prediction panel.
#[component]
pub fn PredictPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let current = RwSignal::new(None::<Prediction>);
    let chosen = RwSignal::new(None::<usize>);
    let none = RwSignal::new(false);
    let asked = StoredValue::new(0u64);
    let open = move |_| {
        // Another kind of question each time (watermark, rows, dropped), seeded by the count.
        let n = asked.get_value();
        asked.set_value(n + 1);
        let all = lab.read(|s| predictions(s, n));
        let p = (!all.is_empty()).then(|| all[(n as usize) % all.len()].clone());
        none.set(p.is_none());
        current.set(p);
        chosen.set(None);
    };
    // The answer shows once the predicted batch has run.
    let ran = move || current.with(|p| p.as_ref().map(|p| p.batch_id)).is_some_and(|id| lab.view.with(|v| v.batches.iter().any(|b| b.id == id)));
    view! {
        <div class="panel predict" data-testid="predict">
            <h2>{move || lab.t("predict.title")}</h2>
            <button data-testid="predict-open" on:click=open>{move || lab.t("predict.open")}</button>
            {move || none.get().then(|| view! { <p class="muted" data-testid="predict-none">{move || lab.t("predict.none")}</p> })}
            {move || current.get().map(|p| {
                let p2 = p.clone();
                let p3 = p.clone();
                view! {
                    <p class="prompt" data-testid="predict-prompt">{move || p.prompt.get(lab.lang.get()).clone()}</p>
                    <div class="choices" role="radiogroup">
                        {p.choices.iter().enumerate().map(|(i, c)| {
                            let c = c.clone();
                            let answer = p.answer;
                            view! {
                                <label class="choice" data-testid="predict-choice" data-choice=i
                                    class:right=move || ran() && i == answer
                                    class:wrong=move || ran() && chosen.get() == Some(i) && i != answer>
                                    <input type="radio" name="predict" disabled=ran prop:checked=move || chosen.get() == Some(i) on:change=move |_| chosen.set(Some(i))/>
                                    {move || c.get(lab.lang.get()).clone()}
                                </label>
                            }
                        }).collect_view()}
                    </div>
                    {move || (!ran()).then(|| {
                        let trigger = p2.action == NextAction::Trigger;
                        let key = if trigger { "predict.run.trigger" } else { "predict.run.step" };
                        // The button the hint names, here too: on a phone the run panel is
                        // thousands of pixels above this one.
                        let run = move |_| {
                            lab.act(|s| if trigger { s.trigger() } else { s.run_step(); });
                            lab.selected_batch.set(None);
                            // The batch grows the panels above this one: keep the verdict in view.
                            crate::components::bring_into_view("[data-testid=predict-feedback]");
                        };
                        view! {
                            <p class="help" data-testid="predict-hint">{move || lab.t(key)}</p>
                            <button class="primary" data-testid="predict-run" on:click=run>
                                {move || lab.t(if trigger { "trigger" } else { "run.step" })}
                            </button>
                        }
                    })}
                    {move || ran().then(|| {
                        let ok = chosen.get().is_some_and(|c| is_right(&p3, c));
                        let p = p3.clone();
                        view! {
                            <div class="feedback" class:ok=ok role="status" data-testid="predict-feedback">
                                <strong>{move || if chosen.get().is_none() { lab.t("predict.unanswered") } else if ok { lab.t("quiz.correct") } else { lab.t("quiz.wrong") }}</strong>
                                " "{move || p.explanation.get(lab.lang.get()).clone()}
                            </div>
                        }
                    })}
                }
            })}
        </div>
    }
}

/// A small panel in the lab pointing to the question bank, the exam and the review queue.
#[component]
pub fn QuizLink() -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <div class="panel quiz-link" data-testid="quiz">
            <h2>{move || lab.t("quiz")}</h2>
            <p class="help">{move || lab.t("quiz.link.help")}</p>
            <div class="buttons">
                <a class="button" href=Route::Quiz.to_hash()>{move || lab.t("nav.quiz")}</a>
                <a class="button" href=Route::Exam.to_hash()>{move || lab.t("nav.exam")}</a>
                <a class="button" href=Route::Review.to_hash()>{move || lab.t("nav.review")}</a>
            </div>
        </div>
    }
}
