import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';

/** A request as the devnet's API handlers see it (the body is already read). */
export interface DevnetRequest {
  method: string;
  /** Path below the handler's mount point, e.g. `/v1/chains` or `/ext/info`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The client's address (the socket's peer): the Data API bills calls without a key to it. */
  remoteAddress?: string;
}

/** The content type of JSON answers. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * What a handler answers. `body` is sent as JSON unless `contentType` says otherwise
 * (then it is sent as text, or as is when it is a Buffer: JSON already serialised comes
 * with {@link JSON_CONTENT_TYPE}).
 */
export interface DevnetResponse {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /**
   * The counter key for `/__devnet/stats`: `"<METHOD> <route>"` with the route's
   * template (`GET /v1/networks/{network}/validators`) or, for JSON-RPC, the
   * method (`POST info.peers`).
   */
  route: string;
  /** What the Data API handler billed for it (the ledger's caller and units), so a fault injected after can take it back. */
  billed?: { readonly caller: string; readonly units: number };
}

export type DevnetHandler = (req: DevnetRequest) => DevnetResponse | Promise<DevnetResponse>;


/** The seed's error body; `error` is the status text (`Bad Request`, ...), as Node names it. */
export function errorResponse(status: number, message: string, route: string): DevnetResponse {
  return { status, route, body: { message, statusCode: status, error: STATUS_CODES[status] ?? 'Error' } };
}
