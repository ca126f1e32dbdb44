/**
 * Blocks of the P-, X- and C-chain and the X-chain's pre-Cortina vertices.
 * Nothing is stored: every chain produces one block per `BLOCK_INTERVAL_SECONDS`
 * from its start, so a block (or vertex) is derived from its height (or index)
 * when asked for, and heights follow the clock.
 */

import { decodeCb58 } from '../../../lib/base58.ts';
import { formatCb58Id } from '../../../lib/ids.ts';
import type { Block, Vertex } from '../../../shapes/index.ts';
import { BLOCK_INTERVAL_SECONDS, DAY, NANO, VERTEX_COUNT, ZERO_HASH, type PrimaryChain } from './constants.ts';
import type { NetworkContext } from './context.ts';
import { id32, sha } from './ids.ts';
import type { BlockQuery, Page } from './types.ts';

/** What blocks show of the validator set: proposers and the P-chain's L1 validator count. */
export interface BlockProducers {
  /** Active primary-network validators' node ids. */
  readonly activeNodeIds: readonly string[];
  readonly activeL1Validators: number;
}

/** When each chain's block 0 was produced: the X-chain has blocks only since Cortina. */
function chainStart(ctx: NetworkContext, chain: PrimaryChain): number {
  return chain === 'x' ? ctx.profile.cortina : chain === 'c' ? ctx.profile.genesis + 9 * DAY : ctx.profile.genesis;
}

/** Height of the last block at or before `timestamp` (0 before the chain started). */
export function heightAt(ctx: NetworkContext, chain: PrimaryChain, timestamp: number): number {
  return Math.max(0, Math.floor((timestamp - chainStart(ctx, chain)) / BLOCK_INTERVAL_SECONDS));
}

// Block and vertex ids carry their height (index), so a lookup by id finds the one the listing
// serves without an index of every id: a marker, the chain, the height, then hash bytes.
const BLOCK_MARK = 0xb1;
const VERTEX_MARK = 0xb2;
const VERTEX_TX_MARK = 0xb3;
const CHAIN_CODE: Record<PrimaryChain, number> = { p: 1, x: 2, c: 3 };

function heightBytes(ctx: NetworkContext, mark: number, code: number, height: number, label: string): Buffer {
  const bytes = Buffer.alloc(32);
  bytes[0] = mark;
  bytes[1] = code;
  bytes.writeUIntBE(height, 2, 6);
  sha(`${ctx.tag}:${label}:${height}`).copy(bytes, 8, 0, 24);
  return bytes;
}

function blockHash(ctx: NetworkContext, chain: PrimaryChain, height: number): string {
  if (height < 0) return chain === 'c' ? ZERO_HASH : id32('');
  const bytes = heightBytes(ctx, BLOCK_MARK, CHAIN_CODE[chain], height, `block:${chain}`);
  return chain === 'c' ? `0x${bytes.toString('hex')}` : formatCb58Id(bytes);
}

/** The height of the block of `chain` whose hash is `hash`, or undefined when no block of this network has it. */
export function blockHeightOf(ctx: NetworkContext, chain: PrimaryChain, hash: string): number | undefined {
  const bytes = chain === 'c' ? (/^0x[0-9a-f]{64}$/i.test(hash) ? Buffer.from(hash.slice(2), 'hex') : undefined) : decodeCb58(hash, 32);
  if (!bytes || bytes[0] !== BLOCK_MARK || bytes[1] !== CHAIN_CODE[chain]) return undefined;
  const height = bytes.readUIntBE(2, 6);
  return blockHash(ctx, chain, height) === (chain === 'c' ? hash.toLowerCase() : hash) ? height : undefined;
}

/** The time (seconds) of the block at `height`, without building it. */
export function blockTime(ctx: NetworkContext, chain: PrimaryChain, height: number): number {
  return chainStart(ctx, chain) + height * BLOCK_INTERVAL_SECONDS;
}

