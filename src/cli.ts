import pino from 'pino';
import { configFromEnv } from './config.ts';
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
const pretty = (process.env['LOG_FORMAT'] ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
const logger = pino(
  { level: process.env['LOG_LEVEL'] ?? 'info' },
  pretty ? pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }) : undefined,
);

/** The devnet's sample ids, printed so the README's examples (which use them) can be run and varied. */
function fixtureLines(fixtures: Record<string, string>, devnetUrl: string): string {
  const shown = ['nodeId', 'subnetId', 'evmChainId', 'address', 'txHash', 'pChainAddress', 'operationId'];
  const width = Math.max(...shown.map((key) => key.length));
  return [
    '  On the built-in devnet (simulated data). Mainnet ids with data behind them, as the README examples use them:',
    ...shown.filter((key) => fixtures[key]).map((key) => `    ${key.padEnd(width)}  ${fixtures[key]}`),
    `  More: ${devnetUrl}/__devnet/fixtures`,
  ].join('\n');
}

try {
  const config = configFromEnv();
  const running = await startServer(config, logger);
  // Plain line too, so the URL is easy to spot among JSON logs.
  console.log(`\n  chaingraph is running: open ${running.url}\n`);
  if (running.devnet) console.log(`${fixtureLines(running.devnet.dataset.fixtures().mainnet, running.devnet.url)}\n`);
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
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
} catch (error) {
  logger.fatal({ err: error }, 'chaingraph failed to start');
  process.exit(1);
}
