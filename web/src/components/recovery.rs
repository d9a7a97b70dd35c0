//! Checkpoint, sink and crash: break the query on purpose and watch it recover.

use leptos::prelude::*;

use streamlab_model::lab::session::{CrashPoint, SinkKind};
use crate::Lab;

fn crash_key(point: CrashPoint) -> &'static str {
    match point {
        CrashPoint::AfterOffsetLog => "crash.after-offset-log",
        CrashPoint::MidSink => "crash.mid-sink",
        CrashPoint::BeforeCommit => "crash.before-commit",
    }
}

/// Sink choice, crash injection, restart, the offset and commit logs, and the sink's rows.
#[component]
pub fn RecoveryPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let point = RwSignal::new(CrashPoint::MidSink);
    // The message answers the last click ("No batch is due ...") and is kept with the number
    // of batches it was said at: once a batch has run or been taken back, it no longer holds
    // and is not shown.
    let message = RwSignal::new(None::<(String, usize)>);
    let batch_count = move || lab.view.with(|v| v.batches.len());
    // A restart Spark refuses (the memory sink outside complete mode) stops the query with an
    // error the query panel shows; it is said here too, beside the button that caused it.
    let restart_failed = RwSignal::new(false);
    // The sink's rows are paged as the state store's are: 10,000 table rows cost the page more
    // to lay out on every step than the step itself.
    let sink_limit = RwSignal::new(super::results::PAGE_ROWS);
    let log_limit = RwSignal::new(super::results::PAGE_ROWS);
    let (listener_open, logs_open) = (RwSignal::new(false), RwSignal::new(false));
    let rec = move || lab.view.with(|v| v.recovery.clone());
    let from_text = move || lab.view.with(|v| v.checkpoint_from_text);
    view! {
        <div class="panel recovery" data-testid="recovery">
            <h2>{move || lab.t("recovery")}</h2>
            <p class="help">{move || lab.t("recovery.help")}</p>
            <div class="row">
                <label>{move || lab.t("sink.kind")}" "
                    <select data-testid="sink-select" disabled=move || lab.view.with(|v| v.sink_from_text) on:change=move |ev| {
                        if let Some(k) = SinkKind::parse(&event_target_value(&ev)) {
                            lab.act(|s| s.set_sink(k));
                        }
                    }>
                        {SinkKind::ALL.into_iter().map(|k| view! {
                            <option value=k.id() selected=move || lab.view.with(|v| v.sink == k)>{move || lab.t(streamlab_model::lab::session::sink_label_key(k))}</option>
                        }).collect_view()}
                    </select>
                </label>
                <span class="guarantee" data-testid="sink-guarantee">
                    {move || lab.t(lab.view.with(|v| streamlab_model::lab::session::sink_guarantee_key(v.sink, v.mode)))}
                </span>
            </div>
            // The guide's "Fault-tolerant" column, which the exam marks, beside what the sink does.
            <p class="help" data-testid="sink-guide">
                {move || lab.t(streamlab_model::lab::session::sink_guide_key(lab.view.with(|v| v.sink)))}
            </p>
            // The text's own sink wins over the picker (StartOptions::default_sink): say so
            // beside the disabled picker instead of overriding it silently.
            {move || lab.view.with(|v| v.sink_from_text).then(|| view! {
                <p class="help" data-testid="sink-from-query">{lab.t("sink.from-query")}</p>
            })}
            // A sink the text names has the location the program gives it (as in Spark): the
            // switch shows that, disabled, and says why.
            <label class="row">
                <input type="checkbox" data-testid="checkpoint-location"
                    prop:checked=move || from_text().unwrap_or_else(|| rec().is_none_or(|r| r.checkpoint_set))
                    disabled=move || from_text().is_some()
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        lab.act(|s| s.set_checkpoint_location(on));
                    }/>
                <span>{move || lab.t("checkpoint.set")}</span>
            </label>
            {move || from_text().map(|given| view! {
                <p class="help" data-testid="checkpoint-from-text">{lab.t(if given { "checkpoint.from-text" } else { "checkpoint.from-text-none" })}</p>
            })}
            {move || rec().filter(|r| r.temporary).map(|_| view! { <p class="help" data-testid="temporary-checkpoint">{lab.t("checkpoint.temp")}</p> })}
            <div class="row">
                <label>{move || lab.t("crash.point")}" "
                    <select data-testid="crash-point" on:change=move |ev| {
                        if let Some(p) = CrashPoint::parse(&event_target_value(&ev)) {
                            point.set(p);
                        }
                    }>
                        {CrashPoint::ALL.into_iter().map(|p| view! {
                            <option value=p.id() selected=move || point.get() == p>{move || lab.t(crash_key(p))}</option>
                        }).collect_view()}
                    </select>
                </label>
                <button class="danger" data-testid="crash-batch" on:click=move |_| {
                    let p = point.get_untracked();
                    restart_failed.set(false);
                    let said = lab.act(|s| s.crash(p)).err();
                    message.set(said.map(|m| (m, batch_count())));
                }>
                    {move || lab.t("crash.go")}
                </button>
                <button data-testid="restart-query" on:click=move |_| {
                    message.set(None);
                    lab.act(|s| s.restart());
                    restart_failed.set(lab.view.with_untracked(|v| v.error.is_some()));
                }>
                    // Without a checkpoint location a restart is a new query on a new temporary
                    // checkpoint, not "the same checkpoint".
                    {move || lab.t(if lab.view.with(|v| v.recovery.as_ref().is_some_and(|r| r.temporary)) { "restart.temporary" } else { "restart" })}
                </button>
            </div>
            {move || restart_failed.get().then(|| lab.view.with(|v| v.error.as_ref().map(|e| e.message.clone()))).flatten().map(|m| view! {
                <p class="error" role="alert" data-testid="restart-failed">{move || lab.t("restart.failed")}" "<code>{m}</code></p>
            })}
            {move || message.get().filter(|(_, at)| *at == batch_count()).map(|(m, _)| view! { <p class="notice" role="status" data-testid="crash-notice">{move || streamlab_model::text::i18n::localize(lab.lang.get(), &m)}</p> })}
            {move || rec().and_then(|r| r.crashed).map(|c| view! { <p class="error" role="alert" data-testid="crash-status">{move || streamlab_model::text::i18n::localize(lab.lang.get(), &c)}</p> })}
            <NextRunQuery/>
            {move || rec().map(|r| view! {
                <p class="help" data-testid="query-status">"isActive = "{r.active.to_string()}" · status: "{r.status.clone()}
                    " · trigger: "<code>{r.trigger.clone()}</code>" · recentProgress: "{r.recent_progress}</p>
            })}
            // Folded, and built only while open: these tables grow with every batch, and the page
            // would rebuild them on every step and every slider stop. The open state is the
            // panel's own, so a step does not fold them again.
            <details data-testid="listener-log" prop:open=move || listener_open.get() on:toggle=move |ev| follow_toggle(&ev, listener_open)>
                <summary>{move || lab.t("listener")}" ("{move || rec().map_or(0, |r| r.events.len())}")"</summary>
                {move || listener_open.get().then(|| rec().map(|r| {
                    let start = super::results::tail_start(r.events.len(), log_limit.get(), None);
                    view! {
                        <super::results::EarlierRows shown=r.events.len() - start total=r.events.len() limit=log_limit/>
                        <ol class="events" start=(start + 1).to_string()>{r.events[start..].iter().map(|e| view! { <li><code>{e.clone()}</code></li> }).collect_view()}</ol>
                    }
                }))}
            </details>
            {move || rec().map(|r| view! {
                {r.name.clone().filter(|_| r.sink == SinkKind::Memory).map(|n| view! {
                    <p class="help" data-testid="memory-table">{lab.t("memory.table")}" "<code>{format!("spark.sql(\"SELECT * FROM {n}\")")}</code></p>
                })}
                <p class="help ids">"id = "<code>{r.query_id.clone()}</code>" · runId = "<code data-testid="run-id">{r.run_id.clone()}</code>
                    " · "{lab.t("runs")}" "{r.runs}</p>
            })}
            <details data-testid="checkpoint-logs" prop:open=move || logs_open.get() on:toggle=move |ev| follow_toggle(&ev, logs_open)>
                <summary>{move || lab.t("checkpoint.logs")}</summary>
                // The logs' newest entries (a restart reads those); earlier ones on request.
                {move || logs_open.get().then(|| rec().map(|r| {
                    let total = r.offset_log.len().max(r.commit_log.len());
                    let shown = total - super::results::tail_start(total, log_limit.get(), None);
                    view! {
                        <super::results::EarlierRows shown=shown total=total limit=log_limit/>
                        <div class="logs">
                            <table class="grid mini-log" data-testid="offset-log">
                                <thead><tr><th colspan="3">"offsets/"</th></tr><tr><th>{lab.t("batch.id")}</th><th>"end offsets"</th><th>"batchWatermarkMs"</th></tr></thead>
                                <tbody>{r.offset_log[super::results::tail_start(r.offset_log.len(), log_limit.get(), None)..].iter().map(|(b, o, w)| view! { <tr><td>{*b}</td><td>{o.clone()}</td><td>{w.clone()}</td></tr> }).collect_view()}</tbody>
                            </table>
                            <table class="grid mini-log" data-testid="commit-log">
                                <thead><tr><th colspan="2">"commits/"</th></tr><tr><th>{lab.t("batch.id")}</th><th>"nextBatchWatermarkMs"</th></tr></thead>
                                <tbody>{r.commit_log[super::results::tail_start(r.commit_log.len(), log_limit.get(), None)..].iter().map(|(b, w)| view! { <tr><td>{*b}</td><td>{w.clone()}</td></tr> }).collect_view()}</tbody>
                            </table>
                        </div>
                    }
                }))}
            </details>
            {move || rec().map(|r| view! {
                {r.sink_log.clone().map(|log| view! {
                    <details open>
                        <summary>{lab.t("sink.log")}</summary>
                        <pre class="json" data-testid="sink-log">{log}</pre>
                    </details>
                })}
                <h3>{lab.t("sink.contents")}" "{lab.t("sink.dups")}" "<span class="count" class:warn={r.duplicates > 0} data-testid="sink-duplicates">{r.duplicates}</span></h3>
                // The newest writes (a crash's replayed batch is among them); earlier on request.
                {
                    let total = r.sink_rows.len();
                    let shown = total - super::results::tail_start(total, sink_limit.get(), None);
                    view! { <super::results::EarlierRows shown=shown total=total limit=sink_limit/> }
                }
                <table class="grid" data-testid="sink-rows">
                    <thead><tr><th>{lab.t("batch.id")}</th><th>{lab.t("attempt")}</th><th>{lab.t("row")}</th><th></th></tr></thead>
                    <tbody>{r.sink_rows[super::results::tail_start(r.sink_rows.len(), sink_limit.get(), None)..].iter().map(|w| {
                        let note = if !w.visible { lab.t("sink.orphan") } else if w.duplicate { lab.t("sink.duplicate") } else { "" };
                        view! {
                            <tr class:dup={w.duplicate} class:orphan={!w.visible} data-testid="sink-row" data-duplicate=w.duplicate.to_string() data-visible=w.visible.to_string()>
                                <td>{w.batch_id}</td><td>{w.attempt}</td><td>{w.cells.join(", ")}</td><td>{note}</td>
                            </tr>
                        }
                    }).collect_view()}</tbody>
                </table>
            })}
        </div>
    }
}

