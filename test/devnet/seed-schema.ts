/**
 * The field tables of the two seeds (`shared/seeds/chain-data-rest-api.md`,
 * `shared/seeds/node-json-rpc-api.md`) as data, and a checker that reports every
 * mismatch of an instance at once, with JSON paths.
 *
 * Types follow the seeds. Where a seed gives no type, the seed's conventions
 * decide (amounts, balances, gas values, nonces, block numbers and `txStatus`
 * are strings of decimal digits; counts, indexes, decimals and timestamps are
 * integers; the node serializes 64-bit integers as decimal strings).
 *
 * Presence: the Data API seed does not say which fields may be absent, so a
 * field is optional exactly when the public spec (`reference/glacier-openapi.json`,
 * summarised in `reference/data-api-facts.md` section 6) leaves it out of its
 * `required` list. The genesis DTOs have no `required` list at all; there the
 * seed's own enumeration (with its explicit nullable keys) is taken as required.
 * Extra fields beyond the tables are allowed.
 */

// ---------------------------------------------------------------- type language

/** Leaf kinds. */
export type Kind =
  | 'string'
  /** A string of decimal digits (amounts, balances, gas, nonces, block numbers, txStatus, node uint64). */
  | 'decimal'
  /** A non-negative decimal number as a string, fraction allowed (Price values, node float64 percentages). */
  | 'decimalNumber'
  /** `0x` followed by hex digits (possibly none). */
  | 'hex'
  /** ISO 8601 / RFC 3339 date-time string. */
  | 'isoTime'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'string[]'
  /** Any JSON object (not null, not an array). */
  | 'object'
  /** Anything, including null (presence is still checked). */
  | 'any';

export interface ShapeType {
  kind: 'shape';
  name: string;
  fields: Readonly<Record<string, Field>>;
}
export interface ArrayType {
  kind: 'array';
  of: Type;
}
export interface MapType {
  kind: 'map';
  of: Type;
  /** Keys must match this, when given. */
  key?: RegExp;
}
export interface EnumType {
  kind: 'enum';
  values: readonly string[];
}
export interface PatternType {
  kind: 'pattern';
  re: RegExp;
  label: string;
}
/** A discriminated union: the variant is chosen by the value of `tag`. */
export interface UnionType {
  kind: 'union';
  name: string;
  tag: string;
  variants: Readonly<Record<string, ShapeType>>;
  /** Whether tag values outside `variants` are accepted (checked against `fallback`). */
  fallback?: ShapeType;
}
export type Type = Kind | ShapeType | ArrayType | MapType | EnumType | PatternType | UnionType;

export interface Field {
  type: Type;
  optional: boolean;
  nullable: boolean;
}

type FieldInput = Type | Field;

function isField(x: FieldInput): x is Field {
  return typeof x === 'object' && 'optional' in x && 'nullable' in x;
}

function toField(x: FieldInput): Field {
  return isField(x) ? x : { type: x, optional: false, nullable: false };
}

/** An optional field: checked when present. */
export function opt(x: FieldInput): Field {
  return { ...toField(x), optional: true };
}

/** A field that may be JSON null (it must still be present unless also optional). */
export function nullable(x: FieldInput): Field {
  return { ...toField(x), nullable: true };
}

export function shape(name: string, fields: Readonly<Record<string, FieldInput>>): ShapeType {
  return { kind: 'shape', name, fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, toField(v)])) };
}

/** A copy of `base` under another name, with fields added or replaced. */
export function extend(base: ShapeType, name: string, fields: Readonly<Record<string, FieldInput>>): ShapeType {
  return shape(name, { ...base.fields, ...fields });
}

/** A copy of `base` in which the listed fields are optional. */
export function relax(base: ShapeType, name: string, keys: readonly string[]): ShapeType {
  const fields: Record<string, Field> = { ...base.fields };
  for (const k of keys) {
    const f = fields[k];
    if (!f) throw new Error(`relax: ${base.name} has no field ${k}`);
    fields[k] = { ...f, optional: true };
  }
  return { kind: 'shape', name, fields };
}

export const arrayOf = (of: Type): ArrayType => ({ kind: 'array', of });
export const mapOf = (of: Type, key?: RegExp): MapType => ({ kind: 'map', of, key });
export const oneOf = (...values: string[]): EnumType => ({ kind: 'enum', values });
export const matching = (re: RegExp, label: string): PatternType => ({ kind: 'pattern', re, label });

// ---------------------------------------------------------------- checker

/** Which fields of each named shape were seen present, across every checked instance. */
export class Coverage {
  private readonly seen = new Map<string, Set<string>>();
  private readonly shapes = new Map<string, ShapeType>();

  note(s: ShapeType, present: string): void {
    this.shapes.set(s.name, s);
    let set = this.seen.get(s.name);
    if (!set) this.seen.set(s.name, (set = new Set()));
    set.add(present);
  }

  touch(s: ShapeType): void {
    this.shapes.set(s.name, s);
    if (!this.seen.has(s.name)) this.seen.set(s.name, new Set());
  }

