//! What the batches did: the batch list, the sink's rows, the state store and the metrics.

use leptos::prelude::*;

use std::sync::Arc;

use streamlab_model::lab::session::{BatchView, RowStatus};
use crate::Lab;

/// Where a table that shows only its last `limit` rows starts: the last `limit` of `total`,
/// or earlier so that row `keep` (the selected batch) is among them.
pub(super) fn tail_start(total: usize, limit: usize, keep: Option<usize>) -> usize {
    let start = total.saturating_sub(limit);
    keep.map_or(start, |k| start.min(k))
}

/// "The last 30 of 100 rows" and a button that shows the page before them (for logs and the
/// batch list, whose newest rows matter most).
#[component]
pub(super) fn EarlierRows(shown: usize, total: usize, limit: RwSignal<usize>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    (shown < total).then(|| view! {
        <p class="more-rows" data-testid="earlier-rows">
            {move || lab.t_with("table.last", &[("shown", &shown), ("total", &total)])}" "
            <button data-testid="show-earlier" on:click=move |_| limit.update(|l| *l += PAGE_ROWS)>{move || lab.t("table.earlier")}</button>
        </p>
    })
}

/// The batch shown everywhere: the selected one (the lab as of it), else the last.
fn selected(lab: Lab) -> Option<Arc<BatchView>> {
    lab.shown_with(|v| v.batches.last().cloned())
}

/// How many rows a table shows before "Show more" / "Show earlier" (a long run stays quick to
/// draw).
pub(super) const PAGE_ROWS: usize = 30;

/// The state store's page: larger, so that the rows a batch removed (listed after the kept
/// ones) stay in view for any preset's state; a stress test's 10,000 rows still page.
const STATE_PAGE_ROWS: usize = 100;

