import { GraphQLError, isAbstractType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { badInput } from '../errors/graphql.ts';
import {
  CompactIdError, decodeCompactId, DigestPart, encodeCompactId, isCompactIdText, MAX_COMPACT_ID_PARTS, maxCompactIdLength, type CompactIdPart,
} from '../lib/global-id.ts';
import { HEX_32_BYTES, isCb58Id, isChainId, isEvmAddress, isEvmHash, isNodeId, PRIMARY_CHAIN_ALIASES } from '../lib/ids.ts';
import { isDecimal } from './input-checks.ts';
import { WEIGHT_TIERS } from '../lib/compute-units.ts';
import type { FieldCost } from '../lib/cost.ts';

/**
 * Relay object identification. A global id holds `[family, ...localParts]`;
 * the family is the stable name (`Validator`, not `ActiveValidator`), so an id
 * survives a status change. Ids are written in the compact binary form of
 * `lib/global-id.ts` (a family code and each part in its smallest encoding); ids in
 * the older form, base64url of the JSON array, are still accepted.
 *
 * A global id comes back from clients, so it is parsed in two steps before any of
 * its parts reaches a loader, a URL or a cache key:
 * - its form: at most {@link MAX_GLOBAL_ID_LENGTH} characters of canonical base64url,
 *   a registered family, as many parts as the family has. Anything else was not made
 *   by chaingraph: BAD_USER_INPUT naming the argument (`id`, `ids`, `representations`).
 * - each part against the grammar its family declares ({@link ID_PARTS}). Parts are
 *   upstream values, and an upstream may send any string its spec allows, so an id
 *   chaingraph issued can hold a part no grammar accepts: that id is still an id (never
 *   BAD_USER_INPUT), but the object cannot be refetched, and `node(id:)` answers null
 *   without any upstream call.
 *
 * Every id {@link encodeGlobalId} makes passes the first step, whatever its parts hold
 * (test/lib/global-id-roundtrip.test.ts).
 */
export function encodeGlobalId(typename: string, parts: readonly (CompactIdPart | UpstreamIdPart)[]): string {
  const code = FAMILY_CODES.get(typename);
  if (code === undefined) throw new Error(`${typename} has no global id family code`);
  return encodeCompactId(code, parts.map(readPart));
}

/**
 * An id part read from an upstream answer, passed as a function that reads it. A field the reader
 * found broken (missing, or a value its GraphQL type cannot hold) throws when read; the id then takes
 * an empty part instead, so the object keeps its id and its place in its list (ids are non-null: a
 * throwing id would null the whole page), its broken field alone fails, and `node(id:)` of that id
 * answers null (an empty part is no value a refetch can use).
 */
export type UpstreamIdPart = () => CompactIdPart;

function readPart(part: CompactIdPart | UpstreamIdPart): CompactIdPart {
  if (typeof part !== 'function') return part;
  try {
    return part();
  } catch {
    return '';
  }
}

/** The older form, still accepted: base64url of the JSON array `[typename, ...parts]`. */
export function encodeLegacyGlobalId(typename: string, parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([typename, ...parts])).toString('base64url');
}

/**
 * The one-byte code of each family in compact ids. Ids are kept by clients, so a
 * code is never reused or changed: new families are appended.
 */
const FAMILY_CODE_LIST = [
  'Network', 'Validator', 'Delegator', 'Subnet', 'Blockchain', 'PrimaryBlockchain', 'Block', 'Vertex',
  'Utxo', 'Chain', 'Address', 'Transaction', 'NftToken', 'IcmMessage', 'ExportOperation', 'AvalancheNode',
  // EVM blocks and contracts
  'EvmBlock', 'Contract',
  // Primary-network transactions and assets
  'PrimaryTransaction', 'Asset',
] as const;
const FAMILY_CODES = new Map<string, number>(FAMILY_CODE_LIST.map((name, index) => [name, index + 1]));
const FAMILY_NAMES = new Map<number, string>(FAMILY_CODE_LIST.map((name, index) => [index + 1, name]));

