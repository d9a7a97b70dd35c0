//! The time picture: event time across, micro-batches up, each input row a mark shaped and
//! coloured by its fate, the watermark as a staircase, windows as bars (issue 7 §2). Drawn on
//! a canvas with plotters once per change; an overlay of buttons over the marks gives mouse
//! and keyboard users the card with each row's fate and rule. The narration of the selected
//! (or last) batch sits under it.

use leptos::prelude::*;

use super::picture_draw::{draw, Geom};
use crate::picture::{fate_text, kind_id, narrate, Mark, Picture};
use crate::quiz::Lang;
use crate::Lab;

/// The current picture and its version.
#[derive(Clone, Copy)]
struct Pic {
    store: StoredValue<Picture, LocalStorage>,
    version: RwSignal<u64>,
}

impl Pic {
    fn with<R>(&self, f: impl FnOnce(&Picture) -> R) -> R {
        self.version.track();
        self.store.with_value(f)
    }

    fn with_untracked<R>(&self, f: impl FnOnce(&Picture) -> R) -> R {
        self.store.with_value(f)
    }
}

/// The picture, its legend, the overlay of marks and the card of the focused one.
#[component]
pub fn TimePicture() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // The picture holds engine rows (not `Send`), so it lives in local storage and a version
    // signal says when it changed (rebuilt once per change of the view).
    let picture = Pic { store: StoredValue::new_local(Picture::default()), version: RwSignal::new(0) };
    Effect::new(move |_| {
        // The picture follows the batch slider: as of the selected batch, else live.
        lab.view.track();
        let sel = lab.selected_batch.get();
        picture.store.set_value(lab.read(|s| match sel {
            Some(id) => s.picture_as_of(id),
            None => s.picture(),
        }));
        picture.version.update(|v| *v += 1);
    });
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let geom = RwSignal::new(None::<Geom>);
    let focused = RwSignal::new(None::<(usize, usize)>);
    let highlight = RwSignal::new(None::<usize>);
    let selected_band = move || {
        let sel = lab.selected_batch.get();
        picture.with(|p| match sel {
            Some(id) => p.bands.iter().position(|b| b.batch_id == id),
            None => p.bands.len().checked_sub(1),
        })
    };
    // The canvas's width in CSS px, measured when it is mounted and when the window is
    // resized, never while drawing: reading a layout value right after the page changed
    // forces the browser to lay out the whole page again, which cost more than the replay.
    let width = RwSignal::new(0);
    let measure = move || {
        if let Some(c) = canvas.get_untracked() {
            width.set(c.client_width());
        }
    };
    Effect::new(move |_| {
        if canvas.get().is_some() && width.get_untracked() == 0 {
            measure();
        }
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    // Draw once per change of the picture, the selection, the highlight, the width or the
    // language.
    Effect::new(move |_| {
        let (sel, hl, lang, w) = (selected_band(), highlight.get(), lab.lang.get(), width.get());
        let Some(c) = canvas.get() else { return };
        // Not measured yet (the canvas was hidden when mounted): measure now.
        let w = if w > 0 { w } else { c.client_width() };
        picture.with(|p| {
            let g = Geom::new(p, w);
            c.set_width(g.width as u32);
            c.set_height(g.height as u32);
            draw(c.clone(), p, &g, sel, hl, lang);
            geom.set(Some(g));
        });
    });
    let summary = move || picture.with(|p| summary(p, lab.lang.get()));
    view! {
        <div class="panel time-picture" data-testid="time-picture">
            <h2>{move || lab.t("picture")}</h2>
            <Legend/>
            <div class="tp-wrap">
                <canvas node_ref=canvas role="img" aria-label=summary data-testid="picture-canvas"></canvas>
                {move || geom.get().map(|g| view! { <Overlay picture=picture geom=g focused=focused highlight=highlight/> })}
            </div>
            <details class="help picture-help"><summary>{move || lab.t("picture.help.summary")}</summary>{move || lab.t("picture.help")}</details>
            <p class="tp-narration" data-testid="picture-narration" aria-live="polite">{move || {
                let lang = lab.lang.get();
                let i = selected_band()?;
                picture.with(|p| {
                    let next = p.bands.get(i + 1).and_then(|n| n.watermark_ms).or(p.next_watermark_ms);
                    p.bands.get(i).map(|b| narrate(b, next, lang, p.day_us))
                })
            }}</p>
        </div>
    }
}

/// "Time picture: 9 micro-batches, 10 rows (8 kept, 2 late); watermark now 09:25."
fn summary(p: &Picture, lang: Lang) -> String {
    use crate::session::FateKind::*;
    let ko = lang == Lang::Ko;
    let counts: Vec<String> = [Kept, Late, Filtered, Deduplicated, Joined]
        .into_iter()
        .filter(|k| p.count(*k) > 0)
        .map(|k| format!("{} {}", crate::i18n::tr(lang, legend_key(kind_id(Some(k)))), p.count(k)))
        .collect();
    let rows = p.marks().filter(|(_, m)| m.band.is_some()).count();
    let wm = p.next_watermark_ms.map(|w| crate::session::display_time(w * 1000, p.day_us));
    if ko {
        format!("시간 그림: 마이크로 배치 {}개, 행 {rows}개 ({}){}", p.bands.len(), counts.join(", "), wm.map(|w| format!("; 현재 워터마크 {w}")).unwrap_or_default())
    } else {
        format!("Time picture: {} micro-batches, {rows} rows ({}){}", p.bands.len(), counts.join(", "), wm.map(|w| format!("; watermark now {w}")).unwrap_or_default())
    }
}

fn legend_key(kind: &str) -> &'static str {
    match kind {
        "kept" => "fate.kept",
        "late" => "fate.late",
        "filtered" => "fate.filtered",
        "deduplicated" => "fate.deduplicated",
        "joined" => "fate.joined",
        _ => "fate.pending",
    }
}

