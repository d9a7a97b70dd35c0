// Load figures, as a learner meets the lab: Chromium's own network emulation (CDP
// `Network.emulateNetworkConditions`) on two connections, the bundle served gzipped (as GitHub
// Pages serves it) and uncompressed (`python -m http.server`), cache off, a fresh browser
// context with no service worker each time; then a repeat visit with the service worker.
// Printed, not asserted (times depend on the machine): a lesson readable (the prerendered page or
// the app's own), the lab beside it interactive, the bundle's size. The checks assert only that
// each load got there.

import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};

/** Serves `dir` under `/streamlab/`; with `gzip`, a file's precompressed `.gz` beside it
 * (scripts/sw-precache.mjs writes them) when the request accepts gzip. */
function serve(dir, gzip) {
  const prefix = '/streamlab/';
  const server = http.createServer(async (req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (!p.startsWith(prefix)) return res.writeHead(404).end();
    let file = path.normalize(path.join(dir, p.slice(prefix.length) || 'index.html'));
    if (!file.startsWith(dir)) return res.writeHead(403).end();
    const stat = await fsp.stat(file).catch(() => null);
    if (!stat?.isFile()) return res.writeHead(404).end();
    const headers = { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' };
    if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && fs.existsSync(`${file}.gz`)) {
      file = `${file}.gz`;
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = (await fsp.stat(file)).size;
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const CONNECTIONS = [
  { name: '10 Mbit/s, 40 ms RTT', mbit: 10, rtt: 40 },
  { name: '1.6 Mbit/s, 150 ms RTT', mbit: 1.6, rtt: 150 },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** ms from navigation start until the lab's "Next step" is on the page and shown. */
async function interactiveAt(page, timeout) {
  const at = await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="run-step"]');
    return b && b.offsetParent !== null && performance.now();
  }, null, { timeout, polling: 'raf' });
  return at.jsonValue();
}

/** One cold load of lesson `watermarks` in a fresh context: ms from navigation start until the
 * lesson can be read and until the lab's "Next step" can be pressed. */
async function coldLoad(browser, url, conn) {
  const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  try {
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const bytes = (conn.mbit * 1e6) / 8;
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: conn.rtt, downloadThroughput: bytes, uploadThroughput: bytes });
    await page.goto(`${url}#/lesson/watermarks`, { waitUntil: 'commit' });
    const readable = await (
      await page.waitForFunction(
        () => (document.querySelector('.boot-lesson h2') || document.querySelector('[data-testid="lesson-page"] h2')) && performance.now(),
        null,
        { timeout: 240_000, polling: 'raf' },
      )
    ).jsonValue();
    // The loading bar fills as the bundle arrives (a value below its max), until the app mounts.
    const partly = await (
      await page.waitForFunction(
        () => {
          const b = document.querySelector('.boot progress');
          // With the loading line as shown, its {mb} filled in.
          const line = document.querySelector('.boot-words p')?.textContent ?? '';
          if (b && b.hasAttribute('value') && b.value > 0 && b.value < b.max) return /\{/.test(line) || !/\d MB/.test(line) ? line : b.value / b.max;
          return document.querySelector('body > .topbar') ? -1 : false;
        },
        null,
        { timeout: 240_000, polling: 'raf' },
      )
    ).jsonValue();
    const interactive = await interactiveAt(page, 240_000);
    // The lesson's tasks come with the lessons (prerendered/study.json), fetched once the app is up.
    const tasks = await (
      await page.waitForFunction(() => document.querySelector('[data-testid="lesson-steps"]') && performance.now(), null, { timeout: 60_000, polling: 'raf' })
    ).jsonValue();
    return { readable, interactive, partly, tasks };
  } finally {
    await ctx.close();
  }
}

/** Prints the load figures (see the file's comment). */
export async function loadChecks({ browser, distDir, check, assert }) {
  const wasm = fs.readdirSync(distDir).find((f) => f.endsWith('_bg.wasm'));
  const size = (f) => fs.statSync(path.join(distDir, f)).size;
  const mb = (n) => (n / 1e6).toFixed(2);
  await check('load: the bundle size (printed), and the loading screen says it', async () => {
    assert(wasm, 'no wasm in dist/');
    console.log(`     wasm: ${mb(size(wasm))} MB raw, ${mb(size(`${wasm}.gz`))} MB gzip, ${mb(size(`${wasm}.br`))} MB brotli`);
    // The loading screen tells the learner how much the first visit downloads (every
    // language): the gzipped bundle's size, which the build writes on the bar
    // (data-download-mb) and the loading line fills in for its {mb}.
    const words = fs.readFileSync(path.join(distDir, 'prerendered', 'boot-text.js'), 'utf8');
    const holes = [...words.matchAll(/"boot\.loading": ?"[^"]*\{mb\} MB/g)].length;
    const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
    const said = Number(/data-download-mb="([\d.]+)"/.exec(html)?.[1]);
    const gz = size(`${wasm}.gz`) / 1e6;
    assert(holes === 2 && Math.abs(said - gz) <= 0.05, `the loading line has {mb} in ${holes} languages and the bar says ${said} MB; the gzipped wasm is ${gz.toFixed(2)} MB`);
  });
  for (const gzip of [true, false]) {
    const server = await serve(distDir, gzip);
    const url = `http://127.0.0.1:${server.address().port}/streamlab/`;
    try {
      for (const conn of CONNECTIONS) {
        // Uncompressed is printed from one load (the slow one takes most of a minute).
        const runs = gzip ? 3 : 1;
        await check(`load: lesson readable and lab interactive, ${gzip ? 'gzipped' : 'uncompressed'}, ${conn.name} (printed)`, async () => {
          const times = [];
          for (let i = 0; i < runs; i++) times.push(await coldLoad(browser, url, conn));
          const r = median(times.map((t) => t.readable));
          const l = median(times.map((t) => t.interactive));
          const k = median(times.map((t) => t.tasks));
          assert(r > 0 && l >= r && k >= l, `readable ${r} ms, interactive ${l} ms, tasks ${k} ms`);
          // On the slow connection the bar was seen part-filled (the bundle's bytes counted).
          if (conn.mbit < 2) assert(times.every((t) => t.partly > 0), `the loading bar never showed part of the bundle, or the line beside it did not say the size: ${times.map((t) => t.partly).join(', ')}`);
          console.log(`     ${gzip ? 'gzip' : 'plain'}, ${conn.name}: lesson readable ${(r / 1000).toFixed(2)} s, lab interactive ${(l / 1000).toFixed(2)} s, lesson tasks ${(k / 1000).toFixed(2)} s (median of ${runs}, cache off)`);
        });
      }
      if (gzip) {
        await check('load: while the lessons are on their way the lesson\'s lab works and its text is the loading screen\'s; then its tasks come; a failed fetch says so and tries again', async () => {
          const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
          try {
            let release;
            const held = new Promise((r) => { release = r; });
            await ctx.route('**/prerendered/study.json', async (route) => { await held; await route.continue(); });
            const page = await ctx.newPage();
            await page.goto(`${url}#/lesson/watermarks`);
            const step = page.locator('[data-testid="run-step"]');
            await step.waitFor({ state: 'visible', timeout: 120_000 });
            // The lesson column is the prerendered lesson (lesson 5, "Watermarks"), with a line
            // saying the rest is coming; the lab beside it runs.
            const loading = page.locator('[data-testid="lesson-text-loading"]');
            await loading.waitFor({ state: 'visible' });
            const h2 = (await loading.locator('h2').textContent()).trim();
            assert(h2 === 'Watermarks', `the waiting lesson column shows "${h2}"`);
            await page.locator('[data-testid="lesson-steps-loading"]').waitFor({ state: 'visible' });
            await step.click();
            // The preset's first step is run: "1 / n" steps done.
            await page.waitForFunction(() => /^1\s*\//.test(document.querySelector('[data-testid="steps-done"]')?.textContent.trim() ?? ''), null, { timeout: 10_000 });
            assert((await page.locator('[data-testid="lesson-steps"]').count()) === 0, 'the tasks were there before the lessons came');
            release();
            await page.locator('[data-testid="lesson-title"]').waitFor({ state: 'visible', timeout: 30_000 });
            await page.locator('[data-testid="lesson-steps"]').waitFor({ state: 'visible' });
            assert((await loading.count()) === 0, 'the waiting column stayed');
            assert((await page.locator('[data-testid="lesson-title"]').textContent()).trim() === 'Watermarks', 'another lesson came');
            // A fetch that fails (offline on a first visit, a host that lost the file): the lesson
            // column says so with a button that tries again; the lab keeps running.
            await ctx.unroute('**/prerendered/study.json');
            await ctx.route('**/prerendered/study.json', (route) => route.abort());
            await page.evaluate(() => { location.hash = '#/lab'; });
            await page.reload();
            await page.evaluate(() => { location.hash = '#/glossary'; });
            await page.locator('[data-testid="study-failed"]').waitFor({ state: 'visible', timeout: 120_000 });
            await ctx.unroute('**/prerendered/study.json');
            await page.locator('[data-testid="study-failed"] button').click();
            await page.locator('[data-testid="glossary-page"]').waitFor({ state: 'visible', timeout: 30_000 });
            assert((await page.locator('[data-testid="glossary-term"]').count()) > 20, 'the glossary came with too few terms');
          } finally {
            await ctx.close();
          }
        });
        await check('load: a learner who scrolled the lesson while the app loaded keeps their place, phone, 1.6 Mbit/s, EN and KO', async () => {
          for (const locale of ['en-US', 'ko-KR']) {
            // A phone: the lesson is one long column, so a jump to the top would lose the place.
            const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale });
            try {
              const page = await ctx.newPage();
              const cdp = await ctx.newCDPSession(page);
              await cdp.send('Network.enable');
              await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
              const bytes = 1.6e6 / 8;
              await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: bytes, uploadThroughput: bytes });
              await page.goto(`${url}#/lesson/watermarks`, { waitUntil: 'commit' });
              await page.locator('.boot-lesson h2').waitFor({ state: 'visible', timeout: 60_000 });
              // Down to the lesson's "What to watch" heading, as a reader would scroll (again once
              // the page has settled: its fonts and the loading line can still move it).
              const scroll = () => page.evaluate(() => {
                const h = document.querySelectorAll('.boot-lesson h3')[0];
                window.scrollTo(0, window.scrollY + h.getBoundingClientRect().top - 10);
              });
              await scroll();
              await page.waitForTimeout(500);
              await scroll();
              await page.waitForTimeout(200);
              assert(await page.evaluate(() => window.scrollY > 100), 'the prerendered lesson is too short to scroll');
              // What the reader has at the top of the screen: the first block that starts on it (the
              // page may end before that heading reaches the top).
              const read = await page.evaluate(() => {
                const b = [...document.querySelectorAll('.boot-lesson :is(h2, h3, p, li)')].find((e) => e.getBoundingClientRect().top >= -8);
                return b.textContent.replace(/\s+/g, ' ').trim().slice(0, 40);
              });
              await interactiveAt(page, 240_000);
              // That block is at the top again once the app has mounted (the page jumped to its top
              // before), and still once the lesson's own text has replaced the loading screen's.
              const place = () => page
                .waitForFunction((text) => {
                  const b = [...document.querySelectorAll('[data-testid="lesson-page"] .lesson-text :is(h2, h3, p, li)')].find((e) => e.textContent.replace(/\s+/g, ' ').trim().slice(0, 40) === text);
                  const y = b && b.getBoundingClientRect().top;
                  return b && y >= -5 && y <= 60 ? y : false;
                }, read, { timeout: 5_000 })
                .then((r) => r.jsonValue(), () => page.evaluate(() => `scrollY ${window.scrollY}`));
              const mounted = await place();
              assert(typeof mounted === 'number', `${locale}: after the app mounted, "${read}" is not at the top of the screen (${mounted})`);
              await page.locator('[data-testid="lesson-steps"]').waitFor({ state: 'attached', timeout: 60_000 });
              const arrived = await place();
              assert(typeof arrived === 'number', `${locale}: after the lesson arrived, "${read}" is not at the top of the screen (${arrived})`);
            } finally {
              await ctx.close();
            }
          }
        });
        await check('load: a repeat visit with the service worker, 10 Mbit/s (printed)', async () => {
          const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          try {
            const page = await ctx.newPage();
            await page.goto(`${url}#/lesson/watermarks`);
            await page.locator('[data-testid="run-step"]').waitFor({ state: 'visible', timeout: 120_000 });
            await page.evaluate(() => navigator.serviceWorker.ready);
            await page.reload();
            await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 60_000 });
            const cdp = await ctx.newCDPSession(page);
            await cdp.send('Network.enable');
            const bytes = 10e6 / 8;
            await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: bytes, uploadThroughput: bytes });
            await page.reload({ waitUntil: 'commit' });
            const t = await interactiveAt(page, 60_000);
            console.log(`     repeat visit (service worker), 10 Mbit/s: lab interactive ${(t / 1000).toFixed(2)} s`);
          } finally {
            await ctx.close();
          }
        });
      }
    } finally {
      server.close();
    }
  }
}
