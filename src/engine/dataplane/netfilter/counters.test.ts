/**
 * Rule counters: netfilter counts every packet a rule matches and every packet a built-in chain's
 * policy takes (iptables(8): "packet and byte counters"); `iptables -L -v` prints them through
 * libxtables `xtables_print_num`, `iptables-save` puts a built-in chain's on its `:CHAIN POLICY [p:b]`
 * line and, with -c, every rule's before it; -Z zeroes them. kube-proxy rewrites its top-level chains
 * on every sync and, in a partial sync, leaves unchanged Services' chains alone (`--noflush
 * --counters`), so the counts of KUBE-SVC-… survive an unrelated change and KUBE-SERVICES's start over.
 */
import { describe, expect, it } from 'vitest';
import { clusterIP, exec, scenario, service } from '../network/test-helpers.ts';
import { xtablesNum } from './iptables-list.ts';
import type { Cluster } from '../../cluster/cluster.ts';

describe('xtables_print_num', () => {
  const table = { exact: false, table: true };
  it('prints up to 99999 as it is in `%5llu `, then rounds to K, M, G, T in `%4llu` plus the unit', () => {
    expect(xtablesNum(0, table)).toBe('    0 ');
    expect(xtablesNum(60, table)).toBe('   60 ');
    expect(xtablesNum(99999, table)).toBe('99999 ');
    expect(xtablesNum(100000, table)).toBe(' 100K ');
    expect(xtablesNum(123499, table)).toBe(' 123K ');
    expect(xtablesNum(123500, table)).toBe(' 124K ');
    expect(xtablesNum(9999499, table)).toBe('9999K ');
    // (9999500 + 500) / 1000 = 10000 > 9999: one more division, (10000 + 500) / 1000 = 10.
    expect(xtablesNum(9999500, table)).toBe('  10M ');
    expect(xtablesNum(5_000_000_000, table)).toBe('5000M ');
    expect(xtablesNum(50_000_000_000, table)).toBe('  50G ');
    expect(xtablesNum(70_000_000_000_000, table)).toBe('  70T ');
  });

  it('-x prints the exact count in `%8llu `; outside a table (the policy line) nothing is padded', () => {
    expect(xtablesNum(123456, { exact: true, table: true })).toBe('  123456 ');
    expect(xtablesNum(123456, { exact: true, table: false })).toBe('123456 ');
    expect(xtablesNum(123456, { exact: false, table: false })).toBe('123K ');
  });
});

/** A line of `kubectl debug node/…` output for a host command, as a learner runs it. */
function onNode(c: Cluster, node: string, line: string): string {
  c.execSync(`kubectl debug node/${node} -it --image=busybox`, { interactive: true });
  const r = c.execSync(`chroot /host ${line}`, { interactive: true });
  c.execSync('exit', { interactive: true });
  return r.stdout + r.stderr;
}

function ruleRow(listing: string, needle: string): string {
  const row = listing.split('\n').find((l) => l.includes(needle));
  if (!row) throw new Error(`no row with ${needle} in:\n${listing}`);
  return row;
}

