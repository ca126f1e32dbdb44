// The node's HTTP surface as avalanchego's server and gorilla/rpc v2 + json2
// shape it: the host check, exact-path routes and their aliases, POST and
// Content-Type rules, envelope and params decoding with Go's error wording,
// and notifications. The quirks live here so the services only ever see
// decoded arguments and return plain results or throw an RpcError.
import type { DevnetHandler, DevnetRequest, DevnetResponse } from '../http-types.ts';
import { goKind, goQuote, goQuoteRune } from './go.ts';
import { idFromString, nodeIdFromString } from './ids.ts';
import { LOG_LEVELS, RpcError, type Args, type ParamKind, type RpcMethod, type RpcService, type ServiceName } from './rpc.ts';

const UNMARSHAL_ERROR =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/** The three reports of the health API, each also served on its own path. */
export type HealthView = 'health' | 'readiness' | 'liveness';

// ---------------------------------------------------------------- HTTP entry point

/** What the HTTP entry point dispatches to. */
export interface HttpEndpoints {
  /** Accepted `Host` names, lower case; `*` accepts any. */
  allowedHosts: ReadonlySet<string>;
  routes: RouteTable;
  /** Sent as the `node-id` header on every answer. */
  nodeId(): string;
  /** Builds the chains, whose routes must exist before a path is looked up. */
  chains(): unknown;
  services: Record<ServiceName, RpcService>;
  /** Answers a request on a health path that is not JSON-RPC (`GET /ext/health`, `/ext/health/readiness`...). */
  healthGet(req: DevnetRequest, view: HealthView, route: string): DevnetResponse;
}

export function createHttpHandler(endpoints: HttpEndpoints): DevnetHandler {
  const { allowedHosts, routes, services } = endpoints;
  return (req) => {
    const headers = { 'node-id': endpoints.nodeId() };
    if (!hostAllowed(req.headers.host, allowedHosts)) {
      return text(403, 'invalid host specified\n', `${req.method} /ext (invalid host)`, { ...headers, 'x-content-type-options': 'nosniff' });
    }
    endpoints.chains();
    // Header routing exists only for chain VMs, so it hides every /ext/... path.
    const kind = req.headers['avalanche-api-route'] === undefined ? routes.lookup(safeDecode(req.path)) : undefined;
    const stamp = (r: DevnetResponse): DevnetResponse => ({ ...r, headers: { ...headers, ...r.headers } });
    switch (kind) {
      case 'info':
      case 'admin':
        return stamp(serveRpc(req, kind, `/ext/${kind}`, services[kind]));
      case 'health':
        if (req.method === 'GET') return stamp(endpoints.healthGet(req, 'health', `GET /ext/health`));
        return stamp(serveRpc(req, 'health', '/ext/health', services.health));
      case 'health/health':
      case 'health/readiness':
      case 'health/liveness': {
        const which = kind.slice('health/'.length) as HealthView;
        return stamp(endpoints.healthGet(req, which, `${req.method} /ext/${kind}`));
      }
      default:
        return stamp(text(404, '404 page not found\n', `${req.method} (unmatched)`, { 'x-content-type-options': 'nosniff' }));
    }
  };
}

function text(status: number, body: string, route: string, headers?: Record<string, string>): DevnetResponse {
  return { status, body, route, contentType: 'text/plain; charset=utf-8', headers };
}

function hostAllowed(hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (allowed.has('*')) return true;
  const raw = hostHeader ?? '';
  let host = raw;
  const bracket = /^\[([^\]]*)\](?::\d*)?$/.exec(raw);
  if (bracket) host = bracket[1] ?? '';
  else if (/^[^:]*:\d*$/.test(raw)) host = raw.slice(0, raw.lastIndexOf(':'));
  if (host === '' || isIp(host)) return true;
  return allowed.has(host.toLowerCase());
}

