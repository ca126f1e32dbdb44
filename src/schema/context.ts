import type { Logger } from 'pino';
import type { UpstreamBudget } from '../loaders/budget.ts';
import type { LoaderContext } from '../loaders/registry.ts';
import type { CursorCodec } from './pagination.ts';
import type { Redactor } from '../lib/redact.ts';

/** Per-request context: loaders, the request's signal, the caller's key and admin rights. */
export interface Context extends LoaderContext {
  /** True when ADMIN_TOKEN is configured: admin mutations exist for this deployment. */
  readonly adminConfigured: boolean;
  /** True when the caller presented `authorization: Bearer <ADMIN_TOKEN>`. */
  readonly isAdmin: boolean;
  /** Upstream calls this request made, and how many it may make (see {@link UpstreamBudget}). */
  readonly upstreamCalls: UpstreamBudget;
  /** The gateway's cursor codec (one per gateway: its secret signs every cursor). */
  readonly cursors: CursorCodec;
  /**
   * Who the caller is for every per-client rule (rate, operation and subscription shares, topic and
   * watched-address shares, compute-unit budgets): `key:<digest>` for an API key the Data API accepted,
   * else `addr:<address or /64>`. Never a key itself.
   */
  readonly client: string;
  /** This request's id (`x-request-id`: the caller's when well-formed, else generated); sent upstream on every call. */
  readonly requestId: string;
  /** The gateway's logger bound to `{ requestId }`: what logs anything about this request logs through it. */
  readonly log: Logger;
  /**
   * Until when everything this request read from the upstreams may be reused (ms since the epoch):
   * the earliest expiry of its answers, 0 once it read anything uncached, Infinity while it read
   * nothing. The whole-response cache keeps the response no longer (`useResponseCache`).
   */
  readonly freshUntil: { at: number };
  /** Hides the gateway's secrets and this request's own API key from any text about this request (upstream errors). */
  readonly redactor: Redactor;
}
