import { performance } from 'node:perf_hooks';
import { operationOf } from '../plugins/document-facts.ts';
import type { DocumentNode, ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/graphql.ts';
import { bearer, sameSecret } from '../../lib/secrets.ts';
import { OperationLabel, type GatewayMetrics } from './registry.ts';
import { edgeErrorResponse } from '../plugins/edge-response.ts';
import { isWarmUpRequest } from '../plugins/warm-up-requests.ts';

/** Options of {@link useMetrics}. */
export interface MetricsEndpointOptions {
  /** Path of the Prometheus endpoint. Default `/metrics`. */
  endpoint?: string;
  /**
   * When set (`METRICS_TOKEN`), `/metrics` answers only requests with `authorization: Bearer <token>`
   * (401 otherwise). Default unset: open, like `/health` and `/ready`, for a scraper on a private network.
   */
  token?: string;
}

/** One GraphQL request being measured. */
interface Measured {
  started: number;
  operationName: string;
  operationType: string;
  /** A GraphQL result was processed (its errors counted), so the response body need not be read. */
  resultSeen: boolean;
  failed: boolean;
}

/** Largest edge-error body read to find its code (they are a few hundred bytes). */
const MAX_EDGE_BODY_CHARS = 4096;

/**
 * Serves `GET /metrics` (Prometheus text) and measures GraphQL requests: count and latency by
 * operation name and type, errors by `extensions.code`, estimated and actual upstream calls.
 *
 * First in the plugin list after the request id: `/metrics` is answered in `onRequest`, so it
 * bypasses admission control and is not a GraphQL request. A GraphQL request is measured from
 * yoga's request-parse hook (which GraphiQL, `/health` and `/ready` never reach), before the
 * admission queue, to its response, so queueing and edge refusals (413, 503) are in it. Edge
 * refusals that end the response without a GraphQL result have their (small) body read back for
 * their code; those reads finish before the next scrape is answered.
 */
export function useMetrics(metrics: GatewayMetrics, options: MetricsEndpointOptions = {}): Plugin {
  const endpoint = options.endpoint ?? '/metrics';
  const measured = new WeakMap<Request, Measured>();
  const pendingReads = new Set<Promise<void>>();

  const labelOperation = (request: Request | undefined, document: DocumentNode, operationName: string | null | undefined): void => {
    const state = request ? measured.get(request) : undefined;
    if (!state) return;
    const operation = operationOf(document, operationName);
    if (!operation) return;
    state.operationName = metrics.operationName(operation.name?.value);
    state.operationType = operation.operation;
  };

  const countResult = (state: Measured, result: ExecutionResult): void => {
    for (const error of result.errors ?? []) {
      metrics.countError(error.extensions?.['code']);
      state.failed = true;
    }
    const cost = result.extensions?.['cost'] as
      | { estimatedUpstreamCalls?: unknown; actualUpstreamCalls?: unknown; estimatedComputeUnits?: unknown; actualComputeUnits?: unknown }
      | undefined;
    if (typeof cost?.estimatedUpstreamCalls === 'number' && typeof cost.actualUpstreamCalls === 'number') {
      const units = typeof cost.estimatedComputeUnits === 'number' && typeof cost.actualComputeUnits === 'number'
        ? { estimated: cost.estimatedComputeUnits, actual: cost.actualComputeUnits }
        : undefined;
      metrics.observeCost(state.operationName, cost.estimatedUpstreamCalls, cost.actualUpstreamCalls, units);
    }
  };

  /** Reads the codes of an edge refusal's body (`{"errors":[{"extensions":{"code":...}}]}`). */
  const countEdgeBody = (response: Response): void => {
    // An async function, so `read` is a real promise even when the body is already buffered.
    const read = (async () => {
      try {
        const text = await response.clone().text();
        if (text.length > MAX_EDGE_BODY_CHARS) return metrics.countError(undefined);
        const body = JSON.parse(text) as { errors?: { extensions?: { code?: unknown } }[] };
        for (const error of body.errors ?? []) metrics.countError(error.extensions?.code);
      } catch {
        metrics.countError(undefined);
      }
    })();
    pendingReads.add(read);
    void read.finally(() => pendingReads.delete(read));
  };

  return {
    async onRequest({ request, url, fetchAPI, endResponse }) {
      if (url.pathname !== endpoint) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(edgeErrorResponse(fetchAPI, 405, ErrorCode.BAD_REQUEST, `${endpoint} answers GET only.`, { allow: 'GET' }));
        return;
      }
      if (options.token !== undefined && !sameSecret(bearer(request.headers.get('authorization')), options.token)) {
        endResponse(edgeErrorResponse(fetchAPI, 401, ErrorCode.UNAUTHENTICATED, `${endpoint} needs authorization: Bearer <METRICS_TOKEN>.`, { 'www-authenticate': 'Bearer' }));
        return;
      }
      await Promise.all(pendingReads);
      const text = await metrics.scrape();
      endResponse(new fetchAPI.Response(text, { headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' } }));
    },
    onRequestParse({ request, serverContext }) {
      // The warm-up's requests are not the clients': they are not counted (src/server/warm-up.ts).
      if (isWarmUpRequest(serverContext)) return;
      measured.set(request, {
        started: performance.now(),
        operationName: OperationLabel.UNKNOWN,
        operationType: OperationLabel.UNKNOWN,
        resultSeen: false,
        failed: false,
      });
    },
    // Labelled once, from the document being validated: every operation that executes was validated first
    // (yoga validates each one, cached or not), and one that fails validation is labelled too.
    onValidate({ params, context }) {
      const ctx = context as { request?: Request; params?: { operationName?: string | null } };
      labelOperation(ctx.request, params.documentAST, ctx.params?.operationName);
    },
    onResultProcess({ request, result }) {
      const state = measured.get(request);
      if (!state) return;
      state.resultSeen = true;
      // A stream's events are not counted one by one (a subscription's errors show in its upstream metrics).
      if (isAsyncIterable(result)) return;
      for (const single of Array.isArray(result) ? result : [result]) countResult(state, single);
    },
    onResponse({ request, response }) {
      const state = measured.get(request);
      if (!state) return;
      measured.delete(request);
      if (!state.resultSeen && response.status >= 400) {
        state.failed = true;
        if (response.headers.get('content-type')?.includes('json') && response.body) countEdgeBody(response);
        else metrics.countError(undefined);
      }
      metrics.observeRequest(
        { operationName: state.operationName, operationType: state.operationType },
        (performance.now() - state.started) / 1000,
        state.failed || response.status >= 400,
      );
    },
  };
}
