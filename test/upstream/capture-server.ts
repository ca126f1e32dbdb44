import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CannedAnswer {
  status?: number;
  body?: unknown;
  /** Sent as is instead of JSON. */
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * A tiny HTTP server that records every request and answers what the test
 * queued (or `{}`), to check what a client puts on the wire.
 */
export interface CaptureServer {
  readonly url: string;
  readonly requests: CapturedRequest[];
  /** Answer the next requests with these, in order; afterwards `fallback`. */
  answer(...answers: CannedAnswer[]): void;
  fallback: (req: CapturedRequest) => CannedAnswer;
  close(): Promise<void>;
}

export async function startCaptureServer(): Promise<CaptureServer> {
  const queue: CannedAnswer[] = [];
  const requests: CapturedRequest[] = [];
  const self: CaptureServer = {
    url: '',
    requests,
    answer: (...answers) => {
      queue.push(...answers);
    },
    fallback: () => ({ body: {} }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const captured: CapturedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(captured);
      const answer = queue.shift() ?? self.fallback(captured);
      res.statusCode = answer.status ?? 200;
      res.setHeader('content-type', 'application/json');
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      res.end(answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(self, { url: `http://127.0.0.1:${port}` });
  return self;
}
