/**
 * `docker` on the learner's machine of a kind cluster. Expected texts: the `docker ps` table as a
 * kind maintainer pasted it (kubernetes-sigs/kind#3133: `d87fbc47be0e   kindest/node:v1.25.3
 * "/usr/local/bin/entr…"   31 seconds ago   Up 27 seconds   127.0.0.1:36197->6443/tcp
 * kind-control-plane`, columns padded by three spaces); the daemon's `Error response from daemon:
 * No such container: x`; cobra's `requires at least 2 arguments` usage error of the docker CLI;
 * runc's exec error `exec: "X": executable file not found in $PATH` (exit 127, moby
 * translateContainerdStartErr); kind's image pin for v1.35.0 (kind v0.31 defaults/image.go) and its
 * node network (172.18.0.0/16, gateway 172.18.0.1).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../src/engine/cluster/cluster.ts';

const K3S = 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n';

describe('docker on a kind cluster', () => {
  const c = createCluster(undefined, { seed: 9 });
  const run = (line: string) => c.execSync(line, { interactive: true });

  it("docker ps lists the node containers in docker's columns", () => {
    const lines = run('docker ps').stdout.split('\n');
    expect(lines[0]).toMatch(/^CONTAINER ID {3}IMAGE {18}COMMAND {18}CREATED {9}STATUS {9}PORTS {22}NAMES$/);
    const names = lines.slice(1, -1).map((l) => l.split(/ {3,}/).at(-1));
    expect(names.sort()).toEqual(['kind-control-plane', 'kind-worker', 'kind-worker2']);
    expect(lines.find((l) => l.endsWith('kind-control-plane'))).toMatch(
      /^[0-9a-f]{12} {3}kindest\/node:v1\.35\.0 {3}"\/usr\/local\/bin\/entr…" {3}\d+ minutes ago {3}Up \d+ minutes {3}127\.0\.0\.1:6443->6443\/tcp {3}kind-control-plane$/,
    );
    expect(run('docker ps -q').stdout).toMatch(/^([0-9a-f]{12}\n){3}$/);
  });

  it('docker exec runs the command on the node: its programs, its files', () => {
    expect(run('docker exec kind-worker iptables-save -t nat').stdout).toMatch(/^\*nat$/m);
    expect(run('docker exec kind-worker cat /etc/hostname').stdout).toBe('kind-worker\n');
    const id = run('docker ps -q').stdout.split('\n')[0]!;
    expect(run(`docker exec ${id} hostname`).exitCode).toBe(0);
    // kind's node image has no ipvsadm.
    expect(run('docker exec kind-worker ipvsadm -Ln')).toEqual({
      stdout: '',
      stderr:
        'OCI runtime exec failed: exec failed: unable to start container process: exec: "ipvsadm": executable file not found in $PATH: unknown\n',
      exitCode: 127,
    });
  });

  it("docker exec -it NODE bash opens the node's shell; exit leaves it with its status", () => {
    run('docker exec -it kind-worker bash');
    expect(c.shell.context()).toMatchObject({ kind: 'node', node: 'kind-worker' });
    expect(run('hostname').stdout).toBe('kind-worker\n');
    expect(run('ipset list').stderr).toBe('bash: ipset: command not found\n');
    expect(run('exit 3')).toMatchObject({ stderr: 'exit\n', exitCode: 3 });
    expect(c.shell.context()).toEqual({ kind: 'host' });
  });

  it("docker inspect prints the JSON docker does, the node's IP under NetworkSettings.Networks.kind", () => {
    const [obj] = JSON.parse(run('docker inspect kind-worker').stdout) as {
      Name: string;
      Config: { Image: string; Labels: Record<string, string> };
      NetworkSettings: { Networks: { kind: { IPAddress: string; Gateway: string } } };
    }[];
    expect(obj?.Name).toBe('/kind-worker');
    expect(obj?.Config.Image).toBe(
      'kindest/node:v1.35.0@sha256:452d707d4862f52530247495d180205e029056831160e22870e37e3f6c1ac31f',
    );
    expect(obj?.Config.Labels).toEqual({ 'io.x-k8s.kind.cluster': 'kind', 'io.x-k8s.kind.role': 'worker' });
    expect(obj?.NetworkSettings.Networks.kind).toMatchObject({
      IPAddress: '172.18.0.3',
      Gateway: '172.18.0.1',
    });
    expect(run('docker inspect kind-worker').stdout).toMatch(/^\[\n {4}\{\n {8}"Id": "[0-9a-f]{64}",\n/);
    expect(
      run("docker inspect -f '{{.NetworkSettings.Networks.kind.IPAddress}}' kind-control-plane").stdout,
    ).toBe('172.18.0.2\n');
    expect(
      run("docker inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' kind-worker2")
        .stdout,
    ).toBe('172.18.0.4\n');
  });

  it("words docker's own errors", () => {
    expect(run('docker exec nope ls')).toEqual({
      stdout: '',
      stderr: 'Error response from daemon: No such container: nope\n',
      exitCode: 1,
    });
    expect(run('docker exec kind-worker').stderr).toBe(
      "docker: 'docker exec' requires at least 2 arguments\n\nUsage:  docker exec [OPTIONS] CONTAINER COMMAND [ARG...]\n\nSee 'docker exec --help' for more information\n",
    );
    expect(run('docker inspect nope')).toMatchObject({
      stderr: 'Error: No such object: nope\n',
      exitCode: 1,
    });
    expect(run('docker frobnicate').stderr).toBe(
      "docker: unknown command: docker frobnicate\n\nRun 'docker --help' for more information\n",
    );
  });
});

describe('docker on a k3s cluster', () => {
  it("is not there: k3s nodes are VMs, not containers of the learner's docker", () => {
    const c = createCluster(K3S, { seed: 9 });
    expect(c.execSync('docker ps', { interactive: true })).toMatchObject({
      stderr: 'bash: docker: command not found\n',
      exitCode: 127,
    });
  });
});
