import type { CORSOptions, Plugin } from 'graphql-yoga';

/** Options of {@link corsOptions} and {@link useCorsPolicy}. */
export interface CorsPolicyOptions {
  /**
   * `CORS_ORIGINS`: the origins (`https://app.example.com`) whose pages may read the gateway's responses,
   * or `'*'` for any origin, without credentials. Default `'*'`: the API reads no cookies, and frontends
   * on any `localhost` port work out of the box.
   */
  origins?: '*' | readonly string[];
  /**
   * `CORS_CREDENTIALS`: answer `access-control-allow-credentials: true` to the listed origins, so their
   * pages may send cookies or HTTP auth. Only with an explicit list of `origins`. Default false.
   */
  credentials?: boolean;
}

/**
 * Parses `CORS_ORIGINS`: `*`, or comma-separated origins (`scheme://host[:port]`, no path but `/`), each
 * normalised as a browser sends it in `Origin` (lowercase host, no default port). Unset or empty: `*`.
 * Throws naming the variable on anything else, `null` included (the origin of sandboxed frames and
 * `file:` pages, which anyone can produce).
 */
export function parseCorsOrigins(value: string | undefined): '*' | string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 0 || entries.includes('*')) return '*';
  return entries.map((entry, index) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const bare = url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
    if (!url || !bare) {
      throw new Error(`CORS_ORIGINS entry ${index + 1} ("${entry.slice(0, 100)}") is not an origin: write scheme://host[:port] (e.g. https://app.example.com), or * for any origin`);
    }
    return url.origin;
  });
}

/**
 * Yoga's `cors` option for this policy: a listed origin (or any, with `'*'`) gets
 * `access-control-allow-origin` naming it (`Vary: Origin`), and credentials only when they are
 * allowed; any other origin gets no CORS header at all, so its pages cannot read a response (the
 * helper's own fallbacks, `null` or the first listed origin, are never sent).
 */
export function corsOptions(policy: CorsPolicyOptions = {}): (request: Request) => CORSOptions {
  const origins = policy.origins ?? '*';
  const credentials = policy.credentials === true;
  if (credentials && origins === '*') throw new Error('CORS credentials need an explicit list of origins (CORS_ORIGINS), not *');
  const listed = origins === '*' ? undefined : new Set(origins);
  // `'*'` makes the helper echo the request's Origin with `Vary: Origin`; it is only reached for an
  // origin already allowed. `credentials` is always explicit: left out, the helper would send `true`.
  const allowed: CORSOptions = { origin: '*', credentials };
  return (request) => {
    if (!listed) return allowed;
    const origin = request.headers.get('origin');
    return origin !== null && listed.has(origin) ? allowed : false;
  };
}

/**
 * With a list of origins, every response says it varies by `Origin` (an unlisted origin's response lacks
 * the CORS headers a listed one's has), so a shared cache never hands one origin's answer to another.
 * Nothing to do for `'*'`, where every response with an Origin already names it and varies by it.
 */
export function useCorsPolicy(policy: CorsPolicyOptions = {}): Plugin {
  if ((policy.origins ?? '*') === '*') return {};
  return {
    onResponse({ response }) {
      const vary = response.headers.get('vary');
      if (vary && /(^|,)\s*origin\s*(,|$)/i.test(vary)) return;
      try {
        response.headers.set('vary', vary ? `${vary}, Origin` : 'Origin');
      } catch {
        // A response with immutable headers (a Response.error()) is left as it is.
      }
    },
  };
}
