import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createComputeUnitMeter, type ComputeUnitsView } from './compute-units.ts';
import { createDataApiHandler } from './data-api.ts';
import { createDataset, type Dataset } from './dataset/index.ts';
import { errorResponse, JSON_CONTENT_TYPE, type DevnetHandler, type DevnetResponse } from './http-types.ts';
import { createNodeSimulator } from './node/index.ts';
import { createOddities, type OdditiesOptions } from './oddities.ts';
import { shortPage } from './short-pages.ts';
import { createWebhookDeliveries, type WebhookDeliveries } from './webhooks/deliveries.ts';
import { createWebhookStore } from './webhooks/store.ts';

/** Options of the devnet; each has an environment variable in `cli.ts`. */
export interface DevnetOptions {
  /** Port to listen on; 0 picks a free one. Default 0 (the CLI uses `DEVNET_PORT`, 9650). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Dataset seed (`DEVNET_SEED`). Default 1. */
  seed?: number;
  /** Validators per network (`DEVNET_VALIDATORS`). Default 1200. */
  validators?: number;
  /**
   * Latency added to every API request, ms (`DEVNET_LATENCY_MS`): each is answered this
   * long after it arrived, the devnet's own work on it included (so a round of parallel
   * requests takes the latency, not the latency plus the work of the ones before). Default 0.
   */
  latencyMs?: number;
  /** Share of API requests answered 503 (`DEVNET_FAULT_RATE`), 0-1. Default 0. */
  faultRate?: number;
  /** Clock (ms since epoch); tests may pin it. Default `Date.now`. */
  now?: () => number;
  /**
   * The clock the staking records move by (validations and delegations starting and ending, live ones
   * listed); default `now`. A test stack on the wall clock holds it still, so listings it compares do not
   * change between two reads.
   */
  stakingNow?: () => number;
  /**
   * The oddities mode (`DEVNET_ODDITIES=1`): Data API answers still valid under the real spec but with
   * the unusual values it allows (see `oddities.ts`); its seed defaults to `seed`. Default off.
   */
  oddities?: boolean | OdditiesOptions;
  /**
   * How often webhook deliveries are scanned for, ms (`DEVNET_WEBHOOK_INTERVAL_MS`): each scan reads the
   * blocks produced since the last one. 0 runs no loop (tests call `devnet.webhooks.tick()`). Default 1000.
   */
  webhookIntervalMs?: number;
  /** A dataset to serve instead of building one (a second devnet over the same data, as the gateway's warm-up uses). */
  dataset?: Dataset;
  /**
   * Answers each distinct request (method, target, body) once and repeats that answer after, without
   * computing it again: recorded answers for the gateway's warm-up, whose rounds ask the same requests.
   * At most {@link REPLAY_MAX_ENTRIES} answers of at most {@link REPLAY_MAX_BYTES} in all; past that,
   * answers are computed as usual. Neither counted in the stats nor logged, nor limited in compute
   * units (whatever `computeUnitsPerMinute` says: the warm-up must never be refused). Default off.
   */
  replay?: boolean;
  /**
   * The caller keys the Data API accepts: a Data API request carrying any other key (in `x-service-api-key`)
   * is answered 401, as the real API answers a key it does not know, before any work. A request without a
   * key is served (the real API serves anonymous calls). Default: any key.
   */
  apiKeys?: readonly string[];
  /**
   * Compute units each caller may spend per minute on the Data API (`DEVNET_COMPUTE_UNITS_PER_MINUTE`),
   * as the real API limits each key (see `compute-units.ts`): a call that would take its caller past it is
   * answered 429 with `retry-after`, and costs nothing. A test may change it at run time (chaos
   * `computeUnitsPerMinute`). Default: none enforced; every answer still carries the rate-limit headers,
   * announcing a limit nothing reaches (a billion a minute), and each call is still billed.
   */
  computeUnitsPerMinute?: number;
}

/**
 * Faults and delays a test can switch on at run time with `POST /__devnet/chaos`
 * (all fields optional; an empty body restores the start-up settings).
 */
export interface ChaosSettings {
  latencyMs: number;
  faultRate: number;
  /** Status used for injected faults. Default 503. */
  faultStatus: number;
  /** `Retry-After` seconds sent with injected faults, if set. */
  retryAfterSeconds?: number;
  /** Fail exactly the next N API requests (then stop), regardless of `faultRate`. */
  failNext: number;
  /** Only requests whose stats key contains this string are slowed or failed. */
  routeFilter?: string;
  /** Hold the response this long before sending its body (to exercise body timeouts). */
  bodyDelayMs: number;
  /**
   * When set, every Data API listing answers short pages (0 to n - 1 items, often
   * none, with a `nextPageToken` that holds spaces and URL-reserved characters while
   * items remain), drawn deterministically from this seed (see `short-pages.ts`).
   */
  shortPages?: number;
  /**
   * The Data API's compute-unit limit per caller per minute ({@link DevnetOptions.computeUnitsPerMinute});
   * `null` lifts it. Applies to every Data API call, whatever `routeFilter` says.
   */
  computeUnitsPerMinute?: number | null;
}

