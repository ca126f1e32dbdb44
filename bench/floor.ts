/**
 * The CPU floor of a query: a plain Node HTTP server that, for each request it gets, makes the
 * upstream requests the gateway made for that query (recorded from the devnet's log), with undici,
 * all at once over a keep-alive pool, parses every answer with `JSON.parse`, and writes the
 * gateway's response (recorded) back. No GraphQL, no plugins, no loaders: what any server in Node
 * pays to fetch and parse the same data and answer the same bytes on this machine. The bench
 * measures it with the same method as the gateway (`cpuCurve`), under the same node flags.
 *
 * Run by bench/gateway-process.ts (`startFloorProcess`), configured by FLOOR_PORT, FLOOR_UPSTREAM
 * (the devnet's origin) and FLOOR_RECORDING (a JSON file: `{ requests, response }`).
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
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

createServer((req, res) => {
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
}).listen(port, '127.0.0.1');

// Ends normally on SIGTERM (the bench's stop), so node's exit hooks run (a --cpu-prof profile is written).
process.once('SIGTERM', () => process.exit(0));
