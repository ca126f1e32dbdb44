import { operationOf } from './document-facts.ts';
import type { FetchAPI, Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';
import { edgeError, edgeErrorResponse } from './edge-response.ts';

/** Options of {@link useContentTypePolicy}. */
export interface ContentTypePolicyOptions {
  /**
   * `ALLOW_FORM_POSTS`: also execute `application/x-www-form-urlencoded` and `multipart/form-data`
   * POSTs, as queries only: a mutation sent that way is still refused (415). Default false.
   */
  allowFormPosts?: boolean;
}

/**
 * What a POST may carry to execute (GraphQL over HTTP's JSON bodies). None of them is a CORS-safelisted
 * content type, so a browser sends them cross-site only after a preflight the CORS policy answers.
 */
const JSON_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/graphql+json', 'application/graphql-response+json']);
/** What an HTML form can send cross-site without a preflight (besides `text/plain`, which yoga never parses). */
const FORM_TYPES: ReadonlySet<string> = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** The media type of a request's body, lowercased, without parameters (`''` when it names none). */
export function mediaTypeOf(request: Request): string {
  // A list is not a valid Content-Type, but yoga reads its first entry, so this does too.
  const first = (request.headers.get('content-type') ?? '').split(',', 1)[0] ?? '';
  return (first.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/**
 * The refusal of a POST whose body may not execute (415 UNSUPPORTED_MEDIA_TYPE), or undefined. One rule
 * for every transport that takes a POST: yoga's (through {@link useContentTypePolicy}) and graphql-sse's
 * single-connection mode.
 */
export function contentTypeRefusal(request: Request, fetchAPI: FetchAPI, options: ContentTypePolicyOptions = {}): Response | undefined {
  if (request.method !== 'POST') return undefined;
  const type = mediaTypeOf(request);
  if (JSON_TYPES.has(type) || (options.allowFormPosts === true && FORM_TYPES.has(type))) return undefined;
  const shown = (request.headers.get('content-type') ?? 'none').slice(0, 100);
  return edgeErrorResponse(
    fetchAPI,
    415,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    `Unsupported content type "${shown}": send application/json (or use GET for queries).`,
  );
}

/**
 * Only JSON executes: a POST is refused with 415 UNSUPPORTED_MEDIA_TYPE before its body is read unless
 * its content type is `application/json` (or `application/graphql+json`, `application/graphql-response+json`,
 * read the same way). Form-encoded, multipart and `text/plain` bodies are what a cross-site HTML form
 * (or `fetch` in `no-cors` mode) sends without a CORS preflight, so refusing them means no page on
 * another origin can start a mutation through a visitor's browser; GET runs queries only (yoga refuses a
 * mutation over GET with 405). With `allowFormPosts`, form bodies are parsed (by yoga) but a mutation
 * among them is refused before it executes: a simple request never mutates.
 */
export function useContentTypePolicy(options: ContentTypePolicyOptions = {}): Plugin {
  /** Requests whose operations come from a form body (with `allowFormPosts`): they may only read. */
  const formPosts = new WeakSet<Request>();
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI, endResponse }) {
      const refusal = contentTypeRefusal(request, fetchAPI, options);
      if (refusal) return endResponse(refusal);
      if (request.method !== 'POST') return;
      const type = mediaTypeOf(request);
      if (FORM_TYPES.has(type)) formPosts.add(request);
      // Yoga parses application/json and application/graphql+json as written; the other JSON spellings here.
      else if (!requestParser) setRequestParser((req) => parseJsonBody(req));
    },
    onExecute({ args, setResultAndStopExecution }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      if (!request || !formPosts.has(request)) return;
      if (operationOf(args.document, args.operationName)?.operation !== 'mutation') return;
      setResultAndStopExecution({
        errors: [edgeError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'A mutation needs a JSON request (content-type: application/json); a form post may only run queries.')],
      });
    },
  };
}

/** A JSON body as GraphQL parameters, refused as yoga refuses a malformed one (400). */
async function parseJsonBody(request: Request): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw edgeError(400, ErrorCode.BAD_REQUEST, 'POST body sent invalid JSON.');
  }
  if (typeof body !== 'object' || body === null) throw edgeError(400, ErrorCode.BAD_REQUEST, 'POST body is expected to be object but received ' + (body === null ? 'null' : typeof body));
  return body as Record<string, unknown>;
}
