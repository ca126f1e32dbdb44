import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFromEnv, gatewayOptionsFrom } from '../../src/server/config.ts';
import { ConfigError, readSetting, secretsFromEnv, SETTINGS, withSettingsTable, type Setting, type SettingName } from '../../src/server/settings.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const rows = Object.entries(SETTINGS) as [SettingName, Setting<unknown>][];

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

/** The error `fn` throws (it must throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('the settings table', () => {
  it('is what docs/configuration.md shows (run `npm run config:docs` when this fails)', () => {
    const docs = readFileSync(join(root, 'docs/configuration.md'), 'utf8');
    expect(withSettingsTable(docs)).toBe(docs);
  });

  it('has a row for every variable the process reads, and every row is read', () => {
    const files = [...sources('src/server'), ...sources('src/gateway')].filter((file) => !file.endsWith('settings.ts'));
    const read = new Set<string>();
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const match of text.matchAll(/env\[['"]([A-Z0-9_]+)['"]\]|env\.([A-Z0-9_]+)\b|readSetting\([^,]+,\s*'([A-Z0-9_]+)'\)|\bs\.([A-Z0-9_]+)\b/g)) {
        read.add(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
      }
    }
    const names = new Set<string>(rows.map(([name]) => name));
    expect([...read].filter((name) => !names.has(name)), 'read but not in the table').toEqual([]);
    expect(rows.filter(([name, row]) => !read.has(name) && !row.readBy).map(([name]) => name), 'in the table but read nowhere').toEqual([]);
    const scripts = readFileSync(join(root, 'package.json'), 'utf8');
    expect(scripts).toContain('GATEWAY_HEAP_MB');
  });

  it('describes every row, and an unset or empty variable gives its default', () => {
    for (const [name, row] of rows) {
      expect(row.description.length, name).toBeGreaterThan(10);
      expect(row.defaultText, name).not.toBe('');
      expect(readSetting({}, name), name).toEqual(row.fallback);
      expect(readSetting({ [name]: '' }, name), name).toEqual(row.fallback);
    }
  });

  it('refuses a bad value with a ConfigError naming the variable and what it expects', () => {
    const url = thrown(() => configFromEnv({ DATA_API_URL: '127.0.0.1:4899' }));
    expect(url).toBeInstanceOf(ConfigError);
    expect(url.message).toMatch(/^DATA_API_URL: "127\.0\.0\.1:4899" is not a valid URL \(expected e\.g\. http/);
    for (const [env, message] of [
      [{ PORT: '70000' }, /^PORT must be a port number \(0 to 65535\), got "70000"/],
      [{ MAX_BODY_BYTES: '0' }, /^MAX_BODY_BYTES must be an integer of at least 1, got "0"/],
      [{ TOPIC_LEASE_TTL_MS: '1.5' }, /^TOPIC_LEASE_TTL_MS must be an integer of at least 300/],
      [{ MAX_QUERY_COST: '-1' }, /^MAX_QUERY_COST must be a number above 0, got "-1"/],
      [{ RATE_LIMIT_RPS: 'fast' }, /^RATE_LIMIT_RPS must be a number above 0 \(or 0 for off\)/],
      [{ CACHE: 'disk' }, /^CACHE must be memory, redis or off, got "disk"/],
      [{ APQ: 'yes' }, /^APQ must be on or off, got "yes"/],
      [{ CORS_CREDENTIALS: 'yes' }, /^CORS_CREDENTIALS must be true or false/],
      [{ CACHE: 'redis' }, /^CACHE=redis needs REDIS_URL/],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/],
    ] as const) {
      const error = thrown(() => configFromEnv(env));
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(message);
    }
  });

  it('never repeats a secret in its error, and lists every secret for the logger', () => {
    const error = thrown(() => configFromEnv({ CURSOR_SECRET: 'too-short-secret-value' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/^CURSOR_SECRET entry 1 is shorter than 32/);
    expect(error.message).not.toContain('too-short-secret-value');
    for (const [name, row] of rows.filter(([, row]) => row.secret)) {
      expect(secretsFromEnv({ [name]: 'hunter2hunter2' }), name).toContain('hunter2hunter2');
      expect(row.secretsOf, name).toBeDefined();
    }
  });
});

describe('gatewayOptionsFrom', () => {
  it('gives the documented limits by default', () => {
    const options = gatewayOptionsFrom(configFromEnv({}));
    expect(options).toMatchObject({
      apiKeyHeader: 'x-service-api-key',
      maxQueryCost: 500,
      maxValidationComplexity: 2000,
      requestLimits: { maxBodyBytes: 1024 * 1024 },
      maxResponseBytes: 8 * 1024 * 1024,
      responseCache: { maxBytes: 8 * 1024 * 1024 },
      persistedDocuments: { apq: { maxBytes: 4 * 1024 * 1024 }, onlyPersisted: false },
      metrics: { maxOperationNames: 100 },
      admission: { maxConcurrent: 32, maxQueued: 64, maxWaitMs: 2000, maxSubscriptions: 100, maxBodyBytesInFlight: 32 * 1024 * 1024, clients: { apiKeyHeader: 'x-service-api-key', trustProxy: 0 } },
      readyProbeIntervalMs: 5000,
      cors: { origins: '*', credentials: false },
      allowFormPosts: false,
    });
    for (const key of ['rateLimit', 'tracing', 'shutdownSignal', 'compiledExecution', 'adminToken', 'cursorSecrets', 'onUpstreamError'] as const) {
      expect(options[key], key).toBeUndefined();
    }
  });

  it('maps the settings once each, and is pure', () => {
    const config = configFromEnv({ RATE_LIMIT_RPS: '5', TRUST_PROXY: '1', COMPILED_EXECUTION: 'off', CACHE: 'off', MAX_BODY_BYTES: '2048', ADMIN_TOKEN: 'admin-token' });
    const options = gatewayOptionsFrom(config);
    expect(options).toMatchObject({ rateLimit: { rps: 5, trustProxy: 1, maxClients: 10_000 }, compiledExecution: false, requestLimits: { maxBodyBytes: 2048 }, adminToken: 'admin-token' });
    expect(options.responseCache).toBeUndefined();
    expect(options.secrets).toContain('admin-token');
    expect(gatewayOptionsFrom(config)).toEqual(options);
    const signal = new AbortController().signal;
    expect(gatewayOptionsFrom(config, { tracing: true, shutdownSignal: signal })).toMatchObject({ tracing: true, shutdownSignal: signal });
  });
});
