//! The glossary (`#/glossary`): every concept's English term, the one Korean term used
//! across the app, and a one-line definition in the page's language, with a filter.

use leptos::prelude::*;

use streamlab_model::text::Lang;
use crate::Lab;

/// The glossary page.
#[component]
pub fn GlossaryPage() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let terms = StoredValue::new(streamlab_model::study::glossary::glossary().unwrap_or_default());
    let filter = RwSignal::new(String::new());
    let rows = move || {
        let f = filter.get().to_lowercase();
        terms.with_value(|ts| ts.iter().filter(|t| f.is_empty() || t.term.iter().any(|(_, s)| s.to_lowercase().contains(&f))).cloned().collect::<Vec<_>>())
    };
    view! {
        <main class="study-page" data-testid="glossary-page">
            <h2>{move || lab.t("glossary.title")}</h2>
            <p class="help">{move || lab.t("glossary.help")}</p>
            <input type="search" data-testid="glossary-filter" placeholder=move || lab.t("glossary.filter")
                on:input=move |ev| filter.set(event_target_value(&ev))/>
            <table class="grid glossary">
                <thead><tr>{Lang::ALL.into_iter().map(|l| view! { <th>{l.native_name()}</th> }).collect::<Vec<_>>()}<th>{move || lab.t("glossary.def")}</th></tr></thead>
                <tbody>
                    {move || rows().into_iter().map(|t| view! {
                        <tr data-testid="glossary-term">
                            {t.term.iter().map(|(l, s)| view! { <td lang=l.code()>{s.clone()}</td> }).collect_view()}
                            <td>{move || t.def.get(lab.lang.get()).clone()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            {move || rows().is_empty().then(|| view! { <p class="muted" data-testid="glossary-none">{lab.t("glossary.none")}</p> })}
        </main>
    }
}
