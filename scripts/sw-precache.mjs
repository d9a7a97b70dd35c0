#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml): writes the service worker for this build and, for a
// release build, precompressed copies of the bundle for static hosts that serve them.
//
// - sw.js: assets/sw.js with the build's files (every file Trunk staged, paths relative to the
//   site) and a version (a hash of their contents), so a new build is a new service worker and
//   an unchanged build is byte-identical (the browser then sees no update).
// - index.html: the wasm's size on the loading bar (data-wasm-bytes).
// - <file>.gz and <file>.br beside each html/js/wasm/css/json/webmanifest file (release only: a
//   debug build is for `trunk serve`, which compresses nothing).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('sw-precache: TRUNK_STAGING_DIR is not set (run through trunk build)');
  process.exit(1);
}

function files(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...files(path.join(dir, entry.name), rel));
    else if (!/\.(gz|br)$/.test(entry.name) && rel !== 'sw.js') out.push(rel);
  }
  return out;
}

// The loading bar's length: the wasm's size as the browser's stream hands it over (decoded),
// written on index.html's <progress> (web/index.html fills the bar as the bytes arrive). Before
// the hash, so that the version covers it.
const wasm = fs.readdirSync(staging).find((f) => f.endsWith('_bg.wasm'));
if (wasm) {
  const index = path.join(staging, 'index.html');
  const html = fs.readFileSync(index, 'utf8');
  const sized = html.replace('<progress></progress>', `<progress data-wasm-bytes="${fs.statSync(path.join(staging, wasm)).size}"></progress>`);
  if (sized === html) {
    console.error('sw-precache: index.html has no <progress></progress> for the loading bar');
    process.exit(1);
  }
  fs.writeFileSync(index, sized);
}

const staged = files(staging);
const hash = crypto.createHash('sha256');
for (const rel of staged) {
  hash.update(rel);
  hash.update(fs.readFileSync(path.join(staging, rel)));
}
const version = hash.digest('hex').slice(0, 16);
// `./` is what a visit to the site's folder asks for; it is the same page as index.html.
const precache = ['./', ...staged.map((rel) => `./${rel}`)];
const template = fs.readFileSync(new URL('../assets/sw.js', import.meta.url), 'utf8');
const sw = template.replace('__STREAMLAB_VERSION__', version).replace('__STREAMLAB_PRECACHE__', JSON.stringify(precache, null, 2));
fs.writeFileSync(path.join(staging, 'sw.js'), sw);

let compressed = 0;
if ((process.env.TRUNK_PROFILE ?? 'debug') === 'release') {
  for (const rel of [...staged, 'sw.js']) {
    if (!/\.(html|js|wasm|css|json|webmanifest)$/.test(rel)) continue;
    const file = path.join(staging, rel);
    const data = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    compressed += 1;
  }
}
console.log(`sw-precache: sw.js version ${version} precaches ${precache.length} files; ${compressed} files precompressed (.gz, .br)`);
