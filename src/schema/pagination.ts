import { createHash } from 'node:crypto';
import { badInput } from '../errors.ts';

/** Page-size bounds of one upstream listing, from the seed's Limits table. */
export interface PageSpec {
  /** Connection name, part of every cursor so cursors cannot cross connections. */
  readonly name: string;
  readonly defaultSize: number;
  readonly maxSize: number;
}

const spec = (name: string, defaultSize: number, maxSize: number): PageSpec => ({ name, defaultSize, maxSize });

/** The seed's page-size defaults and ranges, per endpoint. */
export const PAGES = {
  addressTransactions: spec('addressTransactions', 10, 100), // E3
  utxos: spec('utxos', 10, 1024), // E4
  subnets: spec('subnets', 100, 10000), // E7
  validators: spec('validators', 10, 100), // E8
  nativeTransactions: spec('nativeTransactions', 10, 100), // E9
  erc1155Balances: spec('erc1155Balances', 10, 500), // E10
  historicalRewards: spec('historicalRewards', 10, 100), // E11
  pendingRewards: spec('pendingRewards', 10, 100), // E12
  delegators: spec('delegators', 10, 100), // E13
  blocks: spec('blocks', 10, 100), // E15
  icmMessages: spec('icmMessages', 10, 100), // E16
  vertices: spec('vertices', 10, 100), // E18
} as const satisfies Record<string, PageSpec>;

/**
 * What an edge cursor carries: the upstream page it came from (its `pageToken`,
 * absent for the first page, and the `pageSize` it was read with), the item's
 * index in that page, and hashes binding it to the connection's arguments and
 * parent. `after` re-reads that page and continues past the index.
 */
export interface CursorState {
  /** pageToken of the page holding the item; undefined for the first page. */
  t?: string;
  /** pageSize the page was read with. */
  s: number;
  /** Index of the item in the page. */
  i: number;
  /** Hash of connection name + arguments. */
  h: string;
  /** Hash of the parent (e.g. the validator for `Validator.delegators`), if any. */
  p?: string;
}

export function argsHash(page: PageSpec, args: unknown): string {
  return shortHash(`${page.name}:${canonicalJson(args)}`);
}

export function parentHash(parent: unknown): string {
  return shortHash(canonicalJson(parent));
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** Decodes and checks a cursor; throws BAD_USER_INPUT naming `after` when it is malformed or foreign. */
export function decodeCursor(cursor: string, page: PageSpec, hash: string): CursorState {
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badInput('after', 'not a cursor of this connection');
  }
  if (!isCursorState(state) || state.s < 1 || state.s > page.maxSize) throw badInput('after', 'not a cursor of this connection');
  if (state.h !== hash) throw badInput('after', 'this cursor was issued for other arguments; pass the same arguments that produced it');
  return state;
}

function isCursorState(value: unknown): value is CursorState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (v['t'] === undefined || typeof v['t'] === 'string') &&
    Number.isInteger(v['s']) &&
    Number.isInteger(v['i']) &&
    (v['i'] as number) >= 0 &&
    typeof v['h'] === 'string' &&
    (v['p'] === undefined || typeof v['p'] === 'string')
  );
}

/** Checks `first` against the endpoint's range; returns the page size to use. */
export function checkFirst(first: unknown, page: PageSpec): number {
  if (first === undefined || first === null) return page.defaultSize;
  if (typeof first !== 'number' || !Number.isInteger(first) || first < 1 || first > page.maxSize) {
    throw badInput('first', `must be between 1 and ${page.maxSize} for this connection (default ${page.defaultSize})`);
  }
  return first;
}

/** The arguments that bind a cursor: everything but `first` and `after`. */
export function filterArgs(args: Record<string, unknown>): Record<string, unknown> {
  const { first: _first, after: _after, ...rest } = args;
  return rest;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 12);
}

/** JSON with sorted keys and without undefined/null, so equal arguments hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
