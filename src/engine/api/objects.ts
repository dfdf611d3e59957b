/**
 * The API object types the engine stores. Core kinds reuse `kubernetes-types` (the generated OpenAPI
 * types, erased at build time); kinds outside the core API (Gateway API, MetalLB) are declared in
 * `crd-types.ts`. Every stored object has apiVersion, kind and a metadata block the API server filled in.
 */
import type * as core from 'kubernetes-types/core/v1';
import type * as apps from 'kubernetes-types/apps/v1';
import type * as discovery from 'kubernetes-types/discovery/v1';
import type * as networking from 'kubernetes-types/networking/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type * as crd from './crd-types.ts';

export type { ObjectMeta };

/** metadata after the API server has accepted the object. */
export type StoredMeta = ObjectMeta & {
  name: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp: string;
  generation?: number;
};

export type Stored<T> = Omit<T, 'metadata' | 'apiVersion' | 'kind'> & {
  apiVersion: string;
  kind: string;
  metadata: StoredMeta;
};

/** Any stored object, when the kind does not matter. */
export interface AnyObject {
  apiVersion: string;
  kind: string;
  metadata: StoredMeta;
  [field: string]: unknown;
}

/** An object as submitted (from a manifest or a controller): metadata not yet filled in. */
export interface Manifest {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: unknown;
  [field: string]: unknown;
}

export type Namespace = Stored<core.Namespace>;
export type Node = Stored<core.Node>;
export type Pod = Stored<core.Pod>;
export type Service = Stored<core.Service>;
export type Endpoints = Stored<core.Endpoints>;
export type ConfigMap = Stored<core.ConfigMap>;
export type Secret = Stored<core.Secret>;
export type ServiceAccount = Stored<core.ServiceAccount>;
export type Event = Stored<core.Event>;
export type Deployment = Stored<apps.Deployment>;
export type ReplicaSet = Stored<apps.ReplicaSet>;
export type DaemonSet = Stored<apps.DaemonSet>;
export type EndpointSlice = Stored<discovery.EndpointSlice>;
export type NetworkPolicy = Stored<networking.NetworkPolicy>;
export type Ingress = Stored<networking.Ingress>;
export type IngressClass = Stored<networking.IngressClass>;
export type GatewayClass = Stored<crd.GatewayClass>;
export type Gateway = Stored<crd.Gateway>;
export type HTTPRoute = Stored<crd.HTTPRoute>;
export type ReferenceGrant = Stored<crd.ReferenceGrant>;
export type IPAddressPool = Stored<crd.IPAddressPool>;
export type L2Advertisement = Stored<crd.L2Advertisement>;

export type { core, apps, discovery, networking, crd };

/** Resource name (plural, with group for non-core groups) to stored type. */
export interface ResourceTypes {
  namespaces: Namespace;
  nodes: Node;
  pods: Pod;
  services: Service;
  endpoints: Endpoints;
  configmaps: ConfigMap;
  secrets: Secret;
  serviceaccounts: ServiceAccount;
  events: Event;
  'deployments.apps': Deployment;
  'replicasets.apps': ReplicaSet;
  'daemonsets.apps': DaemonSet;
  'endpointslices.discovery.k8s.io': EndpointSlice;
  'networkpolicies.networking.k8s.io': NetworkPolicy;
  'ingresses.networking.k8s.io': Ingress;
  'ingressclasses.networking.k8s.io': IngressClass;
  'gatewayclasses.gateway.networking.k8s.io': GatewayClass;
  'gateways.gateway.networking.k8s.io': Gateway;
  'httproutes.gateway.networking.k8s.io': HTTPRoute;
  'referencegrants.gateway.networking.k8s.io': ReferenceGrant;
  'ipaddresspools.metallb.io': IPAddressPool;
  'l2advertisements.metallb.io': L2Advertisement;
}

export type ResourceKey = keyof ResourceTypes;

/** Kind to stored type: what a typed write (`ApiServer.create`, `update`) gives back for a manifest's kind. */
export interface KindTypes {
  Namespace: Namespace;
  Node: Node;
  Pod: Pod;
  Service: Service;
  Endpoints: Endpoints;
  ConfigMap: ConfigMap;
  Secret: Secret;
  ServiceAccount: ServiceAccount;
  Event: Event;
  Deployment: Deployment;
  ReplicaSet: ReplicaSet;
  DaemonSet: DaemonSet;
  EndpointSlice: EndpointSlice;
  NetworkPolicy: NetworkPolicy;
  Ingress: Ingress;
  IngressClass: IngressClass;
  GatewayClass: GatewayClass;
  Gateway: Gateway;
  HTTPRoute: HTTPRoute;
  ReferenceGrant: ReferenceGrant;
  IPAddressPool: IPAddressPool;
  L2Advertisement: L2Advertisement;
}

/** A manifest that names its kind literally, so a write of it is typed (see `Written`). */
export type ManifestOf<K extends keyof KindTypes> = Manifest & { kind: K };

/**
 * The stored object a write of `M` returns: the kind's type when the manifest names a known kind
 * literally; the same type when `M` already is a stored object (a controller writing back the Pod it
 * read); AnyObject when the kind is only known at run time (a manifest a learner typed).
 */
export type Written<M> = M extends { kind: infer K }
  ? K extends keyof KindTypes
    ? KindTypes[K]
    : M extends AnyObject
      ? M
      : AnyObject
  : AnyObject;
