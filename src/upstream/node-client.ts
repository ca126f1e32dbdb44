import type { CallOptions, HealthGetResult, NodeClient } from './client-types.ts';
import { UpstreamError, type JsonRpcErrorObject, type UpstreamName } from './errors.ts';
import { createHttpUpstream, type HttpUpstream } from './http.ts';
import { requestIdHeader } from '../lib/request-id.ts';
import { isHealthReport, isObject } from './normalize.ts';
import { createRedactor, excerpt, type Redactor } from '../lib/redact.ts';
import {
  HEALTH_GET_PATHS, nodeApiOf, nodeResultShape, readShape, READ_ONLY_NODE_METHODS, SHAPES, violationsOf, withViolations,
  type HealthPath, type NodeRpcMethod, type NodeRpcMethods, type Violation,
} from '../shapes/index.ts';

/** Options of {@link createNodeClient}. */
export interface NodeClientOptions {
  /** The node's name in `NODE_URLS`; errors name the upstream `node:<name>`. */
  name: string;
  /**
   * The node's base URL; it may carry a path prefix (`http://127.0.0.1:9650/nodes/fuji`
   * posts to `/nodes/fuji/ext/info`). User info in the URL is sent as basic auth
   * and never shown.
   */
  url: string;
  /** The HTTP policy (pools, timeouts, retries). Default: a new {@link createHttpUpstream}() owned by the client. */
  http?: HttpUpstream;
  /** Per-call deadline, ms, when the call gives none. Default: the HTTP policy's (15 s). */
  timeoutMs?: number;
}

/** The node client plus `close()`, which releases the pools when the client created its own. */
export interface NodeClientHandle extends NodeClient {
  close(): Promise<void>;
}

/**
 * Bounds of the health tags a GET sends (the only caller input this client puts in a
 * URL; JSON-RPC params travel in the body). Callers check tags earlier and more
 * precisely; this is the last line.
 */
export const HEALTH_TAG_LIMITS = { maxTags: 64, maxTagLength: 128 } as const;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Result fields without which a method's answer is useless: a violation there fails the call. */
const RESULT_CONTAINERS: Partial<Record<NodeRpcMethod, readonly string[]>> = {
  'info.peers': ['peers'],
  'admin.dbGet': ['errorCode'],
  'health.health': ['checks', 'healthy'],
  'health.readiness': ['checks', 'healthy'],
  'health.liveness': ['checks', 'healthy'],
};

