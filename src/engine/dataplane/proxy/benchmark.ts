/**
 * Benchmark helper (not a test): 1,000 Services × 5 endpoints rendered in each mode, the budget of
 * issue 4 being `iptables-save` in ≤ 500 ms. The engine may not read the host clock, so the caller
 * passes `now` (e.g. `performance.now` in bench/run.mjs).
 */
import type { EndpointInfo } from './endpoints-map.ts';
import { iptablesSave } from '../netfilter/iptables-save.ts';
import { nftListTable } from '../netfilter/nft-list.ts';
import { renderIptables } from './iptables/sync-proxy-rules.ts';
import { ipvsadmList } from './ipvs/ipvsadm.ts';
import { renderIpvs } from './ipvs/sync-proxy-rules.ts';
import { renderNftables } from './nftables/sync-proxy-rules.ts';
import type { ProxyInput } from './proxy-input.ts';
import { servicePortKey, type ServicePortInfo } from './service-port-map.ts';

/** `services` ClusterIP Services in 10.96.0.0/12, each with `endpoints` ready pods spread over 3 nodes. */
export function buildScaleInput(services = 1000, endpoints = 5): ProxyInput {
  const servicePorts: ServicePortInfo[] = [];
  const eps = new Map<string, EndpointInfo[]>();
  for (let i = 0; i < services; i++) {
    const name = `svc-${String(i).padStart(4, '0')}`;
    const nameString = `default/${name}`;
    servicePorts.push({
      namespace: 'default',
      name,
      portName: '',
      nameString,
      protocol: 'TCP',
      clusterIP: `10.96.${1 + Math.floor(i / 250)}.${(i % 250) + 1}`,
      port: 80,
      nodePort: 0,
      targetPort: 8080,
      externalIPs: [],
      loadBalancerVIPs: [],
      loadBalancerSourceRanges: [],
      sessionAffinityClientIP: false,
      stickyMaxAgeSeconds: 0,
      externalPolicyLocal: false,
      internalPolicyLocal: false,
      healthCheckNodePort: 0,
    });
    const list: EndpointInfo[] = [];
    for (let e = 0; e < endpoints; e++) {
      const n = i * endpoints + e;
      const ip = `10.244.${Math.floor(n / 250) % 256}.${(n % 250) + 2}`;
      list.push({
        ip,
        port: 8080,
        endpoint: `${ip}:8080`,
        ready: true,
        serving: true,
        terminating: false,
        isLocal: e % 3 === 0,
        nodeName: ['kind-worker', 'kind-worker2', 'kind-control-plane'][e % 3] ?? '',
        zoneHints: [],
        nodeHints: [],
      });
    }
    eps.set(
      servicePortKey(nameString, 'TCP'),
      list.sort((a, b) => (a.endpoint < b.endpoint ? -1 : 1)),
    );
  }
  return {
    node: { name: 'kind-worker', ip: '172.18.0.3', labels: {} },
    servicePorts,
    endpoints: eps,
    clusterCIDR: '10.244.0.0/16',
    serviceCIDRs: ['10.96.0.0/12'],
  };
}

export interface BenchResult {
  readonly mode: 'iptables' | 'nftables' | 'ipvs';
  readonly renderMs: number;
  readonly printMs: number;
  readonly bytes: number;
}

export function runProxyBenchmark(now: () => number, services = 1000, endpoints = 5): BenchResult[] {
  const input = buildScaleInput(services, endpoints);
  const out: BenchResult[] = [];
  let t0 = now();
  const ipt = renderIptables(input);
  let t1 = now();
  const save = iptablesSave(ipt);
  out.push({ mode: 'iptables', renderMs: t1 - t0, printMs: now() - t1, bytes: save.length });
  t0 = now();
  const nft = renderNftables(input);
  t1 = now();
  const list = nftListTable(nft);
  out.push({ mode: 'nftables', renderMs: t1 - t0, printMs: now() - t1, bytes: list.length });
  t0 = now();
  const ipvs = renderIpvs(input);
  t1 = now();
  const adm = ipvsadmList(ipvs.virtualServers);
  out.push({ mode: 'ipvs', renderMs: t1 - t0, printMs: now() - t1, bytes: adm.length });
  return out;
}
