//! The quiz beside the lab: one question at a time, with "try it" loading its scenario.

use leptos::prelude::*;

use super::scenario_io::load_scenario;
use crate::quiz;
use crate::Lab;

/// The question bank panel.
#[component]
pub fn QuizPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // Type-the-value questions need an input box; until the quiz page renders them, the panel
    // shows the choice questions.
    let bank = StoredValue::new(quiz::bank().unwrap_or_default().into_iter().filter(|q| q.kind == quiz::Kind::Choice).collect::<Vec<_>>());
    let total = bank.with_value(Vec::len);
    let index = RwSignal::new(0usize);
    let chosen = RwSignal::new(None::<usize>);
    let checked = RwSignal::new(false);
    // "Try it" is waiting for the learner to say the lab may be replaced.
    let asking = RwSignal::new(false);
    let go = move |delta: isize| {
        if total == 0 {
            return;
        }
        index.update(|i| *i = (*i as isize + delta).rem_euclid(total as isize) as usize);
        chosen.set(None);
        checked.set(false);
        asking.set(false);
    };
    view! {
        <div class="panel quiz" data-testid="quiz">
            <h2>{move || lab.t("quiz")}" "<small>{move || format!("{} {} {}", index.get() + 1, lab.t("quiz.of"), total)}</small></h2>
            {move || {
                let lang = lab.lang.get();
                bank.with_value(|b| b.get(index.get()).cloned()).map(|q| {
                    let text = q.text(lang).clone();
                    let answer = q.answer;
                    let qid = q.id.clone();
                    view! {
                        <p class="prompt" data-testid="quiz-prompt">{text.prompt.clone()}</p>
                        <div class="choices" role="radiogroup">
                            {text.choices.iter().enumerate().map(|(i, c)| {
                                let name = format!("quiz-{qid}");
                                view! {
                                    <label class="choice"
                                        class:right=move || checked.get() && i == answer
                                        class:wrong=move || checked.get() && chosen.get() == Some(i) && i != answer>
                                        <input type="radio" name=name prop:checked=move || chosen.get() == Some(i)
                                            on:change=move |_| { chosen.set(Some(i)); checked.set(false); }/>
                                        {c.clone()}
                                    </label>
                                }
                            }).collect_view()}
                        </div>
                        <div class="buttons">
                            <button data-testid="quiz-check" disabled=move || chosen.get().is_none() on:click=move |_| checked.set(true)>{lab.t("quiz.check")}</button>
                            <button data-testid="quiz-try" on:click={
                                let q = q.clone();
                                // A lab the learner has worked in is replaced only when they say so.
                                move |_| match q.scenario() {
                                    Ok(s) if lab.read(|l| l.action_count() == 0) => load_scenario(lab, s),
                                    Ok(_) => asking.set(true),
                                    Err(e) => lab.notice.set(Some(e)),
                                }
                            }>{lab.t("quiz.try")}</button>
                        </div>
                        <Show when=move || asking.get()>
                            <div class="ask-replace" role="alert" data-testid="quiz-try-ask">
                                <p>{move || lab.t("quiz.try.ask")}</p>
                                <button class="primary" data-testid="quiz-try-yes" on:click={
                                    let q = q.clone();
                                    move |_| {
                                        asking.set(false);
                                        match q.scenario() {
                                            Ok(s) => load_scenario(lab, s),
                                            Err(e) => lab.notice.set(Some(e)),
                                        }
                                    }
                                }>{move || lab.t("quiz.try.yes")}</button>
                                <button data-testid="quiz-try-no" on:click=move |_| asking.set(false)>{move || lab.t("quiz.try.no")}</button>
                            </div>
                        </Show>
                        {move || checked.get().then(|| {
                            let ok = chosen.get() == Some(answer);
                            view! {
                                <div class="feedback" class:ok=ok role="status" data-testid="quiz-feedback">
                                    <strong>{if ok { lab.t("quiz.correct") } else { lab.t("quiz.wrong") }}</strong>
                                    " "{text.explanation.clone()}
                                </div>
                            }
                        })}
                    }
                })
            }}
            <div class="buttons">
                <button on:click=move |_| go(-1)>{move || lab.t("quiz.prev")}</button>
                <button data-testid="quiz-next" on:click=move |_| go(1)>{move || lab.t("quiz.next")}</button>
            </div>
        </div>
    }
}
