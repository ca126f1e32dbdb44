import { describe, expect, it } from 'vitest';
import { createTopics, type TopicLease, type TopicSource } from '../../src/loaders/topics.ts';

// What a client may hold of the replica's topics, and the grace of topics that hold a registration,
// counted on sources that record their pollers: a refused subscription starts none, a reopened one
// within the grace starts none, and the grace ends on a clock the test moves (never a wait on time,
// beyond the bounded wait for the sweep that looks at that clock).

interface Recorder {
  /** Pollers started, by topic. */
  started: string[];
  /** Pollers stopped, by topic. */
  stopped: string[];
}

function recorder(): Recorder {
  return { started: [], stopped: [] };
}

/** A topic whose poller registers something (it lingers) or polls (it does not), recording both ends. */
function source(key: string, seen: Recorder, lingers = true): TopicSource<string> {
  return {
    key,
    lingers,
    async poll(signal) {
      seen.started.push(key);
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      seen.stopped.push(key);
    },
  };
}

const codeOf = (error: unknown): unknown => (error as { extensions?: { code?: unknown } }).extensions?.code;

function refusal(run: () => unknown): { code: unknown; message: string } {
  try {
    run();
  } catch (error) {
    return { code: codeOf(error), message: (error as Error).message };
  }
  throw new Error('not refused');
}

