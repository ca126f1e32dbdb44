import { randomUUID } from 'node:crypto';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError, parse, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/graphql.ts';
import { edgeErrorResponse } from './edge-response.ts';
import { contentTypeRefusal } from './use-content-type-policy.ts';
import type { PersistedDocuments } from './use-persisted-documents.ts';
import { REQUEST_LIMITS_DEFAULTS, type RequestLimitsOptions } from './use-request-limits.ts';
import { createResponseBudget, RESPONSE_LIMIT_DEFAULTS } from './use-response-limit.ts';
import { prepareOperation, type EdgeContext } from './edge-policy.ts';

/** Options of {@link useGraphQLSSESingleConnection}. */
export interface GraphQLSSEOptions {
  /** Where both graphql-sse modes are served. Default `/graphql`, beside every other transport. */
  endpoint?: string;
  /** The edge's body, document and variables limits, applied to operations sent on a reserved stream. Defaults in `REQUEST_LIMITS_DEFAULTS`. */
  requestLimits?: RequestLimitsOptions;
  /** Most stream reservations (PUT) open at once; SERVER_BUSY beyond. Default 100. */
  maxReservations?: number;
  /** How long a reservation may wait for its stream (GET) before it is dropped, ms. Default 30000. */
  reservationTtlMs?: number;
  /** The gateway's persisted documents: an operation's text comes from them as over HTTP (ONLY_PERSISTED included). Default none. */
  persisted?: Pick<PersistedDocuments, 'resolve'>;
  /** Largest serialized result of a query or mutation sent on a stream (`MAX_RESPONSE_BYTES`), incremental payloads together. Default 8 MiB. */
  maxResponseBytes?: number;
}

export const GRAPHQL_SSE_DEFAULTS = { endpoint: '/graphql', maxReservations: 100, reservationTtlMs: 30_000 } as const;

/** The header (or `token` query parameter) naming a reserved stream in graphql-sse's single-connection mode. */
const TOKEN_HEADER = 'x-graphql-event-stream-token';

/**
 * graphql-sse's single-connection mode (`createClient({ singleConnection: true })`: PUT reserves a
 * stream, GET opens it, POST sends operations to it, DELETE stops one) through
 * `@graphql-yoga/plugin-graphql-sse`, on the same path as everything else. Only requests of that mode
 * (a PUT, or a request naming a reserved stream) go to the plugin; the distinct-connections mode
 * (`accept: text/event-stream`, no token) stays with yoga's own SSE, and every other request with
 * yoga. Operations still pass every envelop plugin (limits, cost, admission of subscriptions, input
 * validation, upstream errors); what yoga checks before parsing is checked here: the body size, the
 * document's shape and the variables' size, and reservations are bounded in number and in time.
 */
