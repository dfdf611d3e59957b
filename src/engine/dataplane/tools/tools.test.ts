/**
 * Tool outputs against the real programs' formats. Where each expected text comes from:
 * - curl: lib/*.c at tags curl-7_88_1, curl-8_14_1 and curl-8_17_0 (hostip.c "Host %s:%d was resolved.",
 *   cfilters.c "Established %sconnection to %s (%s port %u) from %s port %u ", request.c "Request
 *   completely sent off", multi.c "Connection #%d to host %s:%d left intact", cf-ip-happy.c "Failed to
 *   connect to %s %s %s%s%safter %d ms: %s", multi.c "Connection timed out after %d milliseconds"),
 *   src/tool_cb_dbg.c "[%zu bytes data]"; a local curl 7.88.1 -v run against python3 -m http.server.
 * - BusyBox: networking/wget.c ("Connecting to %s (%s)"), libbb/xconnect.c ("can't connect to remote
 *   host (%s)" + perror), networking/nc_bloaty.c ("%s (%s) open"), networking/ping.c, networking/
 *   nslookup.c (";; connection timed out; no servers could be reached").
 * - OpenBSD netcat: "Connection to %s (%s) %s port [%s/%s] succeeded!".
 * - iproute2 6.1 (`ip addr`, `ip route` trailing spaces, `ss -tlnp` column layout): captured on Debian 12.
 * - cri-tools: Go tabwriter minwidth 20 padding 3.
 */
import { describe, expect, it } from 'vitest';
import { clusterIP, exec, podIP, scenario } from '../network/test-helpers.ts';
import { iputilsTripTime } from './ping.ts';

const cluster = scenario('flannel', 'iptables', 41);
const server = clusterIP(cluster, 'server');

describe('curl', () => {
  it('8.17 -v prints the resolution, the connection with its source port and the exchange', () => {
    const r = exec(cluster, 'curl', 'curl -sv server -o /dev/null');
    expect(r.exitCode).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '* Host server:80 was resolved.',
      '* IPv6: (none)',
      `* IPv4: ${server}`,
      `*   Trying ${server}:80...`,
    ]);
    expect(lines[4]).toMatch(
      new RegExp(
        `^\\* Established connection to server \\(${server.replace(/\./g, '\\.')} port 80\\) from ${podIP(cluster, 'curl').replace(/\./g, '\\.')} port \\d+ $`,
      ),
    );
    expect(lines.slice(5, 12)).toEqual([
      '* using HTTP/1.x',
      '> GET / HTTP/1.1',
      '> Host: server',
      '> User-Agent: curl/8.17.0',
      '> Accept: */*',
      '> ',
      '* Request completely sent off',
    ]);
    expect(lines).toContain('< HTTP/1.1 200 OK');
    expect(lines).toContain('{ [615 bytes data]');
    expect(lines).toContain('* Connection #0 to host server:80 left intact');
  });

  it("7.88 (nginx's Debian curl) words the connection the older way", () => {
    const r = exec(cluster, 'server-a', 'curl -sv server -o /dev/null');
    expect(r.stderr).toContain(`* Connected to server (${server}) port 80 (#0)\n`);
    expect(r.stderr).toContain('* Connection #0 to host server left intact\n');
    expect(r.stderr).not.toContain('was resolved');
  });

  it.each([
    { name: 'unknown name', args: 'curl -sS nope', code: 6, err: 'curl: (6) Could not resolve host: nope\n' },
    {
      name: 'closed port',
      args: `curl -sS ${'<ip>'}:8081`,
      code: 7,
      err: "curl: (7) Failed to connect to <ip> port 8081 after 1 ms: Couldn't connect to server\n",
    },
    {
      name: '-m on a dropped SYN',
      args: 'curl -sS -m 2 10.244.200.9',
      code: 28,
      err: 'curl: (28) Connection timed out after 2001 milliseconds\n',
    },
    {
      name: '-f on a 404',
      args: 'curl -sSf server/nope',
      code: 22,
      err: 'curl: (22) The requested URL returned error: 404\n',
    },
  ])("$name: exit $code with curl's message", ({ args, code, err }) => {
    const ip = podIP(cluster, 'server-b');
    const r = exec(cluster, 'curl', args.replace('<ip>', ip));
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toBe(`${err.replace('<ip>', ip)}command terminated with exit code ${code}\n`);
  });

  it('-w %{http_code} and -I', () => {
    expect(exec(cluster, 'curl', "curl -s -o /dev/null -w '%{http_code}' server").stdout).toBe('200');
    const head = exec(cluster, 'curl', 'curl -sI server').stdout;
    expect(head).toMatch(
      /^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.29\.4\r\nDate: .+ GMT\r\nContent-Type: text\/html\r\nContent-Length: 615\r\n/,
    );
  });

  it('a dropped SYN without -m waits for the kernel (≈130 s of simulated time)', () => {
    const before = cluster.clock.now();
    const r = exec(cluster, 'curl', 'curl -sS 10.244.200.9');
    expect(r.exitCode).toBe(28);
    expect(r.stderr).toMatch(
      /^curl: \(28\) Failed to connect to 10\.244\.200\.9 port 80 after 130039 ms: Couldn't connect to server\n/,
    );
    expect(cluster.clock.now() - before).toBeGreaterThanOrEqual(130_000);
  });
});