  /** `Shape.field` for every field of a checked shape that no instance carried. */
  neverSeen(): string[] {
    const out: string[] = [];
    for (const [name, s] of this.shapes) {
      const set = this.seen.get(name) ?? new Set<string>();
      for (const k of Object.keys(s.fields)) if (!set.has(k)) out.push(`${name}.${k}`);
    }
    return out.sort();
  }

  /** Names of the shapes checked at least once. */
  checked(): string[] {
    return [...this.shapes.keys()].sort();
  }
}

function describeType(t: Type): string {
  if (typeof t === 'string') {
    switch (t) {
      case 'decimal':
        return 'string of decimal digits';
      case 'decimalNumber':
        return 'decimal number string';
      case 'hex':
        return '0x-hex string';
      case 'isoTime':
        return 'ISO 8601 date-time string';
      default:
        return t;
    }
  }
  switch (t.kind) {
    case 'shape':
      return `object ${t.name}`;
    case 'array':
      return `array of ${describeType(t.of)}`;
    case 'map':
      return `map of ${describeType(t.of)}`;
    case 'enum':
      return `one of ${t.values.map((v) => JSON.stringify(v)).join(' | ')}`;
    case 'pattern':
      return t.label;
    case 'union':
      return `object ${t.name}`;
  }
}

function describeValue(v: unknown): string {
  const kind = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  let text = JSON.stringify(v) ?? String(v);
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return `${kind} ${text}`;
}

const DECIMAL = /^\d+$/;
const DECIMAL_NUMBER = /^\d+(\.\d+)?$/;
const HEX = /^0x[0-9a-fA-F]*$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function leafOk(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'decimal':
      return typeof v === 'string' && DECIMAL.test(v);
    case 'decimalNumber':
      return typeof v === 'string' && DECIMAL_NUMBER.test(v);
    case 'hex':
      return typeof v === 'string' && HEX.test(v);
    case 'isoTime':
      return typeof v === 'string' && ISO_TIME.test(v) && !Number.isNaN(Date.parse(v));
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'string[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'object':
      return isObject(v);
    case 'any':
      return true;
  }
}

function checkType(v: unknown, t: Type, path: string, out: string[], cov?: Coverage): void {
  if (typeof t === 'string') {
    if (!leafOk(t, v)) {
      // Point at the offending element of a string array.
      if (t === 'string[]' && Array.isArray(v)) {
        v.forEach((x, i) => {
          if (typeof x !== 'string') out.push(`${path}[${i}]: expected string, got ${describeValue(x)}`);
        });
      } else out.push(`${path}: expected ${describeType(t)}, got ${describeValue(v)}`);
    }
    return;
  }
  switch (t.kind) {
    case 'shape': {
      if (!isObject(v)) {
        out.push(`${path}: expected ${describeType(t)}, got ${describeValue(v)}`);
        return;
      }
      cov?.touch(t);
      for (const [key, field] of Object.entries(t.fields)) {
        const p = `${path}.${key}`;
        if (!(key in v) || v[key] === undefined) {
          if (!field.optional) out.push(`${p}: missing (${t.name} requires ${describeType(field.type)})`);
          continue;
        }
        cov?.note(t, key);
        const value = v[key];
        if (value === null) {
          if (!field.nullable) out.push(`${p}: expected ${describeType(field.type)}, got null`);
          continue;
        }
        checkType(value, field.type, p, out, cov);
      }
      return;
    }
    case 'array':
      if (!Array.isArray(v)) {
        out.push(`${path}: expected ${describeType(t)}, got ${describeValue(v)}`);
        return;
      }
      v.forEach((x, i) => checkType(x, t.of, `${path}[${i}]`, out, cov));
      return;
    case 'map':
      if (!isObject(v)) {
        out.push(`${path}: expected ${describeType(t)}, got ${describeValue(v)}`);
        return;
      }
      for (const [k, x] of Object.entries(v)) {
        if (t.key && !t.key.test(k)) out.push(`${path}: key ${JSON.stringify(k)} does not match ${t.key}`);
        checkType(x, t.of, `${path}[${JSON.stringify(k)}]`, out, cov);
      }
      return;
    case 'enum':
      if (typeof v !== 'string' || !t.values.includes(v)) out.push(`${path}: expected ${describeType(t)}, got ${describeValue(v)}`);
      return;
    case 'pattern':
      if (typeof v !== 'string' || !t.re.test(v)) out.push(`${path}: expected ${t.label}, got ${describeValue(v)}`);
      return;
    case 'union': {
      if (!isObject(v)) {
        out.push(`${path}: expected ${describeType(t)}, got ${describeValue(v)}`);
        return;
      }
      const tag = v[t.tag];
      const variant = typeof tag === 'string' ? (t.variants[tag] ?? t.fallback) : undefined;
      if (!variant) {
        out.push(`${path}.${t.tag}: expected one of ${Object.keys(t.variants).map((k) => JSON.stringify(k)).join(' | ')}, got ${describeValue(tag)}`);
        return;
      }
      checkType(v, variant, path, out, cov);
      return;
    }
  }
}

