//! The processing-time clock, shown when the query's state function uses
//! `ProcessingTimeTimeout`: the lab has no wall clock (every action is one second), so the
//! learner lets time pass with a button and triggers to see keys time out.

use leptos::prelude::*;

use streamlab_model::lab::session::clock_text;
use crate::Lab;

/// The clock and its "wait" buttons.
#[component]
pub fn ProcessingClock() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let clock = move || lab.view.with(|v| v.processing_clock_ms);
    let wait = move |ms: i64| {
        let r = lab.act(|s| s.wait(ms));
        lab.notice.set(r.err());
    };
    view! {
        {move || clock().map(|ms| view! {
            <div class="panel clock" data-testid="processing-clock">
                <h2>{move || lab.t("clock.title")}</h2>
                <p><span class="clock-time" data-testid="processing-clock-time">{clock_text(ms)}</span>" "{move || lab.t("clock.help")}</p>
                <div class="buttons">
                    <button data-testid="wait-10s" on:click=move |_| wait(10_000)>{move || lab.t("clock.wait10s")}</button>
                    <button data-testid="wait-1m" on:click=move |_| wait(60_000)>{move || lab.t("clock.wait1m")}</button>
                </div>
            </div>
        })}
    }
}
