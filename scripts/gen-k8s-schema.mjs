#!/usr/bin/env node
/**
 * Generates `src/engine/api/schema/k8s-schema.json`: the field schema of every kind the engine serves,
 * used by the API server's strict decoding (unknown fields, JSON type errors) and by `kubectl explain`.
 *
 *   node scripts/gen-k8s-schema.mjs          (run from the repository root; rerun after upgrading
 *                                              kubernetes-types or editing src/engine/api/crd-types.ts)
 *
 * Source: the `kubernetes-types` package (TypeScript declarations generated from the Kubernetes
 * OpenAPI spec, descriptions included) and `src/engine/api/crd-types.ts` (Gateway API, MetalLB), read
 * with `ts-json-schema-generator`. The output keeps JSON-Schema words with a few of our own:
 *
 *   kinds[]                   { group, version, kind, definition }
 *   definitions[name]         a node; names are OpenAPI-style (`io.k8s.api.core.v1.PodSpec`)
 *   node.type                 string | boolean | integer | number | object | array | int-or-string | any
 *   node.properties/required  a struct; `additionalProperties` instead means a map (labels, data)
 *   node.items                the element of an array
 *   node.$ref                 a definition name (deduplicated: each Go struct is written once)
 *   node.enum                 allowed values (literal unions in crd-types.ts)
 *   node.format               int32 | int64 | byte | quantity | date-time
 *   node.x-go-type            the Go type name where JSON decoding errors print it and it is not derivable
 *                             (named string types such as `v1.Protocol`)
 */
import { createGenerator } from 'ts-json-schema-generator';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = process.cwd();
const TYPES = 'node_modules/kubernetes-types';
const OUT = 'src/engine/api/schema/k8s-schema.json';

/** Declaration files and the OpenAPI prefix of the Go package each one mirrors. */
const PACKAGES = [
  { file: `${TYPES}/core/v1.d.ts`, prefix: 'io.k8s.api.core.v1' },
  { file: `${TYPES}/apps/v1.d.ts`, prefix: 'io.k8s.api.apps.v1' },
  { file: `${TYPES}/discovery/v1.d.ts`, prefix: 'io.k8s.api.discovery.v1' },
  { file: `${TYPES}/networking/v1.d.ts`, prefix: 'io.k8s.api.networking.v1' },
  { file: `${TYPES}/meta/v1.d.ts`, prefix: 'io.k8s.apimachinery.pkg.apis.meta.v1' },
  { file: `${TYPES}/api/resource.d.ts`, prefix: 'io.k8s.apimachinery.pkg.api.resource' },
  { file: `${TYPES}/runtime.d.ts`, prefix: 'io.k8s.apimachinery.pkg.runtime' },
];
const CRD_FILE = 'src/engine/api/crd-types.ts';

/** The kinds in src/engine/api/resources.ts, with the file that declares each. */
const KINDS = [
  ...[
    'ConfigMap',
    'Endpoints',
    'Event',
    'Namespace',
    'Node',
    'Pod',
    'Secret',
    'ServiceAccount',
    'Service',
  ].map((kind) => ({ kind, group: '', version: 'v1', file: PACKAGES[0].file, prefix: PACKAGES[0].prefix })),
  ...['DaemonSet', 'Deployment', 'ReplicaSet'].map((kind) => ({
    kind,
    group: 'apps',
    version: 'v1',
    file: PACKAGES[1].file,
    prefix: PACKAGES[1].prefix,
  })),
  {
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    version: 'v1',
    file: PACKAGES[2].file,
    prefix: PACKAGES[2].prefix,
  },
  ...['IngressClass', 'Ingress', 'NetworkPolicy'].map((kind) => ({
    kind,
    group: 'networking.k8s.io',
    version: 'v1',
    file: PACKAGES[3].file,
    prefix: PACKAGES[3].prefix,
  })),
  ...['GatewayClass', 'Gateway', 'HTTPRoute'].map((kind) => ({
    kind,
    group: 'gateway.networking.k8s.io',
    version: 'v1',
    file: CRD_FILE,
    prefix: 'io.k8s.networking.gateway.v1',
  })),
  ...['IPAddressPool', 'L2Advertisement'].map((kind) => ({
    kind,
    group: 'metallb.io',
    version: 'v1beta1',
    file: CRD_FILE,
    prefix: 'io.metallb.v1beta1',
  })),
];

