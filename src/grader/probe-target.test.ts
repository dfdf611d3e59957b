import { describe, expect, it } from 'vitest';
import { formatProbeTarget, parseProbeTarget } from './probe-target.ts';

describe('parseProbeTarget', () => {
  it.each([
    { name: 'name:port', to: 'api:8080', port: undefined, want: 'api:8080' },
    {
      name: 'name + port field',
      to: 'api.shop.svc.cluster.local',
      port: 80,
      want: 'api.shop.svc.cluster.local:80',
    },
    { name: 'IP:port', to: '10.96.0.10:53', port: undefined, want: '10.96.0.10:53' },
    {
      name: 'http URL, default port',
      to: 'http://api.shop/healthz',
      port: undefined,
      want: 'http://api.shop:80/healthz',
    },
    {
      name: 'https URL, default port',
      to: 'https://example.com',
      port: undefined,
      want: 'https://example.com:443/',
    },
    {
      name: 'URL with port',
      to: 'http://10.0.0.1:8080/x?y=1',
      port: undefined,
      want: 'http://10.0.0.1:8080/x?y=1',
    },
  ])('$name', ({ to, port, want }) => {
    const t = parseProbeTarget(to, port);
    expect('error' in t ? t.error : formatProbeTarget(t)).toBe(want);
  });

  it('marks UDP targets', () => {
    const t = parseProbeTarget('kube-dns.kube-system:53', undefined, 'UDP');
    expect('error' in t ? t.error : formatProbeTarget(t)).toBe('kube-dns.kube-system:53/UDP');
  });

  it.each([
    { name: 'no port at all', to: 'api', port: undefined, error: /give a port/ },
    { name: 'two different ports', to: 'api:80', port: 81, error: /says port 80 but port says 81/ },
    { name: 'port out of range', to: 'api:70000', port: undefined, error: /out of range/ },
    { name: 'not a host', to: 'bad_host!:80', port: undefined, error: /not a host name/ },
    { name: 'other scheme', to: 'ftp://x/', port: undefined, error: /only http/ },
  ])('rejects $name', ({ to, port, error }) => {
    const t = parseProbeTarget(to, port);
    expect('error' in t ? t.error : 'accepted').toMatch(error);
  });

  it('refuses a URL over UDP', () => {
    const t = parseProbeTarget('http://api/', undefined, 'UDP');
    expect('error' in t && t.error).toMatch(/needs protocol TCP/);
  });
});
