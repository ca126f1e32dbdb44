// Export operations of a network (E5 and `GET /v1/operations/{id}`), EVM and
// primary-network ones alike (the route checks each type's options): an
// operation runs for EXPORT_RUN_MS, then completes, completes with a truncation
// warning, or fails; at most MAX_OPERATIONS are kept, oldest dropped first.
import type { ExportOperation } from '../../../shapes/index.ts';
import { isoDate, sha256, uuidFrom } from './helpers.ts';
import { DAY, EXPORT_MAX_DAYS, EXPORT_RUN_MS, MAX_OPERATIONS, type EvmEnv, type OperationRecord } from './model.ts';
import type { ExportRequest } from './types.ts';

export interface Operations {
  /** E5: starts an export operation (RUNNING). */
  createExport(request: ExportRequest): ExportOperation;
  /** The operation as of `now()`; undefined for an unknown id. */
  operation(operationId: string): ExportOperation | undefined;
  /** The id of a finished export that exists from the start, for examples and tests. */
  readonly fixtureOperationId: string;
}

export function createOperations(env: EvmEnv): Operations {
  const { network, secret, anchor, now } = env;
  const operations = new Map<string, OperationRecord>();
  let operationCounter = 0;

  function newOperationId(): string {
    operationCounter += 1;
    return uuidFrom(sha256(`${secret}:operation:${operationCounter}`));
  }

  function remember(op: OperationRecord): void {
    operations.set(op.id, op);
    if (operations.size > MAX_OPERATIONS) {
      const oldest = operations.keys().next();
      if (!oldest.done) operations.delete(oldest.value);
    }
  }

  function operationView(op: OperationRecord): ExportOperation {
    const created = Math.floor(op.createdMs / 1000);
    const done = now() - op.createdMs >= EXPORT_RUN_MS;
    const base = { operationId: op.id, operationType: op.type, createdAtTimestamp: created };
    if (!done) {
      return { ...base, operationStatus: 'RUNNING', message: 'The export is running.', metadata: {}, updatedAtTimestamp: created };
    }
    const updatedAtTimestamp = Math.floor((op.createdMs + EXPORT_RUN_MS) / 1000);
    if (op.failure) {
      return { ...base, operationStatus: 'FAILED', message: op.failure, metadata: { code: 'ErrInvalidRequest' }, updatedAtTimestamp };
    }
    const downloadUrl = `https://exports.devnet.invalid/${network}/${op.id}.csv`;
    if (op.nextDate) {
      return {
        ...base, operationStatus: 'COMPLETED_WITH_WARNING',
        message: `The export was truncated; continue from ${op.nextDate}.`,
        metadata: { code: 'WarnTruncatedExport', downloadUrl, nextDate: op.nextDate }, updatedAtTimestamp,
      };
    }
    return { ...base, operationStatus: 'COMPLETED', message: 'The export is ready.', metadata: { downloadUrl }, updatedAtTimestamp };
  }

  function createExport(request: ExportRequest): ExportOperation {
    const op: OperationRecord = { id: newOperationId(), type: request.type, createdMs: now() };
    if (request.unknownChains && request.unknownChains.length > 0) {
      // Kept for up to MAX_OPERATIONS operations: name a few chains, not a caller's whole list.
      const named = request.unknownChains.slice(0, 5).map((id) => id.slice(0, 100));
      const more = request.unknownChains.length - named.length;
      op.failure = `Unknown chain(s) in includeChains: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    } else if (request.firstDate && request.lastDate) {
      const first = Date.parse(`${request.firstDate}T00:00:00Z`) / 1000;
      const last = Date.parse(`${request.lastDate}T00:00:00Z`) / 1000;
      if ((last - first) / DAY >= EXPORT_MAX_DAYS) op.nextDate = isoDate(first + EXPORT_MAX_DAYS * DAY);
    }
    remember(op);
    return operationView(op);
  }

  // A finished export that exists from the start, for examples and tests.
  const fixtureOperation: OperationRecord = {
    id: uuidFrom(sha256(`${secret}:operation:fixture`)),
    type: 'TRANSACTION_EXPORT_EVM',
    createdMs: (anchor - 3_600) * 1000,
  };
  remember(fixtureOperation);

  return {
    createExport,
    operation(operationId) {
      const op = operations.get(operationId.toLowerCase());
      return op ? operationView(op) : undefined;
    },
    fixtureOperationId: fixtureOperation.id,
  };
}
