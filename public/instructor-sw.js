/**
 * The instructor page's service worker: it keeps the page, its grading worker and every script and
 * lab those load, so an instructor can re-grade a cohort with no network (a classroom, a train).
 * Registered by the page (src/components/instructor/offline.ts) as `instructor-sw.js?v=<build>`, with
 * the page's folder as its scope; each build is a new version with its own cache, and activating it
 * deletes the caches of older builds.
 *
 * The page was loaded before this worker controlled it, so it tells the worker what it and its
 * grading worker loaded (`{ type: 'keep', urls }`); the worker caches those and answers `kept`.
 * After that, pages are network-first (a new build shows when online) and everything else is
 * cache-first (build assets have content-hashed names).
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
          failed++;
        }
      }
      event.source?.postMessage({ type: 'kept', count: urls.length - failed, failed });
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !ours(request.url)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      if (request.mode === 'navigate') {
        try {
          const response = await fetch(request);
          if (response.ok) await cache.put(request, response.clone());
          return response;
        } catch {
          return (await cache.match(request, { ignoreSearch: true })) || Response.error();
        }
      }
      const kept = await cache.match(request);
      if (kept) return kept;
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    })(),
  );
});
