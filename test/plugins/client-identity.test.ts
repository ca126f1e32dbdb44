import { describe, expect, it } from 'vitest';
import {
  createClientIdentity, keyDigest, LOOKUP_INTERVAL_MS, MAX_LOOKUPS_IN_FLIGHT, type AnsweredAttempt, type ClientIdentityOptions, type KeyVerdict, type KeyVerdictStore,
} from '../../src/gateway/plugins/client-identity.ts';
import { shortDigest } from '../../src/lib/text.ts';

const ADDRESS = '203.0.113.9';
const keyed = (key: string): Request => new Request('http://gw.test/graphql', { headers: { 'x-service-api-key': key } });
const answer = (status: number | undefined, operation = 'GET /v1/chains', upstream = 'data-api'): AnsweredAttempt => ({ upstream, operation, ...(status !== undefined ? { status } : {}) });

/** An identity on a clock the test moves (starting away from 0: lru-cache reads a start of 0 as "no TTL"). */
function clocked(options: ClientIdentityOptions = {}) {
  const clock = { t: 1_000 };
  const identity = createClientIdentity({ now: () => clock.t, ...options });
  return { identity, clock };
}

/** A store in memory that records what it was told, and can be held (its lookups never answer). */
function recordingStore(options: { hold?: boolean } = {}) {
  const entries = new Map<string, { verdict: KeyVerdict; ttlMs: number }>();
  const gets: string[] = [];
  const sets: { digest: string; verdict: KeyVerdict; ttlMs: number }[] = [];
  const store: KeyVerdictStore = {
    get(digest) {
      gets.push(digest);
      return options.hold ? new Promise(() => undefined) : Promise.resolve(entries.get(digest));
    },
    async set(digest, verdict, ttlMs) {
      sets.push({ digest, verdict, ttlMs });
      entries.set(digest, { verdict, ttlMs });
    },
  };
  return { store, entries, gets, sets };
}

