//! Keeps a crash from killing the lab for good.
//!
//! The release build aborts on panic (`panic = "abort"`): nothing unwinds, the wasm instance
//! is dead afterwards, and a stack overflow is a trap, not a panic at all. So the recovery
//! screen is plain DOM built by `streamlabCrash` in `web/index.html`, which the panic hook
//! here calls (before the abort) and which the page's `error` listener calls on any
//! WebAssembly trap. The screen keeps the learner's query text and offers to reload the last
//! saved session or to start over.
//!
//! A saved session that crashes the page while it is replayed must not crash every later
//! load: [`begin_boot`] marks the load, [`finish_boot`] clears the mark once the page is up,
//! and a load that finds the mark still set (or a crash during the load, handled by
//! `streamlabCrash`) sets the saved session aside under [`SET_ASIDE_KEY`] instead of replaying
//! it. The lab then starts fresh and says so ([`set_aside_notice`]).

use wasm_bindgen::JsValue;

/// Browser storage key of the saved session (JSON text, stored as a JSON string by gloo).
pub const SESSION_KEY: &str = "streamlab.session.v1";
/// Set while the page loads; cleared by [`finish_boot`].
pub const BOOT_KEY: &str = "streamlab.boot";
/// A saved session that was set aside (same format as [`SESSION_KEY`]).
pub const SET_ASIDE_KEY: &str = "streamlab.session.set-aside";
/// Why the session under [`SET_ASIDE_KEY`] was set aside (plain text).
pub const SET_ASIDE_REASON_KEY: &str = "streamlab.session.set-aside.reason";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// Installs the panic hook: the message goes to the console (`console_error_panic_hook`),
/// then `streamlabCrash(message)` shows the recovery screen.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash_screen(&info.to_string());
    }));
}

/// Shows the recovery screen (`streamlabCrash` in `index.html`), or, if the page has no such
/// function, replaces the body's text with the message.
pub fn show_crash_screen(message: &str) {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else { return };
    let f = js_sys::Reflect::get(&window, &JsValue::from_str("streamlabCrash")).ok();
    match f.and_then(|f| f.dyn_into::<js_sys::Function>().ok()) {
        Some(f) => {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(message));
        }
        None => {
            if let Some(body) = window.document().and_then(|d| d.body()) {
                body.set_text_content(Some(&format!("Streamlab stopped: {message}. Reload the page to start again.")));
            }
        }
    }
}

/// The saved session's text, if any; a stored value that is not the JSON string gloo wrote is
/// set aside (and reported by [`set_aside_notice`]).
pub fn stored_session() -> Option<String> {
    let raw = storage()?.get_item(SESSION_KEY).ok().flatten()?;
    match serde_json::from_str::<String>(&raw) {
        Ok(text) => Some(text),
        Err(e) => {
            set_aside(&format!("the stored text is not a saved session ({e})"));
            None
        }
    }
}

/// Moves the saved session aside with a reason; the next load starts fresh.
pub fn set_aside(reason: &str) {
    let Some(s) = storage() else { return };
    if let Ok(Some(saved)) = s.get_item(SESSION_KEY) {
        let _ = s.set_item(SET_ASIDE_KEY, &saved);
        let _ = s.set_item(SET_ASIDE_REASON_KEY, reason);
    }
    let _ = s.remove_item(SESSION_KEY);
}

/// Marks the start of a load. If the previous load never finished (the tab was closed while
/// the saved session replayed, or it died in a way nothing could catch), the saved session is
/// set aside first.
pub fn begin_boot() {
    let Some(s) = storage() else { return };
    if matches!(s.get_item(BOOT_KEY), Ok(Some(_))) {
        set_aside("the lab did not finish loading this session last time");
    }
    let _ = s.set_item(BOOT_KEY, "loading");
}

/// Marks the load as finished (called once the page is mounted and has settled).
pub fn finish_boot() {
    if let Some(s) = storage() {
        let _ = s.remove_item(BOOT_KEY);
    }
}

/// Why a saved session is set aside, if one is.
pub fn set_aside_notice() -> Option<String> {
    let s = storage()?;
    s.get_item(SET_ASIDE_KEY).ok().flatten()?;
    Some(s.get_item(SET_ASIDE_REASON_KEY).ok().flatten().unwrap_or_else(|| "it could not be loaded".into()))
}

/// Puts the set-aside session back as the saved session (the caller reloads the page).
pub fn restore_set_aside() {
    let Some(s) = storage() else { return };
    if let Ok(Some(saved)) = s.get_item(SET_ASIDE_KEY) {
        let _ = s.set_item(SESSION_KEY, &saved);
    }
    discard_set_aside();
}

/// Forgets the set-aside session.
pub fn discard_set_aside() {
    if let Some(s) = storage() {
        let _ = s.remove_item(SET_ASIDE_KEY);
        let _ = s.remove_item(SET_ASIDE_REASON_KEY);
    }
}

/// Saves the session text; says why when the browser refuses (storage full or disabled).
///
/// # Errors
/// A message for the page, naming the size of what could not be saved.
pub fn save_session(json: &str) -> Result<(), String> {
    use gloo_storage::Storage;
    gloo_storage::LocalStorage::set(SESSION_KEY, json).map_err(|e| {
        format!(
            "this session ({} KB) could not be saved in the browser ({e}); it stays open in this tab, but a reload would bring back the last session that was saved: save it as a file to keep it",
            json.len().div_ceil(1024)
        )
    })
}
