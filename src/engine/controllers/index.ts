/**
 * The cluster's control loops, in the order a settle round runs them: the node IPAM controller first
 * (nodes need a podCIDR before their kubelets can wire pods), the per-namespace objects (the `default`
 * ServiceAccount, the `kube-root-ca.crt` ConfigMap), then the workload controllers that create
 * pods, the scheduler that binds them, the kubelets that run them, the endpoint controllers that publish
 * them, and the namespace controller and garbage collector that clean up.
 */
import type { Controller, ControllerContext } from './runtime.ts';
import { DaemonSetController } from './daemonset-controller.ts';
import { DeploymentController } from './deployment-controller.ts';
import { EndpointSliceController } from './endpointslice-controller.ts';
import { EndpointsController } from './endpoints-controller.ts';
import { GarbageCollector } from './garbage-collector.ts';
import { NamespaceController } from './namespace-controller.ts';
import { NodeIpamController } from './node-ipam-controller.ts';
import { ReplicaSetController } from './replicaset-controller.ts';
import { Scheduler } from './scheduler.ts';
import { ServiceLBController } from './servicelb-controller.ts';
import { MetalLBController } from './metallb-controller.ts';
import { IngressController } from './ingress-controller.ts';
import { GatewayController } from './gateway-controller.ts';
import { ServiceAccountsController } from './serviceaccounts-controller.ts';
import { RootCACertPublisher } from './root-ca-cert-publisher.ts';

/**
 * `kubelets` are the node agents (node/kubelet.ts), built by the composition root: they run after the
 * scheduler binds pods and before the endpoint controllers publish them.
 */
export function createControllers(ctx: ControllerContext, kubelets: readonly Controller[]): Controller[] {
  return [
    new NodeIpamController(ctx),
    new ServiceAccountsController(ctx),
    new RootCACertPublisher(ctx),
    new DeploymentController(ctx),
    new ReplicaSetController(ctx),
    new DaemonSetController(ctx),
    new Scheduler(ctx),
    ...kubelets,
    new EndpointSliceController(ctx),
    new EndpointsController(ctx),
    new ServiceLBController(ctx),
    new MetalLBController(ctx),
    new IngressController(ctx),
    new GatewayController(ctx),
    new NamespaceController(ctx),
    new GarbageCollector(ctx),
  ];
}
