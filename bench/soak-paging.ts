/**
 * `npm run bench:soak`: the memory soak. Starts the gateway exactly as `npm start`
 * does (a separate process: the esbuild bundle with the start script's node flags
 * and the in-process devnet), then
 *
 * 1. pages through every MAINNET validator with every page size from 1 to 100,
 *    following `pageInfo.endCursor` (about 6,000 valid requests);
 * 2. loads GraphiQL many times, concurrently, with and without compression;
 * 3. sends distinct documents carrying a ~900 KB comment (one long comment, and
 *    one comment per line, the worst case for the parser's token list);
 *
 * and reports the gateway's peak and final RSS (VmHWM / VmRSS) and V8 heap
 * (sampled through the inspector, which the script opens on the gateway's pid
 * with SIGUSR1; the final heap is measured after a forced GC). Exits non-zero if
 * the gateway dies or a valid request fails.
 *
 * Env: SOAK_CONCURRENCY (parallel page walks, default 8), SOAK_MAX_PAGE_SIZE (100),
 * SOAK_GRAPHIQL_LOADS (60), SOAK_COMMENT_DOCS (120 per shape), SOAK_JSON (write results to
 * bench/results/soak-<date>.json when "1").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { WebSocket } from 'undici';
import { freePort, procMemory, root, sleep, startNpmGateway, stopNpmGateway, type NpmGateway } from './process.ts';

const CONCURRENCY = Number(process.env['SOAK_CONCURRENCY'] ?? 8);
const MAX_PAGE_SIZE = Number(process.env['SOAK_MAX_PAGE_SIZE'] ?? 100);
const GRAPHIQL_LOADS = Number(process.env['SOAK_GRAPHIQL_LOADS'] ?? 60);
const COMMENT_DOCS = Number(process.env['SOAK_COMMENT_DOCS'] ?? 120);
const COMMENT_BYTES = 900 * 1024;

interface Sample {
  rssMb: number;
  heapMb: number;
}

/** A minimal Chrome DevTools Protocol session on the gateway's inspector. */
class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, (value: unknown) => void>();
  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.pending.get(message.id)?.(message.result);
    });
  }

  static async open(port: number): Promise<Inspector> {
    for (let attempt = 0; ; attempt++) {
      try {
        const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
        const socket = new WebSocket(targets[0]?.webSocketDebuggerUrl ?? '');
        await new Promise((resolve, reject) => {
          socket.addEventListener('open', resolve, { once: true });
          socket.addEventListener('error', reject, { once: true });
        });
        return new Inspector(socket);
      } catch (error) {
        if (attempt > 50) throw error;
        await sleep(100);
      }
    }
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.pending.set(id, (value) => resolve(value as T));
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async heapMb(): Promise<number> {
    const usage = await this.send<{ usedSize: number }>('Runtime.getHeapUsage');
    return usage.usedSize / 1024 / 1024;
  }

  close(): void {
    this.socket.close();
  }
}

interface Gateway extends NpmGateway {
  inspector: Inspector;
}

async function startGateway(): Promise<Gateway> {
  const port = await freePort();
  const inspectPort = await freePort();
  // `npm start`, as a user runs it. The inspector port is only opened on SIGUSR1, sent to the gateway alone.
  const gateway = await startNpmGateway({ port, env: { NODE_OPTIONS: `--inspect-port=127.0.0.1:${inspectPort}` } });
  process.kill(gateway.pid, 'SIGUSR1');
  const inspector = await Inspector.open(inspectPort);
  return { ...gateway, inspector };
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, json: { raw: text.slice(0, 200) } };
  }
}

const PAGE_QUERY = `query Page($first: Int!, $after: String) {
  network(name: MAINNET) {
    validators(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { cursor node { id nodeId amountStaked validationStatus startTimestamp endTimestamp delegatorCount } }
    }
  }
}`;

interface PageResult {
  network: { validators: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: { nodeId: string } }[] } };
}

/** Every page of the validator list at one page size; returns [requests, validators seen]. */
async function walk(url: string, pageSize: number): Promise<[number, number]> {
  let after: string | null = null;
  let requests = 0;
  let seen = 0;
  for (;;) {
    const { status, json } = await post(url, { query: PAGE_QUERY, variables: { first: pageSize, after } });
    requests += 1;
    const data = json['data'] as PageResult | undefined;
    if (status !== 200 || json['errors'] || !data) throw new Error(`page size ${pageSize} after ${after}: HTTP ${status} ${JSON.stringify(json).slice(0, 300)}`);
    const { pageInfo, edges } = data.network.validators;
    seen += edges.length;
    if (!pageInfo.hasNextPage) return [requests, seen];
    after = pageInfo.endCursor;
  }
}

async function pool<T>(items: readonly T[], concurrency: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
}

