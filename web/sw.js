// Ludus's service worker: after one visit the game opens and plays with no network.
//
// web/build.sh writes this file into web/dist with this build's VERSION and FILES: every file
// of the bundle, the game's code under names that carry their content hash. Each version lives
// in a cache of its own, filled completely before the version may run, so that a page is
// always served from one version: never a new index.html with old code or the other way round.
// A new version waits until the page says so (the player chose "reload" in the page's notice,
// or no older version is running); then the older caches go.
//
// Only the bundle's own files come from the cache. Everything else (ludus-server.json, the
// server's API, other sites) goes to the network as if there were no worker.

const VERSION = '__LUDUS_VERSION__';
const FILES = __LUDUS_FILES__;
const CACHE = `ludus-${VERSION}`;
/** The bundle's files named after their content's hash (web/package.sh). */
const HASHED = /-[0-9a-f]{16}\.(js|wasm)$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Past any HTTP cache: the files must be this version's. A file whose name carries its
      // content's hash that the page already put here (its first visit's download of the
      // game's code) stays as it is.
      const responses = (await Promise.all(
        FILES.map(async (file) => {
          if (HASHED.test(file) && (await cache.match(file))) return null;
          const response = await fetch(new Request(file, { cache: 'no-cache' }));
          if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
          return [file, response];
        }),
      )).filter(Boolean);
      // The server may already hold a newer build than this worker: its index.html names
      // other files. Then this version is not installed (the newer worker will be).
      const page = await responses.find(([file]) => file === 'index.html')[1].clone().text();
      if (!page.includes(`data-version="${VERSION}"`)) throw new Error('index.html is of another version');
      await Promise.all(responses.map(([file, response]) => cache.put(file, response)));
    })().catch(async (e) => {
      await caches.delete(CACHE);
      throw e;
    }),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'activate') self.skipWaiting();
});

// A "your turn" notice tapped: the game's page comes forward (or opens).
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((open) => (open[0] ? open[0].focus() : self.clients.openWindow('./'))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('ludus-') && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** The file of the bundle that a request asks for, relative to the worker's scope, or null. */
function bundleFile(request) {
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  const file = url.pathname.slice(scope.pathname.length) || 'index.html';
  // Pages other than the game's (/metrics, /healthz) are the server's.
  if (request.mode === 'navigate') return file === 'index.html' ? file : null;
  return FILES.includes(file) ? file : null;
}

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  const file = bundleFile(event.request);
  if (!file) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      return (await cache.match(file)) ?? fetch(event.request);
    })(),
  );
});
