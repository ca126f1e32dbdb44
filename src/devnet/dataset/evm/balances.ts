// The token side of an address in the devnet's EVM data: its ERC-20/721/1155
// transfers and internal transactions as the address listings serve them, and its
// balances, which are those very transfers summed (ERC-20 and ERC-1155: received
// minus sent up to the block asked; ERC-721: the tokens whose last transfer was to
// the address), so a balance always matches the transfers served for the address.
import type {
  AddressErc1155Transfer, AddressErc20Transfer, AddressErc721Transfer, AddressInternalTransaction, AddressInfo,
  CurrencyCode, Erc1155TokenBalance, Erc20TokenBalance, Erc721TokenBalance,
} from '../../../shapes/index.ts';
import { price, toUnits } from './helpers.ts';
import { inRange } from './history.ts';
import type { ChainCtx, ContractDef, History, TxRecord } from './model.ts';
import { erc1155Token, erc20Token, erc721Token } from './tokens.ts';
import type { BlockRange } from './types.ts';

/** What the address-token views read: the chains and the (cached) histories. */
export interface AddressTokenSource {
  find(chainId: string): ChainCtx | undefined;
  history(ctx: ChainCtx, address: string): History;
}

/** Filters of listErc20Balances. */
export interface Erc20BalanceQuery {
  /** Default: the latest block. */
  blockNumber?: number | undefined;
  /** Lowercase; empty or absent: every token. */
  contractAddresses?: readonly string[] | undefined;
  currency: CurrencyCode;
}

export interface AddressTokensData {
  /** listErc20Transactions items in the block range, ascending (undefined: unknown chain). */
  erc20Transfers(chainId: string, address: string, range: BlockRange): AddressErc20Transfer[] | undefined;
  /** listErc721Transactions items in the block range, ascending. */
  erc721Transfers(chainId: string, address: string, range: BlockRange): AddressErc721Transfer[] | undefined;
  /** listErc1155Transactions items in the block range, ascending. */
  erc1155Transfers(chainId: string, address: string, range: BlockRange): AddressErc1155Transfer[] | undefined;
  /** listInternalTransactions items in the block range, ascending. */
  internalTransactions(chainId: string, address: string, range: BlockRange): AddressInternalTransaction[] | undefined;
  /** listErc20Balances: the tokens with a positive balance at the block, by contract address. */
  erc20Balances(chainId: string, address: string, query: Erc20BalanceQuery): Erc20TokenBalance[] | undefined;
  /** listErc721Balances: the tokens held now, by contract and token id. */
  erc721Balances(chainId: string, address: string, contractAddress?: string): Erc721TokenBalance[] | undefined;
  /** listErc1155Balances (E10): the tokens with a positive balance at the block, by contract and token id. */
  erc1155Balances(chainId: string, address: string, blockNumber?: number, contractAddress?: string): Erc1155TokenBalance[] | undefined;
  /** listCollectibleBalances: the ERC-721 tokens held, then the ERC-1155 balances, by contract and token id. */
  collectibleBalances(chainId: string, address: string, contractAddress?: string): (Erc721TokenBalance | Erc1155TokenBalance)[] | undefined;
}

interface Involving {
  from: AddressInfo;
  to: AddressInfo;
}

/** Where a transfer happened: its transaction's block and hash. */
function placeOf(rec: TxRecord) {
  const n = rec.native;
  return { blockNumber: n.blockNumber, blockTimestamp: n.blockTimestamp, blockHash: n.blockHash, txHash: n.txHash };
}

/** Signed amount for `address`: what it received minus what it sent. */
function delta(t: Involving & { value: string }, address: string): bigint {
  let d = 0n;
  if (t.to.address === address) d += BigInt(t.value);
  if (t.from.address === address) d -= BigInt(t.value);
  return d;
}

