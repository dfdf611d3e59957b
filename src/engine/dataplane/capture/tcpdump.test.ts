import { describe, expect, it } from 'vitest';
import { restoreCluster } from '../../cluster/cluster.ts';
import { resolveImage } from '../../node/images.ts';
import { podIP, scenario } from '../network/test-helpers.ts';
import { podToolContext } from '../tools/tool-context.ts';
import { tcpdumpCommand } from '../tools/tcpdump.ts';
import { getCapture } from './captures.ts';

const cluster = scenario('flannel', 'iptables', 41);

describe('tcpdump in the shell', () => {
  it('runs in the background while traffic flows; -c ends it; wait collects it', () => {
    const r = cluster.execSync(
      `kubectl exec netshoot -- sh -c 'tcpdump -i eth0 -nn -c 4 udp port 53 & sleep 1; nslookup server >/dev/null; wait'`,
    );
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{6} IP ${podIP(cluster, 'netshoot').replace(/\./g, '\\.')}\\.\\d+ > 10\\.96\\.0\\.10\\.53: \\d+\\+ A\\? server\\.default\\.svc\\.cluster\\.local\\. \\(50\\)$`,
      ),
    );
    expect(r.stderr).toContain(
      'listening on eth0, link-type EN10MB (Ethernet), snapshot length 262144 bytes\n',
    );
    expect(r.stderr).toContain(
      '4 packets captured\n4 packets received by filter\n0 packets dropped by kernel\n',
    );
  });

  it('jobs lists it while it runs', () => {
    const r = cluster.execSync(`kubectl exec netshoot -- sh -c 'tcpdump -i eth0 -nn tcp & jobs; wait'`);
    // bash shows the command as it was typed.
    expect(r.stdout).toContain('[1]+  Running                 tcpdump -i eth0 -nn tcp &\n');
  });

  it("answers bad flags and expressions with tcpdump's words and status", () => {
    const cases: [string, string][] = [
      ['tcpdump -k', "tcpdump: invalid option -- 'k'\n"],
      ['tcpdump -c 0', 'tcpdump: invalid packet count 0\n'],
      ['tcpdump -i', "tcpdump: option requires an argument -- 'i'\n"],
      ['tcpdump port 99999', 'tcpdump: illegal port number 99999 > 65535\n'],
      ["tcpdump 'tcp and'", "tcpdump: can't parse filter expression: syntax error\n"],
      ['tcpdump -i nope', 'tcpdump: nope: No such device exists\n(SIOCGIFHWADDR: No such device)\n'],
      ['tcpdump -Q sideways', "tcpdump: unknown capture direction `sideways'\n"],
      ['tcpdump -r /nope.pcap', 'tcpdump: /nope.pcap: No such file or directory\n'],
    ];
    for (const [line, stderr] of cases) {
      const r = cluster.execSync(`kubectl exec netshoot -- ${line}`);
      expect(r.stderr.startsWith(stderr), `${line}: ${r.stderr}`).toBe(true);
      expect(r.exitCode).toBe(1);
    }
  });

  it('a catalogued tool the engine does not run says so', () => {
    const r = cluster.execSync('kubectl exec netshoot -- mtr -r server');
    expect(r.stderr).toBe('packetpath: mtr is not simulated\ncommand terminated with exit code 1\n');
  });

  it('is only in images that ship it', () => {
    const r = cluster.execSync('kubectl exec client -- tcpdump -D');
    expect(r.exitCode).not.toBe(0);
  });

  it('writes a pcap that -r reads back in the same session', () => {
    const r = cluster.execSync(
      `kubectl exec netshoot -- sh -c 'tcpdump -i eth0 -w /tmp/c.pcap tcp & curl -s server >/dev/null; wait; tcpdump -nn -r /tmp/c.pcap'`,
    );
    expect(r.stderr).toContain(
      'reading from file /tmp/c.pcap, link-type EN10MB (Ethernet), snapshot length 262144\n',
    );
    expect(r.stdout).toMatch(
      /Flags \[S\], seq \d+, win \d+, options \[mss 1410,sackOK,TS val \d+ ecr 0,nop,wscale 7\], length 0/,
    );
    expect(r.stdout).toContain('HTTP: GET / HTTP/1.1');
  });

  it('keeps a running capture in the snapshot', () => {
    const p = cluster.store.get('pods', 'default', 'netshoot')!;
    const image = resolveImage(p.spec!.containers[0]!.image!);
    if (image.kind !== 'ok') throw new Error('netshoot has no profile');
    const io = {
      stdin: '',
      env: {},
      context: { kind: 'host' as const },
      interactive: false,
      background: true,
    };
    const started = tcpdumpCommand(podToolContext(cluster, p, 'main', image.profile))(
      ['tcpdump', '-nn', 'tcp'],
      io,
    );
    cluster.execSync('kubectl exec netshoot -- curl -s server');
    const restored = restoreCluster(JSON.stringify(cluster.snapshot()));
    const node = p.spec!.nodeName!;
    const ids = Object.keys((restored.nodeState.get(node, 'captures') as Record<string, unknown>) ?? {});
    expect(ids).toHaveLength(1);
    expect(getCapture(restored, node, ids[0]!)?.frames.length).toBe(10);
    started.job!.finish();
  });
});
