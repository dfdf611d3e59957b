import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { decodeManifest, MAX_REQUEST_BYTES } from './decode.ts';
import { ManifestTypeError, NoKindMatchError, StatusError } from '../api/errors.ts';
import { NAME_ALPHABET, Rng } from '../util/rng.ts';
import { thrown } from './test-helpers.ts';

const pod = (spec: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web' },
  spec,
  ...extra,
});
const container = { name: 'web', image: 'nginx' };

describe('decodeManifest: strict field validation', () => {
  // Golden: apiserver handlers/rest.go transformDecodeError ("%s in version %q cannot be handled as
  // a %s: %v") + apimachinery runtime/error.go strictDecodingError; kubernetes-facts.md §6.4.
  it('rejects an unknown field under Strict with the API server wording', () => {
    const e = thrown(() => decodeManifest(pod({ containers: [container], foo: 1 })));
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).reason).toBe('BadRequest');
    expect(e.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"',
    );
  });

  // Golden path shape: apiserver admission/plugin/policy/mutating/patch/json_patch_test.go
  // `strict decoding error: unknown field "spec.template.spec.containers[1].ports[0].containerPortZ"`.
  it('names list indices in unknown-field paths and uses the version without the group', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [container, { name: 'b', image: 'b', ports: [{ containerPortZ: 80 }] }] },
        },
      },
    };
    expect(thrown(() => decodeManifest(deployment)).message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[1].ports[0].containerPortZ"',
    );
  });

  // kubectl sends JSON with sorted keys and the decoder walks it depth-first: nested unknown
  // fields under `containers` come before the sibling `foo`.
  it('lists several unknown fields comma-separated in document order', () => {
    const e = thrown(() =>
      decodeManifest(pod({ foo: 1, containers: [{ ...container, bar: 2 }] }, { zzz: true })),
    );
    expect(e.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bar", unknown field "spec.foo", unknown field "zzz"',
    );
  });

  it('reports unknown fields as warnings under Warn and drops them', () => {
    const warnings: string[] = [];
    const { object } = decodeManifest(pod({ containers: [container], foo: 1 }), {
      fieldValidation: 'Warn',
      warnings,
    });
    expect(warnings).toEqual(['unknown field "spec.foo"']);
    expect(object.spec).toEqual({ containers: [container] });
  });

  it('drops unknown fields silently under Ignore', () => {
    const warnings: string[] = [];
    const { object } = decodeManifest(pod({ containers: [container], foo: 1 }), {
      fieldValidation: 'Ignore',
      warnings,
    });
    expect(warnings).toEqual([]);
    expect(object.spec).toEqual({ containers: [container] });
  });

  it('accepts what `kubectl create --dry-run=client -o yaml` prints (nulls and empty status)', () => {
    // Golden: output of the installed kubectl v1.32 `create deployment web --image=nginx --dry-run=client -o yaml`.
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { creationTimestamp: null, labels: { app: 'web' }, name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        strategy: {},
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: { containers: [{ image: 'nginx', name: 'nginx', resources: {} }] },
        },
      },
      status: {},
    };
    const { info, object } = decodeManifest(manifest);
    expect(info.key).toBe('deployments.apps');
    expect(object.metadata).toEqual({ labels: { app: 'web' }, name: 'web' });
  });
});

describe('decodeManifest: v1.35 fields', () => {
  // Golden: k8s.io/api v0.35.0 core/v1 types.go (PodStatus.ObservedGeneration, PodSpec.Resources,
  // ServiceSpec.TrafficDistribution), fields a `kubectl get -o yaml` dump of a v1.35 cluster carries.
  it('accepts fields added after kubernetes-types 1.30', () => {
    expect(() =>
      decodeManifest(
        pod(
          { containers: [container], resources: { limits: { cpu: '1' } } },
          {
            status: {
              observedGeneration: 1,
              conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1 }],
            },
          },
        ),
      ),
    ).not.toThrow();
    expect(() =>
      decodeManifest({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { trafficDistribution: 'PreferClose' },
      }),
    ).not.toThrow();
  });
});

