import { builder } from './builder.ts';
import { codedError, ErrorCode } from '../errors/graphql.ts';
import { ADDRESS_CONTRACT_COST, contractOf, type ChainContract } from '../loaders/contracts.ts';
import { nftTokenOf, NFT_TOKEN_LOOKUP_COST, type ChainNftToken } from '../loaders/evm.ts';
import {
  addressChains, allChainsBlockPages, allChainsTransactionPages, collectionTokenPages, deployedContractPages, reindexNftToken,
  ADDRESS_CHAINS_COST, ALL_CHAINS_BLOCK_LISTING_COST, ALL_CHAINS_TRANSACTION_LISTING_COST, COLLECTION_TOKEN_LISTING_COST,
  DEPLOYED_CONTRACT_LISTING_COST, REINDEX_NFT_COST,
} from '../loaders/evm-more.ts';
import type { Chain, NativeTransaction, Network } from '../shapes/index.ts';
import { AddressRef, type AddressShape } from './addresses.ts';
import { TokenReputation } from './address-tokens.ts';
import { ChainRef } from './chains.ts';
import { checkAfter, pageArgs, resolvePageConnection } from './connection.ts';
import { ContractInterface, Erc1155ContractRef, Erc721ContractRef } from './contracts.ts';
import { openEnumField } from './enums.ts';
import { EvmBlockConnection, LatestTransactionFilter, statusOf } from './evm-blocks.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { NftTokenRef } from './nfts.ts';
import { PAGES } from './pagination.ts';
import { Erc20TokenRef, FullNativeTransactionRef, NativeTransactionConnection, NativeTransactionRef } from './transactions.ts';
import type { Context } from './context.ts';

/**
 * The EVM operations beside the per-chain ones, each where a user walks to it: the
 * latest blocks and transactions across chains (`Query.latestBlocks`,
 * `Query.latestTransactions`), the chains an address is active on (`Address.chains`),
 * the contract at an address and the contracts it deployed (`Address.contract`,
 * `Address.deployedContracts`, `Contract.deployedContracts`), an NFT collection's
 * tokens (`Erc721Contract.tokens`, `Erc1155Contract.tokens`) and `reindexNft`.
 * A transaction's `from` and `to` link to their `Address` here too (no call).
 */

/** The spec's `network` query value (TESTNET sent as `fuji`, its alias, so both share cursors and caches); absent: the Data API's default. */
const networkOf = (name: string | null | undefined): Network | undefined => (name ? networkId(name) : undefined);

// ---------------------------------------------------------------- across chains

builder.queryFields((t) => ({
  latestBlocks: t.field({
    type: EvmBlockConnection,
    // An upstream failure here fails this field only.
    nullable: true,
    description: 'The latest blocks of every EVM chain of a network, newest first (each block links to its `chain`).',
    args: {
      ...pageArgs(t.arg, PAGES.allChainsBlocks),
      network: t.arg({ type: NetworkNameEnum, description: 'The network (the Data API defaults to mainnet).' }),
    },
    checkArgs: (args) => checkAfter(args, PAGES.allChainsBlocks),
    upstreamCost: ALL_CHAINS_BLOCK_LISTING_COST,
    resolve: (_root, args, ctx) => {
      const network = networkOf(args.network);
      return resolvePageConnection({ ctx, page: PAGES.allChainsBlocks, args, parent: { network }, fetchPage: allChainsBlockPages(ctx, network) });
    },
  }),
  latestTransactions: t.field({
    type: NativeTransactionConnection,
    // An upstream failure here fails this field only.
    nullable: true,
    description:
      'The latest transactions of every EVM chain of a network, newest first (without logs; `transaction` on each is the complete view, `block` its block).',
    args: {
      ...pageArgs(t.arg, PAGES.allChainsTransactions),
      network: t.arg({ type: NetworkNameEnum, description: 'The network (the Data API defaults to mainnet).' }),
      filter: t.arg({ type: LatestTransactionFilter, description: 'Only transactions matching this.' }),
    },
    checkArgs: (args) => checkAfter(args, PAGES.allChainsTransactions),
    upstreamCost: ALL_CHAINS_TRANSACTION_LISTING_COST,
    resolve: (_root, args, ctx) => {
      const network = networkOf(args.network);
      const status = statusOf(args.filter?.status);
      return resolvePageConnection({
        ctx,
        page: PAGES.allChainsTransactions,
        args,
        parent: { network, status },
        fetchPage: allChainsTransactionPages(ctx, network, status),
      });
    },
  }),
}));

