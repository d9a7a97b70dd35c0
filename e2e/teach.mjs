// The instructor's tools and the finish of issue 8, end to end: presenter mode driven by the
// keyboard, step back (undo), share links opened in a fresh browser context, bad links that
// change nothing, a 390 px phone screen with no sideways scrolling, and Korean.
//
// Called from e2e.mjs with a browser of its own (`chromium.launch`; closed here at the end), so
// every context here starts with empty storage: a share link is really opened "on another
// machine". Screenshots: presenter.png, presenter-ko.png, share-opened.png, share-bad-link.png,
// phone-en.png, phone-ko.png, lab-teach-ko.png.

import { readBank, assertTriedIn } from './study.mjs';

const tid = (id) => `[data-testid="${id}"]`;

/** A fresh context and page, with page errors collected into `problems`. */
async function freshPage(browser, problems, viewport) {
  const context = await browser.newContext({ viewport, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const name = `${viewport.width}x${viewport.height}`;
  page.on('pageerror', (err) => problems.push(`[${name}] pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`[${name}] console error: ${msg.text()}`);
  });
  page.on('requestfailed', (req) => problems.push(`[${name}] request failed: ${req.url()} ${req.failure()?.errorText}`));
  return { context, page };
}

/** What the lab shows: batch count, the watermark text, the emitted rows' text, steps done. */
async function labState(page) {
  return page.evaluate(() => {
    const q = (id) => document.querySelector(`[data-testid="${id}"]`);
    return {
      batches: document.querySelectorAll('[data-testid="batch-row"]').length,
      watermark: q('watermark-value')?.textContent.trim() ?? null,
      rows: q('emitted-rows')?.innerText.trim() ?? null,
      steps: q('steps-done')?.textContent.replace(/\s+/g, '') ?? null,
    };
  });
}

export async function teachChecks({ root, browser, baseUrl, check, assert, outDir, LabPage }) {
  const bank = await readBank(root);
  const problems = [];
  const shot = (name) => `${outDir}/${name}`;
  const { context: ctx1, page } = await freshPage(browser, problems, { width: 1280, height: 720 });
  const lab = new LabPage(page);
  const batchCount = () => page.locator(tid('batch-row')).count();
  const waitBatches = (n) => page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [tid('batch-row'), n]);
  const blur = () => page.evaluate(() => document.activeElement?.blur());
  let n = 0;
  let shared = null;

  try {
    await check('teach: presenter mode by keyboard: → runs a step, ← takes it back, 2 switches to update', async () => {
      await lab.open(baseUrl);
      await lab.selectPreset('classic');
      n = await lab.waitForFreshScenario();
      await blur();
      // Keys must not fire while typing: "p" typed into a text box leaves presenter mode off.
      await lab.el('advance-time').fill('');
      await lab.el('advance-time').press('p');
      assert((await lab.el('presenter-pane').count()) === 0, 'typing "p" in a text box turned presenter mode on');
      await blur();
      await page.keyboard.press('p');
      await lab.el('presenter-pane').waitFor({ state: 'visible' });
      assert(!(await lab.el('query-editor').isVisible()), 'the query editor is still shown in presenter mode');
      assert(!(await lab.el('quiz').isVisible()), 'the quiz is still shown in presenter mode');
      await page.keyboard.press('ArrowRight');
      await lab.waitForStepsDone(1, n);
      const afterOne = await batchCount();
      await page.keyboard.press('ArrowRight');
      await lab.waitForStepsDone(2, n);
      const afterTwo = await batchCount();
      assert(afterTwo > afterOne, `the second step ran no batch (${afterOne} → ${afterTwo})`);
      await page.keyboard.press('ArrowLeft');
      await lab.waitForStepsDone(1, n);
      await waitBatches(afterOne);
      await page.keyboard.press('ArrowRight');
      await lab.waitForStepsDone(2, n);
      await waitBatches(afterTwo);
      // A presentation clicker's keys: PageUp steps back, PageDown runs the step again.
      await page.keyboard.press('PageUp');
      await lab.waitForStepsDone(1, n);
      await page.keyboard.press('PageDown');
      await lab.waitForStepsDone(2, n);
      await waitBatches(afterTwo);
      await page.keyboard.press('2');
      // The presenter's mode buttons show the mode the lab runs in.
      const waitMode = (want) => page.waitForFunction(([sel, m]) => document.querySelector(`${sel} [aria-pressed="true"]`)?.textContent.trim() === m, [tid('presenter-mode'), want]);
      await waitMode('update');
      // The mode's buttons switch it too (a clicker or a mouse, no keys): complete, then back.
      await lab.el('presenter-mode-complete').click();
      await waitMode('complete');
      assert((await lab.el('mode-complete').getAttribute('aria-pressed')) === 'true', 'the presenter\'s complete button did not set the lab\'s output mode');
      await page.keyboard.press('2');
      await waitMode('update');
      // Answers stay hidden until revealed.
      assert((await lab.el('presenter-answer').count()) === 0, 'an answer is shown before it is revealed');
      // The notes ask questions about the open example; r reveals their answers and r again
      // hides them.
      await page.keyboard.press('r');
      await lab.el('presenter-answer').first().waitFor({ state: 'visible' });
      await page.keyboard.press('r');
      await lab.el('presenter-answer').first().waitFor({ state: 'detached' });
      // The delay slider is there in presenter mode, and + and − walk its stops (classic:
      // '10 minutes', the stops around it 7 and 15 minutes).
      assert(await lab.el('delay-slider-0').isVisible(), 'the delay slider is hidden in presenter mode');
      await page.keyboard.press('+');
      await page.waitForFunction((sel) => document.querySelector(sel)?.value.includes("'15 minutes'"), tid('query-editor'));
      await page.keyboard.press('-');
      await page.keyboard.press('-');
      await page.waitForFunction((sel) => document.querySelector(sel)?.value.includes("'7 minutes'"), tid('query-editor'));
      await page.keyboard.press('+');
      await page.waitForFunction((sel) => document.querySelector(sel)?.value.includes("'10 minutes'"), tid('query-editor'));
      await page.keyboard.press('1');
      await waitMode('append');
      await page.screenshot({ path: shot('presenter.png') });
      await page.keyboard.press('Escape');
      await lab.el('presenter-pane').waitFor({ state: 'detached' });
      assert(await lab.el('query-editor').isVisible(), 'leaving presenter mode did not bring the editor back');
    });

    for (const [preset, lang] of [['classic', 'en'], ['busy-board', 'en'], ['busy-board', 'ko']]) {
      await check(`present: presenter mode at 1280×720 after every step of ${preset} has no page scroll; picture labels ≥ 16 px (${lang})`, async () => {
        await lab.selectPreset(preset);
        const m = await lab.waitForFreshScenario();
        if (lang !== (await page.evaluate(() => document.documentElement.lang))) await lab.toggleLang(lang);
        await blur();
        await page.keyboard.press('p');
        await lab.el('presenter-pane').waitFor({ state: 'visible' });
        for (let k = 1; k <= m; k++) {
          await page.keyboard.press('ArrowRight');
          await lab.waitForStepsDone(k, m);
        }
        // The picture is redrawn for the last batch and at presenter scale.
        await page.waitForFunction(() => Number(document.querySelector('[data-testid="picture-canvas"]')?.dataset.minLabelPx) >= 16);
        const fit = await page.evaluate(() => {
          const c = document.querySelector('[data-testid="picture-canvas"]');
          const box = (sel) => { const r = document.querySelector(sel)?.getBoundingClientRect(); return r ? [Math.round(r.top), Math.round(r.bottom), Math.round(r.width), Math.round(r.height)] : null; };
          return {
            scroll: document.documentElement.scrollHeight, inner: innerHeight,
            scrollW: document.documentElement.scrollWidth, innerW: innerWidth,
            minLabel: Number(c.dataset.minLabelPx), canvas: [c.width, c.height],
            picture: box('[data-testid="time-picture"]'), sink: box('[data-testid="emitted-rows"]'), state: box('[data-testid="state-store"]'),
            batches: box('[data-testid="batch-list"]'), pane: box('[data-testid="presenter-pane"]'), slider: box('[data-testid="delay-slider-0"]'),
          };
        });
        console.log(`    ${preset} ${lang}: ${JSON.stringify(fit)}`);
        assert(fit.scroll <= fit.inner, `the page scrolls: scrollHeight ${fit.scroll} > ${fit.inner}`);
        assert(fit.scrollW <= fit.innerW, `the page scrolls sideways: scrollWidth ${fit.scrollW} > ${fit.innerW}`);
        assert(fit.minLabel >= 16, `the picture's smallest label is ${fit.minLabel} px`);
        for (const [name, b] of Object.entries({ picture: fit.picture, sink: fit.sink, state: fit.state, pane: fit.pane, slider: fit.slider })) {
          assert(b && b[1] <= fit.inner + 0.5 && b[3] > 0, `${name} is not on screen: ${JSON.stringify(b)}`);
        }
        // The picture has the largest panel.
        const area = (b) => b[2] * b[3];
        assert(area(fit.picture) > area(fit.sink) && area(fit.picture) > area(fit.state), 'the picture is not the largest panel');
        // The batch list scrolls to its foot: the newest batch is in view (the audience watches it).
        const last = await page.evaluate(() => {
          const panel = document.querySelector('.panel.batches');
          const rows = [...document.querySelectorAll('[data-testid="batch-row"]')];
          const r = rows[rows.length - 1].getBoundingClientRect();
          const p = panel.getBoundingClientRect();
          return { row: [Math.round(r.top), Math.round(r.bottom)], panel: [Math.round(p.top), Math.round(p.bottom)] };
        });
        assert(last.row[1] <= last.panel[1] + 1 && last.row[0] >= last.panel[0], `the newest batch is out of the batch list's view: ${JSON.stringify(last)}`);
        await page.screenshot({ path: shot(`presenter-fit-${preset}-${lang}.png`) });
        await page.keyboard.press('Escape');
        await lab.el('presenter-pane').waitFor({ state: 'detached' });
        if (lang !== 'en') await lab.toggleLang('en');
      });
    }

    // Presenter mode over a lesson page fits the projector too (it once grew to 1,875 px: the
    // lesson's lab box did not fill the screen).
    await check('present: presenter mode over lesson 5 at 1280×720 has no page scroll', async () => {
      await page.goto(`${baseUrl}#/lesson/watermarks`);
      await page.locator(`${tid('lesson-page')}[data-lesson="watermarks"]`).waitFor({ state: 'visible' });
      if ((await lab.el('replace-ask').count()) > 0) await lab.el('replace-yes').click();
      await blur();
      await page.keyboard.press('p');
      await lab.el('presenter-pane').waitFor({ state: 'visible' });
      for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="batch-row"]').length >= 3);
      const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollHeight, inner: innerHeight, sink: document.querySelector('[data-testid="emitted-rows"]')?.getBoundingClientRect().bottom }));
      console.log(`    lesson 5: ${JSON.stringify(fit)}`);
      assert(fit.scroll <= fit.inner, `the lesson page scrolls in presenter mode: scrollHeight ${fit.scroll} > ${fit.inner}`);
      assert(fit.sink !== undefined && fit.sink <= fit.inner + 0.5, `the sink is below the fold: ${fit.sink}`);
      await page.screenshot({ path: shot('presenter-fit-lesson-en.png') });
      await page.keyboard.press('Escape');
      await lab.el('presenter-pane').waitFor({ state: 'detached' });
      // Back to the free lab, where the next checks pick presets.
      await page.goto(`${baseUrl}#/lab`);
      await lab.el('preset-select').waitFor({ state: 'visible' });
    });

    await check('teach: the Step back button and the play speed picker', async () => {
      await lab.selectPreset('classic');
      n = await lab.waitForFreshScenario();
      await lab.el('run-step').click();
      await lab.waitForStepsDone(1, n);
      await lab.el('run-step').click();
      await lab.waitForStepsDone(2, n);
      const before = await batchCount();
      await lab.el('run-step').click();
      await lab.waitForStepsDone(3, n);
      await lab.el('undo').click();
      await lab.waitForStepsDone(2, n);
      await waitBatches(before);
      await lab.el('play-speed').selectOption('500');
      assert((await lab.el('play-speed').inputValue()) === '500', 'the speed picker did not keep 0.5 s');
      // Play at 0.5 s per step runs the next step by itself; pause stops it there.
      await lab.el('play-toggle').click();
      await lab.waitForStepsDone(3, n);
      await lab.el('play-toggle').click();
      assert((await lab.el('play-toggle').getAttribute('aria-pressed')) === 'false', 'play did not pause');
      await lab.el('undo').click();
      await lab.waitForStepsDone(2, n);
    });

    await check('teach: a share link opened in a fresh browser context shows the same batches', async () => {
      await lab.el('run-step').click();
      await lab.waitForStepsDone(3, n);
      const here = await labState(page);
      assert(here.batches > 0 && here.rows, `nothing to share: ${JSON.stringify(here)}`);
      await lab.el('share').click();
      const link = await lab.el('share-link').inputValue();
      assert(/#lab=1\./.test(link), `share link: ${link.slice(0, 80)}`);
      assert(page.url() === link, 'the share link is not in the address bar');
      shared = { link, state: here };
      const { context: ctx2, page: other } = await freshPage(browser, problems, { width: 1280, height: 900 });
      try {
        await other.goto(link, { waitUntil: 'load' });
        const offer = other.locator(tid('share-offer'));
        await offer.waitFor({ state: 'visible' });
        // Nothing is replaced before the learner says so.
        const fresh = await labState(other);
        assert(fresh.batches === 0, `the shared lab opened without asking (${fresh.batches} batches)`);
        await other.locator(tid('share-open')).click();
        await other.waitForFunction(([sel, want]) => document.querySelector(sel)?.textContent.replace(/\s+/g, '') === want, [tid('steps-done'), here.steps]);
        const there = await labState(other);
        assert(there.batches === here.batches, `batches: ${there.batches}, want ${here.batches}`);
        assert(there.watermark === here.watermark, `watermark: ${there.watermark}, want ${here.watermark}`);
        assert(there.rows === here.rows, `emitted rows differ:\n${there.rows}\n---\n${here.rows}`);
        assert(!other.url().includes('#lab='), 'the link stayed in the address after opening it');
        await other.screenshot({ path: shot('share-opened.png'), fullPage: false });
        // The learner's own session is kept and comes back.
        await other.locator(tid('share-restore')).click();
        await other.waitForFunction(([sel]) => /^0\/\d+$/.test(document.querySelector(sel)?.textContent.replace(/\s+/g, '') ?? ''), [tid('steps-done')]);
      } finally {
        await ctx2.close();
      }
    });

    await check('teach: a corrupted link and an oversized link give a message and leave the saved session alone', async () => {
      assert(shared, 'no share link from the check before');
      const saved = () => page.evaluate(() => localStorage.getItem('streamlab.session.v1'));
      const before = await saved();
      const stateBefore = await labState(page);
      assert(before, 'no saved session to protect');
      const hashAt = shared.link.indexOf('#lab=1.') + '#lab=1.'.length;
      const payload = shared.link.slice(hashAt);
      const base = shared.link.slice(0, hashAt);
      for (const [what, link, want] of [
        ['corrupted', base + payload.slice(0, 20) + '!*!*' + payload.slice(24), /damaged|cut short/],
        ['truncated', base + payload.slice(0, Math.floor(payload.length / 2)), /damaged|cut short/],
        ['oversized', base + 'A'.repeat(20_000), /characters long/],
      ]) {
        await page.goto('about:blank');
        await page.goto(link, { waitUntil: 'load' });
        const msg = lab.el('share-link-error');
        await msg.waitFor({ state: 'visible' });
        const text = await msg.innerText();
        assert(want.test(text), `${what} link: message ${JSON.stringify(text)}`);
        assert((await lab.el('share-offer').count()) === 0, `${what} link: offered to open`);
        await lab.waitForStepsDone(...stateBefore.steps.split('/').map(Number));
        const after = await labState(page);
        assert(JSON.stringify(after) === JSON.stringify(stateBefore), `${what} link changed the lab: ${JSON.stringify(after)}`);
        assert((await saved()) === before, `${what} link changed the saved session`);
      }
      await page.screenshot({ path: shot('share-bad-link.png') });
      await lab.el('share-error-close').click();
    });
  } finally {
    await ctx1.close();
  }

  for (const lang of ['en', 'ko']) {
    await check(`teach: a 390 px phone screen has no sideways scrolling; at 320 px the picture fits at its own size (${lang})`, async () => {
      const { context, page: phone } = await freshPage(browser, problems, { width: 390, height: 844 });
      try {
        const small = new LabPage(phone);
        await small.open(baseUrl);
        if (lang === 'ko') await small.toggleLang('ko');
        await small.selectPreset('stream-stream-outer-join');
        const m = await small.waitForFreshScenario();
        await small.el('run-step').click();
        await small.waitForStepsDone(1, m);
        await small.el('share').click();
        await small.el('share-link').waitFor({ state: 'visible' });
        const widths = await phone.evaluate(() => {
          const wide = [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest('.panel'))
            .slice(0, 5)
            .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
          return { scroll: document.documentElement.scrollWidth, wide };
        });
        assert(widths.scroll <= 390, `scrollWidth ${widths.scroll} > 390: ${widths.wide.join(', ')}`);
        // What "Next step" changes is right under it: the picture follows the run panel, then
        // the emitted rows and the state store, before the watermark panel, the query and the
        // event form.
        const tops = await phone.evaluate(() => Object.fromEntries(['run', 'time-picture', 'sink', 'state', 'watermark', 'query', 'input'].map((c) => [c, document.querySelector(`.lab .panel.${c}`).getBoundingClientRect().top])));
        const order = ['run', 'time-picture', 'sink', 'state', 'watermark', 'query', 'input'];
        assert(order.every((c, i) => i === 0 || tops[order[i - 1]] < tops[c]), `phone panel order: ${JSON.stringify(tops)}`);
        await phone.screenshot({ path: shot(`phone-${lang}.png`), fullPage: true });
        // On a 320 px phone the picture is redrawn to fit its box at its own size, not scaled
        // down by CSS (the mark buttons, placed in canvas px, would then miss their marks).
        await phone.setViewportSize({ width: 320, height: 700 });
        await phone.waitForFunction(() => {
          const c = document.querySelector('[data-testid="picture-canvas"]');
          return c && c.width === c.clientWidth && c.getBoundingClientRect().right <= c.parentElement.getBoundingClientRect().right + 0.5;
        });
      } finally {
        await context.close();
      }
    });
  }

  await check('teach: Korean: the lab, the preset notes and presenter mode in Korean', async () => {
    const { context, page: ko } = await freshPage(browser, problems, { width: 1280, height: 900 });
    try {
      const kl = new LabPage(ko);
      await kl.open(baseUrl);
      await kl.toggleLang('ko');
      await kl.selectPreset('late-data');
      const m = await kl.waitForFreshScenario();
      await kl.el('run-step').click();
      await kl.waitForStepsDone(1, m);
      const notes = await kl.text('preset-notes');
      assert(/[\uac00-\ud7a3]/.test(notes), `preset notes are not Korean: ${notes.slice(0, 80)}`);
      const wb = await ko.evaluate(() => getComputedStyle(document.body).wordBreak);
      assert(wb === 'keep-all', `word-break is ${wb}`);
      // A bad event field: the message is in Korean too.
      const note = await kl.pushEvent(await ko.locator('[data-testid^="event-form-"]').first().getAttribute('data-testid').then((t) => t.replace('event-form-', '')), { event_time: '25:00' });
      assert(/[\uac00-\ud7a3]/.test(note), `the event error is not Korean: ${note}`);
      await ko.screenshot({ path: shot('lab-teach-ko.png'), fullPage: false });
      await ko.evaluate(() => document.activeElement?.blur());
      await ko.keyboard.press('p');
      await kl.el('presenter-pane').waitFor({ state: 'visible' });
      await ko.setViewportSize({ width: 1280, height: 720 });
      await ko.screenshot({ path: shot('presenter-ko.png') });
    } finally {
      await context.close();
    }
  });

  await check('teach: "Try it in the lab" asks before replacing a lab the learner worked in', async () => {
    const { context, page: p } = await freshPage(browser, problems, { width: 1280, height: 900 });
    try {
      const l = new LabPage(p);
      await l.open(baseUrl);
      await l.selectPreset('classic');
      const m = await l.waitForFreshScenario();
      await l.el('run-step').click();
      await l.waitForStepsDone(1, m);
      // The question bank is its own page (#/quiz); "try it" there asks before replacing.
      await l.el('nav-quiz').click();
      await l.el('quiz-try').first().click();
      await l.el('replace-ask').waitFor({ state: 'visible' });
      await l.el('replace-no').click();
      await l.el('replace-ask').waitFor({ state: 'detached' });
      await l.el('nav-lab').click();
      await l.waitForStepsDone(1, m);
      await l.el('nav-quiz').click();
      const id = await p.locator(tid('question')).first().getAttribute('data-question');
      await l.el('quiz-try').first().click();
      await l.el('replace-yes').click();
      // The question's scenario opens in the lab (its query, at the batch it is about).
      await l.el('replace-ask').waitFor({ state: 'detached' });
      await assertTriedIn(p, bank.get(id), assert);
    } finally {
      await context.close();
    }
  });

  await check('present: two tabs notice each other; a tab that another saved over stops saving and asks', async () => {
    const { context, page: one } = await freshPage(browser, problems, { width: 1280, height: 900 });
    try {
      const a = new LabPage(one);
      await a.open(baseUrl);
      await a.selectPreset('classic');
      const m = await a.waitForFreshScenario();
      await a.el('run-step').click();
      await a.waitForStepsDone(1, m);
      // Tab 1's save is debounced: hiding the page runs it at once, so tab 2 opens on it (on a
      // loaded machine tab 2 could otherwise read the session from before the step).
      await one.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
      await one.waitForFunction(() => {
        // The session is stored as a JSON string holding the saved lab's JSON.
        const raw = localStorage.getItem('streamlab.session.v1');
        if (!raw) return false;
        const outer = JSON.parse(raw);
        return (typeof outer === 'string' ? JSON.parse(outer) : outer).next_step === 1;
      });
      const two = await context.newPage();
      two.on('pageerror', (err) => problems.push(`[tab 2] pageerror: ${err.message}`));
      const b = new LabPage(two);
      await b.open(baseUrl);
      await b.waitForStepsDone(1, m);
      // Each says the other is open, before anything is overwritten.
      await a.el('tabs-other').waitFor({ state: 'visible' });
      await b.el('tabs-other').waitFor({ state: 'visible' });
      const saved = () => one.evaluate(() => localStorage.getItem('streamlab.session.v1'));
      // Tab 2 runs two steps and saves; tab 1 is told and stops saving.
      await b.el('run-step').click();
      await b.waitForStepsDone(2, m);
      await b.el('run-step').click();
      await b.waitForStepsDone(3, m);
      // Hiding tab 2 runs any save it still has due at once.
      await two.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
      await a.el('tabs-conflict').waitFor({ state: 'visible' });
      const tabTwo = await saved();
      // Tab 1 steps back (its lab changes in memory) but does not overwrite tab 2's save, not
      // even when the page is hidden (which runs any save still due at once).
      await a.el('undo').click();
      await a.waitForStepsDone(0, m);
      await one.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
      assert((await saved()) === tabTwo, 'tab 1 overwrote the session tab 2 saved');
      // "Keep this tab's lab" saves it; tab 2 is asked in turn.
      await a.el('tabs-keep-mine').click();
      await one.waitForFunction((before) => localStorage.getItem('streamlab.session.v1') !== before, tabTwo);
      await b.el('tabs-conflict').waitFor({ state: 'visible' });
      // Tab 2 opens the other tab's lab: a reload reads tab 1's (no step done).
      await b.el('tabs-load-other').click();
      await b.waitForStepsDone(0, m);
      await one.screenshot({ path: shot('tabs-en.png') });
    } finally {
      await context.close();
    }
  });

  await check('teach: no page errors in the fresh contexts', async () => {
    assert(problems.length === 0, problems.join('\n'));
  });
  await browser.close();
}
