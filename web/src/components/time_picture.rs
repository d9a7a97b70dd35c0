//! The time picture: event time across, micro-batches up, each input row a mark shaped and
//! coloured by its fate, the watermark as a staircase, windows as bars. Drawn on
//! a canvas with plotters once per change; an overlay of buttons over the marks gives mouse
//! and keyboard users the card with each row's fate and rule. The narration of the selected
//! (or last) batch sits under it.

use leptos::prelude::*;

use super::picture_draw::{draw, Geom, Scale, DENSE_MARKS};
use streamlab_model::lab::picture::{fate_text, key_step, kind_id, narrate, snap, snap_step, step_from, KeyColumns, Mark, Picture};
use streamlab_model::text::Lang;
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

/// The smallest label in presenter mode, px: legible from the back of a room at 1280×720.
const PRESENTER_MIN_FONT: f64 = 16.0;

/// The picture, its legend, the overlay of marks and the card of the focused one.
#[component]
pub fn TimePicture() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // The picture holds engine rows (not `Send`), so it lives in local storage and a version
    // signal says when it changed (rebuilt once per change of the view).
    let picture = Pic { store: StoredValue::new_local(Picture::default()), version: RwSignal::new(0) };
    let highlight = RwSignal::new(None::<usize>);
    Effect::new(move |_| {
        // The picture follows the batch slider: as of the selected batch, else live; and every
        // change of the session (a row moved inside its batch may change no panel).
        lab.track_session();
        let sel = lab.selected_batch.get();
        let p = lab.read(|s| match sel {
            Some(id) => s.picture_as_of(id),
            None => s.picture(),
        });
        // A highlighted watermark step stays only while a late mark still points at it (a
        // drag can make the late row on time).
        if let Some(h) = highlight.get_untracked() {
            if !p.marks().any(|(_, m)| m.late_band == Some(h)) {
                highlight.set(None);
            }
        }
        picture.store.set_value(p);
        picture.version.update(|v| *v += 1);
    });
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let geom = RwSignal::new(None::<Geom>);
    let focused = RwSignal::new(None::<(usize, usize)>);
    let selected_band = move || {
        let sel = lab.selected_batch.get();
        picture.with(|p| match sel {
            Some(id) => p.bands.iter().position(|b| b.batch_id == id),
            None => p.bands.len().checked_sub(1),
        })
    };
    // The width the picture has (its box's, in CSS px), measured when it is mounted and after
    // a window resize (at most once a frame), never while drawing: reading a layout value
    // right after the page changed forces the browser to lay out the whole page again, which
    // cost more than the replay.
    // In presenter mode the height too: the picture fills its panel (labels ≥ 16 px).
    let presenting = use_context::<super::context::Presenter>().map(|p| p.on);
    let width = RwSignal::new(0i32);
    let height = RwSignal::new(0i32);
    let box_width = |c: &web_sys::HtmlCanvasElement| c.parent_element().map_or(0, |p| p.client_width());
    let box_height = |c: &web_sys::HtmlCanvasElement| c.parent_element().map_or(0, |p| p.client_height());
    let measure = move || {
        let Some(c) = canvas.get_untracked() else { return };
        let w = box_width(&c);
        if w != width.get_untracked() {
            width.set(w);
        }
        let h = if presenting.is_some_and(|on| on.get_untracked()) { box_height(&c) } else { 0 };
        if h != height.get_untracked() {
            height.set(h);
        }
    };
    Effect::new(move |_| {
        if canvas.get().is_some() && width.get_untracked() == 0 {
            measure();
        }
    });
    // Presenter mode on or off changes the panel's size: measure once the stylesheet applied.
    Effect::new(move |first: Option<()>| {
        if let Some(on) = presenting {
            on.track();
        }
        if first.is_some() {
            request_animation_frame(measure);
        }
    });
    let frame_due = StoredValue::new(false);
    let resize = window_event_listener(leptos::ev::resize, move |_| {
        if frame_due.get_value() {
            return;
        }
        frame_due.set_value(true);
        request_animation_frame(move || {
            frame_due.set_value(false);
            measure();
        });
    });
    on_cleanup(move || resize.remove());
    // Draw once per change of the picture, the selection, the highlight, the language or the
    // width.
    Effect::new(move |_| {
        let (sel, hl, lang, w, h) = (selected_band(), highlight.get(), lab.lang.get(), width.get(), height.get());
        let Some(c) = canvas.get() else { return };
        // Not measured yet (the canvas was hidden when mounted): measure now.
        let w = if w > 0 { w } else { box_width(&c) };
        // In presenter mode the box's height is read again here: the panels around it may
        // have changed since it was measured (a forced layout, only while presenting).
        let h = if h > 0 { box_height(&c).max(1) } else { 0 };
        picture.with(|p| {
            let g = if h > 0 {
                Geom::scaled(p, w, Scale::projector(PRESENTER_MIN_FONT, h))
            } else if w >= Scale::WIDE_FROM_PX && p.marks().count() <= DENSE_MARKS {
                // Larger text in the height the lab's own size takes: the panels below keep
                // their place on the screen. A dense picture keeps the small size: its marks
                // are grouped per spot, and smaller bands would split them into more buttons.
                Geom::scaled(p, w, Scale { height: Some(Geom::scaled(p, w, Scale::LAB).height), ..Scale::WIDE })
            } else {
                Geom::scaled(p, w, Scale::LAB)
            };
            c.set_width(g.width as u32);
            c.set_height(g.height as u32);
            // Drawn at exactly its size in CSS px, so the overlay's buttons (placed in the
            // same px) sit on their marks even where the box is narrower than the picture's
            // least width (then the picture overflows, it is not squeezed).
            let _ = c.set_attribute("style", &format!("width:{}px;height:{}px", g.width, g.height));
            // The smallest label drawn, for the end-to-end test (presenter mode: ≥ 16 px).
            match draw(c.clone(), p, &g, sel, hl, lang) {
                Some(px) => c.set_attribute("data-min-label-px", &px.to_string()),
                None => c.remove_attribute("data-min-label-px"),
            }
            .ok();
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
            // A source without a timestamp column (a socket's `value`) has no place on this axis.
            {move || {
                let untimed: Vec<String> = picture.with(|p| p.lanes.iter().filter(|l| l.time_column.is_none()).map(|l| l.source.clone()).collect());
                (!untimed.is_empty()).then(|| view! {
                    <p class="help" data-testid="picture-no-time">{lab.t_with("picture.no-time", &[("sources", &untimed.join(", "))])}</p>
                })
            }}
            <details class="help picture-help"><summary>{move || lab.t("picture.help.summary")}</summary>{move || lab.t("picture.help")}</details>
            <p class="tp-narration" data-testid="picture-narration" aria-live="polite" tabindex="0">{move || {
                let lang = lab.lang.get();
                // Before the first batch the picture has no band to narrate: say how to start.
                let Some(i) = selected_band() else {
                    return picture.with(|p| p.bands.is_empty()).then(|| streamlab_model::text::i18n::tr(lang, "picture.empty").to_string());
                };
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
    use streamlab_model::lab::session::FateKind::*;
    let counts: Vec<String> = [Kept, Late, Filtered, Deduplicated, Joined]
        .into_iter()
        .filter(|k| p.count(*k) > 0)
        .map(|k| format!("{} {}", streamlab_model::text::i18n::tr(lang, legend_key(kind_id(Some(k)))), p.count(k)))
        .collect();
    let rows = p.marks().filter(|(_, m)| m.band.is_some()).count();
    // Spark's watermark is 0 (the epoch) until a batch with data sets it.
    let wm = match p.next_watermark_ms {
        None => String::new(),
        Some(0) => format!("; {}", streamlab_model::text::i18n::tr(lang, "watermark.not_yet")),
        Some(w) => {
            let at = streamlab_model::lab::session::display_time(w.saturating_mul(1000), p.day_us);
            format!("; {}", streamlab_model::text::i18n::tr_with(lang, "picture.watermark_now", &[("t", &at)]))
        }
    };
    streamlab_model::text::i18n::tr_with(lang, "picture.summary", &[("b", &p.bands.len()), ("n", &rows), ("counts", &counts.join(", ")), ("wm", &wm)])
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

/// A mark being dragged: which one, where the pointer went down, how far it moved.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Drag {
    lane: usize,
    mark: usize,
    origin: (usize, usize),
    /// The mark's centre and the pointer's x when the drag began, px.
    at: (i32, i32),
    start_x: i32,
    dx: i32,
}

impl Drag {
    /// True once the pointer moved far enough to be a drag, not a click.
    fn moved(&self) -> bool {
        self.dx.abs() > 3
    }
}

/// The event time a drag of `d` puts its mark at: the pointer's x on the lane's axis, snapped
/// to the axis grain ([`snap_step`]).
fn drag_time(g: &Geom, d: &Drag) -> i64 {
    let ((x0, x1), range) = g.lanes[d.lane.min(g.lanes.len() - 1)];
    snap(g.time_at(d.lane, d.at.0 + d.dx), snap_step(range, x1 - x0))
}

/// Moves a mark's row to `t` (one action of the log), then gives the focus back to the moved
/// mark once the picture is drawn again (its button is a new one).
fn move_mark(lab: Lab, origin: (usize, usize), t: i64, refocus: bool) {
    let r = lab.act(|s| s.move_event(origin.0, origin.1, t));
    lab.notice.set(r.err());
    if refocus {
        request_animation_frame(move || focus_origin(origin));
    }
}

/// Focuses the mark button of the row at `origin` (a keyboard move keeps the focus on it).
fn focus_origin(origin: (usize, usize)) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let selector = format!(".tp-mark[data-origin=\"{}:{}\"]", origin.0, origin.1);
    if let Some(el) = doc.query_selector(&selector).ok().flatten().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// Buttons over the marks (hover or focus shows the card; a late one highlights its
/// watermark step; a drag, or Alt/Shift + ← / →, moves the row along event time) and, under
/// each lane, the axis strip that adds an event where clicked.
#[component]
fn Overlay(picture: Pic, geom: Geom, focused: RwSignal<Option<(usize, usize)>>, highlight: RwSignal<Option<usize>>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let g = geom.clone();
    let drag = RwSignal::new(None::<Drag>);
    let dragging = Memo::new(move |_| drag.with(|d| d.is_some_and(|d| d.moved())));
    // The click that ends a drag is not a click on the mark.
    let dragged = StoredValue::new(false);
    // One copy of the layout for every mark's handlers.
    let shared = StoredValue::new(geom.clone());
    // One button per mark, or per spot when the picture is dense ([`Geom::button_marks`]).
    let (marks, lanes): (Vec<(usize, usize, usize, Mark)>, Vec<String>) = picture.with_untracked(|p| {
        let marks = g.button_marks(p).into_iter().filter_map(|(li, mi, covers)| Some((li, mi, covers, p.lanes.get(li)?.marks.get(mi)?.clone()))).collect();
        (marks, p.lanes.iter().map(|l| l.source.clone()).collect())
    });
    // How many marks each covering button hides, for its card.
    let covered = StoredValue::new(marks.iter().filter(|m| m.2 > 0).map(|(li, mi, covers, _)| ((*li, *mi), *covers)).collect::<std::collections::BTreeMap<_, _>>());
    let r = g.mark_r + 2;
    // The buttons carry no listeners of their own: the overlay listens once for all of them
    // (the events bubble to it) and reads which mark from its `data-*` attributes. A thousand
    // marks with ten listeners each cost more to attach and detach on every change than the
    // replay did.
    let buttons = marks
        .into_iter()
        .filter_map(|(li, mi, covers, m)| {
            let (x, y) = g.mark_at(li, mi)?;
            let t = m.event_time_us?;
            let style = format!("left:{}px;top:{}px;width:{}px;height:{}px", x - r, y - r, 2 * r, 2 * r);
            let late_band = m.late_band;
            let origin = m.origin;
            let mut label = m.cells().iter().map(|(c, v)| format!("{c}={v}")).collect::<Vec<_>>().join(", ");
            if covers > 0 {
                label.push_str(&format!(" (+{covers})"));
            }
            Some(view! {
                <button class="tp-mark" class:tp-draggable=origin.is_some() style=style data-testid="picture-mark" data-fate=kind_id(m.kind)
                    data-band=m.band.map(|b| b.to_string()).unwrap_or_default() aria-label=label
                    data-mark=format!("{li}:{mi}") data-late-band=late_band.map(|b| b.to_string())
                    data-origin=origin.map(|(a, r)| format!("{a}:{r}")) data-time-us=t.to_string()
                    aria-keyshortcuts=origin.map(|_| "Alt+ArrowLeft Alt+ArrowRight Shift+ArrowLeft Shift+ArrowRight")
                    aria-pressed=late_band.map(|lb| move || (highlight.get() == Some(lb)).to_string())>
                </button>
            })
        })
        .collect_view();
    let axes = lanes
        .into_iter()
        .enumerate()
        .map(|(li, source)| {
            let ((x0, x1), range) = g.lanes[li];
            let style = format!("left:{x0}px;width:{}px;top:{}px;height:26px", x1 - x0, g.bands_bottom);
            let gg = g.clone();
            view! {
                <div class="tp-axis" style=style data-testid="picture-axis" data-source=source.clone() title=move || lab.t("picture.axis")
                    on:click=move |ev| {
                        let t = snap(gg.time_at(li, x0 + ev.offset_x()), snap_step(range, x1 - x0));
                        let r = lab.act(|s| s.add_event_at(&source, t));
                        lab.notice.set(r.err());
                    }>
                </div>
            }
        })
        .collect_view();
    // While a mark is dragged: a ghost at the pointer with the time it would get.
    let ghost_geom = g.clone();
    let ghost = move || {
        let d = drag.get().filter(Drag::moved)?;
        let g = &ghost_geom;
        let ((x0, x1), _) = g.lanes[d.lane.min(g.lanes.len() - 1)];
        let x = (d.at.0 + d.dx).clamp(x0, x1);
        let day = picture.with_untracked(|p| p.day_us);
        let label = streamlab_model::lab::session::display_time(drag_time(g, &d), day);
        Some(view! {
            <div class="tp-ghost" data-testid="picture-drag-ghost" style=format!("left:{}px;top:{}px;width:{}px;height:{}px", x - r, d.at.1 - r, 2 * r, 2 * r)>
                <span class="tp-ghost-time">{label}</span>
            </div>
        })
    };
    view! {
        <div class="tp-overlay" class:tp-dragging=move || dragging.get() style=format!("width:{}px;height:{}px", g.width, g.height)
            on:mouseover=move |ev| focused.set(mark_of(&ev)) on:focusin=move |ev| focused.set(mark_of(&ev))
            on:mouseout=move |_| focused.set(None) on:focusout=move |_| focused.set(None)
            on:pointerdown=move |ev: web_sys::PointerEvent| {
                let (Some((li, mi)), Some(origin)) = (mark_of(&ev), origin_of(&ev)) else { return };
                if ev.button() != 0 {
                    return;
                }
                let Some(at) = shared.with_value(|g| g.mark_at(li, mi)) else { return };
                if let Some(el) = event_element(&ev) {
                    let _ = el.set_pointer_capture(ev.pointer_id());
                }
                drag.set(Some(Drag { lane: li, mark: mi, origin, at, start_x: ev.client_x(), dx: 0 }));
            }
            on:pointermove=move |ev: web_sys::PointerEvent| {
                if drag.with_untracked(Option::is_some) {
                    drag.update(|d| if let Some(d) = d { d.dx = ev.client_x() - d.start_x });
                }
            }
            on:pointerup=move |_| {
                let Some(d) = drag.get_untracked() else { return };
                drag.set(None);
                if d.moved() {
                    dragged.set_value(true);
                    move_mark(lab, d.origin, shared.with_value(|g| drag_time(g, &d)), false);
                }
            }
            on:pointercancel=move |_| drag.set(None)
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                // Escape closes the card (the mark keeps the focus; Tab opens the next one).
                if ev.key() == "Escape" && focused.get_untracked().is_some() {
                    focused.set(None);
                    ev.stop_propagation();
                    return;
                }
                let (Some((li, _)), Some(origin)) = (mark_of(&ev), origin_of(&ev)) else { return };
                let Some(t) = event_element(&ev).and_then(|e| e.get_attribute("data-time-us")).and_then(|t| t.parse::<i64>().ok()) else { return };
                let forward = match ev.key().as_str() {
                    "ArrowRight" => true,
                    "ArrowLeft" => false,
                    _ => return,
                };
                if !(ev.alt_key() || ev.shift_key()) || ev.ctrl_key() || ev.meta_key() {
                    return;
                }
                // The batch slider's ← / → wait for a plain key: this one is the mark's.
                ev.prevent_default();
                ev.stop_propagation();
                let step = shared.with_value(|g| key_step(g.lanes[li.min(g.lanes.len() - 1)].1));
                move_mark(lab, origin, step_from(t, step, forward), true);
            }
            on:click=move |ev| {
                if dragged.get_value() {
                    dragged.set_value(false);
                    return;
                }
                let late_band = event_element(&ev).and_then(|e| e.get_attribute("data-late-band")).and_then(|b| b.parse::<usize>().ok());
                if late_band.is_some() {
                    highlight.update(|h| *h = if *h == late_band { None } else { late_band });
                }
            }>
            {buttons}
            {axes}
            {ghost}
            {move || focused.get().filter(|_| !dragging.get()).and_then(|(li, mi)| picture.with(|p| {
                let m = p.lanes.get(li)?.marks.get(mi)?.clone();
                let batch_id = m.band.and_then(|b| p.bands.get(b)).map(|b| b.batch_id);
                let covers = covered.with_value(|c| c.get(&(li, mi)).copied().unwrap_or(0));
                Some(card(&m, batch_id, &geom, li, mi, covers, &p.key_columns, p.day_us, lab))
            }))}
        </div>
    }
}

/// The element an overlay event happened on.
fn event_element(ev: &web_sys::Event) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    ev.target()?.dyn_into::<web_sys::Element>().ok()
}

/// Two numbers `a:b` from an attribute of the element an overlay event happened on.
fn pair_of(ev: &web_sys::Event, attribute: &str) -> Option<(usize, usize)> {
    let id = event_element(ev)?.get_attribute(attribute)?;
    let (a, b) = id.split_once(':')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// The (lane, mark) of the mark button an overlay event happened on (`data-mark`).
fn mark_of(ev: &web_sys::Event) -> Option<(usize, usize)> {
    pair_of(ev, "data-mark")
}

/// The (action, row) a draggable mark's row was added by (`data-origin`).
fn origin_of(ev: &web_sys::Event) -> Option<(usize, usize)> {
    pair_of(ev, "data-origin")
}

/// The card of one mark: its cells, its fates with their rules (keys named by their
/// columns), in the chosen language, how to move it, and how many marks its button covers
/// (`covers`, in a dense picture).
#[allow(clippy::too_many_arguments)]
fn card(m: &Mark, batch_id: Option<u64>, g: &Geom, lane: usize, mark: usize, covers: usize, keys: &KeyColumns, day_us: i64, lab: Lab) -> impl IntoView {
    let lang = lab.lang.get_untracked();
    let (x, y) = g.mark_at(lane, mark).unwrap_or((0, 0));
    // Opens to the side with more room, above the mark when it sits low.
    let left = if x > g.width / 2 { format!("right:{}px", g.width - x + 8) } else { format!("left:{}px", x + 8) };
    let top = if y > g.height / 2 { format!("bottom:{}px", g.height - y + 8) } else { format!("top:{}px", y + 8) };
    let fates: Vec<String> = if m.fates.is_empty() {
        vec![streamlab_model::text::i18n::tr(lang, if m.band.is_none() { "picture.card.pending" } else { "picture.card.nofate" }).to_string()]
    } else {
        m.fates.iter().map(|f| fate_text(f, lang, day_us, keys)).collect()
    };
    view! {
        <div class="tp-card" role="tooltip" data-testid="picture-card" style=format!("{left};{top}")>
            <p class="tp-card-row">{m.cells().iter().map(|(c, v)| format!("{c}: {v}")).collect::<Vec<_>>().join(" · ")}</p>
            <ul>{fates.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul>
            {batch_id.map(|id| view! { <p class="muted">{lab.t("picture.card.batch")}" "{id}</p> })}
            {(covers > 0).then(|| view! { <p class="muted" data-testid="picture-card-covers">{streamlab_model::text::i18n::tr_with(lang, "picture.card.covers", &[("n", &covers)])}</p> })}
            {m.origin.map(|_| view! { <p class="muted tp-card-move">{streamlab_model::text::i18n::tr(lang, "picture.card.move")}</p> })}
        </div>
    }
}
