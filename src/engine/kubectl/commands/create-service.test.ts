/**
 * `kubectl create service externalname` against the API server (the client-side texts are replayed from
 * kubectl v1.33 in client-goldens.test.ts): the Service is stored with its externalName and no cluster IP,
 * `get` shows the name as EXTERNAL-IP (printers.go `getServiceExternalIP`), and the generator's wrapper
 * names the type on errors (create_service.go `failed to create %s service: %v`).
 */
import { describe, expect, it } from 'vitest';
import type { Service } from '../../api/objects.ts';
import { makeKubectl } from '../test-helpers.ts';

describe('kubectl create service externalname', () => {
  it('creates an ExternalName Service: no cluster IP, the name as EXTERNAL-IP', () => {
    const k = makeKubectl();
    expect(k.run('create service externalname ext --external-name=example.com')).toEqual({
      stdout: 'service/ext created\n',
      stderr: '',
      exitCode: 0,
    });
    const svc = k.host.store.get('services', 'default', 'ext') as Service;
    expect(svc.spec?.type).toBe('ExternalName');
    expect(svc.spec?.externalName).toBe('example.com');
    expect(svc.spec?.clusterIP).toBeUndefined();
    expect(svc.metadata.labels).toEqual({ app: 'ext' });
    const lines = k.run('get svc ext').stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
    expect(lines[1]).toMatch(/^ext\s+ExternalName\s+<none>\s+example\.com\s+<none>\s+\S+$/);
  });

  it('--tcp ports are kept; a second create fails through the generator wrapper', () => {
    const k = makeKubectl();
    expect(k.run('create svc externalname db --external-name=db.example.com --tcp=5432').exitCode).toBe(0);
    const svc = k.host.store.get('services', 'default', 'db') as Service;
    expect(svc.spec?.ports).toEqual([{ name: '5432', protocol: 'TCP', port: 5432, targetPort: 5432 }]);
    expect(k.run('create service externalname db --external-name=db.example.com')).toEqual({
      stdout: '',
      stderr: 'error: failed to create ExternalName service: services "db" already exists\n',
      exitCode: 1,
    });
  });

  it('-h prints the real help (kubectl v1.32/v1.33 text)', () => {
    const k = makeKubectl();
    const out = k.run('create service externalname -h').stdout;
    expect(out.startsWith('Create an ExternalName service with the specified name.\n')).toBe(true);
    expect(out).toContain("    --external-name='':\n\tExternal name of service\n");
    expect(out).toContain(
      'Usage:\n  kubectl create service externalname NAME --external-name external.name [--dry-run=server|client|none] [options]\n',
    );
  });
});
