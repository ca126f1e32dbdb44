/**
 * The compact binary form of a Relay global id: a family code, then each local
 * part in the smallest of a few encodings, all in base64url.
 *
 * ```
 * id    = base64url( family-code  part* )
 * part  = kind  payload
 * kind  0 text      varint length, UTF-8 bytes
 *       1 cb58      32 bytes (a cb58 id of 32 bytes: subnet, blockchain, asset, P/X transaction)
 *       2 node id   20 bytes (`NodeID-` + cb58 of 20 bytes)
 *       3 hex       varint length, bytes (`0x` + an even number of lower-case hex digits)
 *       4 uint      varint (a decimal without leading zeros, at most 2^53 - 1)
 *       5 mainnet   -
 *       6 fuji      -
 *       7 zero id   - (cb58 of 32 zero bytes: the primary network's subnet id)
 * ```
 *
 * A primary-network validator id is 76 characters this way, over 200 as base64url JSON. The form is
 * canonical: {@link decodeCompactId} accepts only the exact text
 * {@link encodeCompactId} makes for what it decodes to, so an object has one id.
 * Family codes are 1..63; the first byte of the older JSON form is `[` (91), so the
 * two forms never overlap.
 */
import { decodeCb58, encodeCb58 } from './base58.ts';

/** Largest family code (one byte, kept well below `[`, the first byte of a JSON id). */
export const MAX_FAMILY_CODE = 63;

const enum Kind {
  Text = 0,
  Cb58 = 1,
  NodeId = 2,
  Hex = 3,
  Uint = 4,
  Mainnet = 5,
  Fuji = 6,
  ZeroId = 7,
}

const NODE_ID_PREFIX = 'NodeID-';
const LOWER_HEX = /^0x(?:[0-9a-f]{2})+$/;
const CANONICAL_UINT = /^(0|[1-9][0-9]{0,15})$/;
const ZERO_ID = encodeCb58(new Uint8Array(32));
const UTF8 = new TextDecoder('utf-8', { fatal: true });

class Writer {
  private readonly bytes: number[] = [];
  byte(value: number): void {
    this.bytes.push(value);
  }
  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.bytes.push((rest % 0x80) + 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.bytes.push(rest);
  }
  raw(bytes: Uint8Array): void {
    for (const b of bytes) this.bytes.push(b);
  }
  sized(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.raw(bytes);
  }
  text(): string {
    return Buffer.from(this.bytes).toString('base64url');
  }
}

function writePart(out: Writer, part: string): void {
  if (part === 'mainnet') return out.byte(Kind.Mainnet);
  if (part === 'fuji') return out.byte(Kind.Fuji);
  if (CANONICAL_UINT.test(part) && Number.isSafeInteger(Number(part))) {
    out.byte(Kind.Uint);
    return out.varint(Number(part));
  }
  if (part.length <= 66 && LOWER_HEX.test(part)) {
    out.byte(Kind.Hex);
    return out.sized(Buffer.from(part.slice(2), 'hex'));
  }
  const known = KNOWN_PARTS.get(part) ?? binaryPart(part);
  if (known) {
    out.byte(known.kind);
    return out.raw(known.bytes);
  }
  out.byte(Kind.Text);
  out.sized(Buffer.from(part, 'utf8'));
}

/**
 * cb58 ids and node ids already written, with their bytes: the same validators' and subnets' ids
 * are written on every request, and checking a checksum costs a SHA-256. Only parts that decoded
 * are kept; bounded (starts over when full).
 */
const KNOWN_PARTS = new Map<string, { kind: Kind; bytes: Uint8Array }>();
const MAX_KNOWN_PARTS = 8192;

/**
 * A cb58 id or node id as its bytes, when it is one (checksum included). Base58 is a bijection
 * between texts of its alphabet and byte strings (leading `1`s are leading zero bytes), so bytes
 * that decode with a good checksum write back to exactly this text.
 */
