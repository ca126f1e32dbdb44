import { GraphQLError } from 'graphql';
import type { FetchAPI, Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';
import { edgeError, edgeErrorResponse } from './edge-response.ts';

/** Options of {@link useRequestLimits}. Every limit answers a coded error before any parse or execution. */
export interface RequestLimitsOptions {
  /**
   * Largest request body in bytes (`MAX_BODY_BYTES`): a larger `Content-Length` is refused before
   * anything is read, and a chunked body is counted while it streams, so no more than this is ever
   * buffered. 413 PAYLOAD_TOO_LARGE. Default 1 MiB.
   */
  maxBodyBytes?: number;
  /** Longest request URL (path and query string, so GET documents) in characters. 414 URI_TOO_LONG. Default 16 KiB. */
  maxUrlLength?: number;
  /**
   * Deepest nesting of `{`, `[` and `(` in a document: selection sets, list and object literals,
   * argument lists. graphql-js parses recursively and overflows the stack at a few thousand levels,
   * far below what a depth rule sees (it runs after parsing), so this is checked by a linear scan
   * before `parse`. 400 QUERY_TOO_DEEP. Default 64 (the field depth limit is 15).
   */
  maxDocumentNesting?: number;
  /** Longest single token of a document (a string literal, name or number), in characters. 400 DOCUMENT_TOO_LARGE. Default 65536. */
  maxTokenLength?: number;
  /** Most definitions (operations and fragments) in one document. 400 DOCUMENT_TOO_LARGE. Default 100. */
  maxDefinitions?: number;
  /**
   * Deepest nesting of arrays and objects in `variables` or `extensions`. JSON.parse is iterative, but
   * JSON.stringify and graphql-js coercion recurse. 400 VARIABLES_TOO_LARGE. Default 32.
   */
  maxVariablesDepth?: number;
  /** Most values (scalars, elements, object fields) in `variables` or `extensions`. 400 VARIABLES_TOO_LARGE. Default 10000. */
  maxVariablesValues?: number;
}

export const REQUEST_LIMITS_DEFAULTS = {
  maxBodyBytes: 1024 * 1024,
  maxUrlLength: 16 * 1024,
  maxDocumentNesting: 64,
  maxTokenLength: 65_536,
  maxDefinitions: 100,
  maxVariablesDepth: 32,
  maxVariablesValues: 10_000,
} as const satisfies Required<RequestLimitsOptions>;

type Limits = Required<RequestLimitsOptions>;

/** Codes of the edge's own bare responses (yoga answers these statuses with an empty body). */
const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.BAD_REQUEST,
  406: ErrorCode.NOT_ACCEPTABLE,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  414: ErrorCode.URI_TOO_LONG,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
};

const CONTENT_LENGTH = /^\d+$/;

/**
 * The weight of a request, bounded before any work is done for it:
 * - URL length (every route) and body size (Content-Length up front, then counted while streaming);
 * - the document's shape (nesting, token length, definitions) by a linear scan before `parse`;
 * - the variables' shape (depth, number of values) by an iterative walk before coercion;
 * - unsupported content types and every bare error status yoga produces answer a GraphQL-shaped body
 *   with a code, like every other refusal.
 */