/** Every mismatch of `value` against `type`, one line each, prefixed with its JSON path. */
export function mismatches(value: unknown, type: Type, path = '$', cov?: Coverage): string[] {
  const out: string[] = [];
  checkType(value, type, path, out, cov);
  return out;
}

/**
 * Collapses repeated mismatches of list items (`[3]`, `[17]` ... become `[*]`)
 * into one line with a count, so a failure over a long page stays readable.
 */
export function summarize(lines: readonly string[]): string[] {
  const counts = new Map<string, { first: string; n: number }>();
  for (const line of lines) {
    const key = line.replace(/\[\d+\]/g, '[*]').replace(/got (\w+) .*$/, 'got $1');
    const entry = counts.get(key);
    if (entry) entry.n += 1;
    else counts.set(key, { first: line, n: 1 });
  }
  return [...counts.values()].map(({ first, n }) => (n > 1 ? `${first} (and ${n - 1} more like it)` : first));
}

// ---------------------------------------------------------------- Data API seed

export const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
export const VALIDATION_STATUSES = ['completed', 'active', 'pending', 'removed'] as const;
export const DELEGATION_STATUSES = ['completed', 'active', 'pending'] as const;

/** The error texts the seed pairs with each status. */
export const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export const ERROR_BODY = shape('ErrorBody', { message: 'string', statusCode: 'integer', error: 'string' });

export const PRICE = shape('Price', {
  currencyCode: matching(/^[a-z]+$/, 'lowercase currency code'),
  value: 'decimalNumber',
});

/** Public spec RichAddress: only `address` is required. */
export const ADDRESS_INFO = shape('AddressInfo', {
  name: opt('string'),
  symbol: opt('string'),
  decimals: opt('integer'),
  logoUri: opt('string'),
  address: 'string',
});

export const ASSET_AMOUNT = shape('AssetAmount', {
  assetId: 'string',
  name: 'string',
  symbol: 'string',
  denomination: 'integer',
  type: 'string',
  amount: 'decimal',
});

const NFT_METADATA_FIELDS = {
  indexStatus: 'string',
  metadataLastUpdatedTimestamp: opt('integer'),
  name: opt('string'),
  symbol: opt('string'),
  imageUri: opt('string'),
  description: opt('string'),
  animationUri: opt('string'),
  externalUrl: opt('string'),
  background: opt('string'),
} as const;

export const NFT_METADATA_721 = shape('NftMetadata(ERC-721)', { ...NFT_METADATA_FIELDS, attributes: opt('string') });
export const NFT_METADATA_1155 = shape('NftMetadata(ERC-1155)', {
  ...NFT_METADATA_FIELDS,
  decimals: opt('integer'),
  properties: opt('string'),
});

export const METHOD = shape('Method', { callType: 'string', methodHash: 'string', methodName: opt('string') });

export const NATIVE_TRANSACTION = shape('NativeTransaction', {
  blockNumber: 'decimal',
  blockTimestamp: 'integer',
  blockHash: 'string',
  chainId: 'string',
  blockIndex: 'integer',
  txHash: 'string',
  txStatus: 'decimal',
  txType: 'integer',
  gasLimit: 'decimal',
  gasUsed: 'decimal',
  gasPrice: 'decimal',
  nonce: 'decimal',
  from: ADDRESS_INFO,
  to: ADDRESS_INFO,
  method: opt(METHOD),
  value: 'decimal',
});

/** E6's native transaction: the public spec requires `input` and `baseFeePerGas`, the max fees are optional. */
export const DEPLOYMENT_NATIVE_TRANSACTION = extend(NATIVE_TRANSACTION, 'NativeTransaction(deployment)', {
  input: 'hex',
  baseFeePerGas: 'decimal',
  maxFeePerGas: opt('decimal'),
  maxPriorityFeePerGas: opt('decimal'),
});

export const ERC20_TOKEN = shape('Erc20Token', {
  address: 'string',
  name: 'string',
  symbol: 'string',
  decimals: 'integer',
  logoUri: opt('string'),
  ercType: oneOf('ERC-20'),
  price: opt(PRICE),
});

export const ERC20_TRANSFER = shape('Erc20Transfer', {
  from: ADDRESS_INFO,
  to: ADDRESS_INFO,
  logIndex: 'integer',
  value: 'decimal',
  erc20Token: ERC20_TOKEN,
});

export const ERC721_TOKEN = shape('Erc721Token', {
  address: 'string',
  name: 'string',
  symbol: 'string',
  ercType: oneOf('ERC-721'),
  tokenId: 'string',
  tokenUri: 'string',
  metadata: NFT_METADATA_721,
  ownerAddress: opt('string'),
});

export const ERC721_TRANSFER = shape('Erc721Transfer', {
  from: ADDRESS_INFO,
  to: ADDRESS_INFO,
  logIndex: 'integer',
  erc721Token: ERC721_TOKEN,
});

export const ERC1155_TOKEN = shape('Erc1155Token', {
  address: 'string',
  ercType: oneOf('ERC-1155'),
  tokenId: 'string',
  tokenUri: 'string',
  metadata: NFT_METADATA_1155,
});