function isIp(host: string): boolean {
  return /^(\d{1,3})(\.\d{1,3}){3}$/.test(host) || (host.includes(':') && /^[0-9a-fA-F:.]+$/.test(host));
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

// ---------------------------------------------------------------- routes (api/server/router.go)

type RouteKind = 'info' | 'admin' | 'health' | 'health/health' | 'health/readiness' | 'health/liveness' | 'chain';

export type RouteTable = ReturnType<typeof createRouteTable>;

/** The node's own APIs; chains add their routes (and aliases) once they are known. */
export function createNodeRoutes(adminEnabled: boolean): RouteTable {
  const routes = createRouteTable();
  routes.addRoute('/ext/info', '', 'info');
  if (adminEnabled) routes.addRoute('/ext/admin', '', 'admin');
  routes.addRoute('/ext/health', '', 'health');
  routes.addRoute('/ext/health', '/readiness', 'health/readiness');
  routes.addRoute('/ext/health', '/health', 'health/health');
  routes.addRoute('/ext/health', '/liveness', 'health/liveness');
  return routes;
}

/**
 * The node's route table: bases (`/ext/info`) with endpoints (``, `/readiness`)
 * and aliases. Aliases reserve their path; routes themselves are not reserved,
 * so aliasing onto an existing route fails while adding its endpoints.
 */
function createRouteTable() {
  const bases = new Map<string, Map<string, RouteKind>>();
  const flat = new Map<string, RouteKind>();
  const aliasesOf = new Map<string, string[]>();
  const reserved = new Map<string, string>();

  const forceAdd = (base: string, endpoint: string, kind: RouteKind): string | undefined => {
    let endpoints = bases.get(base);
    if (!endpoints) bases.set(base, (endpoints = new Map()));
    if (endpoints.has(endpoint)) return `failed to create endpoint as ${base}${endpoint} already exists`;
    endpoints.set(endpoint, kind);
    flat.set(base + endpoint, kind);
    let error: string | undefined;
    for (const alias of aliasesOf.get(base) ?? []) error ??= forceAdd(alias, endpoint, kind);
    return error;
  };

  return {
    addRoute(base: string, endpoint: string, kind: RouteKind): string | undefined {
      if (reserved.has(base)) return `route is either already aliased or already maps to a handle: ${base}`;
      return forceAdd(base, endpoint, kind);
    },
    addAlias(base: string, alias: string): string | undefined {
      if (reserved.has(alias)) return `route is either already aliased or already maps to a handle: ${alias}`;
      reserved.set(alias, base);
      aliasesOf.set(base, [...(aliasesOf.get(base) ?? []), alias]);
      const errors: string[] = [];
      for (const [endpoint, kind] of bases.get(base) ?? []) {
        const error = forceAdd(alias, endpoint, kind);
        if (error) errors.push(error);
      }
      // errors.Join: one message per line.
      return errors.length > 0 ? errors.join('\n') : undefined;
    },
    lookup: (path: string): RouteKind | undefined => flat.get(path),
    aliases: (): Record<string, string> => Object.fromEntries(reserved),
  };
}

// ---------------------------------------------------------------- JSON-RPC (gorilla/rpc v2 + json2, avalanchego codec)

interface Envelope {
  jsonrpc: string;
  method: string;
  /** Raw params; undefined when absent or null (a nil pointer in Go). */
  params: unknown;
  /** Raw id; undefined when absent or null, which makes the request a notification. */
  id: unknown;
}

function serveRpc(req: DevnetRequest, serviceName: ServiceName, base: string, service: RpcService): DevnetResponse {
  const invalid = `${req.method} ${base} (invalid)`;
  if (req.method !== 'POST') return text(405, `rpc: POST method required, received ${req.method}`, invalid);
  const header = req.headers['content-type'] ?? '';
  const semicolon = header.indexOf(';');
  const contentType = semicolon === -1 ? header : header.slice(0, semicolon);
  if (contentType.toLowerCase() !== 'application/json') return text(415, `rpc: unrecognized Content-Type: ${contentType}`, invalid);

  const { envelope, parseError } = decodeEnvelope(req.body);
  const requestData = {
    jsonrpc: envelope.jsonrpc,
    method: envelope.method,
    params: envelope.params ?? null,
    id: envelope.id ?? null,
  };
  // A parse error is answered even without an id: the server cannot tell it was a notification.
  if (parseError !== undefined) return rpcAnswer(envelope.id ?? null, { error: new RpcError(parseError, -32700, requestData) }, invalid);
  if (envelope.jsonrpc !== '2.0') return rpcAnswer(envelope.id, { error: new RpcError('jsonrpc must be 2.0', -32600, requestData) }, invalid);

  const resolved = resolveMethod(envelope.method, serviceName, service);
  if (resolved instanceof RpcError) return rpcAnswer(envelope.id, { error: resolved }, invalid);
  const route = `POST ${serviceName}.${lowerFirst(resolved.goName)}`;

  let args: Args;
  try {
    args = decodeArgs(envelope.params, resolved.spec.params);
  } catch {
    return rpcAnswer(envelope.id, { error: new RpcError(UNMARSHAL_ERROR) }, route);
  }
  const headers = { 'x-content-type-options': 'nosniff' };
  try {
    return rpcAnswer(envelope.id, { result: resolved.spec.call(args) }, route, headers);
  } catch (error) {
    const rpcError = error instanceof RpcError ? error : new RpcError(error instanceof Error ? error.message : String(error));
    return rpcAnswer(envelope.id, { error: rpcError }, route, headers);
  }
}

function rpcAnswer(
  id: unknown,
  outcome: { result: unknown } | { error: RpcError },
  route: string,
  headers?: Record<string, string>,
): DevnetResponse {
  // JSON-RPC errors are HTTP 200 (json2's WriteError ignores the status), and a notification gets no body.
  if (id === undefined) return { status: 200, route, headers, contentType: 'application/json; charset=utf-8', body: '' };
  const payload =
    'result' in outcome
      ? { jsonrpc: '2.0', result: outcome.result, id }
      : { jsonrpc: '2.0', error: { code: outcome.error.code, message: outcome.error.message, data: outcome.error.data }, id };
  return { status: 200, route, headers, contentType: 'application/json; charset=utf-8', body: `${JSON.stringify(payload)}\n` };
}

/** Decodes the body as Go's `json.Decoder` decodes it into json2's serverRequest. */
function decodeEnvelope(body: string): { envelope: Envelope; parseError?: string } {
  const envelope: Envelope = { jsonrpc: '', method: '', params: undefined, id: undefined };
  const parsed = parseGoJson(body);
  if (!parsed.ok) return { envelope, parseError: parsed.message };
  const value = parsed.value;
  if (value === null) return { envelope };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { envelope, parseError: `json: cannot unmarshal ${goKind(value)} into Go value of type json2.serverRequest` };
  }
  let parseError: string | undefined;
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const field = key.toLowerCase();
    if (field === 'jsonrpc' || field === 'method') {
      if (raw === null) continue;
      if (typeof raw !== 'string') {
        parseError ??= `json: cannot unmarshal ${goKind(raw)} into Go struct field serverRequest.${field} of type string`;
        continue;
      }
      envelope[field] = raw;
    } else if (field === 'params') envelope.params = raw === null ? undefined : raw;
    else if (field === 'id') envelope.id = raw === null ? undefined : raw;
  }
  return { envelope, parseError };
}

