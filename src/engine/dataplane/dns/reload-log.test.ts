/**
 * The reload plugin's lines. Hash goldens are real CoreDNS logs: kubeadm's Corefile before v1.31
 * (`cache 30` without a block) logs 591cf328…43908 on CoreDNS 1.9–1.11; the current one (with
 * `disable success/denial`) logs 1b226df7…3b03b on CoreDNS 1.12–1.14. Line texts are caddy's
 * (`[INFO] Reloading`, `[INFO] Reloading complete`, `[ERROR] Restart failed: …`) and the plugin's
 * (`Running configuration SHA512 = %x`, `Corefile parse failed: %s`, `Corefile changed but reload
 * failed: %s`), from coredns v1.13.1 plugin/reload and coredns/caddy caddy.go.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { defaultCorefileText } from './corefile.ts';
import { corefileSha512, reloadIntervalMs, reloadLog } from './reload-log.ts';

const KUBEADM_BEFORE_1_31 = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;

const hex = (text: string) => {
  const r = corefileSha512(text);
  return r.ok ? r.hex : r.error;
};

describe('the reload plugin’s SHA512', () => {
  it('hashes the server blocks as real CoreDNS does', () => {
    expect(hex(KUBEADM_BEFORE_1_31)).toBe(
      '591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908',
    );
    expect(hex(defaultCorefileText())).toBe(
      '1b226df79860026c6a52e67daa10d7f0d57ec5b023288ec00c5e05f93523c894564e15b91770d3a07ae1cfbe861d15b37d4a0027e69c546ab112970993a3b03b',
    );
  });

  it('ignores what tokenising drops (indentation, comments) but not line numbers', () => {
    const reindented = KUBEADM_BEFORE_1_31.replace(/^ +/gm, '\t').replace('errors', 'errors # all');
    expect(hex(reindented)).toBe(hex(KUBEADM_BEFORE_1_31));
    expect(hex(`\n${KUBEADM_BEFORE_1_31}`)).not.toBe(hex(KUBEADM_BEFORE_1_31));
  });
});

describe('reloadLog', () => {
  const edited = defaultCorefileText().replace('    errors\n', '    errors\n    log\n');
  const interval = reloadIntervalMs(defaultCorefileText(), 'uid/0')!;

  it('draws an interval of 30s ± 7.5s, or what `reload INTERVAL JITTER` says', () => {
    expect(interval).toBeGreaterThanOrEqual(22_500);
    expect(interval).toBeLessThan(37_500);
    const k3s = reloadIntervalMs('.:53 {\n    reload 15s 2s\n}\n', 'x')!;
    expect(k3s).toBeGreaterThanOrEqual(14_000);
    expect(k3s).toBeLessThan(16_000);
    expect(reloadIntervalMs('.:53 {\n    errors\n}\n', 'x')).toBeUndefined();
  });

  it('logs the reload at the first tick after the edit, with the new hash', () => {
    const history = [
      { at: 0, text: defaultCorefileText() },
      { at: 40_000, text: edited },
    ];
    const tick = Math.ceil(40_000 / interval) * interval;
    expect(reloadLog(history, 0, tick - 1, 'uid')).toEqual([]);
    expect(reloadLog(history, 0, tick + 120_000, 'uid')).toEqual([
      { time: tick, text: '[INFO] Reloading' },
      { time: tick, text: `[INFO] plugin/reload: Running configuration SHA512 = ${hex(edited)}` },
      { time: tick, text: '[INFO] Reloading complete' },
    ]);
  });

  it('a Corefile CoreDNS cannot set up: the old one keeps running, the errors are logged once', () => {
    const broken = defaultCorefileText().replace('    errors\n', '    errorz\n');
    const lines = reloadLog(
      [
        { at: 0, text: defaultCorefileText() },
        { at: 1000, text: broken },
      ],
      0,
      300_000,
      'uid',
    ).map((l) => l.text);
    expect(lines).toEqual([
      '[INFO] Reloading',
      "[ERROR] Restart failed: /etc/coredns/Corefile:2 - Error during parsing: Unknown directive 'errorz'",
      "[ERROR] plugin/reload: Corefile changed but reload failed: starting with listener file descriptors: /etc/coredns/Corefile:2 - Error during parsing: Unknown directive 'errorz'",
    ]);
  });

  it('without reload in the Corefile it started with, a replica never reloads', () => {
    const plain = '.:53 {\n    errors\n    forward . /etc/resolv.conf\n}\n';
    expect(
      reloadLog(
        [
          { at: 0, text: plain },
          { at: 1000, text: edited },
        ],
        0,
        300_000,
        'u',
      ),
    ).toEqual([]);
  });
});

describe('kubectl logs of CoreDNS after the ConfigMap is edited', () => {
  it('keeps the start-up banner and adds the reload lines once the interval has passed', () => {
    const c = createCluster(undefined, { seed: 5 });
    const before = c.execSync('kubectl -n kube-system logs deploy/coredns').stdout;
    const corefile = defaultCorefileText().replace('    errors\n', '    errors\n    log\n');
    const cm = c.store.get('configmaps', 'kube-system', 'coredns')!;
    c.api.update({ ...cm, data: { ...cm.data, Corefile: corefile } });
    expect(c.execSync('kubectl -n kube-system logs deploy/coredns').stdout).toBe(before);
    c.execSync('sleep 45');
    expect(c.execSync('kubectl -n kube-system logs deploy/coredns').stdout).toBe(
      `${before}[INFO] Reloading\n[INFO] plugin/reload: Running configuration SHA512 = ${hex(corefile)}\n[INFO] Reloading complete\n`,
    );
  });
});
