import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
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
        const [first, second] = page.validators;
        if (first) first.validationStatus = 'jailed';
        if (second) delete second.validationStatus;
        return page;
      },
      listDelegators: async (...args) => {
        const page = await real.listDelegators(...args);
        const [first, second] = page.delegators;
        if (first) first.delegationStatus = 'slashed';
        if (second) delete second.delegationStatus;
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

  it('answers UNKNOWN with the raw value, null and null for a missing one (no invented status), and the rest of the page resolves', async () => {
    const res = await run(`{ network(name: MAINNET) {
      validators(first: 3) { edges { node { __typename nodeId validationStatus validationStatusRaw } } }
      delegators(first: 3) { edges { node { __typename txHash delegationStatus delegationStatusRaw } } }
    } }`);
    expect(res.errors).toBeUndefined();
    const network = res.data?.['network'] as unknown as {
      validators: { edges: { node: { __typename: string; validationStatus: string; validationStatusRaw: string } }[] };
      delegators: { edges: { node: { __typename: string; delegationStatus: string; delegationStatusRaw: string } }[] };
    };
    const [v0, v1, v2] = network.validators.edges.map((e) => e.node);
    expect(v0).toMatchObject({ validationStatus: 'UNKNOWN', validationStatusRaw: 'jailed' });
    // Still a Validator (the type with no status-specific fields), its status not made up.
    expect(v1).toMatchObject({ __typename: 'PendingValidator', validationStatus: null, validationStatusRaw: null });
    expect(v2?.validationStatus).not.toBe('UNKNOWN');
    expect(v2?.validationStatusRaw).toEqual(expect.any(String));
    const [d0, d1] = network.delegators.edges.map((e) => e.node);
    expect(d0).toMatchObject({ delegationStatus: 'UNKNOWN', delegationStatusRaw: 'slashed' });
    expect(d1).toMatchObject({ __typename: 'PendingDelegator', delegationStatus: null, delegationStatusRaw: null });
    expect(network.validators.edges).toHaveLength(3);
    expect(network.delegators.edges).toHaveLength(3);
  });
});
