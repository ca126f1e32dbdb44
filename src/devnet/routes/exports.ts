// E5 and `GET /v1/operations/{operationId}`: transaction exports, validated as
// the seed describes them, run by the network's EVM data (RUNNING, then final).
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID } from '../../shapes/index.ts';
import type { EvmData, EvmNetwork, ExportRequest } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import { evmAddress, parseJsonBody } from './evm-params.ts';
import { fail, get, ok, post } from './http-error.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PRIMARY_EXPORT_TYPES = [
  'TRANSACTION_EXPORT_PRIMARY_NETWORK',
  'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING',
  'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE',
] as const;
const PRIMARY_CHAIN_VALUES: readonly string[] = [
  PRIMARY_NETWORK_ID,
  PRIMARY_CHAIN_IDS.mainnet.x, PRIMARY_CHAIN_IDS.fuji.x, PRIMARY_CHAIN_IDS.mainnet.c, PRIMARY_CHAIN_IDS.fuji.c,
  'p-chain', 'x-chain', 'c-chain',
];

function dateField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  // The round trip rejects impossible dates such as 2025-02-30, which Date would roll over.
  const time = typeof value === 'string' && DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    fail(400, `${name} must be a date in the form YYYY-MM-DD`);
  }
  return value as string;
}

function stringArray(value: unknown, name: string, required: boolean): string[] | undefined {
  if (value === undefined && !required) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    return fail(400, `${name} must be an array of strings`);
  }
  return value;
}

export function exportRoutes(evm: Record<EvmNetwork, EvmData>): Route[] {
  const networks: EvmNetwork[] = ['mainnet', 'fuji'];
  const knownChain = (id: string): EvmData | undefined => networks.map((n) => evm[n]).find((d) => d.hasChain(id));

  return [
    // E5
    post('/v1/operations/transactions:export', (_p, req) => {
      const body = parseJsonBody(req.body);
      const type = body.type;
      const isEvm = type === 'TRANSACTION_EXPORT_EVM';
      if (!isEvm && !(PRIMARY_EXPORT_TYPES as readonly unknown[]).includes(type)) {
        fail(400, `type must be one of TRANSACTION_EXPORT_EVM, ${PRIMARY_EXPORT_TYPES.join(', ')}`);
      }
      const [first, last, start, end] = ['firstDate', 'lastDate', 'startDate', 'endDate'].map((k) => dateField(body, k));
      // startDate / endDate are the deprecated names of firstDate / lastDate.
      const firstDate = first ?? start;
      const lastDate = last ?? end;
      if (firstDate && lastDate && firstDate > lastDate) fail(400, 'firstDate must not be after lastDate');

      const options = body.options;
      if (!options || typeof options !== 'object' || Array.isArray(options)) return fail(400, 'options is required');
      const opts = options as Record<string, unknown>;
      const includeChains = stringArray(opts.includeChains, 'options.includeChains', true) ?? [];
      if (includeChains.length === 0) fail(400, 'options.includeChains must not be empty');

      let network: EvmNetwork = 'mainnet';
      const request: ExportRequest = { type: type as string, addresses: [], includeChains };
      if (firstDate) request.firstDate = firstDate;
      if (lastDate) request.lastDate = lastDate;
      if (isEvm) {
        const addresses = stringArray(opts.addresses, 'options.addresses', true) ?? [];
        if (addresses.length === 0) fail(400, 'options.addresses must not be empty');
        request.addresses = addresses.map((a) => evmAddress(a, 'options.addresses item'));
        const owners = includeChains.map((id) => knownChain(id));
        request.unknownChains = includeChains.filter((_, i) => !owners[i]);
        network = owners.find((d) => d)?.network ?? 'mainnet';
      } else {
        for (const id of includeChains) {
          if (!PRIMARY_CHAIN_VALUES.includes(id)) fail(400, `options.includeChains values must be one of ${PRIMARY_CHAIN_VALUES.join(', ')}`);
        }
        request.addresses = stringArray(opts.addresses, 'options.addresses', false) ?? [];
        const evmAddresses = stringArray(opts.cChainEvmAddresses, 'options.cChainEvmAddresses', false) ?? [];
        evmAddresses.forEach((a) => evmAddress(a, 'options.cChainEvmAddresses item'));
        const fujiIds: readonly string[] = [PRIMARY_CHAIN_IDS.fuji.x, PRIMARY_CHAIN_IDS.fuji.c];
        const fujiPrefixed = request.addresses.some((a) => /^([PXC]-)?fuji1/.test(a));
        if (includeChains.some((id) => fujiIds.includes(id)) || fujiPrefixed) network = 'fuji';
      }
      return ok(evm[network].createExport(request));
    }),

    get('/v1/operations/{operationId}', (p) => {
      const id = p.operationId ?? '';
      for (const n of networks) {
        const op = evm[n].operation(id);
        if (op) return ok(op);
      }
      return fail(404, `Operation ${id} not found`);
    }),
  ];
}
