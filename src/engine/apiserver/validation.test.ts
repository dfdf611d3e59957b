import { describe, it, expect } from 'vitest';
import { StatusError, kubectlInvalidText } from '../api/errors.ts';
import { makeServer, thrown } from './test-helpers.ts';

const c = { name: 'web', image: 'nginx' };
const pod = (
  name: string,
  spec: Record<string, unknown> = { containers: [c] },
  metadata: Record<string, unknown> = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...metadata },
  spec,
});
const svc = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec,
});
const deploy = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec,
});
const netpol = (spec: Record<string, unknown>) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'np' },
  spec: { podSelector: {}, ...spec },
});
const ingress = (paths: unknown[]) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'ing' },
  spec: { rules: [{ http: { paths } }] },
});

const rejection = (manifest: unknown) => {
  const { api } = makeServer();
  const e = thrown(() => api.create(manifest as never)) as StatusError;
  expect(e).toBeInstanceOf(StatusError);
  expect(e.reason).toBe('Invalid');
  return e.message;
};

// Goldens: texts from k8s.io/apimachinery v0.35 util/validation/validation.go (RegexError keeps the
// double space before "or"), pkg/api/validation/objectmeta.go, and k8s.io/kubernetes
// pkg/apis/{core,apps,networking}/validation/validation.go; NewInvalid's `[a, b]` aggregate.
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('object names', () => {
  it.each([
    {
      name: 'pod with upper case',
      manifest: pod('Web'),
      text: `Pod "Web" is invalid: metadata.name: Invalid value: "Web": ${SUBDOMAIN}`,
    },
    {
      name: 'namespace with a dot',
      manifest: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a.b' } },
      text: 'Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots',
    },
    {
      name: 'namespace with an underscore',
      manifest: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a_b' } },
      text: `Namespace "a_b" is invalid: metadata.name: Invalid value: "a_b": ${LABEL}`,
    },
    {
      name: 'service starting with a digit (DNS-1035)',
      manifest: svc('1web', { ports: [{ port: 80 }] }),
      text: `Service "1web" is invalid: metadata.name: Invalid value: "1web": ${DNS1035}`,
    },
    {
      name: 'terminal escape sequences are quoted, not printed raw',
      manifest: pod('\u001b[31mred'),
      text: `Pod "\\x1b[31mred" is invalid: metadata.name: Invalid value: "\\x1b[31mred": ${SUBDOMAIN}`,
    },
    {
      name: 'HTML',
      manifest: pod('<b>x</b>'),
      text: `Pod "<b>x</b>" is invalid: metadata.name: Invalid value: "<b>x</b>": ${SUBDOMAIN}`,
    },
    {
      name: 'missing name',
      manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} },
      text: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
    },
  ])('$name', ({ manifest, text }) => {
    expect(rejection(manifest)).toBe(text);
  });

  it('checks the length limit of a label name', () => {
    expect(rejection(svc('a'.repeat(64), { ports: [{ port: 80 }] }))).toContain(
      'metadata.name: Invalid value: "' + 'a'.repeat(64) + '": must be no more than 63 characters',
    );
  });

  it('validates label keys and values', () => {
    expect(rejection(pod('p', { containers: [c] }, { labels: { '-bad': 'x y' } }))).toBe(
      "Pod \"p\" is invalid: [metadata.labels: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), metadata.labels: Invalid value: \"x y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    );
  });
});

