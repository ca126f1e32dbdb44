import { getNamedType, isCompositeType, isInterfaceType, isObjectType, Kind, type DocumentNode, type GraphQLCompositeType, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { operationOf } from './document-facts.ts';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** Options of {@link useCacheControl}. */
export interface CacheControlOptions {
  /** Path of the GraphQL endpoint: only its GET responses get a header from here. Default `/graphql`. */
  graphqlEndpoint?: string;
  /** The caller's own API key header: a response to a caller who sent one is `private`. Default `x-service-api-key`. */
  apiKeyHeader?: string;
  /** Until when what the request read may be reused, ms since the epoch (the request context's `freshUntil`). */
  freshUntil: (context: unknown) => number | undefined;
  /**
   * Until when a response served whole from the whole-response cache may be reused (the held
   * entry's expiry), for requests answered without execution. Default: none (such a GET is `no-store`).
   */
  heldUntil?: (request: Request) => number | undefined;
  /** Longest `max-age` sent, seconds (also for operations that read nothing with an expiry, e.g. `{ __typename }`). Default 300. */
  maxAgeSeconds?: number;
}

export const CACHE_CONTROL_DEFAULTS = { graphqlEndpoint: '/graphql', apiKeyHeader: 'x-service-api-key', maxAgeSeconds: 300 } as const;

/** Value of a field's `extensions.cacheControl` that makes every response selecting it `no-store` (admin fields, export status). */
export const NO_STORE = 'no-store';

interface Executed {
  context: unknown;
  /** The operation selects a field marked `no-store`, is not a query, or its result cannot be measured whole. */
  noStore: boolean;
  errors: boolean;
}

/**
 * `Cache-Control` on GET responses of the GraphQL endpoint, so a CDN or a browser may keep what
 * may be kept (persisted queries over GET are the usual way to get there):
 *
 * - `public, max-age=<s>`: a query answered without errors, where `<s>` is the time left of the
 *   shortest-lived upstream answer it read (the request's `freshUntil`), at most `maxAgeSeconds`;
 * - `private, max-age=<s>`: the same for a caller who sent their own API key (`apiKeyHeader`) or an
 *   `authorization` header: their response is theirs, never a shared cache's;
 * - `no-store`: anything else: errors (a refusal, a PersistedQueryNotFound, a failed field), a
 *   read of anything uncached (`freshUntil` 0), a field whose schema extension `cacheControl` is
 *   `no-store` (admin reads, export status), incremental responses (`@defer`, `@stream`: not whole
 *   when the header is sent), mutations and responses already under a second.
 *
 * `Vary` names the API key header and `authorization`. POST responses are left as they are (shared
 * caches do not keep them). A response that already carries `Cache-Control` (GraphiQL's assets) is
 * left alone. The schema is read generically: a field opts out through its extensions, so this
 * plugin never imports the schema.
 */
export function useCacheControl(options: CacheControlOptions): Plugin {
  const endpoint = options.graphqlEndpoint ?? CACHE_CONTROL_DEFAULTS.graphqlEndpoint;
  const apiKeyHeader = options.apiKeyHeader ?? CACHE_CONTROL_DEFAULTS.apiKeyHeader;
  const maxAgeSeconds = options.maxAgeSeconds ?? CACHE_CONTROL_DEFAULTS.maxAgeSeconds;
  const executed = new WeakMap<Request, Executed>();
  // Whether a document's operation (by name) selects a no-store field, worked out once per parsed document.
  const marked = new WeakMap<DocumentNode, Map<string, boolean>>();

  const selectsNoStore = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): boolean => {
    let byName = marked.get(document);
    if (!byName) marked.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let found = byName.get(name);
    if (found === undefined) {
      const operation = operationOf(document, operationName);
      const root = operation && schema.getRootType(operation.operation);
      found = !operation || operation.operation !== 'query' || !root || selectsNoStoreField(schema, document, operation.selectionSet, root);
      byName.set(name, found);
    }
    return found;
  };

  return {
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      if (!request || request.method !== 'GET') return;
      executed.set(request, { context: args.contextValue, noStore: selectsNoStore(args.schema, args.document, args.operationName), errors: false });
    },
    onExecutionResult({ request, result }) {
      const state = executed.get(request);
      if (!state) return;
      if (!result || isAsyncIterable(result) || Array.isArray(result)) state.noStore = true;
      else if (result.errors?.length) state.errors = true;
    },
    onResponse({ request, response, setResponse, fetchAPI }) {
      if (request.method !== 'GET' || response.headers.has('cache-control') || new URL(request.url).pathname !== endpoint) return;
      const state = executed.get(request);
      executed.delete(request);
      const until = state ? (state.noStore || state.errors ? 0 : options.freshUntil(state.context)) : options.heldUntil?.(request);
      const seconds = response.status === 200 && until ? Math.min(maxAgeSeconds, Math.floor((until - Date.now()) / 1000)) : 0;
      const personal = request.headers.has(apiKeyHeader) || request.headers.has('authorization');
      const value = seconds >= 1 ? `${personal ? 'private' : 'public'}, max-age=${seconds}` : NO_STORE;
      const vary = [response.headers.get('vary'), apiKeyHeader, 'authorization'].filter(Boolean).join(', ');
      try {
        response.headers.set('cache-control', value);
        response.headers.set('vary', vary);
      } catch {
        // A response with immutable headers is copied instead.
        const headers = new fetchAPI.Headers(response.headers);
        headers.set('cache-control', value);
        headers.set('vary', vary);
        setResponse(new fetchAPI.Response(response.body, { status: response.status, statusText: response.statusText, headers }));
      }
    },
  };
}