/**
 * avalanchego's codec upper-cases the first letter of the method part (and
 * rejects one that is already upper case); gorilla then splits on dots and
 * looks the Go method up by exact name.
 */
function resolveMethod(
  name: string,
  serviceName: string,
  service: RpcService,
): { goName: string; spec: RpcMethod } | RpcError {
  let method = name;
  const dot = name.indexOf('.');
  if (dot !== -1) {
    const fn = name.slice(dot + 1);
    const first = String.fromCodePoint(fn.codePointAt(0) ?? 0);
    if (fn !== '') {
      if (first !== first.toLowerCase() && first === first.toUpperCase()) return new RpcError('method must start with a non-uppercase letter');
      const upper = first.toUpperCase();
      method = `${name.slice(0, dot)}.${upper.length === first.length ? upper : first}${fn.slice(first.length)}`;
    }
  }
  const parts = method.split('.');
  if (parts.length !== 2) return new RpcError(`rpc: service/method request ill-formed: ${goQuote(method)}`);
  const [svc, goName] = parts as [string, string];
  if (svc !== serviceName) return new RpcError(`rpc: can't find service ${goQuote(method)}`);
  const spec = Object.hasOwn(service, goName) ? service[goName] : undefined;
  if (!spec) return new RpcError(`rpc: can't find method ${goQuote(method)}`);
  return { goName, spec };
}

