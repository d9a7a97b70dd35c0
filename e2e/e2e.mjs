// End-to-end test of the release bundle in dist/ (made by `trunk build --release --offline`),
// in Debian's Chromium through playwright-core (never downloads a browser).
//
//   node e2e/e2e.mjs
//
// It serves dist/ itself on 127.0.0.1 with an ephemeral port under a subpath (/streamlab/, as
// a project site would), checks the bundle carries no dev-server live-reload client, opens the lab, replays the
// conformance case window-sliding-classic-append through the UI and compares the emitted rows
// with what real Spark emitted, loads the `classic` preset, switches to Korean, checks that
// nothing kills the page (2,000 nested parentheses, queries at the depth limits, corrupted
// storage, a panic while loading, a full storage), and saves screenshots to e2e/out/. Any
// page error, console error or failed request fails the run (except the panic asked for).
// The last line is "N passed, M failed"; the exit code is non-zero on any failure.
//
// Environment: STREAMLAB_CONFORMANCE_DIR (default engine/tests/spark/cases, the project's copy
// of the Spark corpus), CHROMIUM (default /usr/bin/chromium), STREAMLAB_DIST (default dist).

import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { LabPage } from './pages.mjs';
import { teachChecks } from './teach.mjs'; // teach
import { studyChecks, readBank } from './study.mjs'; // study
import { examChecks } from './exam.mjs'; // exam
import { screenChecks } from './screen.mjs'; // screen
import { lessonLabChecks } from './lesson_lab.mjs'; // lessons own their lab, phone
import { a11yChecks } from './a11y.mjs'; // present
import { loadChecks } from './load.mjs'; // load figures

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const distDir = path.resolve(root, process.env.STREAMLAB_DIST ?? 'dist');

/** The rows real Spark emitted in a recorded case (engine/tests/cases/<id>.json), as the sorted
 * JSON of [batch id, ...the named columns]: what the lab must show, batch by batch. */
async function recordedAs(caseId, columns) {
  const c = JSON.parse(await fsp.readFile(path.join(root, 'engine', 'tests', 'cases', `${caseId}.json`), 'utf8'));
  const rows = c.expected.batches.flatMap((b) => b.rows.map((r) => JSON.stringify([b.batch_id, ...columns.map((k) => r[k])])));
  return JSON.stringify(rows.sort());
}

const casesDir = path.resolve(
  process.env.STREAMLAB_CONFORMANCE_DIR ?? path.join(root, 'engine', 'tests', 'spark', 'cases'),
);
const outDir = path.join(here, 'out');
const CASE_ID = 'window-sliding-classic-append';

// ---------------------------------------------------------------------------------------------
// Static server for dist/

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.toml': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Files the test serves in place of dist's (path under the subpath → text): a "new build". */
const overrides = new Map();

/** Serves `dir` under the URL path `prefix` only: a request outside it (an absolute asset path
 * in the bundle) is a 404, which fails the run. */
function serveDist(dir, prefix) {
  const server = http.createServer(async (req, res) => {
    try {
      const fullPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      if (!fullPath.startsWith(prefix)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('outside the subpath');
        return;
      }
      const urlPath = fullPath.slice(prefix.length - 1);
      if (overrides.has(urlPath)) {
        const body = overrides.get(urlPath);
        res.writeHead(200, { 'content-type': MIME[path.extname(urlPath)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(body);
        return;
      }
      let file = path.normalize(path.join(dir, urlPath));
      if (file !== dir && !file.startsWith(dir + path.sep)) {
        res.writeHead(403).end();
        return;
      }
      let stat = await fsp.stat(file).catch(() => null);
      if (stat?.isDirectory()) {
        file = path.join(file, 'index.html');
        stat = await fsp.stat(file).catch(() => null);
      }
      if (!stat?.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'content-length': stat.size, 'cache-control': 'no-store' });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ---------------------------------------------------------------------------------------------
// Row comparison (conformance rules: rows are a multiset per batch; timestamps compared as
// normalized strings; doubles with a relative tolerance of 1e-9)

const TS = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]00:?00)?$/;

/** "2026-01-01 12:05:00.000000+00:00" -> "2026-01-01T12:05:00Z"; keeps non-zero µs. */
function normalizeTimestamp(s) {
  const m = typeof s === 'string' ? s.match(TS) : null;
  if (!m) return s;
  const frac = (m[3] ?? '').padEnd(6, '0').slice(0, 6).replace(/0+$/, '');
  return `${m[1]}T${m[2]}${frac ? '.' + frac.padEnd(6, '0') : ''}Z`;
}

function normalize(v) {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, normalize(v[k])]));
  }
  return normalizeTimestamp(v);
}

function sameValue(a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isInteger(a) && Number.isInteger(b)) return a === b;
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return a === b;
}

/** Differences between two multisets of rows, as human-readable lines. */
function diffRows(expected, actual) {
  const left = actual.map(normalize);
  const missing = [];
  for (const row of expected.map(normalize)) {
    const i = left.findIndex((r) => sameValue(r, row));
    if (i >= 0) left.splice(i, 1);
    else missing.push(row);
  }
  return [
    ...missing.map((r) => `missing ${JSON.stringify(r)}`),
    ...left.map((r) => `unexpected ${JSON.stringify(r)}`),
  ];
}

function groupByBatch(entries) {
  const map = new Map();
  for (const { batchId, row } of entries) {
    if (!map.has(batchId)) map.set(batchId, []);
    map.get(batchId).push(row);
  }
  return map;
}

// ---------------------------------------------------------------------------------------------
// The checks

const results = [];

// A developer's filter: STREAMLAB_E2E_ONLY=<text>[|<text>...] runs only the checks whose name
// holds one of the texts (and the check that opens the lab, and the final page-error check). CI
// never sets it.
const onlyChecks = process.env.STREAMLAB_E2E_ONLY?.split('|');

