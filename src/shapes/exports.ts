/**
 * Transaction export operations: created by E5, read back by
 * `GET /v1/operations/{operationId}` until they finish.
 */
import * as v from 'valibot';
import { perKit, type Kit } from './kit.ts';

export const describeExports = perKit((k: Kit) => {
  const ExportOperation = v.object({
    operationId: k.string,
    operationType: k.mayBeAbsent(k.string),
    operationStatus: k.mayBeAbsent(k.string),
    message: v.optional(k.string),
    metadata: v.optional(v.object({ code: v.optional(k.string), downloadUrl: v.optional(k.string), nextDate: v.optional(k.string) })),
    createdAtTimestamp: k.wideInteger,
    updatedAtTimestamp: k.wideInteger,
  });
  return { ExportOperation };
});

type Operations = ReturnType<typeof describeExports>;

export type ExportOperation = v.InferOutput<Operations['ExportOperation']>;

/**
 * E5's body: CreateEvmTransactionExportRequest (`options.addresses` required, 0x) or
 * CreatePrimaryNetworkTransactionExportRequest (`options.includeChains` required, P/X/C
 * addresses and `cChainEvmAddresses` optional), told apart by `type`.
 */
export interface CreateExportBody {
  type: string;
  firstDate?: string;
  lastDate?: string;
  startDate?: string;
  endDate?: string;
  options: { addresses?: string[]; includeChains: string[]; cChainEvmAddresses?: string[] };
}
