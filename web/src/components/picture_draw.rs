//! Draws the time picture ([`streamlab_model::lab::picture::Picture`]) on a canvas with plotters, and the
//! pixel layout ([`Geom`]) that the HTML overlay of marks shares with the drawing.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use streamlab_model::lab::picture::{kind_id, ticks, Picture, WindowStatus};
use streamlab_model::text::i18n::{tr, tr_with};
use streamlab_model::text::Lang;
use streamlab_model::lab::session::{display_time, FateKind};

/// Label area left of each lane (batch ids), px at scale 1.
const LEFT: i32 = 46;
/// Axis area under the bands, px at scale 1.
const BOTTOM: i32 = 26;
const RIGHT: i32 = 10;
/// The smallest label's font size at scale 1, px (the larger labels are 1 px larger).
const SMALL_FONT: f64 = 9.0;

/// How large the picture is drawn. The lab's own size is [`Scale::LAB`]: 9–10 px labels on a
/// phone, 11–12 px where it is wider ([`Scale::WIDE`]),
/// bands sharing about 300 px. Presenter mode ([`Scale::projector`]) draws every label at
/// least 16 px and lets the bands fill the height its panel has, so the picture is scaled by
/// the drawing (sharp text, marks and buttons still in canvas px), never by CSS.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// Text, margins and marks are multiplied by this.
    pub k: f64,
    /// The height the whole picture may take, px (`None`: bands share about 300 px).
    pub height: Option<i32>,
}

impl Scale {
    /// The lab's own size on a phone.
    pub const LAB: Scale = Scale { k: 1.0, height: None };

    /// The lab's own size where the picture has room ([`Scale::WIDE_FROM_PX`] or more: a
    /// laptop, a projector without presenter mode): 11–12 px labels (the page draws it in the
    /// height [`Scale::LAB`] would take, so the bands give up what the labels gain).
    pub const WIDE: Scale = Scale { k: 11.0 / 9.0, height: None };

    /// The picture's width, px, from which it is drawn at [`Scale::WIDE`].
    pub const WIDE_FROM_PX: i32 = 480;

    /// Presenter mode: the smallest label `min_font` px (16 for a room), the picture
    /// `height` px tall when its panel has that much (at least 200 px).
    pub fn projector(min_font: f64, height: i32) -> Scale {
        Scale { k: (min_font / SMALL_FONT).max(1.0), height: Some(height.max(200)) }
    }

    /// `px` at this scale, rounded.
    fn px(&self, px: i32) -> i32 {
        (f64::from(px) * self.k).round() as i32
    }
}

/// Above this many marks the picture is dense: marks are drawn at their smallest
/// ([`Geom::new`]) and the overlay gives one button per spot, not one per mark
/// ([`Geom::button_marks`]).
pub const DENSE_MARKS: usize = 300;

/// Where things are, in canvas pixels (the overlay uses the same numbers).
#[derive(Debug, Clone, PartialEq)]
pub struct Geom {
    /// The smallest label's font size and the others', px ([`Scale`]).
    pub font_small: i32,
    pub font: i32,
    /// The label area left of each lane and the axis area under the bands, px.
    pub left: i32,
    pub bottom: i32,
    /// The row above everything that holds the watermark's label (0 when there is none), so
    /// the label is never drawn over window bars or marks.
    pub label_h: i32,
    pub width: i32,
    pub height: i32,
    /// Each lane's plot area: (x0, x1), and its event-time range (µs).
    pub lanes: Vec<((i32, i32), (i64, i64))>,
    /// Top of the state strip, top of the pending band (if any), bottom of band 0.
    pub strip_top: i32,
    pub strip_h: i32,
    /// One row of the state strip's window bars, px.
    pub strip_step: i32,
    pub bands_top: i32,
    pub bands_bottom: i32,
    pub band_h: f64,
    pub bands: usize,
    pub mark_r: i32,
    /// Each mark's centre, lane by lane in the picture's order (`None`: no event time).
    /// Marks that would cover each other (same band, a few pixels apart) are stacked
    /// ([`Geom::place_marks`]), so every one stays visible and can be focused.
    pub marks: Vec<Vec<Option<(i32, i32)>>>,
}

impl Geom {
    /// The layout of `p` on a canvas `width` px wide, at the lab's own size.
    pub fn new(p: &Picture, width: i32) -> Geom {
        Geom::scaled(p, width, Scale::LAB)
    }

