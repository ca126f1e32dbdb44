import { codedError, ErrorCode } from '../errors/graphql.ts';
import type { LoaderContext } from './registry.ts';

/**
 * Operations on what belongs to a Data API key (its usage, its webhooks and their shared secret)
 * are made with the caller's own key, the `x-service-api-key` header the gateway forwards, or
 * with the gateway's key by an admin. Anyone else is refused before any call: the gateway's key
 * is shared by every caller, so using it for them would show one caller what another did with it.
 */
export interface KeyOwner {
  readonly isAdmin: boolean;
}

/** UNAUTHENTICATED unless the caller sent their own key or is an admin; `what` names the operation ("Usage", "webhooks"). */
export function requireOwnKey(ctx: LoaderContext & KeyOwner, what: string): void {
  if (ctx.call.apiKey || ctx.isAdmin) return;
  throw codedError(
    ErrorCode.UNAUTHENTICATED,
    `${what} needs your own Data API key: send it in the API key header (the gateway's key is for admins only)`,
  );
}
