import { builder, type BuilderTypes } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { isEvmAddress } from '../lib/ids.ts';
import { chainById, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import {
  contractOf, contractTransferPages, CONTRACT_LOOKUP_COST, CONTRACT_TRANSFER_LISTING_COST, type ChainContract, type ChainContractTransfer,
} from '../loaders/contracts.ts';
import { transactionOf, TRANSACTION_LOOKUP_COST } from '../loaders/evm.ts';
import type { ContractDeploymentDetails, ImageAsset, ResourceLink } from '../shapes/index.ts';
import { ChainRef } from './chains.ts';
import { checkAfter, pageArgs, resolvePageConnection } from './connection.ts';
import { openEnumField, openEnumInterfaceField, upstreamEnum } from './enums.ts';
import { EvmBlockRef } from './evm-blocks.ts';
import { BOUNDS, exactUInt64 } from './input-checks.ts';
import { NftTokenRef } from './nfts.ts';
import { AddressRef, Erc1155TokenBalanceRef } from './addresses.ts';
import { PAGES } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';
import { AddressInfoRef, Erc1155TokenRef, Erc20TokenRef, Erc721TokenRef, ErcType, onChain, TransactionRef, type OnChain } from './transactions.ts';
import type { Context } from './context.ts';
import { blockById, BLOCK_LOOKUP_COST } from '../loaders/evm-blocks.ts';

/**
 * Contract metadata (getContractMetadata) as the `Contract` interface, one type per
 * variant of the spec (Erc20Contract, Erc721Contract, Erc1155Contract,
 * UnknownContract, told apart by `ercType`), a token contract's transfers
 * (listTransfers), and the `contract` link of every token reference: ERC-20, ERC-721
 * and ERC-1155 tokens and NFTs. Each distinct contract is read once per request.
 */

// ---------------------------------------------------------------- small objects

export const ResourceLinkType = upstreamEnum('ResourceLinkType', 'Where a resource link of a contract points.', {
  BLOG: { value: 'Blog', description: 'A blog.' },
  COIN_GECKO: { value: 'CoinGecko', description: 'CoinGecko.' },
  COIN_MARKET_CAP: { value: 'CoinMarketCap', description: 'CoinMarketCap.' },
  DISCORD: { value: 'Discord', description: 'Discord.' },
  DOCUMENTATION: { value: 'Documentation', description: 'Documentation.' },
  FACEBOOK: { value: 'Facebook', description: 'Facebook.' },
  GITHUB: { value: 'Github', description: 'GitHub.' },
  INSTAGRAM: { value: 'Instagram', description: 'Instagram.' },
  LINKED_IN: { value: 'LinkedIn', description: 'LinkedIn.' },
  MEDIUM: { value: 'Medium', description: 'Medium.' },
  REDDIT: { value: 'Reddit', description: 'Reddit.' },
  SUPPORT: { value: 'Support', description: 'Support.' },
  TELEGRAM: { value: 'Telegram', description: 'Telegram.' },
  TIK_TOK: { value: 'TikTok', description: 'TikTok.' },
  TWITTER: { value: 'Twitter', description: 'Twitter / X.' },
  WEBSITE: { value: 'Website', description: 'The official website.' },
  WHITEPAPER: { value: 'Whitepaper', description: 'The whitepaper.' },
  YOUTUBE: { value: 'Youtube', description: 'YouTube.' },
});

const ImageAssetRef = builder.objectRef<ImageAsset>('ImageAsset').implement({
  description: 'An image the Data API hosts for a contract.',
  fields: (t) => ({
    assetId: t.exposeString('assetId', { nullable: true, description: 'Asset id.' }),
    imageUri: t.expose('imageUri', { type: 'URL', nullable: true, description: 'Image URL.' }),
  }),
});

const ResourceLinkRef = builder.objectRef<ResourceLink>('ResourceLink').implement({
  description: 'A link about a contract (website, socials, docs).',
  fields: (t) => ({
    ...openEnumField(t, 'type', ResourceLinkType, { description: 'What the link is.', value: (l) => l.type }),
    url: t.expose('url', { type: 'URL', description: 'The link.' }),
  }),
});

const ContractDeploymentDetailsRef = builder.objectRef<WithChainOf<ContractDeploymentDetails>>('ContractDeploymentDetails').implement({
  description: 'How a contract was deployed.',
  fields: (t) => ({
    txHash: t.field({ type: 'Hash', description: 'The deployment transaction.', resolve: (d) => d.txHash }),
    deployerAddress: t.expose('deployerAddress', { type: 'EvmAddress', description: 'The address that sent the deployment transaction.' }),
    deployerContractAddress: t.expose('deployerContractAddress', {
      type: 'EvmAddress',
      nullable: true,
      description: 'The contract that deployed this one, when it was deployed by a contract.',
    }),
    deployer: t.field({
      type: AddressRef,
      description: 'The deploying address as an `Address` of this chain (its transactions, the other contracts it deployed). No upstream call by itself.',
      resolve: (d) => ({ chainId: d.chainId, address: d.deployerAddress.toLowerCase() }),
    }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of the deployment transaction.',
      upstreamCost: TRANSACTION_LOOKUP_COST,
      resolve: (d, _args, ctx) => transactionOf(ctx, d.chainId, d.txHash),
    }),
  }),
});

