import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
await p.goto('http://127.0.0.1:8765/#/lab');
await p.waitForTimeout(1500);
for (let i=0;i<4;i++){ await p.click('text=Next step ▶'); await p.waitForTimeout(400); }
const h = await p.evaluate(() => {
  const el = [...document.querySelectorAll('*')].find(e => e.textContent.startsWith('Time picture') && e.children.length===0);
  let c = el.parentElement; return c.outerHTML.slice(0, 6000);
});
console.log(h);
await b.close();