describe('BusyBox applets', () => {
  it('wget wording', () => {
    expect(exec(cluster, 'client', 'wget -qO- nope').stderr).toBe(
      "wget: bad address 'nope'\ncommand terminated with exit code 1\n",
    );
    const ip = podIP(cluster, 'server-b');
    expect(exec(cluster, 'client', `wget -O- ${ip}:8081`).stderr).toBe(
      `Connecting to ${ip} (${ip}:8081)\nwget: can't connect to remote host (${ip}): Connection refused\ncommand terminated with exit code 1\n`,
    );
    expect(exec(cluster, 'client', 'wget -qO- server').stdout).toContain('<title>Welcome to nginx!</title>');
  });

  it('nc -zv (BusyBox nc_bloaty) and OpenBSD netcat in netshoot', () => {
    expect(exec(cluster, 'client', 'nc -zv server 80').stderr).toBe(`server (${server}:80) open\n`);
    expect(exec(cluster, 'netshoot', 'nc -zv server 80').stderr).toBe(
      `Connection to server (${server}) 80 port [tcp/http] succeeded!\n`,
    );
    const ip = podIP(cluster, 'server-b');
    expect(exec(cluster, 'client', `nc -zv ${ip} 81`).stderr).toBe(
      `nc: ${ip} (${ip}:81): Connection refused\ncommand terminated with exit code 1\n`,
    );
  });

  it('ping to a pod replies; to a ClusterIP nothing comes back (iptables mode)', () => {
    const ip = podIP(cluster, 'server-a');
    const ok = exec(cluster, 'client', `ping -c 1 ${ip}`);
    const lines = ok.stdout.split('\n');
    expect(lines[0]).toBe(`PING ${ip} (${ip}): 56 data bytes`);
    expect(lines[1]).toMatch(/^64 bytes from 10\.244\.1\.\d+: seq=0 ttl=64 time=0\.\d{3} ms$/);
    expect(lines.slice(2, 5)).toEqual([
      '',
      `--- ${ip} ping statistics ---`,
      '1 packets transmitted, 1 packets received, 0% packet loss',
    ]);
    expect(lines[5]).toMatch(/^round-trip min\/avg\/max = 0\.\d{3}\/0\.\d{3}\/0\.\d{3} ms$/);
    const none = exec(cluster, 'client', `ping -c 2 -W 1 ${server}`);
    expect(none.stdout).toBe(
      `PING ${server} (${server}): 56 data bytes\n\n--- ${server} ping statistics ---\n2 packets transmitted, 0 packets received, 100% packet loss\n`,
    );
    expect(none.exitCode).toBe(1);
  });
});