export const ERC1155_TRANSFER = shape('Erc1155Transfer', {
  from: ADDRESS_INFO,
  to: ADDRESS_INFO,
  logIndex: 'integer',
  value: 'decimal',
  erc1155Token: ERC1155_TOKEN,
});

export const INTERNAL_TRANSACTION = shape('InternalTransaction', {
  from: ADDRESS_INFO,
  to: ADDRESS_INFO,
  internalTxType: 'string',
  value: 'decimal',
  isReverted: 'boolean',
  gasUsed: 'decimal',
  gasLimit: 'decimal',
});

export const TELEPORTER_MESSAGE_INFO = shape('TeleporterMessageInfo', {
  teleporterMessageId: 'string',
  direction: 'string',
  sourceChainId: opt('string'),
  destinationChainId: opt('string'),
});

export const NATIVE_TOKEN_BALANCE = shape('NativeTokenBalance', {
  name: 'string',
  symbol: 'string',
  decimals: 'integer',
  logoUri: opt('string'),
  chainId: 'string',
  price: opt(PRICE),
  balance: 'decimal',
  balanceValue: opt(PRICE),
});

export const ERC1155_TOKEN_BALANCE = shape('Erc1155TokenBalance', {
  address: 'string',
  ercType: oneOf('ERC-1155'),
  tokenId: 'string',
  tokenUri: 'string',
  metadata: NFT_METADATA_1155,
  chainId: 'string',
  balance: 'decimal',
});

/** The seed's single UTXO shape (the public spec's PChainUtxo, which fixes the optional fields). */
export const UTXO = shape('Utxo', {
  addresses: 'string[]',
  asset: ASSET_AMOUNT,
  consumedOnChainId: 'string',
  createdOnChainId: 'string',
  consumingTxHash: opt('string'),
  txHash: 'string',
  utxoId: 'string',
  utxoBytes: opt('string'),
  amount: 'decimal',
  assetId: 'string',
  blockNumber: 'decimal',
  consumingBlockNumber: opt('decimal'),
  blockTimestamp: 'integer',
  consumingBlockTimestamp: opt('integer'),
  platformLocktime: opt('integer'),
  stakeableLocktime: opt('integer'),
  outputIndex: 'integer',
  threshold: opt('integer'),
  rewardType: opt('string'),
  staked: opt('boolean'),
  utxoStartTimestamp: opt('integer'),
  utxoEndTimestamp: opt('integer'),
  utxoType: 'string',
});

export const EXPORT_OPERATION = shape('ExportOperation', {
  operationId: 'string',
  operationType: 'string',
  operationStatus: 'string',
  message: opt('string'),
  metadata: opt(
    shape('ExportOperation.metadata', { code: opt('string'), downloadUrl: opt('string'), nextDate: opt('string') }),
  ),
  createdAtTimestamp: 'integer',
  updatedAtTimestamp: 'integer',
});

export const ALLOW_LIST_CONFIG = shape('PrecompileConfig', {
  blockTimestamp: 'integer',
  adminAddresses: 'string[]',
  managerAddresses: 'string[]',
  enabledAddresses: 'string[]',
});

export const FEE_CONFIG = shape('genesisData.config.feeConfig', {
  baseFeeChangeDenominator: 'integer',
  blockGasCostStep: 'integer',
  gasLimit: 'integer',
  maxBlockGasCost: 'integer',
  minBaseFee: 'integer',
  minBlockGasCost: 'integer',
  targetBlockRate: 'integer',
  targetGas: 'integer',
});

export const WARP_CONFIG = shape('genesisData.config.warpConfig', {
  blockTimestamp: 'integer',
  quorumNumerator: 'integer',
  requirePrimaryNetworkSigners: 'boolean',
});

export const PRECOMPILE_CONFIG_KEYS = [
  'txAllowListConfig',
  'contractDeployerAllowListConfig',
  'contractNativeMinterConfig',
  'feeManagerConfig',
  'rewardManagerConfig',
] as const;

export const GENESIS_CONFIG = shape('genesisData.config', {
  berlinBlock: 'integer',
  byzantiumBlock: 'integer',
  chainId: 'integer',
  constantinopleBlock: 'integer',
  eip150Block: 'integer',
  eip150Hash: 'string',
  eip155Block: 'integer',
  eip158Block: 'integer',
  homesteadBlock: 'integer',
  istanbulBlock: 'integer',
  londonBlock: 'integer',
  muirGlacierBlock: 'integer',
  petersburgBlock: 'integer',
  subnetEVMTimestamp: 'integer',
  allowFeeRecipients: 'boolean',
  feeConfig: FEE_CONFIG,
  warpConfig: WARP_CONFIG,
  ...Object.fromEntries(PRECOMPILE_CONFIG_KEYS.map((k) => [k, ALLOW_LIST_CONFIG])),
});

export const GENESIS_ALLOC = shape('genesisData.alloc[]', { balance: 'hex', code: 'hex', storage: mapOf('string') });

/**
 * The seed names the nullable keys but not their non-null type; the public spec
 * (EvmGenesisDto) gives number for `airdropAmount` / `baseFeePerGas` and a
 * string for the blob gas fields. Every other key is a hex string.
 */
