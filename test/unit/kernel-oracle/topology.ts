/**
 * A kind cluster with flannel rebuilt in network namespaces from what the simulated cluster says it
 * is: the nodes on kind's docker network (172.18.0.0/16, the learner's machine at 172.18.0.1), each
 * with `cni0` holding its podCIDR's first address, `flannel.1` (VXLAN VNI 1, UDP 8472, no learning)
 * with the route, neighbour and FDB entry flanneld programs per remote node, and pods as namespaces
 * behind veths on `cni0`. Addresses come from the engine; MAC addresses are the kernel's own.
 */
import type { Namespaces } from './netns.ts';

export interface NodeSpec {
  readonly name: string;
  readonly ip: string;
  readonly podCIDR: string;
}

export interface PodSpec {
  readonly name: string;
  readonly node: string;
  readonly ip: string;
}

export interface Topology {
  readonly host: string;
  readonly nodes: ReadonlyMap<string, string>;
  readonly pods: ReadonlyMap<string, string>;
}

const KIND_NETWORK_PREFIX = 16;
const FLANNEL_MTU = 1450;

/** The network's address (`10.244.1.0`) and the gateway on cni0 (`10.244.1.1`) of a /24 podCIDR. */
function podNet(podCIDR: string): { base: string; gateway: string } {
  const base = podCIDR.split('/')[0]!;
  const gateway = base.replace(/\.0$/, '.1');
  return { base, gateway };
}

export function buildTopology(
  ns: Namespaces,
  nodes: readonly NodeSpec[],
  pods: readonly PodSpec[],
): Topology {
  const lan = ns.add('lan');
  ns.exec(lan, 'ip link add br0 type bridge && ip link set br0 up');
  const host = ns.add('host');
  ns.exec(lan, `ip link add p-host type veth peer name eth0 netns ${host}`);
  ns.exec(lan, 'ip link set p-host master br0 up');
  ns.exec(host, `ip addr add 172.18.0.1/${KIND_NETWORK_PREFIX} dev eth0 && ip link set eth0 up`);

  const nodeNs = new Map<string, string>();
  nodes.forEach((node, i) => {
    const name = ns.add(`n${i}`);
    nodeNs.set(node.name, name);
    ns.exec(lan, `ip link add p-n${i} type veth peer name eth0 netns ${name}`);
    ns.exec(lan, `ip link set p-n${i} master br0 up`);
    const { gateway } = podNet(node.podCIDR);
    ns.exec(
      name,
      [
        `ip addr add ${node.ip}/${KIND_NETWORK_PREFIX} dev eth0`,
        'ip link set eth0 up',
        'ip route add default via 172.18.0.1',
        'sysctl -qw net.ipv4.ip_forward=1',
        // kind nodes load br_netfilter: bridged pod-to-pod replies pass iptables (un-DNAT on one node).
        'sysctl -qw net.bridge.bridge-nf-call-iptables=1',
        `ip link add cni0 type bridge && ip addr add ${gateway}/24 dev cni0`,
        `ip link set cni0 mtu ${FLANNEL_MTU} up`,
        `ip link add flannel.1 type vxlan id 1 local ${node.ip} dev eth0 dstport 8472 nolearning`,
        `ip addr add ${podNet(node.podCIDR).base}/32 dev flannel.1`,
        `ip link set flannel.1 mtu ${FLANNEL_MTU} up`,
      ].join(' && '),
    );
  });
  const vtepMac = new Map(
    nodes.map((n) => [n.name, ns.exec(nodeNs.get(n.name)!, 'cat /sys/class/net/flannel.1/address').trim()]),
  );
  for (const node of nodes) {
    for (const remote of nodes) {
      if (remote === node) continue;
      const { base } = podNet(remote.podCIDR);
      ns.exec(
        nodeNs.get(node.name)!,
        [
          `ip neigh add ${base} lladdr ${vtepMac.get(remote.name)} dev flannel.1 nud permanent`,
          `bridge fdb append ${vtepMac.get(remote.name)} dev flannel.1 dst ${remote.ip}`,
          `ip route add ${remote.podCIDR} via ${base} dev flannel.1 onlink`,
        ].join(' && '),
      );
    }
  }

  const podNs = new Map<string, string>();
  pods.forEach((pod, i) => {
    const node = nodes.find((n) => n.name === pod.node);
    if (!node) throw new Error(`pod ${pod.name} is on ${pod.node}, which is not a node of the topology`);
    const name = ns.add(`p${i}`);
    podNs.set(pod.name, name);
    ns.exec(nodeNs.get(node.name)!, `ip link add veth${i} type veth peer name eth0 netns ${name}`);
    ns.exec(nodeNs.get(node.name)!, `ip link set veth${i} master cni0 up`);
    ns.exec(
      name,
      `ip addr add ${pod.ip}/24 dev eth0 && ip link set eth0 mtu ${FLANNEL_MTU} up && ip route add default via ${podNet(node.podCIDR).gateway}`,
    );
  });
  return { host, nodes: nodeNs, pods: podNs };
}

/**
 * agnhost netexec's two answers the oracle needs, served on a port: `/hostname` (the pod's name) and
 * `/clientip` (`ip:port` of the connection's source, what SNAT leaves of the client).
 */
export const NETEXEC_PY = String.raw`
import http.server, socketserver, sys
name, port = sys.argv[1], int(sys.argv[2])
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = name if self.path == '/hostname' else '%s:%d' % self.client_address
        data = body.encode()
        self.send_response(200)
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *a):
        pass
socketserver.TCPServer.allow_reuse_address = True
http.server.ThreadingHTTPServer(('0.0.0.0', port), H).serve_forever()
`;

/**
 * A client making `count` new connections (each its own conntrack entry, so each a new endpoint
 * choice), printing one line per request: the body, or `timeout`/`refused`.
 */
export const CLIENT_PY = String.raw`
import socket, sys
url_host, url_port, path, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
for _ in range(count):
    s = socket.socket()
    s.settimeout(1.5)
    try:
        s.connect((url_host, url_port))
        s.sendall(('GET %s HTTP/1.0\r\nHost: x\r\n\r\n' % path).encode())
        data = b''
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        print(data.split(b'\r\n\r\n', 1)[1].decode())
    except ConnectionRefusedError:
        print('refused')
    except OSError:
        print('timeout')
    finally:
        s.close()
`;
