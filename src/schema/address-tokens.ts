import { builder, type BuilderTypes } from './builder.ts';
import {
  collectiblePages, erc1155TransferPages, erc20BalancePages, erc20TransferPages, erc721BalancePages, erc721TransferPages,
  internalTransactionPages, isErc1155Collectible, COLLECTIBLE_BALANCE_LISTING_COST, ERC1155_TRANSFER_LISTING_COST,
  ERC20_BALANCE_LISTING_COST, ERC20_TRANSFER_LISTING_COST, ERC721_BALANCE_LISTING_COST, ERC721_TRANSFER_LISTING_COST,
  INTERNAL_TRANSACTION_LISTING_COST, type ChainErc1155Transfer, type ChainErc20Transfer, type ChainErc721Transfer,
  type ChainInternalTransaction, type Collectible,
} from '../loaders/address-tokens.ts';
import { TRANSACTION_LOOKUP_COST, transactionOf } from '../loaders/evm.ts';
import { BLOCK_LOOKUP_COST, blockById } from '../loaders/evm-blocks.ts';
import type { AddressInfo, Erc20TokenBalance, Erc721TokenBalance, NativeTokenBalance, WideInteger } from '../shapes/index.ts';
import {
  AddressRef, blockNumber, checkBlockOrder, Erc1155TokenBalanceRef, NativeTokenBalanceRef, BLOCK_NUMBER,
} from './addresses.ts';
import { listOf } from './bounds.ts';
import { currencyOf, PriceRef } from './common.ts';
import { checkAfter, pageArgs, resolvePageConnection } from './connection.ts';
import { CurrencyCodeEnum, openEnumField, upstreamEnum } from './enums.ts';
import { BOUNDS } from './input-checks.ts';
import { PAGES } from './pagination.ts';
import { unixSecondsToDate } from './scalars.ts';
import {
  AddressInfoRef, Erc1155TokenRef, Erc20TokenRef, Erc721TokenRef, ErcType, InternalTransactionType, NftMetadataRef, onChain, TransactionRef,
} from './transactions.ts';
import { EvmBlockRef } from './evm-blocks.ts';

/**
 * The token side of an address (public spec): `Address.erc20Balances`,
 * `erc721Balances`, `collectibleBalances` (listErc20Balances, listErc721Balances,
 * listCollectibleBalances) and `erc20Transfers`, `erc721Transfers`, `erc1155Transfers`,
 * `internalTransactions` (listErc20Transactions, listErc721Transactions,
 * listErc1155Transactions, listInternalTransactions). Token references are the
 * token types of a transaction's transfers (`token` on each balance), so whatever
 * links those types gain reaches these too.
 */

type FieldBuilder<T> = PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>;

/** Contract addresses one `contractAddresses` filter may hold (sent as one comma list). */
export const MAX_CONTRACT_ADDRESSES = 100;

// ---------------------------------------------------------------- balances

export const TokenReputation = upstreamEnum('TokenReputation', "A security analysis's verdict on a token.", {
  MALICIOUS: { value: 'Malicious', description: 'The token is believed to be malicious (spam, phishing, a drainer).' },
  BENIGN: { value: 'Benign', description: 'Nothing malicious was found.' },
});

