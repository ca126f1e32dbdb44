/**
 * The EVM side of the devnet's Data API: chains, address histories, balances,
 * NFTs, ICM messages, deployments and export operations of one network.
 *
 * Volumes are unbounded (any address has a history), so per-address data is
 * generated on first use from a hash of (seed, network, chain, address) and kept
 * in a bounded LRU: the same request always gets the same answer, and memory
 * stays small. Transaction hashes are self-describing (an authenticated,
 * masked encoding of chain, address and index), so a hash seen in any listing
 * can be looked up without an index of every generated transaction.
 *
 * The parts: chains.ts (chains, contracts, block clock), tokens.ts (token, NFT
 * and transaction views), history.ts (address histories), icm.ts (ICM messages),
 * operations.ts (exports); this file caches and serves them.
 */
import {
  approximately, type AddressInfo, type Chain, type ContractMetadata, type CurrencyCode, type Erc1155TokenBalance, type ExportOperation, type FullTransaction,
  type IcmMessage, type NativeTokenBalance, type NativeTransaction, type NftToken, type TransactionDetails,
} from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { buildChain, latest } from './chains.ts';
import { decodeTxHash, derivedAddress, Lru, price, toUnits } from './helpers.ts';
import { buildHistory, fullView, inRange, stripFull } from './history.ts';
import { buildIcm, icmTransaction } from './icm.ts';
import {
  DAY, HISTORY_CACHE_SIZE, ICM_CACHE_SIZE, type ChainCtx, type ContractDef, type EvmEnv, type History, type IcmRecord,
} from './model.ts';
import { createOperations } from './operations.ts';
// EVM address tokens: transfer listings and the balances summed from them
import { createAddressTokens } from './balances.ts';
// EVM blocks and contract metadata
import { createBlocks } from './blocks.ts';
import { erc1155Token, erc721Token } from './tokens.ts';
import type { AddressTokensData } from './balances.ts';
import type { EvmBlocksData } from './blocks.ts';
import type { BlockRange, CreateEvmDataInput, EvmFixtures, EvmNetwork, ExportRequest } from './types.ts';

export type { BlockRange, CreateEvmDataInput, EvmChainSeed, EvmFixtures, EvmNetwork, ExportRequest } from './types.ts';

export interface EvmData {
  readonly network: EvmNetwork;
  /** E17 objects of this network, C-chain first. */
  chains(): readonly Chain[];
  /** True when `chainId` is one of this network's EVM chain ids or blockchain ids. */
  hasChain(chainId: string): boolean;
  /** The chain's latest block number at `now()`; undefined for an unknown chain. */
  latestBlock(chainId: string): number | undefined;
  /** E3 items (address-scoped views) in the block range, ascending by timestamp. */
  addressTransactions(chainId: string, address: string, range: BlockRange): TransactionDetails[] | undefined;
  /** E9 items: transactions the address sent or received natively, ascending by timestamp. */
  nativeTransactions(chainId: string, address: string, range: BlockRange): NativeTransaction[] | undefined;
  /** E14 / E10: the native balance at `blockNumber` (default latest). */
  nativeBalance(chainId: string, address: string, blockNumber: number | undefined, currency: CurrencyCode): NativeTokenBalance | undefined;
  /** E10: ERC-1155 balances held at `blockNumber` (default latest), optionally of one contract. */
  erc1155Balances(chainId: string, address: string, blockNumber: number | undefined, contractAddress?: string): Erc1155TokenBalance[] | undefined;
  /** E6: the contract's deployment transaction; undefined when the chain or contract is unknown. */
  deployment(chainId: string, contractAddress: string, currency: CurrencyCode): FullTransaction | undefined;
  /** The complete view of one transaction; undefined when the chain or hash is unknown. */
  transaction(chainId: string, txHash: string, currency: CurrencyCode): FullTransaction | undefined;
  /** E19: undefined when the chain, collection or token id is unknown. */
  nftToken(chainId: string, contractAddress: string, tokenId: string): NftToken | undefined;
  /** E16: messages where the address is sender or recipient, newest first. */
  icmMessages(address: string): IcmMessage[];
  /** E5: starts an export operation (RUNNING). */
  createExport(request: ExportRequest): ExportOperation;
  /** `GET /v1/operations/{id}`: the operation as of `now()`. */
  operation(operationId: string): ExportOperation | undefined;
  fixtures(): EvmFixtures;
  /** An address's token transfers and internal transactions, and the balances summed from them. */
  readonly addressTokens: AddressTokensData;
  /** Blocks, their transactions and transfers, and contract metadata. */
  readonly blocks: EvmBlocksData;
  /** listAddressChains: this network's chains where the address's history is non-empty, in `chains()` order. */
  activeChains(address: string): Chain[];
  /** listContractDeployments: the metadata of the contracts `deployer` deployed, in deployment order; undefined for an unknown chain. */
  deployedBy(chainId: string, deployer: string): ContractMetadata[] | undefined;
  /** listTokens: how many tokens an NFT collection has (ids 1..n, each the `nftToken` of that id); undefined when it is not a collection of the chain. */
  collectionSize(chainId: string, address: string): number | undefined;
}

