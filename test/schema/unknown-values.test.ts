import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';

/**
 * An upstream that grows a new enum value (a validation status, a call type) must
 * not break queries: the field answers UNKNOWN and the raw value stays readable.
 * The devnet only serves known values, so the real client's answers are edited on
 * the way in: the one place here where a part is altered rather than real.
 */
describe('upstream values outside an enum', () => {
  let devnet: Devnet;
  let gateway: Gateway;

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 200 });
    const real = createDataApiClient({ baseUrl: devnet.url });
    const dataApi: DataApi = {
      ...real,
      listValidators: async (...args) => {
        const page = await real.listValidators(...args);
        const first = page.validators[0];
        if (first) first.validationStatus = 'jailed';
        return page;
      },
      listDelegators: async (...args) => {
        const page = await real.listDelegators(...args);
        const first = page.delegators[0];
        if (first) first.delegationStatus = 'slashed';
        return page;
      },
    };
    gateway = createGateway({ graphiql: false }, { dataApi, nodes: [] });
  });
  afterAll(async () => {
    await gateway.dispose();
    await devnet.close();
  });

  const run = async (query: string) => {
    const res = await gateway.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await res.json()) as { data?: Record<string, never>; errors?: unknown[] };
  };

  it('answers UNKNOWN with the raw value, and the rest of the page resolves', async () => {
    const res = await run(`{ network(name: MAINNET) {
      validators(first: 3) { edges { node { __typename nodeId validationStatus validationStatusRaw } } }
      delegators(first: 3) { edges { node { __typename txHash delegationStatus delegationStatusRaw } } }
    } }`);
    expect(res.errors).toBeUndefined();
    const network = res.data?.['network'] as unknown as {
      validators: { edges: { node: { __typename: string; validationStatus: string; validationStatusRaw: string } }[] };
      delegators: { edges: { node: { __typename: string; delegationStatus: string; delegationStatusRaw: string } }[] };
    };
    const [v0, v1] = network.validators.edges.map((e) => e.node);
    expect(v0).toMatchObject({ validationStatus: 'UNKNOWN', validationStatusRaw: 'jailed' });
    expect(v1?.validationStatus).not.toBe('UNKNOWN');
    const [d0] = network.delegators.edges.map((e) => e.node);
    expect(d0).toMatchObject({ delegationStatus: 'UNKNOWN', delegationStatusRaw: 'slashed' });
    expect(network.validators.edges).toHaveLength(3);
    expect(network.delegators.edges).toHaveLength(3);
  });
});