async function main(): Promise<void> {
  process.stdout.write('building and starting the gateway as `npm start` does...\n');
  const gateway = await startGateway();
  const samples: Sample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      try {
        samples.push({ rssMb: procMemory(gateway.pid).rssMb, heapMb: await gateway.inspector.heapMb() });
      } catch {
        break; // the process is gone; reported below
      }
      await sleep(250);
    }
  })();
  const phases: Record<string, unknown>[] = [];
  const phase = async (name: string, body: () => Promise<Record<string, unknown>>) => {
    const start = performance.now();
    const from = samples.length;
    let result: Record<string, unknown>;
    let error: unknown;
    try {
      result = await body();
    } catch (caught) {
      error = caught;
      result = { failed: String(caught).slice(0, 300) };
    }
    const seconds = (performance.now() - start) / 1000;
    const window = samples.slice(from);
    const row = {
      phase: name,
      ...result,
      seconds: round(seconds),
      peakRssMb: round(Math.max(...window.map((s) => s.rssMb), procMemory(gateway.pid).rssMb)),
      peakHeapMb: round(Math.max(0, ...window.map((s) => s.heapMb))),
    };
    phases.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
    if (error) throw error;
  };

  const idleHeap = await gateway.inspector.heapMb();
  const idle = { phase: 'idle', rssMb: round(procMemory(gateway.pid).rssMb), heapMb: round(idleHeap) };
  process.stdout.write(`${JSON.stringify(idle)}\n`);
  let failure: unknown;
  try {
    await phase('paging: every validator, every page size 1..' + MAX_PAGE_SIZE, async () => {
      const sizes = Array.from({ length: MAX_PAGE_SIZE }, (_, i) => MAX_PAGE_SIZE - i);
      let requests = 0;
      const totals = new Set<number>();
      await pool(sizes, CONCURRENCY, async (size) => {
        const [n, seen] = await walk(gateway.url, size);
        requests += n;
        totals.add(seen);
      });
      return { requests, validatorsPerWalk: [...totals] };
    });

    await phase('GraphiQL loads', async () => {
      const encodings = ['br', 'gzip', 'identity'];
      let bytes = 0;
      let statuses = new Set<number>();
      await pool(Array.from({ length: GRAPHIQL_LOADS }, (_, i) => i), 10, async (i) => {
        const res = await fetch(gateway.url, { headers: { accept: 'text/html', 'accept-encoding': encodings[i % 3] as string } });
        const page = await res.arrayBuffer();
        bytes += page.byteLength;
        statuses = statuses.add(res.status);
        // The assets the page names, as a browser fetches them.
        const html = res.headers.get('content-encoding') ? '' : new TextDecoder().decode(page);
        for (const [, src] of html.matchAll(/(?:src|href)="(\/graphql\/[^"]+)"/g)) {
          const asset = await fetch(new URL(src as string, gateway.url), { headers: { 'accept-encoding': encodings[i % 3] as string } });
          bytes += (await asset.arrayBuffer()).byteLength;
          statuses = statuses.add(asset.status);
        }
      });
      return { loads: GRAPHIQL_LOADS, wireMb: round(bytes / 1024 / 1024), statuses: [...statuses] };
    });

    for (const shape of ['one long comment', 'a comment per line'] as const) {
      await phase(`distinct ${Math.round(COMMENT_BYTES / 1024)} KB-comment documents (${shape})`, async () => {
        const statuses = new Map<number, number>();
        await pool(Array.from({ length: COMMENT_DOCS }, (_, i) => i), 4, async (i) => {
          // Sized as sent: in JSON each `#\n` line takes three bytes (the newline is escaped).
          const comment = shape === 'one long comment' ? `# ${i} ${'x'.repeat(COMMENT_BYTES)}\n` : `# ${i}\n${'#\n'.repeat(COMMENT_BYTES / 3)}`;
          const { status } = await post(gateway.url, { query: `${comment}{ network(name: MAINNET) { validators(first: 2) { edges { node { nodeId } } } } }` });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        });
        return { documents: COMMENT_DOCS, statuses: Object.fromEntries(statuses) };
      });
    }
  } catch (error) {
    failure = error;
  }

  sampling = false;
  await sampler;
  const died = gateway.exited();
  let final: Record<string, unknown> = { phase: 'final', alive: !died };
  if (!died) {
    await gateway.inspector.send('HeapProfiler.collectGarbage');
    final = { ...final, rssMb: round(procMemory(gateway.pid).rssMb), heapAfterGcMb: round(await gateway.inspector.heapMb()) };
    final['peakRssMb'] = round(procMemory(gateway.pid).peakMb);
  }
  final['peakHeapMb'] = round(Math.max(0, ...samples.map((s) => s.heapMb)));
  process.stdout.write(`${JSON.stringify(final)}\n`);
  gateway.inspector.close();
  await stopNpmGateway(gateway);

  if (process.env['SOAK_JSON'] === '1') {
    mkdirSync(`${root}bench/results`, { recursive: true });
    const file = `${root}bench/results/soak-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.json`;
    writeFileSync(file, JSON.stringify({ idle, phases, final }, null, 2));
    process.stdout.write(`results: ${file}\n`);
  }
  if (died) {
    process.stderr.write(`${died}\n`);
    process.exit(1);
  }
  if (failure) {
    process.stderr.write(`${String(failure)}\n`);
    process.exit(1);
  }
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

await main();
