import type { IncomingHttpHeaders } from 'node:http';
import { computeUnitsOf, isWeightTier, UNWEIGHTED_OPERATIONS } from '../lib/compute-units.ts';
import { shortDigest } from '../lib/text.ts';
import facts from './spec-facts.json' with { type: 'json' };

/**
 * The devnet's bill, as the real Data API keeps it: every call weighs its operation's compute units
 * (the spec's `x-execution-weight` tier, `src/lib/compute-units.ts`), counted per caller in fixed
 * windows of a minute aligned to the clock's minute, and every answer says where the caller stands
 * (`ratelimit-policy`, `ratelimit-limit`, `ratelimit-remaining`, `ratelimit-reset`). With a limit, a call
 * that would take its caller past it is answered 429 with `retry-after` (both that and `ratelimit-reset`
 * are the seconds until the window ends) and costs nothing: the real API refuses once the limit is
 * reached, and a refused call did no work, so a caller that waits out `retry-after` is not charged for
 * having asked. A cheaper call that still fits passes in the same window (`ratelimit-remaining` says
 * how much is left).
 *
 * A caller is its API key (`x-service-api-key`, the seed's header, or `x-glacier-api-key`, the public
 * spec's), named by a digest so no key is ever echoed; calls without a key are counted together per
 * client address, as the real API counts unauthenticated callers.
 */

/** The window of the limit, ms: the real API's limits are per minute. */
const WINDOW_MS = 60_000;
/**
 * The limit the headers announce when none is enforced: one no test, benchmark or soak run reaches
 * (a billion a minute). The headers are the real API's, and a client acts on them: one told
 * `ratelimit-remaining: 0` holds its calls until `ratelimit-reset`, as chaingraph does, so an unenforced
 * devnet must never announce a limit it would pass (a real plan's 20,000 ran out under load).
 */
export const NOMINAL_COMPUTE_UNITS_PER_MINUTE = 1_000_000_000;
/**
 * Callers tracked, in the window and in the totals: the keys are the callers' own, so the ledger is
 * bounded by construction. Past it, new callers share {@link OTHER_CALLERS} (limited together: stricter, never unbounded).
 */
const MAX_CALLERS = 10_000;
export const OTHER_CALLERS = '(others)';
/** Characters of a key's digest (72 bits): enough to tell a test's keys apart, never the key itself. */
const KEY_DIGEST_CHARS = 12;

/** The headers the caller's key may come in, the seed's first. */
export const API_KEY_HEADERS = ['x-service-api-key', 'x-glacier-api-key'] as const;

interface WeightFact {
  operationId: string;
  tier: string | null;
}

/**
 * Compute units of each operation of the spec, by `"<METHOD> <path template>"` (the devnet's route
 * keys): its tier, or for the operations the spec leaves unweighted the tier chaingraph chose.
 */
export const OPERATION_COMPUTE_UNITS: ReadonlyMap<string, number> = new Map(
  Object.entries((facts as unknown as { weights: Record<string, WeightFact> }).weights).flatMap(([route, fact]) => {
    const tier = fact.tier ?? UNWEIGHTED_OPERATIONS[fact.operationId];
    return isWeightTier(tier) ? [[route, computeUnitsOf(tier)] as const] : [];
  }),
);

/** How the ledger names a caller with this key: `key:` and a digest of it. */
export const keyCaller = (key: string): string => `key:${shortDigest(key, KEY_DIGEST_CHARS)}`;

