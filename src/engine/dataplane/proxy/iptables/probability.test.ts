import { describe, expect, it } from 'vitest';
import { computeProbability, iptablesSaveProbability, probabilityToFixedPoint } from './probability.ts';

// kubernetes-facts §1.3: kube-proxy's %0.10f text, libxt_statistic's stored u32, iptables-save's %.11f.
describe.each([
  { n: 2, written: '0.5000000000', stored: 0x40000000, saved: '0.50000000000' },
  { n: 3, written: '0.3333333333', stored: 0x2aaaaaab, saved: '0.33333333349' },
  { n: 4, written: '0.2500000000', stored: 0x20000000, saved: '0.25000000000' },
  { n: 5, written: '0.2000000000', stored: 0x1999999a, saved: '0.20000000019' },
  { n: 6, written: '0.1666666667', stored: 0x15555555, saved: '0.16666666651' },
  { n: 7, written: '0.1428571429', stored: 0x12492492, saved: '0.14285714272' },
  { n: 8, written: '0.1250000000', stored: 0x10000000, saved: '0.12500000000' },
  { n: 10, written: '0.1000000000', stored: 0x0ccccccd, saved: '0.10000000009' },
])('1/$n', ({ n, written, stored, saved }) => {
  it('is written by kube-proxy with %0.10f', () => expect(computeProbability(n)).toBe(written));
  it('is stored by libxt_statistic as lround(2^31 p)', () =>
    expect(probabilityToFixedPoint(written)).toBe(stored));
  it('is printed by iptables-save with %.11f', () => expect(iptablesSaveProbability(written)).toBe(saved));
});

describe('old kube-proxy (%0.5f, before kubernetes#83599)', () => {
  it('explains the 0.33332999982 seen in old captures', () =>
    expect(iptablesSaveProbability('0.33333')).toBe('0.33332999982'));
});

it('prints 1/9 through the same fixed point', () => {
  // 0x0e38e38e / 2^31: computed by hand from lround(2^31 * 0.1111111111).
  expect(probabilityToFixedPoint(computeProbability(9))).toBe(0x0e38e38e);
});