/**
 * Fields added to the API after kubernetes-types 1.30 that a networking course meets on a v1.35
 * cluster (descriptions from k8s.io/api v0.35.0 `types.go`). Strict decoding must not reject them.
 */
const ADDITIONS = {
  'io.k8s.api.core.v1.ServiceSpec': {
    trafficDistribution: {
      type: 'string',
      description:
        'TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints. Implementations can use this field as a hint, but are not required to guarantee strict adherence. If the field is not set, the implementation will apply its default routing strategy. If set to "PreferClose", implementations should prioritize endpoints that are in the same zone.',
    },
  },
  'io.k8s.api.discovery.v1.EndpointHints': {
    forNodes: {
      type: 'array',
      items: { $ref: 'io.k8s.api.discovery.v1.ForNode' },
      description:
        'forNodes indicates the node(s) this endpoint should be consumed by when using topology aware routing. May contain a maximum of 8 entries.',
    },
  },
};
const ADDED_DEFINITIONS = {
  'io.k8s.api.discovery.v1.ForNode': {
    type: 'object',
    description: 'ForNode provides information about which nodes should consume this endpoint.',
    required: ['name'],
    properties: { name: { type: 'string', description: 'name represents the name of the node.' } },
  },
};

/**
 * Go types that JSON decoding errors print and the TypeScript declarations erase: 64-bit integers,
 * named string types, byte slices. From k8s.io/api v0.35.0 and apimachinery `types.go` (struct field
 * declarations); keyed by `<Go struct>.<json field>`. Every other integer is int32.
 */
