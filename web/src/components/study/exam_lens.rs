//! The exam lens in the lab and the cheat sheet (`#/cheatsheet`). Beside the lab's result,
//! [`ExamLensPanel`] shows the entries of `quizzes/exam-lens.toml` whose rule the engine reports
//! for the learner's query, output mode and sink (`LabView::lens`, decided on the analyzed plan);
//! [`CheatSheetPage`] lists every entry on one printable page.

use leptos::prelude::*;

use crate::components::markup::render_spans;
use streamlab_model::study::lens::{entries, for_rules, LensEntry, LensSource};
use streamlab_model::text::markup::spans;
use streamlab_model::text::Lang;
use crate::Lab;

/// One entry: its title and what to answer on the exam, with what the guide says and what
/// Spark 4.3 does folded below (a click opens them), so the lab's batches stay on screen.
#[component]
fn LensEntryView(entry: LensEntry) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let e = StoredValue::new(entry);
    let text = move || e.with_value(|e| e.text(lab.lang.get()).clone());
    let source = move || if e.with_value(|e| e.source) == LensSource::Guide { lab.t("lens.guide") } else { lab.t("lens.study") };
    // How many real-Spark recordings back the entry (their file names are the project's, not
    // something a learner can open).
    let cases = e.with_value(|e| e.cases.len()).to_string();
    view! {
        <article class="lens-entry" data-testid="exam-lens-entry" data-lens=e.with_value(|e| e.id.clone())>
            <h3>{move || text().title}</h3>
            <p class="exam-answer" data-testid="exam-lens-answer">{move || render_spans(spans(&text().exam))}</p>
            <details>
                <summary>{move || lab.t("lens.more")}</summary>
                <dl>
                    <dt>{source}</dt><dd>{move || render_spans(spans(&text().guide))}</dd>
                    <dt>{move || lab.t("lens.spark")}</dt><dd>{move || render_spans(spans(&text().spark))}</dd>
                </dl>
                <p class="help cases">{move || lab.t_with("lens.cases", &[("n", &cases)])}</p>
            </details>
        </article>
    }
}

/// Beside the lab's result: the exam-lens entries the current query meets, if any.
#[component]
pub fn ExamLensPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let hit = Memo::new(move |_| lab.view.with(|v| v.lens.clone()));
    let study = expect_context::<crate::components::context::Study>();
    move || {
        // The entries arrive with the lessons: the panel fills in when they have.
        study.study_data.track();
        let ids = hit.get();
        let shown = for_rules(&ids.iter().map(String::as_str).collect::<Vec<_>>());
        (!shown.is_empty()).then(|| view! {
            <section class="panel exam-lens" data-testid="exam-lens" aria-live="polite">
                <h2>{move || lab.t("lens.title")}</h2>
                <p class="help">{move || lab.t("lens.help")}</p>
                {shown.into_iter().map(|e| view! { <LensEntryView entry=e/> }).collect_view()}
                <p><a href=crate::route::Route::CheatSheet.to_hash() data-testid="exam-lens-cheatsheet">{move || lab.t("nav.cheatsheet")}</a></p>
            </section>
        })
    }
}

/// Every entry on one page, printable (the print style sheet hides the navigation).
#[component]
pub fn CheatSheetPage() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let all = StoredValue::new(entries().unwrap_or_default());
    let print = move |_| {
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    };
    view! {
        <main class="study-page cheat-sheet" data-testid="cheatsheet-page">
            <h2>{move || lab.t("cheat.title")}</h2>
            <p class="help">{move || lab.t("cheat.help")}</p>
            <button class="no-print" data-testid="cheatsheet-print" on:click=print>{move || lab.t("cheat.print")}</button>
            <table class="grid cheat">
                <thead><tr>
                    <th>{move || lab.t("cheat.rule")}</th><th>{move || lab.t("lens.guide")}</th>
                    <th>{move || lab.t("lens.spark")}</th><th>{move || lab.t("lens.exam")}</th>
                </tr></thead>
                <tbody>
                    {move || {
                        let lang = lab.lang.get();
                        all.with_value(|es| es.iter().map(|e| cheat_row(e, lang)).collect_view())
                    }}
                </tbody>
            </table>
        </main>
    }
}

fn cheat_row(e: &LensEntry, lang: Lang) -> impl IntoView {
    let t = e.text(lang).clone();
    // Each cell names its column (`data-label`): on a phone the rows stack and say it.
    let label = |key| streamlab_model::text::i18n::tr(lang, key);
    view! {
        <tr data-testid="cheatsheet-row" data-lens=e.id.clone()>
            <th scope="row">{t.title}</th>
            <td data-label=label("lens.guide")>{render_spans(spans(&t.guide))}</td>
            <td data-label=label("lens.spark")>{render_spans(spans(&t.spark))}</td>
            <td class="exam-answer" data-label=label("lens.exam")>{render_spans(spans(&t.exam))}</td>
        </tr>
    }
}
