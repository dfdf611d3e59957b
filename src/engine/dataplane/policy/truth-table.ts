/**
 * Reachability matrices in the style of Kubernetes' NetworkPolicy e2e suite
 * (test/e2e/network/netpol/{truthtable,reachability,network_policy}.go): namespaces x, y, z; pods named
 * a, b, c labelled `pod: <name>`; every container port named `serve-<port>-<proto>`; every ordered pair
 * probed. `prettyPrint` reproduces `TruthTable.PrettyPrint`:
 *
 *   -	x/a	x/b	y/a
 *   x/a	.	.	X
 *   …
 * ('.' connected, 'X' blocked, '?' not observed). Loopback (a pod to itself) is left out of pass/fail, as the
 * suite does (`ignoreLoopback = true`, kubernetes#95879).
 */
import type { Namespace } from '../../api/objects.ts';
import { evaluate, type PodEndpoint, type PolicyState, type Protocol } from './evaluate.ts';
import { policyIndex } from './policy-index.ts';

export class TruthTable {
  readonly froms: readonly string[];
  readonly tos: readonly string[];
  private readonly values = new Map<string, Map<string, boolean>>();

  constructor(froms: readonly string[], tos: readonly string[], defaultValue?: boolean) {
    this.froms = froms;
    this.tos = tos;
    for (const f of froms) {
      const row = new Map<string, boolean>();
      if (defaultValue !== undefined) for (const t of tos) row.set(t, defaultValue);
      this.values.set(f, row);
    }
  }

  set(from: string, to: string, value: boolean): void {
    const row = this.values.get(from);
    if (!row || !this.tos.includes(to)) throw new Error(`no cell ${from} -> ${to}`);
    row.set(to, value);
  }

  get(from: string, to: string): boolean | undefined {
    return this.values.get(from)?.get(to);
  }

  /** `TruthTable.PrettyPrint(indent)`. */
  prettyPrint(indent = ''): string {
    const lines = [indent + ['-', ...this.tos].join('\t')];
    for (const f of this.froms) {
      const marks = this.tos.map((t) => {
        const v = this.get(f, t);
        return v === undefined ? '?' : v ? '.' : 'X';
      });
      lines.push(indent + [f, ...marks].join('\t'));
    }
    return lines.join('\n');
  }
}

export interface Peer {
  readonly namespace?: string;
  readonly pod?: string;
}

function peerMatches(p: Peer, podString: string): boolean {
  const [ns, pod] = podString.split('/');
  return (p.namespace === undefined || p.namespace === ns) && (p.pod === undefined || p.pod === pod);
}

/** The e2e `Reachability` expectation builder, so expected matrices read like the Go tests. */
export class Reachability {
  readonly expected: TruthTable;
  private readonly pods: readonly string[];

  constructor(pods: readonly string[], defaultExpectation: boolean) {
    this.pods = pods;
    this.expected = new TruthTable(pods, pods, defaultExpectation);
  }

  expect(from: string, to: string, connected: boolean): void {
    this.expected.set(from, to, connected);
  }

  expectAllIngress(pod: string, connected: boolean): void {
    for (const f of this.pods) this.expected.set(f, pod, connected);
  }

  expectAllEgress(pod: string, connected: boolean): void {
    for (const t of this.pods) this.expected.set(pod, t, connected);
  }

  expectPeer(from: Peer, to: Peer, connected: boolean): void {
    for (const f of this.pods) {
      if (!peerMatches(from, f)) continue;
      for (const t of this.pods) if (peerMatches(to, t)) this.expected.set(f, t, connected);
    }
  }
}

export interface Topology {
  readonly pods: readonly PodEndpoint[];
  readonly namespaces: readonly Namespace[];
}

/**
 * The pods of `initializeResources(…, "x/a", "x/b", "y/a")`: one pod per string, labelled `pod: <name>`,
 * serving every port × protocol under `serve-<port>-<proto>`, with addresses from 10.244.0.0/16.
 */
export function probeTopology(
  podStrings: readonly string[],
  ports: readonly number[] = [80, 81],
  protocols: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'],
): Topology {
  const nsNames = [...new Set(['x', 'y', 'z', ...podStrings.map((p) => p.split('/')[0]!)])].sort();
  const namespaces: Namespace[] = nsNames.map((n) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: n,
      uid: `ns-${n}`,
      resourceVersion: '1',
      creationTimestamp: '2025-01-01T00:00:00Z',
      labels: { 'kubernetes.io/metadata.name': n },
    },
  }));
  const containerPorts = ports.flatMap((port) =>
    protocols.map((protocol) => ({
      name: `serve-${port}-${protocol.toLowerCase()}`,
      containerPort: port,
      protocol,
    })),
  );
  const pods: PodEndpoint[] = podStrings.map((s, i) => {
    const [namespace, name] = s.split('/') as [string, string];
    return {
      kind: 'pod',
      namespace,
      name,
      labels: { pod: name },
      ip: `10.244.${1 + (i % 3)}.${10 + i}`,
      node: `kind-worker${i % 3 === 0 ? '' : String((i % 3) + 1)}`,
      ports: containerPorts,
    };
  });
  return { pods, namespaces };
}

/** Probes every ordered pair on `port`/`protocol`; a pod's own cell is filled too. */
export function reachability(
  pods: readonly PodEndpoint[],
  port: number,
  protocol: Protocol,
  state: PolicyState,
): TruthTable {
  const names = pods.map((p) => `${p.namespace}/${p.name}`);
  const table = new TruthTable(names, names);
  const idx = policyIndex(state.policies, state.namespaces);
  for (const src of pods) {
    for (const dst of pods) {
      const r = evaluate({ src, dst, port, protocol }, idx);
      table.set(`${src.namespace}/${src.name}`, `${dst.namespace}/${dst.name}`, r.allowed);
    }
  }
  return table;
}

export interface Summary {
  readonly correct: number;
  readonly incorrect: number;
  readonly ignored: number;
  readonly comparison: TruthTable;
}

/** `Reachability.Summary(ignoreLoopback)`: which cells match, loopback cells ignored. */
export function summarize(expected: TruthTable, observed: TruthTable, ignoreLoopback = true): Summary {
  const comparison = new TruthTable(expected.froms, expected.tos);
  let correct = 0;
  let incorrect = 0;
  let ignored = 0;
  for (const f of expected.froms) {
    for (const t of expected.tos) {
      const same = expected.get(f, t) === observed.get(f, t);
      comparison.set(f, t, same);
      if (ignoreLoopback && f === t) ignored++;
      else if (same) correct++;
      else incorrect++;
    }
  }
  return { correct, incorrect, ignored, comparison };
}
