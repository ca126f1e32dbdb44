import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createTopics } from '../../src/loaders/topics.ts';
import { loaderContext } from '../../src/loaders/registry.ts';
import { activityTopic, createLiveActivity, QUEUED_PER_SUBSCRIBER, type ActivityItem } from '../../src/loaders/live-activity.ts';

// A subscriber's unread events are bounded: one that does not keep up is ended with SERVER_BUSY after the
// events it has waiting, never buffered without bound nor skipped silently.
describe('a live-activity subscriber that does not read', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50, webhookIntervalMs: 0 });
  });
  afterAll(async () => {
    await devnet?.close();
  });

  it(`gets its ${QUEUED_PER_SUBSCRIBER} waiting events, then SERVER_BUSY`, async () => {
    const dataApi = createDataApiClient({ baseUrl: devnet.url, apiKey: 'live-activity-loader-test' });
    const topics = createTopics();
    const live = createLiveActivity({ publicUrl: 'http://127.0.0.1:9/webhooks/data-api', dataApi, topics });
    const group = { kind: 'evm', chainId: '43114' } as const;
    const address = '0x00000000000000000000000000000000000000aa';
    const ctx = loaderContext({ dataApi, nodes: [] } as never);
    const events = live.subscribe(ctx, group, [address]);
    for (let wait = 0; devnet.webhooks.counters().webhooks.length === 0 && wait < 500; wait++) await new Promise((r) => setTimeout(r, 10));
    const item = (n: number): ActivityItem => ({ kind: 'evm', messageId: `m${n}`, webhookId: 'w', event: { transaction: { txHash: `0x${n}`, chainId: '43114' } } });
    for (let n = 0; n < QUEUED_PER_SUBSCRIBER + 50; n++) topics.publish(activityTopic(group, address), [item(n)]);
    // The subscriber reads nothing while the events are taken in (turns of the event loop, not a time).
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    const got: string[] = [];
    for (;;) {
      const step = await events.next();
      if (step.done) break;
      if (step.value.kind === 'failed') {
        expect((step.value.error as { extensions?: { code?: string } }).extensions?.code).toBe('SERVER_BUSY');
        break;
      }
      got.push(step.value.messageId);
    }
    expect(got).toEqual(Array.from({ length: QUEUED_PER_SUBSCRIBER }, (_, n) => `m${n}`));
    expect((await events.next()).done).toBe(true);
    await topics.close();
    await dataApi.close();
  });
});
