// The blocks of the devnet's EVM chains, and the metadata of their contracts.
//
// A block holds the transactions of the chain's resident addresses that fall in
// it (the fixture address and the team address that deployed most contracts,
// with the fixture's ICM transactions), plus a few filler transactions generated
// from (seed, network, chain, block): native transfers and ERC-20/721/1155
// transfers between derived addresses. In every block after the anchor (the
// start of the day the dataset was built), the first filler is between the two
// activity addresses (`activityAddress`, `activityPeerAddress` of the fixtures),
// so a webhook or subscriber watching one sees an event in every new block. Filler hashes are self-describing (kind 3
// of the transaction-hash codec, the block number in the address bytes), so any
// of them is found by `transaction(chainId, txHash)`. Other addresses' histories
// are generated on demand and are not listed in blocks (any address has one).
//
// Every count is exact: a block's `txCount` is its list's length, and
// `cumulativeTransactions` is the filler prefix sum (3(n+1) - load(n), load in
// 0..2, so each block gets 1..5 fillers) plus the resident transactions up to it.
import type {
  ContractMetadata, ContractTransfer, CurrencyCode, EvmBlock, FullTransaction, NativeTransaction,
} from '../../../shapes/index.ts';
import { EVM_HASH } from '../../../lib/ids.ts';
import { Rng } from '../../rng.ts';
import { decodeBlockHash } from './block-hash.ts';
import { blockHash, blockTimestamp, latest } from './chains.ts';
import { encodeTxHash, hashHex, Lru, pad32, sha256, slugOf } from './helpers.ts';
import { fullView, stripFull } from './history.ts';
import { icmTransaction } from './icm.ts';
import type { ChainCtx, ContractDef, History, IcmRecord, TxRecord } from './model.ts';
import { erc1155Token, erc20Transfer, erc721Token, info, nativeTx, tokenAmount, type TxParams } from './tokens.ts';

/** Gas limit of every devnet block. */
export const BLOCK_GAS_LIMIT = 15_000_000n;
/** Blocks whose content is kept built (LRU). */
const BLOCK_CACHE_SIZE = 4096;
const ZERO_HASH = `0x${'0'.repeat(64)}`;

/** One block with its transactions (by position) and their token transfers (by position, then log index). */
export interface BlockContent {
  block: EvmBlock;
  transactions: NativeTransaction[];
  transfers: ContractTransfer[];
}

export interface EvmBlocksData {
  /** A block by number or hash; undefined for an unknown chain, a block past the latest one or an unknown hash. */
  blockNumberOf(chainId: string, blockId: string): number | undefined;
  /** Block `n` of the chain with its content; undefined for an unknown chain or a block past the latest one. */
  content(chainId: string, n: number): BlockContent | undefined;
  /** getContractMetadata: undefined when the address is not a contract of the chain. */
  contract(chainId: string, address: string): ContractMetadata | undefined;
  /** True when the address is a token contract (ERC-20/721/1155) of the chain. */
  isToken(chainId: string, address: string): boolean;
  /** The complete view of filler transaction `index` of block `n` (a kind-3 hash). */
  fillerTransaction(ctx: ChainCtx, n: number, index: number, currency: CurrencyCode): FullTransaction | undefined;
}

export interface CreateBlocksInput {
  find(chainId: string): ChainCtx | undefined;
  history(ctx: ChainCtx, address: string): History;
  icm(address: string): IcmRecord[];
}

const ERC_TYPE: Record<ContractDef['kind'], ContractMetadata['ercType']> = {
  erc20: 'ERC-20', erc721: 'ERC-721', erc1155: 'ERC-1155', router: 'UNKNOWN', staking: 'UNKNOWN',
};

