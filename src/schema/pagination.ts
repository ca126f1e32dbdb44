import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { GraphQLError } from 'graphql';
import { badInput, codedError, ErrorCode } from '../errors/graphql.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import { isCarriablePageToken, MAX_PAGE_TOKEN_BYTES } from '../lib/pages.ts';
import { shortDigest } from '../lib/text.ts';
import { PAGES, type PageSpec } from '../shapes/index.ts';

export { PAGES, type PageSpec };


/**
 * What a cursor carries: a position in the listing, as the upstream page it counts
 * from (its `pageToken`, absent for the first page, and the `pageSize` it was read
 * with) and how many items from that page's start were already seen, plus hashes
 * binding it to the connection's arguments and parent.
 *
 * `after` skips `i + 1` items from the start of that page, continuing into the pages
 * after it when the page holds fewer: an upstream may answer a page shorter than asked,
 * or shorter when read again, and the items after a position are the same whatever
 * the page sizes that reach them.
 */
export interface CursorState {
  /** pageToken of the page the position counts from; undefined for the first page. */
  t?: string | undefined;
  /** pageSize that page was read with. */
  s: number;
  /**
   * Index of the item (from the page's start) the cursor stands on: an edge's cursor
   * is its item's index; -1 stands before the page's first item (where a connection
   * stopped at a page boundary, or before anything was seen).
   */
  i: number;
  /** Hash of connection name + arguments. */
  h: string;
  /** Hash of the parent (e.g. the validator for `Validator.delegators`), if any. */
  p?: string | undefined;
}

export function argsHash(page: PageSpec, args: unknown): string {
  return shortHash(`${page.name}:${canonicalJson(args)}`);
}

export function parentHash(parent: unknown): string {
  return shortHash(canonicalJson(parent));
}

/**
 * Cursor limits. A cursor is parsed against them before anything else. The page
 * token inside is the upstream's own text, carried as it came (see
 * `isCarriablePageToken`): the cursor is signed, so what reaches the upstream's
 * `pageToken` is always something the upstream itself produced, and it travels as a
 * URL-encoded query value, so it cannot smuggle other parameters.
 */
export const CURSOR_LIMITS = {
  /** Longest upstream page token a cursor may carry, UTF-8 bytes. */
  maxPageTokenBytes: MAX_PAGE_TOKEN_BYTES,
  /** Longest cursor accepted as `after`, characters (a cursor with the longest token is about 5,540). */
  maxCursorLength: 5632,
  /** Largest item index a cursor may carry (peers cursors count across the whole sorted list). */
  maxIndex: 1_000_000,
} as const;

/** True for a page token chaingraph will put in a cursor and send upstream. */
export const isPageToken = isCarriablePageToken;

/** Cursor secrets shorter than this are refused at start: a short HMAC key can be guessed. */
export const MIN_CURSOR_SECRET_LENGTH = 32;

/**
 * Mints and checks the cursors of one gateway. Cursors are authenticated with
 * HMAC-SHA256 under a server secret, so a client can hand back only positions the
 * gateway gave out: the page token, page size, index and both hashes are covered
 * together, and none can be edited or minted by hand.
 *
 * Made once per gateway (`createGateway`) and reached through the request context,
 * never a module-level global: two gateways in one process may use different secrets.
 */
export interface CursorCodec {
  encode(state: CursorState): string;
  /**
   * Parses and authenticates a cursor; throws BAD_USER_INPUT naming `argument`
   * (default `after`) when it is malformed, over a limit or not signed by this
   * deployment's secrets. Does not check which connection it belongs to: see {@link decodeCursor}.
   */
  verify(cursor: string, argument?: string): CursorState;
}

/**
 * A codec signing with `secrets[0]` and accepting a cursor signed by any of them,
 * so operators rotate by prepending a new secret and dropping the old one once the
 * cursors it signed no longer matter.
 *
 * Wire format: `base64url(payload) "." base64url(mac)` where payload is
 * `s.i.h.p.t` (size and index in base 36, the index possibly -1, both hashes, then
 * the token as the upstream sent it, which is last because it may hold any character,
 * dots included) and mac is the first 16 bytes of
 * HMAC-SHA256(secret, "chaingraph-cursor-v1\n" + payload).
 */
