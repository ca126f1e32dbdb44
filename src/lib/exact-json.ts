/**
 * `JSON.parse` for upstream answers that keeps every digit of an integer a double cannot hold.
 *
 * `JSON.parse` reads every number literal as a double, so `9007199254740993` silently becomes
 * `9007199254740992`, and Node 20 has no way to see a literal's source text from a reviver. So
 * an integer literal beyond `Number.MAX_SAFE_INTEGER` (outside strings) is rewritten into a JSON
 * string of the same digits before the parse: the tolerant shapes read it as a decimal string
 * (amounts, uint64 values) or refuse it as a number that does not fit (counts), and nothing is
 * ever served rounded. Fractions and exponent forms are left alone: they are doubles by nature.
 *
 * Nearly no answer holds such a literal, so the rewrite runs only when a cheap scan finds an
 * integer literal of 16 or more digits where a JSON value may start (after `:`, `,`, `[` or at
 * the start): amounts sent as decimal strings follow a `"` and never trigger it. A string whose
 * text looks like that (`"note": "a: 1234567890123456"`) only costs the rewrite, which reads
 * strings whole and never changes them.
 */

/** An integer literal of 16+ digits where a JSON value may start: the test nearly every answer fails. */
const MAYBE_LONG_INTEGER = /(?:^|[:,[])\s*-?[1-9]\d{15}/;

/**
 * A string literal (matched whole, so digits inside strings are never touched), or an integer
 * literal of 16+ digits: not the fraction or exponent of another number (lookbehind), not followed
 * by its own fraction or exponent (lookahead). A leading zero is no JSON number and is left as is,
 * so the parse still refuses it.
 */
const STRING_OR_LONG_INTEGER = /"[^"\\]*(?:\\.[^"\\]*)*"|(?<![\d.eE+-])(-?[1-9]\d{15,})(?![\d.eE])/g;

/** `Number.MAX_SAFE_INTEGER`'s digits: a 16-digit literal above them is not a safe integer. */
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

/** True when the integer literal (digits, maybe a leading `-`) is beyond ±`Number.MAX_SAFE_INTEGER`. */
export function isUnsafeIntegerText(literal: string): boolean {
  const digits = literal.startsWith('-') ? literal.slice(1) : literal;
  if (digits.length !== MAX_SAFE_DIGITS.length) return digits.length > MAX_SAFE_DIGITS.length;
  // Same length, no leading zero: the text order is the numeric order.
  return digits > MAX_SAFE_DIGITS;
}

/**
 * Parses JSON text as `JSON.parse` does, except that an integer literal beyond
 * ±`Number.MAX_SAFE_INTEGER` becomes a string of its exact digits (`"-9007199254740993"`).
 * Throws `SyntaxError` on text that is not JSON, as `JSON.parse`.
 */
export function parseExactJson(text: string): unknown {
  if (!MAYBE_LONG_INTEGER.test(text)) return JSON.parse(text) as unknown;
  return JSON.parse(quoteUnsafeIntegers(text)) as unknown;
}

/** The text with every integer literal beyond the safe range (outside strings) written as a string. */
export function quoteUnsafeIntegers(text: string): string {
  return text.replace(STRING_OR_LONG_INTEGER, (token: string, integer: string | undefined) =>
    integer !== undefined && isUnsafeIntegerText(integer) ? `"${integer}"` : token,
  );
}
