import { builder, type BuilderTypes } from './builder.ts';
import { isEvmHash } from '../lib/ids.ts';
import { chainById, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import {
  deploymentOf, transactionOf, DEPLOYMENT_LOOKUP_COST, TRANSACTION_LOOKUP_COST, type ChainTransaction,
} from '../loaders/evm.ts';
import type {
  AddressInfo, Erc1155Token, Erc1155Transfer, Erc20Token, Erc20Transfer, Erc721Token, Erc721Transfer,
  FullNativeTransaction, InternalTransaction, NativeTransaction, NetworkTokenDetails, NftMetadata,
  TeleporterMessageInfo, TransactionMethod,
} from '../shapes/index.ts';
import { withFields } from '../shapes/index.ts';
import { ChainRef, NetworkTokenRef } from './chains.ts';
import { currencyOf, PriceRef } from './common.ts';
import { CurrencyCodeEnum, openEnumField, upstreamEnum } from './enums.ts';
import { BOUNDS } from './input-checks.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';

/** The complete view of one transaction, plus the EVM chain it was read from. */
export type TransactionShape = ChainTransaction;

// ---------------------------------------------------------------- enums

export const TransactionMethodCallType = upstreamEnum('TransactionMethodCallType', 'What a transaction does at the top level.', {
  NATIVE_TRANSFER: { value: 'NATIVE_TRANSFER', description: 'A plain transfer of the native token.' },
  CONTRACT_CALL: { value: 'CONTRACT_CALL', description: 'A call to a contract.' },
  CONTRACT_CREATION: { value: 'CONTRACT_CREATION', description: 'A contract deployment.' },
});

export const InternalTransactionType = upstreamEnum(
  'InternalTransactionType',
  'The opcode of an internal transaction. The upstream value `UNKNOWN` maps to UNKNOWN.',
  {
    CALL: { value: 'CALL', description: 'CALL.' },
    CREATE: { value: 'CREATE', description: 'CREATE.' },
    CREATE2: { value: 'CREATE2', description: 'CREATE2.' },
    CREATE3: { value: 'CREATE3', description: 'CREATE3.' },
    CALLCODE: { value: 'CALLCODE', description: 'CALLCODE.' },
    DELEGATECALL: { value: 'DELEGATECALL', description: 'DELEGATECALL.' },
    STATICCALL: { value: 'STATICCALL', description: 'STATICCALL.' },
  },
);

export const TransactionDirection = upstreamEnum('TransactionDirection', 'Which end of an ICM (Teleporter) message a transaction is.', {
  SOURCE_TRANSACTION: { value: 'SOURCE_TRANSACTION', description: 'The transaction that sent the message.' },
  DESTINATION_TRANSACTION: { value: 'DESTINATION_TRANSACTION', description: 'The transaction that delivered the message.' },
});

export const ErcType = upstreamEnum('ErcType', 'Token standard of a contract.', {
  ERC_20: { value: 'ERC-20', description: 'ERC-20 fungible token.' },
  ERC_721: { value: 'ERC-721', description: 'ERC-721 non-fungible token.' },
  ERC_1155: { value: 'ERC-1155', description: 'ERC-1155 multi-token.' },
});

export const NftIndexStatus = upstreamEnum(
  'NftIndexStatus',
  "How far the indexer got with a token's metadata. Read case-insensitively (`indexed` and `INDEXED` are INDEXED); the upstream value `UNKNOWN` maps to UNKNOWN.",
  {
    INDEXED: { value: 'INDEXED', description: 'Metadata fetched and parsed.' },
    UNINDEXED: { value: 'UNINDEXED', description: 'Not indexed yet.' },
    MISSING_TOKEN: { value: 'MISSING_TOKEN', description: 'The token does not exist (any more).' },
    INVALID_TOKEN_URI: { value: 'INVALID_TOKEN_URI', description: 'The token URI is malformed.' },
    INVALID_TOKEN_URI_SCHEME: { value: 'INVALID_TOKEN_URI_SCHEME', description: 'The token URI uses an unsupported scheme.' },
    UNREACHABLE_TOKEN_URI: { value: 'UNREACHABLE_TOKEN_URI', description: 'The token URI could not be fetched.' },
    THROTTLED_TOKEN_URI: { value: 'THROTTLED_TOKEN_URI', description: 'The token URI host throttled the indexer.' },
    METADATA_CONTENT_TOO_LARGE: { value: 'METADATA_CONTENT_TOO_LARGE', description: 'The metadata document is too large.' },
    INVALID_METADATA: { value: 'INVALID_METADATA', description: 'The metadata does not follow the standard.' },
    INVALID_METADATA_JSON: { value: 'INVALID_METADATA_JSON', description: 'The metadata is not valid JSON.' },
  },
);

// ---------------------------------------------------------------- shared objects

/**
 * A token reference or transfer with the EVM chain it was read on, when its parent
 * knows it: the upstream token objects do not say, and their `contract` link
 * (src/schema/contracts.ts) needs it. Items of shared answers are copied, never changed.
 */
export type OnChain<T> = T & { chainId?: string };
export const onChain = <T extends object>(item: T, chainId: string | undefined): OnChain<T> => (chainId === undefined ? item : withFields(item, { chainId }));
const onChainAll = <T extends object>(items: T[] | undefined, chainId: string | undefined): OnChain<T>[] => (items ?? []).map((item) => onChain(item, chainId));

export const AddressInfoRef = builder.objectRef<AddressInfo>('AddressInfo').implement({
  description: 'An address as it appears in a transaction, with the token or contract details the indexer knows.',
  fields: (t) => ({
    address: t.expose('address', { type: 'EvmAddress', description: 'The 0x address.' }),
    name: t.exposeString('name', { nullable: true, description: 'Name of the contract or token at this address, when known.' }),
    symbol: t.exposeString('symbol', { nullable: true, description: 'Token symbol, when the address is a token.' }),
    decimals: t.exposeInt('decimals', { nullable: true, description: 'Token decimals, when the address is a token.' }),
    logoUri: t.expose('logoUri', { type: 'URL', nullable: true, description: 'Logo URL, when known.' }),
  }),
});

const TransactionMethodRef = builder.objectRef<TransactionMethod>('TransactionMethod').implement({
  description: 'The method a transaction called.',
  fields: (t) => ({
    ...openEnumField(t, 'callType', TransactionMethodCallType, { description: 'Transfer, contract call or contract creation.', value: (m) => m.callType }),
    methodHash: t.exposeString('methodHash', { description: 'The 4-byte selector, 0x hex (empty for plain transfers).' }),
    methodName: t.exposeString('methodName', { nullable: true, description: 'The decoded signature, when the ABI is known.' }),
  }),
});

export const NftMetadataRef = builder.objectRef<NftMetadata>('NftMetadata').implement({
  description: 'Metadata of an NFT as indexed from its token URI. `attributes` is ERC-721 only; `decimals` and `properties` are ERC-1155 only.',
  fields: (t) => ({
    ...openEnumField(t, 'indexStatus', NftIndexStatus, { description: 'How far indexing got (read case-insensitively).', value: (m) => m.indexStatus, normalize: (raw) => raw.toUpperCase() }),
    metadataLastUpdatedTimestamp: t.expose('metadataLastUpdatedTimestamp', { type: 'UInt64', nullable: true, description: 'When the metadata was last read, unix seconds.' }),
    metadataLastUpdatedTime: t.field({ type: 'DateTime', nullable: true, description: 'When the metadata was last read: `metadataLastUpdatedTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.metadataLastUpdatedTimestamp) }),
    name: t.exposeString('name', { nullable: true, description: 'Name.' }),
    symbol: t.exposeString('symbol', { nullable: true, description: 'Symbol.' }),
    imageUri: t.expose('imageUri', { type: 'URL', nullable: true, description: 'Image URL.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
    animationUri: t.expose('animationUri', { type: 'URL', nullable: true, description: 'Animation URL.' }),
    externalUrl: t.expose('externalUrl', { type: 'URL', nullable: true, description: 'External URL.' }),
    background: t.exposeString('background', { nullable: true, description: 'Background colour.' }),
    attributes: t.exposeString('attributes', { nullable: true, description: 'ERC-721: the attributes, a JSON string.' }),
    decimals: t.exposeInt('decimals', { nullable: true, description: 'ERC-1155: decimals of the token.' }),
    properties: t.exposeString('properties', { nullable: true, description: 'ERC-1155: the properties, a JSON string.' }),
  }),
});

export const Erc20TokenRef = builder.objectRef<OnChain<Erc20Token>>('Erc20Token').implement({
  description: 'An ERC-20 token.',
  fields: (t) => ({
    address: t.expose('address', { type: 'EvmAddress', description: 'Contract address.' }),
    name: t.exposeString('name', { description: 'Token name.' }),
    symbol: t.exposeString('symbol', { description: 'Token symbol.' }),
    decimals: t.exposeInt('decimals', { description: 'Decimals.' }),
    logoUri: t.expose('logoUri', { type: 'URL', nullable: true, description: 'Logo URL.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_20.', value: (x) => x.ercType }),
    price: t.field({ type: PriceRef, nullable: true, description: 'Current price of one token, when known.', resolve: (x) => x.price ?? null }),
  }),
});

export const Erc721TokenRef = builder.objectRef<OnChain<Erc721Token>>('Erc721Token').implement({
  description: 'One ERC-721 token.',
  fields: (t) => ({
    address: t.expose('address', { type: 'EvmAddress', description: 'Collection contract address.' }),
    name: t.exposeString('name', { description: 'Collection name.' }),
    symbol: t.exposeString('symbol', { description: 'Collection symbol.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_721.', value: (x) => x.ercType }),
    tokenId: t.exposeString('tokenId', { description: 'Token id, decimal string (uint256).' }),
    tokenUri: t.expose('tokenUri', { type: 'URL', description: 'Token URI.' }),
    metadata: t.field({ type: NftMetadataRef, description: 'Indexed metadata.', resolve: (x) => x.metadata }),
    ownerAddress: t.expose('ownerAddress', { type: 'EvmAddress', nullable: true, description: 'Current owner, when known.' }),
  }),
});

export const Erc1155TokenRef = builder.objectRef<OnChain<Erc1155Token>>('Erc1155Token').implement({
  description: 'One ERC-1155 token.',
  fields: (t) => ({
    address: t.expose('address', { type: 'EvmAddress', description: 'Contract address.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_1155.', value: (x) => x.ercType }),
    tokenId: t.exposeString('tokenId', { description: 'Token id, decimal string (uint256).' }),
    tokenUri: t.expose('tokenUri', { type: 'URL', description: 'Token URI.' }),
    metadata: t.field({ type: NftMetadataRef, description: 'Indexed metadata.', resolve: (x) => x.metadata }),
  }),
});

const Erc20TransferRef = builder.objectRef<OnChain<Erc20Transfer>>('Erc20Transfer').implement({
  description: 'An ERC-20 transfer (one Transfer log).',
  fields: (t) => ({
    from: t.field({ type: AddressInfoRef, description: 'Sender.', resolve: (x) => x.from }),
    to: t.field({ type: AddressInfoRef, description: 'Receiver.', resolve: (x) => x.to }),
    logIndex: t.exposeInt('logIndex', { description: 'Index of the log in the block.' }),
    value: t.field({ type: 'UInt256', description: 'Amount, in the smallest unit of the token.', resolve: (x) => x.value }),
    erc20Token: t.field({ type: Erc20TokenRef, description: 'The token.', resolve: (x) => onChain(x.erc20Token, x.chainId) }),
  }),
});

const Erc721TransferRef = builder.objectRef<OnChain<Erc721Transfer>>('Erc721Transfer').implement({
  description: 'An ERC-721 transfer.',
  fields: (t) => ({
    from: t.field({ type: AddressInfoRef, description: 'Sender.', resolve: (x) => x.from }),
    to: t.field({ type: AddressInfoRef, description: 'Receiver.', resolve: (x) => x.to }),
    logIndex: t.exposeInt('logIndex', { description: 'Index of the log in the block.' }),
    erc721Token: t.field({ type: Erc721TokenRef, description: 'The token transferred.', resolve: (x) => onChain(x.erc721Token, x.chainId) }),
  }),
});

const Erc1155TransferRef = builder.objectRef<OnChain<Erc1155Transfer>>('Erc1155Transfer').implement({
  description: 'An ERC-1155 transfer.',
  fields: (t) => ({
    from: t.field({ type: AddressInfoRef, description: 'Sender.', resolve: (x) => x.from }),
    to: t.field({ type: AddressInfoRef, description: 'Receiver.', resolve: (x) => x.to }),
    logIndex: t.exposeInt('logIndex', { description: 'Index of the log in the block.' }),
    value: t.field({ type: 'UInt256', description: 'Number of tokens transferred.', resolve: (x) => x.value }),
    erc1155Token: t.field({ type: Erc1155TokenRef, description: 'The token transferred.', resolve: (x) => onChain(x.erc1155Token, x.chainId) }),
  }),
});

const InternalTransactionRef = builder.objectRef<InternalTransaction>('InternalTransaction').implement({
  description: 'A call made by a contract during a transaction.',
  fields: (t) => ({
    from: t.field({ type: AddressInfoRef, description: 'Caller.', resolve: (x) => x.from }),
    to: t.field({ type: AddressInfoRef, description: 'Callee.', resolve: (x) => x.to }),
    ...openEnumField(t, 'internalTxType', InternalTransactionType, { description: 'The opcode.', value: (x) => x.internalTxType }),
    value: t.field({ type: 'UInt256', description: 'Native value sent, wei.', resolve: (x) => x.value }),
    isReverted: t.exposeBoolean('isReverted', { description: 'True when the call reverted.' }),
    gasUsed: t.field({ type: 'UInt256', description: 'Gas used.', resolve: (x) => x.gasUsed }),
    gasLimit: t.field({ type: 'UInt256', description: 'Gas limit.', resolve: (x) => x.gasLimit }),
  }),
});

export const TeleporterMessageInfoRef = builder.objectRef<TeleporterMessageInfo>('TeleporterMessageInfo').implement({
  description: 'The ICM (Teleporter) message a transaction sent or delivered.',
  fields: (t) => ({
    teleporterMessageId: t.exposeString('teleporterMessageId', { description: 'The message id.' }),
    ...openEnumField(t, 'direction', TransactionDirection, { description: 'Whether this transaction sent or delivered it.', value: (x) => x.direction }),
    sourceChainId: t.exposeString('sourceChainId', { nullable: true, description: 'Blockchain id of the sending chain (on delivering transactions).' }),
    destinationChainId: t.exposeString('destinationChainId', { nullable: true, description: 'Blockchain id of the receiving chain (on sending transactions).' }),
    sourceChain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'The sending chain, when it is an indexed EVM chain.',
      upstreamCost: CHAIN_LOOKUP_COST,
      resolve: (x, _args, ctx) => (x.sourceChainId ? chainById(ctx).load(x.sourceChainId) : null),
    }),
    destinationChain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'The receiving chain, when it is an indexed EVM chain.',
      upstreamCost: CHAIN_LOOKUP_COST,
      resolve: (x, _args, ctx) => (x.destinationChainId ? chainById(ctx).load(x.destinationChainId) : null),
    }),
  }),
});

const NetworkTokenDetailsRef = builder.objectRef<NetworkTokenDetails>('NetworkTokenDetails').implement({
  description: "The chain's native token with its price now and at the time of the transaction.",
  fields: (t) => ({
    networkToken: t.field({ type: NetworkTokenRef, description: 'The native token.', resolve: (x) => x.networkToken }),
    currentPrice: t.field({ type: PriceRef, nullable: true, description: 'Price now.', resolve: (x) => x.currentPrice ?? null }),
    historicalPrice: t.field({ type: PriceRef, nullable: true, description: 'Price when the transaction was included.', resolve: (x) => x.historicalPrice ?? null }),
  }),
});

// ---------------------------------------------------------------- native transactions

type FieldBuilder<T> = PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>;

/** The fields NativeTransaction and FullNativeTransaction share. */
function nativeTransactionFields<T extends NativeTransaction>(t: FieldBuilder<T>) {
  return {
    blockNumber: t.field({ type: 'UInt256', description: 'Block number.', resolve: (x) => x.blockNumber }),
    blockTimestamp: t.field({ type: 'UInt64', description: 'Block timestamp, unix seconds.', resolve: (x) => x.blockTimestamp }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'Block timestamp: `blockTimestamp` as a DateTime.', resolve: (x) => unixSecondsToDate(x.blockTimestamp) }),
    blockHash: t.field({ type: 'Hash', description: 'Block hash.', resolve: (x) => x.blockHash }),
    chainId: t.string({ description: 'EVM chain id.', resolve: (x) => x.chainId }),
    blockIndex: t.int({ description: 'Index of the transaction in its block.', resolve: (x) => x.blockIndex }),
    txHash: t.field({ type: 'Hash', description: 'Transaction hash.', resolve: (x) => x.txHash }),
    txStatus: t.string({ description: 'Receipt status: "1" success, "0" failure.', resolve: (x) => x.txStatus }),
    txType: t.int({ description: 'EIP-2718 transaction type (0 legacy, 2 EIP-1559, ...).', resolve: (x) => x.txType }),
    gasLimit: t.field({ type: 'UInt256', description: 'Gas limit.', resolve: (x) => x.gasLimit }),
    gasUsed: t.field({ type: 'UInt256', description: 'Gas used.', resolve: (x) => x.gasUsed }),
    gasPrice: t.field({ type: 'UInt256', description: 'Effective gas price, wei.', resolve: (x) => x.gasPrice }),
    nonce: t.field({ type: 'UInt256', description: "The sender's nonce.", resolve: (x) => x.nonce }),
    from: t.field({ type: AddressInfoRef, description: 'Sender.', resolve: (x) => x.from }),
    to: t.field({ type: AddressInfoRef, description: 'Receiver (the created contract for deployments).', resolve: (x) => x.to }),
    method: t.field({ type: TransactionMethodRef, nullable: true, description: 'The method called.', resolve: (x) => x.method ?? null }),
    value: t.field({ type: 'UInt256', description: 'Native value sent, wei.', resolve: (x) => x.value }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of this transaction (all transfers, not only those of one address).',
      upstreamCost: TRANSACTION_LOOKUP_COST,
      resolve: (x, _args, ctx) => transactionOf(ctx, x.chainId, x.txHash),
    }),
  };
}

