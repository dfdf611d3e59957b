/**
 * kindnetd's ip-masq agent (kubernetes-sigs/kind `images/kindnetd/cmd/kindnetd/masq.go`, SyncRules):
 * the nat chain KIND-MASQ-AGENT returns for traffic to the pod subnet (POD_SUBNET) and masquerades
 * everything else; nat POSTROUTING sends every non-LOCAL destination there. go-iptables appends
 * (`AppendUnique`), so the jump comes after kube-proxy's KUBE-POSTROUTING.
 */
import { comment, type IptablesRule } from '../rule.ts';
import type { CniChainSet } from './chain-set.ts';

export const KIND_MASQ_CHAIN = 'KIND-MASQ-AGENT';

export function kindnetChains(podSubnet: string): CniChainSet {
  const rules: IptablesRule[] = [
    {
      destination: { cidr: podSubnet },
      matches: [comment('kind-masq-agent: local traffic is not subject to MASQUERADE')],
      target: { kind: 'RETURN' },
    },
    {
      matches: [
        comment('kind-masq-agent: outbound traffic is subject to MASQUERADE (must be last in chain)'),
      ],
      target: { kind: 'MASQUERADE' },
    },
  ];
  return [
    {
      table: 'nat',
      chain: 'POSTROUTING',
      position: 'append',
      rules: [
        {
          matches: [
            { kind: 'addrtype', dstType: 'LOCAL', negate: true },
            comment(
              'kind-masq-agent: ensure nat POSTROUTING directs all non-LOCAL destination traffic to our custom KIND-MASQ-AGENT chain',
            ),
          ],
          target: { kind: 'jump', chain: KIND_MASQ_CHAIN },
        },
      ],
    },
    { table: 'nat', chain: KIND_MASQ_CHAIN, position: 'own', rules },
  ];
}
