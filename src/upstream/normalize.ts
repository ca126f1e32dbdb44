/**
 * Tolerant reading of upstream answers, in one place.
 *
 * The seed and the public spec disagree on a few shapes (a price `value` is a
 * string in the seed and a number in the spec; the spec has four validator
 * shapes and two UTXO shapes; the node sends some numbers as strings). The
 * clients pass every answer through these functions so that code above the
 * upstream layer sees only the forms declared in `types.ts`.
 *
 * The functions work on freshly parsed JSON that nobody else holds, so they
 * may update it in place.
 */
import { STATUS_CODES } from 'node:http';
import type {
  ErrorBody, HealthReport, NodeRpcMethod, NodeRpcMethods, Page, Utxo, Validator,
} from '../shapes/index.ts';

type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}


export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * Reads an error answer as the seed's error body. Accepts `message` as a string
 * or a list of strings (the spec's form, kept as is: `errorBodyMessage` joins it),
 * and fills `statusCode` / `error` from the HTTP status when a server leaves them
 * out. Anything without a message or an error text is not an error body.
 */
export function normalizeErrorBody(raw: unknown, status: number): ErrorBody | undefined {
  if (!isObject(raw)) return undefined;
  const { message, error, statusCode } = raw;
  const validMessage =
    typeof message === 'string' || (Array.isArray(message) && message.every((m) => typeof m === 'string'));
  if (!validMessage && typeof error !== 'string') return undefined;
  return {
    message: validMessage ? (message as string | string[]) : (error as string),
    statusCode: typeof statusCode === 'number' ? statusCode : status,
    error: typeof error === 'string' ? error : statusText(status),
  };
}

/**
 * A decimal string for a JSON number, without the exponent form `String()` uses
 * for very large or very small values.
 */
export function decimalString(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const plain = String(value);
  if (!/e/i.test(plain)) return plain;
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * Every Price / Money object (`{currencyCode, value}`) anywhere in the answer
 * gets a string `value`: the spec sends a number, the seed a string.
 */
export function normalizePrices<T>(value: T): T {
  walk(value);
  return value;
}

function walk(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item);
    return;
  }
  if (!isObject(value)) return;
  if (typeof value.currencyCode === 'string' && typeof value.value === 'number') {
    value.value = decimalString(value.value);
  }
  for (const key in value) {
    const child = value[key];
    if (typeof child === 'object' && child !== null) walk(child);
  }
}

/** The spec says an omitted or empty `nextPageToken` means the last page; only the omitted form goes up. */
export function normalizePage<T extends Page>(page: T): T {
  if (page.nextPageToken === '' || page.nextPageToken === null) delete page.nextPageToken;
  return page;
}

/**
 * The spec's active validators carry `potentialRewards` instead of `rewards`;
 * both are kept, and `rewards` is filled from `potentialRewards` when missing.
 */
export function normalizeValidator(validator: Validator): Validator {
  if (validator.rewards === undefined && validator.potentialRewards !== undefined) {
    validator.rewards = validator.potentialRewards;
  }
  return validator;
}

/**
 * The spec has two UTXO shapes with no discriminator: the P-chain's (the seed's
 * shape) and the X/C-chain `Utxo` with `creationTxHash`, `timestamp`, `locktime`,
 * `consumingTxTimestamp` and a string `outputIndex`. The latter is mapped onto
 * the seed's names. `blockNumber` has no counterpart there and stays absent.
 */
export function normalizeUtxo(raw: Utxo): Utxo {
  const utxo = raw as unknown as JsonObject;
  const isXcShape = typeof utxo.creationTxHash === 'string' || typeof utxo.outputIndex === 'string';
  if (!isXcShape) return raw;
  const { creationTxHash, timestamp, locktime, consumingTxTimestamp, ...rest } = utxo;
  const asset = isObject(rest.asset) ? rest.asset : undefined;
  const mapped: JsonObject = { ...rest };
  if (mapped.txHash === undefined && creationTxHash !== undefined) mapped.txHash = creationTxHash;
  if (mapped.blockTimestamp === undefined && timestamp !== undefined) mapped.blockTimestamp = timestamp;
  if (mapped.platformLocktime === undefined && locktime !== undefined) mapped.platformLocktime = locktime;
  if (mapped.consumingBlockTimestamp === undefined && consumingTxTimestamp !== undefined) {
    mapped.consumingBlockTimestamp = consumingTxTimestamp;
  }
  if (typeof mapped.outputIndex === 'string') mapped.outputIndex = Number(mapped.outputIndex);
  if (mapped.amount === undefined && asset?.amount !== undefined) mapped.amount = asset.amount;
  if (mapped.assetId === undefined && asset?.assetId !== undefined) mapped.assetId = asset.assetId;
  return mapped as unknown as Utxo;
}

// ---------------------------------------------------------------- node answers

/** The node serializes `json.Uint32`/`json.Float64` values as strings; these become numbers. */
function toNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

/**
 * Converts the node's stringly numbers that `NodeRpcMethods` declares as numbers
 * (`networkID`, `numPeers`, `observedUptime`, the uptime percentages). 64-bit
 * weights and fees stay decimal strings.
 */
export function normalizeNodeResult<M extends NodeRpcMethod>(method: M, result: unknown): NodeRpcMethods[M]['result'] {
  if (!isObject(result)) return result as NodeRpcMethods[M]['result'];
  switch (method) {
    case 'info.getNetworkID':
      result.networkID = toNumber(result.networkID);
      break;
    case 'info.uptime':
      result.rewardingStakePercentage = toNumber(result.rewardingStakePercentage);
      result.weightedAveragePercentage = toNumber(result.weightedAveragePercentage);
      break;
    case 'info.peers': {
      result.numPeers = toNumber(result.numPeers);
      if (result.peers === null || result.peers === undefined) result.peers = [];
      if (Array.isArray(result.peers)) {
        for (const peer of result.peers) {
          if (isObject(peer)) peer.observedUptime = toNumber(peer.observedUptime);
        }
      }
      break;
    }
    default:
      break;
  }
  return result as NodeRpcMethods[M]['result'];
}

/** True when the value has the `{checks, healthy}` shape of a health report. */
export function isHealthReport(value: unknown): value is HealthReport {
  return isObject(value) && typeof value.healthy === 'boolean' && isObject(value.checks);
}
