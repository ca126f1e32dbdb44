// Token, NFT and transaction views of the EVM data: what listings and the
// complete transaction view are made of.
import type {
  AddressInfo,
  Erc1155Token,
  Erc20Token,
  Erc20Transfer,
  Erc721Token,
  FullNativeTransaction,
  InternalTransaction,
  NftMetadata,
} from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { blockHash, blockTimestamp } from './chains.ts';
import { derivedAddress, pow10, price } from './helpers.ts';
import { DAY, RARITIES, RESERVED_NFT_IDS, TRAITS, type ChainCtx, type ContractDef } from './model.ts';

export function info(ctx: ChainCtx, address: string): AddressInfo {
  const def = ctx.contracts.get(address);
  if (!def) return { address };
  // Plain contracts have a name and logo but no token symbol or decimals.
  if (def.kind === 'router' || def.kind === 'staking') return { name: def.name, logoUri: def.logoUri, address };
  return { name: def.name, symbol: def.symbol, decimals: def.decimals, logoUri: def.logoUri, address };
}

export function erc20Token(def: ContractDef): Erc20Token {
  return {
    address: def.address, name: def.name, symbol: def.symbol, decimals: def.decimals,
    logoUri: def.logoUri, ercType: 'ERC-20', price: price(def.usdPrice, 'usd'),
  };
}

export function nftOwner(ctx: ChainCtx, def: ContractDef, tokenId: number): string {
  const { secret, fixtureAddress } = ctx.env;
  if (tokenId <= RESERVED_NFT_IDS) return fixtureAddress;
  return derivedAddress(`${secret}:owner:${ctx.evmChainId}:${def.address}:${tokenId}`);
}

export function nftMetadata(ctx: ChainCtx, def: ContractDef, tokenId: number): NftMetadata {
  const { secret, anchor } = ctx.env;
  const rng = new Rng(`${secret}:meta:${ctx.evmChainId}:${def.address}:${tokenId}`);
  const base = `https://nft.devnet.invalid/${ctx.evmChainId}/${def.address}/${tokenId}`;
  const common: NftMetadata = {
    indexStatus: 'INDEXED',
    metadataLastUpdatedTimestamp: anchor - rng.int(1, 90) * DAY + rng.int(0, DAY - 1),
    name: `${def.name} #${tokenId}`,
    symbol: def.symbol,
    imageUri: `${base}.png`,
    description: `${def.name} token ${tokenId} on ${ctx.seed.name}.`,
    animationUri: `${base}.mp4`,
    externalUrl: `https://collections.devnet.invalid/${def.address}/${tokenId}`,
    background: rng.hex(3),
  };
  if (def.kind === 'erc721') {
    const attributes = Object.entries(TRAITS).map(([trait, values]) => ({ trait_type: trait, value: rng.pick(values) }));
    return { ...common, attributes: JSON.stringify(attributes) };
  }
  const properties = { rarity: rng.pick(RARITIES), edition: rng.int(1, 500), stackable: rng.bool() };
  return { ...common, decimals: 0, properties: JSON.stringify(properties) };
}

export function erc721Token(ctx: ChainCtx, def: ContractDef, tokenId: number): Erc721Token {
  return {
    address: def.address, name: def.name, symbol: def.symbol, ercType: 'ERC-721', tokenId: String(tokenId),
    tokenUri: `ipfs://devnet/${ctx.evmChainId}/${def.address}/${tokenId}.json`,
    metadata: nftMetadata(ctx, def, tokenId), ownerAddress: nftOwner(ctx, def, tokenId),
  };
}

export function erc1155Token(ctx: ChainCtx, def: ContractDef, tokenId: number): Erc1155Token {
  return {
    address: def.address, ercType: 'ERC-1155', tokenId: String(tokenId),
    tokenUri: `ipfs://devnet/${ctx.evmChainId}/${def.address}/${tokenId}.json`,
    metadata: nftMetadata(ctx, def, tokenId),
  };
}

export interface TxParams {
  block: number;
  blockIndex: number;
  hash: string;
  from: string;
  to: string;
  value: bigint;
  nonce: number;
  callType: 'NATIVE_TRANSFER' | 'CONTRACT_CALL' | 'CONTRACT_CREATION';
  methodHash: string;
  methodName: string;
  input: string;
  gasLimit: number;
  gasUsed: number;
  failed: boolean;
  legacy: boolean;
  tip: bigint;
}

export function nativeTx(ctx: ChainCtx, p: TxParams): FullNativeTransaction {
  const gasPrice = ctx.baseFee + p.tip;
  return {
    blockNumber: String(p.block),
    blockTimestamp: blockTimestamp(ctx, p.block),
    blockHash: blockHash(ctx, p.block),
    chainId: ctx.evmChainId,
    blockIndex: p.blockIndex,
    txHash: p.hash,
    txStatus: p.failed ? '0' : '1',
    txType: p.legacy ? 0 : 2,
    gasLimit: String(p.gasLimit),
    gasUsed: String(p.gasUsed),
    gasPrice: String(gasPrice),
    nonce: String(p.nonce),
    from: info(ctx, p.from),
    to: info(ctx, p.to),
    method: { callType: p.callType, methodHash: p.methodHash, methodName: p.methodName },
    value: String(p.value),
    input: p.input,
    baseFeePerGas: String(ctx.baseFee),
    maxFeePerGas: String(p.legacy ? gasPrice : ctx.baseFee * 2n + p.tip),
    maxPriorityFeePerGas: String(p.tip),
  };
}

export function internalTx(ctx: ChainCtx, from: string, to: string, type: string, value: bigint, rng: Rng): InternalTransaction {
  const gasLimit = rng.int(2_300, 80_000);
  return {
    from: info(ctx, from), to: info(ctx, to), internalTxType: type, value: String(value),
    isReverted: false, gasUsed: String(Math.floor(gasLimit * (0.3 + rng.next() * 0.6))), gasLimit: String(gasLimit),
  };
}

export function erc20Transfer(ctx: ChainCtx, def: ContractDef, from: string, to: string, value: bigint, logIndex: number): Erc20Transfer {
  return { from: info(ctx, from), to: info(ctx, to), logIndex, value: String(value), erc20Token: erc20Token(def) };
}

export function tokenAmount(rng: Rng, def: ContractDef): bigint {
  return BigInt(rng.int(1, 500_000)) * pow10(def.decimals) / 100n;
}