/// Restart with a changed query: what Spark lets you change between runs on one checkpoint.
#[component]
fn NextRunQuery() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let draft = RwSignal::new(String::new());
    view! {
        <details class="next-run">
            <summary>{move || lab.t("nextrun")}</summary>
            <p class="help">{move || lab.t("nextrun.help")}</p>
            <textarea rows="3" spellcheck="false" data-testid="next-run-query"
                prop:value=move || { let d = draft.get(); if d.is_empty() { lab.view.with(|v| v.query_text.clone()) } else { d } }
                on:input=move |ev| draft.set(event_target_value(&ev))></textarea>
            <button data-testid="restart-with-query" on:click=move |_| {
                let text = { let d = draft.get_untracked(); if d.is_empty() { lab.view.with_untracked(|v| v.query_text.clone()) } else { d } };
                lab.act(|s| s.restart_with(&text));
            }>{move || lab.t("nextrun.go")}</button>
        </details>
    }
}

/// Keeps `open` equal to a `<details>` element's state after its `toggle` event (set only on a
/// change: setting the property fires the event again).
fn follow_toggle(ev: &leptos::ev::Event, open: RwSignal<bool>) {
    let now = event_target::<web_sys::Element>(ev).has_attribute("open");
    if open.get_untracked() != now {
        open.set(now);
    }
}
