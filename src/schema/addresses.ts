import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { badInput } from '../errors/graphql.ts';
import { isEvmAddress } from '../lib/ids.ts';
import {
  addressTransactionPages, erc1155BalancePages, nativeBalanceOf, nativeTransactionPages, ADDRESS_TRANSACTION_LISTING_COST,
  ERC1155_BALANCE_LISTING_COST, NATIVE_BALANCE_COST, NATIVE_TRANSACTION_LISTING_COST, type AddressTransaction,
} from '../loaders/addresses.ts';
import { chainById, chainRefetchCalls, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import { addressTransactionV2Pages } from '../loaders/evm-more.ts';
import { TRANSACTION_LOOKUP_COST, transactionOf } from '../loaders/evm.ts';
import { ICM_MESSAGE_LISTING_COST } from '../loaders/icm.ts';
import type { Erc1155TokenBalance, NativeTokenBalance } from '../shapes/index.ts';
import { ChainRef } from './chains.ts';
import { currencyOf, PriceRef } from './common.ts';
import { checkAfter, pageArgs, resolvePageConnection } from './connection.ts';
import { CurrencyCodeEnum, openEnumField, SortOrderEnum } from './enums.ts';
import { IcmMessageConnection, icmListArgs, resolveIcmMessages } from './icm.ts';
import { BOUNDS, exactUInt64 } from './input-checks.ts';
import { PAGES } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import {
  ErcType, NativeTransactionConnection, NativeTransactionRef, NftMetadataRef, TransactionRef, transferFields,
} from './transactions.ts';

/** An address on one EVM chain (lowercase). Costs no upstream call until a field asks. */
export interface AddressShape {
  chainId: string;
  address: string;
}

/** One item of E3 plus the chain it was listed on. */
export type AddressTransactionShape = AddressTransaction;

// ---------------------------------------------------------------- balances

export const NativeTokenBalanceRef = builder.objectRef<NativeTokenBalance>('NativeTokenBalance').implement({
  description: "An address's balance of the chain's native token.",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Token name.' }),
    symbol: t.exposeString('symbol', { description: 'Token symbol.' }),
    decimals: t.exposeInt('decimals', { description: 'Token decimals.' }),
    logoUri: t.expose('logoUri', { type: 'URL', nullable: true, description: 'Token logo URL.' }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    price: t.field({ type: PriceRef, nullable: true, description: 'Price of one token.', resolve: (b) => b.price ?? null }),
    balance: t.field({ type: 'UInt256', description: 'Balance in the smallest unit (wei).', resolve: (b) => b.balance }),
    balanceValue: t.field({ type: PriceRef, nullable: true, description: 'Value of the balance.', resolve: (b) => b.balanceValue ?? null }),
  }),
});

export const Erc1155TokenBalanceRef = builder.objectRef<Erc1155TokenBalance>('Erc1155TokenBalance').implement({
  description: 'An address\'s balance of one ERC-1155 token.',
  fields: (t) => ({
    address: t.expose('address', { type: 'EvmAddress', description: 'Contract address.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_1155.', value: (b) => b.ercType }),
    tokenId: t.exposeString('tokenId', { description: 'Token id, decimal string (uint256).' }),
    tokenUri: t.expose('tokenUri', { type: 'URL', description: 'Token URI.' }),
    metadata: t.field({ type: NftMetadataRef, description: 'Indexed metadata.', resolve: (b) => b.metadata }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    balance: t.field({ type: 'UInt256', description: 'Number of tokens held.', resolve: (b) => b.balance }),
  }),
});

const Erc1155BalanceConnection = builder.connectionObject(
  {
    type: Erc1155TokenBalanceRef,
    name: 'Erc1155BalanceConnection',
    description: 'A page of ERC-1155 balances, with the native balance at the same block.',
    fields: (t) => ({
      nativeTokenBalance: t.field({
        type: NativeTokenBalanceRef,
        description: 'The native token balance at the same block (the listing returns it alongside).',
        resolve: (c) => (c as typeof c & { nativeTokenBalance: NativeTokenBalance }).nativeTokenBalance,
      }),
    }),
  },
  { name: 'Erc1155BalanceEdge', description: 'An ERC-1155 balance and its cursor.' },
);

// ---------------------------------------------------------------- address transactions

const AddressTransactionRef = builder.objectRef<AddressTransactionShape>('AddressTransaction').implement({
  description:
    'A transaction as seen from one address: the transfer and internal-transaction lists hold only entries where that address is the sender or the receiver. `transaction` is the complete view.',
  fields: (t) => ({
    nativeTransaction: t.field({ type: NativeTransactionRef, description: 'The transaction itself.', resolve: (x) => x.nativeTransaction }),
    ...transferFields(t, 'from or to the address'),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of this transaction (every transfer, input and fee fields).',
      upstreamCost: TRANSACTION_LOOKUP_COST,
      resolve: (x, _args, ctx) => transactionOf(ctx, x.chainId, x.nativeTransaction.txHash),
    }),
  }),
});

