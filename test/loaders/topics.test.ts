import { describe, expect, it } from 'vitest';
import type { PubSubEventTarget } from '@graphql-yoga/subscription';
import { createTopics, type TopicLease, type TopicMessage, type TopicSource } from '../../src/loaders/topics.ts';

// Two "replicas" sharing one event target and one lease table, as Redis makes them share: one polls
// a topic, the other receives its events. A state topic (a node's health) must reach a subscriber of
// the other replica even when that replica joined after the state was last published and the state
// never changes again.

function sharedLease(): (replica: string) => TopicLease {
  const holders = new Map<string, string>();
  return (replica) => ({
    hold: async (topic) => {
      const holder = holders.get(topic);
      if (holder !== undefined && holder !== replica) return false;
      holders.set(topic, replica);
      return true;
    },
    release: async (topic) => {
      if (holders.get(topic) === replica) holders.delete(topic);
    },
  });
}

/** A state that is published once and never changes; counts its polls. */
function stateSource(polls: { count: number }): TopicSource<string> {
  return {
    key: 'nodeHealth:test',
    replayLast: true,
    async poll(signal, publish) {
      polls.count += 1;
      publish(['healthy'], 1);
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  };
}

const firstItems = async (messages: AsyncIterableIterator<TopicMessage<string>>, withinMs: number): Promise<readonly string[] | 'timeout'> => {
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), withinMs));
  const step = await Promise.race([messages.next(), timeout]);
  if (step === 'timeout') return step;
  return step.done || !('items' in step.value) ? [] : step.value.items;
};

describe('topics shared by replicas', () => {
  it('a late replica gets the current state of a state topic without a change, and does not poll it', async () => {
    const target = new EventTarget() as PubSubEventTarget<Record<string, [TopicMessage<unknown>]>>;
    const lease = sharedLease();
    const a = createTopics({ eventTarget: target, lease: lease('a'), leaseTtlMs: 90 });
    const b = createTopics({ eventTarget: target, lease: lease('b'), leaseTtlMs: 90 });
    const polls = { count: 0 };
    try {
      const onA = a.subscribe(stateSource(polls));
      expect(await firstItems(onA, 1000)).toEqual(['healthy']);
      // B joins after the only publication.
      const onB = b.subscribe(stateSource(polls));
      expect(await firstItems(onB, 1000)).toEqual(['healthy']);
      expect(polls.count).toBe(1);
      expect(a.stats().polling + b.stats().polling).toBe(1);
      await Promise.all([onA.return?.(), onB.return?.()]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
