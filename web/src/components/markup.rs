//! The lesson texts' small markup (`streamlab_model::text::markup`) as views: code, strong and
//! emphasis spans, paragraphs and lists. Used by lessons, questions, the exam and presenter mode.

use leptos::prelude::*;
use streamlab_model::text::markup::{blocks, code_pieces, Block, Span};

/// Inline spans as elements.
pub fn render_spans(spans: Vec<Span>) -> impl IntoView {
    spans
        .into_iter()
        .map(|s| match s {
            Span::Text(t) => t.into_any(),
            // A short string literal stays on one line (`.lit`: `'10 minutes'`), so wrapped code
            // reads as written; a long one (an `F.expr('...')` condition) may wrap, or it would
            // run out of a phone's column.
            Span::Code(t) => view! {
                <code>{code_pieces(&t).into_iter().map(|(lit, piece)| if lit && piece.chars().count() <= 24 { view! { <span class="lit">{piece.to_string()}</span> }.into_any() } else { piece.to_string().into_any() }).collect_view()}</code>
            }.into_any(),
            Span::Strong(t) => view! { <strong>{t}</strong> }.into_any(),
            Span::Em(t) => view! { <em>{t}</em> }.into_any(),
        })
        .collect_view()
}

/// Lesson markup as paragraphs and lists.
pub fn render_text(text: &str) -> impl IntoView {
    blocks(text)
        .into_iter()
        .map(|b| match b {
            Block::Para(s) => view! { <p>{render_spans(s)}</p> }.into_any(),
            Block::List(items) => view! { <ul>{items.into_iter().map(|s| view! { <li>{render_spans(s)}</li> }).collect_view()}</ul> }.into_any(),
        })
        .collect_view()
}