const AddressTransactionConnection = builder.connectionObject(
  { type: AddressTransactionRef, name: 'AddressTransactionConnection', description: 'A page of the transactions of an address.' },
  { name: 'AddressTransactionEdge', description: 'A transaction and its cursor.' },
);

// ---------------------------------------------------------------- block ranges

/** `startBlock` and `endBlock`: block numbers (`UInt64`), sent as query numbers the upstream reads exactly. */
export const BLOCK_NUMBER = exactUInt64('A block number', 'a block number');

/** A bounded block number argument as the number the upstream takes (exact: at most 2^53 - 1). */
export const blockNumber = (value: string | null | undefined): number | undefined => (value == null ? undefined : Number(value));

/** Both ends given: `startBlock` (inclusive) must be below `endBlock` (exclusive). */
export function checkBlockOrder(args: { startBlock?: string | null; endBlock?: string | null }): void {
  if (args.startBlock != null && args.endBlock != null && Number(args.startBlock) >= Number(args.endBlock)) {
    throw badInput('startBlock', 'must be less than endBlock (startBlock is inclusive, endBlock exclusive)');
  }
}

// ---------------------------------------------------------------- Address

export const AddressRef = builder.objectRef<AddressShape>('Address');

AddressRef.implement({
  description: 'An address on one EVM chain: its transactions, native transactions, balances and ICM messages.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (a) => encodeGlobalId('Address', [a.chainId, a.address]) }),
    address: t.expose('address', { type: 'EvmAddress', description: 'The address, lowercase 0x hex.' }),
    chainId: t.exposeString('chainId', { description: 'The EVM chain id of its chain (`43114`): with `address`, the natural key a federation router or stitching gateway may reference it by.' }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', upstreamCost: CHAIN_LOOKUP_COST, resolve: (a, _args, ctx) => chainById(ctx).load(a.chainId) }),
    transactions: t.field({
      type: AddressTransactionConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description:
        'Transactions involving the address, with the ERC-20/721/1155 transfers and internal transactions it took part in.',
      args: {
        ...pageArgs(t.arg, PAGES.addressTransactions),
        startBlock: t.arg({ type: 'UInt64', description: 'First block, inclusive (alone: up to the latest block).', bound: BLOCK_NUMBER }),
        endBlock: t.arg({ type: 'UInt64', description: 'Last block, exclusive (alone: from genesis).', bound: BLOCK_NUMBER }),
        sortOrder: t.arg({ type: SortOrderEnum, description: 'By timestamp; the upstream default is descending.' }),
        filterSpamTokens: t.arg.boolean({
          description:
            "Given (true or false), the listing is the Data API's v2 one (listTransactionsV2): the same transactions, with each ERC-20 token's `tokenReputation`, and with true the transfers of spam tokens left out.",
        }),
      },
      checkArgs: (args) => {
        checkAfter(args, PAGES.addressTransactions);
        checkBlockOrder(args);
      },
      upstreamCost: ADDRESS_TRANSACTION_LISTING_COST,
      resolve: (a, args, ctx) => {
        const filters = { startBlock: blockNumber(args.startBlock), endBlock: blockNumber(args.endBlock), sortOrder: args.sortOrder ?? undefined };
        const spam = args.filterSpamTokens;
        return resolvePageConnection<AddressTransactionShape>({
          ctx,
          page: PAGES.addressTransactions,
          args,
          parent: spam == null ? a : { ...a, filterSpamTokens: spam },
          fetchPage: spam == null
            ? addressTransactionPages(ctx, a.chainId, a.address, filters)
            : addressTransactionV2Pages(ctx, a.chainId, a.address, { ...filters, filterSpamTokens: spam }),
        });
      },
    }),
    nativeTransactions: t.field({
      type: NativeTransactionConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'Transactions the address sent or received, without logs.',
      args: {
        ...pageArgs(t.arg, PAGES.nativeTransactions),
        startBlock: t.arg({ type: 'UInt64', description: 'First block, inclusive.', bound: BLOCK_NUMBER }),
        endBlock: t.arg({ type: 'UInt64', description: 'Last block, exclusive.', bound: BLOCK_NUMBER }),
      },
      checkArgs: (args) => {
        checkAfter(args, PAGES.nativeTransactions);
        checkBlockOrder(args);
      },
      upstreamCost: NATIVE_TRANSACTION_LISTING_COST,
      resolve: (a, args, ctx) =>
        resolvePageConnection({
          ctx,
          page: PAGES.nativeTransactions,
          args,
          parent: a,
          fetchPage: nativeTransactionPages(ctx, a.chainId, a.address, {
            startBlock: blockNumber(args.startBlock),
            endBlock: blockNumber(args.endBlock),
          }),
        }),
    }),
    nativeBalance: t.field({
      type: NativeTokenBalanceRef,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: "The address's native token balance.",
      args: {
        blockNumber: t.arg.string({ description: 'At this block (default: the latest).', bound: BOUNDS.decimal }),
        currency: t.arg({ type: CurrencyCodeEnum.ref, description: 'Currency of the price and value (default USD).', bound: CurrencyCodeEnum.bound }),
      },
      upstreamCost: NATIVE_BALANCE_COST,
      resolve: (a, args, ctx) =>
        nativeBalanceOf(ctx).load({
          chainId: a.chainId,
          address: a.address,
          blockNumber: args.blockNumber ?? undefined,
          currency: currencyOf(args.currency),
        }),
    }),
    erc1155Balances: t.field({
      type: Erc1155BalanceConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'ERC-1155 tokens the address holds, with its native balance at the same block.',
      args: {
        ...pageArgs(t.arg, PAGES.erc1155Balances),
        blockNumber: t.arg.string({ description: 'At this block (default: the latest).', bound: BOUNDS.decimal }),
        contractAddress: t.arg.string({ description: 'Only tokens of this contract.', bound: BOUNDS.evmAddress }),
      },
      checkArgs: (args) => checkAfter(args, PAGES.erc1155Balances),
      upstreamCost: ERC1155_BALANCE_LISTING_COST,
      resolve: async (a, args, ctx) => {
        const pages = erc1155BalancePages(ctx, a.chainId, a.address, {
          blockNumber: args.blockNumber ?? undefined,
          contractAddress: args.contractAddress?.toLowerCase(),
        });
        const connection = await resolvePageConnection<Erc1155TokenBalance>({ ctx, page: PAGES.erc1155Balances, args, parent: a, fetchPage: pages.fetchPage });
        // The listing returns the native balance alongside every page: the first one read is kept.
        return { ...connection, nativeTokenBalance: pages.nativeTokenBalance() };
      },
    }),
    icmMessages: t.field({
      type: IcmMessageConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'ICM messages the address sent or received on any chain, newest first.',
      args: icmListArgs,
      checkArgs: (args) => checkAfter(args, PAGES.icmMessages),
      upstreamCost: ICM_MESSAGE_LISTING_COST,
      resolve: (a, args, ctx) => resolveIcmMessages(ctx, a.address, args, a),
    }),
  }),
});

