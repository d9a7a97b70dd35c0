// Streamlab's service worker: after the first visit the app opens and works offline.
// scripts/sw-precache.mjs (a Trunk post_build hook) writes the build's file list and version
// below; this file in assets/ is its template.
//
// - install: every file of the build is fetched into a cache named for the build's version.
// - fetch: a GET of this site is answered from that cache, else from the network; a page
//   navigation that fails offline gets the cached index.html.
// - a new build waits until the page says so (the page shows "a new version is ready": reloading
//   then keeps the learner's session, which lives in localStorage); the old caches go when it
//   takes over.
const VERSION = "__STREAMLAB_VERSION__";
const PRECACHE = __STREAMLAB_PRECACHE__;
const CACHE = "streamlab-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("streamlab-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "streamlab-activate") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(request, { ignoreSearch: request.mode === "navigate" }).then(
        (hit) =>
          hit ||
          fetch(request).catch(() => (request.mode === "navigate" ? cache.match("./index.html") : Response.error())),
      ),
    ),
  );
});
