import { UpstreamError } from '../upstream/errors.ts';

/**
 * A single lookup whose 404 means "does not exist": null, not an error. Every other
 * failure (a 5xx, a timeout, a refused budget) is rethrown as it came. The one copy
 * for every loader and service that reads one thing by id.
 */
export async function nullOnNotFound<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof UpstreamError && error.isNotFound) return null;
    throw error;
  }
}
