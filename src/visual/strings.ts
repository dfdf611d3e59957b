/**
 * The visualisation's words, in both languages. The renderers run in the worker and in Node tests,
 * where Astro's `t()` does not exist, so they carry their own dictionary; keys are flat and dotted
 * like the site's, and the type makes both locales define every key (a missing one fails `tsc`).
 * `{name}` placeholders are filled by `format`; values are plain text (renderers escape them).
 */
export type Locale = 'pt-BR' | 'en';

const en = {
  'topo.title': 'Cluster network: {nodes} nodes, {pods} pods, {services} Services',
  'topo.desc':
    'Nodes are frames labelled with their IP and pod CIDR; pods show their IPs. Services sit between clients and backends; blue is north-south traffic, teal the Service path, amber DNS, grey the overlay between nodes, red dotted lines NetworkPolicies. A text description follows the diagram.',
  'topo.internet': 'Internet / clients',
  'topo.node.ip': 'node IP {ip}',
  'topo.node.cidr': 'pods {cidr}',
  'topo.node.controlPlane': 'control plane',
  'topo.node.notReady': 'NotReady',
  'topo.node.hostNetwork': 'host network ({count}): {list}',
  'topo.node.noPods': 'no pods on the pod network',
  'topo.more': '+{count} more',
  'topo.group': '{workload} × {count}',
  'topo.unscheduled': 'not scheduled yet: {list}',
  'topo.services': 'Services: a logical step, not a server',
  'topo.rewrite.iptables':
    "kube-proxy's iptables rules rewrite ClusterIP:port → pod IP:targetPort (DNAT) in the client node's kernel",
  'topo.rewrite.ipvs':
    "kube-proxy's IPVS virtual servers rewrite ClusterIP:port → pod IP:targetPort in the client node's kernel",
  'topo.rewrite.nftables':
    "kube-proxy's nftables maps rewrite ClusterIP:port → pod IP:targetPort (DNAT) in the client node's kernel",
  'topo.rewrite.ebpf':
    "Cilium's eBPF service maps rewrite ClusterIP:port → pod IP:targetPort on the client node (no kube-proxy)",
  'topo.rewrite.none': 'no kube-proxy and no replacement: nothing rewrites ClusterIPs',
  'topo.rewriteMark': 'DNAT',
  'topo.svc.headless': 'headless (no ClusterIP)',
  'topo.svc.clusterIP': 'ClusterIP {ip}',
  'topo.svc.noBackends': 'no ready endpoint',
  'topo.svc.backends': '{count} ready endpoints',
  'topo.dns': 'CoreDNS',
  'topo.dns.service': 'kube-dns {ip}:53',
  'topo.overlay.vxlan': 'VXLAN over UDP {port} ({device}): outer header node IP → node IP',
  'topo.overlay.geneve': 'Geneve over UDP {port} ({device}): outer header node IP → node IP',
  'topo.overlay.ipip': 'BGP routes (BIRD, TCP 179) + IP-in-IP ({device}): outer header node IP → node IP',
  'topo.overlay.bgp': 'BGP routes (BIRD, TCP 179): pod IPs on the wire, no encapsulation',
  'topo.overlay.native': 'native routing: node routes to each pod CIDR, no encapsulation',
  'topo.overlay.single': 'one node: pod traffic never leaves it',
  'topo.overlay.mtu': 'pod MTU {pod} (node {node})',
  'topo.policy.selects': 'selects {selector}',
  'topo.policy.from': 'from {peers}',
  'topo.policy.to': 'to {peers}',
  'topo.policy.anyPeer': 'anywhere',
  'topo.policy.anyPort': 'any port',
  'topo.policy.denyIngress': 'allows no ingress',
  'topo.policy.denyEgress': 'allows no egress',
  'topo.policy.notEnforced': 'not enforced by {cni}',
  'topo.policy.selectsNone': 'selects no pod',
  'topo.entry.gateway': 'Gateway',
  'topo.entry.ingress': 'Ingress',
  'topo.entry.loadbalancer': 'LoadBalancer',
  'topo.entry.nodeport': 'NodePort',
  'topo.entry.routes': 'HTTPRoutes: {list}',
  'topo.legend': 'Legend',
  'topo.legend.northSouth': 'north-south (from outside)',
  'topo.legend.eastWest': 'east-west: Service → pods',
  'topo.legend.dns': 'DNS',
  'topo.legend.overlay': 'overlay between nodes',
  'topo.legend.policy': 'NetworkPolicy → selected pods',
  'text.cluster':
    '{distribution} cluster, CNI {cni}, kube-proxy mode {mode}; pod network {podSubnet}, Services {serviceSubnet}',
  'text.nodes': 'Nodes ({count})',
  'text.node': 'Node {name} ({role}), IP {ip}, pod CIDR {cidr}: {count} pods',
  'text.role.controlPlane': 'control plane',
  'text.role.worker': 'worker',
  'text.pod': 'Pod {key}, IP {ip}',
  'text.pod.noIP': 'Pod {key}, no IP yet ({phase})',
  'text.services': 'Services ({count})',
  'text.service': 'Service {key} ({type}), {address}: {ports}; backends: {backends}',
  'text.service.none': 'none ready',
  'text.dns': 'Cluster DNS: CoreDNS behind kube-dns {ip}: {pods}',
  'text.overlay': 'Between nodes: {overlay}',
  'text.policies': 'NetworkPolicies ({count})',
  'text.policy': 'NetworkPolicy {key} ({types}) selects {selector}: {pods}',
  'text.policy.ingress': 'ingress rule {n}: from {peers} on {ports}',
  'text.policy.egress': 'egress rule {n}: to {peers} on {ports}',
  'text.entries': 'Entry points from outside ({count})',
  'text.entry': '{kind} {key} on {addresses}, {listeners} → {services}',
  'text.none': 'none',
  'hop.resolv-conf': 'resolv.conf',
  'hop.hosts-file': '/etc/hosts',
  'hop.dns-query': 'DNS query',
  'hop.dns-result': 'DNS answer',
  'hop.socket': 'Socket',
  'hop.port-forward': 'port-forward',
  'hop.service': 'Service',
  'hop.netfilter': 'Netfilter',
  'hop.no-endpoints': 'No endpoints',
  'hop.dnat': 'DNAT',
  'hop.snat': 'SNAT',
  'hop.network-policy': 'NetworkPolicy',
  'hop.route': 'Route',
  'hop.mtu': 'MTU',
  'hop.no-route': 'No route',
  'hop.delivered': 'Delivered',
  'hop.no-listener': 'Refused',
  'hop.external': 'External',
  'hop.edge-proxy': 'Ingress proxy',
  'walk.resolvConf':
    'The resolver reads /etc/resolv.conf: nameserver {nameserver}, search {search}, ndots:{ndots} ({libc}). It tries {candidates}.',
  'walk.hostsFile': '/etc/hosts answers {name}: {addresses}.',
  'walk.dnsAnswered':
    'DNS {type} query for {name} to {server} (the kube-dns Service): answer {answers} ({rcode}), from CoreDNS pod {pod}.',
  'walk.dnsNoRecords': 'no records',
  'walk.dnsTimeout': 'DNS {type} query for {name} to {server}: no answer, the query timed out.',
  'walk.dnsRefused': 'DNS {type} query for {name} to {server}: refused.',
  'walk.dnsResult': '{name} resolves to {addresses}.',
  'walk.dnsFailed': '{name} does not resolve: {error}.',
  'walk.socket': 'The client opens a {protocol} connection from {from} to {to}.',
  'walk.socketHost':
    "The client opens a {protocol} connection from {from} to {to}, in the node's own network stack (hostNetwork).",
  'walk.portForward':
    'kubectl port-forward: localhost:{local} → API server → kubelet → pod {pod} port {port}. No Service, no kube-proxy, no NetworkPolicy.',
  'walk.service.iptables':
    "{address}:{port} is Service {service}. On node {node}, kube-proxy's iptables rules match it ({chains}) and the DNAT rule picks endpoint {endpoint}{pod}. {evaluated} rules evaluated.",
  'walk.service.nftables':
    "{address}:{port} is Service {service}. On node {node}, kube-proxy's nftables map element matches it ({chains}) and picks endpoint {endpoint}{pod}. {evaluated} rules evaluated.",
  'walk.service.ipvs':
    '{address}:{port} is Service {service}. On node {node}, the IPVS virtual server {address}:{port} picks real server {endpoint}{pod}.',
  'walk.service.cilium':
    "{address}:{port} is Service {service}. On node {node}, Cilium's eBPF service map (no kube-proxy rules) picks backend {endpoint}{pod}.",
  'walk.service.other':
    '{address}:{port} is Service {service}. On node {node} ({mode}), the connection goes to endpoint {endpoint}{pod}.',
  'walk.service.pod': ' (pod {pod})',
  'walk.service.established': ' An existing conntrack entry decides: same connection, same backend.',
  'walk.rule': 'Matched rule: {rule}',
  'walk.netfilter': '{verdict} on node {node} in {table}/{chain}{service}.',
  'walk.netfilter.service': ' for Service {service}',
  'walk.noEndpoints':
    "Service {service} has no ready endpoint: kube-proxy's rule on {node} rejects the connection.",
  'walk.dnat': 'DNAT on node {node}: destination {from} → {to}.',
  'walk.snat.kube-proxy-masquerade': 'SNAT on node {node}: source {from} → {to} (kube-proxy masquerade).',
  'walk.snat.egress-masquerade':
    'SNAT on node {node}: source {from} → {to} (masquerade for traffic leaving the pod network).',
  'walk.direction.Ingress': 'ingress',
  'walk.direction.Egress': 'egress',
  'walk.policy.allowed':
    '{Direction} of pod {pod}: allowed by NetworkPolicy {policy}, {direction} rule {rule} (peer {peer}{port}).',
  'walk.policy.allowedSome': '{Direction} of pod {pod}: allowed by a NetworkPolicy rule (peer {peer}{port}).',
  'walk.policy.blocked':
    '{Direction} of pod {pod}: BLOCKED. Selected by {policies} and no rule allows {peer}{port}: the packet is dropped.',
  'walk.policy.not-isolated':
    '{Direction} of pod {pod}: no NetworkPolicy selects it for {direction}, so it is not isolated and the packet passes.',
  'walk.policy.not-enforced':
    '{Direction} of pod {pod}: {policies}NetworkPolicy is not enforced here ({reason}).',
  'walk.policy.selectedBy': 'selected by {policies}, but ',
  'walk.policy.port': ' to port {port}',
  'walk.enforcement.not-enforced-by-flannel': 'flannel accepts policies and ignores them',
  'walk.enforcement.not-enforced-k3s-disabled': 'k3s runs with --disable-network-policy',
  'walk.enforcement.no-cni': 'no CNI is installed',
  'walk.enforcement.other': '{reason}',
  'walk.route.vxlan':
    'Route on node {node}: {device} wraps the packet in VXLAN to {toNode}. Outer header {src} → {dst} UDP {port}.',
  'walk.route.geneve':
    'Route on node {node}: {device} wraps the packet in Geneve to {toNode}. Outer header {src} → {dst} UDP {port}.',
  'walk.route.ipip':
    'Route on node {node}: {device} wraps the packet in IP-in-IP to {toNode}. Outer header {src} → {dst} (IP protocol 4).',
  'walk.route.bgp':
    'Route on node {node}: a BGP-learned route sends it to {toNode} via {device}, no encapsulation (pod IPs on the wire).',
  'walk.route.bridge': 'On node {node}: the {device} bridge hands the packet to the pod’s veth.',
  'walk.route.routed-veth':
    'On node {node}: a /32 route sends it straight to the pod’s veth ({device}), no bridge.',
  'walk.route.other': 'Route on node {node}: {text}.',
  'walk.route.mtu': ' MTU {mtu}.',
  'walk.mtu.stalled':
    'Pod MTU {podMtu} > path MTU {pathMtu}: {bytes}-byte segments are dropped inside the tunnel; small packets pass, the data never arrives.',
  'walk.mtu.ok': 'Pod MTU {podMtu} > path MTU {pathMtu}, but {bytes} bytes fit in one small segment.',
  'walk.noRoute': 'No route to {ip}: {reason}.',
  'walk.delivered': 'Delivered to {who} at {address}{process}. It sees the client as {client}.',
  'walk.delivered.process': ' ({process})',
  'walk.who.pod': 'pod {pod}',
  'walk.who.node': 'node {node}',
  'walk.noListener.TCP':
    'Nothing listens on {ip}:{port}/TCP in {who}: the kernel answers with a TCP RST (connection refused).',
  'walk.noListener.UDP':
    'Nothing listens on {ip}:{port}/UDP in {who}: the kernel answers ICMP port unreachable.',
  'walk.external': 'The packet leaves the cluster for {host} ({address}) on the internet.',
  'walk.edgeProxy':
    '{proxy} ({implementation}) reads Host {host} and path {path}: {matched} sends it to Service {service}; the proxy opens its own connection to endpoint {endpoint}.',
  'walk.edgeProxy.answered':
    '{proxy} ({implementation}) reads Host {host} and path {path} and answers {status} itself: {reason}.',
  'walk.outcome.connected': 'Connected.',
  'walk.outcome.refused': 'Refused: the connection is rejected at once.',
  'walk.outcome.timeout': 'Timed out: the packet is dropped and nothing comes back.',
  'walk.outcome.unreachable': 'Unreachable: no host answers for this address.',
  'walk.outcome.dns-failure': 'Name resolution failed.',
  'walk.outcome.resolved': 'The name resolves.',
  'walk.deciding': 'This hop decides the outcome.',
  'walk.title': '{program} from {from}: {count} hops',
  'walk.from.pod': 'pod {pod}',
  'walk.from.node': 'node {node}',
  'walk.from.external': 'your machine',
  'matrix.allowed': 'allowed',
  'matrix.blocked': 'blocked',
  'matrix.refused': 'refused',
  'matrix.none': 'not probed',
  'matrix.caption': 'Reachability: rows are sources, columns are destinations (pod:port)',
  'matrix.cell': '{from} → {to} port {port}: {verdict}',
  'matrix.self': '{pod} → itself: not probed',
  'matrix.summary.empty': 'No running pods listen on a port yet: nothing to probe.',
  'matrix.summary.allAllowedNoPolicy': 'All {total} pairs allowed: no NetworkPolicy isolates these pods.',
  'matrix.summary.allAllowedNotEnforced':
    'All {total} pairs allowed: {cni} does not enforce NetworkPolicy, whatever the policies say.',
  'matrix.summary.allAllowedByRules':
    'All {total} pairs allowed, by policy rules: do the policies isolate anything?',
  'matrix.summary.allBlocked':
    'All {total} pairs blocked: the policies isolate these pods and allow nothing between them (too strict?).',
  'matrix.summary.mixed': '{allowed} of {total} pairs allowed, {blocked} blocked, {refused} refused.',
  'matrix.reason.not-isolated': 'no NetworkPolicy isolates either pod',
  'matrix.reason.allowed-by-rule': 'a NetworkPolicy rule allows it',
  'matrix.reason.no-rule-allowed': '{direction}: a policy selects the pod and no rule allows this peer',
  'matrix.reason.not-enforced': 'NetworkPolicy is not enforced by the CNI',
  'matrix.reason.no-listener': 'nothing listens on that port',
  'matrix.reason.from-local-node': 'traffic from the local node is always allowed',
  'matrix.reason.not-a-pod': 'not a pod',
  'matrix.reason.no-endpoints': 'the Service has no ready endpoint: kube-proxy rejects the connection',
  'matrix.reason.no-route': 'no route to the address',
  'matrix.reason.dropped': 'the packet is dropped on the way',
  'matrix.svc.backend': 'endpoint {backend} {address}',
  'matrix.svcCell': '{from} → Service {service} {address}: {verdict}',
  'matrix.captionServices':
    'Reachability through Services: rows are source pods, columns are Service ports (name, ClusterIP:port)',
  'matrix.summary.servicesEmpty':
    'No Service with a ClusterIP yet, or no running pod to call from: nothing to probe.',
  'matrix.decidedBy': 'Decided by: {hop}',
  'ui.topology': 'Network diagram',
  'ui.textEquivalent': 'Text description of the diagram',
  'ui.download': 'Download SVG',
  'ui.walk': 'Packet walk',
  'ui.walkEmpty': 'No trace yet. Run trace in the terminal, use the form, or press Enter on a matrix cell.',
  'ui.prev': 'Previous hop',
  'ui.next': 'Next hop',
  'ui.first': 'First hop',
  'ui.last': 'Last hop',
  'ui.stepOf': 'Hop {n} of {total}',
  'ui.walkHelp':
    'Use ← and → (or the buttons) to step through the hops; Home and End jump to the first and last.',
  'ui.matrix': 'Reachability matrix',
  'ui.matrixHelp': 'Arrow keys move between cells; Enter traces the pair and names the deciding rule.',
  'ui.matrixMode': 'Columns',
  'ui.matrixMode.pods': 'Pods (pod IP:port)',
  'ui.matrixMode.services': 'Services (ClusterIP:port)',
  'ui.matrixServicesTooBig':
    '{pods} pods × {ports} Service ports is too many connections to probe here. Trace a pair with the form.',
  'ui.matrixTooBig':
    '{rows} pods × {columns} destinations is too large a grid to draw here; the line above counts every pair. Trace a pair with the form.',
  'ui.tracing': 'Tracing {from} → {to}…',
  'ui.showWalk': 'Show the packet walk',
  'ui.network': 'Network',
  'ui.tabs': 'Network views',
  'ui.tab.diagram': 'Diagram',
  'ui.tab.walk': 'Packet walk',
  'ui.tab.matrix': 'Matrix',
  'ui.traceFrom': 'From pod',
  'ui.traceTo': 'To (name or IP)',
  'ui.tracePort': 'Port',
  'ui.traceButton': 'Trace',
  'ui.refresh': 'Refresh',
  'ui.updated': 'Diagram updated.',
  'ui.error': 'Could not draw the network: {reason}',
} as const;