describe('ping reply times (iputils ping_common.c, BusyBox ping.c)', () => {
  it.each([
    [45, '0.045'],
    [999, '0.999'],
    [1000, '1.00'],
    [9994, '9.99'],
    [9995, '10.0'],
    [14830, '14.8'],
    [14850, '14.9'],
    [99949, '99.9'],
    [99950, '100'],
    [123456, '123'],
  ])('iputils prints %i µs as time=%s ms', (us, text) => {
    expect(iputilsTripTime(us)).toBe(text);
  });

  it('an external host: iputils keeps one decimal per reply, three in the rtt line; BusyBox three everywhere', () => {
    const iputils = exec(cluster, 'netshoot', 'ping -c 3 example.com').stdout.split('\n');
    for (const l of iputils.slice(1, 4))
      expect(l).toMatch(/^64 bytes from \S+: icmp_seq=\d ttl=\d+ time=\d\d\.\d ms$/);
    expect(iputils).toContain('3 packets transmitted, 3 received, 0% packet loss, time 2002ms');
    expect(iputils[7]).toMatch(
      /^rtt min\/avg\/max\/mdev = \d+\.\d{3}\/\d+\.\d{3}\/\d+\.\d{3}\/\d+\.\d{3} ms$/,
    );
    const busybox = exec(cluster, 'client', 'ping -c 3 example.com').stdout.split('\n');
    for (const l of busybox.slice(1, 4))
      expect(l).toMatch(/^64 bytes from \S+: seq=\d ttl=\d+ time=\d\d\.\d{3} ms$/);
    expect(busybox[7]).toMatch(/^round-trip min\/avg\/max = \d+\.\d{3}\/\d+\.\d{3}\/\d+\.\d{3} ms$/);
  });
});

describe('dig argument order (BIND dig.c parse_args)', () => {
  // A word that is an RR type or class is taken as one before or after the name; -t/-c (also
  // glued: -tSRV) set them explicitly and close that; a second type warns ";; Warning, extra type
  // option" and the last wins; an unknown -t value is ";; Warning, ignoring invalid type X".
  const srvName = '_https._tcp.kubernetes.default.svc.cluster.local';
  const srvAnswer = '0 100 443 kubernetes.default.svc.cluster.local.\n';
  it.each([
    `dig +short SRV ${srvName}`,
    `dig +short ${srvName} SRV`,
    `dig +short ${srvName} srv IN`,
    `dig +short IN SRV ${srvName}`,
    `dig -t SRV +short ${srvName}`,
    `dig -tSRV +short ${srvName}`,
  ])('%s asks for SRV', (line) => {
    expect(exec(cluster, 'netshoot', line)).toEqual({ stdout: srvAnswer, stderr: '', exitCode: 0 });
  });

  it('the QUESTION section carries the type given before the name', () => {
    const r = exec(cluster, 'netshoot', `dig SRV ${srvName}`);
    expect(r.stdout).toContain(`;; QUESTION SECTION:\n;${srvName}. IN SRV\n`);
  });

  it('a second type warns and wins; an invalid -t is ignored with a warning', () => {
    expect(exec(cluster, 'netshoot', `dig +short A SRV ${srvName}`)).toEqual({
      stdout: srvAnswer,
      stderr: ';; Warning, extra type option\n',
      exitCode: 0,
    });
    expect(exec(cluster, 'netshoot', 'dig -t BOGUS +short kubernetes.default.svc.cluster.local')).toEqual({
      stdout: '10.96.0.1\n',
      stderr: ';; Warning, ignoring invalid type BOGUS\n',
      exitCode: 0,
    });
  });
});

