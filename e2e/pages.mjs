// Page object for the lab page. Every selector the e2e test uses lives here, and only
// `data-testid` hooks are used (the UI contract), so a restyled UI does not break the test.

const tid = (id) => `[data-testid="${id}"]`;

export class LabPage {
  /** @param {import('playwright-core').Page} page */
  constructor(page) {
    this.page = page;
  }

  el(id) {
    return this.page.locator(tid(id));
  }

  /** Opens the app and waits until the wasm app has mounted its controls. */
  async open(url) {
    // study: the app opens on the lesson list; the lab is at #/lab.
    await this.page.goto(url.includes('#') ? url : `${url}#/lab`, { waitUntil: 'load' });
    await this.el('run-step').waitFor({ state: 'visible' });
    await this.el('preset-select').waitFor({ state: 'visible' });
  }

  async text(id) {
    return (await this.el(id).innerText()).trim();
  }

  /** [k, n] from the "k / n" text of `steps-done`. */
  async stepsDone() {
    const text = await this.text('steps-done');
    const m = text.match(/(\d+)\s*\/\s*(\d+)/);
    if (!m) throw new Error(`steps-done text is not "k / n": ${JSON.stringify(text)}`);
    return [Number(m[1]), Number(m[2])];
  }

  async waitForStepsDone(k, n) {
    await this.page.waitForFunction(
      ([sel, want]) => {
        const el = document.querySelector(sel);
        return el && el.textContent.replace(/\s+/g, '') === want;
      },
      [tid('steps-done'), `${k}/${n}`],
    );
  }

  /** Waits until a freshly loaded scenario shows "0 / n" and returns n. */
  async waitForFreshScenario() {
    await this.page.waitForFunction((sel) => {
      const el = document.querySelector(sel);
      return el && /^0\/\d+$/.test(el.textContent.replace(/\s+/g, ''));
    }, tid('steps-done'));
    return (await this.stepsDone())[1];
  }

  async hasQueryError() {
    return (await this.el('query-error').count()) > 0;
  }

  /**
   * Puts `text` in the query editor as one edit (one `input` event), as a paste does.
   * Playwright's `fill` is slow on long multi-line text.
   */
  async setQuery(text) {
    await this.page.evaluate(
      ([sel, value]) => {
        const el = document.querySelector(sel);
        el.value = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      },
      [tid('query-editor'), text],
    );
  }

  async queryText() {
    return this.el('query-editor').inputValue();
  }

  /** The id of the active output mode ('append' | 'update' | 'complete'), from aria-pressed. */
  async activeModes() {
    const active = [];
    for (const mode of ['append', 'update', 'complete']) {
      if ((await this.el(`mode-${mode}`).getAttribute('aria-pressed')) === 'true') active.push(mode);
    }
    return active;
  }

  /** Fills the event form of `source` (column → text) and pushes the event; returns the
   * notice the lab shows afterwards ('' when none). */
  async pushEvent(source, fields) {
    const form = this.el(`event-form-${source}`);
    for (const [col, text] of Object.entries(fields)) {
      await form.locator(tid(`event-field-${col}`)).fill(text);
    }
    await form.locator(tid('push-event')).click();
    const notice = this.el('notice');
    return (await notice.count()) > 0 ? (await notice.innerText()).trim() : '';
  }

  /** Opens the collapsed <details> around `id`, if any, the way a person would. */
  async reveal(id) {
    const el = this.el(id);
    if (!(await el.isVisible())) {
      const details = el.locator('xpath=ancestor::details[1]');
      if ((await details.count()) > 0) await details.locator('summary').first().click();
    }
    return el;
  }

  /** Pastes a scenario (conformance format) and loads it. */
  async openScenario(jsonText) {
    await (await this.reveal('scenario-json')).fill(jsonText);
    await this.el('open-scenario').click();
  }

  /** Clicks the Jupyter ('ipynb') or Databricks ('databricks') notebook export; returns the download. */
  async exportNotebook(kind) {
    const button = await this.reveal(`export-${kind}`);
    const [download] = await Promise.all([this.page.waitForEvent('download'), button.click()]);
    return download;
  }

  /** Clicks "Export to PySpark" and returns the download. */
  async exportPyspark() {
    const button = await this.reveal('export-pyspark');
    const [download] = await Promise.all([this.page.waitForEvent('download'), button.click()]);
    return download;
  }

  async selectPreset(id) {
    await this.el('preset-select').selectOption(id);
  }

  async presetIds() {
    return this.el('preset-select').locator('option').evaluateAll((opts) => opts.map((o) => o.value).filter((v) => v !== ''));
  }

  /**
   * Clicks "Next step" until it is disabled; after each click waits for `steps-done` to count
   * the step. Returns the number of clicks.
   */
  async runAllSteps(maxSteps) {
    const button = this.el('run-step');
    let clicks = 0;
    while (await button.isEnabled()) {
      if (clicks >= maxSteps) throw new Error(`run-step still enabled after ${clicks} clicks`);
      const [k, n] = await this.stepsDone();
      await button.click();
      clicks += 1;
      await this.waitForStepsDone(k + 1, n);
    }
    return clicks;
  }

  /** Every emitted row as { batchId, row } (row parsed from data-json). */
  async emittedRows() {
    const raw = await this.el('emitted-rows')
      .locator(tid('emitted-row'))
      .evaluateAll((els) => els.map((e) => ({ batchId: e.dataset.batchId, json: e.dataset.json })));
    return raw.map(({ batchId, json }) => {
      if (batchId === undefined || json === undefined) {
        throw new Error(`emitted-row without data-batch-id or data-json: ${batchId} ${json}`);
      }
      return { batchId: Number(batchId), row: JSON.parse(json) };
    });
  }