export type StringKey = keyof typeof en;

const ptBR: Record<StringKey, string> = {
  'topo.title': 'Rede do cluster: {nodes} nós, {pods} pods, {services} Services',
  'topo.desc':
    'Os nós são molduras com o IP e o intervalo de pods; os pods mostram seus IPs. Os Services ficam entre clientes e backends; azul é o tráfego norte-sul, verde-azulado o caminho do Service, âmbar o DNS, cinza o overlay entre os nós, linhas vermelhas pontilhadas as NetworkPolicies. Uma descrição em texto acompanha o diagrama.',
  'topo.internet': 'Internet / clientes',
  'topo.node.ip': 'IP do nó {ip}',
  'topo.node.cidr': 'pods {cidr}',
  'topo.node.controlPlane': 'plano de controle',
  'topo.node.notReady': 'NotReady',
  'topo.node.hostNetwork': 'rede do host ({count}): {list}',
  'topo.node.noPods': 'nenhum pod na rede de pods',
  'topo.more': '+{count} outros',
  'topo.group': '{workload} × {count}',
  'topo.unscheduled': 'ainda sem nó: {list}',
  'topo.services': 'Services: uma etapa lógica, não um servidor',
  'topo.rewrite.iptables':
    'as regras iptables do kube-proxy reescrevem ClusterIP:porta → IP do pod:targetPort (DNAT) no kernel do nó do cliente',
  'topo.rewrite.ipvs':
    'os servidores virtuais IPVS do kube-proxy reescrevem ClusterIP:porta → IP do pod:targetPort no kernel do nó do cliente',
  'topo.rewrite.nftables':
    'os mapas nftables do kube-proxy reescrevem ClusterIP:porta → IP do pod:targetPort (DNAT) no kernel do nó do cliente',
  'topo.rewrite.ebpf':
    'os mapas eBPF do Cilium reescrevem ClusterIP:porta → IP do pod:targetPort no nó do cliente (sem kube-proxy)',
  'topo.rewrite.none': 'sem kube-proxy e sem substituto: nada reescreve os ClusterIPs',
  'topo.rewriteMark': 'DNAT',
  'topo.svc.headless': 'headless (sem ClusterIP)',
  'topo.svc.clusterIP': 'ClusterIP {ip}',
  'topo.svc.noBackends': 'nenhum endpoint pronto',
  'topo.svc.backends': '{count} endpoints prontos',
  'topo.dns': 'CoreDNS',
  'topo.dns.service': 'kube-dns {ip}:53',
  'topo.overlay.vxlan': 'VXLAN sobre UDP {port} ({device}): cabeçalho externo IP do nó → IP do nó',
  'topo.overlay.geneve': 'Geneve sobre UDP {port} ({device}): cabeçalho externo IP do nó → IP do nó',
  'topo.overlay.ipip':
    'rotas BGP (BIRD, TCP 179) + IP-in-IP ({device}): cabeçalho externo IP do nó → IP do nó',
  'topo.overlay.bgp': 'rotas BGP (BIRD, TCP 179): IPs dos pods no fio, sem encapsulamento',
  'topo.overlay.native': 'roteamento nativo: rotas do nó para cada intervalo de pods, sem encapsulamento',
  'topo.overlay.single': 'um só nó: o tráfego dos pods nunca sai dele',
  'topo.overlay.mtu': 'MTU dos pods {pod} (nó {node})',
  'topo.policy.selects': 'seleciona {selector}',
  'topo.policy.from': 'de {peers}',
  'topo.policy.to': 'para {peers}',
  'topo.policy.anyPeer': 'qualquer origem',
  'topo.policy.anyPort': 'qualquer porta',
  'topo.policy.denyIngress': 'não permite entrada',
  'topo.policy.denyEgress': 'não permite saída',
  'topo.policy.notEnforced': 'o {cni} não aplica',
  'topo.policy.selectsNone': 'não seleciona nenhum pod',
  'topo.entry.gateway': 'Gateway',
  'topo.entry.ingress': 'Ingress',
  'topo.entry.loadbalancer': 'LoadBalancer',
  'topo.entry.nodeport': 'NodePort',
  'topo.entry.routes': 'HTTPRoutes: {list}',
  'topo.legend': 'Legenda',
  'topo.legend.northSouth': 'norte-sul (de fora)',
  'topo.legend.eastWest': 'leste-oeste: Service → pods',
  'topo.legend.dns': 'DNS',
  'topo.legend.overlay': 'overlay entre os nós',
  'topo.legend.policy': 'NetworkPolicy → pods selecionados',
  'text.cluster':
    'Cluster {distribution}, CNI {cni}, kube-proxy no modo {mode}; rede de pods {podSubnet}, Services {serviceSubnet}',
  'text.nodes': 'Nós ({count})',
  'text.node': 'Nó {name} ({role}), IP {ip}, intervalo de pods {cidr}: {count} pods',
  'text.role.controlPlane': 'plano de controle',
  'text.role.worker': 'worker',
  'text.pod': 'Pod {key}, IP {ip}',
  'text.pod.noIP': 'Pod {key}, ainda sem IP ({phase})',
  'text.services': 'Services ({count})',
  'text.service': 'Service {key} ({type}), {address}: {ports}; backends: {backends}',
  'text.service.none': 'nenhum pronto',
  'text.dns': 'DNS do cluster: CoreDNS atrás do kube-dns {ip}: {pods}',
  'text.overlay': 'Entre os nós: {overlay}',
  'text.policies': 'NetworkPolicies ({count})',
  'text.policy': 'NetworkPolicy {key} ({types}) seleciona {selector}: {pods}',
  'text.policy.ingress': 'regra de entrada {n}: de {peers} em {ports}',
  'text.policy.egress': 'regra de saída {n}: para {peers} em {ports}',
  'text.entries': 'Entradas vindas de fora ({count})',
  'text.entry': '{kind} {key} em {addresses}, {listeners} → {services}',
  'text.none': 'nenhum',
  'hop.resolv-conf': 'resolv.conf',
  'hop.hosts-file': '/etc/hosts',
  'hop.dns-query': 'Consulta DNS',
  'hop.dns-result': 'Resposta DNS',
  'hop.socket': 'Socket',
  'hop.port-forward': 'port-forward',
  'hop.service': 'Service',
  'hop.netfilter': 'Netfilter',
  'hop.no-endpoints': 'Sem endpoints',
  'hop.dnat': 'DNAT',
  'hop.snat': 'SNAT',
  'hop.network-policy': 'NetworkPolicy',
  'hop.route': 'Rota',
  'hop.mtu': 'MTU',
  'hop.no-route': 'Sem rota',
  'hop.delivered': 'Entregue',
  'hop.no-listener': 'Recusado',
  'hop.external': 'Externo',
  'hop.edge-proxy': 'Proxy de Ingress',
  'walk.resolvConf':
    'O resolvedor lê o /etc/resolv.conf: nameserver {nameserver}, search {search}, ndots:{ndots} ({libc}). Ele tenta {candidates}.',
  'walk.hostsFile': 'O /etc/hosts responde {name}: {addresses}.',
  'walk.dnsAnswered':
    'Consulta DNS {type} de {name} para {server} (o Service kube-dns): resposta {answers} ({rcode}), do pod CoreDNS {pod}.',
  'walk.dnsNoRecords': 'nenhum registro',
  'walk.dnsTimeout': 'Consulta DNS {type} de {name} para {server}: sem resposta, a consulta expirou.',
  'walk.dnsRefused': 'Consulta DNS {type} de {name} para {server}: recusada.',
  'walk.dnsResult': '{name} resolve para {addresses}.',
  'walk.dnsFailed': '{name} não resolve: {error}.',
  'walk.socket': 'O cliente abre uma conexão {protocol} de {from} para {to}.',
  'walk.socketHost':
    'O cliente abre uma conexão {protocol} de {from} para {to}, na pilha de rede do próprio nó (hostNetwork).',
  'walk.portForward':
    'kubectl port-forward: localhost:{local} → servidor de API → kubelet → pod {pod} porta {port}. Sem Service, sem kube-proxy, sem NetworkPolicy.',
  'walk.service.iptables':
    '{address}:{port} é o Service {service}. No nó {node}, as regras iptables do kube-proxy casam com ele ({chains}) e a regra de DNAT escolhe o endpoint {endpoint}{pod}. {evaluated} regras avaliadas.',
  'walk.service.nftables':
    '{address}:{port} é o Service {service}. No nó {node}, o elemento do mapa nftables do kube-proxy casa com ele ({chains}) e escolhe o endpoint {endpoint}{pod}. {evaluated} regras avaliadas.',
  'walk.service.ipvs':
    '{address}:{port} é o Service {service}. No nó {node}, o servidor virtual IPVS {address}:{port} escolhe o servidor real {endpoint}{pod}.',
  'walk.service.cilium':
    '{address}:{port} é o Service {service}. No nó {node}, o mapa de Services eBPF do Cilium (sem regras do kube-proxy) escolhe o backend {endpoint}{pod}.',
  'walk.service.other':
    '{address}:{port} é o Service {service}. No nó {node} ({mode}), a conexão vai para o endpoint {endpoint}{pod}.',
  'walk.service.pod': ' (pod {pod})',
  'walk.service.established': ' Uma entrada do conntrack já existente decide: mesma conexão, mesmo backend.',
  'walk.rule': 'Regra que casou: {rule}',
  'walk.netfilter': '{verdict} no nó {node} em {table}/{chain}{service}.',
  'walk.netfilter.service': ' para o Service {service}',
  'walk.noEndpoints':
    'O Service {service} não tem endpoint pronto: a regra do kube-proxy no {node} rejeita a conexão.',
  'walk.dnat': 'DNAT no nó {node}: destino {from} → {to}.',
  'walk.snat.kube-proxy-masquerade': 'SNAT no nó {node}: origem {from} → {to} (masquerade do kube-proxy).',
  'walk.snat.egress-masquerade':
    'SNAT no nó {node}: origem {from} → {to} (masquerade do tráfego que sai da rede de pods).',
  'walk.direction.Ingress': 'entrada',
  'walk.direction.Egress': 'saída',
  'walk.policy.allowed':
    '{Direction} do pod {pod}: permitida pela NetworkPolicy {policy}, regra de {direction} {rule} (par {peer}{port}).',
  'walk.policy.allowedSome':
    '{Direction} do pod {pod}: permitida por uma regra de NetworkPolicy (par {peer}{port}).',
  'walk.policy.blocked':
    '{Direction} do pod {pod}: BLOQUEADA. Selecionado por {policies} e nenhuma regra permite {peer}{port}: o pacote é descartado.',
  'walk.policy.not-isolated':
    '{Direction} do pod {pod}: nenhuma NetworkPolicy o seleciona para {direction}, então ele não está isolado e o pacote passa.',
  'walk.policy.not-enforced':
    '{Direction} do pod {pod}: {policies}a NetworkPolicy não é aplicada aqui ({reason}).',
  'walk.policy.selectedBy': 'selecionado por {policies}, mas ',
  'walk.policy.port': ' na porta {port}',
  'walk.enforcement.not-enforced-by-flannel': 'o flannel aceita as políticas e as ignora',
  'walk.enforcement.not-enforced-k3s-disabled': 'o k3s roda com --disable-network-policy',
  'walk.enforcement.no-cni': 'nenhum CNI instalado',
  'walk.enforcement.other': '{reason}',
  'walk.route.vxlan':
    'Rota no nó {node}: {device} encapsula o pacote em VXLAN até o {toNode}. Cabeçalho externo {src} → {dst} UDP {port}.',
  'walk.route.geneve':
    'Rota no nó {node}: {device} encapsula o pacote em Geneve até o {toNode}. Cabeçalho externo {src} → {dst} UDP {port}.',
  'walk.route.ipip':
    'Rota no nó {node}: {device} encapsula o pacote em IP-in-IP até o {toNode}. Cabeçalho externo {src} → {dst} (protocolo IP 4).',
  'walk.route.bgp':
    'Rota no nó {node}: uma rota aprendida por BGP o envia ao {toNode} por {device}, sem encapsulamento (IPs dos pods no fio).',
  'walk.route.bridge': 'No nó {node}: o bridge {device} entrega o pacote ao veth do pod.',
  'walk.route.routed-veth':
    'No nó {node}: uma rota /32 o envia direto ao veth do pod ({device}), sem bridge.',
  'walk.route.other': 'Rota no nó {node}: {text}.',
  'walk.route.mtu': ' MTU {mtu}.',
  'walk.mtu.stalled':
    'MTU do pod {podMtu} > MTU do caminho {pathMtu}: segmentos de {bytes} bytes são descartados dentro do túnel; pacotes pequenos passam, os dados nunca chegam.',
  'walk.mtu.ok':
    'MTU do pod {podMtu} > MTU do caminho {pathMtu}, mas {bytes} bytes cabem em um segmento pequeno.',
  'walk.noRoute': 'Sem rota para {ip}: {reason}.',
  'walk.delivered': 'Entregue ao {who} em {address}{process}. Ele vê o cliente como {client}.',
  'walk.delivered.process': ' ({process})',
  'walk.who.pod': 'pod {pod}',
  'walk.who.node': 'nó {node}',
  'walk.noListener.TCP':
    'Nada escuta em {ip}:{port}/TCP no {who}: o kernel responde com TCP RST (conexão recusada).',
  'walk.noListener.UDP': 'Nada escuta em {ip}:{port}/UDP no {who}: o kernel responde ICMP port unreachable.',
  'walk.external': 'O pacote sai do cluster para {host} ({address}) na internet.',
  'walk.edgeProxy':
    '{proxy} ({implementation}) lê o Host {host} e o caminho {path}: {matched} manda para o Service {service}; o proxy abre a própria conexão até o endpoint {endpoint}.',
  'walk.edgeProxy.answered':
    '{proxy} ({implementation}) lê o Host {host} e o caminho {path} e responde {status} ele mesmo: {reason}.',
  'walk.outcome.connected': 'Conectado.',
  'walk.outcome.refused': 'Recusado: a conexão é rejeitada na hora.',
  'walk.outcome.timeout': 'Tempo esgotado: o pacote é descartado e nada volta.',
  'walk.outcome.unreachable': 'Inalcançável: nenhum host responde por este endereço.',
  'walk.outcome.dns-failure': 'A resolução de nome falhou.',
  'walk.outcome.resolved': 'O nome resolve.',
  'walk.deciding': 'Este salto decide o resultado.',
  'walk.title': '{program} a partir de {from}: {count} saltos',
  'walk.from.pod': 'pod {pod}',
  'walk.from.node': 'nó {node}',
  'walk.from.external': 'sua máquina',
  'matrix.allowed': 'permitido',
  'matrix.blocked': 'bloqueado',
  'matrix.refused': 'recusado',
  'matrix.none': 'não testado',
  'matrix.caption': 'Alcance: as linhas são as origens, as colunas os destinos (pod:porta)',
  'matrix.cell': '{from} → {to} porta {port}: {verdict}',
  'matrix.self': '{pod} → ele mesmo: não testado',
  'matrix.summary.empty': 'Nenhum pod em execução escuta em uma porta ainda: nada a testar.',
  'matrix.summary.allAllowedNoPolicy':
    'Todos os {total} pares permitidos: nenhuma NetworkPolicy isola estes pods.',
  'matrix.summary.allAllowedNotEnforced':
    'Todos os {total} pares permitidos: o {cni} não aplica NetworkPolicy, digam as políticas o que disserem.',
  'matrix.summary.allAllowedByRules':
    'Todos os {total} pares permitidos, por regras de política: as políticas isolam alguma coisa?',
  'matrix.summary.allBlocked':
    'Todos os {total} pares bloqueados: as políticas isolam estes pods e não permitem nada entre eles (restritivas demais?).',
  'matrix.summary.mixed': '{allowed} de {total} pares permitidos, {blocked} bloqueados, {refused} recusados.',
  'matrix.reason.not-isolated': 'nenhuma NetworkPolicy isola nenhum dos dois pods',
  'matrix.reason.allowed-by-rule': 'uma regra de NetworkPolicy permite',
  'matrix.reason.no-rule-allowed':
    '{direction}: uma política seleciona o pod e nenhuma regra permite este par',
  'matrix.reason.not-enforced': 'o CNI não aplica NetworkPolicy',
  'matrix.reason.no-listener': 'nada escuta nessa porta',
  'matrix.reason.from-local-node': 'o tráfego do próprio nó é sempre permitido',
  'matrix.reason.not-a-pod': 'não é um pod',
  'matrix.reason.no-endpoints': 'o Service não tem endpoint pronto: o kube-proxy rejeita a conexão',
  'matrix.reason.no-route': 'sem rota para o endereço',
  'matrix.reason.dropped': 'o pacote é descartado no caminho',
  'matrix.svc.backend': 'endpoint {backend} {address}',
  'matrix.svcCell': '{from} → Service {service} {address}: {verdict}',
  'matrix.captionServices':
    'Alcance pelos Services: as linhas são os pods de origem, as colunas as portas dos Services (nome, ClusterIP:porta)',
  'matrix.summary.servicesEmpty':
    'Nenhum Service com ClusterIP ainda, ou nenhum pod em execução para fazer a chamada: nada a testar.',
  'matrix.decidedBy': 'Decidido por: {hop}',
  'ui.topology': 'Diagrama da rede',
  'ui.textEquivalent': 'Descrição do diagrama em texto',
  'ui.download': 'Baixar SVG',
  'ui.walk': 'Caminho do pacote',
  'ui.walkEmpty':
    'Nenhum trace ainda. Rode trace no terminal, use o formulário ou tecle Enter em uma célula da matriz.',
  'ui.prev': 'Salto anterior',
  'ui.next': 'Próximo salto',
  'ui.first': 'Primeiro salto',
  'ui.last': 'Último salto',
  'ui.stepOf': 'Salto {n} de {total}',
  'ui.walkHelp':
    'Use ← e → (ou os botões) para avançar e voltar pelos saltos; Home e End vão ao primeiro e ao último.',
  'ui.matrix': 'Matriz de alcance',
  'ui.matrixHelp': 'As setas movem entre as células; Enter faz o trace do par e mostra a regra que decide.',
  'ui.matrixMode': 'Colunas',
  'ui.matrixMode.pods': 'Pods (IP do pod:porta)',
  'ui.matrixMode.services': 'Services (ClusterIP:porta)',
  'ui.matrixServicesTooBig':
    '{pods} pods × {ports} portas de Service são conexões demais para testar aqui. Faça o trace de um par pelo formulário.',
  'ui.matrixTooBig':
    '{rows} pods × {columns} destinos é uma grade grande demais para desenhar aqui; a linha acima conta todos os pares. Faça o trace de um par pelo formulário.',
  'ui.tracing': 'Fazendo o trace de {from} → {to}…',
  'ui.showWalk': 'Ver o caminho do pacote',
  'ui.network': 'Rede',
  'ui.tabs': 'Visões da rede',
  'ui.tab.diagram': 'Diagrama',
  'ui.tab.walk': 'Caminho do pacote',
  'ui.tab.matrix': 'Matriz',
  'ui.traceFrom': 'Do pod',
  'ui.traceTo': 'Para (nome ou IP)',
  'ui.tracePort': 'Porta',
  'ui.traceButton': 'Trace',
  'ui.refresh': 'Atualizar',
  'ui.updated': 'Diagrama atualizado.',
  'ui.error': 'Não foi possível desenhar a rede: {reason}',
};

const DICTIONARIES: Readonly<Record<Locale, Readonly<Record<StringKey, string>>>> = { en, 'pt-BR': ptBR };

export type Params = Readonly<Record<string, string | number>>;

/** The string for `key` in `locale` with `{name}` placeholders filled (unknown placeholders stay). */
export function format(locale: Locale, key: StringKey, params: Params = {}): string {
  const template = DICTIONARIES[locale][key];
  return template.replace(/\{(\w+)\}/g, (m, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : m,
  );
}

export const translator =
  (locale: Locale) =>
  (key: StringKey, params?: Params): string =>
    format(locale, key, params);

export const dictionaryKeys = (locale: Locale): string[] => Object.keys(DICTIONARIES[locale]).sort();

/** `pt-BR` for anything that is not English (the site's default locale). */
export const toLocale = (lang: string | null | undefined): Locale =>
  lang?.toLowerCase().startsWith('en') ? 'en' : 'pt-BR';
