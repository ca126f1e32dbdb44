import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';
import { ADMISSION_DEFAULTS, createAdmissionGate, type AdmissionGate, type AdmissionOptions, type AdmissionStats } from './use-admission-control.ts';
import { edgeError, edgeErrorResponse } from './edge-response.ts';
import { createClientIdentity, type ClientIdentity, type ClientIdentityOptions } from './client-identity.ts';
import type { PersistedDocuments } from './use-persisted-documents.ts';
import { checkParams, type RequestLimitsOptions } from './use-request-limits.ts';

/** Options of {@link createEdgePolicy}: the admission gate's, plus what one client may hold of it. */
export interface EdgePolicyOptions extends AdmissionOptions {
  /**
   * Most operations one client (its verified API key, else its address) may have executing at once
   * (`MAX_OPERATIONS_PER_CLIENT`); its further operations wait in the gate's one queue, so one client
   * never holds every slot. Default half of `maxConcurrent`, at least 1 (a given gate's own share, if set).
   */
  maxOperationsPerClient?: number;
  /** Most live subscriptions of one client (`MAX_SUBSCRIPTIONS_PER_CLIENT`); SERVER_BUSY beyond. Default half of `maxSubscriptions`, at least 1. */
  maxSubscriptionsPerClient?: number;
  /**
   * Request bodies being read at once, in bytes (`MAX_BODY_BYTES_IN_FLIGHT`): each request reserves its
   * declared `Content-Length` (a chunked one `MAX_BODY_BYTES`) until its parameters are parsed; 503
   * SERVER_BUSY when the reservation does not fit. Admission comes after the body, so this is what bounds
   * the memory of bodies still arriving. Default 32 MiB.
   */
  maxBodyBytesInFlight?: number;
  /**
   * Who a client is (`TRUST_PROXY`, the API key header, the verified-key store and its bounds): the
   * policy's {@link ClientIdentity}, which the gateway shares with the rate limit and the request context.
   * Defaults in `CLIENT_IDENTITY_DEFAULTS`.
   */
  clients?: ClientIdentityOptions;
}

export const EDGE_POLICY_DEFAULTS = { maxBodyBytesInFlight: 32 * 1024 * 1024 } as const;

/** An admitted operation's hold on its slots; `release` is idempotent. */
export interface Ticket {
  release(): void;
}

export interface EdgePolicyStats extends AdmissionStats {
  /** Bytes of request bodies reserved now. */
  bodyBytes: number;
}

/**
 * One decision point for every transport (HTTP, both SSE modes, graphql-ws): who the client is, whether
 * its body may be read, whether its operation may run now and for how long it holds its slot, whether
 * its subscription may start. Transports are thin adapters: they name the client and say when the
 * operation's last byte was written ({@link EdgeContext.edgeHold}); the slots are counted here.
 */
export interface EdgePolicy {
  readonly gate: AdmissionGate;
  readonly options: Required<Omit<EdgePolicyOptions, keyof AdmissionOptions | 'clients'>> & Required<AdmissionOptions>;
  /** Who a client is: the gateway's one identity (the rate limit and the request context ask it too). */
  readonly identity: ClientIdentity;
  /** The client a request counts against: `key:<digest>` for a key the Data API accepted, else `addr:<address or /64>`. */
  clientOf(request: Request, socketAddress: string | undefined): string;
  /** A slot for one query or mutation, after the client's own share: undefined when busy or the caller left. */
  admitOperation(client: string, signal?: AbortSignal): Promise<Ticket | undefined>;
  /** A subscription slot: a ticket, or the refusal's message (the client's share, or every slot taken). */
  admitSubscription(client: string): Ticket | string;
  /** Reserves `bytes` of body reading: the release, or undefined when the bodies in flight would pass the budget. */
  reserveBody(bytes: number): (() => void) | undefined;
  stats(): EdgePolicyStats;
}

const once = (fn: () => void): (() => void) => {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
};

