/**
 * A small stand-in for the engine's Cluster, for the grader's unit tests: the real API store, lab
 * files, seeded RNG and simulated clock, with a toy command language instead of kubectl and no
 * controllers. Conventions: namespace `shop`; pods in 10.244.0.0/16; every command moves the clock by
 * 2 s like the engine's COMMAND_STEP_MS.
 *
 *   mk RESOURCE NS/NAME [JSON]   create an object (JSON merged into it; labels via {"metadata":{"labels":…}})
 *   rm RESOURCE NS/NAME          delete it
 *   echo TEXT…                   print TEXT
 *   cat PATH                     print a lab file (exit 1 when missing)
 *   exit N                       exit with status N
 *   show RESOURCE NS/NAME        print an object's name and record that the terminal showed it
 */
import { ApiStore, LabFiles, Rng, SimClock } from '../engine/index.ts';
import type {
  ClusterSnapshot,
  ExecResult,
  GradableCluster,
  LabEngine,
  ObjectView,
  ResourceKey,
  SeenOutput,
} from './engine-api.ts';
import { resolveResource } from './engine-api.ts';
import type { LoadedLab } from './lab-schema.ts';
import { parseLab } from './lab-parse.ts';

const STEP_MS = 2000;

interface FakeSnapshot {
  format: 'fake-cluster';
  clock: number;
  rng: [number, number, number, number];
  store: ReturnType<ApiStore['snapshot']>;
  files: Record<string, string>;
  history: string[];
  seen: SeenOutput[];
}

export class FakeCluster implements GradableCluster {
  readonly store: ApiStore;
  readonly files: LabFiles;
  readonly clock: SimClock;
  readonly rng: Rng;
  readonly history: string[] = [];
  readonly seen: SeenOutput[] = [];
  readonly sightings = { list: (): readonly SeenOutput[] => this.seen };

  constructor(clock: SimClock, rng: Rng, files: Record<string, string>) {
    this.clock = clock;
    this.rng = rng;
    this.store = new ApiStore(clock, rng);
    this.files = new LabFiles(files);
  }

  view(): ObjectView {
    return {
      list: (resource, namespace) => this.store.list(resource, namespace),
      get: (resource, namespace, name) => this.store.get(resource, namespace, name),
    };
  }

  execSync(line: string): ExecResult {
    this.history.push(line);
    const result = this.run(line.trim(), line);
    this.tick(STEP_MS);
    return result;
  }

  private run(line: string, typed: string): ExecResult {
    const [cmd, ...args] = line.split(/\s+/);
    const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
    switch (cmd) {
      case 'echo':
        return ok(`${args.join(' ')}\n`);
      case 'cat': {
        const content = this.files.read(args[0] ?? '');
        return content === undefined
          ? { stdout: '', stderr: `cat: ${args[0]}: No such file or directory\n`, exitCode: 1 }
          : ok(content);
      }
      case 'exit':
        return { stdout: '', stderr: '', exitCode: Number(args[0] ?? 0) };
      case 'show': {
        const info = resolveResource(args[0] ?? '');
        const [ns, name] = (args[1] ?? '').split('/');
        if (!info || !name) return { stdout: '', stderr: 'usage\n', exitCode: 2 };
        this.seen.push({
          line: typed,
          resource: info.key,
          ...(info.namespaced ? { namespace: ns } : {}),
          names: [name],
        });
        return ok(`${name}\n`);
      }
      case 'mk':
      case 'rm': {
        const info = resolveResource(args[0] ?? '');
        const [ns, name] = (args[1] ?? '').includes('/')
          ? (args[1] ?? '').split('/')
          : [undefined, args[1] ?? ''];
        if (!info || !name) return { stdout: '', stderr: 'usage\n', exitCode: 2 };
        if (cmd === 'rm') {
          this.store.delete(info.key, ns, name);
          return ok(`deleted\n`);
        }
        const extra = args.length > 2 ? (JSON.parse(args.slice(2).join(' ')) as Record<string, unknown>) : {};
        const meta = (extra.metadata ?? {}) as Record<string, unknown>;
        this.store.create(info.key, {
          ...extra,
          apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
          kind: info.kind,
          metadata: { ...meta, name, ...(info.namespaced ? { namespace: ns ?? 'default' } : {}) },
        });
        return ok('created\n');
      }
      default:
        return { stdout: '', stderr: `sh: ${cmd}: not found\n`, exitCode: 127 };
    }
  }