type WithChainOf<T> = T & { chainId: string };

// ---------------------------------------------------------------- transfers

/** `Contract.transfers`' block range: block numbers as the upstream reads them exactly. */
const BLOCK_NUMBER = exactUInt64('A block number', 'a block number');

const ContractTransferFilter = builder.inputType('ContractTransferFilter', {
  description: "Filters of a token contract's transfers; names are the upstream query parameters.",
  fields: (t) => ({
    startBlock: t.field({ type: 'UInt64', description: 'First block, inclusive.', bound: BLOCK_NUMBER }),
    endBlock: t.field({ type: 'UInt64', description: 'Last block, exclusive.', bound: BLOCK_NUMBER }),
  }),
});

const ContractTransferRef = builder.objectRef<ChainContractTransfer>('ContractTransfer').implement({
  description:
    'One transfer of a token contract (a Transfer log): `erc20Token`, `erc721Token` or `erc1155Token` says which standard, with the block and transaction it happened in.',
  fields: (t) => ({
    blockNumber: t.field({ type: 'UInt64', description: 'Block number.', resolve: (x) => x.blockNumber }),
    blockTimestamp: t.field({ type: 'UInt64', description: 'Block timestamp, unix seconds.', resolve: (x) => x.blockTimestamp }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'Block timestamp: `blockTimestamp` as a DateTime.', resolve: (x) => unixSecondsToDate(x.blockTimestamp) }),
    blockHash: t.field({ type: 'Hash', description: 'Block hash.', resolve: (x) => x.blockHash }),
    txHash: t.field({ type: 'Hash', description: 'Transaction hash.', resolve: (x) => x.txHash }),
    from: t.field({ type: AddressInfoRef, description: 'Sender.', resolve: (x) => x.from }),
    to: t.field({ type: AddressInfoRef, description: 'Receiver.', resolve: (x) => x.to }),
    logIndex: t.exposeInt('logIndex', { description: 'Index of the log in the block.' }),
    value: t.field({ type: 'UInt256', nullable: true, description: 'Amount (ERC-20) or number of tokens (ERC-1155); null for ERC-721.', resolve: (x) => x.value ?? null }),
    erc20Token: t.field({ type: Erc20TokenRef, nullable: true, description: 'The token, for an ERC-20 transfer.', resolve: (x) => (x.erc20Token ? onChain(x.erc20Token, x.chainId) : null) }),
    erc721Token: t.field({ type: Erc721TokenRef, nullable: true, description: 'The token, for an ERC-721 transfer.', resolve: (x) => (x.erc721Token ? onChain(x.erc721Token, x.chainId) : null) }),
    erc1155Token: t.field({ type: Erc1155TokenRef, nullable: true, description: 'The token, for an ERC-1155 transfer.', resolve: (x) => (x.erc1155Token ? onChain(x.erc1155Token, x.chainId) : null) }),
    block: t.field({
      type: EvmBlockRef,
      nullable: true,
      description: 'The block of the transfer (one read per block per request).',
      upstreamCost: BLOCK_LOOKUP_COST,
      resolve: (x, _args, ctx) => blockById(ctx).load({ chainId: x.chainId, blockId: x.blockNumber }),
    }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of the transaction.',
      upstreamCost: TRANSACTION_LOOKUP_COST,
      resolve: (x, _args, ctx) => transactionOf(ctx, x.chainId, x.txHash),
    }),
  }),
});

const ContractTransferConnection = builder.connectionObject(
  { type: ContractTransferRef, name: 'ContractTransferConnection', description: 'A page of the transfers of a token contract, newest first.' },
  { name: 'ContractTransferEdge', description: 'A transfer and its cursor.' },
);

