//! The watermark, event input and run controls.

use std::collections::BTreeMap;

use leptos::prelude::*;

use super::context::{Player, Study, PLAY_PERIODS_MS};
use crate::Lab;

/// The current watermark, each `withWatermark` delay, and a shortcut that pushes an event at
/// a chosen time to move it.
#[component]
pub fn WatermarkPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let advance_at = RwSignal::new(String::new());
    let delay_count = Memo::new(move |_| lab.view.with(|v| v.delays.len()));
    // The first source with an event time: the shortcut's form is built again only when it
    // changes, not at every step.
    let time_source = Memo::new(move |_| lab.view.with(|v| v.sources.iter().find(|s| s.time_column.is_some()).map(|s| s.name.clone())));
    view! {
        <div class="panel watermark">
            <h2>{move || lab.t("watermark")}</h2>
            <p class="wm-value" data-testid="watermark-value">
                {move || lab.shown_with(|v| v.watermark.clone()).unwrap_or_else(|| lab.t(if lab.view.with(|v| v.error.is_some()) { "watermark.broken" } else { "watermark.none" }).to_string())}
                // Spark's initial watermark is 0, the epoch: the value stays (it is what Spark
                // prints), the lab says what it means beside it.
                {move || (lab.shown_with(|v| v.watermark_ms) == Some(0)).then(|| view! {
                    " "<span class="wm-not-yet" data-testid="watermark-not-yet" title=move || lab.t("watermark.not_yet.help")>"("{move || lab.t("watermark.not_yet")}")"</span>
                })}
            </p>
            <p class="help">{move || lab.t("watermark.help")}</p>
            // Rebuilt only when the number of delays changes, so a slider keeps its drag.
            {move || (0..delay_count.get()).map(|i| view! { <super::timeline::DelayControl index=i/> }).collect_view()}
            {move || {
                time_source.try_get().flatten().map(|source| {
                    // A time past the source's events, on its day (the generic example before
                    // any event).
                    let hint = {
                        let source = source.clone();
                        move || {
                            lab.view.track();
                            lab.read(|s| s.advance_hint(&source)).unwrap_or_else(|| "12:30".into())
                        }
                    };
                    view! {
                    <form class="row" on:submit=move |ev| {
                        ev.prevent_default();
                        // An empty box takes the time it suggests.
                        let typed = advance_at.get_untracked();
                        let at = if typed.trim().is_empty() { lab.read(|s| s.advance_hint(&source)).unwrap_or_default() } else { typed };
                        let r = lab.act(|s| s.advance_with_event(&source, &at));
                        lab.notice.set(r.err());
                    }>
                        <label>{move || lab.t("advance")}" "
                            <input type="text" placeholder=hint data-testid="advance-time"
                                on:input=move |ev| advance_at.set(event_target_value(&ev))/>
                        </label>
                        <button type="submit">{move || lab.t("advance.go")}</button>
                    </form>
                    }
                })
            }}
        </div>
    }
}

