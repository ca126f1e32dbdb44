import type { CallOptions, DataApi } from './client-types.ts';
import { UpstreamError } from './errors.ts';
import { createHttpUpstream, type HttpUpstream } from './http.ts';
import { isRequestId, REQUEST_ID_HEADER } from '../lib/request-id.ts';
import { isApiKey } from '../lib/secrets.ts';
import { shortDigest } from '../lib/text.ts';
import { computeUnitsOf } from '../lib/compute-units.ts';
import type { Billing } from './compute-unit-ceiling.ts';
import { ENDPOINT_NAMES, ENDPOINTS, operationOf, shapeOf, type EndpointName, type EndpointRow } from './endpoints.ts';
import { readShape, type Leaf, type Violation } from '../shapes/index.ts';
import { createRedactor, excerpt } from '../lib/redact.ts';
import { isCb58Id, isChainId, PRIMARY_CHAIN_ALIASES } from '../lib/ids.ts';

/** Options of {@link createDataApiClient}. */
export interface DataApiClientOptions {
  /** Base URL of the Data API without `/v1` (`DATA_API_URL`); it may carry a path prefix. */
  baseUrl: string;
  /** The server's API key (`DATA_API_KEY`), sent on every call unless the call brings its own. */
  apiKey?: string;
  /** Header carrying the key (`DATA_API_KEY_HEADER`). Default `x-service-api-key`, as in the seed. */
  apiKeyHeader?: string;
  /** The HTTP policy (pools, timeouts, retries). Default: a new {@link createHttpUpstream}() owned by the client. */
  http?: HttpUpstream;
  /** Per-call deadline, ms, when the call gives none. Default: the HTTP policy's (15 s). */
  timeoutMs?: number;
}

/** The Data API client plus `close()`, which releases the pools when the client created its own. */
export interface DataApiClient extends DataApi {
  close(): Promise<void>;
}

type QueryValue = string | number | boolean | readonly string[] | undefined;
type Query = Record<string, QueryValue>;

export const DEFAULT_API_KEY_HEADER = 'x-service-api-key';


/**
 * Bounds of what the client puts in a URL. Callers check their arguments earlier
 * and more precisely; these are the last line, so no input can turn a path template
 * into another route (`..`, `/`, `%2e%2e`) or smuggle a query parameter.
 */
export const URL_LIMITS = {
  /** Longest path parameter, characters (the longest real one, a P-chain address, is about 50). */
  maxPathParam: 128,
  /** Longest query parameter value, characters (a comma list of 100 node ids is about 4,000). */
  maxQueryValue: 8192,
} as const;

