/** Which table printer each resource uses. */
import type { AnyObject, ResourceKey } from '../../api/objects.ts';
import { configMapTable, eventTable, namespaceTable, secretTable, serviceAccountTable } from './core.ts';
import {
  defaultTable,
  gatewayClassTable,
  gatewayTable,
  httpRouteTable,
  ipAddressPoolTable,
  l2AdvertisementTable,
} from './crds.ts';
import { endpointSliceTable, endpointsTable } from './endpoints.ts';
import { ingressClassTable, ingressTable, networkPolicyTable } from './networking.ts';
import { nodeTable } from './nodes.ts';
import { podTable } from './pods.ts';
import { serviceTable } from './services.ts';
import type { TableDef } from './table.ts';
import { daemonSetTable, deploymentTable, replicaSetTable } from './workloads.ts';

const TABLES: { [K in ResourceKey]?: TableDef<never> } = {
  pods: podTable,
  services: serviceTable,
  nodes: nodeTable,
  namespaces: namespaceTable,
  configmaps: configMapTable,
  secrets: secretTable,
  serviceaccounts: serviceAccountTable,
  events: eventTable,
  endpoints: endpointsTable,
  'endpointslices.discovery.k8s.io': endpointSliceTable,
  'deployments.apps': deploymentTable,
  'replicasets.apps': replicaSetTable,
  'daemonsets.apps': daemonSetTable,
  'networkpolicies.networking.k8s.io': networkPolicyTable,
  'ingresses.networking.k8s.io': ingressTable,
  'ingressclasses.networking.k8s.io': ingressClassTable,
  'gatewayclasses.gateway.networking.k8s.io': gatewayClassTable,
  'gateways.gateway.networking.k8s.io': gatewayTable,
  'httproutes.gateway.networking.k8s.io': httpRouteTable,
  'ipaddresspools.metallb.io': ipAddressPoolTable,
  'l2advertisements.metallb.io': l2AdvertisementTable,
};

export function tableFor(resource: ResourceKey): TableDef<AnyObject> {
  return (TABLES[resource] ?? defaultTable) as TableDef<AnyObject>;
}
