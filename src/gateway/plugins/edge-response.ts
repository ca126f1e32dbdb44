import { GraphQLError } from 'graphql';
import type { FetchAPI } from 'graphql-yoga';

/** A stable `extensions.code`: one of `ErrorCode` (src/errors/graphql.ts) or of the limit codes next to their plugin. */
type Code = string;

/**
 * The GraphQL-shaped body of a response the HTTP edge produces itself (413, 415, 503...), so a client
 * reads every refusal the way it reads any GraphQL error: `errors[0].extensions.code`.
 */
export function edgeErrorBody(code: Code, message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ errors: [{ message, extensions: { code, ...extra } }] });
}

/** A complete edge response: status, JSON body with a code, and any extra headers (`retry-after`, `connection`). */
export function edgeErrorResponse(
  fetchAPI: FetchAPI,
  status: number,
  code: Code,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new fetchAPI.Response(edgeErrorBody(code, message), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * The same refusal as a GraphQL error, for the places yoga turns errors into responses
 * (request parsers, `onParams`): `extensions.http` sets the status and headers and is
 * stripped from the body by yoga.
 */
export function edgeError(status: number, code: Code, message: string, headers: Record<string, string> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status, headers } } });
}
