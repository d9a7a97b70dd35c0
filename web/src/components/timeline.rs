//! Moving through time: the batch slider (and ← / → keys) that shows the lab as of a past
//! batch, and the delay slider beside each `withWatermark` delay.

use leptos::prelude::*;

use streamlab_model::lab::session::timeline::{delay_stop_index, slider_stop, DELAY_STOPS};
use crate::Lab;

/// The position of the shown batch among the batches run (the last one when live).
fn shown_index(lab: Lab) -> usize {
    let sel = lab.selected_batch.get();
    lab.view.with(|v| match sel {
        Some(id) => v
            .batches
            .iter()
            .position(|b| b.id == id)
            .unwrap_or(v.batches.len().saturating_sub(1)),
        None => v.batches.len().saturating_sub(1),
    })
}

/// Shows the batch at `index` of the batches run; the last one is "live" (`None`).
fn select_index(lab: Lab, index: usize) {
    let id = lab.view.with_untracked(|v| {
        let last = v.batches.len().checked_sub(1)?;
        (index < last).then(|| v.batches[index].id)
    });
    lab.selected_batch.set(id);
}

/// True while the focus is where keys type text or move a control of their own.
fn keys_taken() -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return true;
    };
    // Presenter mode's ← / → step and undo.
    if doc
        .document_element()
        .is_some_and(|e| e.has_attribute("data-presenter"))
    {
        return true;
    }
    let Some(el) = doc.active_element() else {
        return false;
    };
    match el.tag_name().to_ascii_uppercase().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => {
            let t = el
                .get_attribute("type")
                .unwrap_or_default()
                .to_ascii_lowercase();
            !matches!(
                t.as_str(),
                "radio" | "checkbox" | "button" | "submit" | "reset"
            )
        }
        _ => el
            .get_attribute("contenteditable")
            .is_some_and(|v| v != "false"),
    }
}

/// The batch slider: batch 0 … the last batch; ← / → move it (not while typing); "Live"
/// returns to the latest batch. Everything that shows one batch follows it.
#[component]
pub fn BatchScrubber() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let count = Memo::new(move |_| lab.view.with(|v| v.batches.len()));
    let handle = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.default_prevented() || keys_taken()
        {
            return;
        }
        let n = count.get_untracked();
        if n == 0 {
            return;
        }
        let at = untrack(|| shown_index(lab));
        match ev.key().as_str() {
            "ArrowLeft" => select_index(lab, at.saturating_sub(1)),
            "ArrowRight" => select_index(lab, (at + 1).min(n - 1)),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || handle.remove());
    let live = move || lab.selected_batch.get().is_none();
    view! {
        <div class="panel scrubber" data-testid="batch-scrubber">
            {move || if count.get() == 0 {
                view! { <p class="muted">{lab.t("batches.none")}</p> }.into_any()
            } else {
                view! {
                    <label class="scrub" title=move || lab.t("scrub.help")>
                        <span class="scrub-label" data-testid="shown-batch">
                            {move || {
                                let id = lab.shown_with(|v| v.batches.last().map(|b| b.id)).unwrap_or_default();
                                let last = lab.view.with(|v| v.batches.last().map(|b| b.id)).unwrap_or_default();
                                lab.t_with("scrub.as_of", &[("n", &id), ("last", &last)])
                            }}
                        </span>
                        <input type="range" data-testid="batch-slider" min="0" step="1"
                            prop:max=move || count.get().saturating_sub(1).to_string()
                            prop:value=move || shown_index(lab).to_string()
                            aria-label=move || lab.t("scrub.label")
                            on:input=move |ev| { if let Ok(i) = event_target_value(&ev).parse::<usize>() { select_index(lab, i) } }/>
                    </label>
                    <button data-testid="batch-live" aria-pressed=move || live().to_string() disabled=live
                        on:click=move |_| lab.selected_batch.set(None)>
                        {move || lab.t("scrub.live")}
                    </button>
                }.into_any()
            }}
        </div>
    }
}