/// One row per executed micro-batch.
#[component]
pub fn BatchList() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let panel = NodeRef::<leptos::html::Div>::new();
    // The panel is a box that scrolls (on a screen; in presenter mode a small one): each new
    // batch is brought into view at its foot, as long as the learner follows the newest —
    // scrolled up to read an earlier batch, they stay where they are until they scroll back
    // down.
    let presenter = use_context::<super::context::Presenter>();
    let limit = RwSignal::new(PAGE_ROWS);
    let follow = StoredValue::new(true);
    let seen = StoredValue::new(0usize);
    // Where the list's own scroll to its foot left it: the scroll event that move fires (maybe
    // after more rows came) is not the learner's.
    let auto_top = StoredValue::new(-1i32);
    Effect::new(move |_| {
        // After every change of the batches (and on entering presenter mode), once the table
        // is drawn: the next frame, not a timer, so the new rows are laid out first.
        let count = lab.view.with(|v| v.batches.len());
        let presenting = presenter.is_some_and(|p| p.on.get());
        let grew = count > seen.get_value();
        seen.set_value(count);
        if presenting || (grew && follow.get_value()) {
            // The list may be gone by the next frame (a lesson or page change): `try_`, so a
            // frame after it reads nothing instead of a disposed node reference.
            request_animation_frame(move || {
                if let Some(el) = panel.try_get_untracked().flatten() {
                    el.set_scroll_top(el.scroll_height());
                    auto_top.try_set_value(el.scroll_top());
                }
            });
        }
    });
    let on_scroll = move |_| {
        if let Some(el) = panel.get_untracked() {
            let top = el.scroll_top();
            if top != auto_top.get_value() {
                // Within a row's height of the foot counts as following.
                follow.set_value(top + el.client_height() >= el.scroll_height() - 24);
            }
        }
    };
    view! {
        <div class="panel batches" node_ref=panel on:scroll=on_scroll>
            <h2>{move || lab.t("batches")}</h2>
            <p class="help">{move || lab.t("times.day")}" "{move || lab.view.with(|v| v.day.clone())}</p>
            {move || lab.view.with(|v| v.session_time_zone.clone()).map(|zone| view! {
                <p class="help" data-testid="times-zone">{move || lab.t_with("times.zone", &[("zone", &zone)])}</p>
            })}
            {move || {
                let batches = lab.view.with(|v| v.batches.clone());
                if batches.is_empty() {
                    // A run error stopped the first batch: say so, not "no batch has run".
                    return match lab.view.with(|v| v.failed_batch) {
                        Some(n) => view! { <p class="muted" data-testid="batch-failed">{lab.t_with("batches.failed", &[("n", &n)])}</p> }.into_any(),
                        None => view! { <p class="muted">{lab.t("batches.none")}</p> }.into_any(),
                    };
                }
                let current = selected(lab).map(|b| b.id);
                // The newest batches (and the selected one): a long run draws a page, not all.
                let total = batches.len();
                let start = tail_start(total, limit.get(), current.and_then(|id| batches.iter().position(|b| b.id == id)));
                let batches = batches[start..].to_vec();
                view! {
                    <EarlierRows shown=total - start total=total limit=limit/>
                    <table class="grid" data-testid="batch-list">
                        <thead><tr>
                            <th>{lab.t("batch.id")}</th><th>{lab.t("batch.step")}</th><th>{lab.t("batch.input")}</th>
                            <th>{lab.t("batch.wm")}</th><th>{lab.t("batch.out")}</th><th title=lab.t("batch.dropped.help")>{lab.t("batch.dropped")}</th>
                        </tr></thead>
                        <tbody>
                            {batches.into_iter().map(|b| {
                                let id = b.id;
                                let dropped: u64 = b.metrics.iter().map(|m| m.dropped).sum();
                                view! {
                                    <tr data-testid="batch-row" data-batch-id=id.to_string() tabindex="0"
                                        class:selected={current == Some(id)} class:nodata={b.no_data}
                                        on:click=move |_| lab.selected_batch.set(Some(id))
                                        on:keydown=move |ev| if ev.key() == "Enter" { lab.selected_batch.set(Some(id)) }>
                                        <td>{id}{b.no_data.then(|| view! { <span class="tag">{lab.t("batch.nodata")}</span> })}</td>
                                        <td>{b.step.map(|s| s.to_string()).unwrap_or_default()}</td>
                                        <td>{b.input_rows}</td>
                                        {if b.watermark_ms == Some(0) {
                                            // Spark's initial 0 (the epoch): said in words, the
                                            // raw value in the title and the progress JSON.
                                            view! { <td class="ts wm-not-yet" title=b.watermark.clone().unwrap_or_default()>{lab.t("watermark.not_yet")}</td> }.into_any()
                                        } else {
                                            view! { <td class="ts">{b.watermark.clone().unwrap_or_else(|| "—".into())}</td> }.into_any()
                                        }}
                                        <td class:hot={!b.rows.is_empty()}>{b.rows.len()}</td>
                                        <td class:warn={dropped > 0}>{dropped}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            }}
        </div>
    }
}

/// The rows the sink received up to the shown batch, that batch's first (highlighted), then
/// the earlier ones, newest first; the box scrolls inside its panel.
#[component]
pub fn SinkPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let limit = RwSignal::new(PAGE_ROWS);
    view! {
        <div class="panel sink">
            <h2>{move || lab.t("sink")}</h2>
            <p class="help">{move || lab.t("output.schema")}": "<code>{move || lab.view.with(|v| v.output_columns.join(", "))}</code></p>
            {move || selected(lab).map(|b| view! {
                <p class="current-batch" data-testid="current-batch-rows">
                    {lab.t_with("sink.current", &[("n", &b.id), ("k", &b.rows.len())])}
                </p>
            })}
            // Focusable, so a keyboard user can scroll the box (axe: scrollable-region-focusable).
            <div class="table-box" data-testid="emitted-rows" tabindex="0" role="region" aria-label=move || lab.t("sink")>
            {move || {
                let (cols, batches) = lab.shown_with(|v| (v.output_columns.clone(), v.batches.clone()));
                let current = batches.last().map(|b| b.id);
                let with_rows: Vec<Arc<BatchView>> = batches.into_iter().rev().filter(|b| !b.rows.is_empty()).collect();
                if with_rows.is_empty() {
                    return view! { <p class="muted">{lab.t("sink.none")}</p> }.into_any();
                }
                let total: usize = with_rows.iter().map(|b| b.rows.len()).sum();
                let shown = total.min(limit.get());
                let names: Vec<String> = cols.iter().map(|c| c.split(':').next().unwrap_or_default().to_string()).collect();
                view! {
                    <table class="grid">
                        <thead><tr><th>{lab.t("batch.id")}</th>{names.into_iter().map(|n| view! { <th>{n}</th> }).collect_view()}</tr></thead>
                        <tbody>
                            {with_rows.into_iter().flat_map(|b| (0..b.rows.len()).map(move |i| (b.clone(), i))).take(shown).map(|(b, i)| {
                                let id = b.id;
                                view! {
                                    <tr data-testid="emitted-row" data-batch-id=id.to_string() data-json=b.rows_json[i].clone() class:current={current == Some(id)}>
                                        <td>{id}</td>{b.rows[i].iter().map(|c| view! { <td>{c.clone()}</td> }).collect_view()}
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <MoreRows shown=shown total=total limit=limit/>
                }.into_any()
            }}
            </div>
        </div>
    }
}

/// "Showing 100 of 10,000 rows" and a button that shows the next page.
#[component]
pub(super) fn MoreRows(shown: usize, total: usize, limit: RwSignal<usize>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    (shown < total).then(|| view! {
        <p class="more-rows" data-testid="more-rows">
            {move || lab.t_with("table.shown", &[("shown", &shown), ("total", &total)])}" "
            <button data-testid="show-more" on:click=move |_| limit.update(|l| *l += PAGE_ROWS)>{move || lab.t("table.more")}</button>
        </p>
    })
}

/// The state store of every stateful operator, with what the watermark will do to each row.
#[component]
pub fn StatePanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let status_label = move |s: RowStatus| {
        lab.t(match s {
            RowStatus::Open => "status.open",
            RowStatus::Closing => "status.closing",
            RowStatus::Kept => "status.kept",
            RowStatus::Evicted => "status.evicted",
            RowStatus::NoWatermark => "status.nowm",
            RowStatus::NoTimeout => "status.notimeout",
        })
    };
    let limit = RwSignal::new(STATE_PAGE_ROWS);
    view! {
        <div class="panel state" data-testid="state-store">
            <h2>{move || lab.t("state")}{move || lab.selected_batch.get().map(|id| format!(" · {} {id}", lab.t("batch.id")))}</h2>
            {move || {
                let tables = lab.shown_with(|v| v.state.clone());
                let limit_now = limit.get();
                if tables.is_empty() {
                    // A query that does not compile has no plan to say whether it keeps state.
                    let key = if lab.view.with(|v| v.error.is_some()) { "query.broken" } else { "state.none" };
                    return view! { <p class="muted" data-testid="state-empty">{lab.t(key)}</p> }.into_any();
                }
                // After a crash in or after the sink's write (the live view, not a scrubbed
                // batch): the table is the version the crashed batch committed, which a restart
                // does not read.
                let crashed = lab.selected_batch.get().is_none().then(|| lab.view.with(|v| v.recovery.as_ref().and_then(|r| r.crashed_after_state))).flatten();
                let note = crashed.map(|n| view! {
                    <p class="help" data-testid="state-crashed">{move || lab.t_with("state.crashed", &[("n", &n.to_string()), ("v", &(n + 1).to_string())])}</p>
                });
                let tables = tables.into_iter().map(|t| view! {
                    <h3><code>{t.operator.clone()}</code></h3>
                    {t.note.clone().map(|note| view! { <p class="help">{move || note.get(lab.lang.get()).clone()}</p> })}
                    {if t.rows.is_empty() {
                        view! { <p class="muted">{lab.t("state.empty")}</p> }.into_any()
                    } else {
                        let total = t.rows.len();
                        let shown = total.min(limit_now);
                        view! {
                            <div class="table-box" tabindex="0" role="region" aria-label=t.operator.clone()>
                            <table class="grid">
                                <thead><tr>{t.columns.iter().map(|c| view! { <th>{c.clone()}</th> }).collect_view()}<th class="status">{lab.t("status")}</th></tr></thead>
                                <tbody>
                                    {t.rows.into_iter().take(shown).map(|(cells, status)| view! {
                                        <tr data-testid="state-row" class=format!("st-{status:?}").to_lowercase()>
                                            {cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                                            <td class="status" title=status_label(status)><span class="status-text">{status_label(status)}</span></td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                            </div>
                            <MoreRows shown=shown total=total limit=limit/>
                        }.into_any()
                    }}
                }).collect_view();
                view! { {note}{tables} }.into_any()
            }}
        </div>
    }
}

/// The selected batch's state metrics, progress JSON, and the analyzed plan.
#[component]
pub fn MetricsPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <div class="panel metrics">
            <h2>{move || lab.t("metrics")}{move || selected(lab).map(|b| format!(" · {} {}", lab.t("batch.id"), b.id))}</h2>
            {move || selected(lab).map(|b| view! {
                // A stateless query has no state store: its progress says `stateOperators: []`.
                {b.metrics.is_empty().then(|| view! { <p class="help" data-testid="metrics-stateless">{lab.t("metrics.none")}</p> })}
                // One column per operator, one row per metric: the metric names stay readable
                // in a narrow column (a stateful query has one or two operators).
                <div class="table-box" tabindex="0" role="region" aria-label=lab.t("metrics") hidden=b.metrics.is_empty()>
                <table class="grid metrics-table">
                    <thead><tr><th>"operator"</th>{b.metrics.iter().map(|m| view! { <th><code>{m.operator.clone()}</code></th> }).collect_view()}</tr></thead>
                    <tbody>
                        {[
                            ("numRowsTotal", b.metrics.iter().map(|m| m.total).collect::<Vec<_>>()),
                            ("numRowsUpdated", b.metrics.iter().map(|m| m.updated).collect()),
                            ("numRowsRemoved", b.metrics.iter().map(|m| m.removed).collect()),
                            ("numRowsDroppedByWatermark", b.metrics.iter().map(|m| m.dropped).collect()),
                        ].into_iter().map(|(name, values)| view! {
                            <tr><th scope="row"><code>{name}</code></th>{values.into_iter().map(|n| view! { <td>{n}</td> }).collect_view()}</tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
                {(!b.sampled_operators.is_empty()).then(|| {
                    let ops = b.sampled_operators.join(", ");
                    view! { <p class="help" data-testid="metrics-sampled">{move || lab.t_with("metrics.sampled", &[("ops", &ops)])}</p> }
                })}
                <p class="help">{lab.t("late.wm")}" "{b.late_watermark.clone()}
                    {(b.late_watermark_ms == 0).then(|| view! { " ("{lab.t("watermark.not_yet")}")" })}</p>
                <details>
                    <summary>{lab.t("progress")}</summary>
                    <pre class="json" data-testid="progress-json">{lab.shown_with(|v| v.progress_json.clone()).unwrap_or_default()}</pre>
                </details>
            })}
            <details>
                <summary>{move || lab.t("plan")}</summary>
                <pre class="plan">{move || lab.view.with(|v| v.plan.clone()).unwrap_or_default()}</pre>
            </details>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::tail_start;

    #[test]
    fn a_tail_page_keeps_the_selected_row() {
        // 100 batches, a page of 30: rows 70..100; with row 3 selected, rows 3..100; fewer
        // rows than a page: all of them.
        assert_eq!(tail_start(100, 30, None), 70);
        assert_eq!(tail_start(100, 30, Some(3)), 3);
        assert_eq!(tail_start(100, 30, Some(85)), 70);
        assert_eq!(tail_start(10, 30, None), 0);
    }
}
