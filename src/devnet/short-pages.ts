import { createHash } from 'node:crypto';
import type { DevnetHandler, DevnetRequest, DevnetResponse } from './http-types.ts';

/**
 * The short-pages mode (chaos `shortPages`): every Data API listing answers pages
 * shorter than asked, often empty, each with a `nextPageToken` while items remain,
 * as the real API may (the spec only bounds a page from above, and its filtered
 * listings do answer short). A client that pages by token still reads every item
 * exactly once; one that takes "fewer than asked" for "the end" loses items.
 *
 * It sits in front of the listing routes, which stay as they are: a wrapped token
 * holds the route's own token (of the page being cut), the size that page was read
 * with, and the offset reached in it. Each answer serves 0 to n - 1 of the page's
 * items when more follow (n the asked size, so a page is never full while items
 * remain; half the time at most 4, so large pages are short too), drawn from the seed,
 * the request and its token: the same request answers the same page, so a re-read
 * lands where it did. At most two empty pages in a row.
 *
 * The tokens hold a space and URL-reserved characters (`+&=?#%/`): a real token is
 * opaque, and a client must carry it as it came and send it URL-encoded.
 */

/** What a wrapped token holds. */
interface Cut {
  /** The route's own token of the page being cut; absent for the first page. */
  t?: string;
  /** The size that page was read with. */
  s: number;
  /** Items of that page already served. */
  o: number;
  /** Empty answers in a row, so the mode cannot answer empty forever. */
  z: number;
}

const PREFIX = 'short page ';
const SUFFIX = ' +&=?#%/';
const MAX_EMPTY_IN_A_ROW = 2;

function wrap(cut: Cut): string {
  return `${PREFIX}${Buffer.from(JSON.stringify(cut)).toString('base64url')}${SUFFIX}`;
}

function unwrap(token: string): Cut | undefined {
  if (!token.startsWith(PREFIX) || !token.endsWith(SUFFIX)) return undefined;
  try {
    const cut = JSON.parse(Buffer.from(token.slice(PREFIX.length, -SUFFIX.length), 'base64url').toString('utf8')) as Partial<Cut>;
    const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
    if (!count(cut.s) || cut.s < 1 || !count(cut.o) || !count(cut.z) || (cut.t !== undefined && typeof cut.t !== 'string')) return undefined;
    return { ...(cut.t !== undefined ? { t: cut.t } : {}), s: cut.s, o: cut.o, z: cut.z };
  } catch {
    return undefined;
  }
}

/** Half the answers hold at most this many items whatever the size asked: a large page is short too. */
const FEW = 4;

/** How many items to serve of `size` asked: in [0, size), often at most {@link FEW}, drawn from the seed and `text`. */
function draw(seed: number, text: string, size: number): number {
  if (size <= 1) return 0;
  const digest = createHash('sha256').update(`${seed}\n${text}`).digest();
  const bound = digest.readUInt8(4) % 2 === 0 ? Math.min(size, FEW + 1) : size;
  return digest.readUInt32BE(0) % bound;
}

/** The request's listing scope: its path and every parameter but the page's. */
function scopeOf(req: DevnetRequest): string {
  const params = [...req.query.entries()].filter(([name]) => name !== 'pageSize' && name !== 'pageToken').sort();
  return `${req.method} ${req.path}?${new URLSearchParams(params).toString()}\n${req.body}`;
}

/** The one array at the top of a listing's answer (its items), or undefined when there is not exactly one. */
function itemsKey(body: Record<string, unknown>): string | undefined {
  const keys = Object.keys(body).filter((key) => Array.isArray(body[key]));
  return keys.length === 1 ? keys[0] : undefined;
}

/**
 * Answers `req` through `handler` in the short-pages mode drawn from `seed`. Requests
 * that are not listings (no `pageSize` or `pageToken`), tokens the mode did not make,
 * and answers other than a 200 listing pass through as they are.
 */
export async function shortPage(handler: DevnetHandler, req: DevnetRequest, seed: number): Promise<DevnetResponse> {
  const rawToken = req.query.get('pageToken') ?? undefined;
  const rawSize = req.query.get('pageSize');
  if (rawToken === undefined && rawSize === null) return handler(req);
  const wrapped = rawToken === undefined ? undefined : unwrap(rawToken);
  if (rawToken !== undefined && !wrapped) return handler(req);
  const asked = rawSize !== null && /^\d{1,6}$/.test(rawSize) ? Number(rawSize) : undefined;
  const cut: Cut = wrapped ?? { s: asked ?? 0, o: 0, z: 0 };
  // A first page with a size the route refuses: let the route say so.
  if (cut.s < 1) return handler(req);
  const size = asked !== undefined && asked >= 1 ? asked : cut.s;

  const query = new URLSearchParams(req.query);
  query.set('pageSize', String(cut.s));
  if (cut.t === undefined) query.delete('pageToken');
  else query.set('pageToken', cut.t);
  const answer = await handler({ ...req, query });
  const body = listingBody(answer);
  const key = body && itemsKey(body);
  if (!body || key === undefined) return answer;

  const items = body[key] as unknown[];
  const next = typeof body['nextPageToken'] === 'string' && body['nextPageToken'] !== '' ? body['nextPageToken'] : undefined;
  const remaining = Math.max(items.length - cut.o, 0);
  let take = draw(seed, `${scopeOf(req)}\n${rawToken ?? ''}\n${size}`, size);
  if (cut.z >= MAX_EMPTY_IN_A_ROW) take = Math.max(take, 1);
  take = Math.min(take, remaining);
  const empty = take === 0 ? cut.z + 1 : 0;
  let nextToken: string | undefined;
  if (cut.o + take < items.length) nextToken = wrap({ ...(cut.t !== undefined ? { t: cut.t } : {}), s: cut.s, o: cut.o + take, z: empty });
  else if (next !== undefined) nextToken = wrap({ t: next, s: size, o: 0, z: empty });

  const { nextPageToken: _dropped, ...rest } = body;
  const { contentType: _serialised, ...plain } = answer;
  return { ...plain, body: { ...(nextToken !== undefined ? { nextPageToken: nextToken } : {}), ...rest, [key]: items.slice(cut.o, cut.o + take) } };
}

/** The JSON object of a 200 answer, parsed again when a route serves it as bytes (its page cache); else undefined. */
function listingBody(answer: DevnetResponse): Record<string, unknown> | undefined {
  if (answer.status !== 200) return undefined;
  let body = answer.body;
  if (answer.contentType !== undefined) {
    if (!answer.contentType.startsWith('application/json') || !(Buffer.isBuffer(body) || typeof body === 'string')) return undefined;
    body = JSON.parse(body.toString()) as unknown;
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}
