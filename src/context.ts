import { createHash, timingSafeEqual } from 'node:crypto';
import type { YogaInitialContext } from 'graphql-yoga';
import { codedError, ErrorCode } from './errors.ts';
import type { LoaderContext, NodeDirectory } from './loaders/registry.ts';
import type { CursorCodec } from './schema/pagination.ts';
import { isApiKey, MAX_API_KEY_LENGTH } from './upstream/data-api.ts';
import type { CallOptions, DataApi } from './upstream/client-types.ts';

/** Per-request context: loaders, the request's signal, the caller's key and admin rights. */
export interface Context extends LoaderContext {
  /** True when ADMIN_TOKEN is configured: admin mutations exist for this deployment. */
  readonly adminConfigured: boolean;
  /** True when the caller presented `authorization: Bearer <ADMIN_TOKEN>`. */
  readonly isAdmin: boolean;
  /** Upstream HTTP attempts this request made (cache hits and shared calls it joined count 0). */
  readonly upstreamCalls: { count: number };
  /** The gateway's cursor codec (one per gateway: its secret signs every cursor). */
  readonly cursors: CursorCodec;
}

export interface ContextDeps {
  dataApi: DataApi;
  nodes: NodeDirectory;
  adminToken?: string;
  /** Header a caller may use to send their own Data API key (default `x-service-api-key`). */
  apiKeyHeader: string;
  cursors: CursorCodec;
}

export function createContext(deps: ContextDeps, initial: YogaInitialContext): Context {
  const request = initial.request;
  const callerKey = request.headers.get(deps.apiKeyHeader) ?? undefined;
  // Parsed before it becomes an upstream header or part of a cache key; never echoed or logged.
  if (callerKey && !isApiKey(callerKey)) {
    throw codedError(
      ErrorCode.UNAUTHENTICATED,
      `The ${deps.apiKeyHeader} header is not a well-formed API key (1-${MAX_API_KEY_LENGTH} characters among letters, digits and - _ . ~ + / =)`,
      { header: deps.apiKeyHeader, http: { status: 401 } },
    );
  }
  const upstreamCalls = { count: 0 };
  const call: CallOptions = {
    signal: request.signal,
    ...(callerKey ? { apiKey: callerKey } : {}),
    // Every attempt that reaches the HTTP layer, retries included: what the upstream saw.
    observer: { onAttempt: () => void (upstreamCalls.count += 1) },
  };
  return {
    dataApi: deps.dataApi,
    nodes: deps.nodes,
    call,
    loaders: new Map(),
    adminConfigured: Boolean(deps.adminToken),
    isAdmin: sameSecret(bearer(request.headers.get('authorization')), deps.adminToken),
    upstreamCalls,
    cursors: deps.cursors,
  };
}

function bearer(header: string | null): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

/** Constant-time comparison of the presented token with the configured one. */
function sameSecret(presented: string | undefined, expected: string | undefined): boolean {
  if (!presented || !expected) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
