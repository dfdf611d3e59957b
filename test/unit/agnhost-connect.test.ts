/**
 * `/agnhost connect` as Kubernetes' e2e tests run it in a pod. Expected texts from
 * test/images/agnhost/connect/connect.go: silence and exit 0 on success; on failure one stderr line,
 * exit 1: `REFUSED`, `TIMEOUT` (TCP), `TIMEOUT: <net.Error>` / `REFUSED: <net.Error>` (UDP),
 * `DNS: <resolver error>`, `UNKNOWN: <net.SplitHostPort error>`, cobra's ExactArgs(1) error.
 * The Go error texts are Go's net package's (`address a: missing port in address`,
 * `lookup x on 10.96.0.10:53: no such host`, `read udp A->B: i/o timeout`).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../src/engine/cluster/cluster.ts';

describe('agnhost connect', () => {
  const c = createCluster(undefined, { seed: 6 });
  const run = (line: string) => c.execSync(line);
  run('kubectl run a --image=registry.k8s.io/e2e-test-images/agnhost:2.53 -- netexec');
  run('kubectl expose pod a --port 8080');
  run('sleep 20');
  const ip = run("kubectl get pod a -o jsonpath='{.status.podIP}'").stdout;
  const connect = (args: string) => run(`kubectl exec a -- /agnhost connect ${args}`);

  it('succeeds silently over TCP, to a Service name and to a pod IP', () => {
    expect(connect('a:8080 --timeout=2s')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(connect(`${ip}:8080`)).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('prints the fixed prefixes the e2e tests grep for', () => {
    expect(connect(`${ip}:9999 --timeout=2s`).stderr).toBe('REFUSED\ncommand terminated with exit code 1\n');
    expect(connect('10.96.0.99:80 --timeout=1s').stderr).toBe(
      'TIMEOUT\ncommand terminated with exit code 1\n',
    );
    expect(connect('nosuch:80 --timeout=1s').stderr).toBe(
      'DNS: lookup nosuch on 10.96.0.10:53: no such host\ncommand terminated with exit code 1\n',
    );
    expect(connect('a').stderr).toBe(
      'UNKNOWN: address a: missing port in address\ncommand terminated with exit code 1\n',
    );
    expect(run('kubectl exec a -- /agnhost connect').stderr).toBe(
      'Error: accepts 1 arg(s), received 0\ncommand terminated with exit code 1\n',
    );
  });

  it("over UDP: netexec's UDP server answers; a closed port is REFUSED", () => {
    expect(connect(`${ip}:8081 --protocol=udp --timeout=2s`).exitCode).toBe(0);
    expect(connect(`${ip}:9 --protocol=udp --timeout=2s`).stderr).toMatch(
      new RegExp(
        `^REFUSED: read udp ${ip.replace(/\./g, '\\.')}:\\d+->${ip.replace(/\./g, '\\.')}:9: read: connection refused\n`,
      ),
    );
  });
});
