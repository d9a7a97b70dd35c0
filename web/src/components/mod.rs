//! The page's panels. Each reads the [`Lab`] context and reports what the learner does
//! through `Lab::act`; none calls the engine directly.

mod controls;
mod progress_import;
mod query;
mod quiz_panel;
mod recovery;
mod results;
mod scenario_io;

use leptos::prelude::*;

use crate::quiz::Lang;
use crate::Lab;

const LANG_KEY: &str = "streamlab.lang";
const SESSION_KEY: &str = "streamlab.session.v1";

/// The session saved in browser storage, if any.
pub fn stored_session() -> Option<String> {
    use gloo_storage::Storage;
    gloo_storage::LocalStorage::get::<String>(SESSION_KEY).ok()
}

/// The language remembered across reloads (English when nothing is stored).
pub fn stored_lang() -> Lang {
    use gloo_storage::Storage;
    match gloo_storage::LocalStorage::get::<String>(LANG_KEY).ok().as_deref() {
        Some("ko") => Lang::Ko,
        _ => Lang::En,
    }
}

fn set_document_lang(lang: Lang) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = el.set_attribute("lang", if lang == Lang::Ko { "ko" } else { "en" });
    }
}

/// The page layout.
#[component]
pub fn App() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // Sync the language with storage and `<html lang>` (the outside world).
    Effect::new(move |_| {
        use gloo_storage::Storage;
        let lang = lab.lang.get();
        let _ = gloo_storage::LocalStorage::set(LANG_KEY, if lang == Lang::Ko { "ko" } else { "en" });
        set_document_lang(lang);
    });
    // Save the session after every change (browser storage is the lab's checkpoint store).
    Effect::new(move |_| {
        use gloo_storage::Storage;
        lab.view.track();
        let json = lab.read(crate::session::Session::to_saved_json);
        let _ = gloo_storage::LocalStorage::set(SESSION_KEY, json);
    });
    view! {
        <header class="topbar">
            <div class="brand">
                <h1>"Streamlab"</h1>
                <p class="subtitle">{move || lab.t("app.subtitle")}</p>
            </div>
            <scenario_io::PresetPicker/>
            <button class="lang" data-testid="lang-toggle"
                on:click=move |_| lab.lang.update(|l| *l = if *l == Lang::Ko { Lang::En } else { Lang::Ko })>
                {move || lab.t("lang.switch")}
            </button>
        </header>
        <main class="lab">
            <section class="col col-left">
                <query::QueryPanel/>
                <controls::WatermarkPanel/>
                <controls::InputPanel/>
                <controls::RunPanel/>
            </section>
            <section class="col col-mid">
                <results::BatchList/>
                <results::SinkPanel/>
                <recovery::RecoveryPanel/>
            </section>
            <section class="col col-right">
                <results::StatePanel/>
                <results::MetricsPanel/>
                <quiz_panel::QuizPanel/>
                <scenario_io::ScenarioPanel/>
                <progress_import::ProgressImportPanel/>
            </section>
        </main>
    }
}
