/** The header that carries a request's id: read from callers, returned to them, sent upstream. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Longest request id accepted from a caller, characters. */
export const MAX_REQUEST_ID_LENGTH = 128;

/**
 * A request id a caller may choose: letters, digits and `. _ : -`. No space, comma (two headers
 * joined), quote, slash or control character, so an id can break neither a header nor a log line,
 * and every UUID, ULID, hex trace id and `service:counter` id fits.
 */
const REQUEST_ID = /^[A-Za-z0-9._:-]+$/;

/** True for a string that may be used (accepted, logged, sent upstream) as a request id. */
export function isRequestId(value: string): boolean {
  return value.length >= 1 && value.length <= MAX_REQUEST_ID_LENGTH && REQUEST_ID.test(value);
}

/**
 * The request-id header for an upstream call, or nothing. Checked again here (the gateway
 * checked it at the edge) so no other path can put a malformed id in an upstream header.
 */
export function requestIdHeader(requestId: string | undefined): Record<string, string> {
  return requestId !== undefined && isRequestId(requestId) ? { [REQUEST_ID_HEADER]: requestId } : {};
}