describe('iptables counters on a node (kube-proxy in iptables mode)', () => {
  it('count the first packet of each connection through the rules it matched, 60 bytes a SYN', () => {
    const c = scenario('flannel', 'iptables', 41);
    const ip = clusterIP(c, 'server');
    for (let i = 0; i < 3; i++)
      expect(exec(c, 'curl', `curl -s -o /dev/null http://${ip}/`).exitCode).toBe(0);
    const services = onNode(c, 'kind-worker', 'iptables -t nat -L KUBE-SERVICES -n -v');
    expect(ruleRow(services, `default/server cluster IP`)).toMatch(/^ {4}3 {3}180 KUBE-SVC-\S+ +tcp/);
    // Every other Service's rule saw nothing.
    expect(ruleRow(services, 'default/echo cluster IP')).toMatch(/^ {4}0 {5}0 KUBE-SVC-/);
    // The packets came from a local pod: nat PREROUTING's jump to KUBE-SERVICES counted them too.
    const prerouting = onNode(c, 'kind-worker', 'iptables -t nat -L PREROUTING -n -v');
    expect(ruleRow(prerouting, 'kubernetes service portals')).toMatch(/^ {4}3 {3}180 KUBE-SERVICES/);
    // The other node saw none of it.
    const other = onNode(c, 'kind-worker2', 'iptables -t nat -L KUBE-SERVICES -n -v');
    expect(ruleRow(other, 'default/server cluster IP')).toMatch(/^ {4}0 {5}0 /);
  });

  it('iptables-save prints the policy counters on the chain lines and, with -c, every rule’s', () => {
    const c = scenario('flannel', 'iptables', 41);
    const ip = clusterIP(c, 'server');
    exec(c, 'curl', `curl -s -o /dev/null http://${ip}/`);
    const save = onNode(c, 'kind-worker', 'iptables-save -t nat -c');
    expect(save).toMatch(
      /^\[1:60\] -A KUBE-SERVICES -d \S+\/32 -p tcp -m comment --comment "default\/server cluster IP"/m,
    );
    expect(save).toMatch(
      /^\[0:0\] -A KUBE-SERVICES -d \S+\/32 -p tcp -m comment --comment "default\/echo cluster IP"/m,
    );
    // The SYN went on through the rules to the pod on the other side: POSTROUTING's policy took it.
    expect(save).toMatch(/^:POSTROUTING ACCEPT \[1:60\]$/m);
    // Without -c the rules carry no counters.
    expect(onNode(c, 'kind-worker', 'iptables-save -t nat')).not.toMatch(/^\[\d+:\d+\] -A/m);
  });

  it('-Z zeroes the counters of a table or one chain; with -L it lists them first', () => {
    const c = scenario('flannel', 'iptables', 41);
    const ip = clusterIP(c, 'server');
    exec(c, 'curl', `curl -s -o /dev/null http://${ip}/`);
    const listed = onNode(c, 'kind-worker', 'iptables -t nat -L KUBE-SERVICES -n -v -Z');
    expect(ruleRow(listed, 'default/server cluster IP')).toMatch(/^ {4}1 {4}60 /);
    const after = onNode(c, 'kind-worker', 'iptables -t nat -L KUBE-SERVICES -n -v');
    expect(ruleRow(after, 'default/server cluster IP')).toMatch(/^ {4}0 {5}0 /);
    // Another chain of the table kept its count until the table-wide -Z.
    expect(ruleRow(onNode(c, 'kind-worker', 'iptables -t nat -nvL PREROUTING'), 'portals')).toMatch(
      /^ {4}1 /,
    );
    expect(onNode(c, 'kind-worker', 'iptables -t nat -Z')).toBe('');
    expect(ruleRow(onNode(c, 'kind-worker', 'iptables -t nat -nvL PREROUTING'), 'portals')).toMatch(
      /^ {4}0 /,
    );
    expect(onNode(c, 'kind-worker', 'iptables -t nat -Z NOPE')).toMatch(/chain `NOPE' in table `nat'/);
  });

  it("a sync starts KUBE-SERVICES's counts over; an unchanged Service's own chains keep theirs", () => {
    const c = scenario('flannel', 'iptables', 41);
    const ip = clusterIP(c, 'server');
    exec(c, 'curl', `curl -s -o /dev/null http://${ip}/`);
    const chain = /KUBE-SVC-\w+/.exec(
      ruleRow(onNode(c, 'kind-worker', 'iptables -t nat -L KUBE-SERVICES -n'), 'default/server cluster IP'),
    )![0];
    const svcChainHits = () =>
      onNode(c, 'kind-worker', `iptables -t nat -L ${chain} -n -v`)
        .split('\n')
        .filter((l) => l.includes('KUBE-SEP-'))
        .reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[0]), 0);
    expect(svcChainHits()).toBe(1);
    // An unrelated Service: kube-proxy syncs, rewriting KUBE-SERVICES but not default/server's chains.
    c.api.create(service('other', { app: 'nobody' }, 81, 81));
    c.settle();
    expect(
      ruleRow(
        onNode(c, 'kind-worker', 'iptables -t nat -L KUBE-SERVICES -n -v'),
        'default/server cluster IP',
      ),
    ).toMatch(/^ {4}0 {5}0 /);
    expect(svcChainHits()).toBe(1);
    // default/server's endpoints change: its chains are written again and start from zero.
    c.execSync('kubectl delete pod server-b --grace-period=0 --force');
    c.settle();
    expect(svcChainHits()).toBe(0);
  });

  it('a pod’s own network namespace has no rules to count', () => {
    const c = scenario('flannel', 'iptables', 41);
    exec(c, 'curl', `curl -s -o /dev/null http://${clusterIP(c, 'server')}/`);
    const r = c.execSync('kubectl exec netshoot -- iptables -t nat -L -n -v');
    expect(r.stdout).toContain('Chain PREROUTING (policy ACCEPT 0 packets, 0 bytes)');
    expect(r.stdout).not.toContain('KUBE-SERVICES');
  });
});

describe('iptables counters with kube-proxy in IPVS mode', () => {
  it("count the ipset rules of KUBE-SERVICES that send a ClusterIP's packets to IPVS", () => {
    const c = scenario('flannel', 'ipvs', 41);
    const ip = clusterIP(c, 'server');
    for (let i = 0; i < 2; i++) exec(c, 'curl', `curl -s -o /dev/null http://${ip}/`);
    const save = onNode(c, 'kind-worker', 'iptables-save -t nat -c');
    expect(save).toMatch(/^\[2:120\] -A KUBE-SERVICES .*KUBE-CLUSTER-IP dst,dst/m);
  });
});