// ---------------------------------------------------------------- a transaction's ends

for (const ref of [NativeTransactionRef, FullNativeTransactionRef] as const) {
  builder.objectFields(ref, (t) => ({
    fromAddress: t.field({
      type: AddressRef,
      description: 'The sender as an `Address` of this chain (its transactions, balances, contract). No upstream call by itself.',
      resolve: (x: NativeTransaction): AddressShape => ({ chainId: x.chainId, address: x.from.address.toLowerCase() }),
    }),
    toAddress: t.field({
      type: AddressRef,
      description: 'The receiver (or the contract called) as an `Address` of this chain. No upstream call by itself.',
      resolve: (x: NativeTransaction): AddressShape => ({ chainId: x.chainId, address: x.to.address.toLowerCase() }),
    }),
  }));
}

// ---------------------------------------------------------------- an address's chains and contracts

const ContractConnection = builder.connectionObject(
  { type: ContractInterface, name: 'ContractConnection', description: 'A page of contracts with their metadata.' },
  { name: 'ContractEdge', description: 'A contract and its cursor.' },
);

/** `deployedContracts` of an address or a contract: listContractDeployments by deployer. */
const resolveDeployed = (ctx: Context, chainId: string, address: string, args: { first?: number | null; after?: string | null }) =>
  resolvePageConnection<ChainContract>({
    ctx,
    page: PAGES.contractDeployments,
    args,
    parent: { chainId, address: address.toLowerCase() },
    fetchPage: deployedContractPages(ctx, chainId, address.toLowerCase()),
  });

const DEPLOYED_DESCRIPTION = 'The contracts this address deployed on the chain, with their metadata (the Data API lists them by deployer).';

builder.objectFields(AddressRef, (t) => ({
  chains: t.field({
    type: [ChainRef],
    // An upstream failure here fails this field only.
    nullable: true,
    description: 'The EVM chains, of any network, where this address has activity the Data API indexes (one call per distinct address).',
    upstreamCost: ADDRESS_CHAINS_COST,
    resolve: async (a, _args, ctx): Promise<Chain[]> => (await addressChains(ctx).load(a.address)).indexedChains,
  }),
  unindexedChainIds: t.stringList({
    nullable: true,
    description: 'Chains where the address has activity that the Data API does not index, by id (answered with `chains`, by the same call).',
    upstreamCost: ADDRESS_CHAINS_COST,
    resolve: async (a, _args, ctx) => (await addressChains(ctx).load(a.address)).unindexedChains,
  }),
  contract: t.field({
    type: ContractInterface,
    nullable: true,
    description: 'The contract at this address with its metadata; null when it is not a contract the Data API knows (one read per distinct contract per request).',
    upstreamCost: ADDRESS_CONTRACT_COST,
    resolve: (a, _args, ctx) => contractOf(ctx, a.chainId, a.address, true),
  }),
  deployedContracts: t.field({
    type: ContractConnection,
    // An upstream failure here fails this field only.
    nullable: true,
    description: DEPLOYED_DESCRIPTION,
    args: pageArgs(t.arg, PAGES.contractDeployments),
    checkArgs: (args) => checkAfter(args, PAGES.contractDeployments),
    upstreamCost: DEPLOYED_CONTRACT_LISTING_COST,
    resolve: (a, args, ctx) => resolveDeployed(ctx, a.chainId, a.address, args),
  }),
}));

builder.interfaceFields(ContractInterface, (t) => ({
  deployedContracts: t.field({
    type: ContractConnection,
    // An upstream failure here fails this field only.
    nullable: true,
    description: 'The contracts this contract deployed (a factory\'s children), with their metadata.',
    args: pageArgs(t.arg, PAGES.contractDeployments),
    checkArgs: (args) => checkAfter(args, PAGES.contractDeployments),
    upstreamCost: DEPLOYED_CONTRACT_LISTING_COST,
    resolve: (c, args, ctx) => resolveDeployed(ctx, c.chainId, c.address, args),
  }),
  asAddress: t.field({
    type: AddressRef,
    description: 'The contract as an `Address`: its transactions and balances. No upstream call by itself.',
    resolve: (c): AddressShape => ({ chainId: c.chainId, address: c.address.toLowerCase() }),
  }),
}));

