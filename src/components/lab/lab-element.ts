/**
 * `<pp-lab>`: the only lab code a page loads up front (well under a kilobyte). It waits until the lab
 * is within a screen of the viewport, then imports the lab app and mounts it. Performance marks
 * (`pp-lab:visible`, `pp-lab:prompt`, `pp-lab:editor`) let the benchmark time what follows.
 */
import { installedDebug } from './lab-debug';

export function defineLabElement(): void {
  if (customElements.get('pp-lab')) return;
  customElements.define(
    'pp-lab',
    class extends HTMLElement {
      private started = false;

      connectedCallback(): void {
        if (this.started) return;
        const start = () => {
          if (this.started) return;
          this.started = true;
          observer?.disconnect();
          performance.mark('pp-lab:near');
          // The engine worker starts downloading and booting while the app chunk (xterm) loads.
          const transport = import('../../runtime/worker/connect').then((c) => c.connectWorkerHost());
          import('./lab-app')
            .then(async (m) => m.mountLab(this, { transport: await transport, debug: installedDebug() }))
            .catch((e: unknown) => {
              const status = this.querySelector('[data-status]');
              if (status) status.textContent = e instanceof Error ? e.message : String(e);
            });
        };
        const observer =
          'IntersectionObserver' in window
            ? new IntersectionObserver(
                (entries) => {
                  if (entries.some((e) => e.isIntersecting)) start();
                },
                { rootMargin: '200px 0px' },
              )
            : undefined;
        if (observer) observer.observe(this);
        else start();
      }
    },
  );
}
