/**
 * The issue's "Done when" path, end to end through the shell: a capture written by one
 * `kubectl exec` is still in the container for the next one and after a snapshot, and `kubectl cp`
 * copies it out through the container's tar, as kubectl v1.35's pkg/cmd/cp does.
 *
 * Oracles are the real programs: Debian's tcpdump reads the copied pcap and prints what the live
 * capture printed; GNU tar lists and extracts the archive the container's tar streams; the error
 * wording of GNU tar and of BusyBox's applet is taken from running them here on a missing path.
 * Skipped, with one printed line, when tcpdump, GNU tar or busybox is not installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster, restoreCluster, type Cluster } from '../../src/engine/cluster/cluster.ts';
import { fileBytes } from '../../src/engine/util/encoding.ts';
import { extractKubectl } from '../../scripts/extract-kubectl.mjs';

function installed(tool: string, arg = '--version'): boolean {
  return spawnSync(tool, [arg], { stdio: 'ignore' }).status !== null;
}

const haveTools = installed('tcpdump') && installed('tar') && installed('busybox', '--help');
if (!haveTools) console.log('kubectl-cp: skipped, Debian tcpdump, tar or busybox not installed');

const dir = mkdtempSync(join(tmpdir(), 'pp-cp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(c: Cluster, line: string) {
  const r = c.execSync(line, { interactive: false });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/** What a real tar prints for `tar cf - MISSING` (stderr, exit code), with the path put back. */
function realTarMissing(argv0: string[], missing: string): { stderr: string; exitCode: number } {
  const probe = join(dir, 'no-such-file');
  const r = spawnSync(argv0[0]!, [...argv0.slice(1), 'cf', '-', probe], { encoding: 'utf8' });
  return { stderr: r.stderr.replaceAll(probe, missing), exitCode: r.status ?? -1 };
}

const CAPTURE =
  "kubectl exec ns -- sh -c 'tcpdump -i eth0 -nn -c 4 -w /tmp/dns.pcap udp port 53 & sleep 1; nslookup web; wait'";

