import { readFileSync } from 'node:fs';
import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

/**
 * The examples of the README and docs/api.md as a newcomer runs them: `npm start` with nothing
 * configured (the devnet with its default data, whose sample ids `npm start` prints), each operation
 * of each `graphql` block pasted as written (except blocks for a federation router). Every query and
 * mutation answers without errors; every subscription is valid and delivers its first event.
 */
const README = ['../../README.md', '../../docs/api.md'].map((file) => readFileSync(new URL(file, import.meta.url), 'utf8')).join('\n');
const ADMIN_TOKEN = 'readme-examples-admin-token-0123456789';

function readmeOperations(): { name: string; operation: OperationDefinitionNode; fragments: string[] }[] {
  // A block that starts with "# Through the router" needs the federated supergraph (test/federation runs those).
  const blocks = [...README.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1] as string).filter((block) => !block.startsWith('# Through the router'));
  return blocks.flatMap((block, index) => {
    const definitions = parse(block).definitions;
    // An operation is sent with the block's fragments (a deferred named fragment, say).
    const fragments = definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => print(d));
    return definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION).map((operation, n) => ({
      name: `block ${index + 1}, ${operation.name?.value ?? `operation ${n + 1}`} (${operation.operation})`,
      operation,
      fragments,
    }));
  });
}

describe('README examples', () => {
  let running: RunningServer;
  const operations = readmeOperations();

  beforeAll(async () => {
    running = await startServer({ ...configFromEnv({ ADMIN_TOKEN }), port: 0 }, pino({ level: 'silent' }));
  }, 60_000);
  afterAll(() => running?.close());

  it('has examples, and none uses a placeholder id', () => {
    expect(operations.length).toBeGreaterThanOrEqual(5);
    expect(README).not.toMatch(/"(0x|NodeID-)…"/);
  });

  it.each(operations.map((o) => [o.name, o.operation, o.fragments] as const))('%s runs as written', async (_name, operation, fragments) => {
    const query = [print(operation), ...fragments].join('\n');
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` };
    const incremental = /@(defer|stream)\b/.test(query);
    if (operation.operation === 'subscription') headers['accept'] = 'text/event-stream';
    if (incremental) headers['accept'] = 'multipart/mixed';
    const response = await fetch(running.url, { method: 'POST', headers, body: JSON.stringify({ query }) });
    expect(response.status).toBe(200);
    if (incremental) {
      // Every part, to the closing boundary: the first with data, none with errors.
      const text = await response.text();
      expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
      expect(text).toContain('"hasNext":false');
      expect(text).not.toContain('"errors"');
      return;
    }
    if (operation.operation === 'subscription') {
      // The first event, then the stream is dropped.
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      while (!text.includes('\n\n') || !text.includes('data:')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      const data = /data: (.*)/.exec(text)?.[1] ?? '{}';
      expect(JSON.parse(data)).not.toHaveProperty('errors');
      return;
    }
    const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    // Every root field found something: the ids are the devnet's.
    for (const [field, value] of Object.entries(body.data ?? {})) expect(value, field).not.toBeNull();
  }, 30_000);

  it('uses the devnet sample ids that npm start prints', () => {
    const fixtures = running.devnet?.dataset.fixtures().mainnet ?? {};
    const known = new Set(Object.values(fixtures));
    const ids = [...README.matchAll(/"((?:NodeID-|0x)[0-9A-Za-z]{30,})"/g)].map((m) => m[1] as string);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(known, id).toContain(id);
  });
});