#[component]
fn Legend() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let items = [("kept", "●"), ("late", "✕"), ("filtered", "□"), ("deduplicated", "◆"), ("joined", "▲"), ("pending", "○")];
    let bars = [("open", "picture.win.open"), ("updated", "picture.win.updated"), ("closing", "picture.win.closing"), ("emitted", "picture.win.emitted"), ("evicted", "picture.win.evicted")];
    view! {
        <ul class="tp-legend" data-testid="picture-legend">
            {items.into_iter().map(|(k, sym)| view! {
                <li><span class=format!("tp-sym tp-{k}") aria-hidden="true">{sym}</span>{move || lab.t(legend_key(k))}</li>
            }).collect_view()}
            <li><span class="tp-sym tp-wm" aria-hidden="true">"┘"</span>{move || lab.t("picture.wm")}</li>
            {bars.into_iter().map(|(k, key)| view! {
                <li><span class=format!("tp-bar tp-bar-{k}") aria-hidden="true"></span>{move || lab.t(key)}</li>
            }).collect_view()}
        </ul>
    }
}

/// Buttons over the marks (hover or focus shows the card; a late one highlights its
/// watermark step) and, under each lane, the axis strip that adds an event where clicked.
#[component]
fn Overlay(picture: Pic, geom: Geom, focused: RwSignal<Option<(usize, usize)>>, highlight: RwSignal<Option<usize>>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let g = geom.clone();
    let (marks, lanes): (Vec<(usize, usize, Mark)>, Vec<String>) = picture.with_untracked(|p| {
        (p.lanes.iter().enumerate().flat_map(|(li, l)| l.marks.iter().enumerate().map(move |(mi, m)| (li, mi, m.clone()))).collect(), p.lanes.iter().map(|l| l.source.clone()).collect())
    });
    let r = g.mark_r + 2;
    // The buttons carry no listeners of their own: the overlay listens once for all of them
    // (events bubble to it) and reads which mark from `data-mark`. A thousand marks with five
    // listeners each cost more to attach and detach on every change than the replay did.
    let buttons = marks
        .into_iter()
        .filter_map(|(li, mi, m)| {
            let t = m.event_time_us?;
            let (x, y) = (g.x(li, t), g.mark_y(m.band, m.slot));
            let style = format!("left:{}px;top:{}px;width:{}px;height:{}px", x - r, y - r, 2 * r, 2 * r);
            let late_band = m.late_band;
            let label = m.cells.iter().map(|(c, v)| format!("{c}={v}")).collect::<Vec<_>>().join(", ");
            Some(view! {
                <button class="tp-mark" style=style data-testid="picture-mark" data-fate=kind_id(m.kind)
                    data-mark=format!("{li}:{mi}") data-late-band=late_band.map(|b| b.to_string())
                    data-band=m.band.map(|b| b.to_string()).unwrap_or_default() aria-label=label
                    aria-pressed=late_band.map(|lb| move || (highlight.get() == Some(lb)).to_string())>
                </button>
            })
        })
        .collect_view();
    let axes = lanes
        .into_iter()
        .enumerate()
        .map(|(li, source)| {
            let ((x0, x1), _) = g.lanes[li];
            let style = format!("left:{x0}px;width:{}px;top:{}px;height:26px", x1 - x0, g.bands_bottom);
            let gg = g.clone();
            view! {
                <div class="tp-axis" style=style data-testid="picture-axis" data-source=source.clone() title=move || lab.t("picture.axis")
                    on:click=move |ev| {
                        let t = gg.time_at(li, x0 + ev.offset_x());
                        let r = lab.act(|s| s.add_event_at(&source, t));
                        lab.notice.set(r.err());
                    }>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="tp-overlay" style=format!("width:{}px;height:{}px", g.width, g.height)
            on:mouseover=move |ev| focused.set(mark_of(&ev))
            on:focusin=move |ev| focused.set(mark_of(&ev))
            on:mouseout=move |_| focused.set(None) on:focusout=move |_| focused.set(None)
            on:click=move |ev| {
                let late_band = event_element(&ev).and_then(|e| e.get_attribute("data-late-band")).and_then(|b| b.parse::<usize>().ok());
                if late_band.is_some() {
                    highlight.update(|h| *h = if *h == late_band { None } else { late_band });
                }
            }>
            {buttons}
            {axes}
            {move || focused.get().and_then(|(li, mi)| picture.with(|p| {
                let m = p.lanes.get(li)?.marks.get(mi)?.clone();
                let batch_id = m.band.and_then(|b| p.bands.get(b)).map(|b| b.batch_id);
                Some(card(&m, batch_id, &geom, li, p.day_us, lab))
            }))}
        </div>
    }
}

/// The element an overlay event happened on.
fn event_element(ev: &web_sys::Event) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    ev.target()?.dyn_into::<web_sys::Element>().ok()
}

/// The (lane, mark) of the mark button an overlay event happened on, from its `data-mark`.
fn mark_of(ev: &web_sys::Event) -> Option<(usize, usize)> {
    let id = event_element(ev)?.get_attribute("data-mark")?;
    let (li, mi) = id.split_once(':')?;
    Some((li.parse().ok()?, mi.parse().ok()?))
}

/// The card of one mark: its cells, its fates with their rules, in the chosen language.
fn card(m: &Mark, batch_id: Option<u64>, g: &Geom, lane: usize, day_us: i64, lab: Lab) -> impl IntoView {
    let lang = lab.lang.get_untracked();
    let x = m.event_time_us.map_or(0, |t| g.x(lane, t));
    let y = g.mark_y(m.band, m.slot);
    // Opens to the side with more room, above the mark when it sits low.
    let left = if x > g.width / 2 { format!("right:{}px", g.width - x + 8) } else { format!("left:{}px", x + 8) };
    let top = if y > g.height / 2 { format!("bottom:{}px", g.height - y + 8) } else { format!("top:{}px", y + 8) };
    let fates: Vec<String> = if m.fates.is_empty() {
        vec![crate::i18n::tr(lang, if m.band.is_none() { "picture.card.pending" } else { "picture.card.nofate" }).to_string()]
    } else {
        m.fates.iter().map(|f| fate_text(f, lang, day_us)).collect()
    };
    view! {
        <div class="tp-card" role="tooltip" data-testid="picture-card" style=format!("{left};{top}")>
            <p class="tp-card-row">{m.cells.iter().map(|(c, v)| format!("{c}: {v}")).collect::<Vec<_>>().join(" · ")}</p>
            <ul>{fates.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul>
            {batch_id.map(|id| view! { <p class="muted">{lab.t("picture.card.batch")}" "{id}</p> })}
        </div>
    }
}
