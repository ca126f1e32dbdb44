import { identityOf, isSparseRecord } from '../../src/devnet/sparse.ts';
import type { Json } from '../../src/devnet/spec-walk.ts';

/**
 * Whether the devnet answers `record` sparse (src/devnet/sparse.ts: optional properties may be left
 * out), under the devnet's seed (default 1). A test that lists which optional fields a record carries
 * holds the others to it, and a sparse one only to what the spec requires.
 */
export function isSparse(record: unknown, seed = 1): boolean {
  const identity = identityOf(record as Json);
  return identity !== undefined && isSparseRecord(seed, identity);
}
