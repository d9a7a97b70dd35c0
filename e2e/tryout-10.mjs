import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
await p.selectOption('header select', { label: 'A session tracker with a StatefulProcessor (event-time timer)' });
await p.waitForTimeout(800);
for (let i=0;i<5;i++){ await p.click('button:has-text("Next step ▶")'); await p.waitForTimeout(400); }
await p.click('button:has-text("한국어")'); await p.waitForTimeout(1000);
console.log('URL', p.url());
await p.screenshot({ path: '/tmp/tryout-shots/30-ko-full.png', fullPage: true });
await p.screenshot({ path: '/tmp/tryout-shots/31-ko-top.png' });
console.log(await p.innerText('body'));
const late = p.locator('[data-fate=late]').first();
await late.hover(); await p.waitForTimeout(400);
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/32-ko-late-card.png' });
console.log('CARD', await p.evaluate(()=>[...document.querySelectorAll('.tp-card')].map(e=>e.innerText).join('\n')));
await p.locator('[data-testid=picture-mark]').first().hover(); await p.waitForTimeout(400);
console.log('CARD2', await p.evaluate(()=>[...document.querySelectorAll('.tp-card')].map(e=>e.innerText).join('\n')));
await p.click('summary:has-text("")').catch(()=>{});
const sums = await p.$$eval('summary', s=>s.map(x=>x.innerText));
console.log('SUMMARIES', sums);
for (const s of await p.$$('details')) { await s.evaluate(d=>d.open=true); }
await p.waitForTimeout(500);
console.log('DETAILS-OPEN', await p.innerText('body'));
await p.screenshot({ path: '/tmp/tryout-shots/33-ko-details.png', fullPage: true });
await b.close();
