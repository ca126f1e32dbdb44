/**
 * `npm run bench:stress -- hostile`: the gateway the floods run against, one fresh process per flood
 * (so each flood's peak RSS is its own and one flood's leftovers never weigh on the next).
 *
 * Started as `npm start` starts it (the build, then the start script's node flags and heap size),
 * or, with `STRESS_BUNDLE=<dir>`, the start script's own command line run on a bundle built earlier
 * into `<dir>` (the same flags, read from package.json): a before/after comparison then runs the two
 * bundles and not whatever the shared working tree holds at the moment. `STRESS_NODE_FLAGS` adds node
 * flags in that mode (`--cpu-prof --cpu-prof-dir=...` to profile the gateway under a flood).
 *
 * Its stdout is read (never left to fill a pipe): the in-process devnet's address is on it, which the
 * `@defer` flood needs to slow the devnet down; a gateway that does not print it (logs at warn, not on a
 * terminal) is asked on its other listening port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readlinkSync, readFileSync } from 'node:fs';
import { argv as argvOf, descendants, freePort, root, waitFor } from '../process.ts';

export interface FloodGateway {
  child: ChildProcess;
  /** The gateway's node process. */
  pid: number;
  argv: string[];
  /** `http://127.0.0.1:<port>` and its `/graphql`. */
  base: string;
  url: string;
  port: number;
  /** The in-process devnet's base URL, from the gateway's stdout. */
  devnetUrl?: string;
  /** Why it exited (with the tail of its stderr), once it has. */
  exited(): string | undefined;
  /** SIGTERM, then waits for the exit (a profile, if asked for, is written then). */
  stop(): Promise<void>;
}

/** The start script's command after the build (`NODE_ENV=... exec node <flags> dist/cli.mjs`), run on `dir` with `extraFlags`. */
function bundleCommand(dir: string, extraFlags: string): string {
  const start = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start;
  const afterBuild = start.slice(start.indexOf('&&') + 2).trim();
  if (!afterBuild.includes('exec node ') || !afterBuild.includes('dist/cli.mjs')) throw new Error(`unexpected start script: ${start}`);
  return afterBuild.replaceAll('dist/', `${dir.replace(/\/$/, '')}/`).replace('exec node ', `exec node ${extraFlags} `);
}

export async function startFloodGateway(env: Record<string, string> = {}): Promise<FloodGateway> {
  const port = await freePort();
  const bundle = process.env['STRESS_BUNDLE'];
  const childEnv = { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env };
  const child = bundle
    ? spawn('sh', ['-c', bundleCommand(bundle, process.env['STRESS_NODE_FLAGS'] ?? '')], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('npm', ['start'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let devnetUrl: string | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-4000);
    // The announcement line: JSON (`"devnet":"<url>"`) or, for a terminal, plain text (`More: <url>/__devnet/fixtures`).
    const found = /"devnet":"(http:[^"]+)"|More: (http:\/\/\S+)\/__devnet\/fixtures/.exec(stdout);
    devnetUrl ??= found?.[1] ?? found?.[2];
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `gateway exited (${code ?? signal}); stderr tail:\n${stderr}`;
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/graphql`;
  await waitFor(`${url}?query=%7B__typename%7D`, { timeoutMs: 180_000, ready: (status) => status === 200, exited: () => exit, timeoutMessage: 'the gateway did not start within 180 s' });
  // The node process: the spawned one itself when the script execs node, else below npm and its shell.
  const pid = [child.pid as number, ...descendants(child.pid as number)].find((p) => {
    const args = argvOf(p);
    return /(^|\/)node$/.test(args[0] ?? '') && args.some((a) => a.endsWith('/cli.mjs'));
  });
  if (!pid) throw new Error('could not find the gateway process');
  for (let i = 0; i < 20 && !devnetUrl; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  devnetUrl ??= await devnetByPort(pid, port);
  return {
    child,
    pid,
    argv: argvOf(pid),
    base,
    url,
    port,
    ...(devnetUrl ? { devnetUrl } : {}),
    exited: () => exit,
    stop: async () => {
      if (!exit) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // exited meanwhile
        }
      }
      await exited;
    },
  };
}

/** The ports a process listens on (IPv4 loopback and any), from /proc: its sockets' inodes matched in /proc/net/tcp. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // st 0A: LISTEN
    if (cols[3] === '0A' && inodes.has(cols[9] ?? '')) ports.push(parseInt((cols[1] ?? ':0').split(':')[1] ?? '0', 16));
  }
  return ports;
}

/** The in-process devnet: the gateway's other listening port that answers the devnet's fixtures route. */
async function devnetByPort(pid: number, gatewayPort: number): Promise<string | undefined> {
  for (const port of listeningPorts(pid).filter((p) => p !== gatewayPort)) {
    const url = `http://127.0.0.1:${port}`;
    try {
      if ((await fetch(`${url}/__devnet/stats`, { signal: AbortSignal.timeout(5000) })).ok) return url;
    } catch {
      // not the devnet
    }
  }
  return undefined;
}