async function until(what: string, check: () => boolean, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never: ${what}`);
}

describe('per-client shares of the topics', () => {
  it('refuses a client past its distinct topics, starting nothing of the subscription, and gives the share back when it leaves', async () => {
    const seen = recorder();
    const topics = createTopics({ maxTopics: 100, maxTopicsPerClient: 4, maxWatchedKeysPerClient: 100, lingerMs: 0 });
    const held = topics.subscribeAll(['a', 'b', 'c'].map((k) => source(k, seen)), { client: 'attacker' });
    expect(seen.started).toEqual(['a', 'b', 'c']);
    // Two more distinct topics would make five: none of them starts.
    const refused = refusal(() => topics.subscribeAll(['d', 'e'].map((k) => source(k, seen)), { client: 'attacker' }));
    expect(refused.code).toBe('SERVER_BUSY');
    expect(refused.message).toContain('share of 4');
    expect(refused.message).toContain('MAX_TOPICS_PER_CLIENT');
    expect(refused.message).toMatch(/close subscriptions/);
    expect(seen.started).toEqual(['a', 'b', 'c']);
    // A topic it holds already counts once; another client has a share of its own.
    const again = topics.subscribeAll(['a', 'b', 'c', 'd'].map((k) => source(k, seen)), { client: 'attacker' });
    const other = topics.subscribeAll(['w', 'x', 'y', 'z'].map((k) => source(k, seen)), { client: 'victim' });
    expect(seen.started).toEqual(['a', 'b', 'c', 'd', 'w', 'x', 'y', 'z']);
    for (const stream of [...held, ...again]) await stream.return?.();
    expect(topics.stats()).toMatchObject({ topics: 4, clients: 1 });
    // Its share is whole again.
    const later = topics.subscribeAll(['e', 'f', 'g', 'h'].map((k) => source(k, seen)), { client: 'attacker' });
    expect(later).toHaveLength(4);
    for (const stream of [...other, ...later]) await stream.return?.();
    expect(topics.stats()).toMatchObject({ topics: 0, clients: 0, subscribers: 0 });
    await topics.close();
  });

  it('counts a topic watched by several subscriptions of a client once per subscription against its watched share', async () => {
    const seen = recorder();
    const topics = createTopics({ maxTopics: 100, maxTopicsPerClient: 10, maxWatchedKeysPerClient: 6, lingerMs: 0 });
    const keys = ['p', 'q', 'r'];
    const first = topics.subscribeAll(keys.map((k) => source(k, seen)), { client: 'c' });
    const second = topics.subscribeAll(keys.map((k) => source(k, seen)), { client: 'c' });
    const refused = refusal(() => topics.subscribeAll([source('p', seen)], { client: 'c' }));
    expect(refused.code).toBe('SERVER_BUSY');
    expect(refused.message).toContain('MAX_WATCHED_KEYS_PER_CLIENT');
    expect(refused.message).toContain('share of 6');
    // One poller per topic, whoever watches it.
    expect(seen.started).toEqual(keys);
    for (const stream of [...first, ...second]) await stream.return?.();
    await topics.close();
  });

  it('counts blocks-style subscriptions (one topic each) of a client through the same shares', async () => {
    const seen = recorder();
    const topics = createTopics({ maxTopics: 100, maxTopicsPerClient: 2, lingerMs: 0 });
    const one = topics.subscribeAll([source('blocks:a', seen, false)], { client: 'c' });
    const two = topics.subscribeAll([source('blocks:b', seen, false)], { client: 'c' });
    expect(refusal(() => topics.subscribeAll([source('blocks:c', seen, false)], { client: 'c' })).code).toBe('SERVER_BUSY');
    // Without a client (a context built without the gateway) no share applies.
    const anonymous = topics.subscribe(source('blocks:c', seen, false));
    for (const stream of [...one, ...two, anonymous]) await stream.return?.();
    await topics.close();
  });
});

describe('the registration grace', () => {
  it('keeps a lingering topic for its grace: reopened, it starts nothing; once the clock passes the grace, it stops', async () => {
    const seen = recorder();
    let clock = 1_000_000;
    const topics = createTopics({ maxTopics: 100, lingerMs: 60_000, now: () => clock });
    for (let round = 0; round < 100; round++) {
      const streams = topics.subscribeAll(['k1', 'k2'].map((k) => source(k, seen)), { client: 'c' });
      for (const stream of streams) await stream.return?.();
    }
    expect(seen.started).toEqual(['k1', 'k2']);
    expect(seen.stopped).toEqual([]);
    // Lingering topics hold no client's share.
    expect(topics.stats()).toMatchObject({ topics: 2, lingering: 2, clients: 0, subscribers: 0 });
    clock += 59_999;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.stopped).toEqual([]);
    clock += 1;
    await until('the grace is over', () => seen.stopped.length === 2);
    expect(topics.stats()).toMatchObject({ topics: 0, lingering: 0 });
    await topics.close();
  });

  it('does not keep a poll loop (a source that does not linger) after its last subscriber', async () => {
    const seen = recorder();
    const topics = createTopics({ lingerMs: 60_000 });
    const [stream] = topics.subscribeAll([source('blocks:x', seen, false)]);
    await stream?.return?.();
    await until('stopped', () => seen.stopped.length === 1);
    expect(topics.stats().lingering).toBe(0);
    await topics.close();
  });

  it('makes room for new topics by stopping lingering ones, oldest first, so they never refuse anyone', async () => {
    const seen = recorder();
    const topics = createTopics({ maxTopics: 3, maxTopicsPerClient: 3, lingerMs: 60_000 });
    for (const key of ['old', 'mid', 'new']) {
      const [stream] = topics.subscribeAll([source(key, seen)], { client: 'a' });
      await stream?.return?.();
    }
    expect(topics.stats()).toMatchObject({ topics: 3, lingering: 3 });
    // Another client needs two topics, one of them lingering ('mid', revived): 'old' makes room.
    const streams = topics.subscribeAll(['mid', 'fresh'].map((k) => source(k, seen)), { client: 'b' });
    await until('old stopped', () => seen.stopped.includes('old'));
    expect(seen.stopped).toEqual(['old']);
    expect(seen.started).toEqual(['old', 'mid', 'new', 'fresh']);
    // Full of topics with subscribers (and 'new' lingering): one more fresh one takes 'new''s place; two more are refused.
    expect(refusal(() => topics.subscribeAll(['x', 'y'].map((k) => source(k, seen)), { client: 'c' })).message).toContain('limit 3');
    for (const stream of streams) await stream.return?.();
    await topics.close();
    expect(seen.stopped.sort()).toEqual(['fresh', 'mid', 'new', 'old']);
  });
});

describe('a subscription\'s topics under a lease', () => {
  it('asks their leases together and starts the pollers it won in one turn, then says it opened', async () => {
    const seen = recorder();
    const holders = new Map<string, string>();
    let asked = 0;
    const lease: TopicLease = {
      hold: async (topic) => {
        asked += 1;
        // A lease answered later than the others (as Redis answers each in turn).
        await new Promise((resolve) => setTimeout(resolve, topic === 'k2' ? 20 : 0));
        if (topic === 'taken') return false;
        holders.set(topic, 'me');
        return true;
      },
      release: async (topic) => void holders.delete(topic),
    };
    const topics = createTopics({ lease, leaseTtlMs: 60_000, lingerMs: 0 });
    const order: string[] = [];
    let opened!: () => void;
    const done = new Promise<void>((resolve) => (opened = resolve));
    const streams = topics.subscribeAll(['k1', 'k2', 'k3', 'taken'].map((k) => source(k, seen)), {
      client: 'c',
      opened: () => {
        order.push(`opened after ${seen.started.join(',')}`);
        opened();
      },
    });
    await done;
    expect(asked).toBe(4);
    expect(order).toEqual(['opened after k1,k2,k3']);
    for (const stream of streams) await stream.return?.();
    await topics.close();
    expect(holders.size).toBe(0);
  });
});
