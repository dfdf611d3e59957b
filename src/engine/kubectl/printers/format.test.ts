import { describe, expect, it } from 'vitest';
import { humanDuration } from './duration.ts';
import { tabwrite, DESCRIBE_OPTIONS } from '../../util/tabwriter.ts';
import { executeJsonPath, parseJsonPath } from './jsonpath.ts';

describe('duration.HumanDuration', () => {
  // apimachinery pkg/util/duration/duration_test.go TestHumanDuration, plus the brief's examples.
  it.each([
    [1, '1s'],
    [70, '70s'],
    [190, '3m10s'],
    [70 * 60, '70m'],
    [47 * 3600, '47h'],
    [49 * 3600, '2d1h'],
    [(8 * 24 + 2) * 3600, '8d'],
    [367 * 24 * 3600, '367d'],
    [(365 * 2 * 24 + 25) * 3600, '2y1d'],
    [(365 * 8 * 24 + 2) * 3600, '8y'],
    [5, '5s'],
    [123, '2m3s'],
    [600, '10m'],
    [3 * 3600 + 25 * 60, '3h25m'],
    [2 * 86400 + 3 * 3600, '2d3h'],
    [21 * 86400, '21d'],
    [-1, '0s'],
    [-5, '<invalid>'],
  ])('%is → %s', (seconds, want) => {
    expect(humanDuration(seconds * 1000)).toBe(want);
  });
});

describe('tabwriter (kubectl: minwidth 6, padding 3)', () => {
  it('aligns the flannel capture of kubernetes-facts §6.2', () => {
    const input = [
      'NAME\tTYPE\tCLUSTER-IP\tEXTERNAL-IP\tPORT(S)\tAGE\tSELECTOR',
      'service/kubernetes\tClusterIP\t10.96.0.1\t<none>\t443/TCP\t21d\t<none>',
      'service/webpod\tClusterIP\t10.96.65.151\t<none>\t80/TCP\t21d\tapp=webpod',
    ].join('\n');
    expect(tabwrite(`${input}\n`)).toBe(
      [
        'NAME                 TYPE        CLUSTER-IP     EXTERNAL-IP   PORT(S)   AGE   SELECTOR',
        'service/kubernetes   ClusterIP   10.96.0.1      <none>        443/TCP   21d   <none>',
        'service/webpod       ClusterIP   10.96.65.151   <none>        80/TCP    21d   app=webpod',
        '',
      ].join('\n'),
    );
  });

  it('pads short columns to the minimum width of 6 (padding included) and never pads the last cell', () => {
    expect(tabwrite('A\tB\nx\ty\n')).toBe('A     B\nx     y\n');
    // kubectl get cm: `DATA` is 4 wide, so its column is 4 + 3.
    expect(tabwrite('NAME\tDATA\tAGE\nkube-root-ca.crt\t1\t23d\n')).toBe(
      'NAME               DATA   AGE\nkube-root-ca.crt   1      23d\n',
    );
  });

  it('a line without tabs ends the column block (Go flushes there)', () => {
    expect(tabwrite('long-name\tx\n\nA\tB\n')).toBe('long-name   x\n\nA     B\n');
  });

  it('describe uses two spaces of padding and no minimum', () => {
    expect(tabwrite('Name:\tweb\nNamespace:\tdefault\n', DESCRIBE_OPTIONS)).toBe(
      'Name:       web\nNamespace:  default\n',
    );
  });
});

describe('JSONPath (kubectl.io jsonpath reference examples)', () => {
  const doc = {
    kind: 'List',
    items: [
      {
        kind: 'None',
        metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
        status: { capacity: { cpu: '4' }, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
      },
      {
        kind: 'None',
        metadata: { name: '127.0.0.2' },
        status: {
          capacity: { cpu: '8' },
          addresses: [
            { type: 'LegacyHostIP', address: '127.0.0.2' },
            { type: 'another', address: '127.0.0.3' },
          ],
        },
      },
    ],
    users: [
      { name: 'myself', user: {} },
      { name: 'e2e', user: { username: 'admin', password: 'secret' } },
    ],
  };
  it.each([
    ['{.kind}', 'List'],
    ["{['kind']}", 'List'],
    ['{..name}', '127.0.0.1 127.0.0.2 myself e2e'],
    ['{.items[-1:].metadata.name}', '127.0.0.2'],
    ['{.items[*].metadata.name}', '127.0.0.1 127.0.0.2'],
    ['{.users[?(@.name=="e2e")].user.password}', 'secret'],
    ['{.items[0].status.capacity}', '{"cpu":"4"}'],
    [
      '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}',
      '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] ',
    ],
    [
      '{range .items[*]}{.metadata.name}{"\\t"}{.status.addresses[0].address}{"\\n"}{end}',
      '127.0.0.1\t127.0.0.1\n127.0.0.2\t127.0.0.2\n',
    ],
    ['{.items[*].status.addresses[?(@.type=="another")].address}', '127.0.0.3'],
    ['{.missing}', ''],
  ])('%s', (template, want) => {
    expect(executeJsonPath(parseJsonPath(template), doc)).toBe(want);
  });

  it('rejects an unclosed range', () => {
    expect(() => parseJsonPath('{range .items[*]}{.x}')).toThrow();
  });
});

describe('JSONPath escaped dots (client-go parser: advance/parseField, dictKeyRex; kubectl v1.33 --local)', () => {
  const node = { metadata: { labels: { 'kubernetes.io/hostname': 'n1', 'kubernetes.io/os': 'linux' } } };
  const run = (t: string) => executeJsonPath(parseJsonPath(t), node);
  it('matches what kubectl label --local -o jsonpath prints', () => {
    expect(run('{.metadata.labels.kubernetes\\.io/hostname}')).toBe('n1');
    expect(run("{.metadata.labels['kubernetes\\.io/hostname']}")).toBe('n1');
    expect(run("{.metadata['labels']['kubernetes\\.io/os']}")).toBe('linux');
    // An unescaped dot splits the name even inside quotes: nothing is found.
    expect(run("{.metadata.labels['kubernetes.io/hostname']}")).toBe('');
    expect(run('{.metadata.labels.kubernetes.io/hostname}')).toBe('');
    expect(run("{.metadata.labels['kubernetes\\.io/os','kubernetes\\.io/hostname']}")).toBe('linux n1');
    // error: error parsing jsonpath …, invalid array index "kubernetes.io/os"
    expect(() => run('{.metadata.labels["kubernetes.io/os"]}')).toThrow(
      'invalid array index "kubernetes.io/os"',
    );
  });
});