    /// The layout of `p` on a canvas `width` px wide, drawn at `scale`.
    pub fn scaled(p: &Picture, width: i32, scale: Scale) -> Geom {
        // Narrow enough for a 320-px phone (a 262-px panel), wide enough to stay legible.
        let width = width.max(240);
        let (left, bottom) = (scale.px(LEFT), scale.px(BOTTOM));
        let font_small = (SMALL_FONT * scale.k).round() as i32;
        let font = font_small + 1;
        let n = p.lanes.len().max(1) as i32;
        let lane_w = width / n;
        let ranges: Vec<(i64, i64)> = (0..p.lanes.len().max(1)).map(|i| p.range(i)).collect();
        let lanes: Vec<((i32, i32), (i64, i64))> = ranges.iter().enumerate().map(|(i, r)| ((i as i32 * lane_w + left, (i as i32 + 1) * lane_w - RIGHT), *r)).collect();
        // The watermark's label gets a row of its own above the picture when it is drawn.
        let wm_shown = p.next_watermark_ms.map(|w| w.saturating_mul(1000)).is_some_and(|t| ranges.iter().any(|&(lo, hi)| t >= lo && t <= hi));
        let label_h = if wm_shown { font + 4 } else { 0 };
        let strip_rows = p.lanes.iter().flat_map(|l| l.windows.iter().filter(|w| w.band.is_none()).map(|w| w.row + 1)).max().unwrap_or(0).min(6) as i32;
        let strip_step = scale.px(6);
        let strip_h = if strip_rows > 0 { font_small + 7 + strip_rows * strip_step } else { 0 };
        let rows = p.bands.len() + usize::from(p.has_pending);
        let strip_top = 6 + label_h;
        let bands_top = strip_top + strip_h;
        // Bands share about 300 px (26 px each at most, 5 at least), so a long session stays
        // on a 720-px screen and a short one does not look stretched; in presenter mode they
        // share what the panel's height leaves, up to 26 px each at its scale.
        let budget = scale.height.map_or(300.0, |h| f64::from((h - bands_top - bottom).max(60)));
        let band_h = if rows == 0 { 26.0 * scale.k } else { (budget / rows as f64).clamp(5.0, 26.0 * scale.k) };
        let bands_h = (band_h * rows.max(1) as f64).round() as i32;
        let bands_bottom = bands_top + bands_h;
        let total = p.marks().count();
        let mark_r = match total {
            0..=80 => scale.px(5),
            81..=DENSE_MARKS => scale.px(4),
            _ => 2,
        }
        .min((band_h * 0.3).floor() as i32)
        .max(2);
        let mut g = Geom { font_small, font, left, bottom, label_h, width, height: bands_bottom + bottom, lanes, strip_top, strip_h, strip_step, bands_top, bands_bottom, band_h, bands: p.bands.len(), mark_r, marks: Vec::new() };
        g.marks = p.lanes.iter().enumerate().map(|(li, l)| g.place_marks(li, l)).collect();
        g
    }

    /// The marks the overlay gives a button, as (lane, mark, how many other marks its button
    /// covers), in the picture's (drawing) order. Up to [`DENSE_MARKS`] marks, every mark with
    /// a place, covering none. Above it, one per spot: a square a button wide (`2·mark_r + 4`
    /// px) within one band of one lane, where the mark drawn last (on top) gets the button
    /// and the count of the others. A pointer cannot pick apart marks a pixel or two apart, and
    /// a button per mark costs the page its layout: 10,000 buttons took about 0.2 s to style
    /// and lay out again on every step.
    pub fn button_marks(&self, p: &Picture) -> Vec<(usize, usize, usize)> {
        let placed = p.lanes.iter().enumerate().flat_map(|(li, l)| l.marks.iter().enumerate().filter_map(move |(mi, m)| Some((li, mi, m.band, self.mark_at(li, mi)?))));
        if p.marks().count() <= DENSE_MARKS {
            return placed.map(|(li, mi, _, _)| (li, mi, 0)).collect();
        }
        let cell = 2 * self.mark_r + 4;
        // (spot, lane, mark), by spot and then in drawing order: each run of one spot ends
        // with the mark on top.
        let mut by_spot: Vec<((usize, Option<usize>, i32, i32), usize, usize)> = placed.map(|(li, mi, band, (x, y))| ((li, band, x.div_euclid(cell), y.div_euclid(cell)), li, mi)).collect();
        by_spot.sort_unstable();
        let mut out: Vec<(usize, usize, usize)> = by_spot.chunk_by(|a, b| a.0 == b.0).filter_map(|run| run.last().map(|&(_, li, mi)| (li, mi, run.len() - 1))).collect();
        out.sort_unstable();
        out
    }