export const GENESIS_DATA = shape('genesisData', {
  airdropAmount: nullable('number'),
  airdropHash: 'hex',
  alloc: mapOf(GENESIS_ALLOC),
  baseFeePerGas: nullable('number'),
  blobGasUsed: nullable('hex'),
  coinbase: 'hex',
  config: GENESIS_CONFIG,
  difficulty: 'hex',
  excessBlobGas: nullable('hex'),
  extraData: 'hex',
  gasLimit: 'hex',
  gasUsed: 'hex',
  mixHash: 'hex',
  nonce: 'hex',
  number: 'hex',
  parentHash: 'hex',
  timestamp: 'hex',
});

/** `evmChainId` and `genesisData` are optional in the public spec (P- and X-chains have neither). */
export const BLOCKCHAIN = shape('Blockchain', {
  createBlockTimestamp: 'integer',
  createBlockNumber: 'decimal',
  blockchainId: 'string',
  vmId: 'string',
  subnetId: 'string',
  blockchainName: 'string',
  evmChainId: opt('integer'),
  genesisData: opt(GENESIS_DATA),
});

export const SUBNET = shape('Subnet', {
  createBlockTimestamp: 'integer',
  createBlockIndex: 'decimal',
  subnetId: 'string',
  ownerAddresses: 'string[]',
  threshold: 'integer',
  locktime: 'integer',
  subnetOwnershipInfo: shape('Subnet.subnetOwnershipInfo', { locktime: 'integer', threshold: 'integer', addresses: 'string[]' }),
  isL1: 'boolean',
  l1ConversionTransactionHash: opt('string'),
  l1ValidatorManagerDetails: opt(shape('Subnet.l1ValidatorManagerDetails', { blockchainId: 'string', contractAddress: 'string' })),
  blockchains: arrayOf(BLOCKCHAIN),
});

export const VALIDATOR_REWARDS = shape('Validator.rewards', {
  validationRewardAmount: 'decimal',
  delegationRewardAmount: 'decimal',
  rewardAddresses: opt('string[]'),
  rewardTxHash: opt('string'),
});

/** Every seed field required; each status then relaxes what its public-spec shape does not require. */
const VALIDATOR_ALL = shape('Validator', {
  txHash: 'string',
  nodeId: 'string',
  subnetId: 'string',
  amountStaked: 'decimal',
  delegationFee: 'string',
  amountDelegated: 'decimal',
  startTimestamp: 'integer',
  endTimestamp: 'integer',
  blsCredentials: shape('Validator.blsCredentials', { publicKey: 'string', proofOfPossession: 'string' }),
  delegatorCount: 'integer',
  rewards: VALIDATOR_REWARDS,
  validationStatus: oneOf(...VALIDATION_STATUSES),
});

/** Per public spec: delegationFee and blsCredentials are optional for all; amountDelegated for all but none requires it. */
export const VALIDATOR = {
  kind: 'union',
  name: 'Validator',
  tag: 'validationStatus',
  variants: {
    completed: relax(VALIDATOR_ALL, 'Validator', ['delegationFee', 'blsCredentials', 'amountDelegated']),
    active: relax(VALIDATOR_ALL, 'Validator', ['delegationFee', 'blsCredentials', 'amountDelegated', 'rewards']),
    pending: relax(VALIDATOR_ALL, 'Validator', ['delegationFee', 'blsCredentials', 'amountDelegated', 'rewards', 'delegatorCount']),
    removed: relax(VALIDATOR_ALL, 'Validator', ['delegationFee', 'blsCredentials', 'amountDelegated', 'rewards', 'delegatorCount']),
  },
} as const satisfies UnionType;

const DELEGATOR_ALL = shape('Delegator', {
  txHash: 'string',
  nodeId: 'string',
  rewardAddresses: 'string[]',
  amountDelegated: 'decimal',
  delegationFee: 'string',
  grossReward: 'decimal',
  netReward: 'decimal',
  startTimestamp: 'integer',
  endTimestamp: 'integer',
  delegationStatus: oneOf(...DELEGATION_STATUSES),
});

/** Active and pending delegations carry `estimated*` rewards in the public spec, so gross/net are optional there. */
export const DELEGATOR = {
  kind: 'union',
  name: 'Delegator',
  tag: 'delegationStatus',
  variants: {
    completed: DELEGATOR_ALL,
    active: relax(DELEGATOR_ALL, 'Delegator', ['grossReward', 'netReward']),
    pending: relax(DELEGATOR_ALL, 'Delegator', ['grossReward', 'netReward']),
  },
} as const satisfies UnionType;

export const HISTORICAL_REWARD = shape('HistoricalReward', {
  addresses: 'string[]',
  txHash: 'string',
  amountStaked: 'decimal',
  nodeId: 'string',
  startTimestamp: 'integer',
  endTimestamp: 'integer',
  rewardType: 'string',
  utxoId: 'string',
  outputIndex: 'integer',
  reward: extend(ASSET_AMOUNT, 'HistoricalReward.reward', { historicalPrice: opt(PRICE) }),
  rewardTxHash: 'string',
});

