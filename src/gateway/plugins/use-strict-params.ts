import { GraphQLError } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';

/** Parameters a request gives at most once: a repeated one is ambiguous (which query runs?), so it is refused. */
const SINGLE_PARAMS = ['query', 'operationName', 'variables', 'extensions', 'documentId'] as const;
/** Parameters whose value is a JSON object (or `null`), URL-encoded. */
const JSON_PARAMS = ['variables', 'extensions'] as const;
/** The parameters of GraphQL over HTTP, which a misspelt one is compared with. */
const KNOWN_PARAMS = ['query', 'variables', 'operationName', 'extensions'] as const;
/** Every parameter a request may carry (trusted documents add `documentId`, the gateway's `extraParamNames`). */
const ACCEPTED_PARAMS: ReadonlySet<string> = new Set([...KNOWN_PARAMS, 'documentId']);

/** Options of {@link useStrictParams}. */
export interface StrictParamsOptions {
  /** Whether GraphiQL is served at the endpoint, so a request without a query may point a person to it. Default true. */
  graphiql?: boolean;
}

/**
 * The GraphQL parameters of a GET's query string or of an `application/x-www-form-urlencoded` body,
 * read strictly: a parameter given twice, or `variables`/`extensions` that are not JSON or not an
 * object, is a 400 BAD_REQUEST naming the parameter. Yoga's own reader calls `JSON.parse` unguarded,
 * so malformed JSON there answered 500 "Unexpected error." with a stack trace in the log, and it
 * silently took the first of two `query` parameters. Empty values count as absent, as in yoga.
 */
export function readUrlParams(params: URLSearchParams): GraphQLParams {
  for (const name of SINGLE_PARAMS) {
    const count = params.getAll(name).length;
    if (count > 1) throw badParam(`The "${name}" parameter is given ${count} times: give it once.`, name);
  }
  // Other names are left alone (a cache buster, say), but a misspelt GraphQL parameter would be dropped unseen.
  for (const name of new Set(params.keys())) {
    const meant = ACCEPTED_PARAMS.has(name) ? undefined : nearMiss(name);
    if (meant) throw unknownParam(name, meant);
  }
  const read: GraphQLParams = {};
  const query = params.get('query');
  if (query) read.query = query;
  const operationName = params.get('operationName');
  if (operationName) read.operationName = operationName;
  for (const name of JSON_PARAMS) {
    const text = params.get(name);
    if (!text) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw badParam(`The "${name}" parameter is not JSON: send a URL-encoded JSON object.`, name);
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw badParam(`The "${name}" parameter must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}.`, name);
    }
    // `null` is no value, as in a JSON body.
    if (value !== null) read[name] = value as Record<string, unknown>;
  }
  return read;
}

/**
 * The known parameter `name` is a near miss of, if any: the same but for case, or within an edit
 * distance of 40% of the known name's length (`Query`, `querry`, `varibles`, `operation`).
 */
export function nearMiss(name: string): (typeof KNOWN_PARAMS)[number] | undefined {
  const lower = name.toLowerCase();
  let best: { param: (typeof KNOWN_PARAMS)[number]; distance: number } | undefined;
  for (const param of KNOWN_PARAMS) {
    const distance = editDistance(lower, param.toLowerCase());
    if (distance <= Math.floor(param.length * 0.4) && (!best || distance < best.distance)) best = { param, distance };
  }
  return best?.param;
}

/** Edits (insertions, deletions, substitutions, adjacent swaps) from `a` to `b`; names are short, and longer texts are no near miss. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8 || a.length > 64) return Infinity;
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number) => (rows[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = value;
    }
  }
  return at(a.length, b.length);
}

function unknownParam(name: string, meant: string | undefined): GraphQLError {
  const shown = JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
  const advice = meant ? `did you mean "${meant}"? Parameter names are case-sensitive` : 'a request takes query, variables, operationName and extensions';
  return badParam(`Unknown parameter ${shown}: ${advice}.`, name.slice(0, 64));
}

/** What a request without a query is told: how to send one, and where GraphiQL is when it is served. */
function missingQuery(method: string, graphiql: boolean): GraphQLError {
  const send =
    method === 'GET'
      ? 'This GET request has no query: add one as `?query=` (URL-encoded, e.g. `?query=%7B__typename%7D`), or POST JSON `{"query": "{ __typename }"}` with `content-type: application/json`.'
      : 'This request has no query: POST JSON `{"query": "{ __typename }"}` (with `variables` and `operationName` when needed) and `content-type: application/json`.';
  const browse = graphiql ? ' To write and run queries by hand, open this URL in a browser: it serves GraphiQL.' : '';
  return badParam(`${send}${browse}`, 'query');
}

/**
 * A body's unknown parameters get a "did you mean" when they are a near miss of a known one (yoga's
 * own refusal names the parameter only), and a request without any query says how to send one
 * (yoga's says "Must provide query string."). Persisted documents have taken the place of their ids
 * by now (`usePersistedDocuments` runs first); an id they left alone is for yoga to answer.
 */
function checkParams(params: unknown, method: string, graphiql: boolean): void {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return;
  const given = params as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (given[name] == null || ACCEPTED_PARAMS.has(name)) continue;
    throw unknownParam(name, nearMiss(name));
  }
  const extensions = given['extensions'];
  const persisted = given['documentId'] != null || (typeof extensions === 'object' && extensions !== null && 'persistedQuery' in extensions);
  if (given['query'] == null && !persisted) throw missingQuery(method, graphiql);
}

/** A refusal yoga answers as is: `extensions.http` sets the status and is left out of the body. */
function badParam(message: string, parameter: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_REQUEST, parameter, http: { status: 400 } } });
}

/** `application/x-www-form-urlencoded`, with parameters or not (the first of a list, as yoga matches it). */
function isFormRequest(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(',')[0]?.trim().toLowerCase();
  return request.method === 'POST' && (type === 'application/x-www-form-urlencoded' || type?.startsWith('application/x-www-form-urlencoded;') === true);
}

/**
 * GET and form requests' parameters read by {@link readUrlParams} instead of yoga's reader. Registered
 * before `useRequestLimits`, which wraps whatever parser is set so a form body is still counted.
 * Every request's parameters are then checked by name (see {@link checkParams}) before yoga's own check.
 */
export function useStrictParams(options: StrictParamsOptions = {}): Plugin {
  const graphiql = options.graphiql !== false;
  return {
    onParams({ params, request }) {
      checkParams(params, request.method, graphiql);
    },
    onRequestParse({ request, setRequestParser }) {
      if (request.method === 'GET') {
        setRequestParser((req) => {
          const at = req.url.indexOf('?');
          return readUrlParams(new URLSearchParams(at < 0 ? '' : req.url.slice(at + 1)));
        });
      } else if (isFormRequest(request)) {
        setRequestParser(async (req) => readUrlParams(new URLSearchParams(await req.text())));
      }
    },
  };
}
