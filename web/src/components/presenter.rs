//! Presenter mode, for an instructor at a projector: large type, the lab's batches, state and
//! watermark only (no editors, no quiz), keyboard control and a speaker-notes pane.
//!
//! Keys (never while the focus is in a text box): `p` presenter mode on/off, and in presenter
//! mode `→` next step, `←` step back (undo) (a clicker's PageDown and PageUp too), space play/pause, `1` `2` `3` output mode
//! append/update/complete, `+` `−` the first watermark delay to the delay slider's next stop
//! up/down (`session::timeline::delay_stop_step`, the stops the slider beside it has),
//! `r` reveal/hide the answers, `Esc` leave.

use leptos::prelude::*;

use super::context::{Player, Presenter};
use super::controls::SpeedPicker;
use super::markup::{render_spans, render_text};
use streamlab_model::text::markup::spans;
use streamlab_model::lab::presets;
use streamlab_model::study::quiz;
use streamlab_model::lab::session::timeline::delay_stop_step;
use streamlab_model::lab::session::OutputMode;
use crate::Lab;

/// Provides [`Presenter`] and the shared `Player` to the page; call once in the root.
pub fn provide() {
    provide_context(Presenter { on: RwSignal::new(false), reveal: RwSignal::new(false), lesson: RwSignal::new(None) });
    let _ = Player::get();
}

/// The presenter state (provided by [`provide`]).
pub fn presenter() -> Presenter {
    expect_context::<Presenter>()
}

/// True while the focus is in a place where keys type text (keys must not fire there).
fn typing() -> bool {
    let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element()) else { return false };
    match el.tag_name().to_ascii_uppercase().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => {
            let t = el.get_attribute("type").unwrap_or_default().to_ascii_lowercase();
            !matches!(t.as_str(), "radio" | "checkbox" | "button" | "submit" | "reset" | "range")
        }
        _ => el.get_attribute("contenteditable").is_some_and(|v| v != "false"),
    }
}

/// Marks `<html>` so the stylesheet switches to presenter layout.
fn mark_document(on: bool) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = if on { el.set_attribute("data-presenter", "on") } else { el.remove_attribute("data-presenter") };
    }
}

/// What a key does; true when it was used.
fn on_key(lab: Lab, p: Presenter, player: Player, key: &str) -> bool {
    if key == "p" || key == "P" {
        p.on.update(|on| *on = !*on);
        return true;
    }
    if !p.on.get_untracked() {
        return false;
    }
    match key {
        // A presentation clicker sends PageDown and PageUp: the same as → and ←.
        "ArrowRight" | "PageDown" => {
            // Next step; at the end of the example, one more trigger (a no-data batch may be due).
            lab.act(|s| {
                if !s.run_step() && s.batch_due() {
                    s.trigger();
                }
            });
            lab.selected_batch.set(None);
        }
        "ArrowLeft" | "PageUp" => {
            player.stop();
            lab.step_back();
        }
        " " | "Spacebar" => player.toggle(lab),
        "1" => lab.act(|s| s.set_mode(OutputMode::Append)),
        "2" => lab.act(|s| s.set_mode(OutputMode::Update)),
        "3" => lab.act(|s| s.set_mode(OutputMode::Complete)),
        "+" | "=" | "-" | "−" | "_" => {
            let up = matches!(key, "+" | "=");
            let delay = lab.view.with_untracked(|v| v.delays.first().cloned());
            match delay {
                None => lab.notice.set(Some(lab.t("presenter.no_delay").to_string())),
                // At the first or last stop (or a delay that is no interval) nothing moves.
                Some(d) => {
                    if let Some(next) = delay_stop_step(d.trim(), up) {
                        let r = lab.act(|s| s.set_delay(0, next));
                        lab.notice.set(r.err().map(|e| format!("The delay was not applied: {e}")));
                    }
                }
            }
        }
        "r" | "R" => p.reveal.update(|r| *r = !*r),
        "Escape" => p.on.set(false),
        _ => return false,
    }
    true
}

/// Installs the page's key handler and keeps `<html data-presenter>` in step; renders the
/// presenter bar and the speaker-notes pane while presenter mode is on.
#[component]
pub fn PresenterMode() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let p = presenter();
    let player = Player::get();
    Effect::new(move |_| {
        let on = p.on.get();
        mark_document(on);
        if !on {
            p.reveal.set(false);
        }
    });
    let handle = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.default_prevented() || typing() {
            return;
        }
        if on_key(lab, p, player, &ev.key()) {
            ev.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <Show when=move || p.on.get()>
            <aside class="presenter-pane" data-testid="presenter-pane" aria-label=move || lab.t("presenter.notes")>
                <p class="keys" data-testid="presenter-keys">{move || lab.t("presenter.keys")}</p>
                <div class="buttons">
                    <button data-testid="presenter-undo" on:click=move |_| { on_key(lab, p, player, "ArrowLeft"); }>{move || lab.t("undo")}</button>
                    <button class="primary" data-testid="presenter-next" on:click=move |_| { on_key(lab, p, player, "ArrowRight"); }>{move || lab.t("run.step")}</button>
                    <button data-testid="presenter-play" aria-pressed=move || player.playing.get().to_string() on:click=move |_| player.toggle(lab)>
                        {move || if player.playing.get() { lab.t("pause") } else { lab.t("play") }}
                    </button>
                </div>
                // The output mode, shown and switched from here too (the keys 1 2 3 do the
                // same): an instructor with a mouse or a clicker need not know the keys.
                <div class="presenter-modes" role="group" data-testid="presenter-mode" aria-label=move || lab.t("mode")>
                    {[OutputMode::Append, OutputMode::Update, OutputMode::Complete]
                        .map(|mode| super::query::output_mode_button(lab, mode, "mode-now", format!("presenter-mode-{}", mode.as_str()), None))}
                </div>
                <SpeedPicker/>
                <SpeakerNotes/>
            </aside>
        </Show>
    }
}

