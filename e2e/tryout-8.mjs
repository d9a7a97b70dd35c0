import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
p.on('console', m => { if (m.type()==='error') console.log('CONSOLE', m.text()); });
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
await p.selectOption('header select', { label: 'A session tracker with a StatefulProcessor (event-time timer)' });
await p.waitForTimeout(800);
await p.screenshot({ path: '/tmp/tryout-shots/20-tws-start.png', fullPage: true });
console.log('URL', p.url());
console.log('TEXT0', await p.innerText('main').catch(()=>p.innerText('body')));
let n=0;
while (n<20) { const btn = p.locator('button:has-text("Next step ▶")'); if (await btn.isDisabled()) break; await btn.click(); await p.waitForTimeout(400); n++;
  await p.screenshot({ path: `/tmp/tryout-shots/21-tws-step${n}.png`, fullPage: true }); }
console.log('steps pressed', n);
await p.screenshot({ path: '/tmp/tryout-shots/22-tws-end.png', fullPage: true });
console.log('TEXTEND', await p.innerText('body'));
await b.close();