export function createCursorCodec(secrets: readonly string[]): CursorCodec {
  if (secrets.length === 0) throw new Error('createCursorCodec needs at least one secret');
  const keys = secrets.map((secret) => Buffer.from(secret, 'utf8'));
  const signer = keys[0] as Buffer;
  const mac = (key: Buffer, payload: string): Buffer =>
    createHmac('sha256', key).update(MAC_DOMAIN).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    encode(state) {
      if (state.t !== undefined && !isPageToken(state.t)) {
        // The Data API's reader refuses such a token when the page is read (with its operation); this guards every other source.
        throw codedError(ErrorCode.UPSTREAM_PROTOCOL_ERROR, 'The upstream answered a page token chaingraph cannot carry in a cursor', { upstreamField: 'nextPageToken' });
      }
      const payload = `${state.s.toString(36)}.${state.i < 0 ? '-1' : state.i.toString(36)}.${state.h}.${state.p ?? ''}.${state.t ?? ''}`;
      return `${Buffer.from(payload, 'utf8').toString('base64url')}.${mac(signer, payload).toString('base64url')}`;
    },
    verify(cursor, argument = 'after') {
      const { payload, presented, state } = readCursor(cursor, argument);
      // Every key is tried, so timing does not tell which one matched.
      let authentic = false;
      for (const key of keys) authentic = timingSafeEqual(mac(key, payload), presented) || authentic;
      if (!authentic) throw badCursor(...FOREIGN_CURSOR, argument);
      return state;
    },
  };
}

/**
 * Every cursor refusal in one voice: what happened to this cursor, then what to pass instead, and
 * always the way out (omit `after`). BAD_USER_INPUT naming `argument` (default `after`).
 */
export function badCursor(happened: string, instead: string, argument = 'after'): GraphQLError {
  return badInput(argument, `This cursor ${happened}: ${instead}, or omit \`after\` to start from the first page.`);
}

/** Where a good cursor comes from. */
const PASS_UNCHANGED = 'pass `pageInfo.endCursor` (or an edge\'s `cursor`) unchanged';
/**
 * A cursor whose signature this server does not accept: edited (the payload still reads), or signed
 * with a secret it does not hold (a restart without CURSOR_SECRET, a key rotated out, another deployment).
 */
const FOREIGN_CURSOR = ['was changed, or signed by another server or with a secret this one no longer holds (a restart without CURSOR_SECRET makes a new one)', `${PASS_UNCHANGED} from a page this server answered`] as const;
/** A text that is not a whole cursor. */
const NOT_A_CURSOR = ['is not one chaingraph issued, or it was cut short', PASS_UNCHANGED] as const;
/** A genuine cursor of another connection. */
const OTHER_CONNECTION = ['belongs to another list', "pass a cursor from this field's own `pageInfo.endCursor`"] as const;

/** Splits a cursor into its payload, MAC and state; throws BAD_USER_INPUT naming `argument` when malformed. */
function readCursor(cursor: unknown, argument: string): { payload: string; presented: Buffer; state: CursorState } {
  // Cut short or edited: the caller cannot repair a cursor, only take one again from a page.
  const bad = () => badCursor(...NOT_A_CURSOR, argument);
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > CURSOR_LIMITS.maxCursorLength) throw bad();
  const match = CURSOR_SHAPE.exec(cursor);
  if (!match) throw bad();
  const payload = Buffer.from(match[1] as string, 'base64url').toString('utf8');
  // Only the canonical encoding: one cursor text per position, and no stray bytes the MAC would not see.
  if (Buffer.from(payload, 'utf8').toString('base64url') !== match[1]) throw bad();
  const presented = Buffer.from(match[2] as string, 'base64url');
  // 22 base64url characters carry 132 bits for a 128-bit MAC: without this, four spare bits
  // would give each cursor sixteen spellings that all verify.
  if (presented.length !== MAC_BYTES || presented.toString('base64url') !== match[2]) throw bad();
  const state = parsePayload(payload);
  if (!state) throw bad();
  return { payload, presented, state };
}

