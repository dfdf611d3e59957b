/**
 * CoreDNS's first log line: coremain/run.go (v1.12.0 on, coredns#6948) hands log.Printf to
 * go.uber.org/automaxprocs v1.6.0 `maxprocs.Set`, whose messages are quoted here (maxprocs.go; the
 * quota is rounded down with a minimum of 1, internal/runtime/cpu_quota_linux.go).
 */
import { describe, expect, it } from 'vitest';
import { maxprocsLine, type MaxprocsContext } from './log-plugin.ts';

describe('automaxprocs line', () => {
  it.each<{ name: string; ctx: MaxprocsContext; want: string }>([
    {
      name: 'no CPU limit (kubeadm’s CoreDNS)',
      ctx: { env: {}, nodeCpus: 8 },
      want: 'maxprocs: Leaving GOMAXPROCS=8: CPU quota undefined',
    },
    {
      name: 'a 2-CPU limit',
      ctx: { env: {}, cpuLimit: '2', nodeCpus: 8 },
      want: 'maxprocs: Updating GOMAXPROCS=2: determined from CPU quota',
    },
    {
      name: '1500m rounds down',
      ctx: { env: {}, cpuLimit: '1500m', nodeCpus: 8 },
      want: 'maxprocs: Updating GOMAXPROCS=1: determined from CPU quota',
    },
    {
      name: 'under one CPU',
      ctx: { env: {}, cpuLimit: '500m', nodeCpus: 8 },
      want: 'maxprocs: Updating GOMAXPROCS=1: using minimum allowed GOMAXPROCS',
    },
    {
      name: 'GOMAXPROCS in the env',
      ctx: { env: { GOMAXPROCS: '4' }, cpuLimit: '2', nodeCpus: 8 },
      want: 'maxprocs: Honoring GOMAXPROCS="4" as set in environment',
    },
  ])('$name', ({ ctx, want }) => {
    expect(maxprocsLine(ctx)).toBe(want);
  });
});
