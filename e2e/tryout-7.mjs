import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('pageerror', e => console.log('PAGEERROR', e.message));
p.on('console', m => { if (m.type()==='error') console.log('CONSOLE', m.text()); });
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
for (let i=0;i<6;i++){ await p.click('text=Next step ▶'); await p.waitForTimeout(300); }
const sink = async () => (await p.locator('text=Sink: rows emitted').locator('..').innerText()).split('\n').slice(2).join(' | ');
const wm = async () => (await p.locator('text=Watermark').first().locator('..').innerText()).replace(/\n/g,' | ');
const q = async () => p.$eval('textarea', t=>t.value);
const slider = p.locator('[data-testid=delay-slider-0]');
console.log('slider attrs', await slider.evaluate(e=>({min:e.min,max:e.max,step:e.step,value:e.value, aria:e.getAttribute('aria-label'), title: e.title})));
console.log('WM0', await wm()); console.log('SINK0', await sink());
const box = await slider.boundingBox(); console.log(box);
// drag slider left gradually
await p.mouse.move(box.x+box.width/2, box.y+box.height/2); await p.mouse.down();
await p.mouse.move(box.x+box.width*0.2, box.y+box.height/2, {steps:5});
await p.waitForTimeout(500);
await p.screenshot({ path: '/tmp/tryout-shots/14-slider-dragging.png', clip:{x:0,y:50,width:900,height:750} });
await p.mouse.up(); await p.waitForTimeout(800);
console.log('WM after drag to 20%', await wm()); console.log('Q', await q()); console.log('SINK1', await sink());
await p.screenshot({ path: '/tmp/tryout-shots/15-slider-left.png', clip:{x:0,y:50,width:900,height:750} });
// to far right
await p.mouse.move(box.x+box.width*0.2, box.y+box.height/2); await p.mouse.down();
await p.mouse.move(box.x+box.width-1, box.y+box.height/2, {steps:8}); await p.mouse.up(); await p.waitForTimeout(800);
console.log('WM after drag right', await wm()); console.log('Q', await q()); console.log('SINK2', await sink());
await p.screenshot({ path: '/tmp/tryout-shots/16-slider-right.png', clip:{x:0,y:50,width:900,height:750} });
// to 0
await p.mouse.move(box.x+box.width-1, box.y+box.height/2); await p.mouse.down();
await p.mouse.move(box.x+1, box.y+box.height/2, {steps:8}); await p.mouse.up(); await p.waitForTimeout(800);
console.log('WM after drag 0', await wm()); console.log('Q', await q()); console.log('SINK3', await sink());
await p.screenshot({ path: '/tmp/tryout-shots/17-slider-zero.png', clip:{x:0,y:50,width:900,height:750} });
await b.close();
