// E5 and `GET /v1/operations/{operationId}`: transaction exports, validated as
// the public spec describes them (CreateEvmTransactionExportRequest or
// CreatePrimaryNetworkTransactionExportRequest, told apart by `type`), run by the
// network's operation store (RUNNING, then final). Any other `type` is a 400.
import { PRIMARY_BLOCKCHAIN_IDS, PRIMARY_CHAIN_IDS, PRIMARY_CHAIN_NAMES } from '../../shapes/index.ts';
import type { EvmData, EvmNetwork, ExportRequest } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import { evmAddress, parseJsonBody } from './evm-params.ts';
import { fail, get, ok, post } from './http-error.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EVM_EXPORT = 'TRANSACTION_EXPORT_EVM';
/** The spec's PrimaryNetworkOperationType. */
const PRIMARY_EXPORTS: readonly string[] = ['TRANSACTION_EXPORT_PRIMARY_NETWORK', 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING', 'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE'];
/** PrimaryNetworkOptions.includeChains' enum: the primary chains' ids of both networks and their aliases. */
const PRIMARY_EXPORT_CHAINS: ReadonlySet<string> = new Set<string>([...PRIMARY_BLOCKCHAIN_IDS, ...PRIMARY_CHAIN_NAMES]);
/** A primary-network address, optionally chain-prefixed; its hrp says the network. */
const PRIMARY_ADDRESS = /^(?:[PXC]-)?(avax|fuji)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38}$/;
const NETWORK_OF_HRP: Record<string, EvmNetwork> = { avax: 'mainnet', fuji: 'fuji' };

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

  /** EvmNetworkOptions: 0x addresses (required) on EVM chains; the operation FAILs on chains the devnet lacks. */
  function evmExport(opts: Record<string, unknown>, includeChains: string[]): { request: ExportRequest; network: EvmNetwork } {
    if (opts.cChainEvmAddresses !== undefined) fail(400, `options.cChainEvmAddresses is not an option of ${EVM_EXPORT}`);
    const addresses = stringArray(opts.addresses, 'options.addresses', true) ?? [];
    if (addresses.length === 0) fail(400, 'options.addresses must not be empty');
    const owners = includeChains.map((id) => knownChain(id));
    const request: ExportRequest = {
      type: EVM_EXPORT,
      addresses: addresses.map((a) => evmAddress(a, 'options.addresses item')),
      includeChains,
      unknownChains: includeChains.filter((_, i) => !owners[i]),
    };
    return { request, network: owners.find((d) => d)?.network ?? 'mainnet' };
  }

  /**
   * PrimaryNetworkOptions: includeChains from the spec's enum; P/X/C bech32 addresses of one
   * network and C-chain 0x addresses, at least one address in all. The network is the
   * addresses' (else the one a network-specific chain id names, else mainnet); a chain id
   * of the other network makes the operation FAIL, as an unknown EVM chain does.
   */
  function primaryExport(type: string, opts: Record<string, unknown>, includeChains: string[]): { request: ExportRequest; network: EvmNetwork } {
    for (const id of includeChains) {
      if (!PRIMARY_EXPORT_CHAINS.has(id)) fail(400, `options.includeChains item ${id.slice(0, 100)} must be one of ${[...PRIMARY_EXPORT_CHAINS].join(', ')}`);
    }
    const addresses = stringArray(opts.addresses, 'options.addresses', false) ?? [];
    const cChainEvmAddresses = (stringArray(opts.cChainEvmAddresses, 'options.cChainEvmAddresses', false) ?? []).map((a) => evmAddress(a, 'options.cChainEvmAddresses item'));
    if (addresses.length === 0 && cChainEvmAddresses.length === 0) fail(400, 'options.addresses or options.cChainEvmAddresses must name at least one address');
    const hrps = new Set(addresses.map((a) => PRIMARY_ADDRESS.exec(a)?.[1] ?? fail(400, `Invalid address format in options.addresses: ${a.slice(0, 100)}`)));
    if (hrps.size > 1) fail(400, 'options.addresses must all be of one network (avax1 or fuji1)');
    const networkOfChain = (id: string): EvmNetwork | undefined => networks.find((n) => id !== PRIMARY_CHAIN_IDS[n].p && (Object.values(PRIMARY_CHAIN_IDS[n]) as string[]).includes(id));
    const [hrp] = hrps;
    const network = (hrp ? NETWORK_OF_HRP[hrp] : undefined) ?? includeChains.map(networkOfChain).find((n) => n) ?? 'mainnet';
    const request: ExportRequest = {
      type,
      addresses: [...addresses, ...cChainEvmAddresses],
      includeChains,
      unknownChains: includeChains.filter((id) => (networkOfChain(id) ?? network) !== network),
    };
    return { request, network };
  }

  return [
    // E5
    post('/v1/operations/transactions:export', (_p, req) => {
      const body = parseJsonBody(req.body);
      const type = typeof body.type === 'string' ? body.type : '';
      if (type !== EVM_EXPORT && !PRIMARY_EXPORTS.includes(type)) fail(400, `type must be one of ${[EVM_EXPORT, ...PRIMARY_EXPORTS].join(', ')}`);
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
      const { request, network } = type === EVM_EXPORT ? evmExport(opts, includeChains) : primaryExport(type, opts, includeChains);
      if (firstDate) request.firstDate = firstDate;
      if (lastDate) request.lastDate = lastDate;
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