/** Lets the store's answers land (they are promises the identity does not wait for). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a key becomes an identity only once the Data API accepted it', () => {
  it('counts a key against its address until a Data API 2xx to a call that carried it; then key:<digest>', () => {
    const { identity } = clocked();
    expect(identity.clientOf(keyed('team-a'), ADDRESS)).toBe(`addr:${ADDRESS}`);
    identity.answered('team-a', answer(200));
    const client = identity.clientOf(keyed('team-a'), ADDRESS);
    expect(client).toBe(`key:${keyDigest('team-a')}`);
    expect(client).not.toContain('team-a');
    // Another key behind the same address is still the address's.
    expect(identity.clientOf(keyed('team-b'), ADDRESS)).toBe(`addr:${ADDRESS}`);
  });

  it('many made-up keys from one address are one client', () => {
    const { identity } = clocked();
    const clients = new Set(Array.from({ length: 50 }, (_, i) => identity.clientOf(keyed(`made-up-${i}`), ADDRESS)));
    expect([...clients]).toEqual([`addr:${ADDRESS}`]);
  });

  it('learns nothing from another upstream, a health check, an error status or an attempt without an answer', () => {
    const { identity } = clocked();
    for (const attempt of [
      answer(200, 'info.getNodeID', 'node'),
      answer(200, 'GET /v1/health-check'),
      answer(200, 'GET /v1/live-check'),
      answer(404),
      answer(429),
      answer(500),
      answer(undefined),
    ]) {
      identity.answered('team-a', attempt);
    }
    expect(identity.clientOf(keyed('team-a'), ADDRESS)).toBe(`addr:${ADDRESS}`);
    expect(identity.refusedFor('team-a')).toBeUndefined();
    expect(identity.stats()).toMatchObject({ verified: 0, refused: 0 });
  });

  it('a malformed key is never an identity', () => {
    const { identity } = clocked();
    identity.answered('bad key, two', answer(200));
    expect(identity.clientOf(keyed('bad key, two'), ADDRESS)).toBe(`addr:${ADDRESS}`);
  });
});

describe('a refused key', () => {
  it('is refused for refusedKeyTtlMs from the refusal, counted against its address meanwhile, then may be tried again', () => {
    const { identity, clock } = clocked({ refusedKeyTtlMs: 60_000 });
    identity.answered('stolen', answer(401));
    expect(identity.refusedFor('stolen')).toBe(60_000);
    expect(identity.clientOf(keyed('stolen'), ADDRESS)).toBe(`addr:${ADDRESS}`);
    clock.t += 59_000;
    // Use does not extend a refusal, nor does another refusal of a call that was already in flight.
    identity.answered('stolen', answer(403));
    expect(identity.refusedFor('stolen')).toBe(1_000);
    clock.t += 1_001;
    expect(identity.refusedFor('stolen')).toBeUndefined();
  });

  it('a 401 or 403 takes an accepted key back; a later 2xx accepts it again', () => {
    const { identity } = clocked();
    identity.answered('rotated', answer(200));
    expect(identity.clientOf(keyed('rotated'), ADDRESS)).toMatch(/^key:/);
    identity.answered('rotated', answer(403));
    expect(identity.clientOf(keyed('rotated'), ADDRESS)).toBe(`addr:${ADDRESS}`);
    expect(identity.refusedFor('rotated')).toBeGreaterThan(0);
    identity.answered('rotated', answer(200));
    expect(identity.refusedFor('rotated')).toBeUndefined();
    expect(identity.clientOf(keyed('rotated'), ADDRESS)).toMatch(/^key:/);
  });
});

describe('the stores are bounded', () => {
  it('remembers at most maxVerifiedKeys accepted keys and maxRefusedKeys refused ones, whatever the callers send', () => {
    const { identity } = clocked({ maxVerifiedKeys: 100, maxRefusedKeys: 50 });
    for (let i = 0; i < 5_000; i += 1) {
      identity.answered(`accepted-${i}`, answer(200));
      identity.answered(`refused-${i}`, answer(401));
    }
    expect(identity.stats()).toMatchObject({ verified: 100, refused: 50 });
    // The least recently used went first.
    expect(identity.clientOf(keyed('accepted-4999'), ADDRESS)).toMatch(/^key:/);
    expect(identity.clientOf(keyed('accepted-0'), ADDRESS)).toBe(`addr:${ADDRESS}`);
  });

  it('forgets an accepted key verifiedKeyTtlMs after its last use; each use refreshes it', () => {
    const { identity, clock } = clocked({ verifiedKeyTtlMs: 10_000 });
    identity.answered('used', answer(200));
    identity.answered('idle', answer(200));
    for (let i = 0; i < 5; i += 1) {
      clock.t += 9_000;
      expect(identity.clientOf(keyed('used'), ADDRESS), `use ${i}`).toMatch(/^key:/);
    }
    expect(identity.clientOf(keyed('idle'), ADDRESS)).toBe(`addr:${ADDRESS}`);
    clock.t += 10_001;
    expect(identity.clientOf(keyed('used'), ADDRESS)).toBe(`addr:${ADDRESS}`);
  });

  it('refuses nonsense settings', () => {
    expect(() => createClientIdentity({ maxVerifiedKeys: 0 })).toThrow(/VERIFIED_KEYS_MAX/);
    expect(() => createClientIdentity({ verifiedKeyTtlMs: 1.5 })).toThrow(/VERIFIED_KEY_TTL_MS/);
    expect(() => createClientIdentity({ refusedKeyTtlMs: -1 })).toThrow(/REFUSED_KEY_TTL_MS/);
  });
});

describe('keys are held as digests, never as themselves', () => {
  it('names a key by a labelled SHA-256 (not a plain hash of the key), and tells the store only digests', async () => {
    const key = 'secret-key-0123456789abcdef';
    expect(keyDigest(key)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(keyDigest(key)).not.toBe(shortDigest(key, 22));
    const { store, gets, sets } = recordingStore();
    const { identity } = clocked({ store });
    identity.clientOf(keyed(key), ADDRESS);
    identity.answered(key, answer(200));
    identity.answered(`${key}-2`, answer(401));
    identity.refusedFor(`${key}-3`);
    await settled();
    const told = JSON.stringify({ gets, sets });
    expect(told).not.toContain(key);
    expect(sets.map((set) => set.digest)).toEqual([keyDigest(key), keyDigest(`${key}-2`)]);
    expect(gets).toEqual([keyDigest(key), keyDigest(`${key}-3`)]);
    expect(identity.clientOf(keyed(key), ADDRESS)).toBe(`key:${keyDigest(key)}`);
  });
});

describe('verdicts shared through a store (Redis with REDIS_URL)', () => {
  it('writes each verdict with its TTL; another replica learns it in the background, counting the key by address until then', async () => {
    const { store, sets } = recordingStore();
    const a = clocked({ store, verifiedKeyTtlMs: 600_000, refusedKeyTtlMs: 60_000 }).identity;
    const b = clocked({ store }).identity;
    a.answered('team-a', answer(200));
    a.answered('stolen', answer(401));
    await settled();
    expect(sets).toEqual([
      { digest: keyDigest('team-a'), verdict: 'accepted', ttlMs: 600_000 },
      { digest: keyDigest('stolen'), verdict: 'refused', ttlMs: 60_000 },
    ]);
    // Replica b: its first look is its own view (the address), and starts the lookup.
    expect(b.clientOf(keyed('team-a'), ADDRESS)).toBe(`addr:${ADDRESS}`);
    expect(b.refusedFor('stolen')).toBeUndefined();
    await settled();
    expect(b.clientOf(keyed('team-a'), ADDRESS)).toBe(`key:${keyDigest('team-a')}`);
    expect(b.refusedFor('stolen')).toBe(60_000);
  });

  it('keeps a verdict it reached itself over an older one from the store', async () => {
    const { store, entries } = recordingStore();
    entries.set(keyDigest('rotated'), { verdict: 'accepted', ttlMs: 600_000 });
    const { identity } = clocked({ store });
    identity.clientOf(keyed('rotated'), ADDRESS);
    identity.answered('rotated', answer(401));
    await settled();
    expect(identity.refusedFor('rotated')).toBeGreaterThan(0);
    expect(identity.clientOf(keyed('rotated'), ADDRESS)).toBe(`addr:${ADDRESS}`);
  });

  it('refreshes the shared entry of a key in use about twice per TTL, not at every use', async () => {
    const { store, sets } = recordingStore();
    const { identity, clock } = clocked({ store, verifiedKeyTtlMs: 10_000 });
    identity.answered('used', answer(200));
    for (let i = 0; i < 12; i += 1) {
      clock.t += 1_000;
      identity.clientOf(keyed('used'), ADDRESS);
      identity.answered('used', answer(200));
    }
    await settled();
    // Written when accepted, then once each time more than half the TTL had passed since the last write.
    expect(sets.map((set) => set.verdict)).toEqual(['accepted', 'accepted', 'accepted']);
  });

  it('bounds its lookups: one per key per interval, and at most a fixed number in flight', () => {
    const { store, gets } = recordingStore({ hold: true });
    const { identity, clock } = clocked({ store });
    for (let i = 0; i < 10; i += 1) identity.clientOf(keyed('same-key'), ADDRESS);
    expect(gets).toHaveLength(1);
    clock.t += LOOKUP_INTERVAL_MS + 1;
    identity.clientOf(keyed('same-key'), ADDRESS);
    expect(gets).toHaveLength(2);
    for (let i = 0; i < 1_000; i += 1) identity.clientOf(keyed(`made-up-${i}`), ADDRESS);
    expect(gets).toHaveLength(MAX_LOOKUPS_IN_FLIGHT);
    expect(identity.stats().lookups).toBe(MAX_LOOKUPS_IN_FLIGHT);
  });

  it('a store that fails reads as no verdict', async () => {
    const failing: KeyVerdictStore = { get: () => Promise.reject(new Error('down')), set: () => Promise.reject(new Error('down')) };
    const { identity } = clocked({ store: failing });
    expect(identity.clientOf(keyed('team-a'), ADDRESS)).toBe(`addr:${ADDRESS}`);
    identity.answered('team-a', answer(200));
    await settled();
    expect(identity.clientOf(keyed('team-a'), ADDRESS)).toMatch(/^key:/);
    expect(identity.stats().lookups).toBe(0);
  });
});
