import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { secretsFromEnv } from '../../src/server/config.ts';
import { createRedactor, excerpt, EXCERPT_MAX_LENGTH, REDACTED, redactingLogOptions, urlSecrets } from '../../src/lib/redact.ts';

// A key with characters every encoding treats differently: `+` (a space in forms), `/`, `=`.
const KEY = 'srvKey+9f8e7d6c/5b4a3210=';

describe('createRedactor', () => {
  const redactor = createRedactor([KEY, undefined, '']);

  it('hides a secret as is, percent-encoded in whole or in part (either hex case) and JSON-escaped', () => {
    const lowercase = encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    const partly = KEY.replace('+', '%2B');
    for (const form of [KEY, encodeURIComponent(KEY), lowercase, partly, JSON.stringify(KEY).slice(1, -1)]) {
      const text = `Invalid API key ${form} (check it)`;
      expect(redactor.redact(text), form).toBe(`Invalid API key ${REDACTED} (check it)`);
    }
  });

  it('hides JSON-escaped and form-encoded forms of a secret with quotes, backslashes and spaces', () => {
    const odd = createRedactor(['a "quoted" s\\ecret']);
    expect(odd.redact(JSON.stringify({ message: 'got a "quoted" s\\ecret' }))).toBe(`{"message":"got ${REDACTED}"}`);
    expect(odd.redact('got a+%22quoted%22+s%5Cecret!')).toBe(`got ${REDACTED}!`);
  });

  it('hides the credentials of any URL: user info and query parameters named like a key', () => {
    const text = 'GET https://user:pa55@node.example/rpc?apiKey=abc123&page=2&x-amz-signature=f00 and redis://:hunter2@cache:6379';
    expect(URL_ONLY.redact(text)).toBe(`GET https://${REDACTED}@node.example/rpc?apiKey=${REDACTED}&page=2&x-amz-signature=${REDACTED} and redis://${REDACTED}@cache:6379`);
  });

  it('returns the text itself when there is nothing to hide', () => {
    const text = 'The Data API failed on GET /v1/chains (HTTP 500)';
    expect(redactor.redact(text)).toBe(text);
    expect(URL_ONLY.redact(text)).toBe(text);
  });

  it('adds a request\'s own key, and is itself when nothing is new', () => {
    const caller = 'caller-key-0123456789';
    expect(redactor.with([undefined]).redact(caller)).toBe(caller);
    expect(redactor.with([KEY])).toBe(redactor);
    expect(redactor.with([caller]).redact(`${caller} ${KEY}`)).toBe(`${REDACTED} ${REDACTED}`);
  });
});

const URL_ONLY = createRedactor();

describe('excerpt', () => {
  it('removes controls and bidirectional overrides, so an echo can neither forge lines nor split a secret', () => {
    expect(excerpt('line one\r\nfake: line\u0000two\u202e', URL_ONLY)).toBe('line one fake: linetwo');
    expect(excerpt(`key ${KEY.slice(0, 5)}\u0000\u0007${KEY.slice(5)}`, createRedactor([KEY]))).toBe(`key ${REDACTED}`);
    expect(excerpt(' \u0001 ', URL_ONLY)).toBeUndefined();
  });

  it('redacts before it cuts, so a secret across the cut is never half shown', () => {
    const text = `${'x'.repeat(EXCERPT_MAX_LENGTH - 5)}${KEY} and more`;
    const cut = excerpt(text, createRedactor([KEY])) ?? '';
    expect(cut.length).toBe(EXCERPT_MAX_LENGTH + 1);
    expect(cut).not.toContain(KEY.slice(0, 5));
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('secrets of the settings', () => {
  it('are the keys, tokens, cursor secrets, OTLP header values and URL credentials', () => {
    const secrets = secretsFromEnv({
      DATA_API_KEY: 'dk',
      ADMIN_TOKEN: 'at',
      CURSOR_SECRET: 'c1, c2',
      METRICS_TOKEN: 'mt',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20otlp',
      NODE_URLS: 'a=http://u:np@h:1,b=http://h:2',
      REDIS_URL: 'redis://:rp@r:6379',
      DATA_API_URL: 'https://data.example',
    });
    expect(new Set(secrets)).toEqual(new Set(['dk', 'at', 'c1', 'c2', 'mt', 'Bearer otlp', 'u', 'np', 'rp']));
    expect(urlSecrets('not a url', undefined)).toEqual([]);
  });
});

describe('redactingLogOptions', () => {
  it('hides the secrets from every part of a pino line: message, fields, err.message and err.stack', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ level: 'info', ...redactingLogOptions(createRedactor([KEY, 'admin-token-1234'])) }, sink);
    const error = new Error(`upstream said: Invalid API key ${encodeURIComponent(KEY)}`, { cause: new Error('token admin-token-1234') });
    logger.warn({ err: error, header: KEY, nested: { url: 'http://x/?token=abc' } }, `failed with ${KEY}`);
    const line = lines.join('');
    expect(line).toContain(REDACTED);
    for (const secret of [KEY, encodeURIComponent(KEY), 'admin-token-1234', 'token=abc']) expect(line).not.toContain(secret);
    // Still one JSON line.
    expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