export function createBlocks(input: CreateBlocksInput): EvmBlocksData {
  /** Resident transactions per chain, by block, built once per chain on first use. */
  const residents = new Map<ChainCtx, { byBlock: Map<number, TxRecord[]>; sortedBlocks: number[] }>();
  const contents = new Lru<string, { content: BlockContent; fillers: TxRecord[] }>(BLOCK_CACHE_SIZE);

  function residentsOf(ctx: ChainCtx) {
    let known = residents.get(ctx);
    if (known) return known;
    const { fixtureAddress } = ctx.env;
    const records: TxRecord[] = [...input.history(ctx, fixtureAddress).records];
    if (ctx.team !== fixtureAddress) records.push(...input.history(ctx, ctx.team).records);
    for (const rec of input.icm(fixtureAddress)) {
      for (const side of [1, 2] as const) {
        const tx = icmTransaction(ctx, rec, side);
        if (tx) records.push(tx);
      }
    }
    const byBlock = new Map<number, TxRecord[]>();
    for (const rec of records) {
      const list = byBlock.get(rec.blockNumber) ?? [];
      list.push(rec);
      byBlock.set(rec.blockNumber, list);
    }
    const sortedBlocks = records.map((r) => r.blockNumber).sort((a, b) => a - b);
    known = { byBlock, sortedBlocks };
    residents.set(ctx, known);
    return known;
  }

  /** Resident transactions in blocks 0..n. */
  function residentsUpTo(ctx: ChainCtx, n: number): number {
    const sorted = residentsOf(ctx).sortedBlocks;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) <= n) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  const load = (ctx: ChainCtx, n: number): number => (sha256(`${ctx.env.secret}:block-load:${ctx.evmChainId}:${n}`)[0] ?? 0) % 3;
  const fillerCount = (ctx: ChainCtx, n: number): number => (n === 0 ? 3 - load(ctx, 0) : 3 + load(ctx, n - 1) - load(ctx, n));

  function filler(ctx: ChainCtx, n: number, index: number, blockIndex: number): TxRecord {
    const { secret } = ctx.env;
    const rng = new Rng(`${secret}:filler:${ctx.evmChainId}:${n}:${index}`);
    const hash = encodeTxHash(secret, { kind: 3, chainIdx: ctx.idx, address: `0x${n.toString(16).padStart(40, '0')}`, index });
    // Drawn either way, so the rest of the filler does not move when live activity takes its parties.
    let from = rng.evmAddress();
    let to = rng.evmAddress();
    // Never failed: a failed token call would leave the receiving activity address out of the transaction.
    const live = index === 0 && n > ctx.anchorBlock;
    if (live) {
      const [a, b] = ctx.env.activityAddresses;
      [from, to] = ((sha256(`${secret}:activity-direction:${ctx.evmChainId}:${n}`)[0] ?? 0) & 1) === 0 ? [a, b] : [b, a];
    }
    const base = (over: Partial<TxParams> & Pick<TxParams, 'to' | 'callType'>): TxParams => ({
      block: n, blockIndex, hash, from, value: 0n, nonce: rng.int(0, 5_000), methodHash: '', methodName: 'Native Transfer',
      input: '0x', gasLimit: 21_000, gasUsed: 21_000, failed: rng.bool(0.05) && !live, legacy: rng.bool(0.1),
      tip: BigInt(rng.int(0, 3_000)) * 1_000_000n, ...over,
    });
    const call = (contract: string, methodHash: string, methodName: string, args: string): TxParams => {
      const gasLimit = rng.int(60_000, 250_000);
      return base({
        to: contract, callType: 'CONTRACT_CALL', methodHash, methodName, input: `${methodHash}${args}`,
        gasLimit, gasUsed: Math.floor(gasLimit * (0.55 + rng.next() * 0.4)),
      });
    };
    const rec = (p: TxParams): TxRecord => ({ blockNumber: n, native: nativeTx(ctx, p), erc20: [], erc721: [], erc1155: [], internal: [] });
    const roll = rng.next();
    if (roll < 0.4) {
      return rec(base({ to, callType: 'NATIVE_TRANSFER', value: BigInt(rng.int(1, 250_000)) * 10n ** 14n }));
    }
    if (roll < 0.75) {
      const def = rng.pick(ctx.erc20);
      const amount = tokenAmount(rng, def);
      const r = rec(call(def.address, '0xa9059cbb', 'transfer(address,uint256)', pad32(to) + pad32(amount.toString(16))));
      if (r.native.txStatus === '1') r.erc20.push(erc20Transfer(ctx, def, from, to, amount, rng.int(0, 5)));
      return r;
    }
    if (roll < 0.9) {
      const def = rng.pick(ctx.erc721);
      const id = rng.int(1, def.supply);
      const r = rec(call(def.address, '0x42842e0e', 'safeTransferFrom(address,address,uint256)', pad32(from) + pad32(to) + pad32(id.toString(16))));
      if (r.native.txStatus === '1') r.erc721.push({ from: info(ctx, from), to: info(ctx, to), logIndex: rng.int(0, 3), erc721Token: erc721Token(ctx, def, id) });
      return r;
    }
    const def = rng.pick(ctx.erc1155);
    const id = rng.int(1, def.supply);
    const amount = BigInt(rng.int(1, 50));
    const r = rec(call(def.address, '0xf242432a', 'safeTransferFrom(address,address,uint256,uint256,bytes)',
      pad32(from) + pad32(to) + pad32(id.toString(16)) + pad32(amount.toString(16)) + pad32('a0')));
    if (r.native.txStatus === '1') {
      r.erc1155.push({ from: info(ctx, from), to: info(ctx, to), logIndex: rng.int(0, 3), value: String(amount), erc1155Token: erc1155Token(ctx, def, id) });
    }
    return r;
  }

  function build(ctx: ChainCtx, n: number): { content: BlockContent; fillers: TxRecord[] } {
    const own = [...(residentsOf(ctx).byBlock.get(n) ?? [])];
    const taken = new Set(own.map((r) => r.native.blockIndex));
    const fillers: TxRecord[] = [];
    let slot = 0;
    for (let j = 0; j < fillerCount(ctx, n); j++) {
      while (taken.has(slot)) slot++;
      fillers.push(filler(ctx, n, j, slot));
      slot++;
    }
    const records = [...own, ...fillers].sort((a, b) => a.native.blockIndex - b.native.blockIndex || a.native.txHash.localeCompare(b.native.txHash));
    let gasUsed = 0n;
    let fees = 0n;
    let burned = 0n;
    for (const r of records) {
      const used = BigInt(r.native.gasUsed);
      gasUsed += used;
      fees += used * BigInt(r.native.gasPrice);
      burned += used * ctx.baseFee;
    }
    const block: EvmBlock = {
      chainId: ctx.evmChainId,
      blockNumber: String(n),
      blockTimestamp: blockTimestamp(ctx, n),
      blockHash: blockHash(ctx, n),
      txCount: records.length,
      baseFee: String(ctx.baseFee),
      gasUsed: String(gasUsed),
      gasLimit: String(gasUsed > BLOCK_GAS_LIMIT ? gasUsed : BLOCK_GAS_LIMIT),
      gasCost: String(burned),
      parentHash: n === 0 ? ZERO_HASH : blockHash(ctx, n - 1),
      feesSpent: String(fees),
      cumulativeTransactions: String(3 * (n + 1) - load(ctx, n) + residentsUpTo(ctx, n)),
    };
    const transfers: ContractTransfer[] = [];
    for (const r of records) {
      const where = { blockNumber: block.blockNumber, blockTimestamp: block.blockTimestamp, blockHash: block.blockHash, txHash: r.native.txHash };
      const own: ContractTransfer[] = [
        ...r.erc20.map((t) => ({ ...where, ...t })),
        ...r.erc721.map((t) => ({ ...where, ...t })),
        ...r.erc1155.map((t) => ({ ...where, ...t })),
      ];
      transfers.push(...own.sort((a, b) => a.logIndex - b.logIndex));
    }
    return { content: { block, transactions: records.map((r) => stripFull(r.native)), transfers }, fillers };
  }

  function cached(ctx: ChainCtx, n: number) {
    return contents.getOrCreate(`${ctx.idx}:${n}`, () => build(ctx, n));
  }

  function metadata(ctx: ChainCtx, def: ContractDef): ContractMetadata {
    const ercType = ERC_TYPE[def.kind];
    const site = `https://${slugOf(def.name)}.devnet.invalid`;
    const out: ContractMetadata = {
      address: def.address,
      ercType,
      name: def.name,
      description: `${def.name} on ${ctx.seed.name} (devnet).`,
      officialSite: site,
      logoAsset: { assetId: hashHex(`${ctx.env.secret}:logo:${def.address}`, 16), imageUri: def.logoUri },
      color: `#${hashHex(`${ctx.env.secret}:color:${def.address}`, 3)}`,
      resourceLinks: [{ type: 'Website', url: site }, { type: 'Twitter', url: `https://x.devnet.invalid/${slugOf(def.name)}` }],
      tags: [def.kind === 'router' ? 'dex' : def.kind === 'staking' ? 'staking' : 'token'],
      deploymentDetails: {
        txHash: encodeTxHash(ctx.env.secret, { kind: 0, chainIdx: ctx.idx, address: def.deployer, index: def.deployIndex }),
        deployerAddress: def.deployer,
      },
    };
    if (ercType !== 'UNKNOWN') out.symbol = def.symbol;
    if (def.kind === 'erc20') out.decimals = def.decimals;
    if (def.kind === 'erc20' || def.kind === 'erc1155') out.pricingProviders = { coingeckoCoinId: slugOf(def.name) };
    return out;
  }

  return {
    blockNumberOf(chainId, blockId) {
      const ctx = input.find(chainId);
      if (!ctx) return undefined;
      let n: number | undefined;
      if (/^\d{1,15}$/.test(blockId)) n = Number(blockId);
      else if (EVM_HASH.test(blockId)) n = decodeBlockHash(ctx.env.secret, ctx.evmChainId, blockId);
      return n !== undefined && n <= latest(ctx) ? n : undefined;
    },
    content(chainId, n) {
      const ctx = input.find(chainId);
      if (!ctx || !Number.isSafeInteger(n) || n < 0 || n > latest(ctx)) return undefined;
      return cached(ctx, n).content;
    },
    contract(chainId, address) {
      const ctx = input.find(chainId);
      const def = ctx?.contracts.get(address.toLowerCase());
      return ctx && def ? metadata(ctx, def) : undefined;
    },
    isToken(chainId, address) {
      const kind = input.find(chainId)?.contracts.get(address.toLowerCase())?.kind;
      return kind === 'erc20' || kind === 'erc721' || kind === 'erc1155';
    },
    fillerTransaction(ctx, n, index, currency) {
      if (n > latest(ctx)) return undefined;
      const rec = cached(ctx, n).fillers[index];
      return rec ? fullView(ctx, rec, currency) : undefined;
    },
  };
}
