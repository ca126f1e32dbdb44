import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * Stoplight Prism (a devDependency) over the real Data API's OpenAPI spec, as a child process on a
 * free port: a mock server whose answers are generated from the spec's schemas (`mock`), or a proxy
 * that forwards to an upstream and reports, in each answer's `sl-violations` header, where the request
 * or the answer breaks the spec (`proxy`). Tests use it as an oracle nobody here wrote.
 */

/** The public spec, copied into the repository by scripts/spec-facts.ts (a clean clone has no ../shared). */
export const SPEC_PATH = fileURLToPath(new URL('../data/glacier-openapi.json', import.meta.url));
const PRISM_CLI = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
/** Prism's log kept, in characters: the violations it reports, not an unbounded buffer. */
const LOG_BUDGET = 200_000;

export type PrismOptions =
  /** Answers generated from the schemas, the same answer for the same request given the same seed. */
  | { mode: 'mock'; seed: string }
  /** Forwards to `upstream` and validates both ways against the spec. */
  | { mode: 'proxy'; upstream: string };

export interface Prism {
  url: string;
  /** From spawning to the first answer. */
  startupMs: number;
  /** Its log so far (at error level: the violations it found), up to a budget. */
  log(): string;
  close(): Promise<void>;
}

export async function startPrism(options: PrismOptions): Promise<Prism> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const modeArgs = options.mode === 'mock' ? ['mock', '--dynamic', '--seed', options.seed] : ['proxy'];
  const child = spawn(process.execPath, [PRISM_CLI, ...modeArgs, '--port', String(port), '--host', '127.0.0.1', '--verboseLevel', 'error', SPEC_PATH, ...(options.mode === 'proxy' ? [options.upstream] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const collect = (chunk: Buffer): void => {
    if (log.length < LOG_BUDGET) log += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  // Up once it answers: polled, the number of attempts bounding the wait (nothing asserts how long it took).
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}): ${log.slice(-2000)}`);
    try {
      const res = await fetch(`${url}/v1/chains`);
      await res.arrayBuffer();
      break;
    } catch {
      if (attempt >= 1200) {
        await close();
        throw new Error(`prism did not answer: ${log.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, startupMs: Math.round(performance.now() - started), log: () => log, close };
}

/** Where Prism found a violation, from its `sl-violations` header. */
export interface PrismViolation {
  location: (string | number)[];
  code: string;
  message: string;
}

export function violationsOf(res: Response): PrismViolation[] {
  const header = res.headers.get('sl-violations');
  if (!header) return [];
  // Past a count of violations Prism writes a sentence instead of the list ("Too many violations..."): still a violation.
  try {
    return JSON.parse(header) as PrismViolation[];
  } catch {
    return [{ location: [], code: 'prism', message: header.slice(0, 200) }];
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