/**
 * Longest global id accepted, characters: the longest compact id any part values make (a part
 * over 128 bytes is written as its digest), so every issued id fits. Real ones are under 100.
 */
export const MAX_GLOBAL_ID_LENGTH = maxCompactIdLength(MAX_COMPACT_ID_PARTS);
/**
 * Most keys one batch lookup takes: ids in `nodes(ids:)`, representations in one federation
 * `_entities` call, keys in a natural-key batch lookup. One number, so a gateway sets one batch size
 * (a stitching gateway's `dataLoaderOptions.maxBatchSize`, see docs/stitching.md) and never splits
 * differently per field. As large as `_entities` needs: a federation router sends every
 * representation of a plan step in one call and cannot split it. What a batch costs upstream is
 * bounded apart, by its estimate against `MAX_QUERY_COST`.
 */
export const MAX_BATCH_KEYS = 500;
/** Most ids in one `nodes(ids:)`: {@link MAX_BATCH_KEYS}. */
export const MAX_NODE_IDS = MAX_BATCH_KEYS;
/** Most representations in one federation `_entities` call: {@link MAX_BATCH_KEYS}. */
export const MAX_REPRESENTATIONS = MAX_BATCH_KEYS;

/** The grammar of one local part of a global id. */
export interface IdPart {
  /** What the part must be, for error messages (`a node id`). */
  readonly what: string;
  readonly test: (value: string) => boolean;
  /** May be absent (trailing parts) or empty. */
  readonly optional?: boolean;
}

const part = (what: string, test: (value: string) => boolean): IdPart => ({ what, test });
const bounded = (max: number, pattern: RegExp) => (value: string): boolean => value.length <= max && pattern.test(value);

/** The grammars id parts are made of. Every one excludes `.`-only values, separators, `%` and control characters. */
export const ID_PARTS = {
  network: part('mainnet or fuji', (v) => v === 'mainnet' || v === 'fuji'),
  nodeId: part('a node id (NodeID-...)', isNodeId),
  /** Subnet, blockchain, asset, UTXO, vertex and P/X-chain transaction ids. */
  cb58Id: part('a cb58 id of 32 bytes', isCb58Id),
  primaryChain: part('p-chain, x-chain, c-chain or a blockchain id', (v) => PRIMARY_CHAIN_ALIASES.has(v) || isCb58Id(v)),
  /** A primary-network block hash: cb58 (P, X) or 0x + 64 hex digits (C). */
  blockHash: part('a block hash', (v) => isCb58Id(v) || isEvmHash(v)),
  evmAddress: part('an EVM address', isEvmAddress),
  evmTxHash: part('an EVM transaction hash', isEvmHash),
  /** An EVM chain id (decimal) or a blockchain id (cb58), as `Query.chain` takes it. */
  chainId: part('an EVM chain id or a blockchain id', isChainId),
  /** Token ids and block numbers: unsigned 256-bit decimals. */
  decimal: part('a decimal number', isDecimal),
  /** Timestamps and heights. */
  uint: part('a non-negative integer', (v) => /^[0-9]{1,16}$/.test(v) && Number.isSafeInteger(Number(v))),
  operationId: part('an operation id', bounded(128, /^[A-Za-z0-9_-]+$/)),
  nodeName: part('a node name', bounded(128, /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/)),
  icmMessageId: part('an ICM message id', bounded(66, HEX_32_BYTES)),
  /** A P-/X-chain address, with or without its chain prefix (bech32 characters, bounded). */
  primaryAddress: part('a primary-network address', bounded(100, /^([PXC]-)?[a-z]{1,20}1[02-9ac-hj-np-z]{6,80}$/)),
} as const satisfies Record<string, IdPart>;

/** The same grammar, but the part may be absent or empty. */
export function optional(grammar: IdPart): IdPart {
  return { ...grammar, optional: true };
}

