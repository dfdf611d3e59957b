/**
 * `trace … -- curl` sizes the request from its body as curl builds it (src/tool_getparam.c: the -d
 * family joins its arguments with `&`, `@FILE` reads a file — `-d` drops CR/LF, `--data-binary` keeps
 * them, `--data-raw` never reads —, an unreadable -d file warns and posts nothing; -T PUTs a file and
 * fails with (26) when it cannot read it), so the MTU hop decides from the real packet sizes.
 */
import { describe, expect, it } from 'vitest';
import { parseCurlArgs, curlBody } from '../network/curl-args.ts';
import { scenario, setFlannelPodMtu } from '../network/test-helpers.ts';
import type { Hop } from '../network/types.ts';
import { traceConnection } from './trace-connection.ts';

function bodyOf(args: string[], files: Record<string, string>, path = '/') {
  const p = parseCurlArgs(args);
  if (!p.ok) throw new Error(p.error);
  return curlBody(p.opts, path, (f) => files[f]);
}

describe('curl request bodies', () => {
  const files = { 'big.json': '{"a":\r\n1}\n', 'r.txt': 'line1\nline2\n' };

  it('-d @file strips carriage returns and newlines; --data-binary keeps them', () => {
    expect(bodyOf(['-d', '@big.json', 'x'], files)).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(bodyOf(['--data-binary', '@r.txt', 'x'], files)).toMatchObject({ body: 'line1\nline2\n' });
    expect(bodyOf(['--data-raw', '@r.txt', 'x'], files)).toMatchObject({ body: '@r.txt' });
  });

  it('joins several -d arguments with & and counts bytes in Content-Length', () => {
    const b = bodyOf(['-d', 'a=1', '-d', 'b=ç', 'x'], files);
    expect(b).toMatchObject({ body: 'a=1&b=ç' });
    expect('headers' in b && b.headers).toContainEqual(['Content-Length', '8']);
  });

  it('an unreadable -d file warns and makes an empty POST', () => {
    expect(bodyOf(['-d', '@nope.json', 'x'], files)).toMatchObject({
      method: 'POST',
      body: '',
      warnings: ['Warning: Couldn\'t read data from file "nope.json", this makes an empty POST.\n'],
    });
  });

  it('-T PUTs the file, appends its name to a URL ending in /, fails with (26) when unreadable', () => {
    expect(bodyOf(['-T', 'r.txt', 'x'], files, '/upload/')).toMatchObject({
      method: 'PUT',
      body: 'line1\nline2\n',
      path: '/upload/r.txt',
    });
    expect(bodyOf(['-T', 'nope', 'x'], files)).toEqual({
      error: 'curl: (26) Failed to open/read local data from file/application\n',
      code: 26,
    });
  });
});

describe('trace sizes the MTU hop from the request body', () => {
  const cluster = scenario('flannel', 'iptables', 61);
  setFlannelPodMtu(cluster, 1500, ['client', 'echo-b']);
  const big = 'x'.repeat(6000);
  const run = (argv: string[]) => {
    const r = traceConnection(cluster, {
      from: { kind: 'pod', namespace: 'default', name: 'client' },
      argv,
      readFile: (f) => (f === 'big.json' ? big : undefined),
    });
    if ('error' in r) throw new Error(r.error);
    return r;
  };
  const mtuHop = (hops: readonly Hop[]) => hops.find((h) => h.kind === 'mtu');
  const echoB = () => cluster.store.get('pods', 'default', 'echo-b')?.status?.podIP ?? '';

  it.each([
    ['-d', '@big.json'],
    ['--data-binary', '@big.json'],
    ['-T', 'big.json'],
  ])('curl %s %s: the hop counts the body', (flag, value) => {
    const t = run(['curl', '-s', flag, value, `http://${echoB()}:8080/echo`]);
    const hop = mtuHop(t.hops);
    expect(hop).toMatchObject({ kind: 'mtu', podMtu: 1500, pathMtu: 1450 });
    expect(hop && 'bytes' in hop ? hop.bytes : 0).toBeGreaterThan(6000);
  });

  it('without a body the same request stays small', () => {
    const t = run(['curl', '-s', `http://${echoB()}:8080/hostname`]);
    const hop = mtuHop(t.hops);
    expect(hop && 'bytes' in hop ? hop.bytes : Infinity).toBeLessThan(1410);
  });

  it("an unreadable -d file traces an empty POST with curl's warning", () => {
    const t = run(['curl', '-s', '-d', '@missing.json', `http://${echoB()}:8080/echo`]);
    expect(t.warnings).toEqual([
      'Warning: Couldn\'t read data from file "missing.json", this makes an empty POST.\n',
    ]);
  });
});