const GO_TYPES = {
  'AppArmorProfile.type': 'v1.AppArmorProfileType',
  'AttachedVolume.name': 'v1.UniqueVolumeName',
  'AzureDiskVolumeSource.cachingMode': 'v1.AzureDataDiskCachingMode',
  'AzureDiskVolumeSource.kind': 'v1.AzureDataDiskKind',
  'Capabilities.add': '[]v1.Capability',
  'Capabilities.drop': '[]v1.Capability',
  'Condition.observedGeneration': 'int64',
  'Condition.status': 'v1.ConditionStatus',
  'ConfigMap.binaryData': 'map[string][]byte',
  'ConfigMapNodeConfigSource.uid': 'types.UID',
  'Container.imagePullPolicy': 'v1.PullPolicy',
  'Container.restartPolicy': 'v1.ContainerRestartPolicy',
  'Container.terminationMessagePolicy': 'v1.TerminationMessagePolicy',
  'ContainerImage.sizeBytes': 'int64',
  'ContainerPort.protocol': 'v1.Protocol',
  'ContainerResizePolicy.resourceName': 'v1.ResourceName',
  'ContainerResizePolicy.restartPolicy': 'v1.ResourceResizeRestartPolicy',
  'ContainerStatus.stopSignal': 'v1.Signal',
  'DaemonSetCondition.status': 'v1.ConditionStatus',
  'DaemonSetCondition.type': 'v1.DaemonSetConditionType',
  'DaemonSetStatus.observedGeneration': 'int64',
  'DaemonSetUpdateStrategy.type': 'v1.DaemonSetUpdateStrategyType',
  'DeploymentCondition.status': 'v1.ConditionStatus',
  'DeploymentCondition.type': 'v1.DeploymentConditionType',
  'DeploymentStatus.observedGeneration': 'int64',
  'DeploymentStrategy.type': 'v1.DeploymentStrategyType',
  'EmptyDirVolumeSource.medium': 'v1.StorageMedium',
  'EndpointPort.protocol': 'v1.Protocol',
  'EndpointSlice.addressType': 'v1.AddressType',
  'HTTPGetAction.scheme': 'v1.URIScheme',
  'HTTPIngressPath.pathType': 'v1.PathType',
  'HostPathVolumeSource.type': 'v1.HostPathType',
  'IngressPortStatus.protocol': 'v1.Protocol',
  'LabelSelectorRequirement.operator': 'v1.LabelSelectorOperator',
  'Lifecycle.stopSignal': 'v1.Signal',
  'LoadBalancerIngress.ipMode': 'v1.LoadBalancerIPMode',
  'ManagedFieldsEntry.operation': 'v1.ManagedFieldsOperationType',
  'NamespaceCondition.status': 'v1.ConditionStatus',
  'NamespaceCondition.type': 'v1.NamespaceConditionType',
  'NamespaceSpec.finalizers': '[]v1.FinalizerName',
  'NamespaceStatus.phase': 'v1.NamespacePhase',
  'NetworkPolicyPort.protocol': 'v1.Protocol',
  'NetworkPolicySpec.policyTypes': '[]v1.PolicyType',
  'NodeAddress.type': 'v1.NodeAddressType',
  'NodeCondition.status': 'v1.ConditionStatus',
  'NodeCondition.type': 'v1.NodeConditionType',
  'NodeSelectorRequirement.operator': 'v1.NodeSelectorOperator',
  'NodeStatus.phase': 'v1.NodePhase',
  'NodeStatus.volumesInUse': '[]v1.UniqueVolumeName',
  'ObjectMeta.deletionGracePeriodSeconds': 'int64',
  'ObjectMeta.generation': 'int64',
  'ObjectMeta.uid': 'types.UID',
  'ObjectReference.uid': 'types.UID',
  'OwnerReference.uid': 'types.UID',
  'PersistentVolumeClaimSpec.accessModes': '[]v1.PersistentVolumeAccessMode',
  'PersistentVolumeClaimSpec.volumeMode': 'v1.PersistentVolumeMode',
  'PodCondition.observedGeneration': 'int64',
  'PodCondition.status': 'v1.ConditionStatus',
  'PodCondition.type': 'v1.PodConditionType',
  'PodOS.name': 'v1.OSName',
  'PodReadinessGate.conditionType': 'v1.PodConditionType',
  'PodSecurityContext.fsGroup': 'int64',
  'PodSecurityContext.fsGroupChangePolicy': 'v1.PodFSGroupChangePolicy',
  'PodSecurityContext.runAsGroup': 'int64',
  'PodSecurityContext.runAsUser': 'int64',
  'PodSecurityContext.seLinuxChangePolicy': 'v1.PodSELinuxChangePolicy',
  'PodSecurityContext.supplementalGroups': '[]int64',
  'PodSecurityContext.supplementalGroupsPolicy': 'v1.SupplementalGroupsPolicy',
  'PodSpec.activeDeadlineSeconds': 'int64',
  'PodSpec.dnsPolicy': 'v1.DNSPolicy',
  'PodSpec.preemptionPolicy': 'v1.PreemptionPolicy',
  'PodSpec.restartPolicy': 'v1.RestartPolicy',
  'PodSpec.terminationGracePeriodSeconds': 'int64',
  'PodStatus.observedGeneration': 'int64',
  'PodStatus.phase': 'v1.PodPhase',
  'PodStatus.qosClass': 'v1.PodQOSClass',
  'PodStatus.resize': 'v1.PodResizeStatus',
  'PortStatus.protocol': 'v1.Protocol',
  'Probe.terminationGracePeriodSeconds': 'int64',
  'ReplicaSetCondition.status': 'v1.ConditionStatus',
  'ReplicaSetCondition.type': 'v1.ReplicaSetConditionType',
  'ReplicaSetStatus.observedGeneration': 'int64',
  'SeccompProfile.type': 'v1.SeccompProfileType',
  'Secret.data': 'map[string][]byte',
  'Secret.type': 'v1.SecretType',
  'SecurityContext.procMount': 'v1.ProcMountType',
  'SecurityContext.runAsGroup': 'int64',
  'SecurityContext.runAsUser': 'int64',
  'ServiceAccountTokenProjection.expirationSeconds': 'int64',
  'ServicePort.protocol': 'v1.Protocol',
  'ServiceSpec.externalTrafficPolicy': 'v1.ServiceExternalTrafficPolicy',
  'ServiceSpec.internalTrafficPolicy': 'v1.ServiceInternalTrafficPolicy',
  'ServiceSpec.ipFamilies': '[]v1.IPFamily',
  'ServiceSpec.ipFamilyPolicy': 'v1.IPFamilyPolicy',
  'ServiceSpec.sessionAffinity': 'v1.ServiceAffinity',
  'ServiceSpec.type': 'v1.ServiceType',
  'SleepAction.seconds': 'int64',
  'Taint.effect': 'v1.TaintEffect',
  'Toleration.effect': 'v1.TaintEffect',
  'Toleration.operator': 'v1.TolerationOperator',
  'Toleration.tolerationSeconds': 'int64',
  'TopologySpreadConstraint.nodeAffinityPolicy': 'v1.NodeInclusionPolicy',
  'TopologySpreadConstraint.nodeTaintsPolicy': 'v1.NodeInclusionPolicy',
  'TopologySpreadConstraint.whenUnsatisfiable': 'v1.UnsatisfiableConstraintAction',
  'VolumeMount.mountPropagation': 'v1.MountPropagationMode',
  'VolumeMount.recursiveReadOnly': 'v1.RecursiveReadOnlyMode',
  'VolumeMountStatus.recursiveReadOnly': 'v1.RecursiveReadOnlyMode',
};