describe.skipIf(!haveTools)('kubectl cp of a capture (real tcpdump, tar and busybox as oracles)', () => {
  let c: Cluster;
  beforeAll(() => {
    c = createCluster(undefined, { seed: 5 });
    run(c, 'kubectl create deployment web --image=nginx --port=80');
    run(c, 'kubectl expose deployment web --port=80');
    run(c, 'kubectl run ns --image=nicolaka/netshoot -- sleep infinity');
    run(c, 'kubectl wait --for=condition=Ready pod/ns --timeout=60s');
    run(c, 'kubectl wait --for=condition=Ready pod -l app=web --timeout=60s');
  });

  it('writes the pcap in one exec, finds it in the next and after a snapshot, and copies it out', () => {
    const capture = run(c, CAPTURE);
    expect(capture.exitCode).toBe(0);
    expect(capture.stderr).toContain('4 packets captured');
    const ls = run(c, 'kubectl exec ns -- ls -l /tmp/dns.pcap');
    expect(ls.exitCode).toBe(0);
    const restored = restoreCluster(JSON.stringify(c.snapshot()));
    const inPod = run(restored, 'kubectl exec ns -- tcpdump -nn -r /tmp/dns.pcap');
    expect(inPod.exitCode).toBe(0);

    const cp = run(restored, 'kubectl cp ns:/tmp/dns.pcap ./dns.pcap');
    // netshoot's tar is BusyBox's; kubectl hands the container's stderr to its own stdout.
    expect(cp).toEqual({ stdout: "tar: removing leading '/' from member names\n", stderr: '', exitCode: 0 });
    const content = restored.files.read('dns.pcap');
    expect(content).toBeDefined();
    const size = Number(/root\s+(\d+)/.exec(ls.stdout)?.[1]);
    expect(fileBytes(content!).length).toBe(size);

    const file = join(dir, 'dns.pcap');
    writeFileSync(file, fileBytes(content!));
    const real = execFileSync('tcpdump', ['-nn', '-r', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(real).toBe(inPod.stdout);
    const lines = real.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(
      lines.filter((l) => / > 10\.96\.0\.10\.53: .* A\? web\.default\.svc\.cluster\.local\. /.test(l)),
    ).toHaveLength(1);
  });

  it('streams an archive GNU tar lists and extracts byte for byte', () => {
    run(c, "kubectl exec ns -- sh -c 'mkdir -p /tmp/d && echo olá > /tmp/d/a.txt'");
    const r = c.execSync('kubectl exec ns -- tar cf - /tmp/d /tmp/dns.pcap', { interactive: false });
    expect(r.stderr).toBe("tar: removing leading '/' from member names\n");
    const archive = join(dir, 'a.tar');
    writeFileSync(archive, fileBytes(r.stdout));
    const listed = execFileSync('tar', ['tf', archive], { encoding: 'utf8' });
    expect(listed).toBe('tmp/d/\ntmp/d/a.txt\ntmp/dns.pcap\n');
    const out = join(dir, 'x');
    execFileSync('mkdir', ['-p', out]);
    execFileSync('tar', ['xf', archive, '-C', out]);
    expect(readFileSync(join(out, 'tmp/d/a.txt'), 'utf8')).toBe('olá\n');
    const pcap = c.execSync('kubectl exec ns -- cat /tmp/dns.pcap', { interactive: false }).stdout;
    expect(readFileSync(join(out, 'tmp/dns.pcap'))).toEqual(Buffer.from(fileBytes(pcap)));
  });

  it('copies a directory out and a file in, as untarAll and copyToPod place them', () => {
    expect(run(c, 'kubectl cp ns:/tmp/d got').exitCode).toBe(0);
    expect(c.files.read('got/a.txt')).toBe('olá\n');
    c.files.write('notes.txt', 'hello\n');
    expect(run(c, 'kubectl cp notes.txt ns:/tmp/d')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(run(c, 'kubectl exec ns -- cat /tmp/d/notes.txt').stdout).toBe('hello\n');
    expect(run(c, 'kubectl cp notes.txt ns:/tmp/renamed.txt').exitCode).toBe(0);
    expect(run(c, 'kubectl exec ns -- cat /tmp/renamed.txt').stdout).toBe('hello\n');
  });

  it("reports a missing file with the container's own tar (BusyBox in netshoot, GNU in nginx)", () => {
    const busybox = realTarMissing(['busybox', 'tar'], '/tmp/nope');
    expect(run(c, 'kubectl cp ns:/tmp/nope ./x')).toEqual({
      stdout: busybox.stderr,
      stderr: `command terminated with exit code ${busybox.exitCode}\n`,
      exitCode: busybox.exitCode,
    });
    const web = run(c, "kubectl get pod -l app=web -o jsonpath='{.items[0].metadata.name}'").stdout;
    const gnu = realTarMissing(['tar'], '/tmp/nope');
    expect(run(c, `kubectl cp ${web}:/tmp/nope ./x`)).toEqual({
      stdout: gnu.stderr,
      stderr: `command terminated with exit code ${gnu.exitCode}\n`,
      exitCode: gnu.exitCode,
    });
  });

  it("gives the real kubectl's errors for bad file specs (checked before it talks to a server)", () => {
    const kubectl = extractKubectl() as string;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: x}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    for (const args of [
      ['a', 'b'],
      ['ns:/a', 'ns:/b'],
      [':/a', 'b'],
      ['ns:', 'b'],
      ['a'],
      ['missing.txt', 'ns:/tmp'],
    ]) {
      const real = spawnSync(kubectl, ['cp', ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { KUBECONFIG: kubeconfig },
      });
      expect(run(c, `kubectl cp ${args.join(' ')}`)).toEqual({
        stdout: real.stdout,
        stderr: real.stderr,
        exitCode: real.status,
      });
    }
  });

  it('says which pod is missing, and fails as containerd does in an image without tar', () => {
    expect(run(c, 'kubectl cp ghost:/a b').stderr).toBe(
      'Error from server (NotFound): pods "ghost" not found\n',
    );
    expect(run(c, 'kubectl cp missing.txt ns:/tmp').stderr).toBe(
      "error: missing.txt doesn't exist in local filesystem\n",
    );
    // CoreDNS's image is distroless: no tar, so kubectl cp fails there as on a real cluster.
    const dns = run(c, 'kubectl -n kube-system get po -l k8s-app=kube-dns -o name | head -1').stdout.trim();
    const distroless = run(c, `kubectl -n kube-system cp ${dns.replace('pod/', '')}:/etc/resolv.conf p`);
    expect(distroless.exitCode).toBe(1);
    expect(distroless.stderr).toMatch(
      /^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "tar": executable file not found in \$PATH: unknown\n$/,
    );
  });
});
