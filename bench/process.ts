/**
 * Process helpers shared by the bench scripts (`bench/run.ts`, `bench/soak-paging.ts`,
 * `bench/stress-limits.ts`): a free loopback port, waiting for an HTTP endpoint,
 * starting the gateway exactly as a user runs `npm start` and finding the node
 * process below npm, and reading a process's RSS and peak RSS from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root (with a trailing slash). */
export const root = fileURLToPath(new URL('..', import.meta.url));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on at the moment, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface WaitOptions {
  /** Default 60 s. */
  timeoutMs?: number;
  /** Whether a status means "up". Default: any status below 500. */
  ready?: (status: number) => boolean;
  /** Whether an answer whose status is "up" is the one waited for (reads its body). Default: any. */
  accept?: (res: Response) => Promise<boolean>;
  /** A reason when the process being waited for has exited: thrown at once instead of waiting on. */
  exited?: () => string | undefined;
  /** Thrown when the time is up. Default: `timed out waiting for <url>`. */
  timeoutMessage?: string;
}

/** Polls `url` every 200 ms until it answers a ready status. */
export async function waitFor(url: string, options: WaitOptions = {}): Promise<void> {
  const { timeoutMs = 60_000, ready = (status: number) => status < 500, accept, exited, timeoutMessage = `timed out waiting for ${url}` } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exit = exited?.();
    if (exit) throw new Error(exit);
    try {
      const res = await fetch(url);
      if (ready(res.status) && (!accept || (await accept(res)))) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(timeoutMessage);
    await sleep(200);
  }
}

/** The pids below `pid`, depth first (npm -> sh -> node). */
export function descendants(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** A process's command line; empty once it is gone. */
export function argv(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg, i, all) => arg !== '' || i < all.length - 1);
  } catch {
    return [];
  }
}

/**
 * RSS and peak RSS (VmHWM) of a live process in MB. Once it is gone: zeros, or with
 * `throwIfGone` the error reading /proc.
 */
export function procMemory(pid: number, options: { throwIfGone?: boolean } = {}): { rssMb: number; peakMb: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch (error) {
    if (options.throwIfGone) throw error;
  }
  const kb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

export interface NpmGateway {
  /** The `npm start` process. */
  npm: ChildProcess;
  /** The gateway's node process below npm (and the shell npm runs the script in). */
  pid: number;
  /** Its command line, as started by the start script (node flags included). */
  argv: string[];
  /** `http://127.0.0.1:<port>/graphql`. */
  url: string;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** Why npm exited (with the tail of its stderr), once it has. */
  exited: () => string | undefined;
}

export interface StartOptions {
  /** The gateway's port; default a free one. */
  port?: number;
  /** Added to this process's environment (after PORT and LOG_LEVEL=warn, so they may be overridden). */
  env?: Record<string, string>;
  /** How long the build and start may take; default 120 s. */
  timeoutMs?: number;
  /** Starts npm as the leader of its own process group (as a terminal does), so `process.kill(-npm.pid)` reaches npm and node at once. Default false. */
  detached?: boolean;
}

/**
 * Runs `npm start` as a user does (the build, then the esbuild bundle under the start
 * script's node flags, the in-process devnet unless upstreams are configured), waits until
 * `GET /graphql?query={__typename}` answers 200 and its warm-up is over, and finds the node process below npm.
 */
export async function startNpmGateway(options: StartOptions = {}): Promise<NpmGateway> {
  const port = options.port ?? (await freePort());
  let stderr = '';
  const npm = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: options.detached ?? false,
  });
  npm.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exit: string | undefined;
  npm.on('exit', (code, signal) => {
    exit = `npm start exited (${code ?? signal}); stderr tail:\n${stderr}`;
  });
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/graphql`;
  await waitFor(`${url}?query=%7B__typename%7D`, {
    timeoutMs: options.timeoutMs ?? 120_000,
    ready: (status) => status >= 200 && status < 300,
    exited: () => exit,
    timeoutMessage: `the gateway did not start within ${Math.round((options.timeoutMs ?? 120_000) / 1000)} s`,
  });
  // Then until its warm-up is over (`/ready` says something else than "warming up"): a test of a started
  // gateway means one that has said whether it is ready.
  await waitFor(`${base}/ready`, {
    timeoutMs: options.timeoutMs ?? 120_000,
    ready: () => true,
    accept: async (res) => !((await res.json().catch(() => ({}))) as { warmingUp?: boolean }).warmingUp,
    exited: () => exit,
    timeoutMessage: 'the gateway did not end its warm-up',
  });
  // The node process itself, not the shell that npm runs the script in (a signal meant for node would end a shell).
  const pid = descendants(npm.pid as number).find((p) => {
    const args = argv(p);
    return /(^|\/)node$/.test(args[0] ?? '') && args.some((a) => a.endsWith('dist/cli.mjs'));
  });
  if (!pid) throw new Error('could not find the gateway process under npm start');
  return { npm, pid, argv: argv(pid), url, base, exited: () => exit };
}

/** SIGTERM to the gateway's node process (unless it is gone already), then waits for npm to exit. */
export async function stopNpmGateway(gateway: NpmGateway): Promise<void> {
  if (!gateway.exited()) {
    try {
      process.kill(gateway.pid, 'SIGTERM');
    } catch {
      // exited meanwhile
    }
  }
  await new Promise((resolve) => (gateway.exited() ? resolve(undefined) : gateway.npm.once('exit', resolve)));
}
