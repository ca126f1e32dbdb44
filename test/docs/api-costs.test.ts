import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

/**
 * The upstream calls docs/api.md says its examples cost, measured: each figure is read from the
 * docs' own sentence, so the text and the measurement cannot part.
 */
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const api = read('docs/api.md');
const readme = read('README.md');

/** The `graphql` block holding the operation `name`. */
function example(text: string, name: string): string {
  const block = [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes(`query ${name} `));
  expect(block, name).toBeDefined();
  return block as string;
}

describe('what docs/api.md says its examples cost', () => {
  let running: RunningServer;

  beforeAll(async () => {
    running = await startServer({ ...configFromEnv({}), port: 0 }, pino({ level: 'silent' }));
  }, 60_000);
  afterAll(() => running?.close());

  async function cost(query: string): Promise<number> {
    const response = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = (await response.json()) as { errors?: unknown; extensions: { cost: { actualUpstreamCalls: number } } };
    expect(body.errors).toBeUndefined();
    return body.extensions.cost.actualUpstreamCalls;
  }

  it('the validator walk: its stated range cold, none repeated', async () => {
    const [, low, high] = /validator walk[^.]*? costs (\d+) to (\d+) upstream requests/.exec(api) ?? [];
    const calls = await cost(example(readme, 'ValidatorWalk'));
    expect(calls).toBeGreaterThanOrEqual(Number(low));
    expect(calls).toBeLessThanOrEqual(Number(high));
    expect(api).toMatch(/repeated within the TTL it costs none/);
    expect(await cost(example(readme, 'ValidatorWalk'))).toBe(0);
  });

  it('the wallet screen: its stated count', async () => {
    const [, stated] = /wallet screen costs (\d+) upstream calls/.exec(api) ?? [];
    expect(await cost(example(api, 'WalletScreen'))).toBe(Number(stated));
  });
});