interface NodeFamily<T extends object = object> {
  /** The grammar of each local part, in order (trailing optional parts may be absent). */
  parts: readonly IdPart[];
  /** Loads the object of these local parts, or null when it does not exist. Parts have passed `parts`. */
  load(ctx: Context, parts: string[]): Promise<T | null>;
  /** The concrete GraphQL type of a loaded object (for families modelled as interfaces). */
  typeOf(object: T): string;
  /**
   * Upstream calls refetching these ids (their local parts) makes at most: the page
   * bound of the listing a family scans, what its loader batches. Default: one call per id.
   */
  refetchCalls?: (ids: readonly string[][]) => number;
  /** What one of those calls weighs at most in the Data API's compute units (its loader's cost's `computeUnits`; 0 for none or node calls). */
  refetchComputeUnits: number;
}

const families = new Map<string, NodeFamily>();
const brands = new WeakMap<object, string>();

/** Registers how `node(id:)` refetches a family of objects, and the grammar of its ids. Called by each domain module. */
export function registerNodeFamily<T extends object>(typename: string, family: NodeFamily<T>): void {
  if (families.has(typename)) throw new Error(`Node family ${typename} registered twice`);
  if (family.parts.length > MAX_COMPACT_ID_PARTS) throw new Error(`Node family ${typename} has more than ${MAX_COMPACT_ID_PARTS} id parts`);
  if (!FAMILY_CODES.has(typename)) throw new Error(`Node family ${typename} needs a code in FAMILY_CODE_LIST`);
  // Stored untyped: `typeOf` only ever sees what this family's own `load` returned.
  families.set(typename, family as NodeFamily<object>);
}

/** How many local parts the ids of a registered family have (all, and the required leading ones); undefined for another name. */
export function nodeFamilyParts(typename: string): { parts: number; required: number } | undefined {
  const family = families.get(typename);
  return family && { parts: family.parts.length, required: family.parts.filter((p) => !p.optional).length };
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A global id as parsed by {@link decodeGlobalId}. */
export interface DecodedGlobalId {
  typename: string;
  /** The local parts as issued; a part too long to carry is its digest. */
  parts: (string | DigestPart)[];
  /**
   * The parts for the family's loader, when every one matches its grammar; absent when one
   * does not (`unusable` says which): the object cannot be refetched.
   */
  refetch?: string[];
  unusable?: string;
}

/**
 * Parses a global id: throws BAD_USER_INPUT naming `argument` unless it has the form
 * of an id chaingraph issues (canonical, so there is one text per object and nothing
 * the parse would silently drop), then checks each part against its family's grammar
 * (see {@link encodeGlobalId}): only parts that pass are ever handed to a loader.
 */
export function decodeGlobalId(id: unknown, argument = 'id'): DecodedGlobalId {
  // The caller cannot repair an id, only fetch it again: every refusal says where ids come from, not what is wrong inside.
  const bad = (why?: string) => badInput(argument, `This id is not one chaingraph issued${why ? ` (${why})` : ''}: take ids from a response's \`id\` field and pass them unchanged.`);
  if (typeof id !== 'string' || id.length === 0) throw bad('it is empty');
  if (id.length > MAX_GLOBAL_ID_LENGTH) throw bad(`it is longer than ${MAX_GLOBAL_ID_LENGTH} characters`);
  if (!BASE64URL.test(id)) throw bad('it has characters ids never contain');
  const { typename, parts } = isCompactIdText(id) ? compactParts(id, bad) : legacyParts(id, bad);
  const family = families.get(typename);
  if (!family) throw bad();
  const required = family.parts.filter((p) => !p.optional).length;
  if (parts.length < required || parts.length > family.parts.length) throw bad();
  const refetch: string[] = [];
  for (const [index, value] of parts.entries()) {
    const grammar = family.parts[index] as IdPart;
    const usable = typeof value === 'string' && ((grammar.optional && value === '') || grammar.test(value));
    if (!usable) return { typename, parts, unusable: `part ${index + 1} of a ${typename} id is not ${grammar.what}` };
    refetch.push(value);
  }
  return { typename, parts, refetch };
}

// Malformed inside (cut short, edited, re-encoded): the caller cannot tell these apart nor fix them, so they share one message.
function compactParts(id: string, bad: () => Error): { typename: string; parts: (string | DigestPart)[] } {
  try {
    const { code, parts } = decodeCompactId(id);
    return { typename: FAMILY_NAMES.get(code) ?? '', parts };
  } catch (error) {
    if (error instanceof CompactIdError) throw bad();
    throw error;
  }
}

function legacyParts(id: string, bad: () => Error): { typename: string; parts: string[] } {
  const json = Buffer.from(id, 'base64url').toString('utf8');
  if (Buffer.from(json, 'utf8').toString('base64url') !== id) throw bad();
  let decoded: unknown;
  try {
    decoded = JSON.parse(json);
  } catch {
    throw bad();
  }
  if (!Array.isArray(decoded) || typeof decoded[0] !== 'string' || !decoded.every((p) => typeof p === 'string' || (typeof p === 'number' && Number.isFinite(p)))) {
    throw bad();
  }
  if (JSON.stringify(decoded) !== json) throw bad();
  const [typename, ...raw] = decoded as [string, ...(string | number)[]];
  return { typename, parts: raw.map(String) };
}

/** Marks an object with its concrete GraphQL type, for fields typed as `Node`. */
export function brandNode<T extends object>(object: T, concreteType: string): T {
  brands.set(object, concreteType);
  return object;
}

export const NodeInterface = builder.interfaceRef<object>('Node').implement({
  description: 'An object with a global id that `Query.node(id:)` refetches (Relay object identification).',
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Globally unique, opaque id.', resolve: () => { throw new GraphQLError('id resolved by the implementing type'); } }),
  }),
  resolveType: (object) => brands.get(object) ?? null,
});

