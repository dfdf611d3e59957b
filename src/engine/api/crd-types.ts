/**
 * Types for the kinds that live outside the core API: Gateway API (gateway.networking.k8s.io/v1,
 * from kubernetes-sigs/gateway-api `apis/v1`) and MetalLB (metallb.io/v1beta1). Only the fields the
 * engine and the labs use are declared; unknown fields are still rejected by strict validation.
 */
import type { ObjectMeta, Condition, LabelSelector } from 'kubernetes-types/meta/v1';

interface Base<K extends string, V extends string> {
  apiVersion?: V;
  kind?: K;
  metadata?: ObjectMeta;
}

export interface GatewayClass extends Base<'GatewayClass', 'gateway.networking.k8s.io/v1'> {
  spec: { controllerName: string; description?: string };
  status?: { conditions?: Condition[] };
}

export interface GatewayListener {
  name: string;
  hostname?: string;
  port: number;
  protocol: 'HTTP' | 'HTTPS' | 'TLS' | 'TCP' | 'UDP';
  tls?: { mode?: 'Terminate' | 'Passthrough'; certificateRefs?: { kind?: string; name: string; namespace?: string }[] };
  allowedRoutes?: {
    namespaces?: { from?: 'All' | 'Same' | 'Selector'; selector?: LabelSelector };
    kinds?: { group?: string; kind: string }[];
  };
}

export interface Gateway extends Base<'Gateway', 'gateway.networking.k8s.io/v1'> {
  spec: { gatewayClassName: string; listeners: GatewayListener[]; addresses?: { type?: string; value: string }[] };
  status?: {
    addresses?: { type?: string; value: string }[];
    conditions?: Condition[];
    listeners?: { name: string; attachedRoutes: number; conditions: Condition[]; supportedKinds: { group?: string; kind: string }[] }[];
  };
}

export interface ParentReference {
  group?: string;
  kind?: string;
  namespace?: string;
  name: string;
  sectionName?: string;
  port?: number;
}

export interface HTTPRouteMatch {
  path?: { type?: 'Exact' | 'PathPrefix' | 'RegularExpression'; value?: string };
  headers?: { type?: 'Exact' | 'RegularExpression'; name: string; value: string }[];
  queryParams?: { type?: 'Exact' | 'RegularExpression'; name: string; value: string }[];
  method?: string;
}

export interface HTTPBackendRef {
  group?: string;
  kind?: string;
  name: string;
  namespace?: string;
  port?: number;
  weight?: number;
}

export interface HTTPRoute extends Base<'HTTPRoute', 'gateway.networking.k8s.io/v1'> {
  spec: {
    parentRefs?: ParentReference[];
    hostnames?: string[];
    rules?: { matches?: HTTPRouteMatch[]; backendRefs?: HTTPBackendRef[] }[];
  };
  status?: { parents: { parentRef: ParentReference; controllerName: string; conditions: Condition[] }[] };
}

export interface IPAddressPool extends Base<'IPAddressPool', 'metallb.io/v1beta1'> {
  spec: { addresses: string[]; autoAssign?: boolean; avoidBuggyIPs?: boolean };
}

export interface L2Advertisement extends Base<'L2Advertisement', 'metallb.io/v1beta1'> {
  spec?: { ipAddressPools?: string[]; nodeSelectors?: LabelSelector[]; interfaces?: string[] };
}