export const NativeTransactionRef = builder.objectRef<NativeTransaction>('NativeTransaction');
export const FullNativeTransactionRef = builder.objectRef<FullNativeTransaction>('FullNativeTransaction');
export const TransactionRef = builder.objectRef<TransactionShape>('Transaction');

NativeTransactionRef.implement({
  description: 'The transaction itself (no logs): block, sender, receiver, value, gas and the method called.',
  fields: (t) => nativeTransactionFields(t),
});

FullNativeTransactionRef.implement({
  description: 'A transaction with its input data and EIP-1559 fee fields (the complete view).',
  fields: (t) => ({
    ...nativeTransactionFields(t),
    input: t.expose('input', { type: 'Hex', description: 'Call data, 0x hex.' }),
    baseFeePerGas: t.field({ type: 'UInt256', description: 'Base fee of the block, wei.', resolve: (x) => x.baseFeePerGas }),
    maxFeePerGas: t.field({ type: 'UInt256', nullable: true, description: 'EIP-1559 max fee per gas, wei.', resolve: (x) => x.maxFeePerGas ?? null }),
    maxPriorityFeePerGas: t.field({ type: 'UInt256', nullable: true, description: 'EIP-1559 max priority fee per gas, wei.', resolve: (x) => x.maxPriorityFeePerGas ?? null }),
  }),
});