export function createNodeClient(options: NodeClientOptions): NodeClientHandle {
  const base = parseHttpUrl(options.url, `node "${options.name}"`);
  const headers: Record<string, string> = {};
  // What this node is sent that it must not be able to echo into an error: its basic auth, in every form.
  const credentials: string[] = [];
  if (base.username || base.password) {
    const user = decodeURIComponent(base.username);
    const password = decodeURIComponent(base.password);
    const token = Buffer.from(`${user}:${password}`).toString('base64');
    headers.authorization = `Basic ${token}`;
    credentials.push(token, user, password);
    base.username = '';
    base.password = '';
  }
  const redactor = createRedactor(credentials);
  const basePath = base.pathname.replace(/\/+$/, '');
  const displayUrl = `${base.origin}${basePath}`;
  const upstream: UpstreamName = `node:${options.name}`;
  const ownsHttp = options.http === undefined;
  const http = options.http ?? createHttpUpstream();
  // gorilla/rpc writes no body for a null or absent id, so every request gets its own integer.
  let nextId = 1;

  const origin = base.origin;

  async function call<M extends NodeRpcMethod>(
    method: M,
    params?: NodeRpcMethods[M]['params'],
    opts?: CallOptions,
  ): Promise<NodeRpcMethods[M]['result']> {
    // Straight from the node: nothing may reuse this answer (the cache layer reports its own expiry).
    opts?.onExpiry?.(0);
    const id = nextId++;
    const result = await http.request({
      upstream,
      operation: method,
      method: 'POST',
      origin,
      path: `${basePath}/ext/${nodeApiOf(method)}`,
      headers: { ...headers, ...requestIdHeader(opts?.requestId) },
      credentials,
      json: { jsonrpc: '2.0', id, method, params: params ?? {} },
      idempotent: READ_ONLY_NODE_METHODS.has(method),
      signal: opts?.signal,
      timeoutMs: opts?.timeoutMs ?? options.timeoutMs,
      observer: opts?.observer,
    });
    const body = result.body;
    const protocolError = (what: string): UpstreamError =>
      new UpstreamError(`${upstream} ${method}: ${what}`, {
        upstream, kind: 'protocol', operation: method, status: result.status,
      });
    if (!isObject(body)) throw protocolError('the answer is not a JSON-RPC object');
    if (body.error !== undefined && body.error !== null) {
      const rpcError = toRpcError(body.error, redactor);
      if (!rpcError) throw protocolError('the answer carries a malformed JSON-RPC error');
      throw new UpstreamError(`${upstream} ${method}: JSON-RPC error ${rpcError.code}${rpcError.message ? `: ${rpcError.message}` : ''}`, {
        upstream, kind: 'rpc', operation: method, status: result.status, rpcError,
      });
    }
    if (body.id !== id) throw protocolError(`the answer's id ${JSON.stringify(body.id)} is not the request's id ${id}`);
    if (!('result' in body)) throw protocolError('the answer has neither a result nor an error');
    return readShape(nodeResultShape(method), body.result, (violation) => shapeError(method, result.status, violation), {
      containers: RESULT_CONTAINERS[method] ?? [],
      exact: () => (result.exactBody() as { result?: unknown }).result,
    });
  }

  async function healthGet(path: HealthPath, tags?: string[], opts?: CallOptions): Promise<HealthGetResult> {
    opts?.onExpiry?.(0);
    const operation = `GET ${HEALTH_GET_PATHS[path]}`;
    const list = tags ?? [];
    if (list.length > HEALTH_TAG_LIMITS.maxTags || list.some((tag) => tag.length === 0 || tag.length > HEALTH_TAG_LIMITS.maxTagLength || CONTROL.test(tag))) {
      throw new UpstreamError(`${upstream} ${operation}: not sent: query parameter "tag" is empty, longer than ${HEALTH_TAG_LIMITS.maxTagLength} characters, holds a control character or comes more than ${HEALTH_TAG_LIMITS.maxTags} times`, {
        upstream, kind: 'input', operation, parameter: 'tag',
      });
    }
    const query = new URLSearchParams(list.map((tag) => ['tag', tag])).toString();
    const result = await http.request({
      upstream,
      operation,
      method: 'GET',
      origin,
      path: `${basePath}${HEALTH_GET_PATHS[path]}${query ? `?${query}` : ''}`,
      headers: { ...headers, ...requestIdHeader(opts?.requestId) },
      credentials,
      idempotent: true,
      signal: opts?.signal,
      timeoutMs: opts?.timeoutMs ?? options.timeoutMs,
      observer: opts?.observer,
      // 503 with a report means "unhealthy", an answer; a 503 without one is a failure like any other.
      isAnswer: (status, body) => status === 503 && isHealthReport(body),
    });
    if (!isHealthReport(result.body)) {
      throw new UpstreamError(`${upstream} ${operation}: HTTP ${result.status} without a health report`, {
        upstream, kind: 'protocol', operation, status: result.status,
      });
    }
    const report = readShape(SHAPES.HealthReport, result.body, (violation) => shapeError(operation, result.status, violation), {
      containers: ['checks', 'healthy'],
      exact: result.exactBody,
    });
    // The broken fields of the report, if any, are also the answer's (a cache puts them back on its copies).
    const violations = violationsOf(report)?.map((violation) => ({ ...violation, keys: ['report', ...violation.keys] }));
    const answer = { status: result.status, report };
    return violations ? withViolations(answer, violations) : answer;
  }

  /** A result that does not match its shape: for the whole call, or for the one field that broke when it is read. */
  function shapeError(operation: string, status: number, violation: Violation): UpstreamError {
    const what = violation.whole ? 'the result is unusable' : 'a field of the result is unusable';
    // The path holds the node's own keys and the reason the value it received: both are the node's text.
    const path = excerpt(violation.path, redactor) ?? '(answer)';
    return new UpstreamError(`${upstream} ${operation}: ${what}: ${path}: ${excerpt(violation.reason, redactor) ?? ''}`, {
      upstream, kind: 'protocol', operation, status, ...(violation.whole ? {} : { field: path }),
    });
  }

  return {
    name: options.name,
    url: displayUrl,
    call,
    healthGet,
    close: async () => {
      if (ownsHttp) await http.close();
    },
  };
}

