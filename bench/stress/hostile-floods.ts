/**
 * `npm run bench:stress -- hostile`: the floods' clients (see bench/stress/hostile.ts for the plan and the
 * measurements). They run in a process of their own at a lower scheduling priority
 * (bench/stress/hostile-clients.ts), so that on a small machine the load generator's own CPU does not
 * take the gateway's: what is measured is how the gateway shares its CPU, not how the machine shares it
 * between the gateway and its attackers.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { root, sleep } from '../process.ts';
import { tally, type Tally } from './requests.ts';
import type { WsTally } from './ws-idle-worker.ts';

/** About 2.9 MB of answer: 30 aliases of 100 validators with most fields (test/e2e/hostile-clients.test.ts). */
export const FIELDS =
  'id network txHash nodeId subnetId amountStaked delegationFee amountDelegated startTimestamp endTimestamp blsCredentials { publicKey proofOfPossession } delegatorCount validationStatus ... on ActiveValidator { stakePercentage uptimePerformance avalancheGoVersion delegationCapacity }';
export const BIG_QUERY = `{ network(name: MAINNET) { ${Array.from({ length: 30 }, (_, i) => `a${i}: validators(first: 100) { edges { cursor node { ${FIELDS} } } }`).join(' ')} } }`;
export const SMALL_QUERY = '{ network(name: MAINNET) { validators(first: 1) { edges { node { nodeId } } } } }';
const VALIDATION_HEAVY = `{ network(name: MAINNET) { ${Array.from({ length: 200 }, () => 'subnets(first: 1) { edges { node { subnetId isPrimaryNetwork createBlockTimestamp } } }').join(' ')} } }`;

let sequence = 0;
/** The document made distinct by a comment: same tokens, a new text for every cache keyed by it. */
export const fresh = (query: string): string => `# ${process.pid}-${++sequence}\n${query}`;
/** Loopback source addresses 127.0.<block>.1 onwards: `n` distinct clients. */
const addresses = (block: number, n: number): string[] => Array.from({ length: n }, (_, i) => `127.0.${block + Math.floor(i / 250)}.${(i % 250) + 1}`);

const NEVER_READERS = (process.env['STRESS_NEVER_READERS'] ?? '200,400,800').split(',').map(Number);
const WS_SOCKETS = (process.env['STRESS_WS_SOCKETS'] ?? '5000,20000').split(',').map(Number);

/** The gateway under attack. */
export interface FloodTarget {
  /** `http://127.0.0.1:<port>/graphql`, its base and port. */
  url: string;
  base: string;
  port: number;
  /** The in-process devnet's base URL (the `@defer` flood slows it down). */
  devnetUrl?: string;
}

export interface FloodContext {
  target: FloodTarget;
  /** Said about the flood in the report. */
  notes: string[];
}

export interface Flood {
  name: string;
  /** Runs the clients; what they saw, tallied. */
  run(ctx: FloodContext): Promise<Tally>;
}

// ---------------------------------------------------------------------------------------------
// Clients

interface Answer {
  key: string;
  bytes: number;
}

/** Status and error codes of an answer, read without parsing a large body. */
function classify(status: number, body: Buffer): string {
  if (body.indexOf('Unexpected error.') >= 0) return `${status} MASKED`;
  const codes = new Set<string>();
  for (let at = body.indexOf('"errors"'); at >= 0; at = body.indexOf('"errors"', at + 8)) {
    for (const m of body.subarray(at, at + 4096).toString('latin1').matchAll(/"code":"([A-Z_]+)"/g)) codes.add(m[1] as string);
  }
  return codes.size ? `${status} ${[...codes].sort().join('+')}` : String(status);
}

/** One POST over `agent` (a client's own keep-alive connection), from `localAddress`. */
function post(ctx: FloodContext, agent: Agent, localAddress: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      ctx.target.url,
      { method: 'POST', agent, localAddress, headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers }, timeout: 60_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => {
          const all = Buffer.concat(chunks);
          resolve({ key: classify(res.statusCode ?? 0, all), bytes: all.length });
        });
        res.once('error', (error: NodeJS.ErrnoException) => resolve({ key: `ERROR ${error.code ?? error.message}`, bytes: 0 }));
      },
    );
    req.once('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.once('error', (error: NodeJS.ErrnoException) => resolve({ key: `ERROR ${error.code ?? error.message}`, bytes: 0 }));
    req.end(body);
  });
}

