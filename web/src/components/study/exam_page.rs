//! Exam mode (`#/exam`): N questions drawn across the topics, a running clock, no
//! explanations until the end; then the score per topic and each wrong answer with its
//! explanation and "try it", which opens its scenario in the lab at the batch it is about.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use crate::components::markup::render_spans;
use super::{open_in_lab, today, Opening, Study};
use streamlab_model::text::markup::spans;
use streamlab_model::study::exam::{draw, record, score, time_limit_s, Exam, ExamAnswer, ExamInProgress, ExamReport, WrongAnswer};
use streamlab_model::study::quiz::Kind;
use crate::route::Route;
use crate::Lab;

/// The exam page.
#[component]
pub fn ExamPage() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let exam = RwSignal::new(None::<Exam>);
    let answers = RwSignal::new(Vec::<ExamAnswer>::new());
    let index = RwSignal::new(0usize);
    let report = RwSignal::new(None::<ExamReport>);
    let elapsed = RwSignal::new(0u64);
    let timer = StoredValue::new_local(None::<Interval>);
    // (size asked for, start time in ms, a mock exam): with the exam's seed, what a reload needs.
    let started = StoredValue::new((0usize, 0u64, false));
    on_cleanup(move || timer.update_value(|t| *t = None));
    let run_clock = move |since_ms: f64| {
        elapsed.set(((js_sys::Date::now() - since_ms) / 1000.0).max(0.0) as u64);
        timer.update_value(|t| *t = Some(Interval::new(1_000, move || elapsed.set(((js_sys::Date::now() - since_ms) / 1000.0).max(0.0) as u64))));
    };
    let start = move |n: usize, mock: bool| {
        // The clock is read here, in the page: the seed and the start time.
        let now = js_sys::Date::now();
        let e = study.bank.with_value(|b| draw(&streamlab_model::study::track::exam_pool(b, mock), n, now as u64));
        answers.set(vec![ExamAnswer::Skipped; e.items.len()]);
        exam.set(Some(e));
        index.set(0);
        report.set(None);
        study.last_exam.set_value(None);
        started.set_value((n, now as u64, mock));
        run_clock(now);
    };
    // An exam in progress survives a reload (browser storage); one that no longer fits the
    // bank, or cannot be read, is dropped and the page offers a new one.
    // Back from "Try it in the lab": the results of the exam just finished.
    if let Some((e, r, secs)) = study.last_exam.get_value() {
        exam.set(Some(e));
        report.set(Some(r));
        elapsed.set(secs);
    }
    if let Some(saved) = load_exam() {
        if let Some((e, a, i)) = study.bank.with_value(|b| saved.resume(b)) {
            exam.set(Some(e));
            answers.set(a);
            index.set(i);
            started.set_value((saved.n, saved.started_ms, saved.mock));
            run_clock(saved.started_ms as f64);
        } else {
            save_exam(None);
        }
    }
    Effect::new(move |_| {
        let running = exam.with(|e| e.as_ref().map(|e| e.seed)).filter(|_| report.with(Option::is_none));
        let rec = running.map(|seed| {
            let (n, started_ms, mock) = started.get_value();
            ExamInProgress { n, mock, standalone: true, seed, started_ms, index: index.get(), answers: answers.get() }
        });
        save_exam(rec.as_ref());
    });
    let finish = move || {
        timer.update_value(|t| *t = None);
        let Some(e) = exam.get_untracked() else { return };
        let r = study.bank.with_value(|b| score(b, &e, &answers.get_untracked()));
        let day = today();
        study.bank.with_value(|b| study.progress.update(|p| record(p, b, &e, &r, day)));
        study.last_exam.set_value(Some((e, r.clone(), elapsed.get_untracked())));
        report.set(Some(r));
    };
    let clock = move || {
        let s = elapsed.get();
        format!("{:02}:{:02}", s / 60, s % 60)
    };
    view! {
        <main class="study-page exam-page" data-testid="exam-page">
            <h2>{move || lab.t("exam.title")}</h2>
            {move || match (exam.get(), report.get()) {
                (None, _) => view! {
                    <p class="help">{move || lab.t("exam.help")}</p>
                    <div class="buttons">
                        {[10usize, 20, 40].into_iter().map(|n| view! {
                            <button class="primary" data-testid=format!("exam-start-{n}") on:click=move |_| start(n, false)>
                                {move || lab.t_with("exam.start", &[("n", &n)])}
                            </button>
                        }).collect_view()}
                        <button class="primary" data-testid="exam-start-mock"
                            on:click=move |_| start(streamlab_model::study::track::track().map(|t| t.mock_size).unwrap_or(10), true)>
                            {move || lab.t("exam.mock")}
                        </button>
                    </div>
                }.into_any(),
                (Some(e), None) => {
                    let limit = time_limit_s(e.items.len());
                    let over = Signal::derive(move || elapsed.get() > limit);
                    view! { <ExamRun exam=e answers=answers index=index clock=Signal::derive(clock) limit=limit over=over on_finish=Callback::new(move |_| finish())/> }.into_any()
                }
                (Some(_), Some(r)) => view! {
                    <ExamResult report=r time=clock()/>
                    <button data-testid="exam-again" on:click=move |_| { exam.set(None); report.set(None); study.last_exam.set_value(None); }>{move || lab.t("exam.again")}</button>
                }.into_any(),
            }}
        </main>
    }
}

