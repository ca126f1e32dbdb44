import { bech32 } from 'bech32';
import { badInput, codedError, configuredNames, ErrorCode, NO_NODE_CONFIGURED } from '../errors/graphql.ts';
import { between, fromCheck, listOf, quoteValue, type Bound } from './bounds.ts';

export { quoteValue };
import { isCb58Id, isEvmAddress, isEvmHash, isNodeId } from '../lib/ids.ts';
import type { NetworkId } from '../loaders/types.ts';
import { C_CHAIN_EVM_IDS, PRIMARY_CHAIN_IDS } from '../shapes/index.ts';

/**
 * The grammar of every argument a caller sends, in one place. Each check throws
 * BAD_USER_INPUT naming the argument (`badInput`), and runs from a field's
 * `extensions.validateArgs`, so `useInputValidation` refuses a bad value before the
 * operation makes a single upstream call. What passes here is safe to put into a URL
 * path, a query string, a JSON-RPC body, a cache key or a log line.
 */

/**
 * Caps on list and free-text arguments. The seeds state no maximum for these
 * (E4: "maximum number of addresses: not shown"), so the caps bound what one argument
 * may make the gateway send: each is written into the argument's description.
 */
export const INPUT_LIMITS = {
  /** Addresses in one argument (UTXOs, rewards, reward addresses, exports). */
  addresses: 64,
  /** Node ids in one filter (validators, delegators, rewards): one comma list in a query string. */
  nodeIds: 100,
  /** Node ids in `AvalancheNode.peers(nodeIds:)`: one page of peers at most. */
  peerNodeIds: 1000,
  /** Chains in `createTransactionExport(input.options.includeChains)`. */
  includeChains: 16,
  /** Health check tags in one argument. */
  healthTags: 16,
  /** Characters (code points) of a node alias (`admin.alias`, `admin.aliasChain`): the seed's limit, 512 itself allowed. */
  aliasChars: 512,
  /** Characters of a name: logger names, health tags, API endpoints, node names. */
  nameLength: 128,
  /** Bytes of a hex payload (a Warp message or justification): 256 KiB. */
  hexBytes: 256 * 1024,
} as const;


// ---------------------------------------------------------------- lists

/**
 * A list argument: at most `max` items, each checked by `item` (whose errors name the same
 * argument and say which entry). `required` refuses an empty or missing list.
 */
export function checkList(
  argument: string,
  value: unknown,
  max: number,
  item: (argument: string, value: unknown, index: number) => void,
  required = false,
): void {
  if (value == null) {
    if (required) throw badInput(argument, 'give at least one value');
    return;
  }
  if (!Array.isArray(value)) throw badInput(argument, 'must be a list');
  if (required && value.length === 0) throw badInput(argument, 'give at least one value');
  if (value.length > max) throw badInput(argument, `at most ${max} values (got ${value.length})`);
  value.forEach((entry, index) => item(argument, entry, index));
}

const entry = (index: number | undefined): string => (index === undefined ? '' : ` (entry ${index})`);

// ---------------------------------------------------------------- primary-network ids

/** `NodeID-` + the cb58 of 20 bytes, checksum included. */
export function checkNodeId(argument: string, value: unknown, index?: number): void {
  if (typeof value !== 'string' || !isNodeId(value)) {
    throw badInput(argument, `${quoteValue(value)}${entry(index)} is not a node id: NodeID- followed by the cb58 of 20 bytes`);
  }
}

/** A list of node ids, at most `max` (default `INPUT_LIMITS.nodeIds`). */
export function checkNodeIds(argument: string, value: unknown, max: number = INPUT_LIMITS.nodeIds): void {
  checkList(argument, value, max, (name, id, index) => checkNodeId(name, id, index));
}

/** A 32-byte id in cb58 with its checksum: subnet, blockchain, asset and P/X-chain transaction ids. */
export function checkCb58Id(argument: string, value: unknown, what = 'a cb58 id of 32 bytes', index?: number): void {
  if (typeof value !== 'string' || !isCb58Id(value)) {
    throw badInput(argument, `${quoteValue(value)}${entry(index)} is not ${what} (e.g. 11111111111111111111111111111111LpoYY)`);
  }
}

