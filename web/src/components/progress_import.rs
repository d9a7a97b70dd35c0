//! Paste what real Spark reported (`print(query.lastProgress)`, `print(query.recentProgress)`)
//! and read it the way the lab shows its own batches.

use leptos::prelude::*;

use streamlab_model::lab::progress_import::{import_progress, ImportedBatchView};
use crate::Lab;

/// The import box, the batch table and the selected report's details.
#[component]
pub fn ProgressImportPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let text = RwSignal::new(String::new());
    let batches = RwSignal::new(Vec::<ImportedBatchView>::new());
    let error = RwSignal::new(None::<String>);
    let selected = RwSignal::new(0usize);
    let show = move |_| match import_progress(&text.get_untracked()) {
        Ok(b) => {
            error.set(None);
            selected.set(b.len().saturating_sub(1));
            batches.set(b);
        }
        Err(e) => error.set(Some(e)),
    };
    view! {
        <details class="panel import" data-testid="progress-import">
            <summary><h2>{move || lab.t("import")}</h2></summary>
            <p class="help">{move || lab.t("import.help")}</p>
            <textarea data-testid="progress-json-input" rows="5" spellcheck="false" prop:value=move || text.get()
                aria-label=move || lab.t("import") on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <div class="buttons">
                <button data-testid="import-progress" on:click=show>{move || lab.t("import.show")}</button>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || (!batches.with(Vec::is_empty)).then(|| view! {
                <p class="help">{lab.t("import.day")}" "{batches.with(|b| b.first().map(|b| b.day.clone()).unwrap_or_default())}</p>
                <div class="scroll">
                <table class="grid" data-testid="imported-batches">
                    <thead><tr>
                        <th>{lab.t("batch.id")}</th><th>"timestamp"</th><th>{lab.t("batch.input")}</th>
                        <th>{lab.t("batch.wm")}</th><th>"numOutputRows"</th><th title=lab.t("batch.dropped.help")>{lab.t("batch.dropped")}</th>
                    </tr></thead>
                    <tbody>
                        {batches.get().into_iter().enumerate().map(|(i, b)| {
                            let dropped: u64 = b.metrics.iter().map(|m| m.dropped).sum();
                            view! {
                                <tr data-testid="imported-batch" data-batch-id=b.id.to_string() tabindex="0"
                                    class:selected=move || selected.get() == i class:nodata={b.input_rows == 0}
                                    on:click=move |_| selected.set(i)
                                    on:keydown=move |ev| if ev.key() == "Enter" { selected.set(i) }>
                                    <td>{b.id}{b.idle.then(|| view! { <span class="tag">{lab.t("import.idle")}</span> })}</td>
                                    <td class="ts" title=b.timestamp.clone()>{b.time.clone()}</td>
                                    <td>{b.input_rows}</td>
                                    <td class="ts">{b.watermark.clone().unwrap_or_else(|| "—".into())}</td>
                                    <td>{b.sink.1}</td>
                                    <td class:warn={dropped > 0}>{dropped}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
            })}
            {move || batches.with(|all| all.get(selected.get()).cloned()).map(|b| view! { <ImportedBatch batch=b/> })}
        </details>
    }
}

/// One report's state metrics, event time, sources and sink.
#[component]
fn ImportedBatch(batch: ImportedBatchView) -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <div class="imported" data-testid="imported-batch-detail">
            <h3>{move || lab.t("batch.id")}" "{batch.id}</h3>
            {(!batch.metrics.is_empty()).then(|| view! {
                <div class="scroll"><table class="grid">
                    <thead><tr><th>"operator"</th><th>"numRowsTotal"</th><th>"numRowsUpdated"</th><th>"numRowsRemoved"</th><th>"numRowsDroppedByWatermark"</th></tr></thead>
                    <tbody>{batch.metrics.iter().map(|m| view! {
                        <tr><td><code>{m.operator.clone()}</code></td><td>{m.total}</td><td>{m.updated}</td><td>{m.removed}</td><td>{m.dropped}</td></tr>
                    }).collect_view()}</tbody>
                </table></div>
            })}
            {(!batch.event_time.is_empty()).then(|| view! {
                <p class="help">"eventTime: "{batch.event_time.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(" · ")}</p>
            })}
            <div class="scroll"><table class="grid">
                <thead><tr><th>"source"</th><th>"startOffset"</th><th>"endOffset"</th><th>"numInputRows"</th></tr></thead>
                <tbody>{batch.sources.iter().map(|(d, s, e, n)| view! {
                    <tr><td><code>{d.clone()}</code></td><td><code>{s.clone()}</code></td><td><code>{e.clone()}</code></td><td>{*n}</td></tr>
                }).collect_view()}</tbody>
            </table></div>
            <p class="help">"sink: "<code>{batch.sink.0.clone()}</code>" · numOutputRows "{batch.sink.1}</p>
            <details>
                <summary>{move || lab.t("progress")}</summary>
                <pre class="json">{batch.json.clone()}</pre>
            </details>
        </div>
    }
}
