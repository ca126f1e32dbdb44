import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { OPERATION_LOOKUP_COST, operationById, startTransactionExport, TRANSACTION_EXPORT_COST } from '../loaders/exports.ts';
import type { NetworkId } from '../loaders/types.ts';
import { PRIMARY_BLOCKCHAIN_IDS, PRIMARY_CHAIN_IDS, PRIMARY_CHAIN_NAMES, type CreateExportBody, type ExportOperation } from '../shapes/index.ts';
import { openEnumField, upstreamEnum } from './enums.ts';
import { ADDRESS_HRP, BOUNDS, checkChainId, checkEvmAddresses, checkList, checkPrimaryAddresses, INPUT_LIMITS, isOperationId } from './input-checks.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';

export const OperationType = upstreamEnum('OperationType', 'Kind of an asynchronous operation.', {
  TRANSACTION_EXPORT_EVM: { value: 'TRANSACTION_EXPORT_EVM', description: 'Export of EVM transactions.' },
  TRANSACTION_EXPORT_PRIMARY_NETWORK: { value: 'TRANSACTION_EXPORT_PRIMARY_NETWORK', description: 'Export of primary-network transactions.' },
  TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING: { value: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING', description: 'Export of primary-network staking transactions.' },
  TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE: { value: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE', description: 'Simplified export of primary-network transactions.' },
});

export const OperationStatus = upstreamEnum('OperationStatus', 'State of an asynchronous operation: RUNNING, then one final state.', {
  RUNNING: { value: 'RUNNING', description: 'Still running; read it again later.' },
  COMPLETED: { value: 'COMPLETED', description: 'Done; `metadata.downloadUrl` has the result.' },
  COMPLETED_WITH_WARNING: { value: 'COMPLETED_WITH_WARNING', description: 'Done, with a warning in `metadata.code` (a truncated export continues from `metadata.nextDate`).' },
  FAILED: { value: 'FAILED', description: 'Failed; `message` and `metadata.code` say why.' },
});

export const OperationStatusCode = upstreamEnum('OperationStatusCode', 'Why an operation failed or completed with a warning.', {
  ERR_INVALID_REQUEST: { value: 'ErrInvalidRequest', description: 'The request was invalid.' },
  ERR_INTERNAL: { value: 'ErrInternal', description: 'An internal error.' },
  WARN_TRUNCATED_EXPORT: { value: 'WarnTruncatedExport', description: 'The export was cut short; continue from `nextDate`.' },
});

const ExportOperationMetadataRef = builder.objectRef<NonNullable<ExportOperation['metadata']>>('ExportOperationMetadata').implement({
  description: 'Result details of an export.',
  fields: (t) => ({
    ...openEnumField(t, 'code', OperationStatusCode, { description: 'Error or warning code.', value: (m) => m.code }),
    downloadUrl: t.expose('downloadUrl', { type: 'URL', nullable: true, description: 'Where to download the export (COMPLETED and COMPLETED_WITH_WARNING only).' }),
    nextDate: t.exposeString('nextDate', { nullable: true, description: 'YYYY-MM-DD to use as the next `firstDate` after a truncated export.' }),
  }),
});

export const ExportOperationRef = builder.objectRef<ExportOperation>('ExportOperation').implement({
  description: 'An asynchronous transaction export. It starts RUNNING; read it again with `exportOperation(operationId:)` (or `node(id:)`) until it reaches a final state.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (o) => encodeGlobalId('ExportOperation', [() => o.operationId]) }),
    operationId: t.exposeString('operationId', { description: 'Operation id (a UUID).' }),
    ...openEnumField(t, 'operationType', OperationType, { description: 'What kind of export.', value: (o) => o.operationType }),
    ...openEnumField(t, 'operationStatus', OperationStatus, { description: 'Current state.', value: (o) => o.operationStatus }),
    message: t.exposeString('message', { nullable: true, description: 'Human-readable status.' }),
    metadata: t.field({ type: ExportOperationMetadataRef, nullable: true, description: 'Result details.', resolve: (o) => o.metadata ?? null }),
    createdAtTimestamp: t.expose('createdAtTimestamp', { type: 'UInt64', description: 'When it was created, unix seconds.' }),
    createdAtTime: t.field({ type: 'DateTime', nullable: true, description: 'When it was created: `createdAtTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.createdAtTimestamp) }),
    updatedAtTimestamp: t.expose('updatedAtTimestamp', { type: 'UInt64', description: 'When its state last changed, unix seconds.' }),
    updatedAtTime: t.field({ type: 'DateTime', nullable: true, description: 'When its state last changed: `updatedAtTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.updatedAtTimestamp) }),
  }),
});

registerNodeFamily('ExportOperation', {
  refetchComputeUnits: OPERATION_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.operationId],
  load: async (ctx, [operationId]) => (operationId && isOperationId(operationId) ? operationById(ctx, operationId) : null),
  typeOf: () => 'ExportOperation',
});

builder.queryFields((t) => ({
  exportOperation: t.field({
    type: ExportOperationRef,
    nullable: true,
    description: 'An export operation by id (`GET /v1/operations/{operationId}`), read fresh every time; null when it does not exist.',
    args: { operationId: t.arg.string({ required: true, description: 'The id `createTransactionExport` returned (a UUID).', bound: BOUNDS.operationId }) },
    upstreamCost: OPERATION_LOOKUP_COST,
    // Its status changes while it runs: a GET reading it answers `Cache-Control: no-store` (src/gateway/plugins/use-cache-control.ts).
    extensions: { cacheControl: 'no-store' },
    resolve: (_root, args, ctx) => operationById(ctx, args.operationId),
  }),
}));

// ---------------------------------------------------------------- createTransactionExport

/** The spec's export types: EVMOperationType and PrimaryNetworkOperationType. */
const TransactionExportTypeEnum = builder.enumType('TransactionExportType', {
  description: 'What to export: EVM transactions, or primary-network (P-, X- and C-chain atomic) transactions. Each type takes its own options.',
  values: {
    TRANSACTION_EXPORT_EVM: {
      value: 'TRANSACTION_EXPORT_EVM',
      description: 'EVM transactions of `options.addresses` (0x, required) on the EVM chains in `options.includeChains`.',
    },
    TRANSACTION_EXPORT_PRIMARY_NETWORK: {
      value: 'TRANSACTION_EXPORT_PRIMARY_NETWORK',
      description: 'Primary-network transactions of `options.addresses` (avax1.../fuji1...) and `options.cChainEvmAddresses` on the chains in `options.includeChains` (p-chain, x-chain, c-chain or their ids).',
    },
    TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING: {
      value: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING',
      description: 'The staking transactions among them (validations, delegations, rewards); same options as TRANSACTION_EXPORT_PRIMARY_NETWORK.',
    },
    TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE: {
      value: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE',
      description: 'A simplified export of primary-network transactions; same options as TRANSACTION_EXPORT_PRIMARY_NETWORK.',
    },
  } as const,
});

const TransactionExportOptionsInput = builder.inputType('TransactionExportOptionsInput', {
  description: 'What an export covers. Which options a type takes: TRANSACTION_EXPORT_EVM `addresses` (required) and `includeChains`; the primary-network types `includeChains`, `addresses` and `cChainEvmAddresses` (at least one address in all).',
  fields: (t) => ({
    addresses: t.stringList({
      description: `The addresses whose transactions to export (at most ${INPUT_LIMITS.addresses}): 0x addresses for TRANSACTION_EXPORT_EVM (required), P-/X-/C- or unprefixed avax1.../fuji1... addresses of one network for the primary-network types.`,
    }),
    includeChains: t.stringList({
      required: true,
      description: `The chains to export. TRANSACTION_EXPORT_EVM: EVM chain ids (decimal) or blockchain ids (cb58), 1 to ${INPUT_LIMITS.includeChains}. Primary-network types: p-chain, x-chain, c-chain or the id of one of them.`,
    }),
    cChainEvmAddresses: t.stringList({
      description: `Primary-network types only: C-chain 0x addresses whose atomic (import/export) transactions to export too, at most ${INPUT_LIMITS.addresses}.`,
    }),
  }),
});

const CreateTransactionExportInput = builder.inputType('CreateTransactionExportInput', {
  description: 'Body of `POST /v1/operations/transactions:export`: the export type and the options it takes.',
  fields: (t) => ({
    type: t.field({ type: TransactionExportTypeEnum, required: true, description: 'What to export; it decides which `options` are allowed.' }),
    firstDate: t.string({ description: 'First day (inclusive).', bound: BOUNDS.date }),
    lastDate: t.string({ description: 'Last day (inclusive); not before `firstDate`.', bound: BOUNDS.date }),
    startDate: t.string({ description: 'Old name of `firstDate`.', deprecationReason: 'Use firstDate.', bound: BOUNDS.date }),
    endDate: t.string({ description: 'Old name of `lastDate`.', deprecationReason: 'Use lastDate.', bound: BOUNDS.date }),
    options: t.field({ type: TransactionExportOptionsInput, required: true, description: 'Addresses and chains to export.' }),
  }),
});

/** What `createTransactionExport(input:)` takes, as Pothos types it. */
type ExportInput = typeof CreateTransactionExportInput.$inferInput;

const CreateTransactionExportPayload = builder.objectRef<{ operation: ExportOperation }>('CreateTransactionExportPayload').implement({
  description: 'The export operation just started.',
  fields: (t) => ({
    operation: t.field({ type: ExportOperationRef, nullable: false, description: 'The operation, usually RUNNING.', resolve: (p) => p.operation }),
  }),
});

/** PrimaryNetworkOptions.includeChains' enum: the primary chains' ids of both networks and their aliases, as written. */
const PRIMARY_EXPORT_CHAINS: ReadonlySet<string> = new Set<string>([...PRIMARY_BLOCKCHAIN_IDS, ...PRIMARY_CHAIN_NAMES]);

function checkPrimaryExportChain(argument: string, value: unknown, index: number): void {
  if (typeof value === 'string' && PRIMARY_EXPORT_CHAINS.has(value)) return;
  throw badInput(argument, `${JSON.stringify(value)} (entry ${index}) is not a primary-network chain: p-chain, x-chain, c-chain or one of their ids`);
}

/** The network a primary chain id belongs to; undefined for an alias or the P-chain (whose id both networks share). */
function networkOfPrimaryChain(id: string): NetworkId | undefined {
  return (['mainnet', 'fuji'] as const).find((n) => id !== PRIMARY_CHAIN_IDS[n].p && (Object.values(PRIMARY_CHAIN_IDS[n]) as string[]).includes(id));
}

/**
 * The body rules before any upstream call: each date's own grammar is its bound; the
 * options are those the type takes (the spec's two request bodies), any other is refused by name.
 */
function checkExportInput(input: ExportInput): void {
  if (input.firstDate != null && input.startDate != null && input.firstDate !== input.startDate) {
    throw badInput('input.startDate', 'is the deprecated name of firstDate; give one of them');
  }
  if (input.lastDate != null && input.endDate != null && input.lastDate !== input.endDate) {
    throw badInput('input.endDate', 'is the deprecated name of lastDate; give one of them');
  }
  const first = input.firstDate ?? input.startDate;
  const last = input.lastDate ?? input.endDate;
  if (first && last && first > last) throw badInput('input.firstDate', 'must not be after lastDate');

  const { addresses, includeChains, cChainEvmAddresses } = input.options;
  if (input.type === 'TRANSACTION_EXPORT_EVM') {
    if (cChainEvmAddresses != null) throw badInput('input.options.cChainEvmAddresses', 'is an option of the primary-network export types only; TRANSACTION_EXPORT_EVM takes 0x addresses in options.addresses');
    checkList('input.options.includeChains', includeChains, INPUT_LIMITS.includeChains, checkChainId, true);
    checkEvmAddresses('input.options.addresses', addresses, true);
    return;
  }
  checkList('input.options.includeChains', includeChains, PRIMARY_EXPORT_CHAINS.size, checkPrimaryExportChain, true);
  checkPrimaryAddresses('input.options.addresses', addresses, ['P', 'X', 'C']);
  checkEvmAddresses('input.options.cChainEvmAddresses', cChainEvmAddresses);
  if (!addresses?.length && !cChainEvmAddresses?.length) {
    throw badInput('input.options.addresses', 'give at least one address here or in options.cChainEvmAddresses: a primary-network export is of some addresses');
  }
  // One network per export: the addresses' network must be that of every network-specific chain id.
  const hrp = addresses?.[0]?.slice(addresses[0].indexOf('-') + 1).split('1')[0];
  const network = (['mainnet', 'fuji'] as const).find((n) => ADDRESS_HRP[n] === hrp);
  const other = network ? includeChains.find((id) => (networkOfPrimaryChain(id) ?? network) !== network) : undefined;
  if (other !== undefined) throw badInput('input.options.includeChains', `${other} is a chain of the other network than options.addresses (${network})`);
}

function toBody(input: ExportInput): CreateExportBody {
  const { addresses, includeChains, cChainEvmAddresses } = input.options;
  const options: CreateExportBody['options'] = { includeChains };
  if (addresses != null) options.addresses = addresses;
  if (cChainEvmAddresses != null) options.cChainEvmAddresses = cChainEvmAddresses;
  const body: CreateExportBody = { type: input.type, options };
  for (const name of ['firstDate', 'lastDate', 'startDate', 'endDate'] as const) {
    const value = input[name];
    if (value != null) body[name] = value;
  }
  return body;
}

builder.mutationField('createTransactionExport', (t) =>
  t.field({
    type: CreateTransactionExportPayload,
    nullable: false,
    description: 'Starts a transaction export. It runs in the background: poll `exportOperation(operationId:)` until it is no longer RUNNING.',
    args: { input: t.arg({ type: CreateTransactionExportInput, required: true, description: 'What to export.' }) },
    checkArgs: (args) => checkExportInput(args.input),
    upstreamCost: TRANSACTION_EXPORT_COST,
    resolve: async (_root, args, ctx) => ({ operation: await startTransactionExport(ctx, toBody(args.input)) }),
  }),
);
