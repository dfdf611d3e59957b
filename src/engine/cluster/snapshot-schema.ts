/**
 * What `restoreCluster` accepts: the snapshot's shape, checked before any of it reaches the engine,
 * and the migrations from older versions. A snapshot comes from the learner's browser storage, a
 * `--state` file or an imported progress file, so it may be damaged, from another version, or made
 * up; each of those gets a SnapshotError naming the part that is wrong (`invalid snapshot: clock:
 * expected number`), never an exception from inside a controller.
 *
 * The store's objects are checked only as far as the store itself needs (a known resource, a name).
 * What is restored is the caller's data once checked, not zod's copy of it: a snapshot taken in this
 * process is restored without copying its objects (see ApiStore.restore), and every part keeps its
 * keys as they were.
 */
import { z } from 'zod';
import { RESOURCES } from '../api/resources.ts';
import type { ResourceKey } from '../api/objects.ts';
import { isPlainObject } from '../util/json.ts';
import type { ClusterSnapshot } from './cluster.ts';
import { MAX_SIGHTED_NAMES, MAX_SIGHTINGS } from '../shell/sightings.ts';
import { MAX_INPUT_CHARS as MAX_SIGHTING_LINE } from '../shell/limits.ts';

export const SNAPSHOT_FORMAT = 'packetpath-cluster';
/**
 * 2: the state outside the API objects joined the snapshot (port-forwards, the CoreDNS replicas'
 * caches, logs and running Corefile, the Corefile's history). Version 1 snapshots still load: they
 * restore as they always did, with none of it.
 * 3: what the learner's terminal showed (`seen`, shell/sightings.ts). Versions 1 and 2 load with an
 * empty one: their sessions' output was never recorded, so nothing counts as seen until looked at again.
 */
export const SNAPSHOT_VERSION = 3;

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/**
 * The largest snapshot text read (characters). A lab's cluster is well under 5 MB; the cap keeps a
 * hostile file from costing the page or the CLI its memory before the shape is even checked.
 */
export const MAX_SNAPSHOT_CHARS = 64 * 1024 * 1024;

const name = z.string().min(1).max(253);
const count = z.number().int().nonnegative();
/** One word of the generator's state (kept as a signed or an unsigned 32-bit integer). */
const word = z
  .number()
  .int()
  .min(-(2 ** 31))
  .max(2 ** 32 - 1);

const nodeConfig = z.object({
  name,
  role: z.enum(['control-plane', 'worker']),
  internalIP: z.string(),
  labels: z.record(z.string(), z.string()),
});

const clusterConfig = z.object({
  name,
  distribution: z.enum(['kubeadm', 'kind', 'k3s']),
  cni: z.enum(['flannel', 'calico', 'cilium', 'kindnet']),
  kubeProxyMode: z.enum(['iptables', 'ipvs', 'nftables', 'none']),
  podSubnet: z.string(),
  serviceSubnet: z.string(),
  dnsIP: z.string(),
  clusterDomain: z.string(),
  nodeCidrMaskSize: z.number().int().min(1).max(128),
  maxPods: z.number().int().min(1).max(100_000),
  nodeMTU: z.number().int().min(68).max(65_535),
  // kind and k3s labs run a handful of nodes; a node is a kubelet and its tables in every sync.
  nodes: z.array(nodeConfig).min(1).max(100),
  disableDefaultCNI: z.boolean(),
  k3sDisable: z.array(z.string()),
  k3sDisableNetworkPolicy: z.boolean(),
});

const RESOURCE_KEYS = new Set<string>(RESOURCES.map((r) => r.key));

const storedObject = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.looseObject({
    name,
    namespace: z.string().optional(),
    uid: z.string(),
    resourceVersion: z.string(),
    creationTimestamp: z.string(),
    generation: z.number().int().optional(),
  }),
});

const store = z.object({
  resourceVersion: count,
  objects: z.array(
    z.object({
      resource: z.custom<ResourceKey>(
        (r) => typeof r === 'string' && RESOURCE_KEYS.has(r),
        'not a resource this API server serves',
      ),
      object: storedObject,
    }),
  ),
});

const json: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(json), z.record(z.string(), json)]),
);

const rrBase = { name: z.string(), ttl: z.number() };
const rr = z.discriminatedUnion('type', [
  z.object({ ...rrBase, type: z.enum(['A', 'AAAA']), address: z.string() }),
  z.object({ ...rrBase, type: z.enum(['CNAME', 'PTR', 'NS']), target: z.string() }),
  z.object({
    ...rrBase,
    type: z.literal('SRV'),
    priority: z.number(),
    weight: z.number(),
    port: z.number(),
    target: z.string(),
  }),
  z.object({ ...rrBase, type: z.literal('TXT'), text: z.array(z.string()) }),
  z.object({ ...rrBase, type: z.literal('MX'), preference: z.number(), exchange: z.string() }),
  z.object({
    ...rrBase,
    type: z.literal('SOA'),
    mname: z.string(),
    rname: z.string(),
    serial: z.number(),
    refresh: z.number(),
    retry: z.number(),
    expire: z.number(),
    minimum: z.number(),
  }),
]);