describe('Pod', () => {
  it.each([
    {
      name: 'no containers',
      spec: { containers: [] },
      text: 'Pod "p" is invalid: spec.containers: Required value',
    },
    {
      name: 'container without name and image',
      spec: { containers: [{}] },
      text: 'Pod "p" is invalid: [spec.containers[0].name: Required value, spec.containers[0].image: Required value]',
    },
    {
      name: 'duplicate container names',
      spec: { containers: [c, c] },
      text: 'Pod "p" is invalid: spec.containers[1].name: Duplicate value: "web"',
    },
    {
      name: 'port out of range',
      spec: { containers: [{ ...c, ports: [{ containerPort: 70000 }] }] },
      text: 'Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    },
    {
      name: 'duplicate port names',
      spec: {
        containers: [
          {
            ...c,
            ports: [
              { name: 'http', containerPort: 80 },
              { name: 'http', containerPort: 81 },
            ],
          },
        ],
      },
      text: 'Pod "p" is invalid: spec.containers[0].ports[1].name: Duplicate value: "http"',
    },
    {
      name: 'port name too long and upper case',
      spec: { containers: [{ ...c, ports: [{ name: 'Web-Server-Port-1', containerPort: 80 }] }] },
      text: 'Pod "p" is invalid: [spec.containers[0].ports[0].name: Invalid value: "Web-Server-Port-1": must be no more than 15 characters, spec.containers[0].ports[0].name: Invalid value: "Web-Server-Port-1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)]',
    },
    {
      name: 'unsupported protocol (sorted list)',
      spec: { containers: [{ ...c, ports: [{ containerPort: 80, protocol: 'ICMP' }] }] },
      text: 'Pod "p" is invalid: spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    },
  ])('$name', ({ spec, text }) => {
    expect(rejection(pod('p', spec))).toBe(text);
  });

  it('forbids changing anything but images on update', () => {
    const { api } = makeServer();
    const stored = api.create(pod('p'));
    const edit = (change: (spec: { containers: Record<string, unknown>[] }) => void) => {
      const copy = structuredClone(stored) as typeof stored & {
        spec: { containers: Record<string, unknown>[] };
      };
      change(copy.spec);
      return copy;
    };
    expect(() => api.update(edit((s) => (s.containers[0]!.image = 'nginx:2')))).not.toThrow();
    // A hand-written manifest lacks what admission added (token volume, tolerations): real
    // `kubectl replace` of such a file fails the same way.
    expect(() => api.update(pod('p', { containers: [{ ...c, image: 'nginx:3' }] }))).toThrow(StatusError);
    const e = thrown(() =>
      api.update(edit((s) => (s.containers[0]!.ports = [{ containerPort: 80 }]))),
    ) as StatusError;
    expect(e.message).toMatch(
      /^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/,
    );
  });
});

describe('Service', () => {
  it.each([
    {
      name: 'unsupported type',
      spec: { type: 'Foo', ports: [{ port: 80 }] },
      text: 'Service "s" is invalid: spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    },
    {
      name: 'no ports',
      spec: { selector: { app: 'x' } },
      text: 'Service "s" is invalid: spec.ports: Required value',
    },
    {
      name: 'several ports without names',
      spec: { ports: [{ port: 80 }, { port: 443 }] },
      text: 'Service "s" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]',
    },
    {
      name: 'port and targetPort out of range',
      spec: { ports: [{ port: 0, targetPort: 70000 }] },
      text: 'Service "s" is invalid: [spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive]',
    },
    {
      name: 'duplicate port',
      spec: {
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 80 },
        ],
      },
      text: 'Service "s" is invalid: spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}',
    },
    {
      name: 'externalTrafficPolicy on ClusterIP',
      spec: { ports: [{ port: 80 }], externalTrafficPolicy: 'Local' },
      text: 'Service "s" is invalid: spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
    },
    {
      name: 'nodePort on ClusterIP',
      spec: { ports: [{ port: 80, nodePort: 30080 }] },
      text: 'Service "s" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'',
    },
    {
      name: 'sessionAffinity',
      spec: { ports: [{ port: 80 }], sessionAffinity: 'Sticky' },
      text: 'Service "s" is invalid: spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
    },
    {
      name: 'selector label',
      spec: { ports: [{ port: 80 }], selector: { app: 'a b' } },
      text: "Service \"s\" is invalid: spec.selector: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    },
  ])('$name', ({ spec, text }) => {
    expect(rejection(svc('s', spec))).toBe(text);
  });

  it('accepts a headless Service without ports and an ExternalName Service', () => {
    const { api } = makeServer();
    expect(() => api.create(svc('h', { clusterIP: 'None', selector: { app: 'x' } }))).not.toThrow();
    expect(() => api.create(svc('e', { type: 'ExternalName', externalName: 'example.com' }))).not.toThrow();
  });
});

describe('Deployment, ReplicaSet, DaemonSet', () => {
  const template = (labels: Record<string, string>) => ({ metadata: { labels }, spec: { containers: [c] } });

  // Golden: apps validation ValidatePodTemplateSpecForReplicaSet; the bad value is rendered as JSON
  // by apimachinery v0.35 field.Error.ErrorBody.
  it('requires the selector to match the template labels', () => {
    expect(
      rejection(deploy('d', { selector: { matchLabels: { app: 'x' } }, template: template({ app: 'y' }) })),
    ).toBe(
      'Deployment.apps "d" is invalid: spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`',
    );
  });

  // ValidateDeploymentSpec: Required, then LabelSelectorAsSelector(nil) = labels.Nothing(), which
  // ValidatePodTemplateSpecForReplicaSet finds not matching any template.
  it('requires a selector and non-negative replicas', () => {
    expect(rejection(deploy('d', { replicas: -1, template: template({ app: 'x' }) }))).toBe(
      'Deployment.apps "d" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`]',
    );
  });

  it('a missing selector with no template labels: two causes (audit #13)', () => {
    const noLabels = { spec: { containers: [c] } };
    expect(rejection(deploy('d1', { template: noLabels }))).toBe(
      'Deployment.apps "d1" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`]',
    );
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'r' },
      spec: { template: noLabels },
    };
    expect(rejection(rs)).toBe(
      'ReplicaSet.apps "r" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`]',
    );
    // ValidateDaemonSetSpec has no Required check for the selector.
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ds' },
      spec: { template: noLabels },
    };
    expect(rejection(ds)).toBe(
      'DaemonSet.apps "ds" is invalid: spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`',
    );
    // An empty selector is labels.Everything(): only the empty-selector error, after the template check.
    const empty = { ...ds, spec: { selector: {}, template: noLabels } };
    expect(rejection(empty)).toBe(
      'DaemonSet.apps "ds" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for daemonset',
    );
    expect(rejection({ ...rs, spec: { selector: {}, template: noLabels } })).toBe(
      'ReplicaSet.apps "r" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    );
  });

  it('a Deployment template with activeDeadlineSeconds gets the ReplicaSet wording', () => {
    const t = { metadata: { labels: { app: 'x' } }, spec: { containers: [c], activeDeadlineSeconds: 5 } };
    expect(rejection(deploy('d', { selector: { matchLabels: { app: 'x' } }, template: t }))).toBe(
      'Deployment.apps "d" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    );
  });

  it('reports the kubectl text from details', () => {
    const e = (() => {
      const { api } = makeServer();
      return thrown(() =>
        api.create(deploy('d', { replicas: -1, template: template({ app: 'x' }) })),
      ) as StatusError;
    })();
    expect(kubectlInvalidText(e)).toBe(
      'The Deployment "d" is invalid: \n* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    );
  });

  it('keeps the selector immutable on update', () => {
    const { api } = makeServer();
    api.create(
      deploy('d', { selector: { matchLabels: { app: 'x' } }, template: template({ app: 'x', v: '1' }) }),
    );
    const e = thrown(() =>
      api.update(
        deploy('d', {
          selector: { matchLabels: { app: 'x', v: '1' } },
          template: template({ app: 'x', v: '1' }),
        }),
      ),
    );
    expect(e.message).toBe(
      'Deployment.apps "d" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"x","v":"1"}}: field is immutable',
    );
  });

  it('applies the same template rules to DaemonSets', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ds' },
      spec: { selector: { matchLabels: { app: 'x' } }, template: template({ app: 'z' }) },
    };
    expect(rejection(ds)).toBe(
      'DaemonSet.apps "ds" is invalid: spec.template.metadata.labels: Invalid value: {"app":"z"}: `selector` does not match template `labels`',
    );
  });
});