/** The caller a request is billed to: its key (by digest), else `addr:` and its client address. */
export function callerOf(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string {
  for (const name of API_KEY_HEADERS) {
    const key = headers[name];
    if (typeof key === 'string' && key !== '') return keyCaller(key);
  }
  // An IPv4 peer of a dual-stack socket is `::ffff:a.b.c.d`: the same client either way.
  return `addr:${(remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.)/, '')}`;
}

/** The outcome of one call: whether it runs, and the headers its answer carries either way. */
export interface Charge {
  admitted: boolean;
  headers: Record<string, string>;
  /** When refused: why, for the 429's message. */
  reason?: string;
}

/** What the ledger holds: compute units billed per caller. */
export interface ComputeUnitsView {
  /** Since the devnet started or its stats were last reset. */
  total: Record<string, number>;
  /** In the current minute window (what the limit is checked against). */
  window: Record<string, number>;
  /** The limit in force, per caller per minute; undefined when none is enforced. */
  limit: number | undefined;
}

export interface ComputeUnitMeter {
  /** Bills `units` to `caller` in the current window, unless that would take it past the limit. */
  charge(caller: string, units: number): Charge;
  view(): ComputeUnitsView;
  /** Gives back what a call was billed (a fault injected after it): from the window and the totals. */
  refund(caller: string, units: number): void;
  /** Forgets every count, the current window's included (each caller starts the window afresh). */
  reset(): void;
}

export interface ComputeUnitMeterOptions {
  /** Clock, ms since epoch. */
  now: () => number;
  /** The limit in force at each call (read per call: a test may change it at run time); undefined: none. */
  limit: () => number | undefined;
}

export function createComputeUnitMeter(options: ComputeUnitMeterOptions): ComputeUnitMeter {
  let windowIndex = Number.NaN;
  let window = new Map<string, number>();
  let total = new Map<string, number>();

  const slotOf = (counts: Map<string, number>, caller: string): string => (counts.has(caller) || counts.size < MAX_CALLERS ? caller : OTHER_CALLERS);
  const enforced = (): number | undefined => {
    const limit = options.limit();
    return typeof limit === 'number' && Number.isFinite(limit) && limit >= 0 ? limit : undefined;
  };

  return {
    charge(caller, units) {
      const now = options.now();
      const index = Math.floor(now / WINDOW_MS);
      if (index !== windowIndex) {
        windowIndex = index;
        window = new Map();
      }
      const resetSeconds = Math.max(1, Math.ceil(((index + 1) * WINDOW_MS - now) / 1000));
      const limit = enforced();
      const announced = limit ?? NOMINAL_COMPUTE_UNITS_PER_MINUTE;
      const slot = slotOf(window, caller);
      const spent = window.get(slot) ?? 0;
      const headers = (remaining: number): Record<string, string> => ({
        'ratelimit-policy': `${announced};w=${WINDOW_MS / 1000}`,
        'ratelimit-limit': String(announced),
        'ratelimit-remaining': String(Math.max(0, remaining)),
        'ratelimit-reset': String(resetSeconds),
      });
      if (limit !== undefined && spent + units > limit) {
        return {
          admitted: false,
          headers: { ...headers(limit - spent), 'retry-after': String(resetSeconds) },
          reason: `Rate limit reached: this call weighs ${units} compute units and ${Math.max(0, limit - spent)} of ${limit} remain in this minute; retry after ${resetSeconds} s`,
        };
      }
      if (units > 0) {
        window.set(slot, spent + units);
        const totalSlot = slotOf(total, caller);
        total.set(totalSlot, (total.get(totalSlot) ?? 0) + units);
      }
      return { admitted: true, headers: headers(announced - spent - units) };
    },
    view() {
      // The window as it stands now: one that has ended holds nothing.
      const current = Math.floor(options.now() / WINDOW_MS) === windowIndex ? window : new Map<string, number>();
      return { total: Object.fromEntries(total), window: Object.fromEntries(current), limit: enforced() };
    },
    refund(caller, units) {
      for (const counts of [window, total]) {
        const slot = counts.has(caller) ? caller : OTHER_CALLERS;
        const held = counts.get(slot);
        if (held === undefined) continue;
        // Back to nothing is as if never billed: no entry.
        if (held - units > 0) counts.set(slot, held - units);
        else counts.delete(slot);
      }
    },
    reset() {
      window = new Map();
      total = new Map();
    },
  };
}
