import { describe, it, expect } from 'vitest';
import { RESOURCES, apiVersionOf } from '../resources.ts';
import { explainTypeName, fieldSchema, goTypeName, lookupPath } from './field-schema.ts';

describe('field schema', () => {
  it('has a schema for every kind the engine serves', () => {
    for (const info of RESOURCES) expect(fieldSchema(info.kind, apiVersionOf(info)), info.kind).toBeDefined();
  });

  // Type names as kubectl explain's plaintext template prints them (`typeGuess`, kubectl
  // pkg/explain/v2/templates/plaintext.tmpl); descriptions from the OpenAPI doc comments.
  it.each([
    { kind: 'Pod', path: 'spec', type: 'PodSpec', required: false },
    { kind: 'Pod', path: 'spec.containers', type: '[]Container', required: true },
    { kind: 'Pod', path: 'spec.containers.name', type: 'string', required: true },
    { kind: 'Pod', path: 'spec.containers.ports.containerPort', type: 'integer', required: true },
    { kind: 'Pod', path: 'metadata.labels', type: 'map[string]string', required: false },
    { kind: 'Pod', path: 'spec.containers.resources.limits', type: 'map[string]Quantity', required: false },
    { kind: 'Service', path: 'spec.ports.targetPort', type: 'IntOrString', required: false },
    { kind: 'Service', path: 'spec.trafficDistribution', type: 'string', required: false },
    { kind: 'Deployment', path: 'spec.selector', type: 'LabelSelector', required: true },
    { kind: 'NetworkPolicy', path: 'spec.ingress.from.ipBlock.cidr', type: 'string', required: true },
  ])('$kind.$path is <$type>', ({ kind, path, type, required }) => {
    const field = lookupPath(kind, path)!;
    expect(field).toBeDefined();
    expect(field.typeName).toBe(type);
    expect(field.required).toBe(required);
  });

  it('returns descriptions and the fields of the struct at a path', () => {
    const spec = lookupPath('Pod', 'spec')!;
    expect(spec.description).toMatch(/^Specification of the desired behavior of the pod/);
    expect(Object.keys(spec.fields!)).toContain('containers');
    expect(spec.requiredFields).toEqual(['containers']);
    expect(lookupPath('Pod', '')!.description).toMatch(/^Pod is a collection of containers/);
    expect(lookupPath('Pod', 'spec.containers')!.fields).toHaveProperty('image');
  });

  it('answers undefined for unknown kinds and fields, and never walks prototypes', () => {
    expect(lookupPath('Foo', 'spec')).toBeUndefined();
    expect(lookupPath('Pod', 'spec.nope')).toBeUndefined();
    expect(lookupPath('Pod', 'spec.__proto__')).toBeUndefined();
    expect(lookupPath('Pod', 'constructor')).toBeUndefined();
  });

  it('distinguishes the same kind name in different versions', () => {
    expect(fieldSchema('Deployment', 'apps/v1')).toBeDefined();
    expect(fieldSchema('Deployment', 'extensions/v1beta1')).toBeUndefined();
  });

  it('names Go types as reflect prints them', () => {
    expect(goTypeName(lookupPath('Pod', 'spec.containers')!.node)).toBe('[]v1.Container');
    expect(goTypeName(lookupPath('Pod', 'spec.terminationGracePeriodSeconds')!.node)).toBe('int64');
    expect(goTypeName(lookupPath('Secret', 'data')!.node)).toBe('map[string][]uint8');
    expect(explainTypeName({ type: 'object' })).toBe('Object');
  });
});