describe('NetworkPolicy', () => {
  it.each([
    {
      name: 'endPort below port (upstream reports the port value)',
      spec: { ingress: [{ ports: [{ port: 9000, endPort: 8000 }] }] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.ingress[0].ports[0].endPort: Invalid value: 9000: must be greater than or equal to `port`',
    },
    {
      name: 'endPort with a named port',
      spec: { ingress: [{ ports: [{ port: 'http', endPort: 8000 }] }] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.ingress[0].ports[0].endPort: Invalid value: 8000: may not be specified when `port` is non-numeric',
    },
    {
      name: 'endPort without port',
      spec: { egress: [{ ports: [{ endPort: 8000 }] }] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.egress[0].ports[0].endPort: Invalid value: 8000: may not be specified when `port` is not specified',
    },
    {
      name: 'protocol list in upstream order',
      spec: { ingress: [{ ports: [{ port: 80, protocol: 'ICMP' }] }] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
    },
    {
      name: 'except outside cidr',
      spec: { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }] }] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
    },
    {
      name: 'empty peer',
      spec: { ingress: [{ from: [{}] }] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.ingress[0].from[0]: Required value: must specify a peer',
    },
    {
      name: 'ipBlock with another peer',
      spec: { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer',
    },
    {
      name: 'unknown policy type',
      spec: { policyTypes: ['Both'] },
      text: 'NetworkPolicy.networking.k8s.io "np" is invalid: spec.policyTypes[0]: Unsupported value: "Both": supported values: "Ingress", "Egress"',
    },
  ])('$name', ({ spec, text }) => {
    expect(rejection(netpol(spec))).toBe(text);
  });

  it('accepts a port range', () => {
    const { api } = makeServer();
    expect(() =>
      api.create(netpol({ egress: [{ ports: [{ port: 32000, endPort: 32768 }] }] })),
    ).not.toThrow();
  });
});

describe('Ingress', () => {
  const backend = { service: { name: 'web', port: { number: 80 } } };
  it.each([
    {
      name: 'missing pathType',
      paths: [{ path: '/', backend }],
      text: 'Ingress.networking.k8s.io "ing" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
    },
    {
      name: 'unknown pathType',
      paths: [{ path: '/', pathType: 'Regex', backend }],
      text: 'Ingress.networking.k8s.io "ing" is invalid: spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
    },
    {
      name: 'relative Prefix path',
      paths: [{ path: 'api', pathType: 'Prefix', backend }],
      text: 'Ingress.networking.k8s.io "ing" is invalid: spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
    },
    {
      name: 'backend without port',
      paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web' } } }],
      text: 'Ingress.networking.k8s.io "ing" is invalid: spec.rules[0].http.paths[0].backend.service.port: Required value: port name or number is required',
    },
  ])('$name', ({ paths, text }) => {
    expect(rejection(ingress(paths))).toBe(text);
  });
});

describe('ConfigMap and Secret keys', () => {
  it('rejects keys that are not config keys', () => {
    expect(
      rejection({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { 'bad key': 'v' } }),
    ).toBe(
      "ConfigMap \"cm\" is invalid: data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  });
});
