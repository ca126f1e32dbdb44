import { setMaxListeners } from 'node:events';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** Options of {@link useGracefulShutdown}. */
export interface GracefulShutdownOptions {
  /** Aborted when shutdown begins (the process's first SIGTERM or SIGINT; `RunningServer.close()`). */
  signal: AbortSignal;
  /** The readiness endpoint that answers 503 from then on. Default `/ready`. */
  readinessEndpoint?: string;
}

/**
 * The gateway's side of a graceful shutdown (the socket side is `src/server/drain.ts`). Once `signal` is
 * aborted, `/ready` answers 503 at once, without asking the upstream, so load balancers stop sending
 * while the requests in flight finish; and every live subscription ends (its SSE stream gets yoga's
 * `complete` event) instead of holding its connection until the grace period runs out. A subscription
 * that starts during the drain ends at once. GraphQL queries are still served: they finish within the
 * grace period and their connection closes after the response (see `src/server/drain.ts`).
 */
export function useGracefulShutdown({ signal, readinessEndpoint = '/ready' }: GracefulShutdownOptions): Plugin {
  const body = JSON.stringify({ ready: false, reason: 'shutting down' });
  // One listener per live subscription (`untilAborted`), as many as the admission gate lets live
  // (`MAX_SUBSCRIPTIONS`): Node's leak warning at the 11th would be a stray line on stderr.
  setMaxListeners(0, signal);
  return {
    onRequest({ url, fetchAPI, endResponse }) {
      if (signal.aborted && url.pathname === readinessEndpoint) {
        endResponse(new fetchAPI.Response(body, { status: 503, headers: { 'content-type': 'application/json' } }));
      }
    },
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(untilAborted(result, signal));
        },
      };
    },
  };
}

/**
 * The same stream, ending (done) as soon as `signal` aborts. The source is told to stop with
 * `return()`, which is not awaited: a source waiting on its next poll finishes that step first,
 * and the consumer should not wait for it.
 */
export function untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  let end: (step: IteratorResult<T>) => void = () => undefined;
  const ended = new Promise<IteratorResult<T>>((resolve) => {
    end = resolve;
  });
  const onAbort = (): void => end({ done: true, value: undefined });
  // Removed when the stream ends, so a process-wide signal does not collect one listener per subscription.
  signal.addEventListener('abort', onAbort, { once: true });
  const stopSource = (): void => {
    if (finished) return;
    finished = true;
    signal.removeEventListener('abort', onAbort);
    void iterator.return?.().catch(() => undefined);
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished || signal.aborted) {
        stopSource();
        return { done: true, value: undefined };
      }
      let step: IteratorResult<T>;
      try {
        step = await Promise.race([iterator.next(), ended]);
      } catch (error) {
        finished = true;
        signal.removeEventListener('abort', onAbort);
        throw error;
      }
      if (step.done) stopSource();
      return step;
    },
    async return(value?: unknown) {
      stopSource();
      return { done: true, value: value as T };
    },
    async throw(error?: unknown) {
      finished = true;
      signal.removeEventListener('abort', onAbort);
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
  };
}