export function useGraphQLSSESingleConnection(options: GraphQLSSEOptions = {}): Plugin {
  const endpoint = options.endpoint ?? GRAPHQL_SSE_DEFAULTS.endpoint;
  const limits = { ...REQUEST_LIMITS_DEFAULTS, ...options.requestLimits };
  const maxReservations = options.maxReservations ?? GRAPHQL_SSE_DEFAULTS.maxReservations;
  const ttlMs = options.reservationTtlMs ?? GRAPHQL_SSE_DEFAULTS.reservationTtlMs;
  const maxResponseBytes = options.maxResponseBytes ?? RESPONSE_LIMIT_DEFAULTS.maxResponseBytes;
  /** Reservations by token: when made, and whether their stream is open. */
  const reservations = new Map<string, { at: number; open: boolean }>();

  const tokenOf = (request: Request): string | null => {
    const header = request.headers.get(TOKEN_HEADER);
    if (header) return header;
    if (!request.url.includes('token=')) return null;
    return new URL(request.url).searchParams.get('token');
  };
  const sse = useGraphQLSSE({
    endpoint,
    // A token is a capability (whoever holds it reads the stream and sends to it): unguessable, and known here as soon as it is made.
    authenticate: (req) => {
      if (req.method !== 'PUT') return tokenOf(req.raw) ?? undefined;
      const token = randomUUID();
      reservations.set(token, { at: performance.now(), open: false });
      return token;
    },
  });

  return {
    onYogaInit({ yoga }) {
      // The plugin's handler gets a yoga whose envelop never throws and never answers errors alone:
      // graphql-sse takes a result without `data` for execution arguments and answers 400 with no
      // code, and a throw for a 500. Refusals (syntax, validation, a bad API key, input checks) become
      // results with `data: null` and the coded errors, sent on the stream like any other result.
      // Results go to another request's stream, so the edge policy holds an operation's slot until its
      // result (or last payload) is produced, not until this POST is answered.
      const getEnveloped = (initial: Parameters<typeof yoga.getEnveloped>[0]) =>
        settled(yoga.getEnveloped(Object.assign(initial ?? {}, { edgeHold: 'result' satisfies EdgeContext['edgeHold'] })), maxResponseBytes);
      sse.onYogaInit?.({ yoga: Object.create(yoga, { getEnveloped: { value: getEnveloped } }) as typeof yoga });
    },
    async onRequest(payload) {
      const { request, url, fetchAPI, endResponse } = payload;
      if (url.pathname !== endpoint) return;
      const token = tokenOf(request);
      // A reservation is a PUT accepting plain text (graphql-sse's client sends no accept); any other PUT is yoga's (405).
      const accept = request.headers.get('accept') ?? '*/*';
      const reserving = request.method === 'PUT' && (accept === '*/*' || accept === 'text/plain');
      if (!reserving && token === null) return;
      const refuse = (status: number, code: string, message: string): void => endResponse(edgeErrorResponse(fetchAPI, status, code, message));
      const forward = async (forwarded: Request, end: (response: Response) => void = endResponse): Promise<void> => {
        await sse.onRequest?.({ ...payload, request: forwarded, endResponse: end });
      };

      if (reserving) {
        // Reservations whose stream never came are dropped: opening and cancelling the stream frees it in the handler too.
        const now = performance.now();
        for (const [reserved, state] of reservations) {
          if (state.open || now - state.at < ttlMs) continue;
          reservations.delete(reserved);
          await forward(new fetchAPI.Request(request.url, { headers: { accept: 'text/event-stream', [TOKEN_HEADER]: reserved } }), (response) => void response.body?.cancel());
        }
        if (reservations.size >= maxReservations) return refuse(503, ErrorCode.SERVER_BUSY, `Too many graphql-sse stream reservations (limit ${maxReservations}): retry later.`);
        return forward(request);
      }
      const reservation = token === null ? undefined : reservations.get(token);
      if (!reservation) return refuse(404, ErrorCode.NOT_FOUND, 'No such graphql-sse stream: reserve one with PUT first.');

      if (request.method === 'GET') {
        return forward(request, (response) => {
          if (response.status !== 200 || !response.body || !token) return endResponse(response);
          reservation.open = true;
          // The reservation lasts as long as its stream.
          const release = (): void => void reservations.delete(token);
          const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: release }));
          request.signal.addEventListener('abort', release, { once: true });
          endResponse(new fetchAPI.Response(body, { status: response.status, headers: response.headers }));
        });
      }
      if (request.method !== 'POST') return forward(request);

      // An operation for the reserved stream: bounded and checked as yoga checks its own requests, JSON only.
      const refusal = contentTypeRefusal(request, fetchAPI);
      if (refusal) return endResponse(refusal);
      const declared = Number(request.headers.get('content-length') ?? NaN);
      if (!Number.isSafeInteger(declared)) return refuse(411, ErrorCode.BAD_REQUEST, 'Send operations with a Content-Length.');
      if (declared > limits.maxBodyBytes) return refuse(413, ErrorCode.PAYLOAD_TOO_LARGE, `The request body is larger than ${limits.maxBodyBytes} bytes.`);
      const text = await request.text();
      let params: { query?: unknown; variables?: unknown; extensions?: unknown; documentId?: unknown };
      try {
        params = JSON.parse(text) as typeof params;
      } catch {
        return refuse(400, ErrorCode.BAD_REQUEST, 'The request body is not JSON.');
      }
      if (typeof params !== 'object' || params === null || Array.isArray(params)) return refuse(400, ErrorCode.BAD_REQUEST, 'The request body is not a JSON object.');
      // The edge's checks before parsing, as over HTTP: persisted documents, the document's shape, the variables.
      const prepared = prepareOperation(params, options.persisted, limits);
      if (prepared instanceof GraphQLError) {
        const http = prepared.extensions['http'] as { status?: number } | undefined;
        return refuse(http?.status ?? 400, String(prepared.extensions['code'] ?? ErrorCode.BAD_REQUEST), prepared.message);
      }
      const body = prepared.query === params.query ? text : JSON.stringify(prepared);
      return forward(new fetchAPI.Request(request.url, { method: 'POST', headers: request.headers, body, signal: request.signal }));
    },
  };
}