// ---------------------------------------------------------------- an NFT collection's tokens

const NftTokenConnection = builder.connectionObject(
  { type: NftTokenRef, name: 'NftTokenConnection', description: 'A page of the tokens of an NFT collection.' },
  { name: 'NftTokenEdge', description: 'A token and its cursor.' },
);

for (const ref of [Erc721ContractRef, Erc1155ContractRef] as const) {
  builder.objectFields(ref, (t) => ({
    tokens: t.field({
      type: NftTokenConnection,
      // An upstream failure here fails this field only.
      nullable: true,
      description: 'The tokens of the collection with their indexed metadata (each the `NftToken` that `Chain.nftToken` answers).',
      args: pageArgs(t.arg, PAGES.collectionTokens),
      checkArgs: (args) => checkAfter(args, PAGES.collectionTokens),
      upstreamCost: COLLECTION_TOKEN_LISTING_COST,
      resolve: (c: ChainContract, args, ctx) =>
        resolvePageConnection<ChainNftToken>({
          ctx,
          page: PAGES.collectionTokens,
          args,
          parent: { chainId: c.chainId, address: c.address.toLowerCase() },
          fetchPage: collectionTokenPages(ctx, c.chainId, c.address.toLowerCase()),
        }),
    }),
  }));
}

// ---------------------------------------------------------------- token reputations (listTransactionsV2)

builder.objectFields(Erc20TokenRef, (t) => ({
  ...openEnumField(t, 'tokenReputation', TokenReputation, {
    description: 'Security verdict on the token (C-chain tokens); null when there is none or the listing does not report it (`Address.transactions` reports it with `filterSpamTokens`).',
    value: (x) => (x as { tokenReputation?: string | null }).tokenReputation,
  }),
}));

// ---------------------------------------------------------------- reindexNft

interface ReindexNftResult {
  chainId: string;
  address: string;
  tokenId: string;
}

const ReindexNftPayload = builder.objectRef<ReindexNftResult>('ReindexNftPayload').implement({
  description: 'A reindexing the Data API accepted: the token\'s metadata is fetched again in the background.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    address: t.expose('address', { type: 'EvmAddress', description: 'Collection contract address.' }),
    tokenId: t.exposeString('tokenId', { description: 'Token id.' }),
    token: t.field({
      type: NftTokenRef,
      nullable: true,
      description: 'The token as the Data API serves it now (its metadata may still be the old one until the reindexing ends).',
      upstreamCost: NFT_TOKEN_LOOKUP_COST,
      resolve: (r, _args, ctx) => nftTokenOf(ctx, r.chainId, r.address, r.tokenId),
    }),
  }),
});

builder.mutationField('reindexNft', (t) =>
  t.field({
    type: ReindexNftPayload,
    nullable: false,
    description:
      'Asks the Data API to fetch the metadata of one NFT again; it allows this once an hour per token. It spends that allowance on a Data API key, so it needs the caller\'s own key (the API key header) or an admin caller (the server\'s key); anyone else gets FORBIDDEN.',
    args: {
      chainId: t.arg.string({ required: true, description: 'EVM chain id or blockchain id.', bound: BOUNDS.chainId }),
      address: t.arg.string({ required: true, description: 'Collection contract address.', bound: BOUNDS.evmAddress }),
      tokenId: t.arg.string({ required: true, description: 'Token id.', bound: BOUNDS.decimal }),
    },
    upstreamCost: REINDEX_NFT_COST,
    resolve: async (_root, args, ctx) => {
      if (!ctx.isAdmin && ctx.call.apiKey === undefined) {
        throw codedError(ErrorCode.FORBIDDEN, 'reindexNft needs your own Data API key (or an admin token): it spends that key\'s once-an-hour allowance for the token.');
      }
      await reindexNftToken(ctx, args.chainId, args.address, args.tokenId);
      return { chainId: args.chainId, address: args.address.toLowerCase(), tokenId: args.tokenId };
    },
  }),
);
