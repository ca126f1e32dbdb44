/**
 * Reading what the shapes do not describe: the error bodies of failed calls (whose
 * defaults come from the HTTP status) and the container test of a health report
 * (a 503 that carries one is an answer, not a failure). Successful answers are read
 * through their shapes (`src/shapes/read.ts`), which accept the spec's variant forms.
 */
import { STATUS_CODES } from 'node:http';
import * as v from 'valibot';
import { SHAPES, type ErrorBody, type HealthReport } from '../shapes/index.ts';
import { excerpt, URL_REDACTOR, type Redactor } from '../lib/redact.ts';

type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * Reads an error answer as the seed's error body. Accepts `message` as a string
 * or a list of strings (the spec's form, kept as a list: `errorBodyMessage` joins it),
 * and fills `statusCode` / `error` from the HTTP status when a server leaves them
 * out. Anything without a message or an error text is not an error body. The texts
 * are kept only as excerpts (`src/lib/redact.ts`: controls removed, `redactor`'s
 * secrets hidden, at most 200 characters each, `error` 100, the first 10 of a list),
 * since they end up in GraphQL errors and logs.
 */
export function normalizeErrorBody(raw: unknown, status: number, redactor: Redactor = URL_REDACTOR): ErrorBody | undefined {
  if (!isObject(raw)) return undefined;
  const fields = SHAPES.ErrorBody.entries;
  const message = v.safeParse(fields.message, raw.message);
  const error = v.safeParse(fields.error, raw.error);
  const statusCode = v.safeParse(fields.statusCode, raw.statusCode);
  const errorText = error.success ? error.output : undefined;
  if (!message.success && errorText === undefined) return undefined;
  const cut = (text: string | undefined): string => excerpt(text, redactor) ?? '';
  return {
    message: message.success ? (Array.isArray(message.output) ? message.output.slice(0, 10).map(cut) : cut(message.output)) : cut(errorText),
    statusCode: statusCode.success ? statusCode.output : status,
    error: excerpt(errorText, redactor, 100) ?? statusText(status),
  };
}

/** True when the value has the `{checks, healthy}` container of a health report (its checks are read by its shape). */
export function isHealthReport(value: unknown): value is HealthReport {
  return isObject(value) && typeof value.healthy === 'boolean' && isObject(value.checks);
}
