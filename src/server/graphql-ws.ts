import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { Context as WsContext } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import pino, { type Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { codedError, ErrorCode, isUpstreamError, upstreamToGraphQLError } from '../errors/graphql.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { useLoggedServer } from './graphql-ws-server.ts';
import { edgeErrorBody } from '../gateway/plugins/edge-response.ts';
import { REQUEST_LIMITS_DEFAULTS, type RequestLimitsOptions } from '../gateway/plugins/use-request-limits.ts';
import { prepareOperation, withoutHttp } from '../gateway/plugins/edge-policy.ts';
import { RESPONSE_LIMIT_DEFAULTS } from '../gateway/plugins/use-response-limit.ts';

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
  /** Ping interval, ms; a socket that does not answer within as long is terminated. Default 12000. */
  keepAliveMs?: number;
  /** Where graphql-ws's own failures are logged, one line bound to the connection's request id. Default: silent. */
  logger?: Logger;
  /**
   * Most open WebSockets (`WS_MAX_SOCKETS`). At the cap a new one takes the place of the longest-open
   * socket with no operation in progress; when every socket is busy the upgrade is refused 503. Default 2048.
   */
  maxSockets?: number;
}

export const GRAPHQL_WS_DEFAULTS = { path: '/graphql', connectionInitTimeoutMs: 3000, maxOperationsPerSocket: 25, keepAliveMs: 12_000, maxSockets: 2048 } as const;

