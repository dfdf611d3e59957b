/**
 * Types for the kinds that live outside the core API: Gateway API (gateway.networking.k8s.io/v1 and
 * ReferenceGrant in v1beta1, from kubernetes-sigs/gateway-api `apis/v1` and `apis/v1beta1`, standard
 * channel v1.3) and MetalLB (metallb.io/v1beta1, `api/v1beta1`). The fields are the real CRDs' fields a
 * lab can write or a controller publishes; strict decoding rejects anything else, as the real API
 * server does with the CRD's structural schema.
 */
import type { ObjectMeta, Condition, LabelSelector } from 'kubernetes-types/meta/v1';

interface Base<K extends string, V extends string> {
  apiVersion?: V;
  kind?: K;
  metadata?: ObjectMeta;
}

export interface ParametersReference {
  group: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface GatewayClass extends Base<'GatewayClass', 'gateway.networking.k8s.io/v1'> {
  spec: { controllerName: string; description?: string; parametersRef?: ParametersReference };
  status?: { conditions?: Condition[]; supportedFeatures?: { name: string }[] };
}

export interface SecretObjectReference {
  group?: string;
  kind?: string;
  name: string;
  namespace?: string;
}

export interface RouteGroupKind {
  group?: string;
  kind: string;
}

export interface GatewayListener {
  name: string;
  hostname?: string;
  port: number;
  protocol: 'HTTP' | 'HTTPS' | 'TLS' | 'TCP' | 'UDP';
  tls?: {
    mode?: 'Terminate' | 'Passthrough';
    certificateRefs?: SecretObjectReference[];
    options?: Record<string, string>;
  };
  allowedRoutes?: {
    namespaces?: { from?: 'All' | 'Same' | 'Selector'; selector?: LabelSelector };
    kinds?: RouteGroupKind[];
  };
}

export interface GatewayAddress {
  type?: 'IPAddress' | 'Hostname' | string;
  value: string;
}

export interface ListenerStatus {
  name: string;
  attachedRoutes: number;
  conditions: Condition[];
  supportedKinds: RouteGroupKind[];
}

export interface Gateway extends Base<'Gateway', 'gateway.networking.k8s.io/v1'> {
  spec: {
    gatewayClassName: string;
    listeners: GatewayListener[];
    addresses?: GatewayAddress[];
    infrastructure?: {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
      parametersRef?: { group: string; kind: string; name: string };
    };
  };
  status?: {
    addresses?: GatewayAddress[];
    conditions?: Condition[];
    listeners?: ListenerStatus[];
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

export type StringMatchType = 'Exact' | 'RegularExpression';

export interface HTTPRouteMatch {
  path?: { type?: 'Exact' | 'PathPrefix' | 'RegularExpression'; value?: string };
  headers?: { type?: StringMatchType; name: string; value: string }[];
  queryParams?: { type?: StringMatchType; name: string; value: string }[];
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'CONNECT' | 'OPTIONS' | 'TRACE' | 'PATCH';
}

export interface HTTPHeaderFilter {
  set?: { name: string; value: string }[];
  add?: { name: string; value: string }[];
  remove?: string[];
}

export interface HTTPPathModifier {
  type: 'ReplaceFullPath' | 'ReplacePrefixMatch';
  replaceFullPath?: string;
  replacePrefixMatch?: string;
}

export interface HTTPRouteFilter {
  type:
    | 'RequestHeaderModifier'
    | 'ResponseHeaderModifier'
    | 'RequestMirror'
    | 'RequestRedirect'
    | 'URLRewrite'
    | 'ExtensionRef';
  requestHeaderModifier?: HTTPHeaderFilter;
  responseHeaderModifier?: HTTPHeaderFilter;
  requestMirror?: {
    backendRef: { group?: string; kind?: string; name: string; namespace?: string; port?: number };
    percent?: number;
    fraction?: { numerator: number; denominator?: number };
  };
  requestRedirect?: {
    scheme?: 'http' | 'https';
    hostname?: string;
    path?: HTTPPathModifier;
    port?: number;
    statusCode?: 301 | 302;
  };
  urlRewrite?: { hostname?: string; path?: HTTPPathModifier };
  extensionRef?: { group: string; kind: string; name: string };
}

export interface HTTPBackendRef {
  group?: string;
  kind?: string;
  name: string;
  namespace?: string;
  port?: number;
  weight?: number;
  filters?: HTTPRouteFilter[];
}

export interface HTTPRouteRule {
  name?: string;
  matches?: HTTPRouteMatch[];
  filters?: HTTPRouteFilter[];
  backendRefs?: HTTPBackendRef[];
  timeouts?: { request?: string; backendRequest?: string };
}

export interface RouteParentStatus {
  parentRef: ParentReference;
  controllerName: string;
  conditions: Condition[];
}

export interface HTTPRoute extends Base<'HTTPRoute', 'gateway.networking.k8s.io/v1'> {
  spec: {
    parentRefs?: ParentReference[];
    hostnames?: string[];
    rules?: HTTPRouteRule[];
  };
  status?: { parents: RouteParentStatus[] };
}

/** Lets routes in the `from` namespaces refer to the `to` objects in the grant's own namespace. */
export interface ReferenceGrant extends Base<'ReferenceGrant', 'gateway.networking.k8s.io/v1beta1'> {
  spec: {
    from: { group: string; kind: string; namespace: string }[];
    to: { group: string; kind: string; name?: string }[];
  };
}

export interface IPAddressPool extends Base<'IPAddressPool', 'metallb.io/v1beta1'> {
  spec: {
    addresses: string[];
    autoAssign?: boolean;
    avoidBuggyIPs?: boolean;
    serviceAllocation?: {
      priority?: number;
      namespaces?: string[];
      namespaceSelectors?: LabelSelector[];
      serviceSelectors?: LabelSelector[];
    };
  };
  status?: {
    assignedIPv4?: number;
    assignedIPv6?: number;
    availableIPv4?: number;
    availableIPv6?: number;
  };
}

export interface L2Advertisement extends Base<'L2Advertisement', 'metallb.io/v1beta1'> {
  spec?: {
    ipAddressPools?: string[];
    ipAddressPoolSelectors?: LabelSelector[];
    nodeSelectors?: LabelSelector[];
    interfaces?: string[];
  };
}
