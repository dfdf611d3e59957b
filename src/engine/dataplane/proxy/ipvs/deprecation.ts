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

/** What the container's whole start-up log depends on besides the proxier lines. */
export interface KubeProxyStartupInput {
  readonly mode: 'iptables' | 'ipvs' | 'nftables';
  /** The mode as the ConfigMap wrote it: `""` makes kube-proxy log "Using iptables proxy" first. */
  readonly configuredMode: string;
  readonly nodeIP: string;
  /** The binary's version (`v1.35.0`), from the image tag. */
  readonly version: string;
}

const line = (severity: 'I' | 'E', source: string, message: string): KubeProxyLogLine => ({
  severity,
  source,
  message,
});

/**
 * A kube-proxy container's log from process start to synced caches, around the proxier lines of
 * `proxierStartupLog` (or the `command failed` line of a process that exited on a bad configuration,
 * which is all such a process writes). Order and wording follow a real kubeadm v1.33.1 kube-proxy log
 * (`server.go` `Run`/`newProxyServer`, `conntrack.go`, `config.go`, `shared_informer.go`); the
 * `file:line` values outside `proxierStartupLog` are that release's. nftables mode defaults
 * nodePortAddresses to `primary` (server_linux.go `platformApplyDefaults`), so it lacks the
 * "may be incomplete" error; only the iptables proxier sets route_localnet.
 */
export function kubeProxyStartupLog(
  input: KubeProxyStartupInput,
  proxierLines: readonly KubeProxyLogLine[],
): KubeProxyLogLine[] {
  if (proxierLines.some((l) => l.source.startsWith('run.go'))) return [...proxierLines];
  const out: KubeProxyLogLine[] = [];
  if (input.configuredMode === '') out.push(line('I', 'server_linux.go:63', '"Using iptables proxy"'));
  out.push(
    line('I', 'server.go:715', `"Successfully retrieved node IP(s)" IPs=["${input.nodeIP}"]`),
    line('I', 'conntrack.go:60', '"Setting nf_conntrack_max" nfConntrackMax=131072'),
  );
  if (input.mode !== 'nftables')
    out.push(
      line(
        'E',
        'server.go:245',
        '"Kube-proxy configuration may be incomplete or incorrect" err="nodePortAddresses is unset; NodePort connections will be accepted on all local IPs. Consider using `--nodeport-addresses primary`"',
      ),
    );
  out.push(line('I', 'server.go:254', '"kube-proxy running in dual-stack mode" primary ipFamily="IPv4"'));
  out.push(...proxierLines);
  if (input.mode === 'iptables')
    out.push(
      line(
        'I',
        'proxier.go:243',
        '"Setting route_localnet=1 to allow node-ports on localhost; to change this either disable iptables.localhostNodePorts (--iptables-localhost-nodeports) or set nodePortAddresses (--nodeport-addresses) to filter loopback addresses" ipFamily="IPv4"',
      ),
    );
  out.push(
    line('I', 'server.go:516', `"Version info" version="${input.version}"`),
    line('I', 'server.go:518', '"Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""'),
  );
  const controllers: [string, string][] = [
    ['config.go:199', 'service config'],
    ['config.go:105', 'endpoint slice config'],
    ['config.go:440', 'serviceCIDR config'],
    ['config.go:329', 'node config'],
  ];
  for (const [source, name] of controllers) {
    out.push(
      line('I', source, `"Starting ${name} controller"`),
      line('I', 'shared_informer.go:350', `"Waiting for caches to sync" controller="${name}"`),
    );
  }
  for (const [, name] of controllers)
    out.push(line('I', 'shared_informer.go:357', `"Caches are synced" controller="${name}"`));
  return out;
}

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * klog's text header (`klog.go` `formatHeader`): `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`,
 * the thread id right-aligned in 7 columns. Containers are PID 1.
 */
export function klogLine(l: KubeProxyLogLine, ms: number): string {
  const d = new Date(ms);
  const micros = `${String(d.getUTCMilliseconds()).padStart(3, '0')}000`;
  const stamp = `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${micros}`;
  return `${l.severity}${stamp} ${String(1).padStart(7)} ${l.source}] ${l.message}`;
}