export function checkSubnetId(argument: string, value: unknown): void {
  checkCb58Id(argument, value, 'a subnet id (cb58 of 32 bytes)');
}

type ChainLetter = 'p' | 'x' | 'c';
// A Map, not an object literal: a caller's `__proto__` or `constructor` must not find anything.
const PRIMARY_ALIASES: ReadonlyMap<string, ChainLetter> = new Map([['p-chain', 'p'], ['x-chain', 'x'], ['c-chain', 'c']]);

/** Which primary chain `id` names on `network`: an alias (any case) or that network's fixed id. */
export function primaryChainOf(network: NetworkId, id: string): ChainLetter | undefined {
  const alias = PRIMARY_ALIASES.get(id.toLowerCase());
  if (alias) return alias;
  const ids = PRIMARY_CHAIN_IDS[network];
  return id === ids.p ? 'p' : id === ids.x ? 'x' : id === ids.c ? 'c' : undefined;
}

/**
 * A primary-network chain as the seed's blockchain endpoints take it: `p-chain`, `x-chain`,
 * `c-chain` or one of the fixed ids of either network (which network is checked where it is
 * known). Any other id would only be refused by the Data API.
 */
export function checkPrimaryChainId(argument: string, value: unknown): void {
  if (typeof value === 'string' && (primaryChainOf('mainnet', value) || primaryChainOf('fuji', value))) return;
  throw badInput(argument, `${quoteValue(value)} is not a primary-network chain: p-chain, x-chain, c-chain or the fixed id of one (e.g. ${PRIMARY_CHAIN_IDS.mainnet.p})`);
}

// ---------------------------------------------------------------- primary-network addresses

/** Human-readable part of the bech32 addresses of each network. */
export const ADDRESS_HRP: Readonly<Record<NetworkId, string>> = { mainnet: 'avax', fuji: 'fuji' };
const HRPS: ReadonlySet<string> = new Set(Object.values(ADDRESS_HRP));

export type ChainPrefix = 'P' | 'X' | 'C';

/**
 * A primary-network address: an optional chain prefix from `prefixes` (`P-`, `X-`, `C-`),
 * then bech32 (checksum checked) of 20 bytes whose hrp is `avax` (mainnet) or `fuji`,
 * lowercase. Returns the hrp, so callers can check it against the network.
 */
export function checkPrimaryAddress(argument: string, value: unknown, prefixes: readonly ChainPrefix[], index?: number): string {
  const fail = (why: string): never => {
    throw badInput(argument, `${quoteValue(value)}${entry(index)} is not a primary-network address: ${why}`);
  };
  if (typeof value !== 'string') return fail('not a string');
  if (value.length > 64) return fail('too long');
  let body = value;
  const dash = value.indexOf('-');
  if (dash >= 0) {
    const prefix = value.slice(0, dash);
    if (!(prefixes as readonly string[]).includes(prefix)) return fail(`the chain prefix must be ${prefixes.map((p) => `${p}-`).join(', ')} or none`);
    body = value.slice(dash + 1);
  }
  if (body !== body.toLowerCase()) return fail('bech32 addresses are lowercase');
  const decoded = bech32.decodeUnsafe(body);
  if (!decoded) return fail('not bech32 (or its checksum is wrong)');
  if (!HRPS.has(decoded.prefix)) return fail(`the prefix must be ${[...HRPS].map((h) => `${h}1`).join(' or ')}`);
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  if (!bytes || bytes.length !== 20) return fail('it must hold 20 bytes');
  return decoded.prefix;
}

/**
 * A list of primary-network addresses (at most `INPUT_LIMITS.addresses`), all of one network:
 * the Data API answers for one network per call.
 */
export function checkPrimaryAddresses(argument: string, value: unknown, prefixes: readonly ChainPrefix[], required = false): void {
  let hrp: string | undefined;
  checkList(argument, value, INPUT_LIMITS.addresses, (name, address, index) => {
    const own = checkPrimaryAddress(name, address, prefixes, index);
    if (hrp !== undefined && own !== hrp) throw badInput(name, `mixes ${hrp}1 and ${own}1 addresses; give the addresses of one network`);
    hrp = own;
  }, required);
}