export const Erc20TokenBalanceRef = builder.objectRef<Erc20TokenBalance>('Erc20TokenBalance').implement({
  description: "An address's balance of one ERC-20 token, with the token's details and price.",
  fields: (t) => ({
    address: t.expose('address', { type: 'EvmAddress', description: 'Token contract address.' }),
    name: t.exposeString('name', { description: 'Token name.' }),
    symbol: t.exposeString('symbol', { description: 'Token symbol.' }),
    decimals: t.exposeInt('decimals', { description: 'Decimals: divide `balance` by 10^decimals for display.' }),
    logoUri: t.expose('logoUri', { type: 'URL', nullable: true, description: 'Token logo URL.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_20.', value: (b) => b.ercType }),
    price: t.field({ type: PriceRef, nullable: true, description: 'Price of one token, when known.', resolve: (b) => b.price ?? null }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    balance: t.field({ type: 'UInt256', description: 'Balance in the smallest unit of the token.', resolve: (b) => b.balance }),
    balanceValue: t.field({ type: PriceRef, nullable: true, description: 'Value of the balance, when a price is known.', resolve: (b) => b.balanceValue ?? null }),
    ...openEnumField(t, 'tokenReputation', TokenReputation, { description: 'Security verdict on the token; null when there is none.', value: (b) => b.tokenReputation }),
    token: t.field({ type: Erc20TokenRef, description: 'The token itself (the same type as in transfers).', resolve: (b) => b }),
  }),
});

/** The fields of a held ERC-721 token (the token's own, plus its chain). */
function erc721BalanceFields(t: FieldBuilder<Erc721TokenBalance>) {
  return {
    address: t.expose('address', { type: 'EvmAddress', description: 'Collection contract address.' }),
    name: t.exposeString('name', { description: 'Collection name.' }),
    symbol: t.exposeString('symbol', { description: 'Collection symbol.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_721.', value: (b) => b.ercType }),
    tokenId: t.exposeString('tokenId', { description: 'Token id, decimal string (uint256).' }),
    tokenUri: t.expose('tokenUri', { type: 'URL', description: 'Token URI.' }),
    metadata: t.field({ type: NftMetadataRef, description: 'Indexed metadata.', resolve: (b) => b.metadata }),
    ownerAddress: t.expose('ownerAddress', { type: 'EvmAddress', nullable: true, description: 'Owner, when the listing says.' }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    token: t.field({ type: Erc721TokenRef, description: 'The token itself (the same type as in transfers).', resolve: (b) => b }),
  };
}

export const Erc721TokenBalanceRef = builder.objectRef<Erc721TokenBalance>('Erc721TokenBalance').implement({
  description: 'An ERC-721 token an address holds.',
  fields: (t) => erc721BalanceFields(t),
});

builder.objectFields(Erc1155TokenBalanceRef, (t) => ({
  token: t.field({ type: Erc1155TokenRef, description: 'The token itself (the same type as in transfers).', resolve: (b) => b }),
}));

export const CollectibleBalanceRef = builder.unionType('CollectibleBalance', {
  description: 'A collectible an address holds: an ERC-721 token, or a balance of an ERC-1155 token.',
  types: [Erc721TokenBalanceRef, Erc1155TokenBalanceRef],
  resolveType: (item: Collectible) => (isErc1155Collectible(item) ? Erc1155TokenBalanceRef : Erc721TokenBalanceRef),
});

const Erc20BalanceConnection = builder.connectionObject(
  {
    type: Erc20TokenBalanceRef,
    name: 'Erc20BalanceConnection',
    description: 'A page of ERC-20 balances, with the native balance at the same block.',
    fields: (t) => ({
      nativeTokenBalance: t.field({
        type: NativeTokenBalanceRef,
        nullable: true,
        description: 'The native token balance at the same block (the listing returns it alongside).',
        resolve: (c) => (c as typeof c & { nativeTokenBalance?: NativeTokenBalance }).nativeTokenBalance ?? null,
      }),
    }),
  },
  { name: 'Erc20BalanceEdge', description: 'An ERC-20 balance and its cursor.' },
);

const Erc721BalanceConnection = builder.connectionObject(
  {
    type: Erc721TokenBalanceRef,
    name: 'Erc721BalanceConnection',
    description: 'A page of the ERC-721 tokens an address holds, with its native balance.',
    fields: (t) => ({
      nativeTokenBalance: t.field({
        type: NativeTokenBalanceRef,
        nullable: true,
        description: 'The native token balance (the listing returns it alongside).',
        resolve: (c) => (c as typeof c & { nativeTokenBalance?: NativeTokenBalance }).nativeTokenBalance ?? null,
      }),
    }),
  },
  { name: 'Erc721BalanceEdge', description: 'A held ERC-721 token and its cursor.' },
);

const CollectibleBalanceConnection = builder.connectionObject(
  { type: CollectibleBalanceRef, name: 'CollectibleBalanceConnection', description: 'A page of the collectibles (ERC-721 and ERC-1155) an address holds.' },
  { name: 'CollectibleBalanceEdge', description: 'A collectible and its cursor.' },
);

// ---------------------------------------------------------------- transfers

/** What every item of a transfer listing says about where it happened. */
interface Placed {
  chainId: string;
  blockNumber: string;
  blockTimestamp: WideInteger;
  blockTimestampMilliseconds?: WideInteger | undefined;
  blockHash: string;
  txHash: string;
  from: AddressInfo;
  to: AddressInfo;
}

function placedFields<T extends Placed>(t: FieldBuilder<T>) {
  return {
    chainId: t.string({ description: 'EVM chain id.', resolve: (x) => x.chainId }),
    blockNumber: t.field({ type: 'UInt64', description: 'Block number.', resolve: (x) => x.blockNumber }),
    blockTimestamp: t.field({ type: 'UInt64', description: 'Block timestamp, unix seconds.', resolve: (x) => x.blockTimestamp }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'Block timestamp: `blockTimestamp` as a DateTime.', resolve: (x) => unixSecondsToDate(x.blockTimestamp) }),
    blockTimestampMilliseconds: t.field({
      type: 'UInt64',
      nullable: true,
      description: 'Block timestamp, unix milliseconds (chains after the Granite upgrade only).',
      resolve: (x) => x.blockTimestampMilliseconds ?? null,
    }),
    blockHash: t.field({ type: 'Hash', description: 'Block hash.', resolve: (x) => x.blockHash }),
    txHash: t.field({ type: 'Hash', description: 'Hash of the transaction it happened in.', resolve: (x) => x.txHash }),
    from: t.field({ type: AddressInfoRef, description: 'Sender.', resolve: (x) => x.from }),
    to: t.field({ type: AddressInfoRef, description: 'Receiver.', resolve: (x) => x.to }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of the transaction (fetched once per request however many items point to it).',
      upstreamCost: TRANSACTION_LOOKUP_COST,
      resolve: (x, _args, ctx) => transactionOf(ctx, x.chainId, x.txHash),
    }),
    block: t.field({
      type: EvmBlockRef,
      nullable: true,
      description: 'The block it happened in (one read per block per request).',
      upstreamCost: BLOCK_LOOKUP_COST,
      resolve: (x, _args, ctx) => blockById(ctx).load({ chainId: x.chainId, blockId: x.blockNumber }),
    }),
  };
}