/**
 * An address on a chain known by its EVM chain id or blockchain id, through the one chain list of the
 * request (refetch by id, and references by the natural key `address chainId`); null on an unknown chain.
 */
export async function loadAddress(ctx: Context, chainId: string, address: string): Promise<AddressShape | null> {
  if (!chainId || !isEvmAddress(address)) return null;
  const chain = await chainById(ctx).load(chainId);
  return chain ? { chainId: chain.chainId, address: address.toLowerCase() } : null;
}

registerNodeFamily('Address', {
  refetchComputeUnits: CHAIN_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.chainId, ID_PARTS.evmAddress],
  load: async (ctx, [chainId, address]) => (chainId && address ? loadAddress(ctx, chainId, address) : null),
  typeOf: () => 'Address',
  refetchCalls: chainRefetchCalls,
});

// ---------------------------------------------------------------- a chain's addresses

builder.objectFields(ChainRef, (t) => ({
  address: t.field({
    type: AddressRef,
    description: 'An address on this chain: its transactions, balances and ICM messages. Makes no upstream call by itself.',
    args: { address: t.arg.string({ required: true, description: 'The address, in any case (read lowercase).', bound: BOUNDS.evmAddress }) },
    resolve: (c, args): AddressShape => ({ chainId: c.chainId, address: args.address.toLowerCase() }),
  }),
}));
