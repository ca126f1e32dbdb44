/**
 * `Buffer.from(JSON.stringify(value))`, byte for byte, made in pieces with a pause between them: one
 * `JSON.stringify` of a 3 MB result holds the event loop for tens of milliseconds on a loaded machine,
 * and its UTF-8 encoding as long again. Large plain objects and arrays are walked here; every piece
 * of some tens of KB is handed to `JSON.stringify` whole (its native fast path), and the text is
 * encoded into one buffer piece by piece. A small value is one `JSON.stringify` and one encoding, as before.
 * Sizing a piece reads the values of the plain objects in it, so a getter on one of them runs more than
 * once (JSON.stringify reads it once): GraphQL results are plain data and hold none.
 */

/** Pieces are about this many weight units (see {@link weigh}): some tens of KB of JSON, well under a millisecond to make. */
const PIECE_WEIGHT = 4096;
/**
 * A value lighter than this is serialized by one `JSON.stringify` (some hundred KB of JSON, about a
 * millisecond: well within the loop's slice); walking it in pieces costs more than it spares.
 */
const AT_ONCE_WEIGHT = 4 * PIECE_WEIGHT;
/** Text is encoded to UTF-8 in runs of at least this many characters. */
const ENCODE_CHARS = 64 * 1024;

type Pause = () => Promise<void> | undefined;

/**
 * Whether `value` is walked here: a plain array, or an object whose prototype is Object's or none
 * (what GraphQL executors build), without its own `toJSON`. Anything else is given to `JSON.stringify`.
 */
function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) return proto === Array.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * A rough size of `value`, counted until `cap`: one per value, plus a unit per 32 characters of a
 * string. Stops at `cap`, so asking costs at most `cap` steps.
 */
function weigh(value: unknown, cap: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total < cap) {
    const next = stack.pop();
    total += 1;
    if (typeof next === 'string') total += next.length >> 5;
    else if (isPlainContainer(next)) {
      // Never more on the stack than the cap: past it, the count reaches the cap anyway.
      if (Array.isArray(next)) for (let i = 0; i < next.length && stack.length < cap; i++) stack.push(next[i]);
      else for (const key in next) if (stack.length < cap) stack.push(next[key]);
    }
  }
  return total;
}

/**
 * One property's (or element's) JSON text as `JSON.stringify` writes it inside its holder: undefined
 * when it writes nothing (undefined, a function, a symbol, a `toJSON` answering one of those), null when
 * it is a large plain container, to be walked.
 */
function memberText(value: unknown, key: string): string | undefined | null {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) as string | undefined;
  if (isPlainContainer(value)) return weigh(value, PIECE_WEIGHT) >= PIECE_WEIGHT ? null : JSON.stringify(value);
  // Any other object through a holder, so that its `toJSON` is called with the key it would see in place.
  const text = JSON.stringify({ [key]: value });
  if (text === '{}') return undefined;
  return text.slice(JSON.stringify(key).length + 2, -1);
}

/** Appends JSON text to a list of UTF-8 buffers, encoding in runs of {@link ENCODE_CHARS}. */
class Utf8Sink {
  readonly chunks: Buffer<ArrayBuffer>[] = [];
  bytes = 0;
  private pending: string[] = [];
  private pendingChars = 0;

  write(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= ENCODE_CHARS) this.flush();
  }

  /** Encodes what is pending. Pieces are whole JSON values or punctuation, so a surrogate pair is never split. */
  flush(): void {
    if (this.pendingChars === 0) return;
    const chunk = Buffer.from(this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join(''), 'utf8');
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.pending = [];
    this.pendingChars = 0;
  }

  result(): Buffer<ArrayBuffer> {
    this.flush();
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer<ArrayBuffer>) : Buffer.concat(this.chunks, this.bytes);
  }
}

/**
 * Walks a large container, writing its JSON text to `sink`: its small members are written whole by
 * `JSON.stringify`, its large ones walked in turn, with `pause()` asked after each member.
 */
async function writeContainer(value: Record<string, unknown> | unknown[], sink: Utf8Sink, pause: Pause, ancestors: Set<object>): Promise<void> {
  if (ancestors.has(value)) throw new TypeError('Converting circular structure to JSON');
  ancestors.add(value);
  const isArray = Array.isArray(value);
  const keys = isArray ? undefined : Object.keys(value);
  const count = keys ? keys.length : (value as unknown[]).length;
  sink.write(isArray ? '[' : '{');
  let written = 0;
  for (let i = 0; i < count; i++) {
    const key = keys ? (keys[i] as string) : String(i);
    const child = keys ? (value as Record<string, unknown>)[key] : (value as unknown[])[i];
    const text = memberText(child, key);
    // A property that writes nothing is left out; such an element is `null`.
    if (text === undefined && keys) continue;
    if (written > 0) sink.write(',');
    written += 1;
    if (keys) sink.write(`${JSON.stringify(key)}:`);
    if (text === null) await writeContainer(child as Record<string, unknown> | unknown[], sink, pause, ancestors);
    else sink.write(text ?? 'null');
    const paused = pause();
    if (paused) await paused;
  }
  sink.write(isArray ? ']' : '}');
  ancestors.delete(value);
}

/**
 * The UTF-8 bytes of `JSON.stringify(value)` (which must not be undefined), identical to
 * `Buffer.from(JSON.stringify(value))`. A value of less than {@link AT_ONCE_WEIGHT} is serialized at once
 * and returned as is; a larger one is made in pieces, asking `pause()` between them, and comes back as a promise.
 * Throws what `JSON.stringify` throws (a cycle, a BigInt).
 */
export function serializeJson(value: unknown, pause: Pause): Buffer<ArrayBuffer> | Promise<Buffer<ArrayBuffer>> {
  if (!isPlainContainer(value) || weigh(value, AT_ONCE_WEIGHT) < AT_ONCE_WEIGHT) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new TypeError('serializeJson: the value has no JSON text');
    return Buffer.from(text, 'utf8');
  }
  const sink = new Utf8Sink();
  return writeContainer(value, sink, pause, new Set()).then(() => sink.result());
}
