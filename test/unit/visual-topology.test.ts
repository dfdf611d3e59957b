import { describe, expect, it } from 'vitest';
import type { Pod, Service } from '../../src/engine/api/objects.ts';
import { cniDataplane } from '../../src/engine/dataplane/network/index.ts';
import { networkState } from '../../src/visual/host.ts';
import { elementId } from '../../src/visual/escape.ts';
import { COLLAPSE_AT, topologyModel } from '../../src/visual/topology/model.ts';
import {
  exportTopologySvg,
  renderTopologySvg,
  textListHtml,
  topologyText,
} from '../../src/visual/topology/index.ts';
import { dictionaryKeys } from '../../src/visual/strings.ts';
import { apply, crossNode, denyAllDefault, echoAllowClient } from './visual-fixtures.ts';

const cluster = crossNode('flannel');
const model = topologyModel(cluster.snapshot(), { dataplane: cniDataplane(cluster) });
const svg = renderTopologySvg(model, { locale: 'en' });

describe('topology model', () => {
  it('has every node with its IP and pod CIDR, as the Node objects say', () => {
    const nodes = cluster.store.list('nodes');
    expect(model.nodes.map((n) => n.name)).toEqual(nodes.map((n) => n.metadata.name).sort());
    for (const n of nodes) {
      const m = model.nodes.find((x) => x.name === n.metadata.name)!;
      expect(m.podCIDR).toBe(n.spec?.podCIDR);
      expect(m.ip).toBe(n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address);
      expect(svg).toContain(`pods ${m.podCIDR}`);
      expect(svg).toContain(`node IP ${m.ip}`);
    }
  });

  it('counts every pod once, with the IP and node the Pod objects say', () => {
    const pods = cluster.store.list('pods');
    const drawn = model.nodes.flatMap((n) => [...n.pods.map((p) => p.key), ...n.hostPods.map((p) => p.key)]);
    expect(drawn.length + model.unscheduled.length).toBe(pods.length);
    for (const p of pods.filter((x: Pod) => !x.spec?.hostNetwork)) {
      const m = model.nodes
        .flatMap((n) => n.pods)
        .find((x) => x.key === `${p.metadata.namespace}/${p.metadata.name}`)!;
      expect(m.ip).toBe(p.status?.podIP);
      expect(m.node).toBe(p.spec?.nodeName);
      expect(svg).toContain(`>${p.status?.podIP}<`);
    }
  });

  it('draws each Service as ClusterIP:port → targetPort with its ready backends', () => {
    const svc = cluster.store.get('services', 'default', 'only-b') as Service;
    const m = model.services.find((s) => s.key === 'default/only-b')!;
    expect(m.clusterIP).toBe(svc.spec?.clusterIP);
    expect(m.ports).toEqual([{ port: 80, targetPort: '8080', protocol: 'TCP' }]);
    expect(m.backends).toEqual(['default/echo-b']);
    expect(svg).toContain(`ClusterIP ${svc.spec?.clusterIP}`);
    expect(svg).toContain('80/TCP → 8080');
    expect(svg).toMatch(new RegExp(`data-from="${m.id}" data-to="${elementId('pod', 'default/echo-b')}"`));
    expect(model.services.some((s) => s.key === 'default/kubernetes')).toBe(false);
  });

  it('shows CoreDNS behind kube-dns and the rewrite mode', () => {
    const dns = model.services.find((s) => s.dns)!;
    expect(dns.clusterIP).toBe(cluster.config.dnsIP);
    expect(dns.backends.every((k) => k.startsWith('kube-system/coredns-'))).toBe(true);
    expect(model.rewrite).toBe('iptables');
    expect(svg).toContain('kube-proxy&#39;s iptables rules rewrite ClusterIP:port');
  });

  it.each([
    { cni: 'flannel', text: 'VXLAN over UDP 8472 (flannel.1)' },
    { cni: 'calico', text: 'BGP routes (BIRD, TCP 179) + IP-in-IP (tunl0)' },
    { cni: 'cilium', text: 'VXLAN over UDP 8472 (cilium_vxlan)' },
  ] as const)('draws the $cni overlay once, between the nodes', ({ cni, text }) => {
    const c = crossNode(cni);
    const s = renderTopologySvg(networkState(c).topology, { locale: 'en' });
    expect(s.split(text).length - 1).toBe(1);
    expect(s.match(/class="ppt-overlay"\/>/g)).toHaveLength(1);
  });

  it('is deterministic: the same snapshot gives the same SVG', () => {
    const again = topologyModel(cluster.snapshot(), { dataplane: cniDataplane(cluster) });
    expect(renderTopologySvg(again, { locale: 'en' })).toBe(svg);
    expect(renderTopologySvg(again, { locale: 'pt-BR' })).toBe(renderTopologySvg(model, { locale: 'pt-BR' }));
  });

  it('changes after an apply: a new policy is attached to the pods it selects', () => {
    const c = crossNode('calico');
    const before = networkState(c);
    expect(before.topology.policies).toEqual([]);
    apply(c, [echoAllowClient]);
    const after = networkState(c);
    expect(after.revision).toBeGreaterThan(before.revision);
    const pol = after.topology.policies[0]!;
    expect(pol).toMatchObject({ key: 'default/echo-allow-client', selector: 'app=echo', types: ['Ingress'] });
    expect(pol.selects).toEqual(['default/echo-a', 'default/echo-b']);
    expect(pol.ingress).toEqual([{ peers: ['pods run=client'], ports: ['TCP 8080'] }]);
    const s = renderTopologySvg(after.topology, { locale: 'en' });
    expect(s).toContain('from pods run=client · TCP 8080');
    expect(s.match(new RegExp(`class="ppt-e-pol" data-from="${pol.id}"`, 'g'))).toHaveLength(2);
  });

  it('says when the CNI ignores NetworkPolicy', () => {
    const c = crossNode('flannel');
    apply(c, [denyAllDefault]);
    const m = networkState(c).topology;
    expect(m.policyEnforced).toBe(false);
    expect(renderTopologySvg(m, { locale: 'en' })).toContain('not enforced by flannel');
    expect(renderTopologySvg(m, { locale: 'pt-BR' })).toContain('o flannel não aplica');
  });

  it('draws north-south entries (NodePort here) in their own colour, from the internet', () => {
    const np = model.entries.find((e) => e.kind === 'nodeport')!;
    expect(np.key).toBe('default/echo-np');
    expect(np.addresses).toEqual(model.nodes.map((n) => n.ip));
    expect(svg).toMatch(new RegExp(`class="ppt-e-ns" data-from="internet" data-to="${np.id}"`));
  });

  it(`groups pods by workload when a node has more than ${COLLAPSE_AT}`, () => {
    const c = crossNode('flannel');
    apply(
      c,
      Array.from({ length: 12 }, (_, i) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `web-${i}`, namespace: 'default', labels: { app: 'web' } },
        spec: { nodeName: 'kind-worker2', containers: [{ name: 'web', image: 'nginx' }] },
      })),
    );
    const m = networkState(c).topology;
    const w2 = m.nodes.find((n) => n.name === 'kind-worker2')!;
    expect(w2.groups?.find((g) => g.workload === 'web')?.podKeys).toHaveLength(12);
    const s = renderTopologySvg(m, { locale: 'en' });
    expect(s).toContain('web × 12');
    expect(s).not.toContain('>web-11<');
  });

  it('escapes hostile names and labels: no markup gets in', () => {
    const c = crossNode('calico');
    const evil = '"><script>alert(1)</script><svg onload=alert(2)>';
    apply(c, [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'x', namespace: 'default', labels: { app: 'a' } },
        spec: { nodeName: 'kind-worker', containers: [{ name: 'c', image: 'nginx' }] },
      },
    ]);
    // The API rejects such names, so write the hostile values straight into a snapshot.
    const snap = structuredClone(c.snapshot());
    for (const o of snap.store.objects) {
      if (o.resource === 'pods' && o.object.metadata.name === 'x') o.object.metadata.name = evil;
      if (o.resource === 'nodes' && o.object.metadata.name === 'kind-worker2')
        o.object.metadata.name = `${evil}&amp;`;
    }
    const m = topologyModel(snap);
    for (const s of [
      renderTopologySvg(m, { locale: 'en' }),
      exportTopologySvg(m, 'pt-BR', 'dark'),
      textListHtml(topologyText(m, 'en')),
    ]) {
      expect(
        s.match(/<script|<svg onload|="><|&amp;"/)?.[0],
        s.slice(
          Math.max(0, s.search(/<script|<svg onload|="><|&amp;"/) - 200),
          s.search(/<script|<svg onload|="><|&amp;"/) + 50,
        ),
      ).toBeUndefined();
      expect(s).toContain('&lt;script&gt;');
    }
    expect(elementId('pod', `default/${evil}`)).toMatch(/^pod-[a-z0-9-]+$/);
  });

  it('exports a standalone file with resolved colours', () => {
    const file = exportTopologySvg(model, 'en', 'light');
    expect(file.startsWith('<?xml')).toBe(true);
    expect(file).not.toContain('var(--');
    expect(svg).toContain('var(--sl-color-');
  });

  it('has a text equivalent with the same facts, in both languages', () => {
    const en = JSON.stringify(topologyText(model, 'en'));
    for (const n of model.nodes) expect(en).toContain(`IP ${n.ip}, pod CIDR ${n.podCIDR}`);
    for (const p of model.nodes.flatMap((n) => n.pods)) expect(en).toContain(`Pod ${p.key}, IP ${p.ip}`);
    expect(en).toContain('Between nodes: VXLAN over UDP 8472');
    const pt = JSON.stringify(topologyText(model, 'pt-BR'));
    expect(pt).toContain('Entre os nós: VXLAN sobre UDP 8472');
  });

  it('both locales define the same strings', () => {
    expect(dictionaryKeys('pt-BR')).toEqual(dictionaryKeys('en'));
  });
});