// --- generation ------------------------------------------------------------------------------------

/** Which declaration file declares each exported type name. */
function declarationIndex() {
  const index = new Map();
  for (const { file, prefix } of PACKAGES) {
    for (const name of declaredNames(file)) index.set(`${file}#${name}`, prefix);
  }
  return index;
}

function declaredNames(file) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
}

function qualify(name, kindEntry, index) {
  if (kindEntry.file === CRD_FILE && declaredNames(CRD_FILE).includes(name))
    return `${kindEntry.prefix}.${name}`;
  const own = index.get(`${kindEntry.file}#${name}`);
  if (own) return `${own}.${name}`;
  const found = PACKAGES.filter(({ file }) => index.has(`${file}#${name}`));
  if (found.length !== 1)
    throw new Error(`cannot tell which package declares ${name} (${found.length} candidates)`);
  return `${found[0].prefix}.${name}`;
}

const SPECIAL_REFS = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string', format: 'quantity' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: 'string', format: 'date-time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { type: 'string', format: 'date-time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { type: 'any' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'any' },
};

function convert(node, ctx) {
  const out = convertType(node, ctx);
  if (node.description && !out.description) out.description = node.description;
  return out;
}

function convertType(node, ctx) {
  if (node.$ref) {
    const name = qualify(decodeURIComponent(node.$ref.replace('#/definitions/', '')), ctx.kind, ctx.index);
    if (SPECIAL_REFS[name]) return { ...SPECIAL_REFS[name] };
    ctx.pending.push(name);
    return { $ref: name };
  }
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) {
    const kinds = new Set(alternatives.map((a) => a.type));
    if (kinds.size === 2 && kinds.has('number') && kinds.has('string')) return { type: 'int-or-string' };
    if (alternatives.every((a) => a.const !== undefined || a.enum)) {
      return { type: 'string', enum: alternatives.flatMap((a) => a.enum ?? [a.const]) };
    }
    throw new Error(`unsupported union ${JSON.stringify(node).slice(0, 200)}`);
  }
  if (types.length === 2 && types.includes('number') && types.includes('string'))
    return { type: 'int-or-string' };
  if (node.const !== undefined) return { type: typeof node.const, enum: [node.const] };
  if (node.enum) return { type: types[0] ?? 'string', enum: node.enum };
  switch (types[0]) {
    case 'string':
    case 'boolean':
      return { type: types[0] };
    case 'number':
    case 'integer':
      return { type: 'integer' };
    case 'array':
      return { type: 'array', items: convert(node.items ?? {}, ctx) };
    case 'object':
    case undefined: {
      if (node.properties) {
        const properties = {};
        for (const key of Object.keys(node.properties).sort())
          properties[key] = convert(node.properties[key], ctx);
        const out = { type: 'object', properties };
        if (node.required?.length) out.required = [...node.required].sort();
        return out;
      }
      if (node.additionalProperties && typeof node.additionalProperties === 'object') {
        return { type: 'object', additionalProperties: convert(node.additionalProperties, ctx) };
      }
      return { type: 'any' };
    }
    default:
      throw new Error(`unsupported type ${JSON.stringify(node).slice(0, 200)}`);
  }
}

