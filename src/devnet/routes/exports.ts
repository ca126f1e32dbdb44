// E5 and `GET /v1/operations/{operationId}`: transaction exports, validated as
// the seed describes them, run by the network's EVM data (RUNNING, then final).
// The seed's only `type` is TRANSACTION_EXPORT_EVM; any other is a 400.
import type { EvmData, EvmNetwork, ExportRequest } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import { evmAddress, parseJsonBody } from './evm-params.ts';
import { fail, get, ok, post } from './http-error.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EXPORT_TYPE = 'TRANSACTION_EXPORT_EVM';

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
      if (body.type !== EXPORT_TYPE) fail(400, `type must be ${EXPORT_TYPE}`);
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

      const addresses = stringArray(opts.addresses, 'options.addresses', true) ?? [];
      if (addresses.length === 0) fail(400, 'options.addresses must not be empty');
      const owners = includeChains.map((id) => knownChain(id));
      const request: ExportRequest = {
        type: EXPORT_TYPE,
        addresses: addresses.map((a) => evmAddress(a, 'options.addresses item')),
        includeChains,
        unknownChains: includeChains.filter((_, i) => !owners[i]),
      };
      if (firstDate) request.firstDate = firstDate;
      if (lastDate) request.lastDate = lastDate;
      const network: EvmNetwork = owners.find((d) => d)?.network ?? 'mainnet';
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