describe('in-pod network views', () => {
  it('ip addr shows eth0 with the pod IP, the /24 of the bridge and the VXLAN MTU', () => {
    const ip = podIP(cluster, 'client');
    const out = exec(cluster, 'client', 'ip addr').stdout;
    expect(out).toMatch(
      /\n2: eth0@if\d+: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu 1450 qdisc noqueue state UP\n/,
    );
    expect(out).toContain(
      `    inet ${ip}/24 brd 10.244.1.255 scope global eth0\n       valid_lft forever preferred_lft forever\n`,
    );
  });

  it('ip route keeps iproute2 trailing spaces', () => {
    const ip = podIP(cluster, 'client');
    expect(exec(cluster, 'client', 'ip route').stdout).toBe(
      `default via 10.244.1.1 dev eth0 \n10.244.0.0/16 via 10.244.1.1 dev eth0 \n10.244.1.0/24 dev eth0 proto kernel scope link src ${ip} \n`,
    );
  });

  it('ss -tlnp lists what listens, laid out as iproute2 6.1 does', () => {
    expect(exec(cluster, 'netshoot', 'ss -tlnp').stdout).toBe(
      'State Recv-Q Send-Q Local Address:Port Peer Address:PortProcess\n',
    );
  });
});

describe('node tools', () => {
  // The node's own programs (crictl) and files (/etc/cni) are reached through `chroot /host`.
  const node = (line: string) => {
    cluster.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
    cluster.execSync('chroot /host', { interactive: true });
    const r = cluster.execSync(line, { interactive: true });
    cluster.execSync('exit', { interactive: true });
    cluster.execSync('exit', { interactive: true });
    return r;
  };

  it("ip route: flannel routes other nodes' /24s through flannel.1 onlink", () => {
    expect(node('ip route').stdout).toBe(
      'default via 172.18.0.1 dev eth0 \n10.244.0.0/24 via 10.244.0.0 dev flannel.1 onlink \n10.244.1.0/24 dev cni0 proto kernel scope link src 10.244.1.1 \n10.244.2.0/24 via 10.244.2.0 dev flannel.1 onlink \n172.18.0.0/16 dev eth0 proto kernel scope link src 172.18.0.3 \n',
    );
  });

  it('crictl pods uses the tabwriter layout', () => {
    const out = node('crictl pods').stdout;
    expect(out.split('\n')[0]).toMatch(
      /^POD ID {14}CREATED {13}STATE {15}NAME +NAMESPACE +ATTEMPT +RUNTIME$/,
    );
    expect(out).toMatch(
      /\n[0-9a-f]{13} {7}\d+ (seconds|minutes) ago +Ready +client +default +0 +\(default\)\n/,
    );
  });

  it('crictl pods -q prints full sandbox IDs; --name is an unanchored regex (cri-tools matchesRegex)', () => {
    // One session for all lines: every `kubectl debug node/...` adds a node-debugger pod to the node.
    cluster.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
    cluster.execSync('chroot /host', { interactive: true });
    const node = (line: string) => cluster.execSync(line, { interactive: true });
    const ids = node('crictl pods -q').stdout.trim().split('\n');
    expect(ids.every((id) => /^[0-9a-f]{64}$/.test(id))).toBe(true);
    // The table's NAME column (4th) is what --name filters.
    const names = node('crictl pods')
      .stdout.trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/ {2,}/)[3] ?? '');
    const withE = names.filter((n) => n.includes('e'));
    expect(withE.length).toBeLessThan(names.length);
    expect(node('crictl pods --name e -q').stdout.trim().split('\n')).toHaveLength(withE.length);
    const client = node('crictl pods --name ^client$ -q').stdout;
    expect(client).toMatch(/^[0-9a-f]{64}\n$/);
    expect(node('crictl pods --name=^client$ -q').stdout).toBe(client);
    const inspected = JSON.parse(node('crictl inspectp $(crictl pods --name ^client$ -q)').stdout) as {
      status: { id: string; metadata: { name: string } };
    };
    expect(inspected.status.id).toBe(client.trim());
    expect(inspected.status.metadata.name).toBe('client');
    expect(node('crictl pods --name nomatch').stdout).toMatch(
      /^POD ID +CREATED +STATE +NAME +NAMESPACE +ATTEMPT +RUNTIME\n$/,
    );
    cluster.execSync('exit', { interactive: true });
    cluster.execSync('exit', { interactive: true });
  });

  it('crictl ps -q, --name (container name) and --pod (sandbox ID prefix)', () => {
    const podId = node('crictl pods --name ^server-a$ -q').stdout.trim();
    const ps = node(`crictl ps --pod ${podId.slice(0, 13)}`).stdout.split('\n');
    expect(ps).toHaveLength(3);
    expect(ps[1]).toMatch(
      new RegExp(`^[0-9a-f]{13} .* Running +main +0 +${podId.slice(0, 13)} +server-a +default$`),
    );
    const ids = node(`crictl ps -q --pod ${podId}`).stdout;
    expect(ids).toMatch(/^[0-9a-f]{64}\n$/);
    expect(node('crictl ps -q --name ^nope$').stdout).toBe('');
    expect(node('crictl ps -q --name ^main$').stdout.split('\n').length).toBeGreaterThan(2);
    expect(node('crictl pods --bogus').stderr).toMatch(
      /level=fatal msg="flag provided but not defined: --bogus"/,
    );
  });

  it('the node sees the CNI conflist and one veth per pod on cni0', () => {
    expect(node('cat /etc/cni/net.d/10-flannel.conflist').stdout).toContain('"type": "flannel"');
    const links = node('bridge link').stdout.trim().split('\n');
    const pods = cluster.store
      .list('pods')
      .filter((p) => p.spec?.nodeName === 'kind-worker' && !p.spec.hostNetwork && p.status?.podIP);
    expect(links).toHaveLength(pods.length);
  });

  it('conntrack -L: an answered DNS query through the kube-dns Service is not [UNREPLIED]', () => {
    exec(cluster, 'netshoot', 'dig +short kubernetes.default.svc.cluster.local');
    const udp = node('conntrack -L')
      .stdout.split('\n')
      .filter((l) => l.startsWith('udp ') && l.includes('dport=53 '));
    expect(udp.length).toBeGreaterThan(0);
    for (const l of udp) {
      expect(l).toMatch(
        /^udp {6}17 \d+ src=\S+ dst=10\.96\.0\.10 sport=\d+ dport=53 src=\S+ dst=\S+ sport=53 dport=\d+ mark=0 use=1$/,
      );
    }
  });

  it('conntrack -L shows a finished curl through the Service in TIME_WAIT with the DNAT reply tuple', () => {
    exec(cluster, 'client', `wget -qO /dev/null ${server}`);
    const out = node('conntrack -L');
    expect(out.stdout).toMatch(
      new RegExp(
        `^tcp      6 \\d+ TIME_WAIT src=${podIP(cluster, 'client').replace(/\./g, '\\.')} dst=${server.replace(/\./g, '\\.')} sport=\\d+ dport=80 src=10\\.244\\.\\d+\\.\\d+ dst=`,
        'm',
      ),
    );
    expect(out.stderr).toMatch(
      /^conntrack v1\.4\.7 \(conntrack-tools\): \d+ flow entries have been shown\.\n$/,
    );
  });

  it('conntrack -L filters on the original tuple (-s, -d, --dport) and the reply tuple (-r), as conntrack(8)', () => {
    exec(cluster, 'client', `wget -qO /dev/null ${server}`);
    const rows = (line: string) => node(line).stdout.split('\n').filter(Boolean);
    const client = podIP(cluster, 'client');
    const all = rows('conntrack -L');
    const byClient = rows(`conntrack -L -s ${client}`);
    expect(byClient.length).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThanOrEqual(byClient.length);
    // An address that opened nothing (TEST-NET-1) matches no flow.
    expect(rows('conntrack -L -s 192.0.2.1')).toEqual([]);
    for (const l of byClient) expect(l.split(' src=')[1]?.split(' ')[0]).toBe(client);
    const toService = rows(`conntrack -L -p tcp -d ${server} --dport 80`);
    expect(toService.length).toBeGreaterThan(0);
    for (const l of toService) expect(l).toContain(`dst=${server} `);
    const backend = /dport=80 src=(\S+) /.exec(toService[0] ?? '')?.[1] ?? '';
    const sport = /sport=(\d+)/.exec(toService[0] ?? '')?.[1];
    const byReply = rows(`conntrack -L -r ${backend}`);
    expect(byReply.some((l) => l.includes(` sport=${sport} dport=80 src=${backend} `))).toBe(true);
    expect(rows('conntrack -L -p tcp --dport 53')).toEqual([]);
    expect(node('conntrack -L -p tcp --dport 53').stderr).toBe(
      'conntrack v1.4.7 (conntrack-tools): 0 flow entries have been shown.\n',
    );
  });
});

