//! The lesson list and every lesson's text as static HTML, from the same data and markup the
//! app renders, for the boot screen: `web/index.html` shows the page the address asks for
//! (`#/lessons`, `#/lesson/<id>`) while the wasm downloads and compiles, so a learner on a slow
//! connection can start reading at once. The files live in `assets/prerendered/` (copied into
//! the build, cached by the service worker); `model/tests/prerender.rs` keeps them equal to what
//! [`files`] renders now (`STREAMLAB_UPDATE_PRERENDER=1` writes them).
//!
//! Native only (not compiled for wasm32): the app itself never needs this code.

use crate::text::i18n::{tr, tr_with};
use crate::study::lesson::{lessons, Lesson};
use crate::text::markup::{blocks, Block, Span};
use crate::text::Lang;

/// `text` with HTML's special characters escaped (for element content and double-quoted
/// attribute values).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn inline(s: &[Span]) -> String {
    s.iter()
        .map(|s| match s {
            Span::Text(t) => escape(t),
            Span::Code(t) => format!("<code>{}</code>", escape(t)),
            Span::Strong(t) => format!("<strong>{}</strong>", escape(t)),
            Span::Em(t) => format!("<em>{}</em>", escape(t)),
        })
        .collect()
}

/// Lesson markup (paragraphs, lists, inline code and emphasis) as HTML.
fn prose(text: &str) -> String {
    blocks(text)
        .iter()
        .map(|b| match b {
            Block::Para(s) => format!("<p>{}</p>\n", inline(s)),
            Block::List(items) => format!("<ul>{}</ul>\n", items.iter().map(|s| format!("<li>{}</li>", inline(s))).collect::<String>()),
        })
        .collect()
}

/// One lesson's text in `lang`: its number, title, text, what to watch and its exam note.
pub fn lesson_html(l: &Lesson, lang: Lang) -> String {
    let t = l.text(lang);
    let mut out = format!(
        "<article class=\"boot-lesson\" lang=\"{}\" data-lesson=\"{}\">\n<p class=\"muted\">{}</p>\n<h2>{}</h2>\n{}",
        lang.code(),
        escape(&l.id),
        escape(&tr_with(lang, "lesson.number", &[("n", &l.number)])),
        escape(&t.title),
        prose(&t.text)
    );
    out.push_str(&format!("<h3>{}</h3>\n{}", escape(tr(lang, "lesson.watch")), prose(&t.watch)));
    if let Some(exam) = &t.exam {
        out.push_str(&format!("<h3>{}</h3>\n{}", escape(tr(lang, "lesson.exam")), prose(exam)));
    }
    out.push_str("</article>\n");
    out
}

/// The lesson list in `lang`: each lesson's number and title, linked to its page.
pub fn lessons_html(all: &[Lesson], lang: Lang) -> String {
    let items: String = all
        .iter()
        .map(|l| format!("<li><a href=\"#/lesson/{}\">{}</a></li>\n", escape(&l.id), escape(&l.text(lang).title)))
        .collect();
    format!("<nav class=\"boot-lesson\" lang=\"{}\">\n<h2>{}</h2>\n<ol>\n{items}</ol>\n</nav>\n", lang.code(), escape(tr(lang, "nav.lessons")))
}

/// The words `web/index.html` shows before the app runs (the loading line, the recovery screen,
/// the new-version bar): `window.streamlabText = {"en": {"boot.loading": …}, "ko": {…}}`, every
/// language's `boot.*` labels, languages in [`Lang::ALL`]'s order.
pub fn boot_text_js() -> String {
    let langs: Vec<String> = Lang::ALL
        .iter()
        .map(|&lang| {
            let labels: serde_json::Map<String, serde_json::Value> = crate::text::i18n::labels_in(lang)
                .filter(|(k, _)| k.starts_with("boot."))
                .map(|(k, text)| (k.to_string(), serde_json::Value::from(text)))
                .collect();
            format!("  {}: {}", serde_json::Value::from(lang.code()), serde_json::Value::Object(labels))
        })
        .collect();
    format!("// Written by model/src/study/prerender.rs from the label tables (model/src/text/).\nwindow.streamlabText = {{\n{}\n}};\n", langs.join(",\n"))
}

/// Every prerendered file: (`lessons.en.html` / `lesson-<id>.ko.html`, its HTML; `boot-text.js`;
/// `questions.json`, the question bank the app fetches, [`crate::study::quiz::bundle`];
/// `study.json`, the lessons, exam lens and glossary it fetches, [`crate::data::bundle`];
/// `tzdb.json`, the time-zone database the app fetches,
/// [`streamlab_engine::types::tzdb::bundle_json`]).
///
/// # Errors
/// The lesson files do not parse.
pub fn files() -> Result<Vec<(String, String)>, String> {
    let all = lessons()?;
    let mut out = Vec::new();
    for lang in Lang::ALL {
        let suffix = lang.code();
        out.push((format!("lessons.{suffix}.html"), lessons_html(&all, lang)));
        for l in &all {
            out.push((format!("lesson-{}.{suffix}.html", l.id), lesson_html(l, lang)));
        }
    }
    out.push(("boot-text.js".to_string(), boot_text_js()));
    out.push(("questions.json".to_string(), crate::study::quiz::bundle()));
    out.push(("study.json".to_string(), crate::data::bundle().to_string()));
    out.push(("tzdb.json".to_string(), streamlab_engine::types::tzdb::bundle_json()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text is escaped and markup becomes elements: worked by hand.
    #[test]
    fn lesson_text_cannot_inject_markup() {
        assert_eq!(prose("a <b> & `x<y` **\"q\"**\n\n- one\n- *two*"), "<p>a &lt;b&gt; &amp; <code>x&lt;y</code> <strong>&quot;q&quot;</strong></p>\n<ul><li>one</li><li><em>two</em></li></ul>\n");
    }
}
