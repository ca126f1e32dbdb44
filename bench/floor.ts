/**
 * The CPU floors of a query. For each request it gets, a floor makes the upstream requests the
 * gateway made for that query (recorded from the devnet's log), with undici, all at once over a
 * keep-alive pool, parses every answer with `JSON.parse`, and answers with the gateway's response
 * (recorded). Two servers do it:
 *
 * - `plain` (FLOOR_SERVER unset): node's HTTP server, no GraphQL, no plugins, no loaders; it writes
 *   the recorded bytes. What any server in Node pays to fetch and parse the same data and answer the
 *   same bytes on this machine.
 * - `yoga`: a bare graphql-yoga (its defaults, no plugin of ours) with one field, `floor`, whose
 *   resolver does the same fetching and returns the recorded `data` as one scalar. What the server
 *   framework the gateway is built on pays for the same work with a one-field document: its HTTP
 *   adapter, its plugin pipeline, graphql-js and the serialization of the same data. It is sent
 *   `{ floor }` (`FLOOR_QUERY` of bench/gateway-process.ts), not the query itself.
 *
 * The bench measures both with the same method as the gateway (`cpuCurve`), under the same node
 * flags. Run by bench/gateway-process.ts (`startFloorProcess`), configured by FLOOR_PORT,
 * FLOOR_UPSTREAM (the devnet's origin), FLOOR_RECORDING (a JSON file: `{ requests, response }`) and
 * FLOOR_SERVER.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { GraphQLScalarType } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { Pool } from 'undici';

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
}

const port = Number(process.env['FLOOR_PORT']);
const upstream = process.env['FLOOR_UPSTREAM'] as string;
const recording = JSON.parse(readFileSync(process.env['FLOOR_RECORDING'] as string, 'utf8')) as FloorRecording;
const pool = new Pool(upstream, { connections: 16 });
const response = Buffer.from(recording.response);

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

/** The `yoga` floor: a bare graphql-yoga whose one field fetches as above and returns the recorded data. */
function bareYoga() {
  const data = (JSON.parse(recording.response) as { data?: unknown }).data ?? null;
  const Raw = new GraphQLScalarType({ name: 'Raw', serialize: (value) => value });
  return createYoga({
    graphiql: false,
    landingPage: false,
    logging: false,
    schema: createSchema({
      typeDefs: 'scalar Raw\ntype Query { floor: Raw }',
      resolvers: { Raw, Query: { floor: async () => (await fetchAll(), data) } },
    }),
  });
}

const plain = (req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.once('end', () => {
    fetchAll().then(
      () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': response.length });
        res.end(response);
      },
      (error: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(error));
      },
    );
  });
};

createServer(process.env['FLOOR_SERVER'] === 'yoga' ? bareYoga() : plain).listen(port, '127.0.0.1');

// Ends normally on SIGTERM (the bench's stop), so node's exit hooks run (a --cpu-prof profile is written).
process.once('SIGTERM', () => process.exit(0));
