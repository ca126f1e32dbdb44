import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** How a turn ended: taken (with what the window has left), or refused with the ms until the next window. */
export type Turn = { readonly taken: true; readonly remaining: number | undefined; readonly waited: boolean } | { readonly taken: false; readonly nextMs: number; readonly waited: boolean };

/**
 * Takes `points` for `key` from a rate-limiter-flexible limiter, waiting for a later window while the
 * turn would come within `maxWaitMs` (never past `giveUpAt`, ms since the epoch). A store failure the
 * limiter's insurance could not absorb counts as taken: a ceiling never fails requests by itself.
 * Rejects with the signal's reason when it aborts. Shared by the request-rate and compute-unit ceilings.
 */
export async function takeTurn(limiter: RateLimiterAbstract, key: string, points: number, signal: AbortSignal, giveUpAt: number): Promise<Turn> {
  let waited = false;
  for (;;) {
    if (signal.aborted) throw signal.reason;
    let next: number;
    try {
      const res = await limiter.consume(key, points);
      return { taken: true, remaining: res.remainingPoints, waited };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) return { taken: true, remaining: undefined, waited };
      next = rejection.msBeforeNext;
    }
    // A little jitter, so the callers woken by one window do not all race for its first turns at once.
    const wait = next + randomInt(0, 10);
    if (Date.now() + wait > giveUpAt) return { taken: false, nextMs: Math.max(1, next), waited };
    waited = true;
    await sleep(wait, undefined, { signal });
  }
}
