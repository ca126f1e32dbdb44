import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, type NodeClientHandle } from '../../src/upstream/node-client.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * `GET /ext/health/health`, the seed's second path of the holistic report, through
 * the node client and through `AvalancheNode.healthStatus(path: HEALTH_HEALTH)`: 200
 * with a healthy report, 503 with the same kind of body when a check fails. The
 * devnet's clock is moved one health-check run at a time until its flapping subnet
 * chain has failed and recovered.
 */

let clock = Date.now();
let stack: TestStack;
let node: NodeClientHandle;

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  node = createNodeClient({ name: 'mainnet', url: stack.devnet.nodeUrls.mainnet ?? '' });
});
afterAll(async () => {
  await node.close();
  await stack.close();
});

/** Runs `read` at successive health-check runs (30 s apart) until it has seen both a healthy and an unhealthy answer. */
async function bothStates<T>(read: () => Promise<T>, healthy: (answer: T) => boolean): Promise<{ up: T; down: T }> {
  const start = clock;
  const seen: { up?: T; down?: T } = {};
  try {
    for (let run = 0; run < 24 && !(seen.up && seen.down); run++) {
      clock = start + run * 30_000;
      const answer = await read();
      if (healthy(answer)) seen.up ??= answer;
      else seen.down ??= answer;
    }
  } finally {
    clock = start;
  }
  expect(seen.up, 'a healthy answer').toBeDefined();
  expect(seen.down, 'an unhealthy answer').toBeDefined();
  return seen as { up: T; down: T };
}

describe('GET /ext/health/health', () => {
  it('the node client reads it: 200 when healthy, 503 with the report when not', async () => {
    stack.devnet.resetStats();
    const { up, down } = await bothStates(() => node.healthGet('health/health'), (a) => a.report.healthy);
    expect(up.status).toBe(200);
    expect(down.status).toBe(503);
    const failing = Object.entries(down.report.checks).filter(([, c]) => c.error != null);
    expect(failing.length).toBeGreaterThan(0);
    expect(Object.keys(down.report.checks)).toEqual(Object.keys(up.report.checks));
    const routes = stack.devnet.stats().byRoute;
    expect(routes['GET /ext/health/health']).toBeGreaterThanOrEqual(2);
    expect(routes['GET /ext/health'] ?? 0).toBe(0);
  });

  it('answers the same report as /ext/health, with tags', async () => {
    const tags = ['11111111111111111111111111111111LpoYY'];
    const [viaHealth, viaHealthHealth] = await Promise.all([node.healthGet('health', tags), node.healthGet('health/health', tags)]);
    expect(viaHealthHealth).toEqual(viaHealth);
    expect(Object.keys(viaHealthHealth.report.checks)).toEqual(expect.arrayContaining(['P', 'X', 'C', 'network']));
  });

  it('AvalancheNode.healthStatus(path: HEALTH_HEALTH) serves it with its HTTP status, one GET per query', async () => {
    const query = `{ avalancheNode(name: "mainnet") { healthStatus(path: HEALTH_HEALTH) {
      httpStatus report { healthy checks { name passing error duration contiguousFailures } } } } }`;
    type Status = { httpStatus: number; report: { healthy: boolean; checks: { name: string; passing: boolean; duration: string | null }[] } };
    const read = async (): Promise<Status> => {
      stack.devnet.resetStats();
      const res = await stack.query<{ avalancheNode: { healthStatus: Status } }>(query);
      expect(res.errors).toBeUndefined();
      expect(stack.devnet.stats().byRoute).toEqual({ 'GET /ext/health/health': 1 });
      return (res.data as { avalancheNode: { healthStatus: Status } }).avalancheNode.healthStatus;
    };
    const { up, down } = await bothStates(read, (s) => s.report.healthy);
    expect(up.httpStatus).toBe(200);
    expect(up.report.checks.every((c) => c.passing)).toBe(true);
    expect(down.httpStatus).toBe(503);
    expect(down.report.checks.some((c) => !c.passing)).toBe(true);
    for (const check of [...up.report.checks, ...down.report.checks]) expect(check.duration).toMatch(/^\d+$/);
  });
});
