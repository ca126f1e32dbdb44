import type { DevnetResponse } from './http-types.ts';
import { sparseAnswer } from './sparse.ts';

/** What the spec form of an answer depends on besides its body: its operation (`"GET /v1/..."`) and the devnet's seed. */
export interface SpecFormContext {
  route: string;
  seed: number;
}

/**
 * The Data API's answers in the form the real spec gives them, where the seed's differs.
 *
 * The dataset is built in the gateway's own types (`src/shapes`), which keep a `Money` value
 * (`price`, `balanceValue`, `currentPrice`, `historicalPrice`, ...) as the seed writes it: a decimal
 * string. The public spec types `Money.value` as a JSON number, and that is what the real API sends,
 * so the devnet writes every Money object (`currencyCode` and `value`, nothing else) with its value as
 * a number. The gateway reads either form (`priceValue` in `src/shapes/kit.ts`).
 *
 * And the dataset fills every field, where real answers leave optional ones out now and then and answer
 * an enum's `UNKNOWN` where their indexer could not tell: `sparse.ts` does both, per record, so a
 * success answer is written as a real one would be.
 */
export function inSpecForm<A extends Pick<DevnetResponse, 'status' | 'body' | 'contentType'>>(answer: A, context: SpecFormContext): A {
  // Text, bytes and empty answers are sent as they are; only JSON bodies are rewritten.
  if (answer.contentType !== undefined || answer.body === undefined) return answer;
  const body = moneyAsNumber(answer.body);
  const success = answer.status >= 200 && answer.status <= 299;
  return { ...answer, body: success ? sparseAnswer(context.route, answer.status, body, context.seed) : body };
}

function moneyAsNumber(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(moneyAsNumber);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (isMoney(record)) return { currencyCode: record['currencyCode'], value: Number(record['value']) };
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) out[key] = moneyAsNumber(item);
  return out;
}

/** A Money object as the dataset builds it: exactly `currencyCode` and a decimal string `value`. */
function isMoney(record: Record<string, unknown>): boolean {
  const keys = Object.keys(record);
  return (
    keys.length === 2 &&
    typeof record['currencyCode'] === 'string' &&
    typeof record['value'] === 'string' &&
    /^\d+(\.\d+)?$/.test(record['value'])
  );
}
