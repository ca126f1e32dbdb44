import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { Context as WsContext } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { codedError, ErrorCode, isUpstreamError, upstreamToGraphQLError } from './errors.ts';
import type { Gateway } from './gateway.ts';
import { edgeErrorBody } from './plugins/edge-response.ts';
import type { AdmissionGate } from './plugins/use-admission-control.ts';
import { measureJson, REQUEST_LIMITS_DEFAULTS, scanDocument, type RequestLimitsOptions } from './plugins/use-request-limits.ts';
import { RESPONSE_LIMIT_DEFAULTS } from './plugins/use-response-limit.ts';

/** Options of {@link attachGraphQLWs}. */
export interface GraphQLWsOptions {
  /** The path upgraded to WebSocket: the gateway's GraphQL endpoint. Default `/graphql`. */
  path?: string;
  /** The edge's limits: `maxBodyBytes` bounds each message (larger ones close the socket with 1009), the document and variables limits each operation. Defaults in `REQUEST_LIMITS_DEFAULTS`. */
  requestLimits?: RequestLimitsOptions;
  /** How long a socket may stay open without `connection_init`, ms (then closed with 4408). Default 3000. */
  connectionInitTimeoutMs?: number;
  /** Most operations in progress on one socket (`WS_MAX_OPERATIONS_PER_SOCKET`); SERVER_BUSY beyond. Default 25. */
  maxOperationsPerSocket?: number;
  /** Largest serialized result (`MAX_RESPONSE_BYTES`); one RESPONSE_TOO_LARGE error instead. Default 8 MiB. */
  maxResponseBytes?: number;
  /** The header naming a caller's own Data API key; also read from `connectionParams` under this name. Default `x-service-api-key`. */
  apiKeyHeader?: string;
  /** The gateway's admission gate: queries and mutations take a slot as over HTTP (subscriptions are counted by its plugin). Default none. */
  admission?: AdmissionGate;
  /** Ping interval, ms; a socket that does not answer within as long is terminated. Default 12000. */
  keepAliveMs?: number;
}

export const GRAPHQL_WS_DEFAULTS = { path: '/graphql', connectionInitTimeoutMs: 3000, maxOperationsPerSocket: 25, keepAliveMs: 12_000 } as const;

