/**
 * Where curl's two streams land on a terminal. Captured from curl 7.88.1 on a tty (`script -qc`):
 * `curl -v URL` prints the `*`, `>` and `<` lines, then the body, then `* Closing connection 0` (8.x:
 * `* Connection #0 to host … left intact`); `curl -sS -w '%{http_code}\n' URL` on a refused port
 * prints `curl: (7) …` before the write-out's `000`.
 */
import { describe, expect, it } from 'vitest';
import { podIP, scenario } from '../network/test-helpers.ts';

const cluster = scenario('flannel', 'iptables', 41);

describe('curl writes stderr and stdout in the order a terminal shows them', () => {
  it('-v: request and response headers, then the body, then the connection trailer', () => {
    const r = cluster.execSync('kubectl exec curl -- curl -sv server');
    expect(r.exitCode).toBe(0);
    expect(r.output?.map((c) => c.stream)).toEqual(['stderr', 'stdout', 'stderr']);
    expect(r.output?.[0]?.text).toMatch(/> GET \/ HTTP\/1\.1\n[^]*< HTTP\/1\.1 200 OK\n[^]*< \n/);
    expect(r.output?.[1]?.text).toMatch(/^<!DOCTYPE html>/);
    expect(r.output?.[2]?.text).toBe('* Connection #0 to host server:80 left intact\n');
  });

  it("a failure's message comes before -w's output", () => {
    const r = cluster.execSync(
      `kubectl exec curl -- curl -sS -w '%{http_code}\\n' ${podIP(cluster, 'server-b')}:8081`,
    );
    expect(r.output?.map((c) => [c.stream, c.text.slice(0, 9)])).toEqual([
      ['stderr', 'curl: (7)'],
      ['stdout', '000\n'],
      ['stderr', 'command t'],
    ]);
  });
});