describe('decodeManifest: JSON type errors', () => {
  // Golden format: sigs.k8s.io/json internal/golang/encoding/json/decode.go UnmarshalTypeError.Error:
  // "json: cannot unmarshal " + Value + " into Go struct field " + Struct + "." + Field + " of type " + Type.
  it.each([
    {
      name: 'string for an int32',
      manifest: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'x' },
        spec: { replicas: 'three' },
      },
      text: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    },
    {
      name: 'number for a string inside a list (no index in the Go path)',
      manifest: pod({ containers: [{ name: 'a', image: 5 }] }),
      text: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string',
    },
    {
      name: 'float for an int32',
      manifest: pod({ containers: [{ ...container, ports: [{ containerPort: 80.5 }] }] }),
      text: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 80.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    },
    {
      name: 'map value of the wrong type',
      manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { app: 5 } } },
      text: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    },
    {
      name: 'string for a struct',
      manifest: pod('oops'),
      text: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec',
    },
    {
      name: 'object for a list',
      manifest: pod({ containers: { name: 'a' } }),
      text: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
    },
    {
      name: 'named string type',
      manifest: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' }, spec: { type: 1 } },
      text: 'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number into Go struct field ServiceSpec.spec.type of type v1.ServiceType',
    },
    {
      // intstr.IntOrString.UnmarshalJSON decodes non-strings with the standard library: no struct context.
      name: 'bool for an IntOrString',
      manifest: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'x' },
        spec: { ports: [{ port: 80, targetPort: true }] },
      },
      text: 'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go value of type int32',
    },
    {
      // apimachinery api/resource/quantity.go ErrFormatWrong.
      name: 'malformed quantity',
      manifest: pod({ containers: [{ ...container, resources: { limits: { cpu: 'lots' } } }] }),
      text: 'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
    },
    {
      // Go encoding/base64 CorruptInputError: the first byte outside the alphabet.
      name: 'secret data that is not base64',
      manifest: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'not base64!' } },
      text: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3',
    },
  ])('$name', ({ manifest, text }) => {
    const e = thrown(() => decodeManifest(manifest));
    expect(e).toBeInstanceOf(StatusError);
    expect(e.message).toBe(text);
  });

  it('accepts ints and names where IntOrString is expected, and numbers as quantities', () => {
    const np = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np' },
      spec: { podSelector: {}, ingress: [{ ports: [{ port: 'http' }, { port: 80, endPort: 90 }] }] },
    };
    expect(() => decodeManifest(np)).not.toThrow();
    const { object } = decodeManifest(
      pod({ containers: [{ ...container, resources: { limits: { cpu: 1, memory: '64Mi' } } }] }),
    );
    expect((object.spec as { containers: { resources: unknown }[] }).containers[0]!.resources).toEqual({
      limits: { cpu: '1', memory: '64Mi' },
    });
  });
});

describe('decodeManifest: custom resources are validated against their OpenAPI schema', () => {
  // Golden: kube-openapi validate errors (`%s in %s must be of type %s: %q`) converted by
  // apiextensions-apiserver with field.TypeInvalid / field.Required.
  it('reports type and required errors as Invalid', () => {
    const gw = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: 'gw' },
      spec: { gatewayClassName: 'eg', listeners: [{ name: 'http', port: '80', protocol: 'HTTP' }] },
    };
    const e = thrown(() => decodeManifest(gw)) as StatusError;
    expect(e.reason).toBe('Invalid');
    expect(e.message).toBe(
      'Gateway.gateway.networking.k8s.io "gw" is invalid: spec.listeners[0].port: Invalid value: "string": spec.listeners[0].port in body must be of type integer: "string"',
    );
    const gc = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GatewayClass',
      metadata: { name: 'eg' },
      spec: {},
    };
    expect(thrown(() => decodeManifest(gc)).message).toBe(
      'GatewayClass.gateway.networking.k8s.io "eg" is invalid: spec.controllerName: Required value',
    );
  });

  it('rejects unknown fields with the same strict text as built-in kinds', () => {
    const route = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'r' },
      spec: { foo: 1 },
    };
    expect(thrown(() => decodeManifest(route)).message).toBe(
      'HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error: unknown field "spec.foo"',
    );
  });
});

