//! What the page keeps in browser storage besides the progress record: the learner's
//! language, and the session, saved as it changes ([`Saver`]). The saving and reading of the
//! session text itself (and setting a broken one aside) is in `crash.rs`.

use leptos::prelude::*;
use streamlab_model::text::Lang;

use crate::Lab;

const LANG_KEY: &str = "streamlab.lang";
/// The learner's lab that an example replaced (`crate::Lab`'s `replaced`): the page it was on,
/// a newline, then the saved session.
const REPLACED_KEY: &str = "streamlab.session.replaced";

/// The lab an example replaced, as kept in storage: (page, saved JSON); None when none is, or
/// storage is off.
pub fn stored_replaced() -> Option<(String, String)> {
    use gloo_storage::Storage;
    let text = gloo_storage::LocalStorage::raw().get_item(REPLACED_KEY).ok().flatten()?;
    text.split_once('\n').map(|(place, json)| (place.to_string(), json.to_string()))
}

/// Keeps `kept` (page, saved JSON) as the lab an example replaced, or forgets it (None).
/// Storage that fails keeps it for this visit only (the page holds it too).
pub fn keep_replaced(kept: Option<&(String, String)>) {
    use gloo_storage::Storage;
    let raw = gloo_storage::LocalStorage::raw();
    let _ = match kept {
        Some((place, json)) => raw.set_item(REPLACED_KEY, &format!("{place}\n{json}")),
        None => raw.remove_item(REPLACED_KEY),
    };
}

/// The language remembered across reloads (English when nothing is stored).
pub fn stored_lang() -> Lang {
    use gloo_storage::Storage;
    gloo_storage::LocalStorage::get::<String>(LANG_KEY).ok().as_deref().and_then(Lang::from_code).or_else(browser_lang).unwrap_or_default()
}

/// On a first visit (no language kept yet): the first of the browser's languages the app has
/// (`ko-KR` is Korean), as `web/index.html`'s loading screen picks it too.
fn browser_lang() -> Option<Lang> {
    let navigator = web_sys::window()?.navigator();
    navigator.languages().iter().filter_map(|v| v.as_string()).find_map(|tag| tag.split('-').next().and_then(Lang::from_code))
}

/// Remembers `lang` for the next visit and puts the page in it: `<html lang>` and the title.
pub fn keep_lang(lang: Lang) {
    use gloo_storage::Storage;
    let _ = gloo_storage::LocalStorage::set(LANG_KEY, lang.code());
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(el) = document.document_element() {
        let _ = el.set_attribute("lang", lang.code());
    }
    document.set_title(&format!("Streamlab: {}", streamlab_model::text::i18n::tr(lang, "app.subtitle")));
}

/// How long the lab waits after a change that follows a save closely before saving again, ms.
const SAVE_QUIET_MS: u32 = 400;

/// The latest a save after a quiet spell waits for the browser to be idle, ms.
const SAVE_IDLE_MS: u32 = 200;

/// Saves the session in browser storage as it changes, without saving it on every step of a
/// dragged slider. A change after a quiet spell is saved as soon as the browser is idle after
/// drawing it (`requestIdleCallback`, within [`SAVE_IDLE_MS`]; at once where there is none),
/// so a crash right after one action loses nothing and the step is on screen before its save
/// runs; changes within [`SAVE_QUIET_MS`] of a save (a slider being dragged, play) are saved
/// once, that long after the last of them. A save still due is done at once if the page is
/// hidden or closed first (`pagehide`, `visibilitychange`). Serialising a 1,000-event session
/// and writing it to storage takes longer than the replay it follows, so saving each slider
/// step would cost more than the step; a 10,000-event session's save took about 14 ms of a
/// step's frame in Chromium.
#[derive(Clone, Copy)]
pub struct Saver {
    lab: Lab,
    /// True while another tab saved over this one's lab: this tab does not save then
    /// (`components::tabs`).
    conflict: RwSignal<bool>,
    /// The trailing save, while one is due.
    due: StoredValue<Option<gloo_timers::callback::Timeout>, LocalStorage>,
    /// True while a save waits for the browser to be idle.
    idle_due: StoredValue<bool>,
    /// When the last save ran (`performance.now()`, ms).
    last: StoredValue<f64>,
}

impl Saver {
    /// The saver of `lab`'s session; `conflict` pauses it.
    pub fn new(lab: Lab, conflict: RwSignal<bool>) -> Saver {
        let saver = Saver { lab, conflict, due: StoredValue::new_local(None), idle_due: StoredValue::new(false), last: StoredValue::new(f64::NEG_INFINITY) };
        saver.flush_when_hidden();
        saver
    }

    /// The session changed: saves it now or soon (see [`Saver`]).
    pub fn changed(self) {
        let quiet = now_ms() - self.last.get_value() >= f64::from(SAVE_QUIET_MS);
        if quiet && self.due.with_value(Option::is_none) {
            self.save_when_idle();
            return;
        }
        // Dropping the timer that was due cancels it: the save waits for the last change.
        let timer = gloo_timers::callback::Timeout::new(SAVE_QUIET_MS, move || {
            self.due.set_value(None);
            self.save();
        });
        self.due.set_value(Some(timer));
    }

    /// Saves once the browser is idle (the save reads the session then, so changes made
    /// meanwhile are in it).
    fn save_when_idle(self) {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        if self.idle_due.get_value() {
            return;
        }
        let Some(window) = web_sys::window() else { return self.save() };
        self.idle_due.set_value(true);
        let run = Closure::once_into_js(move || {
            if self.idle_due.get_value() {
                self.save();
            }
        });
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(SAVE_IDLE_MS);
        if window.request_idle_callback_with_options(run.unchecked_ref(), &options).is_err() {
            self.save();
        }
    }

    /// Saves now (unless another tab's lab is still to be chosen between).
    pub fn save(self) {
        self.idle_due.set_value(false);
        if self.conflict.get_untracked() {
            // The learner has not chosen between this tab's lab and the other's yet.
            return;
        }
        self.last.set_value(now_ms());
        let json = self.lab.read(streamlab_model::lab::session::LabSession::to_saved_json);
        self.lab.save_error.set(crate::crash::save_session(&json).err());
    }

    /// A save still due when the page goes away is done then.
    fn flush_when_hidden(self) {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        let Some(window) = web_sys::window() else { return };
        let flush = Closure::<dyn Fn()>::new(move || {
            if let Some(Some(timer)) = self.due.try_update_value(Option::take) {
                timer.cancel();
                self.save();
            } else if self.idle_due.get_value() {
                self.save();
            }
        });
        for event in ["pagehide", "visibilitychange"] {
            let _ = window.add_event_listener_with_callback(event, flush.as_ref().unchecked_ref());
        }
        // The listener lives as long as the page.
        flush.forget();
    }
}

/// The page's clock (`performance.now()`), ms; 0 where there is none.
pub(crate) fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The text of the site's file at `url` (relative to the page), fetched; offline, the service
/// worker answers from its cache.
///
/// # Errors
/// Why it did not come: the network refused, an HTTP status, or no body.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)).await.map_err(|_| "the network refused the request".to_string())?;
    let response: web_sys::Response = wasm_bindgen::JsCast::dyn_into(response).map_err(|_| "not a response".to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| "no body".to_string())?;
    let text = wasm_bindgen_futures::JsFuture::from(text).await.map_err(|_| "the body did not arrive".to_string())?;
    Ok(text.as_string().unwrap_or_default())
}
