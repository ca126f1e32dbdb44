import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmissionGate } from '../../src/gateway/plugins/use-admission-control.ts';
import { createEdgePolicy, type Ticket } from '../../src/gateway/plugins/edge-policy.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

describe('the admission gate', () => {
  it('runs up to maxConcurrent, queues up to maxQueued, refuses the rest', async () => {
    const gate = createAdmissionGate({ maxConcurrent: 2, maxQueued: 1, maxWaitMs: 60_000 });
    const a = await gate.acquire();
    const b = await gate.acquire();
    expect(a && b).toBeTruthy();
    const queued = gate.acquire();
    expect(await gate.acquire()).toBeUndefined();
    expect(gate.stats()).toEqual({ running: 2, queued: 1, subscriptions: 0, rejected: 1 });
    a?.();
    a?.(); // idempotent: one slot freed, handed to the waiter
    const c = await queued;
    expect(c).toBeTypeOf('function');
    expect(gate.stats()).toMatchObject({ running: 2, queued: 0 });
    b?.();
    c?.();
    expect(gate.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('gives up on a waiter after maxWaitMs and when its caller goes away', async () => {
    const gate = createAdmissionGate({ maxConcurrent: 1, maxQueued: 5, maxWaitMs: 20 });
    const held = await gate.acquire();
    expect(await gate.acquire()).toBeUndefined();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort();
    expect(await waiting).toBeUndefined();
    expect(gate.stats()).toMatchObject({ running: 1, queued: 0 });
    held?.();
    expect(gate.stats()).toMatchObject({ running: 0 });
  });

  it('keeps each client to its share: a freed slot goes to the first waiter under its share', async () => {
    const gate = createAdmissionGate({ maxConcurrent: 3, maxQueued: 10, maxWaitMs: 60_000, maxPerClient: 2 });
    const a1 = await gate.acquire(undefined, 'a');
    const a2 = await gate.acquire(undefined, 'a');
    // The third of client a waits although a slot is free; client b passes it.
    const a3 = gate.acquire(undefined, 'a');
    expect(gate.stats()).toMatchObject({ running: 2, queued: 1 });
    const b1 = await gate.acquire(undefined, 'b');
    expect(b1).toBeTypeOf('function');
    expect(gate.stats()).toMatchObject({ running: 3, queued: 1 });
    // b's slot frees: a is still at its share, so a3 keeps waiting.
    b1?.();
    expect(gate.stats()).toMatchObject({ running: 2, queued: 1 });
    a1?.();
    expect(await a3).toBeTypeOf('function');
    expect(gate.stats()).toMatchObject({ running: 2, queued: 0 });
    a2?.();
  });

  it('the edge policy keeps one client to its share of subscriptions and bodies within their budget', () => {
    const policy = createEdgePolicy({ maxSubscriptions: 4, maxBodyBytesInFlight: 1000 });
    const a = [policy.admitSubscription('a'), policy.admitSubscription('a')];
    expect(a.every((ticket) => typeof ticket !== 'string')).toBe(true);
    expect(policy.admitSubscription('a')).toMatch(/from this client \(limit 2\)/);
    expect(typeof policy.admitSubscription('b')).not.toBe('string');
    (a[0] as Ticket).release();
    expect(typeof policy.admitSubscription('a')).not.toBe('string');
    const first = policy.reserveBody(600);
    expect(policy.reserveBody(600)).toBeUndefined();
    first?.();
    first?.();
    expect(policy.stats().bodyBytes).toBe(0);
    expect(policy.reserveBody(1000)).toBeTypeOf('function');
  });

  it('counts subscriptions separately', () => {
    const gate = createAdmissionGate({ maxSubscriptions: 1 });
    const release = gate.acquireSubscription();
    expect(gate.acquireSubscription()).toBeUndefined();
    release?.();
    release?.();
    expect(gate.stats().subscriptions).toBe(0);
    expect(gate.acquireSubscription()).toBeTypeOf('function');
  });
});

describe('admission control in the gateway', () => {
  let stack: TestStack;
  const gate = createAdmissionGate({ maxConcurrent: 2, maxQueued: 2, maxWaitMs: 30_000, maxSubscriptions: 1, retryAfterSeconds: 3 });

  beforeAll(async () => {
    // Every upstream call takes 300 ms, so operations overlap for sure.
    stack = await startStack({ devnet: { latencyMs: 300 }, gateway: { admission: gate, graphiql: true } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const query = '{ network(name: MAINNET) { validators(first: 2) { edges { node { nodeId } } } } }';
  const post = () =>
    stack.gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query }),
    });

  it('runs 2, queues 2, answers 503 SERVER_BUSY with Retry-After to the rest; GraphiQL and /health are not held back', async () => {
    const responses = Array.from({ length: 8 }, () => post());
    // While the gate is full: /health and the GraphiQL page answer at once. Requests reach the gate one turn of
    // the event loop after another when the loop's slice is spent (the first one's cold start): wait for it to fill.
    for (let turn = 0; turn < 500 && gate.stats().queued < 2; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gate.stats()).toMatchObject({ running: 2, queued: 2 });
    const health = await stack.gateway.fetch('http://chaingraph.test/health');
    expect(health.status).toBe(200);
    const graphiql = await stack.gateway.fetch('http://chaingraph.test/graphql', { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);

    const settled = await Promise.all(responses);
    const busy = settled.filter((r) => r.status === 503);
    const ok = settled.filter((r) => r.status === 200);
    expect(ok).toHaveLength(4);
    expect(busy).toHaveLength(4);
    for (const response of busy) {
      expect(response.headers.get('retry-after')).toBe('3');
      const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).toBe('SERVER_BUSY');
    }
    for (const response of ok) expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    expect(gate.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('refuses early requests (413, 400) without taking a slot, and frees slots of refused documents', async () => {
    for (let i = 0; i < 5; i++) {
      const refused = await stack.gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{'.repeat(5000) }),
      });
      expect(refused.status).toBe(400);
    }
    expect(gate.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('holds a subscription slot while the stream lives and frees it when the client goes away', async () => {
    const subscribe = (signal?: AbortSignal) =>
      stack.gateway.fetch(`http://chaingraph.test/graphql?query=${encodeURIComponent('subscription { nodeHealth(node: "mainnet") { healthy } }')}`, {
        headers: { accept: 'text/event-stream' },
        ...(signal ? { signal } : {}),
      });
    /** Reads the stream until its first data event (SSE starts with a keep-alive comment). */
    const firstEvent = async (reader: ReadableStreamDefaultReader<Uint8Array> | undefined) => {
      let text = '';
      while (reader && !text.includes('data:')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text;
    };
    const controller = new AbortController();
    const first = await subscribe(controller.signal);
    const reader = first.body?.getReader();
    expect(await firstEvent(reader)).toContain('healthy');
    expect(gate.stats().subscriptions).toBe(1);
    // The operation slot went back when the stream started.
    expect(gate.stats().running).toBe(0);

    const second = await subscribe();
    const refused = await second.text();
    expect(refused).toContain('SERVER_BUSY');

    controller.abort();
    await reader?.cancel().catch(() => undefined);
    await expect.poll(() => gate.stats().subscriptions, { timeout: 5000 }).toBe(0);
    const third = new AbortController();
    const again = await subscribe(third.signal);
    const againReader = again.body?.getReader();
    expect(await firstEvent(againReader)).toContain('healthy');
    third.abort();
    await againReader?.cancel().catch(() => undefined);
    await expect.poll(() => gate.stats().subscriptions, { timeout: 5000 }).toBe(0);
  });
});