/** The policy over `gate` (default: a gate made from `options`), which the metrics and `/ready` read. */
export function createEdgePolicy(options: EdgePolicyOptions = {}, gate?: AdmissionGate): EdgePolicy {
  // A gate made here gets the per-client share; a given one keeps its own (none unless it was made with one).
  const maxConcurrent = options.maxConcurrent ?? ADMISSION_DEFAULTS.maxConcurrent;
  const slots = gate ?? createAdmissionGate({ ...options, maxPerClient: options.maxOperationsPerClient ?? Math.max(1, Math.floor(maxConcurrent / 2)) });
  const limits = slots.options;
  const subscriptionsPerClient = options.maxSubscriptionsPerClient ?? Math.max(1, Math.floor(limits.maxSubscriptions / 2));
  const maxBodyBytesInFlight = options.maxBodyBytesInFlight ?? EDGE_POLICY_DEFAULTS.maxBodyBytesInFlight;
  const subscriptions = new Map<string, number>();
  const identity = createClientIdentity(options.clients);
  let bodyBytes = 0;

  return {
    gate: slots,
    options: { ...limits, maxOperationsPerClient: limits.maxPerClient, maxSubscriptionsPerClient: subscriptionsPerClient, maxBodyBytesInFlight },
    identity,
    clientOf: (request, socketAddress) => identity.clientOf(request, socketAddress),
    async admitOperation(client, signal) {
      const release = await slots.acquire(signal, client);
      return release ? { release: once(release) } : undefined;
    },
    admitSubscription(client) {
      const held = subscriptions.get(client) ?? 0;
      if (held >= subscriptionsPerClient) return `Too many live subscriptions from this client (limit ${subscriptionsPerClient}): end some, then retry.`;
      const releaseSlot = slots.acquireSubscription();
      if (!releaseSlot) return `Too many live subscriptions (limit ${limits.maxSubscriptions}): retry later.`;
      subscriptions.set(client, held + 1);
      return {
        release: once(() => {
          releaseSlot();
          const left = (subscriptions.get(client) ?? 1) - 1;
          if (left > 0) subscriptions.set(client, left);
          else subscriptions.delete(client);
        }),
      };
    },
    reserveBody(bytes) {
      if (bodyBytes + bytes > maxBodyBytesInFlight) return undefined;
      bodyBytes += bytes;
      return once(() => void (bodyBytes -= bytes));
    },
    stats: () => ({ ...slots.stats(), bodyBytes }),
  };
}

/** An operation's parameters as a transport receives them. */
export interface OperationParams {
  query?: unknown;
  variables?: unknown;
  extensions?: unknown;
  documentId?: unknown;
}

/**
 * What every transport checks of an operation before it is parsed, in HTTP's order: the text a
 * persisted document names in place of its id (or the refusal `ONLY_PERSISTED` and APQ make), then the
 * document's shape and the variables' size. HTTP runs the same functions as yoga plugins
 * (`usePersistedDocuments`, `useRequestLimits`); graphql-ws and graphql-sse's reserved streams call this.
 * The refusal carries the status HTTP would answer in `extensions.http` (see {@link withoutHttp}).
 */
export function prepareOperation<T extends OperationParams>(
  params: T,
  persisted: Pick<PersistedDocuments, 'resolve'> | undefined,
  limits: Required<RequestLimitsOptions>,
): (T & { query: string }) | GraphQLError {
  let query: string | undefined;
  try {
    query = persisted ? persisted.resolve(params) : typeof params.query === 'string' ? params.query : undefined;
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    return edgeError(400, ErrorCode.BAD_REQUEST, 'The persisted document could not be read.');
  }
  if (query === undefined) return edgeError(400, ErrorCode.BAD_REQUEST, 'The operation has no query and names no persisted document.');
  const prepared = { ...params, query };
  return checkParams(prepared, limits) ?? prepared;
}

/** The same refusal without its HTTP status and headers, for transports that are not HTTP responses. */
export function withoutHttp(error: GraphQLError): GraphQLError {
  if (!('http' in error.extensions)) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, { extensions });
}

/**
 * What a transport adapter puts in an operation's initial context: when its last byte has been written
 * (graphql-ws: its `complete` message; graphql-sse's reserved stream: the end of its results). Absent on
 * node:http, where the response's `close` says it, and in process (`gateway.fetch`), where the end of the
 * result does.
 */
export interface EdgeContext {
  /** Registers the operation's release, or `'result'` to release it when its result (or last payload) is produced. */
  edgeHold?: ((release: () => void) => void) | 'result';
  /** The peer address when there is no node:http request in the context (graphql-ws). */
  socketAddress?: string;
  req?: IncomingMessage;
  res?: ServerResponse;
  request?: Request;
}

/**
 * The edge policy as a yoga/envelop plugin, the same for every transport since each runs its operations
 * through the gateway's envelop:
 * - a request body is read only within the bytes-in-flight budget (HTTP; the other transports bound
 *   their messages themselves);
 * - a query or mutation takes its client's share and a slot when it is about to execute, after the body
 *   was read and the document validated, and holds them until its last byte is written (its HTTP
 *   response closed, its last `@defer`/`@stream` payload sent, its graphql-ws `complete` sent), so a
 *   client that does not read, or a slow deferred operation, keeps counting against the limits;
 * - a subscription takes a subscription slot and its client's share for as long as its stream lives.
 * Refusals are 503 SERVER_BUSY with `Retry-After` over HTTP and the same coded error elsewhere.
 */