const cachedItem = z.object({
  rcode: z.enum(['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED']),
  answer: z.array(rr),
  authority: z.array(rr),
  additional: z.array(rr),
  ra: z.boolean(),
  stored: z.number(),
  ttl: z.number(),
});

const port = z.number().int().min(1).max(65_535);

/** `[key, value]` pairs: how the snapshot writes a Map. */
const pairs = <T extends z.ZodType>(value: T) => z.array(z.tuple([z.string(), value]));
const table = z.enum(['filter', 'nat', 'mangle', 'raw']);
const proxySettings = z.object({
  mode: z.enum(['iptables', 'ipvs', 'nftables']),
  configuredMode: z.string(),
  scheduler: z.string(),
  clusterCIDR: z.string().optional(),
  masqueradeAll: z.boolean(),
});
const proxyLogLine = z.object({ severity: z.enum(['I', 'W', 'E']), source: z.string(), message: z.string() });
const tuple = z.object({ src: z.string(), dst: z.string(), sport: z.number(), dport: z.number() });

// Rules, nft tables and IPVS virtual servers are checked as far as the printers and the packet
// path step into them without a guard (a rule's match list, a chain's rule list).
const nodeProxy = z.object({
  running: z.object({ settings: proxySettings, instance: z.string() }).optional(),
  attempted: z.string().optional(),
  iptables: z.array(
    z.tuple([
      table,
      z.array(
        z.object({
          name: z.string(),
          policy: z.enum(['ACCEPT', 'DROP']).optional(),
          rules: z.array(z.looseObject({ matches: z.array(z.looseObject({ kind: z.string() })) })),
        }),
      ),
    ]),
  ),
  nftables: z
    .looseObject({
      family: z.literal('ip'),
      name: z.string(),
      sets: z.array(z.looseObject({ name: z.string(), elements: z.array(z.unknown()) })),
      chains: z.array(
        z.looseObject({ name: z.string(), rules: z.array(z.looseObject({ exprs: z.array(z.unknown()) })) }),
      ),
    })
    .optional(),
  ipvs: z
    .object({
      virtualServers: z.array(
        z.looseObject({
          address: z.string(),
          port: z.number(),
          realServers: z.array(z.looseObject({ address: z.string(), port: z.number() })),
        }),
      ),
      ipsets: pairs(z.array(z.string())),
      dummyAddresses: z.array(z.string()),
      nodePortAddresses: z.array(z.string()),
    })
    .optional(),
  ipvsState: z.object({
    cursors: pairs(z.number()),
    templates: pairs(z.object({ rs: z.string(), expiresAt: z.number() })),
    counters: pairs(z.object({ active: z.number(), inactive: z.number() })),
  }),
  conntrack: z.array(
    z.object({
      protocol: z.enum(['tcp', 'udp', 'sctp', 'icmp']),
      orig: tuple,
      reply: tuple,
      state: z.enum(['SYN_SENT', 'ESTABLISHED', 'TIME_WAIT', 'CLOSE']).optional(),
      replied: z.boolean(),
      assured: z.boolean(),
      expiresAt: z.number(),
      streamAt: z.number(),
      dnat: z.string().optional(),
      snat: z.string().optional(),
      snatPort: z.number().int().optional(),
      tag: z.string().optional(),
    }),
  ),
  recent: pairs(pairs(z.number())),
  counters: z.object({
    rules: z.array(z.tuple([table, z.string(), count, count, count])),
    policies: z.array(z.tuple([z.string(), count, count])),
  }),
  nftSets: pairs(pairs(z.number())),
  log: z.array(proxyLogLine),
  starts: pairs(z.object({ settings: proxySettings.optional(), log: z.array(proxyLogLine) })),
});

const versionTwoParts = {
  hostForwards: z
    .array(
      z.object({
        addresses: z.array(z.string()),
        localPort: port,
        namespace: name,
        pod: name,
        podPort: port,
      }),
    )
    .max(1000),
  dns: z.object({
    running: z.object({ corefile: z.string(), files: z.array(z.tuple([z.string(), z.string()])) }).optional(),
    caches: z.array(
      z.object({
        replica: z.string(),
        current: z.boolean(),
        items: z.array(z.tuple([z.string(), cachedItem])),
      }),
    ),
    logs: z.array(z.object({ namespace: z.string(), pod: z.string(), time: z.number(), text: z.string() })),
  }),
  corefileHistory: z.array(z.object({ at: z.number(), text: z.string() })),
  kubeProxy: z.object({ nodes: pairs(nodeProxy) }),
};