const AddressErc20TransferRef = builder.objectRef<ChainErc20Transfer>('AddressErc20Transfer').implement({
  description: 'An ERC-20 transfer to or from an address, with its block and transaction.',
  fields: (t) => ({
    ...placedFields(t),
    logIndex: t.exposeInt('logIndex', { description: 'Index of the log in the block.' }),
    value: t.field({ type: 'UInt256', description: 'Amount, in the smallest unit of the token.', resolve: (x) => x.value }),
    erc20Token: t.field({ type: Erc20TokenRef, description: 'The token.', resolve: (x) => onChain(x.erc20Token, x.chainId) }),
  }),
});

const AddressErc721TransferRef = builder.objectRef<ChainErc721Transfer>('AddressErc721Transfer').implement({
  description: 'An ERC-721 transfer to or from an address, with its block and transaction.',
  fields: (t) => ({
    ...placedFields(t),
    logIndex: t.exposeInt('logIndex', { description: 'Index of the log in the block.' }),
    erc721Token: t.field({ type: Erc721TokenRef, description: 'The token transferred.', resolve: (x) => onChain(x.erc721Token, x.chainId) }),
  }),
});

const AddressErc1155TransferRef = builder.objectRef<ChainErc1155Transfer>('AddressErc1155Transfer').implement({
  description: 'An ERC-1155 transfer to or from an address, with its block and transaction.',
  fields: (t) => ({
    ...placedFields(t),
    logIndex: t.exposeInt('logIndex', { description: 'Index of the log in the block.' }),
    value: t.field({ type: 'UInt256', description: 'Number of tokens transferred.', resolve: (x) => x.value }),
    erc1155Token: t.field({ type: Erc1155TokenRef, description: 'The token transferred.', resolve: (x) => onChain(x.erc1155Token, x.chainId) }),
  }),
});

const AddressInternalTransactionRef = builder.objectRef<ChainInternalTransaction>('AddressInternalTransaction').implement({
  description: 'A call made by a contract to or from an address during a transaction, with its block and transaction.',
  fields: (t) => ({
    ...placedFields(t),
    ...openEnumField(t, 'internalTxType', InternalTransactionType, { description: 'The opcode.', value: (x) => x.internalTxType }),
    value: t.field({ type: 'UInt256', description: 'Native value sent, wei.', resolve: (x) => x.value }),
    isReverted: t.exposeBoolean('isReverted', { description: 'True when the call reverted.' }),
    gasUsed: t.field({ type: 'UInt256', description: 'Gas used.', resolve: (x) => x.gasUsed }),
    gasLimit: t.field({ type: 'UInt256', description: 'Gas limit.', resolve: (x) => x.gasLimit }),
  }),
});