export interface GraphQLWsServer {
  /** Open sockets. */
  sockets(): number;
  /** Refuses new upgrades, closes every socket with 1001 (Going Away), and terminates those still open after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/** Upgrade headers never passed on to an operation's request. */
const HOP_HEADERS = new Set(['connection', 'upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol', 'content-length']);

type Operation = { execute: (args: ExecutionArgs) => unknown; subscribe: (args: ExecutionArgs) => unknown; release?: () => void };

/**
 * GraphQL over WebSocket (the `graphql-transport-ws` protocol of graphql-ws) on the gateway's own
 * HTTP server and path: an upgrade of `/graphql` is a graphql-ws connection, anything else stays
 * HTTP. Each operation runs through the gateway's envelop (`gateway.getEnveloped`, yoga's recipe),
 * so every plugin applies (armor limits, cost and its per-event budget, admission of subscriptions,
 * input validation, upstream errors, masking), with a request made of the upgrade request's headers
 * and, from `connectionParams`, the caller's API key. What yoga checks at the HTTP edge is checked
 * here: message size, document and variables shape, queries' admission slots, response size.
 */
export function attachGraphQLWs(server: Server, gateway: Gateway, options: GraphQLWsOptions = {}): GraphQLWsServer {
  const path = options.path ?? GRAPHQL_WS_DEFAULTS.path;
  const limits = { ...REQUEST_LIMITS_DEFAULTS, ...options.requestLimits };
  const maxOperations = options.maxOperationsPerSocket ?? GRAPHQL_WS_DEFAULTS.maxOperationsPerSocket;
  const maxResponseBytes = options.maxResponseBytes ?? RESPONSE_LIMIT_DEFAULTS.maxResponseBytes;
  const apiKeyHeader = (options.apiKeyHeader ?? 'x-service-api-key').toLowerCase();
  const admission = options.admission;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxBodyBytes });
  const operations = new WeakMap<ExecutionArgs, Operation>();
  /** Each socket's operations in progress and their abort controllers (the signal of their request). */
  const signals = new WeakMap<object, Map<string, AbortController>>();
  let closing = false;

  const controllerOf = (ctx: object, id: string): AbortController => {
    let byId = signals.get(ctx);
    if (!byId) signals.set(ctx, (byId = new Map()));
    const controller = new AbortController();
    byId.get(id)?.abort();
    byId.set(id, controller);
    return controller;
  };
  const abort = (ctx: object, id?: string): void => {
    const byId = signals.get(ctx);
    if (!byId) return;
    for (const [key, controller] of byId) {
      if (id !== undefined && key !== id) continue;
      controller.abort();
      byId.delete(key);
    }
  };

  const disposable = useServer<Record<string, unknown> | undefined>(
    {
      connectionInitWaitTimeout: options.connectionInitTimeoutMs ?? GRAPHQL_WS_DEFAULTS.connectionInitTimeoutMs,
      execute: (args) => run(args, 'execute'),
      subscribe: (args) => run(args, 'subscribe'),
      onSubscribe: async (ctx, id, payload) => {
        // This operation is already counted among the socket's (graphql-ws registers it first).
        if (Object.keys(ctx.subscriptions).length > maxOperations) {
          return [codedError(ErrorCode.SERVER_BUSY, `Too many operations on this socket (limit ${maxOperations}): complete some, or open another connection.`)];
        }
        // A persisted document's text in place of its id, or the refusal HTTP would make (ONLY_PERSISTED...).
        try {
          const query = gateway.persisted.resolve(payload as typeof payload & { documentId?: unknown });
          if (query === undefined) return [codedError(ErrorCode.BAD_REQUEST, 'The operation has no query and names no persisted document.')];
          payload = { ...payload, query };
        } catch (error) {
          return [asGraphQLError(error)];
        }
        const problem = paramsProblem(payload, limits);
        if (problem) return [problem];
        const controller = controllerOf(ctx, id);
        const request = operationRequest(ctx, apiKeyHeader, path, controller.signal);
        // Each operation counts against its client's rate as an HTTP request would.
        const waitMs = gateway.rateLimit?.take(request, ctx.extra.request.socket.remoteAddress) ?? 0;
        if (waitMs > 0) {
          const { message, retryAfter } = (gateway.rateLimit as NonNullable<Gateway['rateLimit']>).refusal(waitMs);
          return [codedError(ErrorCode.RATE_LIMITED, message, { retryAfter })];
        }
        const enveloped = gateway.getEnveloped({ request, params: payload });
        let document: DocumentNode;
        try {
          document = enveloped.parse(payload.query);
        } catch (error) {
          return [asGraphQLError(error)];
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        let release: (() => void) | undefined;
        if (admission && getOperationAST(document, payload.operationName)?.operation !== 'subscription') {
          release = await admission.acquire(controller.signal);
          if (!release) return [codedError(ErrorCode.SERVER_BUSY, 'The gateway is at capacity: retry shortly.')];
        }
        let contextValue: unknown;
        try {
          contextValue = await enveloped.contextFactory();
        } catch (error) {
          release?.();
          return [asGraphQLError(error)];
        }
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          document,
          contextValue,
          variableValues: payload.variables ?? null,
          operationName: payload.operationName ?? null,
        };
        operations.set(args, { execute: enveloped.execute, subscribe: enveloped.subscribe, ...(release ? { release } : {}) });
        return args;
      },
      onOperation: (_ctx, _id, _payload, args, result) => {
        const release = operations.get(args)?.release ?? (() => undefined);
        if (isAsyncIterable(result)) return coded(result, release);
        release();
        return undefined;
      },
      onNext: (_ctx, _id, _payload, _args, result) => {
        const bytes = Buffer.byteLength(JSON.stringify(result));
        if (bytes <= maxResponseBytes) return undefined;
        return { errors: [{ message: `The result is larger than ${maxResponseBytes} bytes: select fewer fields or items.`, extensions: { code: ErrorCode.RESPONSE_TOO_LARGE, responseBytes: bytes, maxResponseBytes } }] };
      },
      onComplete: (ctx, id) => abort(ctx, id),
      onClose: (ctx) => abort(ctx),
    },
    wss,
    options.keepAliveMs ?? GRAPHQL_WS_DEFAULTS.keepAliveMs,
  );

  const run = (args: ExecutionArgs, kind: 'execute' | 'subscribe') => {
    const operation = operations.get(args);
    if (!operation) throw new Error('graphql-ws: an operation that did not pass onSubscribe');
    return operation[kind](args) as ExecutionResult | AsyncGenerator<ExecutionResult>;
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const target = (req.url ?? '/').split('?')[0];
    if (target !== path) return refuseUpgrade(socket, 404, ErrorCode.NOT_FOUND, `WebSocket connections are served on ${path}.`);
    if (closing) return refuseUpgrade(socket, 503, ErrorCode.SERVER_BUSY, 'The gateway is shutting down.');
    // Opening a socket counts against the client's rate too (a flood of upgrades is a flood of requests).
    if (gateway.rateLimit) {
      const upgradeRequest = new Request(`http://gateway${path}`, { headers: Object.entries(req.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as [string, string]] : [])) });
      const waitMs = gateway.rateLimit.take(upgradeRequest, req.socket.remoteAddress);
      if (waitMs > 0) return refuseUpgrade(socket, 429, ErrorCode.RATE_LIMITED, gateway.rateLimit.refusal(waitMs).message);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      wss.emit('connection', ws, req);
      // A client's oversized or malformed frame is routine: ws closes the socket itself (1009, 1002);
      // graphql-ws's own listener would print it to stderr as an internal error.
      ws.removeAllListeners('error');
      ws.on('error', () => undefined);
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    sockets: () => wss.clients.size,
    async close(graceMs = 1000) {
      if (closing) return;
      closing = true;
      server.off('upgrade', onUpgrade);
      const open = [...wss.clients];
      const closed = Promise.all(open.map((ws) => new Promise((resolve) => (ws.readyState === ws.CLOSED ? resolve(undefined) : ws.once('close', resolve)))));
      // 1001 Going Away to every socket (graphql-ws's dispose), then what has not closed within the grace is cut.
      await disposable.dispose();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const ws of open) if (ws.readyState !== ws.CLOSED) ws.terminate();
    },
  };
}

