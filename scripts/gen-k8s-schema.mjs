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
  {
    kind: 'ReferenceGrant',
    group: 'gateway.networking.k8s.io',
    version: 'v1beta1',
    file: CRD_FILE,
    prefix: 'io.k8s.networking.gateway.v1beta1',
  },
  ...['IPAddressPool', 'L2Advertisement'].map((kind) => ({
    kind,
    group: 'metallb.io',
    version: 'v1beta1',
    file: CRD_FILE,
    prefix: 'io.metallb.v1beta1',
  })),
];

/**
 * Fields of k8s.io/api v0.35.0 that kubernetes-types 1.30 lacks (listed by comparing the Go structs'
 * json tags with the generated definitions; descriptions are the Go doc comments). Strict decoding
 * must accept them: a learner may paste `kubectl get -o yaml` output from a v1.35 cluster. Fields of
 * types new since 1.30 are accepted as free-form (`any`).
 */
const ADDITIONS = {
  'io.k8s.api.apps.v1.DeploymentStatus': {
    terminatingReplicas: {
      type: 'integer',
      description:
        'Total number of terminating pods targeted by this deployment. Terminating pods have a non-null .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase. This is a beta field and requires enabling DeploymentReplicaSetTerminatingReplicas feature (enabled by default).',
    },
  },
  'io.k8s.api.apps.v1.ReplicaSetStatus': {
    terminatingReplicas: {
      type: 'integer',
      description:
        'The number of terminating pods for this replica set. Terminating pods have a non-null .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase. This is a beta field and requires enabling DeploymentReplicaSetTerminatingReplicas feature (enabled by default).',
    },
  },
  'io.k8s.api.core.v1.Container': {
    restartPolicyRules: {
      type: 'any',
      description:
        "Represents a list of rules to be checked to determine if the container should be restarted on exit. The rules are evaluated in order. Once a rule matches a container exit condition, the remaining rules are ignored. If no rule matches the container exit condition, the Container-level restart policy determines the whether the container is restarted or not. Constraints on the rules: - At most 20 rules are allowed. - Rules can have the same action. - Identical rules are not forbidden in validations. When rules are specified, container MUST set RestartPolicy explicitly even it if matches the Pod's RestartPolicy.",
    },
  },
  'io.k8s.api.core.v1.ContainerStatus': {
    allocatedResourcesStatus: {
      type: 'any',
      description:
        'AllocatedResourcesStatus represents the status of various resources allocated for this Pod.',
    },
    stopSignal: {
      type: 'string',
      description: 'StopSignal reports the effective stop signal for this container',
    },
    user: {
      type: 'any',
      description:
        'User represents user identity information initially attached to the first process of the container',
    },
  },
  'io.k8s.api.core.v1.EnvVarSource': {
    fileKeyRef: {
      type: 'any',
      description:
        'FileKeyRef selects a key of the env file. Requires the EnvFiles feature gate to be enabled.',
    },
  },
  'io.k8s.api.core.v1.Lifecycle': {
    stopSignal: {
      type: 'string',
      description:
        'StopSignal defines which signal will be sent to a container when it is being stopped. If not specified, the default is defined by the container runtime in use. StopSignal can only be set for Pods with a non-empty .spec.os.name',
    },
  },
  'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures': {
    userNamespaces: {
      type: 'boolean',
      description:
        'UserNamespaces is set to true if the runtime handler supports UserNamespaces, including for volumes.',
    },
  },
  'io.k8s.api.core.v1.NodeStatus': {
    declaredFeatures: {
      type: 'array',
      items: {
        type: 'string',
      },
      description:
        'DeclaredFeatures represents the features related to feature gates that are declared by the node.',
    },
    features: {
      type: 'any',
      description: 'Features describes the set of features implemented by the CRI implementation.',
    },
  },
  'io.k8s.api.core.v1.NodeSystemInfo': {
    swap: {
      type: 'any',
      description: 'Swap Info reported by the node.',
    },
  },
  'io.k8s.api.core.v1.PodCondition': {
    observedGeneration: {
      type: 'integer',
      format: 'int64',
      description:
        'If set, this represents the .metadata.generation that the pod condition was set based upon. The PodObservedGenerationTracking feature gate must be enabled to use this field.',
    },
  },
  'io.k8s.api.core.v1.PodResourceClaim': {
    resourceClaimName: {
      type: 'string',
      description:
        'ResourceClaimName is the name of a ResourceClaim object in the same namespace as this pod. Exactly one of ResourceClaimName and ResourceClaimTemplateName must be set.',
    },
    resourceClaimTemplateName: {
      type: 'string',
      description:
        'ResourceClaimTemplateName is the name of a ResourceClaimTemplate object in the same namespace as this pod. The template will be used to create a new ResourceClaim, which will be bound to this pod. When this pod is deleted, the ResourceClaim will also be deleted. The pod name and resource name, along with a generated component, will be used to form a unique name for the ResourceClaim, which will be recorded in pod.status.resourceClaimStatuses. This field is immutable and no changes will be made to the corresponding ResourceClaim by the control plane after creating the ResourceClaim. Exactly one of ResourceClaimName and ResourceClaimTemplateName must be set.',
    },
  },
  'io.k8s.api.core.v1.PodSecurityContext': {
    seLinuxChangePolicy: {
      type: 'string',
      description:
        'seLinuxChangePolicy defines how the container\'s SELinux label is applied to all volumes used by the Pod. It has no effect on nodes that do not support SELinux or to volumes does not support SELinux. Valid values are "MountOption" and "Recursive". "Recursive" means relabeling of all files on all Pod volumes by the container runtime. This may be slow for large volumes, but allows mixing privileged and unprivileged Pods sharing the same volume on the same node. "MountOption" mounts all eligible Pod volumes with `-o context` mount option. This requires all Pods that share the same volume to use the same SELinux label. It is not possible to share the same volume among privileged and unprivileged Pods. Eligible volumes are in-tree FibreChannel and iSCSI volumes, and all CSI volumes whose CSI driver announces SELinux support by setting spec.seLinuxMount: true in their CSIDriver instance. Other volumes are always re-labelled recursively. "MountOption" value is allowed only when SELinuxMount feature gate is enabled. If not specified and SELinuxMount feature gate is enabled, "MountOption" is used. If not specified and SELinuxMount feature gate is disabled, "MountOption" is used for ReadWriteOncePod volumes and "Recursive" for all other volumes. This field affects only Pods that have SELinux label set, either in PodSecurityContext or in SecurityContext of all containers. All Pods that use the same volume should use the same seLinuxChangePolicy, otherwise some pods can get stuck in ContainerCreating state. Note that this field cannot be set when spec.os.name is windows.',
    },
    supplementalGroupsPolicy: {
      type: 'string',
      description:
        'Defines how supplemental groups of the first container processes are calculated. Valid values are "Merge" and "Strict". If not specified, "Merge" is used. (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled and the container runtime must implement support for this feature. Note that this field cannot be set when spec.os.name is windows.',
    },
  },
  'io.k8s.api.core.v1.PodSpec': {
    hostnameOverride: {
      type: 'string',
      description:
        "HostnameOverride specifies an explicit override for the pod's hostname as perceived by the pod. This field only specifies the pod's hostname and does not affect its DNS records. When this field is set to a non-empty string: - It takes precedence over the values set in `hostname` and `subdomain`. - The Pod's hostname will be set to this value. - `setHostnameAsFQDN` must be nil or set to false. - `hostNetwork` must be set to false. This field must be a valid DNS subdomain as defined in RFC 1123 and contain at most 64 characters. Requires the HostnameOverride feature gate to be enabled.",
    },
    resources: {
      $ref: 'io.k8s.api.core.v1.ResourceRequirements',
      description:
        'Resources is the total amount of CPU and Memory resources required by all containers in the pod. It supports specifying Requests and Limits for "cpu", "memory" and "hugepages-" resource names only. ResourceClaims are not supported. This field enables fine-grained control over resource allocation for the entire pod, allowing resource sharing among containers in a pod. This is an alpha field and requires enabling the PodLevelResources feature gate.',
    },
    workloadRef: {
      type: 'any',
      description:
        'WorkloadRef provides a reference to the Workload object that this Pod belongs to. This field is used by the scheduler to identify the PodGroup and apply the correct group scheduling policies. The Workload object referenced by this field may not exist at the time the Pod is created. This field is immutable, but a Workload object with the same name may be recreated with different policies. Doing this during pod scheduling may result in the placement not conforming to the expected policies.',
    },
  },
  'io.k8s.api.core.v1.PodStatus': {
    allocatedResources: {
      type: 'object',
      additionalProperties: {
        type: 'string',
        format: 'quantity',
      },
      description:
        'AllocatedResources is the total requests allocated for this pod by the node. If pod-level requests are not set, this will be the total requests aggregated across containers in the pod.',
    },
    extendedResourceClaimStatus: {
      type: 'any',
      description: 'Status of extended resource claim backed by DRA.',
    },
    observedGeneration: {
      type: 'integer',
      format: 'int64',
      description:
        'If set, this represents the .metadata.generation that the pod status was set based upon. The PodObservedGenerationTracking feature gate must be enabled to use this field.',
    },
    resources: {
      $ref: 'io.k8s.api.core.v1.ResourceRequirements',
      description:
        'Resources represents the compute resource requests and limits that have been applied at the pod level if pod-level requests or limits are set in PodSpec.Resources',
    },
  },
  'io.k8s.api.core.v1.ResourceClaim': {
    request: {
      type: 'string',
      description:
        'Request is the name chosen for a request in the referenced claim. If empty, everything from the claim is made available, otherwise only the result of this request.',
    },
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    trafficDistribution: {
      type: 'string',
      description:
        'TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints. Implementations can use this field as a hint, but are not required to guarantee strict adherence. If the field is not set, the implementation will apply its default routing strategy. If set to "PreferClose", implementations should prioritize endpoints that are in the same zone.',
    },
  },
  'io.k8s.api.core.v1.VolumeProjection': {
    podCertificate: {
      type: 'any',
      description:
        "Projects an auto-rotating credential bundle (private key and certificate chain) that the pod can use either as a TLS client or server. Kubelet generates a private key and uses it to send a PodCertificateRequest to the named signer.  Once the signer approves the request and issues a certificate chain, Kubelet writes the key and certificate chain to the pod filesystem.  The pod does not start until certificates have been issued for each podCertificate projected volume source in its spec. Kubelet will begin trying to rotate the certificate at the time indicated by the signer using the PodCertificateRequest.Status.BeginRefreshAt timestamp. Kubelet can write a single file, indicated by the credentialBundlePath field, or separate files, indicated by the keyPath and certificateChainPath fields. The credential bundle is a single file in PEM format.  The first PEM entry is the private key (in PKCS#8 format), and the remaining PEM entries are the certificate chain issued by the signer (typically, signers will return their certificate chain in leaf-to-root order). Prefer using the credential bundle format, since your application code can read it atomically.  If you use keyPath and certificateChainPath, your application must make two separate file reads. If these coincide with a certificate rotation, it is possible that the private key and leaf certificate you read may not correspond to each other.  Your application will need to check for this condition, and re-read until they are consistent. The named signer controls chooses the format of the certificate it issues; consult the signer implementation's documentation to learn how to use the certificates it issues.",
    },
  },
  'io.k8s.api.discovery.v1.EndpointHints': {
    forNodes: {
      type: 'array',
      items: {
        $ref: 'io.k8s.api.discovery.v1.ForNode',
      },
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
