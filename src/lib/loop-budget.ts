/**
 * Cooperative time slicing of the event loop. Work that resolves through promises alone (an operation
 * whose upstream answers come from the cache, a large result being serialized) never gives node a turn:
 * the microtask queue is drained before the loop polls for I/O, so 32 operations building 3 MB answers
 * held the loop for seconds and `GET /health` waited behind them. Such work asks {@link LoopBudget.pause}
 * at points where it can stop; past the slice, it parks, and parked work resumes a slice at a time, one
 * slice per turn of the loop, with the I/O that arrived meanwhile served in between (a probe, a request
 * body, a socket's drain).
 *
 * A slice starts with the first `pause()` of a turn and ends at the loop's next check phase (where
 * `setImmediate` callbacks run), so every callback of one poll phase shares it: a burst of requests
 * whose bodies arrived together takes one slice, not one each. Parked work resumes in the order it
 * parked, so operations share the CPU round robin and a new one waits its turn behind those before it.
 */

/** Options of {@link createLoopBudget}. */
export interface LoopBudgetOptions {
  /**
   * Longest stretch of work before `pause()` parks what asks, ms. Below it nothing ever waits (an
   * ordinary query is a fraction of a millisecond); above it a probe waits about this long behind work
   * that pauses. A turn of the loop holds at most two slices (the callbacks of its poll phase, then the
   * parked work resumed), and node accepts one connection per turn, so the slice also bounds how long a
   * new connection waits to be accepted under load. Default 5.
   */
  sliceMs?: number;
}

export const LOOP_BUDGET_DEFAULTS = { sliceMs: 5 } as const;

export interface LoopBudget {
  /**
   * Undefined while the current slice has time left: go on at once. Past it, a promise that settles on a
   * later turn of the loop, when this caller's slice comes (`shouldPause()`, then `park()`).
   */
  pause(): Promise<void> | undefined;
  /** Whether the current slice is spent (and starts one when none is running). */
  shouldPause(): boolean;
  /** A promise that settles when this caller's turn comes, in the order callers parked. */
  park(): Promise<void>;
  /** Callers parked now. */
  parked(): number;
}

/** The clock is read every this many `pause()` calls within a slice: a call costs a counter, not a clock read. */
const CHECK_EVERY = 16;

export function createLoopBudget(options: LoopBudgetOptions = {}): LoopBudget {
  const sliceMs = options.sliceMs ?? LOOP_BUDGET_DEFAULTS.sliceMs;
  /** Resolvers of the parked callers, oldest first (from `head`). */
  let queue: (() => void)[] = [];
  let head = 0;
  let inSlice = false;
  let sliceStart = 0;
  /** The slice is spent: every `pause()` parks until the next one starts. */
  let spent = false;
  let countdown = CHECK_EVERY;
  let pumpScheduled = false;

  const endSlice = (): void => {
    inSlice = false;
    spent = false;
  };
  const startSlice = (): void => {
    inSlice = true;
    spent = false;
    countdown = CHECK_EVERY;
    sliceStart = performance.now();
    setImmediate(endSlice);
  };
  const overBudget = (): boolean => {
    if (spent) return true;
    if (performance.now() - sliceStart < sliceMs) return false;
    spent = true;
    return true;
  };

  /**
   * Resumes parked callers one after another while the slice lasts; the rest wait for the next turn of
   * the loop. The next one is resumed only once the work of the one before has run: resuming queues its
   * continuation, whose work goes on over several promise hops, so the clock is read after the microtask
   * queue has drained (a tick queued from a microtask runs after every microtask queued meanwhile).
   */
  const resumeNext = (first = false): void => {
    if (head === queue.length) {
      queue = [];
      head = 0;
      return;
    }
    // A turn's first resumption happens whatever the clock says, so the parked work always moves on.
    if (!first && overBudget()) {
      schedulePump();
      return;
    }
    const resume = queue[head] as () => void;
    head += 1;
    // Resumed callers are dropped from the front now and then, so a queue that never empties stays as long as what waits.
    if (head >= 1024 && head * 2 >= queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    resume();
    queueMicrotask(afterDrain);
  };
  const afterDrain = (): void => process.nextTick(resumeNext);
  const pump = (): void => {
    pumpScheduled = false;
    startSlice();
    resumeNext(true);
  };
  // setImmediate from a check-phase callback runs on the next turn, after that turn's poll for I/O.
  const schedulePump = (): void => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(pump);
  };

  const shouldPause = (): boolean => {
    if (!inSlice) {
      startSlice();
      return false;
    }
    if (!spent && --countdown > 0) return false;
    countdown = CHECK_EVERY;
    return overBudget();
  };
  const park = (): Promise<void> =>
    new Promise<void>((resolve) => {
      queue.push(resolve);
      schedulePump();
    });

  return {
    pause: () => (shouldPause() ? park() : undefined),
    shouldPause,
    park,
    parked: () => queue.length - head,
  };
}
