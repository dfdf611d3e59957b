import { describe, it, expect } from 'vitest';
import {
  NoKindMatchError,
  ManifestTypeError,
  goQuote,
  invalid,
  kubectlInvalidText,
  notFound,
} from './errors.ts';

describe('invalid (apimachinery NewInvalid)', () => {
  const cause = (field: string, message: string) => ({ reason: 'FieldValueInvalid', field, message });

  // Golden: apimachinery pkg/api/errors/errors.go NewInvalid (`%s %q is invalid: %v` with
  // qualifiedKind.String()) and util/errors aggregate.Error (one error bare, several `[a, b]`, deduplicated).
  it('formats one cause bare and several as a bracketed list without duplicates', () => {
    expect(invalid('Service', 'web', [cause('spec.ports', 'Required value')]).message).toBe(
      'Service "web" is invalid: spec.ports: Required value',
    );
    const e = invalid('Deployment', 'd', [cause('a', 'x'), cause('b', 'y'), cause('a', 'x')], 'apps');
    expect(e.message).toBe('Deployment.apps "d" is invalid: [a: x, b: y]');
    expect(e.code).toBe(422);
    expect(e.details).toEqual({ group: 'apps', kind: 'Deployment', name: 'd' });
  });

  // Golden: kubectl pkg/cmd/util/helpers.go checkErr + MultilineError.
  it('renders what kubectl prints from the details', () => {
    expect(kubectlInvalidText(invalid('Service', 'web', [cause('spec.ports', 'Required value')]))).toBe(
      'The Service "web" is invalid: spec.ports: Required value',
    );
    expect(kubectlInvalidText(invalid('Deployment', 'd', [cause('a', 'x'), cause('b', 'y')], 'apps'))).toBe(
      'The Deployment "d" is invalid: \n* a: x\n* b: y',
    );
    expect(kubectlInvalidText(notFound('pods', 'x'))).toBeUndefined();
  });
});

describe('goQuote (strconv.Quote)', () => {
  it.each([
    { input: 'web', output: '"web"' },
    { input: 'a"b\\c', output: '"a\\"b\\\\c"' },
    { input: '\u001b[31m', output: '"\\x1b[31m"' },
    { input: 'tab\tnew\nline', output: '"tab\\tnew\\nline"' },
    { input: '\u0000\u007f', output: '"\\x00\\x7f"' },
    { input: 'caminho-do-pacote-ã', output: '"caminho-do-pacote-ã"' },
    { input: '\u0085', output: '"\\u0085"' },
  ])('$input', ({ input, output }) => {
    expect(goQuote(input)).toBe(output);
  });

  it('escapes names in NotFound messages', () => {
    expect(notFound('pods', 'a\u001bb').message).toBe('pods "a\\x1bb" not found');
  });
});

describe('client-side manifest errors', () => {
  // Golden: kubectl pkg/validation/validation_test.go; apimachinery NoKindMatchError; cli-runtime mapper.go.
  it('formats kubectl validation problems as an aggregate', () => {
    expect(new ManifestTypeError(['kind not set']).message).toBe('kind not set');
    expect(new ManifestTypeError(['apiVersion not set', 'kind not set']).message).toBe(
      '[apiVersion not set, kind not set]',
    );
  });

  it('formats the RESTMapper failure', () => {
    const e = new NoKindMatchError('HTTPRoute', 'gateway.networking.k8s.io/v1beta1', 'r', 'shop');
    expect(e.message).toBe('no matches for kind "HTTPRoute" in version "gateway.networking.k8s.io/v1beta1"');
    expect(e.mappingText('route.yaml')).toBe(
      'resource mapping not found for name: "r" namespace: "shop" from "route.yaml": no matches for kind "HTTPRoute" in version "gateway.networking.k8s.io/v1beta1"\nensure CRDs are installed first',
    );
  });
});
