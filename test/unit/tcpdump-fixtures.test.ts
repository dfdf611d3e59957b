/**
 * The capture printer against real tcpdump on real traffic: scripts/capture-tcpdump-fixtures.sh
 * captured these pcaps with Debian's tcpdump 4.99 between network namespaces (a pod's eth0, a node's
 * bridge, the VXLAN underlay on UDP 8472, `-i any`) and kept what `tcpdump -nn -r` printed, plain, with
 * `-e -v` and with `-X`. Our printer must print the same lines from the same bytes. For `-i any`, the
 * interface column is the reading host's guess (tcpdump warns "interface names might be incorrect"),
 * so it is left out of the comparison.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPcap } from '../../src/engine/dataplane/capture/pcap.ts';
import { Printer, type PrintOptions } from '../../src/engine/dataplane/capture/print.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'testdata/tcpdump');
const FIXTURES = ['pod-eth0', 'node-bridge', 'node-underlay', 'node-any'];
const BASE: PrintOptions = {
  numericPorts: true,
  ether: false,
  verbose: 0,
  quiet: false,
  timestamps: 'default',
  hex: 0,
  hexLink: false,
  ascii: false,
};
const VARIANTS: [string, PrintOptions][] = [
  ['txt', BASE],
  ['ev.txt', { ...BASE, ether: true, verbose: 1 }],
  ['X.txt', { ...BASE, hex: 2 }],
];

/** Drops the `-i any` interface column (`ifb1  In  IP` → `In  IP`). */
function withoutIfname(line: string): string {
  return line.replace(/^(\d\d:\d\d:\d\d\.\d{6} )\S+ +(In |Out|B  |M  |P  ) /, '$1$2 ');
}

describe('the printer prints what Debian tcpdump printed for real captures', () => {
  for (const name of FIXTURES)
    for (const [suffix, opts] of VARIANTS)
      it(`${name} (${suffix})`, () => {
        const pcap = readPcap(readFileSync(join(dir, `${name}.pcap`)));
        if ('error' in pcap) throw new Error(pcap.error);
        const printer = new Printer(opts);
        const ours = pcap.records
          .map((r) => `${printer.print(r.data, pcap.linktype, r.seconds * 1000, r.micros)}\n`)
          .join('');
        const real = readFileSync(join(dir, `${name}.${suffix}`), 'utf8');
        const norm = (t: string) => t.split('\n').map(withoutIfname).join('\n');
        expect(norm(ours)).toBe(norm(real));
      });
});