/**
 * The shape checks of {@link decodeCursor} without the signature, for argument
 * checks that run without the request context (`validateArgs`). The signature is
 * checked before execution by `opaqueInputChecks` (run by `useInputValidation`) and again when the page is read.
 */
export function inspectCursor(cursor: string, page: PageSpec, hash: string): CursorState {
  return checkBinding(readCursor(cursor, 'after').state, page, hash);
}

const MAC_DOMAIN = 'chaingraph-cursor-v1\n';
const MAC_BYTES = 16;
/** base64url payload, a dot, base64url of the 16-byte MAC (22 characters). */
const CURSOR_SHAPE = /^([A-Za-z0-9_-]{4,5600})\.([A-Za-z0-9_-]{22})$/;
const HASH = /^[A-Za-z0-9_-]{12}$/;
const BASE36_INT = /^(0|[1-9a-z][0-9a-z]{0,6})$/;
/** An index: base 36, or -1 (before the page's first item). */
const INDEX = /^(-1|0|[1-9a-z][0-9a-z]{0,6})$/;

function parsePayload(payload: string): CursorState | undefined {
  const parts = payload.split('.');
  if (parts.length < 5) return undefined;
  const [size, index, hash, parent] = parts as [string, string, string, string];
  const token = parts.slice(4).join('.');
  if (!BASE36_INT.test(size) || !INDEX.test(index) || !HASH.test(hash)) return undefined;
  if (parent !== '' && !HASH.test(parent)) return undefined;
  if (token !== '' && !isPageToken(token)) return undefined;
  const s = parseInt(size, 36);
  const i = index === '-1' ? -1 : parseInt(index, 36);
  if (s < 1 || i > CURSOR_LIMITS.maxIndex) return undefined;
  return { s, i, h: hash, ...(parent ? { p: parent } : {}), ...(token ? { t: token } : {}) };
}

/**
 * Parses `CURSOR_SECRET`: a comma-separated list (the first signs, all verify),
 * shared by every replica behind one load balancer. Undefined when unset: the
 * gateway then makes a random secret, and cursors die with the process and do not
 * cross replicas. Throws on an entry shorter than {@link MIN_CURSOR_SECRET_LENGTH}.
 */
export function parseCursorSecrets(value: string | undefined): string[] | undefined {
  const secrets = (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (secrets.length === 0) return undefined;
  const short = secrets.findIndex((s) => s.length < MIN_CURSOR_SECRET_LENGTH);
  if (short !== -1) {
    throw new Error(`CURSOR_SECRET entry ${short + 1} is shorter than ${MIN_CURSOR_SECRET_LENGTH} characters (use e.g. \`openssl rand -hex 32\`)`);
  }
  return secrets;
}

/** A random secret for a lone process without `CURSOR_SECRET`. */
export function randomCursorSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Authenticates a cursor and checks that it belongs to this connection (page
 * spec and arguments); throws BAD_USER_INPUT naming `after` otherwise.
 */
export function decodeCursor(codec: CursorCodec, cursor: string, page: PageSpec, hash: string): CursorState {
  return checkBinding(codec.verify(cursor), page, hash);
}

function checkBinding(state: CursorState, page: PageSpec, hash: string): CursorState {
  if (state.s > page.maxSize) throw badCursor(...OTHER_CONNECTION);
  if (state.h !== hash) throw badCursor('was issued for other arguments (or another list)', 'pass the same arguments that produced it');
  return state;
}

/** Checks `first` against the endpoint's range; returns the page size to use. */
export function checkFirst(first: unknown, page: PageSpec): number {
  if (first === undefined || first === null) return page.defaultSize;
  if (typeof first !== 'number' || !Number.isInteger(first) || first < 1 || first > page.maxSize) {
    throw badInput('first', `must be between 1 and ${page.maxSize} for this connection (default ${page.defaultSize})`);
  }
  return first;
}

/** The arguments that bind a cursor: everything but `first` and `after`. */
export function filterArgs(args: Record<string, unknown>): Record<string, unknown> {
  const { first: _first, after: _after, ...rest } = args;
  return rest;
}

function shortHash(text: string): string {
  return shortDigest(text, 12);
}