interface RequestCounters {
  requests: number;
  byRoute: Record<string, number>;
}

export interface DevnetStats extends RequestCounters {
  /**
   * Compute units billed per caller since the start or the last reset (refused calls cost nothing):
   * `key:<digest>` for a key (`keyCaller` in `compute-units.ts`: a digest, never the key), `addr:<address>`
   * for calls without one.
   */
  computeUnits: Record<string, number>;
}

/** One served request; times are ms on the devnet's monotonic clock. */
export interface RequestLogEntry {
  route: string;
  method: string;
  /**
   * The path and query string as requested (benchmarks replay the requests from it); cut
   * to 256 characters when longer than 16 K or when the log's text is over its budget.
   */
  target: string;
  /** The request body when one was sent, on the same terms as the target (left out rather than cut). */
  body?: string;
  /** When the request came in (its headers were read). */
  start: number;
  /** When its answer was written. */
  end: number;
  /** The `x-request-id` the caller sent, if any (tests check the gateway forwards it). */
  requestId?: string;
}

export interface Devnet {
  readonly url: string;
  readonly port: number;
  readonly dataset: Dataset;
  /** Node URLs in `NODE_URLS` form: the mainnet node at the root, the fuji node under `/nodes/fuji`. */
  readonly nodeUrls: Record<string, string>;
  stats(): DevnetStats;
  /** The compute-unit ledger: billed per caller in total and in the current minute, and the limit in force. */
  computeUnits(): ComputeUnitsView;
  /** The most recent requests (up to 2000), oldest first. */
  requestLog(): RequestLogEntry[];
  /** Zeroes the request counters, the log and the compute-unit ledger (every caller starts its minute afresh). */
  resetStats(): void;
  setChaos(settings: Partial<ChaosSettings>): void;
  /** Back to the chaos the devnet started with (its `latencyMs` and `faultRate` options, nothing else). */
  resetChaos(): void;
  /** Webhook deliveries: `tick()` scans and delivers once (resolving when first attempts settled); counters as `GET /__devnet/webhooks`. */
  readonly webhooks: Pick<WebhookDeliveries, 'tick' | 'counters'>;
  close(): Promise<void>;
}

const DEFAULT_VALIDATORS = 1200;
/**
 * The request log's text (targets and bodies): an entry's whole up to 16 K characters while
 * the log holds at most 2 M characters in all, so the log stays within about 2.5 MB.
 */
const LOG_TEXT_ENTRY_CHARS = 16_384;
const LOG_TEXT_BUDGET = 2_000_000;
const LOG_TARGET_CUT = 256;

/** Where the Data API reads a caller's key (the gateway's default `apiKeyHeader`). */
const DEVNET_API_KEY_HEADER = 'x-service-api-key';
/** The stats route of a request refused for its key ({@link DevnetOptions.apiKeys}). */
export const UNKNOWN_KEY_ROUTE = 'unknown API key';

/** The replay's bounds (see {@link DevnetOptions.replay}). */
const REPLAY_MAX_ENTRIES = 1024;
const REPLAY_MAX_BYTES = 32 * 1024 * 1024;

