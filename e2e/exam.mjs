// End-to-end checks of issue 25: a `limit` typed into the lab's query shows the exam-lens entry
// beside the result (English and Korean), the cheat sheet lists every entry and prints, the
// exam track lists the lessons in order with the rest beyond the exam, and the mock exam runs
// from start to score on exam-style questions only. Screenshots at 390×844, 1280×720 and
// 1280×800 in both languages.

import path from 'node:path';
import fsp from 'node:fs/promises';
import { ExamPages } from './pages.mjs';

const tid = (id) => `[data-testid="${id}"]`;

async function setLang(lab, want) {
  if ((await lab.htmlLang()) !== want) await lab.toggleLang(want);
}

export async function examChecks({ page, url, root, check, assert, outDir, LabPage, readBank }) {
  const lab = new LabPage(page);
  const exam = new ExamPages(lab);
  const lensToml = await fsp.readFile(path.join(root, 'quizzes', 'exam-lens.toml'), 'utf8');
  const lensIds = [...lensToml.matchAll(/^id = "([^"]+)"/gm)].map((m) => m[1]);

  for (const lang of ['en', 'ko']) {
    await check(`exam: a limit typed into the lab's query shows the exam lens (${lang})`, async () => {
      await page.setViewportSize({ width: 1280, height: 720 });
      await lab.open(url);
      await setLang(lab, lang);
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      await lab.setQuery("clicks.limit(3)");
      await exam.waitForLens('limit-on-stream');
      const answer = await exam.lensAnswer('limit-on-stream');
      assert(lang === 'en' ? /On the exam, answer that `?limit`? and `?take`? are not supported/.test(answer) || answer.startsWith('On the exam') : answer.startsWith('시험에서는'), `exam answer: ${answer}`);
      await lab.el('run-step').click();
      await lab.el('exam-lens').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(outDir, `lens-${lang}-1280x720.png`) });
      // Decided by the plan, not by the text: a filter whose string says limit hits nothing.
      await lab.setQuery("clicks.filter(F.col('user_id') != 'limit(3)')");
      await page.locator(tid('exam-lens')).waitFor({ state: 'detached' });
      // distinct() and the memory sink in update mode (lab defaults: memory sink).
      await lab.setQuery('clicks.distinct()');
      await exam.waitForLens('distinct-on-stream');
      await page.setViewportSize({ width: 390, height: 844 });
      await lab.setQuery('clicks.limit(3)');
      await exam.waitForLens('limit-on-stream');
      await lab.el('exam-lens').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(outDir, `lens-${lang}-390x844.png`) });
      await page.setViewportSize({ width: 1280, height: 720 });
    });
  }

  await check('exam: the cheat sheet lists every exam-lens entry in both languages and prints', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const lang of ['en', 'ko']) {
      await page.goto(`${url}#/cheatsheet`, { waitUntil: 'load' });
      await lab.el('cheatsheet-page').waitFor({ state: 'visible' });
      await setLang(lab, lang);
      const rows = await exam.cheatRows();
      assert(JSON.stringify(rows) === JSON.stringify(lensIds), `cheat sheet rows ${JSON.stringify(rows)}, want ${JSON.stringify(lensIds)}`);
      const text = await lab.text('cheatsheet-page');
      assert(lang === 'ko' ? text.includes('시험에서는') : text.includes('On the exam'), `no exam answers in ${lang}`);
      await page.screenshot({ path: path.join(outDir, `cheatsheet-${lang}-1280x800.png`), fullPage: true });
      // Printed: the navigation is hidden.
      await page.emulateMedia({ media: 'print' });
      assert(!(await lab.el('nav-lessons').isVisible()), 'the navigation prints');
      await page.emulateMedia({ media: 'screen' });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(outDir, 'cheatsheet-ko-390x844.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  await check('exam: the exam track lists its lessons in order, the rest beyond the exam, and opens a lesson', async () => {
    const trackToml = await fsp.readFile(path.join(root, 'quizzes', 'exam-track.toml'), 'utf8');
    const wantOn = [...trackToml.matchAll(/^lessons = \[(.*)\]$/gm)].flatMap((m) => [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]));
    const wantBeyond = [...trackToml.match(/^beyond = \[(.*)\]$/m)[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]);
    for (const lang of ['en', 'ko']) {
      await page.goto(`${url}#/exam-track`, { waitUntil: 'load' });
      await lab.el('exam-track-page').waitFor({ state: 'visible' });
      await setLang(lab, lang);
      const { on, beyond } = await exam.trackLessons();
      assert(JSON.stringify(on) === JSON.stringify(wantOn), `track ${JSON.stringify(on)}, want ${JSON.stringify(wantOn)}`);
      assert(JSON.stringify(beyond) === JSON.stringify(wantBeyond), `beyond ${JSON.stringify(beyond)}`);
      await page.screenshot({ path: path.join(outDir, `exam-track-${lang}-1280x720.png`), fullPage: true });
    }
    await page.locator(`${tid('track-lesson')}[data-lesson="unsupported-operations"]`).click();
    await page.locator(`${tid('lesson-page')}[data-lesson="unsupported-operations"]`).waitFor({ state: 'visible' });
    if ((await lab.el('replace-ask').count()) > 0) await lab.el('replace-yes').click();
    // The lesson's preset is a limit: the exam lens is beside the result.
    await exam.waitForLens('limit-on-stream');
  });

  await check('exam: the mock exam runs end to end on exam-style questions and scores them', async () => {
    const bank = await readBank(root);
    await page.goto(`${url}#/exam-track`, { waitUntil: 'load' });
    await lab.el('exam-track-page').waitFor({ state: 'visible' });
    await setLang(lab, 'en');
    await lab.el('track-mock').click();
    await lab.el('exam-start-mock').click();
    const qel = lab.el('exam-question');
    await qel.waitFor({ state: 'visible' });
    assert((await lab.text('exam-progress')) === '1 / 10', `progress ${await lab.text('exam-progress')}`);
    for (let i = 0; i < 10; i++) {
      const id = await qel.getAttribute('data-question');
      const q = bank.get(id);
      assert(q && q.kind === 'choice', `mock exam item ${id} is not a choice question`);
      const shown = await qel.innerText();
      assert(!/batch \d|group \d/i.test(shown) && shown.includes('('), `mock exam item ${id} is not exam-style: ${shown.slice(0, 120)}`);
      assert((await qel.locator(tid('exam-choice')).count()) === 4, `mock exam item ${id} has not 4 options`);
      if (i < 7) await qel.locator(`${tid('exam-choice')}[data-choice="${q.answer}"]`).click();
      if (i === 0) await page.screenshot({ path: path.join(outDir, 'mock-en-1280x720.png') });
      if (i < 9) await lab.el('exam-next').click();
    }
    await lab.el('exam-finish').click();
    // Three left unanswered: Finish asks first.
    const confirm = await lab.text('exam-confirm');
    assert(confirm.startsWith('3 questions are not answered yet'), `the finish confirmation: ${confirm}`);
    await lab.el('exam-finish-confirm').click();
    await lab.el('exam-result').waitFor({ state: 'visible' });
    const summary = await lab.text('exam-summary');
    assert(/^7 of 10 right \(70%\)/.test(summary), `summary ${summary}`);
    await setLang(lab, 'ko');
    await page.screenshot({ path: path.join(outDir, 'mock-result-ko-1280x720.png'), fullPage: true });
    await setLang(lab, 'en');
  });
  console.log(`exam screenshots: lens-{en,ko}-{1280x720,390x844}.png, cheatsheet-{en,ko}-1280x800.png, cheatsheet-ko-390x844.png, exam-track-{en,ko}-1280x720.png, mock-en-1280x720.png, mock-result-ko-1280x720.png`);
}