// Path parameters are ids, addresses, hashes, names: never a dot segment, a separator, `%`, whitespace or a control character.
const PATH_PARAM = /^[A-Za-z0-9._~:@!$'()*+,;=-]+$/;
// Query values are URL-encoded by URLSearchParams; only control characters are refused.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The id parameters (path or query), each with the grammar of the ids the Data API issues.
 * A chain, subnet or blockchain id is often read from one answer and sent in the next call (a
 * chain listing's `chainId`, a validation's `subnetId`): one that is not an id of its kind
 * ("string", "a/b") is not sent, so it cannot name another resource or route. (Node ids are
 * checked where they are batched: src/loaders/validators.ts.)
 */
const ID_PARAMS: ReadonlyMap<string, { what: string; test: (value: string) => boolean }> = new Map([
  ['chainId', { what: 'an EVM chain id or a blockchain id', test: isChainId }],
  ['subnetId', { what: 'a subnet id (cb58)', test: isCb58Id }],
  ['blockchainId', { what: 'a blockchain id (cb58) or a primary chain alias', test: (v: string) => PRIMARY_CHAIN_ALIASES.has(v) || isCb58Id(v) }],
]);

/** Throws an `input` UpstreamError (nothing sent; see {@link refused}) unless `value` is a safe path segment (and an id of its kind). */
function checkPathParam(operation: string, name: string, value: string): void {
  if (value.length === 0 || value.length > URL_LIMITS.maxPathParam || value === '.' || value === '..' || !PATH_PARAM.test(value)) {
    throw refused(operation, name, `path parameter "${name}" is empty, too long (over ${URL_LIMITS.maxPathParam}), a dot segment or holds a separator`);
  }
  checkIdParam(operation, name, value);
}

function checkQueryValue(operation: string, name: string, value: string): void {
  if (value.length > URL_LIMITS.maxQueryValue || CONTROL.test(value)) {
    throw refused(operation, name, `query parameter "${name}" is longer than ${URL_LIMITS.maxQueryValue} characters or holds a control character`);
  }
  checkIdParam(operation, name, value);
}

function checkIdParam(operation: string, name: string, value: string): void {
  const grammar = ID_PARAMS.get(name);
  if (grammar && !grammar.test(value)) throw refused(operation, name, `parameter "${name}" is not ${grammar.what}`);
}

/**
 * An answer that does not match its shape: for the whole call (`violation.whole`), or
 * thrown by the one field that broke when it is read.
 */
function protocolError(operation: string, status: number, violation: Violation, key: string | undefined, secret = false): UpstreamError {
  const what = violation.whole ? 'the answer is unusable' : 'a field of the answer is unusable';
  if (secret) {
    // An answer carrying a secret (`EndpointRow.secret`): the reader's reason may quote the value it
    // refused ("received 12345678"), and a path segment may be a key the upstream chose, so the error
    // names the top-level field only, from the row's own shape, and says nothing of the value.
    const field = secretFieldOf(violation.path);
    return new UpstreamError(`data-api ${operation}: HTTP ${status}: ${what}: ${field}: the value is not shown (it may be a secret)`, {
      upstream: 'data-api', kind: 'protocol', operation, status, ...(violation.whole ? {} : { field }),
    });
  }
  // The path holds the upstream's own keys and the reason the value it sent: both are its text, which may echo the key.
  const redactor = createRedactor([key]);
  const path = excerpt(violation.path, redactor) ?? '(answer)';
  return new UpstreamError(`data-api ${operation}: HTTP ${status}: ${what}: ${path}: ${excerpt(violation.reason, redactor) ?? ''}`, {
    upstream: 'data-api', kind: 'protocol', operation, status, ...(violation.whole ? {} : { field: path }),
  });
}

/** The first segment of a violation's path when it is a plain field name (`secret`), else `(answer)`. */
function secretFieldOf(path: string): string {
  const first = /^[A-Za-z_][A-Za-z0-9_]{0,63}/.exec(path)?.[0];
  return first ?? '(answer)';
}

/**
 * Writes the query in the spec's encoding: an array parameter of the spec (`endpoint.repeated`)
 * once per value, any other list comma-joined into one value, finite numbers only. An empty list
 * is left out, as an absent filter. Returns `?a=1&b=2`, or '' without parameters, encoded as
 * `URLSearchParams` encodes them.
 */
function queryString(operation: string, endpoint: EndpointRow, query: Query): string {
  let search = '';
  const append = (name: string, text: string): void => {
    checkQueryValue(operation, name, text);
    search += `${search === '' ? '?' : '&'}${formEncode(name)}=${formEncode(text)}`;
  };
  for (const name in query) {
    const value = query[name];
    if (value === undefined) continue;
    if (isList(value)) {
      if (value.length === 0) continue;
      if (endpoint.repeated?.includes(name)) for (const text of value) append(name, text);
      else append(name, value.join(','));
      continue;
    }
    // NaN or Infinity would go as words no server reads as a number.
    if (typeof value === 'number' && !Number.isFinite(value)) throw refused(operation, name, `query parameter "${name}" is not a finite number`);
    append(name, String(value));
  }
  return search;
}

// What application/x-www-form-urlencoded leaves as it is (the URL standard's serializer, URLSearchParams').
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;
// What encodeURIComponent leaves as it is and the form serializer does not, and the space it writes as %20.
const FORM_UNSAFE = /[!'()~]|%20/g;
const FORM_ESCAPES: Readonly<Record<string, string>> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E', '%20': '+' };

/** One name or value as `URLSearchParams` serializes it (lone surrogates as U+FFFD, space as `+`), without building one. */
function formEncode(text: string): string {
  if (FORM_SAFE.test(text)) return text;
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate: URLSearchParams sends it as U+FFFD, encodeURIComponent refuses it.
    encoded = encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));
  }
  return encoded.replace(FORM_UNSAFE, (unsafe) => FORM_ESCAPES[unsafe] as string);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function isList(value: QueryValue): value is readonly string[] {
  return Array.isArray(value);
}