/**
 * Loads any object by global id through its family's loader (node, nodes and federation `_entities`).
 * An id whose parts no grammar accepts (built from an unusual upstream value) is null: the object
 * cannot be looked up, and nothing is sent.
 */
export async function loadNode(ctx: Context, id: string, argument = 'id'): Promise<object | null> {
  const { typename, refetch } = decodeGlobalId(id, argument);
  if (!refetch) return null;
  const family = families.get(typename) as NodeFamily;
  const object = await family.load(ctx, refetch);
  return object ? brandNode(object, family.typeOf(object)) : null;
}

/**
 * A field of a natural key: the grammar of its text, and `numeric` when its GraphQL type is an integer
 * scalar (`UInt64`): chaingraph serializes it as a decimal string, but another subgraph holding the key may
 * serialize its own as a JSON number, and a router hands it on as it is. A safe non-negative integer is then
 * read as its decimal text.
 */
interface NaturalKeyField extends IdPart {
  readonly numeric?: true;
}

const numeric = (grammar: IdPart): NaturalKeyField => ({ ...grammar, numeric: true });

/** The text of a natural key's field value when it has the field's grammar, else undefined. */
function naturalKeyText(value: unknown, field: NaturalKeyField): string | undefined {
  const text = field.numeric && typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  return typeof text === 'string' && field.test(text) ? text : undefined;
}

/**
 * The natural keys an entity may be referenced by in `_entities` instead of its global id: the ids the
 * ecosystem stores (a chain id, an address on a chain, a block number, a transaction hash). Each key is fields
 * of the family's types, with the grammar each value must have; a router sends them as they are, so they are
 * parsed like id parts before any loader sees them. One natural key a family: see `federation.ts` for why
 * EVM blocks are not keyed by hash too.
 */
export const NATURAL_KEYS = [
  { family: 'Chain', fields: { chainId: ID_PARTS.chainId } },
  { family: 'Address', fields: { address: ID_PARTS.evmAddress, chainId: ID_PARTS.chainId } },
  { family: 'Validator', fields: { nodeId: ID_PARTS.nodeId, network: ID_PARTS.network } },
  // Block numbers as `Chain.block(id:)` takes them: at most 2^53 - 1.
  { family: 'EvmBlock', fields: { chainId: ID_PARTS.chainId, blockNumber: numeric(ID_PARTS.uint) } },
  { family: 'Transaction', fields: { chainId: ID_PARTS.chainId, txHash: ID_PARTS.evmTxHash } },
] as const satisfies readonly { family: string; fields: Record<string, NaturalKeyField> }[];

