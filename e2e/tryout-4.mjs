import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
for (let i=0;i<4;i++){ await p.click('text=Next step ▶'); await p.waitForTimeout(300); }
const pic = p.locator('[data-testid=time-picture]');
const sinkText = async () => (await p.locator('text=Sink: rows emitted').locator('..').innerText());
console.log('SINK before:', await sinkText());
// hover kept mark
await p.hover('[data-mark="0:0"]'); await p.waitForTimeout(500);
await p.screenshot({ path: '/tmp/tryout-shots/03-hover-kept.png', clip: {x:380,y:60,width:520,height:650} });
// hover late mark
await p.hover('[data-mark="0:7"]'); await p.waitForTimeout(500);
await p.screenshot({ path: '/tmp/tryout-shots/04-hover-late.png', clip: {x:380,y:60,width:520,height:650} });
const tip = await p.evaluate(() => [...document.querySelectorAll('[role=tooltip], .tp-card, .tp-tip')].map(e=>e.className+': '+e.innerText).join('\n---\n'));
console.log('TIP:', tip);
// click late mark
await p.click('[data-mark="0:7"]'); await p.waitForTimeout(500);
await p.screenshot({ path: '/tmp/tryout-shots/05-click-late.png', clip: {x:380,y:60,width:520,height:700} });
console.log('AFTER CLICK narration:', await p.locator('[data-testid=picture-narration]').innerText());
await b.close();
