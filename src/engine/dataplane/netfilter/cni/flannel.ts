/**
 * flannel's iptables rules (flannel-io/flannel `pkg/trafficmngr/iptables`: forward rules, and the masquerade
 * rules of `--ip-masq`), the same from kube-flannel.yml and from k3s's embedded flannel:
 * `FLANNEL-FWD` accepts forwarding to and from the cluster network; `FLANNEL-POSTRTG` leaves traffic
 * kube-proxy already marked for masquerade and pod-to-pod traffic alone, and masquerades pods leaving
 * the cluster network (never multicast). Both are hooked at the end of FORWARD / POSTROUTING.
 */
import { comment, type IptablesRule } from '../rule.ts';
import type { CniChainSet } from './chain-set.ts';

const FWD = 'flanneld forward';
const MASQ = 'flanneld masq';

export function flannelChains(network: string, lease: string): CniChainSet {
  const masq = (rule: Omit<IptablesRule, 'matches'>, extra: IptablesRule['matches'] = []): IptablesRule => ({
    ...rule,
    matches: [...extra, comment(MASQ)],
  });
  return [
    {
      table: 'filter',
      chain: 'FORWARD',
      position: 'append',
      rules: [{ matches: [comment(FWD)], target: { kind: 'jump', chain: 'FLANNEL-FWD' } }],
    },
    {
      table: 'filter',
      chain: 'FLANNEL-FWD',
      position: 'own',
      rules: [
        { source: { cidr: network }, matches: [comment(FWD)], target: { kind: 'ACCEPT' } },
        { destination: { cidr: network }, matches: [comment(FWD)], target: { kind: 'ACCEPT' } },
      ],
    },
    {
      table: 'nat',
      chain: 'POSTROUTING',
      position: 'append',
      rules: [{ matches: [comment(MASQ)], target: { kind: 'jump', chain: 'FLANNEL-POSTRTG' } }],
    },
    {
      table: 'nat',
      chain: 'FLANNEL-POSTRTG',
      position: 'own',
      rules: [
        masq({ target: { kind: 'RETURN' } }, [{ kind: 'mark', value: 0x4000, mask: 0x4000 }]),
        masq({ source: { cidr: lease }, destination: { cidr: network }, target: { kind: 'RETURN' } }),
        masq({ source: { cidr: network }, destination: { cidr: lease }, target: { kind: 'RETURN' } }),
        masq({
          source: { cidr: network, negate: true },
          destination: { cidr: lease },
          target: { kind: 'RETURN' },
        }),
        masq({
          source: { cidr: network },
          destination: { cidr: '224.0.0.0/4', negate: true },
          target: { kind: 'MASQUERADE', randomFully: true },
        }),
        masq({
          source: { cidr: network, negate: true },
          destination: { cidr: network },
          target: { kind: 'MASQUERADE', randomFully: true },
        }),
      ],
    },
  ];
}