const versionOne = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(1),
  config: clusterConfig,
  clock: z.number().finite(),
  rng: z.tuple([word, word, word, word]),
  store,
  files: z.record(z.string(), z.string()).optional(),
  // The shell and the node-local state check their own contents as they restore them.
  shell: z.unknown(),
  nodeState: z.record(z.string(), z.record(z.string(), json)).optional(),
});

const versionTwo = versionOne.extend({ version: z.literal(2), ...versionTwoParts });

const sighting = z.object({
  line: z.string().max(MAX_SIGHTING_LINE),
  resource: z.string().min(1).max(253),
  namespace: z.string().min(1).max(253).optional(),
  names: z.array(name).max(MAX_SIGHTED_NAMES),
  on: z.string().min(1).max(507).optional(),
  fields: z.array(z.string().min(1).max(253)).max(16).optional(),
});
const versionThree = versionTwo.extend({
  version: z.literal(3),
  seen: z.array(sighting).max(MAX_SIGHTINGS),
});

/** `invalid snapshot: store.objects.3.object.metadata.name: expected string` */
function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid snapshot';
  const where = issue.path.map(String).join('.');
  return `invalid snapshot: ${where ? `${where}: ` : ''}${issue.message}`;
}

/**
 * Version 1 had no state outside the API objects: it restores with none, as it always did, and its
 * kube-proxy renders every node's rules afresh.
 */
function fromVersionOne(v1: z.infer<typeof versionOne>): Omit<z.infer<typeof versionTwo>, 'kubeProxy'> {
  return { ...v1, version: 2, hostForwards: [], dns: { caches: [], logs: [] }, corefileHistory: [] };
}

/** Version 2 recorded no terminal output: nothing has been seen yet. */
function fromVersionTwo(
  v2: Omit<z.infer<typeof versionTwo>, 'kubeProxy'> & { kubeProxy?: unknown },
): Omit<z.infer<typeof versionThree>, 'kubeProxy'> & { kubeProxy?: unknown } {
  return { ...v2, version: 3, seen: [] };
}

/** Checks and migrates a snapshot (an object or its JSON text); throws SnapshotError. */
export function parseSnapshot(input: unknown): ClusterSnapshot {
  let data = input;
  if (typeof input === 'string') {
    if (input.length > MAX_SNAPSHOT_CHARS)
      throw new SnapshotError(
        `invalid snapshot: ${input.length} characters, more than the ${MAX_SNAPSHOT_CHARS} a cluster snapshot may have`,
      );
    try {
      data = JSON.parse(input);
    } catch (e) {
      throw new SnapshotError(`invalid snapshot: ${(e as Error).message}`);
    }
  }
  if (!isPlainObject(data) || data.format !== SNAPSHOT_FORMAT)
    throw new SnapshotError('invalid snapshot: not a Packet Path cluster snapshot');
  if (data.version !== 1 && data.version !== 2 && data.version !== SNAPSHOT_VERSION) {
    throw new SnapshotError(
      `unsupported snapshot version ${String(data.version)} (this engine reads versions 1 to ${SNAPSHOT_VERSION})`,
    );
  }
  if (data.version === 1) {
    const parsed = versionOne.safeParse(data);
    if (!parsed.success) throw new SnapshotError(describe(parsed.error));
    return complete(fromVersionTwo(fromVersionOne(data as z.infer<typeof versionOne>)));
  }
  if (data.version === 2) {
    const parsed = versionTwo.safeParse(data);
    if (!parsed.success) throw new SnapshotError(describe(parsed.error));
    return complete(fromVersionTwo(data as z.infer<typeof versionTwo>));
  }
  const parsed = versionThree.safeParse(data);
  if (!parsed.success) throw new SnapshotError(describe(parsed.error));
  return complete(data as z.infer<typeof versionThree>);
}

/** The checked snapshot as the engine's type (the parts that check themselves typed as theirs). */
function complete(
  snap: Omit<z.infer<typeof versionThree>, 'kubeProxy'> & { kubeProxy?: unknown },
): ClusterSnapshot {
  const { kubeProxy, ...rest } = snap;
  return {
    ...rest,
    version: SNAPSHOT_VERSION,
    files: snap.files ?? {},
    store: {
      resourceVersion: snap.store.resourceVersion,
      objects: snap.store.objects as ClusterSnapshot['store']['objects'],
    },
    shell: snap.shell as ClusterSnapshot['shell'],
    nodeState: (snap.nodeState ?? {}) as ClusterSnapshot['nodeState'],
    ...(kubeProxy ? { kubeProxy: kubeProxy as ClusterSnapshot['kubeProxy'] } : {}),
  };
}
