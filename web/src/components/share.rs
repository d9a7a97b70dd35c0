//! The Share button and what happens when the page is opened with a share link (`#lab=…`).
//!
//! Opening a link never replaces the learner's own session without asking: a banner offers
//! to open the shared lab, and when the learner does, their session is kept in browser
//! storage ([`KEPT_KEY`]) and a button brings it back. A malformed or oversized link shows
//! [`ShareError::message`] and changes nothing.

use gloo_storage::Storage;
use leptos::prelude::*;

use streamlab_model::lab::session::LabSession;
use streamlab_model::lab::share::{self, ShareError};
use crate::Lab;

/// Where the learner's own session waits while a shared lab is open.
pub const KEPT_KEY: &str = "streamlab.session.before-share";

/// A share link found in the address when the page loaded.
#[derive(Clone, Copy)]
pub struct Incoming {
    /// The shared session, until opened or ignored.
    session: StoredValue<Option<LabSession>, LocalStorage>,
    /// Something to ask: the link holds a lab.
    pub offer: RwSignal<bool>,
    /// Why the link cannot be opened.
    pub error: RwSignal<Option<ShareError>>,
    /// The learner's own session is kept and can be restored.
    pub kept: RwSignal<bool>,
}

/// Reads the page's address fragment and provides [`Incoming`]; call once in the root,
/// before anything else reads the fragment. Fragments that are no share link (page routes
/// such as `#/lab`) are left alone.
pub fn provide_from_location() {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let (session, error) = match share::from_location_hash(&hash) {
        Some(Ok(s)) => (Some(s), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    let kept = gloo_storage::LocalStorage::raw().get_item(KEPT_KEY).ok().flatten().is_some();
    provide_context(Incoming {
        offer: RwSignal::new(session.is_some()),
        session: StoredValue::new_local(session),
        error: RwSignal::new(error),
        kept: RwSignal::new(kept),
    });
}

/// Replaces the address (no new history entry, no reload).
fn set_address(url: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// The page's address without its fragment.
fn address_without_fragment() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// Copies `text` to the clipboard when the browser allows it (best effort: the link is also
/// shown selectable).
fn copy(text: &str) {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else { return };
    let get = |o: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let Some(clip) = get(&w.into(), "navigator").and_then(|n| get(&n, "clipboard")) else { return };
    let Some(write) = get(&clip, "writeText").and_then(|f| f.dyn_into::<js_sys::Function>().ok()) else { return };
    if let Ok(p) = write.call1(&clip, &text.into()) {
        if let Ok(p) = p.dyn_into::<js_sys::Promise>() {
            // A refusal (no permission, page not focused) rejects the promise: nothing to do,
            // the link is shown selectable.
            let ignore = wasm_bindgen::closure::Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(|_| {});
            let _ = p.catch(&ignore);
            ignore.forget();
        }
    }
}

/// The Share button (top bar) and the link it made, shown selectable.
#[component]
pub fn ShareButton() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let link = RwSignal::new(None::<Result<String, ShareError>>);
    let make = move |_| {
        let base = address_without_fragment();
        let made = lab.read(|s| share::link_for(&base, s));
        if let Ok(url) = &made {
            set_address(url);
            copy(url);
        }
        link.set(Some(made));
    };
    view! {
        <button class="lang" data-testid="share" title=move || lab.t("share.help") on:click=make>{move || lab.t("share")}</button>
        {move || link.get().map(|made| view! {
            <div class="share-box" role="status" data-testid="share-box">
                {match made {
                    Ok(url) => view! {
                        <label>{move || lab.t("share.made")}
                            <input type="text" readonly data-testid="share-link" prop:value=url
                                on:focus=move |ev| { if let Some(i) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlInputElement>(&event_target::<web_sys::EventTarget>(&ev)) { i.select(); } }/>
                        </label>
                    }.into_any(),
                    Err(e) => view! { <p class="error" data-testid="share-error">{move || e.message(lab.lang.get())}</p> }.into_any(),
                }}
                <button data-testid="share-close" on:click=move |_| link.set(None)>{move || lab.t("share.close")}</button>
            </div>
        })}
    }
}

/// The banner for a link found at load: open the shared lab (keeping the learner's own),
/// ignore it, or why it cannot be opened; and, while a shared lab is open, bring back one's
/// own session.
#[component]
pub fn ShareBanner() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let inc = expect_context::<Incoming>();
    // What the link holds: the example it started from, then its own query (which the sender
    // may have changed), its output mode and how many batches it ran.
    let title = move || {
        inc.session.with_value(|s| {
            s.as_ref().map(|s| s.view()).map(|v| {
                let query: String = v.query_text.split_whitespace().collect::<Vec<_>>().join(" ");
                let query = if query.chars().count() > 120 { format!("{}…", query.chars().take(120).collect::<String>()) } else { query };
                lab.t_with("share.holds", &[("title", &v.title), ("query", &query), ("mode", &v.mode.as_str()), ("n", &v.batches.len().to_string())])
            })
        })
    };
    let open = move |_| {
        let Some(shared) = inc.session.try_update_value(|s| s.take()).flatten() else { return };
        // The learner's own session waits in storage until restored.
        let own = lab.read(LabSession::to_saved_json);
        if gloo_storage::LocalStorage::raw().set_item(KEPT_KEY, &own).is_ok() {
            inc.kept.set(true);
        }
        lab.act(|s| *s = shared);
        lab.selected_batch.set(None);
        inc.offer.set(false);
        // The page stays on the free lab (a reload too), not the lesson list.
        set_address(&format!("{}#/lab", address_without_fragment()));
    };
    let ignore = move |_| {
        inc.session.set_value(None);
        inc.offer.set(false);
        inc.error.set(None);
        // The page stays on the free lab (a reload too), not the lesson list.
        set_address(&format!("{}#/lab", address_without_fragment()));
    };
    let restore = move |_| {
        let raw = gloo_storage::LocalStorage::raw();
        match raw.get_item(KEPT_KEY).ok().flatten().map(|t| LabSession::from_saved_json(&t)) {
            Some(Ok(own)) => {
                lab.act(|s| *s = own);
                lab.selected_batch.set(None);
            }
            Some(Err(e)) => lab.notice.set(Some(e)),
            None => {}
        }
        let _ = raw.remove_item(KEPT_KEY);
        inc.kept.set(false);
    };
    let forget = move |_| {
        let _ = gloo_storage::LocalStorage::raw().remove_item(KEPT_KEY);
        inc.kept.set(false);
    };
    view! {
        <Show when=move || inc.offer.get()>
            <div class="banner share-offer" role="alert" data-testid="share-offer">
                <p>{move || lab.t("share.offer")}" "<strong>{title}</strong></p>
                <button class="primary" data-testid="share-open" on:click=open>{move || lab.t("share.open")}</button>
                <button data-testid="share-ignore" on:click=ignore>{move || lab.t("share.ignore")}</button>
            </div>
        </Show>
        {move || inc.error.get().map(|e| view! {
            <div class="banner" role="alert" data-testid="share-link-error">
                <p>{move || e.message(lab.lang.get())}</p>
                <button data-testid="share-error-close" on:click=ignore>{move || lab.t("share.close")}</button>
            </div>
        })}
        <Show when=move || inc.kept.get() && !inc.offer.get()>
            <div class="banner kept" role="status" data-testid="share-kept">
                <p>{move || lab.t("share.kept")}</p>
                <button data-testid="share-restore" on:click=restore>{move || lab.t("share.restore")}</button>
                <button data-testid="share-forget" on:click=forget>{move || lab.t("share.forget")}</button>
            </div>
        </Show>
    }
}