/**
 * Params as json2 reads them: an object by name, else a one-element array
 * (`[ {...} ]`); absent or null is fine. Field names match case-insensitively
 * and unknown fields are ignored, as in encoding/json. Any failure throws.
 */
function decodeArgs(raw: unknown, schema: Record<string, ParamKind>): Args {
  if (raw === undefined || raw === null) return {};
  if (Array.isArray(raw)) {
    const first: unknown = raw[0];
    if (first === undefined || first === null) return {};
    if (typeof first !== 'object' || Array.isArray(first)) throw new Error('unmarshal');
    return decodeObject(first as Record<string, unknown>, schema);
  }
  if (typeof raw !== 'object') throw new Error('unmarshal');
  return decodeObject(raw as Record<string, unknown>, schema);
}

function decodeObject(obj: Record<string, unknown>, schema: Record<string, ParamKind>): Args {
  const args: Args = {};
  const fields = Object.keys(schema);
  for (const [key, value] of Object.entries(obj)) {
    const field = fields.find((f) => f === key) ?? fields.find((f) => f.toLowerCase() === key.toLowerCase());
    if (field === undefined || value === null) continue;
    args[field] = decodeParam(schema[field] as ParamKind, value);
  }
  return args;
}

function decodeParam(kind: ParamKind, value: unknown): unknown {
  switch (kind) {
    case 'string':
      if (typeof value !== 'string') throw new Error('unmarshal');
      return value;
    case 'strings':
      if (!Array.isArray(value)) throw new Error('unmarshal');
      return value.map((v: unknown) => {
        if (v === null) return '';
        if (typeof v !== 'string') throw new Error('unmarshal');
        return v;
      });
    case 'nodeIDs':
      if (!Array.isArray(value)) throw new Error('unmarshal');
      return value.map((v: unknown) => {
        // A null element is the empty NodeID, which is never a peer.
        if (v === null) return '';
        if (typeof v !== 'string') throw new Error('unmarshal');
        nodeIdFromString(v);
        return v;
      });
    case 'level': {
      if (typeof value !== 'string') throw new Error('unmarshal');
      const level = value.toUpperCase();
      if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`unknown log level: ${value}`);
      return level;
    }
    case 'id':
      if (typeof value !== 'string') throw new Error('unmarshal');
      idFromString(value);
      return value;
  }
}

/** JSON.parse with Go's `json.Decoder` behaviour for trailing data and its error wording for the common cases. */
function parseGoJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'EOF' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The decoder reads one value and leaves the rest of the stream alone.
    const trailing = /non-whitespace character after JSON at position (\d+)/.exec(message);
    if (trailing) {
      try {
        return { ok: true, value: JSON.parse(text.slice(0, Number(trailing[1]))) as unknown };
      } catch {
        // fall through to the generic message
      }
    }
    const position = /position (\d+)/.exec(message);
    const at = position ? Number(position[1]) : undefined;
    if (/end of JSON input|Unterminated string/i.test(message) || (at !== undefined && at >= text.trimEnd().length)) {
      return { ok: false, message: 'unexpected EOF' };
    }
    const token = /Unexpected token '?(.)/.exec(message)?.[1];
    const ch = token ?? (at !== undefined ? text[at] : undefined) ?? text.trimStart()[0] ?? '';
    return { ok: false, message: `invalid character ${goQuoteRune(ch)} looking for beginning of value` };
  }
}


function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