async function check(name, fn) {
  if (onlyChecks && !onlyChecks.some((t) => name.includes(t)) && !name.startsWith('no page errors') && !name.startsWith('the app loads')) return;
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    results.push({ name, ok: false });
    // Playwright's call logs can echo a whole scenario: keep the report readable.
    const lines = String(err?.stack ?? err).split('\n');
    const shown = lines.slice(0, 30).map((l) => (l.length > 240 ? l.slice(0, 240) + '…' : l));
    if (lines.length > shown.length) shown.push(`… ${lines.length - shown.length} more lines`);
    console.log(`FAIL ${name} (${Date.now() - t0} ms)\n     ${shown.join('\n     ')}`);
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function main() {
  assert(fs.existsSync(path.join(distDir, 'index.html')), `${distDir}/index.html missing: run trunk build --release --offline`);
  const casePath = path.join(casesDir, `${CASE_ID}.json`);
  const caseText = await fsp.readFile(casePath, 'utf8');
  const scenario = JSON.parse(caseText);
  await fsp.mkdir(outDir, { recursive: true });

  const subpath = '/streamlab/';
  const server = await serveDist(distDir, subpath);
  const url = `http://127.0.0.1:${server.address().port}${subpath}`;
  const userDataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'streamlab-e2e-'));
  const problems = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
      viewport: { width: 1280, height: 900 },
      timezoneId: 'UTC',
      locale: 'en-US',
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    const lab = new LabPage(page);
    /** The rows the lab's sink shows, in `recordedAs`'s shape. */
    const emittedAs = async (columns) =>
      JSON.stringify((await lab.emittedRows()).map(({ batchId, row }) => JSON.stringify([batchId, ...columns.map((k) => row[k])])).sort());

    await check('the bundle is deployable: no live-reload client, only relative asset paths', async () => {
      const html = await fsp.readFile(path.join(distDir, 'index.html'), 'utf8');
      assert(!/__TRUNK_|well-known\/trunk|trunk\/ws/i.test(html), 'dist/index.html carries trunk serve\'s live-reload client');
      const absolute = [...html.matchAll(/(?:href|src|module_or_path:)\s*=?\s*['"](\/[^'"]*)['"]/g)].map((m) => m[1]);
      assert(absolute.length === 0, `absolute asset paths break a subpath deployment: ${absolute.join(', ')}`);
    });

    await check('the app loads under a subpath and mounts its controls', async () => {
      await lab.open(url);
      // Cold load to interactive: navigation start to the lab's controls on screen (printed, not asserted).
      const ms = await page.evaluate(() => performance.now());
      console.log(`     cold load to interactive: ${ms.toFixed(0)} ms (wasm ${(fs.statSync(path.join(distDir, fs.readdirSync(distDir).find((f) => f.endsWith('.wasm')))).size / 1024).toFixed(0)} KB raw)`);
      assert((await lab.htmlLang()) === 'en', `<html lang> is ${await lab.htmlLang()}, want en`);
    });

    await check('a first visit from a browser set to Korean opens in Korean, the loading screen too', async () => {
      const b = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
      const ctx = await b.newContext({ locale: 'ko-KR', serviceWorkers: 'block' });
      try {
        const p = await ctx.newPage();
        await p.goto(`${url}#/lesson/watermarks`, { waitUntil: 'commit' });
        // The prerendered lesson the loading screen shows, then the app's own page.
        const boot = await p.locator('.boot-lesson[lang]').first().getAttribute('lang', { timeout: 30_000 });
        await p.locator('[data-testid="run-step"]').waitFor({ state: 'visible', timeout: 60_000 });
        const lang = await p.evaluate(() => document.documentElement.lang);
        assert(boot === 'ko' && lang === 'ko', `loading screen lesson in ${boot}, app in ${lang}; want ko for a ko-KR browser`);
      } finally {
        await b.close();
      }
    });

    const nSteps = scenario.steps.length;
    await check(`open the ${CASE_ID} scenario from its JSON`, async () => {
      await lab.openScenario(caseText);
      await lab.waitForStepsDone(0, nSteps);
      assert(!(await lab.hasQueryError()), 'query-error is shown for a valid query');
      const modes = await lab.activeModes();
      assert(modes.length === 1 && modes[0] === scenario.output_mode, `active mode ${modes}, want ${scenario.output_mode}`);
      // The example picker names the opened scenario, not the preset it replaced.
      const picked = await lab.el('preset-select').evaluate((s) => s.selectedOptions[0]?.textContent ?? '');
      assert(picked.startsWith('Your scenario: '), `the example picker shows ${JSON.stringify(picked)}`);
    });

    await check(`run every step; emitted rows equal Spark ${scenario.expected.spark_version}'s, batch by batch`, async () => {
      const clicks = await lab.runAllSteps(nSteps + 1);
      await lab.screenshot(path.join(outDir, 'lab-en.png'));
      assert(clicks === nSteps, `run-step was enabled for ${clicks} clicks, want ${nSteps}`);
      const [k, n] = await lab.stepsDone();
      assert(k === nSteps && n === nSteps, `steps-done ${k} / ${n}, want ${nSteps} / ${nSteps}`);

      const wantBatches = scenario.expected.batches.map((b) => b.batch_id);
      const gotBatches = await lab.batchIds();
      assert(
        JSON.stringify([...gotBatches].sort((a, b) => a - b)) === JSON.stringify(wantBatches),
        `batch-row ids ${JSON.stringify(gotBatches)}, want ${JSON.stringify(wantBatches)}`,
      );

      const got = groupByBatch(await lab.emittedRows());
      const want = groupByBatch(scenario.expected.batches.flatMap((b) => b.rows.map((row) => ({ batchId: b.batch_id, row }))));
      const diffs = [];
      for (const id of [...new Set([...want.keys(), ...got.keys()])].sort((a, b) => a - b)) {
        for (const d of diffRows(want.get(id) ?? [], got.get(id) ?? [])) diffs.push(`batch ${id}: ${d}`);
      }
      assert(diffs.length === 0, `emitted rows differ from Spark's:\n${diffs.join('\n')}`);

      const pending = await lab.text('pending-count');
      assert(Number(pending.replace(/[^\d]/g, '')) === 0 && /\d/.test(pending), `pending-count ${JSON.stringify(pending)}, want 0`);
      // The watermark after the last batch: max event time 12:30 minus 10 minutes.
      const wm = await lab.text('watermark-value');
      assert(wm.includes('12:20'), `watermark-value ${JSON.stringify(wm)}, want 12:20 (2026-01-01T12:20:00Z)`);
    });

    await check('the preset select loads `classic` and runs its first step', async () => {
      const ids = await lab.presetIds();
      assert(ids.includes('classic'), `preset ids ${JSON.stringify(ids)} lack classic`);
      await lab.selectPreset('classic');
      const n = await lab.waitForFreshScenario();
      assert(n > 0, 'classic has no steps');
      assert((await lab.queryText()).trim().length > 0, 'query-editor is empty');
      assert(!(await lab.hasQueryError()), 'query-error is shown for the classic preset');
      assert((await lab.activeModes()).length === 1, 'not exactly one output mode is pressed');
      await lab.el('run-step').click();
      await lab.waitForStepsDone(1, n);
    });

    await check('the example\'s notes say so and fold away once the query is the learner\'s own; the example\'s query brings them back', async () => {
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      const notes = page.locator('[data-testid="preset-notes"]');
      const open = () => notes.evaluate((d) => d.open);
      assert(await open(), 'the notes start folded');
      assert((await lab.el('preset-notes-own').count()) === 0, 'the notes say the query is another while it is the example\'s');
      const original = await lab.queryText();
      await lab.setQuery('clicks.filter("post_id = 1")');
      await lab.el('preset-notes-own').waitFor({ state: 'attached' });
      assert(!(await open()), 'the notes stay open under another query');
      await lab.setQuery(original);
      await page.waitForFunction(() => !document.querySelector('[data-testid="preset-notes-own"]') && document.querySelector('[data-testid="preset-notes"]').open);
    });

    await check('choosing an example keeps the learner\'s lab: the notice says so, and Step back brings back its query, mode and batches', async () => {
      // The classic lab with one step run, in complete mode.
      await lab.selectPreset('classic');
      const n = await lab.waitForFreshScenario();
      const original = await lab.queryText();
      await lab.el('run-step').click();
      await lab.waitForStepsDone(1, n);
      const k = 1;
      await lab.el('mode-complete').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="mode-complete"]')?.getAttribute('aria-pressed') === 'true');
      const batches = JSON.stringify(await lab.batchIds());
      await lab.selectPreset('dedup');
      await lab.waitForFreshScenario();
      assert((await lab.queryText()).includes('dropDuplicates'), 'the dedup example did not open');
      const notice = (await lab.el('notice').innerText()).trim();
      assert(/Step back/.test(notice), `no notice that the lab is kept: "${notice}"`);
      assert(await lab.el('undo').isEnabled(), 'Step back is disabled after the example replaced the lab');
      await lab.el('undo').click();
      await lab.waitForStepsDone(k, n);
      assert((await lab.queryText()) === original, 'Step back did not bring back the query');
      assert(JSON.stringify(await lab.activeModes()) === JSON.stringify(['complete']), `modes after Step back: ${JSON.stringify(await lab.activeModes())}`);
      assert(JSON.stringify(await lab.batchIds()) === batches, 'Step back did not bring back the batches');
      // As it was before this check: the fresh classic lab.
      await lab.el('mode-append').click();
      await lab.el('undo').click();
      await lab.waitForStepsDone(0, n);
    });

    await check('a query whose text sets writeStream.outputMode shows that mode on the switch, which waits, and says why', async () => {
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      const original = await lab.queryText();
      await lab.setQuery(`windowed = ${original.trim()}\nwindowed.writeStream.outputMode("update").format("console").start()`);
      await lab.el('mode-in-query').waitFor({ state: 'visible' });
      assert((await lab.el('mode-update').getAttribute('aria-pressed')) === 'true', 'the switch does not show update');
      assert(await lab.el('mode-append').isDisabled(), 'the switch can still be pressed');
      assert((await lab.text('mode-in-query')).includes('.outputMode("update")'), await lab.text('mode-in-query'));
      await lab.setQuery(original);
      await page.waitForFunction(() => !document.querySelector('[data-testid="mode-in-query"]'));
      assert((await lab.el('mode-append').getAttribute('aria-pressed')) === 'true' && !(await lab.el('mode-append').isDisabled()), 'the switch did not come back');
    });

    // The DataStreamReader docstring's example, pasted over the classic preset: the lab reads
    // its own stream `clicks` (a memory stream, no `value` column) and says so, naming the
    // source kind that reads a rate source; picked, the same text runs and the note goes.
    await check('code that reads spark.readStream.format("rate") is told which lab stream it reads and which source kind to pick, EN and KO', async () => {
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      const original = await lab.queryText();
      await lab.setQuery('df = spark.readStream.format("rate").load()\ndf.selectExpr("value % 3 as v")');
      await lab.el('source-read-note').waitFor({ state: 'visible' });
      const en = await lab.text('source-read-note');
      assert(en.includes('spark.readStream.format("rate").load() reads this lab\'s stream clicks') && en.includes('rate (rowsPerSecond from the clock)'), en);
      await lab.toggleLang('ko');
      const ko = await lab.text('source-read-note');
      assert(ko.includes('스트림 clicks를 읽습니다') && ko.includes('소스 종류 메뉴'), ko);
      await page.screenshot({ path: path.join(outDir, 'source-read-note-ko.png') });
      await lab.toggleLang('en');
      // The note offers the example whose stream is a rate source: the code runs there as
      // written, and Step back brings the classic lab with the code back.
      const code = await lab.queryText();
      await lab.el('read-example').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="preset-select"]')?.value === 'rate-source');
      assert((await lab.queryText()) === code, 'the code did not come along to the rate example');
      if (await lab.hasQueryError()) assert(false, `the code fails on the rate example: ${await lab.text('query-error')}`);
      await lab.el('undo').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="preset-select"]')?.value === 'classic');
      assert((await lab.queryText()) === code, 'Step back did not bring back the classic lab with the code');
      await lab.el('source-kind-clicks').selectOption('rate');
      await page.waitForFunction(() => !document.querySelector('[data-testid="source-read-note"]') && !document.querySelector('[data-testid="query-error"]'));
      await lab.el('source-kind-clicks').selectOption('memory');
      await lab.setQuery(original);
      await page.waitForFunction(() => !document.querySelector('[data-testid="source-read-note"]'));
    });

    // A program as a textbook writes it: it prints what it built and writes parquet without a
    // checkpointLocation. The printed lines show beside it, and the start fails as in Spark
    // (_LEGACY_ERROR_TEMP_1298) though the lab's switch is on: the switch shows the text's
    // answer, disabled, and says why. Given in the text, the query runs.
    await check('a program\'s print output is shown, and its own parquet sink needs the checkpointLocation the text gives', async () => {
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      const original = await lab.queryText();
      const program = "df = clicks.select('event_id', 'post_id')\nprint(df.isStreaming)\nprint(df)\nq = df.writeStream.format('parquet').option('path', '/out/clicks').start()";
      await lab.setQuery(program);
      await lab.el('program-output').waitFor({ state: 'visible' });
      const printed = await lab.text('program-output');
      assert(printed === 'True\nDataFrame[event_id: string, post_id: bigint]', JSON.stringify(printed));
      await lab.el('query-error').waitFor({ state: 'visible' });
      assert((await lab.text('query-error')).includes('checkpointLocation must be specified'), await lab.text('query-error'));
      const box = await lab.reveal('checkpoint-location');
      assert((await box.isDisabled()) && !(await box.isChecked()), 'the switch does not show the text\'s missing location');
      assert((await lab.text('checkpoint-from-text')).includes('gives no checkpointLocation'), await lab.text('checkpoint-from-text'));
      // The sink menu shows the text's file sink, though the query did not start.
      assert((await lab.el('sink-select').inputValue()) === 'file' && (await lab.el('sink-select').isDisabled()), 'the sink menu does not show the text\'s parquet sink');
      await lab.setQuery(program.replace(".start()", ".option('checkpointLocation', '/chk/clicks').start()"));
      await page.waitForFunction(() => !document.querySelector('[data-testid="query-error"]'));
      assert(await box.isChecked(), 'the switch does not show the text\'s location');
      await lab.setQuery(original);
      await page.waitForFunction(() => !document.querySelector('[data-testid="program-output"]') && !document.querySelector('[data-testid="checkpoint-from-text"]'));
      assert(!(await box.isDisabled()), 'the switch stayed disabled');
    });

    // The guide's word count reads a socket's `value`: no event time, so the picture says why
    // its lane is empty instead of showing a bare axis.
    await check('the time picture says a stream without a timestamp column has no place on its axis', async () => {
      await lab.selectPreset('network-word-count');
      await lab.waitForFreshScenario();
      await lab.el('run-step').click();
      await lab.el('picture-no-time').waitFor({ state: 'visible' });
      assert((await lab.text('picture-no-time')).startsWith('lines: no timestamp column'), await lab.text('picture-no-time'));
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      assert((await lab.el('picture-no-time').count()) === 0, 'the classic example has event time');
    });

    await check('a link that names no page opens the lessons and says so; a query after a page name is forgiven', async () => {
      await page.evaluate(() => { location.hash = '#/nowhere'; });
      await lab.el('route-unknown').waitFor({ state: 'visible' });
      assert((await lab.text('route-unknown')).includes('#/nowhere'), await lab.text('route-unknown'));
      await page.evaluate(() => { location.hash = '#/glossary?x'; });
      await page.locator('[data-testid="glossary-page"]').waitFor({ state: 'visible' });
      await page.evaluate(() => { location.hash = '#/lessons'; });
      await lab.el('lesson-list').waitFor({ state: 'visible' });
      assert((await lab.el('route-unknown').count()) === 0, 'the list still says the link named no page');
      await page.evaluate(() => { location.hash = '#/lab'; });
      await lab.el('run-step').waitFor({ state: 'visible' });
    });

    await check('"Export to PySpark" downloads a runnable script of the classic preset', async () => {
      const download = await lab.exportPyspark();
      assert(download.suggestedFilename() === 'classic.py', `file name ${download.suggestedFilename()}, want classic.py`);
      const script = await fsp.readFile(await download.path(), 'utf8');
      const preset = JSON.parse(await fsp.readFile(path.join(root, 'assets', 'scenarios', 'classic.json'), 'utf8'));
      assert(script.startsWith('#!/usr/bin/env python3'), 'not a Python script');
      // The query is in the script's comments line by line (and in the embedded scenario).
      assert(preset.query.split('\n').every((line) => script.includes(line)), 'the script lacks the query');
      const m = script.match(/SCENARIO = json\.loads\(r"""\n([\s\S]*?)\n"""\)/);
      assert(m, 'no embedded scenario');
      const embedded = JSON.parse(m[1]);
      // One step ran in the lab (the check above): the script replays that step, then the
      // preset's steps not reached yet — all of the preset's steps here.
      assert(embedded.steps.length === preset.steps.length, `embedded steps ${embedded.steps.length}, want ${preset.steps.length}`);
      assert(embedded.output_mode === preset.output_mode && embedded.query === preset.query, 'mode or query differ');
      for (const needle of ['def run(spark=None, record=None', 'foreachBatch', '--record']) {
        assert(script.includes(needle), `the script lacks ${needle}`);
      }
    });

    await check('the same session exports as a Jupyter notebook and a Databricks notebook, one cell per step', async () => {
      const preset = JSON.parse(await fsp.readFile(path.join(root, 'assets', 'scenarios', 'classic.json'), 'utf8'));
      const ipynb = await lab.exportNotebook('ipynb');
      assert(ipynb.suggestedFilename() === 'classic.ipynb', `file name ${ipynb.suggestedFilename()}`);
      const nb = JSON.parse(await fsp.readFile(await ipynb.path(), 'utf8'));
      assert(nb.nbformat === 4 && nb.nbformat_minor === 5, `nbformat ${nb.nbformat}.${nb.nbformat_minor}`);
      const code = nb.cells.filter((c) => c.cell_type === 'code').map((c) => c.source.join(''));
      const steps = code.filter((c) => /^lab\.step\(\d+\)$/.test(c));
      assert(steps.length === preset.steps.length, `${steps.length} step cells, want ${preset.steps.length}`);
      assert(preset.query.split('\n').every((line) => code[0].includes(line)), 'the setup cell lacks the query');
      const dbx = await lab.exportNotebook('databricks');
      assert(dbx.suggestedFilename() === 'classic.databricks.py', `file name ${dbx.suggestedFilename()}`);
      const text = await fsp.readFile(await dbx.path(), 'utf8');
      assert(text.startsWith('# Databricks notebook source\n'), 'not a Databricks source notebook');
      assert((text.match(/^lab\.step\(\d+\)$/gm) ?? []).length === preset.steps.length, 'step cells missing in the Databricks notebook');
    });

    await check("Spark's own progress reports, pasted in, are laid out as batches", async () => {
      // What print(query.recentProgress) showed on PySpark 4.3.0 (engine/tests/fixtures/README.md).
      const text = await fsp.readFile(path.join(root, 'engine', 'tests', 'fixtures', 'spark-recent-progress.json'), 'utf8');
      await (await lab.reveal('progress-json-input')).fill(text);
      await lab.click('import-progress');
      const ids = await lab.el('imported-batches').locator('[data-testid="imported-batch"]').evaluateAll((els) => els.map((e) => e.dataset.batchId));
      assert(JSON.stringify(ids) === JSON.stringify(['0', '0', '1', '2', '3', '4']), `imported batch ids ${JSON.stringify(ids)}`);
      const detail = await lab.text('imported-batch-detail');
      assert(detail.includes('stateStoreSave') && detail.includes('FileStreamSource'), `detail of batch 4: ${detail.slice(0, 200)}`);
      await lab.el('progress-import').scrollIntoViewIfNeeded();
      await lab.screenshot(path.join(outDir, 'progress-import.png'));
    });

    await check('the language toggle switches to Korean and back', async () => {
      const english = await lab.bodyText();
      await lab.toggleLang('ko');
      const korean = await lab.bodyText();
      assert(korean !== english, 'page text did not change');
      assert(/[\uac00-\ud7a3]/.test(korean), 'no Hangul on the page');
      await lab.screenshot(path.join(outDir, 'lab-ko.png'));
      await lab.toggleLang('en');
    });

    // Exactly-once vs at-least-once: crash the classic example's emitting batch mid-sink,
    // restart on the same checkpoint, and compare a file sink with a Kafka-like sink.
    for (const [sink, wantDups, shot] of [['file', 0, 'crash-file.png'], ['kafka', 1, 'crash-kafka.png']]) {
      await check(`crash mid-sink and restart: the ${sink} sink shows ${wantDups} duplicate(s)`, async () => {
        await lab.openScenario(caseText);
        await lab.waitForStepsDone(0, nSteps);
        // The guide's fault-tolerance column (what the exam marks) is said beside the sink, and
        // what the sink does on a re-run above it.
        await lab.el('sink-select').selectOption('memory');
        await page.waitForFunction((sel) => /not fault-tolerant/.test(document.querySelector(sel)?.textContent ?? ''), '[data-testid="sink-guide"]');
        // In append mode it skips a seen batch id only within a run: a restart is refused.
        assert(/cannot restart from its checkpoint/.test(await lab.text('sink-guarantee')), `the memory sink's re-run line: ${await lab.text('sink-guarantee')}`);
        await lab.el('sink-select').selectOption(sink);
        const guide = sink === 'file' ? /fault-tolerant, exactly-once/ : /fault-tolerant, at-least-once/;
        await page.waitForFunction(([sel, re]) => new RegExp(re).test(document.querySelector(sel)?.textContent ?? ''), ['[data-testid="sink-guide"]', guide.source]);
        // Nothing is due yet: the crash button says so, and the words go once a batch runs.
        await lab.click('crash-batch');
        await lab.el('crash-notice').waitFor({ state: 'visible' });
        await lab.el('run-step').click();
        await lab.waitForStepsDone(1, nSteps);
        await lab.el('crash-notice').waitFor({ state: 'detached' });
        await lab.el('run-step').click();
        await lab.waitForStepsDone(2, nSteps);
        // Step 2's events, then batch 4 (data); batch 5 (no-data) emits three windows.
        await lab.click('push-step');
        await lab.click('trigger-batch');
        await lab.el('crash-point').selectOption('mid-sink');
        await lab.click('crash-batch');
        await lab.el('crash-status').waitFor({ state: 'visible' });
        // The run panel says why Next step now runs no batch; a restart takes the note away.
        await lab.el('run-stopped').waitFor({ state: 'visible' });
        assert(await lab.el('trigger-batch').isDisabled(), 'Trigger one batch is enabled while the query is stopped');
        await lab.click('restart-query');
        await lab.el('run-stopped').waitFor({ state: 'detached' });
        // Batch 5 is logged and not committed: the note says it runs again at the next trigger.
        assert((await lab.text('rerun-due')).includes('5'), 'the re-run note does not name batch 5');
        await lab.click('trigger-batch');
        await lab.el('rerun-due').waitFor({ state: 'detached' });
        const { dups, rows } = await lab.sinkState();
        assert(dups === wantDups, `${sink}: ${dups} duplicates, want ${wantDups}`);
        assert(rows.filter((r) => r.visible).length === 3 + wantDups, `${sink}: ${rows.filter((r) => r.visible).length} visible rows`);
        await lab.el('recovery').scrollIntoViewIfNeeded();
        await lab.screenshot(path.join(outDir, shot));
      });
    }

    await check('a reload brings the session back from browser storage', async () => {
      // The kafka crash demo above left 1 duplicate; the saved session replays to the same state.
      await page.reload({ waitUntil: 'load' });
      await lab.el('run-step').waitFor({ state: 'visible' });
      await lab.el('sink-duplicates').waitFor({ state: 'visible' });
      const { dups } = await lab.sinkState();
      assert(dups === 1, `after reload: ${dups} duplicates, want 1`);
    });

    await check("a sink named in the query text wins over the picker, and the lab says so", async () => {
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      const original = await lab.queryText();
      assert(!(await lab.el('sink-select').isDisabled()), 'the picker is disabled before the text names a sink');
      await lab.setQuery(`${original}.writeStream.format('console')`);
      await lab.el('sink-from-query').waitFor({ state: 'visible' });
      assert(await lab.el('sink-select').isDisabled(), 'the picker stays editable while the text names the sink');
      assert((await lab.el('sink-select').inputValue()) === 'console', `the picker shows ${await lab.el('sink-select').inputValue()}`);
      await lab.setQuery(original);
      await lab.page.waitForFunction(() => !document.querySelector('[data-testid="sink-from-query"]'));
      assert(!(await lab.el('sink-select').isDisabled()), 'the picker stays disabled after the text no longer names a sink');
    });

    for (const [preset, shot, needle] of [
      ['session-window', 'session-window.png', 'sessionWindowStateStoreSaveExec'],
      ['stream-stream-outer-join', 'outer-join.png', 'symmetricHashJoin'],
    ]) {
      await check(`the ${preset} preset runs to the end and shows its state`, async () => {
        await lab.selectPreset(preset);
        const n = await lab.waitForFreshScenario();
        await lab.runAllSteps(n + 1);
        await lab.screenshot(path.join(outDir, shot));
        assert(!(await lab.hasQueryError()), `query-error on ${preset}`);
        const state = await lab.text('state-store');
        assert(state.includes(needle), `state store lacks ${needle}`);
        if (preset === 'stream-stream-outer-join') {
          const rows = await lab.emittedRows();
          assert(rows.some(({ row }) => Object.values(row).includes(null)), 'no null-padded outer row was emitted');
        }
      });
    }

    // picture: the time picture shows one mark per input row, in the band of the batch that read
    // it, a late mark exactly in the batches whose metrics dropped rows (a row late for two
    // sliding windows is one mark and counts 2 in numRowsDroppedByWatermark), in both languages.
    for (const preset of ['classic', 'session-window', 'stream-stream-outer-join']) {
      await check(`picture: the ${preset} preset's marks agree with the batches' input rows and late drops`, async () => {
        await lab.selectPreset(preset);
        const n = await lab.waitForFreshScenario();
        await lab.runAllSteps(n + 1);
        const batches = await lab.batchNumbers();
        const marks = await lab.pictureMarks();
        const perFate = {};
        for (const m of marks) perFate[m.fate] = (perFate[m.fate] ?? 0) + 1;
        console.log(`     ${preset}: ${marks.length} marks ${JSON.stringify(perFate)}; batches' input ${batches.map((b) => b.input).join('+')}, dropped ${batches.map((b) => b.dropped).join('+')}`);
        const input = batches.reduce((a, b) => a + b.input, 0);
        assert(marks.filter((m) => m.band !== '').length === input, `${marks.length} marks, want ${input} (the batches' input rows)`);
        batches.forEach((b, i) => {
          const inBand = marks.filter((m) => m.band === String(i));
          const late = inBand.filter((m) => m.fate === 'late').length;
          assert(inBand.length === b.input, `batch ${b.id}: ${inBand.length} marks, want ${b.input}`);
          assert((late > 0) === (b.dropped > 0) && late <= b.dropped, `batch ${b.id}: ${late} late marks, numRowsDroppedByWatermark ${b.dropped}`);
        });
        const narration = await lab.text('picture-narration');
        assert(narration.startsWith(`Batch ${batches[batches.length - 1].id} `), `narration ${JSON.stringify(narration)}`);
        await lab.pictureShot(path.join(outDir, `picture-${preset}-en.png`));
        await lab.toggleLang('ko');
        const ko = await lab.text('picture-narration');
        assert(ko.startsWith(`배치 ${batches[batches.length - 1].id}`), `Korean narration ${JSON.stringify(ko)}`);
        await lab.pictureShot(path.join(outDir, `picture-${preset}-ko.png`));
        await lab.toggleLang('en');
      });
    }

    // picture
    await check('picture: a mark shows its card on focus; a click on the time axis adds a pending event that undo takes back', async () => {
      await lab.selectPreset('classic');
      const n = await lab.waitForFreshScenario();
      await lab.runAllSteps(n + 1);
      // The classic run has a late click (c8 at 09:03, step 3): its mark is late, and its card
      // says so.
      const late = lab.el('time-picture').locator('[data-testid="picture-mark"][data-fate="late"]');
      assert((await late.count()) > 0, 'the classic run shows no late mark');
      const mark = late.first();
      await mark.focus();
      const card = await lab.text('picture-card');
      assert(/event_id/.test(card), `card ${JSON.stringify(card)}`);
      assert(/late|watermark/.test(card), `late card ${JSON.stringify(card)}`);
      await mark.click();
      await lab.pictureShot(path.join(outDir, 'picture-late-highlight.png'));
      const axis = lab.el('picture-axis').first();
      const box = await axis.boundingBox();
      await axis.click({ position: { x: box.width / 2, y: box.height / 2 } });
      await lab.page.waitForFunction(() => document.querySelector('[data-testid="pending-count"]')?.textContent.trim() === '1');
      const pending = await lab.pictureMarks();
      assert(pending.filter((m) => m.fate === 'pending').length === 1, 'no pending mark after the axis click');
      await lab.el('undo').click();
      await lab.page.waitForFunction(() => document.querySelector('[data-testid="pending-count"]')?.textContent.trim() === '0');
    });

    // picture: an axis click lands on a whole second with an event id the example never uses;
    // dragging a mark (mouse) or Alt+→ on a focused one changes its row's event time, the
    // engine replays (the late row is no longer late, the results change), and one undo each
    // puts everything back.
    await check('picture: an axis click snaps to a whole second with a new id; dragging a mark or Alt+→ moves its row, the results follow, undo restores', async () => {
      await lab.selectPreset('classic');
      const n = await lab.waitForFreshScenario();
      // Before a batch with data sets it, Spark's watermark is 0 (the epoch): the lab shows
      // Spark's value and says what it means, in the panel and for batch 0 in the list; the
      // progress JSON keeps Spark's raw value.
      const wm0 = await lab.text('watermark-value');
      assert(wm0.includes('1970-01-01T00:00:00Z') && wm0.includes('no watermark yet'), `watermark before any batch ${JSON.stringify(wm0)}`);
      await lab.click('run-step');
      await lab.page.waitForFunction(() => document.querySelectorAll('[data-testid="batch-row"]').length > 0);
      const row0 = await lab.el('batch-list').locator('[data-testid="batch-row"][data-batch-id="0"] td.ts').innerText();
      assert(row0.trim() === 'no watermark yet', `batch 0's watermark cell ${JSON.stringify(row0)}`);
      await lab.el('batch-list').locator('[data-testid="batch-row"][data-batch-id="0"]').click();
      const progress = await lab.el('progress-json').first().textContent();
      assert(progress.includes('1970-01-01T00:00:00.000Z'), `batch 0's progress JSON lacks Spark's watermark 0: ${progress.slice(0, 300)}`);
      await lab.toggleLang('ko');
      assert((await lab.el('batch-list').locator('[data-testid="batch-row"][data-batch-id="0"] td.ts').innerText()).trim() === '아직 워터마크 없음', 'Korean batch 0 watermark');
      await lab.page.screenshot({ path: path.join(outDir, 'watermark-not-yet-ko.png') });
      await lab.toggleLang('en');
      await lab.el('undo').click();
      await lab.waitForFreshScenario();
      await lab.runAllSteps(n + 1);
      const markInfo = () => lab.el('time-picture').locator('[data-testid="picture-mark"]').evaluateAll((els) =>
        els.map((e) => ({ fate: e.dataset.fate, band: e.dataset.band, origin: e.dataset.origin ?? null, t: Number(e.dataset.timeUs), label: e.getAttribute('aria-label') })));
      // Every mark is on its own pixels (marks at one time in one band are stacked).
      const boxes = await lab.el('time-picture').locator('[data-testid="picture-mark"]').evaluateAll((els) => els.map((e) => `${e.style.left},${e.style.top}`));
      assert(new Set(boxes).size === boxes.length, `marks on the same spot: ${boxes.join(' ')}`);
      // A kept mark's card names the grouping column (group post_id = 1, not group 1).
      await lab.el('time-picture').locator('[data-testid="picture-mark"][data-fate="kept"]').first().focus();
      const keptCard = await lab.text('picture-card');
      assert(/group post_id = \d/.test(keptCard), `kept card ${JSON.stringify(keptCard)}`);
      // Escape closes the card.
      await lab.page.keyboard.press('Escape');
      await lab.el('picture-card').waitFor({ state: 'detached' });
      // The axis click.
      const axis = lab.el('picture-axis').first();
      const abox = await axis.boundingBox();
      await axis.click({ position: { x: abox.width * 0.37 + 0.3, y: abox.height / 2 } });
      await lab.page.waitForFunction(() => document.querySelector('[data-testid="pending-count"]')?.textContent.trim() === '1');
      const added = (await markInfo()).find((m) => m.fate === 'pending');
      assert(added && added.t % 1e6 === 0, `the clicked event's time ${added?.t} µs is not a whole second`);
      const id = /event_id=([^,]+)/.exec(added.label)?.[1];
      assert(id && !/^c([1-9]|10)$/.test(id), `the clicked event's id ${id} is one of the example's (c1 … c10)`);
      console.log(`     axis click: ${id} at ${new Date(added.t / 1000).toISOString()}`);
      await lab.el('undo').click();
      await lab.page.waitForFunction(() => document.querySelector('[data-testid="pending-count"]')?.textContent.trim() === '0');
      // The drag: the late mark (c8, 09:03) to the right end of the axis.
      const before = await markInfo();
      const rowsBefore = JSON.stringify(await lab.emittedRows());
      const droppedBefore = (await lab.batchNumbers()).reduce((a, b) => a + b.dropped, 0);
      const lateMark = before.find((m) => m.fate === 'late' && m.origin);
      assert(lateMark, `no draggable late mark: ${JSON.stringify(before)}`);
      const sel = `[data-testid="picture-mark"][data-origin="${lateMark.origin}"]`;
      const mbox = await lab.page.locator(sel).boundingBox();
      const [x0, y0] = [mbox.x + mbox.width / 2, mbox.y + mbox.height / 2];
      const x1 = abox.x + abox.width * 0.9;
      await lab.page.mouse.move(x0, y0);
      await lab.page.mouse.down();
      for (let i = 1; i <= 8; i += 1) await lab.page.mouse.move(x0 + ((x1 - x0) * i) / 8, y0);
      await lab.el('picture-drag-ghost').waitFor({ state: 'visible' });
      await lab.page.mouse.up();
      await lab.page.waitForFunction(([s, t]) => {
        const e = document.querySelector(s);
        return e && Number(e.dataset.timeUs) !== t;
      }, [sel, lateMark.t]);
      const moved = (await markInfo()).find((m) => m.origin === lateMark.origin);
      assert(moved.t > lateMark.t && moved.t % 1e6 === 0, `dragged to ${moved.t} µs (from ${lateMark.t})`);
      assert(moved.fate !== 'late', `the dragged mark is still ${moved.fate}`);
      const droppedAfter = (await lab.batchNumbers()).reduce((a, b) => a + b.dropped, 0);
      assert(droppedAfter < droppedBefore, `numRowsDroppedByWatermark ${droppedBefore} → ${droppedAfter} after moving the late row`);
      assert(JSON.stringify(await lab.emittedRows()) !== rowsBefore, 'the emitted rows did not change after the drag');
      console.log(`     drag: ${lateMark.origin} ${new Date(lateMark.t / 1000).toISOString()} → ${new Date(moved.t / 1000).toISOString()}, ${moved.fate}; dropped ${droppedBefore} → ${droppedAfter}`);
      await lab.pictureShot(path.join(outDir, 'picture-dragged.png'));
      await lab.el('undo').click();
      await lab.page.waitForFunction(([s, t]) => Number(document.querySelector(s)?.dataset.timeUs) === t, [sel, lateMark.t]);
      assert(JSON.stringify(await lab.emittedRows()) === rowsBefore, 'undo did not restore the emitted rows');
      assert((await markInfo()).find((m) => m.origin === lateMark.origin).fate === 'late', 'undo did not make the row late again');
      // The keyboard: Alt+→ on the focused mark moves it one step later and keeps the focus.
      await lab.page.locator(sel).focus();
      await lab.page.keyboard.press('Alt+ArrowRight');
      await lab.page.waitForFunction(([s, t]) => Number(document.querySelector(s)?.dataset.timeUs) > t, [sel, lateMark.t]);
      const stepped = (await markInfo()).find((m) => m.origin === lateMark.origin);
      assert(stepped.t % 1e6 === 0 && stepped.t - lateMark.t <= 3600e6, `Alt+→ moved it to ${stepped.t} µs`);
      await lab.page.waitForFunction((o) => document.activeElement?.dataset?.origin === o, lateMark.origin);
      const card = await lab.text('picture-card');
      // The card speaks of the mark as it is now: still late, or aggregated into a post's window.
      const cardSays = stepped.fate === 'late' ? /late/ : /post_id = /;
      assert(cardSays.test(card), `card after the move (fate ${stepped.fate}) ${JSON.stringify(card)}`);
      await lab.el('undo').click();
      await lab.page.waitForFunction(([s, t]) => Number(document.querySelector(s)?.dataset.timeUs) === t, [sel, lateMark.t]);
      // A narrower window redraws the canvas at its new width (and the overlay with it).
      const canvasWidth = () => lab.el('picture-canvas').evaluate((c) => [c.width, c.clientWidth]);
      const [w0] = await canvasWidth();
      await lab.page.setViewportSize({ width: 1000, height: 900 });
      await lab.page.waitForFunction((w) => {
        const c = document.querySelector('[data-testid="picture-canvas"]');
        return c && c.width !== w && c.width === c.clientWidth;
      }, w0);
      await lab.page.setViewportSize({ width: 1280, height: 900 });
      await lab.page.waitForFunction(() => {
        const c = document.querySelector('[data-testid="picture-canvas"]');
        return c && c.width === c.clientWidth;
      });
      console.log(`     resize: canvas ${w0} px → ${JSON.stringify(await canvasWidth())} after 1000 → 1280 px`);
    });

    // picture: at 1280×720 the picture is on screen right after load.
    await check('picture: at 1280×720 the time picture is inside the viewport', async () => {
      await lab.page.setViewportSize({ width: 1280, height: 720 });
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      await lab.page.evaluate(() => window.scrollTo(0, 0));
      const box = await lab.el('picture-canvas').boundingBox();
      await lab.page.screenshot({ path: path.join(outDir, 'picture-1280x720.png') });
      await lab.page.setViewportSize({ width: 1280, height: 900 });
      assert(box && box.y >= 0 && box.y + box.height <= 720 && box.x + box.width <= 1280, `picture at ${JSON.stringify(box)}`);
    });

    // apws: arbitrary stateful processing (applyInPandasWithState) in the browser.
    await check('the applyInPandasWithState session preset runs: sessions emitted on timeout, in English and Korean', async () => {
      await lab.selectPreset('apply-in-pandas-session');
      const n = await lab.waitForFreshScenario();
      await lab.runAllSteps(n + 1);
      assert(!(await lab.hasQueryError()), `query-error: ${await lab.text('query-error').catch(() => '')}`);
      const state = await lab.text('state-store');
      assert(state.includes('applyInPandasWithState'), 'state store lacks applyInPandasWithState');
      assert(state.includes('hasTimedOut'), 'the state table does not say a key was called with hasTimedOut');
      // Real Spark (preset-apply-in-pandas-session): u1 (3 clicks) and u2 (2) in batch 5, u3 (1)
      // in batch 8 — the recorded rows, batch by batch.
      const sessions = await emittedAs(['user_id', 'clicks']);
      const recordedSessions = await recordedAs('preset-apply-in-pandas-session', ['user_id', 'clicks']);
      assert(sessions === recordedSessions, `emitted sessions ${sessions}, Spark ${recordedSessions}`);
      await lab.screenshot(path.join(outDir, 'apply-in-pandas-en.png'));
      await lab.toggleLang('ko');
      await lab.screenshot(path.join(outDir, 'apply-in-pandas-ko.png'));
      await lab.toggleLang('en');
    });

    for (const [preset, shot, expectText] of [
      ['apply-in-pandas-count', 'apply-in-pandas-count', 'applyInPandasWithState'],
      ['apply-in-pandas-mode-error', 'apply-in-pandas-mode-error', '_LEGACY_ERROR_TEMP_3102'],
    ]) {
      await check(`the ${preset} preset shows ${expectText}, in English and Korean`, async () => {
        await lab.selectPreset(preset);
        const n = await lab.waitForFreshScenario();
        if (preset.endsWith('-error')) {
          await lab.el('query-error').waitFor({ state: 'visible' });
          assert((await lab.text('query-error')).includes(expectText), 'the refusal is not shown');
        } else {
          await lab.runAllSteps(n + 1);
          assert((await lab.text('state-store')).includes(expectText), `state store lacks ${expectText}`);
          // Real Spark (preset-apply-in-pandas-count): (u1,2) (u2,1) | (u1,3) | (u2,2) (u3,1).
          const counts = await emittedAs(['user_id', 'clicks']);
          const recordedCounts = await recordedAs('preset-apply-in-pandas-count', ['user_id', 'clicks']);
          assert(counts === recordedCounts, `the running count emitted ${counts}, Spark ${recordedCounts}`);
        }
        await lab.screenshot(path.join(outDir, `${shot}-en.png`));
        await lab.toggleLang('ko');
        await lab.screenshot(path.join(outDir, `${shot}-ko.png`));
        await lab.toggleLang('en');
      });
    }

    // tws: transformWithStateInPandas, a StatefulProcessor class typed above the query.
    await check('the transformWithState session preset runs: timers emit each session, in English and Korean; a loop in a method shows its line', async () => {
      await lab.selectPreset('transform-with-state-session');
      const n = await lab.waitForFreshScenario();
      await lab.runAllSteps(n + 1);
      assert(!(await lab.hasQueryError()), `query-error: ${await lab.text('query-error').catch(() => '')}`);
      assert((await lab.text('state-store')).includes('transformWithStateInPandas'), 'state store lacks transformWithStateInPandas');
      // Real Spark (preset-transform-with-state-session): u1 and u2 in no-data batch 5, u3 in no-data batch 8.
      const rows = await lab.emittedRows();
      const users = rows.map(({ row }) => row.user_id).sort();
      assert(JSON.stringify(users) === JSON.stringify(['u1', 'u2', 'u3']), `emitted sessions for ${JSON.stringify(users)}`);
      const u1 = rows.find(({ row }) => row.user_id === 'u1');
      assert(u1.batchId === 5 && u1.row.clicks === 3, `u1's session: ${JSON.stringify(u1)}`);
      await lab.screenshot(path.join(outDir, 'transform-with-state-en.png'));
      await lab.toggleLang('ko');
      await lab.screenshot(path.join(outDir, 'transform-with-state-ko.png'));
      await lab.toggleLang('en');
      const original = await lab.queryText();
      await lab.selectPreset('transform-with-state-session');
      await lab.waitForFreshScenario();
      await lab.setQuery(original.replace('            clicks += len(pdf)', '            while True:\n                clicks += len(pdf)'));
      await lab.el('run-step').click();
      await lab.el('query-error').waitFor({ state: 'visible' });
      const text = await lab.text('query-error');
      assert(/line 1[56][\s\S]*steps/.test(text), `the error says ${JSON.stringify(text.slice(0, 300))}`);
      assert((await lab.el('crash-screen').count()) === 0, 'the crash screen is shown');
      await lab.setQuery(original);
      await lab.page.waitForFunction(() => !document.querySelector('[data-testid="query-error"]'));
    });

    // A processing-time timeout on the lab's clock (model/tests/session.rs works the times out).
    await check('the device-silence preset alerts on the processing-time clock; Wait then Trigger alerts the last device, in English and Korean', async () => {
      await lab.selectPreset('device-silence-alert');
      const n = await lab.waitForFreshScenario();
      await lab.runAllSteps(n + 1);
      assert(!(await lab.hasQueryError()), `query-error: ${await lab.text('query-error').catch(() => '')}`);
      const alerts = async () => (await lab.emittedRows()).map(({ row }) => `${row.device_id}:${row.readings}`).sort();
      assert(JSON.stringify(await alerts()) === JSON.stringify(['d2:2', 'd3:1']), `alerts ${JSON.stringify(await alerts())}`);
      assert((await lab.text('processing-clock-time')) === '0:00:07', `clock ${await lab.text('processing-clock-time')}`);
      await lab.el('wait-10s').click();
      await lab.page.waitForFunction(() => document.querySelector('[data-testid="processing-clock-time"]')?.textContent === '0:00:17');
      await lab.el('trigger-batch').click();
      await lab.page.waitForFunction(() => document.querySelectorAll('[data-testid="emitted-row"]').length === 3);
      assert(JSON.stringify(await alerts()) === JSON.stringify(['d1:7', 'd2:2', 'd3:1']), `alerts after the wait ${JSON.stringify(await alerts())}`);
      await lab.screenshot(path.join(outDir, 'device-silence-en.png'));
      await lab.toggleLang('ko');
      await lab.screenshot(path.join(outDir, 'device-silence-ko.png'));
      await lab.toggleLang('en');
    });

    await check('a state function that never ends, or raises, shows its line and the lab keeps working', async () => {
      await lab.selectPreset('apply-in-pandas-count');
      await lab.waitForFreshScenario();
      const original = await lab.queryText();
      for (const [edit, needle] of [
        [original.replace('    state.update((n,))', '    while True:\n        n += 1\n    state.update((n,))'), /line [78][\s\S]*steps/],
        [original.replace('    state.update((n,))', '    state.update((total,))'), /line 7[\s\S]*NameError: name 'total' is not defined/],
      ]) {
        await lab.setQuery(edit);
        await lab.page.waitForTimeout(100);
        const [k, m] = await lab.stepsDone();
        await lab.el('run-step').click();
        await lab.el('query-error').waitFor({ state: 'visible' });
        const text = await lab.text('query-error');
        assert(needle.test(text), `the error says ${JSON.stringify(text.slice(0, 300))}`);
        assert((await lab.el('crash-screen').count()) === 0, 'the crash screen is shown');
        assert(k < m, 'no step left to run');
        // The run panel says why no batch runs now.
        await lab.el('run-broken').waitFor({ state: 'visible' });
      }
      await lab.setQuery(original);
      await lab.page.waitForFunction(() => !document.querySelector('[data-testid="query-error"]'));
      await lab.el('run-broken').waitFor({ state: 'detached' });
    });

    // Offline and installable (assets/sw.js, scripts/sw-precache.mjs, web/index.html).
    await check('installable: the manifest names the app and its icons, and the service worker takes over', async () => {
      const manifest = await page.evaluate(async () => (await fetch(document.querySelector('link[rel="manifest"]').href)).json());
      assert(manifest.short_name === 'Streamlab' && manifest.display === 'standalone', `manifest ${JSON.stringify(manifest).slice(0, 200)}`);
      assert(manifest.icons.some((i) => i.sizes === '512x512') && manifest.icons.some((i) => i.sizes === '192x192'), 'the manifest lacks a 192 or 512 icon');
      await page.evaluate(() => navigator.serviceWorker.ready);
      if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
        await page.reload({ waitUntil: 'load' });
        await lab.el('run-step').waitFor({ state: 'visible' });
      }
      assert(await page.evaluate(() => !!navigator.serviceWorker.controller), 'no service worker controls the page after a reload');
    });

    await check('offline: with the network off, a reload opens the lab with the learner\'s session, and the question bank, lessons and time zones come from the cache', async () => {
      // The first visit's service worker must have taken over (the check above waits for it).
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);
      await lab.selectPreset('late-data');
      await lab.waitForFreshScenario();
      await lab.el('run-step').click();
      const query = await lab.queryText();
      const steps = await lab.stepsDone();
      await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
      await context.setOffline(true);
      try {
        await page.reload({ waitUntil: 'load' });
        await lab.el('run-step').waitFor({ state: 'visible' });
        assert((await lab.queryText()) === query, 'the query changed across the offline reload');
        await lab.waitForStepsDone(steps[0], steps[1]);
        await lab.screenshot(path.join(outDir, 'offline-en.png'));
        // A region time zone needs the time-zone database, which the app fetches once it is up
        // (not in the wasm): offline it comes from the cache, so the region is read, and a name
        // that is no zone gets Spark's error, not the lab's "still fetching".
        const zoned = (zone) => `spark.conf.set("spark.sql.session.timeZone", "${zone}")\n${query}`;
        // (Until the database is installed, both say it is on its way.)
        await lab.setQuery(zoned('Mars/Olympus'));
        const zoneError = await page
          .waitForFunction(() => document.querySelector('[data-testid="query-error"]')?.textContent.includes('INVALID_CONF_VALUE.TIME_ZONE'), null, { timeout: 15_000 })
          .then(() => null, async () => (await lab.el('query-error').count()) ? lab.text('query-error') : 'no error');
        assert(zoneError === null, `a zone that does not exist, offline: ${zoneError}`);
        await lab.setQuery(zoned('Asia/Seoul'));
        await page.waitForFunction(() => !document.querySelector('[data-testid="query-error"]'), null, { timeout: 15_000 });
        await lab.setQuery(query);
        await page.waitForFunction(() => !document.querySelector('[data-testid="query-error"]'));
        // The question bank, which the app fetches once it is up, comes from the cache too.
        await page.evaluate(() => { location.hash = '#/quiz'; });
        await page.locator('.quiz-page, [data-testid="questions-failed"]').first().waitFor({ state: 'visible' });
        if ((await lab.el('questions-failed').count()) > 0) throw new Error(`offline, the questions did not load: ${await lab.text('questions-failed')}`);
        // So do the lessons, the exam lens and the glossary (prerendered/study.json).
        await page.evaluate(() => { location.hash = '#/glossary'; });
        await page.locator('[data-testid="glossary-page"], [data-testid="study-failed"]').first().waitFor({ state: 'visible' });
        if ((await lab.el('study-failed').count()) > 0) throw new Error(`offline, the lessons did not load: ${await lab.text('study-failed')}`);
        await page.evaluate(() => { location.hash = '#/lab'; });
        await lab.el('run-step').waitFor({ state: 'visible' });
      } finally {
        await context.setOffline(false);
      }
    });

    await check('a new build: the page says a new version is ready, and Reload takes it with the session kept', async () => {
      const query = await lab.queryText();
      const sw = await (await fetch(`${url}sw.js`)).text();
      // The new build stays served for the rest of the run, so no later check sees an update.
      overrides.set('/sw.js', `${sw}\n// the next build\n`);
      {
        await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
        await lab.el('update-ready').waitFor({ state: 'visible' });
        await lab.screenshot(path.join(outDir, 'update-ready-en.png'));
        await Promise.all([page.waitForEvent('load'), lab.el('update-reload').click()]);
        await lab.el('run-step').waitFor({ state: 'visible' });
        assert((await lab.el('update-ready').count()) === 0, 'the bar is still shown after the reload');
        assert((await lab.queryText()) === query, 'the session changed across the update');
      }
    });

    // Code as the PySpark docs write it. The presets' own queries are checked against real
    // Spark (scripts/spark-check.sh); the docs' forms of the same queries must give the same rows.
    await check("pasted PySpark from the docs runs: applyInPandasWithState with keyword arguments and GroupStateTimeout.NoTimeout", async () => {
      await lab.selectPreset('apply-in-pandas-count');
      const n = await lab.waitForFreshScenario();
      await lab.runAllSteps(n + 1);
      const counts = (await lab.emittedRows()).map(({ batchId, row }) => `${batchId}:${row.user_id}:${row.clicks}`);
      assert(counts.length > 0, 'the preset emitted no rows');
      // The API reference's example (GroupedData.applyInPandasWithState), with the lab's
      // stream and key, and without its `assert isinstance(state, GroupStateImpl)` line
      // (GroupStateImpl is not imported there: Spark fails the batch with a NameError).
      await lab.setQuery([
        'import pandas as pd',
        'from pyspark.sql.streaming.state import GroupStateTimeout',
        'def count_fn(key, pdf_iter, state):',
        '    total_len = state.get[0] if state.exists else 0',
        '    for pdf in pdf_iter:',
        '        total_len += len(pdf)',
        '    state.update((total_len,))',
        '    yield pd.DataFrame({"user_id": [key[0]], "countAsString": [str(total_len)]})',
        '',
        'clicks.groupby("user_id").applyInPandasWithState(',
        '    count_fn, outputStructType="user_id string, countAsString string",',
        '    stateStructType="len long", outputMode="Update",',
        '    timeoutConf=GroupStateTimeout.NoTimeout)',
      ].join('\n'));
      await lab.page.waitForTimeout(100);
      assert(!(await lab.hasQueryError()), `query-error: ${await lab.text('query-error').catch(() => '')}`);
      const docs = (await lab.emittedRows()).map(({ batchId, row }) => `${batchId}:${row.user_id}:${row.countAsString}`);
      assert(JSON.stringify(docs) === JSON.stringify(counts), `the docs' form emitted ${JSON.stringify(docs)}, the preset ${JSON.stringify(counts)}`);
    });

    await check('a whole PySpark program runs the query it starts (imports, assignments, writeStream...start(), awaitTermination())', async () => {
      await lab.selectPreset('classic');
      const n = await lab.waitForFreshScenario();
      const original = await lab.queryText();
      await lab.runAllSteps(n + 1);
      const rows = (await lab.emittedRows()).map(({ batchId, row }) => `${batchId}:${JSON.stringify(row)}`);
      assert(rows.length > 0, 'the preset emitted no rows');
      await lab.setQuery([
        'from pyspark.sql import SparkSession',
        'from pyspark.sql.functions import window, col',
        '',
        'spark = SparkSession.builder.appName("ClickCounts").getOrCreate()',
        '',
        '# the lab feeds `clicks`; this is the preset\'s query written as a program',
        `windowed = ${original.trim()}`,
        'query = (windowed.writeStream',
        '    .outputMode("append")',
        '    .format("memory")',
        '    .queryName("counts")',
        '    .start())',
        'query.awaitTermination()',
      ].join('\n'));
      await lab.page.waitForTimeout(100);
      assert(!(await lab.hasQueryError()), `query-error: ${await lab.text('query-error').catch(() => '')}`);
      const program = (await lab.emittedRows()).map(({ batchId, row }) => `${batchId}:${JSON.stringify(row)}`);
      assert(JSON.stringify(program) === JSON.stringify(rows), `the program emitted ${JSON.stringify(program)}, the preset ${JSON.stringify(rows)}`);
      // A program that starts nothing and ends in an assignment says how to end it.
      await lab.setQuery(`windowed = ${original.trim()}`);
      await lab.el('query-error').waitFor({ state: 'visible' });
      assert(/defines no query[\s\S]*windowed/.test(await lab.text('query-error')), `query-error: ${await lab.text('query-error')}`);
      await lab.setQuery(original);
      await lab.page.waitForFunction(() => !document.querySelector('[data-testid="query-error"]'));
    });

    // Robustness: nothing a learner types or stores may kill the page.
    await check('2,000 nested parentheses give a positioned error and a live lab', async () => {
      await lab.selectPreset('classic');
      await lab.waitForFreshScenario();
      const original = await lab.queryText();
      const deep = `clicks.filter(${'('.repeat(2000)}F.col('post_id') > 0${')'.repeat(2000)})`;
      await lab.setQuery(deep);
      const error = lab.el('query-error');
      await error.waitFor({ state: 'visible' });
      const text = await error.innerText();
      assert(/nested more than 100 levels/.test(text), `query-error says ${JSON.stringify(text.slice(0, 200))}`);
      assert((await lab.el('crash-screen').count()) === 0, 'the crash screen is shown');
      // The lab still responds to a click.
      await lab.el('mode-complete').click();
      await lab.page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-pressed') === 'true', '[data-testid="mode-complete"]');
      await lab.el('mode-append').click();
      await lab.setQuery(original);
      await lab.page.waitForFunction(() => !document.querySelector('[data-testid="query-error"]'));
    });

    await check('queries at the depth limits run in the browser', async () => {
      // The deepest query of each shape the engine accepts (engine/tests/limits.rs): they
      // must run a batch on the wasm stack, not overflow it.
      const shapes = [
        `clicks.filter(${'('.repeat(98)}F.col('post_id') > 0${')'.repeat(98)})`,
        `clicks${".filter('post_id > 0')".repeat(99)}`,
        `clicks.select(F.col('post_id')${' + 1'.repeat(126)})`,
        `w = clicks\n${"w = w.filter('post_id > 0')\n".repeat(126)}w`,
      ];
      const original = await lab.queryText();
      for (const q of shapes) {
        // A new query replays every step so far, then one more step runs on it.
        await lab.setQuery(q);
        await lab.page.waitForTimeout(100);
        if (await lab.hasQueryError()) throw new Error(`query-error for ${q.slice(0, 40)}…: ${await lab.text('query-error')}`);
        const [k, n] = await lab.stepsDone();
        await lab.el('run-step').click();
        await lab.waitForStepsDone(k + 1, n);
        assert((await lab.el('crash-screen').count()) === 0, `crash screen after ${q.slice(0, 40)}…`);
      }
      await lab.setQuery(original);
    });

    await check('a corrupted saved session is set aside with a message; the lab works', async () => {
      // The lab saves a change that is still due when the page hides (pagehide): do that first,
      // so the reload's own pagehide has nothing to save over the corrupted text.
      await page.evaluate(() => {
        window.dispatchEvent(new Event('pagehide'));
        localStorage.setItem('streamlab.session.v1', '{not json');
      });
      await page.reload({ waitUntil: 'load' });
      await lab.el('run-step').waitFor({ state: 'visible' });
      const notice = lab.el('storage-notice');
      await notice.waitFor({ state: 'visible' });
      assert(/set aside/.test(await notice.innerText()), `storage-notice: ${await notice.innerText()}`);
      const n = await lab.waitForFreshScenario();
      await lab.el('run-step').click();
      await lab.waitForStepsDone(1, n);
      await lab.el('storage-discard').click();
      await notice.waitFor({ state: 'detached' });
    });

    await check('a panic while loading shows the recovery screen; starting again gives a working lab', async () => {
      const before = problems.length;
      await page.goto(url + '?panic#debug-panic', { waitUntil: 'load' });
      const screen = lab.el('crash-screen');
      await screen.waitFor({ state: 'visible' });
      assert(/debug-panic/.test(await lab.text('crash-message')), 'the crash message does not name the panic');
      await lab.screenshot(path.join(outDir, 'crash-screen.png'));
      // The panic and the abort that follows are expected here, and only here.
      const expected = problems.splice(before);
      assert(expected.some((p) => /debug-panic/.test(p)), `no panic was reported: ${expected.join(' | ')}`);
      await lab.el('crash-start-over').click();
      await lab.el('run-step').waitFor({ state: 'visible' });
      assert(!page.url().includes('#debug-panic'), `still at ${page.url()}`);
      // The session that was loading is set aside, not replayed.
      await lab.el('storage-notice').waitFor({ state: 'visible' });
      const n = await lab.waitForFreshScenario();
      await lab.el('run-step').click();
      await lab.waitForStepsDone(1, n);
      await lab.el('storage-discard').click();
      // After the load, the screen keeps the query text and reloads the last saved session.
      const query = await lab.queryText();
      await page.evaluate(() => window.streamlabCrash('a simulated trap after loading'));
      await screen.waitFor({ state: 'visible' });
      assert((await lab.el('crash-query').inputValue()) === query, 'the crash screen lost the query text');
      await lab.el('crash-reload').click();
      await lab.el('run-step').waitFor({ state: 'visible' });
      await lab.waitForStepsDone(1, n);
      assert((await lab.el('storage-notice').count()) === 0, 'the saved session was set aside after a crash past loading');
    });

    await check('a save that the browser refuses is reported on the page', async () => {
      // Fill the origin's storage, then drop the saved session so the next save needs room.
      await page.evaluate(() => {
        localStorage.removeItem('streamlab.session.v1');
        let i = 0;
        for (const size of [256 * 1024, 16 * 1024, 1024, 64, 1]) {
          const chunk = 'x'.repeat(size);
          for (;;) {
            try { localStorage.setItem(`fill-${i++}`, chunk); } catch { break; }
          }
        }
      });
      await lab.el('run-step').click();
      const banner = lab.el('save-error');
      await banner.waitFor({ state: 'visible' });
      assert(/could not be saved/.test(await banner.innerText()), `save-error: ${await banner.innerText()}`);
      // present: the session stays in memory, and one click saves it as a file the lab opens.
      const [file] = await Promise.all([page.waitForEvent('download'), lab.el('save-error-download').click()]);
      const saved = JSON.parse(await fsp.readFile(await file.path(), 'utf8'));
      assert(Array.isArray(saved.steps) && saved.query, `the saved file is not a scenario: ${JSON.stringify(saved).slice(0, 120)}`);
      assert(await lab.el('save-error').isVisible(), 'the notice went away while saving still fails');
      await page.evaluate(() => {
        for (const k of Object.keys(localStorage)) if (k.startsWith('fill-')) localStorage.removeItem(k);
      });
      await lab.el('run-step').click();
      await banner.waitFor({ state: 'detached' });
    });

    await check('the event form reads a value as Spark\'s JSON reader does and says it became NULL', async () => {
      await lab.openScenario(JSON.stringify(scenario));
      await lab.waitForFreshScenario();
      const before = Number(await lab.text('pending-count'));
      const notice = await lab.pushEvent('clicks', { event_id: 'x1', post_id: 'seven', event_time: '12:07' });
      assert(notice.startsWith('post_id:') && notice.includes('NULL'), `notice: ${notice}`);
      assert(Number(await lab.text('pending-count')) === before + 1, 'the event was not added');
      await lab.el('notice').scrollIntoViewIfNeeded();
      await lab.screenshot(path.join(outDir, 'null-note.png'));
    });

    await check('the ?bench page times every workload in wasm (figures printed)', async () => {
      await page.goto(`${url}?bench`, { waitUntil: 'load' });
      await page.locator('[data-testid="bench-done"]').waitFor({ state: 'attached', timeout: 300_000 });
      const rows = await page.locator('[data-testid="bench-row"]').evaluateAll((els) => els.map((e) => [...e.querySelectorAll('td')].map((td) => td.textContent)));
      assert(rows.length === 21, `${rows.length} bench rows, want 21`);
      console.log('     workload               events   median ms      events/s');
      for (const [w, n, ms, eps] of rows) console.log(`     ${w.padEnd(22)} ${n.padStart(7)} ${ms.padStart(11)} ${eps.padStart(13)}`);
    });

    // load: before the wasm has arrived, the page the address names is there to read
    // (assets/prerendered/, model/src/study/prerender.rs). A browser of its own, without service
    // workers, whose wasm request is never answered.
    await check('load: while the wasm loads, the lesson the address names can be read (prerendered, EN and KO)', async () => {
      const b = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
      try {
        for (const [lang, title, list] of [['en', 'Watermarks', 'Lessons'], ['ko', '워터마크', '레슨']]) {
          const ctx = await b.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
          await ctx.addInitScript((l) => localStorage.setItem('streamlab.lang', JSON.stringify(l)), lang);
          await ctx.route('**/*.wasm', () => new Promise(() => {}));
          const p = await ctx.newPage();
          await p.goto(`${url}#/lesson/watermarks`);
          await p.locator('.boot-lesson h2').waitFor({ timeout: 15000 });
          const h2 = await p.locator('.boot-lesson h2').innerText();
          assert(h2 === title, `boot page title ${JSON.stringify(h2)}, want ${title}`);
          assert((await p.locator('[data-testid="topbar"], body > .topbar').count()) === 0, 'the app started although its wasm never came');
          if (lang === 'ko') await p.screenshot({ path: path.join(outDir, 'boot-lesson-ko-390x844.png') });
          await p.goto('about:blank'); // a new load (a hash change alone loads nothing)
          await p.goto(`${url}#/lessons`);
          await p.waitForFunction((t) => document.querySelector('.boot-lesson h2')?.textContent === t, list, { timeout: 15000 });
          assert((await p.locator('.boot-lesson li a').count()) >= 18, 'the prerendered lesson list is short');
          await ctx.close();
        }
      } finally {
        await b.close();
      }
    });

    // load figures: cold loads on two emulated connections, gzipped and not, and a repeat
    // visit (printed), in a browser of their own.
    {
      const b = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
      try {
        await loadChecks({ browser: b, distDir, check, assert });
      } finally {
        await b.close();
      }
    }

    // teach: presenter mode, undo, share links, phone and Korean checks, in a browser of their own (closed by teachChecks).
    await teachChecks({ root, browser: await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }), baseUrl: url, check, assert, outDir, LabPage });
    await studyChecks({ page, url, root, check, assert, outDir, LabPage }); // study
    await lessonLabChecks({ page, url, check, assert, outDir, LabPage }); // lessons
    await examChecks({ page, url, root, check, assert, outDir, LabPage, readBank }); // exam

    await screenChecks({ page, url, root, check, assert, outDir, LabPage }); // screen
    await a11yChecks({ page, url, check, assert, LabPage }); // present: axe-core on every page, both languages

    await check('no page errors, console errors or failed requests', async () => {
      assert(problems.length === 0, problems.join('\n'));
    });
  } finally {
    await context?.close().catch(() => {});
    server.close();
    await fsp.rm(userDataDir, { recursive: true, force: true }).catch(() => {});
  }
}

try {
  await main();
} catch (err) {
  results.push({ name: 'setup', ok: false });
  console.log(`FAIL e2e setup\n     ${err?.stack ?? err}`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(`screenshots: ${path.relative(process.cwd(), outDir) || '.'}/lab-en.png, lab-ko.png, crash-file.png, crash-kafka.png, session-window.png, outer-join.png, null-note.png, crash-screen.png`);
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
