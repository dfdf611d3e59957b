import { describe, expect, it } from 'vitest';
import { cidrContainsText, cidrSize, formatCidr, formatIPv4, nthAddress, nthSubnet, parseCidr, parseIPv4 } from './ip.ts';

describe('IPv4 helpers', () => {
  it('parses and formats addresses, rejecting bad ones', () => {
    expect(formatIPv4(parseIPv4('10.244.1.5')!)).toBe('10.244.1.5');
    for (const bad of ['10.244.1', '256.1.1.1', '01.2.3.4', 'a.b.c.d', '1.2.3.4.5']) expect(parseIPv4(bad)).toBeUndefined();
  });

  it('normalises CIDRs to their network like net.ParseCIDR', () => {
    expect(formatCidr(parseCidr('10.96.45.12/12')!)).toBe('10.96.0.0/12');
    expect(cidrSize(parseCidr('10.244.0.0/16')!)).toBe(65536);
  });

  it('the 10th address of 10.96.0.0/12 is kube-dns (kubeadm GetDNSIP)', () => {
    expect(formatIPv4(nthAddress(parseCidr('10.96.0.0/12')!, 10))).toBe('10.96.0.10');
    expect(formatIPv4(nthAddress(parseCidr('10.43.0.0/16')!, 10))).toBe('10.43.0.10');
  });

  it('splits a /16 into per-node /24s', () => {
    const pods = parseCidr('10.244.0.0/16')!;
    expect(formatCidr(nthSubnet(pods, 24, 2)!)).toBe('10.244.2.0/24');
    expect(nthSubnet(pods, 24, 256)).toBeUndefined();
  });

  it('containment', () => {
    expect(cidrContainsText('10.244.1.0/24', '10.244.1.254')).toBe(true);
    expect(cidrContainsText('10.244.1.0/24', '10.244.2.1')).toBe(false);
  });
});