const connection = <T extends Parameters<typeof builder.connectionObject>[0]['type']>(type: T, name: string, what: string) =>
  builder.connectionObject({ type, name: `${name}Connection`, description: `A page of ${what}.` }, { name: `${name}Edge`, description: `One of the ${what} and its cursor.` });

const AddressErc20TransferConnection = connection(AddressErc20TransferRef, 'AddressErc20Transfer', 'ERC-20 transfers of an address');
const AddressErc721TransferConnection = connection(AddressErc721TransferRef, 'AddressErc721Transfer', 'ERC-721 transfers of an address');
const AddressErc1155TransferConnection = connection(AddressErc1155TransferRef, 'AddressErc1155Transfer', 'ERC-1155 transfers of an address');
const AddressInternalTransactionConnection = connection(AddressInternalTransactionRef, 'AddressInternalTransaction', 'internal transactions of an address');

// ---------------------------------------------------------------- Address fields

/** A block range's arguments as the listing's query (`startBlock` inclusive, `endBlock` exclusive). */
const rangeOf = (args: { startBlock?: string | null; endBlock?: string | null }) => {
  const range: { startBlock?: number; endBlock?: number } = {};
  const start = blockNumber(args.startBlock);
  const end = blockNumber(args.endBlock);
  if (start !== undefined) range.startBlock = start;
  if (end !== undefined) range.endBlock = end;
  return range;
};

