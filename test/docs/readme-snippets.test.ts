import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadmeProject, frontendSection, frontendSnippets, missingInstalls, type ReadmeProject } from '../../scripts/readme-project.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

/**
 * The README's frontend section as a developer copies it: every `ts` block is a file of examples/
 * (which `npm run examples:check` compiles), and here each runs as written against a gateway on the
 * devnet, in the project a team makes to follow the README (scripts/readme-project.ts): the codegen
 * config against the live endpoint's introspection (strictScalars fails on any unmapped scalar), then
 * the generated types checked by tsc as `tsc --init` sets it up (nodenext) and as a bundler does, then
 * each client program executed both ways.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const snippets = frontendSnippets(root);

/** How each kind of project runs a program: node on what tsc emitted (nodenext), tsx on the sources (a bundler's resolution). */
const runners = [
  { how: 'on node, compiled by tsc --init\'s nodenext', command: (file: string) => [process.execPath, [file.replace(/\.ts$/, '.js')]] as const },
  { how: 'with tsx, resolved as a bundler does', command: (file: string) => [bin('tsx'), [file]] as const },
];

describe('the README frontend section', () => {
  let running: RunningServer;
  let env: NodeJS.ProcessEnv;
  let project: ReadmeProject;

  beforeAll(async () => {
    project = createReadmeProject(root, join(root, 'examples/.generated/readme-test/'));
    running = await startServer({ ...configFromEnv({}), port: 0 }, pino({ level: 'silent' }));
    env = { ...process.env, CHAINGRAPH_URL: running.url, CHAINGRAPH_WS_URL: running.url.replace(/^http/, 'ws'), CHAINGRAPH_SCHEMA: running.url };
  }, 60_000);
  afterAll(() => running?.close());

  it('shows the codegen config and the Apollo Client, urql and graphql-ws clients, each a file of examples/', () => {
    expect(snippets.map((s) => s.file)).toEqual(['examples/codegen.ts', 'examples/client/apollo-defer.ts', 'examples/client/urql.ts', 'examples/client/subscribe-ws.ts']);
  });

  it('names every package the snippets import, their types, and the tsconfig line tsc --init needs', () => {
    expect(missingInstalls(root, project)).toEqual([]);
    expect(frontendSection(root)).toContain('"types": ["node"]');
    expect(frontendSection(root)).toContain('"type": "module"');
  });

  it('generates typed documents from the live endpoint with strict scalars, and the clients compile as nodenext and bundler projects', async () => {
    await run(bin('graphql-codegen'), ['--config', 'examples/codegen.ts', '--silent'], { cwd: project.dir, env });
    await run(bin('tsc'), project.nodenext, { cwd: project.dir, env });
    await run(bin('tsc'), project.bundler, { cwd: project.dir, env });
  }, 180_000);

  it('describes what federation adds, which the docs explorer shows first: for routers, not apps', async () => {
    const query = '{ __schema { queryType { fields { name description } } } any: __type(name: "_Any") { description } }';
    const response = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const { data } = (await response.json()) as { data: { __schema: { queryType: { fields: { name: string; description: string | null }[] } }; any: { description: string | null } } };
    const described = Object.fromEntries(data.__schema.queryType.fields.map((f) => [f.name, f.description]));
    expect(described['_entities']).toMatch(/router, not for apps/);
    expect(described['_service']).toMatch(/router, not for apps/);
    expect(data.any.description).toMatch(/federation router/);
  });

  describe.each(runners)('$how', ({ command }) => {
    it('runs the Apollo Client program: the deferred fragment arrives', async () => {
      const { stdout } = await run(...command('examples/client/apollo-defer.ts'), { cwd: project.dir, env, timeout: 60_000 });
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(5);
      // nodeId, amountStaked, and the count of the deferred pendingRewards (a number, not undefined).
      for (const line of lines) expect(line).toMatch(/^NodeID-\w+ \d+ \d+$/);
    }, 90_000);

    it('runs the urql program: a page and its next cursor', async () => {
      const { stdout } = await run(...command('examples/client/urql.ts'), { cwd: project.dir, env, timeout: 60_000 });
      const lines = stdout.trim().split('\n');
      // console.log shows a bigint with its `n`.
      expect(lines.filter((line) => /^NodeID-\w+ \d+n$/.test(line))).toHaveLength(10);
      expect(lines.at(-1)).toMatch(/^next page: \S+/);
    }, 90_000);

    it('runs the graphql-ws program on Node with `ws`: the first event', async () => {
      const { stdout } = await run(...command('examples/client/subscribe-ws.ts'), { cwd: project.dir, env, timeout: 60_000 });
      // The devnet's node is healthy or not as its simulated checks go: either is an event.
      expect(JSON.parse(stdout.trim())).toEqual({ nodeHealth: { healthy: expect.any(Boolean) } });
    }, 90_000);
  });
});