/** The natural key objects of `typename` may be referenced by: its family's (an implementation's family included). */
export function naturalKeyOf(schema: GraphQLSchema, typename: string): (typeof NATURAL_KEYS)[number] | undefined {
  return NATURAL_KEYS.find((key) => familyIncludes(schema, key.family, typename));
}

/**
 * Checks federation `_entities` representations before execution (see
 * `opaqueInputChecks`, run by `useInputValidation`): a bounded list of objects, each with a `__typename` and either
 * a global `id` of that type's family or the fields of its natural key ({@link NATURAL_KEYS}). Errors name `representations`.
 */
export function checkRepresentations(schema: GraphQLSchema, representations: unknown): void {
  const bad = (why: string) => badInput('representations', why);
  if (!Array.isArray(representations)) throw bad('must be a list');
  if (representations.length > MAX_REPRESENTATIONS) throw bad(`This list has ${representations.length} representations, more than the ${MAX_REPRESENTATIONS} one call takes: split the batch into calls of at most ${MAX_REPRESENTATIONS}.`);
  representations.forEach((rep: unknown, index) => {
    const where = `representation ${index + 1}`;
    if (typeof rep !== 'object' || rep === null || Array.isArray(rep)) throw bad(`${where} is not an object`);
    const { __typename: typename, id } = rep as Record<string, unknown>;
    if (typeof typename !== 'string' || typename.length > 64 || !schema.getType(typename)) throw bad(`${where} has no known __typename`);
    const natural = id === undefined ? naturalKeyOf(schema, typename) : undefined;
    if (natural) {
      for (const [field, grammar] of Object.entries<NaturalKeyField>(natural.fields)) {
        const value = (rep as Record<string, unknown>)[field];
        if (naturalKeyText(value, grammar) === undefined) throw bad(`${where}: ${field} must be ${grammar.what} (a ${typename} is referenced by \`id\` or by ${Object.keys(natural.fields).map((f) => `\`${f}\``).join(' and ')})`);
      }
      return;
    }
    const decoded = decodeGlobalId(id, 'representations');
    if (!familyIncludes(schema, decoded.typename, typename)) throw bad(`${where}: the id is a ${decoded.typename}'s, not a ${typename}'s: take the id from a ${typename}'s \`id\` field`);
  });
}

/** Whether objects of `family` may be typed `typename`: the family itself or one of its implementations. */
function familyIncludes(schema: GraphQLSchema, family: string, typename: string): boolean {
  if (family === typename) return true;
  const abstract = schema.getType(family);
  const concrete = schema.getType(typename);
  if (!isAbstractType(abstract) || !(isObjectType(concrete) || isInterfaceType(concrete))) return false;
  return schema.isSubType(abstract, concrete);
}

/**
 * Upstream calls refetching these global ids makes at most, by their families'
 * `refetchCalls`. Ids that do not parse cost nothing: they are refused before any call;
 * nor do ids that cannot be refetched (answered null without a call).
 */
export function refetchCalls(ids: readonly unknown[]): number {
  return refetchCost(ids).calls;
}

/** The calls of {@link refetchCalls}, and what they weigh at most in compute units (each family's calls at its heaviest). */
export function refetchCost(ids: readonly unknown[]): { calls: number; computeUnits: number } {
  const byFamily = new Map<string, string[][]>();
  for (const id of ids) {
    let decoded: DecodedGlobalId;
    try {
      decoded = decodeGlobalId(id);
    } catch {
      continue;
    }
    if (!decoded.refetch) continue;
    const list = byFamily.get(decoded.typename);
    if (list) list.push(decoded.refetch);
    else byFamily.set(decoded.typename, [decoded.refetch]);
  }
  let calls = 0;
  let computeUnits = 0;
  for (const [typename, list] of byFamily) {
    const family = families.get(typename);
    const made = family?.refetchCalls?.(list) ?? list.length;
    calls += made;
    computeUnits += made * (family?.refetchComputeUnits ?? UNDECLARED_COMPUTE_UNITS);
  }
  return { calls, computeUnits };
}

