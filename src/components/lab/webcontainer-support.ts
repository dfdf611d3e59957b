/**
 * Whether to offer the WebContainer host: it needs cross-origin isolation (SharedArrayBuffer) and a
 * browser StackBlitz supports (desktop Chromium and Firefox, Safari 16.4+, not iOS: memory limits).
 * `localStorage['packetpath.webcontainer']` = `force` offers it anyway (to test the fallback) and
 * `off` hides it.
 */
export function webContainerOffered(): boolean {
  let override: string | null = null;
  try {
    override = localStorage.getItem('packetpath.webcontainer');
  } catch {
    override = null;
  }
  if (override === 'off') return false;
  if (override === 'force') return true;
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== 'function') return false;
  const ua = navigator.userAgent;
  if (/iPhone|iPad|iPod/.test(ua)) return false;
  if (/Chrome\/|Chromium\/|Firefox\//.test(ua)) return true;
  const safari = /Version\/(\d+)\.(\d+).*Safari\//.exec(ua);
  return safari !== null && (Number(safari[1]) > 16 || (Number(safari[1]) === 16 && Number(safari[2]) >= 4));
}