/** Applies GO_TYPES to the properties of one struct definition. */
function annotateGoTypes(name, def) {
  const struct = name.slice(name.lastIndexOf('.') + 1);
  for (const [field, prop] of Object.entries(def.properties ?? {})) {
    const goType = GO_TYPES[`${struct}.${field}`];
    if (!goType) continue;
    const leaf = goType.replace(/^(\[\]|map\[string\])+/, '');
    const target = leafOf(prop);
    if (leaf === 'int64' && target.type === 'integer') target.format = 'int64';
    else if (leaf === 'float64' && target.type === 'integer') target.type = 'number';
    else if (leaf === 'byte' && goType.endsWith('[]byte') && prop.type === 'object') {
      prop.additionalProperties.format = 'byte';
    } else if (!['string', 'bool', 'int32'].includes(leaf)) target['x-go-type'] = leaf;
  }
}

function leafOf(node) {
  let n = node;
  while (n.items || n.additionalProperties) n = n.items ?? n.additionalProperties;
  return n;
}

function main() {
  const index = declarationIndex();
  const definitions = { ...ADDED_DEFINITIONS };
  const kinds = [];
  const generators = new Map();
  for (const kind of KINDS) {
    let generator = generators.get(kind.file);
    if (!generator) {
      generator = createGenerator({
        path: join(ROOT, kind.file),
        tsconfig: join(ROOT, 'src/engine/tsconfig.json'),
        skipTypeCheck: true,
        expose: 'export',
        topRef: false,
        jsDoc: 'extended',
        additionalProperties: false,
      });
      generators.set(kind.file, generator);
    }
    const schema = generator.createSchema(kind.kind);
    const ctx = { kind, index, pending: [] };
    const rootName = `${kind.prefix}.${kind.kind}`;
    const { definitions: raw = {}, ...root } = schema;
    definitions[rootName] = convert(root, ctx);
    while (ctx.pending.length) {
      const name = ctx.pending.pop();
      if (definitions[name]) continue;
      const short = name.slice(name.lastIndexOf('.') + 1);
      const rawDef = raw[short] ?? raw[Object.keys(raw).find((k) => decodeURIComponent(k) === short)];
      if (!rawDef) throw new Error(`definition ${short} missing for ${kind.kind}`);
      definitions[name] = convert(rawDef, ctx);
    }
    kinds.push({ group: kind.group, version: kind.version, kind: kind.kind, definition: rootName });
  }
  for (const [name, additions] of Object.entries(ADDITIONS)) {
    if (!definitions[name]) continue;
    Object.assign(definitions[name].properties, additions);
    definitions[name].properties = Object.fromEntries(Object.entries(definitions[name].properties).sort());
  }
  for (const [name, def] of Object.entries(definitions)) annotateGoTypes(name, def);
  const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : 1)));
  const out = {
    $comment:
      'Generated by scripts/gen-k8s-schema.mjs from kubernetes-types and src/engine/api/crd-types.ts. Do not edit.',
    kinds,
    definitions: sorted,
  };
  mkdirSync(dirname(join(ROOT, OUT)), { recursive: true });
  const text = JSON.stringify(out) + '\n';
  writeFileSync(join(ROOT, OUT), text);
  console.log(
    `${OUT}: ${kinds.length} kinds, ${Object.keys(sorted).length} definitions, ${text.length} bytes`,
  );
}

main();
