/**
 * Reading what the shapes do not describe: the error bodies of failed calls (whose
 * defaults come from the HTTP status) and the container test of a health report
 * (a 503 that carries one is an answer, not a failure). Successful answers are read
 * through their shapes (`src/shapes/read.ts`), which accept the spec's variant forms.
 */
import { STATUS_CODES } from 'node:http';
import * as v from 'valibot';
import { SHAPES, type ErrorBody, type HealthReport } from '../shapes/index.ts';

type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * Reads an error answer as the seed's error body. Accepts `message` as a string
 * or a list of strings (the spec's form, kept as is: `errorBodyMessage` joins it),
 * and fills `statusCode` / `error` from the HTTP status when a server leaves them
 * out. Anything without a message or an error text is not an error body.
 */
export function normalizeErrorBody(raw: unknown, status: number): ErrorBody | undefined {
  if (!isObject(raw)) return undefined;
  const fields = SHAPES.ErrorBody.entries;
  const message = v.safeParse(fields.message, raw.message);
  const error = v.safeParse(fields.error, raw.error);
  const statusCode = v.safeParse(fields.statusCode, raw.statusCode);
  const errorText = error.success ? error.output : undefined;
  if (!message.success && errorText === undefined) return undefined;
  return {
    message: message.success ? message.output : (errorText ?? ''),
    statusCode: statusCode.success ? statusCode.output : status,
    error: errorText ?? statusText(status),
  };
}

/** True when the value has the `{checks, healthy}` container of a health report (its checks are read by its shape). */
export function isHealthReport(value: unknown): value is HealthReport {
  return isObject(value) && typeof value.healthy === 'boolean' && isObject(value.checks);
}
