/**
 * What verify.sh does with each check kind, and which lines it can run outside the simulator. The
 * script's behaviour against a cluster is tested end to end in test/cli/serve/export.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { Check } from '../../../grader/check-schema.ts';
import { planFor, portableLine, shellQuote } from './verify-script.ts';

const plan = (c: Record<string, unknown>) =>
  planFor(Check.parse({ id: 'c', title: { en: 'T', 'pt-BR': 'T' }, ...c }));

describe('verify.sh plans', () => {
  it('quotes any text so bash reads it back unchanged', () => {
    for (const text of [`it's`, `a "b" $c \`d\``, "{range .items[*]}{.x}{'\\n'}{end}", ''])
      expect(spawnSync('bash', ['-c', `printf %s ${shellQuote(text)}`], { encoding: 'utf8' }).stdout).toBe(
        text,
      );
  });

  it('runs lines of kubectl and the usual tools, not the simulator own programs', () => {
    expect(portableLine(`kubectl get pods -A --no-headers | grep -c ContainerCreating`)).toBe(true);
    expect(
      portableLine(
        `S=$(kubectl get pod -o jsonpath='{.items[0].status.podIP}'); curl -s "$S:80" | grep -q x && echo ok`,
      ),
    ).toBe(true);
    expect(portableLine(`for i in $(seq 1 3); do curl -s web; done | sort | uniq -c`)).toBe(true);
    expect(portableLine(`trace client -- curl -s myapp/hostname | grep 'via kube-proxy'`)).toBe(false);
    // A `|` or `;` inside quotes is data, not a command.
    expect(portableLine(`kubectl get cm x -o jsonpath='{.data.a|b; trace}'`)).toBe(true);
  });

  it('skips session checks and what only the simulator observes, saying why', () => {
    expect(plan({ type: 'history', matches: 'kubectl' })).toEqual({
      skip: "about the learner's session in the course, not the cluster's state",
    });
    expect(plan({ type: 'output', command: 'trace a -- curl b', contains: 'x' })).toEqual({
      skip: "runs `trace`, which only the simulator's shell has",
    });
    expect(
      plan({ type: 'output', command: 'kubectl debug node/x -it --image=busybox', exitCode: 0 }),
    ).toEqual({
      skip: 'needs an interactive terminal (a node shell through kubectl debug -it)',
    });
    expect(
      plan({
        type: 'reachability',
        from: { pod: 'c' },
        to: 'kube-dns.kube-system:53',
        protocol: 'UDP',
        expect: 'allowed',
      }),
    ).toEqual({ skip: 'UDP: a dropped datagram and one nobody answers look the same from a client' });
  });

  it('turns a target into the URL curl is given, and a field path into kubectl JSONPath', () => {
    expect(
      plan({
        type: 'reachability',
        from: { namespace: 'shop', selector: 'app=web' },
        to: 'api:9090',
        expect: 'blocked',
      }),
    ).toEqual({
      run: `check_reach 'shop' '' 'app=web' 'http://api:9090/' blocked`,
    });
    expect(
      plan({ type: 'field', resource: 'svc', name: 'web', path: '.spec.ports[0].port', equals: 80 }),
    ).toEqual({
      run: `check_field 'svc' -n 'default' 'web' '{.spec.ports[0].port}' 1 '80' ''`,
    });
  });
});
