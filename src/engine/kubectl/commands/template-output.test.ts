/**
 * `--template` and the template-file output formats, as cli-runtime's PrintFlags resolve them. The
 * expected outputs and errors were captured from kubectl v1.33 (`create deployment x --image=nginx
 * --dry-run=client …`, which builds its printer without a server); `get` goes through the same flags.
 */
import { describe, expect, it } from 'vitest';
import { run, ok, webCluster } from './cluster-test-helpers.ts';

const DRY = 'kubectl create deployment x --image=nginx --dry-run=client';
const err = (stderr: string) => ({ stdout: '', stderr, exitCode: 1 });

describe('--template', () => {
  const c = webCluster();
  c.files.write('gt.tmpl', '{{.kind}}\n');
  c.files.write('replicas.jsonpath', '{.spec.replicas}');

  it('gives the text of -o go-template, template, jsonpath and jsonpath-as-json', () => {
    expect(run(c, `${DRY} -o go-template --template='{{.metadata.name}}{{"\\n"}}'`)).toEqual(ok('x\n'));
    expect(run(c, `${DRY} -o template --template={{.kind}}`)).toEqual(ok('Deployment'));
    expect(run(c, `${DRY} -o jsonpath --template={.kind}`)).toEqual(ok('Deployment'));
    expect(run(c, `${DRY} -o jsonpath-as-json --template={.kind}`)).toEqual(ok('[\n    "Deployment"\n]\n'));
  });

  it('alone means a go-template; beside another format it is ignored', () => {
    expect(run(c, `${DRY} --template='{{.metadata.name}}{{"\\n"}}'`)).toEqual(ok('x\n'));
    expect(run(c, `${DRY} --template={{.x}} -o yaml`).stdout).toMatch(
      /^apiVersion: apps\/v1\nkind: Deployment\n/,
    );
    const ip = c.store.get('services', 'default', 'web')!.spec!.clusterIP!;
    expect(run(c, `kubectl get svc web --template={{.spec.clusterIP}}`)).toEqual(ok(ip));
  });

  it('names the file of -o go-template-file, templatefile and jsonpath-file, or -o gives it after =', () => {
    expect(run(c, `${DRY} -o go-template-file=gt.tmpl`)).toEqual(ok('Deployment\n'));
    expect(run(c, `${DRY} -o go-template-file --template=gt.tmpl`)).toEqual(ok('Deployment\n'));
    expect(run(c, `${DRY} -o templatefile=gt.tmpl`)).toEqual(ok('Deployment\n'));
    expect(run(c, `${DRY} -o jsonpath-file=replicas.jsonpath`)).toEqual(ok('1'));
  });

  it('fails as kubectl does: no template, an unreadable file, a format with both', () => {
    expect(run(c, `${DRY} -o go-template`)).toEqual(
      err('error: template format specified but no template given\n'),
    );
    expect(run(c, `${DRY} -o go-template-file`)).toEqual(
      err('error: template format specified but no template given\n'),
    );
    expect(run(c, `${DRY} -o go-template-file=/nonexistent`)).toEqual(
      err('error: error reading --template /nonexistent, open /nonexistent: no such file or directory\n'),
    );
    expect(run(c, `${DRY} -o jsonpath-file=/nonexistent`)).toEqual(
      err('error: error reading --template /nonexistent, open /nonexistent: no such file or directory\n'),
    );
    expect(run(c, `${DRY} -o templatefile --template=/nonexistent`)).toEqual(
      err('error: error reading --template /nonexistent, open /nonexistent: no such file or directory\n'),
    );
    // Only get prints custom columns.
    expect(run(c, `${DRY} -o custom-columns-file=/x`)).toEqual(
      err(
        'error: unable to match a printer suitable for the output format "custom-columns-file=/x", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml\n',
      ),
    );
    // With --template, -o must be the bare format: `go-template=A` is no format at all.
    expect(run(c, 'kubectl get svc web -o go-template=A --template=B').stderr).toMatch(
      /^error: unable to match a printer suitable for the output format "go-template=A", allowed formats are: custom-columns,custom-columns-file,/,
    );
  });
});

describe('-o custom-columns-file (NewCustomColumnsPrinterFromTemplate)', () => {
  const c = webCluster();
  const usage =
    'Expected format is one line of space separated headers, one line of space separated column specs.';

  it('reads a header line and a spec line, split on whitespace', () => {
    c.files.write('cols', 'NAME   CLUSTER-IP\n.metadata.name   {.spec.clusterIP}\n');
    const ip = c.store.get('services', 'default', 'web')!.spec!.clusterIP!;
    expect(run(c, 'kubectl get svc web -o custom-columns-file=cols')).toEqual(
      ok(`NAME   CLUSTER-IP\nweb    ${ip}\n`),
    );
  });

  it('rejects a file without both lines, or with a spec per header missing', () => {
    c.files.write('empty', '');
    c.files.write('headers', 'NAME\n');
    c.files.write('short', 'NAME IP\n.metadata.name\n');
    expect(run(c, 'kubectl get svc -o custom-columns-file=empty')).toEqual(
      err(`error: invalid template, missing header line. ${usage}\n`),
    );
    expect(run(c, 'kubectl get svc -o custom-columns-file=headers')).toEqual(
      err(`error: invalid template, missing spec line. ${usage}\n`),
    );
    expect(run(c, 'kubectl get svc -o custom-columns-file=short')).toEqual(
      err("error: number of headers (2) and field specifications (1) don't match\n"),
    );
    expect(run(c, 'kubectl get svc -o custom-columns-file=nope')).toEqual(
      err('error: error reading template nope, open nope: no such file or directory\n'),
    );
  });
});