export const NativeTransactionConnection = builder.connectionObject(
  { type: NativeTransactionRef, name: 'NativeTransactionConnection', description: 'A page of native transactions.' },
  { name: 'NativeTransactionEdge', description: 'A native transaction and its cursor.' },
);

// ---------------------------------------------------------------- the complete transaction

/** Transfer and internal-transaction lists: the shared fields of Transaction and AddressTransaction. */
export function transferFields<T extends { chainId?: string; erc20Transfers?: Erc20Transfer[]; erc721Transfers?: Erc721Transfer[]; erc1155Transfers?: Erc1155Transfer[]; internalTransactions?: InternalTransaction[] }>(
  t: FieldBuilder<T>,
  scope: string,
) {
  return {
    erc20Transfers: t.field({ type: [Erc20TransferRef], description: `ERC-20 transfers ${scope}.`, resolve: (x) => onChainAll(x.erc20Transfers, x.chainId) }),
    erc721Transfers: t.field({ type: [Erc721TransferRef], description: `ERC-721 transfers ${scope}.`, resolve: (x) => onChainAll(x.erc721Transfers, x.chainId) }),
    erc1155Transfers: t.field({ type: [Erc1155TransferRef], description: `ERC-1155 transfers ${scope}.`, resolve: (x) => onChainAll(x.erc1155Transfers, x.chainId) }),
    internalTransactions: t.field({ type: [InternalTransactionRef], description: `Internal transactions ${scope}.`, resolve: (x) => x.internalTransactions ?? [] }),
  };
}