/** Where the network is known (at resolve time, before any call): the addresses must be that network's. */
export function checkAddressesOnNetwork(argument: string, addresses: readonly string[] | null | undefined, network: NetworkId): void {
  const hrp = ADDRESS_HRP[network];
  const other = (addresses ?? []).find((a) => !a.slice(a.indexOf('-') + 1).startsWith(`${hrp}1`));
  if (other !== undefined) throw badInput(argument, `${quoteValue(other)} is not a ${network} address (${network} addresses start with ${hrp}1)`);
}

// ---------------------------------------------------------------- EVM

const DECIMAL = /^[0-9]{1,78}$/;

/** True for a uint256 in decimal digits: 1 to 78 digits. */
export const isDecimal = (value: string): boolean => DECIMAL.test(value);

/** An EVM address: 0x + 40 hex digits. */
export function checkEvmAddress(argument: string, value: unknown, index?: number): void {
  if (typeof value !== 'string' || !isEvmAddress(value)) {
    throw badInput(argument, `${quoteValue(value)}${entry(index)} is not an EVM address: 0x followed by 40 hex digits`);
  }
}

/** A list of EVM addresses, at most `INPUT_LIMITS.addresses`. */
export function checkEvmAddresses(argument: string, value: unknown, required = false): void {
  checkList(argument, value, INPUT_LIMITS.addresses, (name, address, index) => checkEvmAddress(name, address, index), required);
}

/** An EVM transaction hash: 0x + 64 hex digits (P/X-chain transactions are cb58, see `checkCb58Id`). */
export function checkEvmTxHash(argument: string, value: unknown): void {
  if (typeof value !== 'string' || !isEvmHash(value)) {
    throw badInput(argument, `${quoteValue(value)} is not an EVM transaction hash: 0x followed by 64 hex digits`);
  }
}

/** A uint256 in decimal digits (token ids, block numbers given as strings): 1 to 78 digits. */
export function checkDecimal(argument: string, value: unknown): void {
  if (typeof value !== 'string' || !isDecimal(value)) throw badInput(argument, `${quoteValue(value)} is not a string of decimal digits (at most 78)`);
}

/**
 * A chain as `chain(chainId:)` and EVM exports take it: an EVM chain id (decimal, at most
 * 20 digits: chain ids are uint64 in practice) or a blockchain id (cb58 of 32 bytes).
 */
export function checkChainId(argument: string, value: unknown, index?: number): void {
  if (typeof value === 'string' && (/^[1-9][0-9]{0,19}$/.test(value) || isCb58Id(value))) return;
  const alias = typeof value === 'string' ? PRIMARY_ALIASES.get(value.toLowerCase()) : undefined;
  if (alias) throw badInput(argument, `${quoteValue(value)}${entry(index)} ${primaryAliasAdvice(alias)}`);
  throw badInput(argument, `${quoteValue(value)}${entry(index)} is not a chain id: an EVM chain id (decimal, e.g. 43114) or a blockchain id (cb58)`);
}

/** What to give instead of a primary chain's alias where an EVM chain id is asked for. */
function primaryAliasAdvice(alias: ChainLetter): string {
  if (alias === 'c') return `names the C-Chain of a network, and this argument takes its EVM chain id: ${C_CHAIN_EVM_IDS.mainnet} on mainnet, ${C_CHAIN_EVM_IDS.fuji} on Fuji`;
  return `is not an EVM chain: read it through \`network(name:) { blockchain(id: "${alias}-chain") }\``;
}

/**
 * `Query.chain`'s chain: a chain id as {@link checkChainId} takes it, or `c-chain` (any case), the
 * C-Chain of the network the field names. `p-chain` and `x-chain` are refused with where to read them.
 */
export function checkEvmChainRef(argument: string, value: unknown): void {
  if (typeof value === 'string' && PRIMARY_ALIASES.get(value.toLowerCase()) === 'c') return;
  checkChainId(argument, value);
}

