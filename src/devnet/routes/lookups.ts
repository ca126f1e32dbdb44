import { isCb58Id, isNodeId } from '../../lib/ids.ts';
import { approximately, VALIDATION_STATUSES, type Blockchain, type IcmMessage } from '../../shapes/index.ts';
import type { Dataset } from '../dataset/index.ts';
import type { EvmNetwork } from '../dataset/evm/index.ts';
import { decodeIcmMessageId, evmSecret, icmParticipants } from '../dataset/evm/icm-ids.ts';
import { avaxSupplyOf, networkDetailsOf } from '../dataset/primary/network-summary.ts';
import type { Route } from '../router.ts';
import { enumParam, evmAddress, LIST_LIMITS, networkOf, paginate, param, type PageLimits } from './evm-params.ts';
import { fail, get, ok } from './http-error.ts';

/** listBlockchains' page sizes (as listSubnets'). */
const BLOCKCHAIN_LIMITS: PageLimits = { defaultSize: 100, maxSize: 10_000 };
const NETWORKS: readonly EvmNetwork[] = ['mainnet', 'fuji'];
const isChainId = (value: string): boolean => /^\d{1,20}$/.test(value) || isCb58Id(value);

const newestFirst = (a: IcmMessage, b: IcmMessage): number =>
  approximately(b.sourceTransaction?.timestamp ?? 0) - approximately(a.sourceTransaction?.timestamp ?? 0) || a.messageId.localeCompare(b.messageId);

/**
 * The public spec's direct lookups and network-wide reads, served from the same
 * dataset as the listings so each answer agrees with them: getSingleValidatorDetails
 * (the node's validations, as the validator listing has them), getSubnetById,
 * listBlockchains and getBlockchainById (the subnets' blockchains), getNetworkDetails
 * and getAvaxSupply (sums of the staking listings), listIcmMessages (the messages of
 * the network's ICM participants) and getIcmMessage (any message an address listing
 * serves, found from its id).
 */