export function useEdgePolicy(policy: EdgePolicy, options: { maxBodyBytes: number }): Plugin {
  const retryAfter = String(policy.options.retryAfterSeconds);
  const bodies = new WeakMap<Request, () => void>();
  const busyError = (message: string) => edgeError(503, ErrorCode.SERVER_BUSY, message, { 'retry-after': retryAfter });
  return {
    onRequestParse({ request, serverContext, fetchAPI, endResponse }) {
      if (request.method !== 'POST') return;
      const declared = Number(request.headers.get('content-length') ?? NaN);
      const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, options.maxBodyBytes) : options.maxBodyBytes;
      const release = policy.reserveBody(bytes);
      if (release) {
        bodies.set(request, release);
        // A request cut before its parameters are parsed (the body deadline, a client gone) answers nothing here:
        // its node:http request closes (or its signal aborts, in process).
        request.signal?.addEventListener('abort', release, { once: true });
        const req = (serverContext as EdgeContext | undefined)?.req;
        if (typeof req?.once === 'function') req.once('close', release);
      }
      else endResponse(edgeErrorResponse(fetchAPI, 503, ErrorCode.SERVER_BUSY, 'The gateway is reading too many request bodies at once: retry after the delay in Retry-After.', { 'retry-after': retryAfter, connection: 'close' }));
    },
    onParams({ request }) {
      bodies.get(request)?.();
    },
    onResponse({ request }) {
      bodies.get(request)?.();
      bodies.delete(request);
    },
    async onExecute({ context, setResultAndStopExecution }) {
      const edge = context as EdgeContext;
      const client = clientOfContext(policy, edge);
      const signal = edge.request?.signal;
      const ticket = await policy.admitOperation(client, signal);
      if (!ticket) {
        setResultAndStopExecution({ errors: [busyError('The gateway is at capacity: retry after the delay in Retry-After.')] });
        return undefined;
      }
      if (holdUntilWritten(edge, ticket.release)) return undefined;
      // In process: the slot is held until the result, or the last incremental payload, is produced.
      signal?.addEventListener('abort', ticket.release, { once: true });
      return {
        onExecuteDone({ result }) {
          if (!isAsyncIterable(result)) {
            ticket.release();
            return undefined;
          }
          return { onEnd: ticket.release };
        },
      };
    },
    onSubscribe({ context, setResultAndStopExecution }) {
      const ticket = policy.admitSubscription(clientOfContext(policy, context as EdgeContext));
      if (typeof ticket === 'string') {
        setResultAndStopExecution({ errors: [new GraphQLError(ticket, { extensions: { code: ErrorCode.SERVER_BUSY } })] });
        return undefined;
      }
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(onFinish(result, ticket.release));
          else ticket.release();
        },
        onSubscribeError() {
          ticket.release();
        },
      };
    },
  };
}

function clientOfContext(policy: EdgePolicy, edge: EdgeContext): string {
  const request = edge.request ?? new Request('http://gateway/');
  return policy.clientOf(request, edge.req?.socket?.remoteAddress ?? edge.socketAddress);
}

/** Ties the release to the transport's last write; false when the transport gives no such moment. */
function holdUntilWritten(edge: EdgeContext, release: () => void): boolean {
  const hold = edge.edgeHold;
  if (typeof hold === 'function') {
    hold(release);
    return true;
  }
  if (hold === 'result') return false;
  const res = edge.res;
  if (res && typeof res.once === 'function') {
    // 'close' follows the last byte handed to the socket, or comes alone when the connection is cut;
    // a response queued behind others on a pipelined connection that is cut never gets a socket, nor
    // its 'close': the socket's own 'close' ends it too.
    const socket = edge.req?.socket;
    if (res.closed || socket?.destroyed) return release(), true;
    const onSocketClose = typeof socket?.once === 'function' ? socketClosing(socket) : undefined;
    const done = (): void => {
      res.off('close', done);
      onSocketClose?.delete(done);
      release();
    };
    res.once('close', done);
    onSocketClose?.add(done);
    return true;
  }
  return false;
}

/** What runs when a socket closes: one listener per socket, however many requests are pipelined on it. */
const closing = new WeakMap<Socket, Set<() => void>>();
function socketClosing(socket: Socket): Set<() => void> {
  let callbacks = closing.get(socket);
  if (!callbacks) {
    const set = new Set<() => void>();
    closing.set(socket, (callbacks = set));
    socket.once('close', () => {
      for (const callback of set) callback();
      closing.delete(socket);
    });
  }
  return callbacks;
}

/** The same stream, calling `finish` once when it ends, fails or its consumer stops it (even before the first event). */
function onFinish<T>(source: AsyncIterable<T>, finish: () => void): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const step = await iterator.next();
        if (step.done) finish();
        return step;
      } catch (error) {
        finish();
        throw error;
      }
    },
    async return(value?: unknown) {
      finish();
      return iterator.return ? iterator.return(value) : { done: true, value: value as T };
    },
    async throw(error?: unknown) {
      finish();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
  };
}
