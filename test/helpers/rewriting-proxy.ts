import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of the devnet that may rewrite its answers on the wire, so the gateway's real clients
 * read values the devnet never serves (spec-valid oddities, unusual ids, unknown enum values).
 */

/** One answer as it passed through the proxy. */
export interface ProxiedAnswer {
  /** The request's path, without its query. */
  path: string;
  method: string;
  /** The request's body as text (a JSON-RPC call names its method there). */
  requestBody: string;
  status: number;
  contentType: string;
  text: string;
}

/** The text to answer instead, or undefined to pass the answer through unchanged. */
export type Rewrite = (answer: ProxiedAnswer) => string | undefined;

export interface RewritingProxy {
  url: string;
  close(): Promise<void>;
}

const FORWARDED = ['accept', 'content-type', 'x-service-api-key'] as const;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** Starts a proxy to `target` on a free loopback port; `rewrite` sees every answer. */
export async function startRewritingProxy(target: string, rewrite: Rewrite): Promise<RewritingProxy> {
  const server = createServer((req, res) => {
    void (async () => {
      const requestBody = await bodyOf(req);
      const headers: Record<string, string> = {};
      for (const name of FORWARDED) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const method = req.method ?? 'GET';
      const upstream = await fetch(`${target}${req.url ?? '/'}`, { method, headers, ...(requestBody !== '' ? { body: requestBody } : {}) });
      const contentType = upstream.headers.get('content-type') ?? 'application/json';
      const text = await upstream.text();
      const path = new URL(req.url ?? '/', target).pathname;
      const out = rewrite({ path, method, requestBody, status: upstream.status, contentType, text }) ?? text;
      res.writeHead(upstream.status, { 'content-type': contentType }).end(out);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A rewrite that hands JSON answers, parsed, to `edit(path, body)` while one is set. */
export function editingJson<T>(edit: () => ((path: string, body: T) => void) | undefined): Rewrite {
  return ({ path, contentType, text }) => {
    const current = edit();
    if (!current || !contentType.includes('json')) return undefined;
    const json = JSON.parse(text) as T;
    current(path, json);
    return JSON.stringify(json);
  };
}
