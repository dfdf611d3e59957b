/**
 * A capture as job control runs it at an interactive prompt, across separate lines: `tcpdump … &`
 * prints bash's `[1] PID`, keeps recording while later lines make traffic (its lines show after the
 * line that made them), `jobs` lists it as bash does, `kill %1` makes tcpdump print its summary and
 * the prompt report `Done`, a `-c` count ends it by itself, and leaving the session ends it silently.
 * bash's own texts (the `jobs` row, `no such job`) are taken from running Debian's bash here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../src/engine/cluster/cluster.ts';
import { kindConfig } from '../../src/engine/dataplane/network/test-helpers.ts';
import { fileBytes } from '../../src/engine/util/encoding.ts';

function bash(script: string): { stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr };
}

const DNS_LINE =
  /^\d\d:\d\d:\d\d\.\d{6} IP 10\.244\.\d+\.\d+\.\d+ > 10\.96\.0\.10\.53: \d+\+ A\? web\.default\.svc\.cluster\.local\. \(47\)$/m;

describe('tcpdump in the background of an interactive session', () => {
  let c: Cluster;
  const line = (text: string) => c.execSync(text, { interactive: true });
  beforeAll(() => {
    c = createCluster(undefined, { seed: 5 });
    c.execSync(
      'kubectl create deployment web --image=nginx --port=80; kubectl expose deployment web --port=80; ' +
        'kubectl run ns --image=nicolaka/netshoot -- sleep infinity; kubectl wait --for=condition=Ready pod/ns --timeout=60s',
      { interactive: false },
    );
    expect(line('kubectl exec -it ns -- bash').exitCode).toBe(0);
  });

  it('records across prompt lines until kill %1, then prints its summary and Done', () => {
    const start = line('tcpdump -i eth0 -nn udp port 53 &');
    expect(start.stderr).toMatch(
      /listening on eth0, link-type EN10MB \(Ethernet\), snapshot length 262144 bytes\n\[1\] \d+\n$/,
    );
    // bash's own row for a running job, with the command as typed.
    const real = bash('sleep 2 & jobs; kill %1').stdout.replace('sleep 2', 'tcpdump -i eth0 -nn udp port 53');
    expect(line('jobs').stdout).toBe(real);
    const traffic = line('nslookup web');
    expect(traffic.stdout).toMatch(/Name:\tweb\.default\.svc\.cluster\.local\n/);
    expect(traffic.stdout).toMatch(DNS_LINE);
    // `bash -c` names the line (`line 1:`); at an interactive prompt bash does not.
    expect(line('kill %2').stderr).toBe(bash('kill %2').stderr.replace('line 1: ', ''));
    const killed = line('kill %1');
    expect(killed.stderr).toBe(
      '4 packets captured\n4 packets received by filter\n0 packets dropped by kernel\n' +
        '[1]+  Done                    tcpdump -i eth0 -nn udp port 53\n',
    );
    expect(line('jobs').stdout).toBe('');
  });

  it('ends by itself when -c is reached, reported before the next prompt', () => {
    line('tcpdump -nn -c 2 udp &');
    const r = line('nslookup web > /dev/null');
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stderr).toBe(
      '2 packets captured\n2 packets received by filter\n0 packets dropped by kernel\n' +
        '[1]+  Done                    tcpdump -nn -c 2 udp\n',
    );
  });

  it('says why wait cannot block at the prompt, and keeps the capture running', () => {
    line('tcpdump -nn udp &');
    const w = line('wait');
    expect(w.exitCode).toBe(130);
    expect(w.stderr).toMatch(/^packetpath: wait would block until %1 \(tcpdump -nn udp\) ends/);
    expect(line('jobs').stdout).toMatch(/^\[1\]\+  Running {17}tcpdump -nn udp &\n$/);
    line('kill -9 %1');
    expect(line('jobs').stdout).toBe('');
  });

  it('stops a capture whose session ended, without a word at the host prompt', () => {
    line('tcpdump -nn udp &');
    line('exit');
    const after = line('echo back');
    expect(after).toMatchObject({ stdout: 'back\n', stderr: '' });
    expect(line('jobs').stdout).toBe('');
  });
});

const haveTcpdump = spawnSync('tcpdump', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!haveTcpdump)('a node capture from kubectl debug node/… with netshoot (flannel)', () => {
  it("shows flannel's VXLAN on the node's eth0 with the pod's packet inside, as Debian tcpdump reads it", () => {
    const c = createCluster(kindConfig('flannel', 'iptables'), { seed: 7 });
    const host = (l: string) => c.execSync(l, { interactive: false });
    host(
      'kubectl create deployment web --image=nginx --port=80 --replicas=2; ' +
        `kubectl run ns --image=nicolaka/netshoot --overrides='{"spec":{"nodeName":"kind-worker"}}' -- sleep infinity; ` +
        'kubectl wait --for=condition=Ready pod/ns --timeout=60s; kubectl wait --for=condition=Ready pod -l app=web --timeout=60s',
    );
    const remote = host(
      'kubectl get po -l app=web -o jsonpath=\'{range .items[*]}{.spec.nodeName} {.status.podIP}{"\\n"}{end}\'',
    )
      .stdout.split('\n')
      .find((l) => l.startsWith('kind-worker2 '))
      ?.split(' ')[1];
    expect(remote).toBeDefined();
    const line = (l: string) => c.execSync(l, { interactive: true });
    line('kubectl debug node/kind-worker -it --image=nicolaka/netshoot');
    line('tcpdump -i eth0 -nn -c 3 -w /tmp/vxlan.pcap udp port 8472 &');
    line('tcpdump -i eth0 -nn -c 3 udp port 8472 &');
    // A second terminal: the pod on kind-worker talks to the web pod on kind-worker2.
    c.shell.execIn({ kind: 'pod', namespace: 'default', pod: 'ns', container: 'ns' }, [
      'curl',
      '-s',
      `${remote}`,
    ]);
    const shown = line('echo');
    expect(shown.stdout).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{6} IP 172\\.18\\.0\\.\\d+\\.\\d+ > 172\\.18\\.0\\.\\d+\\.8472: OTV, flags \\[I\\] \\(0x08\\), overlay 0, instance 1\\nIP 10\\.244\\.1\\.\\d+\\.\\d+ > ${remote!.replaceAll('.', '\\.')}\\.80: Flags \\[S\\]`,
        'm',
      ),
    );
    const pcap = line('cat /tmp/vxlan.pcap').stdout;
    const dir = mkdtempSync(join(tmpdir(), 'pp-vxlan-'));
    try {
      writeFileSync(join(dir, 'v.pcap'), fileBytes(pcap));
      const real = execFileSync('tcpdump', ['-nn', '-r', join(dir, 'v.pcap')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      expect(shown.stdout).toBe(`\n${real}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
