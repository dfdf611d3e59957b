#!/usr/bin/env bash
# Captures the pcap fixtures of test/unit/tcpdump-fixtures.test.ts with Debian's real tcpdump, from
# real traffic between network namespaces this script creates and removes (root required):
#
#   pp-a (10.99.1.2) --veth-- pp-node1 [br-pp 10.99.1.1, vxlan-pp VNI 1 port 8472] --veth 10.99.0.0/24--
#   pp-node2 [vxlan-pp, 10.99.2.1 on br-pp] --veth-- pp-b (10.99.2.2)
#
# pp-b serves HTTP (python3 -m http.server) and answers DNS on UDP 53 (a tiny python responder);
# pp-a sends a DNS query, an HTTP GET, a ping and a SYN to a closed port. tcpdump writes each pcap and
# the text it printed while capturing (-nn, UTC), both kept in test/unit/testdata/tcpdump/.
# Addresses stay inside the namespaces (10.99.0.0/16); everything is torn down on exit.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/test/unit/testdata/tcpdump"
mkdir -p "$out"
export TZ=UTC

cleanup() {
  for ns in pp-a pp-b pp-node1 pp-node2; do ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true; done
  sleep 0.3
  for ns in pp-a pp-b pp-node1 pp-node2; do ip netns del "$ns" 2>/dev/null || true; done
  [ -n "${www:-}" ] && rm -rf "$www"
  return 0
}
trap cleanup EXIT
cleanup

for ns in pp-a pp-b pp-node1 pp-node2; do
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  # IPv4 only: no router solicitations or MLD reports in the captures.
  ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
# The "nodes" and their underlay link.
ip link add n1-eth0 netns pp-node1 type veth peer name n2-eth0 netns pp-node2
ip -n pp-node1 addr add 10.99.0.1/24 dev n1-eth0
ip -n pp-node2 addr add 10.99.0.2/24 dev n2-eth0
ip -n pp-node1 link set n1-eth0 up
ip -n pp-node2 link set n2-eth0 up
# A pod on each node behind a bridge, as flannel's cni0.
i=1
for pair in "pp-a pp-node1" "pp-b pp-node2"; do
  set -- $pair
  ip link add eth0 netns "$1" type veth peer name veth$i netns "$2"
  ip -n "$2" link add br-pp type bridge
  ip -n "$2" addr add 10.99.$i.1/24 dev br-pp
  ip -n "$2" link set br-pp up
  ip -n "$2" link set veth$i master br-pp up
  ip -n "$1" addr add 10.99.$i.2/24 dev eth0
  ip -n "$1" link set eth0 mtu 1450 up
  ip -n "$1" route add default via 10.99.$i.1
  ip netns exec "$2" sysctl -qw net.ipv4.ip_forward=1
  i=$((i + 1))
done
# flannel's VXLAN: VNI 1 on UDP 8472, one static neighbour each way.
ip -n pp-node1 link add vxlan-pp type vxlan id 1 local 10.99.0.1 remote 10.99.0.2 dstport 8472 dev n1-eth0
ip -n pp-node2 link add vxlan-pp type vxlan id 1 local 10.99.0.2 remote 10.99.0.1 dstport 8472 dev n2-eth0
ip -n pp-node1 addr add 10.99.100.1/32 dev vxlan-pp
ip -n pp-node2 addr add 10.99.100.2/32 dev vxlan-pp
ip -n pp-node1 link set vxlan-pp up
ip -n pp-node2 link set vxlan-pp up
ip -n pp-node1 route add 10.99.2.0/24 via 10.99.100.2 dev vxlan-pp onlink
ip -n pp-node2 route add 10.99.1.0/24 via 10.99.100.1 dev vxlan-pp onlink

# Servers in pp-b: HTTP on 80 and a DNS responder on 53.
www="$(mktemp -d)"
printf '<!doctype html>\n<title>web</title>\n<p>served from pp-b</p>\n' >"$www/index.html"
(cd "$www" && exec ip netns exec pp-b python3 -m http.server 80 --bind 10.99.2.2 >/dev/null 2>&1) &
ip netns exec pp-b python3 - <<'PY' >/dev/null 2>&1 &
import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('10.99.2.2', 53))
while True:
    q, addr = s.recvfrom(512)
    name_end = q.index(b'\0', 12) + 5
    qtype = struct.unpack('!H', q[name_end - 4:name_end - 2])[0]
    known = q[12:name_end - 5] == b'\x03web\x07default\x03svc\x07cluster\x05local'
    flags = 0x8500 if known else 0x8503
    ancount = 1 if known and qtype == 1 else 0
    head = q[:2] + struct.pack('!HHHHH', flags, 1, ancount, 0, 0)
    answer = b'\xc0\x0c' + struct.pack('!HHIH', 1, 1, 30, 4) + socket.inet_aton('10.96.0.20') if ancount else b''
    s.sendto(head + q[12:name_end] + answer, addr)
PY
sleep 1

traffic() {
  ip netns exec pp-a python3 - <<'PY'
import socket, struct, time, random
def query(name, qtype, qid):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2)
    labels = b''.join(bytes([len(p)]) + p.encode() for p in name.split('.')) + b'\0'
    s.sendto(struct.pack('!HHHHHH', qid, 0x0100, 1, 0, 0, 0) + labels + struct.pack('!HH', qtype, 1), ('10.99.2.2', 53))
    s.recv(512)
    s.close()
for n, (name, qtype) in enumerate([('web.svc.cluster.local', 1), ('web.default.svc.cluster.local', 1), ('web.default.svc.cluster.local', 28)]):
    query(name, qtype, 4000 + n)
c = socket.create_connection(('10.99.2.2', 80))
c.sendall(b'GET / HTTP/1.1\r\nHost: web\r\nUser-Agent: curl/8.14.1\r\nAccept: */*\r\nConnection: close\r\n\r\n')
while c.recv(65536):
    pass
c.close()
try:
    socket.create_connection(('10.99.2.2', 81), timeout=2)
except OSError:
    pass
time.sleep(0.3)
PY
}

capture() { # name netns iface filter...
  local name=$1 ns=$2 iface=$3
  shift 3
  ip netns exec "$ns" tcpdump -i "$iface" -nn -U -w "$out/$name.pcap" "$@" 2>/dev/null &
  local pid=$!
  sleep 1
  traffic
  sleep 0.5
  kill -INT "$pid"
  wait "$pid" || true
  tcpdump -nn -r "$out/$name.pcap" >"$out/$name.txt" 2>/dev/null
  tcpdump -nn -e -v -r "$out/$name.pcap" >"$out/$name.ev.txt" 2>/dev/null
  tcpdump -nn -X -r "$out/$name.pcap" >"$out/$name.X.txt" 2>/dev/null
}

capture pod-eth0 pp-a eth0
capture node-underlay pp-node2 n2-eth0 udp port 8472
capture node-bridge pp-node2 br-pp tcp
capture node-any pp-node1 any udp port 53
echo "fixtures in $out:"
ls -l "$out"
