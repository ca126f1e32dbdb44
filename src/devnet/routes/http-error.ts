import { errorResponse } from '../http-types.ts';
import type { Route, RouteAnswer } from '../router.ts';

/** A refusal with the seed's error body: thrown by parameter parsers, answered by {@link guarded}. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function fail(status: number, message: string): never {
  throw new HttpError(status, message);
}

export function bad(message: string): never {
  throw new HttpError(400, message);
}

/** Turns a thrown {@link HttpError} into the seed's error body; anything else propagates. */
export function guarded(handle: Route['handle']): Route['handle'] {
  return async (params, req) => {
    try {
      return await handle(params, req);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const { route: _route, ...answer } = errorResponse(error.status, error.message, '');
      return answer;
    }
  };
}

export const ok = (body: unknown): RouteAnswer => ({ status: 200, body });
/** The spec's success status of the operations that answer 201 (the signature aggregator's two, creations). */
export const created = (body: unknown): RouteAnswer => ({ status: 201, body });

export const get = (pattern: string, handle: Route['handle']): Route => ({ method: 'GET', pattern, handle: guarded(handle) });
export const post = (pattern: string, handle: Route['handle']): Route => ({ method: 'POST', pattern, handle: guarded(handle) });