TransactionRef.implement({
  description:
    'The complete view of one EVM transaction: the transaction with its input and fee fields, every token transfer and internal transaction, the native token price, and the ICM message it carries.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (x) => encodeGlobalId('Transaction', [x.chainId, () => x.nativeTransaction.txHash]) }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', upstreamCost: CHAIN_LOOKUP_COST, resolve: (x, _args, ctx) => chainById(ctx).load(x.chainId) }),
    chainId: t.string({
      nullable: true,
      description: "EVM chain id, the native transaction's `chainId`. With `txHash`, the natural key federation routers may reference a transaction by.",
      resolve: (x) => x.nativeTransaction.chainId,
    }),
    txHash: t.field({ type: 'Hash', nullable: true, description: "Transaction hash, the native transaction's `txHash`.", resolve: (x) => x.nativeTransaction.txHash }),
    nativeTransaction: t.field({ type: FullNativeTransactionRef, description: 'The transaction itself.', resolve: (x) => x.nativeTransaction }),
    ...transferFields(t, 'in this transaction'),
    networkTokenDetails: t.field({ type: NetworkTokenDetailsRef, description: 'The native token and its prices.', resolve: (x) => x.networkTokenDetails }),
    teleporterMessageInfo: t.field({
      type: TeleporterMessageInfoRef,
      nullable: true,
      description: 'The ICM message this transaction sent or delivered, if any.',
      resolve: (x) => x.teleporterMessageInfo ?? null,
    }),
  }),
});