/// One form per source, built from its schema, and the pending rows.
#[component]
pub fn InputPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let sources = Memo::new(move |_| lab.view.with(|v| v.sources.clone()));
    view! {
        <div class="panel input">
            <h2>{move || lab.t("input")}</h2>
            // The full-time example is on the scenario's own day, as a short time is.
            <p class="help">{move || {
                lab.view.track();
                let day = lab.read(|s| streamlab_model::lab::cells::day_text(s.day_us()));
                lab.t_with("push.help", &[("day", &day)])
            }}</p>
            // Built again only when the sources change, not at every step: the forms keep the
            // fields the learner is typing in, and a slider step touches none of them.
            // `try_get`: the panel may be taken down in the same update that changes the
            // sources, and this closure must not read its memo after that.
            {move || sources.try_get().unwrap_or_default().into_iter().map(|src| {
                let fields = RwSignal::new(BTreeMap::<String, String>::new());
                let name = src.name.clone();
                view! {
                    <form class="event-form" data-testid=format!("event-form-{}", src.name) on:submit=move |ev| {
                        ev.prevent_default();
                        let f = fields.get_untracked();
                        // A value Spark's reader makes NULL is added as NULL, and the learner is told.
                        let r = lab.act(|s| s.push_event(&name, &f));
                        lab.notice.set(match r {
                            Ok(notes) if notes.is_empty() => None,
                            Ok(notes) => Some(notes.join("; ")),
                            Err(e) => Some(e),
                        });
                    }>
                        <div class="source-name"><code>{src.name.clone()}</code>" "
                            <select data-testid=format!("source-kind-{}", src.name) aria-label=move || lab.t("source.kind") on:change={
                                let name = src.name.clone();
                                move |ev| {
                                    let v = event_target_value(&ev);
                                    let (kind, max) = match v.as_str() {
                                        "file1" => ("file", Some(1)),
                                        "socket" => ("socket", None),
                                        "kafka" => ("kafka", None),
                                        "rate" => ("rate", None),
                                        _ => ("memory", None),
                                    };
                                    lab.act(|s| s.set_source_kind(&name, kind, max));
                                }
                            }>
                                <option value="memory" selected=src.kind == "memory">{move || lab.t("src.memory")}</option>
                                <option value="file1" selected=src.kind == "file">{move || lab.t("src.file")}</option>
                                <option value="socket" selected=src.kind == "socket">{move || lab.t("src.socket")}</option>
                                <option value="kafka" selected=src.kind == "kafka">{move || lab.t("src.kafka")}</option>
                                <option value="rate" selected=src.kind == "rate">{move || lab.t("src.rate")}</option>
                            </select>
                        </div>
                        {src.columns.iter().map(|(col, ty)| {
                            let col2 = col.clone();
                            view! {
                                <label class="field">
                                    <span>{col.clone()}<small>{format!(" {ty}")}</small></span>
                                    <input type="text" data-testid=format!("event-field-{col}")
                                        placeholder=if ty == "timestamp" { "12:07" } else { "" }
                                        on:input=move |ev| { let val = event_target_value(&ev); fields.update(|m| { m.insert(col2.clone(), val); }); }/>
                                </label>
                            }
                        }).collect_view()}
                        <button type="submit" data-testid="push-event">{move || lab.t("push")}</button>
                    </form>
                }
            }).collect_view()}
            {move || lab.notice.get().map(|n| view! { <p class="notice" role="status" data-testid="notice">{move || streamlab_model::text::i18n::localize(lab.lang.get(), &n)}</p> })}
            <h3>{move || lab.t("pending")}" "<span class="count" data-testid="pending-count">{move || lab.view.with(|v| v.pending.len())}</span></h3>
            {move || {
                let pending = lab.view.with(|v| v.pending.clone());
                if pending.is_empty() {
                    view! { <p class="muted">{lab.t("pending.none")}</p> }.into_any()
                } else {
                    view! {
                        <table class="mini"><tbody>
                            {pending.into_iter().map(|(s, cells)| view! {
                                <tr><td><code>{s}</code></td>{cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                            }).collect_view()}
                        </tbody></table>
                    }.into_any()
                }
            }}
        </div>
    }
}

/// The play speed picker (seconds per step).
#[component]
pub fn SpeedPicker() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let player = Player::get();
    view! {
        <label class="row speed">{move || lab.t("play.speed")}" "
            <select data-testid="play-speed" on:change=move |ev| {
                if let Ok(ms) = event_target_value(&ev).parse::<u32>() { player.set_period(lab, ms); }
            }>
                {PLAY_PERIODS_MS.iter().map(|&ms| view! {
                    <option value=ms.to_string() selected=move || player.period_ms.get() == ms>
                        {move || lab.t_with("play.per_step", &[("s", &(ms as f64 / 1000.0))])}
                    </option>
                }).collect_view()}
            </select>
        </label>
    }
}