describe("CoreDNS's log plugin shows every query the resolvers send", () => {
  const c = scenario('calico', 'iptables', 42);
  const cm = c.store.get('configmaps', 'kube-system', 'coredns')!;
  c.api.update({ ...cm, data: { Corefile: cm.data!.Corefile!.replace('errors\n', 'errors\n    log\n') } });
  const logs = () =>
    c.store
      .list('pods', 'kube-system')
      .filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns')
      .map((p) => c.execSync(`kubectl -n kube-system logs ${p.metadata.name}`).stdout)
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('[INFO] ') && l.includes('exemplo'));

  it.each([
    {
      client: 'client',
      tool: 'glibc (busybox wget) through the search list',
      cmd: 'wget -qO- -T 1 http://api.exemplo.com/',
      queries: 8,
    },
    { client: 'client', tool: 'absolute name', cmd: 'wget -qO- -T 1 http://api.exemplo.com./', queries: 2 },
  ])('$tool: $queries queries logged', ({ client, cmd, queries }) => {
    const before = logs().length;
    exec(c, client, cmd);
    const lines = logs().slice(before);
    expect(lines).toHaveLength(queries);
    expect(lines[0]).toMatch(
      /^\[INFO\] 10\.244\.\d+\.\d+:\d+ - \d+ "A IN api\.exemplo\.com\.(default\.svc\.cluster\.local\. )?/,
    );
  });
});

