/**
 * OpenTelemetry tracing for the process, through the standard SDK and its standard
 * variables: off unless an OTLP endpoint is configured.
 *
 * Off, nothing is registered: the API's global tracer stays the no-op one, no
 * propagator writes `traceparent`, and the SDK is not even loaded (it is imported
 * lazily), so the spans `useTracing` and the upstream HTTP layer ask for are
 * non-recording no-ops. On, a `NodeTracerProvider` is registered globally with an
 * AsyncLocalStorage context manager (which carries the active span from a resolver
 * to the upstream calls its loaders make) and the W3C trace-context propagator
 * (`traceparent`/`tracestate`, read from callers and sent upstream), and spans are
 * exported over OTLP/HTTP (JSON protobuf) in batches.
 *
 * What the SDK reads from the process environment itself still applies:
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_BSP_*` (the batch
 * queue, 2048 spans by default: beyond it spans are dropped, never buffered without
 * bound), `OTEL_TRACES_SAMPLER[_ARG]`, `OTEL_RESOURCE_ATTRIBUTES`.
 */
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { DEFAULT_SERVICE_NAME, readSetting } from './settings.ts';

/** Tracing as configured by the environment (see {@link telemetryFromEnv}). */
export interface TelemetryConfig {
  /** Where spans are POSTed (OTLP/HTTP); undefined: tracing is off. */
  tracesUrl?: string;
  /** `OTEL_SERVICE_NAME`, the `service.name` resource attribute. Default `chaingraph`. */
  serviceName: string;
}

export { DEFAULT_SERVICE_NAME };

/**
 * Reads the standard variables (rows of src/server/settings.ts): `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * (used as is), else `OTEL_EXPORTER_OTLP_ENDPOINT` (with `/v1/traces` appended, as the OTLP spec says),
 * `OTEL_SERVICE_NAME`; `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn tracing off even with
 * an endpoint. A malformed endpoint fails at startup. The URL is resolved here rather than left to the
 * exporter because the exporter reads only `process.env`, while a configuration is made from any env.
 */
export function telemetryFromEnv(env: Readonly<Record<string, string | undefined>>): TelemetryConfig {
  const serviceName = readSetting(env, 'OTEL_SERVICE_NAME');
  const disabled = readSetting(env, 'OTEL_SDK_DISABLED') || readSetting(env, 'OTEL_TRACES_EXPORTER') === 'none';
  const base = readSetting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesUrl = readSetting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  return disabled || !tracesUrl ? { serviceName } : { tracesUrl, serviceName };
}

/** Tracing of this process while it runs. */
export interface Telemetry {
  /** Ends tracing: flushes the spans still queued, then unregisters the provider, propagator and context manager. */
  shutdown(): Promise<void>;
}

/** Options of {@link registerTracing}. */
export interface RegisterTracingOptions {
  /** `service.name`. Default `chaingraph`. */
  serviceName?: string;
  /** Where finished spans go (tests pass a `SimpleSpanProcessor` over an `InMemorySpanExporter`). */
  spanProcessors: SpanProcessor[];
}

/**
 * Starts tracing when `config.tracesUrl` is set (a `BatchSpanProcessor` over the
 * OTLP/HTTP exporter); returns undefined, having loaded and registered nothing,
 * when it is not. `startServer` calls it and shuts it down last on close.
 */
export async function startTelemetry(config: TelemetryConfig | undefined): Promise<Telemetry | undefined> {
  if (!config?.tracesUrl) return undefined;
  const [{ BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const exporter = new OTLPTraceExporter({ url: config.tracesUrl });
  return registerTracing({ serviceName: config.serviceName, spanProcessors: [new BatchSpanProcessor(exporter)] });
}

/**
 * Registers a tracer provider globally with the given span processors, the
 * AsyncLocalStorage context manager and the W3C trace-context propagator. One at a
 * time per process: shut it down before registering another.
 */
export async function registerTracing(options: RegisterTracingOptions): Promise<Telemetry> {
  const [api, { NodeTracerProvider }, { W3CTraceContextPropagator }, { defaultResource, detectResources, envDetector, resourceFromAttributes }, { ATTR_SERVICE_NAME }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const provider = new NodeTracerProvider({
    // The default resource carries the SDK's attributes and OTEL_RESOURCE_ATTRIBUTES; the service name wins.
    resource: defaultResource()
      .merge(detectResources({ detectors: [envDetector] }))
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName ?? DEFAULT_SERVICE_NAME })),
    spanProcessors: options.spanProcessors,
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return {
    shutdown: async () => {
      try {
        // Ends the processors: a batch processor exports what it still holds first.
        await provider.shutdown();
      } finally {
        api.trace.disable();
        api.propagation.disable();
        api.context.disable();
      }
    },
  };
}
