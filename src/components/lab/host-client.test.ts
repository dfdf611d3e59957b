import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostClient } from './host-client.ts';
import { PROTOCOL_VERSION, type FromHost, type ToHost, type Transport } from '../../runtime/protocol.ts';

/** A host that answers nothing by itself: the test decides what it says and when. */
function fakeHost() {
  const posted: ToHost[] = [];
  let receive: ((m: FromHost) => void) | undefined;
  let closed = false;
  const transport: Transport = {
    post: (m) => posted.push(m),
    listen: (r) => {
      receive = r;
    },
    close: () => {
      closed = true;
    },
  };
  const answer = (id: number, value: unknown = null) =>
    receive?.({ v: PROTOCOL_VERSION, kind: 'response', id, ok: true, value });
  /** Answers every ping posted so far, as a live host's event loop would. */
  const answerPings = () => {
    for (const m of posted.splice(0)) if (m.kind === 'request' && m.type === 'ping') answer(m.id);
  };
  return { transport, posted, answer, answerPings, isClosed: () => closed };
}

const WATCH = { pingEveryMs: 500, deadAfterMs: 2000 };

describe('HostClient watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('declares a host dead after deadAfterMs of silence while a request waits, and rejects it', async () => {
    const host = fakeHost();
    const onDead = vi.fn();
    const client = new HostClient(host.transport, { ...WATCH, onDead });
    // The host has spoken once (armed), then starts a request it never finishes.
    const hello = client.request('hello', {});
    host.answer(1, { version: 1, host: 'worker', terminal: 'line' });
    await hello;
    const exec = client.request('exec', { line: 'kubectl get pods' });
    const outcome = exec.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1999);
    expect(onDead).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(501);
    expect(onDead).toHaveBeenCalledTimes(1);
    expect(host.isClosed()).toBe(true);
    expect(await outcome).toMatchObject({ name: 'HostError', code: 'unresponsive' });
    // A closed client refuses new work instead of hanging.
    await expect(client.request('state', {})).rejects.toMatchObject({ code: 'closed' });
  });

  it('keeps a slow host that still answers its pings alive', async () => {
    const host = fakeHost();
    const onDead = vi.fn();
    const client = new HostClient(host.transport, { ...WATCH, onDead });
    const load = client.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    const loadId = host.posted[0]!.id;
    for (let i = 0; i < 20; i++) {
      await vi.advanceTimersByTimeAsync(500);
      host.answerPings();
    }
    expect(onDead).not.toHaveBeenCalled();
    host.answer(loadId, { done: true });
    expect(await load).toEqual({ done: true });
  });

  it('does not count idle time: a request after a long quiet spell gets its full deadline', async () => {
    const host = fakeHost();
    const onDead = vi.fn();
    const client = new HostClient(host.transport, { ...WATCH, onDead });
    const first = client.request('hello', {});
    host.answer(1, {});
    await first;
    await vi.advanceTimersByTimeAsync(60_000);
    const exec = client.request('exec', { line: 'ls' });
    await vi.advanceTimersByTimeAsync(500);
    expect(onDead).not.toHaveBeenCalled();
    host.answer(host.posted.find((m) => m.kind === 'request' && m.type === 'exec')!.id, { stdout: '' });
    await exec;
    // Nothing waits any more, so the heartbeat stops: no pings into an idle host.
    await vi.advanceTimersByTimeAsync(500);
    host.posted.splice(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(host.posted).toEqual([]);
    expect(onDead).not.toHaveBeenCalled();
  });

  it('warns half-way to the deadline (to warm a replacement) and says when the host speaks again', async () => {
    const host = fakeHost();
    const onDead = vi.fn();
    const onSuspect = vi.fn();
    const onRecover = vi.fn();
    const client = new HostClient(host.transport, { ...WATCH, onDead, onSuspect, onRecover });
    const hello = client.request('hello', {});
    host.answer(1, {});
    await hello;
    const load = client.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    const loadId = host.posted.find((m) => m.kind === 'request' && m.type === 'load')!.id;
    await vi.advanceTimersByTimeAsync(500);
    expect(onSuspect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(onSuspect).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(onSuspect).toHaveBeenCalledTimes(1);
    host.answerPings();
    expect(onRecover).toHaveBeenCalledTimes(1);
    host.answer(loadId, {});
    await load;
    expect(onDead).not.toHaveBeenCalled();
  });

  it('is not armed before the host first speaks (a worker still fetching its script)', async () => {
    const host = fakeHost();
    const onDead = vi.fn();
    const client = new HostClient(host.transport, { ...WATCH, onDead });
    void client.request('hello', {}).catch(() => {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(onDead).not.toHaveBeenCalled();
    expect(host.posted.filter((m) => m.kind === 'request' && m.type === 'ping').length).toBe(20);
  });

  it('has no heartbeat without a watchdog (the WebContainer host)', async () => {
    const host = fakeHost();
    const client = new HostClient(host.transport);
    void client.request('hello', {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.posted.map((m) => (m.kind === 'request' ? m.type : m.kind))).toEqual(['hello']);
  });
});
