import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
p.on('console', m => { if (m.type()==='error') console.log('CONSOLE', m.text()); });
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
for (let i=0;i<6;i++){ await p.click('text=Next step ▶'); await p.waitForTimeout(300); }
const sink = async () => (await p.locator('text=Sink: rows emitted').locator('..').innerText());
const steps = async () => (await p.locator('text=Steps:').locator('..').innerText());
console.log('STEPS', await steps());
console.log('SINK before:', await sink());
// click late mark, move away
await p.click('[data-mark="0:7"]'); await p.mouse.move(10,10); await p.waitForTimeout(400);
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/06-late-clicked.png' });
const m = await p.locator('[data-mark="0:7"]').boundingBox();
console.log('mark box', m);
await p.mouse.move(m.x+7, m.y+7);
await p.mouse.down();
for (let dx=10; dx<=200; dx+=10) { await p.mouse.move(m.x+7+dx, m.y+7); await p.waitForTimeout(30); if (dx===100) await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/07-mid-drag.png' }); }
await p.mouse.up();
await p.waitForTimeout(800);
await p.mouse.move(10,10);
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/08-after-drag.png' });
console.log('SINK after drag:', await sink());
console.log('NARR', await p.locator('[data-testid=picture-narration]').innerText());
console.log('STEPS', await steps());
const marks = await p.$$eval('[data-testid=picture-mark]', els => els.map(e => e.dataset.mark+' '+e.dataset.fate+' '+e.getAttribute('aria-label')));
console.log(marks.join('\n'));
await p.screenshot({ path: '/tmp/tryout-shots/09-after-drag-full.png', fullPage: true });
const undoBtns = await p.$$eval('button', bs => bs.map(b=>b.innerText).filter(t=>/undo|back/i.test(t)));
console.log('UNDO-like buttons', undoBtns);
await p.click('text=◀ Step back'); await p.waitForTimeout(800);
console.log('SINK after stepback:', await sink());
console.log('STEPS', await steps());
const marks2 = await p.$$eval('[data-testid=picture-mark]', els => els.map(e => e.dataset.mark+' '+e.dataset.fate+' '+e.getAttribute('aria-label')));
console.log(marks2.join('\n'));
await p.locator('[data-testid=time-picture]').screenshot({ path: '/tmp/tryout-shots/10-after-undo.png' });
// Ctrl+Z?
await b.close();