/** What `getEnveloped` returns (the part graphql-sse's plugin uses). */
interface Enveloped {
  parse: (source: string) => DocumentNode;
  validate: (schema: never, document: DocumentNode) => readonly GraphQLError[];
  contextFactory: () => unknown;
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
}

/** Parsed once: the document handed on when the real one failed to parse (its errors are the result). */
const PLACEHOLDER = parse('{ __typename }');

/**
 * The envelop of one operation, its refusals kept until execution: a syntax or validation error,
 * or a context that could not be made, is the operation's result (`data: null` and the errors), and a
 * result with errors alone gets `data: null`.
 */
function settled<T extends Enveloped>(enveloped: T, maxResponseBytes: number): T {
  let refused: readonly unknown[] | undefined;
  const refuse = (errors: readonly unknown[]) => {
    refused ??= errors;
  };
  const withData = (result: unknown): unknown => {
    if (result && typeof result === 'object' && !isAsyncIterable(result) && !('data' in result)) return { data: null, ...result };
    return result;
  };
  const run = async (execute: (args: ExecutionArgs) => unknown, args: ExecutionArgs) => (refused ? { data: null, errors: refused } : withData(await execute(args)));
  // Queries and mutations are measured against the response limit here, as yoga measures its own responses
  // (subscription events are one block or health report each, as on every transport).
  const bounded = async (args: ExecutionArgs): Promise<unknown> => {
    const result = await run(enveloped.execute, args);
    const measure = createResponseBudget(maxResponseBytes);
    if (isAsyncIterable(result)) return mapIterable(result as AsyncIterable<ExecutionResult>, measure);
    return measure(result as ExecutionResult);
  };
  return {
    ...enveloped,
    parse: (source: string) => {
      try {
        return enveloped.parse(source);
      } catch (error) {
        refuse([error]);
        return PLACEHOLDER;
      }
    },
    validate: (schema: never, document: DocumentNode) => {
      if (refused) return [];
      const errors = enveloped.validate(schema, document);
      if (errors.length > 0) refuse(errors);
      return [];
    },
    contextFactory: async () => {
      try {
        return await enveloped.contextFactory();
      } catch (error) {
        refuse([error]);
        return {};
      }
    },
    execute: bounded,
    subscribe: (args: ExecutionArgs) => run(enveloped.subscribe, args),
  };
}

/** The stream with `map` applied to each item; `return` reaches the source (a cancelled stream stops its execution). */
function mapIterable<T, U>(source: AsyncIterable<T>, map: (item: T) => U): AsyncIterableIterator<U> {
  const iterator = source[Symbol.asyncIterator]();
  const mapped: AsyncIterableIterator<U> = {
    async next() {
      const step = await iterator.next();
      return step.done ? { done: true, value: undefined } : { done: false, value: map(step.value) };
    },
    async return() {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}
