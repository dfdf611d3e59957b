import { describe, expect, it } from 'vitest';
import { sha256Base32 } from '../hash.ts';
import { base32Encode } from '../../../util/encoding.ts';
import {
  isServiceChainName,
  portProtoHash,
  serviceExternalChainName,
  servicePortEndpointChainName,
  servicePortPolicyClusterChain,
} from './chain-names.ts';

describe('base32 (RFC 4648 §10 test vectors)', () => {
  it.each([
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ])('%j → %j', (input, output) => {
    expect(base32Encode(Uint8Array.from([...input].map((c) => c.charCodeAt(0))))).toBe(output);
  });

  it('encodes a sha256 as 56 characters ending in one "=" (32 bytes = 256 bits)', () => {
    expect(sha256Base32('x')).toMatch(/^[A-Z2-7]{52}====$/);
  });
});

describe('iptables chain names', () => {
  it.each([
    // upstream proxier_test.go fixtures
    { name: 'ns1/svc1:p80', proto: 'tcp', chain: 'KUBE-SVC-XPGD46QRK7WJZT7O' },
    { name: 'ns2/svc2:p80', proto: 'tcp', chain: 'KUBE-SVC-GNZBNJ2PO5MGZ6GT' },
    { name: 'ns3/svc3:p80', proto: 'tcp', chain: 'KUBE-SVC-X27LE4BHSL4DOUIK' },
    { name: 'ns4/svc4:p80', proto: 'tcp', chain: 'KUBE-SVC-4SW47YFZTEDKD3PK' },
    // fact-check row 29 (unnamed port: no trailing colon)
    { name: 'default/myapp', proto: 'tcp', chain: 'KUBE-SVC-XJWXQFJLXSXKRMSG' },
    // real kind captures (kubernetes-facts §1.6 and a kind worker dump)
    { name: 'default/webpod', proto: 'tcp', chain: 'KUBE-SVC-CNZCPOCNCNOROALA' },
    { name: 'kube-system/kube-dns:dns', proto: 'udp', chain: 'KUBE-SVC-TCOU7JCQXEZGVUNU' },
    { name: 'kube-system/kube-dns:dns-tcp', proto: 'tcp', chain: 'KUBE-SVC-ERIFXISQEP7F7OF4' },
    { name: 'kube-system/kube-dns:metrics', proto: 'tcp', chain: 'KUBE-SVC-JD5MR3NA4I4DYORP' },
    { name: 'default/kubernetes:https', proto: 'tcp', chain: 'KUBE-SVC-NPX46M4PTMTKRN6Y' },
    { name: 'default/my-nginx', proto: 'tcp', chain: 'KUBE-SVC-L65ENXXZWWSAPRCR' },
  ])('$name/$proto → $chain', ({ name, proto, chain }) => {
    expect(servicePortPolicyClusterChain(name, proto)).toBe(chain);
  });

  it.each([
    { name: 'ns1/svc1:p80', ep: '10.180.0.1:80', chain: 'KUBE-SEP-SXIVWICOYRO3J4NJ' },
    { name: 'ns2/svc2:p80', ep: '10.180.0.2:80', chain: 'KUBE-SEP-RS4RBKLTHTF2IUXJ' },
    { name: 'default/myapp', ep: '10.244.1.5:8080', chain: 'KUBE-SEP-WLYVOW5B34UXGTXE' },
    { name: 'default/myapp', ep: '10.244.2.9:8080', chain: 'KUBE-SEP-34LS3ZANCONOJEXA' },
    { name: 'default/webpod', ep: '10.244.1.4:80', chain: 'KUBE-SEP-NBAMRQIHYPBRH37V' },
    { name: 'default/my-nginx', ep: '10.244.2.3:80', chain: 'KUBE-SEP-TIQJFJVSHRJZTTZW' },
    {
      name: 'kube-system/kube-dns:dns',
      ep: '10.244.0.3:53',
      chain: 'KUBE-SEP-6E7XQMQ4RAYOWTTM',
      proto: 'udp',
    },
    { name: 'default/kubernetes:https', ep: '172.20.0.2:6443', chain: 'KUBE-SEP-ME73ZWD7U6KL3OSU' },
  ])('$name → $ep is $chain', ({ name, ep, chain, proto }) => {
    expect(servicePortEndpointChainName(name, proto ?? 'tcp', ep)).toBe(chain);
  });

  it('shares one hash between SVC, EXT (and SVL, FW) chains of a service port', () => {
    expect(portProtoHash('ns2/svc2:p80', 'tcp')).toBe('GNZBNJ2PO5MGZ6GT');
    expect(serviceExternalChainName('ns2/svc2:p80', 'tcp')).toBe('KUBE-EXT-GNZBNJ2PO5MGZ6GT');
  });

  it('recognises service chains and nothing else', () => {
    expect(
      ['KUBE-SVC-X', 'KUBE-SVL-X', 'KUBE-SEP-X', 'KUBE-FW-X', 'KUBE-EXT-X'].every(isServiceChainName),
    ).toBe(true);
    expect(['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-MARK-MASQ'].some(isServiceChainName)).toBe(false);
  });
});
