/**
 * The CPU floors of a query. For each request it gets, a floor reads and parses the request, makes the
 * upstream requests the gateway made for that query (recorded from the devnet's log), with undici, all at
 * once over a keep-alive pool, parses every answer with `JSON.parse`, and answers with the gateway's
 * response (recorded). Two servers do it:
 *
 * - `plain` (FLOOR_SERVER unset): node's HTTP server, no GraphQL, no plugins, no loaders. It reads the
 *   whole request body and `JSON.parse`s it, and serializes the response with `JSON.stringify` of the
 *   recorded response (parsed once at start) for each request. What any server in Node pays to read a
 *   request, fetch and parse the same data and write the same answer on this machine.
 * - `yoga`: graphql-yoga with the options of the gateway's own `createYoga` that bear on a request's cost
 *   (src/gateway/gateway.ts: no body-size stream, no landing page, no GraphiQL, masked errors, the same
 *   CORS option, a logger that writes nothing below warn), none of our plugins, yoga's own parse and
 *   validation cache, and the gateway's schema (schema.graphql) with every field typed. The query is
 *   executed by graphql-jit, compiled once per document as the gateway compiles it
 *   (src/gateway/plugins/use-compiled-execution.ts). The root fields do the fetching (once per request)
 *   and answer from the recorded data; every other field reads its value by response key from the
 *   recorded data, through a resolver as the gateway's compiled fields go through one; abstract types are
 *   resolved from the `__typename` of the recorded data (recorded with `__typename` in every selection
 *   set, `typed` of the recording). It is sent the same query as the gateway. What the server framework
 *   the gateway is built on pays, with the gateway's executor, for the same fields from the same data.
 *
 * The bench measures both with the same method as the gateway (`cpuCurve`), under the same node
 * flags. Run by bench/gateway-process.ts (`startFloorProcess`), configured by FLOOR_PORT,
 * FLOOR_UPSTREAM (the devnet's origin), FLOOR_RECORDING (a JSON file, {@link FloorRecording}) and
 * FLOOR_SERVER.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { buildSchema, isAbstractType, isObjectType, type DocumentNode, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { createYoga, type Plugin } from 'graphql-yoga';
import { Pool } from 'undici';
import { corsOptions } from '../src/gateway/plugins/use-cors-policy.ts';

/** One upstream request as the gateway sent it. */
export interface FloorRequest {
  method: string;
  target: string;
  body?: string;
}

export interface FloorRecording {
  requests: FloorRequest[];
  /** The gateway's response body to the query. */
  response: string;
  /** The gateway's response body to the query with `__typename` in every selection set: the yoga floor's data (its types). */
  typed: string;
}

type Json = Record<string, unknown>;

const port = Number(process.env['FLOOR_PORT']);
const upstream = process.env['FLOOR_UPSTREAM'] as string;
const recording = JSON.parse(readFileSync(process.env['FLOOR_RECORDING'] as string, 'utf8')) as FloorRecording;
const pool = new Pool(upstream, { connections: 16 });

async function fetchAll(): Promise<unknown[]> {
  return Promise.all(
    recording.requests.map(async (r) => {
      const res = await pool.request({
        path: r.target,
        method: r.method as 'GET' | 'POST',
        headers: r.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        body: r.body ?? null,
      });
      return JSON.parse(await res.body.text()) as unknown;
    }),
  );
}

/** The gateway's schema, every field typed: root fields fetch and answer from `data`, the others read it by response key. */
function floorSchema(data: Json): GraphQLSchema {
  // Federation's directives are not declared in the file: taken as valid, they are only annotations here.
  const schema = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'), { assumeValidSDL: true });
  const fetched = new WeakMap<object, Promise<Json>>();
  /** The upstream requests, once per request (its context), then the recorded data. */
  const fetchedFor = (context: object): Promise<Json> => {
    let done = fetched.get(context);
    if (!done) fetched.set(context, (done = fetchAll().then(() => data)));
    return done;
  };
  const rootField: GraphQLFieldResolver<unknown, object> = (_root, _args, context, info) => fetchedFor(context).then((d) => d[info.path.key]);
  const byKey: GraphQLFieldResolver<Json, unknown> = (source, _args, _context, info) => source[info.path.key];
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type)) {
      const resolve = roots.has(type) ? rootField : byKey;
      for (const field of Object.values(type.getFields())) field.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
    } else if (isAbstractType(type)) {
      type.resolveType = (value) => (value as { __typename?: string }).__typename;
    }
  }
  return schema;
}

/** graphql-jit in place of yoga's executor: each document (yoga's parse cache keeps one per text) compiled once per operation. */
function useJit(): Plugin {
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery['query']>>();
  return {
    onExecute({ args, setExecuteFn }) {
      let byName = compiled.get(args.document);
      if (!byName) compiled.set(args.document, (byName = new Map()));
      const name = args.operationName ?? '';
      let query = byName.get(name);
      if (!query) {
        const result = compileQuery(args.schema, args.document, args.operationName ?? undefined, { disablingCapturingStackErrors: true });
        if (!isCompiledQuery(result)) throw new Error(`the floor could not compile the query: ${JSON.stringify(result.errors)}`);
        byName.set(name, (query = result.query));
      }
      const run = query;
      setExecuteFn((a) => run(a.rootValue, a.contextValue, a.variableValues));
    },
  };
}

/** Lines below warn are dropped, as the bench's gateway (LOG_LEVEL=warn) drops them. */
const quiet = () => undefined;
const logging = { debug: quiet, info: quiet, warn: (...args: unknown[]) => console.warn(...args), error: (...args: unknown[]) => console.error(...args) };

/** The `yoga` floor (see the header). */
function typedYoga() {
  const data = (JSON.parse(recording.typed) as { data?: Json }).data ?? {};
  // The gateway's options that bear on a request's cost (src/gateway/gateway.ts), none of its plugins; yoga's parse and validation cache kept.
  return createYoga({
    schema: floorSchema(data),
    extraParamNames: ['documentId'],
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    maskedErrors: true,
    maxRequestBodySize: false,
    cors: corsOptions(),
    logging,
    plugins: [useJit()],
  });
}

/** The `plain` floor (see the header). */
function plainServer() {
  const answer = JSON.parse(recording.response) as unknown;
  const fail = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(message);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      // GET /ready and the like: up.
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      let params: unknown;
      try {
        params = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        fail(res, 400, 'the body is not JSON');
        return;
      }
      if (typeof (params as { query?: unknown } | null)?.query !== 'string') {
        fail(res, 400, 'no query');
        return;
      }
      fetchAll().then(
        () => {
          const body = JSON.stringify(answer);
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        },
        (error: unknown) => fail(res, 502, String(error)),
      );
    });
  };
}

createServer(process.env['FLOOR_SERVER'] === 'yoga' ? typedYoga() : plainServer()).listen(port, '127.0.0.1');

// Ends normally on SIGTERM (the bench's stop), so node's exit hooks run (a --cpu-prof profile is written).
process.once('SIGTERM', () => process.exit(0));