describe("calico's installed conflist", () => {
  it("is calico.yaml's template (one-node/cni.mdx) with install-cni's fill-ins: calico + calico-ipam, portmap, bandwidth", () => {
    const calico = scenario('calico', 'iptables', 41);
    calico.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
    const r = calico.execSync('cat /host/etc/cni/net.d/10-calico.conflist', { interactive: true });
    calico.execSync('exit', { interactive: true });
    // __KUBERNETES_NODE_NAME__ -> the node, __CNI_MTU__ -> calico.yaml's veth_mtu "0" (auto-detect),
    // __KUBECONFIG_FILEPATH__ -> /etc/cni/net.d/calico-kubeconfig.
    expect(r.stdout).toBe(`{
  "name": "k8s-pod-network",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "calico",
      "log_level": "info",
      "log_file_path": "/var/log/calico/cni/cni.log",
      "datastore_type": "kubernetes",
      "nodename": "kind-worker",
      "mtu": 0,
      "ipam": {
          "type": "calico-ipam"
      },
      "policy": {
          "type": "k8s"
      },
      "kubernetes": {
          "kubeconfig": "/etc/cni/net.d/calico-kubeconfig"
      }
    },
    {
      "type": "portmap",
      "snat": true,
      "capabilities": {"portMappings": true}
    },
    {
      "type": "bandwidth",
      "capabilities": {"bandwidth": true}
    }
  ]
}
`);
  });
});