export function block(ctx: NetworkContext, producers: BlockProducers, chain: PrimaryChain, height: number): Block {
  const ts = blockTime(ctx, chain, height);
  const r = sha(`${ctx.tag}:block-shape:${chain}:${height}`);
  let blockType: string;
  let txCount: number;
  if (chain === 'p') {
    const kind = (r[0] as number) % 20;
    blockType = kind === 0 ? 'BanffProposalBlock' : kind === 1 ? 'BanffCommitBlock' : 'BanffStandardBlock';
    txCount = kind === 1 ? 0 : kind === 0 ? 1 : 1 + ((r[1] as number) % 5);
  } else {
    blockType = chain === 'x' ? 'StandardBlock' : 'Block';
    txCount = 1 + ((r[1] as number) % (chain === 'x' ? 6 : 10));
  }
  const transactions: string[] = [];
  for (let k = 0; k < txCount; k++) {
    transactions.push(chain === 'c' ? `0x${sha(`${ctx.tag}:btx:c:${height}:${k}`).toString('hex')}` : id32(`${ctx.tag}:btx:${chain}:${height}:${k}`));
  }
  const active = producers.activeNodeIds;
  const proposer = proposerIndex(ctx, chain, height, active.length);
  const out: Block = {
    blockNumber: String(height),
    blockHash: blockHash(ctx, chain, height),
    parentHash: blockHash(ctx, chain, height - 1),
    blockType,
    blockTimestamp: ts,
    txCount,
    transactions,
    blockSizeBytes: 250 + txCount * (300 + ((r[2] as number) % 200)),
  };
  if (chain === 'p') {
    out.l1ValidatorsAccruedFees = Math.floor(height * 0.37) * 1000;
    out.activeL1Validators = producers.activeL1Validators;
    out.currentSupply = (450_000_000n * BigInt(NANO) + BigInt(height) * 12_345n).toString();
  }
  const pHeight = heightAt(ctx, 'p', ts);
  out.proposerDetails = {
    proposerId: id32(`${ctx.tag}:proposer:${chain}:${height}`),
    proposerParentId: id32(`${ctx.tag}:proposer:${chain}:${height - 1}`),
    proposerNodeId: proposer === undefined ? undefined : active[proposer],
    proposerPChainHeight: Math.max(0, (chain === 'p' ? height : pHeight) - 1 - ((r[3] as number) % 3)),
    proposerTimestamp: ts,
  };
  return out;
}

/**
 * Which active validator proposes the block at `height`: they take turns (a Snowman++
 * proposer window each), from an offset per network and chain. Turns make a node's
 * blocks arithmetic, so listing them reads no block that is not the node's.
 */
function proposerIndex(ctx: NetworkContext, chain: PrimaryChain, height: number, validators: number): number | undefined {
  if (validators === 0) return undefined;
  return (height + proposerOffset(ctx, chain, validators)) % validators;
}

function proposerOffset(ctx: NetworkContext, chain: PrimaryChain, validators: number): number {
  return sha(`${ctx.tag}:proposer-turns:${chain}`).readUInt32BE(0) % validators;
}

/** The heights in [bottom, top] (inclusive) and `top` itself bounded by `latest` and the time filters. */
function heightRange(ctx: NetworkContext, chain: PrimaryChain, q: BlockQuery, latest: number, cursor: number | undefined): { top: number; bottom: number } | undefined {
  const start = chainStart(ctx, chain);
  let top = latest;
  if (q.endTimestamp !== undefined) {
    if (q.endTimestamp < start) return undefined;
    top = Math.min(top, Math.floor((q.endTimestamp - start) / BLOCK_INTERVAL_SECONDS));
  }
  if (cursor !== undefined) top = Math.min(top, cursor);
  const bottom = q.startTimestamp === undefined ? 0 : Math.max(0, Math.ceil((q.startTimestamp - start) / BLOCK_INTERVAL_SECONDS));
  return { top, bottom };
}

/**
 * The blocks `nodeId` proposed, newest first, within the listing's bounds (the same
 * blocks `listBlocks` serves, whose proposer is that node). `cursor` is the height to
 * continue from, as in `listBlocks`. A node that is not an active validator proposed none.
 */
export function listBlocksByNode(
  ctx: NetworkContext,
  producers: BlockProducers,
  chain: PrimaryChain,
  nodeId: string,
  q: BlockQuery,
  latest: number,
  cursor: number | undefined,
  limit: number,
): { heights: number[]; next?: number } {
  const n = producers.activeNodeIds.length;
  const turn = producers.activeNodeIds.indexOf(nodeId);
  const range = heightRange(ctx, chain, q, latest, cursor);
  if (turn < 0 || !range) return { heights: [] };
  // The highest h <= top with (h + offset) % n === turn, then every n-th below it.
  const offset = proposerOffset(ctx, chain, n);
  let h = range.top - ((((range.top + offset - turn) % n) + n) % n);
  const heights: number[] = [];
  for (; h >= range.bottom && heights.length < limit; h -= n) heights.push(h);
  return h >= range.bottom && heights.length > 0 ? { heights, next: h } : { heights };
}

