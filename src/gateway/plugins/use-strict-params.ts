import { GraphQLError } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';

/** Parameters a request gives at most once: a repeated one is ambiguous (which query runs?), so it is refused. */
const SINGLE_PARAMS = ['query', 'operationName', 'variables', 'extensions', 'documentId'] as const;
/** Parameters whose value is a JSON object (or `null`), URL-encoded. */
const JSON_PARAMS = ['variables', 'extensions'] as const;

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
 */
export function useStrictParams(): Plugin {
  return {
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
