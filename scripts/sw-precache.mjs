#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml): writes the service worker for this build and, for a
// release build, precompressed copies of the bundle for static hosts that serve them.
//
// - sw.js: assets/sw.js with the build's files (every file Trunk staged, paths relative to the
//   site) and a version (a hash of their contents), so a new build is a new service worker and
//   an unchanged build is byte-identical (the browser then sees no update).
// - index.html: the wasm's size on the loading bar (data-wasm-bytes), and what a first visit
//   downloads, the gzipped wasm in MB (data-download-mb), which the loading line says.
// - <file>.gz and <file>.br beside each html/js/wasm/css/json/webmanifest file (release only: a
//   debug build is for `trunk serve`, which compresses nothing). The .gz files are zopfli's
//   (@gfx/zopfli): ordinary gzip that any browser reads, about 5% smaller than zlib's level 9,
//   which on a slow connection is half a second less of waiting for the wasm.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

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

const release = (process.env.TRUNK_PROFILE ?? 'debug') === 'release';
/** Gzip for hosts that serve precompressed files: zopfli, one iteration (more gain 0.2%). */
const gzip = (data) => gzipAsync(data, { numiterations: 1 });

// The loading bar's length: the wasm's size as the browser's stream hands it over (decoded),
// written on index.html's <progress> (web/index.html fills the bar as the bytes arrive), with
// the download's size in MB for the loading line. Before the hash, so that the version covers it.
const wasm = fs.readdirSync(staging).find((f) => f.endsWith('_bg.wasm'));
let wasmGz = null;
if (wasm) {
  const data = fs.readFileSync(path.join(staging, wasm));
  // A debug build is not compressed for serving; zlib's fastest level says about what it is.
  wasmGz = release ? Buffer.from(await gzip(data)) : zlib.gzipSync(data, { level: 1 });
  const mb = (wasmGz.length / 1e6).toFixed(1);
  const index = path.join(staging, 'index.html');
  const html = fs.readFileSync(index, 'utf8');
  const sized = html.replace('<progress></progress>', `<progress data-wasm-bytes="${data.length}" data-download-mb="${mb}"></progress>`);
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
if (release) {
  for (const rel of [...staged, 'sw.js']) {
    if (!/\.(html|js|wasm|css|json|webmanifest)$/.test(rel)) continue;
    const file = path.join(staging, rel);
    const data = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, rel === wasm ? wasmGz : Buffer.from(await gzip(data)));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    compressed += 1;
  }
}
console.log(`sw-precache: sw.js version ${version} precaches ${precache.length} files; ${compressed} files precompressed (.gz, .br)`);
