import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { badInput } from '../errors.ts';
import { chainById } from '../loaders/chains.ts';
import { nativeBalanceOf } from '../loaders/evm.ts';
import { costs } from '../lib/cost.ts';
import type {
  CurrencyCode, Erc1155TokenBalance, NativeTokenBalance, SortOrder, TransactionDetails,
} from '../shapes/index.ts';
import { ChainRef, checkPage } from './chains.ts';
import { PriceRef } from './common.ts';
import { type ConnectionArgs, pageArgs, resolvePageConnection } from './connection.ts';
import { CurrencyCodeEnum, SortOrderEnum, UNKNOWN_ENUM_VALUE } from './enums.ts';
import { checkIcmArgs, IcmMessageConnection, resolveIcmMessages, type IcmListArgs } from './icm.ts';
import { checkDecimal, checkEvmAddress, checkNonNegativeInt } from './input-checks.ts';
import { NetworkNameEnum } from './network.ts';
import { PAGES } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import {
  ErcType, loadTransaction, NativeTransactionConnection, NativeTransactionRef, NftMetadataRef, TransactionRef, transferFields,
} from './transactions.ts';

/** An address on one EVM chain (lowercase). Costs no upstream call until a field asks. */
export interface AddressShape {
  chainId: string;
  address: string;
}

/** One item of E3 plus the chain it was listed on. */
export type AddressTransactionShape = TransactionDetails & { chainId: string };

// ---------------------------------------------------------------- balances

export const NativeTokenBalanceRef = builder.objectRef<NativeTokenBalance>('NativeTokenBalance').implement({
  description: "An address's balance of the chain's native token.",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Token name.' }),
    symbol: t.exposeString('symbol', { description: 'Token symbol.' }),
    decimals: t.exposeInt('decimals', { description: 'Token decimals.' }),
    logoUri: t.exposeString('logoUri', { nullable: true, description: 'Token logo URL.' }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    price: t.field({ type: PriceRef, nullable: true, description: 'Price of one token.', resolve: (b) => b.price ?? null }),
    balance: t.field({ type: 'UInt256', description: 'Balance in the smallest unit (wei).', resolve: (b) => b.balance }),
    balanceValue: t.field({ type: PriceRef, nullable: true, description: 'Value of the balance.', resolve: (b) => b.balanceValue ?? null }),
  }),
});

const Erc1155TokenBalanceRef = builder.objectRef<Erc1155TokenBalance>('Erc1155TokenBalance').implement({
  description: 'An address\'s balance of one ERC-1155 token.',
  fields: (t) => ({
    address: t.exposeString('address', { description: 'Contract address.' }),
    ercType: t.field({ type: ErcType.ref, description: 'ERC_1155.', resolve: (b) => ErcType.out(b.ercType) ?? UNKNOWN_ENUM_VALUE }),
    tokenId: t.exposeString('tokenId', { description: 'Token id, decimal string (uint256).' }),
    tokenUri: t.exposeString('tokenUri', { description: 'Token URI.' }),
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
        resolve: (c) => (c as unknown as { nativeTokenBalance: NativeTokenBalance }).nativeTokenBalance,
      }),
    }),
  },
  { name: 'Erc1155BalanceEdge', description: 'An ERC-1155 balance and its cursor.' },
);

// ---------------------------------------------------------------- address transactions

const AddressTransactionRef = builder.objectRef<AddressTransactionShape>('AddressTransaction').implement({
  description:
    'A transaction as seen from one address (E3): the transfer and internal-transaction lists hold only entries where that address is the sender or the receiver. `transaction` is the complete view.',
  fields: (t) => ({
    nativeTransaction: t.field({ type: NativeTransactionRef, description: 'The transaction itself.', resolve: (x) => x.nativeTransaction }),
    ...transferFields(t, 'from or to the address'),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of this transaction (every transfer, input and fee fields).',
      // One lookup per transaction: the API has no batch form.
      extensions: { cost: costs.perParent() },
      resolve: (x, _args, ctx) => loadTransaction(ctx, x.chainId, x.nativeTransaction.txHash),
    }),
  }),
});