/// Next step, step back, one trigger, play/pause and reset.
#[component]
pub fn RunPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let player = Player::get();
    let playing = player.playing;
    let stop = move || player.stop();
    let toggle = move |_| player.toggle(lab);
    let can_undo = move || lab.can_step_back();
    let done = move || lab.view.with(|v| v.steps_done >= v.steps_total);
    let from_text = move || lab.view.with(|v| v.trigger_from_text);
    let trigger_choice = move || {
        lab.view.track();
        lab.read(streamlab_model::lab::session::LabSession::trigger_choice)
    };
    let study = use_context::<Study>();
    // Beside a lesson, Reset brings the lesson's own lab back as it opened.
    let reset = move |_| {
        stop();
        match study {
            Some(st) => st.reset_lab(lab),
            None => lab.act(|s| s.reset()),
        }
        lab.selected_batch.set(None);
    };
    view! {
        <div class="panel run">
            <h2>{move || lab.t("controls")}</h2>
            <div class="buttons">
                <button class="primary" data-testid="run-step" disabled=done title=move || lab.t("run.step.help")
                    on:click=move |_| { lab.act(|s| s.run_step()); lab.selected_batch.set(None); }>
                    {move || lab.t("run.step")}
                </button>
                <button data-testid="undo" disabled=move || !can_undo() title=move || lab.t("undo.help")
                    on:click=move |_| lab.step_back()>
                    {move || lab.t("undo")}
                </button>
                <button data-testid="push-step" disabled=done title=move || lab.t("push.step.help")
                    on:click=move |_| { lab.act(|s| s.push_step()); }>
                    {move || lab.t("push.step")}
                </button>
                // A stopped query (crashed, or its once / availableNow run done) or a broken one
                // runs nothing: the note below says why and what to do.
                <button data-testid="trigger-batch" disabled=move || lab.view.with(|v| v.error.is_some() || v.recovery.as_ref().is_some_and(|r| !r.active))
                    on:click=move |_| { lab.act(|s| s.trigger()); lab.selected_batch.set(None); }>
                    {move || lab.t("trigger")}
                </button>
                <button data-testid="play-toggle" aria-pressed=move || playing.get().to_string() on:click=toggle>
                    {move || if playing.get() { lab.t("pause") } else { lab.t("play") }}
                </button>
                <button data-testid="reset" on:click=reset>
                    {move || lab.t("reset")}
                </button>
            </div>
            <SpeedPicker/>
            <label class="row">{move || lab.t("trigger.kind")}" "
                // The menu shows the trigger the query runs with (a lab opened or replaced
                // brings its own), never the last one picked on another lab.
                <select data-testid="trigger-select" disabled=move || lab.view.with(|v| v.trigger_from_text) on:change=move |ev| {
                    let t = streamlab_model::lab::session::picker_trigger(&event_target_value(&ev));
                    lab.act(|s| s.set_trigger(t));
                }>
                    // The text's own trigger, as the query runs with it (the menu's choices are
                    // the lab's; processingTime='2 seconds' is not the text's 10 seconds).
                    {move || from_text().then(|| view! {
                        <option value="" selected=true data-testid="trigger-text">{move || { lab.view.track(); lab.read(streamlab_model::lab::session::LabSession::trigger_description) }}</option>
                    })}
                    <option value="default" prop:selected=move || !from_text() && trigger_choice() == "default">{move || lab.t("trig.default")}</option>
                    <option value="processingTime" prop:selected=move || !from_text() && trigger_choice() == "processingTime">"processingTime='2 seconds'"</option>
                    <option value="once" prop:selected=move || !from_text() && trigger_choice() == "once">"once=True"</option>
                    <option value="availableNow" prop:selected=move || !from_text() && trigger_choice() == "availableNow">"availableNow=True"</option>
                    <option value="continuous" prop:selected=move || !from_text() && trigger_choice() == "continuous">"continuous='1 second'"</option>
                </select>
            </label>
            <p class="help">{move || lab.t("trigger.help")}</p>
            {move || lab.view.with(|v| v.trigger_from_text).then(|| view! { <p class="help" data-testid="trigger-from-query">{lab.t("trigger.from-query")}</p> })}
            <details class="help"><summary>"realTime"</summary><p>{move || lab.t("realtime")}</p></details>
            <p class="steps">{move || lab.t("steps")}": "<span data-testid="steps-done">{move || lab.view.with(|v| format!("{} / {}", v.steps_done, v.steps_total))}</span></p>
            // Why Next step runs no batch, when it does not: the query has an error, or it is
            // stopped (crashed, or `query.stop()`) — a step then only adds its events to the
            // source, where a fixed query or a restart on the same checkpoint finds them.
            // Otherwise, a no-data batch may be due.
            {move || lab.view.with(|v| {
                let stopped = v.recovery.as_ref().is_some_and(|r| !r.active);
                if v.error.is_some() {
                    Some(view! { <p class="due" role="status" data-testid="run-broken">{lab.t("query.broken")}</p> }.into_any())
                } else if stopped {
                    // A once / availableNow trigger stops the query when its run is done.
                    let (by_trigger, temporary) = v.recovery.as_ref().map_or((false, false), |r| (r.trigger_finished, r.temporary));
                    // A sink that does not resume from a used checkpoint (the memory sink outside
                    // complete mode): a restart on it fails, so the note says what works instead.
                    let memory_cannot_recover = !temporary && v.recovery.as_ref().is_some_and(|r| !r.sink_recovers);
                    let key = match (by_trigger, temporary) {
                        _ if memory_cannot_recover => "run.stopped-memory",
                        (true, true) => "run.stopped-trigger-temp",
                        (true, false) => "run.stopped-trigger",
                        _ => "run.stopped",
                    };
                    Some(view! { <p class="due" role="status" data-testid="run-stopped">{lab.t(key)}</p> }.into_any())
                } else if let Some(b) = v.recovery.as_ref().and_then(|r| r.rerun_due) {
                    // After a restart: the crashed batch runs again, and nothing else says so.
                    Some(view! { <p class="due" role="status" data-testid="rerun-due">{lab.t_with("run.rerun-due", &[("n", &b)])}</p> }.into_any())
                } else {
                    v.no_data_batch_due.then(|| view! { <p class="due" role="status">{lab.t("nodata.due")}</p> }.into_any())
                }
            })}
        </div>
    }
}