describe('kubectl debug node/X -it --image=busybox, then chroot /host', () => {
  it("runs busybox sh (ash) and chroot enters the node's root: its /bin/sh (dash), files and programs", () => {
    const c = scenario('flannel', 'iptables', 41);
    const run = (line: string) => c.execSync(line, { interactive: true });
    run('kubectl debug node/kind-worker -it --image=busybox');
    expect(run('echo $0').stdout).toBe('sh\n');
    // ash words a missing command "sh: X: not found" (no line number, unlike dash).
    expect(run('nosuch').stderr).toBe('sh: nosuch: not found\n');
    // BusyBox chroot's wording (coreutils says "cannot change root directory to ...", exit 125).
    expect(run('chroot /nope')).toMatchObject({
      stderr: "chroot: can't change root directory to '/nope': No such file or directory\n",
      exitCode: 1,
    });
    expect(run('chroot /host iptables-save -t nat').stdout).toMatch(
      /^# Generated by iptables-save v[\d.]+ on .*\n\*nat\n/,
    );
    expect(run('chroot /host nosuch')).toMatchObject({
      stderr: "chroot: can't execute 'nosuch': No such file or directory\n",
      exitCode: 127,
    });
    expect(run('chroot /host').exitCode).toBe(0);
    expect(run('echo $0').stdout).toBe('sh\n');
    expect(run('nosuch').stderr).toBe('sh: 1: nosuch: not found\n');
    expect(run('cat /etc/cni/net.d/10-flannel.conflist').stdout).toContain('"type": "flannel"');
    expect(run('crictl pods -q').stdout).toMatch(/^([0-9a-f]{64}\n)+$/);
    run('exit');
    // Back in the busybox shell, then on the learner's machine.
    expect(run('echo $0').stdout).toBe('sh\n');
    run('exit');
    expect(run('echo $0').stdout).toBe('bash\n');
  });

  it('coreutils chroot (ubuntu) words its errors its own way (netshoot is Alpine: BusyBox chroot)', () => {
    const c = scenario('flannel', 'iptables', 41);
    c.execSync('kubectl debug node/kind-worker -it --image=ubuntu', { interactive: true });
    expect(c.execSync('chroot', { interactive: true })).toMatchObject({
      stderr: "chroot: missing operand\nTry 'chroot --help' for more information.\n",
      exitCode: 125,
    });
    expect(c.execSync('chroot /nope', { interactive: true })).toMatchObject({
      stderr: "chroot: cannot change root directory to '/nope': No such file or directory\n",
      exitCode: 125,
    });
    expect(c.execSync('chroot /host nosuch', { interactive: true })).toMatchObject({
      stderr: "chroot: failed to run command 'nosuch': No such file or directory\n",
      exitCode: 127,
    });
    c.execSync('exit', { interactive: true });
  });
});