    /// The centre of mark `mi` of lane `li`.
    pub fn mark_at(&self, li: usize, mi: usize) -> Option<(i32, i32)> {
        self.marks.get(li)?.get(mi).copied().flatten()
    }

    /// Places a lane's marks: each at its event time, in the lower part of its band (the upper
    /// part holds the band's window bars). Marks closer than a mark's width share the band in
    /// rows (the middle one, then above and below, as many as the band holds); when every row
    /// is taken at that place, a mark moves right by half a mark (at most a mark and a half), so
    /// a pile of rows at one time shows as a short fan instead of one mark.
    fn place_marks(&self, li: usize, lane: &streamlab_model::lab::picture::Lane) -> Vec<Option<(i32, i32)>> {
        let r = self.mark_r;
        let mut out = vec![None; lane.marks.len()];
        let mut bands: Vec<Option<usize>> = lane.marks.iter().map(|m| m.band).collect();
        bands.sort_unstable();
        bands.dedup();
        for band in bands {
            let (top, bottom) = self.band_y(band);
            let h = (bottom - top) as f64;
            let centre = (top as f64 + h * 0.62).round() as i32;
            let (lo, hi) = ((top as f64 + h * 0.3).round() as i32, bottom - 1);
            let step = (r + 1).max(3);
            let mut rows = vec![0];
            for k in 1..8 {
                for dy in [-k * step, k * step] {
                    if centre + dy - r / 2 >= lo && centre + dy + r / 2 <= hi {
                        rows.push(dy);
                    }
                }
            }
            let mut order: Vec<(i32, usize)> = lane
                .marks
                .iter()
                .enumerate()
                .filter(|(_, m)| m.band == band)
                .filter_map(|(i, m)| m.event_time_us.map(|t| (self.x(li, t), i)))
                .collect();
            order.sort_unstable();
            let mut last: Vec<Option<i32>> = vec![None; rows.len()];
            for (x, i) in order {
                let free = last.iter().position(|l| l.is_none_or(|l| x - l > 2 * r));
                let (row, x) = match free {
                    Some(k) => (k, x),
                    None => {
                        let (k, l) = last.iter().enumerate().filter_map(|(k, l)| l.map(|l| (k, l))).min_by_key(|(_, l)| *l).unwrap_or((0, x));
                        let shifted = l + r + 1;
                        (k, if shifted - x <= 3 * r { shifted.max(x) } else { x })
                    }
                };
                last[row] = Some(x);
                out[i] = Some((x, centre + rows[row]));
            }
        }
        out
    }

    /// The x pixel of event time `t` (µs) in lane `lane`, clamped to the plot area.
    pub fn x(&self, lane: usize, t: i64) -> i32 {
        let ((x0, x1), (lo, hi)) = self.lanes[lane.min(self.lanes.len() - 1)];
        let f = ((t as f64 - lo as f64) / (hi as f64 - lo as f64).max(1.0)).clamp(0.0, 1.0);
        x0 + (f * (x1 - x0) as f64).round() as i32
    }

    /// True if `t` falls inside lane `lane`'s range.
    pub fn inside(&self, lane: usize, t: i64) -> bool {
        let (_, (lo, hi)) = self.lanes[lane.min(self.lanes.len() - 1)];
        t >= lo && t <= hi
    }

    /// The event time (µs) at pixel `x` of lane `lane`.
    pub fn time_at(&self, lane: usize, x: i32) -> i64 {
        let ((x0, x1), (lo, hi)) = self.lanes[lane.min(self.lanes.len() - 1)];
        let f = ((x - x0) as f64 / (x1 - x0).max(1) as f64).clamp(0.0, 1.0);
        lo + (f * (hi - lo) as f64) as i64
    }

    /// Top and bottom pixel of band `i` (`None`: the pending band above the last batch).
    pub fn band_y(&self, band: Option<usize>) -> (i32, i32) {
        let i = band.unwrap_or(self.bands) as f64;
        let bottom = self.bands_bottom as f64 - i * self.band_h;
        ((bottom - self.band_h).round() as i32, bottom.round() as i32)
    }

}