export function createEvmData(input: CreateEvmDataInput): EvmData {
  const { network, seed, now } = input;
  const secret = `${seed}:${network}:evm`;
  // Histories end at the start of the day the dataset was built: stable across restarts on the same day.
  const anchor = Math.floor(now() / 1000 / DAY) * DAY;
  const fixtureAddress = new Rng(`${seed}:evm-fixture-address`).evmAddress();

  const activityAddresses = [derivedAddress(`${secret}:activity:0`), derivedAddress(`${secret}:activity:1`)] as const;
  const env: EvmEnv = { network, secret, anchor, fixtureAddress, activityAddresses, now };

  const ctxs: ChainCtx[] = [...input.chains]
    .sort((a, b) => Number(b.isCChain) - Number(a.isCChain))
    .slice(0, 255)
    .map((c, idx) => buildChain(env, c, idx));
  const byId = new Map<string, ChainCtx>();
  for (const c of ctxs) {
    byId.set(String(c.seed.evmChainId), c);
    byId.set(c.seed.blockchainId, c);
  }

  const histories = new Lru<string, History>(HISTORY_CACHE_SIZE);
  const icmCache = new Lru<string, IcmRecord[]>(ICM_CACHE_SIZE);
  const history = (ctx: ChainCtx, address: string): History =>
    histories.getOrCreate(`${ctx.idx}:${address}`, () => buildHistory(ctx, address));
  const icm = (address: string): IcmRecord[] => icmCache.getOrCreate(address, () => buildIcm(env, ctxs, address));
  const operations = createOperations(env);
  // EVM address tokens: transfer listings and the balances summed from them
  const addressTokens = createAddressTokens({ find: (chainId) => byId.get(chainId), history });
  // EVM blocks and contract metadata
  const blocks = createBlocks({ find: (chainId) => byId.get(chainId), history, icm });

  // ------------------------------------------------------------ fixtures

  let fixtureCache: EvmFixtures | undefined;
  function fixtures(): EvmFixtures {
    if (fixtureCache) return fixtureCache;
    const c = ctxs[0];
    if (!c) throw new Error(`no EVM chains on ${network}`);
    const records = history(c, fixtureAddress).records;
    const showcase = [...records].reverse().find((r) =>
      r.native.txStatus === '1' && (r.native.method?.methodName ?? '').startsWith('swapExactTokensForAVAX'))
      ?? [...records].reverse().find((r) => r.internal.length > 0) ?? records[0];
    const nft = records.find((r) => r.erc721.length > 0 && r.erc721[0]?.to.address === fixtureAddress)?.erc721[0]?.erc721Token;
    const erc1155 = addressTokens.erc1155Balances(c.evmChainId, fixtureAddress)?.[0];
    const deployed = c.erc20[c.erc20.length - 1] as ContractDef;
    const icmSource = icm(fixtureAddress)[0]?.message.sourceTransaction;
    const subnet = ctxs[1];
    fixtureCache = {
      evmChainId: c.evmChainId,
      address: fixtureAddress,
      contractAddress: deployed.address,
      nftContract: nft?.address ?? (c.erc721[0] as ContractDef).address,
      nftTokenId: nft?.tokenId ?? '1',
      txHash: showcase?.native.txHash ?? '',
      icmAddress: fixtureAddress,
      operationId: operations.fixtureOperationId,
      blockchainId: c.seed.blockchainId,
      erc1155Contract: erc1155?.address ?? (c.erc1155[0] as ContractDef).address,
      erc1155TokenId: erc1155?.tokenId ?? '1',
      deploymentTxHash: records[deployed.deployIndex]?.native.txHash ?? '',
      activityAddress: env.activityAddresses[0],
      activityPeerAddress: env.activityAddresses[1],
      ...(icmSource ? { icmSourceTxHash: icmSource.txHash, icmSourceEvmChainId: icm(fixtureAddress)[0]?.message.sourceEvmChainId ?? '' } : {}),
      ...(subnet ? { subnetEvmChainId: subnet.evmChainId } : {}),
    };
    return fixtureCache;
  }

  // ------------------------------------------------------------ the interface

  const find = (chainId: string): ChainCtx | undefined => byId.get(chainId);
  const norm = (address: string): string => address.toLowerCase();

  return {
    network,
    chains: () => ctxs.map((c) => c.chain),
    hasChain: (chainId) => byId.has(chainId),
    latestBlock: (chainId) => {
      const ctx = find(chainId);
      return ctx ? latest(ctx) : undefined;
    },

    addressTransactions(chainId, address, range) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const a = norm(address);
      const involved = (t: { from: AddressInfo; to: AddressInfo }): boolean => t.from.address === a || t.to.address === a;
      return history(ctx, a).records
        .filter((r) => inRange(r.blockNumber, range))
        .map((r) => ({
          nativeTransaction: stripFull(r.native),
          erc20Transfers: r.erc20.filter(involved),
          erc721Transfers: r.erc721.filter(involved),
          erc1155Transfers: r.erc1155.filter(involved),
          internalTransactions: r.internal.filter(involved),
        }));
    },

    nativeTransactions(chainId, address, range) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const a = norm(address);
      return history(ctx, a).records
        .filter((r) => inRange(r.blockNumber, range) && (r.native.from.address === a || r.native.to.address === a))
        .map((r) => stripFull(r.native));
    },

    nativeBalance(chainId, address, blockNumber, currency) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const h = history(ctx, norm(address));
      const block = blockNumber ?? latest(ctx);
      // Grows linearly from the first activity to the final balance: monotone and deterministic per block.
      let balance = h.finalBalance;
      if (block < h.firstBlock) balance = 0n;
      else if (block < ctx.anchorBlock) {
        balance = (h.finalBalance * BigInt(block - h.firstBlock + 1)) / BigInt(ctx.anchorBlock - h.firstBlock + 1);
      }
      const usd = toUnits(balance, ctx.token.decimals) * ctx.usdPrice;
      return {
        name: ctx.token.name, symbol: ctx.token.symbol, decimals: ctx.token.decimals, logoUri: ctx.token.logoUri ?? '',
        chainId: ctx.evmChainId, price: price(ctx.usdPrice, currency), balance: String(balance), balanceValue: price(usd, currency),
      };
    },

    // Summed from the address's ERC-1155 transfers (see balances.ts).
    erc1155Balances: (chainId, address, blockNumber, contractAddress) => addressTokens.erc1155Balances(chainId, address, blockNumber, contractAddress),

    deployment(chainId, contractAddress, currency) {
      const ctx = find(chainId);
      const def = ctx?.contracts.get(norm(contractAddress));
      if (!ctx || !def) return undefined;
      const rec = history(ctx, def.deployer).records[def.deployIndex];
      return rec ? fullView(ctx, rec, currency) : undefined;
    },

    transaction(chainId, txHash, currency) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const target = decodeTxHash(secret, txHash);
      if (!target || target.chainIdx !== ctx.idx) return undefined;
      // A block's filler transaction: the block number is in the address bytes.
      if (target.kind === 3) return blocks.fillerTransaction(ctx, Number.parseInt(target.address.slice(2), 16), target.index, currency);
      if (target.kind === 0) {
        const rec = history(ctx, target.address).records[target.index];
        return rec ? fullView(ctx, rec, currency) : undefined;
      }
      const msg = icm(target.address)[target.index];
      const rec = msg ? icmTransaction(ctx, msg, target.kind) : undefined;
      return rec ? fullView(ctx, rec, currency) : undefined;
    },

    nftToken(chainId, contractAddress, tokenId) {
      const ctx = find(chainId);
      const def = ctx?.contracts.get(norm(contractAddress));
      if (!ctx || !def || !/^[0-9]{1,15}$/.test(tokenId)) return undefined;
      const id = Number(tokenId);
      if (id < 1 || id > def.supply) return undefined;
      if (def.kind === 'erc721') return erc721Token(ctx, def, id);
      if (def.kind === 'erc1155') return erc1155Token(ctx, def, id);
      return undefined;
    },

    icmMessages(address) {
      return icm(norm(address))
        .map((r) => r.message)
        .sort((a, b) => approximately(b.sourceTransaction?.timestamp ?? 0) - approximately(a.sourceTransaction?.timestamp ?? 0) || a.messageId.localeCompare(b.messageId));
    },

    createExport: (request) => operations.createExport(request),
    operation: (operationId) => operations.operation(operationId),
    fixtures,
    // EVM address tokens
    addressTokens,
    // EVM blocks and contract metadata
    blocks,

    activeChains: (address) => ctxs.filter((c) => history(c, norm(address)).records.length > 0).map((c) => c.chain),

    deployedBy(chainId, deployer) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      return (ctx.deploymentsBy.get(norm(deployer)) ?? []).flatMap((def) => blocks.contract(ctx.evmChainId, def.address) ?? []);
    },

    collectionSize(chainId, address) {
      const def = find(chainId)?.contracts.get(norm(address));
      return def && (def.kind === 'erc721' || def.kind === 'erc1155') ? def.supply : undefined;
    },
  };
}