/// One `withWatermark` delay: a slider over [`DELAY_STOPS`] that replays every batch as it
/// moves, and the text field for an exact value. A delay Spark refuses is shown beside the
/// field; the query keeps its last good delay, so both controls stay.
#[component]
pub fn DelayControl(index: usize) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let current = Memo::new(move |_| {
        lab.view
            .with(|v| v.delays.get(index).cloned().unwrap_or_default())
    });
    let draft = RwSignal::new(current.get_untracked());
    Effect::new(move |_| draft.set(current.get()));
    let error = RwSignal::new(None::<String>);
    let apply = move |text: String| {
        let r = lab.act(|s| s.set_delay(index, &text));
        error.set(r.err());
    };
    // A drag fires input events faster than frames: the latest stop waits for the next frame,
    // so at most one replay and one repaint happen per frame (the ones in between are skipped).
    let pending = StoredValue::new(None::<String>);
    let apply_next_frame = move |text: String| {
        if pending.try_update_value(|p| p.replace(text)).flatten().is_none() {
            request_animation_frame(move || {
                if let Some(text) = pending.try_update_value(Option::take).flatten() {
                    apply(text);
                }
            });
        }
    };
    // Let go (or a key's step): the stop it stands at is applied now, then a lesson's tasks
    // look at the lab ([`crate::Lab::adjusting`]).
    let settle = StoredValue::new_local(None::<gloo_timers::callback::Timeout>);
    let let_go = move || {
        if let Some(text) = pending.try_update_value(Option::take).flatten() {
            apply(text);
        }
        lab.adjusting.set(false);
    };
    view! {
        <form class="delay" on:submit=move |ev| { ev.prevent_default(); apply(draft.get_untracked()); }>
            <label class="row">{move || lab.t("delay")}
                // With several watermarks (a union, a join), each slider names its column.
                {move || lab.view.with(|v| (v.delays.len() > 1).then(|| v.delay_columns.get(index).filter(|c| !c.is_empty()).cloned()).flatten()).map(|c| view! {
                    " "<code class="delay-column" data-testid=format!("delay-column-{index}")>{c}</code>
                })}" "
                <input type="range" class="delay-slider" data-testid=format!("delay-slider-{index}")
                    min="0" max=(DELAY_STOPS.len() - 1).to_string() step="1"
                    prop:value=move || delay_stop_index(&current.get()).to_string()
                    aria-valuetext=move || streamlab_model::text::i18n::duration_words(lab.lang.get(), &current.get())
                    on:input=move |ev| {
                        if let Some(stop) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| slider_stop(&current.get_untracked(), i)) {
                            draft.set(stop.to_string());
                            apply_next_frame(stop.to_string());
                            // Dragging until it is let go, or until it rests half a second.
                            if !lab.adjusting.get_untracked() {
                                lab.adjusting.set(true);
                            }
                            settle.set_value(Some(gloo_timers::callback::Timeout::new(500, let_go)));
                        }
                    }
                    on:change=move |_| {
                        // The rest timer is not needed now (dropping it cancels it).
                        settle.set_value(None);
                        let_go();
                    }/>
                // The value the slider stands at (the delay without its quotes); the text box
                // says the same, so this shows only where the text box is hidden (presenter mode).
                <span class="delay-now" data-testid=format!("delay-now-{index}")>{move || current.get()}</span>
            </label>
            <div class="row">
                <input type="text" data-testid=format!("delay-{index}") prop:value=move || draft.get() aria-label=move || lab.t("delay.text")
                    aria-invalid=move || error.with(Option::is_some).to_string()
                    on:input=move |ev| draft.set(event_target_value(&ev))/>
                <button type="submit">{move || lab.t("delay.apply")}</button>
            </div>
            {move || error.get().map(|e| view! {
                <p class="notice field-error" role="alert" data-testid=format!("delay-error-{index}")>
                    {move || lab.t("delay.refused")}" "{streamlab_model::text::i18n::localize(lab.lang.get(), &e)}
                </p>
                <p class="help" data-testid=format!("delay-hint-{index}")>{move || lab.t("delay.hint")}</p>
            })}
        </form>
    }
}

/// Append, update and complete side by side on the same input: each column the batches'
/// emitted rows in that mode, or Spark's error for a mode it rejects. Computed (three
/// replays) only while open.
#[component]
pub fn CompareModes() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let open = RwSignal::new(false);
    let runs = Memo::new(move |_| {
        if !open.get() {
            return Vec::new();
        }
        lab.view.track();
        lab.read(streamlab_model::lab::session::LabSession::compare_modes)
    });
    view! {
        <div class="compare">
            <button data-testid="compare-modes" aria-pressed=move || open.get().to_string() on:click=move |_| open.update(|o| *o = !*o)>
                {move || lab.t("compare.modes")}
            </button>
            // A mode set in the query text runs in every column: the comparison says so instead.
            <Show when=move || open.get() && lab.view.with(|v| v.mode_set_in_query)>
                <p class="help" data-testid="compare-text-mode">{move || lab.text_mode_note()}</p>
            </Show>
            <Show when=move || open.get() && !lab.view.with(|v| v.mode_set_in_query)>
                <div class="compare-cols">
                    {move || runs.get().into_iter().map(|r| {
                        let mode = r.mode.as_str();
                        view! {
                            <section class="compare-col" class:current=r.current data-testid=format!("compare-col-{mode}")>
                                <h3><code>{mode}</code>{r.current.then(|| view! { <span class="tag">{lab.t("compare.current")}</span> })}</h3>
                                {match r.error {
                                    Some(e) => view! {
                                        <div class="error" data-testid=format!("compare-error-{mode}")>
                                            {e.error_class.clone().map(|c| view! { <code class="class">{c}</code> })}
                                            <p class="message">{streamlab_model::text::i18n::localize(lab.lang.get(), &e.message)}</p>
                                        </div>
                                    }.into_any(),
                                    None => view! {
                                        <table class="grid mini-rows">
                                            <tbody>
                                                {r.batches.into_iter().map(|b| {
                                                    let id = b.id;
                                                    let n = b.rows.len();
                                                    // Batch ids differ between modes (each runs its own no-data
                                                    // batches): the step that ran a batch lines the columns up.
                                                    let step = b.step.map(|s| format!(" · {} {s}", lab.t("batch.step"))).unwrap_or_default();
                                                    let from = if b.no_data { format!("{step} · {}", lab.t("batch.nodata")) } else { step };
                                                    view! {
                                                        <tr class="batch-head" data-testid="compare-batch" data-batch-id=id.to_string() data-rows=n.to_string()>
                                                            <th colspan="9">{format!("{} {id}{from}: {n}", lab.t("batch.id"))}</th>
                                                        </tr>
                                                        {b.rows.into_iter().take(20).map(|cells| view! { <tr>{cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr> }).collect_view()}
                                                    }
                                                }).collect_view()}
                                            </tbody>
                                        </table>
                                    }.into_any(),
                                }}
                            </section>
                        }
                    }).collect_view()}
                </div>
            </Show>
        </div>
    }
}