/**
 * True when the selection reaches a field whose `extensions.cacheControl` is `no-store`, through
 * fields, inline fragments and fragment spreads. A field selected on an abstract type is looked up
 * on it and on each possible type; each selection set is walked once per type (so fragments spread
 * many times, or nested interfaces, cost one walk each).
 */
function selectsNoStoreField(schema: GraphQLSchema, document: DocumentNode, selectionSet: SelectionSetNode, root: GraphQLCompositeType): boolean {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const walked = new Map<SelectionSetNode, Set<string>>();
  const walk = (set: SelectionSetNode, type: GraphQLCompositeType): boolean => {
    let types = walked.get(set);
    if (!types) walked.set(set, (types = new Set()));
    if (types.has(type.name)) return false;
    types.add(type.name);
    for (const selection of set.selections) {
      let inner: SelectionSetNode | undefined;
      let condition: GraphQLCompositeType | undefined = type;
      if (selection.kind === Kind.FIELD) {
        const owners = isObjectType(type) ? [type] : [...(isInterfaceType(type) ? [type] : []), ...schema.getPossibleTypes(type)];
        for (const owner of owners) {
          const field = owner.getFields()[selection.name.value];
          if (!field) continue;
          if (field.extensions['cacheControl'] === NO_STORE) return true;
          const named = getNamedType(field.type);
          if (selection.selectionSet && isCompositeType(named) && walk(selection.selectionSet, named)) return true;
        }
        continue;
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = selection.selectionSet;
        if (selection.typeCondition) condition = compositeType(schema, selection.typeCondition.name.value);
      } else {
        const fragment = fragments.get(selection.name.value);
        inner = fragment?.selectionSet;
        condition = fragment && compositeType(schema, fragment.typeCondition.name.value);
      }
      if (inner && condition && walk(inner, condition)) return true;
    }
    return false;
  };
  return walk(selectionSet, root);
}

function compositeType(schema: GraphQLSchema, name: string): GraphQLCompositeType | undefined {
  const type = schema.getType(name);
  return type && isCompositeType(type) ? type : undefined;
}