/** A family that is not registered weighs the heaviest tier: an overestimate, never an under. */
const UNDECLARED_COMPUTE_UNITS = Math.max(...Object.values(WEIGHT_TIERS));

/**
 * The cost of a field that refetches objects by their ids (`node`, `nodes`, `_entities`): the calls of
 * {@link refetchCost}, weighed family by family (`FieldCost.weigh`), plus any calls of its own.
 */
export function refetchFieldCost(
  idsOf: (args: Readonly<Record<string, unknown>>) => readonly unknown[],
  extra: (args: Readonly<Record<string, unknown>>) => { calls: number; computeUnits: number } = () => ({ calls: 0, computeUnits: 0 }),
): Pick<FieldCost, 'calls' | 'weigh'> {
  const costOf = (args: Readonly<Record<string, unknown>>) => {
    const own = refetchCost(idsOf(args));
    const more = extra(args);
    return { calls: own.calls + more.calls, computeUnits: own.computeUnits + more.computeUnits };
  };
  return {
    calls: ({ parents, args }) => parents * costOf(args).calls,
    weigh: ({ parents, args }) => parents * costOf(args).computeUnits,
  };
}

/** Groups id parts by their first part (the network, for most families), for per-network loaders. */
export function byFirstPart(ids: readonly string[][]): string[][][] {
  const groups = new Map<string, string[][]>();
  for (const parts of ids) {
    const key = parts[0] ?? '';
    const list = groups.get(key);
    if (list) list.push(parts);
    else groups.set(key, [parts]);
  }
  return [...groups.values()];
}

const idList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

builder.queryFields((t) => ({
  node: t.field({
    type: NodeInterface,
    nullable: true,
    description: `Refetches any object by its global id; null when it no longer exists, or cannot be looked up (an id built from an upstream value no lookup takes). BAD_USER_INPUT for an id chaingraph did not issue (at most ${MAX_GLOBAL_ID_LENGTH} characters).`,
    args: { id: t.arg.id({ required: true, description: 'A global id from an `id` field.' }) },
    extensions: {
      validateArgs: (args) => void decodeGlobalId(args['id'], 'id'),
      cost: refetchFieldCost((args) => [args['id']]),
    },
    resolve: (_root, args, ctx) => loadNode(ctx, String(args.id)),
  }),
  nodes: t.field({
    type: [NodeInterface],
    nullable: { list: false, items: true },
    description: `Refetches several objects at once, in the order of \`ids\` (null where one no longer exists). At most ${MAX_NODE_IDS} ids: the one batch bound of \`nodes\`, \`_entities\` and the natural-key lookups, the batch size a stitching gateway should set.`,
    args: { ids: t.arg.idList({ required: true, description: `Global ids, at most ${MAX_NODE_IDS}.` }) },
    extensions: {
      validateArgs: (args) => {
        const ids = args['ids'] as unknown[];
        if (ids.length > MAX_NODE_IDS) throw badInput('ids', `This list has ${ids.length} ids, more than the ${MAX_NODE_IDS} one field takes: split it over several \`nodes\` fields or requests of at most ${MAX_NODE_IDS}.`);
        for (const id of ids) decodeGlobalId(id, 'ids');
      },
      cost: { ...refetchFieldCost((args) => idList(args['ids'])), size: (args) => idList(args['ids']).length },
    },
    // An id that fails to load becomes null with its own error; the others still load.
    resolve: (_root, args, ctx) => Promise.all(args.ids.map((id) => loadNode(ctx, String(id), 'ids').catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))))),
  }),
}));