interface Replayed {
  answer: DevnetResponse;
  payload: string | Buffer;
}

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const now = options.now ?? Date.now;
  const dataset = options.dataset ?? createDataset({
    seed: options.seed ?? 1,
    validatorsPerNetwork: options.validators ?? DEFAULT_VALIDATORS,
    now,
    ...(options.stakingNow ? { stakingNow: options.stakingNow } : {}),
  });
  const replay = options.replay ? new Map<string, Replayed>() : undefined;
  const apiKeys = options.apiKeys ? new Set(options.apiKeys) : undefined;
  let replayBytes = 0;
  const webhookStore = createWebhookStore(dataset);
  // The limit is read per call from the chaos in force (declared below), so `POST /__devnet/chaos` switches it.
  const computeUnits = createComputeUnitMeter({ now, limit: () => (replay ? undefined : (chaos.computeUnitsPerMinute ?? undefined)) });
  const dataApi = createDataApiHandler(dataset, webhookStore, computeUnits);
  const webhooks = createWebhookDeliveries({ store: webhookStore, dataset, intervalMs: options.webhookIntervalMs ?? 1000 });
  const oddities = options.oddities ? createOddities({ seed: options.seed ?? 1, ...(options.oddities === true ? {} : options.oddities) }) : undefined;
  const nodes: Record<string, DevnetHandler> = {
    '': createNodeSimulator({ name: 'mainnet', network: 'mainnet', view: dataset.nodeView, seed: options.seed ?? 1, now }).handle,
    '/nodes/fuji': createNodeSimulator({ name: 'fuji', network: 'fuji', view: dataset.nodeView, seed: options.seed ?? 1, now }).handle,
  };

  const startup: ChaosSettings = {
    latencyMs: options.latencyMs ?? 0,
    faultRate: options.faultRate ?? 0,
    faultStatus: 503,
    failNext: 0,
    bodyDelayMs: 0,
    ...(options.computeUnitsPerMinute !== undefined ? { computeUnitsPerMinute: options.computeUnitsPerMinute } : {}),
  };
  let chaos: ChaosSettings = { ...startup };
  let stats: RequestCounters = { requests: 0, byRoute: {} };
  const statsNow = (): DevnetStats => ({ ...structuredClone(stats), computeUnits: computeUnits.view().total });
  const resetStats = (): void => {
    stats = { requests: 0, byRoute: {} };
    log = [];
    logTextChars = 0;
    computeUnits.reset();
  };
  // The last requests with their start and end times: benchmarks count sequential rounds from it.
  const LOG_SIZE = 2000;
  let log: RequestLogEntry[] = [];
  let logTextChars = 0;
  // Fault injection draws from its own deterministic stream so runs are repeatable.
  let faultState = (options.seed ?? 1) * 2654435761;
  const nextRandom = (): number => {
    faultState = (faultState * 1103515245 + 12345) % 2147483648;
    return faultState / 2147483648;
  };

  const control = (method: string, path: string, body: string): DevnetResponse | undefined => {
    if (path === '/__devnet/stats' && method === 'GET') return { status: 200, body: statsNow(), route: '' };
    if (path === '/__devnet/log' && method === 'GET') return { status: 200, body: log, route: '' };
    if (path === '/__devnet/stats/reset' && method === 'POST') {
      resetStats();
      return { status: 200, body: statsNow(), route: '' };
    }
    if (path === '/__devnet/fixtures' && method === 'GET') return { status: 200, body: dataset.fixtures(), route: '' };
    if (path === '/__devnet/webhooks' && method === 'GET') return { status: 200, body: webhooks.counters(), route: '' };
    if (path === '/__devnet/chaos' && method === 'POST') {
      const patch = body.trim() ? (JSON.parse(body) as Partial<ChaosSettings>) : undefined;
      chaos = patch ? { ...chaos, ...patch } : { ...startup };
      return { status: 200, body: chaos, route: '' };
    }
    return undefined;
  };

  const route = (path: string): { handler: DevnetHandler; path: string } | undefined => {
    // The Data API's paths are versioned: listTransactionsV2 is under /v2.
    if (/^\/v[12](\/|$)/.test(path)) return { handler: dataApi, path };
    for (const [prefix, handler] of Object.entries(nodes)) {
      if (prefix && path.startsWith(`${prefix}/ext`)) return { handler, path: path.slice(prefix.length) };
    }
    const root = nodes[''];
    if (root && (path.startsWith('/ext/') || path === '/ext')) return { handler: root, path };
    return undefined;
  };

  const server = createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, errorResponse(500, String(error), ''), 0);
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The added latency counts from here, so the work of answering runs while it passes
    // instead of after it (the answers to a round of parallel requests are not queued
    // behind each other's work once the timers fire).
    const arrived = performance.now();
    const url = new URL(req.url ?? '/', 'http://devnet');
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    if (body === undefined) return send(res, errorResponse(413, `Request body over ${MAX_BODY_BYTES} bytes`, ''), 0);
    const controlAnswer = control(method, url.pathname, body);
    if (controlAnswer) return send(res, controlAnswer, 0);

    const target = route(url.pathname);
    if (!target) return send(res, errorResponse(404, `Cannot ${method} ${url.pathname}`, ''), 0);

    const replayKey = replay ? `${method} ${req.url ?? '/'}\n${body}` : '';
    const recorded = replay?.get(replayKey);
    if (recorded) return send(res, recorded.answer, 0, recorded.payload);
    const request = { method, path: target.path, query: url.searchParams, headers: req.headers, body, ...(req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}) };
    const shortPages = chaos.shortPages;
    const key = req.headers[DEVNET_API_KEY_HEADER];
    const unknownKey = apiKeys && target.handler === dataApi && typeof key === 'string' && !apiKeys.has(key);
    const built = unknownKey
      ? errorResponse(401, 'Invalid API key', UNKNOWN_KEY_ROUTE)
      : await (shortPages !== undefined && target.handler === dataApi ? shortPage(dataApi, request, shortPages) : target.handler(request));
    const answer = oddities && target.handler === dataApi ? oddities(method, req.url ?? '/', built) : built;
    if (replay) {
      const payload = payloadOf(answer);
      const bytes = Buffer.byteLength(payload) + replayKey.length;
      if (replay.size < REPLAY_MAX_ENTRIES && replayBytes + bytes <= REPLAY_MAX_BYTES) {
        replay.set(replayKey, { answer, payload });
        replayBytes += bytes;
      }
      return send(res, answer, 0, payload);
    }
    stats.requests += 1;
    stats.byRoute[answer.route] = (stats.byRoute[answer.route] ?? 0) + 1;
    if (log.length >= LOG_SIZE) {
      const dropped = log.shift();
      logTextChars -= (dropped?.target.length ?? 0) + (dropped?.body?.length ?? 0);
    }
    const fits = (text: string): boolean => text.length <= LOG_TEXT_ENTRY_CHARS && logTextChars + text.length <= LOG_TEXT_BUDGET;
    const requested = req.url ?? '/';
    // A cut is copied: a slice would keep the whole text alive.
    const logged = fits(requested) ? requested : Buffer.from(requested.slice(0, LOG_TARGET_CUT)).toString();
    const entry: RequestLogEntry = { route: answer.route, method, target: logged, start: arrived, end: arrived };
    logTextChars += entry.target.length;
    if (body !== '' && fits(body)) {
      entry.body = body;
      logTextChars += body.length;
    }
    const requestId = req.headers['x-request-id'];
    if (typeof requestId === 'string') entry.requestId = requestId;
    log.push(entry);
    res.once('finish', () => {
      entry.end = performance.now();
    });

    // A request is judged by the chaos in force when it arrived, and its fault decided then: one still
    // waiting out an earlier latency never takes a fault meant for the requests after a later setting.
    const settings = chaos;
    const affected = !settings.routeFilter || answer.route.includes(settings.routeFilter);
    const faulty = affected && (settings.failNext > 0 || (settings.faultRate > 0 && nextRandom() < settings.faultRate));
    if (faulty && settings.failNext > 0) settings.failNext -= 1;
    // Serialised before the wait, for the same reason.
    const payload = payloadOf(answer);
    const wait = affected ? settings.latencyMs - (performance.now() - arrived) : 0;
    if (wait > 0) await sleep(wait);
    if (faulty) {
      const fault = errorResponse(settings.faultStatus, 'Injected fault', answer.route);
      // A fault is the upstream's failure, not billed (as a client counts it: only what was answered): given back.
      if (answer.billed) computeUnits.refund(answer.billed.caller, answer.billed.units);
      // A Data API answer keeps its rate-limit headers.
      const rateLimit = Object.entries(answer.headers ?? {}).filter(([name]) => name.startsWith('ratelimit-'));
      fault.headers = { ...Object.fromEntries(rateLimit), ...(settings.retryAfterSeconds !== undefined ? { 'retry-after': String(settings.retryAfterSeconds) } : {}) };
      return send(res, fault, 0);
    }
    return send(res, answer, affected ? settings.bodyDelayMs : 0, payload);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url,
    port,
    dataset,
    nodeUrls: { mainnet: url, fuji: `${url}/nodes/fuji` },
    stats: statsNow,
    computeUnits: () => computeUnits.view(),
    requestLog: () => log.map((e) => ({ ...e })),
    resetStats,
    setChaos: (settings) => {
      chaos = { ...chaos, ...settings };
    },
    resetChaos: () => {
      chaos = { ...startup };
    },
    webhooks: { tick: () => webhooks.tick(), counters: () => webhooks.counters() },
    close: () =>
      new Promise<void>((resolve) => {
        webhooks.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The body as sent: JSON unless the answer has a content type of its own (then its text or bytes as they are). */
function payloadOf(answer: DevnetResponse): string | Buffer {
  if (answer.body === undefined) return '';
  if (answer.contentType !== undefined) return Buffer.isBuffer(answer.body) ? answer.body : String(answer.body);
  return JSON.stringify(answer.body);
}

function send(res: ServerResponse, answer: DevnetResponse, bodyDelayMs: number, payload = payloadOf(answer)): void {
  res.statusCode = answer.status;
  res.setHeader('content-type', answer.contentType ?? JSON_CONTENT_TYPE);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (bodyDelayMs > 0) {
    // Headers now, body later: lets tests exercise the client's body timeout.
    res.flushHeaders();
    setTimeout(() => res.end(payload), bodyDelayMs).unref();
    return;
  }
  res.setHeader('content-length', Buffer.byteLength(payload));
  res.end(payload);
}

/**
 * The devnet's own memory budget for a request body: the gateway forwards at most
 * its 1 MiB client body, so 2 MiB leaves room and no caller can make the in-process
 * devnet buffer more.
 */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The body as text, or undefined (and the rest left unread) once it is over MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
