/**
 * Patch semantics. Strategic merge rows follow kubernetes.io "Update API Objects in Place Using
 * kubectl patch" (containers merge by name, tolerations are replaced, a merge patch replaces the
 * containers list) and apimachinery strategicpatch (`null` deletes, `$patch: delete`); JSON patch rows
 * are RFC 6902 appendix A examples; merge patch rows RFC 7386 appendix A.
 */
import { describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch, PatchError, strategicMergePatch } from './patch.ts';

const deployment = () => ({
  spec: {
    replicas: 2,
    template: {
      spec: {
        containers: [{ name: 'patch-demo-ctr', image: 'nginx', ports: [{ containerPort: 80 }] }],
        tolerations: [{ effect: 'NoSchedule', key: 'dedicated', value: 'test-team' }],
      },
    },
  },
});

describe('strategic merge patch', () => {
  it('merges containers by name (the docs add a second container)', () => {
    const out = strategicMergePatch(deployment(), {
      spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] } } },
    });
    expect(out.spec).toMatchObject({
      template: {
        spec: {
          containers: [
            { name: 'patch-demo-ctr', image: 'nginx', ports: [{ containerPort: 80 }] },
            { name: 'patch-demo-ctr-2', image: 'redis' },
          ],
        },
      },
    });
  });

  it('replaces lists without a merge key (tolerations), keeps the rest', () => {
    const out = strategicMergePatch(deployment(), {
      spec: {
        template: { spec: { tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] } },
      },
    }) as ReturnType<typeof deployment>;
    expect(out.spec.template.spec.tolerations).toEqual([
      { effect: 'NoSchedule', key: 'disktype', value: 'ssd' },
    ]);
    expect(out.spec.template.spec.containers).toHaveLength(1);
  });

  it('updates an item in place, merges its ports by containerPort, deletes with null and $patch', () => {
    const out = strategicMergePatch(deployment(), {
      spec: {
        replicas: null,
        template: {
          spec: {
            containers: [{ name: 'patch-demo-ctr', image: 'nginx:1.27', ports: [{ containerPort: 443 }] }],
          },
        },
      },
    }) as { spec: { replicas?: number; template: { spec: { containers: unknown[] } } } };
    expect(out.spec.replicas).toBeUndefined();
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'patch-demo-ctr', image: 'nginx:1.27', ports: [{ containerPort: 80 }, { containerPort: 443 }] },
    ]);
    const gone = strategicMergePatch(deployment(), {
      spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr', $patch: 'delete' }] } } },
    }) as ReturnType<typeof deployment>;
    expect(gone.spec.template.spec.containers).toEqual([]);
  });

  it('rejects a list item without its merge key', () => {
    expect(() =>
      strategicMergePatch(deployment(), { spec: { template: { spec: { containers: [{ image: 'x' }] } } } }),
    ).toThrow(PatchError);
  });
});

describe('JSON merge patch (RFC 7386)', () => {
  it.each([
    { name: 'replace', t: { a: 'b' }, p: { a: 'c' }, r: { a: 'c' } },
    { name: 'add', t: { a: 'b' }, p: { b: 'c' }, r: { a: 'b', b: 'c' } },
    { name: 'null removes', t: { a: 'b' }, p: { a: null }, r: {} },
    { name: 'lists replaced', t: { a: ['b'] }, p: { a: ['c'] }, r: { a: ['c'] } },
    { name: 'nested', t: { a: { b: 'c' } }, p: { a: { b: 'd', c: null } }, r: { a: { b: 'd' } } },
    { name: 'non-object patch', t: { a: 'foo' }, p: ['c'], r: ['c'] },
  ])('$name', ({ t, p, r }) => {
    expect(mergePatch(t, p)).toEqual(r);
  });
});

describe('JSON patch (RFC 6902 appendix A)', () => {
  it.each([
    {
      name: 'A.1 add member',
      d: { foo: 'bar' },
      p: [{ op: 'add', path: '/baz', value: 'qux' }],
      r: { baz: 'qux', foo: 'bar' },
    },
    {
      name: 'A.2 add element',
      d: { foo: ['bar', 'baz'] },
      p: [{ op: 'add', path: '/foo/1', value: 'qux' }],
      r: { foo: ['bar', 'qux', 'baz'] },
    },
    {
      name: 'A.3 remove member',
      d: { baz: 'qux', foo: 'bar' },
      p: [{ op: 'remove', path: '/baz' }],
      r: { foo: 'bar' },
    },
    {
      name: 'A.4 remove element',
      d: { foo: ['bar', 'qux', 'baz'] },
      p: [{ op: 'remove', path: '/foo/1' }],
      r: { foo: ['bar', 'baz'] },
    },
    {
      name: 'A.5 replace',
      d: { baz: 'qux', foo: 'bar' },
      p: [{ op: 'replace', path: '/baz', value: 'boo' }],
      r: { baz: 'boo', foo: 'bar' },
    },
    {
      name: 'A.6 move',
      d: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      p: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      r: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    },
    {
      name: 'A.16 add to end',
      d: { foo: ['bar'] },
      p: [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      r: { foo: ['bar', ['abc', 'def']] },
    },
    {
      name: 'A.14 ~ escapes',
      d: { '/': 9, '~1': 10 },
      p: [{ op: 'test', path: '/~01', value: 10 }],
      r: { '/': 9, '~1': 10 },
    },
  ])('$name', ({ d, p, r }) => {
    expect(jsonPatch(d, p)).toEqual(r);
  });

  it.each([
    { name: 'A.9 test fails', d: { baz: 'qux' }, p: [{ op: 'test', path: '/baz', value: 'bar' }] },
    {
      name: 'A.12 add to a missing parent',
      d: { foo: 'bar' },
      p: [{ op: 'add', path: '/baz/bat', value: 'qux' }],
    },
    { name: 'remove a missing key', d: { foo: 'bar' }, p: [{ op: 'remove', path: '/spec' }] },
    { name: 'index out of range', d: { foo: ['a'] }, p: [{ op: 'add', path: '/foo/5', value: 1 }] },
    { name: 'not a list of operations', d: {}, p: { op: 'add' } },
  ])('$name fails', ({ d, p }) => {
    expect(() => jsonPatch(d, p)).toThrow(PatchError);
  });
});
