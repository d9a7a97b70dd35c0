//! Streamlab's lab page: a Leptos (CSR) app over `streamlab-model`, which holds everything the
//! page shows in plain Rust. This crate keeps only what needs a browser:
//! - [`Lab`]: the lab session as Leptos context (signals over the model's `LabSession`).
//! - [`components`]: the page, one component per panel.
//! - [`route`]: the pages' routes in the URL fragment.
//! - [`crash`]: browser storage of the session and the recovery screen's boot marks.
//!
//! It does not list `streamlab-engine` in its manifest (`tests/boundary.rs` checks): what it
//! needs of the engine comes through `streamlab_model::lab::session`.

#![warn(missing_docs)]

pub mod components;
pub mod crash;
pub mod route;
pub mod storage;

use leptos::prelude::*;

use streamlab_model::lab::presets;
use streamlab_model::lab::session::{LabSession, LabView};
use streamlab_model::text::{i18n, Lang};

/// The lab's shared state, provided as context: the session (local, not `Send`), a change
/// counter, the language and the derived view.
#[derive(Clone, Copy)]
pub struct Lab {
    session: StoredValue<LabSession, LocalStorage>,
    tick: RwSignal<u64>,
    /// The page's language (English or Korean).
    pub lang: RwSignal<Lang>,
    /// The session's view ([`LabSession::view`]), recomputed when the session changes.
    pub view: Memo<LabView>,
    /// The batch whose details are shown (None = the last one, "live").
    pub selected_batch: RwSignal<Option<u64>>,
    /// The lab as of the selected batch (`LabSession::view_as_of`), `None` while live; read it
    /// through [`Lab::shown_with`].
    past: Memo<Option<LabView>>,
    /// A short message about the last action (e.g. a bad event field).
    pub notice: RwSignal<Option<String>>,
    /// Why the saved session was set aside instead of replayed, if it was ([`crash`]).
    pub storage_notice: RwSignal<Option<String>>,
    /// Why the last save in browser storage failed, while it fails.
    pub save_error: RwSignal<Option<String>>,
    /// A delay slider is being dragged: the lab replays each stop it passes, but a lesson's
    /// tasks wait for where it is let go (a task is not ticked by a value passed on the way).
    pub adjusting: RwSignal<bool>,
    /// The learner's lab that an example replaced: the page it was on ([`Lab::place`]) and its
    /// saved JSON, kept until Step back brings it back there ([`Lab::step_back`]); also in
    /// browser storage, so a reload keeps it.
    replaced: RwSignal<Option<(String, String)>>,
    /// Which lab the panels show: `lab` (the free lab) or `lesson/<id>`, set by the panels; a
    /// replaced lab comes back only where it was replaced.
    pub place: RwSignal<String>,
}

impl Lab {
    /// A lab over `session`.
    pub fn new(session: LabSession, lang: Lang) -> Lab {
        let session = StoredValue::new_local(session);
        let tick = RwSignal::new(0u64);
        let view = Memo::new(move |_| {
            tick.track();
            session.with_value(LabSession::view)
        });
        let selected_batch = RwSignal::new(None);
        let past = Memo::new(move |_| {
            let id = selected_batch.get()?;
            tick.track();
            Some(session.with_value(|s| s.view_as_of(id)))
        });
        Lab {
            session,
            tick,
            lang: RwSignal::new(lang),
            view,
            selected_batch,
            past,
            notice: RwSignal::new(None),
            storage_notice: RwSignal::new(None),
            save_error: RwSignal::new(None),
            adjusting: RwSignal::new(false),
            replaced: RwSignal::new(storage::stored_replaced()),
            place: RwSignal::new("lab".to_string()),
        }
    }

    /// The lab's session as saved JSON, with the page it is on, when it holds the learner's
    /// own work ([`LabSession::has_own_work`]).
    fn own_work(&self) -> Option<(String, String)> {
        self.read(|s| s.has_own_work().then(|| s.to_saved_json())).map(|json| (self.place.get_untracked(), json))
    }