/**
 * A JSON-RPC error object as the gateway keeps it: its code, and its message as a redacted, bounded
 * excerpt (it reaches GraphQL errors and logs). Its `data`, free-form text of the node's, is not kept.
 */
function toRpcError(value: unknown, redactor: Redactor): JsonRpcErrorObject | undefined {
  if (!isObject(value) || typeof value.code !== 'number') return undefined;
  return { code: value.code, message: excerpt(typeof value.message === 'string' ? value.message : String(value.message), redactor) ?? '' };
}

/** Hides user info (`//user:secret@`) when a URL is echoed in a message. */
function redact(text: string): string {
  return text.replace(/\/\/[^/@\s]*@/, '//***@');
}

export function parseHttpUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what}: "${redact(text)}" is not a valid URL (expected e.g. http://127.0.0.1:9650)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${what}: "${redact(text)}" must use http or https, not ${url.protocol}`);
  }
  if (url.search || url.hash) {
    throw new Error(`${what}: "${redact(text)}" must not carry a query or a fragment`);
  }
  return url;
}

/**
 * Parses `DATA_API_URL`: an http(s) base URL without query or fragment. The client adds the API's
 * `/v1/...` paths itself, so a base copied with its `/v1` (as the API's docs and `npm run devnet`
 * print it) is taken without it rather than sent as `/v1/v1/...`.
 */
export function parseDataApiUrl(text: string): string {
  const url = parseHttpUrl(text.trim(), 'DATA_API_URL');
  return url.href.replace(/\/+$/, '').replace(/\/v1$/, '');
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Parses `NODE_URLS`: comma-separated `name=url` pairs, where a bare URL is
 * named `default`. Names must be unique; every URL must be http(s). An empty
 * or blank value gives no nodes.
 */
export function parseNodeUrls(env: string): { name: string; url: string }[] {
  const nodes: { name: string; url: string }[] = [];
  const seen = new Set<string>();
  const entries = env.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  entries.forEach((entry, index) => {
    const eq = entry.indexOf('=');
    const scheme = entry.indexOf('://');
    // An `=` after the scheme belongs to the URL (a query), not to a name.
    const named = eq > 0 && (scheme === -1 || eq < scheme);
    const name = named ? entry.slice(0, eq).trim() : 'default';
    const url = named ? entry.slice(eq + 1).trim() : entry;
    const where = `NODE_URLS entry ${index + 1}`;
    if (!NAME_PATTERN.test(name)) {
      throw new Error(`${where}: node name "${name}" must be letters, digits, "_", "." or "-"`);
    }
    if (seen.has(name)) {
      throw new Error(`${where}: node name "${name}" is used twice${named ? '' : ' (a bare URL is named "default")'}`);
    }
    seen.add(name);
    const parsed = parseHttpUrl(url, `${where} (${name})`);
    nodes.push({ name, url: parsed.href.replace(/\/+$/, '') });
  });
  return nodes;
}
