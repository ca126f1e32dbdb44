/**
 * The body-size limit: useRequestLimits (413 PAYLOAD_TOO_LARGE, counts a body only when node's HTTP
 * parser does not bound it by its Content-Length) against yoga's `maxRequestBodySize` (wraps every
 * body in a counting stream), each as the gateway's only limit on a real socket, same 1 MiB, same
 * `__typename` POST. Prints µs per request (median of rounds) and what each answers a body over the limit.
 * Run with `npx tsx bench/lib-body-limit.ts`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createYoga } from 'graphql-yoga';
import { Agent, request } from 'undici';
import { REQUEST_LIMITS_DEFAULTS, useRequestLimits } from '../src/gateway/plugins/use-request-limits.ts';
import { getSchema } from '../src/schema/index.ts';
import { measurePairAsync } from './pairs.ts';

const schema = getSchema();
const limit = REQUEST_LIMITS_DEFAULTS.maxBodyBytes;

async function listen(yoga: ReturnType<typeof createYoga>): Promise<{ server: Server; url: string }> {
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql` };
}

const ours = await listen(createYoga({ schema, graphiql: false, logging: false, maxRequestBodySize: false, plugins: [useRequestLimits()] }));
const yogas = await listen(createYoga({ schema, graphiql: false, logging: false, maxRequestBodySize: limit }));
const dispatcher = new Agent({ connections: 1 });
const body = JSON.stringify({ query: `{ __typename } # ${'x'.repeat(4000)}` });

async function post(url: string): Promise<void> {
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, dispatcher });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(String(res.statusCode));
}

const [o, y] = await measurePairAsync(() => post(ours.url), () => post(yogas.url), 1000);
console.log(`4 KB POST with Content-Length   useRequestLimits ${o.toFixed(1)} µs/op   yoga maxRequestBodySize ${y.toFixed(1)} µs/op   x${(y / o).toFixed(2)}`);

/** What each answers a body over the limit, declared and chunked. */
async function refusal(url: string, chunked: boolean): Promise<string> {
  const big = Buffer.alloc(limit + 1, 32);
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: chunked ? Readable.from([big]) : big,
    dispatcher: new Agent(),
  });
  const text = await res.body.text();
  return `${res.statusCode} connection=${String(res.headers['connection'])} ${text.slice(0, 200)}`;
}
for (const chunked of [false, true]) {
  console.log(`over the limit (${chunked ? 'chunked' : 'declared'}):`);
  console.log(`  useRequestLimits        ${await refusal(ours.url, chunked)}`);
  console.log(`  yoga maxRequestBodySize ${await refusal(yogas.url, chunked)}`);
}
await dispatcher.close();
ours.server.close();
yogas.server.close();