/// A fate kind's colour (the legend's CSS uses the same).
pub fn kind_colour(kind: Option<FateKind>) -> RGBColor {
    match kind {
        Some(FateKind::Kept) => RGBColor(37, 99, 235),
        Some(FateKind::Late) => RGBColor(220, 38, 38),
        Some(FateKind::Filtered) => RGBColor(107, 114, 128),
        Some(FateKind::Deduplicated) => RGBColor(124, 58, 237),
        Some(FateKind::Joined) => RGBColor(5, 150, 105),
        None => RGBColor(217, 119, 6),
    }
}

fn status_colour(s: WindowStatus) -> RGBColor {
    match s {
        WindowStatus::Open | WindowStatus::Kept => RGBColor(96, 165, 250),
        WindowStatus::Updated => RGBColor(37, 99, 235),
        WindowStatus::Closing => RGBColor(245, 158, 11),
        WindowStatus::Emitted => RGBColor(5, 150, 105),
        WindowStatus::Evicted => RGBColor(156, 163, 175),
    }
}

const WM: RGBColor = RGBColor(180, 83, 9);
const INK: RGBColor = RGBColor(55, 65, 81);
const GRID: RGBColor = RGBColor(229, 231, 235);

/// Draws `p` on `canvas` (already sized to `g`), with band `selected` shaded and the
/// watermark step of band `highlight` drawn heavier. Every label is drawn at `g.font_small`
/// or `g.font` px; the smallest size used is returned (the page exposes it for its tests).
pub fn draw(canvas: web_sys::HtmlCanvasElement, p: &Picture, g: &Geom, selected: Option<usize>, highlight: Option<usize>, lang: Lang) -> Option<i32> {
    let backend = plotters_canvas::CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area();
    let _ = root.fill(&WHITE);
    let smallest = std::cell::Cell::new(None::<i32>);
    let coloured = |size: i32, colour: &RGBColor| {
        smallest.set(Some(smallest.get().map_or(size, |s| s.min(size))));
        ("sans-serif", size).into_font().color(colour)
    };
    let font = |size: i32| coloured(size, &INK);
    let (small, big) = (g.font_small, g.font);
    for (li, lane) in p.lanes.iter().enumerate() {
        let ((x0, x1), range) = g.lanes[li];
        // Bands: the selected one shaded, no-data ones greyed; labels on the left.
        let every = (f64::from(big + 2) / g.band_h).ceil().max(1.0) as usize;
        for (bi, b) in p.bands.iter().enumerate() {
            let (top, bottom) = g.band_y(Some(bi));
            let fill = if selected == Some(bi) { RGBColor(254, 243, 199) } else if b.no_data { RGBColor(243, 244, 246) } else if bi % 2 == 0 { RGBColor(250, 250, 250) } else { WHITE };
            let _ = root.draw(&Rectangle::new([(x0, top), (x1, bottom)], fill.filled()));
            // Every few bands a label, and the selected band's (the others near it left out,
            // so no two labels overlap).
            let near_selected = selected.is_some_and(|s| s != bi && s.abs_diff(bi) < every);
            if (bi % every == 0 && !near_selected) || selected == Some(bi) {
                let style = font(big).pos(Pos::new(HPos::Right, VPos::Center));
                let _ = root.draw(&Text::new(format!("{}{}", b.batch_id, if b.no_data { "·" } else { "" }), (x0 - 6, (top + bottom) / 2), style));
            }
        }
        if p.has_pending {
            let (top, bottom) = g.band_y(None);
            let _ = root.draw(&Rectangle::new([(x0, top), (x1, bottom)], RGBColor(255, 247, 237).filled()));
            let _ = root.draw(&Text::new(tr(lang, "picture.draw.pending"), (x0 - 6, (top + bottom) / 2), font(small).pos(Pos::new(HPos::Right, VPos::Center))));
        }
        // Event-time axis: grid lines and labels at round times.
        let max_ticks = ((x1 - x0) / (52 * big / 10)).max(2) as usize;
        for t in ticks(range, max_ticks) {
            let x = g.x(li, t);
            let _ = root.draw(&PathElement::new(vec![(x, g.bands_top), (x, g.bands_bottom)], GRID.stroke_width(1)));
            let label = display_time(t, p.day_us);
            // Centred under its line, but kept inside the axis: a label near an end is aligned
            // to its line from inside (it ran into the "batch" caption on the left and past the
            // canvas on the right). Half a label is about 0.3 em a character.
            let half = (label.chars().count() as f64 * 0.3 * f64::from(big)) as i32;
            let h = if x - x0 < half { HPos::Left } else if x1 - x < half { HPos::Right } else { HPos::Center };
            let _ = root.draw(&Text::new(label, (x, g.bands_bottom + 4), font(big).pos(Pos::new(h, VPos::Top))));
        }
        let _ = root.draw(&PathElement::new(vec![(x0, g.bands_bottom), (x1, g.bands_bottom)], INK.stroke_width(1)));
        let _ = root.draw(&Text::new(tr(lang, "picture.draw.batch"), (x0 - 6, g.bands_bottom + 4), font(small).pos(Pos::new(HPos::Right, VPos::Top))));
        let title = format!("{} · {}", lane.source, lane.time_column.as_deref().unwrap_or("—"));
        let _ = root.draw(&Text::new(title, (x1, g.bands_bottom + big + 5), font(small).pos(Pos::new(HPos::Right, VPos::Top))));
        // Window bars: the state now (strip on top), then each band's updated / emitted ones.
        if g.strip_h > 0 {
            let _ = root.draw(&Text::new(tr(lang, "picture.draw.state_now"), (x0, g.strip_top), font(small).pos(Pos::new(HPos::Left, VPos::Top))));
        }
        for w in &lane.windows {
            let (y, h) = match w.band {
                None if g.strip_h > 0 => (g.strip_top + small + 4 + w.row.min(5) as i32 * g.strip_step, g.strip_step - 2),
                None => continue,
                Some(bi) => {
                    let (top, bottom) = g.band_y(Some(bi));
                    let h = ((bottom - top) as f64 * 0.1).clamp(1.0, 3.0 * g.font_small as f64 / SMALL_FONT) as i32;
                    if w.row > 2 || bottom - top < 8 {
                        continue;
                    }
                    (top + 2 + w.row as i32 * (h + 1), h)
                }
            };
            if !g.inside(li, w.start_us) && !g.inside(li, w.end_us) {
                continue;
            }
            let (xa, xb) = (g.x(li, w.start_us), g.x(li, w.end_us).max(g.x(li, w.start_us) + 2));
            let c = status_colour(w.status);
            let style = match w.status {
                WindowStatus::Open | WindowStatus::Kept | WindowStatus::Evicted => c.stroke_width(1),
                _ => c.filled(),
            };
            let _ = root.draw(&Rectangle::new([(xa, y), (xb - 1, y + h)], style));
        }
        // The watermark: each band's value as a vertical step, joined at the band edges.
        let mut prev: Option<i32> = None;
        for (bi, b) in p.bands.iter().enumerate() {
            let Some(w) = b.watermark_ms else { continue };
            let t = w.saturating_mul(1000);
            let (top, bottom) = g.band_y(Some(bi));
            if !g.inside(li, t) {
                prev = None;
                continue;
            }
            let x = g.x(li, t);
            let hot = highlight == Some(bi);
            let style = if hot { RGBColor(220, 38, 38).stroke_width(4) } else { WM.stroke_width(2) };
            if let Some(px) = prev {
                let _ = root.draw(&PathElement::new(vec![(px, bottom), (x, bottom)], style));
            }
            let _ = root.draw(&PathElement::new(vec![(x, bottom), (x, top)], style));
            prev = Some(x);
        }
        if let Some(next) = p.next_watermark_ms.map(|w| w.saturating_mul(1000)).filter(|t| g.inside(li, *t)) {
            let x = g.x(li, next);
            let y = g.band_y(Some(p.bands.len().saturating_sub(1))).0;
            if let Some(px) = prev {
                let _ = root.draw(&PathElement::new(vec![(px, y), (x, y)], WM.stroke_width(2)));
            }
            // The label sits in its own row above the picture (`Geom::label_h`), never over a
            // window bar or a mark, straight above the staircase's top.
            let label = tr_with(lang, "picture.draw.watermark", &[("t", &display_time(next, p.day_us))]);
            let right = x > (x0 + x1) / 2;
            let (anchor, dx) = if right { (HPos::Right, -3) } else { (HPos::Left, 3) };
            let row = 3 + g.label_h / 2;
            let _ = root.draw(&Text::new(label, (x + dx, row), coloured(big, &WM).pos(Pos::new(anchor, VPos::Center))));
        }
        // Marks, shaped and coloured by fate, in order. A mark drawn again later at the same
        // centre with the same fate covers this one exactly (its colours are opaque), so only
        // the last of each is drawn: a dense picture has thousands of such repeats.
        let mut seen = std::collections::BTreeSet::new();
        let mut last_of_each: Vec<(usize, &str)> = lane
            .marks
            .iter()
            .enumerate()
            .rev()
            .filter_map(|(mi, m)| {
                let at = g.mark_at(li, mi)?;
                let kind = kind_id(m.kind);
                seen.insert((at, kind)).then_some((mi, kind))
            })
            .collect();
        last_of_each.reverse();
        for (mi, kind) in last_of_each {
            let Some(at) = g.mark_at(li, mi) else { continue };
            draw_mark(&root, kind, lane.marks[mi].kind, at, g.mark_r);
        }
    }
    let _ = root.present();
    smallest.get()
}

