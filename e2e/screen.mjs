// screen: one screen at 1280×720, the batch slider, the delay slider, undo, and two figures
// (printed, not asserted): replay+repaint per delay-slider step on a 1,000-event classic
// scenario, and the repaint of a step with 10,000 state rows. Called from e2e.mjs.

import fsp from 'node:fs/promises';
import path from 'node:path';

const tid = (id) => `[data-testid="${id}"]`;

/** [batch id, window start HH:MM, post_id, count] of every emitted row, sorted. */
async function emitted(lab) {
  const rows = await lab.emittedRows();
  return rows
    .map(({ batchId, row }) => [batchId, String(row.window?.start ?? '').match(/T(\d\d:\d\d)/)?.[1], row.post_id, row.count])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function screenChecks({ page, url, root, check, assert, outDir, LabPage }) {
  const lab = new LabPage(page);
  const classic = JSON.parse(await fsp.readFile(path.join(root, 'assets', 'scenarios', 'classic.json'), 'utf8'));
  await page.setViewportSize({ width: 1280, height: 720 });

  const freshClassic = async () => {
    await lab.open(`${url}#/lab`);
    await lab.selectPreset('classic');
    await lab.el('run-step').click(); // a preset already open is not reloaded: reset it
    await lab.el('reset').click();
    await lab.waitForStepsDone(0, classic.steps.length);
  };

  await check('screen: at 1280×720 right after load, "Next step", the emitted rows and the state store are on screen', async () => {
    await freshClassic();
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const id of ['run-step', 'time-picture', 'emitted-rows', 'state-store', 'batch-scrubber', 'delay-slider-0']) {
      assert(await lab.inViewport(id), `${id} is not inside the 1280×720 viewport: ${JSON.stringify(await lab.box(id))}`);
    }
    // After two steps, the shown batch's emitted row is on screen without scrolling.
    await lab.el('run-step').click();
    await lab.waitForStepsDone(1, classic.steps.length);
    await lab.el('run-step').click();
    await lab.waitForStepsDone(2, classic.steps.length);
    const row = page.locator(`${tid('emitted-rows')} ${tid('emitted-row')}`).first();
    assert(await lab.locatorInViewport(row), 'the current batch\'s emitted row is not on screen');
    assert((await page.evaluate(() => window.scrollY)) === 0, 'the page scrolled');
    await page.screenshot({ path: path.join(outDir, 'screen-1280x720-en.png') });
    await lab.toggleLang('ko');
    await page.screenshot({ path: path.join(outDir, 'screen-1280x720-ko.png') });
    await lab.toggleLang('en');
  });

  await check('screen: the batch list follows the newest batch, and stays where the learner scrolled to', async () => {
    await freshClassic();
    for (let k = 1; k <= classic.steps.length; k++) {
      await lab.el('run-step').click();
      await lab.waitForStepsDone(k, classic.steps.length);
    }
    const rows = page.locator(`${tid('batch-list')} ${tid('batch-row')}`);
    await page.waitForFunction(() => { const p = document.querySelector('.panel.batches'); return p && p.scrollTop > 0; });
    const inPanel = await rows.last().evaluate((r) => { const a = r.getBoundingClientRect(); const p = r.closest('.panel.batches').getBoundingClientRect(); return a.top >= p.top - 1 && a.bottom <= p.bottom + 1; });
    assert(inPanel, 'the newest batch row is not in view inside the batch list');
    const panelScroll = () => page.evaluate(() => { const p = document.querySelector('.panel.batches'); return { top: p.scrollTop, max: p.scrollHeight - p.clientHeight }; });
    const at = await panelScroll();
    assert(at.max > 0 && at.top >= at.max - 24, `the batch list is not scrolled to its foot: ${JSON.stringify(at)}`);
    // Scrolled up to read batch 0, a new batch does not pull the list away.
    await page.evaluate(() => { const p = document.querySelector('.panel.batches'); p.scrollTop = 0; p.dispatchEvent(new Event('scroll')); });
    const before = await rows.count();
    await lab.el('advance-time').fill('10:30');
    await lab.el('advance-time').press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="batch-row"]').length > n, before);
    await page.waitForTimeout(100);
    assert((await panelScroll()).top === 0, 'the batch list scrolled away from where the learner was reading');
  });

  await check('screen: beside a lesson at 1280×720, "Next step", the emitted rows and the state store are on screen', async () => {
    await page.goto(`${url}#/lesson/watermarks`, { waitUntil: 'load' });
    await lab.el('run-step').waitFor({ state: 'visible' });
    for (const id of ['run-step', 'emitted-rows', 'state-store']) {
      assert(await lab.inViewport(id), `${id} is not inside the 1280×720 viewport beside a lesson: ${JSON.stringify(await lab.box(id))}`);
    }
    await page.screenshot({ path: path.join(outDir, 'screen-lesson-1280x720-en.png') });
    // The lesson offers its preset in place of the changed lab: keep the lab.
    if ((await lab.el('replace-ask').count()) > 0) await lab.el('replace-no').click();
  });

  await check('screen: the delay slider replays every batch; the rows change as the engine says', async () => {
    await freshClassic();
    await lab.el('run-step').click();
    await lab.waitForStepsDone(1, classic.steps.length);
    await lab.el('run-step').click();
    await lab.waitForStepsDone(2, classic.steps.length);
    // Worked by hand (model/tests/timeline.rs checks the same numbers natively). Events on
    // 2026-03-02: step 0 c1 p1 09:02, c2 p2 09:06, c3 p1 09:13; step 1 c4 p2 09:08, c5 p3
    // 09:16. Windows 10 min sliding by 5; a no-data batch runs whenever the watermark moves.
    // Delay 10 min: watermark 09:03 after batch 0 (no-data batch 1 emits nothing), 09:06 after
    // batch 2: no-data batch 3 emits [08:55, 09:05) p1 = 1.
    let got = await emitted(lab);
    assert(JSON.stringify(got) === JSON.stringify([[3, '08:55', 1, 1]]), `10 minutes: ${JSON.stringify(got)}`);
    // Delay 0 (the slider's first stop): watermark 09:13 after batch 0, so no-data batch 1
    // emits the windows ending by 09:13: [08:55,09:05) p1 = 1, [09:00,09:10) p1 = 1, p2 = 1.
    // Batch 2's c4 (09:08) is late for [09:00,09:10) (dropped) but counts in [09:05,09:15);
    // watermark 09:16: no-data batch 3 emits [09:05,09:15) p1 = 1 (c3), p2 = 2 (c2, c4).
    await lab.setRange('delay-slider-0', 0);
    // The slider applies its stop on the next animation frame: the query's text says when.
    await page.waitForFunction((sel) => document.querySelector(sel)?.value.includes("'0 seconds'"), tid('query-editor'));
    got = await emitted(lab);
    const want = [[1, '08:55', 1, 1], [1, '09:00', 1, 1], [1, '09:00', 2, 1], [3, '09:05', 1, 1], [3, '09:05', 2, 2]];
    assert(JSON.stringify(got) === JSON.stringify(want), `0 seconds: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    // A negative delay is refused beside the field; the slider and the field stay.
    await lab.el('delay-0').fill('-5 minutes');
    await lab.el('delay-0').press('Enter');
    const err = lab.el('delay-error-0');
    await err.waitFor({ state: 'visible' });
    assert(/should not be negative/.test(await err.innerText()), `delay-error-0: ${await err.innerText()}`);
    assert(await lab.el('delay-slider-0').isVisible(), 'the delay slider went away');
    assert(JSON.stringify(await emitted(lab)) === JSON.stringify(want), 'a refused delay changed the rows');
    // A typed delay between two stops (8 minutes) puts the thumb on the nearer one (7
    // minutes); the arrow key down goes to 7 minutes, the stop below 8, not to the notch
    // below the thumb (5 minutes).
    await lab.el('delay-0').fill('8 minutes');
    await lab.el('delay-0').press('Enter');
    await page.waitForFunction((sel) => document.querySelector(sel)?.value.includes("'8 minutes'"), tid('query-editor'));
    await lab.el('delay-slider-0').focus();
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((sel) => document.querySelector(sel)?.value.includes("'7 minutes'"), tid('query-editor'));
    await lab.setRange('delay-slider-0', 10); // 10 minutes
    await page.waitForFunction((sel) => document.querySelector(sel)?.value.includes("'10 minutes'"), tid('query-editor'));
    await err.waitFor({ state: 'detached' });
  });

  await check('screen: scrub back to batch 3 (slider and ← key), the state store shows batch 3; undo', async () => {
    await lab.runAllSteps(classic.steps.length + 1);
    const live = await lab.stateRows();
    // As of batch 3 (watermark 09:06, delay 10 minutes): the windows of c1–c5, none ending by
    // 09:06 so all open, and [08:55, 09:05) p1 evicted by that batch (shown once, no count).
    const want = [
      '[08:55, 09:05) 1 — removed by the last batch (evicted or merged)',
      '[09:00, 09:10) 1 1 open', '[09:00, 09:10) 2 2 open',
      '[09:05, 09:15) 1 1 open', '[09:05, 09:15) 2 2 open',
      '[09:10, 09:20) 1 1 open', '[09:10, 09:20) 3 1 open',
      '[09:15, 09:25) 3 1 open',
    ];
    await lab.setRange('batch-slider', 4); // batch 4 (ids run 0, 1, 2, …)
    await page.waitForFunction((sel) => /batch 4\b/i.test(document.querySelector(sel)?.textContent ?? ''), tid('shown-batch'));
    await page.evaluate(() => document.activeElement?.blur()); // the keys, not the slider's own
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((sel) => /batch 3\b/i.test(document.querySelector(sel)?.textContent ?? ''), tid('shown-batch'));
    const got = (await lab.stateRows()).sort();
    assert(JSON.stringify(got) === JSON.stringify(want.sort()), `state as of batch 3:\n${got.join('\n')}`);
    assert((await lab.text('watermark-value')).includes('09:06'), `watermark as of batch 3: ${await lab.text('watermark-value')}`);
    const rows = await lab.emittedRows();
    assert(rows.every(({ batchId }) => batchId <= 3), 'the sink shows rows after batch 3');
    await page.screenshot({ path: path.join(outDir, 'screen-batch3-en.png') });
    await lab.el('batch-live').click();
    assert(JSON.stringify(await lab.stateRows()) === JSON.stringify(live), 'Live does not return to the latest state');
    // Undo: a step goes back whole. The preset's last step is empty (it runs nothing); the one
    // before adds c10 (09:35), whose batches go with it.
    const [k, n] = await lab.stepsDone();
    const before = (await lab.batchIds()).length;
    await lab.el('undo').click();
    await lab.waitForStepsDone(k - 1, n);
    assert((await lab.batchIds()).length === before, 'undoing the empty step changed the batches');
    await lab.el('undo').click();
    await lab.waitForStepsDone(k - 2, n);
    assert((await lab.batchIds()).length < before, 'undo left the batches of the c10 step');
  });

  await check('screen: compare output modes side by side; a mode Spark rejects shows its error', async () => {
    await freshClassic();
    await lab.el('run-step').click();
    await lab.waitForStepsDone(1, classic.steps.length);
    await lab.el('run-step').click();
    await lab.waitForStepsDone(2, classic.steps.length);
    await lab.el('compare-modes').click();
    const perBatch = async (mode) => lab.el(`compare-col-${mode}`).locator(tid('compare-batch')).evaluateAll((els) => els.map((e) => Number(e.dataset.rows)));
    // Worked by hand (model/tests/timeline.rs): append emits only [08:55, 09:05) p1 in no-data
    // batch 3; update the 6 groups of c1–c3, then the 4 c4/c5 touch; complete runs no no-data
    // batches and shows the whole table: 6, then 8.
    const want = { append: [0, 0, 0, 1], update: [6, 0, 4, 0], complete: [6, 8] };
    for (const [mode, rows] of Object.entries(want)) {
      const got = await perBatch(mode);
      assert(JSON.stringify(got) === JSON.stringify(rows), `${mode}: ${JSON.stringify(got)}, want ${JSON.stringify(rows)}`);
    }
    await page.screenshot({ path: path.join(outDir, 'screen-compare-en.png'), fullPage: true });
    const original = await lab.queryText();
    await lab.setQuery("clicks.groupBy('post_id').count()");
    await lab.el('mode-update').click();
    const err = lab.el('compare-error-append');
    await err.waitFor({ state: 'visible' });
    assert(/STREAMING_OUTPUT_MODE\.UNSUPPORTED_OPERATION/.test(await err.innerText()), `compare-error-append: ${await err.innerText()}`);
    await lab.setQuery(original);
    await lab.el('mode-append').click();
    await lab.el('compare-modes').click();
  });

  await check('screen: median replay+repaint per delay-slider step, 1,000-event classic scenario (printed)', async () => {
    // 1,000 events in 50 steps of 20; 15 s apart from 09:00; every 10th event 20 minutes late.
    const steps = [];
    for (let s = 0; s < 50; s++) {
      const clicks = [];
      for (let j = 0; j < 20; j++) {
        const i = s * 20 + j;
        const t = new Date(Date.UTC(2026, 2, 2, 9, 0, 0) + i * 15_000 - (i % 10 === 9 ? 20 * 60_000 : 0));
        clicks.push({ event_id: `e${i}`, user_id: `u${i % 13}`, post_id: i % 7, event_time: t.toISOString().replace('.000Z', 'Z') });
      }
      steps.push({ clicks });
    }
    const big = { ...classic, id: 'classic-1000', steps };
    await lab.open(`${url}#/lab`);
    await lab.openScenario(JSON.stringify(big));
    await lab.waitForStepsDone(0, 50);
    await lab.runAllSteps(51);
    const queryBefore = await lab.el('query-editor').inputValue();
    const droppedBefore = await lab.text('batch-list');
    // 20 steps over the stops 4..13 and back. Per step: the time from the input event to the
    // repaint that shows it (the page applies a step in its next animation frame, so this
    // includes the wait for that frame), and how that frame's time went: the page's script (the
    // lab's frame callback, which replays or swaps in the kept replay and updates the page,
    // timed between a frame callback asked for before the input and one after it), then the
    // browser's style, layout and paint until the repaint.
    const drag = () => page.evaluate(async (sel) => {
      const el = document.querySelector(sel);
      const steps = [];
      const script = [];
      const render = [];
      for (let i = 0; i < 20; i++) {
        let before = 0;
        requestAnimationFrame(() => { before = performance.now(); });
        const t0 = performance.now();
        el.value = String(4 + (i % 10));
        el.dispatchEvent(new Event('input', { bubbles: true }));
        const after = await new Promise((r) => requestAnimationFrame(() => { const t = performance.now(); setTimeout(() => r(t), 0); }));
        const t1 = performance.now();
        steps.push(t1 - t0);
        script.push(after - before);
        render.push(t1 - after);
      }
      return { steps, script, render };
    }, tid('delay-slider-0'));
    const figures = ({ steps, script, render }) => `median ${median(steps).toFixed(1)} ms per step (min ${Math.min(...steps).toFixed(1)}, max ${Math.max(...steps).toFixed(1)}; script ${median(script).toFixed(1)}, style, layout and paint ${median(render).toFixed(1)})`;
    // Right after the batches ran: the page has had no idle moment to replay other delays.
    const atOnce = await drag();
    // A mode switch replays everything and forgets the delays kept; then the page is left a
    // second, as a learner reads before reaching for the slider: its idle moments replay the
    // stops around the current delay ahead of time (web/src/lib.rs, prepare_delays_when_idle).
    await lab.el('mode-update').click();
    await lab.el('mode-append').click();
    await page.waitForTimeout(1000);
    const settled = await drag();
    // The slider really moved the delay: the query's delay text and the batches changed.
    const queryAfter = await lab.el('query-editor').inputValue();
    assert(queryAfter !== queryBefore, `the delay slider left the query as it was: ${queryAfter}`);
    assert((await lab.text('batch-list')) !== droppedBefore, 'the batches did not change when the delay moved');
    // The batch list draws the newest page of batches: the last id says how many ran.
    const batches = Math.max(...(await lab.batchIds())) + 1;
    const elements = await page.evaluate(() => document.querySelectorAll('*').length);
    console.log(`     delay slider, 1,000 events (${batches} batches), page settled: ${figures(settled)}; right after the batches ran: ${figures(atOnce)}; ${elements} elements on the page`);
  });

  await check('screen: repaint of a step with 10,000 state rows (printed); the state table is paged', async () => {
    const day = Date.UTC(2026, 2, 2, 9, 0, 0);
    const first = [];
    for (let i = 0; i < 10_000; i++) first.push({ event_id: `k${i}`, event_time: new Date(day + i * 1000).toISOString().replace('.000Z', 'Z') });
    const sc = {
      id: 'state-10k',
      sources: { clicks: { schema: [['event_id', 'string'], ['event_time', 'timestamp']] } },
      query: "clicks.groupBy('event_id').count()",
      output_mode: 'update',
      steps: [{ clicks: first }, { clicks: [{ event_id: 'k0', event_time: '2026-03-02T12:00:00Z' }] }],
    };
    await lab.openScenario(JSON.stringify(sc));
    // Five times: back to the start, the first step (10,000 rows), the page left to settle
    // (its idle work done), then the timed second step; the median is printed. A single
    // sample swings with whatever the first step left the browser to do.
    const samples = [];
    for (let i = 0; i < 5; i++) {
      if (i > 0) await lab.el('reset').click();
      await lab.waitForStepsDone(0, 2);
      await lab.el('run-step').click();
      await lab.waitForStepsDone(1, 2);
      await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(), { timeout: 2000 })));
      samples.push(await page.evaluate(async ([btn, done]) => {
        const t0 = performance.now();
        document.querySelector(btn).click();
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        const t = performance.now() - t0;
        return document.querySelector(done).textContent.replace(/\s+/g, '') === '2/2' ? t : -1;
      }, [tid('run-step'), tid('steps-done')]));
    }
    assert(samples.every((t) => t >= 0), `the step had not been drawn after one frame: ${samples.join(', ')}`);
    const ms = median(samples);
    const shown = await lab.el('state-store').locator(tid('state-row')).count();
    // A dense picture: one mark button per spot a few pixels wide, not one per row.
    const buttons = await lab.el('time-picture').locator(tid('picture-mark')).count();
    console.log(`     a step with 10,000 state rows: median ${ms.toFixed(1)} ms to replay and repaint (min ${Math.min(...samples).toFixed(1)}, max ${Math.max(...samples).toFixed(1)}, 5 runs; ${shown} rows drawn, the rest paged; ${buttons} mark buttons for 10,001 rows)`);
    assert(buttons > 0 && buttons < 1000, `${buttons} mark buttons for 10,001 rows`);
    // The state store's first page, STATE_PAGE_ROWS (web/src/components/results.rs), then "show more".
    assert(shown === 100, `${shown} state rows drawn, want the first page of 100`);
    const more = (await lab.el('state-store').locator(tid('more-rows')).innerText()).trim();
    assert(/\b10000\b/.test(more), `the state store's more-rows: ${more}`);
  });

  // Leave the lab as the other checks expect it: the classic preset, 1280×900.
  await freshClassic();
  await page.setViewportSize({ width: 1280, height: 900 });
}
