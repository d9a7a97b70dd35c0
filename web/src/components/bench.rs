//! The benchmark page (`index.html?bench`): the engine's workloads timed in this browser, one
//! at a time so the page repaints between them. The end-to-end test opens it and prints the table.

use leptos::prelude::*;

use streamlab_model::lab::bench::{measure, plan, BenchRow};

use crate::storage::now_ms;

/// The page.
#[component]
pub fn BenchPage() -> impl IntoView {
    let rows = RwSignal::new(Vec::<BenchRow>::new());
    let done = RwSignal::new(false);
    leptos::task::spawn_local(async move {
        for entry in plan() {
            // Let the page paint the rows so far.
            gloo_timers::future::TimeoutFuture::new(0).await;
            let row = measure(entry, &now_ms);
            rows.update(|r| r.push(row));
        }
        done.set(true);
    });
    view! {
        <main class="bench">
            <h1>"Streamlab engine in this browser (wasm)"</h1>
            <p class="help">"One micro-batch per run; the median of the runs (for 10 and 1,000 events, the mean of one timed loop, the browser's clock being coarse). Workloads: engine/src/workloads.rs; the same run natively with cargo bench -p streamlab-engine."</p>
            <table class="grid" data-testid="bench-table">
                <thead><tr><th>"workload"</th><th>"events"</th><th>"median ms"</th><th>"events/s"</th><th>"runs"</th></tr></thead>
                <tbody>
                    {move || rows.get().into_iter().map(|r| view! {
                        <tr data-testid="bench-row">
                            <td>{r.workload.clone()}</td><td>{r.events}</td><td>{format!("{:.4}", r.median_ms)}</td>
                            <td>{format!("{:.0}", r.events_per_second())}</td><td>{r.runs}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            {move || if done.get() { view! { <p data-testid="bench-done">"done"</p> }.into_any() } else { view! { <p class="muted">"running…"</p> }.into_any() }}
        </main>
    }
}