/** The chain id {@link checkEvmChainRef} accepted, with `c-chain` read as `network`'s C-Chain. */
export function evmChainIdOf(value: string, network: NetworkId): string {
  return PRIMARY_ALIASES.get(value.toLowerCase()) === 'c' ? String(C_CHAIN_EVM_IDS[network]) : value;
}

// ---------------------------------------------------------------- numbers and dates

/** A non-negative integer (block numbers, unix-second timestamps, heights). */
export function checkNonNegativeInt(argument: string, value: unknown, unit: string): void {
  if (value == null) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw badInput(argument, `must be a non-negative integer (${unit})`);
}

/**
 * A `UInt64` argument (a decimal string once coerced) that the upstream reads as a JSON
 * number: 0 to 2^53 - 1 (`Number.MAX_SAFE_INTEGER`), so it arrives exact. The scalar has already refused anything that is
 * not an unsigned 64-bit integer.
 */
export function checkExactUInt64(argument: string, value: unknown, unit: string): void {
  if (value == null) return;
  const exact = (typeof value === 'string' && /^[0-9]{1,16}$/.test(value)) || (typeof value === 'number' && Number.isSafeInteger(value));
  if (!exact || Number(value) < 0 || Number(value) > Number.MAX_SAFE_INTEGER) throw badInput(argument, `must be from 0 to ${Number.MAX_SAFE_INTEGER} (${unit})`);
}

/** A bound of {@link checkExactUInt64}: `what` starts the description ("Unix seconds"). */
export function exactUInt64(what: string, unit: string): Bound {
  return fromCheck(`${what}, 0 to ${Number.MAX_SAFE_INTEGER} (2^53 - 1, the largest the upstream reads exactly).`, (argument, value) => checkExactUInt64(argument, value, unit));
}

/**
 * A finite number in [min, max], sent upstream as a plain decimal: a value JavaScript would
 * write with an exponent (non-zero and below 1e-6 in magnitude) is refused, since the upstream
 * reads decimals.
 */
export function checkRange(argument: string, value: unknown, min: number, max: number): void {
  if (value != null) between(min, max).check(value, argument);
}

/** Both ends of a range given: the lower one must not be above the upper one (names the lower). */
export function checkOrdered(lowArgument: string, low: unknown, highArgument: string, high: unknown): void {
  if (low == null || high == null) return;
  const above = typeof low === 'string' && typeof high === 'string' ? BigInt(low) > BigInt(high) : Number(low) > Number(high);
  if (above) throw badInput(lowArgument, `must not be greater than ${highArgument}`);
}

/** A calendar date, YYYY-MM-DD, that exists. */
export function checkDate(argument: string, value: unknown): void {
  if (value == null) return;
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  // Date.parse rolls 2023-02-30 over to March: the round trip refuses dates that do not exist.
  const valid = !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
  if (!valid) throw badInput(argument, 'must be a date in the form YYYY-MM-DD');
}

const HEX_PAYLOAD = /^(0x)?(?:[0-9a-fA-F]{2})+$/;

/** Hex of even length, optionally 0x-prefixed, at most `maxBytes` bytes. */
export function checkHex(argument: string, value: unknown, maxBytes: number = INPUT_LIMITS.hexBytes): void {
  const digits = typeof value === 'string' ? value.length - (value.startsWith('0x') ? 2 : 0) : 0;
  if (typeof value !== 'string' || digits > 2 * maxBytes || !HEX_PAYLOAD.test(value)) {
    throw badInput(argument, `must be non-empty hex of even length, optionally 0x-prefixed, at most ${maxBytes} bytes`);
  }
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** An export operation id: a UUID. */
export function checkOperationId(argument: string, value: unknown): void {
  if (typeof value !== 'string' || !UUID.test(value)) throw badInput(argument, `${quoteValue(value)} is not an operation id (a UUID)`);
}

/** True for an operation id (global ids are decoded without throwing). */
export function isOperationId(value: string): boolean {
  return UUID.test(value);
}

// ---------------------------------------------------------------- node API names

// Control characters and whitespace never belong in a name, an alias or a path: they would
// split log lines and URLs.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;

/**
 * A chain alias as the node takes and sets it (`X`, `bc/X`, `myalias`): 1 to 512 characters
 * (the seed's limit, counted in code points), no whitespace or control characters.
 */
export function checkAlias(argument: string, value: unknown): void {
  if (typeof value !== 'string' || value === '') throw badInput(argument, 'must not be empty');
  if (value.length > INPUT_LIMITS.aliasChars && codePoints(value) > INPUT_LIMITS.aliasChars) {
    throw badInput(argument, `must be at most ${INPUT_LIMITS.aliasChars} characters (the node's limit)`);
  }
  if (CONTROL_OR_SPACE.test(value)) throw badInput(argument, 'must not contain whitespace or control characters');
}

/** Characters as a reader counts them: code points, so an emoji is one, not two UTF-16 units. */
function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * An API path after `/ext/` (`info`, `bc/X`) or a new one (`admin.alias`): the alias rules,
 * and no empty, `.` or `..` segment, so it cannot point outside `/ext/`.
 */
export function checkApiPath(argument: string, value: unknown): void {
  checkAlias(argument, value);
  const segments = (value as string).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) {
    throw badInput(argument, 'must be a path after /ext/ without empty, "." or ".." segments, e.g. bc/X');
  }
}

