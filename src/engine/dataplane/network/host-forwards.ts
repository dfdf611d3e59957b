/**
 * The `kubectl port-forward` processes running on the learner's machine: each holds its local
 * listeners (`127.0.0.1:8080`, `[::1]:8080`) and one stream to a pod port through the API server and
 * kubelet. kubectl starts them; the dataplane answers `curl localhost:8080` through them; the cluster
 * ends a forward when its pod goes away, as client-go's `ErrLostConnectionToPod` ends the real one.
 * The list is part of the cluster snapshot, so a forward started in the background survives a page
 * reload, a worker restart and the next `packetpath exec`.
 */

export interface PortForward {
  /** `127.0.0.1`, `::1`, or what `--address` named. */
  readonly addresses: readonly string[];
  readonly localPort: number;
  readonly namespace: string;
  readonly pod: string;
  readonly podPort: number;
}

export class HostForwards {
  private forwards: readonly PortForward[] = [];

  /** The running forwards, oldest first. */
  active(): readonly PortForward[] {
    return this.forwards;
  }

  /** The forward listening on `localPort`, if one does. */
  listening(localPort: number): PortForward | undefined {
    return this.forwards.find((f) => f.localPort === localPort);
  }

  start(added: readonly PortForward[]): void {
    this.forwards = [...this.forwards, ...added];
  }

  /** Ends the forwards to a pod (its stream closed: the pod was deleted or stopped running). */
  lostPod(namespace: string, pod: string): void {
    // Asked on every pod event; almost always there is no forward at all.
    if (this.forwards.length === 0) return;
    const kept = this.forwards.filter((f) => f.namespace !== namespace || f.pod !== pod);
    if (kept.length !== this.forwards.length) this.forwards = kept;
  }

  snapshot(): PortForward[] {
    return this.forwards.map((f) => ({ ...f, addresses: [...f.addresses] }));
  }

  restore(forwards: readonly PortForward[]): void {
    this.forwards = forwards.map((f) => ({ ...f, addresses: [...f.addresses] }));
  }
}
