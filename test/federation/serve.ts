import { parse, print } from 'graphql';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** chaingraph's `extensions.cost` on an answer. */
export interface UpstreamCost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
}

/** A GraphQL service on a real port that remembers the documents it was sent. */
export interface CountingServer {
  url: string;
  /** Requests answered since the last reset, the GraphQL documents they carried and their answers' `extensions.cost`. */
  requests(): { count: number; queries: string[]; costs: (UpstreamCost | undefined)[] };
  resetRequests(): void;
  close(): Promise<void>;
}

/**
 * Serves a fetch handler (a yoga instance's `fetch`) on an ephemeral port at
 * `/graphql`, reading each body once to record its `query` before handing it on.
 */
export async function serveCounting(handle: (request: Request) => Response | Promise<Response>): Promise<CountingServer> {
  let queries: string[] = [];
  let costs: (UpstreamCost | undefined)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        // Printed again, so assertions read one layout whatever the gateway sent (its transport minifies).
        queries.push(print(parse(String((JSON.parse(body.toString('utf8')) as { query?: unknown }).query ?? ''))));
      } catch {
        queries.push('');
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      });
      void Promise.resolve(handle(request)).then(async (response) => {
        const answer = Buffer.from(await response.arrayBuffer());
        try {
          costs.push((JSON.parse(answer.toString('utf8')) as { extensions?: { cost?: UpstreamCost } }).extensions?.cost);
        } catch {
          costs.push(undefined);
        }
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(answer);
      }, (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests: () => ({ count: queries.length, queries: [...queries], costs: [...costs] }),
    resetRequests: () => {
      queries = [];
      costs = [];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
