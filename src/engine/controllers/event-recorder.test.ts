import { describe, it, expect } from 'vitest';
import { makeServer } from '../apiserver/test-helpers.ts';
import fc from 'fast-check';
import { EventRecorder, nanosHex } from './event-recorder.ts';
import type { AnyObject } from '../api/objects.ts';

function setup() {
  const s = makeServer(5);
  const recorder = new EventRecorder(s.api, s.clock);
  const pod = s.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
  });
  return { ...s, recorder, pod };
}

/** The stored object minus what the store assigns (uid, resourceVersion, creationTimestamp). */
function shape(o: AnyObject): string {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, ...meta } = o.metadata;
  return JSON.stringify({ ...o, metadata: meta });
}

describe('EventRecorder', () => {
  // The recorder's events skip decoding (ApiServer.createTrusted): what it stores must be exactly what
  // the full create path (decode, defaults, validation) stores for the same Event, key order included.
  it.each([
    [
      'a container event from the kubelet',
      'spec.containers{nginx}',
      { component: 'kubelet', host: 'kind-worker' },
    ],
    ['a pod event from the scheduler', undefined, { component: 'default-scheduler' }],
  ] as const)('stores %s as the full API path would', (_what, fieldPath, source) => {
    const { api, store, recorder, pod } = setup();
    recorder.event(pod, 'Normal', 'Pulling', 'Pulling image "nginx"', source, fieldPath);
    const [event] = store.list('events');
    expect(event).toBeDefined();
    const manifest = JSON.parse(shape(event!)) as AnyObject;
    manifest.metadata.name = 'other';
    const viaApi = api.create({ ...manifest, eventTime: null } as unknown as AnyObject);
    expect(shape(viaApi)).toBe(shape({ ...event!, metadata: { ...event!.metadata, name: 'other' } }));
  });

  // client-go events_cache: an identical event bumps count and lastTimestamp of the first one.
  it('counts a repeated event on the existing object', () => {
    const { store, recorder, pod, clock } = setup();
    recorder.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    clock.set(clock.now() + 30_000);
    recorder.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    const events = store.list('events');
    expect(events).toHaveLength(1);
    expect(events[0]!.count).toBe(2);
    expect(events[0]!.firstTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(events[0]!.lastTimestamp).toBe('2026-01-01T00:00:30Z');
  });

  it('drops an event whose namespace is gone, as the real recorder does', () => {
    const { store, recorder, pod } = setup();
    const ghost = { ...pod, metadata: { ...pod.metadata, namespace: 'gone' } } as AnyObject;
    expect(() => recorder.event(ghost, 'Normal', 'Scheduled', 'x')).not.toThrow();
    expect(store.list('events')).toHaveLength(0);
  });
});

describe('event names', () => {
  it('carry the Unix time in nanoseconds in hex, exactly past 2^53 (as BigInt computes it)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 999_999 }), (ms, sub) => {
        expect(nanosHex(ms, sub)).toBe((BigInt(ms) * 1_000_000n + BigInt(sub)).toString(16));
      }),
    );
    // 2026-01-01T00:05:09Z, the 68,176th write: the shape of a name kubectl shows.
    expect(nanosHex(1767225909000, 68176)).toBe('18867299dfd0dc50');
  });
});