fn draw_mark<DB: DrawingBackend>(root: &DrawingArea<DB, plotters::coord::Shift>, kind: &str, k: Option<FateKind>, (x, y): (i32, i32), r: i32) {
    let c = kind_colour(k);
    let _ = match kind {
        "kept" => root.draw(&Circle::new((x, y), r, c.filled())),
        "late" => root.draw(&Cross::new((x, y), r + 1, c.stroke_width(2))),
        "filtered" => root.draw(&Rectangle::new([(x - r, y - r), (x + r, y + r)], c.stroke_width(2))),
        "deduplicated" => root.draw(&Polygon::new(vec![(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], c.filled())),
        "joined" => root.draw(&TriangleMarker::new((x, y), r + 1, c.filled())),
        _ => root.draw(&Circle::new((x, y), r, c.stroke_width(2))),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamlab_model::lab::session::LabSession;

    /// The classic preset's picture is not dense: every placed mark gets its own button.
    #[test]
    fn a_sparse_picture_gives_every_mark_a_button() {
        let mut s = LabSession::from_scenario(streamlab_model::lab::presets::preset("classic").unwrap());
        while s.run_step() {}
        let p = s.picture();
        let g = Geom::new(&p, 900);
        let placed: Vec<(usize, usize, usize)> = p.lanes.iter().enumerate().flat_map(|(li, l)| (0..l.marks.len()).map(move |mi| (li, mi, 0))).filter(|(li, mi, _)| g.mark_at(*li, *mi).is_some()).collect();
        assert!(placed.len() <= DENSE_MARKS && !placed.is_empty());
        assert_eq!(g.button_marks(&p), placed);
    }

    /// 1,000 rows in one batch, one per second from 09:00:00: a dense picture. Its lane
    /// spans 09:00:00–09:16:39 over about 870 px (≈ 1.15 s per px), and the marks are
    /// 2 px discs, so each 8-px spot holds about 7 seconds' rows; one button per spot, on the
    /// mark drawn last there, covering the others.
    #[test]
    fn a_dense_picture_gives_one_button_per_spot() {
        let rows: Vec<String> = (0..1000).map(|i| format!(r#"{{"event_id":"k{i}","event_time":"2026-03-02T09:{:02}:{:02}Z"}}"#, i / 60, i % 60)).collect();
        let json = format!(
            r#"{{"id":"dense","sources":{{"clicks":{{"schema":[["event_id","string"],["event_time","timestamp"]]}}}},"query":"clicks.groupBy('event_id').count()","output_mode":"update","steps":[{{"clicks":[{}]}}]}}"#,
            rows.join(",")
        );
        let mut s = LabSession::from_json(&json).unwrap();
        while s.run_step() {}
        let p = s.picture();
        let g = Geom::new(&p, 900);
        assert_eq!(g.mark_r, 2);
        let buttons = g.button_marks(&p);
        // Every mark is counted once: by its own button or as covered by one.
        assert_eq!(buttons.iter().map(|b| b.2 + 1).sum::<usize>(), 1000);
        // About 870 px / 8 px ≈ 109 columns, each a few rows of spots high: far fewer buttons
        // than marks, and more than one per column.
        assert!(buttons.len() > 109 && buttons.len() < 500, "{} buttons", buttons.len());
        // No two buttons share a spot, and each sits on the last mark drawn in its spot.
        let spot = |li: usize, mi: usize| {
            let (x, y) = g.mark_at(li, mi).unwrap();
            (li, p.lanes[li].marks[mi].band, x.div_euclid(8), y.div_euclid(8))
        };
        let spots: std::collections::BTreeSet<_> = buttons.iter().map(|&(li, mi, _)| spot(li, mi)).collect();
        assert_eq!(spots.len(), buttons.len());
        for &(li, mi, _) in &buttons {
            assert!((mi + 1..p.lanes[li].marks.len()).all(|later| spot(li, later) != spot(li, mi)), "mark {mi} is not on top of its spot");
        }
    }
}