function binaryPart(part: string): { kind: Kind; bytes: Uint8Array } | undefined {
  let found: { kind: Kind; bytes: Uint8Array } | undefined;
  const cb58 = part.length <= 72 ? decodeCb58(part, 32) : undefined;
  if (cb58) found = cb58.every((b) => b === 0) ? { kind: Kind.ZeroId, bytes: new Uint8Array(0) } : { kind: Kind.Cb58, bytes: cb58 };
  else if (part.startsWith(NODE_ID_PREFIX) && part.length <= 60) {
    const nodeId = decodeCb58(part.slice(NODE_ID_PREFIX.length), 20);
    if (nodeId) found = { kind: Kind.NodeId, bytes: nodeId };
  }
  if (found) {
    if (KNOWN_PARTS.size >= MAX_KNOWN_PARTS) KNOWN_PARTS.clear();
    KNOWN_PARTS.set(part, found);
  }
  return found;
}

/** The compact id of family `code` and these local parts (numbers are written as decimals). */
export function encodeCompactId(code: number, parts: readonly (string | number)[]): string {
  if (!Number.isInteger(code) || code < 1 || code > MAX_FAMILY_CODE) throw new RangeError(`family code ${code} is outside 1..${MAX_FAMILY_CODE}`);
  const out = new Writer();
  out.byte(code);
  for (const part of parts) writePart(out, String(part));
  return out.text();
}

/** Why a text is not a compact id (the caller words the error). */
export class CompactIdError extends Error {}

class Reader {
  at = 0;
  constructor(private readonly bytes: Buffer) {}
  get done(): boolean {
    return this.at >= this.bytes.length;
  }
  byte(): number {
    if (this.at >= this.bytes.length) throw new CompactIdError('truncated');
    return this.bytes[this.at++] as number;
  }
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
    throw new CompactIdError('a number is too long');
  }
  take(length: number): Buffer {
    if (length > this.bytes.length - this.at) throw new CompactIdError('truncated');
    const slice = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }
}

function readPart(input: Reader): string {
  const kind = input.byte();
  switch (kind) {
    case Kind.Mainnet:
      return 'mainnet';
    case Kind.Fuji:
      return 'fuji';
    case Kind.Uint:
      return String(input.varint());
    case Kind.Hex:
      return `0x${input.take(input.varint()).toString('hex')}`;
    case Kind.Cb58:
      return encodeCb58(input.take(32));
    case Kind.ZeroId:
      return ZERO_ID;
    case Kind.NodeId:
      return `${NODE_ID_PREFIX}${encodeCb58(input.take(20))}`;
    case Kind.Text:
      try {
        return UTF8.decode(input.take(input.varint()));
      } catch (error) {
        throw error instanceof CompactIdError ? error : new CompactIdError('text that is not UTF-8');
      }
    default:
      throw new CompactIdError('an unknown part kind');
  }
}

/**
 * The family code and local parts of a compact id; throws {@link CompactIdError}
 * for anything {@link encodeCompactId} would not have made. The caller bounds the
 * length and checks the text is base64url.
 */
export function decodeCompactId(id: string): { code: number; parts: string[] } {
  const input = new Reader(Buffer.from(id, 'base64url'));
  const code = input.byte();
  if (code < 1 || code > MAX_FAMILY_CODE) throw new CompactIdError('an unknown object type');
  const parts: string[] = [];
  while (!input.done) parts.push(readPart(input));
  if (encodeCompactId(code, parts) !== id) throw new CompactIdError('not canonical');
  return { code, parts };
}

/** True when `id` (base64url) starts as a compact id does, not as the older base64url JSON form. */
export function isCompactIdText(id: string): boolean {
  // base64url of a first byte below 64 starts with A..P; of `[` (91), with W.
  const first = id.charCodeAt(0);
  return first >= 65 /* A */ && first <= 80 /* P */;
}