/** `clients` clients, each sending `body()` in a loop on its own connection for `seconds`. */
async function loop(ctx: FloodContext, clients: number, seconds: number, body: () => string, block: number): Promise<Tally> {
  const answers: Answer[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    addresses(block, clients).map(async (address) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (performance.now() < until) {
        const answer = await post(ctx, agent, address, body());
        answers.push(answer);
        // A refused client waits a little: a tight loop of refusals would be another flood, not this one.
        if (!answer.key.startsWith('200')) await sleep(50);
      }
      agent.destroy();
    }),
  );
  const bytes = answers.filter((a) => a.key === '200').map((a) => a.bytes);
  if (bytes.length) ctx.notes.push(`answers of ${(Math.min(...bytes) / 1e6).toFixed(2)}-${(Math.max(...bytes) / 1e6).toFixed(2)} MB; ${answers.length} in ${seconds} s`);
  return tally(answers.map((a) => ({ key: a.key, ms: 0, bytes: a.bytes })));
}

/** Raw POSTs on one socket that never reads: the first answers fill the kernel's buffers, the rest wait in the gateway. */
function neverReader(port: number, localAddress: string, pipelined: number): Socket {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  socket.pause();
  socket.on('error', () => undefined);
  const requests = Array.from({ length: pipelined }, () => {
    const body = JSON.stringify({ query: fresh(BIG_QUERY) });
    return `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  });
  socket.write(requests.join(''));
  return socket;
}

// ---------------------------------------------------------------------------------------------
// The floods

function neverReadersFlood(n: number): Flood {
  return {
    name: `a. ${n} clients never reading 4 pipelined ~2.9 MB answers`,
    async run(ctx) {
      const attackers = addresses(10, n).map((address) => neverReader(ctx.target.port, address, 4));
      // The write deadline (10 s) cuts each stalled connection; the queue (2 s) refuses what waits longer.
      await sleep(35_000);
      // Afterwards (the prober has its samples): read what each got, to tell what the gateway did with it.
      const seen: Tally = {};
      await Promise.all(
        attackers.map(
          (socket) =>
            new Promise<void>((resolve) => {
              let head = '';
              let ended = false;
              const finish = (how: string): void => {
                if (ended) return;
                ended = true;
                const answered = [...head.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]).join(',');
                const key = `${how}; answers seen: ${answered || 'none'}`;
                seen[key] = (seen[key] ?? 0) + 1;
                socket.destroy();
                resolve();
              };
              socket.on('data', (chunk: Buffer) => {
                // Only the status lines matter; a body's bytes are dropped.
                const text = chunk.toString('latin1');
                for (const m of text.matchAll(/HTTP\/1\.1 \d{3}/g)) head += `${m[0]} `;
              });
              socket.once('end', () => finish('closed by the gateway'));
              socket.once('close', () => finish('closed by the gateway'));
              socket.once('error', (error: NodeJS.ErrnoException) => finish(`closed by the gateway (${error.code ?? 'error'})`));
              setTimeout(() => finish('still open'), 1500);
              socket.resume();
            }),
        ),
      );
      return seen;
    },
  };
}

const trickleFlood: Flood = {
  name: 'b. 40 bodies trickled at 1 byte/s',
  async run(ctx) {
    const answers = await Promise.all(
      addresses(20, 40).map(
        (address) =>
          new Promise<string>((resolve) => {
            const socket = connect({ port: ctx.target.port, host: '127.0.0.1', localAddress: address });
            let answer = '';
            const timer = setInterval(() => socket.writable && socket.write(' '), 1000);
            const finish = (how?: string): void => {
              clearInterval(timer);
              socket.destroy();
              const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
              const code = /"code":"([A-Z_]+)"/.exec(answer)?.[1];
              resolve(status ? `${status} ${code ?? ''}`.trim() : (how ?? 'no answer'));
            };
            socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
            socket.on('error', (error: NodeJS.ErrnoException) => finish(`ERROR ${error.code ?? ''}`));
            socket.on('close', () => finish());
            setTimeout(() => finish('still open after 25 s'), 25_000);
            socket.write(`POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n`);
          }),
      ),
    );
    return tally(answers.map((key) => ({ key, ms: 0, bytes: 0 })));
  },
};

const bigAnswersFlood: Flood = {
  name: 'c. 32 clients reading ~2.9 MB answers in a loop',
  run: (ctx) => loop(ctx, 32, 45, () => JSON.stringify({ query: fresh(BIG_QUERY) }), 30),
};

const validationFlood: Flood = {
  name: 'd. 32 clients sending the validation-heavy document (200 x subnets(first: 1))',
  run: (ctx) => loop(ctx, 32, 30, () => JSON.stringify({ query: fresh(VALIDATION_HEAVY) }), 40),
};

function idleWebSocketsFlood(n: number): Flood {
  return {
    name: `e. ${n} idle graphql-ws sockets`,
    async run(ctx) {
      // Under each process's fd limit (20,000 here), with room for the rest of the process.
      const perWorker = 9000;
      const workers: { child: ChildProcess; tally: Promise<WsTally>; opened: Promise<void> }[] = [];
      for (let start = 0, w = 0; start < n; start += perWorker, w++) {
        const count = Math.min(perWorker, n - start);
        // 100 addresses per worker: the per-address cap (1,024) is not what the flood meets.
        const child = fork(`${root}bench/stress/ws-idle-worker.ts`, [ctx.target.url.replace(/^http/, 'ws'), String(count), addresses(50 + w, 100).join(',')], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        let onOpened: () => void = () => undefined;
        const opened = new Promise<void>((resolve) => (onOpened = resolve));
        const tallied = new Promise<WsTally>((resolve) =>
          child.on('message', (message: { type: string; tally?: WsTally }) => {
            if (message.type === 'opened') onOpened();
            if (message.type === 'tally' && message.tally) resolve(message.tally);
          }),
        );
        workers.push({ child, tally: tallied, opened });
      }
      const t0 = performance.now();
      await Promise.race([Promise.all(workers.map((w) => w.opened)), sleep(60_000)]);
      ctx.notes.push(`every socket attempted after ${Math.round(performance.now() - t0)} ms`);
      // Held idle past one keep-alive ping (12 s).
      await sleep(15_000);
      for (const w of workers) w.child.send('stop');
      const tallies = await Promise.all(workers.map((w) => w.tally));
      const seen: Tally = {};
      let acked = 0;
      let openAtStop = 0;
      for (const t of tallies) {
        acked += t.acked;
        openAtStop += t.openAtStop;
        for (const [key, count] of Object.entries(t.outcomes)) seen[key] = (seen[key] ?? 0) + count;
      }
      ctx.notes.push(`acknowledged (connection_ack) ${acked}; open when the flood stopped: ${openAtStop}; peak open per worker: ${tallies.map((t) => t.peakOpen).join(', ')}`);
      return { ...seen, 'open at the end': openAtStop };
    },
  };
}

const deferFlood: Flood = {
  name: 'f. 150 slow @defer operations at once x 3 waves (devnet 1.5 s per call)',
  async run(ctx) {
    if (!ctx.target.devnetUrl) throw new Error('the devnet address was not found on the gateway stdout');
    const chaos = (body: string) => fetch(`${ctx.target.devnetUrl}/__devnet/chaos`, { method: 'POST', body });
    await chaos(JSON.stringify({ latencyMs: 1500 }));
    const answers: Answer[] = [];
    try {
      for (let wave = 0; wave < 3; wave++) {
        answers.push(
          ...(await Promise.all(
            addresses(60, 150).map((address, i) => {
              const n = wave * 150 + i;
              // Distinct arguments: every operation makes its own (slow) upstream calls.
              const query = `{ network(name: MAINNET) { validators(first: 2, filter: { minDelegationCapacity: "${n + 1}" }) { edges { node { nodeId ... @defer { delegators(first: ${(n % 50) + 1}) { edges { node { txHash } } } } } } } } }`;
              const agent = new Agent({ keepAlive: false });
              return post(ctx, agent, address, JSON.stringify({ query }), { accept: 'multipart/mixed' }).then((answer) => ({
                ...answer,
                key: answer.key.startsWith('200') && answer.key !== '200 SERVER_BUSY' ? `${answer.key} (multipart)` : answer.key,
              }));
            }),
          )),
        );
      }
    } finally {
      await chaos('');
    }
    return tally(answers.map((a) => ({ key: a.key, ms: 0, bytes: a.bytes })));
  },
};


// ---------------------------------------------------------------------------------------------
// The plan

/** Each flood by key (`a:200`, `b`, `e:5000`...), grouped by the letter the command line names. */
const GROUPS: Record<string, () => [string, Flood][]> = {
  a: () => NEVER_READERS.map((n) => [`a:${n}`, neverReadersFlood(n)]),
  b: () => [['b', trickleFlood]],
  c: () => [['c', bigAnswersFlood]],
  d: () => [['d', validationFlood]],
  e: () => WS_SOCKETS.map((n) => [`e:${n}`, idleWebSocketsFlood(n)]),
  f: () => [['f', deferFlood]],
};

/** The floods of the groups named (every group when none is), in order, as [key, name]. */
export function floodPlan(groups: readonly string[]): [string, string][] {
  const names = groups.length ? groups : Object.keys(GROUPS);
  const unknown = names.filter((n) => !GROUPS[n]);
  if (unknown.length) throw new Error(`unknown flood ${unknown.join(', ')}: one of ${Object.keys(GROUPS).join(' ')}`);
  return names.flatMap((n) => (GROUPS[n] as () => [string, Flood][])().map(([key, flood]): [string, string] => [key, flood.name]));
}

export function floodOf(key: string): Flood {
  const flood = (GROUPS[key.split(':')[0] ?? ''] ?? (() => []))().find(([k]) => k === key)?.[1];
  if (!flood) throw new Error(`unknown flood ${key}`);
  return flood;
}
