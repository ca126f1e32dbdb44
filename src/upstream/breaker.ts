/**
 * One circuit breaker per upstream (`data-api`, `node:<name>`), on cockatiel's
 * `circuitBreaker` with a `ConsecutiveBreaker`: after `failures` attempts in a row
 * that show the upstream is sick (timeouts, network errors, 5xx, garbled answers)
 * the circuit opens, and every attempt is refused at once, unsent, with an
 * `UpstreamError` of kind `circuit` (UPSTREAM_UNAVAILABLE, `extensions.circuit:
 * "open"`, `retryAfter`). After `halfOpenAfterMs` the next attempt is the probe:
 * it is sent, and its outcome closes the circuit or opens it for another period.
 *
 * Two things are layered over cockatiel on purpose:
 * - While the probe is in flight, cockatiel makes every other call wait for it,
 *   which against a stalled upstream is the whole deadline again. Here they are
 *   refused at once like in the open state: one probe, nobody waits on it.
 * - Only what proves something about the upstream moves the breaker. An answer
 *   (2xx, a 4xx caller mistake, a JSON-RPC error, a health report) counts as a
 *   success; a failure as a failure; and what proves nothing (the caller went
 *   away, a 429 quota answer, a response too large for us) counts as neither,
 *   so no caller can open the circuit for everyone by asking something wrong.
 *   A 429 does not open it either: the quota is handled by `UPSTREAM_MAX_RPS`,
 *   and opening on it would turn one caller's burst into an outage for all.
 */
import { circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { UpstreamError, type UpstreamName } from './errors.ts';

/** A breaker's state, as reported to metrics. An isolated breaker reads `open`. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** Options of {@link createBreakers}. */
export interface BreakerOptions {
  /** Consecutive failed attempts that open a circuit (`BREAKER_FAILURES`). Default 5. */
  failures?: number;
  /** How long a circuit stays open before one probe is let through (`BREAKER_HALF_OPEN_MS`). Default 10000. */
  halfOpenAfterMs?: number;
  /** Told about every state change (metrics, logs). A throwing listener is ignored. */
  onStateChange?: (change: BreakerStateChange) => void;
}

export interface BreakerStateChange {
  upstream: UpstreamName;
  state: BreakerState;
  previous: BreakerState;
}

export interface BreakerStatus {
  upstream: UpstreamName;
  state: BreakerState;
  /** Times this circuit has opened since start (probes that failed included). */
  openings: number;
}

export const BREAKER_DEFAULTS = { failures: 5, halfOpenAfterMs: 10_000 } as const;

/** What one attempt's outcome says about the upstream. */
export type BreakerVerdict = 'failure' | 'answer' | 'neutral';

/** The breakers of every upstream one HTTP policy talks to. */
export interface Breakers {
  /**
   * Throws the `circuit` error when `upstream`'s circuit refuses attempts now (open and
   * not yet due for a probe, or a probe in flight); returns otherwise. Never waits.
   */
  guard(upstream: UpstreamName, operation: string, attempts: number): void;
  /**
   * Runs one attempt, `attempt(...args)`, through `upstream`'s breaker (guarding first). `errorOf` reads the
   * `UpstreamError` out of whatever the attempt throws; the thrown value is rethrown as is. The arguments
   * are passed through rather than closed over, so the caller makes no closure per attempt.
   */
  run<A extends unknown[], T>(
    upstream: UpstreamName, operation: string, attempts: number, attempt: (...args: A) => Promise<T>, errorOf: (thrown: unknown) => UpstreamError | undefined, ...args: A
  ): Promise<T>;
  /** Every breaker made so far (one per upstream that was called) and its state now. */
  states(): BreakerStatus[];
}

/** The breaker's reading of an upstream error; see the module comment. */
export function breakerVerdict(error: UpstreamError): BreakerVerdict {
  switch (error.kind) {
    case 'timeout':
    case 'network':
      return 'failure';
    case 'protocol':
      // A response over our size cap is the caller's large page, not a sick upstream.
      return causeCode(error) === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' ? 'neutral' : 'failure';
    case 'http':
      if ((error.status ?? 0) >= 500) return 'failure';
      return error.status === 429 ? 'neutral' : 'answer';
    case 'rpc':
      return 'answer';
    default:
      // aborted, input, budget, circuit, throttled: the upstream said nothing.
      return 'neutral';
  }
}

/** Carries an attempt's thrown value through cockatiel with its verdict, so the filter can read it. */
class Judged extends Error {
  constructor(readonly thrown: unknown, readonly verdict: BreakerVerdict, readonly aborted: boolean) {
    super('upstream attempt failed');
  }
}

interface Entry {
  policy: CircuitBreakerPolicy;
  openedAt: number;
  openings: number;
}

export function createBreakers(options: BreakerOptions = {}): Breakers {
  const failures = options.failures ?? BREAKER_DEFAULTS.failures;
  const halfOpenAfterMs = options.halfOpenAfterMs ?? BREAKER_DEFAULTS.halfOpenAfterMs;
  if (!Number.isSafeInteger(failures) || failures < 1) throw new Error(`breaker failures must be a positive integer, got ${failures}`);
  if (!Number.isFinite(halfOpenAfterMs) || halfOpenAfterMs < 0) throw new Error(`breaker half-open delay must be at least 0 ms, got ${halfOpenAfterMs}`);
  // One entry per upstream name; names come from the configuration (the Data API and NODE_URLS), never from a caller.
  const entries = new Map<UpstreamName, Entry>();

  const entryFor = (upstream: UpstreamName): Entry => {
    const existing = entries.get(upstream);
    if (existing) return existing;
    // An attempt abandoned by its caller proves nothing; while it is the probe, the circuit stays open rather than
    // closing on no evidence (cockatiel closes on an unhandled error during the probe).
    const filter = handleWhen((error) => error instanceof Judged && (error.verdict === 'failure' || (error.aborted && policy.state === CircuitState.HalfOpen)));
    const policy = circuitBreaker(filter, { halfOpenAfter: halfOpenAfterMs, breaker: new ConsecutiveBreaker(failures) });
    const entry: Entry = { policy, openedAt: 0, openings: 0 };
    let previous: BreakerState = 'closed';
    policy.onBreak(() => {
      entry.openedAt = Date.now();
      entry.openings += 1;
    });
    policy.onStateChange((next) => {
      const state = stateName(next);
      if (state === previous) return;
      const change = { upstream, state, previous };
      previous = state;
      try {
        options.onStateChange?.(change);
      } catch {
        /* a failing listener must not change what the breaker does */
      }
    });
    entries.set(upstream, entry);
    return entry;
  };

  const guard = (upstream: UpstreamName, operation: string, attempts: number): void => {
    const entry = entries.get(upstream);
    if (!entry) return;
    const state = entry.policy.state;
    if (state === CircuitState.HalfOpen) throw circuitError(upstream, operation, attempts, 'half-open', 1_000);
    if (state === CircuitState.Open || state === CircuitState.Isolated) {
      const left = entry.openedAt + halfOpenAfterMs - Date.now();
      if (left > 0 || state === CircuitState.Isolated) throw circuitError(upstream, operation, attempts, 'open', Math.max(left, 1_000));
    }
  };

  return {
    guard,
    async run<A extends unknown[], T>(
      upstream: UpstreamName, operation: string, attempts: number, attempt: (...args: A) => Promise<T>, errorOf: (thrown: unknown) => UpstreamError | undefined, ...args: A
    ): Promise<T> {
      const entry = entryFor(upstream);
      // Checked in the same tick as `execute` below, so of two calls due for the probe only one sends it.
      guard(upstream, operation, attempts);
      let outcome: { value: T } | { answer: unknown };
      try {
        outcome = await entry.policy.execute(async () => {
          try {
            return { value: await attempt(...args) };
          } catch (thrown) {
            const error = errorOf(thrown);
            const verdict = error ? breakerVerdict(error) : 'neutral';
            // An answer (a 4xx, a JSON-RPC error) shows the upstream is up: returned, so cockatiel counts a success.
            if (verdict === 'answer') return { answer: thrown };
            throw new Judged(thrown, verdict, error?.kind === 'aborted');
          }
        });
      } catch (thrown) {
        if (thrown instanceof Judged) throw thrown.thrown;
        // cockatiel's own refusal (BrokenCircuitError, IsolatedCircuitError): the guard above normally answers first.
        throw circuitError(upstream, operation, attempts, 'open', halfOpenAfterMs);
      }
      if ('answer' in outcome) throw outcome.answer;
      return outcome.value;
    },
    states: () =>
      [...entries].map(([upstream, entry]) => ({ upstream, state: stateName(entry.policy.state), openings: entry.openings })),
  };
}

function stateName(state: CircuitState): BreakerState {
  if (state === CircuitState.Closed) return 'closed';
  if (state === CircuitState.HalfOpen) return 'half-open';
  return 'open';
}

function circuitError(upstream: UpstreamName, operation: string, attempts: number, state: 'open' | 'half-open', retryAfterMs: number): UpstreamError {
  const why = state === 'open' ? 'its circuit breaker is open after repeated failures' : 'its circuit breaker is testing it with one probe';
  return new UpstreamError(`${upstream} ${operation}: not sent, ${why}`, {
    upstream, kind: 'circuit', operation, attempts, retryAfter: Math.ceil(retryAfterMs / 1000),
  });
}

function causeCode(error: Error): string | undefined {
  const cause: unknown = error.cause;
  if (typeof cause !== 'object' || cause === null) return undefined;
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
