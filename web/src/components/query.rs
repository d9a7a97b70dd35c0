//! The query editor, the output-mode switch and the error box.

use leptos::html::Textarea;
use leptos::prelude::*;

use streamlab_model::lab::session::OutputMode;
use crate::Lab;

/// Query text, mode buttons and Spark's error when the combination is invalid.
#[component]
pub fn QueryPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let editor = NodeRef::<Textarea>::new();
    // Put text changed elsewhere (a preset, the delay control) into the editor, without
    // touching it while the learner types the same text.
    Effect::new(move |_| {
        let text = lab.view.with(|v| v.query_text.clone());
        if let Some(el) = editor.get() {
            if el.value() != text {
                el.set_value(&text);
            }
        }
    });
    let mode_button = move |mode: OutputMode, key: &'static str| output_mode_button(lab, mode, "mode", format!("mode-{}", mode.as_str()), Some(key));
    view! {
        <div class="panel query">
            <h2>{move || lab.t("query")}</h2>
            <p class="help">{move || lab.t("query.help")}</p>
            <textarea node_ref=editor class="query" data-testid="query-editor" rows="6" spellcheck="false"
                aria-label=move || lab.t("query")
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    lab.act(|s| s.set_query(&text));
                }>
            </textarea>
            <div class="modes" role="group" aria-label=move || lab.t("mode")>
                <span class="label">{move || lab.t("mode")}</span>
                {mode_button(OutputMode::Append, "mode.append")}
                {mode_button(OutputMode::Update, "mode.update")}
                {mode_button(OutputMode::Complete, "mode.complete")}
            </div>
            <p class="help mode-help">{move || lab.t(match lab.view.with(|v| v.mode) {
                OutputMode::Append => "mode.append",
                OutputMode::Update => "mode.update",
                OutputMode::Complete => "mode.complete",
            })}</p>
            {move || lab.view.with(|v| v.mode_set_in_query).then(|| view! {
                <p class="help" data-testid="mode-in-query">{move || lab.text_mode_note()}</p>
            })}
            {move || lab.view.with(|v| v.reads.clone()).into_iter().map(|r| view! { <ReadNote read=r/> }).collect_view()}
            // foreachBatch(f) / foreach(writer): what the lab does with the learner's function.
            {move || lab.view.with(|v| v.not_run.clone()).into_iter().map(|(call, function)| view! {
                <p class="help read-note" data-testid="not-run-note">{move || lab.t_with("not_run.note", &[("call", &call), ("function", &function)])}</p>
            }).collect_view()}
            // What the program's print(...) calls wrote, as a terminal would show it: its lines
            // unwrapped (printSchema()'s tree keeps its shape; the box scrolls), the lab's notes
            // in it (in brackets) in the learner's language and wrapped.
            {move || {
                let lang = lab.lang.get();
                let printed = lab.view.with(|v| v.printed.clone());
                (!printed.is_empty()).then(|| {
                    let lines = printed.into_iter().enumerate().map(|(i, l)| {
                        let sep = if i > 0 { "\n" } else { "" };
                        if l.starts_with("(the memory sink's table") || l.starts_with("(explain():") || l.starts_with("(awaitTermination():") {
                            view! { {sep}<span class="note">{streamlab_model::text::i18n::localize(lang, &l)}</span> }.into_any()
                        } else {
                            view! { {sep}{l} }.into_any()
                        }
                    }).collect_view();
                    view! {
                        <div class="printed">
                            <span class="label">{lab.t("printed")}</span>
                            <pre data-testid="program-output">{lines}</pre>
                            <p class="help">{lab.t("printed.when")}</p>
                        </div>
                    }
                })
            }}
            <ErrorBox/>
        </div>
    }
}

