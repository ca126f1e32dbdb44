import type { IncomingHttpHeaders } from 'node:http';

/** A request as the devnet's API handlers see it (the body is already read). */
export interface DevnetRequest {
  method: string;
  /** Path below the handler's mount point, e.g. `/v1/chains` or `/ext/info`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What a handler answers. `body` is sent as JSON unless `contentType` says otherwise. */
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
}

export type DevnetHandler = (req: DevnetRequest) => DevnetResponse | Promise<DevnetResponse>;

/** The seed's error body, with the status text the seed pairs with each status. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function errorResponse(status: number, message: string, route: string): DevnetResponse {
  return { status, route, body: { message, statusCode: status, error: STATUS_TEXT[status] ?? 'Error' } };
}
