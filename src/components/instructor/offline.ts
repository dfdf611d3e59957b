/**
 * Keeps the instructor page working offline: registers public/instructor-sw.js (a new version each
 * build; see there why its scope is the site's root) and hands it every file the page and its grading
 * worker loaded, since they loaded before the service worker controlled them. Resolves with whether
 * all of them were kept.
 */
export async function keepOffline(build: string, workerFiles: readonly string[]): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  const base = import.meta.env.BASE_URL.replace(/\/?$/, '/');
  const registration = await navigator.serviceWorker.register(
    `${base}instructor-sw.js?v=${encodeURIComponent(build)}`,
    { scope: base },
  );
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (!worker) return false;
  if (worker.state !== 'activated')
    await new Promise<void>((resolve) =>
      worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
    );
  const urls = [
    location.href,
    ...performance.getEntriesByType('resource').map((e) => e.name),
    ...workerFiles,
  ];
  const answer = new Promise<{ failed: number }>((resolve) => {
    const onMessage = (e: MessageEvent<{ type?: string; failed?: number }>) => {
      if (e.data?.type !== 'kept') return;
      navigator.serviceWorker.removeEventListener('message', onMessage);
      resolve({ failed: e.data.failed ?? 0 });
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
  });
  worker.postMessage({ type: 'keep', urls });
  return (await answer).failed === 0;
}
