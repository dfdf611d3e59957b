/**
 * `kubectl explain` follows kubectl's plaintext template (pkg/explain/v2/templates/plaintext.tmpl);
 * descriptions come from the engine's field schema. `sprigWrap` is goutils.WrapCustom (sprig `wrap`).
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../test-helpers.ts';
import { sprigWrap } from './explain.ts';

describe('kubectl explain', () => {
  it('prints KIND/VERSION, DESCRIPTION and FIELDS with a tab before <type>', () => {
    const out = makeKubectl().run('explain pods').stdout;
    expect(out.startsWith('KIND:       Pod\nVERSION:    v1\n\nDESCRIPTION:\n    ')).toBe(true);
    expect(out).toContain('\nFIELDS:\n  apiVersion\t<string>\n    ');
    expect(out).toContain('\n  spec\t<PodSpec>\n');
  });

  it('names the group for non-core kinds and marks required fields', () => {
    const out = makeKubectl().run('explain deployment.spec').stdout;
    expect(
      out.startsWith(
        'GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: spec <DeploymentSpec>\n\n\nDESCRIPTION:\n',
      ),
    ).toBe(true);
    expect(out).toContain('\n  selector\t<LabelSelector> -required-\n');
    expect(out).toContain('\n  template\t<PodTemplateSpec> -required-\n');
  });

  it('unknown fields and types', () => {
    const k = makeKubectl();
    expect(k.run('explain pod.spec.nope').stderr).toBe('error: field "nope" does not exist\n');
    expect(k.run('explain nope').stderr).toBe('error: the server doesn\'t have a resource type "nope"\n');
  });

  it.each([
    ['short', 10, 'short'],
    ['the quick brown fox jumps', 10, 'the quick\nbrown fox\njumps'],
    ['https://a-very-long-url.example/path next', 10, 'https://a-very-long-url.example/path\nnext'],
  ])('sprig wrap %j at %i', (text, width, want) => {
    expect(sprigWrap(text, width)).toBe(want);
  });
});

describe('help and validation flags', () => {
  it('-h prints the real help text on stdout', () => {
    const r = makeKubectl().run('get -h');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.startsWith('Display one or many resources.\n')).toBe(true);
    expect(r.stdout).toContain(
      '\nUsage:\n  kubectl get [(-o|--output=)json|yaml|kyaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags] [options]\n',
    );
  });

  it('--validate=warn reports unknown fields as warnings and creates the object', () => {
    const k = makeKubectl({
      files: { 'p.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nfoo: 1\n' },
    });
    expect(k.run('apply -f p.yaml --validate=warn')).toEqual({
      stdout: 'configmap/c created\n',
      stderr: 'Warning: unknown field "foo"\n',
      output: [
        { stream: 'stderr', text: 'Warning: unknown field "foo"\n' },
        { stream: 'stdout', text: 'configmap/c created\n' },
      ],
      exitCode: 0,
    });
    expect(k.run('apply -f p.yaml --validate=bogus').stderr).toBe(
      'error: invalid - validate option "bogus"; must be one of: strict (or true), warn, ignore (or false)\n',
    );
  });

  it('global flags may come before the command', () => {
    const k = makeKubectl();
    expect(k.run('-n kube-system get pods').stderr).toBe('No resources found in kube-system namespace.\n');
  });
});