  tick(ms: number): void {
    this.clock.set(this.clock.now() + ms);
  }

  snapshot(): ClusterSnapshot {
    const snap: FakeSnapshot = {
      format: 'fake-cluster',
      clock: this.clock.now(),
      rng: this.rng.state(),
      store: this.store.snapshot(),
      files: this.files.toJSON(),
      history: [...this.history],
      seen: [...this.seen],
    };
    return JSON.parse(JSON.stringify(snap)) as ClusterSnapshot;
  }

  static restore(snapshot: ClusterSnapshot): FakeCluster {
    const snap = snapshot as unknown as FakeSnapshot;
    const c = new FakeCluster(new SimClock(snap.clock), Rng.fromState(snap.rng), snap.files);
    c.store.restore(snap.store);
    c.history.push(...snap.history);
    c.seen.push(...snap.seen);
    return c;
  }

  /** Adds an object directly (test setup), bypassing history. */
  add(
    resource: ResourceKey,
    obj: { metadata: { name: string; namespace?: string; labels?: Record<string, string> } } & Record<
      string,
      unknown
    >,
  ): void {
    const info = resolveResource(resource)!;
    this.store.create(resource, {
      ...obj,
      apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
      kind: info.kind,
    });
  }
}

export const fakeEngine: LabEngine<FakeCluster> & { created: number; restored: number } = {
  created: 0,
  restored: 0,
  createCluster(_config, opts) {
    this.created++;
    return new FakeCluster(new SimClock(), new Rng(opts.seed), opts.files);
  },
  restoreCluster(snapshot) {
    this.restored++;
    return FakeCluster.restore(snapshot);
  },
};

export function makePod(
  ns: string,
  name: string,
  opts: { labels?: Record<string, string>; ip?: string; ready?: boolean; phase?: string; node?: string } = {},
): Parameters<FakeCluster['add']>[1] {
  const ready = opts.ready ?? true;
  return {
    metadata: { name, namespace: ns, labels: opts.labels ?? {} },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...(opts.node ? { nodeName: opts.node } : {}) },
    status: {
      phase: opts.phase ?? 'Running',
      podIP: opts.ip,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

export function makeService(
  ns: string,
  name: string,
  selector?: Record<string, string>,
): Parameters<FakeCluster['add']>[1] {
  return {
    metadata: { name, namespace: ns },
    spec: {
      ...(selector ? { selector } : {}),
      ports: [{ port: 80, protocol: 'TCP' }],
      clusterIP: '10.96.0.20',
    },
  };
}

export function makeSlice(
  ns: string,
  service: string,
  endpoints: { ip: string; ready?: boolean }[],
  opts: { handWritten?: boolean } = {},
): Parameters<FakeCluster['add']>[1] {
  // The EndpointSlice controller labels its slices; a hand-written one carries only the service name.
  const labels: Record<string, string> = { 'kubernetes.io/service-name': service };
  if (!opts.handWritten) labels['endpointslice.kubernetes.io/managed-by'] = 'endpointslice-controller.k8s.io';
  return {
    metadata: { name: opts.handWritten ? `${service}-manual` : `${service}-abcde`, namespace: ns, labels },
    addressType: 'IPv4',
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      ...(e.ready === undefined ? {} : { conditions: { ready: e.ready } }),
    })),
    ports: [{ port: 80, protocol: 'TCP' }],
  };
}

/** A lab whose checks are given as YAML (indented under `checks:`). */
export function labWith(checksYaml: string, extra = ''): LoadedLab {
  return parseLab(
    'test/lab.yaml',
    `id: 99-test
version: 1
title: { pt-BR: Teste, en: Test }
summary: { pt-BR: Um lab de teste, en: A test lab }
steps: [{ pt-BR: Faça, en: Do it }]
hints: [{ pt-BR: a, en: a }, { pt-BR: b, en: b }, { pt-BR: c, en: c }]
solution: { commands: ['echo solved'] }
${extra}
checks:
${checksYaml}`,
  );
}
