import type { Devnet } from '../../src/devnet/server.ts';
import type { DataApi, NodeClient } from '../../src/upstream/client-types.ts';

/** One upstream call a tracked client was asked to make, and the round it belongs to (1-based). */
export interface TrackedCall {
  /** The Data API method (`listValidators`) or the node and its method (`mainnet info.peers`). */
  operation: string;
  round: number;
}

/** What some tracked work asked of the upstreams. */
export interface Tracked<T> {
  result: T;
  /** Every call, in the order it was issued. */
  calls: TrackedCall[];
  /** Sequential rounds: the round of the last call, 0 when the work made none. */
  rounds: number;
  /** The operations of each round, in issue order (round 1 first): what a failing assertion shows. */
  perRound: string[][];
}

/**
 * Counts upstream rounds from the loaders' own dispatch, never from the clock.
 *
 * A call is in round 1 when it is issued before any tracked call has answered, and
 * in round k + 1 when it is issued after the answers of round k. Under free-running
 * I/O that definition depends on timing: if one call of round 1 answers early and
 * what it caused answers before a slower sibling of round 1, the sibling's own
 * consequences would look like round 3. So the tracker runs the rounds in lockstep:
 * while tracking, it holds every answer (and error) of the current round until the
 * whole round has answered, then hands them all back in one macrotask, in the order
 * the calls were issued, and opens the next round. Nobody sees an answer of round
 * k + 1 before every answer of round k, so a call issued between two hand-backs
 * depends on round k at most: the count, and the calls of each round in their
 * order, are the same on an idle machine and a loaded one, however the upstream
 * answers interleave. (The batches are deterministic too: what one round's answers
 * cause is batched together, as DataLoader does when those answers arrive together.)
 *
 * A round is handed back from a `setImmediate` after its last answer, so the
 * microtasks and `process.nextTick` callbacks already queued (DataLoader dispatches
 * a batch from one) can still add calls to the round first; a call that only
 * settles in a microtask (a refusal before sending) cannot close its round early.
 * What a loader would issue only after a timer or untracked I/O is outside this
 * model; the loaders dispatch on ticks.
 *
 * One piece of work at a time: calls made while nothing is tracked pass straight
 * through (a gateway warming its node directory, a test's own setup reads).
 */
export interface RoundTracker {
  /** `client` with every method except `close` tracked (same object type, so `close` still works). */
  dataApi<C extends DataApi>(client: C): C;
  /** `node` with `call` and `healthGet` tracked; `name`, `url` and `close` pass through. */
  node<N extends NodeClient>(node: N): N;
  /** Runs `work` with tracking on and reports its calls by round. */
  track<T>(work: () => Promise<T>): Promise<Tracked<T>>;
  /**
   * Resolves once every call sent through the tracked clients (tracked or not) has answered,
   * and nothing those answers caused on a tick is left in flight either: a wait for background
   * calls (a gateway warming its node directory, resolvers still running after a response was
   * cut short) that does not guess how long they take.
   */
  settled(): Promise<void>;
}

interface Round {
  /** Calls issued in this round. */
  issued: number;
  /** Calls of this round still waiting for their answer. */
  pending: number;
  /** Per call, in issue order: hands its outcome to its caller; all run when the whole round has answered. */
  held: (() => void)[];
  /** A hand-back is scheduled (`setImmediate`). */
  scheduled: boolean;
}

interface Session {
  calls: TrackedCall[];
  /** The open round: new calls join it. */
  current: Round;
  /** Its number (1-based). */
  number: number;
}

const newRound = (): Round => ({ issued: 0, pending: 0, held: [], scheduled: false });

