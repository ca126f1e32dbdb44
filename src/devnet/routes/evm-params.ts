// Parameter parsing and offset paging of the EVM half of the Data API: every
// bound of the seed, refused with its error body (see http-error.ts).
import { CURRENCY_CODES, type CurrencyCode } from '../../shapes/index.ts';
import type { Chain } from '../../shapes/index.ts';
import type { EvmData, EvmNetwork } from '../dataset/evm/index.ts';
import { EVM_ADDRESS } from '../../lib/ids.ts';
import { shortDigest } from '../../lib/text.ts';
import { fail } from './http-error.ts';

export const HEX = /^(0x)?([0-9a-fA-F]{2})+$/;

/**
 * An EVM chain by its EVM chain id or its blockchain id, with the network's data it lives in; the
 * Data API's 404 otherwise. EVM chain ids are global, so both networks are searched.
 */
export function chainLookup(evm: Record<EvmNetwork, EvmData>): (chainId: string) => { data: EvmData; chain: Chain } {
  const networks: EvmNetwork[] = ['mainnet', 'fuji'];
  return (chainId) => {
    for (const n of networks) {
      const data = evm[n];
      if (!data.hasChain(chainId)) continue;
      const chain = data.chains().find((c) => c.chainId === chainId || c.platformChainId === chainId);
      if (chain) return { data, chain };
    }
    return fail(404, `Chain ${chainId} not found`);
  };
}

export function networkOf(value: string, name = 'network'): EvmNetwork {
  if (value === 'mainnet') return 'mainnet';
  if (value === 'fuji' || value === 'testnet') return 'fuji';
  return fail(400, `${name} must be one of mainnet, fuji, testnet`);
}

export function evmAddress(value: string, name = 'address'): string {
  if (!EVM_ADDRESS.test(value)) fail(400, `Invalid ${name} format: expected 0x followed by 40 hex characters`);
  return value.toLowerCase();
}

/** A query parameter, or undefined when absent (an empty value counts as given, and is usually invalid). */
export function param(q: URLSearchParams, name: string): string | undefined {
  return q.has(name) ? (q.get(name) ?? '') : undefined;
}

function uintParam(q: URLSearchParams, name: string): number | undefined {
  const raw = param(q, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) fail(400, `${name} must be a non-negative integer`);
  return Number(raw);
}

export function enumParam<T extends string>(q: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const raw = param(q, name);
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) fail(400, `${name} must be one of ${values.join(', ')}`);
  return raw as T;
}

export function currencyParam(q: URLSearchParams): CurrencyCode {
  return enumParam(q, 'currency', CURRENCY_CODES) ?? 'usd';
}

export function blockRange(q: URLSearchParams): { startBlock?: number; endBlock?: number } {
  const startBlock = uintParam(q, 'startBlock');
  const endBlock = uintParam(q, 'endBlock');
  if (startBlock !== undefined && endBlock !== undefined && startBlock > endBlock) {
    fail(400, 'startBlock must be less than or equal to endBlock');
  }
  const range: { startBlock?: number; endBlock?: number } = {};
  if (startBlock !== undefined) range.startBlock = startBlock;
  if (endBlock !== undefined) range.endBlock = endBlock;
  return range;
}

export function blockNumberParam(q: URLSearchParams): number | undefined {
  const raw = param(q, 'blockNumber');
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) fail(400, 'blockNumber must be a string of decimal digits');
  return Number(raw);
}

export function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function parseJsonBody(body: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return fail(400, 'Request body must be a JSON object');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) fail(400, 'Request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

// ---------------------------------------------------------------- pagination

export interface PageLimits {
  defaultSize: number;
  maxSize: number;
}

export const LIST_LIMITS: PageLimits = { defaultSize: 10, maxSize: 100 };
export const E10_LIMITS: PageLimits = { defaultSize: 10, maxSize: 500 };

function scopeHash(scope: string): string {
  return shortDigest(scope, 12);
}

/**
 * Offset paging. The token is base64url JSON `{o, h}`: the offset and a hash of
 * the route and filters, so a token cannot be replayed against other filters.
 * The page size is not part of the hash: a client may change it between pages.
 */
export function paginate<T>(items: readonly T[], q: URLSearchParams, limits: PageLimits, scope: string): { page: T[]; nextPageToken?: string } {
  const rawSize = param(q, 'pageSize');
  let size = limits.defaultSize;
  if (rawSize !== undefined) {
    if (!/^\d+$/.test(rawSize) || Number(rawSize) < 1 || Number(rawSize) > limits.maxSize) {
      fail(400, `pageSize must be an integer between 1 and ${limits.maxSize}`);
    }
    size = Number(rawSize);
  }
  const h = scopeHash(scope);
  let offset = 0;
  const token = param(q, 'pageToken');
  if (token !== undefined) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    } catch {
      decoded = undefined;
    }
    const t = decoded as { o?: unknown; h?: unknown } | undefined;
    if (!t || typeof t !== 'object' || !Number.isSafeInteger(t.o) || (t.o as number) < 0 || t.h !== h) {
      fail(400, 'Invalid pageToken');
    }
    offset = (t as { o: number }).o;
  }
  const page = items.slice(offset, offset + size);
  const next = offset + size;
  if (next >= items.length) return { page };
  return { page, nextPageToken: Buffer.from(JSON.stringify({ o: next, h })).toString('base64url') };
}
