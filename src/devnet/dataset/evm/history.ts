// Address histories of the EVM data: every transaction an address sent or
// received on a chain, generated on first use from a hash of (seed, network,
// chain, address), and the views listings make of them.
import { approximately, type CurrencyCode, type FullNativeTransaction, type FullTransaction, type NativeTransaction } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { encodeTxHash, historicalUsd, pad32, pow10, price } from './helpers.ts';
import {
  FIXTURE_KINDS, RESERVED_NFT_IDS, WEIGHTED_KINDS, ZERO_ADDRESS,
  type ChainCtx, type ContractDef, type History, type Kind, type TxRecord,
} from './model.ts';
import { erc1155Token, erc20Transfer, erc721Token, info, internalTx, nativeTx, tokenAmount, type TxParams } from './tokens.ts';
import type { BlockRange } from './types.ts';

export function buildHistory(ctx: ChainCtx, address: string): History {
  const { secret, fixtureAddress } = ctx.env;
  const rng = new Rng(`${secret}:history:${ctx.evmChainId}:${address}`);
  const isFixture = address === fixtureAddress;
  const creations = ctx.deploymentsBy.get(address) ?? [];
  const total = isFixture ? 48 + rng.int(0, 16) : address === ctx.team ? 10 + rng.int(0, 8) : rng.int(0, 24);
  const blocks = Array.from({ length: total }, () => rng.int(ctx.historyLo, ctx.anchorBlock)).sort((a, b) => a - b);
  const friends = [rng.evmAddress(), rng.evmAddress(), rng.evmAddress()];
  const counterparty = (): string => (rng.bool(0.6) ? rng.pick(friends) : rng.evmAddress());
  const reservedNext = new Map<string, number>();
  const records: TxRecord[] = [];
  let nonce = 0;
  let prevBlock = -1;
  let prevIndex = 0;

  const slot = (block: number): number => {
    const blockIndex = block === prevBlock ? prevIndex + 1 + rng.int(0, 3) : rng.int(0, 30);
    prevBlock = block;
    prevIndex = blockIndex;
    return blockIndex;
  };
  const hashOf = (index: number): string => encodeTxHash(secret, { kind: 0, chainIdx: ctx.idx, address, index });
  const params = (block: number, index: number, overrides: Partial<TxParams> & Pick<TxParams, 'from' | 'to' | 'callType'>): TxParams => {
    const legacy = rng.bool(0.1);
    const gasLimit = overrides.gasLimit ?? (overrides.callType === 'NATIVE_TRANSFER' ? 21_000 : rng.int(60_000, 400_000));
    const gasUsed = overrides.callType === 'NATIVE_TRANSFER' ? 21_000 : Math.floor(gasLimit * (0.55 + rng.next() * 0.4));
    return {
      block, blockIndex: slot(block), hash: hashOf(index), value: 0n,
      nonce: overrides.from === address ? nonce++ : rng.int(0, 5_000),
      methodHash: '', methodName: overrides.callType === 'NATIVE_TRANSFER' ? 'Native Transfer' : 'Contract Created',
      input: '0x', gasLimit, gasUsed, failed: false, legacy,
      tip: BigInt(rng.int(0, 3_000)) * 1_000_000n,
      ...overrides,
    };
  };
  // What the address holds as its history goes (ERC-20 by contract, ERC-1155 by contract:id), so
  // it never sends more than it received: the devnet's balance listings are these transfers summed.
  const held = new Map<string, bigint>();
  const heldOf = (key: string): bigint => held.get(key) ?? 0n;
  const move = (key: string, t: { from: { address: string }; to: { address: string } }, value: bigint): void => {
    if (t.to.address === address) held.set(key, heldOf(key) + value);
    if (t.from.address === address) held.set(key, heldOf(key) - value);
  };
  const track = (r: TxRecord): TxRecord => {
    for (const t of r.erc20) move(t.erc20Token.address, t, BigInt(t.value));
    for (const t of r.erc1155) move(`${t.erc1155Token.address}:${t.erc1155Token.tokenId}`, t, BigInt(t.value));
    return r;
  };
  const nftId = (def: ContractDef): number => {
    if (!isFixture) return rng.int(RESERVED_NFT_IDS + 1, def.supply);
    const next = (reservedNext.get(def.address) ?? 0) + 1;
    reservedNext.set(def.address, next);
    return ((next - 1) % RESERVED_NFT_IDS) + 1;
  };

  for (const def of creations) {
    const index = records.length;
    const p = params(def.deployBlock, index, {
      from: address, to: def.address, callType: 'CONTRACT_CREATION',
      gasLimit: rng.int(1_200_000, 3_500_000), input: `0x60806040${rng.hex(180)}`,
    });
    const rec: TxRecord = {
      blockNumber: p.block, native: nativeTx(ctx, p), erc20: [], erc721: [], erc1155: [],
      internal: [internalTx(ctx, address, def.address, 'CREATE', 0n, rng)],
    };
    if (def.kind === 'erc20') rec.erc20.push(erc20Transfer(ctx, def, ZERO_ADDRESS, address, 1_000_000_000n * pow10(def.decimals), 0));
    records.push(track(rec));
  }

  const fixtureKinds = [...FIXTURE_KINDS];
  for (let j = 0; j < total; j++) {
    const block = blocks[j] ?? ctx.anchorBlock;
    const index = records.length;
    if (isFixture && j % FIXTURE_KINDS.length === 0) {
      // A fresh order per cycle, so every kind shows up several times but not in a fixed rhythm.
      for (let i = fixtureKinds.length - 1; i > 0; i--) {
        const k = rng.int(0, i);
        [fixtureKinds[i], fixtureKinds[k]] = [fixtureKinds[k] as Kind, fixtureKinds[i] as Kind];
      }
    }
    const kind: Kind = isFixture ? (fixtureKinds[j % fixtureKinds.length] as Kind) : rng.pick(WEIGHTED_KINDS);
    records.push(track(makeTx(kind, block, index)));
  }

  function makeTx(kind: Kind, block: number, index: number): TxRecord {
    const other = counterparty();
    const rec = (p: TxParams): TxRecord => ({ blockNumber: p.block, native: nativeTx(ctx, p), erc20: [], erc721: [], erc1155: [], internal: [] });
    const call = (from: string, to: string, methodHash: string, methodName: string, args: string, value = 0n, failed = false): TxParams =>
      params(block, index, { from, to, callType: 'CONTRACT_CALL', methodHash, methodName, input: `${methodHash}${args}`, value, failed });
    const nativeValue = (): bigint => BigInt(rng.int(1, 250_000)) * 10n ** 14n;
    const token = (): ContractDef => rng.pick(ctx.erc20.slice(1));
    const wrapped = ctx.erc20[0] as ContractDef;

    switch (kind) {
      case 'native-out':
      case 'native-in': {
        const [from, to] = kind === 'native-out' ? [address, other] : [other, address];
        const failed = kind === 'native-out' && rng.bool(0.05);
        return rec(params(block, index, { from, to, callType: 'NATIVE_TRANSFER', value: nativeValue(), failed }));
      }
      case 'erc20-out':
      case 'erc20-in': {
        const def = token();
        const [from, to] = kind === 'erc20-out' ? [address, other] : [other, address];
        const drawn = tokenAmount(rng, def);
        // A sender sends at most what it holds; with nothing to send, the transfer reverts.
        const amount = kind === 'erc20-out' && drawn > heldOf(def.address) ? heldOf(def.address) : drawn;
        const failed = kind === 'erc20-out' && (rng.bool(0.05) || amount === 0n);
        const r = rec(call(from, def.address, '0xa9059cbb', 'transfer(address,uint256)', pad32(to) + pad32(amount.toString(16)), 0n, failed));
        if (!failed) r.erc20.push(erc20Transfer(ctx, def, from, to, amount, rng.int(0, 5)));
        return r;
      }
      case 'swap-buy': {
        const def = token();
        const value = nativeValue();
        const out = tokenAmount(rng, def);
        const failed = rng.bool(0.04);
        const r = rec(call(address, ctx.router.address, '0x7ff36ab5', 'swapExactAVAXForTokens(uint256,address[],address,uint256)',
          pad32(out.toString(16)) + pad32('80') + pad32(address) + rng.hex(32), value, failed));
        if (failed) return r;
        const log = rng.int(0, 4);
        r.internal.push(internalTx(ctx, ctx.router.address, wrapped.address, 'CALL', value, rng));
        r.erc20.push(erc20Transfer(ctx, wrapped, ctx.router.address, def.pair, value, log));
        r.erc20.push(erc20Transfer(ctx, def, def.pair, address, out, log + 2));
        return r;
      }
      case 'swap-sell': {
        const def = token();
        const drawn = tokenAmount(rng, def);
        // Sells at most what it holds; with nothing to sell, the swap reverts.
        const amount = drawn > heldOf(def.address) ? heldOf(def.address) : drawn;
        const out = nativeValue();
        const r = rec(call(address, ctx.router.address, '0x18cbafe5', 'swapExactTokensForAVAX(uint256,uint256,address[],address,uint256)',
          pad32(amount.toString(16)) + pad32(out.toString(16)) + pad32('a0') + pad32(address) + rng.hex(32), 0n, amount === 0n));
        if (amount === 0n) return r;
        const log = rng.int(0, 4);
        r.erc20.push(erc20Transfer(ctx, def, address, def.pair, amount, log));
        r.erc20.push(erc20Transfer(ctx, wrapped, def.pair, ctx.router.address, out, log + 2));
        r.internal.push(internalTx(ctx, ctx.router.address, wrapped.address, 'CALL', 0n, rng));
        r.internal.push(internalTx(ctx, wrapped.address, ctx.router.address, 'CALL', out, rng));
        r.internal.push(internalTx(ctx, ctx.router.address, address, 'CALL', out, rng));
        return r;
      }
      case 'nft-mint': {
        const def = rng.pick(ctx.erc721);
        const id = nftId(def);
        const mintPrice = rng.bool(0.5) ? BigInt(rng.int(1, 20)) * 10n ** 17n : 0n;
        const r = rec(call(address, def.address, '0x1249c58b', 'mint()', '', mintPrice));
        r.erc721.push({ from: info(ctx, ZERO_ADDRESS), to: info(ctx, address), logIndex: rng.int(0, 3), erc721Token: erc721Token(ctx, def, id) });
        if (mintPrice > 0n) r.internal.push(internalTx(ctx, def.address, ctx.team, 'CALL', mintPrice, rng));
        return r;
      }
      case 'nft-in': {
        const def = rng.pick(ctx.erc721);
        const id = nftId(def);
        const r = rec(call(other, def.address, '0x42842e0e', 'safeTransferFrom(address,address,uint256)', pad32(other) + pad32(address) + pad32(id.toString(16))));
        r.erc721.push({ from: info(ctx, other), to: info(ctx, address), logIndex: rng.int(0, 3), erc721Token: erc721Token(ctx, def, id) });
        return r;
      }
      case 'erc1155-in': {
        const def = rng.pick(ctx.erc1155);
        const id = rng.int(1, def.supply);
        const amount = BigInt(rng.int(1, 50));
        const r = rec(call(other, def.address, '0xf242432a', 'safeTransferFrom(address,address,uint256,uint256,bytes)',
          pad32(other) + pad32(address) + pad32(id.toString(16)) + pad32(amount.toString(16)) + pad32('a0')));
        r.erc1155.push({ from: info(ctx, other), to: info(ctx, address), logIndex: rng.int(0, 3), value: String(amount), erc1155Token: erc1155Token(ctx, def, id) });
        return r;
      }
      case 'erc1155-batch-out': {
        const def = rng.pick(ctx.erc1155);
        // Up to two tokens of the collection it holds, at most what it holds of each; holding none, the batch reverts.
        const owned = [...held].filter(([key, n]) => n > 0n && key.startsWith(`${def.address}:`));
        const first = owned.length > 0 ? owned.splice(rng.int(0, owned.length - 1), 1) : [];
        const picks = [...first, ...(owned.length > 0 ? [owned[rng.int(0, owned.length - 1)] as [string, bigint]] : [])];
        const r = rec(call(address, def.address, '0x2eb2c2d6', 'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
          pad32(address) + pad32(other) + rng.hex(96), 0n, picks.length === 0));
        const log = rng.int(0, 3);
        picks.forEach(([key, n], i) => {
          const drawn = BigInt(rng.int(1, 10));
          const value = drawn > n ? n : drawn;
          const id = Number(key.slice(def.address.length + 1));
          r.erc1155.push({ from: info(ctx, address), to: info(ctx, other), logIndex: log + i, value: String(value), erc1155Token: erc1155Token(ctx, def, id) });
        });
        return r;
      }
      case 'claim': {
        const reward = ctx.erc20[ctx.erc20.length - 2] ?? wrapped;
        const amount = tokenAmount(rng, reward);
        const fee = amount / 20n;
        const nativeReward = nativeValue() / 10n;
        const r = rec(call(address, ctx.staking.address, '0x4e71d92d', 'claim()', ''));
        const log = rng.int(0, 3);
        r.erc20.push(erc20Transfer(ctx, reward, ctx.staking.address, address, amount, log));
        r.erc20.push(erc20Transfer(ctx, reward, ctx.staking.address, ctx.team, fee, log + 1));
        r.internal.push(internalTx(ctx, ctx.staking.address, address, 'CALL', nativeReward, rng));
        r.internal.push(internalTx(ctx, ctx.staking.address, ctx.team, 'UNKNOWN', nativeReward / 10n, rng));
        return r;
      }
    }
  }

  const firstBlock = records[0]?.blockNumber ?? ctx.anchorBlock;
  const finalBalance = records.length === 0 ? 0n : isFixture
    ? BigInt(rng.int(500, 50_000)) * 10n ** 17n + BigInt(rng.int(0, 1_000_000))
    : BigInt(rng.int(0, 200_000)) * 10n ** 15n;
  return { records, firstBlock, finalBalance };
}

export function inRange(block: number, range: BlockRange): boolean {
  return (range.startBlock === undefined || block >= range.startBlock) && (range.endBlock === undefined || block < range.endBlock);
}

export function stripFull(tx: FullNativeTransaction): NativeTransaction {
  const { input: _input, baseFeePerGas: _base, maxFeePerGas: _max, maxPriorityFeePerGas: _tip, ...rest } = tx;
  return rest;
}

export function fullView(ctx: ChainCtx, rec: TxRecord, currency: CurrencyCode): FullTransaction {
  const out: FullTransaction = {
    erc20Transfers: rec.erc20,
    erc721Transfers: rec.erc721,
    erc1155Transfers: rec.erc1155,
    internalTransactions: rec.internal,
    networkTokenDetails: {
      networkToken: ctx.token,
      currentPrice: price(ctx.usdPrice, currency),
      historicalPrice: price(historicalUsd(ctx.usdPrice, approximately(rec.native.blockTimestamp)), currency),
    },
    nativeTransaction: rec.native,
  };
  if (rec.teleporter) out.teleporterMessageInfo = rec.teleporter;
  return out;
}