/**
 * Newest first, from `latest` (the chain's current height) down. `cursor` is the
 * height to continue from (it pins the listing, so blocks produced between pages
 * do not shift it).
 */
export function listBlocks(
  ctx: NetworkContext,
  producers: BlockProducers,
  chain: PrimaryChain,
  q: BlockQuery,
  latest: number,
  cursor: number | undefined,
  limit: number,
): { items: Block[]; next?: number } {
  const range = heightRange(ctx, chain, q, latest, cursor);
  if (!range) return { items: [] };
  const { top, bottom } = range;
  const items: Block[] = [];
  for (let h = top; h >= bottom && items.length < limit; h--) items.push(block(ctx, producers, chain, h));
  const next = top - items.length;
  return next >= bottom && items.length > 0 ? { items, next } : { items };
}

/** The hash of the vertex at `index` (its height too: one vertex per height). */
export function vertexHash(ctx: NetworkContext, index: number): string {
  return formatCb58Id(heightBytes(ctx, VERTEX_MARK, CHAIN_CODE.x, index, 'vertex'));
}

/** The index of the served vertex whose hash is `hash`, or undefined. */
export function vertexIndexOf(ctx: NetworkContext, hash: string): number | undefined {
  const bytes = decodeCb58(hash, 32);
  if (!bytes || bytes[0] !== VERTEX_MARK || bytes[1] !== CHAIN_CODE.x) return undefined;
  const index = bytes.readUIntBE(2, 6);
  return index < VERTEX_COUNT && vertexHash(ctx, index) === hash ? index : undefined;
}

/** The id of the `k`-th transaction of the vertex at `index`: it carries both, so getTxByHash finds it. */
function vertexTxId(ctx: NetworkContext, index: number, k: number): string {
  const bytes = heightBytes(ctx, VERTEX_TX_MARK, k, index, `vtx:${k}`);
  return formatCb58Id(bytes);
}

const vertexTxCount = (ctx: NetworkContext, index: number): number => 1 + ((sha(`${ctx.tag}:vertex-shape:${index}`)[0] as number) % 8);

/** Which vertex (and which of its transactions) `id` is, when it is a transaction of a served vertex. */
export function vertexTxOf(ctx: NetworkContext, id: string): { index: number; k: number } | undefined {
  const bytes = decodeCb58(id, 32);
  if (!bytes || bytes[0] !== VERTEX_TX_MARK) return undefined;
  const k = bytes[1] as number;
  const index = bytes.readUIntBE(2, 6);
  if (index >= VERTEX_COUNT || k >= vertexTxCount(ctx, index)) return undefined;
  return vertexTxId(ctx, index, k) === id ? { index, k } : undefined;
}

export function vertex(ctx: NetworkContext, index: number): Vertex {
  const hash = (i: number): string => vertexHash(ctx, i);
  const r = sha(`${ctx.tag}:vertex-shape:${index}`);
  const txCount = vertexTxCount(ctx, index);
  const transactions: string[] = [];
  for (let k = 0; k < txCount; k++) transactions.push(vertexTxId(ctx, index, k));
  const parents = index === 0 ? [] : index % 3 === 0 && index > 1 ? [hash(index - 1), hash(index - 2)] : [hash(index - 1)];
  return {
    vertexHash: hash(index),
    parentHashes: parents,
    vertexHeight: index,
    vertexIndex: index,
    vertexTimestamp: ctx.profile.cortina - (VERTEX_COUNT - 1 - index) * 3,
    txCount,
    transactions,
    vertexSizeBytes: 120 + txCount * (280 + ((r[1] as number) % 150)),
  };
}

/** Newest first. */
export function listVertices(ctx: NetworkContext, offset: number, limit: number): Page<Vertex> {
  const items: Vertex[] = [];
  for (let k = offset; k < Math.min(VERTEX_COUNT, offset + limit); k++) items.push(vertex(ctx, VERTEX_COUNT - 1 - k));
  return { items, hasMore: offset + limit < VERTEX_COUNT };
}
