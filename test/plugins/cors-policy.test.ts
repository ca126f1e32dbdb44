import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { corsOptions, parseCorsOrigins, type CorsPolicyOptions } from '../../src/gateway/plugins/use-cors-policy.ts';
import { startServer } from '../../src/server/server.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';

// CORS from a configured list: a listed origin (any, by default) is named back, credentials only for
// origins listed one by one, and an origin off the list gets no CORS header at all.

const APP = 'https://app.example.com';
const DEV = 'http://localhost:5173';
const EVIL = 'https://evil.example';

const gateways: Gateway[] = [];
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.dispose()));
});

/** A gateway whose upstreams are never called: `{ __typename }` and preflights reach none. */
function gatewayWith(cors?: CorsPolicyOptions): Gateway {
  const gateway = createGateway({ graphiql: false, ...(cors ? { cors } : {}) }, { dataApi: {} as DataApi, nodes: [] });
  gateways.push(gateway);
  return gateway;
}

function post(gateway: Gateway, origin: string): Promise<Response> {
  return Promise.resolve(
    gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    }),
  );
}

function preflight(gateway: Gateway, origin: string): Promise<Response> {
  return Promise.resolve(
    gateway.fetch('http://chaingraph.test/graphql', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    }),
  );
}

describe('by default: any origin, never credentials', () => {
  const gateway = gatewayWith();

  it('names the caller\'s origin back, varies by it, and sends no credentials header', async () => {
    for (const response of [await post(gateway, DEV), await preflight(gateway, DEV)]) {
      expect(response.headers.get('access-control-allow-origin')).toBe(DEV);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('vary')).toMatch(/Origin/);
    }
    expect((await post(gateway, DEV)).status).toBe(200);
  });
});

describe('with a list of origins', () => {
  const gateway = gatewayWith({ origins: [APP, DEV] });
  const single = gatewayWith({ origins: [APP] });

  it('names a listed origin back, on requests and preflights', async () => {
    for (const response of [await post(gateway, APP), await preflight(gateway, DEV), await post(single, APP)]) {
      expect([APP, DEV]).toContain(response.headers.get('access-control-allow-origin'));
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('sends an unlisted origin no CORS header at all (not `null`, not the one listed origin), and still varies by Origin', async () => {
    for (const response of [await post(gateway, EVIL), await preflight(gateway, EVIL), await post(single, EVIL), await post(gateway, 'null'), await preflight(single, 'null')]) {
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
      expect(response.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('allows credentials only when asked, and only to listed origins', async () => {
    const withCredentials = gatewayWith({ origins: [APP], credentials: true });
    const listed = await post(withCredentials, APP);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    const unlisted = await preflight(withCredentials, EVIL);
    expect(unlisted.headers.get('access-control-allow-origin')).toBeNull();
    expect(unlisted.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('never allows credentials with any origin', () => {
    expect(() => corsOptions({ origins: '*', credentials: true })).toThrow(/explicit list/);
    expect(() => corsOptions({ credentials: true })).toThrow(/explicit list/);
  });
});

describe('settings', () => {
  it('CORS_ORIGINS: `*` by default; origins normalised as browsers send them; anything else names the variable', () => {
    expect(parseCorsOrigins(undefined)).toBe('*');
    expect(parseCorsOrigins(' ')).toBe('*');
    expect(parseCorsOrigins('*')).toBe('*');
    expect(parseCorsOrigins('HTTPS://App.Example.com:443/, http://localhost:5173')).toEqual([APP, DEV]);
    for (const bad of ['null', 'app.example.com', 'https://app.example.com/path', 'https://a.example?x=1', 'ftp://a.example', 'https://user@a.example']) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(/CORS_ORIGINS entry 1/);
    }
  });

  it('CORS_CREDENTIALS=true needs a list of origins; ALLOW_FORM_POSTS is true or false', () => {
    expect(configFromEnv({}).cors).toEqual({ origins: '*', credentials: false });
    expect(configFromEnv({}).allowFormPosts).toBe(false);
    expect(configFromEnv({ CORS_ORIGINS: APP, CORS_CREDENTIALS: 'true' }).cors).toEqual({ origins: [APP], credentials: true });
    expect(() => configFromEnv({ CORS_CREDENTIALS: 'true' })).toThrow(/CORS_CREDENTIALS=true needs CORS_ORIGINS/);
    expect(() => configFromEnv({ CORS_ORIGINS: '*', CORS_CREDENTIALS: 'true' })).toThrow(/CORS_CREDENTIALS=true needs CORS_ORIGINS/);
    expect(() => configFromEnv({ CORS_CREDENTIALS: 'yes' })).toThrow(/CORS_CREDENTIALS must be true or false/);
    expect(configFromEnv({ ALLOW_FORM_POSTS: 'true' }).allowFormPosts).toBe(true);
    expect(() => configFromEnv({ ALLOW_FORM_POSTS: '1' })).toThrow(/ALLOW_FORM_POSTS must be true or false/);
  });

  it('reach the listening server', async () => {
    // No call reaches the Data API here: `{ __typename }` reads nothing.
    const config = configFromEnv({ PORT: '0', CACHE: 'off', DATA_API_URL: 'http://127.0.0.1:9', CORS_ORIGINS: APP, CORS_CREDENTIALS: 'true' });
    const running = await startServer(config, pino({ level: 'silent' }));
    try {
      const listed = await fetch(running.url, { method: 'POST', headers: { origin: APP, 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
      expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
      expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
      const unlisted = await fetch(running.url, { method: 'POST', headers: { origin: EVIL, 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
      expect(unlisted.headers.get('access-control-allow-origin')).toBeNull();
      const form = await fetch(running.url, { method: 'POST', headers: { origin: APP, 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=%7B__typename%7D' });
      expect(form.status).toBe(415);
    } finally {
      await running.close({ graceMs: 200 });
    }
  });
});