/// One exam question at a time, with the clock.
#[component]
fn ExamRun(exam: Exam, answers: RwSignal<Vec<ExamAnswer>>, index: RwSignal<usize>, clock: Signal<String>, limit: u64, over: Signal<bool>, on_finish: Callback<()>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let n = exam.items.len();
    let exam = StoredValue::new(exam);
    let set = move |a: ExamAnswer| answers.update(|v| if let Some(x) = v.get_mut(index.get_untracked()) { *x = a });
    // Finish is one tap from Next: with questions left unanswered it asks first.
    let unanswered = move || answers.with(|v| v.iter().filter(|a| matches!(a, ExamAnswer::Skipped) || matches!(a, ExamAnswer::Typed(t) if t.trim().is_empty())).count());
    let confirming = RwSignal::new(false);
    view! {
        <p class="exam-bar"><span data-testid="exam-progress">{move || format!("{} / {n}", index.get() + 1)}</span>
            " · ⏱ "<span data-testid="exam-timer">{move || clock.get()}</span>
            " / "<span data-testid="exam-limit">{format!("{:02}:00", limit / 60)}</span>
            " "<small class="muted">"("{move || lab.t_with("exam.limit", &[("m", &(limit / 60))])}")"</small>
            {move || over.get().then(|| view! { " " <strong class="notice" data-testid="exam-over">{lab.t("exam.over")}</strong> })}</p>
        {move || {
            let i = index.get();
            let Some(item) = exam.with_value(|e| e.items.get(i).cloned()) else { return ().into_any() };
            let Some(q) = study.question(&item.question) else { return ().into_any() };
            let q = StoredValue::new(q);
            let given = move || answers.with(|v| v.get(i).cloned());
            let body = if q.with_value(|q| q.kind) == Kind::Value {
                // Read once: tracking the answers here would redraw the box on every key.
                let typed = answers.with_untracked(|v| match v.get(i) { Some(ExamAnswer::Typed(t)) => t.clone(), _ => String::new() });
                view! {
                    <input type="text" data-testid="exam-value" prop:value=typed placeholder=move || lab.t("quiz.value.placeholder")
                        on:input=move |ev| set(ExamAnswer::Typed(event_target_value(&ev)))/>
                }.into_any()
            } else {
                view! {
                    <div class="choices" role="radiogroup">
                        {item.order.iter().enumerate().map(|(k, &c)| view! {
                            <label class="choice" data-testid="exam-choice" data-choice=c>
                                <input type="radio" name=format!("exam-{i}") prop:checked=move || given() == Some(ExamAnswer::Shown(k))
                                    on:change=move |_| set(ExamAnswer::Shown(k))/>
                                // One flex item: text and code side by side wrap as one line of text.
                                <span class="choice-text">{move || q.with_value(|q| render_spans(spans(&q.text(lab.lang.get()).choices.get(c).cloned().unwrap_or_default())))}</span>
                            </label>
                        }).collect_view()}
                    </div>
                }.into_any()
            };
            view! {
                <div class="panel question" data-testid="exam-question" data-question=item.question.clone()>
                    <p class="prompt">{move || q.with_value(|q| render_spans(spans(&q.text(lab.lang.get()).prompt)))}</p>
                    {body}
                </div>
            }.into_any()
        }}
        <div class="buttons">
            <button data-testid="exam-prev" disabled=move || index.get() == 0 on:click=move |_| index.update(|i| *i = i.saturating_sub(1))>{move || lab.t("quiz.prev")}</button>
            // "Next question" is the step taken most; finishing is the last question's.
            <button class=move || { if index.get() + 1 < n { "primary" } else { "" } } data-testid="exam-next" disabled=move || { index.get() + 1 >= n } on:click=move |_| index.update(|i| *i += 1)>{move || lab.t("quiz.next")}</button>
            <button class=move || { if index.get() + 1 >= n { "primary" } else { "" } } data-testid="exam-finish" on:click=move |_| { if unanswered() > 0 { confirming.set(true) } else { on_finish.run(()) } }>{move || lab.t("exam.finish")}</button>
        </div>
        {move || confirming.get().then(|| view! {
            <p class="notice exam-confirm" role="alert" data-testid="exam-confirm">
                {move || lab.t_with("exam.confirm", &[("n", &unanswered())])}" "
                <button class="primary" data-testid="exam-finish-confirm" on:click=move |_| on_finish.run(())>{move || lab.t("exam.confirm.finish")}</button>" "
                <button data-testid="exam-finish-cancel" on:click=move |_| confirming.set(false)>{move || lab.t("exam.confirm.back")}</button>
            </p>
        })}
    }
}

