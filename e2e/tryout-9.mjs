import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
await p.selectOption('header select', { label: 'A session tracker with a StatefulProcessor (event-time timer)' });
await p.waitForTimeout(800);
console.log('QUERY:\n'+await p.$eval('textarea', t=>t.value));
for (let i=0;i<3;i++){ await p.click('button:has-text("Next step ▶")'); await p.waitForTimeout(400); }
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/23-tws-pic-step3.png' });
const ss = p.locator('h2:has-text("State store")').locator('..');
await ss.screenshot({ path: '/tmp/tryout-shots/24-tws-state-step3.png' });
console.log('STATE step3', await ss.innerText());
// hover state row value
for (let i=0;i<2;i++){ await p.click('button:has-text("Next step ▶")'); await p.waitForTimeout(400); }
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/25-tws-pic-end.png' });
// hover late mark
const late = p.locator('[data-fate=late]').first();
await late.hover(); await p.waitForTimeout(400);
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/26-tws-late-card.png' });
console.log('CARD', await p.evaluate(()=>[...document.querySelectorAll('.tp-card')].map(e=>e.innerText).join('\n')));
// step back to batch 5 via batch slider
await b.close();