    /// Keeps `kept` (or nothing) as the lab an example replaced, here and in storage.
    fn set_replaced(&self, kept: Option<(String, String)>) {
        storage::keep_replaced(kept.as_ref());
        self.replaced.set(kept);
    }

    /// The lab an example replaced on this page, if one is kept.
    fn replaced_here(&self) -> Option<String> {
        let place = self.place.get();
        self.replaced.with(|r| r.as_ref().filter(|(p, _)| *p == place).map(|(_, json)| json.clone()))
    }

    /// Opens `session` in place of the lab's. A lab with the learner's own work in it
    /// ([`LabSession::has_own_work`]) is kept first, and the notice says Step back brings it
    /// back; a lab without any keeps the one kept before it.
    pub fn replace(&self, session: LabSession) {
        if let Some(kept) = self.own_work() {
            self.set_replaced(Some(kept));
        }
        self.act(|s| *s = session);
        self.selected_batch.set(None);
        self.notice.set(untrack(|| self.replaced_here()).map(|_| self.t("replaced.kept").to_string()));
    }

    /// Whether Step back has something to take back: an action, or a lab an example replaced
    /// on this page.
    pub fn can_step_back(&self) -> bool {
        self.view.track();
        self.read(|s| s.action_count() > 0) || self.replaced_here().is_some()
    }

    /// Step back: the last action ([`LabSession::undo`]); with none left, the lab an example
    /// replaced on this page (the example's own lab is kept in its place if the learner
    /// changed it).
    pub fn step_back(&self) {
        if self.read(|s| s.action_count() > 0) {
            self.act(|s| s.undo());
        } else if let Some(json) = untrack(|| self.replaced_here()) {
            match LabSession::from_saved_json(&json) {
                Ok(own) => {
                    self.set_replaced(self.own_work());
                    self.act(|s| *s = own);
                    self.notice.set(None);
                }
                Err(e) => {
                    self.set_replaced(None);
                    self.notice.set(Some(e));
                }
            }
        }
        self.selected_batch.set(None);
    }

    /// Changes the session and refreshes the view.
    pub fn act<R>(&self, f: impl FnOnce(&mut LabSession) -> R) -> R {
        let r = self.session.try_update_value(f).expect("the session lives as long as the page");
        self.tick.update(|t| *t += 1);
        r
    }

    /// Reads what the state store, the sink, the metrics and the watermark show: the lab as of
    /// the selected batch, or the live view (reactive; the live view is not copied).
    pub fn shown_with<R>(&self, f: impl FnOnce(&LabView) -> R) -> R {
        match self.past.get() {
            Some(v) => f(&v),
            None => self.view.with(f),
        }
    }

    /// Subscribes the running effect to every change of the session, including one the view
    /// does not show (a row moved within its batch changes the picture and the saved log but
    /// maybe no panel).
    pub fn track_session(&self) {
        self.tick.track();
    }

    /// Reads the session without changing it.
    pub fn read<R>(&self, f: impl FnOnce(&LabSession) -> R) -> R {
        self.session.with_value(f)
    }

