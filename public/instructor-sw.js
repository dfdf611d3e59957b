/**
 * The instructor page's service worker: it keeps the page, its grading worker and every script and
 * lab those load, so an instructor can re-grade a cohort with no network (a classroom, a train).
 * Registered by the page (src/components/instructor/offline.ts) as `instructor-sw.js?v=<build>`; each
 * build is a new version with its own cache, and activating it deletes the caches of older builds.
 * Its scope is the site's root, because a worker's script request is matched against the scope by the
 * script's own URL (`/_astro/grade-worker-….js`), not the page's; but it answers page loads only for
 * the instructor pages, and serves other requests only from what the page asked it to keep.
 *
 * The page was loaded before this worker controlled it, so it tells the worker what it and its
 * grading worker loaded (`{ type: 'keep', urls }`); the worker caches those and answers `kept`.
 * After that, the instructor pages are network-first (a new build shows when online) and the kept
 * files are cache-first (build assets have content-hashed names); every other request goes to the
 * network untouched.
 */
const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev';
const PREFIX = 'packetpath-instructor-';
const CACHE = `${PREFIX}${VERSION}`;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** Only this site's own files are kept; nothing else is ever fetched or stored. */
function ours(url) {
  return new URL(url, self.location.href).origin === self.location.origin;
}

/** The instructor pages, in either locale (`/instructors/`, `/en/instructors/`, under any base). */
function instructorPage(url) {
  return /\/instructors\/(index\.html)?$/.test(new URL(url).pathname);
}

self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'keep' || !Array.isArray(data.urls)) return;
  const urls = [...new Set(data.urls.filter((u) => typeof u === 'string' && ours(u)))];
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      let failed = 0;
      for (const url of urls) {
        try {
          const response = await fetch(url, { cache: 'no-cache' });
          if (response.ok) await cache.put(url, response);
          else failed++;
        } catch {
          // Offline (the page reloaded from this cache): a file kept before is still kept.
          if (!(await cache.match(url, { ignoreVary: true }))) failed++;
        }
      }
      event.source?.postMessage({ type: 'kept', count: urls.length - failed, failed });
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !ours(request.url)) return;
  if (request.mode === 'navigate') {
    if (!instructorPage(request.url)) return;
    event.respondWith(
      (async () => {
        const cache = await caches.open(CACHE);
        try {
          const response = await fetch(request);
          if (response.ok) await cache.put(request.url, response.clone());
          return response;
        } catch {
          return (await cache.match(request.url, { ignoreSearch: true })) || Response.error();
        }
      })(),
    );
    return;
  }
  event.respondWith(
    (async () => {
      // By URL alone: a worker's script request (destination `worker`) must find what the page kept.
      const kept = await (await caches.open(CACHE)).match(request.url, { ignoreVary: true });
      return kept || fetch(request);
    })(),
  );
});