export function createAddressTokens(source: AddressTokenSource): AddressTokensData {
  const norm = (address: string): string => address.toLowerCase();
  const involved = (a: string) => (t: Involving): boolean => t.from.address === a || t.to.address === a;

  /** The address's records on the chain (all, or in a block range); undefined for an unknown chain. */
  function recordsOf(chainId: string, address: string, range: BlockRange = {}): { ctx: ChainCtx; a: string; records: TxRecord[] } | undefined {
    const ctx = source.find(chainId);
    if (!ctx) return undefined;
    const a = norm(address);
    return { ctx, a, records: source.history(ctx, a).records.filter((r) => inRange(r.blockNumber, range)) };
  }

  function listing<T, I extends Involving>(chainId: string, address: string, range: BlockRange, pick: (r: TxRecord) => I[], make: (rec: TxRecord, t: I) => T): T[] | undefined {
    const got = recordsOf(chainId, address, range);
    if (!got) return undefined;
    const keep = involved(got.a);
    return got.records.flatMap((rec) => pick(rec).filter(keep).map((t) => make(rec, t)));
  }

  function erc1155Balances(chainId: string, address: string, blockNumber?: number, contractAddress?: string): Erc1155TokenBalance[] | undefined {
    const got = recordsOf(chainId, address, blockNumber === undefined ? {} : { endBlock: blockNumber + 1 });
    if (!got) return undefined;
    const contract = contractAddress ? norm(contractAddress) : undefined;
    const sums = new Map<string, { def: ContractDef; id: number; balance: bigint }>();
    for (const rec of got.records) {
      for (const t of rec.erc1155) {
        const def = got.ctx.contracts.get(t.erc1155Token.address);
        if (!def || (contract && def.address !== contract)) continue;
        const key = `${def.address}:${t.erc1155Token.tokenId}`;
        const entry = sums.get(key) ?? { def, id: Number(t.erc1155Token.tokenId), balance: 0n };
        entry.balance += delta(t, got.a);
        sums.set(key, entry);
      }
    }
    return [...sums.values()]
      .filter((s) => s.balance > 0n)
      .sort((x, y) => x.def.address.localeCompare(y.def.address) || x.id - y.id)
      .map((s) => ({ ...erc1155Token(got.ctx, s.def, s.id), chainId: got.ctx.evmChainId, balance: String(s.balance) }));
  }

  function erc721Balances(chainId: string, address: string, contractAddress?: string): Erc721TokenBalance[] | undefined {
    const got = recordsOf(chainId, address);
    if (!got) return undefined;
    const contract = contractAddress ? norm(contractAddress) : undefined;
    // The last transfer of each token decides who holds it (records are in chain order).
    const owner = new Map<string, { def: ContractDef; id: number; holder: string }>();
    for (const rec of got.records) {
      for (const t of rec.erc721) {
        const def = got.ctx.contracts.get(t.erc721Token.address);
        if (!def || (contract && def.address !== contract)) continue;
        owner.set(`${def.address}:${t.erc721Token.tokenId}`, { def, id: Number(t.erc721Token.tokenId), holder: t.to.address });
      }
    }
    return [...owner.values()]
      .filter((o) => o.holder === got.a)
      .sort((x, y) => x.def.address.localeCompare(y.def.address) || x.id - y.id)
      .map((o) => ({ ...erc721Token(got.ctx, o.def, o.id), ownerAddress: got.a, chainId: got.ctx.evmChainId }));
  }

  return {
    erc20Transfers: (chainId, address, range) =>
      listing(chainId, address, range, (r) => r.erc20, (rec, t) => ({ ...placeOf(rec), ...t })),
    erc721Transfers: (chainId, address, range) =>
      listing(chainId, address, range, (r) => r.erc721, (rec, t) => ({ ...placeOf(rec), ...t })),
    erc1155Transfers: (chainId, address, range) =>
      listing(chainId, address, range, (r) => r.erc1155, (rec, t) => ({ ...placeOf(rec), ...t })),
    internalTransactions: (chainId, address, range) =>
      listing(chainId, address, range, (r) => r.internal, (rec, t) => ({ ...placeOf(rec), ...t })),

    erc20Balances(chainId, address, query) {
      const got = recordsOf(chainId, address, query.blockNumber === undefined ? {} : { endBlock: query.blockNumber + 1 });
      if (!got) return undefined;
      const only = query.contractAddresses?.length ? new Set(query.contractAddresses.map(norm)) : undefined;
      const sums = new Map<string, { def: ContractDef; balance: bigint }>();
      for (const rec of got.records) {
        for (const t of rec.erc20) {
          const def = got.ctx.contracts.get(t.erc20Token.address);
          if (!def || (only && !only.has(def.address))) continue;
          const entry = sums.get(def.address) ?? { def, balance: 0n };
          entry.balance += delta(t, got.a);
          sums.set(def.address, entry);
        }
      }
      return [...sums.values()]
        .filter((s) => s.balance > 0n)
        .sort((x, y) => x.def.address.localeCompare(y.def.address))
        .map(({ def, balance }) => ({
          ...erc20Token(def),
          price: price(def.usdPrice, query.currency),
          chainId: got.ctx.evmChainId,
          balance: String(balance),
          balanceValue: price(toUnits(balance, def.decimals) * def.usdPrice, query.currency),
          tokenReputation: 'Benign',
        }));
    },

    erc721Balances,
    erc1155Balances,
    collectibleBalances: (chainId, address, contractAddress) => {
      const nfts = erc721Balances(chainId, address, contractAddress);
      const items = erc1155Balances(chainId, address, undefined, contractAddress);
      return nfts && items ? [...nfts, ...items] : undefined;
    },
  };
}
