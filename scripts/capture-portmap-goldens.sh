#!/usr/bin/env bash
# Captures test/unit/testdata/portmap/*.nat.txt for src/engine/dataplane/netfilter/cni/portmap.test.ts:
# the iptables rules containernetworking/plugins v1.9.1 plugins/meta/portmap/portmap_iptables.go
# writes at CNI ADD for one sandbox (network "cbr0", a bridge pod 10.244.1.5/24 with hostPort 8080 →
# 80/TCP; and "k8s-pod-network", a routed /32 pod, hostPorts 8080/TCP and 5353/UDP), issued in the
# order and with the arguments the plugin passes to go-iptables (chain.setup: rules appended unless
# prependEntry, utils.MustFormatChainNameWithPrefix for CNI-DN-<sha512>), loaded by Debian's iptables
# in a network namespace this script creates and removes, and printed by iptables-save (root).
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/test/unit/testdata/portmap"
mkdir -p "$out"
ns=pp-portmap
trap 'ip netns del "$ns" 2>/dev/null || true' EXIT
id=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

capture() { # network containerNet podIP name portspec...
  local net="$1" cnet="$2" ip="$3" name="$4"; shift 4
  ip netns del "$ns" 2>/dev/null || true
  ip netns add "$ns"
  ipt() { ip netns exec "$ns" iptables -w -t nat "$@"; }
  local dn="CNI-DN-$(printf '%s' "$net$id" | sha512sum | cut -c1-21)"
  # genSetMarkChain / genMarkMasqChain (SNAT true, markMasqBit 13).
  ipt -N CNI-HOSTPORT-SETMARK
  ipt -A CNI-HOSTPORT-SETMARK -m comment --comment "CNI portfwd masquerade mark" -j MARK --set-xmark 0x2000/0x2000
  ipt -N CNI-HOSTPORT-MASQ
  ipt -A CNI-HOSTPORT-MASQ -m mark --mark 0x2000/0x2000 -j MASQUERADE
  ipt -I POSTROUTING 1 -m comment --comment "CNI portfwd requiring masquerade" -j CNI-HOSTPORT-MASQ
  # genToplevelDnatChain.
  ipt -N CNI-HOSTPORT-DNAT
  ipt -A PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT
  ipt -A OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT
  # genDnatChain + fillDnatRules: per-entry rules, then one entry rule per protocol (sorted).
  ipt -N "$dn"
  local protos=() spec proto hp cp
  for spec in "$@"; do
    IFS=/ read -r proto hp cp <<<"$spec"
    ipt -A "$dn" -p "$proto" --dport "$hp" -s "$cnet" -j CNI-HOSTPORT-SETMARK
    ipt -A "$dn" -p "$proto" --dport "$hp" -s 127.0.0.1 -j CNI-HOSTPORT-SETMARK
    ipt -A "$dn" -p "$proto" --dport "$hp" -j DNAT --to-destination "$ip:$cp"
    protos+=("$proto")
  done
  for proto in $(printf '%s\n' "${protos[@]}" | sort -u); do
    local ports
    ports=$(for spec in "$@"; do IFS=/ read -r p hp cp <<<"$spec"; if [ "$p" = "$proto" ]; then echo "$hp"; fi; done | paste -sd,)
    ipt -A CNI-HOSTPORT-DNAT -m comment --comment "dnat name: \"$net\" id: \"$id\"" -m multiport -p "$proto" --destination-ports "$ports" -j "$dn"
  done
  ip netns exec "$ns" iptables-save -t nat | grep -E '^(:|-A)' | grep -v -E '^:(PREROUTING|INPUT|OUTPUT|POSTROUTING) ' >"$out/$name.nat.txt"
}
capture cbr0 10.244.1.5/24 10.244.1.5 bridge tcp/8080/80
capture k8s-pod-network 10.244.1.7/32 10.244.1.7 routed tcp/8080/80 udp/5353/53
echo "wrote $out/bridge.nat.txt and $out/routed.nat.txt"