const AddressTransactionConnection = builder.connectionObject(
  { type: AddressTransactionRef, name: 'AddressTransactionConnection', description: 'A page of the transactions of an address.' },
  { name: 'AddressTransactionEdge', description: 'A transaction and its cursor.' },
);

// ---------------------------------------------------------------- argument checks

interface BlockRangeArgs extends ConnectionArgs {
  startBlock?: number | null;
  endBlock?: number | null;
}

function checkBlockRange(args: BlockRangeArgs): void {
  for (const name of ['startBlock', 'endBlock'] as const) {
    checkNonNegativeInt(name, args[name], 'a block number');
  }
  if (args.startBlock != null && args.endBlock != null && args.startBlock >= args.endBlock) {
    throw badInput('startBlock', 'must be less than endBlock (startBlock is inclusive, endBlock exclusive)');
  }
}

const blockRangeParams = (args: BlockRangeArgs): { startBlock?: number; endBlock?: number } => ({
  ...(args.startBlock != null ? { startBlock: args.startBlock } : {}),
  ...(args.endBlock != null ? { endBlock: args.endBlock } : {}),
});

// ---------------------------------------------------------------- Address

export const AddressRef = builder.objectRef<AddressShape>('Address');

AddressRef.implement({
  description: 'An address on one EVM chain: its transactions, native transactions, balances and ICM messages.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ description: 'Global id.', resolve: (a) => encodeGlobalId('Address', [a.chainId, a.address]) }),
    address: t.exposeString('address', { description: 'The address, lowercase 0x hex.' }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', extensions: { cost: costs.oncePerScope(1) }, resolve: (a, _args, ctx) => chainById(ctx).load(a.chainId) }),
    transactions: t.field({
      type: AddressTransactionConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description:
        'Transactions involving the address (E3), with the ERC-20/721/1155 transfers and internal transactions it took part in. Page size 1-100, default 10.',
      args: {
        ...pageArgs(t.arg, PAGES.addressTransactions),
        startBlock: t.arg.int({ description: 'First block, inclusive (alone: up to the latest block).' }),
        endBlock: t.arg.int({ description: 'Last block, exclusive (alone: from genesis).' }),
        sortOrder: t.arg({ type: SortOrderEnum, description: 'By timestamp; the upstream default is descending.' }),
      },
      extensions: {
        validateArgs: (args) => {
          checkPage(args, PAGES.addressTransactions);
          checkBlockRange(args as BlockRangeArgs);
        },
        cost: costs.listing(PAGES.addressTransactions),
      },
      resolve: (a, args, ctx) => resolveAddressTransactions(ctx, a, args),
    }),
    nativeTransactions: t.field({
      type: NativeTransactionConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'Transactions the address sent or received (E9), without logs. Page size 1-100, default 10.',
      args: {
        ...pageArgs(t.arg, PAGES.nativeTransactions),
        startBlock: t.arg.int({ description: 'First block, inclusive.' }),
        endBlock: t.arg.int({ description: 'Last block, exclusive.' }),
      },
      extensions: {
        validateArgs: (args) => {
          checkPage(args, PAGES.nativeTransactions);
          checkBlockRange(args as BlockRangeArgs);
        },
        cost: costs.listing(PAGES.nativeTransactions),
      },
      resolve: (a, args, ctx) =>
        resolvePageConnection({
          ctx,
          page: PAGES.nativeTransactions,
          args,
          parent: a,
          fetchPage: async (pageToken, pageSize) => {
            const page = await ctx.dataApi.listNativeTransactions(
              a.chainId,
              a.address,
              { pageSize, ...(pageToken ? { pageToken } : {}), ...blockRangeParams(args) },
              ctx.call,
            );
            return { items: page.transactions, nextPageToken: page.nextPageToken };
          },
        }),
    }),
    nativeBalance: t.field({
      type: NativeTokenBalanceRef,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: "The address's native token balance (E14).",
      args: {
        blockNumber: t.arg.string({ description: 'At this block, decimal digits (default: the latest).' }),
        currency: t.arg({ type: CurrencyCodeEnum, description: 'Currency of the price and value (default USD).' }),
      },
      extensions: {
        validateArgs: (args) => {
          if (args['blockNumber'] != null) checkDecimal('blockNumber', args['blockNumber']);
        },
        cost: costs.perParent(),
      },
      resolve: (a, args, ctx) =>
        nativeBalanceOf(ctx).load({
          chainId: a.chainId,
          address: a.address,
          blockNumber: args.blockNumber ?? undefined,
          currency: (args.currency as CurrencyCode | null | undefined) ?? undefined,
        }),
    }),
    erc1155Balances: t.field({
      type: Erc1155BalanceConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'ERC-1155 tokens the address holds (E10), with its native balance at the same block. Page size 1-500, default 10.',
      args: {
        ...pageArgs(t.arg, PAGES.erc1155Balances),
        blockNumber: t.arg.string({ description: 'At this block, decimal digits (default: the latest).' }),
        contractAddress: t.arg.string({ description: 'Only tokens of this contract.' }),
      },
      extensions: {
        validateArgs: (args) => {
          checkPage(args, PAGES.erc1155Balances);
          if (args['blockNumber'] != null) checkDecimal('blockNumber', args['blockNumber']);
          if (args['contractAddress'] != null) checkEvmAddress('contractAddress', args['contractAddress']);
        },
        cost: costs.listing(PAGES.erc1155Balances),
      },
      resolve: (a, args, ctx) => resolveErc1155Balances(ctx, a, args),
    }),
    icmMessages: t.field({
      type: IcmMessageConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'ICM messages the address sent or received on any chain (E16), newest first. Page size 1-100, default 10.',
      args: {
        ...pageArgs(t.arg, PAGES.icmMessages),
        network: t.arg({ type: NetworkNameEnum, description: 'Only messages of this network (all when omitted).' }),
      },
      extensions: { validateArgs: (args) => checkIcmArgs(args as IcmListArgs), cost: costs.listing(PAGES.icmMessages) },
      resolve: (a, args, ctx) => resolveIcmMessages(ctx, a.address, args, a),
    }),
  }),
});