describe('ip -d (iproute2 6.1 print_linkinfo with show_details)', () => {
  const c = scenario('flannel', 'iptables', 41);
  const node = (line: string) => {
    c.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
    const r = c.execSync(line, { interactive: true });
    c.execSync('exit', { interactive: true });
    return r;
  };

  it("flannel.1: the vxlan line of iplink_vxlan.c's vxlan_print_opt, then the af_spec and queue tokens", () => {
    const lines = node('ip -d link show flannel.1').stdout.split('\n');
    // No txqueuelen on a noqueue VXLAN device: "group default " keeps its trailing space.
    expect(lines[0]).toBe(
      '3: flannel.1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UNKNOWN mode DEFAULT group default ',
    );
    expect(lines[1]).toMatch(
      /^ {4}link\/ether [0-9a-f:]{17} brd ff:ff:ff:ff:ff:ff promiscuity 0 minmtu 68 maxmtu 65535 $/,
    );
    expect(lines[2]).toBe(
      '    vxlan id 1 local 172.18.0.3 dev eth0 srcport 0 0 dstport 8472 nolearning ttl auto ageing 300 udpcsum noudp6zerocsumtx noudp6zerocsumrx addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 tso_max_size 65536 tso_max_segs 65535 gro_max_size 65536 ',
    );
  });

  it('-details, -d, dev X and the kinds of the other links (veth, bridge)', () => {
    expect(node('ip -details link show dev flannel.1').stdout).toBe(node('ip -d link show flannel.1').stdout);
    const veths = node('ip -d link')
      .stdout.split('\n')
      .filter((l) => l.includes('master cni0'));
    expect(veths.length).toBeGreaterThan(0);
    const out = node('ip -d link').stdout;
    expect(out).toMatch(
      /link-netns cni-\S+ promiscuity 1 minmtu 68 maxmtu 65535 \n {4}veth \n {4}bridge_slave /,
    );
    // ip addr -d has no addrgenmode (print_af_spec runs for `ip link` only).
    expect(node('ip -d addr show flannel.1').stdout).toMatch(/noudp6zerocsumrx numtxqueues 1 /);
  });

  // Token layout captured with iproute2 6.1 (`ip -d link show`) on a bridge and a veth enslaved to it;
  // fields and order as in iplink_bridge.c bridge_print_opt and iplink_bridge_slave.c.
  it('cni0: the bridge options line (STP off, bridge ID 8000.<its MAC>, timers as %4i.%.2i)', () => {
    const lines = node('ip -d link show cni0').stdout.split('\n');
    const mac = /link\/ether (\S+) /.exec(lines[1]!)![1]!;
    expect(lines[2]).toMatch(
      new RegExp(
        `^ {4}bridge forward_delay 1500 hello_time 200 max_age 2000 ageing_time 30000 stp_state 0 priority 32768 vlan_filtering 0 vlan_protocol 802\\.1Q bridge_id 8000\\.${mac} designated_root 8000\\.${mac} root_port 0 root_path_cost 0 topology_change 0 topology_change_detected 0 hello_timer {4}0\\.00 tcn_timer {4}0\\.00 topology_change_timer {4}0\\.00 gc_timer [ \\d]{4}\\.\\d\\d vlan_default_pvid 1 vlan_stats_enabled 0 vlan_stats_per_port 0 group_fwd_mask 0 group_address 01:80:c2:00:00:00 mcast_snooping 1 no_linklocal_learn 0 mcast_vlan_snooping 0 mcast_router 1 mcast_query_use_ifaddr 0 mcast_querier 0 mcast_hash_elasticity 16 mcast_hash_max 4096 mcast_last_member_count 2 mcast_startup_query_count 2 mcast_last_member_interval 100 mcast_membership_interval 26000 mcast_querier_interval 25500 mcast_query_interval 12500 mcast_query_response_interval 1000 mcast_startup_query_interval 3124 mcast_stats_enabled 0 mcast_igmp_version 2 mcast_mld_version 1 nf_call_iptables 0 nf_call_ip6tables 0 nf_call_arptables 0 addrgenmode eui64 numtxqueues 1 `,
      ),
    );
  });

  it("a pod's veth on cni0: bridge_slave forwarding, priority 32 cost 2, hairpin on (flannel), port IDs in enslaving order", () => {
    const out = node('ip -d link').stdout;
    const bridge = /cni0: .*\n {4}link\/ether (\S+) /.exec(out)![1]!;
    const slaves = [...out.matchAll(/\n {4}bridge_slave .*/g)].map((m) => m[0].slice(5));
    expect(slaves.length).toBeGreaterThan(1);
    slaves.forEach((line, k) => {
      const n = k + 1;
      expect(line).toBe(
        `bridge_slave state forwarding priority 32 cost 2 hairpin on guard off root_block off fastleave off learning on flood on port_id 0x${(0x8000 + n).toString(16)} port_no 0x${n.toString(16)} designated_port ${0x8000 + n} designated_cost 0 designated_bridge 8000.${bridge} designated_root 8000.${bridge} hold_timer    0.00 message_age_timer    0.00 forward_delay_timer    0.00 topology_change_ack 0 config_pending 0 proxy_arp off proxy_arp_wifi off mcast_router 1 mcast_fast_leave off mcast_flood on bcast_flood on mcast_to_unicast off neigh_suppress off group_fwd_mask 0 group_fwd_mask_str 0x0 vlan_tunnel off isolated off locked off addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 tso_max_size 65536 tso_max_segs 65535 gro_max_size 65536 `,
      );
    });
  });

  it('options go before the object; unknown ones are refused as ip.c and iplink.c word it', () => {
    expect(node('ip -x link')).toMatchObject({
      stderr: 'Option "-x" is unknown, try "ip -help".\n',
      exitCode: 255,
    });
    expect(node('ip link -d')).toMatchObject({
      stderr: 'Command "-d" is unknown, try "ip link help".\n',
      exitCode: 255,
    });
  });
});