/** The Fetch request an operation's context is made from: the upgrade request's headers, the API key from `connectionParams`, the operation's own signal. */
function operationRequest(ctx: Pick<WsContext<Record<string, unknown> | undefined, Extra>, 'extra' | 'connectionParams'>, apiKeyHeader: string, path: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.extra.request.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // A browser cannot set headers on a WebSocket: the key comes in connection_init's payload.
  for (const [name, value] of Object.entries(ctx.connectionParams ?? {})) {
    if (name.toLowerCase() === apiKeyHeader && typeof value === 'string') headers.set(apiKeyHeader, value);
  }
  const host = headers.get('host') ?? 'localhost';
  return new Request(`http://${/^[\w.:[\]-]+$/.test(host) ? host : 'localhost'}${path}`, { headers, signal });
}

/** The document's shape and the variables' size, as `useRequestLimits` checks them over HTTP before parsing. */
function paramsProblem(payload: { query: string; variables?: unknown; extensions?: unknown }, limits: Required<RequestLimitsOptions>): GraphQLError | undefined {
  const error = scanDocument(payload.query, limits);
  if (error) return error;
  for (const [name, value] of [['variables', payload.variables], ['extensions', payload.extensions]] as const) {
    const problem = measureJson(value, limits.maxVariablesDepth, limits.maxVariablesValues);
    if (problem === 'depth') return codedError(ErrorCode.VARIABLES_TOO_LARGE, `The ${name} are nested deeper than ${limits.maxVariablesDepth} levels.`);
    if (problem === 'values') return codedError(ErrorCode.VARIABLES_TOO_LARGE, `The ${name} hold more than ${limits.maxVariablesValues} values.`);
  }
  return undefined;
}

/** What failed, as a coded GraphQL error: upstream errors mapped as everywhere, anything unexpected masked. */
function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) {
    const original = error.originalError;
    return isUpstreamError(original) ? upstreamToGraphQLError(original) : error;
  }
  if (isUpstreamError(error)) return upstreamToGraphQLError(error);
  return new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/**
 * A subscription's stream whose failure is its last event, a coded error (graphql-ws would send only
 * the message of what a stream throws), calling `finish` once when it ends. `return()` reaches the
 * source at once, so a completed subscription leaves its topic without waiting for another event.
 */
function coded(source: AsyncIterable<ExecutionResult>, finish: () => void): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  const end = (): void => {
    if (done) return;
    done = true;
    finish();
  };
  const stream: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      if (done) return { done: true, value: undefined };
      try {
        const step = await iterator.next();
        if (step.done) end();
        return step;
      } catch (error) {
        end();
        return { done: false, value: { errors: [asGraphQLError(error)] } };
      }
    },
    async return() {
      end();
      await iterator.return?.();
      return { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      end();
      await iterator.return?.();
      throw error;
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return stream;
}

function refuseUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  const body = edgeErrorBody(code, message);
  const reason = status === 404 ? 'Not Found' : status === 429 ? 'Too Many Requests' : 'Service Unavailable';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
