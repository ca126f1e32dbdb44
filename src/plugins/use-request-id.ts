import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { isRequestId, REQUEST_ID_HEADER } from '../upstream/request-id.ts';

export { isRequestId, MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER } from '../upstream/request-id.ts';

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
 * Gives every request an id and returns it in `x-request-id` on every response: GraphQL results,
 * edge refusals (413, 503...), `/health`, `/ready`, `/metrics` and GraphiQL. First in the plugin
 * list, so the id exists before any other plugin may refuse the request; `onResponse` runs for
 * early responses too.
 */
export function useRequestId(ids: RequestIds = createRequestIds()): Plugin {
  return {
    onRequest({ request }) {
      ids.of(request);
    },
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
