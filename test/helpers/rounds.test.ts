import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { NodeRpcMethod } from '../../src/shapes/index.ts';
import type { NodeClient } from '../../src/upstream/client-types.ts';
import { createRoundTracker } from './rounds.ts';

// The round tracker itself: the rounds it reports must follow from what caused each call,
// whatever order and delay the answers come with (a loaded machine reorders them).

/** A node whose methods answer `{}` after the delay `delayOf` gives them, or fail when it says so. */
function fakeNode(delayOf: (method: NodeRpcMethod) => number | 'refuse'): NodeClient {
  return {
    name: 'fake',
    url: 'http://fake.invalid',
    call: (method) => {
      const ms = delayOf(method);
      // A refusal settles in a microtask, as a budget refusal does before anything is sent.
      return ms === 'refuse' ? Promise.reject(new Error(`${method} refused`)) : delay(ms).then(() => ({}) as never);
    },
    healthGet: () => Promise.reject(new Error('not used')),
  };
}

/** DataLoader's dispatch: after the current promise jobs, on a `process.nextTick`. */
const dispatchLikeDataLoader = <T>(fn: () => Promise<T>): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    void Promise.resolve().then(() => process.nextTick(() => fn().then(resolve, reject)));
  });

describe('createRoundTracker', () => {
  it('counts what each answer caused, the same whatever the delays: a slow sibling does not push its consequences a round later', async () => {
    const seen = new Set<string>();
    for (let run = 0; run < 25; run += 1) {
      // Run 0: the first chain is fast and the second call of round 1 the slowest of all (what a
      // free-running count by completion order gets wrong); then random delays.
      const delays: Partial<Record<NodeRpcMethod, number>> =
        run === 0
          ? { 'info.getNodeID': 0, 'info.peers': 0, 'info.uptime': 0, 'info.getNodeVersion': 40, 'info.acps': 0 }
          : Object.fromEntries(['info.getNodeID', 'info.peers', 'info.uptime', 'info.getNodeVersion', 'info.acps'].map((m) => [m, Math.floor(Math.random() * 12)]));
      const tracker = createRoundTracker();
      const node = tracker.node(fakeNode((method) => delays[method] ?? 0));
      const tracked = await tracker.track(() =>
        Promise.all([
          node.call('info.getNodeID').then(() => node.call('info.peers', {})).then(() => node.call('info.uptime', {})),
          node.call('info.getNodeVersion').then(() => node.call('info.acps')),
        ]),
      );
      expect(tracked.perRound).toEqual([
        ['fake info.getNodeID', 'fake info.getNodeVersion'],
        ['fake info.peers', 'fake info.acps'],
        ['fake info.uptime'],
      ]);
      seen.add(JSON.stringify(tracked.calls));
    }
    // Not just the same count: the same calls in the same rounds and order on every run.
    expect(seen.size).toBe(1);
  });

  it('keeps a round open for a batch dispatched on a tick after a sibling was refused in a microtask', async () => {
    const tracker = createRoundTracker();
    const node = tracker.node(fakeNode((method) => (method === 'info.acps' ? 'refuse' : 1)));
    const tracked = await tracker.track(() =>
      Promise.all([node.call('info.acps').catch(() => 'refused'), dispatchLikeDataLoader(() => node.call('info.peers', {}))]),
    );
    expect(tracked.result[0]).toBe('refused');
    expect(tracked.perRound).toEqual([['fake info.acps', 'fake info.peers']]);
  });

  it('hands back errors in their round and counts a call made after one as the next round', async () => {
    const tracker = createRoundTracker();
    const node = tracker.node(fakeNode((method) => (method === 'info.acps' ? 'refuse' : 1)));
    const tracked = await tracker.track(async () => {
      await node.call('info.acps').catch(() => undefined);
      return node.call('info.peers', {});
    });
    expect(tracked.rounds).toBe(2);
    expect(tracked.perRound).toEqual([['fake info.acps'], ['fake info.peers']]);
  });

  it('passes calls through untracked outside `track`, and `settled` waits for them and for what their answers cause', async () => {
    const tracker = createRoundTracker();
    const node = tracker.node(fakeNode(() => 5));
    let answered = false;
    void node
      .call('info.getNetworkID')
      .then(() => dispatchLikeDataLoader(() => node.call('info.peers', {})))
      .then(() => {
        answered = true;
      });
    await tracker.settled();
    expect(answered).toBe(true);
    const tracked = await tracker.track(() => Promise.resolve('no calls'));
    expect(tracked).toMatchObject({ result: 'no calls', rounds: 0, calls: [] });
  });
});