export function createRoundTracker(): RoundTracker {
  let session: Session | undefined;

  /** Opens the next round, then hands the closed round's outcomes back, all in this one macrotask. */
  const handBack = (s: Session, round: Round): void => {
    round.scheduled = false;
    // A call issued after the round's last answer (from a tick still queued then) joined it: wait for it too.
    if (round.pending > 0) return;
    if (s.current === round) {
      s.current = newRound();
      s.number += 1;
    }
    // In issue order, not answer order: what the answers cause is then issued in the same order on every run.
    for (const deliver of round.held.splice(0)) deliver();
  };

  const answered = (s: Session, round: Round, slot: number, deliver: () => void): void => {
    round.held[slot] = deliver;
    round.pending -= 1;
    if (round.pending === 0 && !round.scheduled) {
      round.scheduled = true;
      setImmediate(() => handBack(s, round));
    }
  };

  /** Calls sent and not answered yet, tracked or not; `settled` waits for none. */
  let inFlight = 0;
  const whenSettled: (() => void)[] = [];
  const send = <T>(call: () => Promise<T>): Promise<T> => {
    let sent: Promise<T>;
    try {
      sent = call();
    } catch (error) {
      sent = Promise.reject(error as Error);
    }
    inFlight += 1;
    const done = (): void => {
      inFlight -= 1;
      if (inFlight === 0) for (const wake of whenSettled.splice(0)) wake();
    };
    sent.then(done, done);
    return sent;
  };

  const issue = <T>(operation: string, call: () => Promise<T>): Promise<T> => {
    const s = session;
    if (!s) return send(call);
    const round = s.current;
    s.calls.push({ operation, round: s.number });
    const slot = round.issued++;
    round.pending += 1;
    return new Promise<T>((resolve, reject) => {
      send(call).then(
        (value) => answered(s, round, slot, () => resolve(value)),
        (error: unknown) => answered(s, round, slot, () => reject(error)),
      );
    });
  };

  return {
    dataApi<C extends DataApi>(client: C): C {
      return new Proxy(client, {
        get(target, prop, receiver) {
          const value: unknown = Reflect.get(target, prop, receiver);
          if (typeof value !== 'function' || prop === 'close' || typeof prop !== 'string') return value;
          return (...args: unknown[]) => issue(prop, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        },
      });
    },

    node<N extends NodeClient>(node: N): N {
      return new Proxy(node, {
        get(target, prop, receiver) {
          const value: unknown = Reflect.get(target, prop, receiver);
          if (prop === 'call') {
            const call: NodeClient['call'] = (method, params, opts) => issue(`${target.name} ${method}`, () => target.call(method, params, opts));
            return call;
          }
          if (prop === 'healthGet') {
            const healthGet: NodeClient['healthGet'] = (path, tags, opts) => issue(`${target.name} health GET ${path}`, () => target.healthGet(path, tags, opts));
            return healthGet;
          }
          return value;
        },
      });
    },

    async track<T>(work: () => Promise<T>): Promise<Tracked<T>> {
      if (session) throw new Error('the round tracker already tracks some work: track one piece of work at a time');
      const s: Session = { calls: [], current: newRound(), number: 1 };
      session = s;
      try {
        const result = await work();
        const perRound: string[][] = [];
        for (const call of s.calls) (perRound[call.round - 1] ??= []).push(call.operation);
        return { result, calls: s.calls, rounds: perRound.length, perRound };
      } finally {
        session = undefined;
      }
    },

    async settled(): Promise<void> {
      for (;;) {
        if (inFlight > 0) await new Promise<void>((resolve) => whenSettled.push(resolve));
        // What the last answers cause is issued on ticks: let it be issued before calling the calls settled.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (inFlight === 0) return;
      }
    },
  };
}

/** What some work cost upstream: requests as the devnet served them, rounds as the loaders dispatched them. */
export interface Measured<T> {
  result: T;
  /** Requests served, by route (`GET /v1/networks/{network}/delegators`, `POST info.peers`), as the devnet counted them. */
  byRoute: Record<string, number>;
  requests: number;
  /** Sequential upstream rounds, counted from dispatch (see {@link RoundTracker}); the same on any machine. */
  rounds: number;
  /** The calls of each round (`listDelegators`, `mainnet info.peers`), for failure messages. */
  perRound: string[][];
}

/** Runs `work` on clean devnet stats with `tracker` on: its requests by route and its calls by round. */
export async function measureOn<T>(devnet: Devnet, tracker: RoundTracker, work: () => Promise<T>): Promise<Measured<T>> {
  devnet.resetStats();
  const tracked = await tracker.track(work);
  const stats = devnet.stats();
  return { result: tracked.result, byRoute: stats.byRoute, requests: stats.requests, rounds: tracked.rounds, perRound: tracked.perRound };
}
