import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, Kind, visit, type OperationDefinitionNode } from 'graphql';
import { configFromEnv } from '../../src/server/config.ts';
import { exampleQueries } from '../../src/gateway/graphiql-examples.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import pino from 'pino';
import { PRIMARY_NETWORK_ID } from '../../src/shapes/index.ts';

/**
 * What `npm start` does, through a real socket: no upstream configured, so the
 * gateway starts the devnet in-process; GraphiQL opens with examples that run.
 */
describe('npm start on the built-in devnet', () => {
  let running: RunningServer;

  beforeAll(async () => {
    running = await startServer({ ...configFromEnv({}), port: 0 }, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await running?.close();
  });

  it('serves GraphiQL at /graphql with the example queries', async () => {
    const res = await fetch(running.url, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('ValidatorWalk');
    expect(html).toContain('NodeOverview');
  });

  it('runs every GraphiQL example with data in every part', async () => {
    const fixtures = running.devnet?.dataset.fixtures();
    const document = parse(exampleQueries(fixtures?.mainnet));
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    expect(operations.map((o) => o.name?.value)).toEqual(['ValidatorWalk', 'AddressActivity', 'WalletScreen', 'EvmBlockExplorer', 'SubnetWithChains', 'NodeOverview']);
    for (const op of operations) {
      const res = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: exampleQueries(fixtures?.mainnet), operationName: op.name?.value }),
      });
      const body = (await res.json()) as { data?: unknown; errors?: unknown[] };
      expect(body.errors, op.name?.value).toBeUndefined();
      // The walk's subnet validations have no peer (their nodes are not primary-network peers). Elsewhere every
      // object and list is there; a scalar may be null where the devnet left an optional value out, as real
      // answers do (src/devnet/sparse.ts: one record in 8, scalars only).
      if (op.name?.value !== 'ValidatorWalk') expect(nullsOtherThanScalars(body.data, leafKeys(op)), op.name?.value).toEqual([]);
    }
  });

  it('walks validators with delegators, rewards, subnet and peer, all filled', async () => {
    const res = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: exampleQueries(), operationName: 'ValidatorWalk' }),
    });
    const body = (await res.json()) as {
      data: {
        network: {
          validators: {
            edges: { node: { delegators: { edges: unknown[] }; pendingRewards: { edges: unknown[] }; subnet: { subnetId: string } | null; peer: unknown } }[];
          };
        };
      };
    };
    const nodes = body.data.network.validators.edges.map((e) => e.node);
    expect(nodes).toHaveLength(50);
    expect(nodes.every((n) => n.subnet !== null)).toBe(true);
    const primary = nodes.filter((n) => n.subnet?.subnetId === PRIMARY_NETWORK_ID);
    expect(primary.length).toBeGreaterThan(30);
    // Every primary validation has a pending reward of its own; most have delegators; ~97% are connected peers.
    expect(primary.every((n) => n.pendingRewards.edges.length > 0)).toBe(true);
    expect(primary.filter((n) => n.delegators.edges.length > 0).length).toBeGreaterThan(primary.length * 0.8);
    expect(primary.filter((n) => n.peer !== null).length).toBeGreaterThan(primary.length * 0.85);
  });
});

describe('health and readiness for load balancers', () => {
  it('answers /health while up and /ready only while the Data API answers', async () => {
    // Each look at the Data API is reused for 300 ms, so a replica leaves the pool within that.
    const running = await startServer({ ...configFromEnv({ READY_PROBE_INTERVAL_MS: '300' }), port: 0 }, pino({ level: 'silent' }));
    try {
      const base = running.url.replace(/\/graphql$/, '');
      expect((await fetch(`${base}/health`)).status).toBe(200);
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(200);
      // With the cache counters: the chain list it just read is cached now.
      expect(await ready.json()).toMatchObject({ ready: true, cache: { misses: expect.any(Number), hits: expect.any(Number) } });
      // The Data API fails (503) for longer than the client's retries last. Readiness asks it, not the
      // cache, so the replica leaves the pool although the chain list is still cached.
      running.devnet?.setChaos({ faultRate: 1, routeFilter: 'GET /v1/chains' });
      let notReady = await fetch(`${base}/ready`);
      while (notReady.status === 200) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        notReady = await fetch(`${base}/ready`);
      }
      expect(notReady.status).toBe(503);
      const reason = (await notReady.json()) as Record<string, unknown>;
      // Which upstream and why, never its address.
      expect(reason).toMatchObject({ ready: false, upstream: 'data-api', cause: 'server_error' });
      expect(reason['reason']).toMatch(/^The Data API failed on GET \/v1\/chains \(HTTP 503\)/);
      const body = JSON.stringify(reason);
      expect(body).not.toContain(running.devnet?.url ?? 'never');
      expect((await fetch(`${base}/health`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('with READY_PROBE=live-check, asks the Data API\'s live check instead of its chain list', async () => {
    const running = await startServer({ ...configFromEnv({ READY_PROBE: 'live-check', READY_PROBE_INTERVAL_MS: '300' }), port: 0 }, pino({ level: 'silent' }));
    try {
      const base = running.url.replace(/\/graphql$/, '');
      expect((await fetch(`${base}/ready`)).status).toBe(200);
      const routes = (running.devnet?.requestLog() ?? []).map((entry) => entry.route);
      expect(routes).toContain('GET /v1/live-check');
      // Only the live check failing takes the replica out of the pool: the chain list is not what it asks.
      running.devnet?.setChaos({ faultRate: 1, routeFilter: 'GET /v1/live-check' });
      let notReady = await fetch(`${base}/ready`);
      while (notReady.status === 200) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        notReady = await fetch(`${base}/ready`);
      }
      expect(notReady.status).toBe(503);
    } finally {
      await running.close();
    }
  });
});

/** The response keys of the operation's fields that select nothing below them (its scalars and enums). */
function leafKeys(op: OperationDefinitionNode): Set<string> {
  const keys = new Set<string>();
  visit(op, { Field: (field) => void (field.selectionSet ? undefined : keys.add(field.alias?.value ?? field.name.value)) });
  return keys;
}

/** Paths of the nulls in `data` that stand where an object or a list was selected (a key that is no leaf of the query). */
function nullsOtherThanScalars(data: unknown, leaves: ReadonlySet<string>, path = 'data'): string[] {
  if (Array.isArray(data)) return data.flatMap((item, i) => nullsOtherThanScalars(item, leaves, `${path}[${i}]`));
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data).flatMap(([key, value]) =>
    value === null ? (leaves.has(key) ? [] : [`${path}.${key}`]) : nullsOtherThanScalars(value, leaves, `${path}.${key}`),
  );
}
