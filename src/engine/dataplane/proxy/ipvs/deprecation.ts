/**
 * What kube-proxy logs at start-up, per mode — in particular the IPVS deprecation of Kubernetes v1.35
 * (KEP-5495, kubernetes/kubernetes#134539): `cmd/kube-proxy/app/server_linux.go` logs
 * "Using ipvs Proxier", then at error level the message below, and records a Warning event
 * (reason IPVSDeprecation) on the Node. Wording from #134539's server_linux.go and from a real
 * kube-proxy log (`E0525 … server_linux.go:196] "The ipvs proxier is now deprecated …"`).
 */
export const IPVS_DEPRECATION_WARNING =
  "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead.";

export interface KubeProxyLogLine {
  /** klog severity letter: I, W, E. */
  readonly severity: 'I' | 'W' | 'E';
  /** `file.go:line` as klog prints it. */
  readonly source: string;
  /** The structured message: a quoted text followed by key="value" pairs. */
  readonly message: string;
}

/**
 * The mode-selection lines of a kube-proxy start-up log. The IPVS lines (and their `file:line`) are
 * copied from a real v1.36 log; the iptables and nftables `file:line` values are estimates.
 */
export function proxierStartupLog(
  mode: 'iptables' | 'ipvs' | 'nftables',
  scheduler = '',
): KubeProxyLogLine[] {
  switch (mode) {
    case 'iptables':
      return [{ severity: 'I', source: 'server_linux.go:136', message: '"Using iptables Proxier"' }];
    case 'nftables':
      return [{ severity: 'I', source: 'server_linux.go:246', message: '"Using nftables Proxier"' }];
    case 'ipvs':
      return [
        { severity: 'I', source: 'server_linux.go:194', message: '"Using ipvs Proxier"' },
        { severity: 'E', source: 'server_linux.go:196', message: `"${IPVS_DEPRECATION_WARNING}"` },
        ...(scheduler === ''
          ? [
              {
                severity: 'I' as const,
                source: 'proxier.go:351',
                message: '"IPVS scheduler not specified, use rr by default" ipFamily="IPv4"',
              },
            ]
          : []),
      ];
  }
}

/** The Warning event kube-proxy records on its Node when it starts in IPVS mode. */
export const IPVS_DEPRECATION_EVENT = {
  type: 'Warning',
  reason: 'IPVSDeprecation',
  action: 'StartKubeProxy',
  message: IPVS_DEPRECATION_WARNING,
} as const;
