// Accessibility (issue 24): axe-core (npm, pinned in package-lock.json) run on every kind of
// page in English and Korean — the lesson list, a lesson beside its lab, the lab, the question
// bank, the exam (a question on screen), the glossary and presenter mode — at 1280×720. Each
// page's violations are printed by impact; a critical or serious one fails the check.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const tid = (id) => `[data-testid="${id}"]`;

/** Runs axe on the page as it is; returns { counts by impact, violations (id, impact, where) }. */
async function axeRun(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) counts[v.impact] = (counts[v.impact] ?? 0) + v.nodes;
  return { counts, violations };
}

export async function a11yChecks({ page, url, check, assert, LabPage }) {
  const lab = new LabPage(page);
  const setLang = async (want) => {
    if ((await page.evaluate(() => document.documentElement.lang)) !== want) await lab.toggleLang(want);
  };
  /** Each page: [name, how to open it (the page is at `url` in the right language first)]. */
  const pages = [
    ['lesson list', async () => { await page.goto(`${url}#/lessons`); await lab.el('lesson-list').waitFor(); }],
    ['a lesson', async () => { await page.goto(`${url}#/lesson/watermarks`); await lab.el('run-step').waitFor(); }],
    ['the lab', async () => { await page.goto(`${url}#/lab`); await lab.el('run-step').waitFor(); await lab.selectPreset('classic'); const n = await lab.waitForFreshScenario(); await lab.el('run-step').click(); await lab.waitForStepsDone(1, n); }],
    ['the question bank', async () => { await page.goto(`${url}#/quiz`); await lab.el('quiz-try').first().waitFor(); }],
    ['the exam', async () => {
      // The exam started in the first language is still running (kept across reloads); an
      // exam finished earlier in this visit shows its results until "Another exam".
      await page.goto(`${url}#/exam`);
      await page.locator(`${tid('exam-start-10')}, ${tid('exam-question')}, ${tid('exam-again')}`).first().waitFor();
      if (await lab.el('exam-again').count()) await lab.el('exam-again').click();
      await page.locator(`${tid('exam-start-10')}, ${tid('exam-question')}`).first().waitFor();
      if (await lab.el('exam-start-10').count()) await lab.el('exam-start-10').click();
      await lab.el('exam-question').waitFor();
      await lab.el('exam-limit').waitFor();
    }],
    ['the glossary', async () => { await page.goto(`${url}#/glossary`); await lab.el('glossary-page').locator('table').first().waitFor(); }],
    ['presenter mode', async () => {
      await page.goto(`${url}#/lab`);
      await lab.el('run-step').waitFor();
      await lab.selectPreset('classic');
      const n = await lab.waitForFreshScenario();
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('p');
      await lab.el('presenter-pane').waitFor({ state: 'visible' });
      await page.keyboard.press('ArrowRight');
      await lab.waitForStepsDone(1, n);
    }],
  ];
  for (const lang of ['en', 'ko']) {
    await check(`a11y: axe-core finds no critical or serious violation on any page (${lang})`, async () => {
      await page.setViewportSize({ width: 1280, height: 720 });
      await lab.open(url);
      await setLang(lang);
      const bad = [];
      for (const [name, open] of pages) {
        await open();
        await page.waitForFunction((l) => document.documentElement.lang === l, lang);
        const { counts, violations } = await axeRun(page);
        console.log(`    axe ${lang} ${name.padEnd(18)} critical ${counts.critical}, serious ${counts.serious}, moderate ${counts.moderate}, minor ${counts.minor}${violations.length ? ' — ' + violations.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ') : ''}`);
        for (const v of violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')) {
          bad.push(`${name}: ${v.id} (${v.impact}) at ${v.where.join(' | ')}`);
        }
        if (name === 'presenter mode') {
          await page.keyboard.press('Escape');
          await lab.el('presenter-pane').waitFor({ state: 'detached' });
        }
      }
      assert(bad.length === 0, bad.join('\n'));
    });
  }
}
