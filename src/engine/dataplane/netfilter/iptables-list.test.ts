/**
 * `iptables -L -n` lines as iptables 1.8 prints them (iptables.c print_header/print_firewall and the
 * libxt print functions). Expected lines are the familiar ones of real kube-proxy nodes, e.g.
 * `MARK       all  --  0.0.0.0/0            0.0.0.0/0            MARK or 0x4000` and
 * `KUBE-MARK-MASQ  tcp  -- !10.244.0.0/16        10.96.0.1            /* default/kubernetes:https cluster IP *\/ tcp dpt:443`.
 */
import { describe, expect, it } from 'vitest';
import { iptablesList } from './iptables-list.ts';
import { emptyRuleset, ensureChain, ensureTable } from './ruleset.ts';

describe('iptables -L', () => {
  const rs = emptyRuleset();
  ensureTable(rs, 'nat');
  ensureChain(rs, 'nat', 'KUBE-MARK-MASQ').rules.push({
    matches: [],
    target: { kind: 'MARK', op: 'or', value: 0x4000 },
  });
  ensureChain(rs, 'nat', 'KUBE-SVC-NPX46M4PTMTKRN6Y').rules.push({
    source: { cidr: '10.244.0.0/16', negate: true },
    destination: { cidr: '10.96.0.1' },
    protocol: 'tcp',
    matches: [
      { kind: 'comment', comment: 'default/kubernetes:https cluster IP' },
      { kind: 'l4', proto: 'tcp', dport: 443 },
    ],
    target: { kind: 'jump', chain: 'KUBE-MARK-MASQ' },
  });
  ensureChain(rs, 'nat', 'cali-POSTROUTING').rules.push({
    matches: [{ kind: 'comment', comment: 'cali:flqWnvo8yq4ULQLa' }],
    target: { kind: 'text', text: '-j MARK --set-xmark 0x0/0xe0000' },
  });

  it('prints the chain title with its policy or reference count and the column header', () => {
    const out = iptablesList(rs, 'nat', { numeric: true, chain: 'KUBE-MARK-MASQ' })!;
    expect(out.split('\n').slice(0, 3)).toEqual([
      'Chain KUBE-MARK-MASQ (1 references)',
      'target     prot opt source               destination         ',
      'MARK       all  --  0.0.0.0/0            0.0.0.0/0            MARK or 0x4000',
    ]);
    expect(iptablesList(rs, 'nat', { numeric: true })!.split('\n')[0]).toBe(
      'Chain PREROUTING (policy ACCEPT)',
    );
  });

  it('negated sources, host addresses without /32, matches in order, names without -n', () => {
    const rule = iptablesList(rs, 'nat', { numeric: true, chain: 'KUBE-SVC-NPX46M4PTMTKRN6Y' })!.split(
      '\n',
    )[2];
    expect(rule).toBe(
      'KUBE-MARK-MASQ  tcp  -- !10.244.0.0/16        10.96.0.1            /* default/kubernetes:https cluster IP */ tcp dpt:443',
    );
    const named = iptablesList(rs, 'nat', { numeric: false, chain: 'KUBE-SVC-NPX46M4PTMTKRN6Y' })!.split(
      '\n',
    )[2];
    expect(named).toContain(' tcp dpt:https');
    expect(iptablesList(rs, 'nat', { numeric: false, chain: 'KUBE-MARK-MASQ' })).toContain(
      'MARK       all  --  anywhere             anywhere             MARK or 0x4000',
    );
  });

  it("prints a cleared mark as libxt_MARK's and-mask", () => {
    expect(iptablesList(rs, 'nat', { numeric: true, chain: 'cali-POSTROUTING' })).toContain(
      '/* cali:flqWnvo8yq4ULQLa */ MARK and 0xfff1ffff',
    );
  });

  it('a missing chain is undefined', () => {
    expect(iptablesList(rs, 'nat', { numeric: true, chain: 'NOPE' })).toBeUndefined();
  });

  it('-v adds the counters and in/out columns (print_header: `%5s ` pkts/bytes, ` %-6s ` in, `%-6s ` out)', () => {
    const out = iptablesList(rs, 'nat', {
      numeric: true,
      verbose: true,
      chain: 'KUBE-SVC-NPX46M4PTMTKRN6Y',
    })!;
    expect(out.split('\n').slice(0, 3)).toEqual([
      'Chain KUBE-SVC-NPX46M4PTMTKRN6Y (0 references)',
      ' pkts bytes target     prot opt in     out     source               destination         ',
      '    0     0 KUBE-MARK-MASQ  tcp  --  *      *      !10.244.0.0/16        10.96.0.1            /* default/kubernetes:https cluster IP */ tcp dpt:443',
    ]);
    // A built-in chain's policy carries its counters, unpadded (FMT_NOTABLE).
    expect(iptablesList(rs, 'nat', { numeric: true, verbose: true })!.split('\n')[0]).toBe(
      'Chain PREROUTING (policy ACCEPT 0 packets, 0 bytes)',
    );
  });

  it("-v without -n names any interface `any`; a rule's own interface is printed as given", () => {
    const v = emptyRuleset();
    ensureChain(v, 'filter', 'cali-INPUT').rules.push({
      inInterface: 'cali+',
      matches: [],
      target: { kind: 'goto', chain: 'cali-wl-to-host' },
    });
    expect(
      iptablesList(v, 'filter', { numeric: false, verbose: true, chain: 'cali-INPUT' })!.split('\n')[2],
    ).toBe(
      '    0     0 cali-wl-to-host  all  --  cali+  any     anywhere             anywhere            [goto] ',
    );
  });

  it('-x prints exact counts `%8llu ` under the `%8s %10s` header; --line-numbers leads with `%-4u `', () => {
    const out = iptablesList(rs, 'nat', {
      numeric: true,
      verbose: true,
      exact: true,
      lineNumbers: true,
      chain: 'KUBE-MARK-MASQ',
    })!;
    expect(out.split('\n').slice(1, 3)).toEqual([
      'num      pkts      bytes target     prot opt in     out     source               destination         ',
      '1           0        0 MARK       all  --  *      *       0.0.0.0/0            0.0.0.0/0            MARK or 0x4000',
    ]);
    expect(
      iptablesList(rs, 'nat', { numeric: true, lineNumbers: true, chain: 'KUBE-MARK-MASQ' })!
        .split('\n')
        .slice(1, 3),
    ).toEqual([
      'num  target     prot opt source               destination         ',
      '1    MARK       all  --  0.0.0.0/0            0.0.0.0/0            MARK or 0x4000',
    ]);
  });
});
