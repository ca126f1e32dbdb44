import { parseNodeUrls } from './upstream/node-client.ts';

/** Everything the gateway reads from the environment (see README, "Configuration"). */
export interface GatewayConfig {
  port: number;
  host: string;
  /** Data API base URL; undefined means "run the built-in devnet". */
  dataApiUrl?: string;
  dataApiKey?: string;
  dataApiKeyHeader: string;
  nodes: { name: string; url: string }[];
  adminToken?: string;
  redisUrl?: string;
  /** `off` serves every read from the upstream (no response cache, no sharing of identical calls). */
  cache: 'memory' | 'redis' | 'off';
  /** Upper bound of estimated upstream calls a query may cost (QUERY_TOO_COSTLY above). */
  maxQueryCost: number;
  logLevel: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = Number(env['PORT'] ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env['PORT']}"`);
  const maxQueryCost = Number(env['MAX_QUERY_COST'] ?? 500);
  if (!Number.isFinite(maxQueryCost) || maxQueryCost <= 0) throw new Error('MAX_QUERY_COST must be a positive number');
  return {
    port,
    host: env['HOST'] ?? '127.0.0.1',
    ...(env['DATA_API_URL'] ? { dataApiUrl: env['DATA_API_URL'] } : {}),
    ...(env['DATA_API_KEY'] ? { dataApiKey: env['DATA_API_KEY'] } : {}),
    dataApiKeyHeader: env['DATA_API_KEY_HEADER'] || 'x-service-api-key',
    nodes: env['NODE_URLS'] ? parseNodeUrls(env['NODE_URLS']) : [],
    ...(env['ADMIN_TOKEN'] ? { adminToken: env['ADMIN_TOKEN'] } : {}),
    ...(env['REDIS_URL'] ? { redisUrl: env['REDIS_URL'] } : {}),
    cache: cacheMode(env['CACHE'], Boolean(env['REDIS_URL'])),
    maxQueryCost,
    logLevel: env['LOG_LEVEL'] ?? 'info',
  };
}

function cacheMode(value: string | undefined, hasRedis: boolean): GatewayConfig['cache'] {
  if (value === undefined || value === '') return hasRedis ? 'redis' : 'memory';
  if (value === 'off' || value === 'memory' || value === 'redis') {
    if (value === 'redis' && !hasRedis) throw new Error('CACHE=redis needs REDIS_URL');
    return value;
  }
  throw new Error(`CACHE must be memory, redis or off, got "${value}"`);
}
