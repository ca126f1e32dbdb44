import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, documentContext, type DocumentContext } from '../helpers/random-documents.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';
import { keyCaller } from '../../src/devnet/compute-units.ts';

/**
 * Estimate against actual, over documents generated across the whole schema and
 * run on the devnet without a cache: the estimate is the operation's run-time
 * budget, so it must never be below what the loaders really do (else a field fails
 * with QUERY_TOO_COSTLY though the operation was accepted). The documents are
 * `test/helpers/random-documents.ts`'s walks of the schema.
 */

interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
  estimatedComputeUnits: number;
  actualComputeUnits: number;
  nodes: number;
}

/** The stack's server key as the devnet's ledger names it: what the devnet billed the gateway. */
const GATEWAY = keyCaller('test-server-key');

describe('query cost estimate against actual upstream calls and compute units (property)', () => {
  let stack: TestStack;
  let ctx: DocumentContext;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 300 } });
    ctx = await documentContext(stack);
  });
  afterAll(() => stack.close());

  it('never spends more than it estimates, so the run-time stop never fires on an accepted operation', async () => {
    let worst = { ratio: 0, query: '' };
    let runs = 0;
    let executed = 0;
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const query = document(ctx, g);
        await stack.upstreamSettled();
        stack.devnet.resetStats();
        const response: GraphQLResponse = await stack.query(query);
        const cost = response.extensions?.['cost'] as Cost | undefined;
        runs += 1;
        const codes = (response.errors ?? []).map((e) => e.extensions?.['code']);
        if (!cost) {
          // Refused before execution (a bad argument, a cursor): nothing was sent.
          expect(stack.devnet.stats().requests).toBe(0);
          return;
        }
        if (cost.estimatedUpstreamCalls > 500 || cost.nodes > 50_000 || cost.estimatedComputeUnits > 20_000) {
          // Refused before execution (QUERY_TOO_COSTLY, or a bad argument found first): nothing was sent.
          expect(codes.length).toBeGreaterThan(0);
          expect(cost.actualUpstreamCalls).toBe(0);
          expect(cost.actualComputeUnits).toBe(0);
          expect(stack.devnet.stats().requests).toBe(0);
          return;
        }
        executed += 1;
        expect(cost.actualUpstreamCalls, query).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
        expect(codes, `${query}\n${JSON.stringify(response.errors)}`).not.toContain('QUERY_TOO_COSTLY');
        // Calls still running when the response was sent (a failed non-null field cuts it short) count too.
        await stack.upstreamSettled();
        const made = stack.devnet.stats().requests;
        expect(made, query).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
        expect(cost.actualUpstreamCalls).toBeLessThanOrEqual(made);
        // Compute units: what the devnet billed (by the spec's weights, its own reading of them) is what the operation reports.
        // A response cut short by an error may leave calls running, billed after it reported.
        const billed = stack.devnet.stats().computeUnits[GATEWAY] ?? 0;
        if (codes.length === 0) expect(cost.actualComputeUnits, query).toBe(billed);
        else expect(cost.actualComputeUnits, query).toBeLessThanOrEqual(billed);
        expect(cost.actualComputeUnits, query).toBeLessThanOrEqual(cost.estimatedComputeUnits);
        if (made > 0) {
          const ratio = cost.estimatedUpstreamCalls / made;
          if (ratio > worst.ratio) worst = { ratio, query };
        }
      }),
      // On a loaded machine (the whole suite on 2 cores) a run can take seconds: the property stops
      // after 90 s with what it has run rather than time the test out, and must have run enough to mean something.
      {
        numRuns: Number(process.env['COST_PROPERTY_RUNS'] ?? 300),
        interruptAfterTimeLimit: 90_000,
        markInterruptAsFailure: false,
        // COST_PROPERTY_SEED replays a failure a run printed.
        ...(process.env['COST_PROPERTY_SEED'] ? { seed: Number(process.env['COST_PROPERTY_SEED']) } : {}),
      },
    );
    expect(runs).toBeGreaterThanOrEqual(Math.min(60, Number(process.env["COST_PROPERTY_RUNS"] ?? 300)));
    console.info(`query-cost property: ${runs} runs, ${executed} executed; worst estimate/actual ${worst.ratio.toFixed(1)} for\n${worst.query}`);
    expect(executed).toBeGreaterThan(runs / 2);
  }, 120_000);
});
