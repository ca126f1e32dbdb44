import pino from 'pino';
import { configFromEnv, secretsFromEnv } from './config.ts';
import { readSetting } from './settings.ts';
import { createRedactor, redactingLogOptions } from '../lib/redact.ts';
import { startServer } from './server.ts';

/**
 * A second signal this soon after the first is the same request, delivered twice: Ctrl-C in a terminal
 * signals the whole process group (npm and node), and npm forwards its copy to node as well.
 */
const DUPLICATE_SIGNAL_MS = 1000;
/** Time for the caches, clients and devnet to close after the drain, before the exit is forced anyway. */
const CLOSE_MARGIN_MS = 5000;

/**
 * JSON lines (for log shippers) unless stdout is a terminal, where a person reads them: then pino-pretty,
 * in pino's transport worker. `LOG_FORMAT=json|pretty` overrides the guess.
 */
const pretty = (readSetting(process.env, 'LOG_FORMAT') ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
// Every line written with the settings' secrets hidden, read from the environment before it is parsed, so
// even a bad setting's error cannot show one.
const logger = pino(
  { level: readSetting(process.env, 'LOG_LEVEL'), ...redactingLogOptions(createRedactor(secretsFromEnv(process.env))) },
  pretty ? pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }) : undefined,
);
// Node writes process warnings (deprecations, listener leaks) as text on stderr: they are log lines
// like any other instead, so JSON logs stay JSON lines only.
process.removeAllListeners('warning');
process.on('warning', (warning) => logger.warn({ err: warning }, `process warning: ${warning.name}`));
// A promise rejected with nobody listening is a bug to fix, not a reason to drop every request in flight: it is
// logged (redacted, as every line) and the gateway serves on. Node's default would end the process.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection (a bug: please report it); serving on'));

/** The devnet's sample ids, printed so the examples (README and docs/api.md, which use them) can be run and varied. */
function fixtureLines(fixtures: Record<string, string>, devnetUrl: string): string {
  const shown = ['nodeId', 'subnetId', 'evmChainId', 'address', 'txHash', 'pChainAddress', 'operationId'];
  const width = Math.max(...shown.map((key) => key.length));
  return [
    '  On the built-in devnet (simulated data). Mainnet ids with data behind them, as the examples in the README and docs/api.md use them:',
    ...shown.filter((key) => fixtures[key]).map((key) => `    ${key.padEnd(width)}  ${fixtures[key]}`),
    `  More: ${devnetUrl}/__devnet/fixtures`,
  ].join('\n');
}

let config: ReturnType<typeof configFromEnv>;
try {
  config = configFromEnv();
} catch (error) {
  // A setting's mistake is the person's to fix: its message names the variable and what it expects; a stack adds nothing.
  logger.fatal(`chaingraph did not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

// A signal while the server starts (during its warm-up, say) ends the warm-up at once; the server then
// shuts down as it does for a signal once running (below), draining what it already serves.
const starting = new AbortController();
let signalWhileStarting: NodeJS.Signals | undefined;
const onSignalWhileStarting = (signal: NodeJS.Signals): void => {
  signalWhileStarting ??= signal;
  starting.abort();
};
process.on('SIGINT', onSignalWhileStarting);
process.on('SIGTERM', onSignalWhileStarting);

try {
  const running = await startServer(config, logger, { warmUp: true, signal: starting.signal });
  // Announced whatever the log level, so the URL is easy to spot (and a script can wait for it): plain text
  // for a person at a terminal, else one JSON line of pino's form, so JSON logs stay JSON lines only.
  // Not "running" as if all were well while an upstream does not answer: the start-up probe's findings come first.
  const but = running.notAnswering.length > 0 ? `, but: ${running.notAnswering.map((failure) => failure.message).join(' ')} Then` : '';
  if (pretty) {
    console.log(`\n  chaingraph is running${but}: open ${running.url}\n`);
    if (running.devnet) console.log(`${fixtureLines(running.devnet.dataset.fixtures().mainnet, running.devnet.url)}\n`);
  } else {
    const devnet = running.devnet ? { devnet: running.devnet.url, fixtures: running.devnet.dataset.fixtures().mainnet } : {};
    const notAnswering = running.notAnswering.length > 0 ? { notAnswering: running.notAnswering } : {};
    console.log(JSON.stringify({ level: running.notAnswering.length > 0 ? 40 : 30, time: Date.now(), msg: `chaingraph is running${but}: open ${running.url}`, url: running.url, ...devnet, ...notAnswering }));
  }
  let firstSignalAt: number | undefined;
  // SIGTERM or SIGINT, to node or to `npm start` (whose script execs node, so npm's forwarding reaches
  // it): drain, then exit 0; 1 when requests had to be aborted (grace over, or a second signal).
  const onSignal = (signal: NodeJS.Signals): void => {
    const now = performance.now();
    if (firstSignalAt === undefined) {
      firstSignalAt = now;
      logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: draining requests in flight');
      setTimeout(() => {
        logger.error('shutdown did not finish: exiting');
        process.exit(1);
      }, config.shutdownGraceMs + CLOSE_MARGIN_MS).unref();
      running.close().then(
        (result) => {
          if (result === 'forced') logger.warn('shutdown aborted the requests still in flight');
          else logger.info('shut down cleanly');
          process.exit(result === 'drained' ? 0 : 1);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    } else if (now - firstSignalAt >= DUPLICATE_SIGNAL_MS) {
      logger.warn({ signal }, 'second signal: aborting the requests still in flight');
      running.forceClose();
    }
  };
  process.off('SIGINT', onSignalWhileStarting);
  process.off('SIGTERM', onSignalWhileStarting);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (signalWhileStarting) onSignal(signalWhileStarting);
} catch (error) {
  logger.fatal({ err: error }, 'chaingraph failed to start');
  process.exit(1);
}
