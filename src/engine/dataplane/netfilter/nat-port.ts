/**
 * NAT's choice of source port, shared by the connection model, conntrack and the captures: the port a masqueraded connection leaves with. kube-proxy's, flannel's and Felix's
 * MASQUERADE rules all say `--random-fully` (NF_NAT_RANGE_PROTO_RANDOM_FULLY): the kernel draws a
 * port from the whole unprivileged range, 1024-65535, for every new connection. Drawn here from
 * the client's own port (Knuth's multiplicative hash), so the backend, the conntrack reply tuple and
 * the capture all see the same one.
 */
export function masqueradePort(srcPort: number): number {
  return 1024 + ((Math.imul(srcPort, 2654435761) >>> 0) % 64512);
}