/** The answer field a parameter's value is read from, where its name differs (the other parameters are named after theirs). */
const UPSTREAM_FIELD_OF: ReadonlyMap<string, string> = new Map([['pageToken', 'nextPageToken'], ['nodeIds', 'nodeId']]);

/**
 * A value the client will not put in a URL: nothing is sent. Every caller argument is parsed
 * against its own, stricter grammar before execution (useInputValidation; every argument is
 * covered, test/schema/args-coverage.test.ts), so a value refused here was read from an earlier
 * upstream answer (a chain listing's `chainId`, a transaction's address, a `nextPageToken`). The
 * error names that field (`field`), which makes it the answer's fault, UPSTREAM_PROTOCOL_ERROR,
 * never the caller's BAD_USER_INPUT. The value itself is never put in the message.
 */
function refused(operation: string, parameter: string, why: string): UpstreamError {
  return new UpstreamError(`data-api ${operation}: not sent: ${why}`, {
    upstream: 'data-api', kind: 'input', operation, parameter, field: UPSTREAM_FIELD_OF.get(parameter) ?? parameter,
  });
}

export function createDataApiClient(options: DataApiClientOptions): DataApiClient {
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new Error(`DATA_API_URL must be an http(s) URL, got protocol ${base.protocol}`);
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  const origin = base.origin;
  const keyHeader = (options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
  const ownsHttp = options.http === undefined;
  const http = options.http ?? createHttpUpstream();

  interface RequestArgs {
    /** Values of the template's `{name}` segments. */
    path?: Record<string, string>;
    query?: Query;
    /** The JSON body (POSTs). */
    json?: unknown;
    /** The field the answer is useless without (a page's item list): a violation there fails the call. */
    container?: string;
    /** The endpoint's method name (`listSubnets`), by which `CallOptions.omit` names the parts left out. */
    name?: EndpointName;
  }

  /**
   * What a row's calls share, made once per row: its operation name, its path template split at its
   * parameters, and its headers with the server's key (a caller's own key makes its own).
   */
  interface RowPlan {
    operation: string;
    /** The template's literal text and parameter names, alternating (text first): `/v1/chains/`, `chainId`, ``. */
    parts: readonly string[];
    /** The server key's headers, without a body and with one (`content-type`). */
    serverHeaders: readonly [Record<string, string>, Record<string, string>];
    serverBilling: Billing;
  }
  const plans = new Map<EndpointRow, RowPlan>();
  const planOf = (endpoint: EndpointRow): RowPlan => {
    let plan = plans.get(endpoint);
    if (!plan) {
      plan = {
        operation: operationOf(endpoint),
        parts: (basePath + endpoint.template).split(/\{(\w+)\}/),
        serverHeaders: [headersFor(options.apiKey, false), headersFor(options.apiKey, true)],
        serverBilling: { key: 'server', computeUnits: computeUnitsOf(endpoint.weight) },
      };
      plans.set(endpoint, plan);
    }
    return plan;
  };
  /** The whole headers of a call sent with `key`, with a JSON body or without (the call adds its request id). */
  function headersFor(key: string | undefined, json: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key) headers[keyHeader] = key;
    if (json) headers['content-type'] = 'application/json';
    return headers;
  }
  // The last caller key's billing name: a request's calls all carry the same key, and its digest is a SHA-256.
  let lastCaller: { key: string; billing: string } | undefined;
  const callerBilling = (apiKey: string): string => {
    if (lastCaller?.key !== apiKey) lastCaller = { key: apiKey, billing: `caller:${shortDigest(apiKey, 22)}` };
    return lastCaller.billing;
  };

  /** The encoded path of a row's call: each `{name}` segment checked and URL-encoded. */
  function pathOf(plan: RowPlan, pathParams: Record<string, string>): string {
    const parts = plan.parts;
    let path = parts[0] as string;
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i] as string;
      const value = pathParams[name];
      if (value === undefined) throw new Error(`missing path parameter ${name} for ${plan.operation}`);
      checkPathParam(plan.operation, name, value);
      path += encodeURIComponent(value) + (parts[i + 1] as string);
    }
    return path;
  }

  /** One call: the request, then the answer read through its shape (see `src/shapes/read.ts`). */
  async function request<T>(endpoint: EndpointRow, shape: Leaf<T>, args: RequestArgs, opts: CallOptions | undefined): Promise<T> {
    // Straight from the upstream: nothing may reuse this answer (the cache layer reports its own expiry).
    opts?.onExpiry?.(0);
    const plan = planOf(endpoint);
    const operation = plan.operation;
    const path = pathOf(plan, args.path ?? {}) + (args.query ? queryString(operation, endpoint, args.query) : '');
    // A caller's key was parsed in the context already; checked again so no other path can send a bad one.
    // The caller's own key (no answer's field): the caller's mistake.
    const callerKey = opts?.apiKey;
    if (callerKey !== undefined && !isApiKey(callerKey)) {
      throw new UpstreamError(`data-api ${operation}: not sent: the caller's API key is not well-formed`, { upstream: 'data-api', kind: 'input', operation, parameter: keyHeader });
    }
    const key = callerKey ?? options.apiKey;
    // Billed upstream to the key it is sent with: the caller's own (by digest), else the server's (or, keyless, the gateway's address).
    const billing = callerKey !== undefined ? { key: callerBilling(callerKey), computeUnits: plan.serverBilling.computeUnits } : plan.serverBilling;
    const json = args.json !== undefined;
    const shared = callerKey !== undefined ? headersFor(callerKey, json) : plan.serverHeaders[json ? 1 : 0];
    const requestId = opts?.requestId;
    const headers = requestId !== undefined && isRequestId(requestId) ? { ...shared, [REQUEST_ID_HEADER]: requestId } : shared;

    const result = await http.request({
      upstream: 'data-api',
      operation,
      method: endpoint.method,
      origin,
      path,
      headers,
      completeHeaders: true,
      billing,
      ...(key ? { credentials: [key] } : {}),
      json: args.json,
      // Only GETs are retried: the POSTs, PATCHes and DELETEs start or change work, or are not known to be safe to repeat.
      idempotent: endpoint.method === 'GET',
      ...(endpoint.emptyAnswer ? { emptyAnswer: true } : {}),
      ...(endpoint.secret ? { secretAnswer: true } : {}),
      signal: opts?.signal,
      timeoutMs: opts?.timeoutMs ?? options.timeoutMs,
      observer: opts?.observer,
    });
    // An operation that answers without content (reindexNft's 201) has nothing to read.
    if (endpoint.emptyAnswer && result.body === undefined) return undefined as T;
    const omit = args.name === undefined ? undefined : opts?.omit?.(args.name);
    return readShape(shape, result.body, (violation) => protocolError(operation, result.status, violation, key, endpoint.secret === true), {
      containers: args.container === undefined ? [] : [args.container],
      exact: result.exactBody,
      ...(omit ? { omit } : {}),
    });
  }

  /** One call of a table row: each positional argument where the row puts it, `CallOptions` after them. */
  function call(name: EndpointName, row: EndpointRow, args: readonly unknown[]): Promise<unknown> {
    const path: Record<string, string> = { ...row.fixed };
    let query: Query | undefined;
    let json: unknown;
    row.args.forEach((place, i) => {
      const value = args[i];
      if (typeof place === 'object') path[place.path] = value as string;
      else if (place === 'query') query = { ...(value as Query | undefined) };
      else if (place === 'body') json = value;
      else {
        const { addresses, ...rest } = value as { addresses: readonly string[] } & Query;
        query = rest;
        json = { addresses: addresses.join(',') };
      }
    });
    const opts = args[row.args.length] as CallOptions | undefined;
    return request(row, shapeOf(row, path.blockchainId), { path, query, json, container: row.container, name }, opts);
  }

  const client: Record<string, unknown> = {};
  for (const name of ENDPOINT_NAMES) {
    const row: EndpointRow = ENDPOINTS[name];
    client[name] = (...args: unknown[]) => call(name, row, args);
  }
  return {
    ...(client as unknown as DataApi),
    close: async () => {
      if (ownsHttp) await http.close();
    },
  };
}
