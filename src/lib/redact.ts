/**
 * Keeping secrets out of what the gateway says: every error message built from an upstream's text and
 * every log line passes a {@link Redactor}, which replaces each configured secret (the server's Data API
 * key, the admin, cursor and metrics secrets, a caller's own key) and every credential carried by a URL
 * with `[redacted]`; {@link excerpt} is the one way an upstream's text becomes part of a message.
 */

/** What a secret becomes. No quote or backslash, so redacting inside a JSON log line keeps it valid JSON. */
export const REDACTED = '[redacted]';

/** Longest excerpt of an upstream's text a message carries, in characters. */
export const EXCERPT_MAX_LENGTH = 200;

export interface Redactor {
  /**
   * `text` with every secret replaced by {@link REDACTED}: as is, percent-encoded in whole or in part
   * (`%2B` or `+` for a space, either hex case), or JSON-escaped; and with the credentials of any URL in
   * it (its user info, query parameters named like a key, token, secret, password or signature).
   */
  redact(text: string): string;
  /** A redactor that also hides these (a request's own API key); this one when there is nothing new. */
  with(secrets: Iterable<string | undefined>): Redactor;
}

/** Query parameter names whose values are credentials (`?api_key=`, `&token=`, `&X-Amz-Signature=`...). */
const CREDENTIAL_PARAM = /(?:key|token|secret|passw(?:or)?d|pwd|auth|signature|sig|session|credential)/i;
/**
 * A URL query parameter: its separator, name and value. No class spans a separator, so each match
 * ends at the next one and the scan stays linear whatever the text.
 */
const QUERY_PARAM = /([?&;])([^=&;?#\s"'<>]+)=([^&;#\s"'<>]+)/g;
/** The user info of a URL (`https://user:password@host`, `redis://:password@host`, `https://token@host`). */
const USER_INFO = /:\/\/[^/?#\s"'<>@]+@/g;
/** URLs in a text, for {@link urlSecrets}. */
const URLS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s,"'<>]+/gi;

/**
 * A redactor of these secrets (empty and repeated values are ignored). The secrets become one regular
 * expression, longest first, built once: redacting is one linear scan, and with no secret configured
 * only the URL scans run, each skipped at once when the text holds no `=` or `://`.
 */
export function createRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const known = new Set<string>();
  for (const secret of secrets) if (secret) known.add(secret);
  const pattern = known.size === 0 ? undefined : new RegExp([...known].sort((a, b) => b.length - a.length).map(secretPattern).join('|'), 'g');
  const self: Redactor = {
    redact(text: string): string {
      let out = pattern ? text.replace(pattern, REDACTED) : text;
      if (out.includes('://')) out = out.replace(USER_INFO, `://${REDACTED}@`);
      if (out.includes('=')) out = out.replace(QUERY_PARAM, (param, separator: string, name: string) => (CREDENTIAL_PARAM.test(name) ? `${separator}${name}=${REDACTED}` : param));
      return out;
    },
    with(more: Iterable<string | undefined>): Redactor {
      const added = [...more].filter((secret): secret is string => secret !== undefined && secret !== '' && !known.has(secret));
      return added.length === 0 ? self : createRedactor([...known, ...added]);
    },
  };
  return self;
}

/** A redactor that hides nothing but URL credentials, for callers that were given none. */
export const URL_REDACTOR: Redactor = createRedactor();

/**
 * A secret as a pattern that matches it however an echo may have encoded it: each character as is,
 * percent-encoded (its UTF-8 bytes, either hex case; `+` for a space) or JSON-escaped, character by
 * character, so a partly encoded echo (`abc%2Bdef` for `abc+def`) is found too.
 */
function secretPattern(secret: string): string {
  let pattern = '';
  for (const char of secret) {
    const forms = [escapeRegExp(char), [...Buffer.from(char, 'utf8')].map(percentPattern).join('')];
    if (char === ' ') forms.push('\\+');
    const json = JSON.stringify(char).slice(1, -1);
    if (json !== char) forms.push(escapeRegExp(json));
    pattern += `(?:${forms.join('|')})`;
  }
  return pattern;
}

/** `%2f` or `%2F`: one byte percent-encoded, in either hex case. */
function percentPattern(byte: number): string {
  return `%${[...byte.toString(16).padStart(2, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('')}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

// Controls (C0, DEL, C1), the line and paragraph separators, and the bidirectional overrides a reader's
// terminal would obey: removed, so an echo cannot forge log lines, reorder what is shown, or split a
// secret to slip past the redactor.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const SPACES = /\s+/g;

/**
 * An upstream's text as a message may carry it: controls removed, whitespace runs made one space,
 * redacted (before it is cut, so no secret is cut in half and half shown) and cut to `maxLength`
 * characters. Undefined when nothing is left.
 */
export function excerpt(text: string | undefined, redactor: Redactor = URL_REDACTOR, maxLength = EXCERPT_MAX_LENGTH): string | undefined {
  if (text === undefined) return undefined;
  const line = redactor.redact(text.replace(CONTROL, '').replace(SPACES, ' ').trim());
  if (line === '') return undefined;
  if (line.length <= maxLength) return line;
  // Never half of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(line.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
  return `${line.slice(0, end)}…`;
}

/**
 * The credentials in the URLs of a text (a setting such as `NODE_URLS` or `REDIS_URL`): each URL's user
 * name and password, and the values of its query parameters named like a credential, decoded (the
 * redactor finds their encoded forms too).
 */
export function urlSecrets(...texts: (string | undefined)[]): string[] {
  const found: string[] = [];
  for (const text of texts) {
    for (const candidate of text?.match(URLS) ?? []) {
      let url: URL;
      try {
        url = new URL(candidate);
      } catch {
        continue;
      }
      for (const part of [url.username, url.password]) if (part) found.push(safeDecode(part));
      for (const [name, value] of url.searchParams) if (value && CREDENTIAL_PARAM.test(name)) found.push(value);
    }
  }
  return found;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * pino options that pass every log line through the redactor as it is written (`hooks.streamWrite`): it
 * sees the finished line, so the message, every field, `err.message`, `err.stack` and the causes pino
 * appends are all covered by one scan, whatever logged them (yoga's masked errors included).
 */
export function redactingLogOptions(redactor: Redactor): { hooks: { streamWrite: (line: string) => string } } {
  return { hooks: { streamWrite: (line) => redactor.redact(line) } };
}
