import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
p.on('console', m => { if (m.type()==='error') console.log('CONSOLE', m.text()); });
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
for (let i=0;i<6;i++){ await p.click('text=Next step ▶'); await p.waitForTimeout(300); }
const lbl = async (k) => p.$eval(`[data-mark="${k}"]`, e=>e.dataset.fate+' '+e.getAttribute('aria-label')).catch(e=>'missing');
await p.focus('[data-mark="0:7"]');
await p.waitForTimeout(300);
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/11-focus-late.png' });
for (let i=0;i<3;i++){ await p.keyboard.press('Alt+ArrowRight'); await p.waitForTimeout(400);
  const f = await p.evaluate(()=>document.activeElement?.dataset?.mark+' '+document.activeElement?.getAttribute('aria-label')+' tag='+document.activeElement?.tagName);
  console.log('after Alt+→', i, await lbl('0:7'), '| focused:', f); }
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/12-alt-right.png' });
for (let i=0;i<2;i++){ await p.keyboard.press('Shift+ArrowRight'); await p.waitForTimeout(400);
  const f = await p.evaluate(()=>document.activeElement?.dataset?.mark+' tag='+document.activeElement?.tagName);
  console.log('after Shift+→', i, await lbl('0:7'), '| focused:', f); }
console.log('NARR', await p.locator('[data-testid=picture-narration]').innerText());
// hold Alt+→ many times fast
for (let i=0;i<30;i++){ await p.keyboard.press('Alt+ArrowRight'); }
await p.waitForTimeout(1000);
console.log('after 30 Alt+→', await lbl('0:7'));
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/13-alt-many.png' });
// step back repeatedly
for (let i=0;i<3;i++){ await p.click('text=◀ Step back'); await p.waitForTimeout(400); console.log('stepback', i, await lbl('0:7'), (await p.locator('text=Steps:').locator('..').innerText()).split('\n').slice(-1)[0]); }
await b.close();
