//! Two tabs of the lab notice each other, so neither silently replaces the other's saved work.
//!
//! Every tab saves its lab under the same browser-storage key (`crash::SESSION_KEY`), so the
//! last tab to save wins. Tabs announce themselves on a `BroadcastChannel` (`hello`, answered
//! by `here`; `bye` when a tab goes away), and a tab that is told another is open says so. When
//! another tab *saves* (the `storage` event, which the browser fires in every other tab of the
//! page's origin), this tab stops saving and asks: open the other tab's lab (a reload reads
//! it), or keep this tab's lab (saved at once; the other tab is asked in turn). Until then
//! this tab's lab stays in memory and nothing is overwritten.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::Lab;

const CHANNEL: &str = "streamlab.tabs";

/// What this tab knows of the others, provided as context by [`provide`].
#[derive(Clone, Copy)]
pub struct Tabs {
    /// Another tab of the lab is open.
    pub other: RwSignal<bool>,
    /// Another tab saved its lab over this one's since this tab last saved: this tab does not
    /// save until the learner chooses.
    pub conflict: RwSignal<bool>,
    /// The learner closed the "open in another tab" notice.
    dismissed: RwSignal<bool>,
}

/// Starts listening (the channel and the `storage` event, for the page's life) and provides
/// [`Tabs`].
pub fn provide(lab: Lab) -> Tabs {
    let tabs = Tabs { other: RwSignal::new(false), conflict: RwSignal::new(false), dismissed: RwSignal::new(false) };
    provide_context(tabs);
    let Some(window) = web_sys::window() else { return tabs };
    if let Ok(channel) = web_sys::BroadcastChannel::new(CHANNEL) {
        let reply = channel.clone();
        let on_message = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| match ev.data().as_string().as_deref() {
            Some("hello") => {
                tabs.other.set(true);
                let _ = reply.post_message(&"here".into());
            }
            Some("here") => tabs.other.set(true),
            Some("bye") => tabs.other.set(false),
            _ => {}
        });
        channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let _ = channel.post_message(&"hello".into());
        let bye = channel.clone();
        let on_hide = Closure::<dyn Fn()>::new(move || {
            let _ = bye.post_message(&"bye".into());
        });
        let _ = window.add_event_listener_with_callback("pagehide", on_hide.as_ref().unchecked_ref());
        on_hide.forget();
    }
    let on_storage = Closure::<dyn Fn(web_sys::StorageEvent)>::new(move |ev: web_sys::StorageEvent| {
        if ev.key().as_deref() != Some(crate::crash::SESSION_KEY) {
            return;
        }
        tabs.other.set(true);
        // The other tab saved what this tab holds too: nothing to lose.
        let same = ev.new_value().is_some_and(|v| lab.read(|s| s.to_saved_json()) == v);
        if !same {
            tabs.conflict.set(true);
        }
    });
    let _ = window.add_event_listener_with_callback("storage", on_storage.as_ref().unchecked_ref());
    on_storage.forget();
    tabs
}

/// The tabs' state (provided by [`provide`]); `None` outside the app.
pub fn tabs() -> Option<Tabs> {
    use_context::<Tabs>()
}

/// The notices: another tab is open; another tab saved over this one (with the two choices).
/// `keep` saves this tab's lab now.
#[component]
pub fn TabsBanner(
    /// Saves this tab's lab now (the "keep mine" choice after another tab saved over it).
    keep: Callback<()>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let Some(tabs) = tabs() else { return ().into_any() };
    let reload = || {
        if let Some(w) = web_sys::window() {
            let _ = w.location().reload();
        }
    };
    view! {
        <Show when=move || tabs.conflict.get()>
            <div class="banner" role="alert" data-testid="tabs-conflict">
                <p>{move || lab.t("tabs.conflict")}</p>
                <button data-testid="tabs-load-other" on:click=move |_| reload()>{move || lab.t("tabs.load_other")}</button>
                <button data-testid="tabs-keep-mine" on:click=move |_| { tabs.conflict.set(false); keep.run(()); }>{move || lab.t("tabs.keep_mine")}</button>
            </div>
        </Show>
        <Show when=move || tabs.other.get() && !tabs.conflict.get() && !tabs.dismissed.get()>
            <div class="banner kept" role="status" data-testid="tabs-other">
                <p>{move || lab.t("tabs.other")}</p>
                <button data-testid="tabs-other-close" on:click=move |_| tabs.dismissed.set(true)>{move || lab.t("share.close")}</button>
            </div>
        </Show>
    }
    .into_any()
}
