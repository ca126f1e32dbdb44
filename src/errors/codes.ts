/**
 * Every `extensions.code` the gateway gives, in one registry. Clients branch on these, never on
 * messages.
 */
export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  QUERY_TOO_COSTLY: 'QUERY_TOO_COSTLY',
  ADMIN_DISABLED: 'ADMIN_DISABLED',
  FORBIDDEN: 'FORBIDDEN',
  NODE_NOT_CONFIGURED: 'NODE_NOT_CONFIGURED',
  /** A live-activity subscription on a gateway without `WEBHOOK_PUBLIC_URL` (the Data API has nowhere to deliver). */
  LIVE_ACTIVITY_NOT_CONFIGURED: 'LIVE_ACTIVITY_NOT_CONFIGURED',
  NODE_METHOD_UNAVAILABLE: 'NODE_METHOD_UNAVAILABLE',
  NODE_RPC_ERROR: 'NODE_RPC_ERROR',
  UPSTREAM_BAD_REQUEST: 'UPSTREAM_BAD_REQUEST',
  UPSTREAM_UNAUTHORIZED: 'UPSTREAM_UNAUTHORIZED',
  UPSTREAM_FORBIDDEN: 'UPSTREAM_FORBIDDEN',
  UPSTREAM_NOT_FOUND: 'UPSTREAM_NOT_FOUND',
  UPSTREAM_RATE_LIMITED: 'UPSTREAM_RATE_LIMITED',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  UPSTREAM_PROTOCOL_ERROR: 'UPSTREAM_PROTOCOL_ERROR',
  REQUEST_ABORTED: 'REQUEST_ABORTED',
  /** The caller's own API key header is malformed (checked before it is sent anywhere; HTTP 401). */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  // The HTTP edge (src/gateway/plugins/use-request-limits.ts, use-admission-control.ts, use-response-limit.ts,
  // use-introspection-limit.ts): what a request may weigh before any work is done for it.
  BAD_REQUEST: 'BAD_REQUEST',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  URI_TOO_LONG: 'URI_TOO_LONG',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  NOT_ACCEPTABLE: 'NOT_ACCEPTABLE',
  NOT_FOUND: 'NOT_FOUND',
  DOCUMENT_TOO_LARGE: 'DOCUMENT_TOO_LARGE',
  VARIABLES_TOO_LARGE: 'VARIABLES_TOO_LARGE',
  INTROSPECTION_LIMIT: 'INTROSPECTION_LIMIT',
  /** Validating the document would take more than `MAX_VALIDATION_COMPLEXITY` field comparisons (src/gateway/plugins/use-validation-limit.ts; 400). */
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
  SERVER_BUSY: 'SERVER_BUSY',
  /** One client sent more than `RATE_LIMIT_RPS` (src/gateway/plugins/use-rate-limit.ts; HTTP 429 with `Retry-After`). */
  RATE_LIMITED: 'RATE_LIMITED',
  // Static document limits (graphql-armor's rejections, which carry no code of their own; use-query-cost.ts).
  QUERY_TOO_DEEP: 'QUERY_TOO_DEEP',
  TOO_MANY_ALIASES: 'TOO_MANY_ALIASES',
  TOO_MANY_TOKENS: 'TOO_MANY_TOKENS',
  TOO_MANY_DIRECTIVES: 'TOO_MANY_DIRECTIVES',
  // Persisted operations (use-persisted-documents.ts); Apollo clients act on the first two.
  PERSISTED_QUERY_NOT_FOUND: 'PERSISTED_QUERY_NOT_FOUND',
  PERSISTED_QUERY_NOT_SUPPORTED: 'PERSISTED_QUERY_NOT_SUPPORTED',
  PERSISTED_QUERY_MISMATCH: 'PERSISTED_QUERY_MISMATCH',
  PERSISTED_QUERY_ONLY: 'PERSISTED_QUERY_ONLY',
  PERSISTED_QUERY_INVALID: 'PERSISTED_QUERY_INVALID',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