export const PENDING_REWARD = shape('PendingReward', {
  addresses: 'string[]',
  txHash: 'string',
  amountStaked: 'decimal',
  nodeId: 'string',
  startTimestamp: 'integer',
  endTimestamp: 'integer',
  rewardType: 'string',
  progress: 'number',
  estimatedReward: ASSET_AMOUNT,
});

export const PROPOSER_DETAILS = shape('Block.proposerDetails', {
  proposerId: opt('string'),
  proposerParentId: opt('string'),
  proposerNodeId: opt('string'),
  proposerPChainHeight: opt('integer'),
  proposerTimestamp: opt('integer'),
});

export const BLOCK = shape('Block', {
  blockNumber: 'decimal',
  blockHash: 'string',
  parentHash: 'string',
  blockType: 'string',
  blockTimestamp: 'integer',
  txCount: 'integer',
  transactions: 'string[]',
  blockSizeBytes: 'integer',
  l1ValidatorsAccruedFees: opt('integer'),
  activeL1Validators: opt('integer'),
  currentSupply: opt('decimal'),
  proposerDetails: opt(PROPOSER_DETAILS),
});

export const VERTEX = shape('Vertex', {
  vertexHash: 'string',
  parentHashes: 'string[]',
  vertexHeight: 'integer',
  vertexIndex: 'integer',
  vertexTimestamp: 'integer',
  txCount: 'integer',
  transactions: 'string[]',
  vertexSizeBytes: 'integer',
});

const ICM_MESSAGE_ALL = shape('IcmMessage', {
  messageId: 'string',
  icmContractAddress: 'string',
  sourceBlockchainId: 'string',
  destinationBlockchainId: 'string',
  sourceEvmChainId: 'string',
  destinationEvmChainId: 'string',
  messageNonce: 'decimal',
  from: 'string',
  to: 'string',
  data: opt('string'),
  messageExecuted: 'boolean',
  receipts: arrayOf(shape('IcmMessage.receipts[]', { receivedMessageNonce: 'decimal', relayerRewardAddress: 'string' })),
  receiptDelivered: 'boolean',
  rewardDetails: shape('IcmMessage.rewardDetails', {
    address: 'string',
    name: 'string',
    symbol: 'string',
    decimals: 'integer',
    logoUri: opt('string'),
    ercType: 'string',
    price: opt(PRICE),
    value: 'decimal',
  }),
  sourceTransaction: shape('IcmMessage.sourceTransaction', { txHash: 'string', timestamp: 'integer', gasSpent: 'decimal' }),
  status: 'string',
});

/** The seed saw only `pending`; the public spec adds `delivered` and `delivered_source_not_indexed` (no source transaction). */
export const ICM_MESSAGE = {
  kind: 'union',
  name: 'IcmMessage',
  tag: 'status',
  variants: {
    pending: ICM_MESSAGE_ALL,
    delivered: ICM_MESSAGE_ALL,
    delivered_source_not_indexed: relax(ICM_MESSAGE_ALL, 'IcmMessage', ['sourceTransaction']),
  },
} as const satisfies UnionType;

export const CHAIN = shape('Chain', {
  chainId: 'string',
  status: 'string',
  chainName: 'string',
  description: 'string',
  platformChainId: opt('string'),
  subnetId: opt('string'),
  vmId: opt('string'),
  vmName: 'string',
  explorerUrl: opt('string'),
  rpcUrl: 'string',
  wsUrl: opt('string'),
  isTestnet: 'boolean',
  utilityAddresses: opt(shape('Chain.utilityAddresses', { multicall: opt('string') })),
  networkToken: shape('Chain.networkToken', {
    name: 'string',
    symbol: 'string',
    decimals: 'integer',
    logoUri: opt('string'),
    description: opt('string'),
  }),
  chainLogoUri: opt('string'),
  private: opt('boolean'),
  enabledFeatures: opt(arrayOf(oneOf('nftIndexing', 'webhooks', 'teleporter'))),
});

export const NFT_TOKEN = extend(ERC721_TOKEN, 'NftToken', {});

export const CHAIN_INFO = shape('chainInfo', { chainName: 'string', network: oneOf(...NETWORKS) });

/** A list response: the optional `nextPageToken` plus the named array (and `chainInfo` where the seed says so). */
export function pageOf(name: string, key: string, item: Type, extra: Readonly<Record<string, FieldInput>> = {}): ShapeType {
  return shape(`${name} page`, { nextPageToken: opt('string'), [key]: arrayOf(item), ...extra });
}

export const TRANSACTION_DETAILS = shape('E3 item', {
  nativeTransaction: NATIVE_TRANSACTION,
  erc20Transfers: opt(arrayOf(ERC20_TRANSFER)),
  erc721Transfers: opt(arrayOf(ERC721_TRANSFER)),
  erc1155Transfers: opt(arrayOf(ERC1155_TRANSFER)),
  internalTransactions: opt(arrayOf(INTERNAL_TRANSACTION)),
});

