import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { CreateExportBody, ExportOperation } from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';

/**
 * Transaction exports (E5) and the operations they start. Operations change state:
 * they are always read fresh, never from a cache or a request loader.
 */

/** An operation by id (`GET /v1/operations/{operationId}`), or null when it does not exist. */
export function operationById(ctx: LoaderContext, operationId: string): Promise<ExportOperation | null> {
  const { dataApi } = upstreamOf(ctx);
  return nullOnNotFound(dataApi.getOperation(operationId, ctx.call));
}
/** One read per operation asked for (a refetch by global id too). */
export const OPERATION_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getOperation);

/** Starts an export (E5); the operation it answers is usually RUNNING. */
export function startTransactionExport(ctx: LoaderContext, body: CreateExportBody): Promise<ExportOperation> {
  const { dataApi } = upstreamOf(ctx);
  return dataApi.createTransactionExport(body, ctx.call);
}
export const TRANSACTION_EXPORT_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.createTransactionExport);
