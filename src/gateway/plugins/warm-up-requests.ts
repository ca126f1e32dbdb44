/**
 * How the warm-up's requests are told apart (src/server/warm-up.ts): their server context holds the
 * upstream they run over under this symbol, set by the gateway's warm-up listener only. No HTTP request
 * can carry a symbol, so no client can pass for one.
 */
export const WARM_UP_UPSTREAM = Symbol('chaingraph.warmUpUpstream');

/** Whether a request's server context is the warm-up's. */
export function isWarmUpRequest(serverContext: object | undefined): boolean {
  return serverContext !== undefined && WARM_UP_UPSTREAM in serverContext;
}
