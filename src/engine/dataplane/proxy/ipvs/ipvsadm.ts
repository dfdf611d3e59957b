/**
 * `ipvsadm -Ln`, as ipvsadm 1.31 prints it (kubernetes-facts §3): the version header, the two column
 * headers, `%-4s %s` for the protocol and address, the scheduler and `persistent N`, then each real
 * server as `  -> %-28s %-7s %-6d %-10u %-10u`. Virtual servers sorted by protocol number, address
 * and port (libipvs `ipvs_cmp_services`), real servers by address and port.
 */
import { compareIPs } from './sync-proxy-rules.ts';
import { realServerKey, virtualServerKey, type VirtualServer } from './ipvs-model.ts';

export interface ConnectionCounts {
  readonly active: number;
  readonly inactive: number;
}

/** `virtualServerKey -> realServerKey` → counts; missing means 0/0. */
export type IpvsCounters = ReadonlyMap<string, ConnectionCounts>;

const PROTO_NUMBER: Readonly<Record<string, number>> = { TCP: 6, UDP: 17, SCTP: 132 };

export function counterKey(vs: VirtualServer, rs: { address: string; port: number }): string {
  return `${virtualServerKey(vs)} -> ${realServerKey(rs)}`;
}

export function ipvsadmList(
  virtualServers: readonly VirtualServer[],
  counters: IpvsCounters = new Map(),
): string {
  const out = [
    'IP Virtual Server version 1.2.1 (size=4096)',
    'Prot LocalAddress:Port Scheduler Flags',
    '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
  ];
  const sorted = [...virtualServers].sort(
    (a, b) =>
      (PROTO_NUMBER[a.protocol] ?? 0) - (PROTO_NUMBER[b.protocol] ?? 0) ||
      compareIPs(a.address, b.address) ||
      a.port - b.port,
  );
  for (const vs of sorted) {
    let line = `${vs.protocol.padEnd(4)} ${vs.address}:${vs.port} ${vs.scheduler}`;
    if (vs.persistent !== undefined) line += ` persistent ${vs.persistent}`;
    out.push(line);
    const rss = [...vs.realServers].sort((a, b) => compareIPs(a.address, b.address) || a.port - b.port);
    for (const rs of rss) {
      const c = counters.get(counterKey(vs, rs)) ?? { active: 0, inactive: 0 };
      out.push(
        `  -> ${`${rs.address}:${rs.port}`.padEnd(28)} ${'Masq'.padEnd(7)} ${String(rs.weight).padEnd(6)} ${String(c.active).padEnd(10)} ${String(c.inactive).padEnd(10)}`,
      );
    }
  }
  return out.join('\n') + '\n';
}
