/**
 * Abort listeners without a listener per waiter: one request's signal is waited on by
 * dozens of upstream calls at once (cached reads, HTTP attempts), and Node warns past
 * 10 listeners on one target. One listener per signal calls every waiter.
 */
const abortWaiters = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` when `signal` aborts; returns the way to stop waiting. */
export function whenAborted(signal: AbortSignal, callback: () => void): () => void {
  let waiters = abortWaiters.get(signal);
  if (!waiters) {
    const set = new Set<() => void>();
    abortWaiters.set(signal, set);
    signal.addEventListener('abort', () => {
      abortWaiters.delete(signal);
      for (const waiter of set) waiter();
    }, { once: true });
    waiters = set;
  }
  waiters.add(callback);
  const registered = waiters;
  return () => void registered.delete(callback);
}