// ---------------------------------------------------------------- Contract

type InterfaceBuilder = PothosSchemaTypes.InterfaceFieldBuilder<BuilderTypes, ChainContract>;
type ObjectBuilder = PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, ChainContract>;

const CONTRACT_TYPES = { 'ERC-20': 'Erc20Contract', 'ERC-721': 'Erc721Contract', 'ERC-1155': 'Erc1155Contract' } as const;
/** The variant's type; an `ercType` this version does not know reads as UnknownContract. */
const contractTypeOf = (c: ChainContract): string => CONTRACT_TYPES[c.ercType as keyof typeof CONTRACT_TYPES] ?? 'UnknownContract';

function contractFields(t: InterfaceBuilder) {
  return {
    id: t.id({ nullable: false, description: 'Global id.', resolve: (c) => encodeGlobalId('Contract', [c.chainId, () => c.address.toLowerCase()]) }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', upstreamCost: CHAIN_LOOKUP_COST, resolve: (c, _args, ctx) => chainById(ctx).load(c.chainId) }),
    address: t.expose('address', { type: 'EvmAddress', description: 'Contract address (as the Data API writes it, possibly checksummed).' }),
    ...openEnumInterfaceField(t, 'ercType', ErcType, { description: 'Token standard; UNKNOWN for a contract that is not a token.', value: (c) => c.ercType }),
    name: t.exposeString('name', { nullable: true, description: 'Name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
    officialSite: t.expose('officialSite', { type: 'URL', nullable: true, description: 'Official website.' }),
    email: t.exposeString('email', { nullable: true, description: 'Contact e-mail.' }),
    logoAsset: t.field({ type: ImageAssetRef, nullable: true, description: 'Logo.', resolve: (c) => c.logoAsset ?? null }),
    bannerAsset: t.field({ type: ImageAssetRef, nullable: true, description: 'Banner image.', resolve: (c) => c.bannerAsset ?? null }),
    color: t.exposeString('color', { nullable: true, description: 'Brand colour.' }),
    resourceLinks: t.field({ type: [ResourceLinkRef], description: 'Links about the contract (empty when none).', resolve: (c) => c.resourceLinks ?? [] }),
    tags: t.stringList({ description: 'Tags (empty when none).', resolve: (c) => c.tags ?? [] }),
    deploymentDetails: t.field({
      type: ContractDeploymentDetailsRef,
      nullable: true,
      description: 'How the contract was deployed, when known.',
      resolve: (c) => (c.deploymentDetails ? { ...c.deploymentDetails, chainId: c.chainId } : null),
    }),
    transfers: t.field({
      type: ContractTransferConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'Transfers of the token, newest first (ERC-20/721/1155 tokens; empty for other contracts).',
      args: {
        ...pageArgs(t.arg, PAGES.contractTransfers),
        filter: t.arg({ type: ContractTransferFilter, description: 'Only transfers in this block range.' }),
      },
      checkArgs: (args) => {
        checkAfter(args, PAGES.contractTransfers);
        const { startBlock, endBlock } = args.filter ?? {};
        if (startBlock != null && endBlock != null && Number(startBlock) >= Number(endBlock)) {
          throw badInput('filter.startBlock', 'must be less than filter.endBlock (startBlock is inclusive, endBlock exclusive)');
        }
      },
      upstreamCost: CONTRACT_TRANSFER_LISTING_COST,
      resolve: (c, args, ctx) => {
        const { startBlock, endBlock } = args.filter ?? {};
        return resolvePageConnection({
          ctx,
          page: PAGES.contractTransfers,
          args,
          parent: { chainId: c.chainId, address: c.address.toLowerCase() },
          fetchPage: contractTransferPages(ctx, c.chainId, c.address.toLowerCase(), {
            ...(startBlock != null ? { startBlock: Number(startBlock) } : {}),
            ...(endBlock != null ? { endBlock: Number(endBlock) } : {}),
          }),
        });
      },
    }),
  };
}

export const ContractInterface = builder.interfaceRef<ChainContract>('Contract').implement({
  description:
    'A contract on an EVM chain with the metadata the Data API holds about it. Each standard is its own type: Erc20Contract, Erc721Contract, Erc1155Contract, and UnknownContract for a contract that is not a token.',
  interfaces: [NodeInterface],
  resolveType: (c) => contractTypeOf(c),
  fields: (t) => contractFields(t),
});

const variant = (name: string, description: string) => ({
  description,
  interfaces: [NodeInterface, ContractInterface],
  isTypeOf: (c: unknown) => typeof c === 'object' && c !== null && 'ercType' in c && 'address' in c && contractTypeOf(c as ChainContract) === name,
});

const symbolField = (t: ObjectBuilder) => t.exposeString('symbol', { nullable: true, description: 'Token symbol.' });
const pricingField = (t: ObjectBuilder) =>
  t.string({ nullable: true, description: 'The CoinGecko coin id the Data API prices the token with, when it has one.', resolve: (c) => c.pricingProviders?.coingeckoCoinId ?? null });

export const Erc20ContractRef = builder.objectRef<ChainContract>('Erc20Contract').implement({
  ...variant('Erc20Contract', 'An ERC-20 token contract.'),
  fields: (t) => ({
    symbol: symbolField(t),
    decimals: t.exposeInt('decimals', { nullable: true, description: 'Decimals: divide amounts by 10^decimals for display.' }),
    coingeckoCoinId: pricingField(t),
  }),
});

export const Erc721ContractRef = builder.objectRef<ChainContract>('Erc721Contract').implement({
  ...variant('Erc721Contract', 'An ERC-721 (NFT) collection contract.'),
  fields: (t) => ({ symbol: symbolField(t) }),
});

export const Erc1155ContractRef = builder.objectRef<ChainContract>('Erc1155Contract').implement({
  ...variant('Erc1155Contract', 'An ERC-1155 multi-token contract.'),
  fields: (t) => ({ symbol: symbolField(t), coingeckoCoinId: pricingField(t) }),
});

export const UnknownContractRef = builder.objectRef<ChainContract>('UnknownContract').implement({
  ...variant('UnknownContract', 'A contract that is not a token the Data API recognises (`ercTypeRaw` says what it sent).'),
  fields: () => ({}),
});

registerNodeFamily('Contract', {
  refetchComputeUnits: CONTRACT_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.chainId, ID_PARTS.evmAddress],
  load: async (ctx, [chainId, address]) => (chainId && address && isEvmAddress(address) ? contractOf(ctx, chainId, address) : null),
  typeOf: (c) => contractTypeOf(c),
});

// ---------------------------------------------------------------- links

builder.objectFields(ChainRef, (t) => ({
  contract: t.field({
    type: ContractInterface,
    nullable: true,
    description: 'The metadata of a contract on this chain; null when the address is not a contract the Data API knows.',
    args: { address: t.arg.string({ required: true, description: 'Contract address.', bound: BOUNDS.evmAddress }) },
    upstreamCost: CONTRACT_LOOKUP_COST,
    resolve: (c, args, ctx) => contractOf(ctx, c.chainId, args.address),
  }),
}));

const contractLink = (description: string) => ({ type: ContractInterface, nullable: true, description, upstreamCost: CONTRACT_LOOKUP_COST }) as const;
const LINK = 'The contract with its metadata (one read per distinct contract per request).';

/**
 * The contract of a token reference. The upstream token objects do not name their
 * chain: the parent that knows it hands the token down with `chainId`
 * (`onChain` in transactions.ts; balances carry it already). A token read without
 * one has no contract to link to (null, no call). NFTs (NftToken) carry their chain.
 */
const linkOf = (ctx: Context, token: OnChain<{ address: string }>): Promise<ChainContract | null> | null =>
  token.chainId ? contractOf(ctx, token.chainId, token.address) : null;

builder.objectFields(Erc20TokenRef, (t) => ({
  contract: t.field({ ...contractLink(LINK), resolve: (x, _args, ctx) => linkOf(ctx, x) }),
}));
builder.objectFields(Erc721TokenRef, (t) => ({
  contract: t.field({ ...contractLink(LINK), resolve: (x, _args, ctx) => linkOf(ctx, x) }),
}));
builder.objectFields(Erc1155TokenRef, (t) => ({
  contract: t.field({ ...contractLink(LINK), resolve: (x, _args, ctx) => linkOf(ctx, x) }),
}));
builder.objectFields(Erc1155TokenBalanceRef, (t) => ({
  contract: t.field({ ...contractLink(LINK), resolve: (b, _args, ctx) => contractOf(ctx, b.chainId, b.address) }),
}));
builder.objectFields(NftTokenRef, (t) => ({
  contract: t.field({ ...contractLink(`The collection contract. ${LINK}`), resolve: (n, _args, ctx) => contractOf(ctx, n.chainId, n.address) }),
}));