export function lookupRoutes(dataset: Dataset): Route[] {
  const primary = (name: string | undefined) => dataset.primary[networkOf(name ?? '')];

  const sortOrderOf = (q: URLSearchParams) => enumParam(q, 'sortOrder', ['asc', 'desc'] as const) ?? 'desc';

  /** Every blockchain of a network, oldest first (the primary network's chains first). */
  const blockchainsOf = (name: string | undefined): Blockchain[] => primary(name).subnets.flatMap((s) => s.blockchains);

  /** The all-messages listing of one network: its participants' messages, newest first. */
  const allMessages = new Map<string, IcmMessage[]>();
  function messagesOf(network: EvmNetwork, extra: readonly string[]): IcmMessage[] {
    const evm = dataset.evm[network];
    let base = allMessages.get(network);
    if (!base) {
      const seen = new Set<string>();
      base = icmParticipants(evmSecret(dataset.seed, network), evm.fixtures().icmAddress)
        .flatMap((a) => evm.icmMessages(a))
        .filter((m) => !seen.has(m.messageId) && Boolean(seen.add(m.messageId)));
      allMessages.set(network, base);
    }
    if (extra.length === 0) return base;
    const ids = new Set(base.map((m) => m.messageId));
    return [...base, ...extra.flatMap((a) => evm.icmMessages(a)).filter((m) => !ids.has(m.messageId) && Boolean(ids.add(m.messageId)))];
  }

  return [
    get('/v1/networks/{network}/validators/{nodeId}', (p, req) => {
      const data = primary(p.network);
      const nodeId = p.nodeId ?? '';
      if (!isNodeId(nodeId)) fail(400, 'nodeId must be a node id: NodeID- followed by a cb58 id');
      const status = enumParam(req.query, 'validationStatus', VALIDATION_STATUSES);
      const sortOrder = sortOrderOf(req.query);
      // Every time the node validated, each its own record; newest first unless asked otherwise.
      const validators = data.validationsOf(nodeId).filter((v) => status === undefined || v.validationStatus === status);
      if (sortOrder === 'desc') validators.reverse();
      const { page, nextPageToken } = paginate(validators, req.query, LIST_LIMITS, `validator|${data.network}|${nodeId}|${status ?? ''}|${sortOrder}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), validators: page });
    }),

    get('/v1/networks/{network}/subnets/{subnetId}', (p) => {
      const data = primary(p.network);
      const subnetId = p.subnetId ?? '';
      if (!isCb58Id(subnetId)) fail(400, 'subnetId must be a cb58 subnet id');
      const subnet = data.subnet(subnetId);
      return subnet ? ok(subnet) : fail(404, `Subnet ${subnetId} not found on ${data.network}`);
    }),

    get('/v1/networks/{network}/blockchains', (p, req) => {
      const network = networkOf(p.network ?? '');
      const sortOrder = sortOrderOf(req.query);
      const chains = blockchainsOf(network);
      // Oldest first as created; newest first by default. Ties keep creation order.
      const ordered = sortOrder === 'asc' ? chains : [...chains].reverse();
      const { page, nextPageToken } = paginate(ordered, req.query, BLOCKCHAIN_LIMITS, `blockchains|${network}|${sortOrder}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), blockchains: page });
    }),

    get('/v1/networks/{network}/blockchains/{blockchainId}', (p) => {
      const network = networkOf(p.network ?? '');
      const blockchainId = p.blockchainId ?? '';
      if (!isCb58Id(blockchainId)) fail(400, 'blockchainId must be a cb58 blockchain id');
      const chain = blockchainsOf(network).find((b) => b.blockchainId === blockchainId);
      return chain ? ok(chain) : fail(404, `Blockchain ${blockchainId} not found on ${network}`);
    }),

    get('/v1/networks/{network}', (p) => ok(networkDetailsOf(primary(p.network)))),

    get('/v1/avax/supply', () => ok(avaxSupplyOf(dataset.primary.mainnet))),

    get('/v1/icm/messages', (_p, req) => {
      const q = req.query;
      const rawNetwork = param(q, 'network');
      const network = rawNetwork === undefined ? undefined : networkOf(rawNetwork);
      const chainParam = (name: string, evmToo: boolean): string | undefined => {
        const value = param(q, name);
        if (value !== undefined && !(evmToo ? isChainId(value) : isCb58Id(value))) fail(400, `${name} must be a blockchain id (cb58)${evmToo ? ' or an EVM chain id' : ''}`);
        return value;
      };
      const source = chainParam('sourceBlockchainId', true);
      const destination = chainParam('destinationBlockchainId', true);
      const either = chainParam('blockchainId', false);
      const rawTo = param(q, 'to');
      const rawFrom = param(q, 'from');
      const to = rawTo === undefined ? undefined : evmAddress(rawTo, 'to');
      const from = rawFrom === undefined ? undefined : evmAddress(rawFrom, 'from');
      const extra = [to, from].filter((a): a is string => a !== undefined);
      const messages = (network ? [network] : NETWORKS)
        .flatMap((n) => messagesOf(n, extra))
        .filter((m) =>
          (source === undefined || m.sourceBlockchainId === source || m.sourceEvmChainId === source) &&
          (destination === undefined || m.destinationBlockchainId === destination || m.destinationEvmChainId === destination) &&
          (either === undefined || m.sourceBlockchainId === either || m.destinationBlockchainId === either) &&
          (to === undefined || m.to.toLowerCase() === to) &&
          (from === undefined || m.from.toLowerCase() === from))
        .sort(newestFirst);
      const scope = `icm|${network ?? 'all'}|${source ?? ''}|${destination ?? ''}|${either ?? ''}|${to ?? ''}|${from ?? ''}`;
      const { page, nextPageToken } = paginate(messages, q, LIST_LIMITS, scope);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), messages: page });
    }),

    get('/v1/icm/messages/{messageId}', (p) => {
      const messageId = (p.messageId ?? '').replace(/^0x/i, '').toLowerCase();
      if (!/^[0-9a-f]{64}$/.test(messageId)) fail(400, 'messageId must be 64 hex characters');
      for (const network of NETWORKS) {
        const target = decodeIcmMessageId(evmSecret(dataset.seed, network), messageId);
        if (!target) continue;
        const found = dataset.evm[network].icmMessages(target.address).find((m) => m.messageId === messageId);
        if (found) return ok(found);
      }
      return fail(404, `ICM message ${messageId} not found`);
    }),
  ];
}