/// The score per topic and each wrong answer.
#[component]
fn ExamResult(report: ExamReport, time: String) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let (correct, asked, percent) = (report.correct, report.asked, report.percent());
    let summary = move || {
        lab.t_with("exam.score", &[("c", &correct), ("n", &asked), ("p", &percent), ("t", &time)])
    };
    let per_topic = report.per_topic.clone();
    let wrong = report.wrong.clone();
    let rights = report.right.clone();
    view! {
        <section class="exam-result" data-testid="exam-result">
            <p class="exam-summary" data-testid="exam-summary">{summary}</p>
            <table class="grid scores">
                <thead><tr><th>{move || lab.t("score.topic")}</th><th>{move || lab.t("score.right")}</th></tr></thead>
                <tbody>
                    {per_topic.into_iter().map(|t| {
                        let id = t.topic.clone();
                        view! {
                            <tr data-testid="exam-topic-score" data-topic=t.topic.clone() data-asked=t.asked data-correct=t.correct>
                                <td>{move || study.topic_name(&id, lab.lang.get())}</td><td>{format!("{} / {}", t.correct, t.asked)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <h3>{move || lab.t("exam.wrong")}" "<small>{wrong.len()}</small></h3>
            {wrong.into_iter().map(|w| review_entry(w, false)).collect_view()}
            <h3>{move || lab.t("exam.right_list")}" "<small>{rights.len()}</small></h3>
            {rights.into_iter().map(|w| review_entry(w, true)).collect_view()}
        </section>
    }
}

/// One answer in the review: the prompt, the answer given, the right one, the explanation and
/// "try it" (`right`: the answer given was right).
fn review_entry(w: WrongAnswer, right_given: bool) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    study.question(&w.question).map(|q| {
                let q = StoredValue::new(q);
                let text = move || q.with_value(|q| q.text(lab.lang.get()).clone());
                // A choice is written as the question writes it (its code as code); a typed
                // answer (or what stands for none) as typed.
                let shown = move |c: Option<usize>, typed: String| match c.and_then(|c| text().choices.get(c).cloned()) {
                    Some(c) => render_spans(spans(&c)).into_any(),
                    None => typed.into_any(),
                };
                let given = {
                    let w = w.clone();
                    move || shown(w.given_choice, w.given_text.clone().filter(|t| !t.trim().is_empty()).unwrap_or_else(|| lab.t("exam.skipped").to_string()))
                };
                let right = {
                    let w = w.clone();
                    move || shown(w.right_choice, w.right_value.clone().unwrap_or_default())
                };
                let try_it = move |_| {
                    let o = q.with_value(|q| q.scenario().map(|s| Opening { scenario: s, script: q.check.script.clone(), batch: q.batch(), then: Route::Lab }));
                    match o {
                        Ok(o) => open_in_lab(lab, study, o),
                        Err(e) => lab.notice.set(Some(e)),
                    }
                };
                view! {
                    <div class="panel wrong-answer" class:right-given=right_given data-testid=if right_given { "exam-right" } else { "exam-wrong" } data-question=w.question.clone()>
                        <p class="prompt">{move || render_spans(spans(&text().prompt))}</p>
                        {(!right_given).then(|| view! { <p>{move || lab.t("exam.given")}" "<span class="given">{given}</span></p> })}
                        <p>{move || lab.t("exam.right")}" "<strong class="right-answer">{right}</strong></p>
                        <p class="explanation">{move || render_spans(spans(&text().explanation))}</p>
                        <button data-testid="exam-try" on:click=try_it>
                            {move || match w.batch { Some(b) => lab.t_with("exam.try_batch", &[("b", &b)]), None => lab.t("quiz.try").to_string() }}
                        </button>
                    </div>
                }
    })
}

const EXAM_KEY: &str = "streamlab.exam";

/// The exam in progress kept in browser storage, if one can be read.
fn load_exam() -> Option<ExamInProgress> {
    use gloo_storage::Storage;
    gloo_storage::LocalStorage::get(EXAM_KEY).ok()
}

/// Keeps `rec` in browser storage (`None` removes it); a refused write only loses the resume.
fn save_exam(rec: Option<&ExamInProgress>) {
    use gloo_storage::Storage;
    match rec {
        Some(r) => {
            let _ = gloo_storage::LocalStorage::set(EXAM_KEY, r);
        }
        None => gloo_storage::LocalStorage::delete(EXAM_KEY),
    }
}
