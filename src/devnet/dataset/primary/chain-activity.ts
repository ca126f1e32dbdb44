/**
 * Blocks of the P-, X- and C-chain and the X-chain's pre-Cortina vertices.
 * Nothing is stored: every chain produces one block per `BLOCK_INTERVAL_SECONDS`
 * from its start, so a block (or vertex) is derived from its height (or index)
 * when asked for, and heights follow the clock.
 */

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

function blockHash(ctx: NetworkContext, chain: PrimaryChain, height: number): string {
  if (height < 0) return chain === 'c' ? ZERO_HASH : id32('');
  return chain === 'c' ? `0x${sha(`${ctx.tag}:block:c:${height}`).toString('hex')}` : id32(`${ctx.tag}:block:${chain}:${height}`);
}

export function block(ctx: NetworkContext, producers: BlockProducers, chain: PrimaryChain, height: number): Block {
  const ts = chainStart(ctx, chain) + height * BLOCK_INTERVAL_SECONDS;
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
    proposerNodeId: active.length > 0 ? active[r.readUInt32BE(4) % active.length] : undefined,
    proposerPChainHeight: Math.max(0, (chain === 'p' ? height : pHeight) - 1 - ((r[3] as number) % 3)),
    proposerTimestamp: ts,
  };
  return out;
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
  const start = chainStart(ctx, chain);
  let top = latest;
  if (q.endTimestamp !== undefined) {
    if (q.endTimestamp < start) return { items: [] };
    top = Math.min(top, Math.floor((q.endTimestamp - start) / BLOCK_INTERVAL_SECONDS));
  }
  if (cursor !== undefined) top = Math.min(top, cursor);
  const bottom = q.startTimestamp === undefined ? 0 : Math.max(0, Math.ceil((q.startTimestamp - start) / BLOCK_INTERVAL_SECONDS));
  const items: Block[] = [];
  for (let h = top; h >= bottom && items.length < limit; h--) items.push(block(ctx, producers, chain, h));
  const next = top - items.length;
  return next >= bottom && items.length > 0 ? { items, next } : { items };
}

export function vertex(ctx: NetworkContext, index: number): Vertex {
  const hash = (i: number): string => id32(`${ctx.tag}:vertex:${i}`);
  const r = sha(`${ctx.tag}:vertex-shape:${index}`);
  const txCount = 1 + ((r[0] as number) % 8);
  const transactions: string[] = [];
  for (let k = 0; k < txCount; k++) transactions.push(id32(`${ctx.tag}:vtx:${index}:${k}`));
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