const NAME = /^[A-Za-z0-9._:/-]+$/;

function checkName(argument: string, value: unknown, what: string): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > INPUT_LIMITS.nameLength || !NAME.test(value)) {
    throw badInput(argument, `${quoteValue(value)} is not ${what}: 1 to ${INPUT_LIMITS.nameLength} letters, digits, '.', '_', ':', '/' or '-'`);
  }
}

/** A logger name of the node (`main`, `C`, a chain id ...). */
export function checkLoggerName(argument: string, value: unknown): void {
  if (value != null) checkName(argument, value, 'a logger name');
}

/** Health check tags (subnet ids, chain aliases ...), at most `INPUT_LIMITS.healthTags`. */
export function checkHealthTags(argument: string, value: unknown): void {
  checkList(argument, value, INPUT_LIMITS.healthTags, (name, tag) => checkName(name, tag, 'a health check tag'));
}

/**
 * A configured node's name; omitted means the first node. An unknown name is
 * NODE_NOT_CONFIGURED (not BAD_USER_INPUT: the name may be right and the deployment
 * wrong), still naming the argument.
 */
export function checkNodeName(argument: string, value: unknown, configured: readonly string[]): void {
  if (value == null) {
    if (configured.length === 0) throw codedError(ErrorCode.NODE_NOT_CONFIGURED, NO_NODE_CONFIGURED, { argumentName: argument, configured: [] });
    return;
  }
  if (typeof value === 'string' && configured.includes(value)) return;
  throw codedError(ErrorCode.NODE_NOT_CONFIGURED, `No node named ${quoteValue(value)} is configured: ${configuredNames(configured)}`, {
    argumentName: argument,
    configured: [...configured],
  });
}

/** The node API's argument grammars as bounds (see {@link BOUNDS}): chain aliases, API paths, logger names, health tags, peers. */
export const NODE_BOUNDS = {
  alias: fromCheck(`1 to ${INPUT_LIMITS.aliasChars} characters, no whitespace or control characters.`, (argument, value) => checkAlias(argument, value)),
  apiPath: fromCheck(
    `1 to ${INPUT_LIMITS.aliasChars} characters, no whitespace or control characters, no empty, \`.\` or \`..\` segment.`,
    (argument, value) => checkApiPath(argument, value),
  ),
  blockchainId: fromCheck('Cb58 of 32 bytes, with its checksum.', (argument, value) => checkCb58Id(argument, value, 'a blockchain id (cb58 of 32 bytes)')),
  loggerName: fromCheck(`1 to ${INPUT_LIMITS.nameLength} letters, digits, '.', '_', ':', '/' or '-'.`, (argument, value) => checkLoggerName(argument, value)),
  healthTags: fromCheck(
    `At most ${INPUT_LIMITS.healthTags} tags of 1 to ${INPUT_LIMITS.nameLength} letters, digits, '.', '_', ':', '/' or '-'.`,
    (argument, value) => checkHealthTags(argument, value),
  ),
  peerNodeIds: listOf({ max: INPUT_LIMITS.peerNodeIds, item: fromCheck('A node id (`NodeID-...`, cb58 with its checksum).', checkNodeId) }),
} as const satisfies Record<string, Bound>;