builder.objectFields(AddressRef, (t) => {
  const rangeArgs = {
    startBlock: t.arg({ type: 'UInt64', description: 'First block, inclusive (alone: up to the latest block).', bound: BLOCK_NUMBER }),
    endBlock: t.arg({ type: 'UInt64', description: 'Last block, exclusive (alone: from genesis).', bound: BLOCK_NUMBER }),
  };
  return {
    erc20Balances: t.field({
      type: Erc20BalanceConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'ERC-20 tokens the address holds, with their details and prices, and its native balance at the same block.',
      args: {
        ...pageArgs(t.arg, PAGES.erc20Balances),
        blockNumber: t.arg.string({ description: 'At this block (default: the latest).', bound: BOUNDS.decimal }),
        filterSpamTokens: t.arg.boolean({ description: 'Leave out tokens known as spam (the upstream default is true).' }),
        contractAddresses: t.arg.stringList({
          description: 'Only these token contracts.',
          bound: listOf({ max: MAX_CONTRACT_ADDRESSES, item: BOUNDS.evmAddress }),
        }),
        currency: t.arg({ type: CurrencyCodeEnum.ref, description: 'Currency of the prices and values (default USD).', bound: CurrencyCodeEnum.bound }),
      },
      checkArgs: (args) => checkAfter(args, PAGES.erc20Balances),
      upstreamCost: ERC20_BALANCE_LISTING_COST,
      resolve: async (a, args, ctx) => {
        const pages = erc20BalancePages(ctx, a.chainId, a.address, {
          ...(args.blockNumber != null ? { blockNumber: args.blockNumber } : {}),
          ...(args.filterSpamTokens != null ? { filterSpamTokens: args.filterSpamTokens } : {}),
          ...(args.contractAddresses?.length ? { contractAddresses: args.contractAddresses.map((c) => c.toLowerCase()) } : {}),
          ...(args.currency != null ? { currency: currencyOf(args.currency) } : {}),
        });
        const page = await resolvePageConnection<Erc20TokenBalance>({ ctx, page: PAGES.erc20Balances, args, parent: a, fetchPage: pages.fetchPage });
        return { ...page, nativeTokenBalance: pages.nativeTokenBalance() };
      },
    }),
    erc721Balances: t.field({
      type: Erc721BalanceConnection,
      nullable: true,
      description: 'ERC-721 tokens the address holds, with their metadata, and its native balance.',
      args: {
        ...pageArgs(t.arg, PAGES.erc721Balances),
        contractAddress: t.arg.string({ description: 'Only tokens of this collection.', bound: BOUNDS.evmAddress }),
      },
      checkArgs: (args) => checkAfter(args, PAGES.erc721Balances),
      upstreamCost: ERC721_BALANCE_LISTING_COST,
      resolve: async (a, args, ctx) => {
        const pages = erc721BalancePages(ctx, a.chainId, a.address, nftFilter(args.contractAddress));
        const page = await resolvePageConnection<Erc721TokenBalance>({ ctx, page: PAGES.erc721Balances, args, parent: a, fetchPage: pages.fetchPage });
        return { ...page, nativeTokenBalance: pages.nativeTokenBalance() };
      },
    }),
    collectibleBalances: t.field({
      type: CollectibleBalanceConnection,
      nullable: true,
      description: 'Collectibles the address holds: ERC-721 tokens and ERC-1155 balances together, with their metadata.',
      args: {
        ...pageArgs(t.arg, PAGES.collectibleBalances),
        contractAddress: t.arg.string({ description: 'Only tokens of this collection.', bound: BOUNDS.evmAddress }),
      },
      checkArgs: (args) => checkAfter(args, PAGES.collectibleBalances),
      upstreamCost: COLLECTIBLE_BALANCE_LISTING_COST,
      resolve: (a, args, ctx) =>
        resolvePageConnection<Collectible>({
          ctx, page: PAGES.collectibleBalances, args, parent: a, fetchPage: collectiblePages(ctx, a.chainId, a.address, nftFilter(args.contractAddress)),
        }),
    }),
    erc20Transfers: t.field({
      type: AddressErc20TransferConnection,
      nullable: true,
      description: 'ERC-20 transfers the address sent or received, newest first, each with its block and transaction.',
      args: { ...pageArgs(t.arg, PAGES.erc20Transfers), ...rangeArgs },
      checkArgs: (args) => {
        checkAfter(args, PAGES.erc20Transfers);
        checkBlockOrder(args);
      },
      upstreamCost: ERC20_TRANSFER_LISTING_COST,
      resolve: (a, args, ctx) =>
        resolvePageConnection({ ctx, page: PAGES.erc20Transfers, args, parent: a, fetchPage: erc20TransferPages(ctx, a.chainId, a.address, rangeOf(args)) }),
    }),
    erc721Transfers: t.field({
      type: AddressErc721TransferConnection,
      nullable: true,
      description: 'ERC-721 transfers the address sent or received, newest first, each with its block and transaction.',
      args: { ...pageArgs(t.arg, PAGES.erc721Transfers), ...rangeArgs },
      checkArgs: (args) => {
        checkAfter(args, PAGES.erc721Transfers);
        checkBlockOrder(args);
      },
      upstreamCost: ERC721_TRANSFER_LISTING_COST,
      resolve: (a, args, ctx) =>
        resolvePageConnection({ ctx, page: PAGES.erc721Transfers, args, parent: a, fetchPage: erc721TransferPages(ctx, a.chainId, a.address, rangeOf(args)) }),
    }),
    erc1155Transfers: t.field({
      type: AddressErc1155TransferConnection,
      nullable: true,
      description: 'ERC-1155 transfers the address sent or received, newest first, each with its block and transaction.',
      args: { ...pageArgs(t.arg, PAGES.erc1155Transfers), ...rangeArgs },
      checkArgs: (args) => {
        checkAfter(args, PAGES.erc1155Transfers);
        checkBlockOrder(args);
      },
      upstreamCost: ERC1155_TRANSFER_LISTING_COST,
      resolve: (a, args, ctx) =>
        resolvePageConnection({ ctx, page: PAGES.erc1155Transfers, args, parent: a, fetchPage: erc1155TransferPages(ctx, a.chainId, a.address, rangeOf(args)) }),
    }),
    internalTransactions: t.field({
      type: AddressInternalTransactionConnection,
      nullable: true,
      description: 'Internal transactions (contract calls) to or from the address, newest first, each with its block and transaction.',
      args: { ...pageArgs(t.arg, PAGES.internalTransactions), ...rangeArgs },
      checkArgs: (args) => {
        checkAfter(args, PAGES.internalTransactions);
        checkBlockOrder(args);
      },
      upstreamCost: INTERNAL_TRANSACTION_LISTING_COST,
      resolve: (a, args, ctx) =>
        resolvePageConnection({
          ctx, page: PAGES.internalTransactions, args, parent: a, fetchPage: internalTransactionPages(ctx, a.chainId, a.address, rangeOf(args)),
        }),
    }),
  };
});

/** The collection filter of the NFT balance listings. */
const nftFilter = (contractAddress: string | null | undefined) => (contractAddress ? { contractAddress: contractAddress.toLowerCase() } : {});

