import pino from 'pino';
import { configFromEnv } from './config.ts';
import { startServer } from './server.ts';

const logger = pino({ level: process.env['LOG_LEVEL'] ?? 'info' });

try {
  const running = await startServer(configFromEnv(), logger);
  // Plain line too, so the URL is easy to spot among JSON logs.
  console.log(`\n  chaingraph is running: open ${running.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  logger.fatal({ err: error }, 'chaingraph failed to start');
  process.exit(1);
}