export function useRequestLimits(options: RequestLimitsOptions = {}): Plugin {
  const limits: Limits = { ...REQUEST_LIMITS_DEFAULTS, ...options };
  return {
    onRequest({ request, fetchAPI, endResponse }) {
      if (request.url.length > limits.maxUrlLength) {
        endResponse(edgeErrorResponse(fetchAPI, 414, ErrorCode.URI_TOO_LONG, `The URL is longer than ${limits.maxUrlLength} characters: send the operation in a POST body.`));
      }
    },
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI, endResponse, serverContext }) {
      const declared = request.headers.get('content-length');
      if (declared !== null) {
        if (!CONTENT_LENGTH.test(declared)) {
          endResponse(edgeErrorResponse(fetchAPI, 400, ErrorCode.BAD_REQUEST, 'The Content-Length header is not a byte count.', { connection: 'close' }));
          return;
        }
        if (Number(declared) > limits.maxBodyBytes) {
          endResponse(edgeErrorResponse(fetchAPI, 413, ErrorCode.PAYLOAD_TOO_LARGE, tooLargeMessage(limits.maxBodyBytes), { connection: 'close' }));
          return;
        }
      }
      // Other methods are answered 405 by yoga's own method check, after this hook.
      if (!requestParser && request.method === 'POST') {
        const type = request.headers.get('content-type') ?? 'none';
        endResponse(
          edgeErrorResponse(fetchAPI, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Unsupported content type "${type.slice(0, 100)}": send application/json (or use GET).`),
        );
        return;
      }
      // A declared length within the limit needs no counting when the body comes from node's HTTP parser,
      // which reads exactly that many bytes; a body handed in any other way (gateway.fetch) is counted.
      const fromSocket = declared !== null && typeof serverContext === 'object' && serverContext !== null && 'req' in serverContext;
      if (requestParser && request.body && !fromSocket) {
        const parse = requestParser;
        setRequestParser((req) => parse(limitBody(req, limits.maxBodyBytes, fetchAPI)));
      }
    },
    onParams({ params, setResult }) {
      const error = checkParams(params, limits);
      if (error) setResult({ errors: [error] });
    },
    onResponse({ response, setResponse, fetchAPI }) {
      if (response.status < 400 || response.body !== null) return;
      const code = STATUS_CODES[response.status] ?? (response.status >= 500 ? 'INTERNAL_SERVER_ERROR' : ErrorCode.BAD_REQUEST);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      setResponse(edgeErrorResponse(fetchAPI, response.status, code, response.statusText || `HTTP ${response.status}`, headers));
    },
  };
}

function tooLargeMessage(limit: number): string {
  return `The request body is larger than ${limit} bytes.`;
}

/**
 * The request with its body counted while it streams: past the limit the stream fails with a 413
 * GraphQL error, which yoga's parsers pass through as the response. The rest of the body is never
 * read, and `connection: close` ends the socket so it is not drained either.
 */
function limitBody(request: Request, limit: number, fetchAPI: FetchAPI): Request {
  const body = request.body;
  if (!body) return request;
  // A native stream needs the native TransformStream (yoga does the same, graphql-yoga#4583).
  const Transform = body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  let read = 0;
  const counted = body.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > limit) controller.error(edgeError(413, ErrorCode.PAYLOAD_TOO_LARGE, tooLargeMessage(limit), { connection: 'close' }));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: counted,
    duplex: 'half',
  } as RequestInit);
}

interface Params {
  query?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

export function checkParams(params: Params, limits: Limits): GraphQLError | undefined {
  if (typeof params.query === 'string') {
    const error = scanDocument(params.query, limits);
    if (error) return error;
  }
  for (const [name, value] of [['variables', params.variables], ['extensions', params.extensions]] as const) {
    const problem = measureJson(value, limits.maxVariablesDepth, limits.maxVariablesValues);
    if (problem === 'depth') return edgeError(400, ErrorCode.VARIABLES_TOO_LARGE, `The ${name} are nested deeper than ${limits.maxVariablesDepth} levels.`);
    if (problem === 'values') return edgeError(400, ErrorCode.VARIABLES_TOO_LARGE, `The ${name} hold more than ${limits.maxVariablesValues} values.`);
  }
  return undefined;
}

const enum Char {
  Tab = 0x09, NewLine = 0x0a, Return = 0x0d, Space = 0x20, Quote = 0x22, Hash = 0x23, Comma = 0x2c,
  Backslash = 0x5c, OpenParen = 0x28, CloseParen = 0x29, OpenBracket = 0x5b, CloseBracket = 0x5d,
  OpenBrace = 0x7b, CloseBrace = 0x7d, Bom = 0xfeff,
}

/** Characters that end a name or number token (GraphQL punctuators, ignored tokens, quotes, comments). */
function endsToken(c: number): boolean {
  return (
    c === Char.Space || c === Char.Tab || c === Char.NewLine || c === Char.Return || c === Char.Comma || c === Char.Bom ||
    c === Char.Quote || c === Char.Hash || c === Char.OpenParen || c === Char.CloseParen || c === Char.OpenBracket ||
    c === Char.CloseBracket || c === Char.OpenBrace || c === Char.CloseBrace ||
    c === 0x21 /* ! */ || c === 0x24 /* $ */ || c === 0x26 /* & */ || c === 0x3a /* : */ || c === 0x3d /* = */ ||
    c === 0x40 /* @ */ || c === 0x7c /* | */
  );
}

/**
 * One pass over a document, the way the GraphQL lexer sees it (comments, strings and block strings
 * skipped), measuring what would make `parse` recurse too deep or work too long: bracket nesting,
 * token length and top-level definitions (each has exactly one selection set at depth 0). Linear,
 * allocation-free, stops at the first limit crossed. A malformed document passes through to `parse`,
 * which reports it; the scan only has to agree with the lexer where the brackets are.
 */
export function scanDocument(source: string, limits: Pick<Limits, 'maxDocumentNesting' | 'maxTokenLength' | 'maxDefinitions'>): GraphQLError | undefined {
  const n = source.length;
  let depth = 0;
  let definitions = 0;
  let i = 0;
  const tooLong = () => edgeError(400, ErrorCode.DOCUMENT_TOO_LARGE, `The document has a token longer than ${limits.maxTokenLength} characters.`);
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === Char.Hash) {
      while (i < n && source.charCodeAt(i) !== Char.NewLine && source.charCodeAt(i) !== Char.Return) i++;
    } else if (c === Char.Quote) {
      const start = i;
      if (source.startsWith('"""', i)) {
        i += 3;
        while (i < n && !source.startsWith('"""', i)) i += source.startsWith('\\"""', i) ? 4 : 1;
        i += 3;
      } else {
        i++;
        while (i < n) {
          const s = source.charCodeAt(i);
          if (s === Char.Backslash) i += 2;
          else if (s === Char.Quote) { i++; break; }
          else if (s === Char.NewLine || s === Char.Return) break;
          else i++;
        }
      }
      if (i - start > limits.maxTokenLength) return tooLong();
    } else if (c === Char.OpenBrace || c === Char.OpenBracket || c === Char.OpenParen) {
      if (depth === 0 && c === Char.OpenBrace && ++definitions > limits.maxDefinitions) {
        return edgeError(400, ErrorCode.DOCUMENT_TOO_LARGE, `The document has more than ${limits.maxDefinitions} operations and fragments.`);
      }
      if (++depth > limits.maxDocumentNesting) {
        return edgeError(400, ErrorCode.QUERY_TOO_DEEP, `The document nests brackets deeper than ${limits.maxDocumentNesting} levels.`);
      }
      i++;
    } else if (c === Char.CloseBrace || c === Char.CloseBracket || c === Char.CloseParen) {
      if (depth > 0) depth--;
      i++;
    } else if (endsToken(c)) {
      i++;
    } else {
      const start = i;
      while (i < n && !endsToken(source.charCodeAt(i))) i++;
      if (i - start > limits.maxTokenLength) return tooLong();
    }
  }
  return undefined;
}

/**
 * Depth and size of a parsed JSON value, walked with an explicit stack (never recursion, so a
 * 100,000-deep array is measured, not overflowed). Stops at the first limit crossed.
 */
export function measureJson(value: unknown, maxDepth: number, maxValues: number): 'depth' | 'values' | undefined {
  if (value === undefined || value === null) return undefined;
  const stack: [unknown, number][] = [[value, 1]];
  let values = 1;
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth > maxDepth) return 'depth';
    const children: unknown[] = Array.isArray(item) ? item : Object.values(item);
    // Counted before they are pushed, so the stack never holds more than the limit.
    values += children.length;
    if (values > maxValues) return 'values';
    for (const child of children) stack.push([child, depth + 1]);
  }
  return undefined;
}
