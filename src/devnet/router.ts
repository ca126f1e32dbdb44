import type { DevnetHandler, DevnetRequest, DevnetResponse } from './http-types.ts';
import { errorResponse } from './http-types.ts';

/** A handler's answer before the router stamps the stats key on it. */
export type RouteAnswer = Omit<DevnetResponse, 'route'>;

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path template with `{param}` segments, e.g. `/v1/networks/{network}/validators`. */
  pattern: string;
  handle(params: Record<string, string>, req: DevnetRequest): RouteAnswer | Promise<RouteAnswer>;
}

interface CompiledRoute extends Route {
  segments: string[];
  literalCount: number;
}

/** The route a request goes to: its stats key, and its answer (computed only when asked for). */
export interface RouteMatch {
  /** `"<METHOD> <pattern>"`, e.g. `GET /v1/networks/{network}/validators`. */
  key: string;
  answer(): Promise<DevnetResponse>;
}

export interface Router {
  /**
   * The route `req` goes to, or undefined when none does: what a caller must know before the
   * route runs (the Data API bills and limits each call by its operation, and refuses before any work).
   */
  find(req: DevnetRequest): RouteMatch | undefined;
  /** Answers `req` with its route, or the seed's 404 when none matches. */
  handle: DevnetHandler;
}

/**
 * Matches a request against route templates. Literal segments win over
 * parameters (so `/v1/operations/transactions:export` is not an operation id),
 * and the stats key is `"<METHOD> <pattern>"`.
 */
export function compileRouter(routes: readonly Route[]): Router {
  const compiled: CompiledRoute[] = routes
    .map((r) => {
      const segments = r.pattern.split('/').filter(Boolean);
      return { ...r, segments, literalCount: segments.filter((s) => !s.startsWith('{')).length };
    })
    .sort((a, b) => b.literalCount - a.literalCount);

  const find = (req: DevnetRequest): RouteMatch | undefined => {
    const parts = req.path.split('/').filter(Boolean).map(safeDecode);
    for (const route of compiled) {
      if (route.method !== req.method) continue;
      const params = match(route.segments, parts);
      if (!params) continue;
      const key = `${route.method} ${route.pattern}`;
      return { key, answer: async () => ({ ...(await route.handle(params, req)), route: key }) };
    }
    return undefined;
  };
  const notFound = (req: DevnetRequest): DevnetResponse => errorResponse(404, `Cannot ${req.method} ${req.path}`, `${req.method} (unmatched)`);
  return { find, handle: async (req) => (await find(req)?.answer()) ?? notFound(req) };
}

function match(segments: string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as string;
    const part = parts[i] as string;
    // `{name}` is the whole segment; `{name}:verb` (a custom method such as `{tokenId}:reindex`) a value then the verb.
    const param = /^\{(\w+)\}(.*)$/.exec(seg);
    if (param) {
      const [, name, verb] = param as unknown as [string, string, string];
      if (part.length <= verb.length || !part.endsWith(verb)) return undefined;
      params[name] = part.slice(0, part.length - verb.length);
    } else if (seg !== part) return undefined;
  }
  return params;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