// ---------------------------------------------------------------- the grammars as bounds

/**
 * The grammars above as argument bounds (`t.arg.string({ bound: BOUNDS.nodeId })`, see
 * `bounds.ts`): checked before execution and told in the argument's description.
 * Domain modules add their own with `fromCheck`, `grammar`, `between` and `listOf`.
 */
export const BOUNDS = {
  nodeId: fromCheck('A node id: `NodeID-` and the cb58 of 20 bytes, with its checksum.', checkNodeId),
  nodeIds: listOf({ max: INPUT_LIMITS.nodeIds, item: fromCheck('A node id (`NodeID-...`, cb58 with its checksum).', checkNodeId) }),
  subnetId: fromCheck('A subnet id (cb58 of 32 bytes, with its checksum).', (argument, value) => checkSubnetId(argument, value)),
  cb58Id: fromCheck('A cb58 id of 32 bytes, with its checksum.', (argument, value, index) => checkCb58Id(argument, value, undefined, index)),
  evmAddress: fromCheck('A 0x-prefixed 20-byte hex address.', checkEvmAddress),
  evmTxHash: fromCheck('A 0x-prefixed 32-byte hex transaction hash.', (argument, value) => checkEvmTxHash(argument, value)),
  chainId: fromCheck('An EVM chain id (decimal, e.g. 43114) or a blockchain id (cb58).', checkChainId),
  /** `Query.chain`: a chain id, or `c-chain` for the C-Chain of the field's network. */
  evmChainRef: fromCheck('An EVM chain id (decimal, e.g. 43114), a blockchain id (cb58), or `c-chain` (the C-Chain of `network`).', checkEvmChainRef),
  decimal: fromCheck('A string of decimal digits (at most 78).', (argument, value) => checkDecimal(argument, value)),
  date: fromCheck('A calendar date, YYYY-MM-DD.', checkDate),
  hex: fromCheck(`0x-prefixed hex, at most ${INPUT_LIMITS.hexBytes / 1024} KiB.`, (argument, value) => checkHex(argument, value)),
  operationId: fromCheck('An export operation id.', checkOperationId),
  /** Reward addresses of delegations (E13). */
  pChainAddresses: fromCheck(
    `P-chain addresses (\`avax1...\`/\`fuji1...\`, optionally \`P-\` prefixed), all of one network; at most ${INPUT_LIMITS.addresses}.`,
    (argument, value) => checkPrimaryAddresses(argument, value, ['P']),
  ),
  /** Addresses of staking rewards (E11, E12). */
  rewardAddresses: fromCheck(
    `P- or X-chain addresses (\`avax1...\`/\`fuji1...\`, optionally with a \`P-\`/\`X-\` prefix), all of one network; at most ${INPUT_LIMITS.addresses}.`,
    (argument, value) => checkPrimaryAddresses(argument, value, ['P', 'X']),
  ),
  /** A primary-network chain (`Network.blockchain`, `Subscription.blocks`); which network's is checked at resolve time. */
  primaryChainId: fromCheck(
    '`p-chain`, `x-chain`, `c-chain` (any case), or the blockchain id of one of them on this network.',
    (argument, value) => checkPrimaryChainId(argument, value),
  ),
  /** Owners of UTXOs (E4): required, of any primary chain. */
  utxoAddresses: fromCheck(
    `1 to ${INPUT_LIMITS.addresses} primary-network addresses of this network (\`avax1...\`/\`fuji1...\`, optionally with a \`P-\`/\`X-\`/\`C-\` prefix).`,
    (argument, value) => checkPrimaryAddresses(argument, value, ['P', 'X', 'C'], true),
  ),
  assetId: fromCheck('An asset id (cb58 of 32 bytes, with its checksum).', (argument, value) => checkCb58Id(argument, value, 'an asset id (cb58 of 32 bytes)')),
  unixSeconds: exactUInt64('Unix seconds', 'unix seconds'),
} as const satisfies Record<string, Bound>;
