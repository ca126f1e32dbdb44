/**
 * A health probe that costs the upstream at most one call per interval, whatever the traffic: callers
 * within `intervalMs` of the last answer get that answer (success or failure), and callers that arrive
 * while a probe is in flight share it. `/ready` is polled by load balancers, orchestrators and anyone
 * else who finds it; none of them should be able to spend the server's upstream key.
 */
export function createSharedProbe(probe: () => Promise<unknown>, intervalMs: number, now: () => number = () => performance.now()): () => Promise<boolean> {
  let last: { ok: boolean; at: number } | undefined;
  let inFlight: Promise<boolean> | undefined;
  return () => {
    if (last && now() - last.at < intervalMs) return Promise.resolve(last.ok);
    inFlight ??= probe().then(
      () => true,
      () => false,
    ).then((ok) => {
      last = { ok, at: now() };
      inFlight = undefined;
      return ok;
    });
    return inFlight;
  };
}