describe('decodeManifest: type and kind resolution (kubectl client side)', () => {
  // Golden: kubectl pkg/validation/validation_test.go.
  it.each([
    {
      name: 'both missing',
      manifest: { metadata: { name: 'x' } },
      text: '[apiVersion not set, kind not set]',
    },
    { name: 'apiVersion missing', manifest: { kind: 'Pod' }, text: 'apiVersion not set' },
    {
      name: 'apiVersion not a string',
      manifest: { apiVersion: 1 },
      text: "[apiVersion isn't string type, kind not set]",
    },
  ])('$name', ({ manifest, text }) => {
    const e = thrown(() => decodeManifest(manifest));
    expect(e).toBeInstanceOf(ManifestTypeError);
    expect(e.message).toBe(text);
  });

  // Golden: apimachinery api/meta/errors.go NoKindMatchError and cli-runtime resource/mapper.go.
  it('reports an unknown kind as the RESTMapper and cli-runtime word it', () => {
    const e = thrown(() =>
      decodeManifest({ apiVersion: 'v1', kind: 'Foo', metadata: { name: 'x' } }),
    ) as NoKindMatchError;
    expect(e).toBeInstanceOf(NoKindMatchError);
    expect(e.message).toBe('no matches for kind "Foo" in version "v1"');
    expect(e.mappingText('f.yaml')).toBe(
      'resource mapping not found for name: "x" namespace: "" from "f.yaml": no matches for kind "Foo" in version "v1"\nensure CRDs are installed first',
    );
    const old = thrown(() => decodeManifest({ apiVersion: 'extensions/v1beta1', kind: 'Deployment' }));
    expect(old.message).toBe('no matches for kind "Deployment" in version "extensions/v1beta1"');
  });
});

describe('decodeManifest: names', () => {
  it('generates a name from generateName with 5 characters of the Kubernetes alphabet', () => {
    const { object } = decodeManifest(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cfg-' } },
      { rng: new Rng(7) },
    );
    expect(object.metadata.name).toMatch(new RegExp(`^cfg-[${NAME_ALPHABET}]{5}$`));
  });

  it('leaves a missing name empty for validation to report', () => {
    expect(decodeManifest({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }).object.metadata.name).toBe(
      '',
    );
  });
});

describe('decodeManifest: hostile input', () => {
  it('treats __proto__ and constructor as unknown fields and pollutes nothing', () => {
    const manifest = JSON.parse(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
    ) as unknown;
    expect(thrown(() => decodeManifest(manifest)).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "__proto__", unknown field "constructor"',
    );
    const { object } = decodeManifest(manifest, { fieldValidation: 'Ignore' });
    expect(Object.keys(object).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const labels = JSON.parse(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","labels":{"__proto__":{"a":1}}}}',
    ) as unknown;
    expect(thrown(() => decodeManifest(labels)).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string',
    );
  });

  it('keeps a __proto__ map key as plain data', () => {
    const manifest = JSON.parse(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"__proto__":"v"}}',
    ) as unknown;
    const { object } = decodeManifest(manifest);
    const data = object.data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).v).toBeUndefined();
  });

  it('answers 10,000 levels of nesting with a StatusError, not a stack overflow', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_001; i++) deep = { a: deep };
    const e = thrown(() =>
      decodeManifest({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: deep }),
    );
    expect(e).toBeInstanceOf(StatusError);
    expect(e.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: exceeded max depth');
  });

  // Golden: apiserver `MaxRequestBodyBytes` (3 MiB) and NewRequestEntityTooLargeError.
  it('rejects a 5 MB string as too large', () => {
    const e = thrown(() =>
      decodeManifest({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'x' },
        data: { big: 'x'.repeat(5_000_000) },
      }),
    ) as StatusError;
    expect(e.reason).toBe('RequestEntityTooLarge');
    expect(e.code).toBe(413);
    expect(e.message).toBe(`Request entity too large: limit is ${MAX_REQUEST_BYTES}`);
  });

  it('terminates on self-referencing input (YAML aliases)', () => {
    const loop: Record<string, unknown> = { name: 'x' };
    loop.self = loop;
    const e = thrown(() => decodeManifest({ apiVersion: 'v1', kind: 'ConfigMap', metadata: loop }));
    expect(e).toBeInstanceOf(StatusError);
  });

  it('never throws anything but API or manifest errors (property)', () => {
    const known = (e: unknown) =>
      e instanceof StatusError || e instanceof ManifestTypeError || e instanceof NoKindMatchError;
    const kinds = fc.constantFrom(
      { apiVersion: 'v1', kind: 'Pod' },
      { apiVersion: 'v1', kind: 'Service' },
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' },
    );
    fc.assert(
      fc.property(kinds, fc.jsonValue(), fc.jsonValue(), (tk, spec, meta) => {
        try {
          decodeManifest({ ...tk, metadata: meta, spec });
        } catch (e) {
          if (!known(e)) throw e;
        }
      }),
      { numRuns: 300 },
    );
  });
});
