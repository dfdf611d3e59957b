#!/usr/bin/env bash
# Captures the kindnet goldens of src/engine/node/cni/kindnet.test.ts from real tools:
#
# - 10-kindnet.conflist: kindnetd's own cniConfigTemplate (kubernetes-sigs/kind
#   images/kindnetd/cmd/kindnetd/cni.go at $KIND_COMMIT) executed by Go's text/template with the
#   inputs ComputeCNIConfigInputs gives a single-stack node (podCIDR 10.244.1.0/24, route 0.0.0.0/0)
#   and eth0's MTU 1500, as kindnetd's CNIConfigWriter does.
# - kind-masq-agent.nat.txt: the rules of images/kindnetd/cmd/kindnetd/masq.go (SyncRules, with
#   POD_SUBNET 10.244.0.0/16) appended by Debian's iptables in a network namespace this script
#   creates and removes, then printed by iptables-save (root required).
#
# Usage: scripts/capture-kindnet-goldens.sh /path/to/kind.git   (a clone or bare mirror of kind)
set -euo pipefail
kind_git="${1:?usage: $0 /path/to/kind.git}"
KIND_COMMIT="${KIND_COMMIT:-d2dcab96}"
out="$(cd "$(dirname "$0")/.." && pwd)/test/unit/testdata/kindnet"
mkdir -p "$out"
work="$(mktemp -d)"
ns=pp-kindnet
cleanup() {
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# 1. The conflist, rendered by the real text/template from the upstream template text.
git --git-dir="$kind_git" show "$KIND_COMMIT:images/kindnetd/cmd/kindnetd/cni.go" \
  | sed -n '/^const cniConfigTemplate = `/,/^`$/p' | sed '1s/^const cniConfigTemplate = `//;$d' >"$work/template.txt"
cat >"$work/render.go" <<'GO'
package main

import (
	"os"
	"text/template"
)

type CNIConfigInputs struct {
	PodCIDRs      []string
	DefaultRoutes []string
	Mtu           int
}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	t := template.Must(template.New("cni-json").Parse(string(raw)))
	in := CNIConfigInputs{PodCIDRs: []string{"10.244.1.0/24"}, DefaultRoutes: []string{"0.0.0.0/0"}, Mtu: 1500}
	if err := t.Execute(os.Stdout, &in); err != nil {
		panic(err)
	}
}
GO
(cd "$work" && GOFLAGS=-mod=mod GO111MODULE=off go run render.go template.txt) >"$out/10-kindnet.conflist"

# 2. kind-masq-agent's nat rules, in the order SyncRules appends them, printed by iptables-save.
ip netns add "$ns"
ipt() { ip netns exec "$ns" iptables -w -t nat "$@"; }
ipt -N KIND-MASQ-AGENT
ipt -A KIND-MASQ-AGENT -d 10.244.0.0/16 -j RETURN -m comment --comment "kind-masq-agent: local traffic is not subject to MASQUERADE"
ipt -A KIND-MASQ-AGENT -j MASQUERADE -m comment --comment "kind-masq-agent: outbound traffic is subject to MASQUERADE (must be last in chain)"
ipt -A POSTROUTING -m addrtype '!' --dst-type LOCAL -j KIND-MASQ-AGENT -m comment --comment "kind-masq-agent: ensure nat POSTROUTING directs all non-LOCAL destination traffic to our custom KIND-MASQ-AGENT chain"
ip netns exec "$ns" iptables-save -t nat | grep -E '^-A (POSTROUTING|KIND-MASQ-AGENT)' >"$out/kind-masq-agent.nat.txt"
echo "wrote $out/10-kindnet.conflist and $out/kind-masq-agent.nat.txt"
