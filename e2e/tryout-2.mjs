import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
p.on('console', m => { if (m.type()==='error') console.log('CONSOLE', m.text()); });
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
await p.selectOption('select >> nth=0', { label: 'Classic sliding windows' });
await p.waitForTimeout(500);
for (let i=0;i<4;i++){ await p.click('text=Next step ▶'); await p.waitForTimeout(400); }
const pic = p.locator('text=Time picture: event time × micro-batches').locator('..');
await pic.screenshot({ path: '/tmp/tryout-shots/02-pic-step4.png' });
await p.screenshot({ path: '/tmp/tryout-shots/02-full-step4.png', fullPage: true });
// find svg marks
const svgInfo = await p.$$eval('svg', ss => ss.map(s => ({w:s.getBoundingClientRect().width, h:s.getBoundingClientRect().height, n:s.querySelectorAll('*').length, focusables: s.querySelectorAll('[tabindex]').length})));
console.log(JSON.stringify(svgInfo));
const marks = await p.$$eval('svg [tabindex]', els => els.map(e => ({tag:e.tagName, aria:e.getAttribute('aria-label'), cls:e.getAttribute('class'), role:e.getAttribute('role'), txt:e.textContent.slice(0,40), r:(()=>{const r=e.getBoundingClientRect();return [Math.round(r.x),Math.round(r.y),Math.round(r.width),Math.round(r.height)]})()})));
console.log(JSON.stringify(marks, null, 0));
await b.close();
