/**
 * Moving the lab between hosts: the Web Worker (default) and a WebContainer (real Node, a pty shell),
 * carrying the cluster as an engine snapshot. The WebContainer module is imported on the first switch.
 */
import { HostClient } from './host-client';
import type { HostSession } from './host-session';
import type { LabUi } from './lab-ui';
import type { LabTerminal } from './terminal';
import type { Readline } from './readline';
import type { LoadResult, LoadStart, Transport } from '../../runtime/protocol';
import { webContainerOffered } from './webcontainer-support';

export interface HostSwitchDeps {
  readonly ui: Pick<LabUi, 't' | 'say' | 'showNotice' | 'mark' | '$'>;
  readonly session: HostSession;
  readonly terminal: { readonly term: Pick<LabTerminal['term'], 'reset' | 'cols' | 'rows' | 'onResize'> };
  readonly readline: Pick<Readline, 'setPassthrough' | 'start'>;
  readonly flush: () => Promise<void>;
  readonly loadParams: (start: LoadStart) => { labId: string; seed: number; start: LoadStart };
  readonly show: (result: LoadResult) => void;
  /** Opens a WebContainer host (the default imports runtime/webcontainer on first use). */
  readonly openWebContainer?: () => Promise<Transport>;
}

async function defaultWebContainer(): Promise<Transport> {
  const { connectWebContainerHost } = await import('../../runtime/webcontainer/connect');
  return connectWebContainerHost({
    timeoutMs: Number(localStorage.getItem('packetpath.webcontainer.timeout')) || 30_000,
  });
}

export class HostSwitch {
  private resizeWired = false;

  constructor(private readonly d: HostSwitchDeps) {}

  /** The host label and the switch button's text. */
  showHost(): void {
    const { ui, session } = this.d;
    const label = ui.$('[data-host]');
    label.textContent =
      session.kind === 'webcontainer' ? ui.t('lab.hostWebContainer') : ui.t('lab.hostWorker');
    label.hidden = false;
    const button = ui.$('[data-action="host"]');
    button.hidden = session.kind === 'worker' && !webContainerOffered();
    button.textContent =
      session.kind === 'webcontainer' ? ui.t('lab.useWorker') : ui.t('lab.useWebContainer');
  }

  async toggle(): Promise<void> {
    const { session, terminal, readline, ui } = this.d;
    await this.d.flush();
    const state = await session.request('state', {});
    const start: LoadStart = { kind: 'state', state };
    if (session.kind === 'webcontainer') {
      const next = session.workerClient();
      const result = await next.request('load', this.d.loadParams(start));
      session.replace(next, 'worker');
      readline.setPassthrough(undefined);
      terminal.term.reset();
      this.d.show(result);
      readline.start();
      this.showHost();
      return;
    }
    ui.say(ui.t('lab.wcBooting', { percent: 0 }));
    const next = new HostClient(session.wrap(await (this.d.openWebContainer ?? defaultWebContainer)()));
    next.onEvent((event) => {
      if (event.type === 'progress')
        ui.say(ui.t('lab.wcBooting', { percent: Math.round(event.ratio * 100) }));
    });
    try {
      await next.request('load', this.d.loadParams(start));
    } catch (e) {
      next.close();
      const reason = e instanceof Error ? e.message : String(e);
      ui.showNotice(ui.t('lab.wcFailed', { reason }));
      ui.say(ui.t('lab.wcFailed', { reason }));
      ui.mark('host', 'worker');
      return;
    }
    session.replace(next, 'webcontainer');
    terminal.term.reset();
    readline.setPassthrough((data) => void next.request('ptyInput', { data }).catch(() => {}));
    const { cols, rows } = terminal.term;
    void next.request('ptyResize', { cols, rows }).catch(() => {});
    if (!this.resizeWired) {
      this.resizeWired = true;
      terminal.term.onResize(({ cols: c, rows: r }) => {
        if (session.kind === 'webcontainer')
          void session.request('ptyResize', { cols: c, rows: r }).catch(() => {});
      });
    }
    ui.mark('host', 'webcontainer');
    ui.say(ui.t('lab.wcReady'));
    this.showHost();
  }
}
