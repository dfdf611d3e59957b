import { describe, expect, it } from 'vitest';
import { diagnosticsFor, splitFieldPath } from './diagnostics.ts';

const manifest = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
    - port: 0
      targetPort: 80
  selectr:
    app: web
`;

describe('diagnosticsFor', () => {
  it.each([
    {
      name: 'a field error by path',
      stderr:
        'The Service "web" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive\n',
      line: 7,
    },
    {
      name: 'an unknown field from strict decoding',
      stderr:
        'Error from server (BadRequest): error when creating "web.yaml": Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.selectr"\n',
      line: 9,
    },
    {
      name: 'a YAML line',
      stderr:
        'error: error parsing web.yaml: error converting YAML to JSON: yaml: line 4: mapping values are not allowed in this context\n',
      line: 4,
    },
    { name: 'something we cannot place', stderr: 'error: the server is on fire\n', line: 1 },
  ])('$name goes on line $line', ({ stderr, line }) => {
    const [d] = diagnosticsFor(manifest, stderr);
    expect(d?.line).toBe(line);
    expect(d?.message).toBe(stderr.trim());
  });

  it('gives one diagnostic per error line and skips usage hints', () => {
    const stderr =
      "* spec.ports[0].port: Invalid value\n* metadata.name: Required value\nSee 'kubectl apply -h' for help.\n";
    expect(diagnosticsFor(manifest, stderr).map((d) => d.line)).toEqual([7, 4]);
  });

  it('splits field paths with indexes', () => {
    expect(splitFieldPath('spec.ports[0].port')).toEqual(['spec', 'ports', 0, 'port']);
  });
});
