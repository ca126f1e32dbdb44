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
 *       8 utf-16    varint count, 2 bytes (little-endian) per code unit: text with a lone surrogate
 *       9 digest    32 bytes: SHA-256 of a part over {@link MAX_INLINE_PART_BYTES} (see {@link DigestPart})
 * ```
 *
 * A primary-network validator id is 76 characters this way, over 200 as base64url JSON. The form is
 * canonical: {@link decodeCompactId} accepts only the exact text
 * {@link encodeCompactId} makes for what it decodes to, so an object has one id.
 * Family codes are 1..63; the first byte of the older JSON form is `[` (91), so the
 * two forms never overlap.
 *
 * Any part value can be written: parts are read from upstream answers, which may hold any string
 * the spec allows (empty, separators, `%`, emoji, lone surrogates, kilobytes). Every one either
 * round-trips exactly or, when longer than {@link MAX_INLINE_PART_BYTES}, is replaced by its
 * digest, so an id is never longer than {@link maxCompactIdLength} and always decodes.
 */
import { createHash } from 'node:crypto';
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
  Utf16 = 8,
  Digest = 9,
}

/**
 * Longest part written as itself, bytes (UTF-8, or 2 per code unit for text with a lone surrogate):
 * longer than any value an id grammar accepts (128 characters), so a part replaced by its digest
 * could not have been refetched anyway.
 */
export const MAX_INLINE_PART_BYTES = 128;

/**
 * A part too long to carry in an id: its SHA-256 stands for it, so the id stays short and names
 * one object, but the value cannot be read back. `node(id:)` answers null for such an id.
 */
export class DigestPart {
  constructor(
    /** The SHA-256, lower-case hex. */
    readonly sha256: string,
  ) {}
}

/** One local part of an id as {@link encodeCompactId} takes it (null and undefined are written as empty text). */
export type CompactIdPart = string | number | DigestPart | null | undefined;

/** The digest that stands for `part` when it is over {@link MAX_INLINE_PART_BYTES} (see {@link DigestPart}). */
export function digestPart(part: string): DigestPart {
  const utf16 = LONE_SURROGATE.test(part);
  return new DigestPart(digestOf(textBytes(part, utf16), utf16).toString('hex'));
}

// Lone surrogates only: in a `u` pattern a well-formed pair is one code point and does not match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** A text part's bytes: UTF-8, or UTF-16LE for text UTF-8 cannot carry (a lone surrogate: UTF-8 would replace it). */
function textBytes(part: string, utf16: boolean): Buffer {
  return Buffer.from(part, utf16 ? 'utf16le' : 'utf8');
}

/** SHA-256 of a part's bytes, behind a byte telling the two encodings apart (equal bytes, different texts). */
function digestOf(bytes: Buffer, utf16: boolean): Buffer {
  return createHash('sha256').update(Buffer.of(utf16 ? 1 : 0)).update(bytes).digest();
}

const NODE_ID_PREFIX = 'NodeID-';
const LOWER_HEX = /^0x(?:[0-9a-f]{2})+$/;
const CANONICAL_UINT = /^(0|[1-9][0-9]{0,15})$/;
const ZERO_ID = encodeCb58(new Uint8Array(32));
// A leading U+FEFF is a part's own character, not a byte-order mark to drop (ignoreBOM keeps it).
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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

function writePart(out: Writer, value: CompactIdPart): void {
  if (value instanceof DigestPart) {
    out.byte(Kind.Digest);
    return out.raw(Buffer.from(value.sha256, 'hex'));
  }
  const part = value == null ? '' : String(value);
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
  const utf16 = LONE_SURROGATE.test(part);
  const bytes = textBytes(part, utf16);
  if (bytes.length > MAX_INLINE_PART_BYTES) {
    out.byte(Kind.Digest);
    return out.raw(digestOf(bytes, utf16));
  }
  if (utf16) {
    out.byte(Kind.Utf16);
    out.varint(part.length);
    return out.raw(bytes);
  }
  out.byte(Kind.Text);
  out.sized(bytes);
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

/** Most local parts of one id (the longest family, Block, has 5). */
export const MAX_COMPACT_ID_PARTS = 6;

/**
 * The compact id of family `code` and these local parts (numbers are written as decimals, null and
 * undefined as empty text). Any values are accepted; at most {@link MAX_COMPACT_ID_PARTS} parts.
 */
export function encodeCompactId(code: number, parts: readonly CompactIdPart[]): string {
  if (!Number.isInteger(code) || code < 1 || code > MAX_FAMILY_CODE) throw new RangeError(`family code ${code} is outside 1..${MAX_FAMILY_CODE}`);
  if (parts.length > MAX_COMPACT_ID_PARTS) throw new RangeError(`an id has at most ${MAX_COMPACT_ID_PARTS} parts, not ${parts.length}`);
  const out = new Writer();
  out.byte(code);
  for (const part of parts) writePart(out, part);
  return out.text();
}

/**
 * Longest compact id of `parts` parts, characters: a part takes at most its kind byte, a two-byte
 * length and {@link MAX_INLINE_PART_BYTES} (a digest takes 33), whatever its value.
 */
export function maxCompactIdLength(parts = MAX_COMPACT_ID_PARTS): number {
  return Math.ceil(((1 + parts * (3 + MAX_INLINE_PART_BYTES)) * 4) / 3);
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

function readPart(input: Reader): string | DigestPart {
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
    case Kind.Utf16: {
      const units = input.varint();
      // Longer text is written as its digest, so a longer count is never canonical.
      if (units * 2 > MAX_INLINE_PART_BYTES) throw new CompactIdError('a part is too long');
      return input.take(units * 2).toString('utf16le');
    }
    case Kind.Digest:
      return new DigestPart(input.take(32).toString('hex'));
    default:
      throw new CompactIdError('an unknown part kind');
  }
}

/**
 * The family code and local parts of a compact id; throws {@link CompactIdError}
 * for anything {@link encodeCompactId} would not have made. The caller bounds the
 * length and checks the text is base64url.
 */
export function decodeCompactId(id: string): { code: number; parts: (string | DigestPart)[] } {
  const input = new Reader(Buffer.from(id, 'base64url'));
  const code = input.byte();
  if (code < 1 || code > MAX_FAMILY_CODE) throw new CompactIdError('an unknown object type');
  const parts: (string | DigestPart)[] = [];
  while (!input.done) {
    if (parts.length === MAX_COMPACT_ID_PARTS) throw new CompactIdError('too many parts');
    parts.push(readPart(input));
  }
  if (encodeCompactId(code, parts) !== id) throw new CompactIdError('not canonical');
  return { code, parts };
}

/** True when `id` (base64url) starts as a compact id does, not as the older base64url JSON form. */
export function isCompactIdText(id: string): boolean {
  // base64url of a first byte below 64 starts with A..P; of `[` (91), with W.
  const first = id.charCodeAt(0);
  return first >= 65 /* A */ && first <= 80 /* P */;
}