export interface GraphQLWsServer {
  /** Open sockets. */
  sockets(): number;
  /** Whether the connection on this TCP socket has operations in progress (the connection caps never evict those). */
  busy(socket: Duplex): boolean;
  /** Refuses new upgrades, closes every socket with 1001 (Going Away), and terminates those still open after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/** Upgrade headers never passed on to an operation's request. */
const HOP_HEADERS = new Set(['connection', 'upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol', 'content-length']);

type Operation = { execute: (args: ExecutionArgs) => unknown; subscribe: (args: ExecutionArgs) => unknown };

/**
 * GraphQL over WebSocket (the `graphql-transport-ws` protocol of graphql-ws) on the gateway's own
 * HTTP server and path: an upgrade of `/graphql` is a graphql-ws connection, anything else stays
 * HTTP. Each operation runs through the gateway's envelop (`gateway.getEnveloped`, yoga's recipe),
 * so every plugin applies (armor limits, cost and its per-event budget, the edge policy's admission,
 * input validation, upstream errors, masking), with a request made of the upgrade request's headers
 * and, from `connectionParams`, the caller's API key. What yoga checks at the HTTP edge is checked
 * here: message size, document and variables shape, response size.
 */
export function attachGraphQLWs(server: Server, gateway: Gateway, options: GraphQLWsOptions = {}): GraphQLWsServer {
  const path = options.path ?? GRAPHQL_WS_DEFAULTS.path;
  const limits = { ...REQUEST_LIMITS_DEFAULTS, ...options.requestLimits };
  const maxOperations = options.maxOperationsPerSocket ?? GRAPHQL_WS_DEFAULTS.maxOperationsPerSocket;
  const maxResponseBytes = options.maxResponseBytes ?? RESPONSE_LIMIT_DEFAULTS.maxResponseBytes;
  const apiKeyHeader = (options.apiKeyHeader ?? 'x-service-api-key').toLowerCase();
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxBodyBytes });
  const operations = new WeakMap<ExecutionArgs, Operation>();
  /** Each socket's operations in progress and their abort controllers (the signal of their request). */
  const signals = new WeakMap<object, Map<string, AbortController>>();
  /** Each connection's graphql-ws context, by its TCP socket and by its WebSocket. */
  const contexts = new WeakMap<object, WsContext<Record<string, unknown> | undefined, Extra>>();
  const maxSockets = options.maxSockets ?? GRAPHQL_WS_DEFAULTS.maxSockets;
  const busy = (socket: object): boolean => Object.keys(contexts.get(socket)?.subscriptions ?? {}).length > 0;
  let closing = false;

  const controllerOf = (ctx: object, id: string): AbortController => {
    let byId = signals.get(ctx);
    if (!byId) signals.set(ctx, (byId = new Map()));
    const controller = new AbortController();
    byId.get(id)?.abort();
    byId.set(id, controller);
    return controller;
  };
  /** Each socket's admitted operations' releases, called once their `complete` is sent or the socket closes. */
  const releases = new WeakMap<object, Map<string, () => void>>();
  const holds = (ctx: object): Map<string, () => void> => {
    let byId = releases.get(ctx);
    if (!byId) releases.set(ctx, (byId = new Map()));
    return byId;
  };
  const settle = (ctx: object, id?: string): void => {
    const byId = releases.get(ctx);
    if (!byId) return;
    for (const [key, release] of byId) {
      if (id !== undefined && key !== id) continue;
      release();
      byId.delete(key);
    }
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

  const disposable = useLoggedServer<Record<string, unknown> | undefined>(
    {
      connectionInitWaitTimeout: options.connectionInitTimeoutMs ?? GRAPHQL_WS_DEFAULTS.connectionInitTimeoutMs,
      onConnect: (ctx) => {
        contexts.set(ctx.extra.request.socket, ctx);
        contexts.set(ctx.extra.socket, ctx);
        return true;
      },
      execute: (args) => run(args, 'execute'),
      subscribe: (args) => run(args, 'subscribe'),
      onSubscribe: async (ctx, id, payload) => {
        // This operation is already counted among the socket's (graphql-ws registers it first).
        if (Object.keys(ctx.subscriptions).length > maxOperations) {
          return [codedError(ErrorCode.SERVER_BUSY, `Too many operations on this socket (limit ${maxOperations}): complete some, or open another connection.`)];
        }
        // The edge's checks before parsing, as over HTTP: persisted documents, the document's shape, the variables.
        const prepared = prepareOperation(payload, gateway.persisted, limits);
        if (prepared instanceof GraphQLError) return [withoutHttp(prepared)];
        payload = prepared;
        const controller = controllerOf(ctx, id);
        const request = operationRequest(ctx, apiKeyHeader, path, controller.signal);
        // Each operation counts against its client's rate as an HTTP request would.
        const waitMs = gateway.rateLimit?.take(request, ctx.extra.request.socket.remoteAddress) ?? 0;
        if (waitMs > 0) {
          const { message, retryAfter } = (gateway.rateLimit as NonNullable<Gateway['rateLimit']>).refusal(waitMs);
          return [codedError(ErrorCode.RATE_LIMITED, message, { retryAfter })];
        }
        // The edge policy (src/gateway/plugins/edge-policy.ts) admits the operation when it executes and holds its
        // slot until its `complete` is sent (or the socket closes).
        const edgeHold = (release: () => void): void => void holds(ctx).set(id, release);
        const socketAddress = ctx.extra.request.socket.remoteAddress;
        const enveloped = gateway.getEnveloped({ request, params: payload, edgeHold, ...(socketAddress ? { socketAddress } : {}) });
        let document: DocumentNode;
        try {
          document = enveloped.parse(payload.query);
        } catch (error) {
          return [asGraphQLError(error)];
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        let contextValue: unknown;
        try {
          contextValue = await enveloped.contextFactory();
        } catch (error) {
          return [asGraphQLError(error)];
        }
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          document,
          contextValue,
          variableValues: payload.variables ?? null,
          operationName: payload.operationName ?? null,
        };
        operations.set(args, { execute: enveloped.execute, subscribe: enveloped.subscribe });
        return args;
      },
      onOperation: (_ctx, _id, _payload, _args, result) => (isAsyncIterable(result) ? coded(result) : undefined),
      onNext: (_ctx, _id, _payload, _args, result) => {
        const bytes = Buffer.byteLength(JSON.stringify(result));
        if (bytes <= maxResponseBytes) return undefined;
        return { errors: [{ message: `The result is larger than ${maxResponseBytes} bytes: select fewer fields or items.`, extensions: { code: ErrorCode.RESPONSE_TOO_LARGE, responseBytes: bytes, maxResponseBytes } }] };
      },
      onComplete: (ctx, id) => {
        abort(ctx, id);
        settle(ctx, id);
      },
      onClose: (ctx) => {
        abort(ctx);
        settle(ctx);
      },
    },
    wss,
    options.keepAliveMs ?? GRAPHQL_WS_DEFAULTS.keepAliveMs,
    options.logger ?? pino({ level: 'silent' }),
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
    // At the cap, the longest-open socket with nothing in progress makes room (idle sockets are cheap to reopen).
    if (wss.clients.size >= maxSockets) {
      const idle = [...wss.clients].find((ws) => !busy(ws));
      if (!idle) return refuseUpgrade(socket, 503, ErrorCode.SERVER_BUSY, `Too many WebSocket connections (limit ${maxSockets}): retry later.`);
      idle.terminate();
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
    busy,
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
 * the message of what a stream throws). `return()` reaches the
 * source at once, so a completed subscription leaves its topic without waiting for another event.
 */
function coded(source: AsyncIterable<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  const end = (): void => {
    done = true;
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