/// A reader call of the text (`spark.readStream.format("rate").load()`) that reads one of the
/// lab's streams: which stream, its kind and columns, and the source kind to pick for the
/// format the call names (or that the lab has none).
#[component]
fn ReadNote(read: streamlab_model::lab::session::ReadView) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let kind_key = |kind: &str| match kind {
        "file" => "src.file",
        "socket" => "src.socket",
        "kafka" => "src.kafka",
        "rate" => "src.rate",
        _ => "src.memory",
    };
    move || {
        let r = &read;
        let columns = r.columns.join(", ");
        let first = lab.t_with("read.note", &[("call", &r.call), ("stream", &r.stream), ("kind", &r.stream_kind), ("columns", &columns)]);
        let mut then = match r.kind {
            Some(k) if k == r.stream_kind => String::new(),
            Some(k) => lab.t_with("read.pick", &[("format", &r.format), ("choice", &lab.t(kind_key(k))), ("stream", &r.stream)]),
            None => lab.t_with("read.none", &[("format", &r.format), ("stream", &r.stream)]),
        };
        if r.schema_given {
            then = format!("{then} {}", lab.t("read.schema")).trim_start().to_string();
        }
        if !r.options_not_applied.is_empty() {
            let code = r.options_not_applied.iter().map(|(k, v, _)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
            let ours = r.options_not_applied.iter().map(|(k, _, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
            then = format!("{then} {}", lab.t_with("read.options", &[("code", &code), ("lab", &ours)])).trim_start().to_string();
        }
        // An example whose stream is this kind of source as Spark reads it: the code runs
        // there as written (the learner's lab is kept for Step back).
        let example = r.example.map(|id| {
            let name = streamlab_model::lab::presets::preset_info(id).map(|i| i.name(lab.lang.get()).to_string()).unwrap_or_else(|| id.to_string());
            let label = lab.t_with("read.example", &[("name", &name)]);
            let run_there = move |_| {
                let Some(scenario) = streamlab_model::lab::presets::preset(id) else { return };
                let text = lab.view.with_untracked(|v| v.query_text.clone());
                lab.replace(streamlab_model::lab::session::LabSession::from_scenario(scenario));
                lab.act(|s| s.set_query(&text));
            };
            view! { <button data-testid="read-example" on:click=run_there>{label}</button> }
        });
        view! { <p class="help read-note" data-testid="source-read-note" data-format=r.format.clone()>{first}" "{then}" "{example}</p> }
    }
}

/// Spark's error for the current query, if any.
#[component]
fn ErrorBox() -> impl IntoView {
    let lab = expect_context::<Lab>();
    move || {
        lab.view.with(|v| v.error.clone()).map(|e| {
            let at = e.position.map(|(line, col)| {
                lab.t_with("error.at", &[("line", &line), ("col", &col)])
            });
            let snippet = e.span.map(|(a, b)| {
                // The lines around the error (two each side), not the whole pasted program.
                let (pre, mid, post) = lab.view.with(|v| streamlab_model::lab::session::error_excerpt(&v.query_text, a, b, 2));
                view! { <pre class="snippet">{pre}<mark>{if mid.is_empty() { " ".to_string() } else { mid }}</mark>{post}</pre> }
            });
            view! {
                <div class="error" role="alert" data-testid="query-error">
                    <div class="error-head">
                        <strong>{streamlab_model::text::i18n::localize(lab.lang.get(), &e.kind)}</strong>
                        {e.error_class.clone().map(|c| view! { <code class="class">{c}</code> })}
                        {at.map(|a| view! { <span class="at">{a}</span> })}
                    </div>
                    <pre class="message">{streamlab_model::text::i18n::localize(lab.lang.get(), &e.message)}</pre>
                    {snippet}
                    {e.hint.clone().map(|h| view! { <p class="hint"><strong>{lab.t("error.hint")}": "</strong>{streamlab_model::text::i18n::localize(lab.lang.get(), &h)}</p> })}
                </div>
            }
        })
    }
}

/// A button that sets the output mode to `mode`, pressed while it is the lab's (`class`, its
/// `data-testid`, and the label key of its tooltip): the query panel's and presenter mode's.
/// The text's `.outputMode(...)` wins (as in Spark): while it sets the mode, the buttons show
/// it and wait.
pub fn output_mode_button(lab: Lab, mode: OutputMode, class: &'static str, testid: String, title: Option<&'static str>) -> impl IntoView {
    let pressed = move || lab.view.with(|v| v.mode == mode);
    view! {
        <button class=class class:active=pressed
            data-testid=testid
            aria-pressed=move || pressed().to_string()
            disabled=move || lab.view.with(|v| v.mode_set_in_query)
            title=move || title.map(|k| lab.t(k))
            on:click=move |_| lab.act(|s| s.set_mode(mode))>
            {mode.as_str()}
        </button>
    }
}
