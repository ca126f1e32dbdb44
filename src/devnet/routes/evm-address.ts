// The token side of an address on the devnet's Data API (public spec):
// listErc20Balances, listErc721Balances, listCollectibleBalances and the four
// address transfer listings. Balances are summed from the very transfers these
// listings serve (dataset/evm/balances.ts); bounds and error bodies as elsewhere.
import type { EvmData, EvmNetwork } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import {
  blockNumberParam, blockRange, chainLookup, currencyParam, E10_LIMITS, evmAddress, LIST_LIMITS, paginate, param,
} from './evm-params.ts';
import { fail, get, ok } from './http-error.ts';

/** Contract addresses one `contractAddresses` list may hold. */
const MAX_CONTRACT_ADDRESSES = 100;

export function evmAddressRoutes(evm: Record<EvmNetwork, EvmData>): Route[] {

  const chainData = chainLookup(evm);

  function optionalAddress(q: URLSearchParams, name: string): string | undefined {
    const raw = param(q, name);
    return raw === undefined ? undefined : evmAddress(raw, name);
  }

  function booleanParam(q: URLSearchParams, name: string): boolean | undefined {
    const raw = param(q, name);
    if (raw === undefined) return undefined;
    if (raw !== 'true' && raw !== 'false') fail(400, `${name} must be a boolean value`);
    return raw === 'true';
  }

  function contractList(q: URLSearchParams): string[] | undefined {
    if (!q.has('contractAddresses')) return undefined;
    // A comma list (as the seed and spec send it) or the name repeated: both are read.
    const list = q.getAll('contractAddresses').flatMap((raw) => raw.split(','));
    if (list.length > MAX_CONTRACT_ADDRESSES) fail(400, `contractAddresses must hold at most ${MAX_CONTRACT_ADDRESSES} addresses`);
    return list.map((a) => evmAddress(a.trim(), 'contractAddresses'));
  }

  /** One of the four transfer listings: newest first, paged, bound to its filters. */
  function transferRoute(suffix: string, op: string, list: (data: EvmData, chainId: string, address: string, range: { startBlock?: number; endBlock?: number }) => unknown[] | undefined): Route {
    return get(`/v1/chains/{chainId}/addresses/{address}/transactions:${suffix}`, (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const range = blockRange(req.query);
      const items = (list(data, chain.chainId, address, range) ?? []).reverse();
      const scope = `${op}|${chain.chainId}|${address}|${range.startBlock}|${range.endBlock}`;
      const { page, nextPageToken } = paginate(items, req.query, LIST_LIMITS, scope);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    });
  }

  return [
    get('/v1/chains/{chainId}/addresses/{address}/balances:listErc20', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const blockNumber = blockNumberParam(req.query);
      const currency = currencyParam(req.query);
      // The devnet lists no spam tokens: the filter is checked and changes nothing.
      const spam = booleanParam(req.query, 'filterSpamTokens') ?? true;
      const contracts = contractList(req.query);
      const items = data.addressTokens.erc20Balances(chain.chainId, address, { blockNumber, contractAddresses: contracts, currency }) ?? [];
      const scope = `listErc20Balances|${chain.chainId}|${address}|${blockNumber}|${currency}|${spam}|${contracts?.join(',')}`;
      const { page, nextPageToken } = paginate(items, req.query, E10_LIMITS, scope);
      const nativeTokenBalance = data.nativeBalance(chain.chainId, address, blockNumber, currency);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), nativeTokenBalance, erc20TokenBalances: page });
    }),

    get('/v1/chains/{chainId}/addresses/{address}/balances:listErc721', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const contract = optionalAddress(req.query, 'contractAddress');
      const items = data.addressTokens.erc721Balances(chain.chainId, address, contract) ?? [];
      const { page, nextPageToken } = paginate(items, req.query, E10_LIMITS, `listErc721Balances|${chain.chainId}|${address}|${contract}`);
      const nativeTokenBalance = data.nativeBalance(chain.chainId, address, undefined, 'usd');
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), nativeTokenBalance, erc721TokenBalances: page });
    }),

    get('/v1/chains/{chainId}/addresses/{address}/balances:listCollectibles', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const contract = optionalAddress(req.query, 'contractAddress');
      const items = data.addressTokens.collectibleBalances(chain.chainId, address, contract) ?? [];
      const { page, nextPageToken } = paginate(items, req.query, E10_LIMITS, `listCollectibleBalances|${chain.chainId}|${address}|${contract}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), collectibleBalances: page });
    }),

    transferRoute('listErc20', 'listErc20Transactions', (data, c, a, r) => data.addressTokens.erc20Transfers(c, a, r)),
    transferRoute('listErc721', 'listErc721Transactions', (data, c, a, r) => data.addressTokens.erc721Transfers(c, a, r)),
    transferRoute('listErc1155', 'listErc1155Transactions', (data, c, a, r) => data.addressTokens.erc1155Transfers(c, a, r)),
    transferRoute('listInternals', 'listInternalTransactions', (data, c, a, r) => data.addressTokens.internalTransactions(c, a, r)),
  ];
}
