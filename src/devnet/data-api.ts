import type { Dataset } from './dataset/index.ts';
import { callerOf, createComputeUnitMeter, OPERATION_COMPUTE_UNITS, type ComputeUnitMeter } from './compute-units.ts';
import { errorResponse, type DevnetHandler, type DevnetResponse } from './http-types.ts';
import { compileRouter } from './router.ts';
import { inSpecForm } from './spec-form.ts';
// The Data API's health checks and the caller's usage reports
import { createUsageLedger, usageRoutes } from './routes/usage.ts';
import { evmRoutes } from './routes/evm.ts';
// EVM blocks, latest transactions, contracts and transfers
import { evmBlockRoutes } from './routes/evm-blocks.ts';
import { primaryRoutes } from './routes/primary.ts';
// EVM address tokens: balances and transfer listings
import { evmAddressRoutes } from './routes/evm-address.ts';
// Primary-network transactions, balances and assets
import { primaryTxRoutes } from './routes/primary-tx.ts';
// Primary-network blocks and vertices by id, a node's proposed blocks
import { primaryBlockRoutes } from './routes/primary-blocks.ts';
// Primary-network lookups, network details and supply, ICM messages by id
import { lookupRoutes } from './routes/lookups.ts';
// L1 validators, an asset's transactions, UTXOs by GET, address chains and last activity
import { primaryAddressRoutes } from './routes/primary-addresses.ts';
// EVM across chains, an address's chains and deployments, transactions v2, collection tokens, reindexing
import { evmMoreRoutes } from './routes/evm-more.ts';
// Webhooks and shared secrets per caller key
import { webhookRoutes } from './routes/webhooks.ts';
import { createWebhookStore, type WebhookStore } from './webhooks/store.ts';

/**
 * The devnet's Data API (`/v1/...`): the primary-network and EVM routes over one dataset. Each call is
 * billed its operation's compute units by `computeUnits` before its route runs (a refused call does no
 * work: a refused POST creates nothing), and every answer carries the caller's rate-limit headers.
 * Default meter: no limit, on the dataset's clock. Answers are written in the spec's form (`spec-form.ts`).
 */
export function createDataApiHandler(
  dataset: Dataset,
  webhooks: WebhookStore = createWebhookStore(dataset),
  computeUnits: ComputeUnitMeter = createComputeUnitMeter({ now: dataset.now, limit: () => undefined }),
): DevnetHandler {
  // Every answered request is counted for its caller's key: the usage routes report from it.
  const usage = createUsageLedger(dataset.now);
  const router = compileRouter([...usageRoutes(usage), ...primaryRoutes(dataset), ...primaryTxRoutes(dataset), ...primaryAddressRoutes(dataset), ...primaryBlockRoutes(dataset), ...evmRoutes(dataset), ...evmBlockRoutes(dataset.evm), ...lookupRoutes(dataset), ...evmAddressRoutes(dataset.evm), ...evmMoreRoutes(dataset.evm), ...webhookRoutes(webhooks)]);
  return async (req) => {
    const started = performance.now();
    const found = router.find(req);
    // Every call of an operation is billed, whatever its answer (the real API's usage counts refused
    // calls' credits as wasted, not free), but for a fault injected after it (a 5xx is the upstream's
    // failure: server.ts gives it back); a path that is no operation weighs nothing.
    const caller = callerOf(req.headers, req.remoteAddress);
    const units = found ? (OPERATION_COMPUTE_UNITS.get(found.key) ?? 0) : 0;
    const charge = computeUnits.charge(caller, units);
    let answer: DevnetResponse;
    if (!charge.admitted) answer = errorResponse(429, charge.reason ?? 'Rate limit reached', found?.key ?? `${req.method} (unmatched)`);
    else {
      const built = found ? await found.answer() : await router.handle(req);
      answer = inSpecForm(built, { route: built.route, seed: dataset.seed });
    }
    answer = { ...answer, headers: { ...answer.headers, ...charge.headers }, ...(charge.admitted && units > 0 ? { billed: { caller, units } } : {}) };
    usage.record(req, answer, performance.now() - started);
    return answer;
  };
}
