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
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The header a delivery's signature travels in. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-signature';

/** The signature of a payload (the parsed JSON body) under `secret`. */
export function signWebhookPayload(secret: string, payload: unknown): string {
  const canonical = canonicalize(payload);
  if (canonical === undefined) throw new TypeError('a webhook payload must be JSON');
  return createHmac('sha256', secret).update(canonical, 'utf8').digest('hex');
}

/** True when `signature` (the header's value) signs `payload` under `secret`; compared in constant time. */
export function verifyWebhookSignature(secret: string, payload: unknown, signature: string | undefined): boolean {
  if (signature === undefined || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  let expected: string;
  try {
    expected = signWebhookPayload(secret, payload);
  } catch {
    return false;
  }
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(signature.toLowerCase(), 'hex'));
}