export const NETWORK_TOKEN_DETAILS = shape('networkTokenDetails', {
  networkToken: shape('networkTokenDetails.networkToken', {
    name: 'string',
    symbol: 'string',
    decimals: 'integer',
    logoUri: opt('string'),
    description: opt('string'),
  }),
  currentPrice: opt(PRICE),
  historicalPrice: opt(PRICE),
});

/** E6 (and the single-transaction view, which the public spec gives the same schema). */
export const DEPLOYMENT_RESPONSE = shape('E6 response', {
  erc20Transfers: opt(arrayOf(ERC20_TRANSFER)),
  erc721Transfers: opt(arrayOf(ERC721_TRANSFER)),
  erc1155Transfers: opt(arrayOf(ERC1155_TRANSFER)),
  internalTransactions: opt(arrayOf(INTERNAL_TRANSACTION)),
  networkTokenDetails: NETWORK_TOKEN_DETAILS,
  nativeTransaction: DEPLOYMENT_NATIVE_TRANSACTION,
  teleporterMessageInfo: opt(TELEPORTER_MESSAGE_INFO),
});

/** The seed says "(hex)" without fixing a `0x` prefix (inputs may carry one or not). */
export const SIGNED_MESSAGE = shape('SignedMessage', { signedMessage: matching(/^(0x)?([0-9a-fA-F]{2})+$/, 'hex string') });

export const E3_PAGE = pageOf('E3', 'transactions', TRANSACTION_DETAILS);
export const E4_PAGE = pageOf('E4', 'utxos', UTXO, { chainInfo: CHAIN_INFO });
export const E7_PAGE = pageOf('E7', 'subnets', SUBNET);
export const E8_PAGE = pageOf('E8', 'validators', VALIDATOR);
export const E9_PAGE = pageOf('E9', 'transactions', NATIVE_TRANSACTION);
export const E10_PAGE = pageOf('E10', 'erc1155TokenBalances', ERC1155_TOKEN_BALANCE, { nativeTokenBalance: NATIVE_TOKEN_BALANCE });
export const E11_PAGE = pageOf('E11', 'historicalRewards', HISTORICAL_REWARD);
export const E12_PAGE = pageOf('E12', 'pendingRewards', PENDING_REWARD);
export const E13_PAGE = pageOf('E13', 'delegators', DELEGATOR);
export const E14_RESPONSE = shape('E14 response', { nativeTokenBalance: NATIVE_TOKEN_BALANCE });
export const E15_PAGE = pageOf('E15', 'blocks', BLOCK, { chainInfo: CHAIN_INFO });
export const E16_PAGE = pageOf('E16', 'messages', ICM_MESSAGE);
export const E17_RESPONSE = shape('E17 response', { chains: arrayOf(CHAIN) });
export const E18_PAGE = pageOf('E18', 'vertices', VERTEX, { chainInfo: CHAIN_INFO });

// ---------------------------------------------------------------- Node seed

const NODE_ID = matching(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/, 'NodeID-<cb58>');

/** Per the node seed's note, `observedUptime` is serialized as a (decimal) string. */
export const PEER = shape('Peer', {
  ip: 'string',
  publicIP: 'string',
  nodeID: NODE_ID,
  version: 'string',
  lastSent: 'string',
  lastReceived: 'string',
  benched: 'string[]',
  observedUptime: 'decimal',
  trackedSubnets: 'string[]',
});

/** uint64 weights as decimal strings; sets as arrays. */
export const ACP_PREFERENCE = shape('AcpPreference', {
  supportWeight: 'decimal',
  supporters: arrayOf(NODE_ID),
  objectWeight: 'decimal',
  objectors: arrayOf(NODE_ID),
  abstainWeight: 'decimal',
});

export const TX_FEE_FIELDS = [
  'txFee',
  'createAssetTxFee',
  'createSubnetTxFee',
  'transformSubnetTxFee',
  'createBlockchainTxFee',
  'addPrimaryNetworkValidatorFee',
  'addPrimaryNetworkDelegatorFee',
  'addSubnetValidatorFee',
  'addSubnetDelegatorFee',
] as const;

export const FEE_RECORD = shape('FeeRecord', Object.fromEntries(TX_FEE_FIELDS.map((k) => [k, 'decimal' as const])));

export const UPGRADE_TIME_FIELDS = [
  'apricotPhase1Time',
  'apricotPhase2Time',
  'apricotPhase3Time',
  'apricotPhase4Time',
  'apricotPhase5Time',
  'apricotPhasePre6Time',
  'apricotPhase6Time',
  'apricotPhasePost6Time',
  'banffTime',
  'cortinaTime',
  'durangoTime',
  'etnaTime',
  'fortunaTime',
  'graniteTime',
] as const;

export const UPGRADE_SCHEDULE = shape('UpgradeSchedule', {
  ...Object.fromEntries(UPGRADE_TIME_FIELDS.map((k) => [k, 'isoTime' as const])),
  apricotPhase4MinPChainHeight: 'integer',
  cortinaXChainStopVertexID: 'string',
});

/**
 * `contiguousFailures` and `timeOfFirstFailure` describe failures: the test
 * requires them on failing checks (those with an `error`) and only type-checks
 * them elsewhere.
 */
