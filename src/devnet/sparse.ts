import { answerSchema, conforms, SPEC_FACTS, SpecRewriter, type Json, type SchemaObject, type SpecFacts } from './spec-walk.ts';

/**
 * The plain devnet's records as real answers leave them: the dataset fills every field it has, but the
 * real API leaves optional properties out where it has no value (a token without a logo, a chain without
 * an explorer), and it answers `UNKNOWN` where its indexer met a value it does not decode (the spec lists
 * `UNKNOWN` in such enums; the gateway serves it as its own `UNKNOWN` member with the raw value beside).
 * A client built against the devnet meets both here, not first in production.
 *
 * Decided per record, never per request: a record is an object the answer identifies (by its
 * {@link IDENTITY_KEYS}: a transaction by `txHash`, a block by `blockHash`, a token by `address` and
 * `tokenId`, ...), and objects inside it without an identity of their own belong to it. One record in
 * {@link SPARSE_RECORD_SHARE} is sparse, by a hash of the seed and its identity, and leaves out each
 * optional property by a hash of the same and the property's path; so the same record is the same in
 * a listing, on every page and in its lookup. What the spec requires is never left out, and the walk
 * (`spec-walk.ts`) keeps every answer valid under the spec. Outside any record (a page's own fields)
 * nothing changes.
 */

/** Share of records answered sparse. */
export const SPARSE_RECORD_SHARE = 1 / 8;
/** Share of a sparse record's optional properties left out. */
export const SPARSE_PROPERTY_SHARE = 1 / 2;
/** Share of the values of {@link UNKNOWN_ENUMS} answered `UNKNOWN`, by where in which record they are. */
export const UNKNOWN_ENUM_SHARE = 1 / 12;

/**
 * Spec enums (component names) whose `UNKNOWN` member the devnet answers now and then. Only those whose
 * value no request filters by and no link of the gateway follows: `PChainTransactionType` and
 * `XChainTransactionType` also have one, but the listings filter by `txTypes` (an `UNKNOWN` answered to a
 * filter on `AddValidatorTx` would be the devnet contradicting itself) and the validator links read it.
 */
export const UNKNOWN_ENUMS: ReadonlySet<string> = new Set(['InternalTransactionOpCall', 'NftTokenMetadataStatus']);

/** What identifies a record, the first present wins (a transfer's `txHash` before its token's `address`). */
export const IDENTITY_KEYS = [
  'messageId',
  'utxoId',
  'validationId',
  'operationId',
  'logId',
  'id',
  'txHash',
  'vertexHash',
  'hash',
  'blockHash',
  'blockchainId',
  'chainId',
  'subnetId',
  'assetId',
  'address',
  'nodeId',
] as const;

/**
 * Optional properties a sparse record keeps all the same, so the devnet stays consistent with itself:
 * those naming another record (ids, hashes, addresses, chain ids) and the times that place a record in
 * a period (a validation's, a block's), which the rest of the dataset links to; the staking amounts and
 * terms the routes filter, sort and sum by (a record left out of its own filter's answer would be the
 * devnet contradicting itself); and objects and arrays (they hold such links; their own optional values
 * may go).
 */
const KEPT = /^(id|hash|address|chainId|nodeId|delegationFee|delegationCapacity|uptimePerformance|amountStaked|amountDelegated)$|(Id|Ids|Hash|Address|Addresses|Timestamp)$/;
/** An EVM address, whatever its property is called (a chain's `multicall`): a link too. */
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * Answers about what the caller itself wrote (its webhooks, its export operations, the signatures it
 * asked to aggregate) are left whole: the real API answers what was set, and their ids are minted per
 * run, so a draw by identity would change from one run to the next.
 */
const CALLER_WRITTEN = /^\S+ \/v1\/(webhooks|operations|signatureAggregator)\b/;

/** Documents sent whole (a chain's genesis): what is in them is left as it is. */
const WHOLE = new Set(['genesisData']);

/** The identity of a record (`txHash=0x…`, `address=0x…#7` for a token), or undefined when `value` is none. */
export function identityOf(value: Json): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, Json>;
  const key = IDENTITY_KEYS.find((name) => typeof record[name] === 'string' || typeof record[name] === 'number');
  if (key === undefined) return undefined;
  const tokenId = record['tokenId'];
  return `${key}=${String(record[key])}${typeof tokenId === 'string' || typeof tokenId === 'number' ? `#${tokenId}` : ''}`;
}

/**
 * A share in [0, 1) drawn from `parts` (FNV-1a, 32 bits): the same parts, the same share, whatever the
 * request or the order they come in. Cheaper than a cryptographic hash, which every property would pay.
 */
function share(...parts: readonly string[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) hash = Math.imul(hash ^ part.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0xff, 0x01000193);
  }
  // A final mix: FNV's low bits alone follow the last characters too closely.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x45d9f3b);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 4294967296;
}

/** Whether the record `identity` is answered sparse under `seed`. */
export function isSparseRecord(seed: number | string, identity: string): boolean {
  return share(String(seed), 'sparse', identity) < SPARSE_RECORD_SHARE;
}

/**
 * `body`, an answer of `route` with `status`, with its sparse records' optional properties left out
 * and now and then an enum's `UNKNOWN`; as it is when the spec has no schema for it or the caller
 * wrote what it holds.
 */
export function sparseAnswer(route: string, status: number, body: unknown, seed: number, spec: SpecFacts = SPEC_FACTS): unknown {
  const schema = CALLER_WRITTEN.test(route) ? undefined : answerSchema(spec, route, status);
  if (schema === undefined) return body;
  const root = body as Json;
  return new SparseRewriter(spec, String(seed)).visit([schema], root, identityOf(root));
}

/**
 * Where a value is: its record's identity then the property names down to it (`txHash=0x…/method`);
 * undefined outside any record (a page's own fields: records may start below); null in a document
 * sent whole (nothing in it changes, whatever it identifies).
 */
type Scope = string | undefined | null;

class SparseRewriter extends SpecRewriter<Scope> {
  /** Each record's draw, once per answer (every optional property asks). */
  private readonly sparse = new Map<string, boolean>();

  constructor(
    spec: SpecFacts,
    private readonly seed: string,
  ) {
    super(spec);
  }

  protected emptied(): boolean {
    return false;
  }

  protected leftOut(name: string, scope: Scope, value: Json): boolean {
    if (scope == null || KEPT.test(name) || (value !== null && typeof value === 'object') || (typeof value === 'string' && EVM_ADDRESS.test(value))) return false;
    const record = scope.split('/', 1)[0] ?? scope;
    let sparse = this.sparse.get(record);
    if (sparse === undefined) this.sparse.set(record, (sparse = isSparseRecord(this.seed, record)));
    return sparse && share(this.seed, 'leave out', scope, name) < SPARSE_PROPERTY_SHARE;
  }

  protected scopeOf(value: Json, name: string | undefined, scope: Scope): Scope {
    // An array's items are where the array is (a transaction's transfers share one path).
    if (scope === null || (name !== undefined && WHOLE.has(name))) return null;
    return identityOf(value) ?? (scope === undefined || name === undefined ? scope : `${scope}/${name}`);
  }

  protected leaf(schemas: SchemaObject[], value: Json, scope: Scope): Json {
    if (scope == null || !schemas.some((s) => s.$ref !== undefined && UNKNOWN_ENUMS.has(s.$ref))) return value;
    if (share(this.seed, 'unknown', scope) >= UNKNOWN_ENUM_SHARE) return value;
    return schemas.every((s) => conforms(this.spec, s, 'UNKNOWN')) ? 'UNKNOWN' : value;
  }
}
