import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocateIP, hostLocalRange } from './ipam.ts';
import { Rng } from '../util/rng.ts';
import { cidrContainsText } from '../util/ip.ts';

describe('host-local IPAM', () => {
  it('walks forward from the last reserved address, skipping the gateway, and wraps', () => {
    const range = hostLocalRange('10.244.1.0/24')!;
    expect(range.text).toBe('10.244.1.1-10.244.1.254');
    const rng = new Rng(1);
    expect(allocateIP(range, new Set(), undefined, rng)).toEqual({ ip: '10.244.1.2' });
    expect(allocateIP(range, new Set(['10.244.1.2']), '10.244.1.2', rng)).toEqual({ ip: '10.244.1.3' });
    // .3 was freed but the pointer is past it: the next pod gets .4, not the freed address.
    expect(allocateIP(range, new Set(['10.244.1.2']), '10.244.1.3', rng)).toEqual({ ip: '10.244.1.4' });
    expect(allocateIP(range, new Set(), '10.244.1.254', rng)).toEqual({ ip: '10.244.1.2' });
  });

  it('the 254th pod of a /24 finds the range exhausted', () => {
    const range = hostLocalRange('10.244.1.0/24')!;
    const used = new Set<string>();
    let last: string | undefined;
    const rng = new Rng(1);
    for (let i = 0; i < 253; i++) {
      const a = allocateIP(range, used, last, rng);
      if (!('ip' in a)) throw new Error(a.error);
      used.add(a.ip);
      last = a.ip;
    }
    expect(allocateIP(range, used, last, rng)).toEqual({
      error: 'no IP addresses available in range set: 10.244.1.1-10.244.1.254',
    });
  });

  it('never hands out an address twice or outside the range (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 300 }), (ops) => {
        const range = hostLocalRange('10.244.3.0/26')!;
        const used: string[] = [];
        let last: string | undefined;
        const rng = new Rng(3);
        for (const allocate of ops) {
          if (allocate || used.length === 0) {
            const a = allocateIP(range, new Set(used), last, rng);
            if ('ip' in a) {
              expect(used).not.toContain(a.ip);
              expect(cidrContainsText('10.244.3.0/26', a.ip)).toBe(true);
              expect(a.ip).not.toBe('10.244.3.1');
              used.push(a.ip);
              last = a.ip;
            } else expect(used).toHaveLength(61);
          } else used.shift();
        }
      }),
    );
  });
});
