import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { isRequestId, REQUEST_ID_HEADER } from '../../lib/request-id.ts';

export { isRequestId, MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER } from '../../lib/request-id.ts';

/** Options of {@link createRequestIds}. */
export interface RequestIdOptions {
  /** Makes an id when the caller sent none or a malformed one. Default `crypto.randomUUID`. */
  generate?: () => string;
}

/** The ids of one gateway's requests: one per request, fixed for its lifetime. */
export interface RequestIds {
  /**
   * The request's id: the caller's `x-request-id` when it is well-formed ({@link isRequestId}),
   * else a generated one. Asked twice about one request, it answers the same id.
   */
  of(request: Request): string;
}

/**
 * Request ids, held per gateway in a WeakMap keyed by the request (gone with it), so the
 * plugin, the context (its logger, its upstream calls) and anything else ask the same place.
 */
export function createRequestIds(options: RequestIdOptions = {}): RequestIds {
  const generate = options.generate ?? randomUUID;
  const ids = new WeakMap<Request, string>();
  return {
    of(request) {
      let id = ids.get(request);
      if (id === undefined) {
        const sent = request.headers.get(REQUEST_ID_HEADER);
        // A malformed id is replaced, never echoed or logged: it is caller input outside its grammar.
        id = sent !== null && isRequestId(sent) ? sent : generate();
        ids.set(request, id);
      }
      return id;
    },
  };
}

/**
 * The id of the request whose handling is running, for code that logs without being handed the request
 * (yoga's own logger, `gateway.ts`): with {@link RequestScopeOptions.scoped}, the whole handling of a
 * request, from yoga's first hook to its response, runs inside {@link useRequestId}'s scope, and so does
 * every promise it starts. Not a piece of request state kept at module level: the store lives in the
 * async context of each request.
 */
const requestScope = new AsyncLocalStorage<string>();

/** The id of the request being handled here, or undefined outside any request's handling (startup, timers) or scope. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore();
}

export interface RequestScopeOptions {
  /**
   * Runs each request inside its id's async scope ({@link currentRequestId}). Wanted where yoga writes
   * lines about every request, that is at debug level. Off otherwise: on Node 20 an AsyncLocalStorage in
   * use runs promise hooks for every promise of every request (measured at about a tenth of the
   * validator walk's CPU), and above debug yoga's only lines about an operation, its unexpected errors,
   * are logged with the request's own logger by `useUnexpectedErrors`.
   */
  scoped?: boolean;
}

/**
 * Gives every request an id and returns it in `x-request-id` on every response: GraphQL results,
 * edge refusals (413, 503...), `/health`, `/ready`, `/metrics` and GraphiQL. First in the plugin
 * list, so its `onResponse` runs for every response, early refusals included (the id is made on
 * first ask, the same whoever asks). With `scoped`, the request is handled within its id's scope ({@link currentRequestId}).
 */
export function useRequestId(ids: RequestIds = createRequestIds(), options: RequestScopeOptions = {}): Plugin {
  return {
    ...(options.scoped
      ? { instrumentation: { request: ({ request }, handle) => requestScope.run(ids.of(request), handle) } satisfies Plugin['instrumentation'] }
      : {}),
    // No onRequest: the id is made by whoever asks first (the context, a log line, this response) and is the
    // same whenever it is made, so no hook runs for it before the response.
    onResponse({ request, response, setResponse, fetchAPI }) {
      const id = ids.of(request);
      try {
        response.headers.set(REQUEST_ID_HEADER, id);
      } catch {
        // A response with immutable headers (Response.error(), a proxied fetch) is copied instead.
        const headers = new fetchAPI.Headers(response.headers);
        headers.set(REQUEST_ID_HEADER, id);
        setResponse(new fetchAPI.Response(response.body, { status: response.status, statusText: response.statusText, headers }));
      }
    },
  };
}