/// The toggle in the top bar.
#[component]
pub fn PresenterToggle() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let p = presenter();
    view! {
        <button class="lang presenter-toggle" data-testid="presenter-toggle" aria-pressed=move || p.on.get().to_string()
            title=move || lab.t("presenter.help") on:click=move |_| p.on.update(|on| *on = !*on)>
            {move || if p.on.get() { lab.t("presenter.leave") } else { lab.t("presenter") }}
        </button>
    }
}

/// The current preset's id (the scenario id of the lab, when it is a preset).
fn preset_id(lab: Lab) -> String {
    lab.read(|s| s.scenario().id.clone())
}

/// Speaker notes: the open lesson's, else the preset's "what to watch"; and questions about
/// the preset with their answers hidden until revealed.
#[component]
fn SpeakerNotes() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let p = presenter();
    // The preset changes only when a scenario is loaded: notes and questions follow it, not
    // every step.
    let id = Memo::new(move |_| {
        lab.view.track();
        preset_id(lab)
    });
    let study = expect_context::<crate::components::context::Study>();
    // The lessons arrive after the app is up: a lesson's notes fill in when they have.
    let lesson = move |id: &str| {
        study.study_data.track();
        study.lessons.with_value(|ls| ls.iter().find(|l| l.id == id).cloned())
    };
    let notes = move || {
        let lang = lab.lang.get();
        let lesson = p.lesson.get().and_then(|id| lesson(&id));
        match lesson {
            Some(l) => {
                let t = l.text(lang);
                (format!("{} {}", l.number, t.title), t.speaker.clone())
            }
            None => {
                let info = presets::preset_info(&id.get()).unwrap_or_default();
                (info.name(lang).to_string(), info.notes(lang).to_string())
            }
        }
    };
    // The open lesson's own questions; on the free lab, questions about its preset.
    let questions = Memo::new(move |_| {
        let id = id.get();
        // The bank arrives after the app is up: the notes fill in when it has.
        study.questions.track();
        let bank = study.bank.get_value();
        let lesson_questions = p.lesson.get().and_then(|l| lesson(&l)).map(|l| l.questions).unwrap_or_default();
        let mut chosen: Vec<quiz::Question> = if lesson_questions.is_empty() {
            bank.into_iter().filter(|q| q.kind == quiz::Kind::Choice && q.scenario == id).collect()
        } else {
            lesson_questions.iter().filter_map(|qid| bank.iter().find(|q| &q.id == qid && q.kind == quiz::Kind::Choice).cloned()).collect()
        };
        // Questions about the query on the screen first: one that changes the query or the
        // output mode ("in update mode, …") would not match what the room sees.
        chosen.sort_by_key(|q| q.query.is_some() || q.output_mode.is_some());
        chosen.into_iter().take(2).collect::<Vec<_>>()
    });
    // Revealing the answers brings the first one into view (the pane scrolls; the answers sit
    // below the notes).
    Effect::new(move |_| {
        if p.reveal.get() {
            super::bring_into_view("[data-testid=presenter-answer]");
        }
    });
    // The lab as it is now, in one line: the written notes assume the preset's own delay, and
    // this line follows the delay, the watermark and the batches as the presenter changes them.
    let now = move || {
        lab.view.with(|v| {
            // On the scenario's day, as the picture and the batch table write it (09:25).
            let day_us = lab.read(streamlab_model::lab::session::LabSession::day_us);
            let wm = match v.watermark_ms {
                Some(0) => lab.t("watermark.not_yet").to_string(),
                Some(ms) => streamlab_model::lab::session::display_time(ms.saturating_mul(1000), day_us),
                None => lab.t("watermark.none").to_string(),
            };
            let n = v.batches.len().to_string();
            match v.delays.first() {
                Some(d) => lab.t_with("presenter.now", &[("d", &d), ("wm", &wm), ("n", &n)]),
                None => lab.t_with("presenter.now.nodelay", &[("wm", &wm), ("n", &n)]),
            }
        })
    };
    view! {
        // Focusable, so that ↑ and ↓ scroll notes longer than the pane (→ and ← run steps).
        <div class="speaker-notes" data-testid="speaker-notes" tabindex="0" aria-label=move || lab.t("presenter.notes")>
            <h2>{move || lab.t("presenter.notes")}": "{move || notes().0}</h2>
            <p class="notes-now" data-testid="presenter-now">{now}</p>
            <div class="notes-text">{move || render_text(&notes().1)}</div>
            {move || {
                let lang = lab.lang.get();
                questions.get().into_iter().map(|q| {
                    let text = q.text(lang).clone();
                    let answer = q.answer;
                    view! {
                        <div class="ask">
                            <p class="prompt">{render_spans(spans(&text.prompt))}</p>
                            <ol type="A">
                                {text.choices.iter().enumerate().map(|(i, c)| view! {
                                    <li class:right=move || p.reveal.get() && i == answer>{render_spans(spans(c))}</li>
                                }).collect_view()}
                            </ol>
                            {
                                let explanation = text.explanation.clone();
                                view! {
                                    <Show when=move || p.reveal.get()>
                                        <p class="feedback ok" data-testid="presenter-answer">{render_spans(spans(&explanation))}</p>
                                    </Show>
                                }
                            }
                        </div>
                    }
                }).collect_view()
            }}
            <button data-testid="presenter-reveal" on:click=move |_| p.reveal.update(|r| *r = !*r)>
                {move || if p.reveal.get() { lab.t("presenter.hide") } else { lab.t("presenter.reveal") }}
            </button>
        </div>
    }
}