export const HEALTH_CHECK_RESULT = shape('HealthCheckResult', {
  message: opt('any'),
  error: opt('any'),
  timestamp: 'string',
  duration: 'integer',
  contiguousFailures: opt('integer'),
  timeOfFirstFailure: opt('string'),
});

export const HEALTH_REPORT = shape('HealthReport', { checks: mapOf(HEALTH_CHECK_RESULT), healthy: 'boolean' });

export const LOGGER_LEVELS = shape('admin.getLoggerLevel result', {
  loggerLevels: mapOf(shape('LoggerLevel', { logLevel: 'string', displayLevel: 'string' })),
});

/** Health check names the node seed saw, and what their messages carry. */
export const HEALTH_CHECK_NAMES = ['C', 'P', 'X', 'bootstrapped', 'database', 'diskspace', 'network', 'router'] as const;
export const CHAIN_CHECK_MESSAGE = shape('chain check message', {
  engine: shape('chain check message.engine', {
    consensus: shape('chain check message.engine.consensus', {
      lastAcceptedHeight: 'any',
      lastAcceptedID: 'any',
      longestProcessingBlock: 'any',
      processingBlocks: 'any',
    }),
    vm: nullable('any'),
  }),
  networking: shape('chain check message.networking', { percentConnected: 'any' }),
});
export const DISKSPACE_CHECK_MESSAGE = shape('diskspace check message', { availableDiskBytes: 'any' });
export const NETWORK_CHECK_MESSAGE = shape('network check message', {
  connectedPeers: 'any',
  sendFailRate: 'any',
  timeSinceLastMsgReceived: 'any',
  timeSinceLastMsgSent: 'any',
});
export const ROUTER_CHECK_MESSAGE = shape('router check message', { longestRunningRequest: 'any', outstandingRequests: 'any' });

const EMPTY = shape('{}', {});

/** Result shape of every node JSON-RPC method of the seed. */
export const NODE_RESULTS = {
  'admin.alias': EMPTY,
  'admin.aliasChain': EMPTY,
  'admin.getChainAliases': shape('admin.getChainAliases result', { aliases: 'string[]' }),
  'admin.getLoggerLevel': LOGGER_LEVELS,
  'admin.loadVMs': shape('admin.loadVMs result', { newVMs: mapOf('string[]'), failedVMs: opt(mapOf('string')) }),
  'admin.lockProfile': EMPTY,
  'admin.memoryProfile': EMPTY,
  'admin.setLoggerLevel': EMPTY,
  'admin.startCPUProfiler': EMPTY,
  'admin.stopCPUProfiler': EMPTY,
  'info.acps': shape('info.acps result', { acps: mapOf(ACP_PREFERENCE, /^\d+$/) }),
  'info.isBootstrapped': shape('info.isBootstrapped result', { isBootstrapped: 'boolean' }),
  'info.getBlockchainID': shape('info.getBlockchainID result', { blockchainID: 'string' }),
  /** Serialized as a string, per the seed's note. */
  'info.getNetworkID': shape('info.getNetworkID result', { networkID: 'decimal' }),
  'info.getNetworkName': shape('info.getNetworkName result', { networkName: 'string' }),
  'info.getNodeID': shape('info.getNodeID result', {
    nodeID: NODE_ID,
    nodePOP: shape('info.getNodeID result.nodePOP', {
      publicKey: matching(/^0x[0-9a-f]{96}$/, '48-byte 0x-hex BLS public key'),
      proofOfPossession: matching(/^0x[0-9a-f]{192}$/, '96-byte 0x-hex BLS signature'),
    }),
  }),
  'info.getNodeIP': shape('info.getNodeIP result', { ip: matching(/^(\[[0-9a-fA-F:.]+\]|[0-9.]+|[A-Za-z0-9.-]+):\d+$/, 'host:port') }),
  'info.getNodeVersion': shape('info.getNodeVersion result', {
    version: 'string',
    databaseVersion: 'string',
    gitCommit: 'string',
    vmVersions: mapOf('string'),
    rpcProtocolVersion: 'string',
  }),
  'info.getTxFee': FEE_RECORD,
  'info.getVMs': shape('info.getVMs result', { vms: mapOf('string[]') }),
  /** `numPeers` is a 64-bit count: a decimal string per the seed's note. */
  'info.peers': shape('info.peers result', { numPeers: 'decimal', peers: arrayOf(PEER) }),
  'info.uptime': shape('info.uptime result', { rewardingStakePercentage: 'decimalNumber', weightedAveragePercentage: 'decimalNumber' }),
  'info.upgrades': UPGRADE_SCHEDULE,
  'health.health': HEALTH_REPORT,
  'health.readiness': HEALTH_REPORT,
  'health.liveness': HEALTH_REPORT,
} as const satisfies Record<string, ShapeType>;

export type NodeMethod = keyof typeof NODE_RESULTS;

export const JSON_RPC_RESPONSE = shape('JSON-RPC response', { jsonrpc: oneOf('2.0'), id: 'integer', result: 'object' });
