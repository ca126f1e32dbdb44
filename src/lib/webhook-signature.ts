/**
 * How a Data API webhook delivery is signed: the one place that says it, used by the gateway to
 * check deliveries and by the devnet to sign them.
 *
 * The public docs say a delivery carries an `x-signature` header, an HMAC-SHA256 keyed with the
 * account's shared secret (`GET /v1/webhooks:getSharedSecret`) over the canonicalized JSON payload.
 * They do not define the canonical form nor the digest's encoding. Assumed here: RFC 8785 (JSON
 * Canonicalization Scheme: keys sorted by UTF-16 code units, no whitespace, numbers in their
 * shortest form), and a lowercase hex digest. Should the real form differ, this file is all that
 * changes.
 *
 * Signing uses the `canonicalize` package (the devnet's deliveries, and the reference). The gateway
 * verifies with {@link verifyWebhookSignatureInSlices}, the same form written by a walker of its own in
 * slices of a few KB, each fed to the HMAC, with a turn of the event loop between them: a 256 KB body
 * of tiny values takes tens of ms to canonicalize in one go, which no request behind it should wait
 * for. test/lib/webhook-signature.test.ts holds the two forms equal.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import canonicalize from 'canonicalize';

/** The header a delivery's signature travels in. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-signature';

/** The signature of a payload (the parsed JSON body) under `secret`. */
export function signWebhookPayload(secret: string, payload: unknown): string {
  const canonical = canonicalize(payload);
  if (canonical === undefined) throw new TypeError('a webhook payload must be JSON');
  return createHmac('sha256', secret).update(canonical, 'utf8').digest('hex');
}

/** Whether a header's value has a signature's form (64 hex digits): what is checked before a body is read. */
export function isWebhookSignature(signature: string | null | undefined): signature is string {
  return typeof signature === 'string' && /^[0-9a-fA-F]{64}$/.test(signature);
}

/** True when `signature` (the header's value) signs `payload` under `secret`; compared in constant time. */
export function verifyWebhookSignature(secret: string, payload: unknown, signature: string | undefined): boolean {
  if (!isWebhookSignature(signature)) return false;
  let expected: string;
  try {
    expected = signWebhookPayload(secret, payload);
  } catch {
    return false;
  }
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(signature.toLowerCase(), 'hex'));
}

/** Canonical text fed to the HMAC per slice, characters: a slice of the densest JSON (tiny numbers) is well under a ms. */
export const CANONICAL_SLICE_CHARS = 8192;

/**
 * {@link verifyWebhookSignature} over `payload` as `JSON.parse` made it, in slices: the canonical form is
 * written {@link CANONICAL_SLICE_CHARS} at a time into the HMAC, and `pause` (default: the next turn of the
 * event loop) is awaited between slices. Neither the whole canonical text nor a recursion as deep as the
 * payload is ever held.
 */
export async function verifyWebhookSignatureInSlices(
  secret: string,
  payload: unknown,
  signature: string | undefined,
  pause: () => Promise<unknown> = () => nextTurn(),
): Promise<boolean> {
  if (!isWebhookSignature(signature)) return false;
  const hmac = createHmac('sha256', secret);
  try {
    for (const slice of canonicalSlices(payload)) {
      hmac.update(slice, 'utf8');
      await pause();
    }
  } catch {
    return false;
  }
  return timingSafeEqual(hmac.digest(), Buffer.from(signature, 'hex'));
}

interface ArrayFrame {
  readonly items: readonly unknown[];
  next: number;
}
interface ObjectFrame {
  readonly object: Readonly<Record<string, unknown>>;
  readonly keys: readonly string[];
  next: number;
  written: number;
}

/**
 * RFC 8785 text of a JSON value (as `JSON.parse` makes it: null, booleans, finite numbers, strings,
 * arrays, plain objects) in slices of about `sliceChars`, as the `canonicalize` package writes it whole:
 * keys sorted by UTF-16 code units, members whose value is undefined left out, numbers and strings as
 * `JSON.stringify` writes them. Throws, as it does, on a lone surrogate and on a number that is not finite.
 * Iterative: any depth of nesting takes no stack.
 */
export function* canonicalSlices(value: unknown, sliceChars = CANONICAL_SLICE_CHARS): Generator<string, void, undefined> {
  const frames: (ArrayFrame | ObjectFrame)[] = [];
  let out = '';
  let pending: unknown = value;
  let hasPending = true;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      if (Array.isArray(pending)) {
        out += '[';
        frames.push({ items: pending, next: 0 });
      } else if (pending !== null && typeof pending === 'object') {
        out += '{';
        const object = pending as Record<string, unknown>;
        frames.push({ object, keys: Object.keys(object).sort(), next: 0, written: 0 });
      } else {
        out += primitive(pending);
      }
    }
    const top = frames.at(-1);
    if (top === undefined) break;
    if ('items' in top) {
      if (top.next < top.items.length) {
        if (top.next > 0) out += ',';
        const item = top.items[top.next++];
        pending = item === undefined || typeof item === 'symbol' ? null : item;
        hasPending = true;
      } else {
        out += ']';
        frames.pop();
      }
    } else {
      let key: string | undefined;
      while (top.next < top.keys.length && key === undefined) {
        const candidate = top.keys[top.next++] as string;
        const member = top.object[candidate];
        if (member !== undefined && typeof member !== 'symbol') key = candidate;
      }
      if (key !== undefined) {
        out += `${top.written++ > 0 ? ',' : ''}${primitive(key)}:`;
        pending = top.object[key];
        hasPending = true;
      } else {
        out += '}';
        frames.pop();
      }
    }
    if (out.length >= sliceChars) {
      yield out;
      out = '';
    }
  }
  if (out !== '') yield out;
}

/** A surrogate not in a pair (a `u` regular expression sees a pair as one code point). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function primitive(value: unknown): string {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) throw new Error('Lone surrogate is not allowed');
    return JSON.stringify(value);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('a number that is not finite is not JSON');
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  throw new TypeError(`${typeof value} is not JSON`);
}