  async batchIds() {
    const ids = await this.el('batch-list')
      .locator(tid('batch-row'))
      .evaluateAll((els) => els.map((e) => e.dataset.batchId));
    return ids.map(Number);
  }

  async htmlLang() {
    return this.page.evaluate(() => document.documentElement.lang);
  }

  async bodyText() {
    return this.page.evaluate(() => document.body.innerText);
  }

  async toggleLang(want) {
    // The button walks every language in turn: click until the page is in `want`.
    for (let i = 0; i < 8 && (await this.page.evaluate(() => document.documentElement.lang)) !== want; i++) {
      const before = await this.page.evaluate(() => document.documentElement.lang);
      await this.el('lang-toggle').click();
      await this.page.waitForFunction((lang) => document.documentElement.lang !== lang, before);
    }
    await this.page.waitForFunction((lang) => document.documentElement.lang === lang, want);
  }

  /** The sink's duplicate count and rows (from the recovery panel). */
  async sinkState() {
    const label = await this.text('sink-duplicates');
    const digits = label.match(/\d+/);
    if (!digits) throw new Error(`the duplicates label has no count: ${JSON.stringify(label)}`);
    const dups = Number(digits[0]);
    const rows = await this.el('sink-rows')
      .locator(tid('sink-row'))
      .evaluateAll((els) => els.map((e) => ({ duplicate: e.dataset.duplicate === 'true', visible: e.dataset.visible === 'true' })));
    return { dups, rows };
  }

  /** Clicks a button and waits until `steps-done` or the batch list has settled. */
  async click(id) {
    await this.el(id).click();
    await this.page.waitForTimeout(50);
  }

  // screen: sliders, the viewport, the state store's rows
  /** Moves a range input to `value` as a drag does (one `input` event). */
  async setRange(id, value) {
    await this.page.evaluate(
      ([sel, v]) => {
        const el = document.querySelector(sel);
        el.value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      },
      [tid(id), value],
    );
  }

  async box(id) {
    return this.el(id).first().boundingBox();
  }

  /** True if the element's top-left corner and at least 20 px of it are inside the viewport. */
  async locatorInViewport(locator) {
    const b = await locator.boundingBox();
    const vp = this.page.viewportSize();
    return !!b && b.x >= 0 && b.y >= 0 && b.x + Math.min(b.width, 20) <= vp.width && b.y + Math.min(b.height, 20) <= vp.height;
  }

  async inViewport(id) {
    return this.locatorInViewport(this.el(id).first());
  }

  /** The state store's rows as "cell cell … status" text. */
  async stateRows() {
    return this.el('state-store')
      .locator(tid('state-row'))
      .evaluateAll((els) => els.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()).join(' ')));
  }

  async screenshot(path) {
    await this.page.screenshot({ path, fullPage: true });
  }

  // picture
  /** Every mark of the time picture as { fate, band } (band: index in the batch list, '' = pending). */
  async pictureMarks() {
    return this.el('time-picture')
      .locator(tid('picture-mark'))
      .evaluateAll((els) => els.map((e) => ({ fate: e.dataset.fate, band: e.dataset.band })));
  }

  // picture
  /** Each batch-list row's input rows and late rows dropped (numRowsDroppedByWatermark), in order. */
  async batchNumbers() {
    return this.el('batch-list')
      .locator(tid('batch-row'))
      .evaluateAll((els) => els.map((e) => {
        const cells = [...e.querySelectorAll('td')].map((td) => td.textContent.trim());
        return { id: Number(e.dataset.batchId), input: Number(cells[2]), dropped: Number(cells[5]) };
      }));
  }

  // picture
  async pictureShot(path) {
    await this.el('time-picture').screenshot({ path });
  }
}

// exam: the exam lens, the cheat sheet, the exam track and the mock exam (issue 25).
export class ExamPages {
  /** @param {LabPage} lab */
  constructor(lab) {
    this.lab = lab;
    this.page = lab.page;
  }

  /** The exam-lens entry ids shown beside the lab's result (empty when none). */
  async lensEntries() {
    return this.page.locator(`${tid('exam-lens')} ${tid('exam-lens-entry')}`).evaluateAll((els) => els.map((e) => e.dataset.lens));
  }

  /** Waits until the exam lens shows `id`. */
  async waitForLens(id) {
    await this.page.locator(`${tid('exam-lens-entry')}[data-lens="${id}"]`).waitFor({ state: 'visible' });
  }

  /** The "On the exam" answer of entry `id` beside the result. */
  async lensAnswer(id) {
    return (await this.page.locator(`${tid('exam-lens-entry')}[data-lens="${id}"] ${tid('exam-lens-answer')}`).innerText()).trim();
  }

  /** The cheat sheet's rows: the entry ids in order. */
  async cheatRows() {
    return this.page.locator(tid('cheatsheet-row')).evaluateAll((els) => els.map((e) => e.dataset.lens));
  }

  /** The exam track's lessons (ids, in order) and the lessons beyond the exam. */
  async trackLessons() {
    const on = await this.page.locator(`${tid('track-day')} ${tid('track-lesson')}`).evaluateAll((els) => els.map((e) => e.dataset.lesson));
    const beyond = await this.page.locator(`${tid('track-beyond')} ${tid('track-lesson')}`).evaluateAll((els) => els.map((e) => e.dataset.lesson));
    return { on, beyond };
  }
}
