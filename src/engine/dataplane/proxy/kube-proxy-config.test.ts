import { describe, expect, it } from 'vitest';
import { parseKubeProxyConfiguration } from './kube-proxy-config.ts';

// Parses are kept by text (every restored cluster's kube-proxy reads the same ConfigMap): a kept
// result must be exactly what parsing gives, for valid and invalid texts alike.
describe('parseKubeProxyConfiguration, parsed once per text', () => {
  it('gives the same settings on every call with one text, and other settings for another', () => {
    const ipvs = 'mode: ipvs\nipvs:\n  scheduler: rr\nclusterCIDR: 10.244.0.0/16\n';
    const first = parseKubeProxyConfiguration(ipvs);
    expect(first).toEqual({
      ok: true,
      settings: {
        mode: 'ipvs',
        configuredMode: 'ipvs',
        scheduler: 'rr',
        clusterCIDR: '10.244.0.0/16',
        masqueradeAll: false,
      },
    });
    expect(parseKubeProxyConfiguration(ipvs)).toEqual(first);
    const nft = parseKubeProxyConfiguration('mode: nftables\nnftables:\n  masqueradeAll: true\n');
    expect(nft.ok && nft.settings).toMatchObject({ mode: 'nftables', masqueradeAll: true });
  });

  it('reports the same error for an invalid text each time', () => {
    for (let i = 0; i < 2; i++) {
      const r = parseKubeProxyConfiguration('mode: [unclosed');
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(/^failed to decode kube-proxy configuration: /);
    }
  });

  it('parses texts too big to keep like any other', () => {
    const big = `mode: iptables\n# ${'x'.repeat(70 * 1024)}\n`;
    const r = parseKubeProxyConfiguration(big);
    expect(r.ok && r.settings.mode).toBe('iptables');
    expect(parseKubeProxyConfiguration(big)).toEqual(r);
  });
});
