//! Presets, and opening/saving scenarios in the conformance format.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use streamlab_model::lab::presets;
use streamlab_model::lab::session::{LabSession, Scenario};
use streamlab_model::text::Text;
use crate::Lab;

/// Replaces the lab's session with one over `scenario` JSON text or a preset.
fn load(lab: Lab, session: LabSession) {
    lab.replace(session);
}

/// Loads a scenario into the lab (used by presets, the scenario box and quiz "try it").
pub fn load_scenario(lab: Lab, scenario: Scenario) {
    load(lab, LabSession::from_scenario(scenario));
}

/// The preset picker.
#[component]
pub fn PresetPicker() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // Each preset by its short name, the one questions and lessons use ("Classic sliding windows").
    // A language without a short name shows the English one, then the title.
    let presets: Vec<(String, Text)> = presets::presets()
        .into_iter()
        .map(|(id, _)| {
            let info = presets::preset_info(id).unwrap_or_default();
            let fallback = if info.name.en.is_empty() { info.title.en.clone() } else { info.name.en.clone() };
            let name = info.name.map(|_, n| if n.is_empty() { fallback.clone() } else { n.clone() });
            (id.to_string(), name)
        })
        .collect();
    let current = move || lab.view.with(|_| lab.read(|s| s.scenario().id.clone()));
    let ids: Vec<String> = presets.iter().map(|(id, _)| id.clone()).collect();
    // A scenario the learner opened (not a preset) is named first, so the picker does not
    // keep showing the preset it replaced.
    let own = move || {
        let id = current();
        (!ids.contains(&id)).then(|| lab.read(|s| if s.scenario().title.is_empty() { id.clone() } else { s.scenario().title.clone() }))
    };
    view! {
        <label class="preset">
            <span>{move || lab.t("preset")}</span>
            // Named on its own too: presenter mode hides the label's text.
            <select data-testid="preset-select" aria-label=move || lab.t("preset") on:change=move |ev| {
                let id = event_target_value(&ev);
                if let Some(s) = presets::preset(&id) {
                    load_scenario(lab, s);
                }
            }>
                {move || own().map(|title| view! {
                    <option value="" selected=true data-testid="preset-own">{lab.t_with("preset.own", &[("title", &title)])}</option>
                })}
                {presets.into_iter().map(|(id, name)| {
                    let id2 = id.clone();
                    let label = move || name.get(lab.lang.get()).clone();
                    view! { <option value=id selected=move || current() == id2>{label}</option> }
                }).collect_view()}
            </select>
        </label>
    }
}

/// Offers `text` as a file download named `name` with MIME type `mime`.
fn download(name: &str, mime: &str, text: &str) -> Result<(), wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

/// Downloads the lab as a scenario file (`<id>.json`, what Save writes and Open reads back).
pub fn save_as_file(lab: Lab) {
    let scenario = lab.read(LabSession::to_scenario);
    let name = format!("{}.json", if scenario.id.is_empty() { "streamlab-session" } else { scenario.id.as_str() });
    if let Err(e) = download(&name, "application/json", &scenario.to_json()) {
        lab.notice.set(Some(format!("{e:?}")));
    }
}

/// Paste a scenario to open it; save this session as a scenario.
#[component]
pub fn ScenarioPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let open = move |_| match LabSession::from_json(&text.get_untracked()) {
        Ok(s) => {
            error.set(None);
            // Values Spark's JSON reader turns into NULL are kept as NULL; say which.
            let notes = s.input_notes();
            load(lab, s);
            if !notes.is_empty() {
                lab.notice.set(Some(notes.join("; ")));
            }
        }
        Err(e) => error.set(Some(e)),
    };
    let save = move |_| {
        let scenario = lab.read(LabSession::to_scenario);
        let name = format!("{}.json", if scenario.id.is_empty() { "streamlab-session" } else { scenario.id.as_str() });
        if download(&name, "application/json", &scenario.to_json()).is_err() {
            text.set(scenario.to_json());
        }
    };
    // The same session as a PySpark script: the path from the lab to real Spark.
    let export = move |_| match lab.read(LabSession::to_pyspark) {
        Ok((name, script)) => {
            error.set(None);
            if download(&name, "text/x-python", &script).is_err() {
                text.set(script);
            }
        }
        Err(e) => error.set(Some(e)),
    };
    // ... and as a notebook, one cell per step (Jupyter, or Databricks' source format).
    let notebook = move |databricks: bool| match lab.read(|s| s.to_notebook(databricks)) {
        Ok((name, text_out)) => {
            error.set(None);
            let mime = if databricks { "text/x-python" } else { "application/x-ipynb+json" };
            if download(&name, mime, &text_out).is_err() {
                text.set(text_out);
            }
        }
        Err(e) => error.set(Some(e)),
    };
    view! {
        <details class="panel scenario">
            <summary><h2>{move || lab.t("scenario")}</h2></summary>
            <p class="help">{move || lab.t("scenario.help")}</p>
            <textarea data-testid="scenario-json" rows="5" spellcheck="false" prop:value=move || text.get()
                aria-label=move || lab.t("scenario")
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <div class="buttons">
                <button data-testid="open-scenario" on:click=open>{move || lab.t("scenario.open")}</button>
                <button data-testid="save-scenario" on:click=save>{move || lab.t("scenario.save")}</button>
                <button data-testid="export-pyspark" on:click=export title=move || lab.t("scenario.export.help")>
                    {move || lab.t("scenario.export")}
                </button>
                <button data-testid="export-ipynb" on:click=move |_| notebook(false) title=move || lab.t("scenario.export.ipynb.help")>
                    {move || lab.t("scenario.export.ipynb")}
                </button>
                <button data-testid="export-databricks" on:click=move |_| notebook(true) title=move || lab.t("scenario.export.databricks.help")>
                    {move || lab.t("scenario.export.databricks")}
                </button>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </details>
    }
}

/// The current preset's "what to watch" notes, in the page's language (hidden for a
/// scenario that is no preset).
#[component]
pub fn PresetNotes() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // Only a new scenario re-renders the notes (so a learner's open/closed choice stays).
    let id = Memo::new(move |_| {
        lab.view.track();
        lab.read(|s| s.scenario().id.clone())
    });
    // The notes tell what the example's own query does: once the learner's query is another,
    // they say so and fold away (a click opens them).
    let own = Memo::new(move |_| {
        lab.view.track();
        lab.read(|s| s.query_text().trim() != s.scenario().query.trim())
    });
    let info = move || presets::preset_info(&id.get());
    move || {
        info().map(|i| {
            let lang = lab.lang.get();
            view! {
                <details class="panel preset-notes" open=move || !own.get() data-testid="preset-notes">
                    <summary><h2>{lab.t("preset.watch")}": "{i.name(lang).to_string()}</h2></summary>
                    {move || own.get().then(|| view! { <p class="help" data-testid="preset-notes-own">{lab.t("preset.notes_own")}</p> })}
                    <p>{i.notes(lang).to_string()}</p>
                </details>
            }
        })
    }
}