function resolveAddressTransactions(ctx: Context, a: AddressShape, args: BlockRangeArgs & { sortOrder?: string | null }) {
  return resolvePageConnection<AddressTransactionShape>({
    ctx,
    page: PAGES.addressTransactions,
    args,
    parent: a,
    fetchPage: async (pageToken, pageSize) => {
      const page = await ctx.dataApi.listAddressTransactions(
        a.chainId,
        a.address,
        {
          pageSize,
          ...(pageToken ? { pageToken } : {}),
          ...blockRangeParams(args),
          ...(args.sortOrder ? { sortOrder: args.sortOrder as SortOrder } : {}),
        },
        ctx.call,
      );
      return { items: page.transactions.map((x) => ({ ...x, chainId: a.chainId })), nextPageToken: page.nextPageToken };
    },
  });
}

async function resolveErc1155Balances(ctx: Context, a: AddressShape, args: ConnectionArgs & { blockNumber?: string | null; contractAddress?: string | null }) {
  let nativeTokenBalance: NativeTokenBalance | undefined;
  const connection = await resolvePageConnection<Erc1155TokenBalance>({
    ctx,
    page: PAGES.erc1155Balances,
    args,
    parent: a,
    fetchPage: async (pageToken, pageSize) => {
      const page = await ctx.dataApi.listErc1155Balances(
        a.chainId,
        a.address,
        {
          pageSize,
          ...(pageToken ? { pageToken } : {}),
          ...(args.blockNumber != null ? { blockNumber: args.blockNumber } : {}),
          ...(args.contractAddress != null ? { contractAddress: args.contractAddress.toLowerCase() } : {}),
        },
        ctx.call,
      );
      nativeTokenBalance ??= page.nativeTokenBalance;
      return { items: page.erc1155TokenBalances, nextPageToken: page.nextPageToken };
    },
  });
  return { ...connection, nativeTokenBalance };
}

registerNodeFamily('Address', {
  parts: [ID_PARTS.chainId, ID_PARTS.evmAddress],
  load: async (ctx, [chainId, address]) => {
    if (!chainId || !address || !/^0x[0-9a-fA-F]{40}$/.test(address)) return null;
    const chain = await chainById(ctx).load(chainId);
    return chain ? { chainId: chain.chainId, address: address.toLowerCase() } : null;
  },
  typeOf: () => 'Address',
  // The chain list, once per request.
  refetchCalls: () => 1,
});