registerNodeFamily('Transaction', {
  refetchComputeUnits: TRANSACTION_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.chainId, ID_PARTS.evmTxHash],
  load: async (ctx, [chainId, txHash]) => (chainId && txHash && isEvmHash(txHash) ? transactionOf(ctx, chainId, txHash) : null),
  typeOf: () => 'Transaction',
});

// ---------------------------------------------------------------- a chain's transactions

builder.objectFields(ChainRef, (t) => ({
  transaction: t.field({
    type: TransactionRef,
    nullable: true,
    description: 'The complete view of one transaction on this chain; null when it does not exist.',
    args: { txHash: t.arg.string({ required: true, description: 'The transaction.', bound: BOUNDS.evmTxHash }) },
    upstreamCost: TRANSACTION_LOOKUP_COST,
    resolve: (c, args, ctx) => transactionOf(ctx, c.chainId, args.txHash),
  }),
  contractDeployment: t.field({
    type: TransactionRef,
    nullable: true,
    description: 'The transaction that deployed a contract; null when the address is not a contract deployed on this chain.',
    args: {
      address: t.arg.string({ required: true, description: 'Contract address.', bound: BOUNDS.evmAddress }),
      currency: t.arg({ type: CurrencyCodeEnum.ref, description: 'Currency of the native token prices (default USD).', bound: CurrencyCodeEnum.bound }),
    },
    upstreamCost: DEPLOYMENT_LOOKUP_COST,
    resolve: (c, args, ctx) => deploymentOf(ctx, c.chainId, args.address, currencyOf(args.currency)),
  }),
}));
