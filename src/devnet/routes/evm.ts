import {
  approximately,
  CHAIN_FEATURES,
  type ChainFeature,
  type IcmMessage,
} from '../../shapes/index.ts';
import { EVM_HASH } from '../../lib/ids.ts';
import type { EvmNetwork } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import {
  blockNumberParam, blockRange, chainLookup, currencyParam, E10_LIMITS, enumParam, evmAddress, LIST_LIMITS, networkOf, paginate, param,
} from './evm-params.ts';
import { exportRoutes } from './exports.ts';
import { fail, get, ok } from './http-error.ts';
import { signatureRoutes, type EvmRoutesDataset } from './signatures.ts';

export type { EvmRoutesDataset, L1TxSource } from './signatures.ts';

/**
 * Routes of the EVM half of the Data API (E1, E2, E3, E5 + operations, E6, E9,
 * E10, E14, E16, E17, E19 and single transactions). Every bound of the seed is
 * enforced with its error body; lists page with an opaque token bound to the
 * request's filters. Signatures (E1, E2) and exports (E5) have files of their own.
 */
export function evmRoutes(dataset: EvmRoutesDataset): Route[] {
  const networks: EvmNetwork[] = ['mainnet', 'fuji'];
  const evm = dataset.evm;

  const chainData = chainLookup(evm);

  return [
    ...signatureRoutes(dataset),

    // E3
    get('/v1/chains/{chainId}/addresses/{address}/transactions', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const range = blockRange(req.query);
      const sortOrder = enumParam(req.query, 'sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      const items = data.addressTransactions(chain.chainId, address, range) ?? [];
      if (sortOrder === 'desc') items.reverse();
      const scope = `E3|${chain.chainId}|${address}|${range.startBlock}|${range.endBlock}|${sortOrder}`;
      const { page, nextPageToken } = paginate(items, req.query, LIST_LIMITS, scope);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    }),

    // E9
    get('/v1/chains/{chainId}/addresses/{address}/transactions:listNative', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const range = blockRange(req.query);
      const items = (data.nativeTransactions(chain.chainId, address, range) ?? []).reverse();
      const scope = `E9|${chain.chainId}|${address}|${range.startBlock}|${range.endBlock}`;
      const { page, nextPageToken } = paginate(items, req.query, LIST_LIMITS, scope);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    }),

    // E10
    get('/v1/chains/{chainId}/addresses/{address}/balances:listErc1155', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const blockNumber = blockNumberParam(req.query);
      const rawContract = param(req.query, 'contractAddress');
      const contract = rawContract === undefined ? undefined : evmAddress(rawContract, 'contractAddress');
      const items = data.erc1155Balances(chain.chainId, address, blockNumber, contract) ?? [];
      const scope = `E10|${chain.chainId}|${address}|${blockNumber}|${contract}`;
      const { page, nextPageToken } = paginate(items, req.query, E10_LIMITS, scope);
      const nativeTokenBalance = data.nativeBalance(chain.chainId, address, blockNumber, 'usd');
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), nativeTokenBalance, erc1155TokenBalances: page });
    }),

    // E14
    get('/v1/chains/{chainId}/addresses/{address}/balances:getNative', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const blockNumber = blockNumberParam(req.query);
      const currency = currencyParam(req.query);
      return ok({ nativeTokenBalance: data.nativeBalance(chain.chainId, address, blockNumber, currency) });
    }),

    // E6
    get('/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const currency = currencyParam(req.query);
      const tx = data.deployment(chain.chainId, address, currency);
      return tx ? ok(tx) : fail(404, `No contract deployed at ${address} on chain ${chain.chainId}`);
    }),

    // Single transaction (the complete view E3 points to)
    get('/v1/chains/{chainId}/transactions/{txHash}', (p) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const txHash = p.txHash ?? '';
      if (!EVM_HASH.test(txHash)) fail(400, 'txHash must be 0x followed by 64 hex characters');
      const tx = data.transaction(chain.chainId, txHash, 'usd');
      return tx ? ok(tx) : fail(404, `Transaction ${txHash} not found on chain ${chain.chainId}`);
    }),

    // E19
    get('/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}', (p) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const tokenId = p.tokenId ?? '';
      if (!/^\d+$/.test(tokenId)) fail(400, 'tokenId must be a string of decimal digits');
      const token = data.nftToken(chain.chainId, address, tokenId);
      return token ? ok(token) : fail(404, `Token ${tokenId} of collection ${address} not found on chain ${chain.chainId}`);
    }),

    // E16
    get('/v1/icm/addresses/{address}/messages', (p, req) => {
      const address = evmAddress(p.address ?? '');
      const rawNetwork = param(req.query, 'network');
      const network = rawNetwork === undefined ? undefined : networkOf(rawNetwork);
      const selected = network ? [network] : networks;
      const messages: IcmMessage[] = selected.flatMap((n) => evm[n].icmMessages(address));
      if (selected.length > 1) {
        messages.sort((a, b) => approximately(b.sourceTransaction?.timestamp ?? 0) - approximately(a.sourceTransaction?.timestamp ?? 0) || a.messageId.localeCompare(b.messageId));
      }
      const { page, nextPageToken } = paginate(messages, req.query, LIST_LIMITS, `E16|${address}|${network ?? 'all'}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), messages: page });
    }),

    // E17
    get('/v1/chains', (_p, req) => {
      const rawNetwork = param(req.query, 'network');
      const network = rawNetwork === undefined ? undefined : networkOf(rawNetwork);
      const feature: ChainFeature | undefined = enumParam(req.query, 'feature', CHAIN_FEATURES);
      const chains = (network ? [network] : networks)
        .flatMap((n) => evm[n].chains())
        .filter((c) => !feature || (c.enabledFeatures ?? []).includes(feature));
      return ok({ chains });
    }),

    ...exportRoutes(evm),
  ];
}