    /// The label `key` in the current language (reactive).
    pub fn t(&self, key: &'static str) -> &'static str {
        i18n::tr(self.lang.get(), key)
    }

    /// The label `key` in the page's language with its `{name}` holes filled from `args`
    /// ([`i18n::tr_with`]: English plurals, Korean particles); tracks the language.
    pub fn t_with(&self, key: &'static str, args: &[i18n::Arg]) -> String {
        i18n::tr_with(self.lang.get(), key, args)
    }

    /// What sets the query's output mode when the text does (tracks the view and the
    /// language): its `.outputMode(...)`, or Spark's default for a query it starts without one.
    pub fn text_mode_note(&self) -> String {
        let (mode, default) = self.view.with(|v| (v.mode, v.mode_default_in_query));
        if default {
            self.t("mode.in_query_default").to_string()
        } else {
            self.t_with("mode.in_query", &[("mode", &mode.as_str())])
        }
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    // A share link (`#lab=…`) in the address is read first; the page asks before opening it.
    components::share::provide_from_location();
    let lang = storage::stored_lang();
    // The last session comes back from browser storage. One that cannot be read, or that
    // crashed the page the last time it was loaded, is set aside and the lab starts fresh.
    crash::begin_boot();
    debug_panic_on_load();
    let saved = crash::stored_session().and_then(|t| match LabSession::from_saved_json(&t) {
        Ok(s) => Some(s),
        Err(e) => {
            crash::set_aside(&format!("it could not be read: {e}"));
            None
        }
    });
    let session = saved.or_else(|| presets::preset("classic").map(LabSession::from_scenario)).unwrap_or_else(|| {
        LabSession::from_json(r#"{"id":"empty","sources":{"clicks":{"schema":[["event_id","string"],["event_time","timestamp"]]}},"steps":[],"query":"clicks","output_mode":"append"}"#)
            .expect("built-in scenario")
    });
    let lab = Lab::new(session, lang);
    prepare_delays_when_idle(lab);
    lab.storage_notice.set(crash::set_aside_notice());
    provide_context(lab);
    components::provide_player();
    // The lessons, then the question bank and the time-zone database, are fetched from here.
    components::context::Study::provide();
    components::App()
}

/// Fetches the time-zone database (`prerendered/tzdb.json`, not compiled into the wasm so the lab
/// does not wait for it), installs it, and runs the session again: a query that named a region
/// (`Asia/Seoul`) before it came said it was on its way. If it does not come, such a query keeps
/// saying so and the reason is logged; nothing else needs it.
pub(crate) fn fetch_time_zones(lab: Lab) {
    leptos::task::spawn_local(async move {
        match storage::fetch_text("prerendered/tzdb.json").await.and_then(|t| streamlab_model::lab::session::install_time_zones(&t)) {
            Ok(()) => lab.act(LabSession::replay_all),
            Err(e) => leptos::logging::warn!("the time zone database did not load: {e}"),
        }
    });
}

/// While the browser is idle, replays the delay slider's stops nearest the current one ahead of
/// time ([`LabSession::prepare_next_stop`]), one per idle moment, so that a slider step swaps in
/// its replay instead of replaying every batch. Every change of the session starts again from
/// its delay. A replay runs only when the idle moment is long enough for the last one, so it
/// does not push back a frame while the learner drags.
fn prepare_delays_when_idle(lab: Lab) {
    let round = StoredValue::new(0u64);
    // The last replay's cost, ms (a first guess until one is measured).
    let cost = StoredValue::new(10.0f64);
    Effect::new(move |_| {
        lab.track_session();
        round.update_value(|r| *r += 1);
        idle_prepare(lab, round, round.get_value(), cost);
    });
}

/// One idle moment of [`prepare_delays_when_idle`]'s round `this`.
fn idle_prepare(lab: Lab, round: StoredValue<u64>, this: u64, cost: StoredValue<f64>) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else { return };
    let run = Closure::once_into_js(move |deadline: web_sys::IdleDeadline| {
        if round.try_get_value() != Some(this) {
            return;
        }
        // A replay longer than an idle moment can be (50 ms) waits for a whole one.
        if deadline.time_remaining() < cost.get_value().min(40.0) {
            return idle_prepare(lab, round, this, cost);
        }
        let t0 = storage::now_ms();
        // Not an act: what the page shows does not change.
        if lab.session.try_update_value(LabSession::prepare_next_stop).unwrap_or(false) {
            cost.set_value(storage::now_ms() - t0);
            idle_prepare(lab, round, this, cost);
        }
    });
    _ = window.request_idle_callback(run.unchecked_ref());
}

/// For the end-to-end test of the recovery screen: a page opened with `#debug-panic` panics
/// while it loads, as a bug in replaying a saved session would.
fn debug_panic_on_load() {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    if hash == "#debug-panic" {
        panic!("a panic while loading, asked for by #debug-panic");
    }
}
