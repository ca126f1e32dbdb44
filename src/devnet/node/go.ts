// How Go writes things. The real node is a Go program, so its wire text (error
// messages, durations, timestamps, sorted keys, joined paths) follows Go's
// formatting; every module that must answer byte for byte like it shares these.
import { posix } from 'node:path';

/** Byte-wise string order, as Go sorts strings and marshals sets and map keys. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Go's %q for strings (close enough: JSON escaping). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's %q for a rune. */
export function goQuoteRune(ch: string): string {
  if (ch === "'") return "'\\''";
  if (ch === '\\') return "'\\\\'";
  const json = JSON.stringify(ch).slice(1, -1);
  return `'${json.replace(/\\"/g, '"')}'`;
}

/** The kind encoding/json names in its unmarshal errors. */
export function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // number, string, object
}

/** Go's path.Join: joined, cleaned, no trailing slash. */
export function goPathJoin(...parts: string[]): string {
  const joined = posix.normalize(parts.filter((p) => p !== '').join('/'));
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/** `YYYY-MM-DDTHH:MM:SS` of the last few seconds asked for (info.peers writes two stamps a peer, all within seconds). */
const secondStamps = new Map<number, string>();

function secondStamp(second: number): string {
  let stamp = secondStamps.get(second);
  if (stamp === undefined) {
    stamp = new Date(second * 1000).toISOString().slice(0, 19);
    if (secondStamps.size >= 64) secondStamps.clear();
    secondStamps.set(second, stamp);
  }
  return stamp;
}

/** RFC 3339 with nanoseconds, trailing zeros trimmed (Go's time.RFC3339Nano), in UTC. */
export function rfc3339Nano(ms: number, extraNs = 0): string {
  const whole = Math.floor(ms);
  const base = secondStamp(Math.floor(whole / 1000));
  const nanos = (((whole % 1000) + 1000) % 1000) * 1_000_000 + Math.floor(extraNs);
  const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
  return `${base}${fraction}Z`;
}

/** Go's time.Duration.String(). */
export function goDuration(ns: number): string {
  const n = Math.floor(ns);
  if (n === 0) return '0s';
  if (n < 1_000) return `${n}ns`;
  const decimal = (value: number, unit: number): string => {
    const whole = Math.floor(value / unit);
    const rest = value % unit;
    if (rest === 0) return String(whole);
    const digits = String(unit).length - 1;
    return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
  };
  if (n < 1_000_000) return `${decimal(n, 1_000)}µs`;
  if (n < 1_000_000_000) return `${decimal(n, 1_000_000)}ms`;
  const hours = Math.floor(n / 3_600_000_000_000);
  const minutes = Math.floor((n % 3_600_000_000_000) / 60_000_000_000);
  const seconds = decimal(n % 60_000_000_000, 1_000_000_000);
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
