import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
await p.selectOption('header select', { label: 'A session tracker with a StatefulProcessor (event-time timer)' });
await p.waitForTimeout(800);
for (let i=0;i<5;i++){ await p.click('button:has-text("Next step ▶")'); await p.waitForTimeout(300); }
await p.locator('[data-testid=picture-mark]').first().hover(); await p.waitForTimeout(400);
console.log('CARD kept', await p.evaluate(()=>[...document.querySelectorAll('.tp-card')].map(e=>e.innerText).join('\n')));
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/27-tws-kept-card.png' });
// hover state store cells
const cell = p.locator('td:has-text("1772445")').first();
console.log('cell title', await cell.getAttribute('title'));
await cell.hover(); await p.waitForTimeout(500);
await p.screenshot({ path: '/tmp/tryout-shots/28-tws-state-hover.png', clip:{x:900,y:50,width:380,height:250} });
// batch slider go to batch 5
const bs = p.locator('[data-testid=batch-slider]');
await bs.fill('5'); await p.waitForTimeout(600);
const ss = p.locator('h2:has-text("State store")').locator('..');
console.log('STATE @5', await ss.innerText());
await p.screenshot({ path: '/tmp/tryout-shots/29-tws-asof5.png', fullPage: false });
await b.close();
